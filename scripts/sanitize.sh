#!/usr/bin/env bash
# Sanitizer builds and their tests (docs/testing.md); scripts/test.sh runs this after the normal
# tests unless CUZK_SANITIZE=0. Each build is a CMake preset (CMakePresets.json), clang, CUDA off:
#   build-tsan  ThreadSanitizer (CUZK_SANITIZE=thread): the tests of every module that runs threads
#               (base, ec, poly, msm, r1cs, filecoin, backend, groth16, formats, engine, server);
#   build-asan  AddressSanitizer + UBSan (CUZK_SANITIZE=address, CUZK_FUZZ=ON): the parsers and what
#               lies beneath them (ec, formats, r1cs, hash, filecoin, engine config and journal)
#               and the fuzz corpus replays; the fuzz targets of scripts/fuzz-smoke.sh share it.
# The tests are those the module lists in CMakeLists.txt select (<build>/sanitize-tests.regex),
# without the ones labelled slow. Arguments: which to run, `thread` and/or `address` (default both).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${CUZK_JOBS:-$(nproc)}
# ccache keys on paths relative to this folder, so every clone and worktree shares one cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
# These builds are -g: without this ccache would also key on the build folder's absolute path.
export CCACHE_NOHASHDIR=1

# halt_on_error: the first report fails the test. scripts/tsan.supp silences third-party code only.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$(pwd)/scripts/tsan.supp ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

run() {
  local sanitizer=$1 preset dir start
  case $sanitizer in
    thread) preset=tsan dir=build-tsan ;;
    address) preset=asan dir=build-asan ;;
    *) echo "sanitize: unknown sanitizer '$sanitizer' (thread, address)" >&2; exit 2 ;;
  esac
  start=$SECONDS
  echo "== sanitize: $preset: configure and build ($dir)"
  mkdir -p "$dir"
  cmake --preset "$preset" >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
  # The tests of the build's list that are not labelled slow (ctest -N reads them from the
  # configured tree): only their binaries are built.
  local tests
  mapfile -t tests < <(ctest --test-dir "$dir" -N -LE slow -R "$(cat "$dir/sanitize-tests.regex")" |
    sed -n 's/^ *Test *#[0-9]*: *//p')
  ((${#tests[@]})) || { echo "sanitize: $preset: no tests selected" >&2; exit 1; }
  cmake --build "$dir" -j "$JOBS" --target "${tests[@]}"
  local built=$SECONDS
  echo "== sanitize: $preset: ${#tests[@]} tests"
  local IFS='|'
  ctest --test-dir "$dir" --output-on-failure -j "$JOBS" -R "^(${tests[*]})\$"
  echo "== sanitize: $preset: build $((built - start)) s, tests $((SECONDS - built)) s"
}

if (($# == 0)); then set -- thread address; fi
for s in "$@"; do run "$s"; done
