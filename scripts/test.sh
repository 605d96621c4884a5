#!/usr/bin/env bash
# Builds cuzk and runs every test through CTest (the command README.md and .ci/run use).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/check-format.sh
./scripts/build.sh "$@"
# Tests labelled slow (512 MiB sectors and the like) run with `ctest --test-dir build -L slow`.
ctest --test-dir build --output-on-failure -LE slow -j "${CUZK_JOBS:-$(nproc)}"
