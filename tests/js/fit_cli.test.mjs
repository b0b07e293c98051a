// The `tela fit` and `tela synth-recording` contract (docs/cli.md, "tela fit" and "tela
// synth-recording"): one JSON object on stdout with the fitted parameters, mean_error_cm,
// spatial_sd_cm, evaluations and wall_ms; bad input exits 2 with {"error": ...} naming line
// and column.
// Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'build/tela');
const TIMEOUT_MS = 120000;

function tela(...args) {
  const run = spawnSync(cli, args, { encoding: 'utf8', timeout: TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  const what = `tela ${args.join(' ')}`;
  assert.equal(run.error?.code, undefined, `${what}: ${run.error?.message}`);
  assert.equal(run.signal, null, `${what} was killed by ${run.signal}`);
  let json;
  assert.doesNotThrow(() => (json = JSON.parse(run.stdout)), `${what}: stdout is not one JSON value:\n${run.stdout}`);
  return { status: run.status, json };
}

describe('tela fit', () => {
  let dir;
  before(() => {
    assert.ok(existsSync(cli), `${cli} missing: run scripts/build.sh first`);
    dir = mkdtempSync(join(tmpdir(), 'tela-fit-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('synth-recording writes a Motive export that fit reads back', () => {
    const file = join(dir, 'a3.csv');
    const made = tela('synth-recording', 'A3-shake', '--out', file, '--duration', '2', '--kappa', '1e-3');
    assert.equal(made.status, 0);
    assert.equal(made.json.markers, 12);
    assert.equal(made.json.frames, 201);
    assert.ok(readFileSync(file, 'utf8').startsWith('Format Version,1.23'));

    const report = join(dir, 'fit.json');
    const fit = tela('fit', file, '--kappa', '1e-3', '--grid', '3', '--refine-evaluations', '4', '--threads', '2',
      '--report', report);
    assert.equal(fit.status, 0, JSON.stringify(fit.json));
    for (const key of ['delta', 'alpha', 'delta_over_rho', 'alpha_over_rho', 'mean_error_cm', 'spatial_sd_cm',
      'evaluations', 'wall_ms']) assert.equal(typeof fit.json[key], 'number', key);
    assert.equal(fit.json.recording.format, 'motive-csv');
    assert.equal(fit.json.recording.rate, 100);
    assert.deepEqual([fit.json.grid.cols, fit.json.grid.rows], [3, 4]);
    assert.deepEqual([fit.json.mesh.nx, fit.json.mesh.ny], [5, 7]);
    assert.equal(fit.json.mu, null);
    assert.equal(fit.json.evaluations, 1 + 9 + 4 + 1);
    const details = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(details.frames.length, 200);
    assert.equal(details.sweep_points.length, 9);
  });

  test('synth-recording writes C3D for a .c3d file, which fit reads with the same detection', () => {
    const csv = join(dir, 'same.csv');
    const c3d = join(dir, 'same.C3D');
    const quick = ['--grid', '0', '--refine-evaluations', '0'];
    for (const file of [csv, c3d])
      assert.equal(tela('synth-recording', 'A3-shake', '--out', file, '--duration', '1', '--seed', '5').status, 0);
    const bytes = readFileSync(c3d);
    assert.deepEqual([bytes[0], bytes[1], bytes[512 + 3]], [2, 0x50, 84]);  // parameters in block 2, Intel
    const [text, binary] = [tela('fit', csv, ...quick), tela('fit', c3d, ...quick)];
    assert.equal(binary.status, 0, JSON.stringify(binary.json));
    assert.equal(binary.json.recording.format, 'c3d');
    assert.equal(binary.json.recording.up_axis, 'y');
    assert.equal(binary.json.recording.up_axis_source, 'format');
    for (const key of ['points', 'frames', 'rate', 'units', 'missing_samples', 'names'])
      assert.deepEqual(binary.json.recording[key], text.json.recording[key], key);
    for (const key of ['cols', 'rows', 'order', 'held', 'source']) assert.deepEqual(binary.json.grid[key], text.json.grid[key], key);
    // the lattice residual and the a-priori error agree to the rounding of the CSV's three decimals of mm
    assert.ok(Math.abs(binary.json.grid.residual - text.json.grid.residual) < 1e-6);
    assert.ok(Math.abs(binary.json.train_error_cm - text.json.train_error_cm) < 1e-3);
    // a broken C3D names the byte
    writeFileSync(c3d, bytes.subarray(0, 600));
    const broken = tela('fit', c3d);
    assert.equal(broken.status, 2);
    assert.match(broken.json.error, /c3d: byte \d+: .*truncated|c3d: byte \d+: parameter/);
  });

  test('--order and --exclude override the grid detection; unknown names are refused', () => {
    const sample = join(root, 'public/samples/a3-shake-synthetic.csv');
    const quick = ['--grid', '0', '--refine-evaluations', '0'];
    const detected = tela('fit', sample, ...quick);
    assert.equal(detected.status, 0, JSON.stringify(detected.json));
    assert.equal(detected.json.grid.source, 'detected');
    const order = detected.json.grid.order;
    assert.equal(order.length, 12);
    // the same order given by the user: the same grid and held corners
    const given = tela('fit', sample, ...quick, '--markers', '3x4', '--order', order.join(','));
    assert.equal(given.status, 0, JSON.stringify(given.json));
    assert.equal(given.json.grid.source, 'user');
    assert.deepEqual(given.json.grid.order, order);
    assert.deepEqual(given.json.grid.held, detected.json.grid.held);
    // the mesh: refinement factor and rest size
    const sized = tela('fit', sample, ...quick, '--refine', '3', '--size', '0.3,0.45');
    assert.equal(sized.status, 0, JSON.stringify(sized.json));
    assert.deepEqual([sized.json.mesh.nx, sized.json.mesh.ny, sized.json.mesh.width, sized.json.mesh.height], [7, 10, 0.3, 0.45]);
    for (const bad of ['0.3', '0,0.4', '0.3,x']) {
      const refused = tela('fit', sample, ...quick, '--size', bad);
      assert.equal(refused.status, 2, bad);
      assert.match(refused.json.error, /--size/);
    }
    // one marker excluded: 11 are left, which no rectangular grid fits
    let r = tela('fit', sample, ...quick, '--exclude', order[4]);
    assert.equal(r.status, 2);
    assert.match(r.json.error, /no rectangular marker grid fits 11 markers/);
    r = tela('fit', sample, ...quick, '--exclude', 'Cloth:nope');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /exclude: the recording has no marker 'Cloth:nope'/);
    r = tela('fit', sample, ...quick, '--markers', '3x4', '--order', [...order.slice(0, 11), 'Cloth:nope'].join(','));
    assert.equal(r.status, 2);
    assert.match(r.json.error, /grid order: the recording has no marker 'Cloth:nope'/);
    r = tela('fit', sample, ...quick, '--markers', '3x4', '--order', [order[0], ...order.slice(0, 11)].join(','));
    assert.equal(r.status, 2);
    assert.match(r.json.error, /grid order: marker '.*' is named twice/);
    // two markers swapped: taken as given, with a warning
    const swapped = [order[11], ...order.slice(1, 11), order[0]];
    r = tela('fit', sample, ...quick, '--markers', '3x4', '--order', swapped.join(','));
    assert.equal(r.status, 0, JSON.stringify(r.json));
    assert.ok(r.json.warnings.some((w) => /fits a regular lattice poorly/.test(w)), JSON.stringify(r.json.warnings));
  });

  test('bad input: exit 2 with a located message', () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'Format Version,1.23,Export Frame Rate,100,Length Units,Millimeters\n\n,Type,Marker,Marker,Marker\n'
      + ',Name,a,a,a\n,,Position,Position,Position\nFrame,Time (Seconds),X,Y,Z\n0,0,1,2,3\n1,0.01,1,zz,3\n');
    let r = tela('fit', bad);
    assert.equal(r.status, 2);
    assert.match(r.json.error, /line 8, column 4/);
    r = tela('fit', join(dir, 'missing.csv'));
    assert.equal(r.status, 2);
    r = tela('fit');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /usage/);
    // the fit's settings are checked by the core (fit/fit_settings.h), named by their flags
    const sample = join(root, 'public/samples/a3-shake-synthetic.csv');
    r = tela('fit', sample, '--params', '0.1,0.3,0.5');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /^--params: must be two numbers, without a mu: a mu needs obstacles to act on \(give a --scenario with obstacles/);
    for (const [args, message] of [
      [['--grid', '1'], /^--grid: must be a whole number of points per axis, 0 \(no sweep\) or 2 to 200 \(got 1\)$/],
      [['--grid', 'many'], /^--grid: must be a whole number of points per axis, .* \(got many\)$/],
      [['--refine-evaluations', '10001'], /^--refine-evaluations: must be a whole number of evaluations from 0 to 10000 \(got 10001\)$/],
      [['--mu-grid', '2.5'], /^--mu-grid: must be a whole number of mu values, 0 \(mu fixed\) or 2 to 200 \(got 2.5\)$/],
      [['--mu-max', '0'], /^--mu-max: must be the largest friction coefficient tried, in \(0, 100\] \(got 0\)$/],
      [['--repetition', '3'], /^--repetition: must be 1 \(hanger\) or 2 \(bare hands\) \(got 3\)$/],
      [['--split', 'thirds'], /^--split: must be "whole" or "half" \(got thirds\)$/],
      [['--params', '-0.1,0.3'], /^--params: must be \[delta \/ rho, alpha \/ rho\] or .*numbers >= 0 \(got -0.1,0.3, that is delta \/ rho = /],
    ]) {
      r = tela('fit', sample, ...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.json.error, message);
    }
    // a starting point outside the searched box is refused, not moved to its edge; --params
    // gives delta and alpha in kg/m^2 and kg/(m^2 s), the message the ratios the box bounds
    r = tela('fit', sample, '--params', '50,1', '--grid', '0');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /^--params: must be a point of the searched box delta \/ rho in \[0, 1\], alpha \/ rho in \[0, 4\] \(thesis §4.2.2\) \(got 50,1, that is delta \/ rho = 277.162, alpha \/ rho = 5.54324 with rho = 0.1804 kg\/m\^2\)$/);
    // a fitted mu is searched in [0, --mu-max]: a start above it is refused
    r = tela('fit', sample, '--scenario', 'tablecloth', '--params', '0.1,0.3,3', '--grid', '0');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /^--params: its mu 3 lies above --mu-max 2 /);
    r = tela('fit', sample, '--scenario', 'tablecloth', '--mu-max', '0.3', '--grid', '0');
    assert.equal(r.status, 2);
    assert.match(r.json.error, /^--mu-max: 0.3 is below the first obstacle's friction coefficient 0.5/);
    // the starting mu alone: checked as the third value of --params is, and given once
    for (const [args, message] of [
      [['--scenario', 'tablecloth', '--start-mu', '3'], /^--start-mu: 3 lies above --mu-max 2 /],
      [['--scenario', 'tablecloth', '--start-mu', '-1'], /^--start-mu: must be the friction coefficient the fit starts from, a number >= 0 \(got -1\)$/],
      [['--scenario', 'tablecloth', '--start-mu', 'nan'], /^--start-mu: must be the friction coefficient .* \(got nan\)$/],
      [['--start-mu', '0.3'], /^--start-mu: must be left out: a mu needs obstacles to act on \(give a --scenario with obstacles/],
      [['--scenario', 'tablecloth', '--params', '0.1,0.3,0.5', '--start-mu', '0.3'], /^--start-mu: must be left out when --params holds a mu/],
    ]) {
      r = tela('fit', sample, ...args, '--grid', '0');
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.json.error, message);
    }
    r = tela('fit', sample, '--scenario', 'tablecloth', '--start-mu', '0.4', '--mu-grid', '0', '--grid', '0',
      '--refine-evaluations', '0', '--duration', '1');
    assert.equal(r.status, 0, JSON.stringify(r.json));
    assert.equal(r.json.mu, 0.4);
    // bytes that are not UTF-8 in the quoted cell (Windows-1252 'é'): still one JSON message
    const latin = join(dir, 'latin.csv');
    writeFileSync(latin, Buffer.concat([readFileSync(bad).subarray(0, readFileSync(bad).length - 6),
      Buffer.from([0x31, 0x2c, 0xe9, 0x2c, 0x33, 0x0a])]));
    r = tela('fit', latin);
    assert.equal(r.status, 2);
    assert.match(r.json.error, /line 8, column 4: .*'é'/);
  });
});
