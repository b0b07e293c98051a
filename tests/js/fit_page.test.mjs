// The page's multi-worker fit API (wasm/bindings/bind_fit_page.cpp) under node: two module
// instances (standing in for two workers) evaluate a sweep's points in a scrambled order, one
// refines and finishes, and the result equals, to the last bit, one instance doing every point
// in order and the native single-threaded `tela fit` (fit/fit_job.cpp). A partial sweep
// finished as cancelled keeps the best evaluated point; bad input gives located errors.
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

const OPTIONS = JSON.stringify({ kappa: 1e-3 });
const SETTINGS = { grid: 3, refine_evaluations: 4 };

// the whole fit on one job: the start point, the sweep in index order, the refinement
function fitInOrder(job) {
  const { points } = JSON.parse(job.plan(JSON.stringify(SETTINGS)));
  const [start] = JSON.parse(job.evaluateRange(-1, 1));
  const sweep = JSON.parse(job.evaluateRange(0, points));
  assert.equal(job.beginRefinement(JSON.stringify({ start, sweep })), '');
  while (!job.refine(1));
  return JSON.parse(job.finish(false));
}

describe('wasm fit for several page workers', () => {
  test('points shared by two instances in any order give the single-job fit exactly', async () => {
    const [a, b] = await Promise.all([loadTela(), loadTela()]);
    const text = readFileSync(sample, 'utf8');
    const jobs = [new a.FitPageJob(text, OPTIONS), new b.FitPageJob(text, OPTIONS)];
    for (const job of jobs) assert.equal(job.ok(), true, job.error());
    const plans = jobs.map((job) => JSON.parse(job.plan(JSON.stringify(SETTINGS))));
    assert.deepEqual(plans[0], plans[1]);
    assert.equal(plans[0].points, 9);

    // indices -1 (start point) .. 8, handed out alternately in a scrambled order
    const order = [5, -1, 8, 0, 3, 7, 1, 6, 2, 4];
    const sweep = new Array(9).fill(null);
    let start = null;
    order.forEach((k, n) => {
      const [e] = JSON.parse(jobs[n % 2].evaluateRange(k, 1));
      assert.equal(e.index, k);
      if (k < 0) start = e;
      else sweep[k] = e;
    });
    const lead = jobs[1];
    assert.equal(lead.beginRefinement(JSON.stringify({ start, sweep })), '');
    let steps = 0;
    while (!lead.refine(1)) steps++;
    assert.ok(steps <= SETTINGS.refine_evaluations);
    const page = JSON.parse(lead.finish(false));

    const single = new a.FitPageJob(text, OPTIONS);
    const whole = fitInOrder(single);
    for (const key of ['delta_over_rho', 'alpha_over_rho', 'mean_error_cm', 'spatial_sd_cm', 'train_error_cm',
      'evaluations', 'cancelled', 'a_priori', 'sweep', 'sweep_points', 'frames'])
      assert.deepEqual(page[key], whole[key], key);
    assert.equal(page.cancelled, false);
    single.delete();

    // the native CLI, one thread, same settings: the same numbers to the last bit
    const native = JSON.parse(execFileSync(cli, ['fit', sample, '--kappa', '1e-3', '--grid', '3',
      '--refine-evaluations', '4', '--threads', '1'], { encoding: 'utf8', timeout: 120000 }));
    for (const key of ['delta_over_rho', 'alpha_over_rho', 'mean_error_cm', 'spatial_sd_cm', 'train_error_cm',
      'evaluations', 'a_priori', 'sweep'])
      assert.deepEqual(page[key], native[key], key);

    // what the panel shows: the detection summary, the recorded markers and a replay
    const summary = JSON.parse(lead.summary());
    assert.equal(summary.recording.format, 'motive-csv');
    assert.equal(summary.recording.points, 12);
    assert.deepEqual([summary.grid.cols, summary.grid.rows], [3, 4]);
    assert.equal(page.frames.length, summary.mesh.steps);
    assert.equal(lead.markers().length, (summary.mesh.steps + 1) * 36);
    assert.equal(lead.simulate(0.48, 1.9).length, (summary.mesh.steps + 1) * 35 * 3);
    assert.equal(lead.triangles().length % 3, 0);

    // cancelled after part of the sweep: the best evaluated point, no testing evaluation
    const partial = new Array(9).fill(null);
    partial[2] = sweep[2];
    partial[6] = sweep[6];
    assert.equal(lead.beginRefinement(JSON.stringify({ start, sweep: partial })), '');
    const cancelled = JSON.parse(lead.finish(true));
    const best = [start, sweep[2], sweep[6]].reduce((p, q) => (q.mean_error_cm < p.mean_error_cm ? q : p));
    assert.equal(cancelled.cancelled, true);
    assert.equal(cancelled.evaluations, 3);
    assert.equal(cancelled.delta_over_rho, best.delta_over_rho);
    assert.equal(cancelled.train_error_cm, best.mean_error_cm);
    assert.equal(cancelled.mean_error_cm, null);
    assert.deepEqual(cancelled.frames, []);

    assert.match(lead.beginRefinement('[1, 2'), /points: not a JSON object/);
    for (const job of jobs) job.delete();
  });

  test('bad recordings and options give located errors', async () => {
    const tela = await loadTela();
    const lines = readFileSync(sample, 'utf8').split('\n').slice(0, 12);
    lines[9] = lines[9].replace(/^(\d+,[\d.]+,)[-\d.]+/, '$1abc');
    const cases = [
      [lines.join('\n'), '{}', /line 10, column 3/],
      ['', '{}', /./],
      ['Format Version,1.23\n\ngarbage\n', '{}', /line 1/],
      ['Format Version,1.23\n', '{}', /motive-csv/],
      [readFileSync(sample, 'utf8'), 'not json', /options: not a JSON object/],
    ];
    for (const [text, options, message] of cases) {
      const job = new tela.FitPageJob(text, options);
      assert.equal(job.ok(), false);
      assert.match(job.error(), message);
      job.delete();
    }
  });
});
