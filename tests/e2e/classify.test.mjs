// The Classify panel in the built page (dist/): for the running scene it shows the dGLI matrix
// of the current frame as a heat map, a predicted class against the shipped database, and the
// gallery of reference states; hovering a matrix entry highlights its two segments.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { root, servePage } from './harness.mjs';

const T = { timeout: 40000 };
const app = servePage();

const panelState = (page) => page.evaluate(() => ({ ...window.__tela.classify }));

describe('classify panel', () => {
  test('shows the dGLI matrix and a predicted class for the running scene; hover highlights segments', async () => {
    const problems = [];
    const page = await app.open('', { problems });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    await page.click('#tab-classify');
    await page.waitForFunction(() => window.__tela.classify.status === 'error' || window.__tela.classify.classified >= 1, null, T);
    const s = await panelState(page);
    assert.equal(s.error, null); // e.g. a database the dgli parser rejects
    const db = JSON.parse(readFileSync(join(root, 'public/dgli/database.json'), 'utf8'));
    // per_side segments: 4 sides x per_side, m (m - 1) / 2 entries
    const m = 4 * db.settings.per_side;
    assert.equal(s.segments, m);
    assert.equal(s.values.length, (m * (m - 1)) / 2);
    assert.ok(s.values.every(Number.isFinite));
    assert.ok(db.classes.includes(s.className), `predicted "${s.className}"`);
    assert.ok(db.classes.includes(s.runnerUpName) && s.runnerUpName !== s.className);
    assert.ok(s.distance >= 0 && s.runnerUpDistance >= s.distance);
    assert.equal(await page.textContent('#classify-class'), s.className.replaceAll('_', ' '));

    // the heat map has one pixel per entry of the symmetric matrix, and is coloured
    const matrix = await page.evaluate(() => {
      const c = document.querySelector('#classify-matrix');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let coloured = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 20) coloured++;
      return { w: c.width, h: c.height, coloured };
    });
    assert.deepEqual([matrix.w, matrix.h], [m, m]);
    assert.ok(matrix.coloured > 0);

    // the default scene's sheet hangs by two corners: a state unlike every napkin fold of the
    // database, which the panel says beside the least unlike class
    await page.waitForFunction(() => window.__tela.classify.steps >= 150, null, { timeout: 90000 });
    await page.waitForFunction(() => window.__tela.classify.novel === true, null, T);
    assert.match(await page.textContent('#classify-novel'), /Unlike every reference state/);

    // the classification follows the simulation: one more step ('.') is classified too
    const now = await page.evaluate(() => window.__tela.steps);
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('.');
    await page.waitForFunction((k) => window.__tela.classify.steps > k, now, T);

    // hovering entry (0, m - 1) highlights segments 0 and m - 1 on the cloth
    await page.locator('#classify-matrix').scrollIntoViewIfNeeded();
    const box = await page.locator('#classify-matrix').boundingBox();
    await page.mouse.move(box.x + ((m - 0.5) / m) * box.width, box.y + (0.5 / m) * box.height);
    await page.waitForFunction(() => window.__tela.classify.highlighted === 2, null, T);
    assert.deepEqual((await panelState(page)).hover, [0, m - 1]);
    assert.match(await page.textContent('#classify-entry'), new RegExp(`dGLI\\(s0, s${m - 1}\\) = `));

    // the gallery shows the database's reference states
    assert.equal(await page.locator('#classify-gallery figure').count(), db.representatives.length);

    // the boundary of a reconstructed cloud (the sample wavy cloth) is classified too
    await page.click('#tab-reconstruct');
    await page.click('#reconstruct-sample');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'loaded', null, T);
    await page.click('#reconstruct-run');
    await page.waitForFunction(() => window.__tela.reconstruct.status === 'done', null, T);
    await page.click('#tab-classify');
    const before = (await panelState(page)).classified;
    await page.selectOption('#classify-source', 'boundary');
    await page.waitForFunction((k) => window.__tela.classify.classified > k && window.__tela.classify.source === 'boundary', before, T);
    const b = await panelState(page);
    assert.equal(b.error, null);
    assert.equal(b.segments, m);
    assert.ok(db.classes.includes(b.className));
    // the status line names what the panel's own view shows, and is the simulator's again
    // when the panel classifies the frame
    assert.equal(await page.textContent('#status'), 'Classify: the boundary of “wavy-cloth.ply”');
    await page.selectOption('#classify-source', 'frame');
    assert.match(await page.textContent('#status'), /^\d+ nodes · dt = /);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('exports the classification as JSON; a share link made on Classify reopens there with the same result', async () => {
    const problems = [];
    const page = await app.open('', { problems, acceptDownloads: true });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    await page.click('#tab-classify');
    await page.waitForFunction(() => window.__tela.classify.steps >= 60, null, { timeout: 90000 });
    await page.selectOption('#classify-k', '3'); // the vote travels in the link too
    await page.waitForFunction(() => window.__tela.classify.k === 3, null, T);
    await page.click('#share'); // pauses, then writes the link
    await page.waitForFunction(() => location.hash.startsWith('#v1=') && !window.__tela.playing, null, T);
    const steps = await page.evaluate(() => window.__tela.steps);
    await page.waitForFunction((k) => window.__tela.classify.steps === k, steps, T);
    const shown = await panelState(page);
    const url = await page.evaluate(() => location.href);

    const [file] = await Promise.all([page.waitForEvent('download', T), page.click('#classify-export')]);
    assert.match(file.suggestedFilename(), new RegExp(`^tela-classification-hang-7x9-step${steps}\\.json$`));
    const exported = JSON.parse(readFileSync(await file.path(), 'utf8'));
    assert.equal(exported.format, 'tela-classification');
    assert.deepEqual(exported.classified, { source: 'frame', scene: 'hang-7x9', step: steps, stateHash: await page.evaluate(() => window.__tela.hash) });
    assert.equal(exported.class, shown.className);
    assert.equal(exported.distance, shown.distance);
    assert.equal(exported.novel, shown.novel);
    assert.equal(exported.dgli.segments, shown.segments);
    assert.deepEqual(exported.dgli.values, shown.values);
    assert.equal(exported.dgli.segmentEnds.length, 6 * shown.segments);
    assert.ok(exported.databaseReach > 0 && exported.database.states > 0);
    await page.context().close();

    const fresh = await app.open(url.slice(app.url.length), { problems });
    await fresh.waitForFunction((k) => window.__tela?.ready && window.__tela.steps === k, steps, T);
    assert.equal(await fresh.getAttribute('#tab-classify', 'aria-selected'), 'true');
    await fresh.waitForFunction((k) => window.__tela.classify.steps === k, steps, T);
    const reopened = await panelState(fresh);
    assert.equal(await fresh.inputValue('#classify-k'), '3');
    assert.equal(reopened.k, 3);
    assert.equal(reopened.className, shown.className);
    assert.equal(reopened.distance, shown.distance);
    assert.deepEqual(reopened.values, shown.values);
    assert.deepEqual(problems, []);
    await fresh.context().close();
  });

  test('a dropped OBJ cloth state is classified as tela classify classifies it', async () => {
    // napkin-fold's 10 x 10 variant is a square napkin like the database's; its state after
    // 1.6 s, when the corners have been laid down, written by the native CLI
    const dir = mkdtempSync(join(tmpdir(), 'tela-obj-'));
    try {
      const scenario = JSON.parse(spawnSync(join(root, 'build/tela'), ['scenario', 'napkin-fold'], { encoding: 'utf8' }).stdout);
      Object.assign(scenario.mesh, { nx: 10, ny: 10 });
      const file = join(dir, 'napkin.json');
      const obj = join(dir, 'folded.obj');
      writeFileSync(file, JSON.stringify(scenario));
      const sim = spawnSync(join(root, 'build/tela'), ['simulate', file, '--steps', '160', '--final-obj', obj], { encoding: 'utf8', timeout: 120000 });
      assert.equal(sim.status, 0, sim.stdout);
      const native = JSON.parse(spawnSync(join(root, 'build/tela'), ['classify', obj, '--database', join(root, 'public/dgli/database.json')],
        { encoding: 'utf8', timeout: 60000 }).stdout);
      assert.equal(typeof native.class, 'string', JSON.stringify(native));

      const problems = [];
      const page = await app.open('', { problems });
      await page.waitForFunction(() => window.__tela?.ready, null, T);
      await page.evaluate(([n, c]) => {
        const data = new DataTransfer();
        data.items.add(new File([c], n));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, ['folded.obj', readFileSync(obj, 'utf8')]);
      await page.waitForFunction(() => window.__tela.classify?.source === 'obj' && window.__tela.classify.status === 'classified', null, T);
      assert.equal(await page.getAttribute('#tab-classify', 'aria-selected'), 'true');
      const s = await panelState(page);
      assert.equal(s.className, native.class);
      assert.equal(s.distance, native.distance);
      assert.equal(s.novel, native.novel);
      assert.match(await page.textContent('#classify-source'), /the opened mesh “folded\.obj”/);
      // the panel's own 3D view of the opened mesh (over the simulator's), where hovered
      // segments are highlighted as on the simulated cloth
      assert.ok(await page.isVisible('#classify-view'));
      assert.ok(await page.isHidden('#readout'));
      const drawn = await page.evaluate(() => window.__tela.classifyView.colouredPixels());
      assert.ok(drawn > 1000, `the mesh is drawn (${drawn} coloured pixels)`);
      await page.locator('#classify-matrix').scrollIntoViewIfNeeded();
      const box = await page.locator('#classify-matrix').boundingBox();
      const m = s.segments;
      await page.mouse.move(box.x + ((m - 0.5) / m) * box.width, box.y + (0.5 / m) * box.height);
      await page.waitForFunction(() => window.__tela.classify.highlighted === 2, null, T);
      await page.mouse.move(box.x - 40, box.y - 40);
      await page.waitForFunction(() => window.__tela.classify.highlighted === 0, null, T);

      // a vote of the 5 nearest states, as tela classify --k 5
      const native5 = JSON.parse(spawnSync(join(root, 'build/tela'), ['classify', obj, '--k', '5', '--database',
        join(root, 'public/dgli/database.json')], { encoding: 'utf8', timeout: 60000 }).stdout);
      await page.selectOption('#classify-k', '5');
      await page.waitForFunction(() => window.__tela.classify.k === 5, null, T);
      const s5 = await panelState(page);
      assert.equal(s5.className, native5.class);
      assert.equal(s5.knnVotes, native5.knn_votes);
      assert.match(await page.textContent('#classify-prediction'), new RegExp(`\\(${native5.knn_votes} of the 5 nearest states\\)`));

      // a share link names the OBJ (never carries it) and asks for it; opened again, it is classified
      await page.click('#share');
      await page.waitForFunction(() => /The OBJ itself is not in it/.test(document.querySelector('#notice').textContent), null, T);
      const linked = await app.open(new URL(page.url()).hash, { problems });
      await linked.waitForFunction(() => /open that file/.test(document.querySelector('#classify-link-hint')?.textContent ?? ''), null, T);
      assert.match(await linked.textContent('#classify-link-hint'), /“folded\.obj”/);
      assert.equal(await linked.inputValue('#classify-k'), '5');
      await linked.evaluate(([n, c]) => {
        const data = new DataTransfer();
        data.items.add(new File([c], n));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, ['folded.obj', readFileSync(obj, 'utf8')]);
      await linked.waitForFunction(() => window.__tela.classify?.source === 'obj' && window.__tela.classify.status === 'classified' && window.__tela.classify.k === 5, null, T);
      assert.equal((await panelState(linked)).className, native5.class);
      assert.ok(await linked.isHidden('#classify-link-hint'));
      await linked.context().close();

      // a broken OBJ gets the parser's message in the panel
      await page.evaluate(([n, c]) => {
        const data = new DataTransfer();
        data.items.add(new File([c], n));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, ['broken.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n']);
      await page.waitForFunction(() => window.__tela.classify.status === 'error', null, T);
      assert.match(await page.textContent('#classify-error'), /“broken\.obj” cannot be classified: OBJ: line 4/);
      assert.ok(await page.isHidden('#classify-view'), 'no view of a state that was not read');
      // and the previous file's class neither stays on show nor exports under this file's name
      assert.ok(await page.isDisabled('#classify-export'));
      assert.doesNotMatch(await page.textContent('#classify-prediction'), new RegExp(native5.class.replace('_', '.')));
      assert.equal((await panelState(page)).className, '');
      assert.equal(await page.locator('#classify-ignored-loops').count(), 0);

      // a mesh with a hole: classified by its outer edge, and the panel says the hole is ignored
      const vertices = Array.from({ length: 100 }, (_, k) => `v ${(k % 10) * 0.04} ${Math.floor(k / 10) * 0.04} 0`);
      const quads = [];
      for (let j = 0; j < 9; ++j) {
        for (let i = 0; i < 9; ++i) {
          const a = 1 + i + 10 * j;
          if (i !== 4 || j !== 4) quads.push(`f ${a} ${a + 1} ${a + 11} ${a + 10}`);
        }
      }
      await page.evaluate(([n, c]) => {
        const data = new DataTransfer();
        data.items.add(new File([c], n));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, ['holed.obj', [...vertices, ...quads].join('\n') + '\n']);
      await page.waitForFunction(() => window.__tela.classify.status === 'classified', null, T);
      assert.match(await page.textContent('#classify-ignored-loops'),
        /2 boundary loops: only the longest \(the outer edge\) is classified; the other one is ignored/);
      assert.deepEqual(problems, []);
      await page.context().close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an opened dGLI database replaces the shipped one; a broken one leaves it in place', async () => {
    const shipped = JSON.parse(readFileSync(join(root, 'public/dgli/database.json'), 'utf8'));
    // the shipped database cut down to two classes, as a user's own would be (tela dgli-database --out)
    const keep = [shipped.classes.indexOf('flat'), shipped.classes.indexOf('crumpled')];
    const cut = (list) => list.filter((x) => keep.includes(x.class)).map((x) => ({ ...x, class: keep.indexOf(x.class) }));
    const small = { ...shipped, classes: ['flat', 'crumpled'], representatives: cut(shipped.representatives), states: cut(shipped.states) };
    const problems = [];
    const page = await app.open('', { problems });
    await page.waitForFunction(() => window.__tela?.ready && window.__tela.steps > 0, null, T);
    // paused, as when the scene reaches its duration: no new frame comes, so whatever is
    // classified below is asked for by the panel itself
    await page.click('#play');
    await page.waitForFunction(() => !window.__tela.playing, null, T);
    await page.click('#tab-classify');
    await page.waitForFunction(() => window.__tela.classify.classified >= 1, null, T);
    const drop = (name, text) => page.evaluate(([n, c]) => {
      const data = new DataTransfer();
      data.items.add(new File([c], n));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, [name, text]);
    await drop('two-classes.json', JSON.stringify(small));
    await page.waitForFunction(() => window.__tela.classify.database === 'two-classes.json', null, T);
    // the frame shown is classified again against it, even when the scene has reached its
    // duration and paused (no new frame comes)
    await page.waitForFunction(() => window.__tela.classify.classifiedWith === 'two-classes.json', null, T);
    assert.ok(['flat', 'crumpled'].includes((await panelState(page)).className));
    assert.equal(await page.locator('#classify-gallery figure').count(), small.representatives.length);
    assert.match(await page.textContent('#panel-classify'), /“two-classes\.json”: \d+ representatives/);

    // no states: the core's message, and the opened database stays in use
    await drop('broken.json', JSON.stringify({ ...small, states: [] }));
    await page.waitForSelector('#classify-database-error:not([hidden])', T);
    assert.match(await page.textContent('#classify-database-error'), /“broken\.json” cannot be used: .*states.*Still classifying against “two-classes\.json”/);
    assert.equal((await panelState(page)).database, 'two-classes.json');
    // the message stays while the frame is classified again against the database in use
    // (a new vote asks for that whether or not the simulation still plays)
    const after = (await panelState(page)).classified;
    await page.selectOption('#classify-k', '3');
    await page.waitForFunction((k) => window.__tela.classify.classified > k, after, T);
    assert.equal((await panelState(page)).classifiedWith, 'two-classes.json');
    assert.ok(await page.isVisible('#classify-database-error'));
    assert.equal(await page.isVisible('#notice'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
