// The fitting API of the WebAssembly module (wasm/bindings/bind_fit.cpp) under node: a fit
// run in slices with progress and cancel gives exactly the native `tela fit` result.
// Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmDir = join(root, 'web/src/wasm');
const cli = join(root, 'build/tela');
const sample = join(root, 'public/samples/a3-shake-synthetic.csv');

async function loadTela() {
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  return createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
}

describe('wasm fit session', () => {
  test('detection summary, a fit in slices equal to the native one, cancel', async () => {
    const tela = await loadTela();
    const text = readFileSync(sample, 'utf8');
    assert.equal(tela.sniffRecordingFormat(text), 'motive-csv');

    const bad = new tela.FitSession('Format Version,1.23\n', '{}');
    assert.equal(bad.ok(), false);
    assert.match(bad.error(), /motive-csv/);
    bad.delete();

    const session = new tela.FitSession(text, JSON.stringify({ kappa: 1e-3 }));
    assert.equal(session.ok(), true, session.error());
    const summary = JSON.parse(session.summary());
    assert.equal(summary.recording.format, 'motive-csv');
    assert.equal(summary.recording.points, 12);
    assert.deepEqual([summary.grid.cols, summary.grid.rows], [3, 4]);

    session.start(JSON.stringify({ grid: 3, refine_evaluations: 4 }));
    let last = 0;
    while (!session.advance(1)) {
      const p = session.progress();
      assert.ok(p >= last && p <= 1);
      last = p;
    }
    const wasm = JSON.parse(session.result());
    const native = JSON.parse(execFileSync(cli, ['fit', sample, '--kappa', '1e-3', '--grid', '3',
      '--refine-evaluations', '4', '--threads', '1'], { encoding: 'utf8', timeout: 120000 }));
    for (const key of ['delta_over_rho', 'alpha_over_rho', 'mean_error_cm', 'spatial_sd_cm', 'evaluations'])
      assert.equal(wasm[key], native[key], key);
    assert.equal(wasm.frames.length, summary.mesh.steps);
    assert.equal(session.markers().length, (summary.mesh.steps + 1) * 36);
    assert.equal(session.simulate(0.48, 1.9).length, (summary.mesh.steps + 1) * 35 * 3);

    session.start(JSON.stringify({ grid: 3 }));
    session.advance(2);
    session.cancel();
    const cancelled = JSON.parse(session.result());
    assert.equal(cancelled.cancelled, true);
    assert.equal(cancelled.evaluations, 2);
    session.delete();
  });
});
