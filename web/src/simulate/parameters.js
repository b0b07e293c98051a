// The Simulate panel's parameter form: the scenario's mesh, material, solver, controls,
// obstacles and contacts as fields. An edit restarts the run from t = 0 with the edited
// scenario; the core's validation message is shown at the field it names.
import { el } from '../ui/dom.js';
import { graspMotion, installGraspPicker } from './grasp.js';
import { newObstacle } from './new_obstacle.js';

const MATERIAL = [
  ['rho', 'ρ inertial density', 'kg/m²'],
  ['delta', 'δ gravitational density', 'kg/m²'],
  ['alpha', 'α mass damping', 'kg/(m² s)'],
  ['kappa', 'κ bending stiffness', ''],
  ['beta', 'β stiffness damping', ''],
  ['shear', 'shear stiffness kₛ', ''],
];
const SOLVER = [
  ['dt', 'time step dt', 's'],
  ['tolerance', 'tolerance', 'relative'],
  ['max_iterations', 'max iterations', 'per step', 'int'],
  // element node pairs stay within (1 + ε) of their rest distance (cloth/strain_limit.h)
  ['strain_limit', 'strain limit ε', 'relative (empty: off)', 'optional'],
];
const RECTANGLE = [
  ['width', 'width', 'm'], ['height', 'height', 'm'],
  ['nx', 'nodes along width', '', 'int'], ['ny', 'nodes along height', '', 'int'],
  ['elements', 'elements', '', ['quad', 'tri', 'tri_left', 'tri_irregular']],
  ['nodes', 'nodes (tri_irregular)', '', 'int'],
  ['noise', 'noise SD', 'm'],
];
const DISC = [
  ['radius', 'radius', 'm'], ['inner_radius', 'inner radius', 'm'],
  ['rings', 'rings', '', 'int'], ['sectors', 'sectors', '', 'int'], ['noise', 'noise SD', 'm'],
];
// an obstacle's fields by type (scenario.h ObstacleDesc); a stick's polyline, a needle field's
// count and any obstacle's motion are edited as JSON
const OBSTACLE = {
  plane: [['point', 'point', 'm', 'vector'], ['normal', 'outward normal', '', 'vector']],
  box: [['center', 'centre', 'm', 'vector'], ['size', 'size x, y, z', 'm', 'vector']],
  sphere: [['center', 'centre', 'm', 'vector'], ['radius', 'radius', 'm']],
  cylinder: [['center', 'centre', 'm', 'vector'], ['axis', 'axis', '', 'vector'], ['radius', 'radius', 'm'],
             ['length', 'length', 'm (0: infinite)']],
  stick: [['radius', 'radius', 'm'], ['segment', 'segment', 'm']],
  needles: [['center', 'base centre', 'm', 'vector'], ['spacing', 'spacing', 'm'], ['c1', 'profile c₁', ''], ['c2', 'profile c₂', 'm']],
};
// field, label, unit, the core's default (scenario.h SelfCollision)
const SELF_COLLISION = [
  ['thickness', 'thickness τ₀', 'm', 0.003], ['mu', 'cloth–cloth μ', '', 0.3], ['proximity', 'proximity ω', '[0, 0.5]', 0.5],
];
const MOTION = {
  hold: [],
  sinusoid: [['amplitude', 'amplitude', 'm'], ['frequency', 'frequency', 'Hz'], ['phase', 'phase', 'rad'],
             ['start', 'start', 's'], ['stop', 'stop', 's']],
  keyframes: [],
};

