// The Fit panel's fields: the corrections to what was detected in the recording (the core's
// options JSON) and the fit's settings (its settings JSON), as typed (ui/number_field.js: an
// empty field is the core's default; 0 or -1 is refused by the core, naming the option, not
// read as "automatic"). The core checks every value; its message starts with the key, which
// labelled() turns into the field's label and marks the field.
import { el } from '../ui/dom.js';
import { typedNumber } from '../ui/number_field.js';
import { defaultWorkerCount } from './client.js';

const UP_AXES = ['', 'z', 'y', 'x', '-z', '-y', '-x'];
// where the obstacles of a contact fit come from (in the recording's z-up frame, metres): a
// built-in scene (`tela synth-recording A2-lay` lays a sheet on the tablecloth scene's table)
// or the Simulate panel's current scenario (a scene edited there or a scenario file opened
// there), as `tela fit --scenario NAME|FILE`
const OBSTACLE_SCENES = [['', 'none'], ['tablecloth', 'tablecloth: table (top z = 0.75 m) and floor'],
  ['simulate', 'the Simulate panel’s scenario']];

// the fields a share link carries (ui keys): the corrections and the fit's settings, not the
// worker count (the result does not depend on it)
export const SHARED_FIELDS = ['format', 'units', 'up', 'cols', 'rows', 'exclude', 'order', 'held1', 'held2', 'duration',
  'heldSmoothing', 'meshRefine', 'width', 'height', 'rho', 'kappa', 'scene',
  'grid', 'refine', 'split', 'repetition', 'muGrid', 'muMax', 'startDelta', 'startAlpha', 'startMu'];

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

// The Corrections fieldset (with ui.apply), into ui (the panel's elements by name)
export function correctionsFieldset(ui) {
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
  return el('fieldset', {},
    el('legend', { textContent: 'Corrections' }),
    param('format', ui.format), param('units', ui.units),
    param('up axis', ui.up), param('marker columns', ui.cols), param('marker rows', ui.rows),
    param('exclude markers', ui.exclude), param('grid order', ui.order),
    param('held corner', ui.held1), param('held corner', ui.held2),
    param('mesh refinement', ui.meshRefine, '× markers'), param('rest width', ui.width, 'm'), param('rest height', ui.height, 'm'),
    param('held-corner smoothing', ui.heldSmoothing, 'samples'),
    param('use the first', ui.duration, 's'), param('ρ inertial density', ui.rho, 'kg/m²'),
    param('κ bending (fixed)', ui.kappa), param('obstacles', ui.scene), ui.apply);
}

// The fit's settings fieldset (with ui.run, ui.cancel and the progress bar), into ui
export function settingsFieldset(ui) {
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
  return el('fieldset', {},
    param('sweep grid', ui.grid, 'points/axis'), param('Nelder–Mead', ui.refine, 'evaluations'),
    param('μ line (with obstacles)', ui.muGrid, 'points'), param('μ up to', ui.muMax),
    param('start δ/ρ', ui.startDelta), param('start α/ρ', ui.startAlpha), param('start μ (with obstacles)', ui.startMu),
    param('windows', ui.split), param('a-priori (Table 4.6)', ui.repetition), param('workers', ui.workers),
    el('div', { className: 'transport' }, ui.run, ui.cancel),
    el('div', { className: 'fit-progress' }, ui.progress, ui.progressText));
}

// the corrections, keyed as the core's options JSON (wasm/bindings/fit_options.h), with
// their labels: the core checks every value and its message starts with the key
export const correctionFields = (ui) => ({
  cols: [ui.cols, 'marker columns'], rows: [ui.rows, 'marker rows'],
  duration: [ui.duration, 'use the first'], held_smoothing: [ui.heldSmoothing, 'held-corner smoothing'],
  refine: [ui.meshRefine, 'mesh refinement'], width: [ui.width, 'rest width'], height: [ui.height, 'rest height'],
  rho: [ui.rho, 'ρ inertial density'], kappa: [ui.kappa, 'κ bending'],
});

// the fit's settings, keyed as the core's settings JSON (read_fit_settings,
// wasm/bindings/fit_options.h), with their labels; "start" is the two start fields
export const settingFields = (ui) => ({
  grid: [ui.grid, 'sweep grid'], refine_evaluations: [ui.refine, 'Nelder–Mead evaluations'],
  mu_grid: [ui.muGrid, 'μ line'], mu_max: [ui.muMax, 'μ up to'],
  start: [[ui.startDelta, ui.startAlpha], 'start δ/ρ, α/ρ'], start_mu: [ui.startMu, 'start μ'],
});

// the core's options JSON; scenario: the Simulate panel's (its obstacles, ρ and solver
// settings, when the obstacles come from there; the core names what is wrong with it)
export function readOptions(ui, scenario) {
  const o = {};
  if (ui.format.value) o.format = ui.format.value;
  if (ui.units.value) o.units = ui.units.value;
  if (ui.up.value) o.up = ui.up.value;
  const names = (input) => input.value.split(',').map((n) => n.trim()).filter(Boolean);
  if (names(ui.exclude).length) o.exclude = names(ui.exclude);
  if (names(ui.order).length) o.order = names(ui.order);
  if (ui.held1.value && ui.held2.value) o.held = [ui.held1.value, ui.held2.value];
  for (const [key, [input]] of Object.entries(correctionFields(ui))) {
    const v = typedNumber(input);
    if (v !== undefined) o[key] = v;
  }
  if (ui.scene.value === 'simulate') o.scenario = JSON.stringify(scenario ?? null);
  else if (ui.scene.value) o.scene = ui.scene.value;
  return o;
}

// the core's settings JSON: a grid of 1 or 500, or a start outside the searched box, is
// refused by the core and named at its field, not clamped
export function readSettings(ui) {
  const s = { split: ui.split.value, repetition: Number(ui.repetition.value) };
  for (const [key, [input]] of Object.entries(settingFields(ui))) {
    if (key === 'start') continue;
    const v = typedNumber(input);
    if (v !== undefined) s[key] = v;
  }
  const start = [typedNumber(ui.startDelta), typedNumber(ui.startAlpha)];
  if (start[0] !== undefined && start[1] !== undefined) s.start = start;
  return s;
}

// both start fields or neither
export const startPaired = (ui) => (typedNumber(ui.startDelta) === undefined) === (typedNumber(ui.startAlpha) === undefined);

// the pool's worker count, a whole number from 1 to 8; -> { count } or { error } (the field
// marked invalid)
export function readWorkerCount(ui) {
  const n = typedNumber(ui.workers);
  if (Number.isInteger(n) && n >= 1 && n <= 8) {
    ui.workers.removeAttribute('aria-invalid');
    return { count: n };
  }
  ui.workers.setAttribute('aria-invalid', 'true');
  return { error: `Fit settings: workers: must be a whole number from 1 to 8 (got ${n ?? 'nothing'})` };
}

// A core message that starts with a key of `fields` ({key: [input or inputs, label]}): its
// inputs marked invalid and the message with the label for the key; null for any other.
export function labelled(fields, error) {
  const key = /^(\w+): /.exec(error)?.[1];
  if (!Object.hasOwn(fields, key ?? '')) return null;
  const [inputs, label] = fields[key];
  for (const input of [inputs].flat()) input.setAttribute('aria-invalid', 'true');
  return label + error.slice(key.length);
}
export function unmark(fields) {
  for (const [inputs] of Object.values(fields)) for (const input of [inputs].flat()) input.removeAttribute('aria-invalid');
}
