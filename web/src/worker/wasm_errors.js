// What the page's workers say when their WebAssembly module does not load or stops.
//
// The simulator module is compiled with WebAssembly SIMD (CMakeLists.txt). A browser without
// it (before Chrome 91, Firefox 89, Safari 16.4) cannot compile the module; the workers' load
// errors then say so instead of only repeating the engine's message.

// a module whose one function returns i8x16.popcnt(i8x16.splat(0)): valid only with SIMD
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function hasWasmSimd() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

// `what` failed to load because of `err`: the message a worker posts
export function loadFailure(what, err, simd = hasWasmSimd()) {
  const hint = simd ? '' : ' (this browser lacks WebAssembly SIMD: use Chrome 91, Firefox 89, Safari 16.4 or later)';
  return `${what}: ${err?.message ?? err}${hint}`;
}

// A WebAssembly trap or abort (memory exhausted, or an internal error) leaves the module's heap
// unusable (what a worker then does: worker/loop.js).
export function isWasmFailure(err) {
  return typeof WebAssembly === 'object' && err instanceof WebAssembly.RuntimeError;
}

// The message for such a failure of `what`. `module` is the Emscripten module (its heap size
// tells how much memory it held when it stopped); `next`: what happens now and what the
// person can do.
export function wasmFailure(what, err, module, next = 'It has been restarted.') {
  const bytes = module?.HEAP8?.buffer?.byteLength ?? 0;
  const held = bytes ? ` (it held ${(bytes / 2 ** 30).toFixed(1)} GB of the 4 GB a page's module can have)` : '';
  const reason = String(err?.message ?? err).replace(/\s*Build with -s ASSERTIONS=1 for more info\.?/, '');
  // abort() without a message is what a failed allocation ends in (no exceptions in the module)
  const happened = /^Aborted\(\)\.?$/.test(reason)
    ? 'the WebAssembly module aborted, most likely because its memory ran out'
    : `the WebAssembly module failed (${reason}), out of memory or an internal error`;
  return `${what} stopped: ${happened}${held}. ${next}`;
}
