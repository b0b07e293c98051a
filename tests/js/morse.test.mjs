// The Morse reconstruction through the WebAssembly module the page uses (reconstructCloud in
// wasm/bindings/bind_morse.cpp), compared with the native `tela reconstruct` on the same
// cloud and direction. Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
// real samples beside the project (../shared/data), or where TELA_SHARED_DATA says
const shared = process.env.TELA_SHARED_DATA
  ? `${process.env.TELA_SHARED_DATA.replace(/\/$/, '')}/`
  : fileURLToPath(new URL('../../../shared/data/', import.meta.url));

async function loadModule() {
  const wasmDir = join(root, 'web/src/wasm');
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  return createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
}

// a torus of 3000 points from a small deterministic generator (no Math.random)
function torusCloud(count) {
  let state = 12345;
  // mulberry32: 32-bit integer arithmetic only, exact in JS
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let z = Math.imul(state ^ (state >>> 15), 1 | state);
    z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
  const xyz = new Float64Array(3 * count);
  for (let i = 0; i < count; ++i) {
    const u = 2 * Math.PI * next(), v = 2 * Math.PI * next();
    const ring = 1 + 0.4 * Math.cos(v);
    xyz.set([ring * Math.cos(u), ring * Math.sin(u), 0.4 * Math.sin(v)], 3 * i);
  }
  return xyz;
}

