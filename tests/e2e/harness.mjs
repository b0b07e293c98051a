// Shared by the browser tests and bench/page.mjs: serve the built page (dist/, from
// `vite build`) with `vite preview` in its own process group, and drive Debian's Chromium
// through playwright-core.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const root = fileURLToPath(new URL('../../', import.meta.url));

// console messages that are not the page's fault
export const HARMLESS = [/favicon\.ico/, /GPU stall due to ReadPixels/, /GL_CLOSE_PATH_NV/,
  /Automatic fallback to software WebGL/, /swiftshader/i];

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

// `vite preview` of dist/ on a free port; stop() kills its process group
export async function startPreview() {
  if (!existsSync(`${root}dist/index.html`)) throw new Error('dist/ missing: run `npx vite build` first');
  const port = await freePort();
  const child = spawn(process.execPath,
    [`${root}node_modules/vite/bin/vite.js`, 'preview', '--host', '127.0.0.1', '--strictPort', '--port', String(port)],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(url)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`vite preview did not answer at ${url}:\n${output}`);
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // WebGL2 runs on SwiftShader; the rest keeps Chromium off the (closed) network
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--no-first-run', '--disable-sync', '--disable-default-apps', '--mute-audio'],
  });
}

// a page whose console errors, warnings and uncaught exceptions go into `problems`
export async function openPage(browser, url, { viewport = { width: 480, height: 360 }, problems = [], acceptDownloads = false } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads });
  const page = await context.newPage();
  page.on('console', (msg) => {
    const where = msg.location()?.url ?? '';
    if ((msg.type() === 'error' || msg.type() === 'warning') &&
        !HARMLESS.some((re) => re.test(msg.text()) || re.test(where))) {
      problems.push(`console ${msg.type()}: ${msg.text()} (${where})`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  return page;
}

// One `vite preview` server and one browser for a whole test file: registers the file's
// before/after hooks and returns { open(suffix, options): a page of the app at url + suffix
// (options as openPage's), url, browser } (the last two once the hooks have run).
export function servePage() {
  let server;
  let browser;
  before(async () => {
    server = await startPreview();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.stop();
  });
  return {
    open: (suffix = '', options = {}) => openPage(browser, server.url + suffix, options),
    get url() { return server.url; },
    get browser() { return browser; },
  };
}

// pixels of the WebGL canvas that are clearly coloured (the cloth), not grey (background, grid)
export function countClothPixels() {
  const canvas = document.querySelector('#view');
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
