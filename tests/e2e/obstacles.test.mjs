// The obstacles of the contact scenes on the page (web/src/render/obstacles.js): drawn (they
// change the picture when shown), placed where the core puts them (a moving stick at its
// keyframed position, through the z-up -> y-up conversion), and the contact-point dots.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { root, servePage } from './harness.mjs';
import { encodeShareHash } from '../../web/src/share/link.js';

const T = { timeout: 30000 };
const cli = join(root, 'build/tela');

const app = servePage();

async function open(suffix) {
  const problems = [];
  const page = await app.open(suffix, { problems });
  await page.waitForFunction(() => window.__tela?.ready || window.__tela?.error, null, T);
  return { page, problems };
}

// a scene paused at `steps` through a share link (the worker replays them exactly)
async function openAt(scene, steps) {
  const scenario = JSON.parse(execFileSync(cli, ['scenario', scene], { encoding: 'utf8' }));
  const hash = await encodeShareHash({ scenario, steps, view: { playing: false } });
  const opened = await open(hash);
  await opened.page.waitForFunction((k) => window.__tela.steps === k, steps, T);
  return opened;
}

// the canvas drawn after two animation frames, as RGBA bytes
function snapshot() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const canvas = document.querySelector('#view');
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d');
    ctx.drawImage(canvas, 0, 0);
    resolve(Array.from(ctx.getImageData(0, 0, copy.width, copy.height).data));
  })));
}

function changedPixels(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 30) n++;
  }
  return n;
}

