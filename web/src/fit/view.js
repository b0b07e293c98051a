// The Fit panel's 3D view over the simulator's (render/overlay_stage.js). Once a recording is read it shows the recorded markers (in grid order, the detected grid's
// lines between neighbours, the held corners larger) at any step of the simulation's time
// line; once a fit is done, also the simulated cloth at the fitted parameters, a line from
// every recorded marker to its node and the markers coloured by that distance (viridis, cm,
// with a colour bar). Occluded markers are not drawn at that step. The obstacles of a contact
// fit are drawn at their t = 0 pose. Inputs are flat xyz arrays in the core frame (z up, m).
import * as THREE from 'three';
import { coreToThree } from '../render/core_frame.js';
import { BACK_COLOR, FRONT_COLOR } from '../render/palette.js';
import { createOverlayStage, isColoured } from '../render/overlay_stage.js';
import { createObstacles } from '../render/obstacles.js';
import { gradient, niceCeiling, viridis } from '../render/colormap.js';

const MARKER_COLOR = 0x26262b;
const GRID_COLOR = 0x6b675e;

// Distance (cm) from every recorded marker to its node at every step, NaN where occluded, and
// the colour scale's top (a nice number above the largest distance).
export function markerErrors({ simulated, markers, markerNodes, nodes }) {
  const m = markerNodes.length;
  const steps = Math.min(simulated.length / (3 * nodes), markers.length / (3 * m));
  const errors = new Float32Array(steps * m);
  let largest = 0;
  for (let s = 0; s < steps; s++) {
    for (let k = 0; k < m; k++) {
      const a = 3 * (s * nodes + markerNodes[k]), b = 3 * (s * m + k);
      const d = 100 * Math.hypot(simulated[a] - markers[b], simulated[a + 1] - markers[b + 1], simulated[a + 2] - markers[b + 2]);
      errors[s * m + k] = d;
      if (Number.isFinite(d)) largest = Math.max(largest, d);
    }
  }
  return { errors, top: niceCeiling(Math.max(largest, 0.1)) };
}

