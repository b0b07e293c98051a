// The command-line contract of build/tela (docs/cli.md, "The contract"): each command prints
// one JSON object on stdout; bad input prints {"error": ...} and exits 2; a numerical failure
// exits 3. Every call runs with a timeout, so a hang fails the test. Build first:
// scripts/build.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'build/tela');
const TIMEOUT_MS = 60000;

const SCENES = ['hang-7x9', 'hang-20x33', 'hang-30x30', 'wam-slow', 'wam-fast', 'cusick-low',
  'cusick-medium', 'cusick-high', 'locking-tri-472', 'locking-tri-941', 'locking-quad-529',
  'locking-quad-900', 'cylinder-mu-0.2', 'cylinder-mu-0.4', 'cylinder-mu-0.55', 'sphere-rotating',
  'needles', 'tablecloth', 'stick-hit', 'napkin-fold'];

// runs `tela ...args`: { status, stdout, json } (json: the one object that is all of stdout)
function tela(...args) {
  const run = spawnSync(cli, args, { encoding: 'utf8', timeout: TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  const what = `tela ${args.join(' ')}`;
  assert.equal(run.error?.code, undefined, `${what}: ${run.error?.message} (timeout ${TIMEOUT_MS} ms)`);
  assert.equal(run.signal, null, `${what} was killed by ${run.signal}\n${run.stderr}`);
  let json;
  assert.doesNotThrow(() => (json = JSON.parse(run.stdout)), `${what}: stdout is not one JSON value:\n${run.stdout}`);
  assert.ok(json !== null && typeof json === 'object' && !Array.isArray(json), `${what}: not a JSON object`);
  return { status: run.status, stdout: run.stdout, json };
}

// bad input: exit 2 and {"error": message} with the message matching `pattern`
function assertBadInput(result, pattern) {
  assert.equal(result.status, 2, `exit status 2 expected, got ${result.status}: ${result.stdout}`);
  assert.deepEqual(Object.keys(result.json), ['error']);
  assert.equal(typeof result.json.error, 'string');
  assert.match(result.json.error, pattern);
}

describe('tela command line', () => {
  let dir;
  let hang; // the hang-7x9 scenario, parsed
  let counter = 0;
  // writes a scenario (object, or text as is) to a fresh file and returns its path
  const scenarioFile = (scenario) => {
    const file = join(dir, `scenario-${++counter}.json`);
    writeFileSync(file, typeof scenario === 'string' ? scenario : JSON.stringify(scenario, null, 2));
    return file;
  };
  const hangWith = (edit) => {
    const s = structuredClone(hang);
    edit(s);
    return scenarioFile(s);
  };

  before(() => {
    assert.ok(existsSync(cli), `${cli} missing: run scripts/build.sh first`);
    dir = mkdtempSync(join(tmpdir(), 'tela-cli-'));
    hang = tela('scenario', 'hang-7x9').json;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('`tela scenarios` lists the 20 built-in scenes', () => {
    const { status, json } = tela('scenarios');
    assert.equal(status, 0);
    assert.deepEqual(json.scenarios, SCENES);
  });

  test('`tela scenario NAME` prints a scenario that reproduces the scene', () => {
    for (const name of SCENES) {
      const { status, json } = tela('scenario', name);
      assert.equal(status, 0, name);
      assert.equal(json.version, 1, name);
      assert.equal(json.name, name);
      for (const key of ['mesh', 'material', 'solver', 'duration', 'controls', 'seed']) {
        assert.ok(key in json, `${name}: ${key} missing`);
      }
      const file = scenarioFile(json);
      const fromFile = tela('simulate', file, '--steps', '2');
      const fromName = tela('simulate', name, '--steps', '2');
      assert.equal(fromFile.status, 0, `${name}: ${fromFile.stdout}`);
      assert.equal(fromName.status, 0, `${name}: ${fromName.stdout}`);
      assert.match(fromFile.json.state_hash, /^[0-9a-f]{16}$/);
      assert.equal(fromFile.json.state_hash, fromName.json.state_hash, `${name}: file and name runs differ`);
    }
  });

  test('`tela simulate` prints the run summary', () => {
    const { status, json } = tela('simulate', 'hang-7x9', '--steps', '10');
    assert.equal(status, 0);
    assert.equal(json.steps, 10);
    assert.ok(Math.abs(json.sim_time - 0.1) < 1e-12, `sim_time ${json.sim_time}`);
    for (const key of ['wall_ms', 'mean_iterations', 'max_constraint_error', 'max_contacts', 'area_error']) {
      assert.ok(Number.isFinite(json[key]), `${key}: ${json[key]}`);
    }
    assert.ok(json.max_constraint_error <= hang.solver.tolerance, `${json.max_constraint_error}`);
    assert.match(json.state_hash, /^[0-9a-f]{16}$/);
    assert.equal(json.status, 'ok');
  });

  test('--help, -h and help print {"usage": ...} and exit 0, for tela and for each command', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { status, json } = tela(...args);
      assert.equal(status, 0, args.join(' '));
      assert.deepEqual(Object.keys(json), ['usage']);
      assert.match(json.usage, /^usage: tela scenarios \| .*tela fit RECORDING.*COMMAND --help/);
    }
    const options = {
      scenarios: [], scenario: [], simulate: ['--every', '--final-obj'], reconstruct: ['--voxel', '--mesh-out'],
      dgli: ['--segments'], classify: ['--database'], 'dgli-database': ['--evaluate'],
      fit: ['--params', '--markers', '--units'], 'synth-recording': ['--occlusion'],
    };
    for (const [command, names] of Object.entries(options)) {
      // the help wins over anything else on the line, even arguments that are wrong
      const { status, json } = tela(command, 'no-such-file', '--bogus', '-h');
      assert.equal(status, 0, `${command} -h`);
      assert.deepEqual(Object.keys(json), ['usage']);
      assert.ok(json.usage.startsWith(`usage: tela ${command}`), json.usage);
      for (const name of names) assert.ok(json.usage.includes(name), `${command} --help names ${name}`);
    }
  });

  describe('bad input exits 2 with {"error": ...} naming the problem', () => {
    test('unknown command, missing and unknown arguments', () => {
      assertBadInput(tela(), /usage/);
      assertBadInput(tela('frobnicate'), /unknown command 'frobnicate'/);
      assertBadInput(tela('scenario'), /usage: tela scenario NAME/);
      assertBadInput(tela('simulate'), /usage/);
      assertBadInput(tela('simulate', 'hang-7x9', '--bogus'), /--bogus/);
      assertBadInput(tela('simulate', 'hang-7x9', '--every', '0'), /--every/);
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', 'x'), /--steps/);
    });

    test('unknown scene name', () => {
      assertBadInput(tela('scenario', 'no-such-scene'), /no-such-scene/);
      assertBadInput(tela('simulate', 'no-such-scene'), /no-such-scene.*neither a readable file nor a built-in scene/);
    });

    test('unknown key', () => {
      assertBadInput(tela('simulate', hangWith((s) => (s.bogus = 1))), /bogus: unknown key/);
      assertBadInput(tela('simulate', hangWith((s) => (s.solver.dt_typo = 0.01))), /solver\.dt_typo: unknown key/);
    });

    test('NaN is not JSON', () => {
      const text = JSON.stringify(hang, null, 2).replace(/"dt": 0\.01/, '"dt": NaN');
      assert.match(text, /"dt": NaN/);
      assertBadInput(tela('simulate', scenarioFile(text)), /invalid JSON.*solver\.dt/);
    });

    test('negative dt names solver.dt', () => {
      assertBadInput(tela('simulate', hangWith((s) => (s.solver.dt = -0.01))), /solver\.dt: must be > 0/);
    });

    test('empty mesh', () => {
      const triangle = [0, 0, 1, 1, 0, 1, 0, 1, 1];
      const explicit = (vertices, faces) => hangWith((s) => {
        s.mesh = { type: 'mesh', vertices, faces };
        s.controls = [];
      });
      assertBadInput(tela('simulate', explicit(triangle, [])), /mesh\.faces/);
      assertBadInput(tela('simulate', explicit([], [])), /mesh\.(vertices|faces)/);
    });

    test('node index out of range', () => {
      assertBadInput(tela('simulate', hangWith((s) => (s.controls[0].nodes = [0, 99999]))),
        /controls\[0\]\.nodes.*99999.*out of range/);
    });

    test('absurd sizes are refused up front, not run', () => {
      assertBadInput(tela('simulate', hangWith((s) => Object.assign(s.mesh, { nx: 200, ny: 200 }))), /mesh: .*nodes/);
      assertBadInput(tela('simulate', hangWith((s) => (s.duration = 1e5))), /duration/);
    });

    test('unreadable output paths', () => {
      const missing = join(dir, 'no-such-dir', 'x');
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', '1', '--out', missing), /--out/);
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', '1', '--final-obj', missing), /--final-obj/);
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', '1', '--out', ''), /--out: needs a file name/);
    });

    // each of these would run on, hang or lose data quietly without its check
    test('--steps is capped as the scenario file is; a failed --out write is reported', () => {
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', '9223372036854775807'), /--steps: .*1000000/);
      assertBadInput(tela('simulate', 'hang-7x9', '--steps', '1000001'), /--steps/);
      if (existsSync('/dev/full')) {
        assertBadInput(tela('simulate', 'hang-7x9', '--steps', '3', '--out', '/dev/full'),
          /--out: writing '\/dev\/full' failed .*incomplete/);
      }
    });

    test('a directory, a deep nesting and a sinusoid axis that overflows', () => {
      for (const command of ['simulate', 'fit', 'reconstruct', 'dgli']) {
        assertBadInput(tela(command, dir), /is a directory, not a file/);
      }
      // a million '[' stops at the depth limit at once (an error path rebuilt per level would
      // take minutes)
      const started = Date.now();
      assertBadInput(tela('simulate', scenarioFile('['.repeat(1000000))), /nested deeper than 64 levels/);
      assert.ok(Date.now() - started < 10000, 'the depth limit answers at once');
      // [1e155, 1e155, 0] is a direction: its squared norm overflows, yet the corners move as
      // along [1, 1, 0]
      const shaken = (axis) => tela('simulate', hangWith((s) => {
        s.controls[0].motion = { type: 'sinusoid', axis, amplitude: 0.05, frequency: 1 };
      }), '--steps', '20');
      const huge = shaken([1e155, 1e155, 0]);
      assert.equal(huge.status, 0, huge.stdout);
      assert.equal(huge.json.state_hash, shaken([1, 1, 0]).json.state_hash);
      assertBadInput(tela('simulate', hangWith((s) => {
        s.controls[0].motion = { type: 'sinusoid', axis: [0, 0, 0] };
      })), /controls\[0\]\.motion\.axis: must be non-zero/);
    });

    test('synth-recording refuses out-of-range options, naming them', () => {
      const out = join(dir, 'synth.csv');
      const synth = (...options) => tela('synth-recording', 'A3-shake', '--out', out, '--duration', '1', ...options);
      assertBadInput(synth('--delta', '-1'), /--delta: must be >= 0 \(got '-1'\)/);
      assertBadInput(synth('--alpha', '-5'), /--alpha/);
      assertBadInput(synth('--seed', '1e30'), /--seed/);
      assertBadInput(synth('--seed', '-1'), /--seed/);
      assertBadInput(synth('--decimals', '2.7'), /--decimals/);
      assertBadInput(synth('--mu', '0.5'), /--mu: only the lay scenes/);
      assertBadInput(synth('--noise', '1e300'), /noise: from 0 to 0\.1 m \(got 1e\+300\)/);
      assertBadInput(synth('--amplitude', '1e300'), /amplitude/);
      assertBadInput(synth('--frequency', '-1'), /frequency/);
      assertBadInput(synth('--kappa', '1e300'), /kappa/);
      assertBadInput(tela('synth-recording', 'Z9', '--out', out), /unknown scene 'Z9'/);
      const ok = synth('--seed', '7', '--decimals', '3');
      assert.equal(ok.status, 0, ok.stdout);
    });

    test('inputs that were misread: a binary non-C3D recording, UTF-16, a far outlier, a 1e300 m sheet, a thick cloth', () => {
      const file = (name, bytes) => {
        const path = join(dir, name);
        writeFileSync(path, bytes);
        return path;
      };
      assertBadInput(tela('fit', file('noise.c3d', Buffer.from([0x6e, 0xa1, 0, 0x24, 0x40, 0, 1, 2]))),
        /binary but not C3D/);
      assertBadInput(tela('fit', file('utf16.csv', Buffer.from('\ufeffframe,time\n', 'utf16le'))), /UTF-16/);
      const cloud = Array.from({ length: 400 }, (_, k) => `${k % 20},${Math.floor(k / 20)},${(k * 7) % 3}`);
      cloud.push('1e300,0,0');
      assertBadInput(tela('reconstruct', file('outlier.xyz', cloud.join('\n'))), /point 400 .*beyond 1e9.*outlier/);
      assertBadInput(tela('simulate', hangWith((s) => (s.mesh.height = 1e300))), /more than 10 km from the origin/);
      assertBadInput(tela('simulate', hangWith((s) => {
        s.self_collision = { enabled: true, thickness: 0.06 };
      })), /self_collision\.thickness: 60 mm is not below half the mesh's shortest edge/);
      assertBadInput(tela('dgli', file('dummy.obj', 'v 0 0 0\n'), '--frame', ''), /--frame/);
      const started = Date.now();
      assertBadInput(tela('dgli-database', '--out', join(dir, 'no-such-dir', 'db.json')), /--out: cannot write/);
      assert.ok(Date.now() - started < 5000, 'the output path is checked before the simulations');
    });

    test('dgli: a byte-order mark keeps the first point; coordinates that overflow are refused', () => {
      const square = Array.from({ length: 8 }, (_, k) => {
        const t = (2 * Math.PI * k) / 8;
        return `${Math.cos(t)},${Math.sin(t)},0`;
      });
      const plain = join(dir, 'boundary.csv');
      const bom = join(dir, 'boundary-bom.csv');
      writeFileSync(plain, square.join('\n') + '\n');
      writeFileSync(bom, '\ufeff' + square.join('\n') + '\n');
      assert.equal(tela('dgli', plain).json.boundary_points, 8);
      assert.equal(tela('dgli', bom).json.boundary_points, 8);
      const huge = join(dir, 'boundary-huge.csv');
      writeFileSync(huge, square.map((line) => line.split(',').map((v) => `${Number(v) * 1e300}`).join(',')).join('\n'));
      assertBadInput(tela('dgli', huge), /length overflows/);
      // a mesh with a hole: its outer loop is the curve, and the output says a loop was left out
      const vertices = Array.from({ length: 16 }, (_, k) => `v ${k % 4} ${Math.floor(k / 4)} 0`);
      const quads = [];
      for (let j = 0; j < 3; ++j) {
        for (let i = 0; i < 3; ++i) {
          const a = 1 + i + 4 * j;
          if (i !== 1 || j !== 1) quads.push(`f ${a} ${a + 1} ${a + 5} ${a + 4}`);
        }
      }
      const holed = join(dir, 'holed.obj');
      writeFileSync(holed, [...vertices, ...quads].join('\n') + '\n');
      const out = tela('dgli', holed).json;
      assert.equal(out.boundary_points, 12);
      assert.equal(out.ignored_boundary_loops, 1);
      assert.equal(tela('dgli', plain).json.ignored_boundary_loops, undefined);
    });
  });

  test('a diverging run exits 3 with a message', () => {
    // wam-fast shaken 3 m at 0.6 Hz from t = 0 with dt 0.5 s and one projection iteration:
    // the constraints cannot be met
    const file = scenarioFile((() => {
      const s = tela('scenario', 'wam-fast').json;
      s.solver.dt = 0.5;
      s.solver.max_iterations = 1;
      s.controls[0].motion.amplitude = 3.0;
      s.controls[0].motion.start = 0;
      return s;
    })());
    const { status, json } = tela('simulate', file);
    assert.equal(status, 3, JSON.stringify(json));
    assert.equal(json.status, 'failed');
    assert.match(json.error, /diverged|non-finite/);
    assert.match(json.error, /solver\.dt|max_iterations/);
    assert.ok(json.steps < Math.round(14 / 0.5), `stopped early: ${json.steps} steps`);
  });

  test('controls that pull the cloth apart: the divergence message names the two nodes, not the step size', () => {
    // hang-7x9 with an interior node lifted 20 cm out of the flat sheet held at its top
    // corners: no step size makes that inextensible (the page's grasp did this)
    const file = scenarioFile((() => {
      const s = tela('scenario', 'hang-7x9').json;
      s.controls.push({ nodes: [12], motion: { type: 'keyframes', keyframes: [
        { time: 0, offset: [0, 0, 0] }, { time: 0.5, offset: [0, 0, 0] }, { time: 1.5, offset: [0, 0, 0.2] }] } });
      return s;
    })());
    const { status, json } = tela('simulate', file);
    assert.equal(status, 3, JSON.stringify(json));
    assert.match(json.error, /the controls hold nodes (\d+) and (\d+) [\d.]+ m apart, farther than they are on the cloth at rest/);
    assert.match(json.error, /\b12\b/);
    assert.doesNotMatch(json.error, /smaller solver\.dt/);
  });

  test('a contact QP without solution ends the run with exit 3 and says so, not a hang', () => {
    // a crumpled table napkin (tests/data, dgli crumpled seed 101): at t = 1.62 s a contact QP
    // hits the active-set iteration cap. Which crumpling fails depends on the contact solver's
    // path, so this fixture may need replacing when the solver changes (`tela dgli-database`
    // lists the failing sequences)
    const { status, json } = tela('simulate', join(root, 'tests/data/napkin-crumpled-contact-failure.json'));
    assert.equal(status, 3, JSON.stringify(json));
    assert.equal(json.status, 'failed');
    assert.match(json.error, /contact QP (infeasible|hit its iteration cap)/);
    assert.ok(json.sim_time < 1.7, `stopped at ${json.sim_time} s`);
  });

  test('--out writes the trajectory CSV (frame,time,node,x,y,z)', () => {
    const csv = join(dir, 'trajectory.csv');
    const { status, json } = tela('simulate', 'hang-7x9', '--steps', '10', '--every', '3', '--out', csv);
    assert.equal(status, 0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'frame,time,node,x,y,z');
    const rows = lines.slice(1).map((line) => line.split(',').map(Number));
    const nodes = json.nodes;
    assert.equal(nodes, 63);
    // frames 0 (initial), 3, 6, 9 and the last one, 10
    const frames = [0, 3, 6, 9, 10];
    assert.equal(rows.length, frames.length * nodes);
    rows.forEach((row, i) => {
      assert.equal(row.length, 6);
      assert.ok(row.every(Number.isFinite), `row ${i + 2}: ${lines[i + 1]}`);
      assert.equal(row[0], frames[Math.floor(i / nodes)]);
      assert.ok(Math.abs(row[1] - row[0] * hang.solver.dt) < 1e-9, `row ${i + 2}: time`);
      assert.equal(row[2], i % nodes);
    });
    // the full trajectory: one frame per step plus the initial one
    const full = join(dir, 'full.csv');
    tela('simulate', 'hang-7x9', '--steps', '4', '--out', full);
    assert.equal(readFileSync(full, 'utf8').trim().split('\n').length, 1 + 5 * nodes);
  });

  test('--final-obj writes the last state as v/f lines', () => {
    const obj = join(dir, 'final.obj');
    const csv = join(dir, 'final.csv');
    const { status } = tela('simulate', 'hang-7x9', '--steps', '5', '--final-obj', obj, '--out', csv);
    assert.equal(status, 0);
    const lines = readFileSync(obj, 'utf8').trim().split('\n').filter((l) => !l.startsWith('#'));
    const v = lines.filter((l) => l.startsWith('v '));
    const f = lines.filter((l) => l.startsWith('f '));
    assert.equal(v.length + f.length, lines.length, 'only v and f lines (and comments)');
    assert.equal(v.length, 63);
    assert.equal(f.length, 6 * 8, 'a 7x9-node quad mesh has 48 faces');
    for (const line of f) {
      const idx = line.split(/\s+/).slice(1).map(Number);
      assert.ok(idx.length === 3 || idx.length === 4, line);
      assert.ok(idx.every((k) => Number.isInteger(k) && k >= 1 && k <= 63), line);
    }
    // the vertices are the last frame of the trajectory
    const last = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number))
      .filter((r) => r[0] === 5);
    v.forEach((line, k) => {
      const xyz = line.split(/\s+/).slice(1).map(Number);
      for (let c = 0; c < 3; c++) assert.ok(Math.abs(xyz[c] - last[k][3 + c]) < 1e-8, `v ${k + 1}`);
    });
  });
});
