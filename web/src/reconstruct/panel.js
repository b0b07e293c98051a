// The Reconstruct panel (thesis chapter 5): open a point cloud (PLY, PCD, XYZ; drop it
// anywhere or use the buttons), clean it (reconstruct/fields.js: crop box, voxel grid,
// statistical outliers, RANSAC plane removal) with a live preview, reconstruct its Morse cell
// complex in the panel's own worker (reconstruct/worker.js, reconstruct/client.js), and see
// the 2-cells, critical points, 1-cells, boundary curves, level-set curves and topology
// (reconstruct/result.js, reconstruct/view.js); export a labelled PLY and the re-sampled mesh,
// or send the mesh to Simulate as an explicit { "type": "mesh" } scenario
// (reconstruct/outputs.js). window.__tela.reconstruct mirrors the panel's state for tests.
import { download } from '../io/download.js';
import { objText, plyText } from '../io/export.js';
import { sha256 } from '../io/hash.js';
import { byId, el, fmt } from '../ui/dom.js';
import { typedNumber } from '../ui/number_field.js';
import { createReconstructClient } from './client.js';
import { CLEANING, RECONSTRUCT, cleaningOn, cleaningOptions, settingsFieldsets, typedOptions, withDefaults } from './fields.js';
import { complexJson, labelledPly, meshFaces, meshScenario } from './outputs.js';
import { createResult } from './result.js';
import { createCloudView } from './view.js';
import './reconstruct.css';

// public/ is served at the base URL ('./': relative to the page)
const SAMPLE_URL = `${import.meta.env.BASE_URL}samples/wavy-cloth.ply`;
const SAMPLE_NAME = 'wavy-cloth.ply';

