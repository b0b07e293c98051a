// The page's side of a fit shared by several workers (web/src/fit/fit-worker.js, each with
// its own WebAssembly instance). The sweep's points are handed out one at a time to whichever
// worker is idle and stored by index; the start point and the collected sweep then go to one
// worker, which refines (Nelder-Mead) and finishes. Because every point's value depends only
// on its index and the bookkeeping (wasm/bindings/bind_fit_page.cpp) walks the points in
// index order, the result does not depend on the number of workers or on timing.
//
// const fit = createFitClient({ workers: 3 });
// await fit.load(text, options) -> { ok, summary | error }   (every worker parses the recording)
// await fit.run(settings, { onProgress(done, total, stage, best) }) -> { ok, result | error }
// fit.cancel()   the run resolves with the best parameters so far (result.cancelled = true)
// await fit.replay(deltaOverRho, alphaOverRho) -> { simulated, markers, triangles }
// fit.dispose()
// one per core (the main thread idles during a fit), at most 4
export function defaultWorkerCount() {
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
}

function startWorker() {
  const worker = new Worker(new URL('./fit-worker.js', import.meta.url), { type: 'module' });
  const pending = new Map();
  let nextId = 1;
  let failure = null;
  const fail = (message) => {
    failure = message;
    for (const resolve of pending.values()) resolve({ ok: false, error: message });
    pending.clear();
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    fail(`a fitting worker failed: ${event.message || 'it could not be loaded'}`);
  };
  worker.onmessage = ({ data }) => {
    if (data.type === 'ready') return;
    if (data.type === 'fatal') return fail(data.error);
    const resolve = pending.get(data.id);
    if (resolve) {
      pending.delete(data.id);
      resolve(data);
    }
  };
  const request = (message) => new Promise((resolve) => {
    if (failure) return resolve({ ok: false, error: failure });
    const id = nextId++;
    pending.set(id, resolve);
    worker.postMessage({ ...message, id });
  });
  return { request, terminate: () => { worker.terminate(); fail('the fit was stopped: its workers were closed'); } };
}

export function createFitClient({ workers = defaultWorkerCount() } = {}) {
  const pool = Array.from({ length: Math.max(1, workers) }, startWorker);
  let cancelled = false;
  let running = false;

  async function load(text, options = {}) {
    const answers = await Promise.all(pool.map((w) => w.request({ type: 'load', text, options })));
    const bad = answers.find((a) => !a.ok);
    return bad ? { ok: false, error: bad.error } : { ok: true, summary: answers[0].summary };
  }

  async function run(settings, { onProgress = () => {} } = {}) {
    if (running) return { ok: false, error: 'a fit is already running' };
    running = true;
    cancelled = false;
    try {
      const plans = await Promise.all(pool.map((w) => w.request({ type: 'plan', settings })));
      const badPlan = plans.find((p) => !p.ok);
      if (badPlan) return { ok: false, error: badPlan.error };
      const plan = plans[0].plan;
      const total = 1 + plan.points + plan.refine_evaluations + 1;
      let done = 0;
      let best = null; // [d, a, error] shown while the sweep runs (display only)
      const note = (e) => {
        if (e.ok && e.mean_error_cm !== null && (!best || e.mean_error_cm < best[2])) best = [e.delta_over_rho, e.alpha_over_rho, e.mean_error_cm];
      };
      onProgress(0, total, 'sweep', best, plan);

      // the start point (index -1) and the sweep (0 .. points - 1), one point per request
      const points = new Array(plan.points).fill(null);
      let start = null;
      let next = -1;
      let failure = null;
      const collect = async (worker) => {
        while (!cancelled && !failure && next < plan.points) {
          const index = next++;
          const answer = await worker.request({ type: 'evaluate', first: index, count: 1 });
          if (!answer.ok) { failure = answer.error; return; }
          for (const e of answer.points) {
            if (e.index < 0) start = e;
            else points[e.index] = e;
            note(e);
          }
          done++;
          if (!cancelled) onProgress(done, total, 'sweep', best, plan, points);
        }
      };
      await Promise.all(pool.map(collect));
      if (failure) return { ok: false, error: failure };

      const lead = pool[0];
      const begun = await lead.request({ type: 'refine-begin', points: { start, sweep: points } });
      if (!begun.ok) return { ok: false, error: begun.error };
      while (!cancelled) {
        const step = await lead.request({ type: 'refine', budget: 1 });
        if (!step.ok) return { ok: false, error: step.error };
        const s = step.state;
        if (s.best_error_cm !== null) best = [s.best[0], s.best[1], s.best_error_cm];
        if (step.done) break;
        onProgress(1 + plan.points + s.refine_evaluations, total, 'refine', best, plan, points);
      }
      if (!cancelled) onProgress(total - 1, total, 'final evaluation', best, plan, points);
      const finished = await lead.request({ type: 'finish', cancelled });
      if (!finished.ok) return { ok: false, error: finished.error };
      onProgress(total, total, 'done', best, plan, points);
      // points: the sweep as evaluated here (null = never evaluated, after a cancel)
      return { ok: true, result: finished.result, plan, points };
    } finally {
      running = false;
    }
  }

  async function replay(delta, alpha) {
    const answer = await pool[0].request({ type: 'replay', delta, alpha });
    return answer;
  }

  return {
    workers: pool.length,
    load,
    run,
    replay,
    cancel() { cancelled = true; },
    get running() { return running; },
    dispose() { cancelled = true; for (const w of pool) w.terminate(); },
  };
}
