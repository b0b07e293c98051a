// Contact scenes in WebAssembly: the same state hash as the native CLI after a short run in
// contact, and what the page draws from wasm/bindings/bind_contact.cpp (ObstacleView):
// shapes as the scenario gives them, poses from the core's motion model checked against the
// motions written out by hand; and the nodes of the active contacts (Simulation.contactNodes)
// really at the obstacle they touch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createTela } = await import(path.join(root, 'web/src/wasm/tela.mjs'));
const tela = await createTela({ wasmBinary: fs.readFileSync(path.join(root, 'web/src/wasm/tela.wasm')) });

// each run is long enough for the cloth to touch the obstacle (the summary says so)
for (const [scene, steps] of [['cylinder-mu-0.55', 30], ['sphere-rotating', 30], ['needles', 30], ['tablecloth', 60], ['stick-hit', 60]]) {
  test(`${scene}: native and wasm state hashes agree after ${steps} steps in contact`, { timeout: 60000 }, () => {
    const native = JSON.parse(execFileSync(path.join(root, 'build/tela'),
      ['simulate', scene, '--steps', String(steps)], { encoding: 'utf8', timeout: 55000 }));
    assert.ok(native.max_contacts > 0, `${scene}: no contact in ${steps} steps`);
    const sim = tela.createSimulation(tela.sceneJson(scene));
    try {
      assert.ok(sim.ok(), sim.error());
      sim.step(steps);
      assert.equal(sim.stateHash(), native.state_hash);
    } finally {
      sim.delete();
    }
  });
}

function withView(scene, fn) {
  const view = tela.createObstacleView(tela.sceneJson(scene));
  try {
    assert.ok(view.ok(), view.error());
    return fn(view);
  } finally {
    view.delete();
  }
}

const close = (a, b, tol = 1e-12) => Math.abs(a - b) <= tol;
const assertPose = (pose, R, t, what) => {
  for (let i = 0; i < 9; i++) assert.ok(close(pose[i], R[i]), `${what}: R[${i}] = ${pose[i]}, expected ${R[i]}`);
  for (let i = 0; i < 3; i++) assert.ok(close(pose[9 + i], t[i]), `${what}: t[${i}] = ${pose[9 + i]}, expected ${t[i]}`);
};
const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];

test('obstacle shapes are the scenario\'s obstacles', () => {
  withView('cylinder-mu-0.55', (view) => {
    const shapes = view.shapes();
    const scenario = JSON.parse(tela.sceneJson('cylinder-mu-0.55'));
    assert.deepEqual(shapes.map((s) => s.type), scenario.obstacles.map((o) => o.type));
    assert.deepEqual(shapes.map((s) => s.type), ['plane', 'cylinder']);
    const c = shapes[1];
    assert.equal(c.radius, 0.11);
    assert.equal(c.length, 2);
    assert.equal(c.mu, 0.55);
    assert.equal(c.moving, false);
    // axis: y rotated by 20 degrees about z
    const a = (20 * Math.PI) / 180;
    assert.ok(close(c.axis[0], Math.sin(a), 1e-12) && close(c.axis[1], Math.cos(a), 1e-12) && c.axis[2] === 0);
    // a fixed obstacle has the identity pose at any time
    const poses = view.poses(1.234);
    assert.equal(poses.length, 24);
    assertPose(poses.subarray(12), I, [0, 0, 0], 'cylinder');
  });
  withView('needles', (view) => {
    const [n] = view.shapes();
    assert.deepEqual([n.type, n.countX, n.countY, n.spacing, n.c1, n.c2], ['needles', 4, 4, 0.15, 20, 0.075]);
  });
  withView('hang-7x9', (view) => {
    assert.equal(view.count(), 0);
    assert.equal(view.poses(0.5).length, 0);
  });
});

