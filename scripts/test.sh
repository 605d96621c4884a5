#!/usr/bin/env bash
# Builds cuzk and runs every test through CTest (the command README.md and .ci/run use).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/check-format.sh
./scripts/build.sh "$@"
# Tests labelled slow (512 MiB sectors and the like) run with `ctest --test-dir build -L slow`.
ctest --test-dir build --output-on-failure -LE slow -j "${CUZK_JOBS:-$(nproc)}"
# Then the sanitizer builds (TSan, ASan + UBSan; scripts/sanitize.sh) and a bounded run of every
# fuzz target (scripts/fuzz-smoke.sh), clang, CUDA off; CUZK_SANITIZE=0 / CUZK_FUZZ=0 skip them.
if [[ ${CUZK_SANITIZE:-1} != 0 ]]; then ./scripts/sanitize.sh; fi
if [[ ${CUZK_FUZZ:-1} != 0 ]]; then ./scripts/fuzz-smoke.sh; fi
