#!/usr/bin/env bash
# One run on the GPU machine: build (or take prebuilt binaries), the interlock check, the GPU tests,
# compute-sanitizer (memcheck, racecheck) at small sizes, the benchmarks; a short table last.
# Logs go to $OUT (or /tmp/gpu-run-out).
#   scripts/gpu-run.sh [--prebuilt DIR] [--no-tests] [--no-sanitize] [--bench "ARGS"] [--no-bench]
#                      [--microbench "OP:K,K OP:K ..."]
# Without --prebuilt it configures build-gpu-run with CUDA (sm_90) and builds the GPU targets there
# (that needs the project's build dependencies, GoogleTest among them). The device image has none of
# them, so there the binaries are built beforehand and carried: --prebuilt DIR as made by
# scripts/gpu-carry.sh (gpu_*_test, gpu_bench, cuzk and DIR/lib with their shared libraries); where
# DIR holds gpu_suite_test instead of a test binary, that test's suites run from it (--gtest_filter).
# --microbench runs `cuzk microbench OP --log-n K --backend cuda:0` for each listed size.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="/usr/local/cuda/bin:$PATH"
cd "$root"
OUT="${OUT:-/tmp/gpu-run-out}"
LOG="$OUT/logs"
mkdir -p "$LOG"
prebuilt="" tests=1 sanitize=1 bench=1 bench_args="" micro=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prebuilt) prebuilt="$2"; shift 2 ;;
    --no-tests) tests=0; shift ;;
    --no-sanitize) sanitize=0; shift ;;
    --no-bench) bench=0; shift ;;
    --bench) bench_args="$2"; shift 2 ;;
    --microbench) micro="$2"; shift 2 ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
summary=()
note() { summary+=("$1"); echo "== $1"; }
# Each GPU test binary's suites inside gpu_suite_test (cuzk/gpu/CMakeLists.txt).
declare -A suites=([gpu_field_test]='GpuField.*' [gpu_ntt_test]='GpuNtt.*' [gpu_msm_test]='GpuMsm.*'
  [gpu_compact_classify_test]='GpuCompactClassify.*' [gpu_backend_test]='CudaBackend.*'
  [gpu_conformance_test]='Backends/Conformance.*' [gpu_fixed_base_test]='GpuFixedBase.*'
  [gpu_groth16_test]='GpuGroth16Stages.*:Bench/GpuGroth16.*' [gpu_pce_test]='GpuPce.*'
  [gpu_compact_prove_test]='GpuCompactProve.*' [gpu_streamed_test]='GpuStreamed.*'
  [gpu_params_direct_test]='ParamsDirectGpu.*' [gpu_placement_test]='GpuPlacement.*'
  [gpu_partition_overlap_test]='PartitionSchedule.*:GpuPartitionOverlap.*')
