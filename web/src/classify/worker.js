// The Classify panel's module worker: its own WebAssembly instance holding the dGLI classifier
// (bind_dgli.cpp) and the faces of the current scene, so classifying frames never takes
// time from the simulator's worker. The message loop is worker/loop.js's; the page's side is
// classify/client.js.
//
// requests: { id, type: 'database', json } | { id, type: 'scene', scenario: jsonText }
//           | { id, type: 'classify', positions: Float32Array | Float64Array, k }
//           | { id, type: 'classifyBoundary', points: Float64Array (closed polyline xyz), k }
//           | { id, type: 'classifyObj', text: OBJ file text, k }
import createTela from '../wasm/tela.mjs';
import { serveMessages } from '../worker/loop.js';

let tela = null;
let classifier = null;
let faces = null;

// what can be classified: the current scene's frame, a closed polyline, an OBJ cloth state
const CLASSIFY = {
  classify: (m, k) => (faces ? classifier.classifyMesh(m.positions, faces, k) : { ok: false, error: 'no scene' }),
  classifyBoundary: (m, k) => classifier.classifyBoundary(m.points, k),
  classifyObj: (m, k) => classifier.classifyObj(m.text, k),
};

function handle({ type, ...message }) {
  if (type === 'database') {
    // a database that does not parse leaves the one in use in place
    const next = new tela.DgliClassifier(message.json);
    if (!next.ok()) {
      const error = `the dGLI database is not valid: ${next.error()}`;
      next.delete();
      return { ok: false, error };
    }
    classifier?.delete();
    classifier = next;
    return { ok: true };
  }
  if (type === 'scene') {
    const sim = tela.createSimulation(message.scenario);
    let result;
    if (sim.ok()) {
      faces = sim.faces();
      result = { ok: true, faces: faces.length / 4 };
    } else {
      faces = null;
      result = { ok: false, error: sim.error() };
    }
    sim.delete();
    return result;
  }
  if (type in CLASSIFY) {
    const k = message.k ?? 1;
    const result = classifier ? CLASSIFY[type](message, k) : { ok: false, error: 'no dGLI database loaded' };
    result.segmentCount = result.ok ? result.segments.length / 6 : 0;
    result.k = k;
    return result;
  }
  return { ok: false, error: `unknown request ${type}` };
}

serveMessages({
  load: async () => (tela = await createTela()),
  handle,
  name: 'dGLI',
  what: (message) => `dGLI ${message.type}`,
  loadError: 'the dGLI module could not be loaded',
  restart: true,
});