export const reconstructPanel = {
  id: 'reconstruct',
  title: 'Reconstruct',
  accepts: ['ply', 'pcd', 'xyz-points'],

  mount(container, app) {
    const state = (window.__tela.reconstruct = {
      status: 'empty', name: '', points: 0, cleaned: 0, error: null, topology: null,
      oneCells: 0, boundaryCurves: 0, criticalPoints: 0, labels: 0, mesh: null, stage: '',
    });
    const ui = {};
    let cloud = null;      // { name, positions (Float64Array), colors (Uint8Array | null) }
    let cleaned = null;    // Float64Array, after cleaning (or cloud.positions when nothing is on)
    let result = null;     // the reconstruction
    let cleanedWith = null; // { options, steps } of the cleaning behind `cleaned`, or null (none)
    let reconstructedFrom = { cleaning: null, options: null }; // what `result` was made from
    let previewTimer = 0;
    let previewToken = 0;
    let linked = null;     // a share link's state waiting for its cloud to be opened (restoreState)

    const viewport = byId('viewport');
    let view = null;
    try {
      view = createCloudView(viewport);
    } catch (err) {
      app.showError(`WebGL is not available, so the cloud cannot be drawn: ${err.message}`);
    }
    this.view = view;
    // for tests, not enumerable: copies of window.__tela stay plain data
    Object.defineProperty(window.__tela, 'reconstructView', { value: view, configurable: true });

    const client = createReconstructClient({ onStage: (stage) => setBusy(stage) });

    // ---- open
    ui.sample = el('button', { type: 'button', id: 'reconstruct-sample', textContent: 'Load sample' });
    ui.sample.title = 'a generated 1 m wavy square cloth, 3,000 points with 2 mm noise';
    ui.open = el('button', { type: 'button', id: 'reconstruct-open', textContent: 'Open cloud…' });
    ui.file = el('input', { type: 'file', hidden: true, accept: '.ply,.pcd,.xyz,.csv,.txt,.pts' });
    ui.info = el('p', { className: 'description', id: 'reconstruct-info',
      textContent: 'Drop a point cloud (PLY, PCD, XYZ/CSV) anywhere, or load the sample.' });
    container.append(el('h2', { textContent: 'Point cloud' }),
      el('div', { className: 'exports' }, ui.sample, ui.open, ui.file), ui.info);

    ui.progress = el('progress', { id: 'reconstruct-progress' });
    ui.stage = el('span', { className: 'hint' });
    ui.cancel = el('button', { type: 'button', textContent: 'Cancel' });
    ui.busy = el('div', { className: 'busy', hidden: true }, ui.progress, ui.stage, ui.cancel);
    ui.error = el('p', { className: 'field-error', id: 'reconstruct-error', hidden: true });
    container.append(ui.busy, ui.error);

    // ---- cleaning, reconstruction, result
    const inputs = {};
    const fieldsets = settingsFieldsets(ui, inputs);
    ui.cleanSummary = el('p', { className: 'hint', id: 'reconstruct-clean-summary' });
    container.append(el('h2', { textContent: 'Cleaning' }), fieldsets.cleaning, ui.cleanSummary);
    ui.run = el('button', { type: 'button', id: 'reconstruct-run', textContent: 'Reconstruct', disabled: true });
    container.append(el('h2', { textContent: 'Reconstruction' }), fieldsets.reconstruction,
      el('div', { className: 'transport' }, ui.run));
    const shown = createResult(ui, view, () => result, app, state);
    container.append(...shown.elements);
    const showResult = shown.show;

    // ---- behaviour
    // state.status and the status line under the view, which this panel's stage covers
    const STATUS_LINES = {
      empty: () => 'Reconstruct: no point cloud yet. Drop a PLY, PCD or XYZ/CSV file anywhere, or load the sample.',
      parsing: () => `Reconstruct: reading “${state.name}”…`,
      loaded: () => `Reconstruct: “${state.name}”, ${state.points} points`,
      reconstructing: () => `Reconstruct: reconstructing “${state.name}”…`,
      done: () => `Reconstruct: “${state.name}”, ${state.points} points, reconstructed`,
      error: () => 'Reconstruct: stopped on an error (its message is shown with the view and in the panel)',
    };
    function setStatus(status) {
      state.status = status;
      app.setStatus(STATUS_LINES[status](), 'reconstruct');
    }
    setStatus('empty');
    function setBusy(stage) {
      state.stage = stage || '';
      ui.busy.hidden = !stage;
      ui.stage.textContent = stage ? ` ${stage}…` : '';
      if (!stage) ui.progress.removeAttribute('value');
    }
    let shownOverView = false; // the page's message box over the view holds our error
    function showError(message) {
      state.error = message;
      setStatus('error');
      ui.error.textContent = message;
      ui.error.hidden = !message;
      if (message) {
        app.showError(`Reconstruct: ${message}`);
        shownOverView = true;
      }
    }
    function clearErrors() {
      if (state.status === 'error') setStatus(cloud ? (result ? 'done' : 'loaded') : 'empty');
      state.error = null;
      ui.error.hidden = true;
      if (shownOverView) app.clearError();
      shownOverView = false;
    }
    ui.cancel.addEventListener('click', () => {
      client.cancel();
      setBusy('');
      setStatus(cloud ? 'loaded' : 'empty');
      app.showNotice('Reconstruct: cancelled.');
    });

    // live preview of the cleaning, debounced; a newer edit makes older answers stale
    // (Reconstruct first runs a pending one: a click right after an edit must reconstruct
    // what the settings say, and the late preview must not wipe that result)
    let previewPending = false;
    function schedulePreview() {
      clearTimeout(previewTimer);
      previewPending = true;
      previewTimer = setTimeout(preview, 250);
    }
    // -> true when `cleaned` is the cloud cleaned with the current settings
    async function preview() {
      previewPending = false;
      if (!cloud) return false;
      const o = cleaningOptions(ui, inputs);
      const token = ++previewToken;
      // until this cleaning succeeds there is nothing to reconstruct
      const unusable = (message) => {
        cleaned = null;
        ui.run.disabled = true;
        if (message) ui.cleanSummary.textContent = message;
        return false;
      };
      if (!cleaningOn(o)) {
        clearErrors(); // (a refused cleaning's message is about settings no longer there)
        cleanedWith = null;
        cleaned = cloud.positions;
        ui.run.disabled = false;
        state.cleaned = cloud.positions.length / 3;
        ui.cleanSummary.textContent = `no cleaning: ${state.cleaned} points`;
        if (!result) view?.setCloud(cloud.positions, null);
        return true;
      }
      if (o.crop && !(o.crop.min.length === 3 && o.crop.max.length === 3 && [...o.crop.min, ...o.crop.max].every(Number.isFinite)))
        return unusable('crop: min and max need three numbers each (x, y, z in metres)');
      // posted without a transfer list, so the message is a copy and the panel keeps its own
      // (a .slice() here would copy a large cloud twice, on the main thread)
      const answer = await client.request({ type: 'clean', positions: cloud.positions, options: o });
      setBusy('');
      if (token !== previewToken || answer.cancelled) return false;
      if (!answer.ok) {
        ui.cleanSummary.textContent = '';
        showError(`cleaning: ${answer.error}`);
        return unusable();
      }
      clearErrors();
      ui.run.disabled = false;
      cleaned = answer.positions;
      cleanedWith = { options: withDefaults(CLEANING, o), steps: answer.steps.map((s) => ({ step: s.step, count: s.count })) };
      state.cleaned = answer.count;
      const steps = answer.steps.map((s) => `${s.step} ${s.count}`).join(' → ');
      const planes = answer.planes.length ? ` · ${answer.planes.length} plane(s) removed` : '';
      ui.cleanSummary.textContent = `${steps}${planes} (${fmt(answer.ms, 2)} ms)`;
      result = null;
      showResult(null);
      view?.setPreview(cloud.positions, cleaned);
      return true;
    }
    for (const input of [...Object.values(inputs).slice(0, CLEANING.length), ui.cropOn, ui.cropMin, ui.cropMax]) {
      input.addEventListener('input', schedulePreview);
      input.addEventListener('change', schedulePreview);
    }

    let fromSample = false; // the cloud being opened is the shipped sample
    const openCloud = async ({ name, bytes }) => {
      clearErrors();
      app.clearError();
      setStatus('parsing');
      state.name = name;
      result = null;
      showResult(null);
      // the hash first: the bytes then move to the worker (transferred, not copied: a cloud
      // of a gigabyte must not be held twice), and the caller's view of them is emptied
      const hash = await sha256(bytes);
      const answer = await client.request({ type: 'parse', name, bytes }, [bytes.buffer]);
      setBusy('');
      if (answer.cancelled) return;
      if (!answer.ok) {
        cloud = cleaned = null;
        ui.run.disabled = ui.exportCleaned.disabled = true;
        ui.info.textContent = `“${name}”: not read.`;
        showError(`“${name}” could not be read as a point cloud: ${answer.error}`);
        return;
      }
      if (answer.count < 10) {
        cloud = cleaned = null;
        ui.run.disabled = ui.exportCleaned.disabled = true;
        showError(`“${name}” holds only ${answer.count} usable point${answer.count === 1 ? '' : 's'}; a reconstruction needs many more.`);
        return;
      }
      const colors = answer.colors; // Uint8Array r, g, b (drawn normalized), or null
      cloud = { name, positions: answer.positions, colors, sha256: hash, sample: fromSample };
      cleaned = cloud.positions;
      cleanedWith = null;
      state.points = answer.count;
      state.cleaned = answer.count;
      setStatus('loaded');
      const grid = answer.gridWidth > 0 ? ` · organized ${answer.gridWidth} × ${answer.gridHeight}` : '';
      const dropped = answer.droppedNonFinite ? ` · ${answer.droppedNonFinite} NaN points dropped` : '';
      ui.info.textContent = `“${name}”: ${answer.format}, ${answer.count} points${grid}${dropped} (read in ${fmt(answer.ms, 2)} ms).`;
      ui.run.disabled = ui.exportCleaned.disabled = false;
      const stride = view?.setCloud(cloud.positions, colors) ?? 1;
      if (stride > 1) ui.info.textContent += ` Drawn: 1 point in ${stride} (the analysis uses all of them).`;
      if (cleaningOn(cleaningOptions(ui, inputs))) await preview();
      else ui.cleanSummary.textContent = `no cleaning: ${answer.count} points`;
      if (linked) await reproduce();
    };

    // A share link's reconstruction: its settings are in the fields; once its cloud is open,
    // the same reconstruction runs (a different file than the link's is said so, and used).
    async function reproduce() {
      const s = linked;
      linked = null;
      const same = !s.input.sha256 || !cloud.sha256 || s.input.sha256 === cloud.sha256;
      if (s.reconstructed) await reconstruct();
      if (!same) {
        const differs = `“${cloud.name}” is not the file the link was made with (“${s.input.name}”, SHA-256 ${s.input.sha256.slice(0, 12)}…); the link's settings were used anyway.`;
        ui.info.textContent += ` ${differs}`;
        app.showNotice(`Reconstruct: ${differs}`);
      } else if (result) {
        app.showNotice(`Reconstruct: reproduced the shared reconstruction of “${cloud.name}”: χ = ${result.topology.euler}, cells ${Array.from(result.topology.cells).join(', ')}.`);
      }
    }

    async function openBlob(name, blob) {
      // read with progress: large files take a while
      setBusy(`reading “${name}”`);
      ui.progress.max = blob.size || 1;
      const reader = blob.stream().getReader();
      const bytes = new Uint8Array(blob.size);
      let offset = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes.set(value, offset);
        offset += value.length;
        ui.progress.value = offset;
      }
      ui.progress.removeAttribute('value');
      await openCloud({ name, bytes: bytes.subarray(0, offset) });
    }
    this.open = openCloud; // the registry's copy of this panel: the drop router calls it
    ui.open.addEventListener('click', () => ui.file.click());
    ui.file.addEventListener('change', async () => {
      const file = ui.file.files[0];
      ui.file.value = '';
      if (file) await openBlob(file.name, file);
    });
    ui.sample.addEventListener('click', async () => {
      setBusy('downloading the sample');
      try {
        const response = await fetch(SAMPLE_URL);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        fromSample = true;
        await openBlob(SAMPLE_NAME, await response.blob());
      } catch (err) {
        setBusy('');
        showError(`the sample cloud could not be loaded: ${err.message}`);
      } finally {
        fromSample = false;
      }
    });

    async function reconstruct() {
      if (previewPending) {
        clearTimeout(previewTimer);
        if (!(await preview())) return;
      }
      if (!cleaned) return;
      clearErrors();
      app.showNotice(''); // (the last run's "Reconstructed …" is not about this one)
      const o = typedOptions(RECONSTRUCT, inputs);
      setStatus('reconstructing');
      ui.run.disabled = true;
      ui.progress.removeAttribute('value');
      const answer = await client.request({ type: 'reconstruct', positions: cleaned, options: o }); // a copy, as above
      setBusy('');
      ui.run.disabled = !cloud;
      if (answer.cancelled) return;
      if (!answer.ok) {
        showResult(null);
        showError(`reconstruction failed: ${answer.error}`);
        return;
      }
      result = answer;
      reconstructedFrom = { cleaning: cleanedWith, options: withDefaults(RECONSTRUCT, o) };
      showResult(answer);
      setStatus('done');
      ui.summary.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    }
    ui.run.addEventListener('click', reconstruct);

    // ---- share links: the settings and which cloud (never its points)
    this.shareState = () => {
      if (!cloud) return null;
      // an empty field travels as null: the opener keeps its field's initial value, the default
      const values = Object.fromEntries(Object.entries(inputs).map(([key, input]) => [key, typedNumber(input) ?? null]));
      const shared = {
        input: { name: cloud.name, points: state.points, sha256: cloud.sha256, sample: cloud.sample },
        values, crop: ui.cropOn.checked ? { min: ui.cropMin.value, max: ui.cropMax.value } : null,
        reconstructed: Boolean(result),
      };
      const note = cloud.sample
        ? 'the sample cloud, reconstructed with these settings when the link opens'
        : `the settings for “${cloud.name}”. The cloud itself is not in it: whoever opens the link is asked for that file`;
      return { state: shared, note };
    };
    this.restoreState = async (s) => {
      if (typeof s !== 'object' || s === null || typeof s.input !== 'object' || s.input === null) return false;
      for (const [key, input] of Object.entries(inputs)) {
        if (Number.isFinite(s.values?.[key])) input.value = String(s.values[key]);
      }
      ui.cropOn.checked = Boolean(s.crop);
      ui.cropMin.value = typeof s.crop?.min === 'string' ? s.crop.min : '';
      ui.cropMax.value = typeof s.crop?.max === 'string' ? s.crop.max : '';
      linked = { input: { name: String(s.input.name ?? ''), sha256: typeof s.input.sha256 === 'string' ? s.input.sha256 : null },
        reconstructed: s.reconstructed === true };
      if (s.input.sample === true) {
        ui.sample.click();
        return true;
      }
      const hash = linked.input.sha256 ? `, SHA-256 ${linked.input.sha256.slice(0, 12)}…` : '';
      ui.info.textContent = `This link reproduces a reconstruction of “${linked.input.name}” (${Number(s.input.points) || '?'} points${hash}) with the settings below: open that file (links never carry uploaded data).`;
      app.showNotice(`Reconstruct: open “${linked.input.name}” to reproduce the shared reconstruction.`);
      return true;
    };

    // downloads are tela-<cloud>-<what>, as the other panels' (no spaces: they came from the file name)
    // the cloud's file name without its extension, spaces as '_': names downloads and scenarios
    const stem = () => (state.name || 'cloud').replace(/\.[^.]*$/, '').replace(/\s+/g, '_');
    const base = () => `tela-${stem()}`;
    ui.exportPly.addEventListener('click', () => {
      if (result) download(labelledPly(result, `tela reconstruction of ${state.name}`), `${base()}-labelled.ply`);
    });
    ui.exportJson.addEventListener('click', () => {
      if (!result) return;
      const text = JSON.stringify(complexJson(result, { name: state.name, points: state.points, ...reconstructedFrom }), null, 1);
      state.exported = text;
      download(text, `${base()}-complex.json`, 'application/json');
    });
    ui.exportCleaned.addEventListener('click', () => {
      if (!cleaned) return;
      const how = cleanedWith ? cleanedWith.steps.map((s) => `${s.step} ${s.count}`).join(' -> ') : 'no cleaning';
      download(plyText(cleaned, new Int32Array(0), `tela cleaned cloud of ${state.name}: ${how}`), `${base()}-cleaned.ply`);
    });
    ui.exportMesh.addEventListener('click', () => {
      if (result?.mesh) download(objText(result.mesh.positions, meshFaces(result.mesh), `tela re-sampled mesh of ${state.name}`), `${base()}-mesh.obj`);
    });
    ui.simulate.addEventListener('click', async () => {
      if (!result?.mesh) return;
      const template = await client.request({ type: 'scene', name: 'hang-7x9' });
      if (!template.ok || !template.json) return showError('the simulation template scene is missing');
      const scenario = meshScenario(JSON.parse(template.json), result.mesh, `reconstructed-${stem()}`);
      const answer = await app.loadScenario(scenario, { play: true });
      if (!answer.ok) return showError(`the mesh cannot be simulated: ${answer.message}`);
      app.showPanel('simulate');
      app.showNotice(`Simulating the re-sampled mesh of “${state.name}” (${state.mesh.nodes} nodes), held at two corners.`);
    });
  },

  // replaced in mount() by the panel's own reader
  async open() {},
  activate() {
    this.view?.show(true);
    byId('viewport')?.classList.add('overlay-active');
  },
  deactivate() {
    this.view?.show(false);
    byId('viewport')?.classList.remove('overlay-active');
  },
};
