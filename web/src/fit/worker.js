// One of the Fit panel's module workers, each with its own WebAssembly instance and its own
// FitSession (mocap's bind_fit.cpp) over the same recording. The sweep is shared among the
// workers point by point (evaluatePoint: one simulation each, so the result does not depend
// on how many workers there are); the first worker then runs the Nelder-Mead refinement from
// the sweep's best point in slices, posting progress and honouring a cancel between slices.
//
// messages in:
//   { id, type: 'open', bytes: Uint8Array, options: jsonText }  -> { ok, summary } | { ok: false, error }
//   { id, type: 'point', delta, alpha }                          -> { ok, point }
//   { id, type: 'refine', settings: jsonText }                    -> progress..., then { ok, result }
//   { type: 'cancel' }                                            stops a refinement after its slice
//   { id, type: 'replay', delta, alpha }                          -> { ok, simulated, markers, triangles }
// messages out: { type: 'result', id, result } | { type: 'progress', id, done, stage }
//               | { type: 'error', id?, message }
import createTela from '../wasm/tela.mjs';

let tela = null;
let session = null;
let cancelled = false;
const queue = [];

function reply(id, result, transfer = []) {
  postMessage({ type: 'result', id, result }, transfer);
}

async function run({ id, type, ...m }) {
  if (type === 'open') {
    session?.delete();
    const text = new TextDecoder().decode(m.bytes);
    session = new tela.FitSession(text, m.options || '');
    if (!session.ok()) return reply(id, { ok: false, error: session.error() });
    return reply(id, { ok: true, summary: JSON.parse(session.summary()) });
  }
  if (!session?.ok()) return reply(id, { ok: false, error: 'no recording' });
  if (type === 'point') {
    return reply(id, { ok: true, point: JSON.parse(session.evaluatePoint(m.delta, m.alpha)) });
  }
  if (type === 'refine') {
    cancelled = false;
    session.start(m.settings);
    for (;;) {
      const finished = session.advance(1);
      postMessage({ type: 'progress', id, done: session.progress(), stage: session.stage() });
      if (finished) break;
      // let a cancel message in between slices
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (cancelled) session.cancel();
    }
    return reply(id, { ok: true, result: JSON.parse(session.result()) });
  }
  if (type === 'replay') {
    const simulated = session.simulate(m.delta, m.alpha);
    const markers = session.markers();
    const triangles = session.triangles();
    return reply(id, { ok: true, simulated, markers, triangles }, [simulated.buffer, markers.buffer, triangles.buffer]);
  }
  return reply(id, { ok: false, error: `unknown request ${type}` });
}

let running = false;
async function drain() {
  if (running) return;
  running = true;
  while (queue.length) {
    const message = queue.shift();
    try {
      await run(message);
    } catch (err) {
      postMessage({ type: 'error', id: message.id, message: `${message.type} failed: ${err?.message ?? err}` });
    }
  }
  running = false;
}

self.onmessage = ({ data }) => {
  if (data.type === 'cancel') {
    cancelled = true;
    return;
  }
  queue.push(data);
  if (tela) drain();
};

createTela().then(
  (module) => {
    tela = module;
    drain();
  },
  (err) => postMessage({ type: 'error', message: `the fitting module could not be loaded: ${err?.message ?? err}` }),
);
