// The Simulate readout over the view: the scene, time, step, real-time factor, solver
// iterations, constraint error and state hash of the frame shown, and the colour bar of the
// per-element field the cloth is coloured by.
import { diverging, gradient, niceCeiling, viridis } from '../render/colormap.js';
import { byId, fmt } from '../ui/dom.js';

// per-element fields the worker computes (simulate/worker.js fieldValues)
export const FIELDS = {
  none: null,
  area: { title: 'area error |ΔA|/A₀', unit: '%', floor: 0.05 },
  'area-signed': { title: 'area change ΔA/A₀', unit: '%', floor: 0.05, signed: true },
  strain: { title: 'edge strain |Δl|/l₀', unit: '%', floor: 0.05 },
};
const GRADIENTS = { viridis: gradient(viridis), diverging: gradient(diverging) };

export function showScene(name) {
  byId('scene').textContent = name;
}

// The colour bar of FIELDS[name] over a frame's values; -> { top, signed } of the scale the
// cloth is to be coloured with, or null (plain colours, no bar)
export function showField(name, values) {
  const field = FIELDS[name];
  if (!field || !values) {
    byId('colorbar').hidden = true;
    return null;
  }
  // the colour bar spans 0 to a round number above this frame's largest value
  // (signed fields: symmetric about 0)
  let max = 0;
  for (const v of values) max = Math.max(max, Math.abs(v));
  const top = niceCeiling(Math.max(max, field.floor));
  byId('colorbar').hidden = false;
  byId('colorbar-gradient').style.background = field.signed ? GRADIENTS.diverging : GRADIENTS.viridis;
  byId('colorbar-title').textContent = `${field.title} (${field.unit})`;
  byId('colorbar-max').textContent = field.signed ? `+${fmt(top)}` : fmt(top);
  byId('colorbar-mid').textContent = field.signed ? '0' : fmt(top / 2);
  byId('colorbar-min').textContent = field.signed ? `−${fmt(top)}` : '0';
  return { top, signed: !!field.signed };
}

export function showFrame(frame) {
  byId('time').textContent = `${frame.time.toFixed(2)} s`;
  byId('steps').textContent = String(frame.steps);
  byId('rtf').textContent = frame.playing && frame.rtf != null
    ? `${frame.rtf.toFixed(2)}× (stepping ${Math.round(100 * frame.load)} %)` : frame.playing ? '…' : 'paused';
  const r = frame.report;
  byId('iterations').textContent = r && r.status !== 'none'
    ? `${r.iterations} (${r.substeps} substep${r.substeps > 1 ? 's' : ''})` : '–';
  // a step that ended at the iteration cap is above the tolerance: the run goes on, but the
  // readout says so (the CLI's unconverged_steps)
  const above = r && r.status !== 'none' && r.unconvergedSteps > 0;
  const constraint = byId('constraint');
  constraint.textContent = r && r.status !== 'none'
    ? `${fmt(r.constraintError, 2)}${above ? ` (${r.unconvergedSteps} step${r.unconvergedSteps > 1 ? 's' : ''} > ${fmt(r.tolerance)})` : ''}`
    : '–';
  constraint.classList.toggle('warn', r?.status === 'max_iterations');
  constraint.title = above
    ? `${r.unconvergedSteps} step${r.unconvergedSteps > 1 ? 's' : ''} of this run ended at the iteration cap above the solver tolerance ${fmt(r.tolerance)}`
    : '';
  byId('hash').textContent = frame.hash;
}
