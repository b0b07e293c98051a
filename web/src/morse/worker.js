// The Reconstruct panel's own module worker: its own WebAssembly instance, so parsing,
// cleaning and reconstructing a large cloud never blocks the simulator's worker. One job at a
// time; the page cancels a job by terminating this worker and starting a new one.
//
// messages in (see web/src/morse/client.js):
//   { id, type: 'parse', name, bytes: Uint8Array }
//   { id, type: 'clean', positions: Float64Array, options }         (cleanCloud options)
//   { id, type: 'reconstruct', positions: Float64Array, options }   (reconstructCloud options)
//   { id, type: 'scene', name }                                     a built-in scene's JSON
// messages out:
//   { type: 'ready' } | { type: 'stage', id, stage } | { type: 'result', id, result, ms }
//   { type: 'error', id?, message, fatal? }   (fatal: the module stopped; this worker has closed)
import createTela from '../wasm/tela.mjs';
import { isWasmFailure, loadFailure, wasmFailure } from '../wasm-load.js';

let tela = null;

function transferables(value, out = []) {
  if (ArrayBuffer.isView(value)) out.push(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => transferables(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, out));
  return [...new Set(out)];
}

function run(message) {
  const { id, type } = message;
  const begin = performance.now();
  let result;
  switch (type) {
    case 'parse':
      postMessage({ type: 'stage', id, stage: `parsing ${(message.bytes.length / 2 ** 20).toFixed(1)} MB` });
      result = tela.parseCloud(message.bytes, message.name ?? '');
      break;
    case 'clean':
      postMessage({ type: 'stage', id, stage: 'cleaning' });
      result = tela.cleanCloud(message.positions, message.options ?? {});
      break;
    case 'reconstruct':
      postMessage({ type: 'stage', id, stage: `reconstructing ${message.positions.length / 3} points` });
      result = tela.reconstructCloud(message.positions, message.options ?? {});
      break;
    case 'scene':
      result = { ok: true, json: tela.sceneJson(message.name) };
      break;
    default:
      result = { ok: false, error: `unknown request ${type}` };
  }
  postMessage({ type: 'result', id, result, ms: performance.now() - begin }, transferables(result));
}

createTela().then(
  (module) => {
    tela = module;
    postMessage({ type: 'ready' });
    drain(); // requests posted before the module was ready
  },
  (err) => postMessage({ type: 'error', message: loadFailure('the reconstruction module could not be loaded', err) }),
);

const verb = { parse: 'Reading the cloud', clean: 'Cleaning', reconstruct: 'The reconstruction' };
const queue = [];
self.onmessage = ({ data }) => {
  queue.push(data);
  if (!tela) return;
  drain();
};
function drain() {
  while (queue.length) {
    const message = queue.shift();
    try {
      run(message);
    } catch (err) {
      if (isWasmFailure(err)) {
        const next = 'It has been restarted. A cloud this large may need more memory than the page can give it: crop or downsample it (voxel size) first, or use the command-line tool (tela reconstruct).';
        postMessage({ type: 'error', id: message.id, fatal: true, message: wasmFailure(verb[message.type] ?? message.type, err, tela, next) });
        close(); // the heap is not to be trusted any more; the page starts a fresh worker
        return;
      }
      postMessage({ type: 'error', id: message.id, message: `${message.type} failed: ${err?.message ?? err}` });
    }
  }
}