# The command line of test binary $1 with gtest filter $2 (empty: all its tests): the binary, or
# gpu_suite_test restricted to its suites; nothing when neither is there.
test_cmd() {
  if [ -x "$bin/$1" ]; then
    echo "$bin/$1${2:+ --gtest_filter=$2}"
  elif [ -x "$bin/gpu_suite_test" ] && [ -n "${suites[$1]:-}" ]; then
    echo "$bin/gpu_suite_test --gtest_filter=${2:-${suites[$1]}}"
  fi
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv 2>&1 | tee "$LOG/gpu.txt"

if [ -n "$prebuilt" ]; then
  bin="$(cd "$prebuilt" && pwd)"
  export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if [ -x "$bin/cuzk" ]; then
    "$bin/cuzk" --help > "$LOG/cuzk-help.log" 2>&1 && "$bin/cuzk" daemon --help >> "$LOG/cuzk-help.log" 2>&1
    rc=$?
    [ $rc = 0 ] || cat "$LOG/cuzk-help.log"
    note "cuzk --help, cuzk daemon --help (carried libraries): $([ $rc = 0 ] && echo ok || echo "FAILED rc=$rc")"
  fi
else
  bin="$root/build-gpu-run/tests"
  cmake -S . -B build-gpu-run -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    > "$LOG/cmake.log" 2>&1 || { note "configure failed (see cmake.log)"; tail -20 "$LOG/cmake.log"; }
  cmake --build build-gpu-run -j"$(nproc)" --target gpu_field_test gpu_ntt_test gpu_msm_test gpu_backend_test \
    gpu_conformance_test gpu_fixed_base_test gpu_params_direct_test gpu_pce_test gpu_placement_test gpu_compact_prove_test gpu_bench \
    > "$LOG/build.log" 2>&1 || { note "build failed (see build.log)"; tail -30 "$LOG/build.log"; }
  cp build-gpu-run/bin/gpu_bench "$bin/" 2>/dev/null || true
fi

if scripts/check-interlock.sh "$root" > "$LOG/interlock.log" 2>&1; then note "interlock: ok"; else note "interlock: FAILED"; cat "$LOG/interlock.log"; fi

if [ "$tests" = 1 ]; then
  for t in gpu_field_test gpu_ntt_test gpu_msm_test gpu_compact_classify_test gpu_backend_test \
           gpu_conformance_test gpu_groth16_test gpu_fixed_base_test gpu_params_direct_test gpu_pce_test \
           gpu_placement_test gpu_compact_prove_test gpu_streamed_test gpu_partition_overlap_test; do
    cmd=$(test_cmd "$t" "")
    [ -n "$cmd" ] || { note "$t: missing"; continue; }
    s=$(date +%s)
    timeout 300 $cmd --gtest_brief=1 > "$LOG/$t.log" 2>&1
    rc=$?
    grep -E "^(seed|cuda:)|FAIL|Skipped|SKIP" "$LOG/$t.log" | head -20
    note "$t: $([ $rc = 0 ] && echo PASS || echo "FAIL rc=$rc") ($(( $(date +%s) - s )) s)"
  done
fi

if [ -n "$micro" ] && [ -x "$bin/cuzk" ]; then
  for spec in $micro; do
    op="${spec%%:*}"
    for k in $(echo "${spec#*:}" | tr , ' '); do
      timeout 300 "$bin/cuzk" microbench "$op" --log-n "$k" --backend cuda:0 --repeats 3 --threads "$(nproc)" 2> "$LOG/micro-$op-$k.err" \
        | tee -a "$OUT/microbench.jsonl" || { note "microbench $op 2^$k: FAILED"; tail -5 "$LOG/micro-$op-$k.err"; }
      grep -m3 "^partition" "$LOG/micro-$op-$k.err" || true
    done
  done
fi

if [ "$bench" = 1 ] && [ -x "$bin/gpu_bench" ]; then
  timeout 330 "$bin/gpu_bench" $bench_args 2>&1 | tee "$OUT/bench.log"
fi

if [ "$sanitize" = 1 ] && command -v compute-sanitizer > /dev/null; then
  # racecheck only where shared memory is used (the NTT passes)
  for run in "memcheck gpu_field_test GpuField.FrMatchesHost" "memcheck gpu_ntt_test GpuNtt.MatchesNaiveSmall" \
             "racecheck gpu_ntt_test GpuNtt.MatchesNaiveSmall" "memcheck gpu_msm_test GpuMsm.G1MatchesOracle" \
             "racecheck gpu_msm_test GpuMsm.G1MatchesOracle" "memcheck gpu_msm_test GpuMsm.VramCapForcesWindowGroups" \
             "memcheck gpu_backend_test CudaBackend.*" "memcheck gpu_groth16_test Bench/GpuGroth16.*/bellperson_2e10" \
             "memcheck gpu_pce_test GpuPce.SpmvEqualsTheHostOnRandomCompactForms:GpuPce.ExpansionEqualsTheHost"; do
    set -- $run
    cmd=$(test_cmd "$2" "$3")
    [ -n "$cmd" ] || continue
    timeout 120 compute-sanitizer --tool "$1" --error-exitcode 9 $cmd > "$LOG/san-$1-$2.log" 2>&1
    rc=$?
    tail -3 "$LOG/san-$1-$2.log"
    note "sanitizer $1 $2 $3: $([ $rc = 0 ] && echo clean || echo "rc=$rc")"
  done
fi

echo
echo "================ summary ================"
for s in "${summary[@]}"; do echo "$s"; done
if [ -f "$OUT/bench.log" ]; then
  sed -n '/^op  /,$p' "$OUT/bench.log"
fi
tar czf "$OUT/gpu-run-logs.tgz" -C "$OUT" logs 2>/dev/null && rm -rf "$LOG"
