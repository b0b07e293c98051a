// Native and WebAssembly builds run the same scenes bit for bit (same state hash) on meshes
// large enough to exercise the supernodal factorization's wide dense panels and the adaptive
// substeps: a share link's hash from the page can be checked with the command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createTela } = await import(path.join(root, 'web/src/wasm/tela.mjs'));
const tela = await createTela({ wasmBinary: fs.readFileSync(path.join(root, 'web/src/wasm/tela.wasm')) });

for (const [scene, steps] of [['hang-30x30', 120], ['cusick-medium', 60], ['locking-tri-472', 80]]) {
  test(`${scene}: native and wasm state hashes agree after ${steps} steps`, { timeout: 120000 }, () => {
    const native = JSON.parse(execFileSync(path.join(root, 'build/tela'),
      ['simulate', scene, '--steps', String(steps)], { encoding: 'utf8', timeout: 110000 }));
    const sim = tela.createSimulation(tela.sceneJson(scene));
    try {
      assert.ok(sim.ok(), sim.error());
      sim.step(steps);
      assert.equal(sim.stateHash(), native.state_hash);
    } finally {
      sim.delete();
    }
  });
}
