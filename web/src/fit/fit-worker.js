// One fitting worker: its own WebAssembly instance holding a FitPageJob
// (wasm/bindings/bind_fit.cpp) for the recording. Several of these share a fit: the
// lead worker's job asks for points and is told their evaluations, and the page
// (web/src/fit/client.js) hands the points to whichever worker is idle. Every message is
// answered with its id.
//
// messages in:
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
// messages out: { type: 'ready' } once, { id, ok, ...answer } or { id, ok: false, error }
import createTela from '../wasm/tela.mjs';
import { isWasmFailure, loadFailure, wasmFailure } from '../wasm-load.js';

let tela = null;
let job = null;
let stopped = null; // the message of a module failure: nothing runs after it

const ready = createTela().then((module) => {
  tela = module;
  self.postMessage({ type: 'ready' });
}, (err) => {
  self.postMessage({ type: 'fatal', error: loadFailure('the WebAssembly module did not load', err) });
});

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

function answer(data) {
  const { id } = data;
  switch (data.type) {
    case 'load': {
      job?.delete();
      job = new tela.FitPageJob(data.bytes, JSON.stringify(data.options ?? {}));
      if (!job.ok()) {
        const error = job.error();
        const recording = JSON.parse(job.recordingSummary());
        job.delete();
        job = null;
        return { id, ok: false, error, recording };
      }
      return { id, ok: true, summary: JSON.parse(job.summary()) };
    }
    case 'plan': {
      // settings the core cannot use come back as "error: <key>: ..." (no fit is planned)
      const plan = job.plan(JSON.stringify(data.settings ?? {}));
      return plan.startsWith('error: ') ? { id, ok: false, error: plan.slice(7), settings: true } : { id, ok: true, plan: JSON.parse(plan) };
    }
    case 'ask':
      return { id, ok: true, next: JSON.parse(job.ask(data.max ?? 1)) };
    case 'evaluate':
      return { id, ok: true, evaluations: JSON.parse(job.evaluate(JSON.stringify(data.points ?? []))) };
    case 'tell': {
      const state = job.tell(JSON.stringify(data.values ?? []));
      return state.startsWith('error: ') ? { id, ok: false, error: state.slice(7) } : { id, ok: true, state: JSON.parse(state) };
    }
    case 'finish':
      return { id, ok: true, result: JSON.parse(job.finish(!!data.cancelled)) };
    case 'recorded': {
      const markers = job.markers();
      const triangles = job.triangles();
      return { id, ok: true, markers, triangles, obstacles: obstacleShapes(data.options ?? {}), transfer: [markers.buffer, triangles.buffer] };
    }
    case 'replay': {
      const simulated = job.simulate(data.delta, data.alpha, data.mu ?? NaN);
      return { id, ok: true, simulated, transfer: [simulated.buffer] };
    }
    default:
      return { id, ok: false, error: `unknown message ${data.type}` };
  }
}

self.onmessage = async ({ data }) => {
  await ready;
  if (stopped) return self.postMessage({ id: data.id, ok: false, error: stopped });
  if (!tela) return self.postMessage({ id: data.id, ok: false, error: 'the WebAssembly module is not loaded' });
  if (data.type !== 'load' && !job) return self.postMessage({ id: data.id, ok: false, error: 'no recording loaded' });
  let out;
  try {
    out = answer(data);
  } catch (err) {
    // a WebAssembly failure (out of memory, a trap) leaves the heap untrustworthy: this worker stops
    if (isWasmFailure(err)) stopped = wasmFailure('A fitting worker', err, tela, 'Reload the page to start fresh ones.');
    out = { id: data.id, ok: false, error: stopped ?? `the fitting worker failed: ${err?.message ?? err}` };
  }
  const transfer = out.transfer ?? [];
  delete out.transfer;
  self.postMessage(out, transfer);
};
