// Canvas-2D plots of a fit: e_i and s_i against time, the (δ/ρ, α/ρ) error heat map with the
// optimum, the sweep's best point and the a-priori estimate marked (the replay is 3D:
// fit/view.js). Each function draws from plain data and returns nothing; colours use
// viridis (web/src/render/colormap.js).
import { niceCeiling, viridis } from '../render/colormap.js';
import { fmt } from '../ui/dom.js';

const INK = '#2c2b29';
const GRID = '#e2ded4';
const rgb = (c) => `rgb(${c.map((v) => Math.round(255 * v)).join(',')})`;

function setup(canvas) {
  const ratio = Math.min(2, window.devicePixelRatio || 1);
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '10.5px system-ui, sans-serif';
  return { ctx, width, height };
}

// frames: [{ time, e_cm, s_cm, visible }]
export function drawErrorCurve(canvas, frames) {
  const { ctx, width, height } = setup(canvas);
  const box = { left: 36, right: width - 8, top: 24, bottom: height - 22 };
  if (!frames?.length) {
    ctx.fillStyle = '#777';
    ctx.fillText('no per-frame errors (the fit was cancelled or failed)', box.left, height / 2);
    return;
  }
  const t0 = frames[0].time, t1 = frames[frames.length - 1].time || t0 + 1;
  let top = 0;
  for (const f of frames) top = Math.max(top, Number.isFinite(f.e_cm) ? f.e_cm : 0, Number.isFinite(f.s_cm) ? f.s_cm : 0);
  top = niceCeiling(Math.max(top, 0.01));
  const x = (t) => box.left + ((t - t0) / Math.max(1e-9, t1 - t0)) * (box.right - box.left);
  const y = (v) => box.bottom - (v / top) * (box.bottom - box.top);
  ctx.strokeStyle = GRID;
  ctx.fillStyle = '#555';
  ctx.lineWidth = 1;
  for (let k = 0; k <= 4; k++) {
    const v = (top * k) / 4;
    ctx.beginPath(); ctx.moveTo(box.left, y(v)); ctx.lineTo(box.right, y(v)); ctx.stroke();
    ctx.fillText(fmt(v), 2, y(v) + 3);
  }
  // time ticks at round multiples of a nice step (at most six of them)
  const step = niceCeiling(Math.max(1e-6, (t1 - t0) / 6));
  ctx.textAlign = 'center';
  for (let t = Math.ceil(t0 / step - 1e-9) * step; t <= t1 + 1e-9 * step; t += step) {
    const label = `${fmt(Math.abs(t) < 1e-9 * step ? 0 : t)} s`;
    const half = ctx.measureText(label).width / 2;
    ctx.fillText(label, Math.min(Math.max(x(t), box.left + half), width - 1 - half), height - 6);
  }
  ctx.textAlign = 'left';
  const series = [['e_cm', '#c0392b', 'eᵢ'], ['s_cm', '#2e6fb7', 'sᵢ']];
  for (const [key, colour] of series) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.4;
    ctx.beginPath();
    let pen = false;
    for (const f of frames) {
      const v = f[key];
      if (!Number.isFinite(v) || f.visible === 0) { pen = false; continue; }
      if (pen) ctx.lineTo(x(f.time), y(v));
      else ctx.moveTo(x(f.time), y(v));
      pen = true;
    }
    ctx.stroke();
  }
  ctx.fillStyle = INK;
  ctx.fillText('cm', 2, 10);
  ctx.fillStyle = '#c0392b'; ctx.fillText('— eᵢ (mass norm)', box.left + 10, 11);
  ctx.fillStyle = '#2e6fb7'; ctx.fillText('— sᵢ (spatial SD)', box.left + 110, 11);
}

