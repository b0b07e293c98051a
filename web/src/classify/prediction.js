// What the Classify panel shows of a classification: the predicted class with its distance,
// the runner-up and the nearest class representative (and warnings: a state unlike every
// reference state, ignored boundary loops), the dGLI matrix as a heat map
// (classify/heatmap.js) with its scale, and the database's reference states as a gallery of
// their matrices, the predicted class's marked; and the classification as JSON.
import { version as APP_VERSION } from '../../../package.json';
import { niceCeiling } from '../render/colormap.js';
import { el, fmt } from '../ui/dom.js';
import { drawMatrix } from './heatmap.js';

export const label = (name) => (name || '–').replaceAll('_', ' ');

// result: the worker's classification; k: the vote it was made with; what: what was
// classified, in a few words
export function showPrediction(ui, result, { k, what }) {
  let max = 0;
  result.values.forEach((v, i) => { if (result.status[i] === 0) max = Math.max(max, Math.abs(v)); });
  const scale = niceCeiling(Math.max(max, 1e-6));
  drawMatrix(ui.matrix, result.values, scale, result.status);
  ui.scaleMin.textContent = `−${fmt(scale)}`;
  ui.scaleMax.textContent = `+${fmt(scale)}`;
  ui.prediction.replaceChildren(
    el('strong', { id: 'classify-class', textContent: label(result.class) }),
    ` at distance ${fmt(result.distance)}`,
    k > 1 ? ` (${result.knnVotes} of the ${k} nearest states)` : '', el('br'),
    `runner-up: ${label(result.runnerUp)} at ${fmt(result.runnerUpDistance)}`, el('br'),
    `nearest class representative: ${label(result.representativeClass)} at ${fmt(result.representativeDistance)}`,
    el('br'),
    ...(result.novel ? [el('span', {
      id: 'classify-novel', className: 'warning',
      textContent: `Unlike every reference state: the nearest is ${fmt(result.nearestStateDistance)} away, ` +
        `while every reference state has a neighbour within ${fmt(result.reach)}. ` +
        'The class above is only the least unlike one.',
    }), el('br')] : []),
    ...(result.ignoredLoops ? [el('span', {
      id: 'classify-ignored-loops', className: 'warning',
      textContent: `The mesh has ${result.ignoredLoops + 1} boundary loops: only the longest (the outer edge) is ` +
        `classified; the other ${result.ignoredLoops === 1 ? 'one is' : `${result.ignoredLoops} are`} ignored (holes or separate pieces).`,
    }), el('br')] : []),
    el('span', { className: 'hint', textContent: `${what} · ${result.segmentCount} segments, ${result.values.length} entries${result.undefined ? `, ${result.undefined} undefined` : ''}` }),
  );
  for (const figure of ui.gallery.children) figure.classList.toggle('match', figure.dataset.class === result.class);
}

// nothing classified: no class, an empty matrix, no reference state marked
export function clearPrediction(ui) {
  ui.prediction.textContent = 'no class: see the message below';
  ui.matrix.getContext('2d').clearRect(0, 0, ui.matrix.width, ui.matrix.height);
  for (const figure of ui.gallery.children) figure.classList.remove('match');
}

// the database's class representatives, each as a thumbnail of its dGLI matrix; name: the
// database's (shipped: the shipped one)
export function showGallery(ui, database, { name, shipped }) {
  // one scale for all: the 95th percentile of |entry| (a few largest entries saturate)
  const magnitudes = database.representatives.flatMap((r) => r.coordinates.map(Math.abs)).sort((x, y) => x - y);
  const scale = niceCeiling(Math.max(magnitudes[Math.floor(0.95 * (magnitudes.length - 1))] ?? 0, 1e-6));
  ui.gallery.replaceChildren(...database.representatives.map((r) => {
    const className = database.classes[r.class] ?? `class ${r.class}`;
    const canvas = el('canvas');
    drawMatrix(canvas, r.coordinates, scale);
    const figure = el('figure', { title: `${label(className)} (group ${r.group}): ${r.source}` }, canvas,
      el('figcaption', { textContent: label(className) }));
    figure.dataset.class = className;
    return figure;
  }));
  const missing = database.classes.filter((_, c) => !database.representatives.some((r) => r.class === c));
  ui.provenance.textContent = `${shipped ? 'The shipped database' : `“${name}”`}: ` +
    `${database.representatives.length} representatives of ${database.states.length} labelled states` +
    `${missing.length ? ` (no state of: ${missing.map(label).join(', ')})` : ''}; ` +
    `coordinates: ${database.settings.segments}, ${database.settings.per_side} per side${database.settings.normalize_by_perimeter ? ', × perimeter' : ''}. ` +
    `Matrices share one scale (±${fmt(scale)}).`;
  ui.gallery.title = database.provenance;
}

// The classification as JSON, with what was classified (classified: { source: 'frame', scene,
// step, stateHash }, { source: 'boundary', cloud } or { source: 'obj', file }), the vote k and
// the database it was made against
export function classificationJson(result, { classified, k, database, databaseName }) {
  const m = result.segmentCount;
  return {
    format: 'tela-classification', version: 1,
    app: { name: 'tela', version: APP_VERSION },
    created: new Date().toISOString(),
    classified,
    class: result.class, distance: result.distance,
    runnerUp: result.runnerUp, runnerUpDistance: result.runnerUpDistance,
    representative: { class: result.representativeClass, distance: result.representativeDistance, runnerUp: result.representativeRunnerUp },
    novel: result.novel, nearestStateDistance: result.nearestStateDistance, databaseReach: result.reach,
    k,
    dgli: {
      segments: m,
      // upper triangle, row by row: (s0, s1), (s0, s2), ..., (s[m-2], s[m-1]); null where undefined
      values: Array.from(result.values, (v, i) => (result.status[i] === 0 ? v : null)),
      segmentEnds: Array.from(result.segments),
    },
    database: { name: databaseName, states: database?.states.length, classes: database?.classes, settings: database?.settings, provenance: database?.provenance },
  };
}
