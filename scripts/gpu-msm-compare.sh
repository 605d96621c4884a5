#!/usr/bin/env bash
# One device call for what is built but off (or new) until measured (docs/perf/gpu.md), most
# important first (each step runs only while its least time is left): the whole GPU suite, the H
# step in 6 transforms against 7, the G1 MSM at 2^27 with the rolled accumulation and with window
# copies of H, the 32 GiB PoRep partition through prove_compact (with four copies of H on an
# H200), then smaller sizes, the bench partition at 2^27 (H200), window groups with the arena cut
# (--group-chunks) and an ncu profile of the rolled kernel. Binaries from scripts/gpu-carry.sh
# (gpu_bench, gpu_suite_test, pce_gpu_bench in DIR); logs under $OUT; a short summary.
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
# 1. Correctness first: the whole GPU suite (window copies through the backend, the 6-transform
#    H step, the rolled accumulation and scaled chunks against their oracles).
step suite 200 "$dir/gpu_suite_test"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" "$OUT/suite.log" | tail -12
# 2. The H step: 6 transforms (default) against bellperson's 7 (/c7), 2^24 and 2^27.
step h_step 60 "$dir/gpu_bench" --ops h --h-logs 24,27 --ntt-shapes 10:1,10:1/c7
grep -E "^h_compute" "$OUT/h_step.log"
# 3. The G1 MSM at 2^27: rolled accumulation (/r), window copies (c = 24 with 4, c = 22 with 2/3).
step rolled 150 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
  --h-variants plain,plain/r,22:2:16384,22:2:16384/r,22:4:16384,24:4:16384,22:4:16384/r
grep -E "^msm_g1 " "$OUT/rolled.log"
# 4. The 32 GiB PoRep partition through prove_compact: with four copies of H on an H200 (sums
#    checked against a partition without them), without on an H100 (no room beside the key).
copies=1
[[ "$gpu" == *H200* ]] && copies=4
step partition32 150 "$dir/pce_gpu_bench" --size 32GiB --repeats 2 --prove 1 --overlap off \
  --h-copies "$copies" --cache /tmp/porep32-compact.pcec
grep -E '"op": "(prove_compact|prove_plain|prove_h_copies|prove_check)"' "$OUT/partition32.log" |
  cut -c1-300
# 5. Smaller sizes of the rolled accumulation, window groups, the bench partition (H200).
step rolled_small 60 "$dir/gpu_bench" --ops msm_g1 --msm-logs 24,26 --h-variants plain,plain/r
grep -E "^msm_g1 " "$OUT/rolled_small.log"
if [[ "$gpu" == *H200* ]]; then
  step partition27 60 "$dir/gpu_bench" --ops partition --partition-log 27 --overlap off
  grep -E "^part|^partition" "$OUT/partition27.log" | grep -v "^csv"
fi
for arena in 27 25; do
  for mode in plan scaled; do
    CUZK_GPU_TRACE=1 step "groups_${arena}_$mode" 30 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
      --h-variants plain --arena-gib "$arena" --group-chunks "$mode"
    grep -E "^msm_g1 |gpu-trace-sum.*window sums" "$OUT/groups_${arena}_$mode.log" | cut -c1-120
  done
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
