// The page's side of the simulator's worker (simulate/worker.js): commands, and callbacks for
// what the worker reports. load(), loadScene() and reset() resolve with { ok: true, scene } |
// { ok: false, message } | { ok: false, cancelled: true }; exportFile() with
// { ok: true, blob, filename, note } | { ok: false, message }.
import { createWorkerClient } from '../worker/client.js';

export function createSimClient({ onReady, onScene, onFrame, onFailed, onError, onProgress = () => {} }) {
  // Commands that set the playing state carry a number; the worker's frames carry the number
  // of the last one it read, so a frame posted before the page's latest command is marked stale.
  let commands = 0;
  const command = (message) => ({ ...message, command: ++commands });

  const worker = createWorkerClient(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }), {
    name: 'simulator',
    eager: true,
    onError,
    onEvent(data) {
      switch (data.type) {
        case 'ready': onReady(data.scenes); break;
        case 'frame': data.stale = data.command !== commands; onFrame(data); break;
        case 'progress': onProgress(data.done, data.total); break;
        case 'failed': onFailed(data.message); break;
      }
    },
  });
  // the worker's { ok: false, error } as { ok: false, message }; a scene goes to onScene first
  const answered = (answer) => {
    if (answer.ok && answer.scene) {
      answer.scene.stale = answer.scene.command !== commands;
      onScene(answer.scene);
    }
    return answer.ok || answer.cancelled ? answer : { ok: false, message: answer.error };
  };
  const request = (message) => worker.request(message).then(answered);

  return {
    // scenario: JSON text; steps: exact step count to advance before showing; play: run after
    load: (scenario, { steps = 0, play = true } = {}) => request(command({ type: 'load', scenario, steps, play })),
    // a built-in scene by name
    loadScene: (scene, { steps = 0, play = true } = {}) => request(command({ type: 'load', scene, steps, play })),
    // ends a share link's replay where it is: its load resolves with scene.stoppedAt
    stopReplay: () => worker.post({ type: 'stop-replay' }),
    play: () => worker.post(command({ type: 'play' })),
    // resolves with { steps, hash } once the worker has stopped and posted its last frame
    pause: () => request(command({ type: 'pause' })),
    step: () => worker.post(command({ type: 'step' })),
    reset: (play) => request(command({ type: 'reset', play })),
    setField: (name) => worker.post({ type: 'field', name }),
    exportFile: (what) => request({ type: 'export', what }),
  };
}
