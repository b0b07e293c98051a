// "Grasp a node…" of the Simulate form: the next click on the cloth (not a drag) picks the
// nearest node, and graspMotion() says how the new control moves it.
import { byId } from '../ui/dom.js';

// The control a grasp adds to `node` (state: app.state with time, positions (now), rest and
// controlled, core frame): the node is taken where it is now (reached along a straight line
// from its rest position since t = 0, as the run restarts), held 0.5 s and lifted by up to
// 20 cm over 1 s, but never farther from a controlled node than the two are on the cloth at
// rest: an inextensible cloth cannot follow a lift out of a flat sheet held at two corners
// (the run diverges). -> { keyframes, text }
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

// The picking: setPicking(on) arms or disarms it (Esc disarms it too); a click on the cloth
// while armed calls onPick(node), on another panel's view it disarms. -> { picking(), setPicking(on) }
export function installGraspPicker(app, { onPick, onArmed }) {
  let picking = false;
  function setPicking(on) {
    picking = on;
    onArmed(on);
    byId('view')?.classList.toggle('picking', on);
    if (on) {
      app.setStatus('Click the cloth where it should be grasped (Esc: cancel).');
      // on a narrow screen the panel is below the view: bring the cloth back in sight
      byId('view')?.scrollIntoView({ block: 'nearest' });
    }
  }
  const canvas = byId('view');
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
    await onPick(node);
  });
  window.addEventListener('keydown', (e) => {
    // Esc closes the top layer only: with the help open it is the help's
    if (e.key === 'Escape' && picking && !document.querySelector('dialog[open]')) {
      setPicking(false);
      app.setStatus('Grasping cancelled.');
    }
  });
  return { picking: () => picking, setPicking };
}
