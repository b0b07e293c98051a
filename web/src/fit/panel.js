// The Fit panel (thesis chapter 4 in the page): a dropped recording (or the sample) is parsed
// by the fitting workers' core (fit/worker.js, fit/client.js); the panel shows what was
// detected (fit/summary.js) and lets the user correct it (fit/fields.js: up axis, grid, held
// corners, duration, training window), runs the fit on several workers with a progress bar
// and Cancel, and shows the results (fit/results.js: e_i and s_i against time, the (δ/ρ, α/ρ)
// error heat map with the optimum and the a-priori estimate of Table 4.6) and a 3D replay in
// the page's view (fit/replay.js): the recorded markers as soon as the recording is read, the
// simulated cloth at the fitted parameters once the fit is done. A recording of cloth on a
// table is fitted against a built-in scene's obstacles, with the Coulomb friction μ fitted too
// (thesis §4.3; the same FitJob as `tela fit --scenario NAME`). Exports: the fit as JSON with
// provenance (settings, SHA-256 of the input file, app version) and a share link that carries
// the fitted parameters in a Simulate scenario — never the recording.
//
// window.__tela.fit mirrors the panel for tests: { state, summary, progress, result, error,
// workers, exported }.
import { version as APP_VERSION } from '../../../package.json';
import { download } from '../io/download.js';
import { sha256 } from '../io/hash.js';
import { encodeShareHash } from '../share/link.js';
import { el, fmt } from '../ui/dom.js';
import { createFitClient } from './client.js';
import {
  SHARED_FIELDS, correctionFields, correctionsFieldset, labelled, readOptions, readSettings, readWorkerCount,
  settingFields, settingsFieldset, startPaired, unmark,
} from './fields.js';
import { createReplay } from './replay.js';
import { resultsSection, showResult, showSweep } from './results.js';
import { showSummary, showUnread } from './summary.js';
import './fit.css';

const SAMPLE = { url: 'samples/a3-shake-synthetic.csv', name: 'a3-shake-synthetic.csv' };

