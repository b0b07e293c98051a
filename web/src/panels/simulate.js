// The Simulate panel: the gallery of built-in scenes, play / pause / step / reset, the
// scenario's parameters (edits restart the run; the core's validation message is shown at the
// field it names), view options, exports and the scenario as JSON.

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
// The top of the highest obstacle of `obstacles` (scenario objects, core frame, z up) over the
// point (x, y) that is not above `z`; null when there is none. Planes count where they are
// horizontal, cylinders by the top of their circle (vertical ones by their end), sticks and
// needle fields not at all.
export function surfaceBelow(obstacles, x, y, z) {
  let top = null;
  for (const o of obstacles ?? []) {
    const c = o.center ?? [0, 0, 0];
    let t = null;
    if (o.type === 'plane') {
      const n = o.normal ?? [0, 0, 1], p = o.point ?? [0, 0, 0];
      if (n[2] > 0.99 * Math.hypot(...n)) t = p[2] - (n[0] * (x - p[0]) + n[1] * (y - p[1])) / n[2];
    } else if (o.type === 'box') {
      const s = o.size ?? [1, 1, 1];
      if (Math.abs(x - c[0]) <= s[0] / 2 && Math.abs(y - c[1]) <= s[1] / 2) t = c[2] + s[2] / 2;
    } else if (o.type === 'sphere') {
      const r = o.radius ?? 0.1, d2 = (x - c[0]) ** 2 + (y - c[1]) ** 2;
      if (d2 < r * r) t = c[2] + Math.sqrt(r * r - d2);
    } else if (o.type === 'cylinder') {
      const r = o.radius ?? 0.1, len = o.length ?? 0;
      const a0 = o.axis ?? [0, 0, 1], an = Math.hypot(...a0), a = a0.map((v) => v / an);
      if (Math.abs(a[2]) > 0.9) {
        if (Math.hypot(x - c[0], y - c[1]) < r) t = len > 0 ? c[2] + Math.abs(a[2]) * len / 2 + r * Math.sqrt(1 - a[2] * a[2]) : Infinity;
      } else {
        const d = [x - c[0], y - c[1], 0], along = d[0] * a[0] + d[1] * a[1];
        const across = Math.hypot(d[0] - along * a[0], d[1] - along * a[1]);
        if ((len === 0 || Math.abs(along) <= len / 2) && across < r) t = c[2] + along * a[2] + r;
      }
    }
    if (t !== null && t <= z + 1e-9 && (top === null || t > top)) top = t;
  }
  return top;
}

// The highest top (surfaceBelow, no higher than z) over the rectangle [x0, x1] × [y0, y1],
// sampled on a 17 × 17 grid; null when nothing is under it.
function surfaceUnder(obstacles, [x0, x1], [y0, y1], z) {
  let top = null;
  for (let i = 0; i <= 16; i++) {
    for (let j = 0; j <= 16; j++) {
      const t = surfaceBelow(obstacles, x0 + (x1 - x0) * i / 16, y0 + (y1 - y0) * j / 16, z);
      if (t !== null && (top === null || t > top)) top = t;
    }
  }
  return top;
}

