// Page benchmark in headless Chromium (Debian's, SwiftShader WebGL): time from navigation to
// the first simulated frame, rendered frame time and fps while hang-20x33 runs with the
// simulator's real-time factor (after its first second, and from the start), the gzip size of the shipped JS + wasm (dist/), and the Fit
// panel's 20 x 20 sweep of a 15 s A2 recording on two workers.
// Prints `BENCH <name> <value> <unit>` lines. Figures, not tests. Needs `vite build` and
// build/tela (for the recording) first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, openPage, root, startPreview } from '../tests/e2e/harness.mjs';

const VIEWPORT = { width: 800, height: 600 };
const RUN_MS = 6000;
const fmt = (x) => Number(x.toPrecision(4));

export async function benchPage() {
  const assets = join(root, 'dist/assets');
  let shipped = 0;
  let raw = 0;
  for (const name of readdirSync(assets)) {
    if (!/\.(js|wasm)$/.test(name)) continue;
    const bytes = readFileSync(join(assets, name));
    raw += bytes.length;
    shipped += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`BENCH page_shipped_js_wasm_gzip ${fmt(shipped / 1024)} KiB`);
  console.log(`BENCH page_shipped_js_wasm_raw ${fmt(raw / 1024)} KiB`);

  const server = await startPreview();
  const browser = await launchBrowser();
  try {
    // default scene, fresh context (no cache), median of 3: the scene's first frame drawn, and
    // the first drawn frame after a simulated step
    const firsts = [];
    const stepped = [];
    for (let i = 0; i < 3; i++) {
      const page = await openPage(browser, server.url, { viewport: VIEWPORT });
      await page.waitForFunction(() => window.__tela?.firstStepFrameMs !== null || window.__tela?.error, null, { timeout: 60000 });
      firsts.push(await page.evaluate(() => window.__tela.firstFrameMs));
      stepped.push(await page.evaluate(() => window.__tela.firstStepFrameMs));
      await page.context().close();
    }
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`BENCH page_first_frame ${fmt(median(firsts))} ms`);
    console.log(`BENCH page_first_simulated_frame ${fmt(median(stepped))} ms`);

    // hang-20x33 with its duration extended (dropped as a scenario file), so that it runs for
    // the whole window instead of pausing at 3 s
    const page = await openPage(browser, `${server.url}?scene=hang-20x33`, { viewport: VIEWPORT });
    await page.waitForFunction(() => window.__tela?.ready, null, { timeout: 60000 });
    await page.evaluate(() => {
      const scenario = JSON.parse(document.querySelector('#scenario-text').value);
      scenario.duration = 600;
      const data = new DataTransfer();
      data.items.add(new File([JSON.stringify(scenario)], 'hang-20x33-long.json'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => window.__tela.steps > 0 && window.__tela.steps < 20 && window.__tela.playing, null, { timeout: 60000 });
    // from the start of the run, and (the figures below) over RUN_MS after its first second:
    // the first second also holds one-time work (the new mesh's first draws, JIT tier-up),
    // which the first-frame figures above measure
    const early = await page.evaluate(() => ({ wall: performance.now(), sim: window.__tela.time }));
    await page.waitForFunction(() => window.__tela.time >= 1.0, null, { timeout: 60000 });
    const result = await page.evaluate(async (runMs) => {
      const t = window.__tela;
      const times = [];
      const start = { wall: performance.now(), sim: t.time, renders: t.renders, frames: t.frames, busy: t.busyMs, stepping: t.steppingMs };
      await new Promise((resolve) => {
        const tick = (now) => {
          times.push(now);
          if (now - start.wall < runMs) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      const wall = (performance.now() - start.wall) / 1000;
      const gaps = times.slice(1).map((x, i) => x - times[i]).sort((a, b) => a - b);
      return {
        wall, simTime: t.time - start.sim, steps: t.steps,
        renders: t.renders - start.renders, simFrames: t.frames - start.frames,
        medianGap: gaps[Math.floor(gaps.length / 2)], p95Gap: gaps[Math.floor(gaps.length * 0.95)],
        meanGap: gaps.reduce((a, b) => a + b, 0) / gaps.length, playing: t.playing,
        busy: t.busyMs - start.busy, stepping: (t.steppingMs - start.stepping) / 1000,
      };
    }, RUN_MS);
    const load = (await import('node:os')).loadavg()[0];
    console.log(`machine load average (1 min) ${load.toFixed(2)} on ${(await import('node:os')).cpus().length} cores`);
    console.log(`hang-20x33 in the page: ${result.wall.toFixed(1)} s wall, ${result.simTime.toFixed(2)} s simulated, ${result.renders} renders`);
    console.log(`BENCH page_hang-20x33_frame_time_median ${fmt(result.medianGap)} ms`);
    console.log(`BENCH page_hang-20x33_frame_time_p95 ${fmt(result.p95Gap)} ms`);
    console.log(`BENCH page_hang-20x33_animation_fps ${fmt(1000 / result.meanGap)} fps`);
    console.log(`BENCH page_hang-20x33_rendered_fps ${fmt(result.renders / result.wall)} fps`);
    console.log(`BENCH page_hang-20x33_main_thread_ms_per_render ${fmt(result.busy / Math.max(1, result.renders))} ms`);
    const sinceStart = await page.evaluate((e) => (window.__tela.time - e.sim) / ((performance.now() - e.wall) / 1000), early);
    console.log(`BENCH page_hang-20x33_real_time_factor ${fmt(result.simTime / result.wall)} x`);
    console.log(`BENCH page_hang-20x33_real_time_factor_from_start ${fmt(sinceStart)} x`);
    // the worker never runs ahead of real time; what it could do is simulated time per second spent stepping
    console.log(`BENCH page_hang-20x33_worker_stepping_share ${fmt(100 * result.stepping / result.wall)} %`);
    console.log(`BENCH page_hang-20x33_simulated_per_stepping_second ${fmt(result.simTime / result.stepping)} x`);
    await page.context().close();

    await benchFit(browser, server);
  } finally {
    await browser.close();
    server.stop();
  }
}

// The Fit panel: a synthetic 15 s A2 shake (the native fit bench's recording: bench_fit.cpp)
// dropped on the page, a 20 x 20 sweep without refinement on 2 workers, timed from Run to done.
async function benchFit(browser, server) {
  const dir = mkdtempSync(join(tmpdir(), 'tela-bench-'));
  try {
    const file = join(dir, 'a2-shake-15s.csv');
    execFileSync(join(root, 'build/tela'), ['synth-recording', 'A2-shake', '--out', file, '--duration', '15',
      '--kappa', '0.001', '--seed', '1'], { encoding: 'utf8' });
    const text = readFileSync(file, 'utf8');
    const page = await openPage(browser, server.url, { viewport: VIEWPORT });
    await page.waitForFunction(() => window.__tela?.ready, null, { timeout: 60000 });
    await page.evaluate((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'a2-shake-15s.csv'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForFunction(() => ['ready', 'error'].includes(window.__tela.fit?.state), null, { timeout: 60000 });
    await page.fill('#fit-kappa', '0.001');
    await page.click('#fit-apply');
    await page.waitForFunction(() => window.__tela.fit.state === 'ready' && window.__tela.fit.summary?.kappa === 0.001, null, { timeout: 60000 });
    await page.fill('#fit-grid', '20');
    await page.fill('#fit-refine', '0');
    await page.fill('#fit-workers', '2');
    const begin = Date.now();
    await page.click('#fit-run');
    await page.waitForFunction(() => ['done', 'cancelled', 'error'].includes(window.__tela.fit.state), null, { timeout: 900000, polling: 250 });
    const seconds = (Date.now() - begin) / 1000;
    const state = await page.evaluate(() => ({ state: window.__tela.fit.state, error: window.__tela.fit.error, evaluations: window.__tela.fit.result?.evaluations }));
    if (state.state !== 'done') throw new Error(`page fit ended ${state.state}: ${state.error}`);
    console.log(`page fit: 20x20 sweep of 15 s of A2 on 2 workers, ${state.evaluations} simulations`);
    console.log(`BENCH page_fit_sweep_20x20_15s_A2 ${fmt(seconds)} s`);
    await page.context().close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPage();
