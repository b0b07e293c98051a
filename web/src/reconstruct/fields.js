// The Reconstruct panel's settings: the cleaning (crop box, voxel grid, statistical outliers,
// RANSAC planes) and the reconstruction's options, as typed (ui/number_field.js): an empty
// field is the core's default, which is its initial value; one that is not a number is
// refused by the core, naming the option.
import { el } from '../ui/dom.js';
import { typedNumber } from '../ui/number_field.js';

// [key, label, unit, default, step]
export const CLEANING = [
  ['voxel', 'voxel size (0: off)', 'm', 0, 0.001],
  ['outlierK', 'outliers: k neighbours (0: off)', '', 0, 1],
  ['outlierRatio', 'outliers: std ratio', '', 2, 0.1],
  ['planes', 'planes to remove (0: off)', '', 0, 1],
  ['planeThreshold', 'plane distance', 'm', 0.01, 0.001],
];
export const RECONSTRUCT = [
  ['seed', 'height direction seed', '', 1, 1], // the core's and tela reconstruct's default
  ['levels', 'level slabs', '', 32, 1],
  ['resampleNodes', 'mesh nodes per side (0: auto)', '', 0, 1],
];

// The fields of both tables (inputs: key -> input) and of the crop box (ui.cropOn, ui.cropMin,
// ui.cropMax). -> { cleaning, reconstruction }: their fieldsets
export function settingsFieldsets(ui, inputs) {
  const param = ([key, label, unit, value, step]) => {
    const input = el('input', { type: 'number', value: String(value), step: String(step), min: '0' });
    input.dataset.key = key;
    inputs[key] = input;
    return el('label', { className: 'param' }, el('span', { textContent: label }), input, el('span', { className: 'unit', textContent: unit }));
  };
  ui.cropOn = el('input', { type: 'checkbox', id: 'reconstruct-crop' });
  ui.cropMin = el('input', { type: 'text', placeholder: 'x, y, z', value: '' });
  ui.cropMax = el('input', { type: 'text', placeholder: 'x, y, z', value: '' });
  const cleaning = el('fieldset', {}, el('legend', { textContent: 'applied in this order: crop, voxel, outliers, planes' }),
    el('label', { className: 'checks' }, ui.cropOn, 'crop to a box'),
    el('label', { className: 'param' }, el('span', { textContent: 'crop min' }), ui.cropMin, el('span', { className: 'unit', textContent: 'm' })),
    el('label', { className: 'param' }, el('span', { textContent: 'crop max' }), ui.cropMax, el('span', { className: 'unit', textContent: 'm' })),
    ...CLEANING.map(param));
  const reconstruction = el('fieldset', {}, el('legend', { textContent: 'Morse cell complex (thesis §5.3–5.4)' }), ...RECONSTRUCT.map(param));
  return { cleaning, reconstruction };
}

// the options as run (an export's provenance): the defaults of the fields left empty too
export const withDefaults = (table, o) => ({ ...Object.fromEntries(table.map(([key, , , value]) => [key, value])), ...o });

// the options of a table's fields as typed
export function typedOptions(table, inputs) {
  const o = {};
  for (const [key] of table) {
    const v = typedNumber(inputs[key]);
    if (v !== undefined) o[key] = v;
  }
  return o;
}

// the cleaning's options (cleanCloud's), the crop box included when it is on
export function cleaningOptions(ui, inputs) {
  const o = typedOptions(CLEANING, inputs);
  if (ui.cropOn.checked) {
    const parse = (text) => text.split(/[\s,;]+/).filter(Boolean).map(Number);
    const lo = parse(ui.cropMin.value), hi = parse(ui.cropMax.value);
    o.crop = { min: lo, max: hi };
  }
  return o;
}

// (a value the core refuses, e.g. a negative voxel size, counts: its message is shown)
const on = (v) => v !== undefined && v !== 0;
export const cleaningOn = (o) => on(o.voxel) || on(o.outlierK) || on(o.planes) || Boolean(o.crop);
