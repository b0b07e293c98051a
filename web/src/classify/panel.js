// The Classify panel (thesis chapter 7): the dGLI matrix of the current simulated frame as a
// heat map (hovering an entry highlights its two boundary segments on the cloth:
// classify/highlight.js), the predicted class (the nearest database state's, as `tela
// classify`) with its distance, the runner-up class and the nearest class representative
// against the shipped database (public/dgli/database.json), and the gallery of the
// database's reference states (classify/prediction.js). The classifier runs in the panel's
// own worker (classify/worker.js, classify/client.js); frames are classified while the panel
// is shown, at most 5 per second. An opened OBJ state or a reconstructed boundary is drawn in
// the panel's own view (classify/view.js). window.__tela.classify mirrors what the panel
// shows, for tests.
import { download } from '../io/download.js';
import { sha256 } from '../io/hash.js';
import { byId, el, fmt } from '../ui/dom.js';
import { createClassifyClient } from './client.js';
import { divergingGradient, upperIndex } from './heatmap.js';
import { createHighlight, entryAt } from './highlight.js';
import { classificationJson, clearPrediction, showGallery, showPrediction } from './prediction.js';
import { createStateView } from './view.js';
import './classify.css';

const DATABASE_URL = `${import.meta.env.BASE_URL}dgli/database.json`;
const INTERVAL_MS = 200;

