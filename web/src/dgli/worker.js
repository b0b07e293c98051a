// The Classify panel's module worker: its own WebAssembly instance holding the dGLI classifier
// (bind_dgli.cpp) and the faces of the current scene, so classifying frames never takes
// time from the simulator's worker.
//
// messages in:  { id, type: 'database', json } | { id, type: 'scene', scenario: jsonText }
//               | { id, type: 'classify', positions: Float32Array | Float64Array, k }
//               | { id, type: 'classifyBoundary', points: Float64Array (closed polyline xyz), k }
//               | { id, type: 'classifyObj', text: OBJ file text, k }
// messages out: { type: 'result', id, result, ms } | { type: 'error', id?, message }
import createTela from '../wasm/tela.mjs';
import { isWasmFailure, loadFailure, wasmFailure } from '../wasm-load.js';

let tela = null;
let classifier = null;
let faces = null;
const queue = [];

// what can be classified: the current scene's frame, a closed polyline, an OBJ cloth state
const CLASSIFY = {
  classify: (m, k) => (faces ? classifier.classifyMesh(m.positions, faces, k) : { ok: false, error: 'no scene' }),
  classifyBoundary: (m, k) => classifier.classifyBoundary(m.points, k),
  classifyObj: (m, k) => classifier.classifyObj(m.text, k),
};

function run({ id, type, ...message }) {
  const begin = performance.now();
  let result;
  if (type === 'database') {
    // a database that does not parse leaves the one in use in place
    const next = new tela.DgliClassifier(message.json);
    if (next.ok()) {
      classifier?.delete();
      classifier = next;
      result = { ok: true };
    } else {
      result = { ok: false, error: `the dGLI database is not valid: ${next.error()}` };
      next.delete();
    }
  } else if (type === 'scene') {
    const sim = tela.createSimulation(message.scenario);
    if (sim.ok()) {
      faces = sim.faces();
      result = { ok: true, faces: faces.length / 4 };
    } else {
      faces = null;
      result = { ok: false, error: sim.error() };
    }
    sim.delete();
  } else if (type in CLASSIFY) {
    const k = message.k ?? 1;
    result = classifier ? CLASSIFY[type](message, k) : { ok: false, error: 'no dGLI database loaded' };
    result.segmentCount = result.ok ? result.segments.length / 6 : 0;
    result.k = k;
  } else {
    result = { ok: false, error: `unknown request ${type}` };
  }
  const transfer = [];
  for (const v of Object.values(result)) if (ArrayBuffer.isView(v)) transfer.push(v.buffer);
  postMessage({ type: 'result', id, result, ms: performance.now() - begin }, transfer);
}

function drain() {
  while (queue.length) {
    const message = queue.shift();
    try {
      run(message);
    } catch (err) {
      if (isWasmFailure(err)) {
        postMessage({ type: 'error', id: message.id, fatal: true, message: wasmFailure(`dGLI ${message.type}`, err, tela) });
        close(); // the heap is not to be trusted any more; the page starts a fresh worker
        return;
      }
      postMessage({ type: 'error', id: message.id, message: `${message.type} failed: ${err?.message ?? err}` });
    }
  }
}

self.onmessage = ({ data }) => {
  queue.push(data);
  if (tela) drain();
};

createTela().then(
  (module) => {
    tela = module;
    drain();
  },
  (err) => postMessage({ type: 'error', message: loadFailure('the dGLI module could not be loaded', err) }),
);
