// The worker side of every module worker of the page (the simulator, the fit's, Reconstruct's
// and Classify's): the WebAssembly module is loaded once, and each message from the page is
// handed to handle(message, { stage, answer }) once it is loaded, in the order the messages came (an
// async handler lets later messages in while it awaits: the simulator's replay of a share
// link reads 'stop-replay' and newer loads that way). A message with an id is answered (the
// page's side is worker/client.js):
//   { type: 'result', id, result, ms }       what handle returned (its typed arrays are
//                                             transferred: the bindings return copies)
//   { type: 'error', id, message, fatal? }    handle threw; fatal: the module stopped
//   { type: 'stage', id, stage }              stage(text): what a long request is doing now
// A handler that must act after its answer is posted (the simulator starts playing a loaded
// scene after its answer) posts it with answer(result); its return value is then not posted.
// A module that did not load: an error without an id says why, and every message is answered
// with it. A WebAssembly failure (out of memory, a trap) leaves the module's heap
// untrustworthy: with `restart` the worker answers fatal and closes (its client starts a fresh
// one for the next request); without, it answers every later message with that failure.
//
// serveMessages({
//   load: () => Promise<module>,
//   handle(message, { stage, answer }) -> answer | Promise<answer>,
//   name: 'reconstruction',               names the worker in an error's message
//   what: (message) => 'Reading the cloud', next: 'It has been restarted.'   (wasmFailure's)
//   loadError: 'the reconstruction module could not be loaded',
//   restart = false,
//   onFailure(message, fatal, data)        (optional) after handle threw, before the answer
// }) -> { fail(err, data = {}) }  the same handling for an error thrown outside a message (a tick)
import { isWasmFailure, loadFailure, wasmFailure } from './wasm_errors.js';

// the buffers of the typed arrays in `value` (nested in objects and arrays), once each
function transferables(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (Array.isArray(value)) value.forEach((v) => transferables(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => transferables(v, out));
  return out;
}

export function serveMessages({ load, handle, name, what, next, loadError, restart = false, onFailure = () => {} }) {
  let module = null;
  let stopped = null; // the message every later message is answered with
  let closed = false; // (restart) the worker closed after a failure: nothing more is done
  const post = (message, transfer = []) => self.postMessage(message, transfer);

  const ready = load().then((m) => { module = m; }, (err) => {
    stopped = loadFailure(loadError, err);
    post({ type: 'error', message: stopped });
  });

  function fail(err, data = {}) {
    const fatal = isWasmFailure(err);
    const message = fatal
      ? wasmFailure(typeof what === 'function' ? what(data) : what, err, module, next)
      : `${name}${data.type ? ` (${data.type})` : ''}: ${err?.message ?? err}`;
    onFailure(message, fatal, data);
    if (fatal && restart) {
      closed = true;
      post({ type: 'error', id: data.id, fatal: true, message });
      close();
      return;
    }
    if (fatal) stopped = message;
    if (!fatal || data.id !== undefined) post({ type: 'error', id: data.id, message });
  }

  self.onmessage = async ({ data }) => {
    await ready;
    if (closed) return;
    if (stopped) {
      post({ type: 'error', id: data.id, message: stopped });
      return;
    }
    const begin = performance.now();
    let answered = false;
    const answer = (result) => {
      answered = true;
      if (data.id !== undefined) post({ type: 'result', id: data.id, result, ms: performance.now() - begin }, [...transferables(result)]);
    };
    const stage = (text) => post({ type: 'stage', id: data.id, stage: text });
    try {
      const result = await handle(data, { stage, answer });
      if (!answered) answer(result);
    } catch (err) {
      fail(err, data);
    }
  };

  return { fail };
}