test('the rotating sphere\'s pose: a quarter turn about z at t = 1.5 s, half a turn from t = 2 s', () => {
  withView('sphere-rotating', (view) => {
    const [, sphere] = view.shapes();
    assert.equal(sphere.type, 'sphere');
    assert.equal(sphere.moving, true);
    assertPose(view.poses(0.5).subarray(12), I, [0, 0, 0], 'before the turn');
    // w = pi rad/s from t = 1 s about z through the centre (0, 0, 0.35): on the axis, t = 0
    const quarter = view.poses(1.5).subarray(12);
    assertPose(quarter, [0, -1, 0, 1, 0, 0, 0, 0, 1], [0, 0, 0], 't = 1.5 s');
    const half = view.poses(3).subarray(12);
    assertPose(half, [-1, 0, 0, 0, -1, 0, 0, 0, 1], [0, 0, 0], 't = 3 s');
  });
});

test('the stick\'s pose follows its keyframes (translation only)', () => {
  withView('stick-hit', (view) => {
    const [stick] = view.shapes();
    assert.equal(stick.type, 'stick');
    assert.equal(stick.radius, 0.0075);
    assert.equal(stick.points.length, 2);
    assertPose(view.poses(0.2), I, [0, 0, 0], 't = 0.2 s');
    assertPose(view.poses(0.6), I, [0, 0.25, 0], 't = 0.6 s');
    // halfway between (1.4, [0, 0, 0.15]) and (1.7, [0, 0.2, 0.15])
    assertPose(view.poses(1.55), I, [0, 0.1, 0.15], 't = 1.55 s');
  });
});

test('the contact nodes on the cylinder and the floor are at their surface', () => {
  const sim = tela.createSimulation(tela.sceneJson('cylinder-mu-0.55'));
  const view = tela.createObstacleView(sim.scenarioJson());
  try {
    const [floor, cyl] = view.shapes();
    assert.equal(sim.contactNodes().length, 0, 'no step yet');
    sim.step(1);
    assert.equal(sim.contactNodes().length, 0, 'the cloth starts 4 cm above the cylinder');
    sim.step(59);
    const x = sim.positions64();
    const nodes = sim.contactNodes();
    assert.ok(nodes.length > 0, 'the cloth lies on the cylinder after 0.6 s');
    assert.deepEqual(Array.from(nodes), [...new Set(nodes)].sort((a, b) => a - b), 'ascending, once each');
    // tau0 / 2 with the default thickness tau0 = 3 mm (scenario.h SelfCollision; the scene
    // leaves self-collisions off, so its JSON does not repeat the default)
    assert.equal(JSON.parse(sim.scenarioJson()).self_collision, undefined);
    const clearance = 0.5 * 0.003;
    // signed distances written out here: capped cylinder (lateral surface, caps, rims), floor
    const dist = (k) => {
      const p = [x[3 * k] - cyl.center[0], x[3 * k + 1] - cyl.center[1], x[3 * k + 2] - cyl.center[2]];
      const h = p[0] * cyl.axis[0] + p[1] * cyl.axis[1] + p[2] * cyl.axis[2];
      const rho = Math.hypot(p[0] - h * cyl.axis[0], p[1] - h * cyl.axis[1], p[2] - h * cyl.axis[2]);
      const dr = rho - cyl.radius;
      const dh = Math.abs(h) - cyl.length / 2;
      const dCyl = dr > 0 && dh > 0 ? Math.hypot(dr, dh) : Math.max(dr, dh);
      return Math.min(dCyl, x[3 * k + 2] - floor.point[2]);
    };
    // an active contact holds its node at the clearance (to the solver's tolerance and the
    // linearization of the curved surface over a step)
    for (const k of nodes) {
      const d = dist(k);
      assert.ok(Math.abs(d - clearance) < 0.001, `node ${k} in contact is ${d} m from the surface`);
    }
  } finally {
    view.delete();
    sim.delete();
  }
});

