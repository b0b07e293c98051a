// The Reconstruct panel in the built page (dist/): dropping the shipped sample cloud
// reconstructs it in the panel's own worker and shows the cells and the topology summary; a
// malformed cloud gives a visible, located error; the re-sampled mesh goes to Simulate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { root, servePage } from './harness.mjs';

const T = { timeout: 40000 };
const app = servePage();

const drop = (page, name, content) => page.evaluate(([n, c]) => {
  const data = new DataTransfer();
  data.items.add(new File([c], n));
  window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
}, [name, content]);
const panelState = (page) => page.evaluate(() => ({ ...window.__tela.reconstruct }));

describe('reconstruct panel', () => {
  test('the dropped sample cloud is reconstructed: cells, glyphs, curves and the topology of a disc', async () => {
    const problems = [];
    const page = await app.open('', { problems, acceptDownloads: true });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    // the status line under the view is the shown panel's: the simulator's on Simulate, the
    // empty stage's hint on Reconstruct (not the simulator's "63 nodes · dt = 0.01 s" over a
    // blank view)
    assert.match(await page.textContent('#status'), /^63 nodes · dt = 0\.01 s$/);
    await page.click('#tab-reconstruct');
    assert.match(await page.textContent('#status'), /no point cloud yet/);
    await page.click('#tab-simulate');
    assert.match(await page.textContent('#status'), /^63 nodes/);

    await drop(page, 'wavy-cloth.ply', readFileSync(join(root, 'public/samples/wavy-cloth.ply'), 'utf8'));
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, T);
    assert.equal(await page.getAttribute('#tab-reconstruct', 'aria-selected'), 'true');
    // the panel's view replaces the simulator's, read-out included, whichever tab was shown before
    assert.ok(await page.isHidden('#readout'));
    await page.click('#tab-fit');
    await page.click('#tab-classify');
    await page.click('#tab-reconstruct');
    assert.ok(await page.isHidden('#readout'));
    assert.match(await page.textContent('#reconstruct-info'), /ply ascii.*3000 points/);
    assert.equal((await panelState(page)).points, 3000);
    assert.equal(await page.textContent('#status'), 'Reconstruct: “wavy-cloth.ply”, 3000 points');

    // the cleaning preview: a voxel grid thins the cloud, 0 switches it off again
    await page.fill('[data-key="voxel"]', '0.05');
    await page.waitForFunction(() => window.__tela.reconstruct.cleaned < 3000, null, T);
    const thinned = (await panelState(page)).cleaned;
    // one point per occupied 5 cm cube: at least the 20 x 20 columns over the 1 m square
    // (a few empty where the sampling is sparse), far fewer than the 3,000 points
    assert.ok(thinned >= 350 && thinned < 1500, `voxel 5 cm kept ${thinned} points`);
    assert.match(await page.textContent('#reconstruct-clean-summary'), /input 3000 → voxel \d+/);
    // the cleaned cloud as PLY: the points the preview kept
    const [cleanedFile] = await Promise.all([page.waitForEvent('download', T), page.click('#reconstruct-export-cleaned')]);
    const cleanedPly = readFileSync(await cleanedFile.path(), 'utf8');
    assert.equal(Number(cleanedPly.match(/element vertex (\d+)/)[1]), thinned);
    assert.match(cleanedPly, /comment tela cleaned cloud of wavy-cloth\.ply: input 3000 -> voxel \d+/);
    assert.equal(cleanedPly.split('end_header\n')[1].trim().split('\n').length, thinned);
    // what is not a number ("1e", typed key by key) is refused naming the option, not read as 0
    await page.fill('[data-key="voxel"]', '');
    await page.type('[data-key="voxel"]', '1e');
    await page.waitForFunction(() => /voxel must be a number >= 0/.test(window.__tela.reconstruct.error ?? ''), null, T);
    assert.equal(await page.isDisabled('#reconstruct-run'), true);
    // an empty field is the default (no voxel grid)
    await page.fill('[data-key="voxel"]', '');
    await page.waitForFunction(() => window.__tela.reconstruct.cleaned === 3000 && !window.__tela.reconstruct.error, null, T);
    await page.fill('[data-key="voxel"]', '0');
    await page.waitForFunction(() => window.__tela.reconstruct.cleaned === 3000, null, T);

    await page.click('#reconstruct-run');
    await page.waitForFunction(() => ['done', 'error'].includes(window.__tela.reconstruct.status), null, T);
    const s = await panelState(page);
    assert.equal(s.error, null);
    // a square cloth is a disc: chi = 1 and one boundary curve, and chi agrees with the
    // critical points (#min - #saddles + #max) and with the cells
    assert.equal(s.topology.euler, 1);
    assert.equal(s.topology.boundaryComponents, 1);
    assert.equal(s.topology.morseSum, s.topology.euler);
    assert.equal(s.topology.cells[0] - s.topology.cells[1] + s.topology.cells[2], s.topology.euler);
    assert.ok(s.criticalPoints >= 1 && s.oneCells >= 1 && s.boundaryCurves === 1 && s.labels >= 1);
    assert.equal(await page.textContent('#reconstruct-euler'), '1');
    assert.equal(await page.textContent('#reconstruct-boundaries'), '1');
    assert.ok(await page.isVisible('#reconstruct-topology'));
    // the overlay view draws the coloured cloud, the glyphs and the curves
    const drawn = await page.evaluate(() => window.__tela.reconstructView.pixelsDrawn());
    assert.ok(drawn > 2000, `only ${drawn} pixels drawn`);

    // level-set curves on demand
    await page.check('[data-layer="levels"]');

    // the labelled PLY export parses back as a cloud with a label property
    const [download] = await Promise.all([page.waitForEvent('download', T), page.click('#reconstruct-export-ply')]);
    const ply = readFileSync(await download.path(), 'utf8');
    assert.match(ply, /^ply\nformat ascii 1\.0\n/);
    assert.match(ply, /property int label/);
    const rows = ply.split('end_header\n')[1].trim().split('\n');
    assert.equal(rows.length, Number(ply.match(/element vertex (\d+)/)[1]));
    assert.ok(rows.every((r) => r.split(' ').length === 8));

    // the cell complex as JSON: the panel's topology, every critical point and 1-cell with its path
    const [json] = await Promise.all([page.waitForEvent('download', T), page.click('#reconstruct-export-json')]);
    assert.match(json.suggestedFilename(), /-complex\.json$/);
    const complex = JSON.parse(readFileSync(await json.path(), 'utf8'));
    assert.equal(complex.format, 'tela-cell-complex');
    assert.deepEqual(complex.topology, s.topology);
    assert.equal(complex.criticalPoints.points.length, s.criticalPoints);
    assert.equal(complex.oneCells.length, s.oneCells);
    assert.equal(complex.boundaryCurves.length, s.boundaryCurves);
    const euler = complex.topology.cells[0] - complex.topology.cells[1] + complex.topology.cells[2];
    assert.equal(euler, complex.topology.euler);
    assert.ok(complex.oneCells.every((c) => c.path.length >= 2 && c.path.every((p) => p.length === 3 && p.every(Number.isFinite))));
    assert.equal(complex.input.points, s.points);
    assert.ok(complex.options.levels > 0);

    // an edit followed at once by a click: the reconstruction is of the edited cleaning, and
    // the edit's late preview does not wipe it (it did: an empty table, exports disabled)
    await page.fill('[data-key="voxel"]', '0.03');
    await page.click('#reconstruct-run');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    await page.waitForTimeout(800);
    const quick = await panelState(page);
    assert.ok(quick.cleaned < 3000, `cleaned ${quick.cleaned}`);
    assert.equal(quick.topology?.euler, 1);
    assert.ok(await page.isVisible('#reconstruct-topology'));
    assert.equal(await page.isDisabled('#reconstruct-export-json'), false);

    // the re-sampled mesh runs in Simulate
    if (quick.mesh) {
      await page.click('#reconstruct-simulate');
      await page.waitForFunction(() => /^reconstructed-/.test(window.__tela.scene), null, T);
      assert.equal(await page.getAttribute('#tab-simulate', 'aria-selected'), 'true');
      assert.ok(await page.isVisible('#readout'));
      assert.match(await page.textContent('#params'), new RegExp(`explicit mesh: ${quick.mesh.nodes} nodes, ${quick.mesh.faces} faces`));
      const steps = await page.evaluate(() => window.__tela.steps);
      await page.waitForFunction((k) => window.__tela.steps > k + 5, steps, T);
    }
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a malformed cloud gives a visible, located error and the panel keeps working', async () => {
    const problems = [];
    const page = await app.open('', { problems });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    await drop(page, 'broken.ply',
      'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 oops 0\n');
    await page.waitForSelector('#reconstruct-error', { state: 'visible', ...T });
    assert.match(await page.textContent('#reconstruct-error'), /“broken\.ply” could not be read as a point cloud: .*line/i);
    assert.match(await page.textContent('#error'), /Reconstruct: .*broken\.ply/);
    assert.equal(await page.isDisabled('#reconstruct-run'), true);
    // the sample button still loads a cloud afterwards
    await page.click('#reconstruct-sample');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, T);
    assert.equal(await page.isDisabled('#reconstruct-run'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a cloud of millions of points is read whole and drawn thinned', async () => {
    const problems = [];
    const page = await app.open('', { problems });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    // 2.5 M points on a wavy sheet as a binary PLY, made in the page (30 MB)
    await page.evaluate(() => {
      const n = 2_500_000;
      const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${n}\nproperty float x\nproperty float y\nproperty float z\nend_header\n`;
      const xyz = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) {
        const u = (i % 1581) / 1581, v = Math.floor(i / 1581) / 1581;
        xyz.set([u, v, 0.05 * Math.sin(6 * u) * Math.cos(4 * v)], 3 * i);
      }
      const data = new DataTransfer();
      data.items.add(new File([header, xyz], 'scan.ply'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, { timeout: 120000 });
    assert.equal((await panelState(page)).points, 2_500_000);
    assert.match(await page.textContent('#reconstruct-info'), /2500000 points.*Drawn: 1 point in 2 \(the analysis uses all of them\)/);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a share link reproduces a reconstruction: the sample at once, a user\'s cloud once that file is opened', async () => {
    const problems = [];
    const page = await app.open('', { problems });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    await page.click('#tab-reconstruct');
    await page.click('#reconstruct-sample');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, T);
    await page.fill('[data-key="levels"]', '24');
    await page.click('#reconstruct-run');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    const made = await panelState(page);
    await page.click('#share');
    await page.waitForFunction(() => /It holds the Simulate scene at step \d+ and the sample cloud/.test(document.querySelector('#notice').textContent), null, T);
    const link = new URL(page.url()).hash;
    assert.match(link, /^#v1=/);

    // the sample: loaded and reconstructed with the same settings when the link opens
    const other = await app.open(link, { problems });
    await other.waitForFunction(() => window.__tela.reconstruct?.status === 'done', null, T);
    assert.equal(await other.getAttribute('#tab-reconstruct', 'aria-selected'), 'true');
    assert.equal(await other.inputValue('[data-key="levels"]'), '24');
    const redone = await panelState(other);
    assert.deepEqual(redone.topology, made.topology);
    assert.equal(redone.criticalPoints, made.criticalPoints);
    assert.equal(redone.oneCells, made.oneCells);

    // a user's cloud: the link names it (never carries it); opening the same file redoes the
    // reconstruction, another file is said to differ
    const text = readFileSync(join(root, 'public/samples/wavy-cloth.ply'), 'utf8');
    await drop(other, 'scan.ply', text);
    await other.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, T);
    await other.click('#reconstruct-run');
    await other.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    await other.click('#share');
    await other.waitForFunction(() => /The cloud itself is not in it/.test(document.querySelector('#notice').textContent), null, T);
    const userLink = new URL(other.url()).hash;
    assert.ok(!userLink.includes('end_header'));
    const third = await app.open(userLink, { problems });
    await third.waitForFunction(() => /open that file/.test(document.querySelector('#reconstruct-info')?.textContent ?? ''), null, T);
    assert.match(await third.textContent('#reconstruct-info'), /“scan\.ply” \(3000 points, SHA-256 [0-9a-f]{12}…\)/);
    assert.equal((await panelState(third)).status, 'empty');
    await drop(third, 'scan.ply', text);
    await third.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    assert.deepEqual((await panelState(third)).topology, made.topology);
    assert.match(await third.textContent('#notice'), /reproduced the shared reconstruction of “scan\.ply”/);

    const fourth = await app.open(userLink, { problems });
    await fourth.waitForFunction(() => /open that file/.test(document.querySelector('#reconstruct-info')?.textContent ?? ''), null, T);
    await drop(fourth, 'scan.ply', text.replace('end_header', 'comment another scan\nend_header'));
    await fourth.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    assert.match(await fourth.textContent('#notice'), /is not the file the link was made with/);

    // a link whose panel state is not one: said so, the scene opens and the panel keeps its defaults
    const { encodeShareHash } = await import('../../web/src/share/link.js');
    const scenario = JSON.parse(await fourth.inputValue('#scenario-text'));
    const damaged = await encodeShareHash({ scenario, steps: 0, view: { panel: 'reconstruct' }, panels: { reconstruct: 'garbage' } });
    const fifth = await app.open(damaged, { problems });
    await fifth.waitForFunction(() => /Reconstruct settings are not readable/.test(document.querySelector('#error').textContent), null, T);
    assert.equal(await fifth.getAttribute('#tab-reconstruct', 'aria-selected'), 'true');
    assert.equal(await fifth.inputValue('[data-key="levels"]'), '32');
    assert.deepEqual(problems, []);
  });
});
