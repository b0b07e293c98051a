// The page: the simulator worker, the three.js view, the panels, share links, file drop and
// the keyboard. window.__tela mirrors what the page shows, for tests and the benchmark:
// { ready, scene, time, steps, hash, playing, error, notice, frames, ... }.
import { createView } from './render/view.js';
import { standFor } from './render/stand.js';
import { createSimClient } from './sim/client.js';
import { positionBounds } from './sim/bounds.js';
import { download } from './io/download.js';
import { registerPanel, panels } from './panels/index.js';
import { simulatePanel } from './panels/simulate.js';
import { fitPanel } from './panels/fit.js';
import { reconstructPanel } from './panels/reconstruct.js';
import { classifyPanel } from './panels/classify.js';
import { installFileInput } from './io/drop.js';
import { decodeShareHash, encodeShareHash } from './share/link.js';
import { installKeyboard } from './ui/keyboard.js';
import { diverging, gradient, niceCeiling, viridis } from './render/colormap.js';

const DEFAULT_SCENE = 'hang-7x9';
const $ = (id) => document.getElementById(id);

const tela = (window.__tela = {
  ready: false, scene: '', time: 0, steps: 0, hash: '', playing: false,
  error: null, notice: null, frames: 0, obstacles: [], contacts: 0, renders: 0, firstFrameMs: null, rtf: null, steppingMs: 0, busyMs: 0, pausedAt: null, firstStepFrameMs: null,
});

// for tests: what the view draws now (functions, so apart from the plain data in __tela)
window.__telaView = { obstacleCenters: () => view?.obstacleCenters() ?? [] };

// ---- messages ------------------------------------------------------------------------------
function showError(message) {
  tela.error = message;
  $('error').textContent = message;
  $('error').hidden = false;
}
function clearError() {
  tela.error = null;
  $('error').hidden = true;
}
function showNotice(message) {
  tela.notice = message;
  $('notice').textContent = message;
  $('notice').hidden = !message;
}
// The status line under the view belongs to a panel: each panel's latest line is kept and the
// active panel's is shown; a panel without one (Fit before a recording, Classify on the
// simulated frame) shows the view of the simulation, and with it the simulator's line.
const statuses = {};
function setStatus(message, panel = 'simulate') {
  statuses[panel] = message;
  showStatus();
}
function showStatus() {
  $('status').textContent = statuses[app.state.panel] ?? statuses.simulate ?? '';
}

window.addEventListener('error', (event) => showError(`page error: ${event.message}`));
window.addEventListener('unhandledrejection', (event) =>
  showError(`page error: ${event.reason?.message ?? event.reason}`));

// ---- view ----------------------------------------------------------------------------------
let view = null;
try {
  view = createView($('view'));
} catch (err) {
  showError(`WebGL is not available, so the cloth cannot be drawn: ${err.message}`);
}

// per-element fields the worker computes (web/src/worker.js fieldValues)
const FIELDS = {
  none: null,
  area: { title: 'area error |ΔA|/A₀', unit: '%', floor: 0.05 },
  'area-signed': { title: 'area change ΔA/A₀', unit: '%', floor: 0.05, signed: true },
  strain: { title: 'edge strain |Δl|/l₀', unit: '%', floor: 0.05 },
};
const GRADIENTS = { viridis: gradient(viridis), diverging: gradient(diverging) };

// ---- app state shared with the panels ------------------------------------------------------
const listeners = { scene: [], frame: [], playing: [], scenes: [] };
const app = {
  state: {
    scenes: [], scenario: null, scenarioText: '', name: '', steps: 0, time: 0, hash: '',
    playing: false, field: 'none', wireframe: false, pins: true, dt: 0.01, nodes: 0,
    obstacles: true, contacts: false, panel: 'simulate',
  },
  view,
  on(event, fn) { listeners[event].push(fn); },
  emit(event, value) { for (const fn of listeners[event]) fn(value); },
  showError, clearError, showNotice, setStatus,
};

let pendingFrame = null;
let pendingCamera = null;
let cameraRefused = false; // a share link's camera that would show nothing (the view frames the cloth)

