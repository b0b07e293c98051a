// The Simulate panel: the gallery of built-in scenes, play / pause / step / reset, the
// scenario's parameters (simulate/parameters.js), view options, exports and the scenario as
// JSON. The simulator itself (simulate/worker.js) serves the whole page: app/app.js runs it.
import { el } from '../ui/dom.js';
import { mountParameters } from './parameters.js';

export const simulatePanel = {
  id: 'simulate',
  title: 'Simulate',
  accepts: ['scenario'],

  mount(container, app) {
    const ui = {};
    // ---- gallery
    const gallery = el('div', { className: 'gallery', role: 'group' });
    gallery.setAttribute('aria-label', 'built-in scenes');
    container.append(el('h2', { textContent: 'Scenes' }), gallery);
    app.on('scenes', (scenes) => {
      gallery.replaceChildren(...scenes.map((s) => {
        const b = el('button', { type: 'button', textContent: s.name, title: s.description });
        b.dataset.scene = s.name;
        b.addEventListener('click', () => app.loadScene(s.name, { play: true }));
        return b;
      }));
    });
    ui.description = el('p', { className: 'description' });
    container.append(ui.description);

    // ---- transport
    ui.play = el('button', { type: 'button', id: 'play', textContent: 'Play' });
    ui.step = el('button', { type: 'button', id: 'step', textContent: 'Step', title: 'one step (.)' });
    ui.reset = el('button', { type: 'button', id: 'reset', textContent: 'Reset', title: 'back to t = 0 (Backspace)' });
    ui.play.title = 'pause / resume (Space)';
    ui.play.addEventListener('click', () => app.togglePlay());
    ui.step.addEventListener('click', () => app.step());
    ui.reset.addEventListener('click', () => app.reset());
    container.append(el('div', { className: 'transport' }, ui.play, ui.step, ui.reset));
    app.on('playing', (on) => {
      ui.play.textContent = on ? 'Pause' : 'Play';
      ui.play.setAttribute('aria-pressed', String(on));
    });

    const parameters = mountParameters(container, app);

    // ---- view options
    ui.field = el('select', { id: 'field' },
      el('option', { value: 'none', textContent: 'front / back colours' }),
      el('option', { value: 'area', textContent: 'area error per element' }),
      el('option', { value: 'area-signed', textContent: 'area change per element (signed)' }),
      el('option', { value: 'strain', textContent: 'edge strain per element' }));
    ui.field.addEventListener('change', () => app.setField(ui.field.value));
    ui.wireframe = el('input', { type: 'checkbox', id: 'wireframe' });
    ui.wireframe.addEventListener('change', () => app.setWireframe(ui.wireframe.checked));
    ui.pins = el('input', { type: 'checkbox', id: 'pins', checked: true });
    ui.pins.addEventListener('change', () => app.setPins(ui.pins.checked));
    ui.obstacles = el('input', { type: 'checkbox', id: 'obstacles', checked: true });
    ui.obstacles.addEventListener('change', () => app.setObstacles(ui.obstacles.checked));
    ui.contacts = el('input', { type: 'checkbox', id: 'contacts' });
    ui.contacts.addEventListener('change', () => app.setContacts(ui.contacts.checked));
    const camera = el('button', { type: 'button', textContent: 'Frame the cloth' });
    camera.addEventListener('click', () => app.view?.resetCamera());
    container.append(el('h2', { textContent: 'View' }),
      el('div', { className: 'param' }, el('label', { htmlFor: 'field', textContent: 'colour' }), ui.field),
      el('div', { className: 'checks' },
        el('label', {}, ui.wireframe, ' wireframe'),
        el('label', {}, ui.pins, ' controlled nodes'),
        el('label', {}, ui.obstacles, ' obstacles'),
        el('label', {}, ui.contacts, ' contact points'), camera));

    // ---- exports
    const exports = [['csv', 'Trajectory CSV'], ['obj', 'Frame OBJ'], ['ply', 'Frame PLY'], ['scenario', 'Scenario JSON'], ['png', 'PNG image']];
    container.append(el('h2', { textContent: 'Export' }), el('div', { className: 'exports' },
      ...exports.map(([what, label]) => {
        const b = el('button', { type: 'button', textContent: label });
        b.dataset.export = what;
        b.addEventListener('click', () => app.exportFile(what));
        return b;
      })));

    // ---- scenario JSON
    ui.json = el('textarea', { id: 'scenario-text', rows: 12, spellcheck: false });
    ui.json.setAttribute('aria-label', 'scenario JSON');
    const apply = el('button', { type: 'button', id: 'scenario-apply', textContent: 'Apply JSON' });
    ui.jsonError = el('p', { className: 'field-error', role: 'alert', hidden: true });
    apply.addEventListener('click', async () => {
      const answer = await app.loadScenario(ui.json.value, { play: app.state.playing });
      ui.jsonError.textContent = answer.ok ? '' : answer.message;
      ui.jsonError.hidden = answer.ok;
    });
    container.append(el('details', {}, el('summary', { textContent: 'Scenario JSON' }), ui.json, apply, ui.jsonError));

    app.on('scene', (state) => {
      parameters.show(state);
      if (state.scenario) {
        ui.json.value = state.scenarioText;
        ui.jsonError.hidden = true;
        ui.description.textContent = state.scenario.description || '';
        for (const b of gallery.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.scene === state.name));
      }
      ui.field.value = state.field;
      ui.wireframe.checked = state.wireframe;
      ui.pins.checked = state.pins;
      ui.obstacles.checked = state.obstacles;
      ui.contacts.checked = state.contacts;
    });
  },

  // a dropped scenario file is loaded by io/drop.js through app.loadScenario
};