function setPath(object, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  const parent = keys.reduce((o, k) => (o[k] ??= {}), object);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

// Appends the form to `container`. -> { show(state): the form of a newly loaded scene }
export function mountParameters(container, app) {
  const ui = {};
  ui.form = el('form', { id: 'params', noValidate: true });
  ui.form.addEventListener('submit', (e) => e.preventDefault());
  ui.paramsError = el('p', { id: 'params-error', className: 'field-error', role: 'alert', hidden: true });
  container.append(el('h2', { textContent: 'Parameters' }),
    el('p', { className: 'hint', textContent: 'A change restarts the run from t = 0.' }), ui.form, ui.paramsError);

  const numberInput = (path, value, kind) => {
    const input = el('input', { type: 'text', inputMode: kind === 'int' ? 'numeric' : 'decimal', value: String(value ?? '') });
    input.dataset.path = path;
    input.dataset.kind = kind;
    input.autocomplete = 'off';
    input.spellcheck = false;
    return input;
  };
  const row = (path, label, unit, kind, value) => {
    const id = `param-${path.replace(/[^a-z0-9]+/gi, '-')}`;
    let input;
    if (Array.isArray(kind)) {
      input = el('select', {}, ...kind.map((o) => el('option', { value: o, textContent: o, selected: o === value })));
      input.dataset.path = path;
      input.dataset.kind = 'string';
    } else if (kind === 'bool') {
      input = el('select', {}, el('option', { value: 'false', textContent: 'off', selected: !value }),
        el('option', { value: 'true', textContent: 'on', selected: Boolean(value) }));
      input.dataset.path = path;
      input.dataset.kind = 'bool';
    } else if (kind === 'string') {
      input = el('input', { type: 'text', value: String(value ?? '') });
      input.dataset.path = path;
      input.dataset.kind = 'string';
    } else {
      input = numberInput(path, value, kind);
    }
    input.id = id;
    return el('div', { className: 'param' },
      el('label', { htmlFor: id, textContent: label }), input,
      el('span', { className: 'unit', textContent: unit }));
  };
  const fieldset = (legend, ...rows) => el('fieldset', {}, el('legend', { textContent: legend }), ...rows);
  const button = (text, data, title = '') => {
    const b = el('button', { type: 'button', textContent: text, title });
    for (const [key, value] of Object.entries(data)) b.dataset[key] = String(value);
    return b;
  };
  // a keyframes motion: one row per keyframe (time, offset from the rest position), as the
  // core interpolates them linearly and holds the ends
  function keyframeTable(i, keyframes) {
    const rows = keyframes.map((k, j) => el('div', { className: 'keyframe' },
      el('div', {},
        row(`controls.${i}.motion.keyframes.${j}.time`, `keyframe ${j + 1}: time`, 's', 'number', k.time),
        row(`controls.${i}.motion.keyframes.${j}.offset`, 'offset from rest', 'm (x, y, z)', 'vector', k.offset.join(', '))),
      keyframes.length > 1 ? button('×', { removeKeyframe: `${i}.${j}` }, `remove keyframe ${j + 1}`) : null));
    return el('div', { className: 'keyframes' }, ...rows, button('+ keyframe', { addKeyframe: i }, 'one more keyframe, 0.5 s after the last'));
  }

  function renderForm(scenario) {
    const focused = document.activeElement?.dataset?.path;
    const parts = [];
    const m = scenario.mesh;
    if (m.type === 'rectangle') {
      parts.push(fieldset('Mesh (rectangle)', ...RECTANGLE
        .filter(([k]) => k !== 'nodes' || m.elements === 'tri_irregular')
        .map(([k, l, u, kind = 'number']) => row(`mesh.${k}`, l, u, kind, m[k]))));
    } else if (m.type === 'disc' || m.type === 'ring') {
      parts.push(fieldset(`Mesh (${m.type})`, ...DISC
        .filter(([k]) => k !== 'inner_radius' || m.type === 'ring')
        .map(([k, l, u, kind = 'number']) => row(`mesh.${k}`, l, u, kind, m[k]))));
    } else {
      // vertices as [x, y, z] triples (the core writes these) or one flat list
      const nodes = Array.isArray(m.vertices[0]) ? m.vertices.length : m.vertices.length / 3;
      parts.push(fieldset('Mesh', el('p', { className: 'hint', textContent: `explicit mesh: ${nodes} nodes, ${m.faces.length} faces (edit as JSON)` })));
    }
    parts.push(fieldset('Material', ...MATERIAL.map(([k, l, u]) => row(`material.${k}`, l, u, 'number', scenario.material[k]))));
    parts.push(fieldset('Solver', ...SOLVER.map(([k, l, u, kind = 'number']) => row(`solver.${k}`, l, u, kind, scenario.solver[k])),
      row('duration', 'duration', 's', 'number', scenario.duration)));
    scenario.controls.forEach((c, i) => {
      const nodes = typeof c.nodes === 'string' ? c.nodes : c.nodes.join(',');
      const rows = [row(`controls.${i}.nodes`, 'nodes', 'set or indices', 'string', nodes),
        row(`controls.${i}.motion.type`, 'motion', '', Object.keys(MOTION), c.motion.type)];
      for (const [k, l, u] of MOTION[c.motion.type] ?? []) rows.push(row(`controls.${i}.motion.${k}`, l, u, 'number', c.motion[k]));
      if (c.motion.type === 'sinusoid') {
        rows.push(row(`controls.${i}.motion.axis`, 'axis', 'x, y, z', 'vector', (c.motion.axis ?? [1, 0, 0]).join(', ')));
      }
      if (c.motion.type === 'keyframes') rows.push(keyframeTable(i, c.motion.keyframes ?? []));
      // the grasp opens at this time and the nodes fall free; empty: held to the end
      rows.push(row(`controls.${i}.release`, 'release at', 's (empty: never)', 'optional', c.release));
      rows.push(button('Remove', { removeControl: i }, `remove control ${i + 1}`));
      parts.push(fieldset(`Control ${i + 1} (controls[${i}])`, ...rows));
    });
    ui.grasp = el('button', { type: 'button', id: 'grasp-node', textContent: 'Grasp a node…',
      title: 'then click the cloth: the nearest node gets a control of its own (lifted 20 cm from 0.5 s to 1.5 s; edit its keyframes)' });
    ui.grasp.setAttribute('aria-pressed', String(grasp.picking()));
    parts.push(el('div', { className: 'exports' }, ui.grasp));
    (scenario.obstacles ?? []).forEach((o, i) => {
      const rows = [row(`obstacles.${i}.mu`, 'friction μ', '', 'number', o.mu)];
      for (const [k, l, u, kind = 'number'] of OBSTACLE[o.type] ?? []) {
        rows.push(row(`obstacles.${i}.${k}`, l, u, kind, kind === 'vector' ? o[k]?.join(', ') : o[k]));
      }
      // the scenario keys (as the JSON below spells them)
      const json = [o.type === 'stick' && 'points (the polyline)', o.type === 'needles' && 'count', o.motion && 'motion'].filter(Boolean);
      if (json.length) rows.push(el('p', { className: 'hint', textContent: `${json.join(', ')}: edit as JSON (below)` }));
      rows.push(button('Remove', { removeObstacle: i }, `remove obstacle ${i + 1}`));
      parts.push(fieldset(`Obstacle ${i + 1}: ${o.type}${o.motion ? ', moving' : ''} (obstacles[${i}])`, ...rows));
    });
    const add = el('select', { id: 'add-obstacle' }, el('option', { value: '', textContent: 'add an obstacle…' }),
      ...[['plane', 'floor (plane)'], ['box', 'table (box)'], ['sphere', 'sphere'], ['cylinder', 'cylinder']]
        .map(([value, text]) => el('option', { value, textContent: text })));
    add.title = 'placed 5 cm below the cloth’s lowest point at t = 0, under its centre';
    const self = scenario.self_collision ?? {};
    parts.push(fieldset('Contacts', add,
      row('self_collision.enabled', 'self-collisions', '', 'bool', self.enabled ?? false),
      ...SELF_COLLISION.map(([k, l, u, fallback]) => row(`self_collision.${k}`, l, u, 'number', self[k] ?? fallback))));
    ui.form.replaceChildren(...parts);
    if (focused) ui.form.querySelector(`[data-path="${focused}"]`)?.focus();
  }

  function showParamsError(message, path) {
    ui.paramsError.textContent = message;
    ui.paramsError.hidden = !message;
    for (const input of ui.form.querySelectorAll('[data-path]')) {
      const p = input.dataset.path;
      // the core names fields as "controls[0].motion.amplitude"; the form as controls.0.motion.amplitude
      const corePath = p.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
      const bad = message && (p === path || message.startsWith(`${corePath}:`) || message.startsWith(`${corePath}[`));
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
      if (bad) input.setAttribute('aria-describedby', 'params-error');
      else input.removeAttribute('aria-describedby');
    }
  }

  function parseValue(input) {
    const raw = input.value.trim();
    const kind = input.dataset.kind;
    const path = input.dataset.path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    if (kind === 'string') {
      // a list of whole numbers (negative ones too: the core then says which is out of range)
      if (input.dataset.path.endsWith('.nodes') && /^-?\d+(\s*,\s*-?\d+)*$/.test(raw)) {
        return { value: raw.split(',').map(Number) };
      }
      return { value: raw };
    }
    if (kind === 'vector') {
      const v = raw.split(/[\s,]+/).filter(Boolean).map(Number);
      if (v.length !== 3 || !v.every(Number.isFinite)) return { error: `${path}: three numbers are needed, e.g. 1, 0, 0` };
      return { value: v };
    }
    if (kind === 'bool') return { value: raw === 'true' };
    if (kind === 'optional' && raw === '') return { value: undefined };
    const x = Number(raw);
    if (raw === '' || !Number.isFinite(x)) return { error: `${path}: “${input.value}” is not a number` };
    if (kind === 'int' && !Number.isInteger(x)) return { error: `${path}: must be a whole number (got ${raw})` };
    return { value: x };
  }

  // Edits build on the scenario the last edit asked for, not only on the loaded one, so that a
  // second edit made while the first is still loading (a 1000-node mesh takes a moment) keeps
  // the first one's value.
  let pending = null; // { scenario } of the latest edit still loading
  const editable = () => structuredClone(pending?.scenario ?? app.state.scenario);
  async function load(scenario, path) {
    const token = (pending = { scenario });
    const answer = await app.loadScenario(scenario, { play: app.state.playing });
    if (pending === token) pending = null;
    if (!answer.ok && !answer.cancelled) showParamsError(answer.message, path);
    return answer;
  }

  // the form's buttons: grasp a node, remove an obstacle or a control, add or remove a keyframe
  ui.form.addEventListener('click', async (event) => {
    if (event.target.id === 'grasp-node') return grasp.setPicking(!grasp.picking());
    const b = event.target.closest('button[data-remove-obstacle], button[data-remove-control], button[data-add-keyframe], button[data-remove-keyframe]');
    if (!b || !app.state.scenario) return;
    const scenario = editable();
    const d = b.dataset;
    if (d.removeObstacle !== undefined) {
      scenario.obstacles.splice(Number(d.removeObstacle), 1);
      if (!scenario.obstacles.length) delete scenario.obstacles;
    } else if (d.removeControl !== undefined) {
      scenario.controls.splice(Number(d.removeControl), 1);
    } else if (d.addKeyframe !== undefined) {
      const frames = scenario.controls[Number(d.addKeyframe)].motion.keyframes;
      const last = frames.at(-1);
      frames.push({ time: Number((last.time + 0.5).toFixed(6)), offset: [...last.offset] });
    } else {
      const [i, j] = d.removeKeyframe.split('.').map(Number);
      scenario.controls[i].motion.keyframes.splice(j, 1);
    }
    await load(scenario, '');
  });

  // grasping: the next click on the cloth gives the nearest node a control
  const grasp = installGraspPicker(app, {
    onArmed: (on) => ui.grasp?.setAttribute('aria-pressed', String(on)),
    async onPick(node) {
      const scenario = editable();
      const motion = graspMotion(app.state, node);
      scenario.controls.push({ nodes: [node], motion: { type: 'keyframes', keyframes: motion.keyframes } });
      if (!(await load(scenario, '')).ok) return;
      app.setStatus(`Node ${node} grasped: control ${scenario.controls.length} ${motion.text}.`);
    },
  });
  ui.form.addEventListener('change', async (event) => {
    if (event.target.id === 'add-obstacle') {
      if (!event.target.value || !app.state.scenario) return;
      const scenario = editable();
      scenario.obstacles = [...(scenario.obstacles ?? []), newObstacle(event.target.value, app.state.bounds, scenario.obstacles)];
      event.target.value = '';
      await load(scenario, '');
      return;
    }
    const input = event.target.closest('[data-path]');
    if (!input || !app.state.scenario) return;
    const parsed = parseValue(input);
    if (parsed.error) {
      showParamsError(parsed.error, input.dataset.path);
      return;
    }
    const scenario = editable();
    const path = input.dataset.path;
    if (path.endsWith('.motion.type')) {
      const i = Number(path.split('.')[1]);
      scenario.controls[i].motion = parsed.value === 'sinusoid'
        ? { type: 'sinusoid', axis: [1, 0, 0], amplitude: 0.05, frequency: 0.5 }
        : parsed.value === 'keyframes'
          ? { type: 'keyframes', keyframes: [{ time: 0, offset: [0, 0, 0] }, { time: 1, offset: [0.1, 0, 0] }] }
          : { type: 'hold' };
    } else {
      setPath(scenario, path, parsed.value);
    }
    await load(scenario, path);
  });

  return {
    show(state) {
      if (grasp.picking()) grasp.setPicking(false); // a grasp is for the scene it was asked on
      if (state.scenario) renderForm(state.scenario);
      showParamsError('');
    },
  };
}
