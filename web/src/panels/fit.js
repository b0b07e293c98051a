// The Fit panel (issue 5, thesis chapter 4): drop a motion-capture recording (or load the
// sample), see what was detected, fit (δ/ρ, α/ρ) with a progress bar and Cancel, and see the
// error-vs-time curve, the sweep's error heat map with the optimum, a replay of the recorded
// markers over the simulated cloth, and export the fit as JSON. The work runs in several
// module workers (web/src/fit/worker.js, each with its own wasm FitSession from mocap's
// bind_fit.cpp): the sweep's grid points are shared among them one simulation at a time, then
// the first worker refines the sweep's best point by Nelder-Mead. window.__tela.fit mirrors
// the panel's state for tests.
import { createWorkerClient } from '../ui/worker_client.js';
import { viridis } from '../render/colormap.js';
import './panels.css';

const SAMPLE_URL = `${import.meta.env.BASE_URL}samples/a3-shake-synthetic.csv`;
const DELTA_MAX = 1, ALPHA_MAX = 4; // sweep box of the thesis (§4.2.2): δ/ρ in [0, 1], α/ρ in [0, 4]
const APP_VERSION = 'tela 0.1.0';

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};
const fmt = (x, digits = 3) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : '–');

async function sha256(bytes) {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function download(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = el('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// grid points of the sweep: δ/ρ_i = i / (n - 1) · max, α/ρ_j likewise
export function sweepPoints(n) {
  const points = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      points.push({ i, j, delta: (n === 1 ? 0.5 : i / (n - 1)) * DELTA_MAX, alpha: (n === 1 ? 0.5 : j / (n - 1)) * ALPHA_MAX });
    }
  }
  return points;
}

export const fitPanel = {
  id: 'fit',
  title: 'Fit',
  accepts: ['optitrack-csv', 'vicon-csv', 'qualisys-tsv', 'mocap-csv'],
  async open() {},

  mount(container, app) {
    const state = (window.__tela.fit = {
      status: 'empty', name: '', error: null, summary: null, progress: 0, done: 0, total: 0,
      sweep: [], best: null, fit: null, cancelled: false, workers: 0, replayFrame: -1, exported: null,
    });
    const ui = {};
    let recording = null; // { name, bytes, hash, options } of the open recording
    let lastFile = null;  // { name, bytes } of the last file tried (corrections re-open it)
    let workers = [];
    let cancelRequested = false;
    let result = null;
    let replay = null;
    let replayTimer = 0;

    const makeClient = () => createWorkerClient(
      () => new Worker(new URL('../fit/worker.js', import.meta.url), { type: 'module' }),
      { name: 'fitting', onProgress: (p) => refineProgress(p) });

    // ---- layout
    ui.sample = el('button', { type: 'button', id: 'fit-sample', textContent: 'Load sample' });
    ui.sample.title = 'a synthetic A3 recording (Motive CSV) simulated with known parameters, with marker noise and gaps';
    ui.open = el('button', { type: 'button', id: 'fit-open', textContent: 'Open recording…' });
    ui.file = el('input', { type: 'file', hidden: true, accept: '.csv,.tsv,.txt' });
    ui.info = el('p', { className: 'description', textContent: 'Drop a recording (OptiTrack Motive CSV, Vicon CSV, Qualisys TSV, plain CSV) anywhere, or load the sample.' });
    ui.detected = el('dl', { className: 'summary', id: 'fit-detected' });
    ui.error = el('p', { className: 'field-error', id: 'fit-error', hidden: true });
    const number = (id, value, min, max) => el('input', { type: 'number', id, value: String(value), min: String(min), max: String(max), step: '1' });
    ui.grid = number('fit-grid', 6, 2, 20);
    ui.refine = number('fit-refine', 12, 0, 200);
    ui.workers = number('fit-workers', Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2)), 1, 8);
    ui.split = el('select', {}, el('option', { value: 'whole', textContent: 'whole recording' }), el('option', { value: 'half', textContent: 'train 1st half, test 2nd' }));
    const row = (label, input, unit = '') => el('label', { className: 'param' }, el('span', { textContent: label }), input, el('span', { className: 'unit', textContent: unit }));
    // corrections of what was detected (options of mocap's FitSession); empty = automatic
    const select = (id, values) => el('select', { id }, ...values.map(([v, t]) => el('option', { value: v, textContent: t })));
    ui.oUnits = select('fit-units', [['', 'as detected'], ['mm', 'mm'], ['cm', 'cm'], ['m', 'm']]);
    ui.oUp = select('fit-up', [['', 'as detected'], ...['x', 'y', 'z', '-x', '-y', '-z'].map((a) => [a, a])]);
    ui.oCols = el('input', { type: 'number', id: 'fit-cols', min: '2', max: '20', placeholder: 'auto' });
    ui.oRows = el('input', { type: 'number', id: 'fit-rows', min: '2', max: '20', placeholder: 'auto' });
    ui.oHeld = el('input', { type: 'text', id: 'fit-held', placeholder: 'auto: marker, marker' });
    ui.oRefine = el('input', { type: 'number', id: 'fit-mesh-refine', min: '1', max: '6', placeholder: 'auto' });
    ui.reopen = el('button', { type: 'button', id: 'fit-reopen', textContent: 'Apply corrections', disabled: true });
    ui.run = el('button', { type: 'button', id: 'fit-run', textContent: 'Fit', disabled: true });
    ui.cancel = el('button', { type: 'button', id: 'fit-cancel', textContent: 'Cancel', disabled: true });
    ui.progress = el('progress', { id: 'fit-progress', max: 1, value: 0 });
    ui.stage = el('span', { className: 'hint', id: 'fit-stage' });
    ui.result = el('dl', { className: 'summary', id: 'fit-result' });
    ui.heat = el('canvas', { className: 'heatmap', id: 'fit-heatmap', width: 240, height: 240 });
    ui.curve = el('canvas', { id: 'fit-curve', width: 300, height: 140 });
    ui.curve.style.width = '100%';
    ui.replay = el('canvas', { id: 'fit-replay', width: 300, height: 220 });
    ui.replay.style.width = '100%';
    ui.slider = el('input', { type: 'range', min: '0', max: '0', value: '0', id: 'fit-replay-frame' });
    ui.slider.style.width = '100%';
    ui.play = el('button', { type: 'button', textContent: 'Play replay', disabled: true, id: 'fit-replay-play' });
    ui.export = el('button', { type: 'button', id: 'fit-export', textContent: 'Export fit JSON', disabled: true });
    ui.results = el('div', { hidden: true },
      el('h2', { textContent: 'Fit' }), ui.result,
      el('h2', { textContent: 'Error vs time' }), ui.curve,
      el('p', { className: 'hint', textContent: 'eᵢ (mass-norm marker error, cm, solid) and sᵢ (spatial SD, cm, dashed) at the fit.' }),
      el('h2', { textContent: 'Sweep error ē (cm)' }), ui.heat,
      el('p', { className: 'hint', id: 'fit-heat-caption' }),
      el('h2', { textContent: 'Replay (front view, x–z)' }), ui.replay, ui.slider,
      el('p', { className: 'hint', textContent: 'cloth: simulated at the fit; dots: recorded markers coloured by their error (viridis, 0 to 5 cm).' }),
      el('div', { className: 'exports' }, ui.play, ui.export));
    container.append(
      el('h2', { textContent: 'Recording' }), el('div', { className: 'exports' }, ui.sample, ui.open, ui.file), ui.info, ui.error, ui.detected,
      el('details', { id: 'fit-corrections' }, el('summary', { textContent: 'Correct what was detected' }),
        el('fieldset', {}, row('units', ui.oUnits), row('up axis', ui.oUp), row('marker columns', ui.oCols), row('marker rows', ui.oRows),
          row('held corners', ui.oHeld), row('mesh refinement', ui.oRefine, '× grid')),
        el('div', { className: 'exports' }, ui.reopen)),
      el('h2', { textContent: 'Fitting' }),
      el('fieldset', {}, el('legend', { textContent: 'sweep δ/ρ ∈ [0, 1] × α/ρ ∈ [0, 4], then Nelder–Mead' }),
        row('sweep points per axis', ui.grid), row('refinement simulations', ui.refine), row('workers', ui.workers), row('windows', ui.split)),
      el('div', { className: 'transport' }, ui.run, ui.cancel),
      el('div', { className: 'busy' }, ui.progress, ui.stage),
      ui.results);

    function showError(message) {
      state.error = message || null;
      ui.error.textContent = message || '';
      ui.error.hidden = !message;
      if (message) app.showError(`Fit: ${message}`);
    }
    function stopWorkers() {
      for (const w of workers) w.cancel();
      workers = [];
    }
    function setRunning(on) {
      ui.run.disabled = on || !recording;
      ui.cancel.disabled = !on;
      ui.sample.disabled = on;
      ui.open.disabled = on;
    }

    // ---- opening
    function optionsJson() {
      const o = {};
      if (ui.oUnits.value) o.units = ui.oUnits.value;
      if (ui.oUp.value) o.up = ui.oUp.value;
      const int = (input) => Math.round(Number(input.value));
      if (ui.oCols.value && ui.oRows.value) {
        o.cols = int(ui.oCols);
        o.rows = int(ui.oRows);
      }
      const held = ui.oHeld.value.split(',').map((x) => x.trim()).filter(Boolean);
      if (held.length) o.held = held;
      if (ui.oRefine.value) o.refine = int(ui.oRefine);
      return Object.keys(o).length ? JSON.stringify(o) : '';
    }
    const openRecording = async ({ name, bytes }) => {
      if (state.status === 'sweeping' || state.status === 'refining') {
        return showError(`a fit is running: cancel it before opening “${name}”`);
      }
      showError('');
      app.clearError();
      stopWorkers();
      result = null;
      ui.results.hidden = true;
      state.status = 'opening';
      state.name = name;
      lastFile = { name, bytes: bytes.slice() };
      ui.reopen.disabled = false;
      ui.stage.textContent = 'reading the recording…';
      const first = makeClient();
      const options = optionsJson();
      const answer = await first.request({ type: 'open', bytes: bytes.slice(), options });
      ui.stage.textContent = '';
      if (!answer.ok) {
        first.cancel();
        recording = null;
        state.status = 'error';
        ui.run.disabled = true;
        ui.detected.replaceChildren();
        return showError(`“${name}” cannot be fitted: ${answer.error}`);
      }
      workers = [first];
      recording = { name, bytes: bytes.slice(), hash: await sha256(bytes), options };
      state.summary = answer.summary;
      showSummary(answer.summary);
      state.status = 'loaded';
      ui.run.disabled = false;
    };
    this.open = openRecording;

    function showSummary(s) {
      const r = s.recording, g = s.grid, m = s.mesh;
      const rows = [
        ['format', `${r.format}${r.format_version ? ` ${r.format_version}` : ''}`],
        ['units', `${r.units}${r.units_declared ? '' : ' (assumed)'}`],
        ['rate', `${fmt(r.rate, 4)} Hz · ${r.frames} frames · ${fmt(r.duration, 3)} s`],
        ['markers', String(r.points)],
        ['grid', `${g.cols} × ${g.rows} (${g.source})`],
        ['held corners', g.held.join(', ')],
        ['missing', `${fmt(100 * r.missing_fraction, 3)} % of samples`],
        ['up axis', `${r.up_axis} (${r.up_axis_source})`],
        ['mesh', `${m.nx} × ${m.ny} nodes, dt = ${m.dt} s, ${m.steps} steps`],
        ['ρ', `${fmt(s.rho)} kg/m²`],
      ];
      ui.detected.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]));
      if (s.warnings?.length) ui.detected.append(el('dt', { textContent: 'warnings' }), el('dd', { textContent: s.warnings.join('; ') }));
      ui.info.textContent = `“${state.name}”: what was detected (the recording itself never leaves the page):`;
    }

    async function openBlob(name, blob) {
      await openRecording({ name, bytes: new Uint8Array(await blob.arrayBuffer()) });
    }
    ui.reopen.addEventListener('click', async () => {
      if (lastFile) await openRecording(lastFile);
    });
    ui.open.addEventListener('click', () => ui.file.click());
    ui.file.addEventListener('change', async () => {
      const file = ui.file.files[0];
      ui.file.value = '';
      if (file) await openBlob(file.name, file);
    });
    ui.sample.addEventListener('click', async () => {
      try {
        const response = await fetch(SAMPLE_URL);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        await openBlob('a3-shake-synthetic.csv', await response.blob());
      } catch (err) {
        showError(`the sample recording could not be loaded: ${err.message}`);
      }
    });

    // ---- fitting
    let refineShare = 0;
    function refineProgress(p) {
      if (state.status !== 'refining') return;
      const sweepShare = 1 - refineShare;
      state.progress = sweepShare + refineShare * p.done;
      ui.progress.value = state.progress;
      ui.stage.textContent = `${p.stage.replaceAll('_', ' ')} · ${Math.round(100 * state.progress)} %`;
    }

    async function fit() {
      if (!recording) return;
      showError('');
      cancelRequested = false;
      state.cancelled = false;
      setRunning(true);
      const n = Math.max(2, Math.min(20, Math.round(Number(ui.grid.value)) || 6));
      const count = Math.max(1, Math.min(8, Math.round(Number(ui.workers.value)) || 2));
      const refine = Math.max(0, Math.min(200, Math.round(Number(ui.refine.value)) || 0));
      refineShare = refine > 0 ? Math.min(0.5, (refine + 2) / (n * n + refine + 2)) : 0.05;
      state.status = 'sweeping';
      state.workers = count;
      state.sweep = [];
      state.best = null;
      // more workers, each with its own session of the same recording
      while (workers.length < count) {
        const client = makeClient();
        workers.push(client);
        const answer = await client.request({ type: 'open', bytes: recording.bytes.slice(), options: recording.options });
        if (!answer.ok) {
          setRunning(false);
          return showError(`a fitting worker could not open the recording: ${answer.error}`);
        }
      }
      const points = sweepPoints(n);
      state.total = points.length;
      state.done = 0;
      let next = 0;
      const t0 = performance.now();
      async function work(client) {
        while (!cancelRequested && next < points.length) {
          const p = points[next++];
          const answer = await client.request({ type: 'point', delta: p.delta, alpha: p.alpha });
          if (answer.cancelled) return;
          if (!answer.ok) throw new Error(answer.error);
          const error = answer.point.mean_error_cm;
          state.sweep.push({ ...p, error: Number.isFinite(error) ? error : null });
          state.done++;
          state.progress = (1 - refineShare) * (state.done / points.length);
          ui.progress.value = state.progress;
          ui.stage.textContent = `sweep: ${state.done} of ${points.length} simulations on ${count} workers`;
          drawHeat(n);
        }
      }
      try {
        await Promise.all(workers.slice(0, count).map(work));
      } catch (err) {
        setRunning(false);
        state.status = 'error';
        return showError(`the sweep failed: ${err.message}`);
      }
      const finite = state.sweep.filter((p) => p.error !== null);
      if (!finite.length) {
        setRunning(false);
        state.status = cancelRequested ? 'cancelled' : 'error';
        return showError(cancelRequested ? '' : 'no simulation of the sweep succeeded');
      }
      // ties: the smaller (i, j), so the optimum does not depend on which worker finished first
      state.best = finite.reduce((a, b) => (b.error < a.error || (b.error === a.error && (b.i * n + b.j) < (a.i * n + a.j)) ? b : a));
      state.sweepMs = performance.now() - t0;
      // refinement (or, after a cancel, the report at the best point so far) in the first worker
      state.status = 'refining';
      const settings = JSON.stringify({
        grid: 0, refine_evaluations: cancelRequested ? 0 : refine, split: ui.split.value,
        start: [state.best.delta, state.best.alpha],
      });
      const answer = await workers[0].request({ type: 'refine', settings });
      setRunning(false);
      if (!answer.ok) {
        state.status = 'error';
        return showError(answer.cancelled ? 'cancelled' : `the refinement failed: ${answer.error}`);
      }
      result = answer.result;
      result.sweep_points = state.sweep.map((p) => ({ delta_over_rho: p.delta, alpha_over_rho: p.alpha, mean_error_cm: p.error }));
      result.sweep = { grid: n, delta_over_rho_max: DELTA_MAX, alpha_over_rho_max: ALPHA_MAX,
        best_delta_over_rho: state.best.delta, best_alpha_over_rho: state.best.alpha, best_error_cm: state.best.error, workers: count };
      state.cancelled = cancelRequested || Boolean(result.cancelled);
      state.fit = { deltaOverRho: result.delta_over_rho, alphaOverRho: result.alpha_over_rho, meanErrorCm: result.mean_error_cm,
        spatialSdCm: result.spatial_sd_cm, evaluations: result.evaluations, frames: result.frames?.length ?? 0 };
      state.progress = 1;
      ui.progress.value = 1;
      ui.stage.textContent = state.cancelled ? 'cancelled: the best parameters so far' : `done in ${fmt((performance.now() - t0) / 1000, 3)} s`;
      showFit(n);
      state.status = 'done';
      await loadReplay();
    }
    ui.run.addEventListener('click', fit);
    ui.cancel.addEventListener('click', () => {
      cancelRequested = true;
      state.cancelled = true;
      workers[0]?.post({ type: 'cancel' });
      ui.stage.textContent = 'cancelling…';
    });

    function showFit(n) {
      ui.results.hidden = false;
      const r = result;
      const rows = [
        ['δ/ρ, α/ρ', `${fmt(r.delta_over_rho, 4)}, ${fmt(r.alpha_over_rho, 4)}`],
        ['δ, α', `${fmt(r.delta, 4)} kg/m², ${fmt(r.alpha, 4)} kg/(m² s)`],
        ['ē (test window)', `${fmt(r.mean_error_cm, 3)} cm`],
        ['s̄ (test window)', `${fmt(r.spatial_sd_cm, 3)} cm`],
        ['sweep best', `${fmt(state.best.delta, 3)}, ${fmt(state.best.alpha, 3)} → ${fmt(state.best.error, 3)} cm`],
        ['a priori (Table 4.6)', r.a_priori ? `δ = ${fmt(r.a_priori.delta, 3)}, α = ${fmt(r.a_priori.alpha, 3)}` : '–'],
        ['simulations', `${state.sweep.length} sweep + ${r.evaluations} refinement`],
      ];
      if (state.cancelled) rows.push(['note', 'cancelled: the best parameters so far']);
      ui.result.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]));
      ui.result.querySelector('dd').id = 'fit-params';
      ui.export.disabled = false;
      drawHeat(n);
      drawCurve();
    }

    // (δ/ρ, α/ρ) heat map: δ/ρ across, α/ρ up; the sweep's best point (white ring) and the fit (red cross)
    function drawHeat(n) {
      const c = ui.heat, ctx = c.getContext('2d');
      ctx.fillStyle = '#eee';
      ctx.fillRect(0, 0, c.width, c.height);
      const finite = state.sweep.filter((p) => p.error !== null).map((p) => p.error);
      if (!finite.length) return;
      const lo = Math.min(...finite), hi = Math.max(...finite);
      const w = c.width / n, h = c.height / n;
      for (const p of state.sweep) {
        if (p.error === null) ctx.fillStyle = '#999';
        else {
          const [r, g, b] = viridis(hi > lo ? (p.error - lo) / (hi - lo) : 0).map((v) => Math.round(255 * v));
          ctx.fillStyle = `rgb(${r} ${g} ${b})`;
        }
        ctx.fillRect(p.i * w, c.height - (p.j + 1) * h, Math.ceil(w), Math.ceil(h));
      }
      const at = (d, a) => [((d / DELTA_MAX) * (n - 1) + 0.5) * w, c.height - ((a / ALPHA_MAX) * (n - 1) + 0.5) * h];
      if (state.best) {
        const [x, y] = at(state.best.delta, state.best.alpha);
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, y, Math.min(w, h) * 0.35, 0, 2 * Math.PI);
        ctx.stroke();
      }
      if (result) {
        const [x, y] = at(result.delta_over_rho, result.alpha_over_rho);
        ctx.strokeStyle = '#d62728';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x - 6, y - 6); ctx.lineTo(x + 6, y + 6);
        ctx.moveTo(x + 6, y - 6); ctx.lineTo(x - 6, y + 6);
        ctx.stroke();
      }
      document.getElementById('fit-heat-caption').textContent =
        `δ/ρ from 0 to ${DELTA_MAX} across, α/ρ from 0 to ${ALPHA_MAX} up; ${n} × ${n} points; ē from ${fmt(lo)} (dark) to ${fmt(hi)} cm (yellow). ○ sweep optimum, × refined fit.`;
    }

    function drawCurve() {
      const frames = result?.frames ?? [];
      const c = ui.curve, ctx = c.getContext('2d');
      ctx.clearRect(0, 0, c.width, c.height);
      if (!frames.length) return;
      const pad = { l: 34, r: 6, t: 6, b: 18 };
      const t0 = frames[0].time, t1 = frames[frames.length - 1].time || t0 + 1;
      const top = Math.max(...frames.map((f) => Math.max(f.e_cm ?? 0, f.s_cm ?? 0)), 1e-6) * 1.05;
      const x = (t) => pad.l + ((t - t0) / (t1 - t0 || 1)) * (c.width - pad.l - pad.r);
      const y = (v) => c.height - pad.b - (v / top) * (c.height - pad.t - pad.b);
      ctx.strokeStyle = '#999';
      ctx.strokeRect(pad.l, pad.t, c.width - pad.l - pad.r, c.height - pad.t - pad.b);
      ctx.fillStyle = '#555';
      ctx.font = '10px system-ui';
      ctx.fillText(`${fmt(top, 2)} cm`, 2, pad.t + 8);
      ctx.fillText('0', pad.l - 10, c.height - pad.b);
      ctx.fillText(`${fmt(t0, 3)} s`, pad.l, c.height - 4);
      ctx.fillText(`${fmt(t1, 3)} s`, c.width - pad.r - 30, c.height - 4);
      for (const [key, dash, color] of [['e_cm', [], '#2f5fbf'], ['s_cm', [4, 3], '#c0392b']]) {
        ctx.setLineDash(dash);
        ctx.strokeStyle = color;
        ctx.beginPath();
        let pen = false;
        for (const f of frames) {
          if (!Number.isFinite(f[key])) { pen = false; continue; }
          if (pen) ctx.lineTo(x(f.time), y(f[key])); else ctx.moveTo(x(f.time), y(f[key]));
          pen = true;
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }

    // ---- replay
    async function loadReplay() {
      const answer = await workers[0].request({ type: 'replay', delta: result.delta_over_rho, alpha: result.alpha_over_rho });
      if (!answer.ok) return showError(`the replay could not be simulated: ${answer.error}`);
      const nodes = state.summary.mesh.nx * state.summary.mesh.ny;
      const markerNodes = state.summary.mesh.marker_nodes;
      const frames = Math.floor(answer.simulated.length / (3 * nodes));
      replay = { ...answer, nodes, markerNodes, frames, markerCount: markerNodes.length };
      // the view box: all simulated positions and visible markers, x across, z up
      let xMin = Infinity, xMax = -Infinity, zMin = Infinity, zMax = -Infinity;
      const scan = (a) => {
        for (let i = 0; i < a.length; i += 3) {
          if (!Number.isFinite(a[i])) continue;
          xMin = Math.min(xMin, a[i]); xMax = Math.max(xMax, a[i]);
          zMin = Math.min(zMin, a[i + 2]); zMax = Math.max(zMax, a[i + 2]);
        }
      };
      scan(answer.simulated);
      scan(answer.markers);
      replay.box = { xMin, xMax, zMin, zMax };
      ui.slider.max = String(frames - 1);
      ui.slider.value = '0';
      ui.play.disabled = false;
      drawReplay(0);
    }
    function drawReplay(k) {
      if (!replay) return;
      state.replayFrame = k;
      const c = ui.replay, ctx = c.getContext('2d');
      ctx.fillStyle = '#fbfaf7';
      ctx.fillRect(0, 0, c.width, c.height);
      const { xMin, xMax, zMin, zMax } = replay.box;
      const s = Math.min((c.width - 20) / (xMax - xMin || 1), (c.height - 20) / (zMax - zMin || 1));
      const px = (x) => 10 + (x - xMin) * s, pz = (z) => c.height - 10 - (z - zMin) * s;
      const sim = replay.simulated.subarray(3 * replay.nodes * k, 3 * replay.nodes * (k + 1));
      ctx.strokeStyle = 'rgb(208 88 58 / 0.55)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      const t = replay.triangles;
      for (let i = 0; i < t.length; i += 3) {
        const a = 3 * t[i], b = 3 * t[i + 1], d = 3 * t[i + 2];
        ctx.moveTo(px(sim[a]), pz(sim[a + 2]));
        ctx.lineTo(px(sim[b]), pz(sim[b + 2]));
        ctx.lineTo(px(sim[d]), pz(sim[d + 2]));
        ctx.closePath();
      }
      ctx.stroke();
      const m = replay.markers.subarray(3 * replay.markerCount * k, 3 * replay.markerCount * (k + 1));
      for (let j = 0; j < replay.markerCount; j++) {
        if (!Number.isFinite(m[3 * j])) continue; // occluded
        const node = 3 * replay.markerNodes[j];
        const e = Math.hypot(m[3 * j] - sim[node], m[3 * j + 1] - sim[node + 1], m[3 * j + 2] - sim[node + 2]) * 100;
        const [r, g, b] = viridis(Math.min(1, e / 5)).map((v) => Math.round(255 * v));
        ctx.fillStyle = `rgb(${r} ${g} ${b})`;
        ctx.strokeStyle = '#222';
        ctx.beginPath();
        ctx.arc(px(m[3 * j]), pz(m[3 * j + 2]), 4, 0, 2 * Math.PI);
        ctx.fill();
        ctx.stroke();
      }
      ctx.fillStyle = '#555';
      ctx.font = '11px system-ui';
      ctx.fillText(`t = ${(k * state.summary.mesh.dt).toFixed(2)} s`, 12, 16);
    }
    ui.slider.addEventListener('input', () => drawReplay(Number(ui.slider.value)));
    ui.play.addEventListener('click', () => {
      if (replayTimer) {
        clearInterval(replayTimer);
        replayTimer = 0;
        ui.play.textContent = 'Play replay';
        return;
      }
      ui.play.textContent = 'Pause replay';
      replayTimer = setInterval(() => {
        const k = (Number(ui.slider.value) + 2) % (replay?.frames || 1);
        ui.slider.value = String(k);
        drawReplay(k);
      }, 1000 / 30);
    });

    // ---- exports
    ui.export.addEventListener('click', () => {
      if (!result) return;
      const out = {
        format: 'tela-fit', version: 1, app: APP_VERSION, created: new Date().toISOString(),
        input: { name: state.name, sha256: recording.hash, bytes: recording.bytes.length },
        settings: { options: recording.options ? JSON.parse(recording.options) : {}, grid: Number(ui.grid.value), refine_evaluations: Number(ui.refine.value), split: ui.split.value, workers: state.workers },
        result,
      };
      state.exported = out;
      download(JSON.stringify(out, null, 1), `${state.name.replace(/\.[^.]*$/, '')}-fit.json`);
    });
  },
};
