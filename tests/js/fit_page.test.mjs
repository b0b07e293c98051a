// The page's multi-worker fit API (wasm/bindings/bind_fit.cpp) under node: module
// instances stand in for workers. The lead's job asks for points, the instances evaluate them
// in a scrambled order, the lead is told the values in the order it asked, and the result
// equals, to the last bit, one instance doing everything and the native single-threaded
// `tela fit` (the same FitJob). Also a contact fit with mu (a cloth laid on the tablecloth
// scene's table), a cancelled fit keeping the best evaluated point, recordings passed as bytes
// (a C3D file, names in Windows-1252), and located errors.
// Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { motiveMarkers, writeC3d } from './c3d_file.mjs';

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
const KEYS = ['delta_over_rho', 'alpha_over_rho', 'mu', 'mu_fitted', 'mean_error_cm', 'spatial_sd_cm', 'train_error_cm',
  'evaluations', 'a_priori', 'sweep'];

// the evaluation order inside a batch: last point first
const reversed = (n) => Array.from({ length: n }, (_, k) => n - 1 - k);

// Drives `lead` to the end: each batch it asks for is evaluated by `evaluators` in turn, in a
// scrambled order when `scramble`, and told back in the order asked. Returns the finished fit.
function fitWith(lead, evaluators, { max = 4, scramble = false } = {}) {
  for (let batches = 0; ; batches++) {
    assert.ok(batches < 1000, 'the fit ends');
    const { points } = JSON.parse(lead.ask(max));
    if (points.length === 0) break;
    const values = new Array(points.length).fill(null);
    const order = scramble ? reversed(points.length) : points.map((_, k) => k);
    order.forEach((k, n) => {
      [values[k]] = JSON.parse(evaluators[n % evaluators.length].evaluate(JSON.stringify([points[k]])));
    });
    const state = lead.tell(JSON.stringify(values));
    assert.ok(!state.startsWith('error'), state);
  }
  return JSON.parse(lead.finish(false));
}

// the job's methods, recording the stage of every batch it asks for
function wrap(job, stages) {
  return {
    ask(max) {
      const stage = JSON.parse(job.state()).stage;
      const answer = job.ask(max);
      if (JSON.parse(answer).points.length) stages.push(stage);
      return answer;
    },
    evaluate: (points) => job.evaluate(points),
    tell: (values) => job.tell(values),
    finish: (cancelled) => job.finish(cancelled),
  };
}

