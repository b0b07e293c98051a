// Benchmark runner: the native figures from build/tela_bench, passed through, then the same
// scenes, for the same full duration (the fastest of up to 5 runs, as natively), through the WebAssembly module under node, with the same
// figure names (wasm_ instead of native_) plus the wasm/native time ratio. One
// `BENCH <name> <value> <unit>` per line; other lines are plain-text headers.
// Figures, not tests: nothing here asserts on time. Build first: scripts/build.sh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

// the scenes bench/bench.cpp runs, each for its scenario's full duration (napkin-fold's 2.5 s
// take a few minutes in wasm: one run); with section arguments, only the named ones
const SECTIONS = process.argv.slice(2);
const SCENES = ['hang-7x9', 'hang-20x33', 'hang-30x30', 'tablecloth', 'cylinder-mu-0.55', 'napkin-fold']
  .filter((scene) => SECTIONS.length === 0 || SECTIONS.includes(scene));

// names compared loosely: native_hang-7x9_... and native_hang_7x9_... are the same figure
const key = (name) => name.replace(/[^A-Za-z0-9]+/g, '_');

const native = new Map();
const benchBinary = join(root, 'build/tela_bench');
if (existsSync(benchBinary)) {
  // `node bench/run.mjs [SECTION...]`: the sections are passed to tela_bench (bench/bench.cpp);
  // 'page' runs bench/page.mjs, 'morse' also the wasm reconstruction
  const run = spawnSync(benchBinary, SECTIONS, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  for (const line of run.stdout.split('\n')) {
    if (!line.trim()) continue;
    console.log(line);
    const [tag, name, value] = line.trim().split(/\s+/);
    if (tag === 'BENCH') native.set(key(name), Number(value));
  }
  if (run.status !== 0) {
    console.error(`bench: build/tela_bench exited with ${run.status ?? run.signal}`);
    process.exitCode = 1;
  }
} else {
  console.error('bench: build/tela_bench not built (no bench/*.cpp yet?); native figures skipped');
}

const wasmDir = join(root, 'web/src/wasm');
const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
// docs/toolchain.md, "Emscripten 3.1.6 with Node 20", trap 3: node needs the wasm bytes handed over
const tela = await createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });

const fmt = (x) => Number(x.toPrecision(4));
const MAX_RUNS = 5;
const REPEAT_BUDGET = 10;  // seconds of wall time per scene
console.log(`wasm (web/src/wasm/tela.mjs under node), each scene for its full duration, the fastest of up to ${MAX_RUNS} runs`);
// warm-up, not timed: V8 first runs wasm code from its baseline compiler, optimizes the hot
// functions in the background and installs them between event-loop turns; without this the
// first scene's figure would mostly measure compilation (the steady state is what the page sees)
for (let round = 0; round < (SCENES.length ? 2 : 0); round++) {
  const warm = tela.createSimulation(tela.sceneJson('hang-7x9'));
  if (warm.ok()) warm.step(300);
  warm.delete();
  await new Promise((resolve) => setTimeout(resolve, 100));
}
for (const scene of SCENES) {
  const json = tela.sceneJson(scene);
  if (!json) {
    console.error(`bench: no built-in scene ${scene}`);
    process.exitCode = 1;
    continue;
  }
  const { solver: { dt }, duration } = JSON.parse(json);
  // as Simulation::steps_for_duration()
  const steps = Math.ceil(duration / dt - 1e-9);
  // as bench/bench.cpp: the fastest of up to MAX_RUNS runs within REPEAT_BUDGET seconds, every
  // run ending in the same state
  const walls = [];
  let summary = null;
  let failure = null;
  while (walls.length < MAX_RUNS) {
    const sim = tela.createSimulation(json);
    if (!sim.ok()) {
      failure = sim.error();
      sim.delete();
      break;
    }
    const begin = performance.now();
    sim.step(steps);
    walls.push((performance.now() - begin) / 1000);
    if (sim.failed()) failure = `failed: ${sim.failureMessage()}`;
    const run = failure ? null : JSON.parse(sim.summary());
    sim.delete();
    if (failure) break;
    if (summary && run.state_hash !== summary.state_hash) {
      failure = `not deterministic: state ${summary.state_hash} after run 1, ${run.state_hash} after run ${walls.length}`;
      break;
    }
    summary = run;
    if (walls[0] * (walls.length + 1) > REPEAT_BUDGET) break;
  }
  if (failure) {
    console.error(`bench: ${scene}: ${failure}`);
    process.exitCode = 1;
    continue;
  }
  const sorted = [...walls].sort((a, b) => a - b);
  const perSimSecond = sorted[0] / summary.sim_time;
  const median = sorted[Math.floor(sorted.length / 2)] / summary.sim_time;
  const n = summary.steps;

  console.log(`${scene}: ${summary.nodes} nodes, ${n} steps, ${summary.sim_time.toFixed(3)} s simulated, state ${summary.state_hash}, fastest of ${walls.length} runs`);
  const prefix = `BENCH wasm_${scene}`;
  console.log(`${prefix}_s_per_sim_s ${fmt(perSimSecond)} s`);
  if (walls.length > 1) console.log(`${prefix}_s_per_sim_s_median ${fmt(median)} s`);
  console.log(`${prefix}_iterations_per_step ${fmt(summary.mean_iterations)} iter`);
  console.log(`${prefix}_substeps_per_step ${fmt(summary.mean_substeps)} substeps`);
  console.log(`${prefix}_factorizations_per_step ${fmt(summary.factorizations / n)} count`);
  console.log(`${prefix}_inner_iterations_per_step ${fmt(summary.inner_iterations / n)} iter`);
  const nativeFigure = native.get(key(`native_${scene}_s_per_sim_s`));
  if (nativeFigure > 0) {
    console.log(`BENCH wasm_over_native_${scene} ${fmt(perSimSecond / nativeFigure)} x`);
  }
}

