// The obstacles of a contact scene (wasm/core/contact/obstacles/, fields as scenario.h
// ObstacleDesc): each built once in its body frame (the obstacle at t = 0, core frame z up)
// and moved every frame by the pose the core computes (ObstacleView.poses: world = R body + t).
// Everything hangs under one group whose matrix is the core -> three.js rotation taken from
// coreToThree, so the z-up to y-up conversion stays in that one function.
import * as THREE from 'three';
import { coreFrameGroup } from './core_frame.js';
import { OBSTACLE_COLOR } from './palette.js';

const PLANE_COLOR = 0xa7a397;
const PLANE_SIZE = 4;                     // m, as the floor grid
const INFINITE_LENGTH = 8;                // m, drawn length of an infinite cylinder
const SEGMENTS = 48;

const v3 = (a) => new THREE.Vector3(a[0], a[1], a[2]);

// light and dark bands (`bands` per turn of `coordinate`, in turns) as vertex colours, so
// that a turning sphere or cylinder is seen turning
function banded(geometry, coordinate, bands) {
  const position = geometry.getAttribute('position');
  const colors = new Float32Array(position.count * 3);
  const light = new THREE.Color(OBSTACLE_COLOR);
  const dark = light.clone().multiplyScalar(0.82);
  const p = new THREE.Vector3();
  for (let i = 0; i < position.count; i++) {
    p.fromBufferAttribute(position, i);
    const c = Math.floor(coordinate(p) * bands) % 2 ? dark : light;
    colors.set([c.r, c.g, c.b], 3 * i);
  }
  geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  return geometry;
}

// longitude of p about `axis`, in turns [0, 1)
function longitude(axis) {
  const u = new THREE.Vector3(1, 0, 0);
  if (Math.abs(axis.x) > 0.9) u.set(0, 1, 0);
  u.addScaledVector(axis, -u.dot(axis)).normalize();
  const w = new THREE.Vector3().crossVectors(axis, u);
  return (p) => (Math.atan2(p.dot(w), p.dot(u)) / (2 * Math.PI) + 1) % 1;
}

// a cylinder of `radius` and `length` (m) along the unit `axis`, centred on `center` (body frame)
function cylinderGeometry(center, axis, radius, length, capped) {
  const g = new THREE.CylinderGeometry(radius, radius, length, SEGMENTS, 1, !capped);
  g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis));
  const around = longitude(axis);
  banded(g, (p) => around(p), 12);
  g.translate(center.x, center.y, center.z);
  return g;
}

function sphereGeometry(center, radius) {
  const g = new THREE.SphereGeometry(radius, SEGMENTS, SEGMENTS / 2);
  // three's sphere poles are on its y axis; the core's "up" is z: poles on z
  g.rotateX(Math.PI / 2);
  const around = longitude(new THREE.Vector3(0, 0, 1));
  banded(g, (p) => around(p), 12);
  g.translate(center.x, center.y, center.z);
  return g;
}

// needle of thesis §3.6.3 around the z axis: h(r) = c2 (1 - sqrt(c1 r))^2 for r <= 1/c1,
// sampled uniformly in s = sqrt(c1 r) (dense near the cusp), from the tip down to the base
function needleGeometry(c1, c2) {
  const points = [];
  const n = 32;
  for (let i = 0; i <= n; i++) {
    const s = i / n;
    points.push(new THREE.Vector2((s * s) / c1, c2 * (1 - s) * (1 - s)));
  }
  const g = new THREE.LatheGeometry(points, SEGMENTS);
  g.rotateX(Math.PI / 2); // lathe axis y -> core z
  return g;
}

// a square of PLANE_SIZE in the plane through `point` with normal `normal`, centred on the
// point of the plane nearest the origin
function planeGeometry(point, normal) {
  const g = new THREE.PlaneGeometry(PLANE_SIZE, PLANE_SIZE);
  g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal));
  const foot = normal.clone().multiplyScalar(point.dot(normal));
  // 1 mm below the surface, so that the floor grid (at the surface) stays in front of it
  foot.addScaledVector(normal, -0.001);
  g.translate(foot.x, foot.y, foot.z);
  return g;
}