const sim = createSimClient({
  onReady(scenes) {
    app.state.scenes = scenes;
    app.emit('scenes', scenes);
    start();
  },
  onScene(scene) {
    pendingFrame = null; // a frame of the previous run, posted before this scene
    const s = app.state;
    s.scenarioText = scene.scenario;
    s.scenario = JSON.parse(scene.scenario);
    s.name = scene.name;
    s.dt = scene.dt;
    s.nodes = scene.nodes;
    s.bounds = positionBounds(scene.positions);
    s.rest = scene.rest;
    s.controlled = Array.from(scene.controlled);
    view?.setCloth(scene.faces, scene.positions, scene.controlled, { keepCamera: false });
    view?.setObstacles(scene.obstacles, scene.obstaclePoses);
    tela.stand = standFor(s.scenario);
    view?.setStand(tela.stand);
    tela.obstacles = view?.obstacleTypes() ?? [];
    if (pendingCamera) {
      cameraRefused = Boolean(view) && !view.setCameraState(pendingCamera);
      pendingCamera = null;
    }
    tela.scene = scene.name;
    $('scene').textContent = scene.name;
    setStatus(`${scene.nodes} nodes · dt = ${scene.dt} s`);
    applyFrame(scene);
    app.emit('scene', s);
    tela.ready = true;
  },
  onFrame(frame) {
    // drawn at the next animation frame; older ones are skipped (their stepping is done)
    if (pendingFrame?.ended) frame.ended = true;
    pendingFrame = frame;
  },
  onFailed(message) {
    showError(`The simulation stopped: ${message}`);
    setPlaying(false);
  },
  onError: showError,
  onProgress(done, total) {
    setStatus(`rebuilding the shared state: step ${done} of ${total}…`);
    $('stop-replay').hidden = false;
  },
});

function setPlaying(on) {
  app.state.playing = on;
  tela.playing = on;
  app.emit('playing', on);
}

function fmt(x, digits = 3) {
  return Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–';
}

function applyFrame(frame) {
  const s = app.state;
  s.steps = frame.steps;
  s.time = frame.time;
  s.hash = frame.hash;
  // a frame posted before the worker read the page's last play/pause/step/reset/load
  // (frame.stale) still has the old playing state; it must not undo that command
  if (!frame.stale && frame.playing !== s.playing) setPlaying(frame.playing);
  if (frame.controlled) {
    view?.setControlled(frame.controlled);
    s.controlled = Array.from(frame.controlled);
  }
  s.positions = frame.positions; // core frame, Float32Array (the grasp starts from them)
  view?.update(frame.positions);
  view?.updateObstacles(frame.obstaclePoses);
  view?.setContacts(frame.contacts);
  tela.contacts = frame.contacts?.length ?? 0;
  const field = FIELDS[s.field];
  if (field && frame.field) {
    // the colour bar spans 0 to a round number above this frame's largest value
    // (signed fields: symmetric about 0)
    let max = 0;
    for (const v of frame.field) max = Math.max(max, Math.abs(v));
    const top = niceCeiling(Math.max(max, field.floor));
    view?.setField(frame.field, top, { signed: !!field.signed });
    $('colorbar').hidden = false;
    $('colorbar-gradient').style.background = field.signed ? GRADIENTS.diverging : GRADIENTS.viridis;
    $('colorbar-title').textContent = `${field.title} (${field.unit})`;
    $('colorbar-max').textContent = field.signed ? `+${fmt(top)}` : fmt(top);
    $('colorbar-mid').textContent = field.signed ? '0' : fmt(top / 2);
    $('colorbar-min').textContent = field.signed ? `−${fmt(top)}` : '0';
  } else {
    view?.setField(null);
    $('colorbar').hidden = true;
  }
  $('time').textContent = `${frame.time.toFixed(2)} s`;
  $('steps').textContent = String(frame.steps);
  $('rtf').textContent = frame.playing && frame.rtf != null
    ? `${frame.rtf.toFixed(2)}× (stepping ${Math.round(100 * frame.load)} %)` : frame.playing ? '…' : 'paused';
  const r = frame.report;
  $('iterations').textContent = r && r.status !== 'none'
    ? `${r.iterations} (${r.substeps} substep${r.substeps > 1 ? 's' : ''})` : '–';
  // a step that ended at the iteration cap is above the tolerance: the run goes on, but the
  // readout says so (the CLI's unconverged_steps)
  const above = r && r.status !== 'none' && r.unconvergedSteps > 0;
  $('constraint').textContent = r && r.status !== 'none'
    ? `${fmt(r.constraintError, 2)}${above ? ` (${r.unconvergedSteps} step${r.unconvergedSteps > 1 ? 's' : ''} > ${fmt(r.tolerance)})` : ''}`
    : '–';
  $('constraint').classList.toggle('warn', r?.status === 'max_iterations');
  $('constraint').title = above
    ? `${r.unconvergedSteps} step${r.unconvergedSteps > 1 ? 's' : ''} of this run ended at the iteration cap above the solver tolerance ${fmt(r.tolerance)}`
    : '';
  $('hash').textContent = frame.hash;
  tela.time = frame.time;
  tela.steps = frame.steps;
  tela.hash = frame.hash;
  tela.rtf = frame.rtf;
  tela.steppingMs = frame.steppingMs;
  tela.frames++;
  // (about the Simulate view: not shown over another panel's)
  if (frame.ended && app.state.panel === 'simulate') showNotice(`End of the scenario’s duration (${frame.time.toFixed(2)} s). Play continues past it.`);
  app.emit('frame', frame);
}