// points: grid*grid evaluations (index i * grid + j: delta_i, alpha_j; null = not evaluated)
// marks: { fit: [d, a], sweepBest: [d, a], aPriori: [d, a] } in units of rho
export function drawHeatmap(canvas, { grid, points, deltaMax = 1, alphaMax = 4, marks = {} }) {
  const { ctx, width, height } = setup(canvas);
  // the cells fill `box` exactly (each sweep point at its cell's centre); tick labels, axis
  // names and the colour bar lie outside it
  const box = { left: 40, right: width - 34, top: 14, bottom: height - 30 };
  const values = points.filter((p) => p && p.ok && Number.isFinite(p.mean_error_cm)).map((p) => p.mean_error_cm);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 1;
  // log scale: the interesting valley is narrow compared with the far corners
  const scale = (v) => (hi > lo ? Math.log(v / lo) / Math.log(hi / lo) : 0);
  const n = Math.max(1, grid);
  const cw = (box.right - box.left) / n;
  const ch = (box.bottom - box.top) / n;
  const px = (d) => box.left + cw / 2 + (d / deltaMax) * (n - 1) * cw;
  const py = (a) => box.bottom - ch / 2 - (a / alphaMax) * (n - 1) * ch;
  ctx.fillStyle = '#f3f1ec';
  ctx.fillRect(box.left, box.top, box.right - box.left, box.bottom - box.top);
  points.forEach((p, k) => {
    if (!p) return;
    const i = Math.floor(k / grid), j = k % grid;
    const cx = box.left + i * cw, cy = box.bottom - (j + 1) * ch;
    ctx.fillStyle = p.ok && Number.isFinite(p.mean_error_cm) ? rgb(viridis(scale(p.mean_error_cm))) : '#999';
    ctx.fillRect(cx, cy, cw + 0.5, ch + 0.5);
  });
  // axes: ticks at the sweep's ends and quarters
  ctx.fillStyle = '#555';
  ctx.textAlign = 'center';
  for (let k = 0; k <= 4; k++) ctx.fillText(fmt((deltaMax * k) / 4), px((deltaMax * k) / 4), box.bottom + 12);
  ctx.textAlign = 'right';
  for (let k = 0; k <= 4; k++) ctx.fillText(fmt((alphaMax * k) / 4), box.left - 4, py((alphaMax * k) / 4) + 3);
  ctx.fillStyle = INK;
  ctx.textAlign = 'center';
  ctx.fillText('δ/ρ', (box.left + box.right) / 2, height - 3);
  ctx.save();
  ctx.translate(10, (box.top + box.bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText('α/ρ', 0, 0);
  ctx.restore();
  // colour bar (log), its ends labelled above and below it
  const bx = width - 22;
  for (let k = 0; k < 50; k++) {
    ctx.fillStyle = rgb(viridis(1 - k / 49));
    ctx.fillRect(bx, box.top + ((box.bottom - box.top) * k) / 50, 8, (box.bottom - box.top) / 50 + 1);
  }
  ctx.fillStyle = '#555';
  ctx.textAlign = 'right';
  if (values.length) {
    ctx.fillText(fmt(hi), width - 2, box.top - 3);
    ctx.fillText(fmt(lo), width - 2, box.bottom + 12);
  }
  ctx.fillText('ē cm', width - 2, box.bottom + 24);
  ctx.textAlign = 'left';
  // marks
  const mark = (at, draw) => {
    if (!at || !Number.isFinite(at[0]) || !Number.isFinite(at[1])) return;
    draw(px(Math.min(at[0], deltaMax)), py(Math.min(at[1], alphaMax)));
  };
  mark(marks.aPriori, (x, y) => {
    ctx.strokeStyle = '#fff'; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(x, y, 6, 0, 2 * Math.PI); ctx.stroke();
    ctx.strokeStyle = '#d35400'; ctx.lineWidth = 1.2;
    ctx.beginPath(); ctx.arc(x, y, 6, 0, 2 * Math.PI); ctx.stroke();
  });
  mark(marks.sweepBest, (x, y) => {
    ctx.strokeStyle = '#fff'; ctx.lineWidth = 1.2;
    ctx.strokeRect(x - 4, y - 4, 8, 8);
  });
  mark(marks.fit, (x, y) => {
    ctx.strokeStyle = '#000'; ctx.lineWidth = 3.5;
    ctx.beginPath(); ctx.moveTo(x - 7, y); ctx.lineTo(x + 7, y); ctx.moveTo(x, y - 7); ctx.lineTo(x, y + 7); ctx.stroke();
    ctx.strokeStyle = '#fff'; ctx.lineWidth = 1.6;
    ctx.beginPath(); ctx.moveTo(x - 6, y); ctx.lineTo(x + 6, y); ctx.moveTo(x, y - 6); ctx.lineTo(x, y + 6); ctx.stroke();
  });
}
