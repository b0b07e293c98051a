// The WebAssembly module the page uses (web/src/wasm/tela.mjs), loaded under node, checked on
// its own and against the native CLI on the same scene. Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmDir = join(root, 'web/src/wasm');
const cli = join(root, 'build/tela');

// trap 3 (docs/toolchain.md, "Emscripten 3.1.6 with Node 20"): under node the 3.1.6 loader
// cannot fetch the .wasm itself
async function loadTela() {
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  return createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
}

// rows of the last frame of a trajectory CSV (frame,time,node,x,y,z) as { time, positions }
function lastFrame(csvText) {
  const lines = csvText.trim().split('\n');
  assert.deepEqual(lines[0].split(',').map((s) => s.trim()), ['frame', 'time', 'node', 'x', 'y', 'z']);
  const rows = lines.slice(1).map((line) => line.split(',').map(Number));
  const frame = Math.max(...rows.map((r) => r[0]));
  const last = rows.filter((r) => r[0] === frame).sort((a, b) => a[2] - b[2]);
  const positions = new Float64Array(last.length * 3);
  last.forEach((r, i) => {
    assert.equal(r[2], i, 'node indices of the last frame are 0..n-1');
    positions.set(r.slice(3, 6), 3 * i);
  });
  return { time: last[0][1], positions };
}

// Diagnosis when the hashes differ: the first step after which native (tela simulate FILE
// --steps k) and wasm disagree, by bisection (a trajectory that differs once keeps differing).
function firstDifferingStep(scenario, file, steps) {
  const nativeHash = (k) =>
    JSON.parse(execFileSync(cli, ['simulate', file, '--steps', String(k)], { encoding: 'utf8', timeout: 60000 })).state_hash;
  const wasmHashes = [];
  const sim = globalTela.createSimulation(JSON.stringify(scenario));
  for (let k = 1; k <= steps; k++) {
    sim.step(1);
    wasmHashes[k] = sim.stateHash();
  }
  sim.delete();
  let lo = 0; // hashes agree after lo steps (0: the initial state, compared below)
  let hi = steps; // and differ after hi steps
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (nativeHash(mid) === wasmHashes[mid]) lo = mid;
    else hi = mid;
  }
  return `${hi} (native ${nativeHash(hi)}, wasm ${wasmHashes[hi]})`;
}

let globalTela;

