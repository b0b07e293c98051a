// The two boundary segments of a hovered dGLI matrix entry, drawn on a 2D canvas over the view
// that shows the classified boundary: the simulator's (the simulated frame) or the panel's own
// (classify/view.js: an opened OBJ state, a reconstructed boundary).
import * as THREE from 'three';
import { coreToThree } from '../render/core_frame.js';
import { el } from '../ui/dom.js';

const HIGHLIGHT = ['#e07b00', '#7a1fa2'];

// The overlay canvas, inserted into the viewport under the read-outs. draw({ segments (the
// classification's, core frame), hover ([i, j] or null), camera, canvas (the view drawn on),
// shown }) -> the number of segments drawn
export function createHighlight(viewport) {
  const overlay = el('canvas', { className: 'segment-overlay', hidden: true });
  viewport.insertBefore(overlay, viewport.children[1] ?? null);
  return {
    overlay,
    draw({ segments, hover, camera, canvas, shown }) {
      const w = canvas?.clientWidth ?? 0, h = canvas?.clientHeight ?? 0;
      overlay.width = w;
      overlay.height = h;
      const ctx = overlay.getContext('2d');
      ctx.clearRect(0, 0, w, h);
      if (!shown || !hover || !segments || !camera) return 0;
      const p = new Float64Array(3);
      const v = new THREE.Vector3();
      let drawn = 0;
      hover.forEach((s, k) => {
        const ends = [];
        for (let e = 0; e < 2; e++) {
          coreToThree(segments.subarray(6 * s + 3 * e, 6 * s + 3 * e + 3), p);
          v.set(p[0], p[1], p[2]).project(camera);
          ends.push([(v.x + 1) / 2 * w, (1 - v.y) / 2 * h]);
        }
        ctx.strokeStyle = HIGHLIGHT[k];
        ctx.lineWidth = 5;
        ctx.lineCap = 'round';
        ctx.beginPath();
        ctx.moveTo(...ends[0]);
        ctx.lineTo(...ends[1]);
        ctx.stroke();
        ctx.fillStyle = HIGHLIGHT[k];
        ctx.font = 'bold 12px system-ui';
        ctx.fillText(`s${s}`, (ends[0][0] + ends[1][0]) / 2 + 6, (ends[0][1] + ends[1][1]) / 2 - 6);
        drawn++;
      });
      return drawn;
    },
  };
}

// the matrix entry [i, j] under the pointer on a canvas of an m x m matrix, or null
export function entryAt(event, matrix, m) {
  const r = matrix.getBoundingClientRect();
  const j = Math.floor(((event.clientX - r.left) / r.width) * m);
  const i = Math.floor(((event.clientY - r.top) / r.height) * m);
  return i >= 0 && j >= 0 && i < m && j < m ? [i, j] : null;
}
