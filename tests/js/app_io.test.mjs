// The page's pure modules under node: format sniffing (web/src/io/sniff.js), the share-link
// codec (web/src/share/link.js), the export writers (web/src/io/export.js) and the size caps of
// the file router (web/src/io/drop.js).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sniffFormat } from '../../web/src/io/sniff.js';
import { routeFile } from '../../web/src/io/drop.js';
import { registerPanel } from '../../web/src/app/panels.js';
import { decodeShareHash, encodeShareHash } from '../../web/src/share/link.js';
import { markerReplayCsv, objText, plyText, trajectoryCsv } from '../../web/src/io/export.js';
import { edgeStrains } from '../../web/src/simulate/strain.js';
import { writeC3d } from './c3d_file.mjs';

// real samples beside the project (../shared/data), or where TELA_SHARED_DATA says
const shared = process.env.TELA_SHARED_DATA
  ? `${process.env.TELA_SHARED_DATA.replace(/\/$/, '')}/`
  : fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const bytes = (text) => new TextEncoder().encode(text);
const format = (text) => sniffFormat(typeof text === 'string' ? bytes(text) : text)?.format ?? null;

describe('sniffFormat', () => {
  test('recognises each format by content', () => {
    assert.equal(format('{"version": 1, "mesh": {"type": "rectangle"}}'), 'scenario');
    assert.equal(format('\uFEFF  {"name": "x", "material": {}}'), 'scenario');
    assert.equal(format('{"format": "tela-dgli-database", "version": 1, "classes": []}'), 'dgli-database');
    assert.equal(format('Format Version,1.23,Take Name,t,Export Frame Rate,120\n\n,Type,Marker\n'), 'optitrack-csv');
    assert.equal(format('Trajectories\n100\n,,a:b,,,\nFrame,Sub Frame,X,Y,Z\n,,mm,mm,mm\n1,0,1,2,3\n'), 'vicon-csv');
    assert.equal(format('NO_OF_FRAMES\t10\nNO_OF_MARKERS\t2\nFREQUENCY\t100\nMARKER_NAMES\ta\tb\n'), 'qualisys-tsv');
    assert.equal(format('ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n'), 'ply');
    assert.equal(format('# .PCD v0.7\nVERSION 0.7\nFIELDS x y z\n'), 'pcd');
    assert.equal(format('VERSION 0.7\nFIELDS x y z rgb\nSIZE 4 4 4 4\n'), 'pcd');
    assert.equal(format('# cube\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'), 'obj');
    assert.equal(format('x y z\n0.1 0.2 0.3\n1 2 3\n-1e-3 4 5\n'), 'xyz-points');
    assert.equal(format('0.1,0.2,0.3,255,0,0\n1,2,3,0,255,0\n'), 'xyz-points');
    assert.equal(format('time,m1_x,m1_y,m1_z\n0,1,2,3\n0.01,1,2,\n'), 'mocap-csv');
    const c3d = new Uint8Array(1024);
    c3d[0] = 2;
    c3d[1] = 0x50;
    c3d[512 + 3] = 84; // the parameter section's processor type (Intel)
    assert.equal(format(c3d), 'c3d');
    const png = new Uint8Array(1024);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]); // its second byte is C3D's key byte
    assert.notEqual(format(png), 'c3d');
    const written = writeC3d({ names: ['a'], rate: 100, frames: [Float64Array.of(1, 2, 3)] });
    assert.equal(format(written), 'c3d');
  });

  test('a long point file is recognised wherever its first 64 KiB end', () => {
    // 3,000 rows of three columns (about 150 KB; fewer than 2,000 rows in the first 64 KiB),
    // behind a comment line of every length from 0 to a row's: the head the sniffer reads
    // ends at every place of a row, inside each of its three numbers and after each separator
    const rows = Array.from({ length: 3000 }, (_, i) => [i, 2 * i, 3 * i].map((v) => (v / 7).toFixed(12)).join(' '));
    const body = `${rows.join('\n')}\n`;
    for (let pad = 0; pad <= rows[1500].length + 1; pad++) {
      const text = `# ${'-'.repeat(pad)}\n${body}`;
      assert.equal(format(text), 'xyz-points', `comment of ${pad + 2} characters`);
    }
  });

  test('rejects what it does not know', () => {
    assert.equal(format(''), null);
    assert.equal(format('hello, this is a letter\nnot data\n'), null);
    assert.equal(format('{"not": "a scenario"}'), null);
    assert.equal(format('{ broken json'), null);
    assert.equal(format('1 2\n3 4\n'), null); // two columns: neither points nor a recording
    assert.equal(format('1 2 3\noops\nstill not\n'), null); // more broken rows than one in ten
  });

  test('an almost right file goes to its parser, which names the broken line', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `${i} ${2 * i} ${3 * i}`);
    assert.equal(format(`${rows.join('\n')}\n0.5 0.3`), 'xyz-points'); // the last line cut
    rows[500] = '12 abc 4';
    assert.equal(format(rows.join('\n')), 'xyz-points');
    assert.equal(format('{"version": 1, "mesh": {"type": "rectangle"}, '), 'scenario'); // truncated
    assert.equal(format('{"format": "tela-dgli-database", "classes": [1,'), 'dgli-database');
    assert.equal(format(Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256)), null);
  });

  test('real third-party samples', (t) => {
    if (!existsSync(shared)) {
      t.skip(`${shared} absent`);
      return;
    }
    const cases = {
      'mocap/vicon_nexus_markers_100hz.csv': 'vicon-csv',
      'mocap/motive_rigid_bodies_with_gaps_100hz.csv': 'optitrack-csv',
      'clouds/cube.ply': 'ply',
      'clouds/bunny.pcd': 'pcd',
      'clouds/colored_cloud.pcd': 'pcd',
      'clouds/milk_color.pcd': 'pcd',
    };
    for (const [file, expected] of Object.entries(cases)) {
      if (!existsSync(shared + file)) continue;
      assert.equal(format(new Uint8Array(readFileSync(shared + file))), expected, file);
    }
  });
});

