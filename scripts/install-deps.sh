#!/usr/bin/env bash
# Installs every Debian package cuzk needs to build, test and run. Idempotent: packages already
# present are left alone, so a second run does no network work.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build ccache pkg-config git clang-format
  libgtest-dev libgmock-dev libbenchmark-dev libgmp-dev
  libtbb-dev nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libspdlog-dev libfmt-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libsqlite3-dev libssl-dev libsimdjson-dev libcivetweb-dev
  # clang with its sanitizer and libFuzzer runtimes, llvm-symbolizer for their stack traces
  # (scripts/sanitize.sh, scripts/fuzz-smoke.sh)
  clang libclang-rt-14-dev llvm
)
# node and npm run the snarkjs/circom interop tests; any installed Node.js will do.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then PKGS+=(nodejs npm); fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
