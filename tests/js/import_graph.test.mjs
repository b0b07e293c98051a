// The page's modules (web/src) import each other without a cycle, and every relative import
// names a file that exists. The checker reads the static `import ... from './x.js'`
// statements (and bare `import './x.css'`); it is tested on a planted cycle first.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'web/src');

// the relative module specifiers a module's text imports (static imports and re-exports)
export function importsOf(text) {
  const specifiers = [];
  const pattern = /^\s*(?:import|export)\s+(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) specifiers.push(match[1].replace(/\?.*$/, ''));
  return specifiers;
}

// graph: Map(module -> [modules it imports]); -> a cycle as [a, b, ..., a], or null
export function findCycle(graph) {
  const state = new Map(); // module -> 'open' (on the path) | 'done'
  const path = [];
  function visit(node) {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  }
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return null;
}

// the import graph of the .js files under `dir` (paths relative to it); missing: imports
// that name no file (the WebAssembly module in wasm/ is the build's, copied there by
// scripts/build.sh)
function moduleGraph(dir) {
  const built = join(dir, 'wasm');
  const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js') && !join(dir, f).startsWith(built));
  const graph = new Map();
  const missing = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const targets = [];
    for (const specifier of importsOf(text)) {
      const target = resolve(dir, dirname(file), specifier);
      if (!existsSync(target) && !target.startsWith(built)) missing.push(`${file} imports ${specifier}`);
      else if (target.startsWith(dir) && target.endsWith('.js')) targets.push(relative(dir, target));
    }
    graph.set(file, targets);
  }
  return { graph, missing };
}

describe('the checker', () => {
  test('reads static imports, re-exports and side-effect imports, not bare packages', () => {
    const text = [
      "import * as THREE from 'three';",
      "import { a, b } from './a.js';",
      "import {\n  c,\n} from '../ui/c.js';",
      "import './style.css';",
      "import shader from '../../shaders/x.glsl?raw';",
      "export { d } from './d.js';",
      "const w = new Worker(new URL('./worker.js', import.meta.url));",
    ].join('\n');
    assert.deepEqual(importsOf(text), ['./a.js', '../ui/c.js', './style.css', '../../shaders/x.glsl', './d.js']);
  });

  test('finds a planted cycle and passes an acyclic graph', () => {
    const acyclic = new Map([['main.js', ['app/app.js', 'ui/dom.js']], ['app/app.js', ['ui/dom.js']], ['ui/dom.js', []]]);
    assert.equal(findCycle(acyclic), null);
    const planted = new Map([...acyclic, ['ui/dom.js', ['render/view.js']], ['render/view.js', ['render/stand.js']],
      ['render/stand.js', ['ui/dom.js']]]);
    assert.deepEqual(findCycle(planted), ['ui/dom.js', 'render/view.js', 'render/stand.js', 'ui/dom.js']);
    assert.deepEqual(findCycle(new Map([['a.js', ['a.js']]])), ['a.js', 'a.js']);
  });
});

describe('web/src', () => {
  const { graph, missing } = moduleGraph(src);

  test('every relative import names a file', () => {
    assert.ok(graph.size > 20, `only ${graph.size} modules read under ${src}`);
    assert.deepEqual(missing, []);
  });

  test('no import cycle', () => {
    const cycle = findCycle(graph);
    assert.equal(cycle, null, `import cycle: ${cycle?.join(' -> ')}`);
  });
});
