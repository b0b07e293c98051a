// What the page does when a WebAssembly module stops (an allocation that does not fit in the
// 4 GB a module can have, a trap): the message a worker posts (web/src/worker/wasm_errors.js),
// the workers' message loop answering with it (web/src/worker/loop.js), and the analysis
// workers' client starting a fresh worker after one marked fatal (web/src/worker/client.js).
// The trap is a real one, from a one-instruction module.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isWasmFailure, wasmFailure } from '../../web/src/worker/wasm_errors.js';
import { createWorkerClient } from '../../web/src/worker/client.js';
import { serveMessages } from '../../web/src/worker/loop.js';

// (module (func (export "trap") unreachable))
const TRAP = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 8, 1, 4, 116, 114, 97, 112, 0, 0, 10, 5, 1, 3, 0, 0, 11,
]);

function trap() {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(TRAP));
  try {
    exports.trap();
  } catch (err) {
    return err;
  }
  throw new Error('the module did not trap');
}

describe('a stopped WebAssembly module', () => {
  test('a trap is recognised and described; other errors are not fatal', () => {
    const err = trap();
    assert.ok(isWasmFailure(err));
    assert.ok(!isWasmFailure(new Error('cleaning: voxel must be > 0')));
    assert.ok(!isWasmFailure(new TypeError('x is undefined')));
    const heap = { HEAP8: { buffer: { byteLength: 3.9 * 2 ** 30 } } };
    const message = wasmFailure('Reading the cloud', err, heap, 'It has been restarted.');
    assert.match(message, /^Reading the cloud stopped: the WebAssembly module failed \(unreachable.*\), out of memory or an internal error \(it held 3\.9 GB of the 4 GB a page's module can have\)\. It has been restarted\.$/);
  });

  test("Emscripten's abort (a failed allocation) is named as such, without the build hint", () => {
    // what the module throws when an allocation fails: abort() raises a RuntimeError
    const abort = new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.');
    assert.ok(isWasmFailure(abort));
    const message = wasmFailure('The simulator', abort, null, 'Reload the page.');
    assert.equal(message, 'The simulator stopped: the WebAssembly module aborted, most likely because its memory ran out. Reload the page.');
  });

  test('after a fatal error the client answers every pending request and starts a fresh worker', async () => {
    const made = [];
    // a stand-in for the worker thread (the client's protocol only): the first one fails its
    // first request fatally, as web/src/reconstruct/worker.js does after a trap (web/src/worker/loop.js), and closes
    const makeWorker = () => {
      const index = made.length;
      const worker = {
        terminated: false,
        postMessage(message) {
          setTimeout(() => {
            if (index === 0 && message.type === 'parse')
              worker.onmessage({ data: { type: 'error', id: message.id, fatal: true, message: 'Reading the cloud stopped: …' } });
            else if (index === 0) return; // queued behind the failed one: never answered
            else worker.onmessage({ data: { type: 'result', id: message.id, result: { ok: true, from: index }, ms: 1 } });
          }, 1);
        },
        terminate() {
          worker.terminated = true;
        },
      };
      made.push(worker);
      return worker;
    };
    const client = createWorkerClient(makeWorker, { name: 'reconstruction' });
    const first = client.request({ type: 'parse' });
    const queued = client.request({ type: 'clean' });
    assert.deepEqual(await first, { ok: false, error: 'Reading the cloud stopped: …' });
    assert.deepEqual(await queued, { ok: false, error: 'the reconstruction worker was restarted after an earlier failure; try again' });
    assert.equal(made.length, 1);
    assert.ok(!client.busy());
    const again = await client.request({ type: 'parse' });
    assert.equal(made.length, 2);
    assert.deepEqual(again, { ok: true, from: 1, ms: 1 });
  });
});

// A stand-in for a worker's global scope: what the loop posts, and whether it closed.
function workerScope() {
  const scope = { posted: [], closed: false, postMessage(message, transfer = []) { scope.posted.push({ message, transfer }); } };
  globalThis.self = scope;
  globalThis.close = () => { scope.closed = true; };
  scope.send = (data) => scope.onmessage({ data });
  return scope;
}
const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the workers\' message loop', () => {
  test('messages wait for the module and are handled in order; answers carry their id, stages and transfers', async () => {
    const scope = workerScope();
    let loaded;
    const handled = [];
    serveMessages({
      load: () => new Promise((resolve) => { loaded = resolve; }),
      handle(message, { stage }) {
        handled.push(message.type);
        if (message.type === 'big') stage('working');
        return { ok: true, values: new Float64Array([1, 2]), nested: { more: new Uint8Array(3) } };
      },
      name: 'test', what: 'The test', loadError: 'the test module could not be loaded',
    });
    scope.send({ id: 1, type: 'big' });
    scope.send({ type: 'command' });
    scope.send({ id: 2, type: 'small' });
    await settled();
    assert.deepEqual(handled, []);
    loaded({});
    await settled();
    assert.deepEqual(handled, ['big', 'command', 'small']);
    const messages = scope.posted.map((p) => p.message);
    assert.deepEqual(messages.map((m) => [m.type, m.id]), [['stage', 1], ['result', 1], ['result', 2]]);
    assert.equal(messages[0].stage, 'working');
    assert.equal(scope.posted[1].transfer.length, 2);
  });

  test('a module that did not load: every message is answered with why', async () => {
    const scope = workerScope();
    serveMessages({ load: () => Promise.reject(new Error('no such file')), handle: () => ({ ok: true }),
      name: 'test', what: 'The test', loadError: 'the test module could not be loaded' });
    scope.send({ id: 7, type: 'parse' });
    await settled();
    const [first, second] = scope.posted.map((p) => p.message);
    assert.equal(first.type, 'error');
    assert.equal(first.id, undefined);
    assert.match(first.message, /^the test module could not be loaded: no such file/);
    assert.deepEqual(second, { type: 'error', id: 7, message: first.message });
  });

  test('after a trap: fatal and closed with restart, else every later message is answered with it', async () => {
    for (const restart of [true, false]) {
      const scope = workerScope();
      const failures = [];
      serveMessages({
        load: async () => ({}),
        handle(message) {
          if (message.type === 'trap') throw trap();
          if (message.type === 'bug') throw new TypeError('x is undefined');
          return { ok: true };
        },
        name: 'test', what: (message) => `The ${message.type}`, next: 'Start again.', loadError: 'not loaded', restart,
        onFailure: (message, fatal) => failures.push(fatal),
      });
      scope.send({ id: 1, type: 'bug' });
      scope.send({ id: 2, type: 'trap' });
      scope.send({ id: 3, type: 'fine' });
      await settled();
      const messages = scope.posted.map((p) => p.message);
      assert.deepEqual(messages[0], { type: 'error', id: 1, message: 'test (bug): x is undefined' });
      assert.equal(messages[1].id, 2);
      assert.match(messages[1].message, /^The trap stopped: the WebAssembly module failed \(unreachable.*\. Start again\.$/);
      assert.deepEqual(failures, [false, true]);
      if (restart) {
        assert.equal(messages[1].fatal, true);
        assert.ok(scope.closed);
        assert.equal(messages.length, 2); // the client answers what was queued behind the trap
      } else {
        assert.ok(!scope.closed);
        assert.deepEqual(messages[2], { type: 'error', id: 3, message: messages[1].message });
      }
    }
  });
});
