// Owns the WebAssembly simulator (one instance, single-threaded). Steps the current scenario
// to keep up with wall time and posts each new frame (a transferred Float32Array copy of the
// positions) to the page. If stepping cannot keep up, simulated time slows down: a short
// backlog (a slow start, a hard step) is caught up, anything beyond MAX_OWED_S is dropped.
//
// Determinism: the state after N steps depends only on the scenario and N (Simulation::step is
// the same whatever the batching), so step counts are exact integers everywhere.
//
// The message loop is worker/loop.js's; the page's side is simulate/client.js.
// requests (answered with their id, as worker/loop.js's results):
//   { type: 'load', id, scenario: jsonText | scene: name, steps = 0, play = true }
//     -> { ok: true, scene } | { ok: false, error } (the scenario was rejected; the old run goes
//        on) | { ok: false, cancelled: true } (a newer load replaced this one while it replayed)
//     scene: { name, dt, nodes, faces, controlled, scenario, obstacles, rest (the rest
//     positions, Float64Array, core frame), stoppedAt?, total? (a replay stopped at step
//     stoppedAt of total), ...frame }
//   { type: 'reset', id, play }                -> as load, of the current scenario from t = 0
//   { type: 'pause', id }                      -> { ok: true, steps, hash } after the last frame
//   { type: 'export', id, what: 'csv' | 'obj' | 'ply' | 'scenario' }
//     -> { ok: true, what, blob, filename, note } | { ok: false, error }
// commands (not answered):
//   { type: 'play' } | { type: 'step' }
//   { type: 'field', name: 'none' | 'area' | 'area-signed' | 'strain' }
//   { type: 'stop-replay' }  ends a load's replay of a share link's steps where it is
//   (load, play, pause, step and reset also carry `command`, a number the page increases;
//   frames and scenes echo the last one read, so the page can tell frames that predate a command)
// events (posted on its own):
//   { type: 'ready', scenes: [{ name, description }] }
//   { type: 'frame', positions, field, time, steps, hash, report, rtf, load, steppingMs, playing, ended?,
//     controlled? (the controlled nodes, when a release changed them),
//     obstaclePoses, contacts }  (obstacles: ObstacleView.shapes(); obstaclePoses: its poses
//     at the frame's time, Float64Array #obstacles*12; contacts: Simulation.contactNodes(), the
//     nodes of the contacts the solver holds active; both null in scenes without contacts)
//   { type: 'progress', id, done, total }     while a load steps to a shared step count
//   { type: 'failed', message }               the run diverged, or the module stopped; paused
import createTela from '../wasm/tela.mjs'; // finds tela.wasm via new URL('tela.wasm', import.meta.url)
import { serveMessages } from '../worker/loop.js';
import { objText, plyText, trajectoryCsv } from '../io/export.js';
import { edgeStrains } from './strain.js';

const FRAME_MS = 1000 / 60;        // how often a frame is posted while playing
// stepping time per tick; beyond it simulated time slows. The worker has a thread of its own:
// when it is behind it steps the whole tick and yields only to post the frame and read messages.
const BUDGET_MS = FRAME_MS;
const RECORD_BYTES = 48 * 2 ** 20; // trajectory kept for the CSV export
// simulated time owed beyond this is dropped: a backlog this short is caught up (the stepping
// share of a tick is the whole tick then), a longer one means the machine is too slow
const MAX_OWED_S = 0.1;

let tela = null;
let sim = null;
let obstacleView = null; // ObstacleView of the current scenario (wasm/bindings/bind_contact.cpp)
let current = null; // { scenario (normalized JSON text), name, endStep, faces, rest }
let playing = false;
let field = 'none';
let ticker = 0; // the current tick chain; a new chain (play, load) makes older ones stop
let recording = { frames: [], bytes: 0, truncated: false };
let rtfSamples = []; // [wall ms, sim time, stepping ms] while playing
let steppingMs = 0; // wall time spent stepping while playing, cumulative (the benchmark reads it)

const post = (message, transfer = []) => self.postMessage(message, transfer);

