// Owns the WebAssembly simulator. Steps the scene in real time and posts each frame's
// positions (a transferred Float32Array copy) to the page.
//
// messages in:  { type: 'start', scene }
// messages out: { type: 'scene', name, dt, triangles, positions }
//               { type: 'frame', positions, time, steps, hash, iterations, status }
//               { type: 'error', message }
import createTela from './wasm/tela.mjs'; // finds tela.wasm via new URL('tela.wasm', import.meta.url)

const FRAME_MS = 1000 / 60; // how often a frame is posted
const BUDGET_MS = 12;       // stepping time per frame; beyond it the simulation falls behind

let tela = null;
let sim = null;
let timer = 0;

function fail(message) {
  clearTimeout(timer);
  self.postMessage({ type: 'error', message });
}

async function start(sceneName) {
  tela ??= await createTela();
  const json = tela.sceneJson(sceneName);
  if (!json) {
    fail(`unknown scene "${sceneName}"; built-in scenes: ${tela.sceneNames().join(', ')}`);
    return;
  }
  sim?.delete();
  sim = tela.createSimulation(json);
  if (!sim.ok()) {
    fail(`scene "${sceneName}": ${sim.error()}`);
    return;
  }
  const dt = JSON.parse(json).solver?.dt ?? 0.01;
  const positions = sim.positions();
  const triangles = sim.triangles();
  self.postMessage({ type: 'scene', name: sceneName, dt, triangles, positions },
                   [triangles.buffer, positions.buffer]);
  run(dt);
}

// Real time: each tick owes the wall time elapsed since the last one. It steps as many dt
// as it owes and the budget allows; what does not fit is dropped, so a slow machine shows
// slow motion instead of freezing.
function run(dt) {
  let last = performance.now();
  let owed = 0; // simulated seconds not yet stepped
  let status = 'none';

  const tick = () => {
    const begin = performance.now();
    owed += (begin - last) / 1000;
    last = begin;
    while (owed >= dt && performance.now() - begin < BUDGET_MS) {
      status = sim.step(1);
      owed -= dt;
      if (sim.failed()) {
        fail(`simulation failed at t = ${sim.time().toFixed(3)} s: ${sim.failureMessage()}`);
        return;
      }
    }
    if (owed >= dt) owed = 0;

    const positions = sim.positions();
    const summary = JSON.parse(sim.summary());
    self.postMessage({
      type: 'frame', positions, status,
      time: sim.time(), steps: sim.steps(), hash: sim.stateHash(),
      iterations: summary.mean_iterations,
    }, [positions.buffer]);
    timer = setTimeout(tick, Math.max(0, FRAME_MS - (performance.now() - begin)));
  };
  clearTimeout(timer);
  timer = setTimeout(tick, 0);
}

self.onmessage = ({ data }) => {
  if (data.type === 'start') {
    start(data.scene).catch((err) => fail(`could not start the simulator: ${err?.message ?? err}`));
  }
};
