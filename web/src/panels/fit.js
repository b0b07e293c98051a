// The Fit panel (thesis chapter 4 in the page): a dropped recording (or the sample) is parsed
// by the fitting workers' core; the panel shows what was detected and lets the user correct
// it (up axis, grid, held corners, duration, training window), runs the fit on several
// workers with a progress bar and Cancel, and shows e_i and s_i against time, the
// (δ/ρ, α/ρ) error heat map with the optimum and the a-priori estimate (Table 4.6), and a
// 3D replay in the page's view (web/src/fit/replay_view.js): the recorded markers as soon as
// the recording is read, the simulated cloth at the fitted parameters once the fit is done. A recording of cloth on a table
// is fitted against a built-in scene's obstacles, with the Coulomb friction μ fitted too
// (thesis §4.3; the same FitJob as `tela fit --scenario NAME`). Exports: the fit as JSON with
// provenance (settings, SHA-256 of the input file, app version) and a share link that carries
// the fitted parameters in a Simulate scenario — never the recording.
//
// window.__tela.fit mirrors the panel for tests: { state, summary, progress, result, error,
// workers, exported }.
import { version as APP_VERSION } from '../../../package.json';
import { createFitClient, defaultWorkerCount } from '../fit/client.js';
import { drawErrorCurve, drawHeatmap } from '../fit/plots.js';
import { createReplayView } from '../fit/replay_view.js';
import { encodeShareHash } from '../share/link.js';
import { sha256 } from '../io/hash.js';
import { markerReplayCsv } from '../io/export.js';
import { download } from '../io/download.js';
import { typedNumber } from '../ui/number_field.js';
import '../fit/fit.css';

let openFile = null; // the mounted panel's open(name, bytes)
let active = false;  // the Fit tab is shown

// the 3D view over the simulator's while the tab is shown and there is something to draw
function showView(view) {
  const shown = Boolean(view?.show(active));
  document.getElementById('viewport')?.classList.toggle('overlay-active', shown);
}

const SAMPLE = { url: 'samples/a3-shake-synthetic.csv', name: 'a3-shake-synthetic.csv' };
const UP_AXES = ['', 'z', 'y', 'x', '-z', '-y', '-x'];
// where the obstacles of a contact fit come from (in the recording's z-up frame, metres): a
// built-in scene (`tela synth-recording A2-lay` lays a sheet on the tablecloth scene's table)
// or the Simulate panel's current scenario (a scene edited there or a scenario file opened
// there), as `tela fit --scenario NAME|FILE`
const OBSTACLE_SCENES = [['', 'none'], ['tablecloth', 'tablecloth: table (top z = 0.75 m) and floor'],
  ['simulate', 'the Simulate panel’s scenario']];

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const fmt = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–');
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '–');

function param(label, input, unit = '') {
  return el('label', { className: 'param' }, el('span', { textContent: label }), input, el('span', { className: 'unit', textContent: unit }));
}
function numberInput(id, value, { step = 'any', min, placeholder } = {}) {
  const input = el('input', { id, type: 'number', step, value: value ?? '' });
  if (min !== undefined) input.min = min;
  if (placeholder) input.placeholder = placeholder;
  return input;
}
function select(id, options) {
  const s = el('select', { id });
  s.append(...options.map(([value, text]) => el('option', { value, textContent: text })));
  return s;
}

// the fields a share link carries (ui keys): the corrections and the fit's settings, not the
// worker count (the result does not depend on it)
const SHARED_FIELDS = ['format', 'units', 'up', 'cols', 'rows', 'exclude', 'order', 'held1', 'held2', 'duration',
  'heldSmoothing', 'meshRefine', 'width', 'height', 'rho', 'kappa', 'scene',
  'grid', 'refine', 'split', 'repetition', 'muGrid', 'muMax', 'startDelta', 'startAlpha', 'startMu'];


