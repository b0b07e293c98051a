// What a panel's own 3D view over the simulator's shares (Reconstruct's cloud, Fit's replay,
// Classify's opened state): a hidden canvas inside #viewport (under the read-outs and
// messages), a stage (createStage), drawn on animation frames only while shown and after
// invalidate(); frame(box) puts a box (three.js frame) in view; onChange(fn) hears of camera
// moves and resizes (a panel redrawing a 2D overlay); countPixels(test) counts the pixels of a
// fresh frame that pass test(r, g, b) (tests). `room`: the floor grid and lights of a scene
// with lit solids.
import * as THREE from 'three';
import { createStage } from './stage.js';

// clearly coloured, not grey (background, grid, dark markers)
export const isColoured = (r, g, b) => Math.max(r, g, b) - Math.min(r, g, b) > 40;

export function createOverlayStage(host, { id = '', label, near = 0.001, far = 1000, before = null, room = false }) {
  const canvas = document.createElement('canvas');
  canvas.className = 'overlay-view';
  if (id) canvas.id = id;
  canvas.setAttribute('aria-label', label);
  canvas.hidden = true;
  host.insertBefore(canvas, before ?? host.children[1] ?? null);

  const stage = createStage(canvas, { near, far });
  const { renderer, scene, camera, controls } = stage;
  if (room) {
    scene.add(new THREE.GridHelper(4, 40, 0x9a968c, 0xcfcbc0)); // 4 m, 10 cm cells, as the simulator's
    scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8578, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.4);
    sun.position.set(0.4, 0.8, 0.6);
    scene.add(sun);
  }

  let dirty = true;
  const listeners = [];
  function changed() {
    dirty = true;
    for (const fn of listeners) fn();
  }
  controls.addEventListener('change', changed);
  function loop() {
    if (!canvas.hidden) {
      if (stage.resize()) changed();
      if (dirty) {
        renderer.render(scene, camera);
        dirty = false;
      }
    }
    requestAnimationFrame(loop);
  }
  requestAnimationFrame(loop);

  return {
    canvas, renderer, scene, camera, controls,
    invalidate() { dirty = true; },
    onChange(fn) { listeners.push(fn); },
    // shows or hides the canvas; returns `on`
    show(on) {
      canvas.hidden = !on;
      dirty = true;
      return on;
    },
    // the camera `margin` times the box's bounding sphere away along `direction`, the clip range
    // around it; nothing for an empty box
    frame(box, { direction = [0.35, 0.75, 1], margin = 1.1, minRadius = 1e-3 } = {}) {
      stage.resize();
      if (box.isEmpty()) return;
      const { center, radius } = box.getBoundingSphere(new THREE.Sphere());
      const halfV = THREE.MathUtils.degToRad(camera.fov / 2);
      const halfH = Math.atan(Math.tan(halfV) * camera.aspect);
      const distance = (margin * Math.max(radius, minRadius)) / Math.sin(Math.min(halfV, halfH));
      camera.near = distance / 100;
      camera.far = distance * 100;
      camera.updateProjectionMatrix();
      camera.position.copy(center).addScaledVector(new THREE.Vector3(...direction).normalize(), distance);
      controls.target.copy(center);
      camera.lookAt(center);
      controls.update();
      dirty = true;
    },
    countPixels(test) {
      stage.resize();
      renderer.render(scene, camera);
      const gl = renderer.getContext();
      const data = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, data);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) if (test(data[i], data[i + 1], data[i + 2])) count++;
      return count;
    },
  };
}
