// Writers of the exported files, pure functions over flat arrays (used by the worker, which
// holds the full-precision state). positions: #nodes*3 metres, core frame (z up);
// faces: #faces*4 node indices, -1 in the fourth slot of a triangle.

const num = (x) => (Number.isInteger(x) ? String(x) : x.toPrecision(9).replace(/\.?0+(e|$)/, '$1'));

// Trajectory CSV: one row per node and recorded frame. frames: [{ frame, time, positions }].
// Returns an array of text chunks (for a Blob).
export function trajectoryCsv(frames) {
  const chunks = ['frame,time,node,x,y,z\n'];
  for (const { frame, time, positions } of frames) {
    const t = num(time);
    const lines = [];
    for (let k = 0; k < positions.length / 3; k++) {
      lines.push(`${frame},${t},${k},${num(positions[3 * k])},${num(positions[3 * k + 1])},${num(positions[3 * k + 2])}\n`);
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
