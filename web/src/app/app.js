// The app the panels share: its state, events, the simulator (simulate/client.js) and the
// commands on it, and the render loop that applies the simulator's latest frame to the state,
// the view (simulate/view.js) and the readout (simulate/readout.js). What a panel may use of
// it is listed in app/panels.js.
import { standFor } from '../render/stand.js';
import { positionBounds } from '../simulate/bounds.js';
import { createSimClient } from '../simulate/client.js';
import { FIELDS, showField, showFrame, showScene } from '../simulate/readout.js';
import { download } from '../io/download.js';
import { byId } from '../ui/dom.js';

// tela: window.__tela, what the page shows (for tests and the benchmark); view: the
// simulator's view, or null without WebGL; messages: app/messages.js
export function createApp({ tela, view, messages }) {
  const { showError, clearError, showNotice } = messages;
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
    showError, clearError, showNotice, setStatus: messages.setStatus,
  };

  let pendingFrame = null;
  let pendingCamera = null;
  let cameraRefused = false; // a share link's camera that would show nothing (the view frames the cloth)
  // a camera state (simulate/view.js cameraState) for the next scene, or null for none
  app.expectCamera = (camera) => { pendingCamera = camera; };
  app.cameraRefused = () => cameraRefused;

  const sim = createSimClient({
    onReady(scenes) {
      app.state.scenes = scenes;
      app.emit('scenes', scenes);
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
      showScene(scene.name);
      app.setStatus(`${scene.nodes} nodes · dt = ${scene.dt} s`);
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
      app.setStatus(`rebuilding the shared state: step ${done} of ${total}…`);
      byId('stop-replay').hidden = false;
    },
  });

  function setPlaying(on) {
    app.state.playing = on;
    tela.playing = on;
    app.emit('playing', on);
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
    const scale = showField(s.field, frame.field);
    if (scale) view?.setField(frame.field, scale.top, { signed: scale.signed });
    else view?.setField(null);
    showFrame(frame);
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
  function applyPendingFrame() {
    if (!pendingFrame) return;
    const frame = pendingFrame;
    pendingFrame = null;
    applyFrame(frame);
  }

  // ---- commands (panels, keyboard)
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
    applyPendingFrame();
    tela.pausedAt = answer.steps; // for tests: the worker has stopped at this step
    return answer;
  };
  app.step = () => { sim.step(); setPlaying(false); };
  app.reset = () => { clearError(); showNotice(''); return sim.reset(app.state.playing); };
  // ends a share link's replay where it is (the load's answer says where)
  app.stopReplay = () => sim.stopReplay();
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
      const blob = await new Promise((resolve) => byId('view').toBlob(resolve, 'image/png'));
      if (!blob) return showError('The screenshot could not be made.');
      return download(blob, `tela-${app.state.name}-step${app.state.steps}.png`);
    }
    const answer = await sim.exportFile(what);
    if (!answer.ok) return showError(`Export failed: ${answer.message}`);
    if (answer.note) showNotice(`Exported ${answer.filename}: ${answer.note}.`);
    download(answer.blob, answer.filename);
  };

  // ---- render loop: the latest frame, then a draw when something changed
  function animate() {
    const begin = performance.now();
    applyPendingFrame();
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

  return app;
}