// ---- commands (panels, keyboard) ----------------------------------------------------------
// scenario: object or JSON text; returns { ok, message }
app.loadScenario = async (scenario, { steps = 0, play = true } = {}) => {
  const text = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
  const answer = await sim.load(text, { steps, play });
  // a new run: the last one's notices (a share link of its step, its end) no longer hold
  if (answer.ok) {
    clearError();
    showNotice('');
  }
  return answer;
};
// keepMessages: leave an error on show (a fallback after a bad link)
app.loadScene = async (name, { keepMessages = false, ...options } = {}) => {
  const answer = await sim.loadScene(name, options);
  if (!answer.ok && !answer.cancelled) showError(answer.message);
  else if (!keepMessages) clearError();
  if (answer.ok) showNotice('');
  return answer;
};
app.togglePlay = () => (app.state.playing ? app.pause() : app.play());
app.play = () => { showNotice(''); tela.pausedAt = null; sim.play(); setPlaying(true); };
// resolves once the worker stopped, with its last frame applied
app.pause = async () => {
  setPlaying(false);
  const answer = await sim.pause();
  if (pendingFrame) {
    const frame = pendingFrame;
    pendingFrame = null;
    applyFrame(frame);
  }
  tela.pausedAt = answer.steps; // for tests: the worker has stopped at this step
  return answer;
};
app.step = () => { sim.step(); setPlaying(false); };
app.reset = () => { clearError(); showNotice(''); return sim.reset(app.state.playing); };
app.setField = (name) => {
  app.state.field = FIELDS[name] === undefined ? 'none' : name;
  sim.setField(app.state.field);
};
app.setWireframe = (on) => { app.state.wireframe = on; view?.setWireframe(on); };
app.setPins = (on) => { app.state.pins = on; view?.setPinsVisible(on); };
app.setObstacles = (on) => { app.state.obstacles = on; view?.setObstaclesVisible(on); };
app.setContacts = (on) => { app.state.contacts = on; view?.setContactsVisible(on); };
app.exportFile = async (what) => {
  if (what === 'png') {
    view?.forceRender();
    const blob = await new Promise((resolve) => $('view').toBlob(resolve, 'image/png'));
    if (!blob) return showError('The screenshot could not be made.');
    return download(blob, `tela-${app.state.name}-step${app.state.steps}.png`);
  }
  const answer = await sim.exportFile(what);
  if (!answer.ok) return showError(`Export failed: ${answer.message}`);
  if (answer.note) showNotice(`Exported ${answer.filename}: ${answer.note}.`);
  download(answer.blob, answer.filename);
};

