#!/usr/bin/env bash
# npm test: installs what is missing (scripts/setup.sh), builds (scripts/build.sh), then runs
# the C++ unit suites (ctest label `unit`, with a short run of every named scene), the wasm and
# command-line suites under node (tests/js), builds the page and drives it in Chromium
# (tests/e2e). Prints the time of each stage. The long validation runs are `npm run validate`.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test: $name took $((SECONDS - start)) s"
}

scripts/setup.sh
stage "build" scripts/build.sh
stage "C++ unit suites" ctest --test-dir build -L unit --output-on-failure -j2
stage "wasm and CLI suites" node --test --test-concurrency=2 tests/js
stage "page build" npx vite build
stage "page suites" node --test tests/e2e