export const fitPanel = {
  id: 'fit',
  title: 'Fit',
  accepts: ['optitrack-csv', 'vicon-csv', 'qualisys-tsv', 'c3d', 'mocap-csv'],

  mount(container, app) {
    const mirror = (window.__tela.fit = { state: 'empty', summary: null, progress: 0, result: null, error: null, workers: 0, exported: null });
    const ui = {};
    let file = null;     // { name, bytes, sha256, sample }
    let linked = null;   // a share link's state waiting for its recording (restoreState)
    let client = null;
    let summary = null;
    let result = null;
    let settingsUsed = null;
    let optionsUsed = null;
    let replaySteps = 0; // steps of the replay's time line (0: nothing to replay)
    let replayTimer = 0;
    // the 3D view, made when a recording is first read (a WebGL context is not free at start-up)
    let view3d = null;
    let noWebGl = false;
    const panel = this;
    function replayView() {
      if (view3d || noWebGl) return view3d;
      try {
        view3d = createReplayView(document.getElementById('viewport'));
      } catch (err) {
        noWebGl = true;
        app.showError(`WebGL is not available, so the recording cannot be drawn: ${err.message}`);
        return null;
      }
      panel.view = view3d;
      // for tests, not enumerable: copies of window.__tela stay plain data
      Object.defineProperty(window.__tela, 'fitView', { value: view3d, configurable: true });
      return view3d;
    }

    // ---- recording
    ui.sample = el('button', { type: 'button', id: 'fit-sample', textContent: 'Load sample recording' });
    ui.sample.title = 'a synthetic A3 recording (Motive CSV, 6 s, 1 mm noise, 5 % occlusions) shipped with tela';
    ui.error = el('p', { className: 'field-error', id: 'fit-error', hidden: true });
    ui.error.setAttribute('role', 'alert');
    ui.detected = el('dl', { className: 'fit-detected', id: 'fit-detected' });
    ui.linkHint = el('p', { className: 'hint', id: 'fit-link-hint', hidden: true });
    container.append(
      el('h2', { textContent: 'Recording' }),
      el('p', { className: 'hint', textContent: 'Drop a motion-capture recording anywhere (OptiTrack Motive CSV, Vicon CSV, Qualisys TSV, C3D, or a frame/time/marker CSV), use Open…, or:' }),
      ui.sample, ui.linkHint, ui.error, ui.detected);

    // ---- corrections
    ui.up = select('fit-up', UP_AXES.map((a) => [a, a ? `${a} is up` : 'automatic']));
    // the reader and the length unit, when the detected ones are wrong (a CSV without units
    // is read in the unit its magnitudes suggest, shown as "guessed")
    ui.format = select('fit-format', [['', 'automatic'], ['motive-csv', 'OptiTrack Motive CSV'], ['vicon-csv', 'Vicon Nexus CSV'],
      ['qualisys-tsv', 'Qualisys TSV'], ['c3d', 'C3D'], ['csv', 'plain CSV (long or wide)']]);
    ui.units = select('fit-units', [['', 'automatic'], ['mm', 'millimetres'], ['cm', 'centimetres'], ['m', 'metres']]);
    ui.cols = numberInput('fit-cols', '', { step: 1, min: 2, placeholder: 'auto' });
    ui.rows = numberInput('fit-rows', '', { step: 1, min: 2, placeholder: 'auto' });
    ui.held1 = select('fit-held-1', [['', 'automatic']]);
    ui.held2 = select('fit-held-2', [['', 'automatic']]);
    // markers that are not on the cloth, and the grid's order when detection cannot find it
    ui.exclude = el('input', { type: 'text', id: 'fit-exclude', placeholder: 'none', spellcheck: false,
      title: 'marker names not on the cloth, comma-separated (e.g. a marker on the hanger or the table)' });
    ui.order = el('input', { type: 'text', id: 'fit-order', placeholder: 'automatic', spellcheck: false,
      title: 'the cloth markers row by row from the top-left, comma-separated; needs marker columns and rows' });
    ui.duration = numberInput('fit-duration', '', { min: 0, placeholder: 'all' });
    ui.meshRefine = numberInput('fit-mesh-refine', '', { step: 1, min: 1, placeholder: '2' });
    ui.meshRefine.title = 'mesh intervals per marker interval (thesis §4.2.2: A2 4 × 5 markers → 7 × 9 nodes with 2)';
    ui.width = numberInput('fit-width', '', { min: 0, placeholder: 'measured' });
    ui.height = numberInput('fit-height', '', { min: 0, placeholder: 'measured' });
    ui.heldSmoothing = numberInput('fit-held-smoothing', '', { step: 2, min: 1, placeholder: '21' });
    ui.heldSmoothing.title = 'window (samples, odd) of the Savitzky–Golay filter on the held corners’ trajectories before they drive the simulation; 1: none';
    ui.width.title = ui.height.title = 'the rest size of the marked area in metres (default: mean marker spacing × intervals)';
    ui.rho = numberInput('fit-rho', 0.1804, { min: 0 });
    ui.kappa = numberInput('fit-kappa', 0, { min: 0 });
    ui.kappa.title = 'bending stiffness, fixed during the fit (thesis §4.2.2: 0; the sample was made with 0.001)';
    ui.scene = select('fit-scene', OBSTACLE_SCENES);
    ui.scene.title = 'a scene whose obstacles the recorded cloth touches (a built-in one, or the scenario open in Simulate): contacts and Coulomb friction are simulated, and μ can be fitted';
    ui.apply = el('button', { type: 'button', id: 'fit-apply', textContent: 'Apply corrections', disabled: true });
    ui.corrections = el('fieldset', {},
      el('legend', { textContent: 'Corrections' }),
      param('format', ui.format), param('units', ui.units),
      param('up axis', ui.up), param('marker columns', ui.cols), param('marker rows', ui.rows),
      param('exclude markers', ui.exclude), param('grid order', ui.order),
      param('held corner', ui.held1), param('held corner', ui.held2),
      param('mesh refinement', ui.meshRefine, '× markers'), param('rest width', ui.width, 'm'), param('rest height', ui.height, 'm'),
      param('held-corner smoothing', ui.heldSmoothing, 'samples'),
      param('use the first', ui.duration, 's'), param('ρ inertial density', ui.rho, 'kg/m²'),
      param('κ bending (fixed)', ui.kappa), param('obstacles', ui.scene), ui.apply);
    container.append(ui.corrections);

    // ---- fit
    ui.grid = numberInput('fit-grid', 12, { step: 1, min: 2 });
    ui.refine = numberInput('fit-refine', 40, { step: 1, min: 0 });
    ui.split = select('fit-split', [['whole', 'whole recording'], ['half', '1st half, then 2nd']]);
    ui.split.title = 'whole recording: fitted and tested on all of it (thesis §4.2); 1st half, then 2nd: fitted on the first half, tested on the second (§4.1.2)';
    ui.repetition = select('fit-repetition', [['1', 'repetition 1 (hanger)'], ['2', 'repetition 2 (bare hands)']]);
    ui.workers = numberInput('fit-workers', defaultWorkerCount(), { step: 1, min: 1 });
    ui.muGrid = numberInput('fit-mu-grid', 9, { step: 1, min: 0 });
    ui.muMax = numberInput('fit-mu-max', 2, { min: 0 });
    ui.muMax.title = 'the largest μ of the μ line (as tela fit --mu-max)';
    // the refinement's starting point instead of the a-priori guess (as tela fit --params)
    ui.startDelta = numberInput('fit-start-delta', '', { min: 0, placeholder: 'a priori' });
    ui.startAlpha = numberInput('fit-start-alpha', '', { min: 0, placeholder: 'a priori' });
    ui.startDelta.title = ui.startAlpha.title = 'the starting point of the search, in δ/ρ ∈ [0, 1] and α/ρ ∈ [0, 4] (empty: the Table 4.6 guess)';
    // the μ the sweep runs at (as the third number of tela fit --params), with obstacles only
    ui.startMu = numberInput('fit-start-mu', '', { min: 0, placeholder: 'obstacles’ μ' });
    ui.startMu.title = 'the friction coefficient the sweep runs at and the refinement starts from, in [0, μ up to] when μ is fitted (empty: the first obstacle’s μ); only with obstacles';
    ui.muGrid.title = 'points of the μ line in [0, 2] after the sweep (0: keep the obstacles’ own μ); only with obstacles';
    ui.run = el('button', { type: 'button', id: 'fit-run', textContent: 'Fit', disabled: true });
    ui.cancel = el('button', { type: 'button', id: 'fit-cancel', textContent: 'Cancel', disabled: true });
    ui.progress = el('progress', { id: 'fit-progress', max: 1, value: 0 });
    ui.progressText = el('span', { id: 'fit-progress-text', className: 'unit', textContent: '' });
    container.append(el('h2', { textContent: 'Fit' }), el('fieldset', {},
      param('sweep grid', ui.grid, 'points/axis'), param('Nelder–Mead', ui.refine, 'evaluations'),
      param('μ line (with obstacles)', ui.muGrid, 'points'), param('μ up to', ui.muMax),
      param('start δ/ρ', ui.startDelta), param('start α/ρ', ui.startAlpha), param('start μ (with obstacles)', ui.startMu),
      param('windows', ui.split), param('a-priori (Table 4.6)', ui.repetition), param('workers', ui.workers),
      el('div', { className: 'transport' }, ui.run, ui.cancel),
      el('div', { className: 'fit-progress' }, ui.progress, ui.progressText)));

    // ---- results
    ui.results = el('div', { id: 'fit-results', hidden: true });
    ui.table = el('table', { className: 'fit-table', id: 'fit-table' });
    ui.curve = el('canvas', { id: 'fit-curve', className: 'fit-plot' });
    ui.curveHint = el('p', { className: 'hint' });
    ui.heat = el('canvas', { id: 'fit-heatmap', className: 'fit-plot fit-square' });
    ui.slider = el('input', { id: 'fit-replay-step', type: 'range', min: 0, max: 0, value: 0 });
    ui.replayPlay = el('button', { type: 'button', id: 'fit-replay-play', textContent: 'Play' });
    ui.replayTime = el('span', { className: 'unit', textContent: '' });
    ui.exportJson = el('button', { type: 'button', id: 'fit-export', textContent: 'Export fit (JSON)' });
    ui.exportReplay = el('button', { type: 'button', id: 'fit-export-replay', textContent: 'Replay CSV', disabled: true,
      title: 'per step and marker: recorded and simulated positions and their distance (the replay at the fitted parameters)' });
    ui.share = el('button', { type: 'button', id: 'fit-share', textContent: 'Share link (parameters)' });
    ui.replayHint = el('p', { className: 'hint', id: 'fit-replay-hint' });
    ui.replayBox = el('div', { id: 'fit-replay', hidden: true },
      el('h2', { textContent: 'Replay' }), ui.replayHint,
      el('div', { className: 'transport' }, ui.replayPlay, ui.slider, ui.replayTime));
    ui.results.append(
      ui.table,
      el('h2', { textContent: 'Error against time' }), ui.curveHint, ui.curve,
      el('h2', { textContent: 'Error map' }),
      el('p', { className: 'hint', textContent: 'ē over (δ/ρ, α/ρ) on the training window: ✚ fit · □ best sweep point · ○ a-priori estimate (Table 4.6); log colour scale' }),
      ui.heat,
      el('div', { className: 'exports' }, ui.exportJson, ui.exportReplay, ui.share));
    container.append(ui.replayBox, ui.results);

    const setState = (s) => { mirror.state = s; };
    const showFitError = (message) => {
      mirror.error = message;
      ui.error.textContent = message;
      ui.error.hidden = !message;
      if (message) app.showError(message);
    };

    // the corrections, keyed as the core's options JSON (wasm/bindings/fit_options.h), with
    // their labels: the core checks every value and its message starts with the key
    const corrections = {
      cols: [ui.cols, 'marker columns'], rows: [ui.rows, 'marker rows'],
      duration: [ui.duration, 'use the first'], held_smoothing: [ui.heldSmoothing, 'held-corner smoothing'],
      refine: [ui.meshRefine, 'mesh refinement'], width: [ui.width, 'rest width'], height: [ui.height, 'rest height'],
      rho: [ui.rho, 'ρ inertial density'], kappa: [ui.kappa, 'κ bending'],
    };

    function options() {
      const o = {};
      if (ui.format.value) o.format = ui.format.value;
      if (ui.units.value) o.units = ui.units.value;
      if (ui.up.value) o.up = ui.up.value;
      const names = (input) => input.value.split(',').map((n) => n.trim()).filter(Boolean);
      if (names(ui.exclude).length) o.exclude = names(ui.exclude);
      if (names(ui.order).length) o.order = names(ui.order);
      if (ui.held1.value && ui.held2.value) o.held = [ui.held1.value, ui.held2.value];
      // what was typed, as typed (ui/number_field.js): 0 or -1 is refused by the core, not read
      // as "automatic"
      for (const [key, [input]] of Object.entries(corrections)) {
        const v = typedNumber(input);
        if (v !== undefined) o[key] = v;
      }
      if (ui.scene.value === 'simulate') {
        // its obstacles, ρ and solver settings (the core names what is wrong with it)
        o.scenario = JSON.stringify(app.state.scenario ?? null);
      } else if (ui.scene.value) {
        o.scene = ui.scene.value;
      }
      return o;
    }
    // the fit's settings, keyed as the core's settings JSON (read_fit_settings,
    // wasm/bindings/fit_options.h), with their labels; "start" is the two start fields
    const settingFields = {
      grid: [ui.grid, 'sweep grid'], refine_evaluations: [ui.refine, 'Nelder–Mead evaluations'],
      mu_grid: [ui.muGrid, 'μ line'], mu_max: [ui.muMax, 'μ up to'],
      start: [[ui.startDelta, ui.startAlpha], 'start δ/ρ, α/ρ'], start_mu: [ui.startMu, 'start μ'],
    };
    // what was typed, as typed (an empty field: the core's default): a grid of 1 or 500, or a
    // start outside the searched box, is refused by the core and named at its field, not clamped
    function settings() {
      const s = { split: ui.split.value, repetition: Number(ui.repetition.value) };
      for (const [key, [input]] of Object.entries(settingFields)) {
        if (key === 'start') continue;
        const v = typedNumber(input);
        if (v !== undefined) s[key] = v;
      }
      const start = [typedNumber(ui.startDelta), typedNumber(ui.startAlpha)];
      if (start[0] !== undefined && start[1] !== undefined) s.start = start;
      return s;
    }

    function showSummary(s) {
      const r = s.recording;
      const rows = [
        ['file', file.name],
        ['format', `${r.format}${r.format_version ? ` ${r.format_version}` : ''}`],
        ['units', `${r.units}${r.units_declared ? '' : ' (guessed)'}`],
        ['rate', `${fmt(r.rate, 4)} Hz · ${r.frames} frames · ${fmt(r.duration, 4)} s`],
        ['markers', String(r.points)],
        ['up axis', `${r.up_axis} (${r.up_axis_source})`],
        ['grid', `${s.grid.cols} × ${s.grid.rows} markers (${s.grid.source}, misfit ${fmt(s.grid.residual, 2)} marker spacings)`],
        ['held corners', s.grid.held.join(', ')],
        ['missing data', `${pct(r.missing_fraction)} (${r.missing_samples} samples)`],
        ['mesh', `${s.mesh.nx} × ${s.mesh.ny} nodes, ${fmt(100 * s.mesh.width)} × ${fmt(100 * s.mesh.height)} cm, dt ${s.mesh.dt} s, ${s.mesh.steps} steps`],
        ['obstacles', s.obstacles?.length ? `${s.obstacles.join(', ')} (contacts and friction simulated)` : 'none'],
      ];
      ui.detected.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]));
      ui.detected.dataset.format = r.format;
      for (const w of s.warnings ?? []) ui.detected.append(el('dt', { textContent: 'warning' }), el('dd', { textContent: w }));
      // held-corner choices: the grid's markers
      for (const [sel, current] of [[ui.held1, s.grid.held[0]], [ui.held2, s.grid.held[1]]]) {
        const keep = sel.value;
        sel.replaceChildren(el('option', { value: '', textContent: `automatic (${current})` }),
          ...s.grid.order.map((n) => el('option', { value: n, textContent: n })));
        sel.value = s.grid.order.includes(keep) ? keep : '';
      }
    }

    // the pool's worker count, a whole number from 1 to 8; null (said at the field) otherwise
    function workerCount() {
      const n = typedNumber(ui.workers);
      if (Number.isInteger(n) && n >= 1 && n <= 8) {
        ui.workers.removeAttribute('aria-invalid');
        return n;
      }
      ui.workers.setAttribute('aria-invalid', 'true');
      showFitError(`Fit settings: workers: must be a whole number from 1 to 8 (got ${n ?? 'nothing'})`);
      return null;
    }

    // A core message that starts with a key of `fields` ({key: [input or inputs, label]}): its
    // inputs marked invalid and the message with the label for the key; null for any other.
    function labelled(fields, error) {
      const key = /^(\w+): /.exec(error)?.[1];
      if (!Object.hasOwn(fields, key ?? '')) return null;
      const [inputs, label] = fields[key];
      for (const input of [inputs].flat()) input.setAttribute('aria-invalid', 'true');
      return label + error.slice(key.length);
    }
    const unmark = (fields) => {
      for (const [inputs] of Object.values(fields)) for (const input of [inputs].flat()) input.removeAttribute('aria-invalid');
    };

    // Nothing usable was read: what was read before the failure (format, units, rate, markers;
    // null: nothing), to correct from, and nothing left of the last recording's view or replay.
    function unread(r) {
      summary = null;
      mirror.summary = null;
      ui.detected.replaceChildren(...(r ? [
        ['file', file.name],
        ['format', `${r.format}${r.format_version ? ` ${r.format_version}` : ''}`],
        ['units', `${r.units}${r.units_declared ? '' : ' (guessed)'}`],
        ['rate', `${fmt(r.rate, 4)} Hz · ${r.frames} frames · ${fmt(r.duration, 4)} s`],
        ['markers', `${r.points}: ${r.names.join(', ')}`],
        ['missing data', `${pct(r.missing_fraction)} (${r.missing_samples} samples)`],
        ...r.warnings.map((w) => ['warning', w]),
      ] : []).flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]));
      mirror.readBeforeError = r;
      view3d?.clear();
      showView(view3d);
      replaySteps = 0;
      ui.replayBox.hidden = true;
      ui.run.disabled = true;
      ui.apply.disabled = false;
      setState('error');
      app.setStatus(`Fit: ${file.name} cannot be fitted as read (see the message)`, 'fit');
    }

    // corrections the core would take as "automatic" (a 0 or negative size, density, duration,
    // grid): named at the field instead of silently ignored
    async function parse() {
      unmark(corrections);
      client?.dispose();
      stopReplay();
      const workers = workerCount();
      if (workers === null) {
        unread(null); // the last recording's pool is stopped: fix the count, then Apply corrections
        return false;
      }
      const mine = (client = createFitClient({ workers }));
      mirror.workers = workers;
      setState('parsing');
      ui.run.disabled = true;
      ui.cancel.disabled = true;
      ui.apply.disabled = true;
      app.setStatus(`Fit: reading ${file.name}…`, 'fit');
      optionsUsed = options();
      const answer = await mine.load(file.bytes, optionsUsed);
      if (mine !== client) return false; // replaced by a newer read
      ui.apply.disabled = false;
      if (!answer.ok) {
        unread(answer.recording);
        // a correction the core refused is named by its label and marked at its field
        const named = labelled(corrections, answer.error);
        showFitError(`“${file.name}” cannot be fitted: ${named ? `Corrections: ${named}` : answer.error}`);
        return false;
      }
      summary = answer.summary;
      mirror.summary = summary;
      showFitError('');
      app.clearError();
      showSummary(summary);
      ui.run.disabled = false;
      setState('ready');
      await showRecorded(mine);
      app.setStatus(`Fit: ${file.name} read (${summary.recording.points} markers, ${summary.grid.cols} × ${summary.grid.rows} grid)`, 'fit');
      return true;
    }

    async function open(name, bytes, { sample = false } = {}) {
      file = { name, bytes, sha256: await sha256(bytes), sample };
      ui.linkHint.hidden = true;
      result = null;
      mirror.result = null;
      ui.results.hidden = true;
      ui.progress.value = 0;
      ui.progressText.textContent = '';
      const read = await parse();
      if (linked) await reproduce(read);
      return read;
    }

    // A share link's fit: its corrections and settings are in the fields; once its recording
    // is open, the same fit runs (a different file than the link's is said so, and used).
    async function reproduce(read) {
      const s = linked;
      linked = null;
      const same = !s.input.sha256 || !file.sha256 || s.input.sha256 === file.sha256;
      if (read && s.fitted) await runFit();
      const differs = same ? '' : ` “${file.name}” is not the file the link was made with (“${s.input.name}”, SHA-256 ${s.input.sha256.slice(0, 12)}…); the link's settings were used anyway.`;
      if (result && !result.cancelled) {
        app.showNotice(`Fit: ${same ? 'reproduced the shared fit' : 'fitted'} of “${file.name}”: δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}, ē = ${fmt(result.mean_error_cm)} cm.${differs}`);
      } else if (differs) {
        app.showNotice(`Fit:${differs}`);
      }
    }

    async function runFit() {
      if (!summary || client?.running) return;
      // the worker count is part of the pool: a change takes a re-read of the recording
      const workers = workerCount();
      if (workers === null) return;
      if (client.workers !== workers && !(await parse())) return;
      unmark(settingFields);
      const wanted = settings();
      if ((typedNumber(ui.startDelta) === undefined) !== (typedNumber(ui.startAlpha) === undefined)) {
        showFitError('Give both start δ/ρ and α/ρ, or neither (the Table 4.6 guess).');
        return;
      }
      stopReplay();
      ui.run.disabled = true;
      ui.apply.disabled = true;
      ui.cancel.disabled = false;
      setState('running');
      mirror.progress = 0;
      app.setStatus(`Fit: running on ${file.name}…`, 'fit'); // not the last fit's "done" or "cancelled"
      const begun = performance.now();
      const mine = client;
      const answer = await mine.run(wanted, {
        onProgress(done, total, stage, best, plan, points) {
          if (mine !== client) return;
          mirror.progress = done / total;
          mirror.plan = plan;
          mirror.progressUpdates = (mirror.progressUpdates ?? 0) + 1;
          ui.progress.value = done / total;
          const at = best ? `(${fmt(best[0])}, ${fmt(best[1])}${best[3] !== null && best[3] !== undefined ? `, μ ${fmt(best[3])}` : ''})` : '';
          ui.progressText.textContent = `${stage.replace('_', ' ')} ${done}/${total}${best ? ` · best ē ${fmt(best[2])} cm at ${at}` : ''}`;
          if (points && stage === 'sweep' && done % Math.max(1, plan.grid) === 0) {
            ui.results.hidden = false;
            drawHeatmap(ui.heat, { grid: plan.grid, points, deltaMax: plan.delta_over_rho_max, alphaMax: plan.alpha_over_rho_max,
              marks: { fit: best, aPriori: plan.a_priori.delta_over_rho > 0 && plan.a_priori.alpha_over_rho > 0
                ? [plan.a_priori.delta_over_rho, plan.a_priori.alpha_over_rho] : null } });
          }
        },
      });
      if (mine !== client) return; // another recording replaced this one meanwhile
      ui.cancel.disabled = true;
      ui.run.disabled = false;
      ui.apply.disabled = false;
      if (!answer.ok && answer.settings) {
        // a setting the core refused (nothing ran): named by its label and marked at its field
        setState('ready');
        showFitError(`Fit settings: ${labelled(settingFields, answer.error) ?? answer.error}`);
        return;
      }
      if (!answer.ok) {
        setState('error');
        showFitError(`The fit failed: ${answer.error}`);
        return;
      }
      result = answer.result;
      settingsUsed = wanted; // the result's settings (its export and share link)
      result.wall_ms = Math.round(performance.now() - begun);
      mirror.result = result;
      showResult(answer.plan, answer.points);
      if (result.mean_error_cm === null && !result.cancelled) {
        // nothing to compare: say why instead of "done, ē = –"
        setState('error');
        app.setStatus(`Fit: every simulation failed (see the message)`, 'fit');
        showFitError(`Every simulation of the fit failed${result.failure ? `: ${result.failure}` : ' (diverged or non-finite)'}. ` +
          'Check the corrections (ρ, κ, the rest size) and the recording’s units.');
        return;
      }
      setState(result.cancelled ? 'cancelled' : 'done');
      app.setStatus(result.cancelled
        ? `Fit cancelled after ${result.evaluations} simulations: best so far δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}`
        : `Fit done in ${(result.wall_ms / 1000).toFixed(1)} s on ${client.workers} worker${client.workers > 1 ? 's' : ''}: ē = ${fmt(result.mean_error_cm)} cm`, 'fit');
      await loadReplay();
    }

    // evaluated: the sweep's points by index, null where a cancel left them unevaluated
    function showResult(plan, evaluated) {
      const r = result;
      const ap = r.a_priori;
      // Table 4.6 is a linear regression over A3 and A2 sheets at the thesis' speeds: far from
      // them (a wrongly scaled recording) it gives non-positive parameters, which are not shown
      const apOk = ap.delta > 0 && ap.alpha > 0;
      const apCell = (v) => (apOk ? fmt(v) : '—');
      const rows = [
        ['', 'fit', 'a priori (Table 4.6)'],
        ['δ/ρ', fmt(r.delta_over_rho), apCell(ap.delta / r.rho)],
        ['α/ρ', fmt(r.alpha_over_rho), apCell(ap.alpha / r.rho)],
        ['δ (kg/m²)', fmt(r.delta), apCell(ap.delta)],
        ['α (kg/(m² s))', fmt(r.alpha), apCell(ap.alpha)],
        ...(r.mu !== null && r.mu !== undefined ? [[r.mu_fitted ? 'μ (fitted)' : 'μ (fixed)', fmt(r.mu), '']] : []),
        ['ē training (cm)', fmt(r.train_error_cm), fmt(ap.train_error_cm)],
        ['ē testing (cm)', fmt(r.mean_error_cm), ''],
        ['s̄ testing (cm)', fmt(r.spatial_sd_cm), ''],
        ['simulations', String(r.evaluations), `S = ${fmt(ap.S)}, V = ${fmt(ap.V)} m²/s²`],
      ];
      ui.table.replaceChildren(...rows.map((cells, i) => el('tr', {}, ...cells.map((c) => el(i ? 'td' : 'th', { textContent: c })))));
      if (!apOk) ui.table.append(el('tr', {}, el('td', { colSpan: 3, className: 'hint',
        textContent: `The a-priori formula gives δ = ${fmt(ap.delta)}, α = ${fmt(ap.alpha)} here: S and V lie far outside the A3/A2 recordings it was fitted on (check the recording's units).` })));
      if (r.cancelled) ui.table.append(el('tr', {}, el('td', { colSpan: 3, className: 'hint', textContent: 'Cancelled: the best parameters found so far; no testing-window evaluation.' })));
      ui.results.hidden = false;
      drawErrorCurve(ui.curve, r.frames);
      ui.curveHint.textContent = `testing window ${fmt(r.test_window[0])}–${fmt(r.test_window[1])} s; gaps: no visible marker`;
      drawHeatmap(ui.heat, {
        grid: plan.grid, points: r.sweep_points.map((p, k) => (evaluated && !evaluated[k] ? null : p)),
        deltaMax: plan.delta_over_rho_max, alphaMax: plan.alpha_over_rho_max,
        marks: {
          fit: [r.delta_over_rho, r.alpha_over_rho],
          sweepBest: r.sweep ? [r.sweep.best_delta_over_rho, r.sweep.best_alpha_over_rho] : null,
          aPriori: apOk ? [ap.delta / r.rho, ap.alpha / r.rho] : null,
        },
      });
    }

    // the recorded markers in the 3D view, before any fit
    let triangles = null;
    let recordedMarkers = null; // the recording in grid order on the simulation's steps
    let simulated = null;       // the replay at the fitted parameters
    async function showRecorded(mine) {
      replaySteps = 0;
      ui.replayBox.hidden = true;
      mirror.replayDrawn = false;
      if (!replayView()) return;
      const answer = await mine.recorded(optionsUsed);
      if (mine !== client) return;
      if (!answer.ok) return showFitError(`The recording could not be drawn: ${answer.error}`);
      triangles = answer.triangles;
      recordedMarkers = answer.markers;
      simulated = null;
      ui.exportReplay.disabled = true;
      const { cols, rows, order, held } = summary.grid;
      replaySteps = view3d.setRecording({ markers: answer.markers, cols, rows, dt: summary.mesh.dt,
        held: held.map((name) => order.indexOf(name)), obstacles: answer.obstacles });
      showView(view3d);
      ui.slider.max = replaySteps;
      ui.slider.value = 0;
      mirror.replaySteps = replaySteps;
      ui.replayHint.textContent = 'The recorded markers in the view (the held corners larger), on the simulation’s time steps; after a fit, also the simulated cloth and each marker’s distance to its node.';
      ui.replayBox.hidden = false;
      showStep(0);
    }
    async function loadReplay() {
      if (!result || !view3d || !replaySteps || !Number.isFinite(result.train_error_cm ?? NaN)) return;
      const mine = client;
      const answer = await mine.replay(result.delta_over_rho, result.alpha_over_rho, result.mu);
      if (mine !== client) return;
      if (!answer.ok) return showFitError(`The replay could not be simulated: ${answer.error}`);
      simulated = answer.simulated;
      ui.exportReplay.disabled = false;
      view3d.setReplay({ simulated: answer.simulated, triangles, markerNodes: summary.mesh.marker_nodes, nodes: summary.mesh.nx * summary.mesh.ny });
      ui.replayHint.textContent = `The simulated cloth at the fitted δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}${result.mu !== null && result.mu !== undefined ? `, μ = ${fmt(result.mu)}` : ''} and the recorded markers, each coloured by its distance to its node (lines join them).`;
      showStep(Number(ui.slider.value));
      mirror.replayDrawn = true;
    }
    function showStep(step) {
      if (!replaySteps) return;
      view3d.showStep(step);
      ui.replayTime.textContent = `${(step * summary.mesh.dt).toFixed(2)} s`;
    }
    function stopReplay() {
      clearInterval(replayTimer);
      replayTimer = 0;
      ui.replayPlay.textContent = 'Play';
    }
    ui.slider.addEventListener('input', () => { stopReplay(); showStep(Number(ui.slider.value)); });
    ui.replayPlay.addEventListener('click', () => {
      if (replayTimer) return stopReplay();
      if (!replaySteps) return;
      ui.replayPlay.textContent = 'Pause';
      const stride = Math.max(1, Math.round(1 / 30 / summary.mesh.dt));
      replayTimer = setInterval(() => {
        const next = Number(ui.slider.value) + stride;
        ui.slider.value = next > replaySteps ? 0 : next;
        showStep(Number(ui.slider.value));
      }, 1000 / 30);
    });

    function exportObject() {
      return {
        kind: 'tela-fit',
        app: { name: 'tela', version: APP_VERSION },
        created: new Date().toISOString(),
        input: { name: file.name, bytes: file.bytes.length, sha256: file.sha256 },
        options: optionsUsed,
        settings: { ...settingsUsed, workers: client.workers },
        fit: result,
      };
    }
    ui.exportJson.addEventListener('click', () => {
      if (!result) return;
      const text = JSON.stringify(exportObject(), null, 1);
      mirror.exported = text;
      download(text, `tela-fit-${file.name.replace(/\.[^.]*$/, '')}.json`, 'application/json');
    });
    ui.exportReplay.addEventListener('click', () => {
      if (!simulated || !recordedMarkers) return;
      const chunks = markerReplayCsv({ markers: recordedMarkers, simulated, markerNodes: summary.mesh.marker_nodes,
        nodes: summary.mesh.nx * summary.mesh.ny, names: summary.grid.order, dt: summary.mesh.dt });
      download(chunks, `tela-fit-replay-${file.name.replace(/\.[^.]*$/, '')}.csv`, 'text/csv');
    });
    ui.share.addEventListener('click', async () => {
      if (!result) return;
      const base = app.state.scenario;
      if (!base) return showFitError('The share link needs a Simulate scene to carry the parameters; none is loaded.');
      // the current Simulate scene with the fitted material: parameters only, never the recording
      const scenario = structuredClone(base);
      // κ too: the fit ran with it fixed, and the fitted δ, α only hold with it
      scenario.material = { ...(scenario.material ?? {}), rho: result.rho, delta: result.delta, alpha: result.alpha,
        kappa: result.kappa };
      // a contact fit: its friction on every obstacle of the scene
      if (result.mu !== null && result.mu !== undefined && Array.isArray(scenario.obstacles))
        scenario.obstacles = scenario.obstacles.map((o) => ({ ...o, mu: result.mu }));
      const hash = await encodeShareHash({ scenario, steps: 0, view: { playing: false } });
      const url = `${location.href.replace(/#.*$/, '')}${hash}`;
      mirror.shareLink = url;
      let copied = false;
      try {
        await navigator.clipboard.writeText(url);
        copied = true;
      } catch {
        // no clipboard permission: show the link instead
      }
      const mu = result.mu !== null && result.mu !== undefined ? `, μ = ${fmt(result.mu)}` : '';
      app.showNotice(`Share link for “${app.state.name}” with the fitted δ = ${fmt(result.delta)}, α = ${fmt(result.alpha)}${mu} (ρ = ${fmt(result.rho)}, κ = ${fmt(result.kappa)}) ${copied ? 'copied to the clipboard' : `: ${url}`}. The recording is not in it.`);
    });

    // presetKappa: the bending stiffness the sample was generated with (a link brings its own)
    async function loadSample({ presetKappa = true } = {}) {
      try {
        const response = await fetch(SAMPLE.url);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        if (presetKappa) ui.kappa.value = '0.001';
        await open(SAMPLE.name, new Uint8Array(await response.arrayBuffer()), { sample: true });
      } catch (err) {
        showFitError(`The sample recording could not be loaded: ${err.message}`);
      }
    }
    ui.sample.addEventListener('click', () => loadSample());

    // ---- share links (the page's Share link button on this tab): the corrections, the
    // settings and which recording — its name, size and SHA-256, never its samples
    this.shareState = () => {
      if (!file) return null;
      const shared = {
        input: { name: file.name, bytes: file.bytes.length, sha256: file.sha256, sample: file.sample },
        fields: Object.fromEntries(SHARED_FIELDS.map((key) => [key, ui[key].value])),
        fitted: Boolean(result && !result.cancelled),
      };
      const note = file.sample
        ? `the sample recording and the fit settings${shared.fitted ? ' (the fit runs again when the link opens)' : ''}`
        : `the fit settings for “${file.name}”. The recording itself is not in it: whoever opens the link is asked for that file`;
      return { state: shared, note };
    };
    this.restoreState = async (s) => {
      if (typeof s !== 'object' || s === null || typeof s.input !== 'object' || s.input === null ||
          typeof s.fields !== 'object' || s.fields === null) return false;
      for (const key of SHARED_FIELDS) {
        const value = s.fields[key];
        if (typeof value !== 'string') continue;
        const input = ui[key];
        // a held corner is one of the recording's markers: its option exists once the file is read
        if (input.tagName === 'SELECT' && value && ![...input.options].some((o) => o.value === value)) {
          if (!key.startsWith('held')) continue;
          input.append(el('option', { value, textContent: value }));
        }
        input.value = value;
      }
      linked = { input: { name: String(s.input.name ?? ''), sha256: typeof s.input.sha256 === 'string' ? s.input.sha256 : null },
        fitted: s.fitted === true };
      if (s.input.sample === true) {
        await loadSample({ presetKappa: false });
        return true;
      }
      const hash = linked.input.sha256 ? `, SHA-256 ${linked.input.sha256.slice(0, 12)}…` : '';
      ui.linkHint.textContent = `This link reproduces a fit of “${linked.input.name}” (${Number(s.input.bytes) || '?'} bytes${hash}) with the corrections and settings below: open that file (links never carry uploaded data).`;
      ui.linkHint.hidden = false;
      app.showNotice(`Fit: open “${linked.input.name}” to reproduce the shared fit.`);
      return true;
    };
    ui.apply.addEventListener('click', () => file && parse());
    ui.run.addEventListener('click', runFit);
    ui.cancel.addEventListener('click', () => {
      client?.cancel();
      ui.cancel.disabled = true;
      app.setStatus('Fit: cancelling after the simulations in flight…', 'fit');
    });

    openFile = open;
  },

  async open({ name, bytes }) {
    return openFile?.(name, bytes);
  },

  activate() {
    active = true;
    showView(this.view);
  },
  deactivate() {
    active = false;
    showView(this.view);
  },
};
