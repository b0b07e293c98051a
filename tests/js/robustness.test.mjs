// Bad input never crashes the WebAssembly module the page loads: deterministic random mutations
// (bytes changed, inserted, deleted, files cut short) of a text recording and a C3D file, of
// point clouds (ASCII and binary) and of scenarios go through the same entry points as the
// page's panels. Each must answer with a result or an error message; an abort of the module
// (a thrown RuntimeError) fails the test. Among what it guards: invalid UTF-8 in a JSON message
// (an abort under JSON_NOEXCEPTION) and short k-nearest rows in the Morse graph. Build first:
// scripts/build.sh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { motiveMarkers, writeC3d } from './c3d_file.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
let tela;

before(async () => {
  const wasmDir = join(root, 'web/src/wasm');
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  tela = await createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
});

// mulberry32: the same mutations on every run
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let z = Math.imul(state ^ (state >>> 15), 1 | state);
    z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

const INSERTS = [',', '\n', 'nan', '-1e400', '\0', '999999999999', ' ', 'end_header\n', '\xe9', 'DATA binary\n']
  .map((s) => Uint8Array.from(s, (c) => c.charCodeAt(0)));

function mutate(bytes, next, most = 8) {
  let b = Array.from(bytes);
  const edits = 1 + Math.floor(next() * most);
  for (let k = 0; k < edits && b.length > 0; k++) {
    const r = next(), i = Math.floor(next() * b.length);
    if (r < 0.4) b[i] = Math.floor(next() * 256);
    else if (r < 0.6) b.splice(i, 0, ...INSERTS[Math.floor(next() * INSERTS.length)]);
    else if (r < 0.85) b.splice(i, 1 + Math.floor(next() * 200));
    else b = b.slice(0, i);
  }
  return Uint8Array.from(b);
}

// a binary little-endian PCD of n points on a wavy sheet, with an rgb field
function binaryPcd(n) {
  const header = `# .PCD v0.7\nVERSION 0.7\nFIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\n` +
    `WIDTH ${n}\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS ${n}\nDATA binary\n`;
  const data = new DataView(new ArrayBuffer(16 * n));
  const side = Math.ceil(Math.sqrt(n));
  for (let k = 0; k < n; k++) {
    const x = (k % side) / side, y = Math.floor(k / side) / side;
    data.setFloat32(16 * k, x, true);
    data.setFloat32(16 * k + 4, y, true);
    data.setFloat32(16 * k + 8, 0.05 * Math.sin(6 * x) * Math.cos(5 * y), true);
    data.setUint32(16 * k + 12, 0x00ff8040, true);
  }
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(head.length + 16 * n);
  out.set(head);
  out.set(new Uint8Array(data.buffer), head.length);
  return out;
}

// a FitPageJob made from damaged bytes: its summary parses or it says why it refused; counted
function tally(job, counts) {
  if (job.ok()) {
    assert.doesNotThrow(() => JSON.parse(job.summary()));
    counts.parsed++;
  } else {
    assert.ok(job.error().length > 0);
    counts.refused++;
  }
  job.delete();
}

