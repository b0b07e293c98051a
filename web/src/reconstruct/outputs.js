// What the Reconstruct panel makes of a reconstruction: the cell complex as JSON, a labelled
// PLY of the points, and the re-sampled mesh as a Simulate scenario.
import { version as APP_VERSION } from '../../../package.json';
import { CELL_COLORS } from './view.js';

// flat xyz -> [[x, y, z], ...]
const triples = (flat) => Array.from({ length: flat.length / 3 }, (_, i) => [flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]]);

// The cell complex as JSON (what `tela reconstruct` reports, in the binding's names, plus the geometry): how it was made
// (input, cleaning steps, options, height direction), the topology, the critical points, the
// 1-cells and boundary curves as point paths, the attaching words and the warnings.
export function complexJson(result, { name, points, cleaning, options }) {
  const counts = Object.fromEntries(result.criticalPoints.typeNames.map((n) => [n, 0]));
  for (const t of result.criticalPoints.types) counts[result.criticalPoints.typeNames[t]] += 1;
  const criticalPositions = triples(result.criticalPoints.positions);
  return {
    format: 'tela-cell-complex', version: 1,
    app: { name: 'tela', version: APP_VERSION },
    created: new Date().toISOString(),
    input: { name, points },
    cleaning, // { options, steps } of the cleaning the cloud went through, or null
    options,  // the reconstruction's: seed, levels, resampleNodes
    direction: Array.from(result.direction),
    pointsUsed: result.pointsUsed,
    topology: { ...result.topology, cells: Array.from(result.topology.cells) },
    criticalPoints: {
      counts,
      points: Array.from(result.criticalPoints.types, (t, i) => ({
        type: result.criticalPoints.typeNames[t], index: result.criticalPoints.indices[i], position: criticalPositions[i],
      })),
    },
    oneCells: result.oneCells.map((c) => ({ kind: c.kind, ends: Array.from(c.ends), path: triples(c.positions) })),
    boundaryCurves: result.boundaryCurves.map((curve) => triples(curve)),
    attachingWords: result.attachingWords.map((w) => ({ cells: Array.from(w.cells), signs: Array.from(w.signs), point: w.point })),
    attachmentChecks: { ...result.attachmentChecks, problems: Array.from(result.attachmentChecks.problems) },
    mesh: result.mesh ? { nodes: result.mesh.positions.length / 3, quads: result.mesh.quads.length / 4 } : null,
    warnings: Array.from(result.warnings),
  };
}

// ASCII PLY: x y z, the 2-cell label, a boundary flag and the label's colour
export function labelledPly(result, comment = '') {
  const p = result.positions, labels = result.labels, boundary = result.onBoundary;
  const n = labels.length;
  const lines = ['ply', 'format ascii 1.0'];
  if (comment) lines.push(`comment ${comment}`);
  lines.push(`element vertex ${n}`, 'property float x', 'property float y', 'property float z',
    'property int label', 'property uchar boundary', 'property uchar red', 'property uchar green', 'property uchar blue',
    'end_header');
  for (let i = 0; i < n; i++) {
    const c = labels[i] < 0 ? 0x999999 : CELL_COLORS[labels[i] % CELL_COLORS.length];
    lines.push(`${p[3 * i]} ${p[3 * i + 1]} ${p[3 * i + 2]} ${labels[i]} ${boundary[i] ? 1 : 0} ${(c >> 16) & 255} ${(c >> 8) & 255} ${c & 255}`);
  }
  return lines.join('\n') + '\n';
}

// faces of the binding's quads as the #faces*4 layout objText expects
export function meshFaces(mesh) {
  return Int32Array.from(mesh.quads);
}

// An explicit-mesh scenario: the template's material and solver, the mesh centred above the
// floor with its highest side at z = 1 m, held at the two corners with the largest y (one side
// of the re-sampled grid), so it hangs.
export function meshScenario(template, mesh, name) {
  const n = mesh.positions.length / 3;
  const p = Array.from(mesh.positions);
  const use = new Array(n).fill(0);
  for (const v of mesh.quads) if (v >= 0) use[v]++;
  const corners = [];
  for (let i = 0; i < n; i++) if (use[i] === 1) corners.push(i);
  corners.sort((a, b) => p[3 * b + 1] - p[3 * a + 1] || a - b);
  let cx = 0, cy = 0, maxZ = -Infinity;
  for (let i = 0; i < n; i++) {
    cx += p[3 * i] / n;
    cy += p[3 * i + 1] / n;
    maxZ = Math.max(maxZ, p[3 * i + 2]);
  }
  const vertices = [];
  for (let i = 0; i < n; i++) {
    vertices.push(+(p[3 * i] - cx).toFixed(6), +(p[3 * i + 1] - cy).toFixed(6), +(p[3 * i + 2] - maxZ + 1).toFixed(6));
  }
  const faces = [];
  for (let f = 0; f < mesh.quads.length; f += 4) {
    faces.push([mesh.quads[f], mesh.quads[f + 1], mesh.quads[f + 2], mesh.quads[f + 3]].filter((v) => v >= 0));
  }
  const scenario = {
    version: 1,
    name,
    description: `The re-sampled mesh of a reconstructed point cloud (${n} nodes), held at two corners.`,
    mesh: { type: 'mesh', vertices, faces },
    material: template.material,
    solver: template.solver,
    duration: template.duration ?? 10,
    controls: [{ nodes: corners.slice(0, 2), motion: { type: 'hold' } }],
  };
  return scenario;
}