export const classifyPanel = {
  id: 'classify',
  title: 'Classify',
  // a cloth state as a mesh (as `tela classify STATE.obj`), or a database of labelled states
  // (`tela dgli-database --out FILE`) to classify against instead of the shipped one
  accepts: ['obj', 'dgli-database'],

  mount(container, app) {
    const state = (window.__tela.classify = {
      status: 'idle', error: null, className: '', distance: null, runnerUpName: '', runnerUpDistance: null,
      representativeName: '', representativeDistance: null, novel: false, database: DATABASE_URL, source: 'frame', segments: 0, values: [], classified: 0, classifiedWith: '', hover: null, steps: -1, highlighted: 0,
    });
    const ui = {};
    let active = false;
    let database = null;   // parsed JSON (gallery)
    let sceneReady = null; // promise of the worker's faces for the current scene
    let databaseReady = null; // promise: true once the worker holds the classifier
    let latest = null;     // { positions, steps, hash }
    let last = null;       // last classification result
    let inFlight = false;
    let rerun = false;     // asked for while one was in flight (a new database, k or frame)
    let lastRun = 0;
    let timer = 0;
    let databaseFailed = false;
    // what `last` classified: { source: 'frame', scene, step, stateHash }, { source: 'boundary', cloud }
    // or { source: 'obj', file }
    let classified = null;

    const client = createClassifyClient();

    // ---- layout
    ui.prediction = el('div', { className: 'prediction', id: 'classify-prediction', textContent: 'loading the classifier…' });
    ui.matrix = el('canvas', { className: 'heatmap', id: 'classify-matrix', width: 8, height: 8 });
    ui.matrix.setAttribute('aria-label', 'dGLI matrix of the current frame');
    ui.scaleMin = el('span');
    ui.scaleMax = el('span');
    ui.bar = el('div', { className: 'bar' });
    ui.bar.style.background = divergingGradient();
    ui.entry = el('p', { className: 'hint', id: 'classify-entry', textContent: 'Hover an entry to see its two segments on the cloth.' });
    ui.error = el('p', { className: 'field-error', id: 'classify-error', hidden: true });
    // a database that could not be used: kept until another one loads (classifications
    // against the one in use go on, and their own errors come and go in ui.error)
    ui.databaseError = el('p', { className: 'field-error', id: 'classify-database-error', hidden: true });
    ui.linkHint = el('p', { className: 'hint', id: 'classify-link-hint', hidden: true });
    ui.exportJson = el('button', { type: 'button', id: 'classify-export', textContent: 'Classification JSON', disabled: true });
    ui.gallery = el('div', { className: 'ref-gallery', id: 'classify-gallery' });
    ui.provenance = el('p', { className: 'hint' });
    // what is classified: the simulated frame, or the boundary of the Reconstruct panel's cloud
    ui.source = el('select', { id: 'classify-source' },
      el('option', { value: 'frame', textContent: 'the current simulated frame' }),
      el('option', { value: 'boundary', textContent: 'the reconstructed cloud’s boundary', disabled: true }),
      el('option', { value: 'obj', textContent: 'an opened OBJ mesh (drop one or use Open…)', disabled: true }));
    // the vote: the nearest database state (k = 1, as `tela classify`) or the majority of the k nearest
    ui.k = el('select', { id: 'classify-k' }, ...[1, 3, 5, 7, 9].map((n) =>
      el('option', { value: String(n), textContent: n === 1 ? 'nearest state' : `${n} nearest states` })));
    const k = () => Number(ui.k.value);
    let classifiedK = 1;
    ui.matrixTitle = el('h2', { textContent: 'dGLI matrix (current frame)' });
    container.append(
      el('label', { className: 'source-row' }, 'classify', ui.source),
      el('label', { className: 'source-row' }, 'by its', ui.k), ui.linkHint,
      el('h2', { textContent: 'Predicted class' }), ui.prediction, ui.error, ui.databaseError,
      el('div', { className: 'exports' }, ui.exportJson),
      ui.matrixTitle,
      el('div', { className: 'heatmap-wrap' }, ui.matrix),
      el('div', { className: 'heatmap-scale' }, ui.scaleMin, ui.bar, ui.scaleMax), ui.entry,
      el('h2', { textContent: 'Reference states' }), ui.gallery, ui.provenance,
    );

    // ---- segment highlight over the simulator's view, or over the panel's own view of an
    // opened OBJ state or a reconstructed boundary
    const viewport = byId('viewport');
    const highlight = createHighlight(viewport);
    // made when an opened state is first classified (a WebGL context is not free at start-up)
    let stateView = null;
    let noWebGl = false;
    function ownView() {
      if (stateView || noWebGl) return stateView;
      try {
        stateView = createStateView(viewport, highlight.overlay);
      } catch {
        noWebGl = true; // the simulator's view says so already
        return null;
      }
      stateView.onChange(() => drawHighlight());
      // for tests, not enumerable: copies of window.__tela stay plain data
      Object.defineProperty(window.__tela, 'classifyView', { value: stateView, configurable: true });
      return stateView;
    }
    // the panel's own view while it is shown and classifies something other than the frame
    function showStateView() {
      const shown = Boolean(stateView?.show(active && source() !== 'frame'));
      viewport.classList.toggle('overlay-active', shown);
      // the status line says what the panel's own view shows (else the simulator's line)
      app.setStatus(!shown ? undefined : source() === 'obj' ? `Classify: the opened state “${objState?.name}”`
        : `Classify: the boundary of “${boundary?.name}”`, 'classify');
      return shown;
    }
    function drawHighlight() {
      const own = source() !== 'frame';
      const canvas = own ? stateView?.canvas : byId('view');
      state.highlighted = highlight.draw({
        segments: last?.ok ? last.segments : null, hover: state.hover,
        camera: own ? stateView?.camera : app.view?.camera, canvas, shown: active && !(own && canvas?.hidden),
      });
    }
    app.view?.controls.addEventListener('change', drawHighlight);

    function showEntry() {
      if (!state.hover || !last?.ok) {
        ui.entry.textContent = 'Hover an entry to see its two segments on the cloth.';
        return;
      }
      const [i, j] = state.hover;
      if (i === j) ui.entry.textContent = `segment s${i} (the diagonal has no value)`;
      else {
        const k = upperIndex(i, j, last.segmentCount);
        const defined = last.status[k] === 0;
        ui.entry.textContent = `dGLI(s${Math.min(i, j)}, s${Math.max(i, j)}) = ${defined ? fmt(last.values[k], 4) : 'undefined (the segments touch)'}`;
      }
    }
    ui.matrix.addEventListener('pointermove', (event) => {
      const at = last?.ok ? entryAt(event, ui.matrix, last.segmentCount) : null;
      const changed = String(at) !== String(state.hover);
      state.hover = at;
      if (changed) {
        showEntry();
        drawHighlight();
      }
    });
    ui.matrix.addEventListener('pointerleave', () => {
      state.hover = null;
      showEntry();
      drawHighlight();
    });

    // ---- classification
    function showError(message) {
      state.error = message || null;
      ui.error.textContent = message;
      ui.error.hidden = !message;
    }
    function showDatabaseError(message) {
      state.databaseError = message || null;
      ui.databaseError.textContent = message;
      ui.databaseError.hidden = !message;
      if (message) app.showError(message);
    }
    // what the shown classification is of, in a few words
    const what = () => (source() === 'frame' ? `step ${latest?.steps ?? '–'}`
      : source() === 'obj' ? `“${objState?.name}”, its outer boundary` : 'reconstructed boundary');
    function show(result) {
      if (!result.ok) {
        state.status = 'error';
        const what = source() === 'obj' ? `“${objState?.name}”` : source() === 'boundary' ? 'The reconstructed boundary' : 'This frame';
        showError(`${what} cannot be classified: ${result.error}`);
        // the previous result is not this input's: it neither stays on show nor exports
        last = null;
        ui.exportJson.disabled = true;
        Object.assign(state, { className: '', distance: null, runnerUpName: '', runnerUpDistance: null, values: [] });
        clearPrediction(ui);
        if (source() !== 'frame') {
          stateView?.clear();
          showStateView();
        }
        return;
      }
      showError('');
      last = result;
      classifiedK = result.k ?? 1;
      ui.exportJson.disabled = false;
      state.status = 'classified';
      state.className = result.class;
      state.distance = result.distance;
      state.runnerUpName = result.runnerUp ?? '';
      state.runnerUpDistance = result.runnerUpDistance;
      state.representativeName = result.representativeClass;
      state.representativeDistance = result.representativeDistance;
      state.novel = result.novel;
      state.k = classifiedK;
      state.knnVotes = result.knnVotes;
      state.segments = result.segmentCount;
      state.values = Array.from(result.values);
      state.classified++;
      showPrediction(ui, result, { k: classifiedK, what: what() });
      if (source() !== 'frame') {
        ownView()?.setState({ objText: source() === 'obj' ? objState?.text : null, segments: result.segments });
        showStateView();
      }
      showEntry();
      drawHighlight();
    }
    const source = () => ui.source.value;
    let boundary = null; // { name, points } from the Reconstruct panel
    let linkedCloud = null; // a share link's reconstructed boundary: the cloud's name
    document.addEventListener('tela:reconstruction', ({ detail }) => {
      boundary = detail?.boundary?.length >= 12 ? detail : null;
      ui.source.options[1].disabled = !boundary;
      if (boundary && linkedCloud) { // the reconstruction the link was made on (by name)
        linkedCloud = null;
        ui.linkHint.hidden = true;
        ui.source.value = 'boundary';
      }
      // the title, the state and the view follow (sourceChanged), not only the selector
      if (!boundary && source() === 'boundary') {
        ui.source.value = 'frame';
        sourceChanged();
      } else if (boundary && source() === 'boundary') sourceChanged();
    });
    // an OBJ cloth state opened in the page (drop router -> open)
    let objState = null; // { name, text, sha256 }
    let linkedObj = null; // a share link's OBJ state waiting to be opened: { name, sha256 }
    // the reconstructed boundary or the opened OBJ: classified when it or the settings change
    async function classifyOpened() {
      const kind = source();
      const [request, subject] = kind === 'boundary' && boundary
        ? [{ type: 'classifyBoundary', points: boundary.points }, { source: kind, cloud: boundary.name }]
        : kind === 'obj' && objState ? [{ type: 'classifyObj', text: objState.text }, { source: kind, file: objState.name }]
          : [null, null];
      if (!request || !(await databaseReady)) return;
      const result = await client.request({ ...request, k: k() });
      if (result.cancelled || source() !== kind) return;
      state.source = kind;
      classified = subject;
      show(result);
    }
    this.open = async ({ name, bytes, format }) => {
      if (format === 'dgli-database') return openDatabase(name, new TextDecoder().decode(bytes));
      objState = { name, text: new TextDecoder().decode(bytes), sha256: await sha256(bytes) };
      if (linkedObj) {
        const differs = linkedObj.sha256 && objState.sha256 && linkedObj.sha256 !== objState.sha256;
        linkedObj = null;
        ui.linkHint.hidden = true;
        if (differs) app.showNotice(`Classify: “${name}” is not the OBJ the link was made with; it is classified anyway.`);
      }
      const option = ui.source.options[2];
      option.disabled = false;
      option.textContent = `the opened mesh “${name}”`;
      ui.source.value = 'obj';
      sourceChanged();
      app.showNotice(`Classifying “${name}” (an OBJ cloth state: its outer boundary).`);
    };
    function sourceChanged() {
      state.source = source();
      ui.matrixTitle.textContent = source() === 'frame' ? 'dGLI matrix (current frame)'
        : source() === 'obj' ? `dGLI matrix (“${objState?.name}”)` : `dGLI matrix (boundary of “${boundary?.name}”)`;
      showStateView();
      if (source() === 'frame') classifyLatest();
      else classifyOpened();
      drawHighlight();
    }
    ui.source.addEventListener('change', sourceChanged);

    // ---- share links: the vote and what was classified (an opened OBJ by name and SHA-256,
    // never its contents); the simulated frame is the link's scene and step
    this.shareState = () => {
      const shared = { k: k(), source: source(),
        ...(source() === 'obj' && objState ? { obj: { name: objState.name, sha256: objState.sha256 } } : {}),
        ...(source() === 'boundary' && boundary ? { cloud: boundary.name } : {}) };
      const note = shared.obj
        ? `the classification settings for “${objState.name}”. The OBJ itself is not in it: whoever opens the link is asked for that file`
        : shared.cloud
          ? `the classification settings for the boundary reconstructed from “${shared.cloud}”. The cloud and its reconstruction are not in it: whoever opens the link is asked to reconstruct that cloud`
          : `the classification settings (${shared.k === 1 ? 'nearest state' : `${shared.k} nearest states`})`;
      return { state: shared, note };
    };
    this.restoreState = async (s) => {
      if (typeof s !== 'object' || s === null) return false;
      if ([1, 3, 5, 7, 9].includes(s.k)) ui.k.value = String(s.k);
      if (s.source === 'obj' && typeof s.obj?.name === 'string') {
        linkedObj = { name: s.obj.name, sha256: typeof s.obj.sha256 === 'string' ? s.obj.sha256 : null };
        ui.linkHint.textContent = `This link classified the OBJ state “${linkedObj.name}”: open that file (links never carry uploaded data).`;
        ui.linkHint.hidden = false;
      }
      if (s.source === 'boundary' && typeof s.cloud === 'string') {
        linkedCloud = s.cloud;
        ui.linkHint.textContent = `This link classified the boundary reconstructed from “${s.cloud}”: open that cloud in Reconstruct and reconstruct it (links never carry uploaded data); until then the simulated frame is classified.`;
        ui.linkHint.hidden = false;
      }
      sourceChanged();
      return true;
    };
    ui.k.addEventListener('change', sourceChanged);
    async function classifyLatest() {
      if (!active || !latest || !sceneReady || databaseFailed || source() !== 'frame') return;
      if (inFlight) { // the frame is classified again once the answer in flight is back
        rerun = true;
        return;
      }
      const elapsed = performance.now() - lastRun;
      if (elapsed < INTERVAL_MS) {
        clearTimeout(timer);
        timer = setTimeout(classifyLatest, INTERVAL_MS - elapsed);
        return;
      }
      inFlight = true;
      lastRun = performance.now();
      const frame = latest;
      if (!(await databaseReady)) {
        inFlight = false;
        return;
      }
      const scene = await sceneReady;
      if (scene.ok) {
        const against = databaseName;
        const result = await client.request({ type: 'classify', positions: frame.positions, k: k() });
        state.steps = frame.steps;
        if (!result.cancelled && source() === 'frame') {
          classified = { source: 'frame', scene: app.state.name, step: frame.steps, stateHash: frame.hash };
          state.classifiedWith = against;
          show(result);
        }
      } else {
        state.status = 'error';
        showError(`The current scene has no mesh to classify: ${scene.error}`);
      }
      inFlight = false;
      // a paused simulation sends no new frame: a new database or k must not wait for one
      if (latest !== frame || rerun) {
        rerun = false;
        classifyLatest();
      }
    }

    // ---- export: what the panel shows, with the settings and the database it came from
    ui.exportJson.addEventListener('click', () => {
      if (!last?.ok) return;
      const text = JSON.stringify(classificationJson(last, { classified, k: classifiedK, database, databaseName }), null, 1);
      state.exported = text;
      const name = classified?.source === 'boundary' ? classified.cloud.replace(/\.[^.]*$/, '')
        : classified?.source === 'obj' ? classified.file.replace(/\.[^.]*$/, '') : `${classified?.scene}-step${classified?.step}`;
      download(text, `tela-classification-${name}.json`, 'application/json');
    });

    // the worker, its wasm and the database are loaded when the panel is first shown
    let started = false;
    let sceneText = '';
    const loadScene = () => {
      if (started && sceneText) sceneReady = client.request({ type: 'scene', scenario: sceneText });
    };
    app.on('scene', (s) => {
      if (!s.scenarioText) return;
      sceneText = s.scenarioText;
      loadScene();
    });
    app.on('frame', (frame) => {
      latest = { positions: frame.positions, steps: frame.steps, hash: frame.hash };
      classifyLatest();
    });
    this.activate = () => {
      active = true;
      highlight.overlay.hidden = false;
      showStateView();
      if (!started) {
        started = true;
        loadScene();
        databaseReady = loadDatabase();
      }
      classifyLatest();
    };
    this.deactivate = () => {
      active = false;
      highlight.overlay.hidden = true;
      showStateView();
    };

    // ---- database and gallery
    let databaseName = DATABASE_URL; // the shipped database, or the name of an opened one
    // the worker's classifier from JSON text; false (and the message) when it is not a database
    async function installDatabase(json, name) {
      let parsed;
      try {
        parsed = JSON.parse(json);
      } catch (err) {
        throw new Error(`“${name}” is not JSON: ${err.message}`);
      }
      const answer = await client.request({ type: 'database', json });
      if (!answer.ok) throw new Error(answer.error);
      database = parsed;
      databaseName = name;
      showGallery(ui, database, { name, shipped: name === DATABASE_URL });
    }
    const loadDatabase = async () => {
      try {
        const response = await fetch(DATABASE_URL);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        await installDatabase(await response.text(), DATABASE_URL);
      } catch (err) {
        state.status = 'error';
        databaseFailed = true;
        showError(`The dGLI database could not be loaded: ${err.message}`);
        ui.prediction.textContent = 'no classifier';
        return false;
      }
      state.status = 'ready';
      ui.prediction.textContent = 'waiting for a frame…';
      return true;
    };
    // an opened database replaces the one in use; one that does not load leaves it in place
    async function openDatabase(name, json) {
      await databaseReady; // the shipped one first (or its failure), then this one
      try {
        await installDatabase(json, name);
      } catch (err) {
        app.showNotice(''); // (a notice about an earlier database no longer says what happened)
        showDatabaseError(`“${name}” cannot be used: ${err.message}. Still classifying against “${databaseName}”.`);
        return;
      }
      showDatabaseError('');
      databaseFailed = false;
      databaseReady = Promise.resolve(true);
      state.database = name;
      app.showNotice(`Classifying against “${name}” (${database.states.length} states, ${database.classes.length} classes).`);
      sourceChanged(); // classify what is shown again
    }
  },
  // replaced in mount() by the panel's own reader (an OBJ cloth state)
  async open() {},
  activate() {},
  deactivate() {},
};