describe('reconstructCloud (wasm)', () => {
  let tela;
  let dir;
  before(async () => {
    tela = await loadModule();
    dir = mkdtempSync(join(tmpdir(), 'tela-morse-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a torus: chi 0, genus 1, the same as the native CLI', () => {
    const cloud = torusCloud(3000);
    const result = tela.reconstructCloud(cloud, { direction: [0.6, 0.3, 0.5] });
    assert.equal(result.ok, true, result.error);
    assert.equal(result.topology.euler, 0);
    assert.equal(result.topology.morseSum, 0);
    assert.equal(result.topology.genus, 1);
    assert.equal(result.topology.boundaryComponents, 0);
    assert.equal(result.labels.length, 3000);
    assert.equal(result.positions.length, 9000);
    assert.ok(result.oneCells.length >= 2);
    assert.ok(result.levelCurves.points.length > 0);

    // native: the same points (printed with round-trip precision) and direction
    const file = join(dir, 'torus.xyz');
    const lines = [];
    for (let i = 0; i < cloud.length; i += 3) lines.push(`${cloud[i]} ${cloud[i + 1]} ${cloud[i + 2]}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const run = spawnSync(join(root, 'build/tela'), ['reconstruct', file, '--direction', '0.6,0.3,0.5'],
      { encoding: 'utf8', timeout: 60000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const native = JSON.parse(run.stdout);
    assert.equal(native.euler, result.topology.euler);
    assert.deepEqual(native.cells, Array.from(result.topology.cells));
    const counts = {};
    for (const name of result.criticalPoints.typeNames) counts[name] = 0;
    for (const t of result.criticalPoints.types) counts[result.criticalPoints.typeNames[t]] += 1;
    assert.deepEqual(native.critical_points, counts);
  });

  // PCL's milk carton scan (13,704 points) is no single surface the default slabs resolve: its
  // cells give chi -1 with 4 boundary curves on one component, which no surface has
  const milk = `${shared}clouds/milk_color.pcd`;
  test('a genus no surface has is null with a warning, natively and in wasm (milk_color.pcd)', { skip: !existsSync(milk) && 'no ../shared/data' }, () => {
    const run = spawnSync(join(root, 'build/tela'), ['reconstruct', milk], { encoding: 'utf8', timeout: 120000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const native = JSON.parse(run.stdout);
    assert.equal(native.genus, null);
    assert.ok(native.warnings.some((w) => /genus is undefined/.test(w)), native.warnings.join('\n'));
    const cloud = tela.parseCloud(readFileSync(milk), 'milk_color.pcd');
    assert.equal(cloud.ok, true, cloud.error);
    const result = tela.reconstructCloud(cloud.positions, { direction: native.direction });
    assert.equal(result.ok, true, result.error);
    assert.equal(result.topology.euler, native.euler);
    assert.equal(result.topology.genus, null);
    assert.ok(Array.from(result.warnings).some((w) => /genus is undefined/.test(w)));
  });

  test('bad input gives { ok: false, error }, not an abort', () => {
    const few = tela.reconstructCloud(new Float32Array([0, 0, 0, 1, 1, 1]), {});
    assert.equal(few.ok, false);
    assert.match(few.error, /at least 10/);
    const ragged = tela.reconstructCloud(new Float32Array(31), {});
    assert.equal(ragged.ok, false);
    assert.match(ragged.error, /multiple of 3/);
    const badDirection = tela.reconstructCloud(torusCloud(100), { direction: [0, 0] });
    assert.equal(badDirection.ok, false);
    const notArray = tela.reconstructCloud('points', {});
    assert.equal(notArray.ok, false);
    // seeds and node counts a C++ cast could not hold (NaN, Infinity, 1e30) are refused, not cast
    for (const seed of [NaN, Infinity, 1e30, -1, 2.5, '3']) {
      const bad = tela.reconstructCloud(torusCloud(100), { seed });
      assert.equal(bad.ok, false, String(seed));
      assert.match(bad.error, /options\.seed must be a whole number from 0 to 2\^53/);
    }
    for (const resampleNodes of [NaN, Infinity, -1, 201])
      assert.match(tela.reconstructCloud(torusCloud(100), { resampleNodes }).error, /options\.resampleNodes/);
    // the module still works afterwards
    assert.equal(tela.reconstructCloud(torusCloud(500), { seed: 3 }).ok, true);
  });

  test('tela reconstruct: bad input prints {"error"} and exits 2', () => {
    const cli = join(root, 'build/tela');
    const file = join(dir, 'ragged.xyz');
    writeFileSync(file, '0 0 0\n1 2\n');
    for (const args of [['reconstruct'], ['reconstruct', join(dir, 'missing.xyz')], ['reconstruct', file],
      ['reconstruct', file, '--levels', '1'], ['reconstruct', file, '--direction', '1,2'],
      ['reconstruct', file, '--voxel', '-1'], ['reconstruct', file, '--frobnicate']]) {
      const run = spawnSync(cli, args, { encoding: 'utf8', timeout: 60000 });
      assert.equal(run.status, 2, `tela ${args.join(' ')}: ${run.stdout}`);
      const json = JSON.parse(run.stdout);
      assert.equal(typeof json.error, 'string');
    }
    // a seed no integer holds is refused by name (casting it would be undefined behaviour)
    for (const seed of ['1e30', '-1', '2.5']) {
      const run = spawnSync(cli, ['reconstruct', file, '--seed', seed], { encoding: 'utf8', timeout: 60000 });
      assert.equal(run.status, 2);
      assert.match(JSON.parse(run.stdout).error, /^--seed: needs a whole number from 0 to 2\^53/);
    }
  });
});

// The CLI's file outputs, as the page's exports: the cleaned cloud (PLY) and the re-sampled
// mesh (OBJ) of the shipped sample; an unwritable path is an error (exit 2).
describe('tela reconstruct --cleaned-out / --mesh-out', () => {
  const cli = join(root, 'build/tela');
  test('write the cleaned cloud and the mesh the summary counts', (t) => {
    if (!existsSync(cli)) return t.skip('build/tela is not built');
    const dir = mkdtempSync(join(tmpdir(), 'tela-rec-out-'));
    try {
      const sample = join(root, 'public/samples/wavy-cloth.ply');
      const run = spawnSync(cli, ['reconstruct', sample, '--voxel', '0.03', '--cleaned-out', join(dir, 'c.ply'), '--mesh-out', join(dir, 'm.obj')],
        { encoding: 'utf8', timeout: 60000 });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      const summary = JSON.parse(run.stdout);
      const ply = readFileSync(join(dir, 'c.ply'), 'utf8');
      assert.equal(Number(ply.match(/element vertex (\d+)/)[1]), summary.cleaning.at(-1).count);
      const obj = readFileSync(join(dir, 'm.obj'), 'utf8').split('\n');
      assert.equal(obj.filter((l) => l.startsWith('v ')).length, summary.mesh_nodes);
      const faces = obj.filter((l) => l.startsWith('f '));
      assert.ok(faces.length > 0 && faces.every((l) => l.split(' ').slice(1).every((i) => Number(i) >= 1 && Number(i) <= summary.mesh_nodes)));
      // the written cloud reads back through the same command, to the same topology
      const again = JSON.parse(spawnSync(cli, ['reconstruct', join(dir, 'c.ply')], { encoding: 'utf8', timeout: 60000 }).stdout);
      assert.deepEqual(again.cells, summary.cells);

      const bad = spawnSync(cli, ['reconstruct', sample, '--mesh-out', join(dir, 'missing', 'm.obj')], { encoding: 'utf8', timeout: 60000 });
      assert.equal(bad.status, 2);
      assert.match(JSON.parse(bad.stdout).error, /^--mesh-out: cannot write/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
