#!/usr/bin/env bash
# Builds cuzk and runs every test through CTest (the command README.md and .ci/run use).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/check-format.sh
./scripts/build.sh "$@"
ctest --test-dir build --output-on-failure -j "${CUZK_JOBS:-$(nproc)}"
