// The Fit panel's results: the fitted parameters beside the a-priori estimate (Table 4.6), e_i
// and s_i against time, and the (δ/ρ, α/ρ) error map with the optimum, the sweep's best point
// and the a-priori estimate (drawn by fit/plots.js), with the export and share buttons.
import { el, fmt } from '../ui/dom.js';
import { drawErrorCurve, drawHeatmap } from './plots.js';

// builds ui.results (hidden until a result) with ui.table, ui.curve, ui.heat and the buttons
// ui.exportJson, ui.exportReplay, ui.share
export function resultsSection(ui) {
  ui.results = el('div', { id: 'fit-results', hidden: true });
  ui.table = el('table', { className: 'fit-table', id: 'fit-table' });
  ui.curve = el('canvas', { id: 'fit-curve', className: 'fit-plot' });
  ui.curveHint = el('p', { className: 'hint' });
  ui.heat = el('canvas', { id: 'fit-heatmap', className: 'fit-plot fit-square' });
  ui.exportJson = el('button', { type: 'button', id: 'fit-export', textContent: 'Export fit (JSON)' });
  ui.exportReplay = el('button', { type: 'button', id: 'fit-export-replay', textContent: 'Replay CSV', disabled: true,
    title: 'per step and marker: recorded and simulated positions and their distance (the replay at the fitted parameters)' });
  ui.share = el('button', { type: 'button', id: 'fit-share', textContent: 'Share link (parameters)' });
  ui.results.append(
    ui.table,
    el('h2', { textContent: 'Error against time' }), ui.curveHint, ui.curve,
    el('h2', { textContent: 'Error map' }),
    el('p', { className: 'hint', textContent: 'ē over (δ/ρ, α/ρ) on the training window: ✚ fit · □ best sweep point · ○ a-priori estimate (Table 4.6); log colour scale' }),
    ui.heat,
    el('div', { className: 'exports' }, ui.exportJson, ui.exportReplay, ui.share));
  return ui.results;
}

// the error map while the sweep runs: points by index (null: not evaluated yet); best:
// [δ/ρ, α/ρ, ē, μ] so far, or null
export function showSweep(ui, plan, points, best) {
  ui.results.hidden = false;
  drawHeatmap(ui.heat, { grid: plan.grid, points, deltaMax: plan.delta_over_rho_max, alphaMax: plan.alpha_over_rho_max,
    marks: { fit: best, aPriori: plan.a_priori.delta_over_rho > 0 && plan.a_priori.alpha_over_rho > 0
      ? [plan.a_priori.delta_over_rho, plan.a_priori.alpha_over_rho] : null } });
}

// r: the fit's result; evaluated: the sweep's points by index, null where a cancel left them
// unevaluated
export function showResult(ui, r, plan, evaluated) {
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
