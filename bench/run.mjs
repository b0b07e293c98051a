// Benchmark runner: the native figures from build/tela_bench, passed through, then the same
// scenes through the WebAssembly module under node. One `BENCH <name> <value> <unit>` per line.
// Figures, not tests: nothing here asserts on time. Build first: scripts/build.sh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

// scene -> simulated seconds to run
const WASM_SCENES = { 'hang-7x9': 2.0, 'hang-20x33': 2.0, 'hang-30x30': 1.0 };

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
for (const [scene, seconds] of Object.entries(WASM_SCENES)) {
  const json = tela.sceneJson(scene);
  if (!json) {
    console.error(`bench: no built-in scene ${scene}`);
    process.exitCode = 1;
    continue;
  }
  const dt = JSON.parse(json).solver.dt;
  const steps = Math.round(seconds / dt);
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
  }
  const perSimSecond = wall / (sim.steps() * dt);
  const { mean_iterations: iterations } = JSON.parse(sim.summary());
  sim.delete();

  console.log(`BENCH wasm_${scene}_s_per_sim_s ${fmt(perSimSecond)} s`);
  console.log(`BENCH wasm_${scene}_iterations_per_step ${fmt(iterations)} iter`);
  const nativeFigure = native.get(key(`native_${scene}_s_per_sim_s`));
  if (nativeFigure > 0) {
    console.log(`BENCH wasm_over_native_${scene} ${fmt(perSimSecond / nativeFigure)} x`);
  }
}