export function createReplayView(host) {
  const stage = createOverlayStage(host, { id: 'fit-view', label: 'recorded markers and simulated cloth', room: true });
  const { canvas, scene } = stage;

  // read-out and colour bar over the canvas
  const caption = document.createElement('p');
  caption.className = 'replay-caption';
  caption.hidden = true;
  const bar = document.createElement('div');
  bar.className = 'replay-colorbar';
  bar.hidden = true;
  bar.innerHTML = '<span>distance to its node</span><div class="scale"><div class="gradient"></div>'
    + '<div class="labels"><span class="max"></span><span class="mid"></span><span>0 cm</span></div></div>';
  bar.querySelector('.gradient').style.background = gradient(viridis);
  host.insertBefore(bar, canvas.nextSibling);
  host.insertBefore(caption, bar.nextSibling);

  const obstacles = createObstacles(scene);
  let visible = false;

  // what is shown
  let rec = null;    // { markers, m, steps, cols, rows, held }
  let sim = null;    // { simulated, nodes, markerNodes, errors, top }
  let shownStep = 0;
  let markerRadius = 0.005;

  // layers, rebuilt by setRecording / setReplay
  const sphere = new THREE.SphereGeometry(1, 14, 10);
  let dots = null;        // InstancedMesh, one per marker
  let gridLines = null;   // LineSegments between grid neighbours (visible pairs only)
  let errorLines = null;  // LineSegments marker -> node, vertex colours
  let cloth = null;       // Group of the front and back meshes and the edges
  let clothPositions = null;
  let edgePositions = null;
  let edges = null;       // Uint32Array of node pairs

  function dispose(object) {
    if (!object) return;
    scene.remove(object);
    object.traverse((o) => {
      if (o.geometry && o.geometry !== sphere) o.geometry.dispose();
      if (o.material) [].concat(o.material).forEach((mat) => mat.dispose());
    });
  }

  function lineSegments(pairs, { colors = false, color = GRID_COLOR, opacity = 1 } = {}) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(pairs * 6), 3).setUsage(THREE.DynamicDrawUsage));
    if (colors) geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(pairs * 6), 3).setUsage(THREE.DynamicDrawUsage));
    const material = new THREE.LineBasicMaterial(colors ? { vertexColors: true } : { color, transparent: opacity < 1, opacity });
    const lines = new THREE.LineSegments(geometry, material);
    lines.frustumCulled = false;
    scene.add(lines);
    return lines;
  }

  // frame the camera on everything recorded and simulated, from the front and a little above
  function frame() {
    const box = new THREE.Box3();
    const p = new THREE.Vector3();
    const add = (flat) => {
      const t = coreToThree(flat, new Float32Array(flat.length));
      for (let i = 0; i < t.length; i += 3) if (Number.isFinite(t[i])) box.expandByPoint(p.set(t[i], t[i + 1], t[i + 2]));
    };
    if (rec) add(rec.markers);
    if (sim) add(sim.simulated);
    if (box.isEmpty()) return;
    stage.frame(box, { direction: [0.45, 0.3, 1], margin: 1.15, minRadius: 0.05 });
    markerRadius = Math.max(0.002, 0.008 * box.getSize(p).length());
  }

  const tmp = new Float32Array(3);
  const toThree = (x, y, z) => coreToThree(Float32Array.of(x, y, z), tmp);

  function update() {
    if (!rec) return;
    const s = Math.max(0, Math.min(rec.steps, shownStep));
    const { markers, m } = rec;
    const at = (k) => 3 * (s * m + k);
    const seen = (k) => Number.isFinite(markers[at(k)]);
    const color = new THREE.Color();
    const matrix = new THREE.Matrix4();
    let visibleCount = 0, errorSum = 0, errorCount = 0;
    for (let k = 0; k < m; k++) {
      const i = at(k);
      if (!seen(k)) {
        matrix.makeScale(0, 0, 0);
      } else {
        const [x, y, z] = toThree(markers[i], markers[i + 1], markers[i + 2]);
        const r = rec.held.includes(k) ? 1.6 * markerRadius : markerRadius;
        matrix.makeScale(r, r, r).setPosition(x, y, z);
        visibleCount++;
      }
      dots.setMatrixAt(k, matrix);
      const e = sim ? sim.errors[s * m + k] : NaN;
      if (Number.isFinite(e)) {
        color.setRGB(...viridis(e / sim.top));
        errorSum += e;
        errorCount++;
      } else color.set(MARKER_COLOR);
      dots.setColorAt(k, color);
    }
    dots.instanceMatrix.needsUpdate = true;
    if (dots.instanceColor) dots.instanceColor.needsUpdate = true;

    // the grid's lines between visible neighbours
    const g = gridLines.geometry.getAttribute('position');
    let n = 0;
    const put = (array, offset, k) => {
      const i = at(k);
      array.set(toThree(markers[i], markers[i + 1], markers[i + 2]), offset);
    };
    for (let r = 0; r < rec.rows; r++) {
      for (let c = 0; c < rec.cols; c++) {
        const k = r * rec.cols + c;
        for (const j of [c + 1 < rec.cols ? k + 1 : -1, r + 1 < rec.rows ? k + rec.cols : -1]) {
          if (j < 0 || !seen(k) || !seen(j)) continue;
          put(g.array, 6 * n, k);
          put(g.array, 6 * n + 3, j);
          n++;
        }
      }
    }
    gridLines.geometry.setDrawRange(0, 2 * n);
    g.needsUpdate = true;
    gridLines.visible = !sim; // once the cloth is there, its mesh shows the grid

    if (sim) {
      const { simulated, nodes, markerNodes, errors, top } = sim;
      const base = 3 * s * nodes;
      coreToThree(simulated.subarray(base, base + 3 * nodes), clothPositions.array);
      clothPositions.needsUpdate = true;
      cloth.children[0].geometry.computeVertexNormals();
      for (let e = 0; e < edges.length; e += 2) {
        edgePositions.array.set(clothPositions.array.subarray(3 * edges[e], 3 * edges[e] + 3), 3 * e);
        edgePositions.array.set(clothPositions.array.subarray(3 * edges[e + 1], 3 * edges[e + 1] + 3), 3 * e + 3);
      }
      edgePositions.needsUpdate = true;
      const lp = errorLines.geometry.getAttribute('position');
      const lc = errorLines.geometry.getAttribute('color');
      let l = 0;
      for (let k = 0; k < m; k++) {
        if (!seen(k)) continue;
        put(lp.array, 6 * l, k);
        lp.array.set(clothPositions.array.subarray(3 * markerNodes[k], 3 * markerNodes[k] + 3), 6 * l + 3);
        const rgb = viridis(errors[s * m + k] / top);
        lc.array.set(rgb, 6 * l);
        lc.array.set(rgb, 6 * l + 3);
        l++;
      }
      errorLines.geometry.setDrawRange(0, 2 * l);
      lp.needsUpdate = true;
      lc.needsUpdate = true;
    }
    caption.textContent = `${(s * rec.dt).toFixed(2)} s · ${visibleCount} of ${m} markers seen`
      + (sim && errorCount ? ` · mean distance ${(errorSum / errorCount).toFixed(2)} cm` : '');
    stage.invalidate();
  }

  function showOverlays() {
    caption.hidden = !visible || !rec;
    bar.hidden = !visible || !sim;
  }

  function clear() {
    for (const layer of [dots, gridLines, errorLines, cloth]) dispose(layer);
    dots = gridLines = errorLines = cloth = null;
    rec = sim = null;
    obstacles.set([]);
    stage.invalidate();
  }

  return {
    canvas,
    // shows the view when `on` and a recording is set; returns whether it is shown
    show(on) {
      visible = stage.show(on && Boolean(rec));
      showOverlays();
      return visible;
    },
    // nothing to draw (a recording that could not be read)
    clear() {
      clear();
      showOverlays();
    },
    // markers: Float32Array (#steps+1) * #markers * 3 in grid order (rows from the top-left),
    // NaN where occluded; held: the two held markers' grid indices; obstacles: ObstacleView
    // shapes and poses, or null
    setRecording({ markers, cols, rows, held, dt, obstacles: shapes = null }) {
      clear();
      const m = cols * rows;
      rec = { markers, m, cols, rows, held, dt, steps: Math.floor(markers.length / (3 * m)) - 1 };
      dots = new THREE.InstancedMesh(sphere, new THREE.MeshBasicMaterial({ color: 0xffffff }), m); // unlit: the colour bar's colours
      dots.frustumCulled = false;
      dots.setColorAt(0, new THREE.Color(MARKER_COLOR)); // creates the colour attribute
      scene.add(dots);
      gridLines = lineSegments(2 * m);
      obstacles.set(shapes?.shapes ?? []);
      obstacles.update(shapes?.poses ?? null);
      shownStep = 0;
      frame();
      update();
      showOverlays();
      return rec.steps;
    },
    // simulated: Float32Array (#steps+1) * #nodes * 3; triangles: #triangles*3 node indices;
    // markerNodes: each grid marker's node; nodes: the mesh's node count
    setReplay({ simulated, triangles, markerNodes, nodes }) {
      if (!rec) return;
      dispose(errorLines);
      dispose(cloth);
      const { errors, top } = markerErrors({ simulated, markers: rec.markers, markerNodes, nodes });
      sim = { simulated, nodes, markerNodes, errors, top };
      const geometry = new THREE.BufferGeometry();
      clothPositions = new THREE.BufferAttribute(new Float32Array(3 * nodes), 3).setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', clothPositions);
      geometry.setIndex(Array.from(triangles));
      // see-through, so that recorded markers behind the simulated sheet stay visible
      const side = (color, s) => new THREE.MeshLambertMaterial({ color, side: s, transparent: true, opacity: 0.55, depthWrite: false });
      const front = new THREE.Mesh(geometry, side(FRONT_COLOR, THREE.FrontSide));
      const back = new THREE.Mesh(geometry, side(BACK_COLOR, THREE.BackSide));
      const seen = new Set();
      const pairs = [];
      for (let t = 0; t < triangles.length; t += 3) {
        for (let j = 0; j < 3; j++) {
          const a = triangles[t + j], b = triangles[t + (j + 1) % 3];
          const key = Math.min(a, b) * nodes + Math.max(a, b);
          if (!seen.has(key)) { seen.add(key); pairs.push(a, b); }
        }
      }
      edges = Uint32Array.from(pairs);
      const edgeGeometry = new THREE.BufferGeometry();
      edgePositions = new THREE.BufferAttribute(new Float32Array(3 * edges.length), 3).setUsage(THREE.DynamicDrawUsage);
      edgeGeometry.setAttribute('position', edgePositions);
      const wire = new THREE.LineSegments(edgeGeometry, new THREE.LineBasicMaterial({ color: 0x7a3a28, transparent: true, opacity: 0.5 }));
      cloth = new THREE.Group();
      cloth.add(front, back, wire);
      cloth.traverse((o) => { o.frustumCulled = false; });
      scene.add(cloth);
      errorLines = lineSegments(rec.m, { colors: true });
      bar.querySelector('.max').textContent = `${top} cm`;
      bar.querySelector('.mid').textContent = `${top / 2}`;
      frame();
      update();
      showOverlays();
    },
    showStep(step) {
      shownStep = step;
      update();
    },
    resetCamera: frame,
    // the obstacle types drawn (tests)
    obstacleTypes: () => obstacles.types(),
    // clearly coloured pixels of a fresh frame (the cloth, the error colours; not the grey
    // floor grid, the dark markers or the background), for tests
    colouredPixels: () => stage.countPixels(isColoured),
  };
}
