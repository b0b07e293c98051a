// What the page does when a WebAssembly module stops (an allocation that does not fit in the
// 4 GB a module can have, a trap): the message a worker posts (web/src/wasm-load.js) and the
// analysis workers' client starting a fresh worker after one marked fatal
// (web/src/ui/worker_client.js). The trap is a real one, from a one-instruction module.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isWasmFailure, wasmFailure } from '../../web/src/wasm-load.js';
import { createWorkerClient } from '../../web/src/ui/worker_client.js';

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
    // first request fatally, as web/src/morse/worker.js does after a trap, and closes
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
