// The Reconstruct panel's bindings (wasm/bindings/bind_morse_page.cpp) through the WebAssembly
// module the page uses: parseCloud on the shipped sample and on malformed bytes, cleanCloud's
// steps against what they must do on a known cloud, and its option checks. Build first:
// scripts/build.sh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
let tela;

before(async () => {
  const wasmDir = join(root, 'web/src/wasm');
  const { default: createTela } = await import(join(wasmDir, 'tela.mjs'));
  tela = await createTela({ wasmBinary: readFileSync(join(wasmDir, 'tela.wasm')) });
});

const text = (s) => new TextEncoder().encode(s);

// a 21 x 21 grid on the unit square at z = 0 plus 10 far-away points
function gridWithOutliers() {
  const xyz = [];
  for (let i = 0; i <= 20; i++) for (let j = 0; j <= 20; j++) xyz.push(i / 20, j / 20, 0);
  for (let k = 0; k < 10; k++) xyz.push(5 + k, -5, 3 + k);
  return Float64Array.from(xyz);
}

describe('Reconstruct panel bindings', () => {
  test('parseCloud reads the shipped sample and gives located errors for malformed clouds', () => {
    const sample = tela.parseCloud(new Uint8Array(readFileSync(join(root, 'public/samples/wavy-cloth.ply'))), 'wavy-cloth.ply');
    assert.equal(sample.ok, true);
    assert.equal(sample.count, 3000);
    assert.equal(sample.positions.length, 9000);
    assert.match(sample.format, /^ply ascii/);
    assert.equal(sample.colors, null);
    const first = readFileSync(join(root, 'public/samples/wavy-cloth.ply'), 'utf8').split('end_header\n')[1].split('\n')[0].split(' ').map(Number);
    assert.deepEqual(Array.from(sample.positions.subarray(0, 3), (v) => Number(v.toFixed(5))), first);

    const bad = tela.parseCloud(text('ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 oops 0\n'), 'b.ply');
    assert.equal(bad.ok, false);
    assert.match(bad.error, /line/i);
    assert.equal(tela.parseCloud('not bytes', 'x').ok, false);
    assert.equal(tela.parseCloud(new Uint8Array(0), 'empty.xyz').ok, false);

    const rgb = tela.parseCloud(text('0 0 0 255 0 0\n1 0 0 0 255 0\n0 1 0 0 0 255\n'), 'c.xyz');
    assert.equal(rgb.ok, true);
    assert.equal(rgb.count, 3);
  });

  test('cleanCloud: crop, voxel and outlier steps do what they say, in order', () => {
    const cloud = gridWithOutliers();
    const none = tela.cleanCloud(cloud, {});
    assert.equal(none.ok, true);
    assert.equal(none.count, 451);
    assert.deepEqual(none.steps.map((s) => s.step), ['input']);

    // crop to the left half (x <= 0.5, bounds included): 11 columns of 21, no outlier
    const crop = tela.cleanCloud(cloud, { crop: { min: [-1, -1, -1], max: [0.5, 2, 1] } });
    assert.equal(crop.count, 11 * 21);
    // voxel 0.1 m anchored at the cropped grid's corner: 6 x 11 cubes of 0.1 m hold its points
    const voxel = tela.cleanCloud(crop.positions, { voxel: 0.1 });
    assert.equal(voxel.count, 6 * 11);
    // the 10 far points are statistical outliers of the grid
    const clean = tela.cleanCloud(cloud, { outlierK: 8, outlierRatio: 1 });
    assert.deepEqual(clean.steps.map((s) => s.step), ['input', 'outliers']);
    assert.equal(clean.count, 441);
    for (let i = 0; i < clean.positions.length; i += 3) assert.ok(clean.positions[i] <= 1 && clean.positions[i + 2] === 0);
  });

  test('cleanCloud: RANSAC removes a table plane under a bump', () => {
    const xyz = [];
    for (let i = 0; i <= 30; i++) for (let j = 0; j <= 30; j++) xyz.push(i / 30, j / 30, 0); // 961 table points
    for (let i = 0; i < 200; i++) xyz.push(0.4 + 0.001 * i, 0.5, 0.1 + 0.0005 * i);          // 200 points off the plane
    const out = tela.cleanCloud(Float64Array.from(xyz), { planes: 1, planeThreshold: 0.005, seed: 3 });
    assert.equal(out.ok, true);
    assert.equal(out.planes.length, 1);
    assert.ok(Math.abs(Math.abs(out.planes[0].normal[2]) - 1) < 1e-9);
    assert.equal(out.count, 200);
  });

  test('cleanCloud refuses bad options with a message naming them', () => {
    const cloud = gridWithOutliers();
    assert.match(tela.cleanCloud(cloud, { voxel: -1 }).error, /voxel/);
    assert.match(tela.cleanCloud(cloud, { voxel: 1e-300 }).error, /voxel: 1e-300 m is too small/);
    assert.match(tela.cleanCloud(cloud, { outlierK: 'x' }).error, /outlierK/);
    assert.match(tela.cleanCloud(cloud, { planes: 11 }).error, /planes/);
    assert.match(tela.cleanCloud(cloud, { crop: { min: [0, 0], max: [1, 1, 1] } }).error, /crop\.min/);
    assert.match(tela.cleanCloud([1, 2, 3], {}).error, /Float/);
    assert.match(tela.cleanCloud(new Float64Array(4), {}).error, /multiple of 3/);
  });
});
