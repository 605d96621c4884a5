#!/usr/bin/env bash
# Configures and builds cuzk into build/ (programs in build/bin, tests in build/tests).
# Extra arguments go to the CMake configure step, e.g. -DCUZK_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${CUZK_JOBS:-$(nproc)}
# ccache keys on paths relative to the build directory, so clones in other folders (CI, worktrees)
# share one cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$JOBS"
