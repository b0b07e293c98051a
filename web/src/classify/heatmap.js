// Drawing a dGLI matrix as a heat map: the upper-triangle vector (i < j, row by row, as
// dgli/cloth_coordinates.h lists it) mirrored into the symmetric m x m matrix, one pixel per
// entry (CSS scales it up), with the app's diverging colour map (render/colormap.js, the one
// of the signed area change on the cloth) centred on 0. The diagonal and undefined pairs are
// dark grey.
import { diverging as divergingMap } from '../render/colormap.js';

// t in [-1, 1] -> [r, g, b] 0..255
export function diverging(t) {
  const x = Math.max(-1, Math.min(1, Number.isFinite(t) ? t : 0));
  return divergingMap((x + 1) / 2).map((v) => Math.round(255 * v));
}

export function divergingGradient() {
  const stops = [];
  for (let i = 0; i <= 8; i++) {
    const t = -1 + i / 4;
    stops.push(`rgb(${diverging(t).join(' ')}) ${(100 * i / 8).toFixed(1)}%`);
  }
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

// m from the number of upper-triangle entries m (m - 1) / 2
export function segmentCount(entries) {
  return Math.round((1 + Math.sqrt(1 + 8 * entries)) / 2);
}

export function upperIndex(i, j, m) {
  if (i > j) [i, j] = [j, i];
  return i * m - (i * (i + 1)) / 2 + (j - i - 1);
}

// values: upper triangle; status: per entry (0 = defined) or null; scale: |value| shown saturated
export function drawMatrix(canvas, values, scale, status = null) {
  const m = segmentCount(values.length);
  canvas.width = m;
  canvas.height = m;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(m, m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      let rgb = [110, 110, 110];
      if (i !== j) {
        const k = upperIndex(i, j, m);
        if (!status || status[k] === 0) rgb = diverging(values[k] / scale);
      }
      const p = 4 * (i * m + j);
      image.data.set([...rgb, 255], p);
    }
  }
  ctx.putImageData(image, 0, 0);
  return m;
}
