#!/usr/bin/env node
// The include-order check of the core: every `#include "..."` in wasm/core must go from a
// module (the first folder under wasm/core) to itself or to a module below it in the order
// declared here (docs/architecture.md repeats it). Prints the modules' include graph (the
// edges in order); exits 1 naming file:line and the forbidden edge for every include against
// the order, of a module the order does not know, or from a file outside every module.
//
//   node scripts/check_includes.mjs [core-folder]     (default: wasm/core of this checkout)

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// module -> the modules it may include directly; what those may include is allowed too
export const ORDER = {
  base: [],
  geometry: ['base'],
  linalg: ['base'],
  qp: ['linalg'],
  contact: ['qp', 'geometry'],
  cloth: ['contact'],
  scenario: ['geometry'],
  sim: ['cloth', 'scenario'],
  mocap: ['geometry'],
  dgli: ['geometry'],
  pointcloud: ['geometry'],
  morse: ['pointcloud'],
  fit: ['sim', 'mocap'],
  generators: ['sim', 'mocap', 'dgli'],
};

const SOURCE = /\.(h|hpp|cpp|cc)$/;
const INCLUDE = /^\s*#\s*include\s*"([^"]+)"/;

// module -> every module it may include (itself and everything below it); throws on a cycle
// or an unknown module in the order itself
export function allowedModules(order) {
  const allowed = new Map();
  const visit = (module, path) => {
    if (!(module in order)) throw new Error(`the order names an unknown module '${module}' (${path.join(' -> ')})`);
    if (path.includes(module)) throw new Error(`the order has a cycle: ${[...path, module].join(' -> ')}`);
    if (allowed.has(module)) return allowed.get(module);
    const below = new Set([module]);
    for (const next of order[module]) for (const m of visit(next, [...path, module])) below.add(m);
    allowed.set(module, below);
    return below;
  };
  for (const module of Object.keys(order)) visit(module, []);
  return allowed;
}

function sourceFiles(root, folder = root) {
  const files = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(root, path));
    else if (SOURCE.test(entry.name)) files.push(path);
  }
  return files;
}

// { problems: [message], edges: Map(module -> Map(included module -> count)), includes }
export function checkIncludes(root, order = ORDER) {
  const allowed = allowedModules(order);
  const problems = [];
  const edges = new Map(Object.keys(order).map((m) => [m, new Map()]));
  let includes = 0;
  for (const file of sourceFiles(root)) {
    const path = relative(root, file).split(sep).join('/');
    const from = path.includes('/') ? path.slice(0, path.indexOf('/')) : null;
    if (from === null || !(from in order)) {
      problems.push(`${path}: the file is in no module of the order (${Object.keys(order).join(', ')})`);
      continue;
    }
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const match = INCLUDE.exec(line);
      if (!match) return;
      ++includes;
      const target = match[1];
      const to = target.includes('/') ? target.slice(0, target.indexOf('/')) : null;
      const where = `${path}:${index + 1}`;
      if (to === null || !(to in order)) {
        problems.push(`${where}: #include "${target}" names no module of the order ` +
                      `(includes are <module>/<path> from wasm/core; modules: ${Object.keys(order).join(', ')})`);
      } else if (!allowed.get(from).has(to)) {
        problems.push(`${where}: ${from} -> ${to} (#include "${target}") is against the order: ` +
                      `${from} may include ${[...allowed.get(from)].sort().join(', ')}`);
      } else if (to !== from) {
        edges.get(from).set(to, (edges.get(from).get(to) ?? 0) + 1);
      }
    });
  }
  return { problems, edges, includes };
}

function main() {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(process.argv[2] ?? join(here, '..', 'wasm', 'core'));
  const { problems, edges, includes } = checkIncludes(root);
  const width = Math.max(...Object.keys(ORDER).map((m) => m.length));
  console.log(`include order: ${includes} includes in ${relative(process.cwd(), root) || '.'}, ` +
              (problems.length ? `${problems.length} against the order` : 'all in order'));
  for (const [module, targets] of edges) {
    const list = [...targets.keys()].sort().join(', ');
    console.log(`  ${module.padEnd(width)} -> ${list || '(nothing)'}`);
  }
  if (problems.length) {
    console.error(`include order: ${problems.length} include(s) against the order of the core (scripts/check_includes.mjs)`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
