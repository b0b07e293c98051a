// The built page (dist/, from `vite build`) served by `vite preview` and driven in Debian's
// Chromium through playwright-core. Assertions read what the page shows and window.__tela,
// which mirrors it (scene, steps, time, state hash, error). One browser for the whole file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { countClothPixels, root, servePage } from './harness.mjs';
import { encodeShareHash } from '../../web/src/share/link.js';

const T = { timeout: 30000 };
const HASH = /^[0-9a-f]{16}$/;
const cli = join(root, 'build/tela');

const app = servePage();

// a fresh page (own context) at `suffix`, waited until the simulator reported a scene
async function open(suffix = '', options = {}) {
  const problems = [];
  const page = await app.open(suffix, { problems, ...options });
  await page.waitForFunction(() => window.__tela?.ready || window.__tela?.error, null, T);
  return { page, problems };
}
const state = (page) => page.evaluate(() => ({ ...window.__tela }));
const waitSteps = (page, n) => page.waitForFunction((k) => window.__tela.steps >= k, n, T);

// pause with the button; resolves once the worker has acknowledged and its last frame is shown
async function pauseAt(page) {
  await page.click('#play'); // playing -> paused
  await page.waitForFunction(() => !window.__tela.playing && window.__tela.pausedAt === window.__tela.steps, null, T);
  return state(page);
}

// press '.' n times (not in a field, where shortcuts are off), waiting for each step
async function stepTimes(page, n) {
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < n; i++) {
    const before = (await state(page)).steps;
    await page.keyboard.press('.');
    await page.waitForFunction((k) => window.__tela.steps === k + 1, before, T);
  }
  return state(page);
}

