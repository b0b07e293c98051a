// The Simulate view, the three.js view of the simulated cloth: an orbiting camera, a floor grid at the core's z = 0 with
// axes in metres, the cloth drawn with shaders/cloth.*.glsl (two-sided, optional per-element
// colour map and wireframe) and its controlled nodes marked; the scene's obstacles
// (render/obstacles.js) and, optionally, the nodes in contact.
import * as THREE from 'three';
import { coreToThree } from '../render/core_frame.js';
import { createObstacles } from '../render/obstacles.js';
import { BACK_COLOR, FRONT_COLOR } from '../render/palette.js';
import { createStage } from '../render/stage.js';
import { createStand } from '../render/stand.js';
import vertexShader from '../../../shaders/cloth.vert.glsl?raw';
import fragmentShader from '../../../shaders/cloth.frag.glsl?raw';

// Triangles of the faces (#faces*4 node indices, -1 closing a triangle): quads split along
// their 0-2 diagonal as the core's render_triangles does. Returns the corner node indices
// (#triangles*3), the face of each triangle, and per corner a mask whose component i says
// whether the edge opposite corner i is a mesh edge (the same at the three corners).
export function triangulate(faces) {
  const corners = [];
  const faceOf = [];
  const masks = [];
  for (let f = 0; f < faces.length / 4; f++) {
    const a = faces[4 * f], b = faces[4 * f + 1], c = faces[4 * f + 2], d = faces[4 * f + 3];
    if (d < 0) {
      corners.push(a, b, c);
      faceOf.push(f);
      masks.push([1, 1, 1]);
    } else {
      // (a, b, c): the edge a-c opposite b is the diagonal; (a, c, d): opposite d
      corners.push(a, b, c, a, c, d);
      faceOf.push(f, f);
      masks.push([1, 0, 1], [1, 1, 0]);
    }
  }
  const mask = new Float32Array(corners.length * 3);
  masks.forEach((m, t) => {
    for (let k = 0; k < 3; k++) mask.set(m, 9 * t + 3 * k);
  });
  return { corners: Uint32Array.from(corners), faceOf: Uint32Array.from(faceOf), mask };
}

function makeAxes(length) {
  // core x red, core y green, core z (up) blue, in three.js coordinates
  const group = new THREE.Group();
  const axes = [
    [new THREE.Vector3(length, 0, 0), 0xc0392b],
    [new THREE.Vector3(0, 0, -length), 0x2e8b57],
    [new THREE.Vector3(0, length, 0), 0x2f5fbf],
  ];
  for (const [end, color] of axes) {
    const geometry = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), end]);
    group.add(new THREE.Line(geometry, new THREE.LineBasicMaterial({ color })));
  }
  return group;
}

