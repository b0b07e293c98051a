// The page's side of an analysis worker (web/src/morse/worker.js, web/src/dgli/worker.js), made
// by makeWorker() when first needed. request() resolves with the worker's result ({ ok, ... } as
// the bindings return it) or { ok: false, error }; cancel() terminates the worker (a wasm call
// cannot be interrupted; the next request starts a fresh one), settling every pending request
// with { ok: false, cancelled: true }. A worker whose module stopped (an error marked fatal:
// out of memory, a trap) has closed itself; the next request starts a fresh one too.
export function createWorkerClient(makeWorker, { onStage = () => {}, name = 'analysis' } = {}) {
  let worker = null;
  const pending = new Map();
  let nextId = 1;

  function start() {
    worker = makeWorker();
    worker.onerror = (event) => {
      event.preventDefault?.();
      failAll(`the ${name} worker failed: ${event.message || 'it could not be loaded'}`);
    };
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
        } else if (!answered) failAll(data.message);
      }
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

  return {
    request(message, transfer = []) {
      if (!worker) start();
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ ...message, id }, transfer);
      });
    },
    busy: () => pending.size > 0,
    cancel() {
      worker?.terminate();
      worker = null;
      failAll('cancelled', { cancelled: true });
    },
  };
}
