// The built page (dist/, from `vite build`) served by `vite preview` and driven in Debian's
// Chromium through playwright-core: the wasm simulator runs in the worker and the cloth is drawn.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const VIEWPORT = { width: 480, height: 360 };

// console messages that are not the page's fault
const HARMLESS = [/favicon\.ico/, /GPU stall due to ReadPixels/, /GL_CLOSE_PATH_NV/, /Automatic fallback to software WebGL/];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// `vite preview` in its own process group, so that killing the group ends it entirely
async function startPreview(port) {
  const child = spawn(process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, 'preview', '--host', '127.0.0.1', '--strictPort', '--port', String(port)],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(url)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(-child.pid, 'SIGTERM');
  throw new Error(`vite preview did not answer at ${url}:\n${output}`);
}

// pixels of the WebGL canvas that are clearly coloured (the cloth), not grey (background, grid)
function countClothPixels() {
  const canvas = document.querySelector('canvas');
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  ctx.drawImage(canvas, 0, 0);
  const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
  let cloth = 0;
  for (let i = 0; i < data.length; i += 4) {
    const max = Math.max(data[i], data[i + 1], data[i + 2]);
    const min = Math.min(data[i], data[i + 1], data[i + 2]);
    if (max - min > 40) cloth++;
  }
  return { cloth, total: copy.width * copy.height };
}

describe('page', () => {
  let server;
  let browser;
  const problems = [];

  before(async () => {
    assert.ok(existsSync(`${root}dist/index.html`), 'dist/ missing: run `npx vite build` first');
    server = await startPreview(await freePort());
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      // WebGL2 runs on SwiftShader without further flags; the rest keeps Chromium off the
      // (closed) network
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update',
             '--no-first-run', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    if (server) process.kill(-server.child.pid, 'SIGTERM');
  });

  async function open(query = '') {
    const page = await browser.newPage({ viewport: VIEWPORT });
    page.on('console', (msg) => {
      const where = msg.location()?.url ?? '';
      if (msg.type() === 'error' && !HARMLESS.some((re) => re.test(msg.text()) || re.test(where))) {
        problems.push(`console: ${msg.text()} (${where})`);
      }
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await page.goto(server.url + query);
    return page;
  }

  test('runs the default scene with the wasm simulator and draws the cloth', async () => {
    problems.length = 0;
    const page = await open();
    await page.waitForFunction(() => window.__tela?.ready || window.__tela?.error, null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => window.__tela.error), null);
    assert.equal(await page.evaluate(() => window.__tela.scene), 'hang-7x9');

    // simulated time advances and the state changes
    await page.waitForFunction(() => window.__tela.time > 0.05, null, { timeout: 20000 });
    const first = await page.evaluate(() => ({ ...window.__tela }));
    await page.waitForFunction((t) => window.__tela.time > t + 0.2, first.time, { timeout: 20000 });
    const second = await page.evaluate(() => ({ ...window.__tela }));
    assert.ok(second.steps > first.steps, `steps ${first.steps} -> ${second.steps}`);
    assert.match(second.hash, /^[0-9a-f]{16}$/);
    assert.notEqual(second.hash, first.hash);

    // the readout shows it
    assert.equal(await page.textContent('#scene'), 'hang-7x9');
    assert.match(await page.textContent('#hash'), /^[0-9a-f]{16}$/);
    assert.match(await page.textContent('#time'), /^\d+\.\d\d s$/);

    // a substantial area of cloth is drawn
    const pixels = await page.evaluate(countClothPixels);
    assert.ok(pixels.cloth > 0.02 * pixels.total, `cloth pixels: ${pixels.cloth} of ${pixels.total}`);

    assert.equal(await page.isVisible('#error'), false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('an unknown scene is reported on the page', async () => {
    problems.length = 0;
    const page = await open('?scene=no-such-scene');
    await page.waitForSelector('#error', { state: 'visible', timeout: 30000 });
    assert.match(await page.textContent('#error'), /unknown scene "no-such-scene".*hang-7x9/);
    assert.match(await page.evaluate(() => window.__tela.error), /unknown scene/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
