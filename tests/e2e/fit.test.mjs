// The Fit panel in the built page (dist/): dropping the sample recording shows what was
// detected, runs a fit to completion on several workers with a progress bar, shows the plots
// and the replay, and the exported JSON parses; a cancelled fit still reports parameters.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, openPage, root, startPreview } from './harness.mjs';

const T = { timeout: 50000 };
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

const fitState = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__tela.fit)));

describe('fit panel', () => {
  test('the dropped sample recording is fitted with progress, plots, replay and a JSON export', async () => {
    const problems = [];
    const page = await openPage(browser, server.url, { problems, acceptDownloads: true });
    await page.waitForFunction(() => window.__tela?.ready, null, T);
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'a3-shake-synthetic.csv'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, readFileSync(join(root, 'public/samples/a3-shake-synthetic.csv'), 'utf8'));
    await page.waitForFunction(() => ['loaded', 'error'].includes(window.__tela.fit.status), null, T);
    let s = await fitState(page);
    assert.equal(s.error, null);
    assert.equal(await page.getAttribute('#tab-fit', 'aria-selected'), 'true');
    // the sample is an A3 sheet with a 3 x 4 marker grid (mocap's synthetic recording)
    assert.equal(s.summary.grid.cols * s.summary.grid.rows, s.summary.recording.points);
    const detected = await page.textContent('#fit-detected');
    assert.match(detected, /format.*units.*rate.*Hz.*markers.*grid.*held corners.*missing.*%/s);

    // a wrong correction is refused with a message, then undone
    await page.click('#fit-corrections > summary');
    await page.fill('#fit-held', 'NoSuchMarker, Other');
    await page.click('#fit-reopen');
    await page.waitForSelector('#fit-error', { state: 'visible', ...T });
    assert.match(await page.textContent('#fit-error'), /NoSuchMarker/);
    await page.fill('#fit-held', '');
    await page.click('#fit-reopen');
    await page.waitForFunction(() => window.__tela.fit.status === 'loaded', null, T);
    assert.equal(await page.isVisible('#fit-error'), false);

    await page.fill('#fit-grid', '3');
    await page.fill('#fit-refine', '4');
    await page.fill('#fit-workers', '2');
    await page.click('#fit-run');
    await page.waitForFunction(() => window.__tela.fit.status === 'sweeping', null, T);
    await page.waitForFunction(() => ['done', 'error'].includes(window.__tela.fit.status), null, T);
    s = await fitState(page);
    assert.equal(s.error, null);
    assert.equal(s.workers, 2);
    assert.equal(s.sweep.length, 9);
    assert.equal(s.progress, 1);
    assert.equal(await page.evaluate(() => document.querySelector('#fit-progress').value), 1);
    // the sweep's optimum is the smallest error of its grid
    const errors = s.sweep.map((p) => p.error).filter(Number.isFinite);
    assert.equal(s.best.error, Math.min(...errors));
    assert.ok(Number.isFinite(s.fit.deltaOverRho) && Number.isFinite(s.fit.alphaOverRho));
    assert.ok(s.fit.meanErrorCm >= 0 && s.fit.frames > 0);
    // plots and replay are drawn
    await page.waitForFunction(() => window.__tela.fit.replayFrame === 0, null, T);
    for (const id of ['#fit-heatmap', '#fit-curve', '#fit-replay']) {
      const coloured = await page.evaluate((sel) => {
        const c = document.querySelector(sel);
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 30) n++;
        return n;
      }, id);
      assert.ok(coloured > 20, `${id}: ${coloured} coloured pixels`);
    }
    await page.fill('#fit-replay-frame', '50');
    await page.dispatchEvent('#fit-replay-frame', 'input');
    assert.equal((await fitState(page)).replayFrame, 50);

    const [download] = await Promise.all([page.waitForEvent('download', T), page.click('#fit-export')]);
    const json = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(json.format, 'tela-fit');
    assert.match(json.input.sha256, /^[0-9a-f]{64}$/);
    assert.equal(json.result.delta_over_rho, s.fit.deltaOverRho);
    assert.equal(json.result.sweep_points.length, 9);

    // a cancelled fit still reports the best parameters so far
    await page.fill('#fit-grid', '8');
    await page.click('#fit-run');
    await page.waitForFunction(() => window.__tela.fit.done >= 2, null, T);
    await page.click('#fit-cancel');
    await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(window.__tela.fit.status), null, T);
    s = await fitState(page);
    assert.equal(s.status, 'done');
    assert.equal(s.cancelled, true);
    assert.ok(s.sweep.length < 64);
    assert.ok(Number.isFinite(s.fit.deltaOverRho));
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