test('the stick contacts (edge-edge) give the nodes of the cloth edges it pushes', () => {
  const sim = tela.createSimulation(tela.sceneJson('stick-hit'));
  try {
    sim.step(50);
    const nodes = sim.contactNodes();
    assert.ok(nodes.length > 0, 'the stick pushes the cloth at t = 0.5 s');
    // the stick at t = 0.5 s: y = -0.15 + 0.25 (0.5 - 0.3) / (0.6 - 0.3), z = 0.85, x in
    // [-0.375, 0.375]; the nodes of the touching edges are within an edge (42 / 6 cm,
    // 59.4 / 8 cm) of its axis
    const y = -0.15 + (0.25 * 0.2) / 0.3;
    const x = sim.positions64();
    for (const k of nodes) {
      const d = Math.hypot(x[3 * k + 1] - y, x[3 * k + 2] - 0.85);
      assert.ok(d < 0.0075 + 0.0015 + 0.0743 + 0.001 && Math.abs(x[3 * k]) <= 0.375, `node ${k} is ${d} m from the stick`);
    }
  } finally {
    sim.delete();
  }
});

test('a scene without obstacles or self-collisions has no contact nodes', () => {
  const sim = tela.createSimulation(tela.sceneJson('hang-7x9'));
  try {
    sim.step(10);
    assert.equal(sim.contactNodes().length, 0);
  } finally {
    sim.delete();
  }
});

test('a bad scenario gives an ObstacleView with an error, not a crash', () => {
  const scenario = JSON.parse(tela.sceneJson('sphere-rotating'));
  scenario.obstacles[1].radius = -1;
  const view = tela.createObstacleView(JSON.stringify(scenario));
  try {
    assert.equal(view.ok(), false);
    assert.match(view.error(), /obstacles\[1\]/);
    assert.equal(view.shapes().length, 0);
  } finally {
    view.delete();
  }
});

// The Simulate form's "add an obstacle" (web/src/simulate/new_obstacle.js newObstacle): each kind,
// placed under a scene's cloth from the cloth's bounds at t = 0, is accepted by the core, the
// cloth starts clear of it (no contact at step 0) and, but for the floor, falls onto it.
const { newObstacle } = await import(path.join(root, 'web/src/simulate/new_obstacle.js'));
const { positionBounds } = await import(path.join(root, 'web/src/simulate/bounds.js'));
for (const scene of ['hang-7x9', 'locking-quad-529']) {
  test(`${scene}: an added floor, table, sphere and cylinder start clear of the cloth and catch it`, { timeout: 120000 }, () => {
    const scenario = JSON.parse(tela.sceneJson(scene));
    const start = tela.createSimulation(JSON.stringify(scenario));
    const b = positionBounds(start.positions());
    start.delete();
    for (const type of ['plane', 'box', 'sphere', 'cylinder']) {
      const o = newObstacle(type, b);
      assert.equal(o.type, type);
      const sim = tela.createSimulation(JSON.stringify({ ...scenario, duration: 3, obstacles: [o] }));
      try {
        assert.ok(sim.ok(), `${scene} + ${type}: ${sim.error()}`);
        assert.equal(sim.contactNodes().length, 0, `${scene} + ${type}: in contact at t = 0`);
        // the top of the obstacle under the cloth's centre is 5 cm below its lowest node
        const top = type === 'plane' ? o.point[2] : type === 'box' ? o.center[2] + o.size[2] / 2 : o.center[2] + o.radius;
        assert.ok(type === 'plane' ? top <= b.min[2] - 0.05 + 1e-9 : Math.abs(top - (b.min[2] - 0.05)) < 2e-3, `${scene} + ${type}: top ${top}`);
        sim.step(150);
        assert.ok(!sim.failed(), sim.failureMessage());
        const summary = JSON.parse(sim.summary());
        // (a floor stays below a hanging sheet)
        if (type !== 'plane') assert.ok(summary.max_contacts > 0, `${scene} + ${type}: the cloth never reached it`);
      } finally {
        sim.delete();
      }
    }
  });
}

