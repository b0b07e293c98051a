// The page's side of a module worker (its worker side: worker/loop.js), made by makeWorker()
// when first needed (at once with `eager`). request() resolves with the worker's answer
// ({ ok, ... } as the handler returns it, plus ms) or { ok: false, error }; post() sends a
// message that is not answered. cancel() terminates the worker (a wasm call cannot be
// interrupted; the next request starts a fresh one), settling every pending request with
// { ok: false, cancelled: true }; close(message) terminates it for good, settling every pending
// and later request with { ok: false, error: message }. A worker whose module stopped (an
// error marked fatal: out of memory, a trap) has closed itself; the next request starts a
// fresh one too.
//   onStage(stage)    what a long request is doing now
//   onEvent(data)     a message the worker posts on its own ({ type: 'frame', ... })
//   onError(message)  an error no request is waiting for (the worker did not load, failed)
export function createWorkerClient(makeWorker, { name = 'analysis', eager = false, onStage = () => {}, onEvent = () => {}, onError = () => {} } = {}) {
  let worker = null;
  let closed = null; // close()'s message
  const pending = new Map();
  let nextId = 1;

  function start() {
    worker = makeWorker();
    worker.onerror = (event) => {
      event.preventDefault?.();
      const message = `the ${name} worker failed: ${event.message || 'it could not be loaded'}`;
      failAll(message);
      onError(message);
    };
    worker.onmessageerror = () => onError(`the ${name} worker sent an unreadable message`);
    worker.onmessage = ({ data }) => {
      if (data.type === 'stage') onStage(data.stage);
      else if (data.type === 'result') settle(data.id, { ...data.result, ms: data.ms });
      else if (data.type === 'error') {
        const answered = data.id && pending.has(data.id);
        if (answered) settle(data.id, { ok: false, error: data.message });
        if (data.fatal) {
          // the worker's module stopped and the worker closed: the next request starts a fresh one
          worker = null;
          failAll(answered ? `the ${name} worker was restarted after an earlier failure; try again` : data.message);
        } else if (!answered) {
          failAll(data.message);
          onError(data.message);
        }
      } else onEvent(data);
    };
  }
  function settle(id, value) {
    const resolve = pending.get(id);
    if (resolve) {
      pending.delete(id);
      resolve(value);
    }
  }
  function failAll(error, extra = {}) {
    for (const id of [...pending.keys()]) settle(id, { ok: false, error, ...extra });
  }
  if (eager) start();

  return {
    request(message, transfer = []) {
      if (closed) return Promise.resolve({ ok: false, error: closed });
      if (!worker) start();
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ ...message, id }, transfer);
      });
    },
    post(message) {
      if (closed) return;
      if (!worker) start();
      worker.postMessage(message);
    },
    busy: () => pending.size > 0,
    cancel() {
      worker?.terminate();
      worker = null;
      failAll('cancelled', { cancelled: true });
    },
    close(message) {
      closed = message;
      worker?.terminate();
      worker = null;
      failAll(message);
    },
  };
}