function nativeFit(file, args) {
  return JSON.parse(execFileSync(cli, ['fit', file, '--threads', '1', ...args], { encoding: 'utf8', timeout: 120000 }));
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
    assert.equal(plans[0].mu_fitted, false);
    assert.equal(plans[0].planned, 1 + 9 + 4 + 1);

    const lead = jobs[1];
    const page = fitWith(lead, [jobs[0], jobs[1]], { max: 4, scramble: true });
    assert.equal(page.cancelled, false);
    assert.ok(page.evaluations <= plans[0].planned);

    const single = new a.FitPageJob(text, OPTIONS);
    single.plan(JSON.stringify(SETTINGS));
    const whole = fitWith(single, [single], { max: 1 });
    for (const key of [...KEYS, 'cancelled', 'sweep_points', 'frames']) assert.deepEqual(page[key], whole[key], key);
    single.delete();

    // the native CLI, one thread, same settings: the same numbers to the last bit
    const native = nativeFit(sample, ['--kappa', '1e-3', '--grid', '3', '--refine-evaluations', '4']);
    for (const key of KEYS) assert.deepEqual(page[key], native[key], key);

    // what the panel shows: the detection summary, the recorded markers and a replay
    const summary = JSON.parse(lead.summary());
    assert.equal(summary.recording.format, 'motive-csv');
    assert.equal(summary.recording.points, 12);
    assert.deepEqual([summary.grid.cols, summary.grid.rows], [3, 4]);
    assert.deepEqual(summary.obstacles, []);
    assert.equal(page.frames.length, summary.mesh.steps);
    assert.equal(lead.markers().length, (summary.mesh.steps + 1) * 36);
    assert.equal(lead.simulate(0.48, 1.9, NaN).length, (summary.mesh.steps + 1) * 35 * 3);
    assert.equal(lead.triangles().length % 3, 0);

    // cancelled inside the sweep: the start point and two of the first batch were evaluated
    lead.plan(JSON.stringify(SETTINGS));
    const [start] = JSON.parse(lead.ask(4)).points;
    const startValue = JSON.parse(lead.evaluate(JSON.stringify([start])))[0];
    lead.tell(JSON.stringify([startValue]));
    const batch = JSON.parse(lead.ask(4));
    assert.equal(batch.stage, 'sweep');
    assert.equal(batch.points.length, 4);
    const values = [null, null, null, null];
    for (const k of [1, 3]) [values[k]] = JSON.parse(lead.evaluate(JSON.stringify([batch.points[k]])));
    lead.tell(JSON.stringify(values));
    const cancelled = JSON.parse(lead.finish(true));
    const best = [startValue, values[1], values[3]].reduce((p, q) => (q.mean_error_cm < p.mean_error_cm ? q : p));
    assert.equal(cancelled.cancelled, true);
    assert.equal(cancelled.evaluations, 3);
    assert.equal(cancelled.delta_over_rho, best.delta_over_rho);
    assert.equal(cancelled.train_error_cm, best.mean_error_cm);
    assert.equal(cancelled.mean_error_cm, null);
    assert.deepEqual(cancelled.frames, []);
    assert.equal(cancelled.sweep_points[0].ok, false);
    assert.equal(cancelled.sweep_points[1].mean_error_cm, values[1].mean_error_cm);

    assert.match(lead.tell('[1, 2'), /evaluations: not a JSON array/);
    for (const job of jobs) job.delete();
  });

  test('a contact fit (cloth laid on a table) fits mu too, as `tela fit --scenario` does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tela-fit-mu-'));
    try {
      const file = join(dir, 'lay.csv');
      execFileSync(cli, ['synth-recording', 'A3-lay', '--out', file, '--duration', '3', '--mu', '0.6', '--kappa', '1e-3'],
        { encoding: 'utf8', timeout: 60000 });
      const [a, b] = await Promise.all([loadTela(), loadTela()]);
      const text = readFileSync(file, 'utf8');
      const options = JSON.stringify({ kappa: 1e-3, scene: 'tablecloth' });
      const jobs = [new a.FitPageJob(text, options), new b.FitPageJob(text, options)];
      for (const job of jobs) assert.equal(job.ok(), true, job.error());
      const settings = JSON.stringify({ grid: 2, mu_grid: 3, refine_evaluations: 2 });
      const plans = jobs.map((job) => JSON.parse(job.plan(settings)));
      assert.equal(plans[0].mu_fitted, true);
      assert.equal(plans[0].mu_grid, 3);
      assert.equal(plans[0].planned, 1 + 4 + 3 + 2 + 1);
      assert.deepEqual(JSON.parse(jobs[0].summary()).obstacles, ['plane', 'box']);
      // a fitted mu is searched in [0, mu_max]: a start above it is refused (tablecloth's mu
      // is 0.5), a fixed mu (mu_grid 0) may be anything
      for (const [refused, message] of [
        [{ mu_max: 0.3 }, /^error: mu_max: 0.3 is below the first obstacle's friction coefficient 0.5, the fit's starting mu/],
        [{ mu_max: 0.5, start: [0.5, 2, 0.9] }, /^error: start: its mu 0.9 lies above mu_max 0.5 /],
      ]) assert.match(jobs[0].plan(JSON.stringify(refused)), message);
      assert.equal(JSON.parse(jobs[0].plan(JSON.stringify({ mu_max: 0.3, mu_grid: 0 }))).mu_fitted, false);
      assert.equal(JSON.parse(jobs[0].plan(JSON.stringify({ mu_max: 0.9, start: [0.5, 2, 0.9] }))).mu_fitted, true);
      // the starting mu alone (the page's "start μ" field): the sweep runs at it, from the
      // Table 4.6 guess for delta and alpha; checked like the start's mu, and given once
      const guess = JSON.parse(jobs[0].plan('{}'));
      assert.equal(guess.start_mu, 0.5);
      const own = JSON.parse(jobs[0].plan(JSON.stringify({ start_mu: 0.25 })));
      assert.equal(own.start_mu, 0.25);
      assert.deepEqual(own.start, guess.start);
      assert.equal(JSON.parse(jobs[0].ask(1)).points[0].mu, 0.25);
      assert.equal(JSON.parse(jobs[0].plan(JSON.stringify({ start: [0.5, 2, 0.7] }))).start_mu, 0.7);
      for (const [refused, message] of [
        [{ start_mu: 0.9, mu_max: 0.5 }, /^error: start_mu: 0.9 lies above mu_max 0.5 /],
        [{ start_mu: -0.1 }, /^error: start_mu: must be the friction coefficient the fit starts from, a number >= 0 \(got -0.1\)$/],
        [{ start_mu: 'high' }, /^error: start_mu: must be the friction coefficient/],
        [{ start_mu: 0.2, start: [0.5, 2, 0.3] }, /^error: start_mu: must be left out when start holds a mu/],
      ]) assert.match(jobs[0].plan(JSON.stringify(refused)), message);
      // the same scene given as a scenario file's text (the page's current Simulate scenario)
      const scenarioText = execFileSync(cli, ['scenario', 'tablecloth'], { encoding: 'utf8' });
      const fromFile = new a.FitPageJob(text, JSON.stringify({ kappa: 1e-3, scenario: scenarioText }));
      assert.equal(fromFile.ok(), true, fromFile.error());
      assert.equal(fromFile.summary(), jobs[0].summary());
      assert.equal(fromFile.plan(settings), jobs[0].plan(settings));
      fromFile.delete();
      const stages = [];
      const lead = jobs[0];
      const page = fitWith(wrap(lead, stages), jobs, { max: 2, scramble: true });
      assert.deepEqual([...new Set(stages)], ['a_priori', 'sweep', 'mu_line', 'refine']);
      assert.equal(page.mu_fitted, true);
      assert.equal(page.mu_line_points.length, 3);
      const native = nativeFit(file, ['--scenario', 'tablecloth', '--kappa', '1e-3', '--grid', '2', '--mu-grid', '3',
        '--refine-evaluations', '2']);
      for (const key of [...KEYS, 'mu_line']) assert.deepEqual(page[key], native[key], key);
      assert.ok(Number.isFinite(page.mu) && page.mu >= 0 && page.mu <= 2, `mu ${page.mu}`);
      for (const job of jobs) job.delete();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('recordings reach the core as bytes: a C3D file, and names in a Windows code page', async () => {
    const tela = await loadTela();
    const csv = readFileSync(sample);
    const markers = motiveMarkers(csv.toString('utf8'));
    // the sample as C3D (written by the tests' own writer, analog channels interleaved)
    const c3d = writeC3d({ ...markers, yScreen: '+Y', analogChannels: 3 });
    const fromC3d = new tela.FitPageJob(c3d, OPTIONS);
    const fromCsv = new tela.FitPageJob(new Uint8Array(csv), OPTIONS);
    assert.equal(fromC3d.ok(), true, fromC3d.error());
    assert.equal(fromCsv.ok(), true, fromCsv.error());
    const [read, text] = [JSON.parse(fromC3d.summary()), JSON.parse(fromCsv.summary())];
    assert.equal(read.recording.format, 'c3d');
    assert.equal(read.recording.format_version, 'Intel float');
    assert.equal(read.recording.units, 'mm');
    assert.equal(read.recording.units_declared, true);
    assert.equal(read.recording.up_axis, 'y');
    assert.equal(read.recording.up_axis_source, 'format');
    for (const key of ['points', 'frames', 'rate', 'duration', 'missing_samples', 'names'])
      assert.deepEqual(read.recording[key], text.recording[key], key);
    assert.deepEqual(read.grid.order, text.grid.order);
    assert.deepEqual(read.grid.held, text.grid.held);
    assert.deepEqual(read.warnings, []);
    // the same marker trajectories: float32 millimetres against the CSV's three decimals
    const [m, n] = [fromC3d.markers(), fromCsv.markers()];
    assert.equal(m.length, n.length);
    let worst = 0;
    for (let i = 0; i < m.length; i++) {
      assert.equal(Number.isNaN(m[i]), Number.isNaN(n[i]), `sample ${i}`);
      if (!Number.isNaN(m[i])) worst = Math.max(worst, Math.abs(m[i] - n[i]));
    }
    assert.ok(worst < 1e-6, `${worst} m`);
    fromC3d.delete();
    fromCsv.delete();

    // a 3 s C3D fitted in the module and by the native CLI from the same file: the same numbers
    const dir = mkdtempSync(join(tmpdir(), 'tela-fit-c3d-'));
    try {
      const short = writeC3d({ ...markers, frames: markers.frames.slice(0, 301), yScreen: '+Y' });
      const file = join(dir, 'short.c3d');
      writeFileSync(file, short);
      const job = new tela.FitPageJob(short, OPTIONS);
      assert.equal(job.ok(), true, job.error());
      const settings = { grid: 2, refine_evaluations: 2 };
      job.plan(JSON.stringify(settings));
      const page = fitWith(job, [job]);
      assert.equal(page.cancelled, false);
      assert.ok(Number.isFinite(page.mean_error_cm) && page.mean_error_cm < 2, `${page.mean_error_cm} cm`);
      const native = nativeFit(file, ['--kappa', '1e-3', '--grid', '2', '--refine-evaluations', '2']);
      for (const key of KEYS) assert.deepEqual(page[key], native[key], key);
      assert.equal(native.recording.format, 'c3d');
      job.delete();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // a Motive export whose names are in Windows-1252 ('Tüch', ü = 0xFC): UTF-8 names and the
    // core's warning, as the CLI reads it
    const legacy = Buffer.from(csv.toString('latin1').replaceAll('Cloth:', 'T\u00fcch:'), 'latin1');
    assert.equal(legacy.includes(0xfc), true);
    const job = new tela.FitPageJob(new Uint8Array(legacy), OPTIONS);
    assert.equal(job.ok(), true, job.error());
    const summary = JSON.parse(job.summary());
    assert.equal(summary.recording.names[0], 'Tüch:M23');
    assert.ok(summary.warnings.some((w) => /Windows-1252/.test(w)), summary.warnings.join('; '));
    job.delete();
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
      [readFileSync(sample, 'utf8'), '{"scene": "nope"}', /scene: no built-in scene named 'nope'/],
      [readFileSync(sample, 'utf8'), JSON.stringify({ scenario: '{"version": 1, "mesh": {"type": "disc"}, "speed": 2}' }),
        /scenario: speed: unknown key/],
      [readFileSync(sample, 'utf8'), JSON.stringify({ scenario: 'null' }), /scenario: .*must be a JSON object/],
      [readFileSync(sample, 'utf8'), JSON.stringify({ scene: 'tablecloth', scenario: '{}' }), /a scene or a scenario, not both/],
      // C3D: no frames (last frame 0); a parameter section in a missing block; a text file
      [writeC3d({ names: ['a'], rate: 100, frames: [] }), '{}', /c3d: byte 8: the last frame \(0\) is before the first \(1, byte 6\)/],
      [Uint8Array.from({ length: 600 }, (_, i) => (i === 0 ? 9 : i === 1 ? 0x50 : 0)), '{"format": "c3d"}', /c3d: byte 0: the parameter section is said to start at block 9/],
      // unless told it is C3D, a key byte 0x50 alone is not C3D: a PNG has it too
      [Uint8Array.from({ length: 600 }, (_, i) => (i === 0 ? 9 : i === 1 ? 0x50 : 0)), '{}', /binary but not C3D/],
      [Uint8Array.from({ length: 600 }, (_, i) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i] ?? 0), '{}', /binary but not C3D/],
      [readFileSync(sample, 'utf8'), '{"format": "c3d"}', /c3d: byte 1: the key byte/],
      [42, '{}', /must be a Uint8Array/],
      // a correction that is given must be usable: 0 is not "automatic" (the page passes what was typed)
      [readFileSync(sample, 'utf8'), '{"width": 0}', /^width: must be a length > 0 in metres \(got 0\)$/],
      [readFileSync(sample, 'utf8'), '{"duration": -1}', /^duration: must be a duration > 0 in seconds \(got -1\)$/],
      [readFileSync(sample, 'utf8'), '{"cols": 2.5}', /^cols: must be a whole number >= 2 \(got 2.5\)$/],
      [readFileSync(sample, 'utf8'), '{"refine": 0}', /^refine: must be a whole number >= 1 \(got 0\)$/],
      [readFileSync(sample, 'utf8'), '{"rho": "abc"}', /^rho: must be a number \(got "abc"\)$/],
      [readFileSync(sample, 'utf8'), '{"exclude": "A"}', /^exclude: must be a list of marker names/],
      // a misspelt key is named, not ignored
      [readFileSync(sample, 'utf8'), '{"hieght": 0.3}', /^options\.hieght: unknown key \(expected one of: .*height/],
    ];
    for (const [text, options, message] of cases) {
      const job = new tela.FitPageJob(text, options);
      assert.equal(job.ok(), false);
      assert.match(job.error(), message);
      assert.equal(job.recordingSummary(), 'null', 'nothing was read, or the options were refused first');
      job.delete();
    }
    // options the fit problem refuses once the file is read: named by their key too
    for (const [options, message] of [
      ['{"held_smoothing": 102}', /^held_smoothing: must be a whole number of samples from 1 to 101 \(got 102\)$/],
      ['{"taut_tolerance": -0.001}', /^taut_tolerance: must be a distance >= 0 in metres \(got -0.001\)$/],
    ]) {
      const refused = new tela.FitPageJob(readFileSync(sample, 'utf8'), options);
      assert.equal(refused.ok(), false);
      assert.match(refused.error(), message);
      refused.delete();
    }
    // a file that was read but whose markers make no grid of the asked shape: what was read
    // comes with the error, for the panel to show while the user corrects the grid
    const job = new tela.FitPageJob(readFileSync(sample, 'utf8'), JSON.stringify({ cols: 5, rows: 5 }));
    assert.equal(job.ok(), false);
    const read = JSON.parse(job.recordingSummary());
    assert.equal(read.format, 'motive-csv');
    assert.equal(read.units, 'mm');
    assert.equal(read.points, 12);
    assert.equal(read.names.length, 12);
    assert.ok(read.rate > 0 && read.frames > 100);
    job.delete();
  });

  // the fit's settings (plan) follow `tela fit`'s flags: a value that is given must be usable,
  // and is refused naming its key, never clamped or replaced by the default
  test('settings the fit cannot use are refused by plan, naming the key', async () => {
    const tela = await loadTela();
    const job = new tela.FitPageJob(readFileSync(sample, 'utf8'), OPTIONS);
    assert.equal(job.ok(), true, job.error());
    const cases = [
      ['not json', /^settings: not a JSON object$/],
      ['[]', /^settings: not a JSON object$/],
      [{ gird: 3 }, /^settings\.gird: unknown key \(expected one of: grid, /],
      [{ grid: 1 }, /^grid: must be a whole number of points per axis, 0 \(no sweep\) or 2 to 200 \(got 1\)$/],
      [{ grid: 201 }, /^grid: .* \(got 201\)$/],
      [{ grid: 2.5 }, /^grid: .* \(got 2.5\)$/],
      [{ grid: -3 }, /^grid: .* \(got -3\)$/],
      [{ grid: '12' }, /^grid: .* \(got "12"\)$/],
      [{ refine_evaluations: 10001 }, /^refine_evaluations: must be a whole number of evaluations from 0 to 10000/],
      [{ mu_grid: 1 }, /^mu_grid: must be a whole number of mu values, 0 \(mu fixed\) or 2 to 200/],
      [{ mu_max: 0 }, /^mu_max: must be the largest friction coefficient tried, in \(0, 100\] \(got 0\)$/],
      [{ mu_max: 101 }, /^mu_max: /],
      [{ repetition: 3 }, /^repetition: must be 1 \(hanger\) or 2 \(bare hands\) \(got 3\)$/],
      [{ split: 'thirds' }, /^split: must be "whole" or "half" \(got "thirds"\)$/],
      [{ start: [2, 1] }, /^start: must be a point of the searched box delta \/ rho in \[0, 1\], alpha \/ rho in \[0, 4\]/],
      [{ start: [0.2, 5] }, /^start: must be a point of the searched box/],
      [{ start: [-0.1, 1] }, /^start: must be \[delta \/ rho, alpha \/ rho\] or .*numbers >= 0 \(got \[-0.1,1\]\)$/],
      [{ start: [0.2] }, /^start: must be \[delta/],
      [{ start: [0.2, 1, 0.3] }, /^start: must be two numbers, without a mu: a mu needs obstacles to act on \(give a scene with obstacles/],
      [{ start_mu: 0.3 }, /^start_mu: must be left out: a mu needs obstacles to act on \(give a scene with obstacles/],
    ];
    for (const [settings, message] of cases) {
      const answer = job.plan(typeof settings === 'string' ? settings : JSON.stringify(settings));
      assert.ok(answer.startsWith('error: '), `${JSON.stringify(settings)}: ${answer}`);
      assert.match(answer.slice(7), message);
      // nothing is planned: the job asks for nothing and cannot be told anything
      assert.deepEqual(JSON.parse(job.ask(4)).points, []);
      assert.match(job.tell('[]'), /^error: no fit planned$/);
    }
    // the edges of every range plan, with what was given
    const edges = JSON.parse(job.plan(JSON.stringify({ grid: 0, refine_evaluations: 10000, mu_grid: 200, mu_max: 100,
      repetition: 2, split: 'half', start: [1, 4] })));
    assert.equal(edges.grid, 0);
    assert.equal(edges.refine_evaluations, 10000);
    assert.equal(edges.mu_max, 100);
    assert.deepEqual(edges.start, [1, 4]);
    assert.equal(edges.a_priori.repetition, 2);
    assert.ok(edges.train[1] < edges.test[1]);
    assert.equal(JSON.parse(job.plan('')).grid, 20, 'no settings: the defaults');
    job.delete();
  });
});

// `tela fit --replay-out` and the page's Replay CSV (web/src/io/export.js over the module's
// replay) describe the same replay: the same rows, and numbers equal to the page's single
// precision.
describe('replay CSV: CLI and page', () => {
  test('tela fit --replay-out matches the page export of the same fit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tela-replay-'));
    try {
      const file = join(dir, 'replay.csv');
      const fit = JSON.parse(execFileSync(cli, ['fit', sample, '--kappa', '1e-3', '--grid', '3', '--refine-evaluations', '4',
        '--replay-out', file], { encoding: 'utf8', timeout: 120000 }));
      const native = readFileSync(file, 'utf8').trim().split('\n');
      const t = await loadTela();
      const job = new t.FitPageJob(readFileSync(sample, 'utf8'), OPTIONS);
      const summary = JSON.parse(job.summary());
      const { markerReplayCsv } = await import(join(root, 'web/src/io/export.js'));
      const page = markerReplayCsv({ markers: job.markers(), simulated: job.simulate(fit.delta_over_rho, fit.alpha_over_rho, NaN),
        markerNodes: summary.mesh.marker_nodes, nodes: summary.mesh.nx * summary.mesh.ny, names: summary.grid.order, dt: summary.mesh.dt })
        .join('').trim().split('\n');
      job.delete();
      assert.equal(native.length, page.length);
      assert.equal(native.length - 1, (summary.mesh.steps + 1) * 12);
      assert.equal(native[0], page[0]);
      let compared = 0;
      for (let i = 1; i < native.length; i++) {
        const [a, b] = [native[i].split(','), page[i].split(',')];
        assert.deepEqual(a.slice(0, 3), b.slice(0, 3), `row ${i}`);
        for (let c = 3; c < 10; c++) {
          assert.equal(a[c] === '', b[c] === '', `row ${i} column ${c}`);
          if (a[c] !== '') {
            assert.ok(Math.abs(Number(a[c]) - Number(b[c])) < (c === 9 ? 2e-4 : 2e-6), `row ${i} column ${c}: ${a[c]} / ${b[c]}`);
            compared++;
          }
        }
      }
      assert.ok(compared > 0.9 * 7 * (native.length - 1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