export function createView(canvas) {
  const stage = createStage(canvas, { near: 0.01, far: 100 });
  const { renderer, scene, camera, controls, software } = stage;

  const grid = new THREE.GridHelper(4, 40, 0x9a968c, 0xcfcbc0); // 4 m, 10 cm cells on the floor
  scene.add(grid);
  scene.add(makeAxes(0.5));

  const uniforms = {
    frontColor: { value: new THREE.Color(FRONT_COLOR) },
    backColor: { value: new THREE.Color(BACK_COLOR) },
    lightDirection: { value: new THREE.Vector3(0.4, 0.8, 0.6) },
    useColormap: { value: 0 },
    colormapMax: { value: 1 },
    wireframe: { value: 0 },
  };
  const material = new THREE.ShaderMaterial({
    uniforms, vertexShader, fragmentShader, side: THREE.DoubleSide,
  });
  let geometry = new THREE.BufferGeometry();
  const cloth = new THREE.Mesh(geometry, material);
  cloth.visible = false;
  cloth.frustumCulled = false;
  scene.add(cloth);

  const pinGeometry = new THREE.SphereGeometry(1, 12, 8);
  const pinMaterial = new THREE.MeshBasicMaterial({ color: 0x202024 });
  let pins = null;

  const obstacles = createObstacles(scene);
  const stand = createStand(scene);
  const contactMaterial = new THREE.MeshBasicMaterial({ color: 0x1faa59 });
  let contactDots = null; // InstancedMesh, capacity #nodes
  let contactNodes = new Uint32Array(0);
  let contactsVisible = false;

  let topology = null; // { corners, faceOf, controlled, nodeCount }
  let nodePositions = new Float32Array(0); // three.js frame, #nodes*3
  let nodeNormals = new Float32Array(0);
  let pinRadius = 0.01;
  let dirty = true;
  controls.addEventListener('change', () => { dirty = true; });

  function resize() {
    if (stage.resize()) dirty = true;
  }

  // frame the cloth and the room below it to hang or fall by its own size, from the front,
  // slightly above and to the side. A cloth that starts flat and held (a napkin on a table
  // folded by its corners, a drape tester's ring, the locking test) is seen more from above,
  // with half that room: it folds or drapes where it lies. A flat cloth that nothing holds is
  // dropped, and keeps the whole room.
  function frame() {
    resize();
    const box = new THREE.Box3().setFromArray(nodePositions);
    const extent = box.getSize(new THREE.Vector3());
    const size = extent.length();
    const flat = extent.y < 0.2 * Math.max(extent.x, extent.z) && topology.controlled.length > 0;
    const room = flat ? 0.5 * size : size;
    box.expandByPoint(new THREE.Vector3(box.min.x, Math.max(0, box.min.y - room), box.min.z));
    const { center, radius } = box.getBoundingSphere(new THREE.Sphere());
    // the sphere fits the narrower of the two fields of view (portrait screens: the width)
    const halfV = THREE.MathUtils.degToRad(camera.fov / 2);
    const halfH = Math.atan(Math.tan(halfV) * camera.aspect);
    const distance = (1.15 * radius) / Math.sin(Math.min(halfV, halfH));
    const direction = new THREE.Vector3(0.45, flat ? 0.75 : 0.3, 1).normalize();
    camera.position.copy(center).addScaledVector(direction, distance);
    controls.target.copy(center);
    camera.lookAt(center);
    controls.update();
  }

  // smooth node normals (area-weighted face normals), then the per-corner attributes
  function updateGeometry() {
    const { corners } = topology;
    nodeNormals.fill(0);
    const p = nodePositions;
    for (let i = 0; i < corners.length; i += 3) {
      const a = 3 * corners[i], b = 3 * corners[i + 1], c = 3 * corners[i + 2];
      const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
      const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      for (const k of [a, b, c]) {
        nodeNormals[k] += nx;
        nodeNormals[k + 1] += ny;
        nodeNormals[k + 2] += nz;
      }
    }
    const position = geometry.getAttribute('position');
    const normal = geometry.getAttribute('normal');
    for (let i = 0; i < corners.length; i++) {
      const k = 3 * corners[i];
      position.array[3 * i] = p[k];
      position.array[3 * i + 1] = p[k + 1];
      position.array[3 * i + 2] = p[k + 2];
      const len = Math.hypot(nodeNormals[k], nodeNormals[k + 1], nodeNormals[k + 2]) || 1;
      normal.array[3 * i] = nodeNormals[k] / len;
      normal.array[3 * i + 1] = nodeNormals[k + 1] / len;
      normal.array[3 * i + 2] = nodeNormals[k + 2] / len;
    }
    position.needsUpdate = true;
    normal.needsUpdate = true;

    if (pins) {
      const m = new THREE.Matrix4();
      topology.controlled.forEach((node, i) => {
        m.makeScale(pinRadius, pinRadius, pinRadius);
        m.setPosition(p[3 * node], p[3 * node + 1], p[3 * node + 2]);
        pins.setMatrixAt(i, m);
      });
      pins.instanceMatrix.needsUpdate = true;
    }
    updateContacts();
    dirty = true;
  }

  // dots at the nodes in contact (a little smaller than the pins)
  function updateContacts() {
    if (!contactDots) return;
    contactDots.visible = contactsVisible;
    if (!contactsVisible) return;
    const m = new THREE.Matrix4();
    const r = 0.8 * pinRadius;
    let n = 0;
    for (const node of contactNodes) {
      if (node >= topology.nodeCount) continue;
      m.makeScale(r, r, r);
      m.setPosition(nodePositions[3 * node], nodePositions[3 * node + 1], nodePositions[3 * node + 2]);
      contactDots.setMatrixAt(n++, m);
    }
    contactDots.count = n;
    contactDots.instanceMatrix.needsUpdate = true;
  }

  return {
    renderer, camera, controls, software,
    // faces: Int32Array #faces*4 (-1 closes a triangle); positions: Float32Array, core frame;
    // controlled: Uint32Array of node indices to mark
    setCloth(faces, positions, controlled, { keepCamera = false } = {}) {
      const { corners, faceOf, mask } = triangulate(faces);
      const nodeCount = positions.length / 3;
      topology = { corners, faceOf, controlled: Array.from(controlled), nodeCount };
      nodePositions = new Float32Array(positions.length);
      nodeNormals = new Float32Array(positions.length);
      geometry.dispose();
      geometry = new THREE.BufferGeometry();
      const n = corners.length;
      const attribute = (array, size) => {
        const a = new THREE.BufferAttribute(array, size);
        a.setUsage(THREE.DynamicDrawUsage);
        return a;
      };
      geometry.setAttribute('position', attribute(new Float32Array(3 * n), 3));
      geometry.setAttribute('normal', attribute(new Float32Array(3 * n), 3));
      geometry.setAttribute('value', attribute(new Float32Array(n), 1));
      const bary = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) bary[3 * i + (i % 3)] = 1;
      geometry.setAttribute('barycentric', new THREE.BufferAttribute(bary, 3));
      geometry.setAttribute('edgeMask', new THREE.BufferAttribute(mask, 3));
      cloth.geometry = geometry;

      if (pins) {
        scene.remove(pins);
        pins.dispose();
        pins = null;
      }
      coreToThree(positions, nodePositions);
      const box = new THREE.Box3().setFromArray(nodePositions);
      // dots a little over 1 % of the cloth's size, smaller when many nodes are controlled
      const crowd = Math.min(1, Math.sqrt(8 / Math.max(1, topology.controlled.length)));
      pinRadius = Math.max(0.002, 0.012 * crowd * box.getSize(new THREE.Vector3()).length());
      if (topology.controlled.length) {
        pins = new THREE.InstancedMesh(pinGeometry, pinMaterial, topology.controlled.length);
        pins.frustumCulled = false;
        scene.add(pins);
      }
      if (contactDots) {
        scene.remove(contactDots);
        contactDots.dispose();
      }
      contactNodes = new Uint32Array(0);
      contactDots = new THREE.InstancedMesh(pinGeometry, contactMaterial, nodeCount);
      contactDots.count = 0;
      contactDots.frustumCulled = false;
      scene.add(contactDots);
      updateGeometry();
      if (!keepCamera) frame();
      cloth.visible = true;
      dirty = true;
    },
    // after a control's release: fewer controlled nodes (pins are only ever removed)
    setControlled(controlled) {
      if (!topology) return;
      topology.controlled = Array.from(controlled);
      if (pins) pins.count = Math.min(pins.count, topology.controlled.length);
      dirty = true;
    },
    update(positions) {
      if (!topology) return;
      coreToThree(positions, nodePositions);
      updateGeometry();
    },
    // per-face values (Float32Array #faces) in colour-bar units, or null to show plain colours;
    // signed: a diverging map over [-max, max] instead of viridis over [0, max]
    setField(values, max, { signed = false } = {}) {
      uniforms.useColormap.value = values ? (signed ? 2 : 1) : 0;
      if (!values || !topology) {
        dirty = true;
        return;
      }
      uniforms.colormapMax.value = max;
      const value = geometry.getAttribute('value');
      const { faceOf } = topology;
      for (let t = 0; t < faceOf.length; t++) {
        const v = values[faceOf[t]];
        value.array[3 * t] = v;
        value.array[3 * t + 1] = v;
        value.array[3 * t + 2] = v;
      }
      value.needsUpdate = true;
      dirty = true;
    },
    setWireframe(on) {
      uniforms.wireframe.value = on ? 1 : 0;
      dirty = true;
    },
    // obstacles: ObstacleView.shapes() (core frame, body at t = 0); replaces the drawn ones
    setObstacles(shapes, poses) {
      obstacles.set(shapes);
      obstacles.update(poses);
      dirty = true;
    },
    // poses: Float64Array #obstacles * 12 (ObstacleView.poses at the frame's time)
    updateObstacles(poses) {
      obstacles.update(poses);
      dirty = true;
    },
    obstacleTypes: () => obstacles.types(),
    obstacleCenters: () => obstacles.centers(),
    setObstaclesVisible(on) {
      obstacles.setVisible(on);
      stand.setVisible(on);
      dirty = true;
    },
    // a drape tester's stand under the held ring (render/stand.js: standFor), or null
    setStand(shape) {
      stand.set(shape);
      dirty = true;
    },
    // nodes: Uint32Array of node indices in contact (ObstacleView.contactNodes)
    setContacts(nodes) {
      contactNodes = nodes ?? new Uint32Array(0);
      updateContacts();
      dirty = true;
    },
    setContactsVisible(on) {
      contactsVisible = on;
      updateContacts();
      dirty = true;
    },
    setPinsVisible(on) {
      if (pins) pins.visible = on;
      pinMaterial.visible = on;
      dirty = true;
    },
    // the cloth node nearest to where the ray through a canvas point (client pixels) first
    // meets the cloth, or -1 where it misses
    pickNode(clientX, clientY) {
      if (!topology || !cloth.visible) return -1;
      const rect = canvas.getBoundingClientRect();
      const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, 1 - ((clientY - rect.top) / rect.height) * 2);
      const raycaster = new THREE.Raycaster();
      raycaster.setFromCamera(ndc, camera);
      geometry.computeBoundingSphere(); // the cloth moved since the last pick
      const [hit] = raycaster.intersectObject(cloth, false);
      if (!hit) return -1;
      let best = -1, nearest = Infinity;
      const p = new THREE.Vector3();
      for (const corner of [hit.face.a, hit.face.b, hit.face.c]) {
        const node = topology.corners[corner];
        const d = hit.point.distanceToSquared(p.fromArray(nodePositions, 3 * node));
        if (d < nearest) {
          nearest = d;
          best = node;
        }
      }
      return best;
    },
    // camera position and orbit target, three.js frame, for share links
    cameraState() {
      const r = (x) => Number(x.toFixed(4));
      return [...camera.position.toArray(), ...controls.target.toArray()].map(r);
    },
    // false (and the camera left as it is) for one that would show nothing: not six finite
    // numbers, the eye on the target, or the eye beyond the far plane
    setCameraState(state) {
      if (!Array.isArray(state) || state.length !== 6 || !state.every(Number.isFinite)) return false;
      const eye = new THREE.Vector3().fromArray(state, 0);
      const distance = eye.distanceTo(new THREE.Vector3().fromArray(state, 3));
      if (!(distance > 1e-3 && distance < 0.5 * camera.far && eye.length() < camera.far)) return false;
      camera.position.fromArray(state, 0);
      controls.target.fromArray(state, 3);
      camera.lookAt(controls.target);
      controls.update();
      dirty = true;
      return true;
    },
    resetCamera() {
      if (topology) frame();
      dirty = true;
    },
    // draws when something changed; call once per animation frame; true when it drew
    render() {
      resize();
      if (!dirty) return false;
      renderer.render(scene, camera);
      dirty = false;
      return true;
    },
    forceRender() {
      resize();
      renderer.render(scene, camera);
      dirty = false;
    },
  };
}