export const fitPanel = {
  id: 'fit',
  title: 'Fit',
  accepts: ['optitrack-csv', 'vicon-csv', 'qualisys-tsv', 'c3d', 'mocap-csv'],

  mount(container, app) {
    const mirror = (window.__tela.fit = { state: 'empty', summary: null, progress: 0, result: null, error: null, workers: 0, exported: null });
    const ui = {};
    let file = null;     // { name, bytes, sha256, sample }
    let linked = null;   // a share link's state waiting for its recording (restoreState)
    let client = null;
    let summary = null;
    let result = null;
    let settingsUsed = null;
    let optionsUsed = null;

    // ---- recording
    ui.sample = el('button', { type: 'button', id: 'fit-sample', textContent: 'Load sample recording' });
    ui.sample.title = 'a synthetic A3 recording (Motive CSV, 6 s, 1 mm noise, 5 % occlusions) shipped with tela';
    ui.error = el('p', { className: 'field-error', id: 'fit-error', hidden: true });
    ui.error.setAttribute('role', 'alert');
    ui.detected = el('dl', { className: 'fit-detected', id: 'fit-detected' });
    ui.linkHint = el('p', { className: 'hint', id: 'fit-link-hint', hidden: true });
    container.append(
      el('h2', { textContent: 'Recording' }),
      el('p', { className: 'hint', textContent: 'Drop a motion-capture recording anywhere (OptiTrack Motive CSV, Vicon CSV, Qualisys TSV, C3D, or a frame/time/marker CSV), use Open…, or:' }),
      ui.sample, ui.linkHint, ui.error, ui.detected);

    // ---- corrections, fit, replay, results
    container.append(correctionsFieldset(ui));
    container.append(el('h2', { textContent: 'Fit' }), settingsFieldset(ui));
    const results = resultsSection(ui);
    const setState = (s) => { mirror.state = s; };
    const showFitError = (message) => {
      mirror.error = message;
      ui.error.textContent = message;
      ui.error.hidden = !message;
      if (message) app.showError(message);
    };
    const replay = createReplay(ui, app, { mirror, isCurrent: (mine) => mine === client, showError: showFitError });
    this.replay = replay;
    container.append(replay.section, results);
    const corrections = correctionFields(ui);
    const settings = settingFields(ui);

    // the pool's worker count; null (said at the field) when it is not one
    function workerCount() {
      const n = readWorkerCount(ui);
      if (n.error) showFitError(n.error);
      return n.count ?? null;
    }

    // Nothing usable was read: what was read before the failure (null: nothing), to correct
    // from, and nothing left of the last recording's view or replay.
    function unread(r) {
      summary = null;
      mirror.summary = null;
      showUnread(ui.detected, file.name, r);
      mirror.readBeforeError = r;
      replay.clear();
      ui.run.disabled = true;
      ui.apply.disabled = false;
      setState('error');
      app.setStatus(`Fit: ${file.name} cannot be fitted as read (see the message)`, 'fit');
    }

    // corrections the core would take as "automatic" (a 0 or negative size, density, duration,
    // grid): named at the field instead of silently ignored
    async function parse() {
      unmark(corrections);
      client?.dispose();
      replay.stop();
      const workers = workerCount();
      if (workers === null) {
        unread(null); // the last recording's pool is stopped: fix the count, then Apply corrections
        return false;
      }
      const mine = (client = createFitClient({ workers }));
      mirror.workers = workers;
      setState('parsing');
      ui.run.disabled = true;
      ui.cancel.disabled = true;
      ui.apply.disabled = true;
      app.setStatus(`Fit: reading ${file.name}…`, 'fit');
      optionsUsed = readOptions(ui, app.state.scenario);
      const answer = await mine.load(file.bytes, optionsUsed);
      if (mine !== client) return false; // replaced by a newer read
      ui.apply.disabled = false;
      if (!answer.ok) {
        unread(answer.recording);
        // a correction the core refused is named by its label and marked at its field
        const named = labelled(corrections, answer.error);
        showFitError(`“${file.name}” cannot be fitted: ${named ? `Corrections: ${named}` : answer.error}`);
        return false;
      }
      summary = answer.summary;
      mirror.summary = summary;
      showFitError('');
      app.clearError();
      showSummary(ui.detected, file.name, summary, [ui.held1, ui.held2]);
      ui.run.disabled = false;
      setState('ready');
      await replay.showRecorded(mine, optionsUsed, summary);
      app.setStatus(`Fit: ${file.name} read (${summary.recording.points} markers, ${summary.grid.cols} × ${summary.grid.rows} grid)`, 'fit');
      return true;
    }

    async function open(name, bytes, { sample = false } = {}) {
      file = { name, bytes, sha256: await sha256(bytes), sample };
      ui.linkHint.hidden = true;
      result = null;
      mirror.result = null;
      ui.results.hidden = true;
      ui.progress.value = 0;
      ui.progressText.textContent = '';
      const read = await parse();
      if (linked) await reproduce(read);
      return read;
    }
    this.open = ({ name, bytes }) => open(name, bytes);

    // A share link's fit: its corrections and settings are in the fields; once its recording
    // is open, the same fit runs (a different file than the link's is said so, and used).
    async function reproduce(read) {
      const s = linked;
      linked = null;
      const same = !s.input.sha256 || !file.sha256 || s.input.sha256 === file.sha256;
      if (read && s.fitted) await runFit();
      const differs = same ? '' : ` “${file.name}” is not the file the link was made with (“${s.input.name}”, SHA-256 ${s.input.sha256.slice(0, 12)}…); the link's settings were used anyway.`;
      if (result && !result.cancelled) {
        app.showNotice(`Fit: ${same ? 'reproduced the shared fit' : 'fitted'} of “${file.name}”: δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}, ē = ${fmt(result.mean_error_cm)} cm.${differs}`);
      } else if (differs) {
        app.showNotice(`Fit:${differs}`);
      }
    }

    async function runFit() {
      if (!summary || client?.running) return;
      // the worker count is part of the pool: a change takes a re-read of the recording
      const workers = workerCount();
      if (workers === null) return;
      if (client.workers !== workers && !(await parse())) return;
      unmark(settings);
      const wanted = readSettings(ui);
      if (!startPaired(ui)) {
        showFitError('Give both start δ/ρ and α/ρ, or neither (the Table 4.6 guess).');
        return;
      }
      replay.stop();
      ui.run.disabled = true;
      ui.apply.disabled = true;
      ui.cancel.disabled = false;
      setState('running');
      mirror.progress = 0;
      app.setStatus(`Fit: running on ${file.name}…`, 'fit'); // not the last fit's "done" or "cancelled"
      const begun = performance.now();
      const mine = client;
      const answer = await mine.run(wanted, {
        onProgress(done, total, stage, best, plan, points) {
          if (mine !== client) return;
          mirror.progress = done / total;
          mirror.plan = plan;
          mirror.progressUpdates = (mirror.progressUpdates ?? 0) + 1;
          ui.progress.value = done / total;
          const at = best ? `(${fmt(best[0])}, ${fmt(best[1])}${best[3] !== null && best[3] !== undefined ? `, μ ${fmt(best[3])}` : ''})` : '';
          ui.progressText.textContent = `${stage.replace('_', ' ')} ${done}/${total}${best ? ` · best ē ${fmt(best[2])} cm at ${at}` : ''}`;
          if (points && stage === 'sweep' && done % Math.max(1, plan.grid) === 0) showSweep(ui, plan, points, best);
        },
      });
      if (mine !== client) return; // another recording replaced this one meanwhile
      ui.cancel.disabled = true;
      ui.run.disabled = false;
      ui.apply.disabled = false;
      if (!answer.ok && answer.settings) {
        // a setting the core refused (nothing ran): named by its label and marked at its field
        setState('ready');
        showFitError(`Fit settings: ${labelled(settings, answer.error) ?? answer.error}`);
        return;
      }
      if (!answer.ok) {
        setState('error');
        showFitError(`The fit failed: ${answer.error}`);
        return;
      }
      result = answer.result;
      settingsUsed = wanted; // the result's settings (its export and share link)
      result.wall_ms = Math.round(performance.now() - begun);
      mirror.result = result;
      showResult(ui, result, answer.plan, answer.points);
      if (result.mean_error_cm === null && !result.cancelled) {
        // nothing to compare: say why instead of "done, ē = –"
        setState('error');
        app.setStatus(`Fit: every simulation failed (see the message)`, 'fit');
        showFitError(`Every simulation of the fit failed${result.failure ? `: ${result.failure}` : ' (diverged or non-finite)'}. ` +
          'Check the corrections (ρ, κ, the rest size) and the recording’s units.');
        return;
      }
      setState(result.cancelled ? 'cancelled' : 'done');
      app.setStatus(result.cancelled
        ? `Fit cancelled after ${result.evaluations} simulations: best so far δ/ρ = ${fmt(result.delta_over_rho)}, α/ρ = ${fmt(result.alpha_over_rho)}`
        : `Fit done in ${(result.wall_ms / 1000).toFixed(1)} s on ${client.workers} worker${client.workers > 1 ? 's' : ''}: ē = ${fmt(result.mean_error_cm)} cm`, 'fit');
      await replay.showFitted(client, result);
    }

    // ---- exports: the fit as JSON with its provenance, the replay as CSV, and a share link
    // of the fitted parameters
    function exportObject() {
      return {
        kind: 'tela-fit',
        app: { name: 'tela', version: APP_VERSION },
        created: new Date().toISOString(),
        input: { name: file.name, bytes: file.bytes.length, sha256: file.sha256 },
        options: optionsUsed,
        settings: { ...settingsUsed, workers: client.workers },
        fit: result,
      };
    }
    ui.exportJson.addEventListener('click', () => {
      if (!result) return;
      const text = JSON.stringify(exportObject(), null, 1);
      mirror.exported = text;
      download(text, `tela-fit-${file.name.replace(/\.[^.]*$/, '')}.json`, 'application/json');
    });
    ui.exportReplay.addEventListener('click', () => {
      const chunks = replay.csv();
      if (chunks) download(chunks, `tela-fit-replay-${file.name.replace(/\.[^.]*$/, '')}.csv`, 'text/csv');
    });
    ui.share.addEventListener('click', async () => {
      if (!result) return;
      const base = app.state.scenario;
      if (!base) return showFitError('The share link needs a Simulate scene to carry the parameters; none is loaded.');
      // the current Simulate scene with the fitted material: parameters only, never the recording
      const scenario = structuredClone(base);
      // κ too: the fit ran with it fixed, and the fitted δ, α only hold with it
      scenario.material = { ...(scenario.material ?? {}), rho: result.rho, delta: result.delta, alpha: result.alpha,
        kappa: result.kappa };
      // a contact fit: its friction on every obstacle of the scene
      if (result.mu !== null && result.mu !== undefined && Array.isArray(scenario.obstacles))
        scenario.obstacles = scenario.obstacles.map((o) => ({ ...o, mu: result.mu }));
      const hash = await encodeShareHash({ scenario, steps: 0, view: { playing: false } });
      const url = `${location.href.replace(/#.*$/, '')}${hash}`;
      mirror.shareLink = url;
      let copied = false;
      try {
        await navigator.clipboard.writeText(url);
        copied = true;
      } catch {
        // no clipboard permission: show the link instead
      }
      const mu = result.mu !== null && result.mu !== undefined ? `, μ = ${fmt(result.mu)}` : '';
      app.showNotice(`Share link for “${app.state.name}” with the fitted δ = ${fmt(result.delta)}, α = ${fmt(result.alpha)}${mu} (ρ = ${fmt(result.rho)}, κ = ${fmt(result.kappa)}) ${copied ? 'copied to the clipboard' : `: ${url}`}. The recording is not in it.`);
    });

    // presetKappa: the bending stiffness the sample was generated with (a link brings its own)
    async function loadSample({ presetKappa = true } = {}) {
      try {
        const response = await fetch(SAMPLE.url);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        if (presetKappa) ui.kappa.value = '0.001';
        await open(SAMPLE.name, new Uint8Array(await response.arrayBuffer()), { sample: true });
      } catch (err) {
        showFitError(`The sample recording could not be loaded: ${err.message}`);
      }
    }
    ui.sample.addEventListener('click', () => loadSample());

    // ---- share links (the page's Share link button on this tab): the corrections, the
    // settings and which recording — its name, size and SHA-256, never its samples
    this.shareState = () => {
      if (!file) return null;
      const shared = {
        input: { name: file.name, bytes: file.bytes.length, sha256: file.sha256, sample: file.sample },
        fields: Object.fromEntries(SHARED_FIELDS.map((key) => [key, ui[key].value])),
        fitted: Boolean(result && !result.cancelled),
      };
      const note = file.sample
        ? `the sample recording and the fit settings${shared.fitted ? ' (the fit runs again when the link opens)' : ''}`
        : `the fit settings for “${file.name}”. The recording itself is not in it: whoever opens the link is asked for that file`;
      return { state: shared, note };
    };
    this.restoreState = async (s) => {
      if (typeof s !== 'object' || s === null || typeof s.input !== 'object' || s.input === null ||
          typeof s.fields !== 'object' || s.fields === null) return false;
      for (const key of SHARED_FIELDS) {
        const value = s.fields[key];
        if (typeof value !== 'string') continue;
        const input = ui[key];
        // a held corner is one of the recording's markers: its option exists once the file is read
        if (input.tagName === 'SELECT' && value && ![...input.options].some((o) => o.value === value)) {
          if (!key.startsWith('held')) continue;
          input.append(el('option', { value, textContent: value }));
        }
        input.value = value;
      }
      linked = { input: { name: String(s.input.name ?? ''), sha256: typeof s.input.sha256 === 'string' ? s.input.sha256 : null },
        fitted: s.fitted === true };
      if (s.input.sample === true) {
        await loadSample({ presetKappa: false });
        return true;
      }
      const hash = linked.input.sha256 ? `, SHA-256 ${linked.input.sha256.slice(0, 12)}…` : '';
      ui.linkHint.textContent = `This link reproduces a fit of “${linked.input.name}” (${Number(s.input.bytes) || '?'} bytes${hash}) with the corrections and settings below: open that file (links never carry uploaded data).`;
      ui.linkHint.hidden = false;
      app.showNotice(`Fit: open “${linked.input.name}” to reproduce the shared fit.`);
      return true;
    };
    ui.apply.addEventListener('click', () => file && parse());
    ui.run.addEventListener('click', runFit);
    ui.cancel.addEventListener('click', () => {
      client?.cancel();
      ui.cancel.disabled = true;
      app.setStatus('Fit: cancelling after the simulations in flight…', 'fit');
    });
  },

  // replaced in mount() by the panel's own reader
  async open() {},
  activate() {
    this.replay?.setActive(true);
  },
  deactivate() {
    this.replay?.setActive(false);
  },
};