function record() {
  const positions = sim.positions64();
  if (recording.bytes + positions.byteLength > RECORD_BYTES) {
    recording.truncated = true;
    return;
  }
  recording.frames.push({ frame: sim.steps(), time: sim.time(), positions });
  recording.bytes += positions.byteLength;
}

function fieldValues() {
  if (field === 'area') return sim.faceAreaErrors().map((v) => 100 * Math.abs(v));
  if (field === 'area-signed') return sim.faceAreaErrors().map((v) => 100 * v);
  if (field === 'strain') return edgeStrains(sim.positions64(), current.rest, current.faces).map((v) => 100 * v);
  return null;
}

// over the last second: simulated / wall time (at most 1: the worker never runs ahead), and
// the share of that wall time spent stepping (below 1: the simulator could go faster)
function realTime() {
  if (!playing || rtfSamples.length < 2) return { rtf: null, load: null };
  const [w0, t0, s0] = rtfSamples[0];
  const [w1, t1, s1] = rtfSamples[rtfSamples.length - 1];
  if (!(w1 > w0)) return { rtf: null, load: null };
  return { rtf: (t1 - t0) / ((w1 - w0) / 1000), load: (s1 - s0) / (w1 - w0) };
}

function frameMessage() {
  const positions = sim.positions();
  const values = fieldValues();
  const message = {
    positions, field: values,
    time: sim.time(), steps: sim.steps(), hash: sim.stateHash(),
    report: sim.lastReport(), ...realTime(), steppingMs, playing, command,
    obstaclePoses: null, contacts: null,
  };
  const transfer = values ? [positions.buffer, values.buffer] : [positions.buffer];
  if (obstacleView?.count()) {
    // the core's obstacle motions at the simulation's time (never re-implemented here)
    message.obstaclePoses = obstacleView.poses(sim.time());
    transfer.push(message.obstaclePoses.buffer);
  }
  if (current.contacts) {
    message.contacts = sim.contactNodes();
    transfer.push(message.contacts.buffer);
  }
  if (current.releases) {
    const controlled = sim.controlledNodes();
    if (controlled.length !== current.controlledCount) {
      current.controlledCount = controlled.length;
      message.controlled = controlled;
      transfer.push(controlled.buffer);
    }
  }
  return [message, transfer];
}

function postFrame() {
  const [message, transfer] = frameMessage();
  post({ type: 'frame', ...message }, transfer);
}

function checkFailure() {
  if (!sim.failed()) return false;
  setPlaying(false);
  post({ type: 'failed', message: sim.failureMessage() });
  return true;
}

// steps n times (recording each state); stops early on failure
function advance(n) {
  for (let i = 0; i < n; i++) {
    sim.step(1);
    if (sim.failed()) return false;
    if (!recording.truncated) record();
  }
  return true;
}

function setPlaying(on) {
  playing = on && !!sim && !sim.failed();
  ticker++;
  rtfSamples = [];
  if (playing) {
    last = performance.now();
    owed = 0;
    schedule(0);
  }
}

// Runs tick after `ms`. A zero delay goes through a MessageChannel, not setTimeout: nested
// zero-delay timeouts are clamped to 4 ms (HTML spec), which a worker that is behind real time
// would spend idle on every tick. Messages from the page queued meanwhile are still read first.
const wakeup = new MessageChannel();
wakeup.port1.onmessage = ({ data: chain }) => chain === ticker && tick();
function schedule(ms) {
  const chain = ticker;
  if (ms > 0) setTimeout(() => chain === ticker && tick(), ms);
  else wakeup.port2.postMessage(chain);
}

// Real time: each tick owes the wall time elapsed since the last one. It steps as many dt as
// it owes and the budget allows; what does not fit is dropped, so a slow machine shows slow
// motion instead of a frozen page.
let last = 0;
let owed = 0; // simulated seconds not yet stepped
function tick() {
  try {
    tickOnce();
  } catch (err) {
    loop.fail(err);
  }
}