// Scenes whose cloth lies on or just over an obstacle: an added obstacle does not go inside
// one that is there (checked on a grid of points filling it, with the obstacles' own solid
// tests written out here), the cloth starts clear of it, and the core accepts the scene; a
// second floor at the height of one already there is refused by the core with its reason.
const inside = (o, p, tol) => {
  const c = o.center ?? [0, 0, 0], sub = (a, b) => a.map((v, k) => v - b[k]), dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  if (o.type === 'plane') {
    const n = o.normal ?? [0, 0, 1];
    return dot(sub(p, o.point ?? [0, 0, 0]), n) / Math.hypot(...n) < -tol;
  }
  if (o.type === 'box') return [0, 1, 2].every((k) => Math.abs(p[k] - c[k]) < o.size[k] / 2 - tol);
  if (o.type === 'sphere') return Math.hypot(...sub(p, c)) < o.radius - tol;
  if (o.type === 'cylinder') {
    const an = Math.hypot(...o.axis), a = o.axis.map((v) => v / an), d = sub(p, c), t = dot(d, a);
    return (!o.length || Math.abs(t) < o.length / 2 - tol) && Math.hypot(...d.map((v, k) => v - t * a[k])) < o.radius - tol;
  }
  return false;
};
const fill = (o) => {
  // points spread through the obstacle's bounding box that are inside it
  const c = o.center, h = o.type === 'box' ? o.size.map((s) => s / 2)
    : o.type === 'sphere' ? [o.radius, o.radius, o.radius]
      : o.axis.map((a) => Math.abs(a) * o.length / 2 + o.radius);
  const out = [];
  for (let i = 0; i <= 10; i++) for (let j = 0; j <= 10; j++) for (let k = 0; k <= 10; k++) {
    const p = [c[0] + h[0] * (i / 5 - 1), c[1] + h[1] * (j / 5 - 1), c[2] + h[2] * (k / 5 - 1)];
    if (inside(o, p, 1e-3)) out.push(p);
  }
  return out;
};
for (const scene of ['napkin-fold', 'tablecloth', 'cylinder-mu-0.2', 'sphere-rotating']) {
  test(`${scene}: an added obstacle stays out of the scene's obstacles and clear of the cloth`, { timeout: 60000 }, () => {
    const scenario = JSON.parse(tela.sceneJson(scene));
    const start = tela.createSimulation(JSON.stringify(scenario));
    const b = positionBounds(start.positions());
    start.delete();
    for (const type of ['plane', 'box', 'sphere', 'cylinder']) {
      const o = newObstacle(type, b, scenario.obstacles);
      const sim = tela.createSimulation(JSON.stringify({ ...scenario, obstacles: [...scenario.obstacles, o] }));
      try {
        const samePlane = scenario.obstacles.findIndex((e) => e.type === 'plane' && type === 'plane' && e.point[2] === o.point[2]);
        if (samePlane >= 0) {
          assert.equal(sim.ok(), false);
          assert.match(sim.error(), new RegExp(`same plane as obstacles\\[${samePlane}\\]`));
          continue;
        }
        assert.ok(sim.ok(), `${scene} + ${type}: ${sim.error()}`);
        assert.equal(sim.contactNodes().length, 0, `${scene} + ${type}: in contact at t = 0`);
        if (type === 'plane') continue;
        const points = fill(o);
        assert.ok(points.length > 50, `${scene} + ${type}: ${points.length} sample points`);
        for (const [k, e] of scenario.obstacles.entries()) {
          const hidden = points.filter((p) => inside(e, p, 1e-3)).length;
          assert.equal(hidden, 0, `${scene} + ${type} ${JSON.stringify(o)}: ${hidden} of ${points.length} points inside obstacles[${k}]`);
        }
        sim.step(5);
        assert.ok(!sim.failed(), sim.failureMessage());
      } finally {
        sim.delete();
      }
    }
  });
}