const wanted = (section) => SECTIONS.length === 0 || SECTIONS.includes(section);

// Morse reconstruction: a 30 000-point tube around the (2,3) torus knot (the shape and size of
// bench/bench_morse.cpp's cloud, drawn here by a JS generator, so not the same points), one
// reconstruction after one untimed warm-up.
if (wanted('morse')) {
  let state = 2024;
  // mulberry32: 32-bit integer arithmetic only, exact in JS
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let z = Math.imul(state ^ (state >>> 15), 1 | state);
    z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
  const curve = (t) => {
    const ring = 2 + Math.cos(3 * t);
    return [ring * Math.cos(2 * t), ring * Math.sin(2 * t), Math.sin(3 * t)];
  };
  const count = 30000;
  const xyz = new Float64Array(3 * count);
  for (let i = 0; i < count; ++i) {
    const t = 2 * Math.PI * next(), a = 2 * Math.PI * next();
    const p = curve(t), q = curve(t + 1e-6);
    const tangent = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
    const tl = Math.hypot(...tangent);
    const T = tangent.map((c) => c / tl);
    const nl = Math.hypot(T[1], T[0]);
    const N = [T[1] / nl, -T[0] / nl, 0];  // T x z, normalised
    const B = [T[1] * N[2] - T[2] * N[1], T[2] * N[0] - T[0] * N[2], T[0] * N[1] - T[1] * N[0]];
    for (let c = 0; c < 3; ++c) xyz[3 * i + c] = p[c] + 0.25 * (Math.cos(a) * N[c] + Math.sin(a) * B[c]);
  }
  tela.reconstructCloud(xyz, { seed: 100 });
  const begin = performance.now();
  const result = tela.reconstructCloud(xyz, { seed: 100 });
  const wall = (performance.now() - begin) / 1000;
  if (!result.ok) {
    console.error(`bench: morse: ${result.error}`);
    process.exitCode = 1;
  } else {
    console.log(`knotted torus (wasm): ${count} points, chi ${result.topology.euler}, cells ${Array.from(result.topology.cells).join(' ')}`);
    console.log(`BENCH wasm_morse_knotted_torus_30k ${fmt(wall)} s`);
  }
}

// the page in headless Chromium (bench/page.mjs), when the app is built (vite build)
if (!wanted('page')) {
  // a section list without 'page'
} else if (existsSync(join(root, 'dist/index.html'))) {
  console.log('page (dist/ in headless Chromium)');
  const { benchPage } = await import('./page.mjs');
  await benchPage();
} else {
  console.error('bench: dist/ not built (vite build); page figures skipped');
}
