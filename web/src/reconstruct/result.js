// The Reconstruct panel's result: the topology and cells, the legend of the critical points'
// glyphs, the layers of the view (reconstruct/view.js) to show or hide, the warnings and the
// export buttons; the longest boundary curve goes to the Classify panel (event
// 'tela:reconstruction' on document).
import { el, fmt } from '../ui/dom.js';
import { glyphStyle } from './view.js';

// builds the section into ui (ui.summary, ui.legend, ui.toggles, ui.warnings and the buttons
// ui.exportCleaned, ui.exportPly, ui.exportJson, ui.exportMesh, ui.simulate); view: the
// panel's 3D view or null; result(): the reconstruction shown. -> { elements, show(r) }
export function createResult(ui, view, result, app, state) {
  ui.summary = el('dl', { className: 'summary', id: 'reconstruct-topology' });
  ui.legend = el('div', { className: 'glyph-legend' });
  function showLevels(on) {
    view?.setLevelCurves(on && result() ? result().levelCurves : null);
  }
  const toggle = (name, label, checked = true) => {
    const input = el('input', { type: 'checkbox', checked });
    input.dataset.layer = name;
    input.addEventListener('change', () => {
      if (name === 'levels') showLevels(input.checked);
      else view?.setVisible(name, input.checked);
    });
    return el('label', {}, input, ` ${label}`);
  };
  ui.toggles = el('div', { className: 'checks', hidden: true },
    toggle('cloud', 'points by 2-cell'), toggle('critical', 'critical points'), toggle('oneCells', '1-cells'),
    toggle('boundary', 'boundary curves'), toggle('levels', 'level-set curves', false), toggle('mesh', 're-sampled mesh', false));
  ui.exportPly = el('button', { type: 'button', id: 'reconstruct-export-ply', textContent: 'Labelled PLY', disabled: true });
  ui.exportMesh = el('button', { type: 'button', id: 'reconstruct-export-mesh', textContent: 'Mesh OBJ', disabled: true });
  ui.exportJson = el('button', { type: 'button', id: 'reconstruct-export-json', textContent: 'Cell complex JSON', disabled: true });
  ui.simulate = el('button', { type: 'button', id: 'reconstruct-simulate', textContent: 'Simulate the mesh', disabled: true });
  ui.exportCleaned = el('button', { type: 'button', id: 'reconstruct-export-cleaned', textContent: 'Cleaned cloud PLY', disabled: true,
    title: 'the points the cleaning kept (the whole cloud when no cleaning is on), as ASCII PLY' });
  ui.warnings = el('p', { className: 'hint' });

  // r: the reconstruction, or null (nothing shown)
  function show(r) {
    state.topology = r ? { ...r.topology, cells: Array.from(r.topology.cells) } : null;
    state.oneCells = r ? r.oneCells.length : 0;
    state.boundaryCurves = r ? r.boundaryCurves.length : 0;
    state.criticalPoints = r ? r.criticalPoints.types.length : 0;
    state.labels = r ? new Set(r.labels).size : 0;
    state.ms = r ? r.ms : null;
    state.mesh = r?.mesh ? { nodes: r.mesh.positions.length / 3, faces: r.mesh.quads.length / 4 } : null;
    ui.toggles.hidden = !r;
    ui.exportPly.disabled = !r;
    ui.exportJson.disabled = !r;
    ui.exportMesh.disabled = !r?.mesh;
    ui.simulate.disabled = !r?.mesh;
    if (!r) {
      document.dispatchEvent(new CustomEvent('tela:reconstruction', { detail: null }));
      ui.summary.replaceChildren();
      ui.legend.replaceChildren();
      ui.warnings.textContent = '';
      return;
    }
    const t = r.topology;
    const counts = new Map();
    r.criticalPoints.types.forEach((type) => counts.set(type, (counts.get(type) ?? 0) + 1));
    const row = (term, value, id) => [el('dt', { textContent: term }), el('dd', { textContent: String(value), ...(id ? { id } : {}) })];
    ui.summary.replaceChildren(
      ...row('Euler characteristic χ', t.euler, 'reconstruct-euler'),
      ...row('#min − #saddles + #max', t.morseSum),
      ...row('boundary curves', t.boundaryComponents, 'reconstruct-boundaries'),
      ...row('genus', t.genus ?? 'undefined (see the warnings)'),
      ...row('orientable', t.orientable ? 'yes' : 'no'),
      ...row('connected components', t.connectedComponents),
      ...row('cells (0, 1, 2)', Array.from(t.cells).join(', '), 'reconstruct-cells'),
      ...row('points used', r.pointsUsed),
      ...row('height direction', Array.from(r.direction, (x) => x.toFixed(3)).join(', ')),
      ...row('time', `${fmt(r.ms / 1000, 3)} s`),
      ...row('re-sampled mesh', r.mesh ? `${r.mesh.positions.length / 3} nodes, ${r.mesh.quads.length / 4} quads` : (r.meshMessage || 'none')),
    );
    ui.legend.replaceChildren(...[...counts.entries()].sort((a, b) => a[0] - b[0]).map(([type, count]) => {
      const name = r.criticalPoints.typeNames[type] ?? `type ${type}`;
      const style = glyphStyle(name);
      const swatch = el('span', { className: `glyph ${style.boundary ? 'diamond' : 'dot'}` });
      swatch.style.background = `#${style.color.toString(16).padStart(6, '0')}`;
      return el('span', { className: 'glyph-item' }, swatch, ` ${name.replaceAll('_', ' ')}: ${count}`);
    }));
    ui.warnings.textContent = r.warnings.length ? `Warnings: ${r.warnings.join('; ')}` : '';
    if (view) {
      view.setCells(r.positions, r.labels);
      view.setCritical(r.criticalPoints);
      view.setOneCells(r.oneCells);
      view.setBoundary(r.boundaryCurves);
      view.setMesh(r.mesh);
      for (const input of ui.toggles.querySelectorAll('input')) {
        if (input.dataset.layer === 'levels') showLevels(input.checked);
        else view.setVisible(input.dataset.layer, input.checked);
      }
    }
    // the Classify panel can classify the longest boundary curve (dGLI of a boundary polyline)
    const longest = r.boundaryCurves.reduce((a, b) => (b.length > (a?.length ?? 0) ? b : a), null);
    document.dispatchEvent(new CustomEvent('tela:reconstruction', {
      detail: { name: state.name, boundary: longest ? Array.from(longest) : [], points: longest ? Float64Array.from(longest) : null },
    }));
    app.showNotice(`Reconstructed “${state.name}”: χ = ${t.euler}, ${t.boundaryComponents} boundary curve${t.boundaryComponents === 1 ? '' : 's'}, genus ${t.genus ?? 'undefined'}.`);
  }

  const elements = [el('h2', { textContent: 'Cells and topology' }), ui.summary, ui.legend, ui.toggles, ui.warnings,
    el('div', { className: 'exports' }, ui.exportCleaned, ui.exportPly, ui.exportJson, ui.exportMesh, ui.simulate)];
  return { elements, show };
}
