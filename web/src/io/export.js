// Writers of the exported files, pure functions over flat arrays (used by the worker, which
// holds the full-precision state). positions: #nodes*3 metres, core frame (z up);
// faces: #faces*4 node indices, -1 in the fourth slot of a triangle.

// a frame (OBJ, PLY): the shortest text that reads back as the same double (up to 17 digits);
// the trajectory: 12 significant digits, as `tela simulate --out` (%.12g; 9 digits lost up to
// 5e-9 m against the command line's file)
const num = (x) => String(x);
const num12 = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(12))));
// the fit replay (single-precision data): 9 significant digits
const num9 = (x) => (Number.isInteger(x) ? String(x) : x.toPrecision(9).replace(/\.?0+(e|$)/, '$1'));

// Trajectory CSV: one row per node and recorded frame. frames: [{ frame, time, positions }].
// Returns an array of text chunks (for a Blob).
export function trajectoryCsv(frames) {
  const chunks = ['frame,time,node,x,y,z\n'];
  for (const { frame, time, positions } of frames) {
    const t = num12(time);
    const lines = [];
    for (let k = 0; k < positions.length / 3; k++) {
      lines.push(`${frame},${t},${k},${num12(positions[3 * k])},${num12(positions[3 * k + 1])},${num12(positions[3 * k + 2])}\n`);
    }
    chunks.push(lines.join(''));
  }
  return chunks;
}

// Wavefront OBJ of one frame: v lines, then f lines (1-based; quads stay quads).
export function objText(positions, faces, comment = '') {
  const out = [];
  if (comment) out.push(`# ${comment}`);
  for (let k = 0; k < positions.length / 3; k++) {
    out.push(`v ${num(positions[3 * k])} ${num(positions[3 * k + 1])} ${num(positions[3 * k + 2])}`);
  }
  for (let f = 0; f < faces.length / 4; f++) {
    const v = Array.from(faces.subarray(4 * f, 4 * f + 4)).filter((i) => i >= 0);
    out.push(`f ${v.map((i) => i + 1).join(' ')}`);
  }
  return out.join('\n') + '\n';
}

// ASCII PLY of one frame: float x, y, z per vertex, then faces as index lists.
export function plyText(positions, faces, comment = '') {
  const nodes = positions.length / 3;
  const faceCount = faces.length / 4;
  const out = ['ply', 'format ascii 1.0'];
  if (comment) out.push(`comment ${comment}`);
  out.push(`element vertex ${nodes}`, 'property double x', 'property double y', 'property double z',
           `element face ${faceCount}`, 'property list uchar int vertex_indices', 'end_header');
  for (let k = 0; k < nodes; k++) {
    out.push(`${num(positions[3 * k])} ${num(positions[3 * k + 1])} ${num(positions[3 * k + 2])}`);
  }
  for (let f = 0; f < faceCount; f++) {
    const v = Array.from(faces.subarray(4 * f, 4 * f + 4)).filter((i) => i >= 0);
    out.push(`${v.length} ${v.join(' ')}`);
  }
  return out.join('\n') + '\n';
}

// A fit's replay, marker by marker: one row per simulation step and grid marker with the
// recorded position, its node's simulated position (metres, the recording's z-up frame) and
// their distance in cm; an occluded sample leaves the recorded cells and the distance empty.
// markers: #steps+1 by #markers*3 (NaN = occluded); simulated: #steps+1 by #nodes*3;
// markerNodes: each marker's node; names: the markers' names in grid order. Text chunks.
export function markerReplayCsv({ markers, simulated, markerNodes, nodes, names, dt }) {
  const m = markerNodes.length;
  const steps = Math.min(markers.length / (3 * m), simulated.length / (3 * nodes));
  const quote = (s) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const chunks = ['step,time,marker,recorded_x,recorded_y,recorded_z,simulated_x,simulated_y,simulated_z,distance_cm\n'];
  for (let s = 0; s < steps; s++) {
    const lines = [];
    for (let k = 0; k < m; k++) {
      const r = markers.subarray(3 * (s * m + k), 3 * (s * m + k) + 3);
      const p = simulated.subarray(3 * (s * nodes + markerNodes[k]), 3 * (s * nodes + markerNodes[k]) + 3);
      const seen = Number.isFinite(r[0]);
      const d = seen ? num9(100 * Math.hypot(r[0] - p[0], r[1] - p[1], r[2] - p[2])) : '';
      lines.push(`${s},${num9(Number((s * dt).toFixed(9)))},${quote(names[k])},${seen ? Array.from(r, num9).join(',') : ',,'},${Array.from(p, num9).join(',')},${d}\n`);
    }
    chunks.push(lines.join(''));
  }
  return chunks;
}
