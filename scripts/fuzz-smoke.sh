#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, the asan preset: clang, ASan + UBSan, CUZK_FUZZ=ON, in
# build-asan, shared with scripts/sanitize.sh) and runs each for a bounded time from its seed corpus
# (fuzz/corpus/<target>); scripts/test.sh runs this unless CUZK_FUZZ=0. New inputs go to a scratch
# corpus, never into the source tree. A crash fails the script and leaves the input in
# build-asan/fuzz-smoke/<target>/ (crash-*, ...): add it to fuzz/corpus/<target>/ once fixed.
#   CUZK_FUZZ_SECONDS   time per target (default 10)
#   CUZK_JOBS           build jobs, and targets fuzzed at a time (default: the core count)
#   arguments           the targets to run (default all, as listed in build-asan/fuzz-targets.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${CUZK_JOBS:-$(nproc)}
SECONDS_PER=${CUZK_FUZZ_SECONDS:-10}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)} CCACHE_NOHASHDIR=1  # as in sanitize.sh
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
dir=build-asan
start=$SECONDS
mkdir -p "$dir"
cmake --preset asan >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
if (($# == 0)); then mapfile -t targets <"$dir/fuzz-targets.txt"; else targets=("$@"); fi
cmake --build "$dir" -j "$JOBS" --target "${targets[@]/#/fuzz_}"
built=$SECONDS
out=$dir/fuzz-smoke
# One target per core at a time (CUZK_JOBS); each writes its log and, when it fails, its input to
# $out/<target>/; the results print in the targets' order once all have run.
fuzz_one() {
  local t=$1
  rm -rf "${out:?}/$t" && mkdir -p "$out/$t/corpus"
  # -rss_limit_mb / -malloc_limit_mb: an input that makes a parser allocate more than 2 GiB is a
  # finding (a length field trusted before it is checked), not an out-of-memory of the machine.
  if "$dir/fuzz/fuzz_$t" -max_total_time="$SECONDS_PER" -timeout=30 -rss_limit_mb=2560 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/$t/" \
    "$out/$t/corpus" "fuzz/corpus/$t" >"$out/$t/log" 2>&1; then
    echo ok >"$out/$t/result"
  else
    echo failed >"$out/$t/result"
  fi
}
for t in "${targets[@]}"; do
  [[ -n $t ]] || continue
  while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=()
for t in "${targets[@]}"; do
  [[ -n $t ]] || continue
  if [[ $(cat "$out/$t/result" 2>/dev/null) == ok ]]; then
    echo "fuzz-smoke: $t: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$out/$t/log" |
      grep -o '[0-9]*$') runs, ok"
  else
    echo "fuzz-smoke: $t: FAILED (input and log in $out/$t/)"
    tail -40 "$out/$t/log"
    failed+=("$t")
  fi
done
echo "fuzz-smoke: build $((built - start)) s, fuzzing $((SECONDS - built)) s (${#targets[@]} targets × ${SECONDS_PER} s, $JOBS at a time)"
if ((${#failed[@]})); then
  echo "fuzz-smoke: failed: ${failed[*]}"
  exit 1
fi
