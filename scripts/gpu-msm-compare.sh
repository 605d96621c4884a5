#!/usr/bin/env bash
# One device call for the MSM options that are built but off until measured (docs/perf/gpu.md):
# the GPU suite's MSM tests, the rolled G1 accumulation (/r) against the default at 2^24/26/27,
# four and three copies of H at 2^27 (c = 24 / 22), the reduction chunks scaled per window group
# (--group-chunks) with the arena cut to force groups, an ncu profile of the rolled kernel, the
# 32 GiB PoRep partition through prove_compact, and on an H200 the bench partition at 2^27 (plain
# and with four copies of H). Binaries from scripts/gpu-carry.sh (gpu_bench, gpu_suite_test,
# pce_gpu_bench in DIR); logs under $OUT; a short summary last.
#   scripts/gpu-msm-compare.sh DIR [SECONDS]   (SECONDS: the call's budget, default 540)
set -u
dir="$1"
limit="${2:-540}"
OUT="${OUT:-/tmp/gpu-msm-compare}"
mkdir -p "$OUT"
# shellcheck disable=SC1091
source "$dir/env.sh"
start=$SECONDS
step() {  # step NAME MIN_SECONDS CMD...: runs CMD into $OUT/NAME.log when MIN_SECONDS are left
  local name=$1 need=$2 left=$((limit - (SECONDS - start)))
  shift 2
  if [ "$left" -lt "$need" ]; then
    echo "== skip $name ($left s left)"
    return
  fi
  timeout $((left - 10)) "$@" > "$OUT/$name.log" 2>&1
  echo "== $name rc=$? after ${SECONDS}s"
}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "device: $gpu"
step msm_tests 60 "$dir/gpu_suite_test" --gtest_filter='GpuMsm.*'
grep -E "^\[  (PASSED|FAILED) |FAILED" "$OUT/msm_tests.log" | tail -8
step rolled 120 "$dir/gpu_bench" --ops msm_g1 --msm-logs 24,26,27 \
  --h-variants plain,plain/r,22:2:16384,22:2:16384/r
grep -E "^msm_g1 " "$OUT/rolled.log"
step copies 150 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
  --h-variants 24:4:16384,24:4:16384/r,22:3:16384,22:3:16384/r,24:1:16384
grep -E "^msm_g1 " "$OUT/copies.log"
for arena in 27 25; do
  for mode in plan scaled; do
    CUZK_GPU_TRACE=1 step "groups_${arena}_$mode" 30 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
      --h-variants plain --arena-gib "$arena" --group-chunks "$mode"
    grep -E "^msm_g1 |gpu-trace-sum.*window sums" "$OUT/groups_${arena}_$mode.log" | cut -c1-120
  done
done
for mode in plan scaled; do
  step "g2_groups_$mode" 30 "$dir/gpu_bench" --ops msm_g2 --min-log 24 --max-log 24 --arena-gib 7 \
    --group-chunks "$mode"
  grep -E "^msm_g2 " "$OUT/g2_groups_$mode.log"
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ -x "$ncu" ]; then
  step ncu_rolled 60 "$ncu" --kernel-name regex:segment_accumulate_3 --launch-count 1 \
    --section Occupancy --section LaunchStats --section WarpStateStats \
    --metrics 'regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,smsp__inst_executed.sum' \
    "$dir/gpu_bench" --ops msm_g1 --msm-logs 22 --h-variants plain/r --arena-gib 6
  grep -E "Registers Per|Achieved Occ|Warp Cycles Per Issued|Issue Slots Busy|inst_executed.sum|stalled_(wait|no_instruction|math_pipe_throttle|short_scoreboard|long_scoreboard)_per" \
    "$OUT/ncu_rolled.log" | awk '{$1=$1};1' | cut -c1-110
fi
step partition32 150 "$dir/pce_gpu_bench" --size 32GiB --repeats 2 --prove 1 --overlap off \
  --cache /tmp/porep32-compact.pcec
grep -E '"op": "prove_compact"' "$OUT/partition32.log" | cut -c1-260
if [[ "$gpu" == *H200* ]]; then
  step partition27 60 "$dir/gpu_bench" --ops partition --partition-log 27 --overlap off
  grep -E "^part|^partition" "$OUT/partition27.log" | grep -v "^csv"
  step partition27_copies 90 "$dir/gpu_bench" --ops partition --partition-log 27 --overlap off \
    --partition-h 24:4:16384
  grep -E "^part|^partition" "$OUT/partition27_copies.log" | grep -v "^csv"
fi
