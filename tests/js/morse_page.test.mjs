// The Reconstruct panel's bindings (wasm/bindings/bind_pointcloud.cpp) through the WebAssembly
// module the page uses: parseCloud on the shipped sample and on malformed bytes, cleanCloud's
// steps against what they must do on a known cloud, and its option checks. Build first:
// scripts/build.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
let tela;

before(async () => {
  const wasmDir = join(root, 'web/src/wasm');
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  tela = await createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
});

const text = (s) => new TextEncoder().encode(s);

// a 21 x 21 grid on the unit square at z = 0 plus 10 far-away points
function gridWithOutliers() {
  const xyz = [];
  for (let i = 0; i <= 20; i++) for (let j = 0; j <= 20; j++) xyz.push(i / 20, j / 20, 0);
  for (let k = 0; k < 10; k++) xyz.push(5 + k, -5, 3 + k);
  return Float64Array.from(xyz);
}

describe('Reconstruct panel bindings', () => {
  test('parseCloud reads the shipped sample and gives located errors for malformed clouds', () => {
    const sample = tela.parseCloud(new Uint8Array(readFileSync(join(root, 'public/samples/wavy-cloth.ply'))), 'wavy-cloth.ply');
    assert.equal(sample.ok, true);
    assert.equal(sample.count, 3000);
    assert.equal(sample.positions.length, 9000);
    assert.match(sample.format, /^ply ascii/);
    assert.equal(sample.colors, null);
    const first = readFileSync(join(root, 'public/samples/wavy-cloth.ply'), 'utf8').split('end_header\n')[1].split('\n')[0].split(' ').map(Number);
    assert.deepEqual(Array.from(sample.positions.subarray(0, 3), (v) => Number(v.toFixed(5))), first);

    const bad = tela.parseCloud(text('ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 oops 0\n'), 'b.ply');
    assert.equal(bad.ok, false);
    assert.match(bad.error, /line/i);
    assert.equal(tela.parseCloud('not bytes', 'x').ok, false);
    assert.equal(tela.parseCloud(new Uint8Array(0), 'empty.xyz').ok, false);

    const rgb = tela.parseCloud(text('0 0 0 255 0 0\n1 0 0 0 255 0\n0 1 0 0 0 255\n'), 'c.xyz');
    assert.equal(rgb.ok, true);
    assert.equal(rgb.count, 3);
  });

  test('cleanCloud: crop, voxel and outlier steps do what they say, in order', () => {
    const cloud = gridWithOutliers();
    const none = tela.cleanCloud(cloud, {});
    assert.equal(none.ok, true);
    assert.equal(none.count, 451);
    assert.deepEqual(none.steps.map((s) => s.step), ['input']);

    // crop to the left half (x <= 0.5, bounds included): 11 columns of 21, no outlier
    const crop = tela.cleanCloud(cloud, { crop: { min: [-1, -1, -1], max: [0.5, 2, 1] } });
    assert.equal(crop.count, 11 * 21);
    // voxel 0.1 m anchored at the cropped grid's corner: 6 x 11 cubes of 0.1 m hold its points
    const voxel = tela.cleanCloud(crop.positions, { voxel: 0.1 });
    assert.equal(voxel.count, 6 * 11);
    // the 10 far points are statistical outliers of the grid
    const clean = tela.cleanCloud(cloud, { outlierK: 8, outlierRatio: 1 });
    assert.deepEqual(clean.steps.map((s) => s.step), ['input', 'outliers']);
    assert.equal(clean.count, 441);
    for (let i = 0; i < clean.positions.length; i += 3) assert.ok(clean.positions[i] <= 1 && clean.positions[i + 2] === 0);
  });

  test('cleanCloud: RANSAC removes a table plane under a bump', () => {
    const xyz = [];
    for (let i = 0; i <= 30; i++) for (let j = 0; j <= 30; j++) xyz.push(i / 30, j / 30, 0); // 961 table points
    for (let i = 0; i < 200; i++) xyz.push(0.4 + 0.001 * i, 0.5, 0.1 + 0.0005 * i);          // 200 points off the plane
    const out = tela.cleanCloud(Float64Array.from(xyz), { planes: 1, planeThreshold: 0.005, seed: 3 });
    assert.equal(out.ok, true);
    assert.equal(out.planes.length, 1);
    assert.ok(Math.abs(Math.abs(out.planes[0].normal[2]) - 1) < 1e-9);
    assert.equal(out.count, 200);
  });

  test('cleanCloud refuses bad options with a message naming them', () => {
    const cloud = gridWithOutliers();
    assert.match(tela.cleanCloud(cloud, { voxel: -1 }).error, /voxel/);
    assert.match(tela.cleanCloud(cloud, { voxel: 1e-300 }).error, /voxel: 1e-300 m is too small/);
    assert.match(tela.cleanCloud(cloud, { outlierK: 'x' }).error, /outlierK/);
    assert.match(tela.cleanCloud(cloud, { planes: 11 }).error, /planes/);
    for (const seed of [NaN, 1e30, -1, 0.5]) assert.match(tela.cleanCloud(cloud, { seed }).error, /seed must be a whole number/);
    assert.match(tela.cleanCloud(cloud, { crop: { min: [0, 0], max: [1, 1, 1] } }).error, /crop\.min/);
    assert.match(tela.cleanCloud([1, 2, 3], {}).error, /Float/);
    assert.match(tela.cleanCloud(new Float64Array(4), {}).error, /multiple of 3/);
    assert.match(tela.cleanCloud(cloud, { crop: { min: [1, 0, 0], max: [0, 1, 1] } }).error, /crop: .*min corner/);
  });

  test('the CLI cleans as the page does: same steps, same counts, same order (pointcloud/cleaning.h)', () => {
    // a table under a plateau, plus far outliers (the crop keeps half of them), written with
    // round-trip precision
    const xyz = [];
    for (let i = 0; i <= 30; i++) for (let j = 0; j <= 30; j++) xyz.push(i / 30, j / 30, 0);
    for (let i = 0; i < 15; i++) for (let j = 0; j < 15; j++) xyz.push(0.4 + 0.01 * i, 0.4 + 0.01 * j, 0.1 + 0.002 * i);
    for (let k = 0; k < 10; k++) xyz.push(5 + k, -5, 3 + k);
    const dir = mkdtempSync(join(tmpdir(), 'tela-clean-'));
    try {
      const file = join(dir, 'scene.xyz');
      const lines = [];
      for (let i = 0; i < xyz.length; i += 3) lines.push(`${xyz[i]} ${xyz[i + 1]} ${xyz[i + 2]}`);
      writeFileSync(file, lines.join('\n') + '\n');
      const page = tela.cleanCloud(Float64Array.from(xyz), {
        crop: { min: [-1, -10, -1], max: [9.5, 20, 20] }, voxel: 0.02, outlierK: 8, outlierRatio: 1.5,
        planes: 1, planeThreshold: 0.005, seed: 3,
      });
      assert.equal(page.ok, true, page.error);
      const run = spawnSync(join(root, 'build/tela'), ['reconstruct', file, '--crop', '-1,-10,-1,9.5,20,20', '--voxel', '0.02',
        '--outliers', '8,1.5', '--remove-planes', '1', '--plane-distance', '0.005', '--seed', '3'], { encoding: 'utf8', timeout: 60000 });
      const native = JSON.parse(run.stdout);
      assert.equal(run.status, 0, run.stdout);
      assert.deepEqual(native.cleaning, page.steps.map((s) => ({ step: s.step, count: s.count })));
      assert.deepEqual(native.cleaning.map((s) => s.step), ['input', 'crop', 'voxel', 'outliers', 'planes']);
      assert.equal(native.points_used, page.count);
      const counts = native.cleaning.map((s) => s.count);
      assert.ok(counts[1] < counts[0] && counts[3] < counts[2] && counts[4] < counts[3], counts.join(' '));  // each step acts
      for (const [args, message] of [[['--crop', '1,2,3'], /--crop: needs the box's corners/],
        [['--outliers', '0'], /--outliers: needs K/], [['--remove-planes', '11'], /--remove-planes: /],
        [['--mesh-nodes', '-1'], /--mesh-nodes: /]]) {
        const bad = spawnSync(join(root, 'build/tela'), ['reconstruct', file, ...args], { encoding: 'utf8', timeout: 60000 });
        assert.equal(bad.status, 2, args.join(' '));
        assert.match(JSON.parse(bad.stdout).error, message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