describe('malformed input never aborts the module', () => {
  test('recordings (the Fit panel: FitPageJob)', () => {
    const sample = new Uint8Array(readFileSync(join(root, 'public/samples/a3-shake-synthetic.csv')));
    const next = random(1);
    const counts = { parsed: 0, refused: 0 };
    for (let t = 0; t < 100; t++) {
      // every other one cut after a whole row (a shorter, valid recording) before its edits,
      // which are then few: the damage must sometimes leave a file that still parses
      const cut = t % 2 ? sample.subarray(0, sample.indexOf(10, 2000 + Math.floor(next() * 40000)) + 1) : sample;
      tally(new tela.FitPageJob(mutate(cut, next, t % 2 ? 1 : 8), '{}'), counts);
    }
    assert.ok(counts.parsed > 0 && counts.refused > 0, `${counts.parsed} parsed, ${counts.refused} refused: the mutations should do both`);
    console.log(`recordings: ${counts.parsed} parsed, ${counts.refused} refused`);
  });

  test('C3D recordings (binary bytes through FitPageJob)', () => {
    const markers = motiveMarkers(readFileSync(join(root, 'public/samples/a3-shake-synthetic.csv'), 'utf8'));
    markers.frames = markers.frames.slice(0, 150);
    const file = writeC3d({ ...markers, yScreen: '+Y', analogChannels: 2 });
    const intact = new tela.FitPageJob(file, '{}');
    assert.equal(intact.ok(), true, intact.error());
    intact.delete();
    const next = random(3);
    const counts = { parsed: 0, refused: 0 };
    for (let t = 0; t < 100; t++) {
      // bytes changed in the header and the parameters (where they matter) or anywhere, or cut
      const bytes = Uint8Array.from(file);
      const region = t % 3 ? 1536 : bytes.length;
      const edits = 1 + Math.floor(next() * 6);
      for (let k = 0; k < edits; k++) bytes[Math.floor(next() * region)] = Math.floor(next() * 256);
      tally(new tela.FitPageJob(t % 5 ? bytes : bytes.subarray(0, Math.floor(next() * bytes.length)), '{}'), counts);
    }
    assert.ok(counts.parsed > 0 && counts.refused > 0, `${counts.parsed} parsed, ${counts.refused} refused: the mutations should do both`);
    console.log(`C3D recordings: ${counts.parsed} parsed, ${counts.refused} refused`);
  });

  test('point clouds (the Reconstruct panel: parseCloud, reconstructCloud)', () => {
    const sources = [
      ['wavy-cloth.ply', new Uint8Array(readFileSync(join(root, 'public/samples/wavy-cloth.ply')))],
      ['sheet.pcd', binaryPcd(1500)],
    ];
    const next = random(2);
    let reconstructed = 0, refused = 0;
    for (let t = 0; t < 100; t++) {
      const [name, bytes] = sources[t % sources.length];
      const parsed = tela.parseCloud(mutate(bytes, next), name);
      if (!parsed.ok) {
        assert.ok(parsed.error.length > 0);
        ++refused;
        continue;
      }
      const result = tela.reconstructCloud(parsed.positions, {});
      assert.ok(result.ok || result.error.length > 0);
      ++reconstructed;
    }
    assert.ok(reconstructed > 0 && refused > 0, `${reconstructed} reconstructed, ${refused} refused`);
    console.log(`clouds: ${reconstructed} reconstructed, ${refused} refused`);
  });

  test('scenarios (the Simulate panel: createSimulation, step)', () => {
    const next = random(3);
    const odd = [0, -1, 1e308, -1e308, 1e-300, 0.5, 3, 1e6, 'x', null, [], {}, true, 2 ** 31, 7, 1e-9];
    // a value somewhere in the tree replaced, or a key dropped (the JSON stays JSON)
    const damage = (node, depth = 0) => {
      const keys = Object.keys(node);
      if (keys.length === 0) return;
      const key = keys[Math.floor(next() * keys.length)];
      const r = next();
      if (r < 0.15) Array.isArray(node) ? node.splice(Number(key), 1) : delete node[key];
      else if (r < 0.6 && typeof node[key] === 'object' && node[key] !== null && depth < 6) damage(node[key], depth + 1);
      else node[key] = odd[Math.floor(next() * odd.length)];
    };
    let ran = 0, refused = 0;
    for (let t = 0; t < 100; t++) {
      const scene = JSON.parse(tela.sceneJson(['hang-7x9', 'tablecloth', 'stick-hit', 'needles'][t % 4]));
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) damage(scene);
      const sim = tela.createSimulation(JSON.stringify(scene));
      if (sim.ok()) {
        sim.step(10);
        assert.doesNotThrow(() => JSON.parse(sim.summary()));
        ++ran;
      } else {
        assert.ok(sim.error().length > 0);
        ++refused;
      }
      sim.delete();
    }
    assert.ok(ran > 0 && refused > 0, `${ran} ran, ${refused} refused`);
    console.log(`scenarios: ${ran} ran, ${refused} refused`);
  });

  test('cloth states and databases (the Classify panel: classifyObj, DgliClassifier)', () => {
    const database = readFileSync(join(root, 'public/dgli/database.json'), 'utf8');
    const classifier = new tela.DgliClassifier(database);
    assert.ok(classifier.ok(), classifier.error());
    // a 9 x 9 napkin with a fold, as OBJ text
    const lines = [];
    for (let j = 0; j < 9; j++) for (let i = 0; i < 9; i++) lines.push(`v ${i * 0.05} ${j * 0.05} ${i > 5 ? 0.01 * (i - 5) : 0}`);
    for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) {
      const a = 9 * j + i + 1;
      lines.push(`f ${a} ${a + 1} ${a + 10} ${a + 9}`);
    }
    const obj = new TextEncoder().encode(lines.join('\n') + '\n');
    const next = random(4);
    let classified = 0, refused = 0;
    for (let t = 0; t < 100; t++) {
      const text = new TextDecoder().decode(mutate(obj, next, t % 2 ? 1 : 6));
      const r = classifier.classifyObj(text, 1 + (t % 5));
      if (r.ok) ++classified;
      else {
        assert.ok(r.error.length > 0);
        ++refused;
      }
    }
    assert.ok(classified > 0 && refused > 0, `${classified} classified, ${refused} refused`);
    // damaged databases: refused with a message or usable, never an abort
    let usable = 0, rejected = 0;
    const bytes = new TextEncoder().encode(database);
    for (let t = 0; t < 40; t++) {
      const other = new tela.DgliClassifier(new TextDecoder().decode(mutate(bytes, next, 3)));
      if (other.ok()) {
        const r = other.classifyObj(lines.join('\n'), 3);
        assert.ok(r.ok || r.error.length > 0);
        ++usable;
      } else {
        assert.ok(other.error().length > 0);
        ++rejected;
      }
      other.delete();
    }
    assert.ok(rejected > 0, `${usable} usable, ${rejected} rejected`);
    classifier.delete();
    console.log(`OBJ states: ${classified} classified, ${refused} refused; databases: ${usable} usable, ${rejected} rejected`);
  });
});

