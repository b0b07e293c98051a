// The page's side of a fit shared by several workers (fit/worker.js, each with
// its own WebAssembly instance). The lead worker (the first) holds the fit's bookkeeping
// (FitJob): it is asked for the next points (the start point, a batch of the sweep or of the
// mu line, one refinement point), the points go to whichever worker is idle, and the lead is
// told their evaluations in the order it asked. Because the job considers them in that order,
// the result does not depend on the number of workers or on timing.
//
// const fit = createFitClient({ workers: 3 });
// await fit.load(bytes, options) -> { ok, summary | error, recording (what was read, or null) }   (every worker parses the recording:
//   the file's Uint8Array, copied to each; the core sniffs the format and decodes any text)
// await fit.run(settings, { onProgress(done, total, stage, best, plan, sweep, muLine) })
//   -> { ok, result, plan, points | error, settings (true: the core refused a setting; the
//   error starts with its key, and nothing ran) }   best: [delta/rho, alpha/rho, error cm, mu]
// fit.cancel()   the run resolves with the best parameters so far (result.cancelled = true)
// await fit.recorded(options) -> { markers, triangles, obstacles } (after load; options: load's)
// await fit.replay(deltaOverRho, alphaOverRho, mu) -> { simulated }
// fit.dispose()
import { createWorkerClient } from '../worker/client.js';

// one per core (the main thread idles during a fit), at most 4
export function defaultWorkerCount() {
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
}

// one worker of the pool, loading its module at once (while the recording is hashed); a
// worker that failed to start answers every request with why
function startWorker() {
  const worker = createWorkerClient(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }),
    { name: 'fitting', eager: true, onError: (message) => worker.close(message) });
  return worker;
}

export function createFitClient({ workers = defaultWorkerCount() } = {}) {
  const pool = Array.from({ length: Math.max(1, workers) }, startWorker);
  let cancelled = false;
  let running = false;

  async function load(bytes, options = {}) {
    const answers = await Promise.all(pool.map((w) => w.request({ type: 'load', bytes, options })));
    const bad = answers.find((a) => !a.ok);
    return bad ? { ok: false, error: bad.error, recording: bad.recording ?? null } : { ok: true, summary: answers[0].summary };
  }

  async function run(settings, { onProgress = () => {} } = {}) {
    if (running) return { ok: false, error: 'a fit is already running' };
    running = true;
    cancelled = false;
    try {
      const plans = await Promise.all(pool.map((w) => w.request({ type: 'plan', settings })));
      const badPlan = plans.find((p) => !p.ok);
      if (badPlan) return { ok: false, error: badPlan.error, settings: !!badPlan.settings };
      const plan = plans[0].plan;
      const total = plan.planned;
      const lead = pool[0];
      const sweep = new Array(plan.points).fill(null);
      const muLine = new Array(plan.mu_grid).fill(null);
      let done = 0;
      let best = null; // [d, a, error, mu] shown while the fit runs (display only)
      const note = (e) => {
        if (e.ok && e.mean_error_cm !== null && (!best || e.mean_error_cm < best[2])) best = [e.delta_over_rho, e.alpha_over_rho, e.mean_error_cm, e.mu];
      };
      onProgress(0, total, 'a_priori', best, plan, sweep, muLine);

      while (!cancelled) {
        const asked = await lead.request({ type: 'ask', max: 4 * pool.length });
        if (!asked.ok) return { ok: false, error: asked.error };
        const { stage, first, points } = asked.next;
        if (points.length === 0) break;
        // one point per request, to whichever worker is idle; kept in the order asked
        const values = new Array(points.length).fill(null);
        let next = 0;
        let failure = null;
        await Promise.all(pool.map(async (worker) => {
          while (!cancelled && !failure && next < points.length) {
            const k = next++;
            const answer = await worker.request({ type: 'evaluate', points: [points[k]] });
            if (!answer.ok) { failure = answer.error; return; }
            const e = answer.evaluations[0];
            values[k] = e;
            if (stage === 'sweep') sweep[first + k] = e;
            if (stage === 'mu_line') muLine[first + k] = e;
            note(e);
            done++;
            if (!cancelled) onProgress(done, total, stage, best, plan, sweep, muLine);
          }
        }));
        if (failure) return { ok: false, error: failure };
        // a batch cut short by a cancel is told too (null = not evaluated): the best so far counts
        const told = await lead.request({ type: 'tell', values });
        if (!told.ok) return { ok: false, error: told.error };
        const s = told.state;
        if (s.best_error_cm !== null) best = [s.best[0], s.best[1], s.best_error_cm, s.best[2]];
      }
      if (!cancelled) onProgress(total - 1, total, 'final evaluation', best, plan, sweep, muLine);
      const finished = await lead.request({ type: 'finish', cancelled });
      if (!finished.ok) return { ok: false, error: finished.error };
      onProgress(total, total, 'done', best, plan, sweep, muLine);
      // points: the sweep as evaluated here (null = never evaluated, after a cancel)
      return { ok: true, result: finished.result, plan, points: sweep, muLine };
    } finally {
      running = false;
    }
  }

  async function replay(delta, alpha, mu = null) {
    return pool[0].request({ type: 'replay', delta, alpha, mu: mu ?? NaN });
  }
  // the recorded markers in grid order at every step, the mesh's triangles and the obstacles
  async function recorded(options) {
    return pool[0].request({ type: 'recorded', options });
  }

  return {
    workers: pool.length,
    load,
    run,
    replay,
    recorded,
    cancel() { cancelled = true; },
    get running() { return running; },
    dispose() { cancelled = true; for (const w of pool) w.close('the fit was stopped: its workers were closed'); },
  };
}