function tickOnce() {
  if (!playing) return;
  const begin = performance.now();
  owed += (begin - last) / 1000;
  last = begin;
  const dt = sim.dt();
  let stepped = 0;
  let ended = false;
  while (owed >= dt && performance.now() - begin < BUDGET_MS) {
    if (!advance(1)) break;
    owed -= dt;
    stepped++;
    if (sim.steps() === current.endStep) {
      ended = true;
      break;
    }
  }
  steppingMs += performance.now() - begin;
  // behind: the next tick comes right away; what is owed beyond the backlog cap is dropped
  const behind = owed >= dt;
  owed = Math.min(owed, Math.max(MAX_OWED_S, dt));
  if (checkFailure()) {
    postFrame();
    return;
  }
  rtfSamples.push([performance.now(), sim.time(), steppingMs]);
  while (rtfSamples.length > 2 && rtfSamples[rtfSamples.length - 1][0] - rtfSamples[0][0] > 1000) rtfSamples.shift();
  if (ended) {
    setPlaying(false);
    const [message, transfer] = frameMessage();
    post({ type: 'frame', ...message, ended: true }, transfer);
    return;
  }
  if (stepped) postFrame();
  schedule(behind ? 0 : FRAME_MS - (performance.now() - begin));
}

// A load replaces the simulation; with steps > 0 (a share link) it replays them in chunks,
// yielding to the message loop, so that a newer load cancels it (its answer: cancelled) and
// 'stop-replay' ends it where it is (its scene then carries stoppedAt: the step shown). The
// answer is posted before the run starts playing (or reports its failure).
let generation = 0;
let replaying = false;
let stopRequested = false;
async function load({ id, scenario, scene, steps = 0, play = true }, answer) {
  const mine = ++generation;
  const text = scene !== undefined ? tela.sceneJson(scene) : scenario;
  if (!text) {
    return { ok: false, error: scene !== undefined
      ? `unknown scene "${scene}"; built-in scenes: ${tela.sceneNames().join(', ')}`
      : 'the scenario is empty: a scenario is a JSON object (see Export → scenario JSON for one)' };
  }
  const candidate = tela.createSimulation(text);
  if (!candidate.ok()) {
    const error = candidate.error();
    candidate.delete();
    return { ok: false, error };
  }
  setPlaying(false);
  sim?.delete();
  sim = candidate;
  const normalized = sim.scenarioJson();
  obstacleView?.delete();
  obstacleView = tela.createObstacleView(normalized);
  if (!obstacleView.ok()) { // cannot happen: the simulation accepted this scenario
    post({ type: 'error', message: `obstacles: ${obstacleView.error()}` });
    obstacleView.delete();
    obstacleView = null;
  }
  current = {
    scenario: normalized,
    name: JSON.parse(normalized).name,
    // the scenario's duration in steps (as Simulation::steps_for_duration); play pauses there once
    endStep: Math.ceil(JSON.parse(normalized).duration / sim.dt() - 1e-9),
    faces: sim.faces(),
    rest: sim.restPositions(),
  };
  const parsed = JSON.parse(normalized);
  current.contacts = (parsed.obstacles?.length ?? 0) > 0 || !!parsed.self_collision?.enabled;
  // controls with a release time: frames carry the controlled nodes when their number changes
  current.releases = (parsed.controls ?? []).some((c) => c.release !== undefined);
  current.controlledCount = sim.controlledNodes().length;
  recording = { frames: [], bytes: 0, truncated: false };
  record();
  const whole = Number.isSafeInteger(steps) && steps > 0 ? steps : 0;
  // a shared link's steps: in chunks, reporting progress about 4 times a second
  let lastReport = performance.now();
  let lastYield = lastReport;
  replaying = whole > 0;
  stopRequested = false;
  let stoppedAt;
  for (let done = 0; done < whole && !sim.failed();) {
    const n = Math.min(10, whole - done);
    advance(n);
    done += n;
    if (performance.now() - lastReport > 250) {
      post({ type: 'progress', id, done, total: whole });
      lastReport = performance.now();
    }
    if (performance.now() - lastYield > 50) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastYield = performance.now();
      if (mine !== generation) return { ok: false, cancelled: true };
      if (stopRequested && done < whole) {
        stoppedAt = done;
        break;
      }
    }
  }
  replaying = false;
  const failed = sim.failed();
  const [frame] = frameMessage();
  answer({ ok: true, scene: {
    name: current.name, dt: sim.dt(), nodes: sim.nodeCount(),
    faces: sim.faces(), controlled: sim.controlledNodes(), scenario: normalized, obstacles: obstacleView?.shapes() ?? [],
    rest: current.rest.slice(), ...frame,
    ...(stoppedAt === undefined ? {} : { stoppedAt, total: whole }),
  } });
  if (failed) checkFailure();
  else setPlaying(play && stoppedAt === undefined);
}

