// One fitting worker: its own WebAssembly instance holding a FitPageJob
// (wasm/bindings/bind_fit.cpp) for the recording. Several of these share a fit: the
// lead worker's job asks for points and is told their evaluations, and the page
// (fit/client.js) hands the points to whichever worker is idle. The message loop is
// worker/loop.js's: every request is answered with its id.
//
// requests:
//   { type: 'load', id, bytes, options }       the recording file's Uint8Array (any format, C3D
//                                              included): parse + build the problem -> { summary } or
//                                              { error, recording } (recording: what was read, or null)
//   { type: 'plan', id, settings }             start a fit -> { plan }
//   { type: 'ask', id, max }                   (lead) -> { next: { stage, first, points } }
//   { type: 'evaluate', id, points }           -> { evaluations } (same order)
//   { type: 'tell', id, values }               (lead) evaluations or null, in the order asked -> { state }
//   { type: 'finish', id, cancelled }          (lead) -> { result } (fit_result_json)
//   { type: 'recorded', id, options }          -> { markers, triangles, obstacles } what the 3D view
//                                              shows before a fit (options: the load's, for the obstacles)
//   { type: 'replay', id, delta, alpha, mu }   -> { simulated } (transferred)
// answers: { ok: true, ...answer } or { ok: false, error }
import createTela from '../wasm/tela.mjs';
import { serveMessages } from '../worker/loop.js';

let tela = null;
let job = null;

// the obstacles a contact fit uses (a built-in scene's or the Simulate scenario's, as in the
// load options) as ObstacleView shapes and their poses at t = 0; null without obstacles
function obstacleShapes(options) {
  const scenario = options.scenario ?? (options.scene ? tela.sceneJson(options.scene) : '');
  if (!scenario) return null;
  const view = tela.createObstacleView(scenario);
  try {
    return view.ok() && view.count() ? { shapes: view.shapes(), poses: view.poses(0) } : null;
  } finally {
    view.delete();
  }
}

function handle(data) {
  if (data.type !== 'load' && !job) return { ok: false, error: 'no recording loaded' };
  switch (data.type) {
    case 'load': {
      job?.delete();
      job = new tela.FitPageJob(data.bytes, JSON.stringify(data.options ?? {}));
      if (!job.ok()) {
        const error = job.error();
        const recording = JSON.parse(job.recordingSummary());
        job.delete();
        job = null;
        return { ok: false, error, recording };
      }
      return { ok: true, summary: JSON.parse(job.summary()) };
    }
    case 'plan': {
      // settings the core cannot use come back as "error: <key>: ..." (no fit is planned)
      const plan = job.plan(JSON.stringify(data.settings ?? {}));
      return plan.startsWith('error: ') ? { ok: false, error: plan.slice(7), settings: true } : { ok: true, plan: JSON.parse(plan) };
    }
    case 'ask':
      return { ok: true, next: JSON.parse(job.ask(data.max ?? 1)) };
    case 'evaluate':
      return { ok: true, evaluations: JSON.parse(job.evaluate(JSON.stringify(data.points ?? []))) };
    case 'tell': {
      const state = job.tell(JSON.stringify(data.values ?? []));
      return state.startsWith('error: ') ? { ok: false, error: state.slice(7) } : { ok: true, state: JSON.parse(state) };
    }
    case 'finish':
      return { ok: true, result: JSON.parse(job.finish(!!data.cancelled)) };
    case 'recorded':
      return { ok: true, markers: job.markers(), triangles: job.triangles(), obstacles: obstacleShapes(data.options ?? {}) };
    case 'replay':
      return { ok: true, simulated: job.simulate(data.delta, data.alpha, data.mu ?? NaN) };
    default:
      return { ok: false, error: `unknown message ${data.type}` };
  }
}

serveMessages({
  load: async () => (tela = await createTela()),
  handle,
  name: 'fitting worker',
  what: 'A fitting worker',
  next: 'Reload the page to start fresh ones.',
  loadError: 'the WebAssembly module did not load',
});