describe('page', () => {
  test('loads without console problems, runs the wasm in the worker and draws the cloth', async () => {
    const { page, problems } = await open();
    const first = await state(page);
    assert.equal(first.error, null);
    assert.equal(first.scene, 'hang-7x9');
    // every built-in scene is in the gallery (the worker listed them from the wasm module)
    assert.ok(await page.locator('.gallery button').count() >= 12);

    await page.waitForFunction(() => window.__tela.time > 0.05, null, T);
    const a = await state(page);
    await page.waitForFunction((t) => window.__tela.time > t + 0.2, a.time, T);
    const b = await state(page);
    assert.ok(b.steps > a.steps, `steps ${a.steps} -> ${b.steps}`);
    assert.match(b.hash, HASH);
    assert.notEqual(b.hash, a.hash);
    assert.equal(await page.textContent('#scene'), 'hang-7x9');
    assert.match(await page.textContent('#hash'), HASH);
    assert.match(await page.textContent('#time'), /^\d+\.\d\d s$/);
    assert.match(await page.textContent('#rtf'), /^\d+\.\d\d× \(stepping \d+ %\)$|…/);
    assert.match(await page.textContent('#constraint'), /^[0-9.e-]+$/);

    const pixels = await page.evaluate(countClothPixels);
    assert.ok(pixels.cloth > 0.02 * pixels.total, `cloth pixels: ${pixels.cloth} of ${pixels.total}`);
    assert.equal(await page.isVisible('#error'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('pause, single step and reset (buttons and keys)', async () => {
    const { page, problems } = await open();
    await waitSteps(page, 5);
    const paused = await pauseAt(page);
    await page.waitForTimeout(300);
    assert.equal((await state(page)).steps, paused.steps, 'paused: no steps');

    const stepped = await stepTimes(page, 2);
    assert.equal(stepped.steps, paused.steps + 2);
    assert.notEqual(stepped.hash, paused.hash);
    await page.click('#step');
    await page.waitForFunction((k) => window.__tela.steps === k + 1, stepped.steps, T);

    // Space resumes, Space pauses again
    await page.keyboard.press('Space');
    await page.waitForFunction((k) => window.__tela.steps > k + 3, stepped.steps + 1, T);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => !window.__tela.playing && window.__tela.pausedAt === window.__tela.steps, null, T);

    // Backspace resets to step 0 with the initial state, which is deterministic
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    const reset = await state(page);
    await page.click('#reset');
    await page.waitForTimeout(200);
    const again = await state(page);
    assert.equal(again.steps, 0);
    assert.equal(again.hash, reset.hash);
    const one = await stepTimes(page, 1);
    await page.click('#reset');
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    assert.equal((await stepTimes(page, 1)).hash, one.hash, 'the same step after a reset gives the same state');

    // shortcuts do not fire while typing in a field; ? opens the help
    await page.focus('[data-path="material.alpha"]');
    await page.keyboard.press('.');
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    assert.equal((await state(page)).steps, 1);
    assert.equal((await state(page)).playing, false);
    // Space on a focused checkbox toggles it (keyboard users' only way), not play/pause
    await page.focus('#wireframe');
    const wire = await page.isChecked('#wireframe');
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    assert.equal(await page.isChecked('#wireframe'), !wire);
    assert.equal((await state(page)).playing, false);
    await page.click('#view');
    await page.keyboard.press('?');
    assert.equal(await page.isVisible('#help'), true);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#help'), false);
    // the help is modal: focus stays in it, the page's shortcuts wait, and on closing the
    // focus goes back to where it was
    await page.click('#help-button');
    assert.equal(await page.isVisible('#help'), true);
    const focusInHelp = () => page.evaluate(() => document.getElementById('help').contains(document.activeElement));
    assert.ok(await focusInHelp(), 'the help takes the focus');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await focusInHelp(), `Tab ${i + 1} leaves the focus in the help`);
    }
    await page.keyboard.press('.');
    await page.keyboard.press('Backspace');
    await page.waitForTimeout(200);
    assert.equal((await state(page)).steps, 1, 'no step or reset while the help is open');
    assert.equal(await page.isVisible('#help'), true);
    await page.click('#help', { position: { x: 2, y: 2 }, force: true }); // inside the card: stays
    assert.equal(await page.isVisible('#help'), true);
    await page.keyboard.press('.');
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    assert.equal((await state(page)).steps, 1, 'no step while the help is open, wherever the focus is');
    assert.equal((await state(page)).playing, false);
    await page.focus('#help-close');
    await page.keyboard.press('Space'); // operates the dialog's button
    assert.equal(await page.isVisible('#help'), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-button', 'the focus goes back');
    assert.equal((await state(page)).playing, false);
    await page.keyboard.press('?');
    assert.equal(await page.isVisible('#help'), true);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#help'), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-button');
    await page.keyboard.press('?');
    await page.mouse.click(5, 300); // the backdrop closes it
    assert.equal(await page.isVisible('#help'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a parameter change changes the run; an invalid one shows the core’s message', async () => {
    const { page, problems } = await open();
    await pauseAt(page);
    await page.click('#reset');
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    const base = await stepTimes(page, 5);

    await page.fill('[data-path="material.alpha"]', '3');
    await page.press('[data-path="material.alpha"]', 'Tab');
    // the run restarts (paused, as it was) from step 0 with the new scenario
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    await page.waitForTimeout(100);
    assert.equal(await page.inputValue('[data-path="material.alpha"]'), '3');
    const changed = await stepTimes(page, 5);
    assert.notEqual(changed.hash, base.hash);

    await page.fill('[data-path="mesh.nx"]', '1');
    await page.press('[data-path="mesh.nx"]', 'Tab');
    await page.waitForSelector('#params-error', { state: 'visible', ...T });
    assert.match(await page.textContent('#params-error'), /mesh\.nx: must be >= 2/);
    assert.equal(await page.getAttribute('[data-path="mesh.nx"]', 'aria-invalid'), 'true');
    await page.fill('[data-path="material.rho"]', 'abc');
    await page.press('[data-path="material.rho"]', 'Tab');
    await page.waitForFunction(() => /not a number/.test(document.querySelector('#params-error').textContent), null, T);
    // the previous run is still there and still steps
    assert.equal((await stepTimes(page, 1)).steps, 6);

    // another scene from the gallery
    await page.click('.gallery button[data-scene="wam-fast"]');
    await page.waitForFunction(() => window.__tela.scene === 'wam-fast', null, T);
    assert.equal(await page.isVisible('#params-error'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('two quick parameter edits both hold: the second builds on the first while it loads', async () => {
    const { page, problems } = await open();
    await pauseAt(page);
    // a 1000-node-wide mesh takes a moment to load; the height is changed meanwhile, and the
    // width must stay 1000 (the second edit builds on the first, not on the loaded scenario)
    await page.fill('[data-path="mesh.nx"]', '1000');
    await page.press('[data-path="mesh.nx"]', 'Tab');
    await page.fill('[data-path="mesh.ny"]', '12');
    await page.press('[data-path="mesh.ny"]', 'Tab');
    await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-text').value).mesh.ny === 12, null, T);
    await page.waitForTimeout(300);
    const mesh = JSON.parse(await page.inputValue('#scenario-text')).mesh;
    assert.deepEqual([mesh.nx, mesh.ny], [1000, 12]);
    assert.equal(await page.inputValue('[data-path="mesh.nx"]'), '1000');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('the readout counts steps above the tolerance; a new scene clears the old notice; drape scenes have a stand', async () => {
    const { page, problems } = await open();
    await pauseAt(page);
    // one projection iteration per step against a tolerance of 1e-6: every step ends at the cap
    for (const [path, value] of [['solver.tolerance', '1e-6'], ['solver.max_iterations', '1']]) {
      await page.fill(`[data-path="${path}"]`, value);
      await page.press(`[data-path="${path}"]`, 'Tab');
      await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    }
    await stepTimes(page, 3);
    await page.waitForFunction(() => /\(3 steps > 0\.000001\)/.test(document.querySelector('#constraint').textContent), null, T);
    assert.equal(await page.getAttribute('#constraint', 'class'), 'warn');
    assert.equal(await page.evaluate(() => window.__tela.stand), null);

    await page.click('#share');
    await page.waitForFunction(() => /Share link for step 3/.test(window.__tela.notice ?? ''), null, T);
    await page.click('.gallery button[data-scene="cusick-medium"]');
    await page.waitForFunction(() => window.__tela.scene === 'cusick-medium', null, T);
    assert.equal(await page.isVisible('#notice'), false, 'the share notice of the last scene is gone');
    const stand = await page.evaluate(() => window.__tela.stand);
    assert.equal(stand.radius, 0.09);
    assert.deepEqual(stand.center, [0, 0, 0.5]);
    await pauseAt(page);
    await stepTimes(page, 2);
    assert.doesNotMatch(await page.textContent('#constraint'), /steps? >/);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a control released from the form: the page computes what the command line does', async (t) => {
    if (!existsSync(cli)) {
      t.skip('build/tela is not built');
      return;
    }
    const { page, problems } = await open();
    await pauseAt(page);
    const scene = (await state(page)).scene;
    await page.fill('[data-path="controls.0.release"]', '0.05');
    await page.press('[data-path="controls.0.release"]', 'Tab');
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    const released = await stepTimes(page, 10);
    const dir = mkdtempSync(join(tmpdir(), 'tela-release-'));
    try {
      const scenario = JSON.parse(execFileSync(cli, ['scenario', scene], { encoding: 'utf8' }));
      scenario.controls[0].release = 0.05;
      writeFileSync(join(dir, 's.json'), JSON.stringify(scenario));
      const cliRun = JSON.parse(execFileSync(cli, ['simulate', join(dir, 's.json'), '--steps', '10'], { encoding: 'utf8' }));
      assert.equal(released.hash, cliRun.state_hash);
      delete scenario.controls[0].release;
      writeFileSync(join(dir, 'held.json'), JSON.stringify(scenario));
      const held = JSON.parse(execFileSync(cli, ['simulate', join(dir, 'held.json'), '--steps', '10'], { encoding: 'utf8' }));
      assert.notEqual(released.hash, held.state_hash);
      // emptied: held to the end again
      await page.fill('[data-path="controls.0.release"]', '');
      await page.press('[data-path="controls.0.release"]', 'Tab');
      await page.waitForFunction(() => window.__tela.steps === 0, null, T);
      assert.equal((await stepTimes(page, 10)).hash, held.state_hash);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('grasping a node by clicking the cloth adds a keyframed control; keyframes are edited in the form', async (t) => {
    if (!existsSync(cli)) {
      t.skip('build/tela is not built');
      return;
    }
    const { page, problems } = await open();
    await pauseAt(page);
    // at t = 0 (the flat sheet): the grasp holds the node where it is (tests/js/grasp.test.mjs
    // covers grasps of the hanging sheet)
    await page.click('#reset');
    await page.waitForFunction(() => window.__tela.steps === 0, null, T);
    const scenario = async () => JSON.parse(await page.inputValue('#scenario-text'));
    const before = (await scenario()).controls.length;
    // Esc leaves the picking mode; with the help open over it, Esc closes only the help
    await page.click('#grasp-node');
    assert.equal(await page.getAttribute('#grasp-node', 'aria-pressed'), 'true');
    await page.keyboard.press('?');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#help'), false);
    assert.equal(await page.getAttribute('#grasp-node', 'aria-pressed'), 'true');
    await page.keyboard.press('Escape');
    assert.equal(await page.getAttribute('#grasp-node', 'aria-pressed'), 'false');
    // a click on a pixel of the cloth (clearly coloured: not the grey floor or background)
    await page.click('#grasp-node');
    const box = await page.locator('#view').boundingBox();
    const [px, py] = await page.evaluate(() => {
      const canvas = document.querySelector('#view');
      const copy = Object.assign(document.createElement('canvas'), { width: canvas.width, height: canvas.height });
      const ctx = copy.getContext('2d');
      ctx.drawImage(canvas, 0, 0);
      const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
      let sx = 0, sy = 0, n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 40) {
          sx += (i / 4) % copy.width;
          sy += Math.floor(i / 4 / copy.width);
          n++;
        }
      }
      const scale = canvas.clientWidth / canvas.width;
      return [(sx / n) * scale, (sy / n) * scale];
    });
    await page.mouse.click(box.x + px, box.y + py);
    await page.waitForFunction((n) => JSON.parse(document.querySelector('#scenario-text').value).controls.length === n + 1, before, T);
    let s = await scenario();
    const grasp = s.controls.at(-1);
    assert.equal(grasp.nodes.length, 1);
    assert.ok(grasp.nodes[0] >= 0 && grasp.nodes[0] < 63);
    assert.deepEqual(grasp.motion.keyframes.map((k) => k.time), [0, 0.5, 1.5]);
    assert.match(await page.textContent('#status'),
      new RegExp(`Node ${grasp.nodes[0]} grasped: control ${s.controls.length} holds it: lifting it would pull the cloth apart from node`));
    const i = s.controls.length - 1;

    // the keyframes in the form: an edited offset, one more keyframe, one less
    const offset = `[data-path="controls.${i}.motion.keyframes.2.offset"]`;
    assert.equal(await page.inputValue(offset), '0, 0, 0');
    await page.fill(offset, '0.1, 0, 0.3');
    await page.press(offset, 'Tab');
    await page.waitForFunction((k) => JSON.parse(document.querySelector('#scenario-text').value).controls[k].motion.keyframes[2].offset[0] === 0.1, i, T);
    await page.click(`[data-add-keyframe="${i}"]`);
    await page.waitForFunction((k) => JSON.parse(document.querySelector('#scenario-text').value).controls[k].motion.keyframes.length === 4, i, T);
    await page.click(`[data-remove-keyframe="${i}.0"]`);
    await page.waitForFunction((k) => JSON.parse(document.querySelector('#scenario-text').value).controls[k].motion.keyframes.length === 3, i, T);
    s = await scenario();
    assert.deepEqual(s.controls[i].motion.keyframes, [
      { time: 0.5, offset: [0, 0, 0] }, { time: 1.5, offset: [0.1, 0, 0.3] }, { time: 2, offset: [0.1, 0, 0.3] }]);
    // a time out of order: the core's message at the field
    await page.fill(`[data-path="controls.${i}.motion.keyframes.1.time"]`, '0.2');
    await page.press(`[data-path="controls.${i}.motion.keyframes.1.time"]`, 'Tab');
    await page.waitForFunction(() => /strictly increasing/.test(document.querySelector('#params-error').textContent), null, T);

    // the page runs it as the command line does
    const stepped = await stepTimes(page, 20);
    const dir = mkdtempSync(join(tmpdir(), 'tela-grasp-'));
    try {
      writeFileSync(join(dir, 's.json'), JSON.stringify(s));
      const run = JSON.parse(execFileSync(cli, ['simulate', join(dir, 's.json'), '--steps', '20'], { encoding: 'utf8' }));
      assert.equal(stepped.hash, run.state_hash);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.click(`[data-remove-control="${i}"]`);
    await page.waitForFunction((n) => JSON.parse(document.querySelector('#scenario-text').value).controls.length === n, before, T);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a share link reproduces the state hash after the same number of steps', async () => {
    const { page, problems } = await open();
    // a non-default scenario: the link must carry it, not just a scene name
    await page.fill('[data-path="material.alpha"]', '0.8');
    await page.press('[data-path="material.alpha"]', 'Tab');
    await page.waitForFunction(() => document.querySelector('[data-path="material.alpha"]').value === '0.8', null, T);
    await page.selectOption('#field', 'area');
    await waitSteps(page, 37);
    await page.click('#share');
    await page.waitForFunction(() => location.hash.startsWith('#v1='), null, T);
    const shared = await state(page);
    assert.equal(shared.playing, false);
    const url = await page.evaluate(() => location.href);
    await page.context().close();

    const { page: fresh, problems: freshProblems } = await open(url.slice(app.url.length));
    const opened = await state(fresh);
    assert.equal(opened.error, null);
    assert.equal(opened.steps, shared.steps);
    assert.equal(opened.hash, shared.hash);
    assert.equal(await fresh.textContent('#hash'), shared.hash);
    assert.equal(await fresh.inputValue('[data-path="material.alpha"]'), '0.8');
    assert.equal(await fresh.inputValue('#field'), 'area');
    assert.equal(await fresh.isVisible('#colorbar'), true);
    assert.match(await fresh.textContent('#notice'), new RegExp(`step ${shared.steps}`));
    assert.deepEqual([...problems, ...freshProblems], []);
    await fresh.context().close();
  });

  test('a share link whose camera would show nothing frames the cloth and says so', async () => {
    const scenario = JSON.parse(execFileSync(cli, ['scenario', 'hang-7x9'], { encoding: 'utf8' }));
    for (const camera of [[1e6, 1e6, 1e6, 0, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]]) {
      const hash = await encodeShareHash({ scenario, steps: 5, view: { camera } });
      const { page, problems } = await open(hash);
      await page.waitForFunction(() => /Opened a shared scene/.test(document.querySelector('#notice').textContent), null, T);
      assert.match(await page.textContent('#notice'), /camera would show nothing, so the view frames the cloth/);
      await page.waitForTimeout(300);
      const { cloth } = await page.evaluate(countClothPixels);
      assert.ok(cloth > 1000, `the cloth is drawn (${cloth} pixels) with camera ${camera}`);
      assert.deepEqual(problems, []);
      await page.context().close();
    }
  });

  test('a long replay shows progress and another scene cancels it', async (t) => {
    if (!existsSync(cli)) {
      t.skip('build/tela not built');
      return;
    }
    const scenario = JSON.parse(execFileSync(cli, ['scenario', 'hang-30x30'], { encoding: 'utf8' }));
    const hash = await encodeShareHash({ scenario, steps: 100000, view: {} });
    const problems = [];
    const page = await app.open(hash, { problems });
    await page.waitForFunction(() => /rebuilding the shared state: step \d+ of 100000/.test(document.querySelector('#status').textContent), null, T);
    await page.click('.gallery button[data-scene="hang-7x9"]');
    await page.waitForFunction(() => window.__tela.scene === 'hang-7x9' && window.__tela.steps > 3, null, T);
    assert.equal(await page.isVisible('#error'), false);
    assert.equal(await page.isVisible('#stop-replay'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a long replay can be stopped where it is, and says the state is not the shared one', async (t) => {
    if (!existsSync(cli)) {
      t.skip('build/tela not built');
      return;
    }
    const scenario = JSON.parse(execFileSync(cli, ['scenario', 'hang-30x30'], { encoding: 'utf8' }));
    const hash = await encodeShareHash({ scenario, steps: 100000, view: { playing: true } });
    const problems = [];
    const page = await app.open(hash, { problems });
    await page.waitForSelector('#stop-replay', { state: 'visible', ...T });
    await page.click('#stop-replay');
    await page.waitForFunction(() => /Stopped rebuilding the shared scene at step \d+ of 100000/.test(document.querySelector('#notice').textContent), null, T);
    const shown = Number(/at step (\d+)/.exec(await page.textContent('#notice'))[1]);
    assert.ok(shown > 0 && shown < 100000);
    assert.equal(await page.evaluate(() => window.__tela.steps), shown);
    assert.equal(await page.evaluate(() => window.__tela.playing), false, 'a stopped replay does not play on by itself');
    assert.equal(await page.isVisible('#stop-replay'), false);
    // the scene is usable from there
    await page.click('#step');
    await page.waitForFunction((n) => window.__tela.steps === n + 1, shown, T);
    assert.equal(await page.isVisible('#error'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a corrupt or unknown share link shows a message and falls back to the default scene', async () => {
    for (const [hash, message] of [['#v1=bm90IGRlZmxhdGU', /damaged/], ['#v42=abc', /v42/]]) {
      const { page, problems } = await open(hash);
      await page.waitForSelector('#error', { state: 'visible', ...T });
      assert.match(await page.textContent('#error'), message);
      assert.match(await page.textContent('#error'), /default scene/);
      await page.waitForFunction(() => window.__tela.scene === 'hang-7x9' && window.__tela.steps > 3, null, T);
      if (message.source.includes('v42')) {
        // a link pasted into the open page: read at once, and the same fallback
        await page.click('.gallery button[data-scene="wam-slow"]');
        await page.waitForFunction(() => window.__tela.scene === 'wam-slow', null, T);
        await page.evaluate(() => { location.hash = '#v3=xyz'; });
        await page.waitForFunction(() => /v3/.test(document.querySelector('#error').textContent), null, T);
        await page.waitForFunction(() => window.__tela.scene === 'hang-7x9', null, T);
        assert.equal(await page.isVisible('#error'), true);
      }
      assert.deepEqual(problems, []);
      await page.context().close();
    }
  });

  test('layout: panel beside the view on a laptop, below it on a portrait tablet', async () => {
    for (const [viewport, beside] of [[{ width: 1280, height: 720 }, true], [{ width: 768, height: 1024 }, false]]) {
      const { page, problems } = await open('', { viewport });
      const view = await page.locator('#view').boundingBox();
      const panel = await page.locator('#panel').boundingBox();
      if (beside) {
        assert.ok(panel.x >= view.x + view.width - 1 && view.height > 600, JSON.stringify({ view, panel }));
      } else {
        assert.ok(panel.y >= view.y + view.height - 1 && view.width === viewport.width && view.height > 500, JSON.stringify({ view, panel }));
      }
      // everything the panel offers is reachable
      await page.locator('[data-export="png"]').scrollIntoViewIfNeeded();
      assert.equal(await page.isVisible('[data-export="png"]'), true);
      const pixels = await page.evaluate(countClothPixels);
      assert.ok(pixels.cloth > 0.01 * pixels.total, `cloth pixels: ${pixels.cloth} of ${pixels.total}`);
      assert.deepEqual(problems, []);
      await page.context().close();
    }
    // a phone: every tab and action is on screen (not in a scrolled strip), and the
    // Classify panel is no wider than the screen
    const { page, problems } = await open('', { viewport: { width: 360, height: 640 } });
    for (const id of ['#tab-simulate', '#tab-fit', '#tab-reconstruct', '#tab-classify', '#open', '#share']) {
      // the element at the button's centre is the button: on screen, not clipped by a strip
      const shown = await page.evaluate((sel) => {
        const e = document.querySelector(sel);
        const r = e.getBoundingClientRect();
        const x = r.left + r.width / 2;
        return x >= 0 && x < innerWidth && document.elementFromPoint(x, r.top + r.height / 2) === e;
      }, id);
      assert.ok(shown, `${id} is on screen`);
    }
    await page.click('#tab-classify');
    const source = await page.locator('#classify-source').boundingBox();
    assert.ok(source.x + source.width <= 360, JSON.stringify(source));
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('works embedded in an iframe', async () => {
    const problems = [];
    // a host page on the same server (served by the test), embedding the app
    const context = await app.browser.newContext({ viewport: { width: 480, height: 360 } });
    await context.route(`${app.url}embed.html`, (route) => route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>host</title><link rel="icon" href="data:,">' +
            '<iframe src="./?scene=hang-20x33" width="460" height="340"></iframe>',
    }));
    const page = await context.newPage();
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto(`${app.url}embed.html`);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForFunction(() => window.__tela?.ready && window.__tela.steps > 3, null, T);
    assert.equal(await frame.evaluate(() => window.__tela.scene), 'hang-20x33');
    assert.equal(await frame.evaluate(() => window.__tela.error), null);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('an unknown ?scene= is reported on the page', async () => {
    const { page, problems } = await open('?scene=no-such-scene');
    await page.waitForSelector('#error', { state: 'visible', ...T });
    assert.match(await page.textContent('#error'), /unknown scene "no-such-scene".*hang-7x9/);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('dropped files: garbage is refused visibly, a point cloud is recognised, a scenario loads', async () => {
    const { page, problems } = await open();
    const drop = (name, content) => page.evaluate(([n, c]) => {
      const data = new DataTransfer();
      data.items.add(new File([typeof c === 'string' ? c : new Uint8Array(c)], n));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, [name, content]);

    await drop('noise.bin', Array.from({ length: 2000 }, (_, i) => (i * 97 + 13) % 256));
    await page.waitForSelector('#error', { state: 'visible', ...T });
    assert.match(await page.textContent('#error'), /“noise\.bin” is not a file tela recognises.*scenario JSON/);
    const before = (await state(page)).steps;
    await waitSteps(page, before + 5); // the page keeps working

    await drop('cloud.ply', 'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n');
    // point clouds go to the Reconstruct panel, which needs more than one point
    await page.waitForFunction(() => /cloud\.ply/.test(document.querySelector('#error').textContent), null, T);
    assert.match(await page.textContent('#error'), /Reconstruct: “cloud\.ply” holds only 1 usable point/);
    await page.click('#tab-simulate');

    const scenario = JSON.parse(await page.evaluate(() => document.querySelector('#scenario-text').value));
    scenario.name = 'dropped-scene';
    scenario.mesh.nx = 5;
    await drop('mine.json', JSON.stringify(scenario));
    await page.waitForFunction(() => window.__tela.scene === 'dropped-scene', null, T);
    assert.equal(await page.isVisible('#error'), false);
    assert.equal(await page.inputValue('[data-path="mesh.nx"]'), '5');

    scenario.solver.dt = -1;
    await drop('bad.json', JSON.stringify(scenario));
    await page.waitForFunction(() => /solver\.dt/.test(document.querySelector('#error').textContent), null, T);
    assert.match(await page.textContent('#error'), /“bad\.json” is a scenario file, but it cannot be simulated: solver\.dt/);

    // the Open… button's file input goes the same way
    scenario.solver.dt = 0.01;
    scenario.name = 'opened-scene';
    await page.setInputFiles('#file', { name: 'opened.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
    await page.waitForFunction(() => window.__tela.scene === 'opened-scene', null, T);
    assert.equal(await page.isVisible('#error'), false);

    // several at once: a refused one's message stays after a later one opened
    scenario.name = 'second-of-two';
    const bad = { ...scenario, solver: { ...scenario.solver, dt: -1 } };
    await page.setInputFiles('#file', [
      { name: 'first.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) },
      { name: 'second.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) }]);
    await page.waitForFunction(() => window.__tela.scene === 'second-of-two', null, T);
    await page.waitForFunction(() => /“first\.json” is a scenario file, but it cannot be simulated/.test(
      document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent), null, T);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('a diverging run stops with a visible message; the page goes on', async () => {
    const { page, problems } = await open();
    const scenario = JSON.parse(await page.evaluate(() => document.querySelector('#scenario-text').value));
    Object.assign(scenario.solver, { dt: 0.5, max_iterations: 1 });
    scenario.controls[0].motion = { type: 'sinusoid', axis: [1, 0, 0], amplitude: 3, frequency: 0.6 };
    await page.evaluate((text) => {
      document.querySelector('details').open = true;
      document.querySelector('#scenario-text').value = text;
    }, JSON.stringify(scenario));
    await page.click('#scenario-apply');
    await page.waitForSelector('#error', { state: 'visible', ...T });
    assert.match(await page.textContent('#error'), /The simulation stopped: .*(diverged|non-finite).*solver\.dt/);
    await page.waitForFunction(() => !window.__tela.playing, null, T);
    assert.equal(await page.textContent('#play'), 'Play');
    await page.click('.gallery button[data-scene="hang-7x9"]');
    await page.waitForFunction(() => window.__tela.steps > 3 && window.__tela.playing, null, T);
    assert.equal(await page.isVisible('#error'), false);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  test('every export downloads a non-empty, parseable file', async () => {
    const { page, problems } = await open('', { acceptDownloads: true });
    await waitSteps(page, 10);
    const paused = await pauseAt(page);
    const nodes = 63;
    const download = async (what) => {
      const [file] = await Promise.all([page.waitForEvent('download', T), page.click(`[data-export="${what}"]`)]);
      return { name: file.suggestedFilename(), data: readFileSync(await file.path()) };
    };

    const csv = await download('csv');
    assert.match(csv.name, /\.csv$/);
    const lines = csv.data.toString().trim().split('\n');
    assert.equal(lines[0], 'frame,time,node,x,y,z');
    assert.equal(lines.length - 1, nodes * (paused.steps + 1), 'every node at every step from 0');
    const last = lines.at(-1).split(',').map(Number);
    assert.equal(last.length, 6);
    assert.ok(last.every(Number.isFinite));
    assert.deepEqual(last.slice(0, 3), [paused.steps, Number((paused.steps * 0.01).toPrecision(9)), nodes - 1]);

    const obj = (await download('obj')).data.toString().split('\n');
    assert.equal(obj.filter((l) => l.startsWith('v ')).length, nodes);
    assert.equal(obj.filter((l) => /^f( \d+){4}$/.test(l)).length, 48);
    assert.ok(obj.filter((l) => l.startsWith('v ')).every((l) => l.split(' ').slice(1).every((x) => Number.isFinite(Number(x)))));

    const ply = (await download('ply')).data.toString();
    const [header, body] = ply.split('end_header\n');
    assert.match(header, /^ply\nformat ascii 1\.0\n/);
    assert.match(header, /element vertex 63\n/);
    assert.match(header, /element face 48\n/);
    assert.equal(body.trim().split('\n').length, nodes + 48);

    const scenarioFile = await download('scenario');
    const json = JSON.parse(scenarioFile.data.toString());
    assert.equal(json.version, 1);
    assert.equal(json.name, 'hang-7x9');
    // the native command line reproduces the page's state from the exported scenario
    if (existsSync(cli)) {
      const dir = mkdtempSync(join(tmpdir(), 'tela-e2e-'));
      writeFileSync(join(dir, 'scenario.json'), scenarioFile.data);
      const summary = JSON.parse(execFileSync(cli, ['simulate', join(dir, 'scenario.json'), '--steps', String(paused.steps)], { encoding: 'utf8' }));
      rmSync(dir, { recursive: true, force: true });
      assert.equal(summary.steps, paused.steps);
      assert.equal(summary.state_hash, paused.hash, 'native CLI and page agree');
    }

    const png = (await download('png')).data;
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.ok(png.readUInt32BE(16) > 100 && png.readUInt32BE(20) > 50, 'PNG width and height');
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