describe('obstacles', () => {
  test('cylinder-mu-0.55: the floor and the cylinder are drawn, without console problems', async () => {
    const { page, problems } = await open('?scene=cylinder-mu-0.55');
    const state = await page.evaluate(() => ({ ...window.__tela }));
    assert.equal(state.error, null);
    assert.equal(state.scene, 'cylinder-mu-0.55');
    assert.deepEqual(state.obstacles, ['plane', 'cylinder']);
    await page.click('#play'); // pause, so that only the obstacle toggle changes the picture
    await page.waitForFunction(() => !window.__tela.playing && window.__tela.pausedAt === window.__tela.steps, null, T);

    // the cylinder: its centre 30 cm off the cloth's centre across the axis, 1.1 m up
    const [, cylinder] = await page.evaluate(() => window.__telaView.obstacleCenters());
    const a = (20 * Math.PI) / 180;
    const core = [0.3 * Math.cos(a), -0.3 * Math.sin(a), 1.1];
    const three = [core[0], core[2], -core[1]];
    cylinder.forEach((v, i) => assert.ok(Math.abs(v - three[i]) < 1e-5, `cylinder centre ${cylinder} vs ${three}`));

    const shown = await page.evaluate(snapshot);
    await page.uncheck('#obstacles');
    const hidden = await page.evaluate(snapshot);
    await page.check('#obstacles');
    const again = await page.evaluate(snapshot);
    const total = shown.length / 4;
    const changed = changedPixels(shown, hidden);
    assert.ok(changed > 0.02 * total, `the obstacles cover ${changed} of ${total} pixels`);
    assert.equal(changedPixels(shown, again), 0, 'showing them again gives the same picture');
    assert.deepEqual(problems, []);
  });

  test('stick-hit: the stick is drawn where its keyframes put it, and contact points show', async () => {
    // t = 0.5 s: the stick moves forward (keyframes: 0 at 0.3 s, 25 cm at 0.6 s), pushing the cloth
    const { page, problems } = await openAt('stick-hit', 50);
    assert.deepEqual(await page.evaluate(() => window.__tela.obstacles), ['stick']);
    const [center] = await page.evaluate(() => window.__telaView.obstacleCenters());
    const core = [0, -0.15 + (0.25 * 0.2) / 0.3, 0.85]; // the polyline's middle, moved by d(0.5 s)
    const three = [core[0], core[2], -core[1]];
    center.forEach((v, i) => assert.ok(Math.abs(v - three[i]) < 1e-5, `stick centre ${center} vs ${three}`));

    const contacts = await page.evaluate(() => window.__tela.contacts);
    assert.ok(contacts > 0, 'the stick touches the cloth at t = 0.5 s');
    const before = await page.evaluate(snapshot);
    await page.check('#contacts');
    const dots = await page.evaluate(snapshot);
    assert.ok(changedPixels(before, dots) > 0, 'contact dots are drawn');
    assert.deepEqual(problems, []);
  });
  test('tablecloth with a strain limit: the form shows it and the page computes what the command line does', async () => {
    const scenario = JSON.parse(execFileSync(cli, ['scenario', 'tablecloth'], { encoding: 'utf8' }));
    scenario.solver.strain_limit = 0.04;
    const steps = 60; // the cloth reaches the table at about 0.3 s
    const hash = await encodeShareHash({ scenario, steps, view: { playing: false } });
    const { page, problems } = await open(hash);
    await page.waitForFunction((k) => window.__tela.steps === k, steps, T);
    assert.equal(await page.inputValue('[data-path="solver.strain_limit"]'), '0.04');
    const dir = mkdtempSync(join(tmpdir(), 'tela-strain-'));
    try {
      writeFileSync(join(dir, 's.json'), JSON.stringify(scenario));
      const run = JSON.parse(execFileSync(cli, ['simulate', join(dir, 's.json'), '--steps', String(steps)], { encoding: 'utf8' }));
      assert.equal(await page.evaluate(() => window.__tela.hash), run.state_hash);
      const plain = JSON.parse(execFileSync(cli, ['simulate', 'tablecloth', '--steps', String(steps)], { encoding: 'utf8' }));
      assert.notEqual(run.state_hash, plain.state_hash, 'the limit changes the run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(problems, []);
  });

  test('obstacles and self-collisions edited in the form: added under the cloth, validated, run as the command line runs them, removed', async () => {
    const { page, problems } = await openAt('hang-7x9', 0);
    const scenario = async () => JSON.parse(await page.inputValue('#scenario-text'));
    await page.selectOption('#add-obstacle', 'box');
    await page.waitForFunction(() => window.__tela.obstacles.join() === 'box', null, T);
    let s = await scenario();
    const [box] = s.obstacles;
    assert.equal(box.type, 'box');
    // a table whose top is 5 cm below the cloth's lowest node at t = 0 (the sheet starts level at z = 1)
    assert.ok(Math.abs(box.center[2] + box.size[2] / 2 - (1 - 0.05)) < 0.002, `table top ${box.center[2] + box.size[2] / 2}`);

    // an edit: the table's friction
    await page.fill('[data-path="obstacles.0.mu"]', '0.8');
    await page.dispatchEvent('[data-path="obstacles.0.mu"]', 'change');
    await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-text').value).obstacles[0].mu === 0.8, null, T);
    // a size the core refuses: its message at the field, the run unchanged
    await page.fill('[data-path="obstacles.0.size"]', '1, 1, -1');
    await page.dispatchEvent('[data-path="obstacles.0.size"]', 'change');
    await page.waitForFunction(() => /obstacles\[0\]\.size/.test(document.querySelector('#params-error').textContent), null, T);
    assert.equal(await page.getAttribute('[data-path="obstacles.0.size"]', 'aria-invalid'), 'true');
    // self-collisions on, with a thicker cloth
    await page.selectOption('[data-path="self_collision.enabled"]', 'true');
    await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-text').value).self_collision?.enabled === true, null, T);
    await page.fill('[data-path="self_collision.thickness"]', '0.004');
    await page.dispatchEvent('[data-path="self_collision.thickness"]', 'change');
    await page.waitForFunction(() => JSON.parse(document.querySelector('#scenario-text').value).self_collision.thickness === 0.004, null, T);
    s = await scenario();
    assert.equal(s.obstacles[0].mu, 0.8);
    assert.deepEqual(s.obstacles[0].size, box.size, 'the refused size was not applied');

    // 40 steps on the page (the sheet falls onto the table at about 0.3 s) and on the command line
    for (let i = 0; i < 40; i++) await page.click('#step');
    await page.waitForFunction(() => window.__tela.steps === 40, null, T);
    const dir = mkdtempSync(join(tmpdir(), 'tela-edit-'));
    try {
      writeFileSync(join(dir, 's.json'), JSON.stringify(s));
      const run = JSON.parse(execFileSync(cli, ['simulate', join(dir, 's.json'), '--steps', '40'], { encoding: 'utf8' }));
      assert.equal(await page.evaluate(() => window.__tela.hash), run.state_hash);
      assert.ok(run.max_contacts > 0, 'the sheet reached the table');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    await page.click('[data-remove-obstacle="0"]');
    await page.waitForFunction(() => window.__tela.obstacles.length === 0, null, T);
    assert.equal((await scenario()).obstacles, undefined);
    assert.deepEqual(problems, []);
  });
});
