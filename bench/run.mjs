// Benchmark runner: the native figures from build/tela_bench, passed through, then the same
// scenes, for the same full duration, through the WebAssembly module under node, with the same
// figure names (wasm_ instead of native_) plus the wasm/native time ratio. One
// `BENCH <name> <value> <unit>` per line; other lines are plain-text headers.
// Figures, not tests: nothing here asserts on time. Build first: scripts/build.sh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

// the scenes bench/bench.cpp runs, each for its scenario's full duration
const SCENES = ['hang-7x9', 'hang-20x33', 'hang-30x30'];

// names compared loosely: native_hang-7x9_... and native_hang_7x9_... are the same figure
const key = (name) => name.replace(/[^A-Za-z0-9]+/g, '_');

const native = new Map();
const benchBinary = join(root, 'build/tela_bench');
if (existsSync(benchBinary)) {
  const run = spawnSync(benchBinary, [], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
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
// docs/TOOLCHAIN.md gotcha 3: node needs the wasm bytes handed over
const tela = await createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });

const fmt = (x) => Number(x.toPrecision(4));
console.log('wasm (web/src/wasm/tela.mjs under node), each scene for its full duration');
// warm-up, not timed: V8 first runs wasm code from its baseline compiler, optimizes the hot
// functions in the background and installs them between event-loop turns; without this the
// first scene's figure would mostly measure compilation (the steady state is what the page sees)
for (let round = 0; round < 2; round++) {
  const warm = tela.createSimulation(tela.sceneJson(SCENES[0]));
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
  const sim = tela.createSimulation(json);
  if (!sim.ok()) {
    console.error(`bench: ${scene}: ${sim.error()}`);
    process.exitCode = 1;
    sim.delete();
    continue;
  }
  const begin = performance.now();
  sim.step(steps);
  const wall = (performance.now() - begin) / 1000;
  if (sim.failed()) {
    console.error(`bench: ${scene} failed: ${sim.failureMessage()}`);
    process.exitCode = 1;
    sim.delete();
    continue;
  }
  const summary = JSON.parse(sim.summary());
  const perSimSecond = wall / sim.time();
  const n = summary.steps;
  sim.delete();

  console.log(`${scene}: ${summary.nodes} nodes, ${n} steps, ${summary.sim_time.toFixed(3)} s simulated, state ${summary.state_hash}`);
  const prefix = `BENCH wasm_${scene}`;
  console.log(`${prefix}_s_per_sim_s ${fmt(perSimSecond)} s`);
  console.log(`${prefix}_iterations_per_step ${fmt(summary.mean_iterations)} iter`);
  console.log(`${prefix}_substeps_per_step ${fmt(summary.mean_substeps)} substeps`);
  console.log(`${prefix}_factorizations_per_step ${fmt(summary.factorizations / n)} count`);
  console.log(`${prefix}_inner_iterations_per_step ${fmt(summary.inner_iterations / n)} iter`);
  const nativeFigure = native.get(key(`native_${scene}_s_per_sim_s`));
  if (nativeFigure > 0) {
    console.log(`BENCH wasm_over_native_${scene} ${fmt(perSimSecond / nativeFigure)} x`);
  }
}

// the page in headless Chromium (bench/page.mjs), when the app is built (vite build)
if (existsSync(join(root, 'dist/index.html'))) {
  console.log('page (dist/ in headless Chromium)');
  const { benchPage } = await import('./page.mjs');
  await benchPage();
} else {
  console.error('bench: dist/ not built (vite build); page figures skipped');
}
