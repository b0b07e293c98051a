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