describe('share links', () => {
  const payload = { scenario: { version: 1, name: 'x', duration: 2 }, steps: 137, view: { field: 'area', camera: [1, 2, 3, 0, 0, 0] } };

  test('round-trip through a compressed, versioned hash', async () => {
    const hash = await encodeShareHash(payload);
    assert.match(hash, /^#v1=[A-Za-z0-9_-]+$/);
    const decoded = await decodeShareHash(hash);
    assert.equal(decoded.kind, 'link');
    assert.equal(decoded.version, 1);
    assert.deepEqual(decoded.scenario, payload.scenario);
    assert.equal(decoded.steps, 137);
    assert.deepEqual(decoded.view, payload.view);
  });

  test('a larger scenario compresses', async () => {
    const big = { ...payload, scenario: { ...payload.scenario, description: 'A hanging A2 sheet of wool. '.repeat(40) } };
    const hash = await encodeShareHash(big);
    assert.ok(hash.length < JSON.stringify(big).length / 4, `${hash.length} vs ${JSON.stringify(big).length}`);
  });

  test('corrupt, unknown and empty hashes', async () => {
    assert.deepEqual(await decodeShareHash(''), { kind: 'none' });
    assert.deepEqual(await decodeShareHash('#'), { kind: 'none' });
    const corrupt = await decodeShareHash('#v1=AAAAthis-is-not-deflate');
    assert.equal(corrupt.kind, 'bad');
    assert.match(corrupt.message, /damaged/);
    assert.match((await decodeShareHash('#v1=a+b/c')).message, /damaged.*base64url/);
    const future = await decodeShareHash('#v7=abc');
    assert.equal(future.kind, 'bad');
    assert.match(future.message, /v7.*reads v1/);
    assert.match((await decodeShareHash('#hello')).message, /does not hold a tela scene/);
    // valid compression, wrong content
    const noSteps = (await encodeShareHash({ scenario: {}, steps: 1.5 })).slice(1);
    assert.match((await decodeShareHash(noSteps)).message, /step count/);
    const tooMany = (await encodeShareHash({ scenario: {}, steps: 5e6 })).slice(1);
    assert.match((await decodeShareHash(tooMany)).message, /more than tela replays/);
  });
});

describe('export writers', () => {
  const positions = Float64Array.from([0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 2, 0, 1]);
  const faces = Int32Array.from([0, 1, 2, 3, 1, 4, 2, -1]);

  test('OBJ keeps quads and triangles, 1-based', () => {
    const lines = objText(positions, faces, 'test').trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('v ')).length, 5);
    assert.deepEqual(lines.filter((l) => l.startsWith('f ')), ['f 1 2 3 4', 'f 2 5 3']);
  });

  test('PLY header counts match the body', () => {
    const text = plyText(positions, faces);
    const [header, body] = text.split('end_header\n');
    assert.match(header, /element vertex 5\n/);
    assert.match(header, /element face 2\n/);
    const rows = body.trim().split('\n');
    assert.equal(rows.length, 7);
    assert.deepEqual(rows.slice(5), ['4 0 1 2 3', '3 1 4 2']);
  });

  test('a frame\'s OBJ and PLY read back as the same doubles; the trajectory keeps 12 digits as the CLI', () => {
    const p = Float64Array.from([0.1 + 0.2, -0.21060804123456789, Math.PI, 1e-17, 2 / 3, 123.456789012345678]);
    const f = Int32Array.from([0, 1, 0, -1]);
    const obj = objText(p, f).split('\n').filter((l) => l.startsWith('v ')).flatMap((l) => l.slice(2).split(' ').map(Number));
    assert.deepEqual(obj, Array.from(p));
    const ply = plyText(p, f).split('end_header\n')[1].split('\n').slice(0, 2).flatMap((l) => l.split(' ').map(Number));
    assert.deepEqual(ply, Array.from(p));
    const row = trajectoryCsv([{ frame: 3, time: 0.03, positions: p }]).join('').split('\n')[1];
    assert.equal(row, '3,0.03,0,0.3,-0.210608041235,3.14159265359');
  });

  test('trajectory CSV: one row per node and frame', () => {
    const text = trajectoryCsv([{ frame: 0, time: 0, positions }, { frame: 1, time: 0.01, positions }]).join('');
    const lines = text.trim().split('\n');
    assert.equal(lines[0], 'frame,time,node,x,y,z');
    assert.equal(lines.length, 1 + 2 * 5);
    assert.deepEqual(lines[7].split(',').map(Number), [1, 0.01, 1, 1, 0, 1]);
  });

  test('edge strain of a stretched quad', () => {
    const rest = Float64Array.from([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    const stretched = Float64Array.from([0, 0, 0, 1.1, 0, 0, 1.1, 1, 0, 0, 1, 0]);
    const [strain] = edgeStrains(stretched, rest, Int32Array.from([0, 1, 2, 3]));
    assert.ok(Math.abs(strain - 0.1) < 1e-6, String(strain));
  });
});

describe('fit replay CSV', () => {
  test('one row per step and marker: recorded, simulated, distance; occluded samples left empty', () => {
    // 2 steps, 2 markers on nodes 2 and 0 of a 3-node mesh; marker "b,1" occluded at step 1
    const markers = Float32Array.from([0, 0, 1, 1, 0, 1, 0, 0, 1.5, NaN, NaN, NaN]);
    const simulated = Float32Array.from([1, 0, 1, 9, 9, 9, 0, 0.03, 1, 1, 0, 1, 9, 9, 9, 0, 0, 1.5]);
    const text = markerReplayCsv({ markers, simulated, markerNodes: [2, 0], nodes: 3, names: ['a', 'b,1'], dt: 0.01 }).join('');
    const lines = text.trim().split('\n');
    assert.equal(lines[0], 'step,time,marker,recorded_x,recorded_y,recorded_z,simulated_x,simulated_y,simulated_z,distance_cm');
    assert.equal(lines.length, 5);
    const cells = lines[1].split(',');
    assert.deepEqual(cells.slice(0, 3), ['0', '0', 'a']);
    assert.ok(Math.abs(Number(cells[9]) - 3) < 1e-4, cells[9]); // (0, 0, 1) against (0, 0.03, 1)
    assert.equal(lines[2], '0,0,"b,1",1,0,1,1,0,1,0');
    assert.equal(lines[4], '1,0.01,"b,1",,,,1,0,1,');
  });
});

describe('file router', () => {
  test('point clouds up to 2 GiB go to their panel; other files over 512 MiB get a message', async () => {
    const opened = [];
    registerPanel({ id: 'test-clouds', accepts: ['ply'], open: (file) => opened.push(file.name) });
    registerPanel({ id: 'test-fit', accepts: ['optitrack-csv'], open: (file) => opened.push(file.name) });
    const errors = [];
    const app = { showPanel() {}, showError: (m) => errors.push(m), showNotice() {} };
    const big = (head) => {
      const b = new Uint8Array(512 * 2 ** 20 + 1).fill(0x20); // 512 MiB + 1 byte of spaces
      b.set(new TextEncoder().encode(head));
      return b;
    };
    const cloud = big('ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n');
    assert.deepEqual(await routeFile(app, 'scan.ply', cloud), { ok: true, format: 'ply' });
    const take = big('Format Version,1.23,Take Name,t,Export Frame Rate,120\n\n,Type,Marker\n');
    assert.equal((await routeFile(app, 'take.csv', take)).ok, false);
    assert.deepEqual(opened, ['scan.ply']);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /“take\.csv” \(OptiTrack Motive CSV recording\) is 512\.0 MiB, more than tela opens \(512 MiB; only point clouds may be up to 2 GiB\)/);
  });
});