// ---- share links ---------------------------------------------------------------------------
// the Classify panel's result is a function of the scene and step, so a link made there opens
// there; a panel with a shareState() (Reconstruct, Fit) adds what it needs to redo its result
const LINKED_PANELS = ['simulate', 'classify'];
// -> { url, note }: note says what the active panel put in the link, or ''
app.shareLink = async () => {
  const s = app.state;
  const shared = panels().find((p) => p.id === s.panel)?.shareState?.() ?? null;
  const hash = await encodeShareHash({
    scenario: s.scenario,
    steps: s.steps,
    view: {
      camera: view?.cameraState(), field: s.field, wireframe: s.wireframe, pins: s.pins, playing: false,
      ...(LINKED_PANELS.includes(s.panel) || shared ? { panel: s.panel } : {}),
    },
    ...(shared ? { panels: { [s.panel]: shared.state } } : {}),
  });
  history.replaceState(null, '', hash);
  return { url: location.href, note: shared?.note ?? '' };
};

// a long share link's replay can be ended where it is (openFromHash says what is shown)
$('stop-replay').addEventListener('click', () => sim.stopReplay());

$('share').addEventListener('click', async () => {
  await app.pause();
  const { url, note } = await app.shareLink();
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // clipboard refused (permissions, insecure context): the address bar has the link
  }
  const where = copied ? 'copied to the clipboard' : 'is in the address bar';
  showNotice(note
    ? `Share link ${where}. It holds the Simulate scene at step ${app.state.steps} and ${note}.`
    : `Share link for step ${app.state.steps} (state ${app.state.hash}) ${where}.`);
});

async function openFromHash() {
  const decoded = await decodeShareHash(location.hash);
  if (decoded.kind === 'none') return false;
  if (decoded.kind === 'bad') {
    showError(`${decoded.message} Showing the default scene instead.`);
    return false;
  }
  const { scenario, steps, view: v, panels: panelStates } = decoded;
  if (v.camera) pendingCamera = v.camera;
  if (typeof v.field === 'string') app.setField(v.field);
  if (typeof v.wireframe === 'boolean') app.setWireframe(v.wireframe);
  if (typeof v.pins === 'boolean') app.setPins(v.pins);
  app.emit('scene', app.state); // let panels show the view options
  const answer = await app.loadScenario(scenario, { steps, play: v.playing === true });
  $('stop-replay').hidden = true;
  if (answer.cancelled) return true; // the user chose another scene meanwhile
  if (!answer.ok) {
    pendingCamera = null;
    showError(`This share link’s scenario is not valid here: ${answer.message}. Showing the default scene instead.`);
    return false;
  }
  const panel = panels().find((p) => p.id === v.panel);
  const linked = panel && (LINKED_PANELS.includes(panel.id) || panelStates[panel.id]);
  if (linked) app.showPanel(panel.id);
  const stoppedAt = answer.scene?.stoppedAt;
  showNotice((stoppedAt === undefined
    ? `Opened a shared scene at step ${steps}: state hash ${app.state.hash}.`
    : `Stopped rebuilding the shared scene at step ${stoppedAt} of ${steps}: this is not the shared state. ` +
      'Play goes on from here; open the link again to rebuild it.') +
    (cameraRefused ? ' Its camera would show nothing, so the view frames the cloth.' : ''));
  if (linked) {
    if (panelStates[panel.id] && panel.restoreState && !(await panel.restoreState(panelStates[panel.id]))) {
      showError(`This share link’s ${panel.title} settings are not readable here; the panel opens with its defaults.`);
    }
  }
  return true;
}

async function start() {
  const opened = await openFromHash();
  if (opened) return;
  const query = new URLSearchParams(location.search).get('scene');
  const name = query || DEFAULT_SCENE;
  if (!app.state.scenes.some((x) => x.name === name)) {
    showError(`unknown scene "${name}"; built-in scenes: ${app.state.scenes.map((x) => x.name).join(', ')}`);
    if (name === DEFAULT_SCENE) return;
  }
  await app.loadScene(app.state.scenes.some((x) => x.name === name) ? name : DEFAULT_SCENE, { keepMessages: true });
}

// a link pasted into the address bar of an open page
window.addEventListener('hashchange', async () => {
  if (!location.hash || (await openFromHash())) return;
  await app.loadScene(DEFAULT_SCENE, { keepMessages: true });
});

// ---- panels --------------------------------------------------------------------------------
registerPanel(simulatePanel);
registerPanel(fitPanel);
registerPanel(reconstructPanel);
registerPanel(classifyPanel);

