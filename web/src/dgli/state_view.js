// The Classify panel's 3D view of what it classifies when that is not the simulated frame: an
// opened OBJ cloth state (its mesh, front red and back blue as in Simulate) or the boundary of
// a reconstructed cloud, with the dGLI segments of the classified boundary as grey lines. Its
// own canvas over the simulator's (as the Fit and Reconstruct panels'), drawn only when
// something changed; the panel draws the hovered segments over it with `camera`. Inputs are in
// the core frame (z up, metres).
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { BACK_COLOR, FRONT_COLOR, coreToThree, createStage } from '../render/view.js';

export function createStateView(host, before = null) {
  const canvas = document.createElement('canvas');
  canvas.className = 'overlay-view';
  canvas.id = 'classify-view';
  canvas.setAttribute('aria-label', 'the classified cloth state');
  canvas.hidden = true;
  host.insertBefore(canvas, before ?? host.children[1] ?? null);

  const stage = createStage(canvas, { near: 0.001, far: 1000 });
  const { renderer, scene, camera, controls } = stage;
  scene.add(new THREE.GridHelper(4, 40, 0x9a968c, 0xcfcbc0));
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8578, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.4);
  sun.position.set(0.4, 0.8, 0.6);
  scene.add(sun);

  let dirty = true;
  let visible = false;
  let content = null; // Group: mesh and segments
  const listeners = [];
  controls.addEventListener('change', () => {
    dirty = true;
    for (const fn of listeners) fn();
  });

  function loop() {
    if (visible) {
      if (stage.resize()) {
        dirty = true;
        for (const fn of listeners) fn();
      }
      if (dirty) {
        renderer.render(scene, camera);
        dirty = false;
      }
    }
    requestAnimationFrame(loop);
  }
  requestAnimationFrame(loop);

  function frame(box) {
    if (box.isEmpty()) return;
    stage.resize();
    const { center, radius } = box.getBoundingSphere(new THREE.Sphere());
    const halfV = THREE.MathUtils.degToRad(camera.fov / 2);
    const halfH = Math.atan(Math.tan(halfV) * camera.aspect);
    const distance = (1.2 * Math.max(radius, 1e-3)) / Math.sin(Math.min(halfV, halfH));
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.updateProjectionMatrix();
    camera.position.copy(center).addScaledVector(new THREE.Vector3(0.35, 0.75, 1).normalize(), distance);
    controls.target.copy(center);
    camera.lookAt(center);
    controls.update();
  }

  return {
    canvas,
    camera,
    // fn() after the camera moved or the canvas was resized (the panel redraws its highlight)
    onChange(fn) { listeners.push(fn); },
    show(on) {
      visible = on && Boolean(content);
      canvas.hidden = !visible;
      dirty = true;
      return visible;
    },
    // objText: an OBJ file's text (its faces drawn) or null; segments: Float64Array #segments*6
    // (start and end of each dGLI segment)
    setState({ objText = null, segments }) {
      this.clear();
      content = new THREE.Group();
      if (objText) {
        const parsed = new OBJLoader().parse(objText);
        parsed.traverse((o) => {
          if (!o.isMesh) return;
          const position = o.geometry.getAttribute('position');
          coreToThree(position.array.slice(), position.array); // not in place: y and z swap
          o.geometry.deleteAttribute('normal');
          o.geometry.computeVertexNormals();
          const front = new THREE.Mesh(o.geometry, new THREE.MeshLambertMaterial({ color: FRONT_COLOR, side: THREE.FrontSide }));
          const back = new THREE.Mesh(o.geometry, new THREE.MeshLambertMaterial({ color: BACK_COLOR, side: THREE.BackSide }));
          content.add(front, back);
        });
      }
      const xyz = coreToThree(Float32Array.from(segments), new Float32Array(segments.length));
      const lines = new THREE.BufferGeometry();
      lines.setAttribute('position', new THREE.BufferAttribute(xyz, 3));
      content.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: 0x4a4740 })));
      content.traverse((o) => { o.frustumCulled = false; });
      scene.add(content);
      frame(new THREE.Box3().setFromObject(content));
      dirty = true;
    },
    // nothing to show (what was opened could not be classified)
    clear() {
      if (content) {
        scene.remove(content);
        content.traverse((o) => {
          o.geometry?.dispose();
          [].concat(o.material ?? []).forEach((m) => m.dispose());
        });
      }
      content = null;
      dirty = true;
    },
    // clearly coloured pixels of the current frame (the mesh), for tests
    colouredPixels() {
      stage.resize();
      renderer.render(scene, camera);
      const gl = renderer.getContext();
      const data = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, data);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 40) count++;
      }
      return count;
    },
  };
}
