// The page's side of the simulator worker (web/src/worker.js): commands, and callbacks for
// what the worker reports. load() and exportFile() resolve with the worker's answer.
export function createSimClient({ onReady, onScene, onFrame, onFailed, onError, onProgress = () => {} }) {
  const worker = new Worker(new URL('../worker.js', import.meta.url), { type: 'module' });
  const pending = new Map();
  let nextId = 1;
  // Commands that set the playing state carry a number; the worker's frames carry the number
  // of the last one it read, so a frame posted before the page's latest command is marked stale.
  let commands = 0;
  const command = (message) => ({ ...message, command: ++commands });

  const request = (message) => new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    worker.postMessage({ ...message, id });
  });
  const settle = (id, value) => {
    const resolve = pending.get(id);
    if (resolve) {
      pending.delete(id);
      resolve(value);
    }
  };

  worker.onerror = (event) => {
    event.preventDefault?.();
    onError(`the simulator worker failed: ${event.message || 'it could not be loaded'}`);
  };
  worker.onmessageerror = () => onError('the simulator worker sent an unreadable message');
  worker.onmessage = ({ data }) => {
    switch (data.type) {
      case 'ready': onReady(data.scenes); break;
      case 'scene': data.stale = data.command !== commands; onScene(data); settle(data.id, { ok: true, scene: data }); break;
      case 'paused': settle(data.id, data); break;
      case 'cancelled': settle(data.id, { ok: false, cancelled: true }); break;
      case 'progress': onProgress(data.done, data.total); break;
      case 'invalid': settle(data.id, { ok: false, message: data.message }); break;
      case 'frame': data.stale = data.command !== commands; onFrame(data); break;
      case 'failed': onFailed(data.message); break;
      case 'exported': settle(data.id, { ok: true, ...data }); break;
      case 'error':
        if (data.id && pending.has(data.id)) settle(data.id, { ok: false, message: data.message });
        else onError(data.message);
        break;
    }
  };

  return {
    // scenario: JSON text; steps: exact step count to advance before showing; play: run after
    load: (scenario, { steps = 0, play = true } = {}) => request(command({ type: 'load', scenario, steps, play })),
    // a built-in scene by name
    loadScene: (scene, { steps = 0, play = true } = {}) => request(command({ type: 'load', scene, steps, play })),
    // ends a share link's replay where it is: its load resolves with scene.stoppedAt
    stopReplay: () => worker.postMessage({ type: 'stop-replay' }),
    play: () => worker.postMessage(command({ type: 'play' })),
    // resolves with { steps, hash } once the worker has stopped and posted its last frame
    pause: () => request(command({ type: 'pause' })),
    step: () => worker.postMessage(command({ type: 'step' })),
    reset: (play) => request(command({ type: 'reset', play })),
    setField: (name) => worker.postMessage({ type: 'field', name }),
    exportFile: (what) => request({ type: 'export', what }),
  };
}
