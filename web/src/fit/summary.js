// What the Fit panel says was read from a recording: its format, units, rate, markers, the
// detected grid and held corners, the mesh and the obstacles; or, when nothing usable was
// read, what was read before the failure, to correct from.
import { el, fmt } from '../ui/dom.js';

const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '–');
const terms = (rows) => rows.flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]);

// s: the fit job's summary; held: the two held-corner selects, offered the grid's markers
export function showSummary(dl, name, s, held) {
  const r = s.recording;
  dl.replaceChildren(...terms([
    ['file', name],
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
  ]));
  dl.dataset.format = r.format;
  for (const w of s.warnings ?? []) dl.append(el('dt', { textContent: 'warning' }), el('dd', { textContent: w }));
  for (const [sel, current] of [[held[0], s.grid.held[0]], [held[1], s.grid.held[1]]]) {
    const keep = sel.value;
    sel.replaceChildren(el('option', { value: '', textContent: `automatic (${current})` }),
      ...s.grid.order.map((n) => el('option', { value: n, textContent: n })));
    sel.value = s.grid.order.includes(keep) ? keep : '';
  }
}

// r: the recording as read before the failure (format, units, rate, markers), or null
export function showUnread(dl, name, r) {
  dl.replaceChildren(...terms(r ? [
    ['file', name],
    ['format', `${r.format}${r.format_version ? ` ${r.format_version}` : ''}`],
    ['units', `${r.units}${r.units_declared ? '' : ' (guessed)'}`],
    ['rate', `${fmt(r.rate, 4)} Hz · ${r.frames} frames · ${fmt(r.duration, 4)} s`],
    ['markers', `${r.points}: ${r.names.join(', ')}`],
    ['missing data', `${pct(r.missing_fraction)} (${r.missing_samples} samples)`],
    ...r.warnings.map((w) => ['warning', w]),
  ] : []));
}
