// The dGLI bindings (wasm/bindings/bind_dgli.cpp) under node, against the native CLI on the same
// states: coordinates and classification must agree bit for bit. Build first: scripts/build.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmDir = join(root, 'web/src/wasm');
const cli = join(root, 'build/tela');
const database = join(root, 'public/dgli/database.json');

async function loadTela() {
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  return createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
}

const runCli = (...args) => JSON.parse(execFileSync(cli, args, { encoding: 'utf8', timeout: 60000 }));

describe('dgli bindings', () => {
  let tela;
  let dir;
  before(async () => {
    tela = await loadTela();
    dir = mkdtempSync(join(tmpdir(), 'tela-dgli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // a unit square with its bottom-left corner folded over (x + y < 0.5 mirrored, lifted 1 cm)
  const points = [];
  for (let k = 0; k < 40; k++) {
    const s = k / 10;
    let [x, y] = s < 1 ? [s, 0] : s < 2 ? [1, s - 1] : s < 3 ? [3 - s, 1] : [0, 4 - s];
    let z = 0;
    if (x + y < 0.5) {
      const d = 0.5 - x - y;
      x += d; y += d; z = 0.01;
    }
    points.push(x, y, z);
  }

  test('coordinates of a boundary polyline equal the native CLI', () => {
    const csv = join(dir, 'boundary.csv');
    writeFileSync(csv, 'x,y,z\n' + Array.from({ length: 40 }, (_, k) => points.slice(3 * k, 3 * k + 3).join(',')).join('\n'));
    const native = runCli('dgli', csv, '--per-side', '3');
    const wasm = tela.dgliOfBoundary(points, 3, 'spread', false);
    assert.ok(wasm.ok, wasm.error);
    assert.equal(wasm.values.length, 66);
    assert.deepEqual(Array.from(wasm.values), native.coordinates);
    assert.equal(wasm.segments.length, 12 * 6);
    // bad settings are messages, not an aborted module (per_side = 1e9 included)
    assert.match(tela.dgliOfBoundary(points, 1e9, 'spread', false).error, /segments: 4000000000 requested, at most 1000/);
    assert.match(tela.dgliOfBoundary(points, 0, 'spread', false).error, /per_side: must be >= 1/);
    assert.match(tela.dgliOfBoundary(points, 3, 'sideways', false).error, /layout: 'sideways'/);
  });

  test('classification against the shipped database equals the native CLI', () => {
    const csv = join(dir, 'boundary.csv');
    const native = runCli('classify', csv, '--database', database);
    const classifier = new tela.DgliClassifier(readFileSync(database, 'utf8'));
    try {
      assert.ok(classifier.ok(), classifier.error());
      const wasm = classifier.classifyBoundary(points, 1);
      assert.ok(wasm.ok, wasm.error);
      assert.equal(wasm.class, native.class);
      assert.equal(wasm.distance, native.distance);
      assert.equal(wasm.representativeClass, native.representative.class);
      assert.equal(classifier.classifyMesh([0, 0, 0], [0, 1, 2, -1], 1).ok, false);
    } finally {
      classifier.delete();
    }
    const broken = new tela.DgliClassifier('{"format": "something else"}');
    assert.equal(broken.ok(), false);
    assert.match(broken.error(), /format/);
    broken.delete();
  });
});
