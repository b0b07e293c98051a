// The Reconstruct panel's 3D view over the simulator's (render/overlay_stage.js). Layers: the cloud (plain, cleaning preview, or coloured
// by 2-cell), critical-point glyphs by type, 1-cells, boundary curves, level-set curves and
// the re-sampled mesh. Inputs are flat xyz arrays in the core frame (z up, metres).
import * as THREE from 'three';
import { coreToThree } from '../render/core_frame.js';
import { BACKGROUND } from '../render/palette.js';
import { createOverlayStage } from '../render/overlay_stage.js';

// categorical colours for 2-cells (cycled), chosen to stay apart on the light background
export const CELL_COLORS = [
  0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf,
  0xbcbd22, 0x7f7f7f, 0x393b79, 0xad494a, 0x637939, 0x843c39, 0x7b4173, 0x3182bd,
];
// critical-point glyphs: colour by kind (minimum, saddle, maximum), shape by stratum
// (interior: sphere, boundary: octahedron)
export function glyphStyle(typeName) {
  const kind = /min/i.test(typeName) ? 'minimum' : /max/i.test(typeName) ? 'maximum' : 'saddle';
  const color = { minimum: 0x2f5fbf, saddle: 0x2e8b57, maximum: 0xc0392b }[kind];
  return { kind, color, boundary: /boundary/i.test(typeName) };
}

// At most this many points of a layer are drawn (every k-th point of a larger cloud): tens of
// millions of points would exhaust the GPU's memory and make the view crawl; the analysis
// always uses every point.
export const MAX_DRAWN_POINTS = 2_000_000;

export function drawStride(count) {
  return Math.max(1, Math.ceil(count / MAX_DRAWN_POINTS));
}

// every k-th point (and colour) of a flat xyz array, k = drawStride
function thinned(positions, colors = null) {
  const k = drawStride(positions.length / 3);
  if (k === 1) return { positions, colors };
  const pick = (data) => {
    const out = new data.constructor(3 * Math.ceil(data.length / (3 * k)));
    for (let i = 0, j = 0; i < data.length; i += 3 * k, j += 3) out.set(data.subarray(i, i + 3), j);
    return out;
  };
  return { positions: pick(positions), colors: colors && pick(colors) };
}

