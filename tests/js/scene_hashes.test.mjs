// The WebAssembly module reproduces every named scene's recorded state hash after a short run
// (tests/data/scene_hashes.json; the native build is checked against the same file by
// tests/cpp/sim/test_scene_hashes.cpp, the full durations by tests/validation/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createTela } = await import(path.join(root, 'web/src/wasm/tela.mjs'));
const tela = await createTela({ wasmBinary: fs.readFileSync(path.join(root, 'web/src/wasm/tela.wasm')) });
const recorded = JSON.parse(fs.readFileSync(path.join(root, 'tests/data/scene_hashes.json'), 'utf8'));

test('every named scene has a recorded short run', () => {
  assert.deepEqual(Object.keys(recorded.short_run).sort(), [...tela.sceneNames()].sort());
});

for (const [scene, { steps, state_hash }] of Object.entries(recorded.short_run)) {
  test(`${scene}: the state hash after ${steps} steps is the recorded one`, () => {
    const sim = tela.createSimulation(tela.sceneJson(scene));
    try {
      assert.ok(sim.ok(), sim.error());
      sim.step(steps);
      assert.ok(!sim.failed(), sim.failureMessage());
      assert.equal(sim.steps(), steps);
      assert.equal(sim.stateHash(), state_hash);
    } finally {
      sim.delete();
    }
  });
}
