#!/usr/bin/env bash
# Installs what tela needs on a Debian 12 machine, and nothing when it is all there.
#   Debian packages: the Emscripten toolchain, header-only C++ libraries, CMake, Chromium.
#   npm packages: from package-lock.json (npm ci), when node_modules is missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(emscripten libeigen3-dev libnanoflann-dev nlohmann-json3-dev doctest-dev
          cmake chromium g++ make)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y "${missing[@]}"
else
  echo "setup: Debian packages present"
fi

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
else
  echo "setup: node_modules up to date"
fi
