// The page: starts the simulator worker, draws what it posts, shows a small readout.
// window.__tela mirrors the worker's reports for tests: { ready, scene, time, steps, hash, error }.
import { createView } from './render/view.js';

const DEFAULT_SCENE = 'hang-7x9';
const sceneName = new URLSearchParams(location.search).get('scene') || DEFAULT_SCENE;

const $ = (id) => document.getElementById(id);
const tela = (window.__tela = { ready: false, scene: sceneName, time: 0, steps: 0, hash: '', error: null });

function showError(message) {
  tela.error = message;
  $('error').textContent = message;
  $('error').hidden = false;
  $('status').hidden = true;
}

window.addEventListener('error', (event) => showError(`page error: ${event.message}`));
window.addEventListener('unhandledrejection', (event) =>
  showError(`page error: ${event.reason?.message ?? event.reason}`));

let view;
try {
  view = createView($('view'));
} catch (err) {
  showError(`WebGL is not available: ${err.message}`);
}

$('scene').textContent = sceneName;

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
worker.onerror = (event) => showError(`simulator worker failed: ${event.message || 'could not load'}`);
worker.onmessageerror = () => showError('simulator worker sent an unreadable message');
worker.onmessage = ({ data }) => {
  switch (data.type) {
    case 'scene':
      view?.setCloth(data.triangles, data.positions);
      tela.ready = true;
      $('status').textContent = `running at real time (dt = ${data.dt} s)`;
      break;
    case 'frame':
      view?.update(data.positions);
      tela.time = data.time;
      tela.steps = data.steps;
      tela.hash = data.hash;
      $('time').textContent = `${data.time.toFixed(2)} s`;
      $('iterations').textContent = Number.isFinite(data.iterations)
        ? `${data.iterations.toFixed(1)} per step` : '–';
      $('hash').textContent = data.hash;
      break;
    case 'error':
      showError(data.message);
      break;
  }
};
worker.postMessage({ type: 'start', scene: sceneName });

function animate() {
  view?.render();
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);