describe('wasm module', () => {
  let tela;
  before(async () => {
    tela = await loadTela();
    globalTela = tela;
  });

  test('lists the built-in scenes and their scenario JSON', () => {
    const names = tela.sceneNames();
    assert.ok(Array.isArray(names));
    assert.ok(names.includes('hang-7x9'), `hang-7x9 missing from ${names}`);
    const scenario = JSON.parse(tela.sceneJson('hang-7x9'));
    assert.equal(scenario.version, 1);
    assert.equal(tela.sceneJson('no-such-scene'), '');
  });

  test('bad JSON gives a message, and the module keeps working', () => {
    const bad = tela.createSimulation('{bad json');
    assert.equal(bad.ok(), false);
    assert.ok(bad.error().length > 0, 'an error message');
    assert.equal(bad.step(1), 'no_simulation');
    bad.delete();

    const good = tela.createSimulation(tela.sceneJson('hang-7x9'));
    assert.equal(good.ok(), true, good.error());
    good.step(3);
    assert.equal(good.steps(), 3);
    good.delete();
  });

  test('an invalid scenario names the offending field', () => {
    const scenario = JSON.parse(tela.sceneJson('hang-7x9'));
    scenario.solver.dt = -0.01;
    const sim = tela.createSimulation(JSON.stringify(scenario));
    assert.equal(sim.ok(), false);
    assert.match(sim.error(), /solver\.dt/);
    sim.delete();
  });

  test('exposes mesh and state as typed-array copies', () => {
    const sim = tela.createSimulation(tela.sceneJson('hang-7x9'));
    const n = sim.nodeCount();
    assert.equal(n, 7 * 9);
    const p32 = sim.positions();
    const p64 = sim.positions64();
    assert.ok(p32 instanceof Float32Array && p32.length === 3 * n);
    assert.ok(p64 instanceof Float64Array && p64.length === 3 * n);
    const tris = sim.triangles();
    assert.ok(tris instanceof Uint32Array && tris.length % 3 === 0 && tris.length > 0);
    assert.ok(tris.every((i) => i < n));
    const hash0 = sim.stateHash();
    assert.match(hash0, /^[0-9a-f]{16}$/);
    const initial = Float64Array.from(p64);
    sim.step(10);
    assert.notEqual(sim.stateHash(), hash0);
    assert.deepEqual(p64, initial, 'an earlier copy does not change when the simulation steps');
    assert.notDeepEqual(sim.positions64(), initial);
    const summary = JSON.parse(sim.summary());
    assert.equal(summary.steps, 10);
    assert.ok(Number.isFinite(summary.mean_iterations));
    sim.delete();
  });

  test('the last step report counts the run\'s steps that ended above the tolerance', () => {
    const scenario = JSON.parse(tela.sceneJson('hang-7x9'));
    const fine = tela.createSimulation(JSON.stringify(scenario));
    fine.step(20);
    const ok = fine.lastReport();
    assert.equal(ok.status, 'converged');
    assert.equal(ok.tolerance, scenario.solver.tolerance);
    assert.equal(ok.unconvergedSteps, 0);
    fine.delete();
    // one projection iteration per step with a tolerance of 1e-6: most steps end above it
    scenario.solver = { ...scenario.solver, tolerance: 1e-6, max_iterations: 1 };
    const capped = tela.createSimulation(JSON.stringify(scenario));
    capped.step(20);
    const report = capped.lastReport();
    assert.equal(report.tolerance, 1e-6);
    assert.ok(report.unconvergedSteps > 0 && report.unconvergedSteps <= 20, String(report.unconvergedSteps));
    assert.equal(report.unconvergedSteps, JSON.parse(capped.summary()).unconverged_steps);
    capped.delete();
  });

  describe('against the native build', () => {
    let dir;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'tela-js-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('hang-7x9 for 1 s: the same state hash, summary and positions (bit for bit)', () => {
      const scenario = JSON.parse(execFileSync(cli, ['scenario', 'hang-7x9'], { encoding: 'utf8' }));
      scenario.duration = 1.0;
      const file = join(dir, 'hang.json');
      const csv = join(dir, 'hang.csv');
      writeFileSync(file, JSON.stringify(scenario, null, 2));
      const nativeSummary = JSON.parse(execFileSync(cli, ['simulate', file, '--out', csv], { encoding: 'utf8', timeout: 60000 }));
      const native = lastFrame(readFileSync(csv, 'utf8'));

      const sim = tela.createSimulation(JSON.stringify(scenario));
      assert.equal(sim.ok(), true, sim.error());
      const steps = Math.round(scenario.duration / scenario.solver.dt);
      assert.equal(steps, 100);
      assert.equal(nativeSummary.steps, steps);
      assert.match(sim.step(steps), /^(converged|max_iterations)$/);
      assert.equal(sim.failed(), false, sim.failureMessage());
      assert.ok(Math.abs(sim.time() - native.time) < 1e-9, `time ${sim.time()} vs ${native.time}`);

      // the native build runs scalar Eigen with the same summation order as the wasm build
      // (EIGEN_DONT_VECTORIZE, stable sorts): the two trajectories are identical
      const wasmHash = sim.stateHash();
      if (wasmHash !== nativeSummary.state_hash) {
        const first = firstDifferingStep(scenario, file, steps);
        assert.fail(`state hash after ${steps} steps: wasm ${wasmHash}, native ${nativeSummary.state_hash}; ` +
                    `first differing step: ${first}`);
      }
      // summary() is the CLI summary without wall_ms
      const { wall_ms: wallMs, ...nativeRest } = nativeSummary;
      assert.ok(Number.isFinite(wallMs));
      assert.deepEqual(JSON.parse(sim.summary()), nativeRest);

      const wasm = sim.positions64();
      assert.equal(wasm.length, native.positions.length);
      let maxDiff = 0;
      for (let i = 0; i < wasm.length; i++) maxDiff = Math.max(maxDiff, Math.abs(wasm[i] - native.positions[i]));
      assert.ok(maxDiff < 1e-9, `max |wasm - native| = ${maxDiff} m (CSV has 12 significant digits)`);
      // the cloth moved: the comparison is not between two rest states
      const restSim = tela.createSimulation(JSON.stringify(scenario));
      const rest = restSim.positions64();
      restSim.delete();
      let moved = 0;
      for (let i = 0; i < wasm.length; i++) moved = Math.max(moved, Math.abs(wasm[i] - rest[i]));
      assert.ok(moved > 1e-3, `cloth moved ${moved} m in 1 s`);
      sim.delete();
    });
  });
});

// The module is built with WebAssembly SIMD (CMakeLists.txt); the workers' load errors name
// the missing feature in a browser without it (web/src/worker/wasm_errors.js).
describe('WebAssembly SIMD', () => {
  test('the probe recognizes SIMD support, and a load failure without it names the feature', async () => {
    const { hasWasmSimd, loadFailure } = await import(join(root, 'web/src/worker/wasm_errors.js'));
    assert.equal(hasWasmSimd(), true, 'node 20 supports SIMD, so the probe module must validate');
    const message = loadFailure('could not start the simulator', new Error('CompileError: invalid opcode 0xfd'), false);
    assert.match(message, /could not start the simulator: CompileError: invalid opcode 0xfd/);
    assert.match(message, /WebAssembly SIMD: use Chrome 91, Firefox 89, Safari 16\.4 or later/);
    assert.equal(loadFailure('x', 'boom', true), 'x: boom');
  });
});
