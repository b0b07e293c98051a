#!/usr/bin/env bash
# The C++ unit suites (ctest label `unit`) under AddressSanitizer and UndefinedBehaviorSanitizer
# (g++), in build-asan/. Not part of `npm test` (about 3x slower than the Release suites). Usage:
#   scripts/sanitize.sh [CTEST_ARGS...]      e.g. scripts/sanitize.sh -R 'mocap|pointcloud'
# Any report fails the test that triggered it (halt_on_error, no recovery from UB).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
  >/dev/null
cmake --build build-asan -j"$(nproc)" --target tela_tests tela
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan -L unit --output-on-failure -j"$(nproc)" "$@"
