// The Fit panel's replay: its 3D view (fit/view.js, over the simulator's while the tab is
// shown and there is something to draw) shows the recorded markers as soon as a recording is
// read, and the simulated cloth at the fitted parameters once a fit is done, at the step of
// the time line's slider (or playing through it).
import { markerReplayCsv } from '../io/export.js';
import { byId, el, fmt } from '../ui/dom.js';
import { createReplayView } from './view.js';

// ui: the panel's elements (its ui.exportReplay is enabled once there is a replay to export);
// mirror: window.__tela.fit; isCurrent(client): whether that fit client is still the panel's
export function createReplay(ui, app, { mirror, isCurrent, showError }) {
  let active = false;  // the Fit tab is shown
  let view3d = null;   // made when a recording is first read (a WebGL context is not free at start-up)
  let noWebGl = false;
  let steps = 0;       // steps of the time line (0: nothing to replay)
  let timer = 0;
  let summary = null;  // the recording's, as read
  let triangles = null;
  let recordedMarkers = null; // the recording in grid order on the simulation's steps
  let simulated = null;       // the replay at the fitted parameters

  ui.slider = el('input', { id: 'fit-replay-step', type: 'range', min: 0, max: 0, value: 0 });
  ui.replayPlay = el('button', { type: 'button', id: 'fit-replay-play', textContent: 'Play' });
  ui.replayTime = el('span', { className: 'unit', textContent: '' });
  ui.replayHint = el('p', { className: 'hint', id: 'fit-replay-hint' });
  ui.replayBox = el('div', { id: 'fit-replay', hidden: true },
    el('h2', { textContent: 'Replay' }), ui.replayHint,
    el('div', { className: 'transport' }, ui.replayPlay, ui.slider, ui.replayTime));

  // the 3D view over the simulator's while the tab is shown and there is something to draw
  function showView() {
    const shown = Boolean(view3d?.show(active));
    byId('viewport')?.classList.toggle('overlay-active', shown);
  }
  function replayView() {
    if (view3d || noWebGl) return view3d;
    try {
      view3d = createReplayView(byId('viewport'));
    } catch (err) {
      noWebGl = true;
      app.showError(`WebGL is not available, so the recording cannot be drawn: ${err.message}`);
      return null;
    }
    // for tests, not enumerable: copies of window.__tela stay plain data
    Object.defineProperty(window.__tela, 'fitView', { value: view3d, configurable: true });
    return view3d;
  }

  function showStep(step) {
    if (!steps) return;
    view3d.showStep(step);
    ui.replayTime.textContent = `${(step * summary.mesh.dt).toFixed(2)} s`;
  }
  function stop() {
    clearInterval(timer);
    timer = 0;
    ui.replayPlay.textContent = 'Play';
  }
  ui.slider.addEventListener('input', () => { stop(); showStep(Number(ui.slider.value)); });
  ui.replayPlay.addEventListener('click', () => {
    if (timer) return stop();
    if (!steps) return;
    ui.replayPlay.textContent = 'Pause';
    const stride = Math.max(1, Math.round(1 / 30 / summary.mesh.dt));
    timer = setInterval(() => {
      const next = Number(ui.slider.value) + stride;
      ui.slider.value = next > steps ? 0 : next;
      showStep(Number(ui.slider.value));
    }, 1000 / 30);
  });

  return {
    section: ui.replayBox,
    stop,
    setActive(on) {
      active = on;
      showView();
    },
    // the recorded markers in the 3D view, before any fit (client: the fit client that read
    // the recording with `options`, the load's; read: its summary)
    async showRecorded(client, options, read) {
      steps = 0;
      ui.replayBox.hidden = true;
      mirror.replayDrawn = false;
      if (!replayView()) return;
      const answer = await client.recorded(options);
      if (!isCurrent(client)) return;
      if (!answer.ok) return showError(`The recording could not be drawn: ${answer.error}`);
      summary = read;
      triangles = answer.triangles;
      recordedMarkers = answer.markers;
      simulated = null;
      ui.exportReplay.disabled = true;
      const { cols, rows, order, held } = summary.grid;
      steps = view3d.setRecording({ markers: answer.markers, cols, rows, dt: summary.mesh.dt,
        held: held.map((name) => order.indexOf(name)), obstacles: answer.obstacles });
      showView();
      ui.slider.max = steps;
      ui.slider.value = 0;
      mirror.replaySteps = steps;
      ui.replayHint.textContent = 'The recorded markers in the view (the held corners larger), on the simulation’s time steps; after a fit, also the simulated cloth and each marker’s distance to its node.';
      ui.replayBox.hidden = false;
      showStep(0);
    },
    // the simulated cloth at the fit's parameters beside the recorded markers
    async showFitted(client, result) {
      if (!result || !view3d || !steps || !Number.isFinite(result.train_error_cm ?? NaN)) return;
      const answer = await client.replay(result.delta_over_rho, result.alpha_over_rho, result.mu);
      if (!isCurrent(client)) return;
      if (!answer.ok) return showError(`The replay could not be simulated: ${answer.error}`);
      simulated = answer.simulated;
      ui.exportReplay.disabled = false;
      view3d.setReplay({ simulated: answer.simulated, triangles, markerNodes: summary.mesh.marker_nodes, nodes: summary.mesh.nx * summary.mesh.ny });
      ui.replayHint.textContent = `The simulated cloth at the fitted δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}${result.mu !== null && result.mu !== undefined ? `, μ = ${fmt(result.mu)}` : ''} and the recorded markers, each coloured by its distance to its node (lines join them).`;
      showStep(Number(ui.slider.value));
      mirror.replayDrawn = true;
    },
    // nothing left of the last recording's view or replay
    clear() {
      view3d?.clear();
      showView();
      steps = 0;
      ui.replayBox.hidden = true;
    },
    // per step and marker: the recorded and simulated positions and their distance (CSV
    // chunks), or null before a replay
    csv() {
      if (!simulated || !recordedMarkers) return null;
      return markerReplayCsv({ markers: recordedMarkers, simulated, markerNodes: summary.mesh.marker_nodes,
        nodes: summary.mesh.nx * summary.mesh.ny, names: summary.grid.order, dt: summary.mesh.dt });
    },
  };
}
