// Canvas-2D plots of a fit: e_i and s_i against time, the (δ/ρ, α/ρ) error heat map with the
// optimum, the sweep's best point and the a-priori estimate marked, and a replay of the
// recorded markers against the simulated cloth with per-marker error colours. Each function
// draws from plain data and returns nothing; colours use viridis (web/src/render/colormap.js).
import { niceCeiling, viridis } from '../render/colormap.js';

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

function fmt(x) {
  return Number(x.toPrecision(3)).toString();
}

// frames: [{ time, e_cm, s_cm, visible }]
export function drawErrorCurve(canvas, frames) {
  const { ctx, width, height } = setup(canvas);
  const box = { left: 36, right: width - 8, top: 16, bottom: height - 22 };
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
  for (let k = 0; k <= 4; k++) {
    const t = t0 + ((t1 - t0) * k) / 4;
    ctx.fillText(`${fmt(t)} s`, x(t) - (k === 4 ? 26 : k ? 10 : 0), height - 6);
  }
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
  const box = { left: 34, right: width - 46, top: 20, bottom: height - 28 };
  const values = points.filter((p) => p && p.ok && Number.isFinite(p.mean_error_cm)).map((p) => p.mean_error_cm);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 1;
  // log scale: the interesting valley is narrow compared with the far corners
  const scale = (v) => (hi > lo ? Math.log(v / lo) / Math.log(hi / lo) : 0);
  const px = (d) => box.left + (d / deltaMax) * (box.right - box.left);
  const py = (a) => box.bottom - (a / alphaMax) * (box.bottom - box.top);
  const cw = (box.right - box.left) / Math.max(1, grid - 1);
  const ch = (box.bottom - box.top) / Math.max(1, grid - 1);
  ctx.fillStyle = '#f3f1ec';
  ctx.fillRect(box.left - cw / 2, box.top - ch / 2, box.right - box.left + cw, box.bottom - box.top + ch);
  points.forEach((p, k) => {
    if (!p) return;
    const i = Math.floor(k / grid), j = k % grid;
    const cx = box.left + i * cw, cy = box.bottom - j * ch;
    ctx.fillStyle = p.ok && Number.isFinite(p.mean_error_cm) ? rgb(viridis(scale(p.mean_error_cm))) : '#999';
    ctx.fillRect(cx - cw / 2, cy - ch / 2, cw + 0.5, ch + 0.5);
  });
  // axes
  ctx.fillStyle = '#555';
  for (let k = 0; k <= 4; k++) {
    ctx.fillText(fmt((deltaMax * k) / 4), px((deltaMax * k) / 4) - 6, height - 14);
    ctx.fillText(fmt((alphaMax * k) / 4), 12, py((alphaMax * k) / 4) + 3);
  }
  ctx.fillStyle = INK;
  ctx.fillText('δ/ρ', (box.left + box.right) / 2 - 8, height - 2);
  ctx.save();
  ctx.translate(9, (box.top + box.bottom) / 2 + 8);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText('α/ρ', 0, 0);
  ctx.restore();
  // colour bar (log)
  const bx = width - 34;
  for (let k = 0; k < 50; k++) {
    ctx.fillStyle = rgb(viridis(1 - k / 49));
    ctx.fillRect(bx, box.top + ((box.bottom - box.top) * k) / 50, 8, (box.bottom - box.top) / 50 + 1);
  }
  ctx.fillStyle = '#555';
  if (values.length) {
    ctx.fillText(fmt(hi), bx - 6, box.top - 6);
    ctx.fillText(fmt(lo), bx - 6, box.bottom + 12);
  }
  ctx.fillText('ē cm', bx - 6, box.bottom + 24);
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

// A front view along the held edge (horizontal) and up (z), with a little depth shear so the
// cloth's swing towards the viewer shows. simulated: #steps+1 by #nodes*3; markers:
// #steps+1 by #markers*3 (NaN = occluded); markerNodes: the mesh node of each marker.
export function makeReplay({ simulated, markers, triangles, markerNodes, nodes, nx }) {
  const stepsPlus1 = Math.floor(simulated.length / (3 * nodes));
  const m = markerNodes.length;
  // horizontal axis: along the first row of nodes (parallel to the held edge) at t = 0, in x-y
  let ux = simulated[3 * (nx - 1)] - simulated[0], uy = simulated[3 * (nx - 1) + 1] - simulated[1];
  const n = Math.hypot(ux, uy) || 1;
  ux /= n; uy /= n;
  const project = (x, y, z) => {
    const u = x * ux + y * uy;
    const w = -x * uy + y * ux; // depth
    return [u + 0.35 * w, z + 0.2 * w];
  };
  // bounds over the whole replay
  let umin = Infinity, umax = -Infinity, vmin = Infinity, vmax = -Infinity;
  for (let k = 0; k < simulated.length; k += 3) {
    const [u, v] = project(simulated[k], simulated[k + 1], simulated[k + 2]);
    umin = Math.min(umin, u); umax = Math.max(umax, u); vmin = Math.min(vmin, v); vmax = Math.max(vmax, v);
  }
  // per-marker distance (cm) at every step
  const errors = new Float32Array(stepsPlus1 * m);
  let maxError = 0;
  for (let s = 0; s < stepsPlus1; s++) {
    for (let k = 0; k < m; k++) {
      const a = 3 * (s * nodes + markerNodes[k]), b = 3 * (s * m + k);
      const d = Math.hypot(simulated[a] - markers[b], simulated[a + 1] - markers[b + 1], simulated[a + 2] - markers[b + 2]) * 100;
      errors[s * m + k] = d;
      if (Number.isFinite(d)) maxError = Math.max(maxError, d);
    }
  }
  return { simulated, markers, triangles, markerNodes, nodes, steps: stepsPlus1 - 1, project, bounds: [umin, umax, vmin, vmax], errors, errorTop: niceCeiling(Math.max(maxError, 0.1)) };
}

export function drawReplay(canvas, replay, step) {
  const { ctx, width, height } = setup(canvas);
  const { simulated, markers, triangles, nodes, markerNodes, project, errors, errorTop } = replay;
  const s = Math.max(0, Math.min(replay.steps, step));
  const [umin, umax, vmin, vmax] = replay.bounds;
  const pad = 0.03;
  const scale = Math.min((width - 60) / (umax - umin + 2 * pad), (height - 20) / (vmax - vmin + 2 * pad));
  const cx = (width - 50) / 2, cy = height / 2;
  const mu = (umin + umax) / 2, mv = (vmin + vmax) / 2;
  const screen = (x, y, z) => {
    const [u, v] = project(x, y, z);
    return [cx + (u - mu) * scale, cy - (v - mv) * scale];
  };
  const node = (i) => {
    const a = 3 * (s * nodes + i);
    return screen(simulated[a], simulated[a + 1], simulated[a + 2]);
  };
  ctx.strokeStyle = '#9a958a';
  ctx.lineWidth = 0.8;
  ctx.fillStyle = 'rgba(180, 170, 150, 0.25)';
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [node(triangles[t]), node(triangles[t + 1]), node(triangles[t + 2])];
    ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.lineTo(...c); ctx.closePath();
    ctx.fill(); ctx.stroke();
  }
  const m = markerNodes.length;
  for (let k = 0; k < m; k++) {
    const b = 3 * (s * m + k);
    const sim = node(markerNodes[k]);
    if (!Number.isFinite(markers[b])) {
      ctx.strokeStyle = '#999';
      ctx.beginPath(); ctx.arc(...sim, 3, 0, 2 * Math.PI); ctx.stroke();
      continue;
    }
    const rec = screen(markers[b], markers[b + 1], markers[b + 2]);
    const colour = rgb(viridis(errors[s * m + k] / errorTop));
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(...sim); ctx.lineTo(...rec); ctx.stroke();
    ctx.fillStyle = colour;
    ctx.strokeStyle = INK;
    ctx.lineWidth = 0.8;
    ctx.beginPath(); ctx.arc(...rec, 4, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
  }
  // colour bar for the marker errors
  const bx = width - 22, top = 14, bottom = height - 24;
  for (let k = 0; k < 40; k++) {
    ctx.fillStyle = rgb(viridis(1 - k / 39));
    ctx.fillRect(bx, top + ((bottom - top) * k) / 40, 8, (bottom - top) / 40 + 1);
  }
  ctx.fillStyle = '#555';
  ctx.fillText(`${fmt(errorTop)}`, bx - 6, top - 3);
  ctx.fillText('0 cm', bx - 12, bottom + 12);
  ctx.fillStyle = INK;
  ctx.fillText('● recorded (colour: distance to its node) · mesh: simulated', 4, height - 4);
}
