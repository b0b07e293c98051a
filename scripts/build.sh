#!/usr/bin/env bash
# Builds the native targets (build/: tela, tela_tests, tela_bench) and the WebAssembly module
# (build-wasm/: tela.mjs + tela.wasm), then copies the module into web/src/wasm/ for the page.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${TELA_JOBS:-2}

start=$SECONDS
echo "build: native (build/)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
echo "build: native took $((SECONDS - start)) s"

start=$SECONDS
echo "build: wasm (build-wasm/)"
# Debian's emscripten 3.1.6 with Node 20 (docs/toolchain.md, "Emscripten 3.1.6 with Node 20"):
# acorn lives in /usr/share/nodejs (trap 1), and the default emulator flag
# --experimental-wasm-threads is rejected (trap 2).
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
cmake --build build-wasm -j"$jobs"

mkdir -p web/src/wasm
cp build-wasm/tela.mjs build-wasm/tela.wasm web/src/wasm/
echo "build: wasm took $((SECONDS - start)) s; copied tela.mjs + tela.wasm to web/src/wasm/"