// A new obstacle of `type` for a cloth whose positions span `bounds` ({ min, max } in the core
// frame, z up), among the scene's `obstacles`: under the cloth's centre with its top 5 cm below
// the cloth's lowest point, so that the run starts clear of it and the cloth falls or hangs
// onto it; a table reaches down to the surface below (75 cm when there is none). Where that
// room is taken (a napkin lying on a table, a sheet just over a cylinder) the obstacle stands
// beside the cloth, 5 cm past its +x side, on top of whatever is there, instead of inside
// another obstacle.
export function newObstacle(type, bounds, obstacles = []) {
  const min = bounds?.min ?? [-0.5, -0.5, 1], max = bounds?.max ?? [0.5, 0.5, 1];
  const c = [0, 1].map((k) => (min[k] + max[k]) / 2);
  const extent = [0, 1, 2].map((k) => max[k] - min[k]);
  const below = min[2] - 0.05;
  const r3 = (v) => Number(v.toFixed(3));
  // what is under the cloth and the 20 cm around it (a new table's footprint)
  const under = surfaceUnder(obstacles, [min[0] - 0.2, max[0] + 0.2], [min[1] - 0.2, max[1] + 0.2], min[2]);
  const room = under === null ? Infinity : below - under;
  if (type === 'plane') return { type, mu: 0.4, point: [0, 0, r3(Math.min(0, below, under ?? 0))], normal: [0, 0, 1] };
  const radius = r3(Math.min(0.5, Math.max(0.05, 0.25 * Math.max(...extent))));
  // beside the cloth, an obstacle of half-widths (hx, hy): its centre x and the height it
  // stands on (the top of what is there, or level with the cloth's lowest point)
  const beside = (hx, hy) => {
    const x = max[0] + 0.05 + hx;
    const ground = surfaceUnder(obstacles, [x - hx, x + hx], [c[1] - hy, c[1] + hy], Infinity);
    return { x: r3(x), base: ground !== null && Number.isFinite(ground) ? ground : min[2] };
  };
  if (type === 'box') {
    if (room >= 0.05) {
      // a table whose top is `below`, reaching 20 cm past the cloth on every side
      const height = Math.min(0.75, room);
      return { type, mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - height / 2)],
        size: [r3(extent[0] + 0.4), r3(extent[1] + 0.4), r3(height)] };
    }
    const side = 2 * radius, at = beside(side / 2, side / 2);
    return { type, mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + side / 2)], size: [r3(side), r3(side), r3(side)] };
  }
  if (type === 'sphere') {
    if (room >= 2 * radius) return { type, mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - radius)], radius };
    const at = beside(radius, radius);
    return { type, mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + radius)], radius };
  }
  // cylinder (radius 10 cm): horizontal, along the cloth's wider horizontal side, reaching past
  // it; beside the cloth, along y
  if (room >= 0.2) {
    const alongX = extent[0] >= extent[1];
    return { type: 'cylinder', mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - 0.1)], axis: alongX ? [1, 0, 0] : [0, 1, 0],
      radius: 0.1, length: r3(Math.max(extent[0], extent[1]) + 0.4) };
  }
  const at = beside(0.1, extent[1] / 2 + 0.2);
  return { type: 'cylinder', mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + 0.1)], axis: [0, 1, 0], radius: 0.1,
    length: r3(extent[1] + 0.4) };
}

// The control a grasp adds to `node` (state: app.state with time, positions (now), rest and
// controlled, core frame): the node is taken where it is now (reached along a straight line
// from its rest position since t = 0, as the run restarts), held 0.5 s and lifted by up to
// 20 cm over 1 s, but never farther from a controlled node than the two are on the cloth at
// rest: an inextensible cloth cannot follow a lift out of a flat sheet held at two corners
// (the run diverged). -> { keyframes, text }
export function graspMotion(state, node) {
  const at = (array, k) => (array ? [0, 1, 2].map((c) => array[3 * k + c]) : [0, 0, 0]);
  const current = state.positions ?? state.rest;
  const now = at(current, node);
  const rest = at(state.rest, node);
  let lift = 0.2;
  let limit = -1;
  for (const j of state.controlled ?? []) {
    if (j === node) continue;
    const here = at(current, j);
    const d = now.map((v, c) => v - here[c]);
    const r = Math.hypot(...rest.map((v, c) => v - at(state.rest, j)[c]));
    // |d + h e_z| <= r: h <= -d_z + sqrt(d_z^2 - |d|^2 + r^2), with a 5 % margin
    const disc = d[2] * d[2] - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + r * r;
    const reach = disc > 0 ? Math.max(0, 0.95 * (-d[2] + Math.sqrt(disc))) : 0;
    if (reach < lift) {
      lift = reach;
      limit = j;
    }
  }
  if (lift < 0.01) lift = 0; // (a sheet's noise leaves a fraction of a millimetre)
  const r3 = (v) => Number(v.toFixed(4)) + 0; // (+ 0: no -0 in the scenario)
  const offset = now.map((v, c) => r3(v - rest[c]));
  const t0 = Math.max(0, Number((state.time ?? 0).toFixed(2)));
  const lifted = [offset[0], offset[1], r3(offset[2] + lift)];
  const keyframes = [{ time: t0, offset }, { time: r3(t0 + 0.5), offset }, { time: r3(t0 + 1.5), offset: lifted }];
  const cm = Math.round(100 * lift);
  const where = t0 > 0 ? `takes it where it is at ${t0} s` : 'holds it';
  const text = cm >= 1
    ? `${where} and lifts it ${cm} cm from ${r3(t0 + 0.5)} s to ${r3(t0 + 1.5)} s${limit >= 0 ? ` (as far as the cloth reaches from node ${limit})` : ''}`
    : `${where}: lifting it would pull the cloth apart from node ${limit} (held too); edit the keyframes to move it`;
  return { keyframes, text };
}

