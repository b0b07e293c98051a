// Writes public/samples/wavy-cloth.ply: the Reconstruct panel's sample cloud, a 1 m wavy
// square cloth (the surface of the Morse tests' square_cloth: z = w sin(2 pi u) sin(2 pi v)
// + w/2 cos(3 pi u), w = 0.12 m) with 3,000 points, density varying by a factor of 3 and
// 2 mm Gaussian noise. Seeded (SplitMix64), so the file is the same on every run.
//   node scripts/make-sample-cloud.mjs
import { writeFileSync, mkdirSync } from 'node:fs';

let state = 0x7e1a2026n;
function next01() {
  state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  z ^= z >> 31n;
  return Number(z >> 11n) / 2 ** 53;
}
function normal() {
  const u = Math.max(next01(), 1e-300), v = next01();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const COUNT = 3000, WAVE = 0.12, NOISE = 0.002;
const lines = [];
while (lines.length < COUNT) {
  const u = next01(), v = next01();
  if (next01() >= 0.34 + 0.66 * 0.5 * (u + v)) continue; // density ramp
  const z = WAVE * Math.sin(2 * Math.PI * u) * Math.sin(2 * Math.PI * v) + 0.5 * WAVE * Math.cos(3 * Math.PI * u);
  const p = [u, v, z].map((c) => (c + NOISE * normal()).toFixed(5));
  lines.push(p.join(' '));
}
const header = ['ply', 'format ascii 1.0', 'comment tela sample: wavy square cloth, 1 m, 3000 points, 2 mm noise (scripts/make-sample-cloud.mjs)',
  `element vertex ${COUNT}`, 'property float x', 'property float y', 'property float z', 'end_header'];
mkdirSync(new URL('../public/samples/', import.meta.url), { recursive: true });
writeFileSync(new URL('../public/samples/wavy-cloth.ply', import.meta.url), [...header, ...lines, ''].join('\n'));
console.log(`wrote public/samples/wavy-cloth.ply (${COUNT} points)`);