// Options and settings as the page passes them (JSON text or objects), with values a C++ cast
// or nlohmann's typed getters could trip on: every call answers or refuses, never aborts the
// module (under JSON_NOEXCEPTION a type error in a getter is an abort).
describe('odd options never abort the module', () => {
  // raw JSON values: 1e400 parses as infinity, 2^64 and -2^63-1 overflow 64-bit integers
  const RAW = ['null', 'true', '0', '-1', '2.5', '1e30', '-1e30', '1e400', '-1e400', '1e-400', '18446744073709551616',
    '-9223372036854775809', '9007199254740993', '"x"', '""', '"half"', '[]', '[1]', '[1, 2, 3]', '[-1, 1e400]',
    '["a", "b"]', '{}', '{"a": 1}', JSON.stringify('m'.repeat(2000))];
  const VALUES = [NaN, Infinity, -Infinity, -1, 0, 0.01, 0.5, 1, 2.5, 3, 32, 1e30, -1e30, 2 ** 53, 'x', '', null, true, [], [1, 2, 3],
    [NaN, NaN, NaN], {}, { min: [0, 0, 0], max: [1, 1, 1] }, { min: [NaN, 0, 0], max: [Infinity, 1, 1] }];
  const pick = (next, list) => list[Math.floor(next() * list.length)];
  // a JSON object of 1-4 of `keys`, each with a random raw value
  const jsonObject = (next, keys) => {
    const entries = [];
    for (let k = 1 + Math.floor(next() * 4); k > 0; k--) entries.push(`${JSON.stringify(pick(next, keys))}: ${pick(next, RAW)}`);
    return `{${entries.join(', ')}}`;
  };
  const objectOf = (next, keys) => {
    const o = {};
    for (let k = 1 + Math.floor(next() * 2); k > 0; k--) o[pick(next, keys)] = pick(next, VALUES);
    return o;
  };

  test('the Fit panel: FitPageJob options, plan settings, evaluate and tell', () => {
    // the sample's header and its first 40 frames (0.4 s: each evaluation is short)
    const lines = readFileSync(join(root, 'public/samples/a3-shake-synthetic.csv'), 'utf8').split('\n');
    const bytes = new TextEncoder().encode(lines.slice(0, 47).join('\n') + '\n');
    const OPTIONS = ['format', 'units', 'up', 'scene', 'scenario', 'rho', 'kappa', 'dt', 'cols', 'rows', 'order', 'held',
      'exclude', 'refine', 'width', 'height', 'duration', 'held_smoothing', 'taut_tolerance'];
    const SETTINGS = ['grid', 'refine_evaluations', 'split', 'repetition', 'start', 'mu_grid', 'mu_max'];
    const POINT = ['delta_over_rho', 'alpha_over_rho', 'mu', 'mean_error_cm', 'mean_sd_cm', 'frames', 'ok', 'message'];
    const next = random(7);
    let planned = 0, refused = 0, unplanned = 0;
    for (let t = 0; t < 60; t++) {
      // odd options are nearly always refused: most runs read the file as it is, so that the
      // settings and the evaluations meet a planned fit
      const job = new tela.FitPageJob(bytes, t % 3 ? '{}' : t % 2 ? jsonObject(next, OPTIONS) : pick(next, RAW));
      if (!job.ok()) {
        assert.ok(job.error().length > 0);
        ++refused;
        job.delete();
        continue;
      }
      ++planned;
      // odd settings are mostly refused ("error: <key>: ..."); the defaults are planned then,
      // so that the evaluations below meet a planned fit
      const plan = job.plan(t % 3 ? jsonObject(next, SETTINGS) : pick(next, RAW));
      if (plan.startsWith('error: ')) ++unplanned;
      assert.doesNotThrow(() => JSON.parse(plan.startsWith('error: ') ? job.plan('{}') : plan));
      const asked = JSON.parse(job.ask(2));
      assert.ok(Array.isArray(asked.points));
      const points = `[${jsonObject(next, POINT.slice(0, 3))}]`;
      assert.ok(Array.isArray(JSON.parse(job.evaluate(t % 2 ? points : pick(next, RAW)))));
      const told = job.tell(`[${jsonObject(next, POINT)}, ${pick(next, RAW)}]`);
      assert.ok(told.startsWith('error: ') || JSON.parse(told));
      assert.doesNotThrow(() => JSON.parse(job.finish(true)));
      job.delete();
    }
    assert.ok(planned > 0 && refused > 0 && unplanned > 0, `${planned} read, ${refused} refused, ${unplanned} settings refused`);
    console.log(`fit options: ${planned} read (settings of ${unplanned} refused), ${refused} refused`);
  });

  test('the Reconstruct panel: cleanCloud and reconstructCloud options', () => {
    const cloud = [];
    for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) cloud.push(i / 19, j / 19, 0.1 * Math.sin(3 * i / 19) * Math.cos(2 * j / 19));
    const positions = Float64Array.from(cloud);
    const CLEAN = ['voxel', 'outlierK', 'outlierRatio', 'planes', 'planeThreshold', 'seed', 'crop'];
    const MORSE = ['direction', 'seed', 'levels', 'resampleNodes'];
    const next = random(8);
    let answered = 0, refused = 0;
    for (let t = 0; t < 150; t++) {
      const r = t % 2 ? tela.cleanCloud(positions, objectOf(next, CLEAN)) : tela.reconstructCloud(positions, objectOf(next, MORSE));
      if (r.ok) ++answered;
      else {
        assert.equal(typeof r.error, 'string');
        assert.ok(r.error.length > 0);
        ++refused;
      }
    }
    assert.ok(answered > 0 && refused > 0, `${answered} answered, ${refused} refused`);
    console.log(`cloud options: ${answered} answered, ${refused} refused`);
  });

  test('the Classify panel: dGLI settings and k', () => {
    const boundary = [];
    for (let k = 0; k < 40; k++) {
      const a = (2 * Math.PI * k) / 40;
      boundary.push(Math.cos(a), Math.sin(a), 0.1 * Math.sin(3 * a));
    }
    const points = Float64Array.from(boundary);
    const classifier = new tela.DgliClassifier(readFileSync(join(root, 'public/dgli/database.json'), 'utf8'));
    assert.ok(classifier.ok(), classifier.error());
    const next = random(9);
    const ints = [-2147483648, -1, 0, 1, 2, 3, 1000, 2147483647];
    let answered = 0, refused = 0;
    for (let t = 0; t < 60; t++) {
      const r = t % 2
        ? tela.dgliOfBoundary(points, pick(next, ints), pick(next, ['spread', 'first_half', '', 'x']), next() < 0.5)
        : classifier.classifyBoundary(points, pick(next, ints));
      if (r.ok) ++answered;
      else {
        assert.ok(r.error.length > 0);
        ++refused;
      }
    }
    classifier.delete();
    assert.ok(answered > 0 && refused > 0, `${answered} answered, ${refused} refused`);
    console.log(`dGLI settings: ${answered} answered, ${refused} refused`);
  });
});
