// The include-order check (scripts/check_includes.mjs): the core's includes follow the
// declared module order, and the check fails, naming file:line and the edge, on a planted
// back edge and on an include of a module the order does not know.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { allowedModules, ORDER } from '../../scripts/check_includes.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = join(root, 'scripts/check_includes.mjs');

function check(...args) {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 30000 });
  assert.equal(run.error, undefined, run.error?.message);
  return run;
}

// a small core: files { 'module/file.h': text }
function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'tela-includes-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const IN_ORDER = {
  'base/result.h': '#pragma once\n#include <string>\n',
  'geometry/mesh.h': '#pragma once\n#include "base/result.h"\n',
  'contact/obstacle.h': '#pragma once\n#include "geometry/mesh.h"\n#include "base/result.h"\n',
  'cloth/model.h': '#pragma once\n#include "contact/obstacle.h"\n',
  'cloth/model.cpp': '#include "cloth/model.h"\n#include "base/result.h"\n',
};

describe('include order', () => {
  const dirs = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test("the core's includes follow the declared order", () => {
    const run = check();
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /all in order/);
    assert.match(run.stdout, /cloth\s+-> .*contact/);
  });

  test('the declared order is acyclic; a cycle in it is refused', () => {
    assert.deepEqual([...allowedModules(ORDER).get('cloth')].sort(),
      ['base', 'cloth', 'contact', 'geometry', 'linalg', 'qp']);
    assert.throws(() => allowedModules({ a: ['b'], b: ['a'] }), /cycle: a -> b -> a/);
  });

  test('a tree in order passes and prints its module graph', () => {
    const dir = tree(IN_ORDER);
    dirs.push(dir);
    const run = check(dir);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /contact\s+-> base, geometry/);
    assert.match(run.stdout, /cloth\s+-> base, contact/);
  });

  test('a planted back edge fails, naming the file, the line and the edge', () => {
    const dir = tree({
      ...IN_ORDER,
      'contact/obstacle.cpp': '#include "contact/obstacle.h"\n\n#include "cloth/model.h"\n',
    });
    dirs.push(dir);
    const run = check(dir);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /contact\/obstacle\.cpp:3: contact -> cloth \(#include "cloth\/model\.h"\)/);
    assert.equal(run.stderr.match(/->/g).length, 1, `only the planted edge is named:\n${run.stderr}`);
  });

  test('an include of an unknown module fails', () => {
    const dir = tree({ ...IN_ORDER, 'geometry/mesh.cpp': '#include "geometry/mesh.h"\n#include "render/view.h"\n' });
    dirs.push(dir);
    const run = check(dir);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /geometry\/mesh\.cpp:2: #include "render\/view\.h" names no module of the order/);
  });

  test('a file outside every module fails', () => {
    const dir = tree({ ...IN_ORDER, 'tools/dump.cpp': '#include <cstdio>\n' });
    dirs.push(dir);
    const run = check(dir);
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /tools\/dump\.cpp: the file is in no module of the order/);
  });
});