function exportFile({ what }) {
  if (!sim) return { ok: false, error: 'nothing to export: no scene is loaded' };
  const base = `tela-${current.name || 'scene'}-step${sim.steps()}`;
  const provenance = `tela scenario "${current.name}", step ${sim.steps()}, t = ${sim.time()} s, state ${sim.stateHash()}`;
  let blob;
  let filename;
  let note = '';
  if (what === 'csv') {
    blob = new Blob(trajectoryCsv(recording.frames), { type: 'text/csv' });
    filename = `${base}.csv`;
    if (recording.truncated) {
      note = `the trajectory holds the first ${recording.frames.length} frames (memory limit)`;
    }
  } else if (what === 'obj') {
    blob = new Blob([objText(sim.positions64(), current.faces, provenance)], { type: 'model/obj' });
    filename = `${base}.obj`;
  } else if (what === 'ply') {
    blob = new Blob([plyText(sim.positions64(), current.faces, provenance)], { type: 'application/x-ply' });
    filename = `${base}.ply`;
  } else if (what === 'scenario') {
    blob = new Blob([current.scenario + '\n'], { type: 'application/json' });
    filename = `${current.name || 'scenario'}.json`;
  } else {
    return { ok: false, error: `unknown export "${what}"` };
  }
  return { ok: true, what, blob, filename, note };
}

let command = 0; // the last command number read from the page
async function handle(data, { answer }) {
  if (data.command !== undefined) command = data.command;
  if (replaying && ['play', 'step', 'export'].includes(data.type)) {
    return data.type === 'export' ? { ok: false, error: 'the shared state is still being rebuilt' } : undefined;
  }
  switch (data.type) {
    case 'load': return load(data, answer);
    case 'stop-replay': stopRequested = replaying; return undefined;
    case 'play':
      setPlaying(true);
      if (sim && !playing) postFrame(); // refused (a failed run): tell the page
      return undefined;
    case 'pause':
      setPlaying(false);
      if (sim) postFrame();
      return { ok: true, steps: sim?.steps() ?? 0, hash: sim?.stateHash() ?? '' };
    case 'step':
      if (!sim) return undefined;
      setPlaying(false);
      advance(1);
      if (!checkFailure()) postFrame();
      return undefined;
    case 'reset':
      if (!current) return { ok: false, error: 'no scene is loaded' };
      return load({ id: data.id, scenario: current.scenario, steps: 0, play: data.play ?? playing }, answer);
    case 'field':
      field = data.name;
      if (sim) postFrame();
      return undefined;
    case 'export': return exportFile(data);
    default:
      post({ type: 'error', message: `worker: unknown message "${data.type}"` });
      return undefined;
  }
}

const loop = serveMessages({
  async load() {
    tela = await createTela();
    const scenes = tela.sceneNames().map((name) => {
      const { description = '' } = JSON.parse(tela.sceneJson(name));
      return { name, description };
    });
    post({ type: 'ready', scenes });
    return tela;
  },
  handle,
  name: 'simulator',
  what: 'The simulator',
  next: 'Reload the page to start a fresh one (a scene this large may need fewer nodes); nothing you uploaded was changed.',
  loadError: 'could not start the simulator',
  // a WebAssembly failure stops the simulator for good (its heap is not to be trusted); any
  // other error thrown outside a request (a tick, a command) stops the playing
  onFailure(message, fatal, data) {
    if (fatal || data.id === undefined) {
      playing = false;
      ticker++;
    }
    if (fatal) post({ type: 'failed', message });
  },
});
