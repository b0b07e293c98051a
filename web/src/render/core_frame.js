// The one place where core coordinates (z up, metres) become three.js coordinates (y up):
// (x, y, z)_core -> (x, z, -y)_three, a rotation, so handedness and face winding are kept.
import * as THREE from 'three';

// src and dst are flat xyz arrays of the same length
export function coreToThree(src, dst) {
  for (let i = 0; i < src.length; i += 3) {
    dst[i] = src[i];
    dst[i + 1] = src[i + 2];
    dst[i + 2] = -src[i + 1];
  }
  return dst;
}

// the rotation of coreToThree as a Matrix4 (its images of the core axes are the columns)
function coreToThreeMatrix() {
  const basis = coreToThree(new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), new Float32Array(9));
  const m = new THREE.Matrix4();
  m.set(basis[0], basis[3], basis[6], 0,
        basis[1], basis[4], basis[7], 0,
        basis[2], basis[5], basis[8], 0,
        0, 0, 0, 1);
  return m;
}

// a group under `parent` whose children are drawn in the core frame (z up)
export function coreFrameGroup(parent) {
  const group = new THREE.Group();
  group.matrixAutoUpdate = false;
  group.matrix.copy(coreToThreeMatrix());
  group.matrixWorldNeedsUpdate = true;
  parent.add(group);
  return group;
}
