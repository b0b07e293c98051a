// Where "add an obstacle" of the Simulate form puts a new one: under the cloth, clear of it and
// of the scene's other obstacles.

// The top of the highest obstacle of `obstacles` (scenario objects, core frame, z up) over the
// point (x, y) that is not above `z`; null when there is none. Planes count where they are
// horizontal, cylinders by the top of their circle (vertical ones by their end), sticks and
// needle fields not at all.
function surfaceBelow(obstacles, x, y, z) {
  let top = null;
  for (const o of obstacles ?? []) {
    const c = o.center ?? [0, 0, 0];
    let t = null;
    if (o.type === 'plane') {
      const n = o.normal ?? [0, 0, 1], p = o.point ?? [0, 0, 0];
      if (n[2] > 0.99 * Math.hypot(...n)) t = p[2] - (n[0] * (x - p[0]) + n[1] * (y - p[1])) / n[2];
    } else if (o.type === 'box') {
      const s = o.size ?? [1, 1, 1];
      if (Math.abs(x - c[0]) <= s[0] / 2 && Math.abs(y - c[1]) <= s[1] / 2) t = c[2] + s[2] / 2;
    } else if (o.type === 'sphere') {
      const r = o.radius ?? 0.1, d2 = (x - c[0]) ** 2 + (y - c[1]) ** 2;
      if (d2 < r * r) t = c[2] + Math.sqrt(r * r - d2);
    } else if (o.type === 'cylinder') {
      const r = o.radius ?? 0.1, len = o.length ?? 0;
      const a0 = o.axis ?? [0, 0, 1], an = Math.hypot(...a0), a = a0.map((v) => v / an);
      if (Math.abs(a[2]) > 0.9) {
        if (Math.hypot(x - c[0], y - c[1]) < r) t = len > 0 ? c[2] + Math.abs(a[2]) * len / 2 + r * Math.sqrt(1 - a[2] * a[2]) : Infinity;
      } else {
        const d = [x - c[0], y - c[1], 0], along = d[0] * a[0] + d[1] * a[1];
        const across = Math.hypot(d[0] - along * a[0], d[1] - along * a[1]);
        if ((len === 0 || Math.abs(along) <= len / 2) && across < r) t = c[2] + along * a[2] + r;
      }
    }
    if (t !== null && t <= z + 1e-9 && (top === null || t > top)) top = t;
  }
  return top;
}

// The highest top (surfaceBelow, no higher than z) over the rectangle [x0, x1] × [y0, y1],
// sampled on a 17 × 17 grid; null when nothing is under it.
function surfaceUnder(obstacles, [x0, x1], [y0, y1], z) {
  let top = null;
  for (let i = 0; i <= 16; i++) {
    for (let j = 0; j <= 16; j++) {
      const t = surfaceBelow(obstacles, x0 + (x1 - x0) * i / 16, y0 + (y1 - y0) * j / 16, z);
      if (t !== null && (top === null || t > top)) top = t;
    }
  }
  return top;
}

// A new obstacle of `type` for a cloth whose positions span `bounds` ({ min, max } in the core
// frame, z up), among the scene's `obstacles`: under the cloth's centre with its top 5 cm below
// the cloth's lowest point, so that the run starts clear of it and the cloth falls or hangs
// onto it; a table reaches down to the surface below (75 cm when there is none). Where that
// room is taken (a napkin lying on a table, a sheet just over a cylinder) the obstacle stands
// beside the cloth, 5 cm past its +x side, on top of whatever is there, instead of inside
// another obstacle.
export function newObstacle(type, bounds, obstacles = []) {
  const min = bounds?.min ?? [-0.5, -0.5, 1], max = bounds?.max ?? [0.5, 0.5, 1];
  const c = [0, 1].map((k) => (min[k] + max[k]) / 2);
  const extent = [0, 1, 2].map((k) => max[k] - min[k]);
  const below = min[2] - 0.05;
  const r3 = (v) => Number(v.toFixed(3));
  // what is under the cloth and the 20 cm around it (a new table's footprint)
  const under = surfaceUnder(obstacles, [min[0] - 0.2, max[0] + 0.2], [min[1] - 0.2, max[1] + 0.2], min[2]);
  const room = under === null ? Infinity : below - under;
  if (type === 'plane') return { type, mu: 0.4, point: [0, 0, r3(Math.min(0, below, under ?? 0))], normal: [0, 0, 1] };
  const radius = r3(Math.min(0.5, Math.max(0.05, 0.25 * Math.max(...extent))));
  // beside the cloth, an obstacle of half-widths (hx, hy): its centre x and the height it
  // stands on (the top of what is there, or level with the cloth's lowest point)
  const beside = (hx, hy) => {
    const x = max[0] + 0.05 + hx;
    const ground = surfaceUnder(obstacles, [x - hx, x + hx], [c[1] - hy, c[1] + hy], Infinity);
    return { x: r3(x), base: ground !== null && Number.isFinite(ground) ? ground : min[2] };
  };
  if (type === 'box') {
    if (room >= 0.05) {
      // a table whose top is `below`, reaching 20 cm past the cloth on every side
      const height = Math.min(0.75, room);
      return { type, mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - height / 2)],
        size: [r3(extent[0] + 0.4), r3(extent[1] + 0.4), r3(height)] };
    }
    const side = 2 * radius, at = beside(side / 2, side / 2);
    return { type, mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + side / 2)], size: [r3(side), r3(side), r3(side)] };
  }
  if (type === 'sphere') {
    if (room >= 2 * radius) return { type, mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - radius)], radius };
    const at = beside(radius, radius);
    return { type, mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + radius)], radius };
  }
  // cylinder (radius 10 cm): horizontal, along the cloth's wider horizontal side, reaching past
  // it; beside the cloth, along y
  if (room >= 0.2) {
    const alongX = extent[0] >= extent[1];
    return { type: 'cylinder', mu: 0.4, center: [r3(c[0]), r3(c[1]), r3(below - 0.1)], axis: alongX ? [1, 0, 0] : [0, 1, 0],
      radius: 0.1, length: r3(Math.max(extent[0], extent[1]) + 0.4) };
  }
  const at = beside(0.1, extent[1] / 2 + 0.2);
  return { type: 'cylinder', mu: 0.4, center: [at.x, r3(c[1]), r3(at.base + 0.1)], axis: [0, 1, 0], radius: 0.1,
    length: r3(extent[1] + 0.4) };
}
