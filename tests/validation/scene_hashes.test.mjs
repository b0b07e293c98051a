// The WebAssembly module reproduces every named scene's recorded state hash after the scene's
// full duration (tests/data/scene_hashes.json; the native build: tests/cpp/sim/test_scene_hashes.cpp).
// ctest entry validation-scene-hashes-wasm (label validation); it prints its figure as a
// VALIDATE line (tests/cpp/validation_report.h) for `npm run validate`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createTela } = await import(path.join(root, 'web/src/wasm/tela.mjs'));
const tela = await createTela({ wasmBinary: fs.readFileSync(path.join(root, 'web/src/wasm/tela.wasm')) });
const recorded = JSON.parse(fs.readFileSync(path.join(root, 'tests/data/scene_hashes.json'), 'utf8'));

const scenes = Object.entries(recorded.full_duration);
let same = 0;

// wasm_state_hash: where the module's state differs from the native one (the sinusoidal motion
// of wam-slow and wam-fast goes through std::sin, whose last bit glibc and the Emscripten libc
// may round differently)
for (const [scene, { steps, state_hash, wasm_state_hash = state_hash }] of scenes) {
  test(`${scene}: the state hash after the full duration (${steps} steps) is the recorded one`, () => {
    const sim = tela.createSimulation(tela.sceneJson(scene));
    try {
      assert.ok(sim.ok(), sim.error());
      sim.step(steps);
      assert.ok(!sim.failed(), sim.failureMessage());
      assert.equal(sim.stateHash(), wasm_state_hash);
      same += 1;
    } finally {
      sim.delete();
    }
  });
}

test('figures', () => {
  const figure = (criterion, measured, target, holds) =>
    console.log(['VALIDATE', criterion, measured, target, holds ? 'holds' : 'unmet'].join('\t'));
  figure('named scenes: state hash after the full duration, wasm', `${same} of ${scenes.length} as recorded`,
    'all as recorded', same === scenes.length);
  const apart = scenes.filter(([, run]) => run.wasm_state_hash !== undefined).map(([scene]) => scene);
  figure('named scenes: native and wasm state hashes equal after the full duration',
    `${scenes.length - apart.length} of ${scenes.length}${apart.length ? ` (not ${apart.join(', ')})` : ''}`,
    `all ${scenes.length}`, apart.length === 0);
});
