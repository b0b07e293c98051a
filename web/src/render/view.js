// The three.js view of one cloth: a fixed camera framing the cloth, a floor grid at the core's
// z = 0, and a two-sided cloth mesh whose vertices are updated from flat position arrays.
import * as THREE from 'three';

// The one place where core coordinates (z up, metres) become three.js coordinates (y up):
// (x, y, z)_core -> (x, z, -y)_three, a rotation, so handedness and face winding are kept.
// src and dst are flat xyz arrays of the same length.
export function coreToThree(src, dst) {
  for (let i = 0; i < src.length; i += 3) {
    dst[i] = src[i];
    dst[i + 1] = src[i + 2];
    dst[i + 2] = -src[i + 1];
  }
  return dst;
}

export const BACKGROUND = 0xf4f3ef;

export function createView(canvas) {
  // preserveDrawingBuffer lets tests (and a later "export PNG") read the pixels after a frame
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setClearColor(BACKGROUND);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);

  scene.add(new THREE.HemisphereLight(0xffffff, 0x8d8a80, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(1.5, 3, 2);
  scene.add(sun);

  const grid = new THREE.GridHelper(4, 40, 0x9a968c, 0xcfcbc0); // 10 cm cells on the floor
  scene.add(grid);

  const geometry = new THREE.BufferGeometry();
  const material = new THREE.MeshStandardMaterial({
    color: 0xd0583a, roughness: 0.85, metalness: 0, side: THREE.DoubleSide,
  });
  const cloth = new THREE.Mesh(geometry, material);
  cloth.visible = false;
  scene.add(cloth);

  let dirty = true;

  function resize() {
    const width = canvas.clientWidth || 1;
    const height = canvas.clientHeight || 1;
    if (canvas.width !== Math.round(width * renderer.getPixelRatio()) ||
        canvas.height !== Math.round(height * renderer.getPixelRatio())) {
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      dirty = true;
    }
  }

  // frame the cloth and the room below it to hang or fall by its own size, from the front,
  // slightly above and to the side
  function frame() {
    geometry.computeBoundingBox();
    const box = geometry.boundingBox.clone();
    const size = box.getSize(new THREE.Vector3()).length();
    box.expandByPoint(new THREE.Vector3(box.min.x, Math.max(0, box.min.y - size), box.min.z));
    const { center, radius } = box.getBoundingSphere(new THREE.Sphere());
    const distance = (1.15 * radius) / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2));
    const direction = new THREE.Vector3(0.45, 0.3, 1).normalize();
    camera.position.copy(center).addScaledVector(direction, distance);
    camera.lookAt(center);
  }

  return {
    // triangles: Uint32Array of node indices; positions: Float32Array, core frame
    setCloth(triangles, positions) {
      geometry.setIndex(new THREE.BufferAttribute(triangles, 1));
      const attribute = new THREE.BufferAttribute(new Float32Array(positions.length), 3);
      attribute.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', attribute);
      this.update(positions);
      frame();
      cloth.visible = true;
    },
    update(positions) {
      const attribute = geometry.getAttribute('position');
      coreToThree(positions, attribute.array);
      attribute.needsUpdate = true;
      geometry.computeVertexNormals();
      dirty = true;
    },
    // draws when something changed; call once per animation frame
    render() {
      resize();
      if (!dirty) return;
      renderer.render(scene, camera);
      dirty = false;
    },
  };
}