export function createObstacles(parent) {
  const group = coreFrameGroup(parent);
  // the cloth shades itself (shaders/cloth.*.glsl); these lights are for the obstacles only
  parent.add(new THREE.HemisphereLight(0xffffff, 0x8a8780, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(0.4, 0.8, 0.6);
  parent.add(sun);

  const solid = new THREE.MeshLambertMaterial({ color: 0xffffff, vertexColors: true });
  const plain = new THREE.MeshLambertMaterial({ color: OBSTACLE_COLOR });
  const twoSided = new THREE.MeshLambertMaterial({ color: OBSTACLE_COLOR, side: THREE.DoubleSide });
  const sheet = new THREE.MeshLambertMaterial({
    color: PLANE_COLOR, side: THREE.DoubleSide, transparent: true, opacity: 0.35, depthWrite: false,
  });

  let bodies = []; // per obstacle: { type, object } with object.matrix = its pose
  const owned = []; // geometries to dispose

  function keep(geometry) {
    owned.push(geometry);
    return geometry;
  }

  function build(shape) {
    const body = new THREE.Group();
    const add = (geometry, material) => body.add(new THREE.Mesh(keep(geometry), material));
    switch (shape.type) {
      case 'plane':
        add(planeGeometry(v3(shape.point), v3(shape.normal).normalize()), sheet);
        break;
      case 'box': {
        const g = new THREE.BoxGeometry(...shape.size);
        g.translate(...shape.center);
        add(g, plain);
        break;
      }
      case 'sphere':
        add(sphereGeometry(v3(shape.center), shape.radius), solid);
        break;
      case 'cylinder': {
        const infinite = !(shape.length > 0);
        add(cylinderGeometry(v3(shape.center), v3(shape.axis).normalize(), shape.radius,
          infinite ? INFINITE_LENGTH : shape.length, !infinite), solid);
        break;
      }
      case 'stick': {
        // the capsule chain of the core: a cylinder per polyline edge and a ball per point
        const points = shape.points.map(v3);
        for (let i = 0; i + 1 < points.length; i++) {
          const d = points[i + 1].clone().sub(points[i]);
          const length = d.length();
          if (length > 0) {
            const middle = points[i].clone().addScaledVector(d, 0.5);
            add(cylinderGeometry(middle, d.normalize(), shape.radius, length, false), solid);
          }
        }
        for (const p of points) {
          const g = new THREE.SphereGeometry(shape.radius, 16, 8);
          g.translate(p.x, p.y, p.z);
          add(g, plain);
        }
        break;
      }
      case 'needles': {
        // the ground of the field (part of the obstacle) and one surface of revolution per needle
        add(planeGeometry(v3(shape.center), new THREE.Vector3(0, 0, 1)), sheet);
        const needle = keep(needleGeometry(shape.c1, shape.c2));
        for (let j = 0; j < shape.countY; j++) {
          for (let i = 0; i < shape.countX; i++) {
            const mesh = new THREE.Mesh(needle, twoSided);
            mesh.position.set(shape.center[0] + (i - 0.5 * (shape.countX - 1)) * shape.spacing,
              shape.center[1] + (j - 0.5 * (shape.countY - 1)) * shape.spacing, shape.center[2]);
            body.add(mesh);
          }
        }
        break;
      }
      default:
        return null; // a type this page does not know: not drawn
    }
    body.matrixAutoUpdate = false;
    body.userData.type = shape.type;
    return body;
  }

  const m = new THREE.Matrix4();
  return {
    group,
    // shapes: ObstacleView.shapes(); replaces what was drawn
    set(shapes) {
      for (const b of bodies) if (b.object) group.remove(b.object);
      for (const g of owned.splice(0)) g.dispose();
      // one entry per obstacle (object null for a type this page cannot draw), so that the
      // entries line up with the poses
      bodies = (shapes ?? []).map((shape) => ({ type: shape.type, moving: !!shape.moving, object: build(shape) }));
      for (const b of bodies) if (b.object) group.add(b.object);
    },
    // poses: Float64Array #obstacles * 12 (row-major R, then t), as ObstacleView.poses
    update(poses) {
      if (!poses) return;
      bodies.forEach((b, i) => {
        const p = poses.subarray(12 * i, 12 * i + 12);
        if (!b.object || p.length < 12) return;
        m.set(p[0], p[1], p[2], p[9],
              p[3], p[4], p[5], p[10],
              p[6], p[7], p[8], p[11],
              0, 0, 0, 1);
        b.object.matrix.copy(m);
        b.object.matrixWorldNeedsUpdate = true;
      });
    },
    // the types drawn, in scenario order (for tests: window.__tela.obstacles)
    types() { return bodies.filter((b) => b.object).map((b) => b.type); },
    // the centre of each drawn obstacle's bounding box, three.js frame, as drawn now (tests)
    centers() {
      group.updateMatrixWorld(true);
      return bodies.filter((b) => b.object)
        .map((b) => new THREE.Box3().setFromObject(b.object).getCenter(new THREE.Vector3()).toArray());
    },
    setVisible(on) { group.visible = on; },
  };
}
