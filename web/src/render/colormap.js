// Viridis as a polynomial fit of matplotlib's table: the same coefficients as
// shaders/cloth.frag.glsl, so the colour bar shows exactly the colours on the cloth.
const C = [
  [0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
  [0.1050930431085774, 1.404613529898575, 1.384590162594685],
  [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
  [-4.634230498983486, -5.799100973351585, -19.33244095627987],
  [6.228269936347081, 14.17993336680509, 56.69055260068105],
  [4.776384997670288, -13.74514537774601, -65.35303263337234],
  [-5.435455855934631, 4.645852612178535, 26.3124352495832],
];

// t in [0, 1] -> [r, g, b] in [0, 1]
export function viridis(t) {
  const x = Math.min(1, Math.max(0, t));
  return [0, 1, 2].map((c) => {
    let v = 0;
    for (let k = C.length - 1; k >= 0; k--) v = C[k][c] + x * v;
    return Math.min(1, Math.max(0, v));
  });
}

// blue - grey - red for signed values, t in [0, 1] with 0.5 the zero (shaders/cloth.frag.glsl)
export function diverging(t) {
  const x = Math.min(1, Math.max(0, t));
  const low = [0.230, 0.299, 0.754];
  const mid = [0.865, 0.865, 0.865];
  const high = [0.706, 0.016, 0.150];
  return x < 0.5 ? low.map((v, c) => v + (mid[c] - v) * 2 * x) : mid.map((v, c) => v + (high[c] - v) * (2 * x - 1));
}

// a CSS linear-gradient of a colour map from bottom (0) to top (1)
export function gradient(map = viridis, stops = 9) {
  const parts = [];
  for (let i = 0; i < stops; i++) {
    const t = i / (stops - 1);
    const [r, g, b] = map(t).map((v) => Math.round(255 * v));
    parts.push(`rgb(${r} ${g} ${b}) ${(100 * t).toFixed(1)}%`);
  }
  return `linear-gradient(to top, ${parts.join(', ')})`;
}

// the smallest "nice" number (1, 2, 2.5, 5 times a power of ten) >= x; x > 0
export function niceCeiling(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}
