// The Classify panel's 3D view of what it classifies when that is not the simulated frame: an
// opened OBJ cloth state (its mesh, front red and back blue as in Simulate) or the boundary of
// a reconstructed cloud, with the dGLI segments of the classified boundary as grey lines, over
// the simulator's view (render/overlay_stage.js); the panel draws the hovered segments over it
// with `camera`. Inputs are in the core frame (z up, metres).
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { coreToThree } from '../render/core_frame.js';
import { BACK_COLOR, FRONT_COLOR } from '../render/palette.js';
import { createOverlayStage, isColoured } from '../render/overlay_stage.js';

export function createStateView(host, before = null) {
  const stage = createOverlayStage(host, { id: 'classify-view', label: 'the classified cloth state', before, room: true });
  const { scene } = stage;
  let content = null; // Group: mesh and segments

  return {
    canvas: stage.canvas,
    camera: stage.camera,
    // fn() after the camera moved or the canvas was resized (the panel redraws its highlight)
    onChange: stage.onChange,
    // shown when `on` and there is a state to draw; returns whether it is shown
    show: (on) => stage.show(on && Boolean(content)),
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
      stage.frame(new THREE.Box3().setFromObject(content), { margin: 1.2 });
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
      stage.invalidate();
    },
    // clearly coloured pixels of a fresh frame (the mesh), for tests
    colouredPixels: () => stage.countPixels(isColoured),
  };
}
