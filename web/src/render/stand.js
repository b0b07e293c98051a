// The stand of a drape tester (thesis §2.7.2, the Cusick scenes): a ring of cloth whose inner
// boundary is held still lies on a disc table of that radius on a post. The simulation only
// holds those nodes (controls); the stand is drawn so that the view shows what holds them.
// Core frame (z up) under a group with the core -> three.js rotation, as the obstacles.
import * as THREE from 'three';
import { coreFrameGroup } from './core_frame.js';
import { OBSTACLE_COLOR } from './palette.js';

const TOP_THICKNESS = 0.008; // m
const GAP = 0.001;           // m between the disc's top and the held nodes

// { center: [x, y, z], radius } (core frame, metres) for a horizontal ring mesh whose inner
// boundary a control holds; null for any other scenario
export function standFor(scenario) {
  const mesh = scenario?.mesh;
  if (mesh?.type !== 'ring' || (mesh.plane ?? 'xy') !== 'xy' || !(mesh.inner_radius > 0)) return null;
  const held = (scenario.controls ?? []).some((c) => c.nodes === 'inner_boundary' && (c.motion?.type ?? 'hold') === 'hold');
  if (!held) return null;
  return { center: mesh.center ?? [0, 0, 0], radius: mesh.inner_radius };
}

export function createStand(parent) {
  const group = coreFrameGroup(parent);
  const material = new THREE.MeshLambertMaterial({ color: OBSTACLE_COLOR });

  // a vertical cylinder from z0 to z1 (core frame) about (x, y)
  function cylinder(x, y, radius, z0, z1) {
    const g = new THREE.CylinderGeometry(radius, radius, z1 - z0, 48);
    g.rotateX(Math.PI / 2); // three's cylinder axis y -> core z
    g.translate(x, y, (z0 + z1) / 2);
    return new THREE.Mesh(g, material);
  }

  return {
    // stand: standFor(scenario) or null; replaces what was drawn
    set(stand) {
      for (const child of [...group.children]) {
        group.remove(child);
        child.geometry.dispose();
      }
      if (!stand) return;
      const [x, y, z] = stand.center;
      const top = z - GAP;
      const bottom = top - TOP_THICKNESS;
      if (!(bottom > 0)) return; // a tester at or below the floor: nothing sensible to draw
      group.add(cylinder(x, y, stand.radius, bottom, top));
      group.add(cylinder(x, y, 0.15 * stand.radius, 0, bottom));
    },
    setVisible(on) { group.visible = on; },
  };
}
