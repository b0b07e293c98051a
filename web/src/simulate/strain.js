// Per-element edge strain: the largest |l / l0 - 1| over the element's sides (quads: the four
// sides, not the diagonals). positions, rest: #nodes*3 metres; faces: #faces*4 (-1 closes a
// triangle). Returns a Float32Array #faces.
export function edgeStrains(positions, rest, faces) {
  const out = new Float32Array(faces.length / 4);
  const length = (p, a, b) =>
    Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
  for (let f = 0; f < out.length; f++) {
    const n = faces[4 * f + 3] < 0 ? 3 : 4;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const a = faces[4 * f + i];
      const b = faces[4 * f + ((i + 1) % n)];
      const l0 = length(rest, a, b);
      if (l0 > 0) worst = Math.max(worst, Math.abs(length(positions, a, b) / l0 - 1));
    }
    out[f] = worst;
  }
  return out;
}