export function createCloudView(host) {
  const stage = createOverlayStage(host, { label: 'point cloud and reconstruction' });
  const { canvas, scene } = stage;

  const layers = {}; // name -> Object3D
  let bounds = null;  // THREE.Box3 of the current cloud, three.js frame

  function toThree(positions) {
    return coreToThree(positions, new Float32Array(positions.length));
  }
  function setLayer(name, object) {
    if (layers[name]) {
      scene.remove(layers[name]);
      layers[name].traverse?.((o) => {
        o.geometry?.dispose();
        o.material?.dispose();
      });
    }
    if (object) {
      object.frustumCulled = false;
      scene.add(object);
      layers[name] = object;
    } else delete layers[name];
    stage.invalidate();
  }
  function pointSize() {
    const size = bounds ? bounds.getSize(new THREE.Vector3()).length() : 1;
    return Math.max(1e-4, 0.01 * size);
  }

  function frame() {
    if (bounds) stage.frame(bounds);
  }

  function pointsObject(positions, colors, { size = pointSize(), opacity = 1 } = {}) {
    ({ positions, colors } = thinned(positions, colors));
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(toThree(positions), 3));
    let material;
    if (colors) {
      // 8-bit colours of a file as they are (normalized to [0, 1] by the GPU), or floats
      geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3, colors instanceof Uint8Array));
      material = new THREE.PointsMaterial({ size, vertexColors: true, transparent: opacity < 1, opacity });
    } else {
      material = new THREE.PointsMaterial({ size, color: 0x55524c, transparent: opacity < 1, opacity });
    }
    return new THREE.Points(geometry, material);
  }

  // polylines: array of flat xyz arrays (open), or { points, segments } index pairs
  function linesObject(polylines, color, { closed = false } = {}) {
    const xyz = [];
    for (const line of polylines) {
      const n = line.length / 3;
      const count = closed ? n : n - 1;
      for (let i = 0; i < count; i++) {
        const j = (i + 1) % n;
        xyz.push(line[3 * i], line[3 * i + 1], line[3 * i + 2], line[3 * j], line[3 * j + 1], line[3 * j + 2]);
      }
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(toThree(Float32Array.from(xyz)), 3));
    return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color }));
  }

  return {
    canvas,
    show: stage.show,
    // a new cloud: clears every layer and frames the camera on it
    // (returns the stride of the points drawn: 1, or k when every k-th point is)
    setCloud(positions, colors = null) {
      for (const name of Object.keys(layers)) setLayer(name, null);
      bounds = new THREE.Box3().setFromArray(toThree(thinned(positions).positions));
      setLayer('cloud', pointsObject(positions, colors));
      frame();
      return drawStride(positions.length / 3);
    },
    // cleaning preview: the kept points drawn over the input, which is faded
    setPreview(input, kept) {
      for (const name of Object.keys(layers)) setLayer(name, null);
      const faded = pointsObject(input, null, { opacity: 0.18 });
      faded.material.color.set(0xc0392b);
      setLayer('removed', faded);
      setLayer('cloud', pointsObject(kept, null));
    },
    // points coloured by their 2-cell label (labels < 0: grey)
    setCells(positions, labels) {
      setLayer('removed', null);
      const colors = new Float32Array(positions.length);
      const c = new THREE.Color();
      for (let i = 0; i < labels.length; i++) {
        if (labels[i] < 0) c.set(0x999999);
        else c.set(CELL_COLORS[labels[i] % CELL_COLORS.length]);
        colors[3 * i] = c.r;
        colors[3 * i + 1] = c.g;
        colors[3 * i + 2] = c.b;
      }
      setLayer('cloud', pointsObject(positions, colors));
    },
    setCritical(critical) {
      const group = new THREE.Group();
      const radius = 2.2 * pointSize();
      const sphere = new THREE.SphereGeometry(radius, 12, 8);
      const octahedron = new THREE.OctahedronGeometry(radius * 1.4);
      const byType = new Map();
      critical.types.forEach((t, i) => {
        if (!byType.has(t)) byType.set(t, []);
        byType.get(t).push(i);
      });
      const p = toThree(critical.positions);
      const m = new THREE.Matrix4();
      for (const [t, indices] of byType) {
        const style = glyphStyle(critical.typeNames[t] ?? '');
        const mesh = new THREE.InstancedMesh(style.boundary ? octahedron : sphere,
          new THREE.MeshBasicMaterial({ color: style.color }), indices.length);
        indices.forEach((i, k) => {
          m.makeTranslation(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
          mesh.setMatrixAt(k, m);
        });
        mesh.frustumCulled = false;
        group.add(mesh);
      }
      setLayer('critical', group);
    },
    setOneCells(oneCells) {
      setLayer('oneCells', oneCells.length ? linesObject(oneCells.map((c) => c.positions), 0x202024) : null);
    },
    setBoundary(curves) {
      setLayer('boundary', curves.length ? linesObject(curves, 0xe07b00, { closed: true }) : null);
    },
    setLevelCurves(levels) {
      if (!levels) return setLayer('levels', null);
      const { points, segments } = levels;
      const xyz = new Float32Array(segments.length * 3);
      for (let i = 0; i < segments.length; i++) {
        xyz[3 * i] = points[3 * segments[i]];
        xyz[3 * i + 1] = points[3 * segments[i] + 1];
        xyz[3 * i + 2] = points[3 * segments[i] + 2];
      }
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(toThree(xyz), 3));
      setLayer('levels', new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x7a4fbf })));
    },
    // the re-sampled quad mesh as a wireframe
    setMesh(mesh) {
      if (!mesh) return setLayer('mesh', null);
      const lines = [];
      const q = mesh.quads;
      for (let f = 0; f < q.length; f += 4) {
        const v = [q[f], q[f + 1], q[f + 2], q[f + 3]].filter((i) => i >= 0);
        lines.push(Float64Array.from(v.flatMap((i) => [mesh.positions[3 * i], mesh.positions[3 * i + 1], mesh.positions[3 * i + 2]])));
      }
      setLayer('mesh', linesObject(lines, 0x6b675e, { closed: true }));
    },
    setVisible(name, on) {
      if (layers[name]) {
        layers[name].visible = on;
        stage.invalidate();
      }
    },
    has: (name) => Boolean(layers[name]),
    resetCamera: frame,
    // non-background pixels of a fresh frame (tests)
    pixelsDrawn() {
      const br = (BACKGROUND >> 16) & 255, bg = (BACKGROUND >> 8) & 255, bb = BACKGROUND & 255;
      return stage.countPixels((r, g, b) => Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb) > 30);
    },
  };
}