function mountPanels() {
  const tabs = $('tabs');
  const container = $('panel');
  const all = panels();
  all.forEach((panel, i) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.setAttribute('role', 'tab');
    tab.id = `tab-${panel.id}`;
    tab.textContent = panel.title;
    tab.setAttribute('aria-selected', String(i === 0));
    const body = document.createElement('div');
    body.id = `panel-${panel.id}`;
    body.className = 'panel-body';
    body.setAttribute('role', 'tabpanel');
    body.setAttribute('aria-labelledby', tab.id);
    body.hidden = i !== 0;
    tab.addEventListener('click', () => app.showPanel(panel.id));
    tabs.append(tab);
    container.append(body);
    panel.mount(body, app);
  });
}
app.showPanel = (id) => {
  // a notice is about what the panel left was doing (e.g. the end of the scenario's duration)
  if (app.state.panel !== id) {
    showNotice('');
    // each panel opens at its top (the panels share one scrolling column; on narrow screens
    // the column under the view scrolls with it: back to where the panel starts)
    $('panel').scrollTop = 0;
    const layout = $('layout');
    const top = $('panel').getBoundingClientRect().top - layout.getBoundingClientRect().top + layout.scrollTop;
    if (layout.scrollTop > top) layout.scrollTop = top;
  }
  app.state.panel = id;
  showStatus();
  for (const panel of panels()) {
    const selected = panel.id === id;
    $(`tab-${panel.id}`).setAttribute('aria-selected', String(selected));
    $(`panel-${panel.id}`).hidden = !selected;
  }
  // the others first: a panel with its own view over the simulator's sets the viewport's
  // overlay state when activated, after the others have cleared theirs
  for (const panel of panels()) if (panel.id !== id) panel.deactivate?.();
  panels().find((p) => p.id === id)?.activate?.();
};
mountPanels();

// ---- files, keyboard, help -----------------------------------------------------------------
installFileInput({ app, button: $('open'), input: $('file'), dropzone: $('dropzone') });
installKeyboard({
  ' ': () => app.togglePlay(),
  Backspace: () => app.reset(),
  '.': () => app.step(),
  '?': () => toggleHelp(),
  Escape: () => toggleHelp(false),
});
const help = $('help');
let focusBeforeHelp = null;
function toggleHelp(on = !help.open) {
  if (on === help.open) return;
  if (on) {
    focusBeforeHelp = document.activeElement;
    help.showModal();
    $('help-close').focus();
  } else {
    help.close();
  }
}
// however it closes (Esc, Close, a click on the backdrop), the focus goes back where it was
help.addEventListener('close', () => { focusBeforeHelp?.focus?.({ preventScroll: true }); focusBeforeHelp = null; });
$('help-button').addEventListener('click', () => toggleHelp(true));
$('help-close').addEventListener('click', () => toggleHelp(false));
help.addEventListener('click', (e) => { if (e.target === help) toggleHelp(false); }); // the backdrop
// Tab cycles inside the help (a modal dialog alone lets it leave for the browser's own controls)
help.addEventListener('keydown', (e) => {
  if (e.key !== 'Tab') return;
  const stops = [...help.querySelectorAll('button, a[href], input, select, textarea')];
  const edge = e.shiftKey ? stops[0] : stops.at(-1);
  if (!stops.includes(document.activeElement) || document.activeElement === edge) {
    e.preventDefault();
    (e.shiftKey ? stops.at(-1) : stops[0]).focus();
  }
});

// ---- render loop ---------------------------------------------------------------------------
function animate() {
  const begin = performance.now();
  if (pendingFrame) {
    const frame = pendingFrame;
    pendingFrame = null;
    applyFrame(frame);
  }
  const drew = view?.render();
  tela.busyMs += performance.now() - begin; // main-thread time of frame updates and draws
  if (drew) {
    tela.renders++;
    // ms since navigation started: the scene drawn, and the first stepped state drawn
    if (tela.firstFrameMs === null && tela.ready) tela.firstFrameMs = performance.now();
    if (tela.firstStepFrameMs === null && tela.ready && tela.steps > 0) tela.firstStepFrameMs = performance.now();
  }
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);
