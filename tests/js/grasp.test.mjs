// The Simulate form's "Grasp a node…" (web/src/simulate/grasp.js graspMotion) against the
// WebAssembly core the page runs: the control it adds never asks an inextensible cloth for the
// impossible: lifting a node 20 cm from its rest position would make the default scene (a flat
// A2 sheet held at its top corners) diverge whichever node was grasped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: createTela } = await import(path.join(root, 'web/src/wasm/tela.mjs'));
const tela = await createTela({ wasmBinary: fs.readFileSync(path.join(root, 'web/src/wasm/tela.wasm')) });
const { graspMotion } = await import(path.join(root, 'web/src/simulate/grasp.js'));

// what the page knows when the user clicks: the state after `steps` steps of `scenario`
function pageState(scenario, steps) {
  const sim = tela.createSimulation(JSON.stringify(scenario));
  try {
    assert.ok(sim.ok(), sim.error());
    sim.step(steps);
    return { time: sim.time(), positions: sim.positions(), rest: sim.restPositions(), controlled: Array.from(sim.controlledNodes()) };
  } finally {
    sim.delete();
  }
}

// the scenario with the grasp, run for 2.5 s: it must not fail
function runWithGrasp(scenario, node, grasp) {
  const grasped = { ...scenario, duration: 2.5, controls: [...scenario.controls, { nodes: [node], motion: { type: 'keyframes', keyframes: grasp.keyframes } }] };
  const sim = tela.createSimulation(JSON.stringify(grasped));
  try {
    assert.ok(sim.ok(), sim.error());
    sim.step(250);
    assert.ok(!sim.failed(), `node ${node}: ${sim.failureMessage()}`);
  } finally {
    sim.delete();
  }
}

test('a grasp on the flat sheet at t = 0 only holds the node, and says why', () => {
  const scenario = JSON.parse(tela.sceneJson('hang-7x9'));
  const state = pageState(scenario, 0);
  for (const node of [12, 31, 48]) {
    const grasp = graspMotion(state, node);
    assert.deepEqual(grasp.keyframes.map((k) => k.time), [0, 0.5, 1.5]);
    for (const k of grasp.keyframes) assert.deepEqual(k.offset, [0, 0, 0]);
    assert.match(grasp.text, /holds it: lifting it would pull the cloth apart from node (56|62)/);
    runWithGrasp(scenario, node, grasp);
  }
});

test('a grasp of the hanging sheet takes the node where it is and lifts it as far as the cloth reaches', { timeout: 120000 }, () => {
  const scenario = JSON.parse(tela.sceneJson('hang-7x9'));
  const state = pageState(scenario, 100); // t = 1 s: hanging below its corners
  let lifted = 0;
  for (const node of [3, 12, 31, 48]) {
    const grasp = graspMotion(state, node);
    assert.deepEqual(grasp.keyframes.map((k) => k.time), [1, 1.5, 2.5]);
    const [first, , last] = grasp.keyframes;
    // where the node is at 1 s (offset from its rest position), then straight up
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(first.offset[c] - (state.positions[3 * node + c] - state.rest[3 * node + c])) < 1e-4);
    assert.deepEqual(last.offset.slice(0, 2), first.offset.slice(0, 2));
    const lift = last.offset[2] - first.offset[2];
    assert.ok(lift >= 0 && lift <= 0.2 + 1e-9, `node ${node}: lift ${lift}`);
    if (lift > 0.01) lifted++;
    runWithGrasp(scenario, node, grasp);
  }
  assert.ok(lifted >= 3, 'the hanging sheet lets most nodes be lifted');
});