const MOTION = {
  hold: [],
  sinusoid: [['amplitude', 'amplitude', 'm'], ['frequency', 'frequency', 'Hz'], ['phase', 'phase', 'rad'],
             ['start', 'start', 's'], ['stop', 'stop', 's']],
  keyframes: [],
};

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};

function setPath(object, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  const parent = keys.reduce((o, k) => (o[k] ??= {}), object);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

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

    // ---- parameters
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
      ui.grasp.setAttribute('aria-pressed', String(picking));
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

    // Edits build on the scenario the last edit asked for, not only on the loaded one: a second
    // edit made while the first is still loading (a 1000-node mesh takes a moment) kept the
    // first one's value out (the width went back to 7 when the height was changed).
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
      if (event.target.id === 'grasp-node') return setPicking(!picking);
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

    // grasping: the next click on the cloth (not a drag) gives the nearest node a control
    let picking = false;
    function setPicking(on) {
      picking = on;
      ui.grasp?.setAttribute('aria-pressed', String(on));
      document.getElementById('view')?.classList.toggle('picking', on);
      if (on) {
        app.setStatus('Click the cloth where it should be grasped (Esc: cancel).');
        // on a narrow screen the panel is below the view: bring the cloth back in sight
        document.getElementById('view')?.scrollIntoView({ block: 'nearest' });
      }
    }
    const canvas = document.getElementById('view');
    let down = null;
    canvas?.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
    canvas?.addEventListener('pointerup', async (e) => {
      if (app.state.panel !== 'simulate') { // another panel's view: no grasp there
        if (picking) setPicking(false);
        return;
      }
      if (!picking || !down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 5) return;
      const node = app.view?.pickNode(e.clientX, e.clientY) ?? -1;
      if (node < 0) return app.setStatus('No cloth there: click on the cloth (Esc: cancel).');
      setPicking(false);
      const scenario = editable();
      const grasp = graspMotion(app.state, node);
      scenario.controls.push({ nodes: [node], motion: { type: 'keyframes', keyframes: grasp.keyframes } });
      if (!(await load(scenario, '')).ok) return;
      app.setStatus(`Node ${node} grasped: control ${scenario.controls.length} ${grasp.text}.`);
    });
    window.addEventListener('keydown', (e) => {
      // Esc closes the top layer only: with the help open it is the help's
      if (e.key === 'Escape' && picking && !document.querySelector('dialog[open]')) {
        setPicking(false);
        app.setStatus('Grasping cancelled.');
      }
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
      if (picking) setPicking(false); // a grasp is for the scene it was asked on
      if (state.scenario) {
        renderForm(state.scenario);
        ui.json.value = state.scenarioText;
        ui.jsonError.hidden = true;
        ui.description.textContent = state.scenario.description || '';
        for (const b of gallery.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.scene === state.name));
      }
      showParamsError('');
      ui.field.value = state.field;
      ui.wireframe.checked = state.wireframe;
      ui.pins.checked = state.pins;
      ui.obstacles.checked = state.obstacles;
      ui.contacts.checked = state.contacts;
    });
  },

  // a dropped scenario file is loaded by web/src/io/drop.js through app.loadScenario
};
