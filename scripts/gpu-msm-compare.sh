#!/usr/bin/env bash
# One device call for what is new until measured (docs/perf/gpu.md), most important first (each
# step runs only while its least time is left): the GPU MSM tests, the G1 MSM with dense scalars
# (in place, no classification: the partition's H) against classified at 2^24–2^27 with and
# without window copies, the G2 pair product two rows a step with the partner's limb fetched ahead
# (the default) against one row, the kernels' registers (cuobjdump) and ncu profiles of both
# accumulations; then the whole GPU suite, the bench partition at 2^27, the
# NTT and H step, window copies, the 32 GiB PoRep partition through prove_compact (with four copies
# of H on an H200), window groups with the arena cut (--group-chunks) and the G2 MSM. Binaries
# from scripts/gpu-carry.sh (gpu_bench, gpu_suite_test, pce_gpu_bench in DIR); logs under $OUT; a
# short summary.
#   [GPU_COMPARE_SKIP="suite copies"] scripts/gpu-msm-compare.sh DIR [SECONDS]
# (SECONDS: the call's budget, default 540; GPU_COMPARE_SKIP: step names to leave out)
set -u
dir="$1"
limit="${2:-540}"
OUT="${OUT:-/tmp/gpu-msm-compare}"
mkdir -p "$OUT"
# shellcheck disable=SC1091
source "$dir/env.sh"
start=$SECONDS
failed=""  # steps that exited non-zero (the script's status)
skip=" ${GPU_COMPARE_SKIP:-} "  # step names not to run (already measured on this card kind)
step() {  # step NAME MIN_SECONDS CMD...: runs CMD into $OUT/NAME.log when MIN_SECONDS are left
  local name=$1 need=$2 left=$((limit - (SECONDS - start)))
  shift 2
  if [[ "$skip" == *" $name "* ]]; then
    echo "== skip $name (GPU_COMPARE_SKIP)"
    return
  fi
  if [ "$left" -lt "$need" ]; then
    echo "== skip $name ($left s left)"
    return
  fi
  timeout $((left - 10)) "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "== $name rc=$rc after ${SECONDS}s"
  [ "$rc" -eq 0 ] || failed="$failed $name"
}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "device: $gpu"
# 0. New until measured. The MSM tests (every G1 and G2 accumulation form against the oracle).
step msm_tests 60 "$dir/gpu_suite_test" --gtest_filter='GpuMsm.*'
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" "$OUT/msm_tests.log" 2>/dev/null | tail -8
#    The G1 MSM with dense scalars (/d) against classified, plain and four copies.
step dense_g1 150 "$dir/gpu_bench" --ops msm_g1 --msm-logs 24,26,27 \
  --h-variants plain,plain/d,22:4:16384,22:4:16384/d
grep -E "^msm_g1 " "$OUT/dense_g1.log" 2>/dev/null
#    The G2 pair products: two rows a step, the partner's limb ahead (the default), and one row.
step ahead_g2 60 "$dir/gpu_bench" --ops msm_g2 --min-log 20 --max-log 25 \
  --g2-acc lane_pair_rolled2_ahead,lane_pair_rolled
grep -E "^msm_g2 " "$OUT/ahead_g2.log" 2>/dev/null
#    Registers and spills of the accumulation kernels.
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$cuobjdump" ]; then
  "$cuobjdump" --dump-resource-usage "$dir/gpu_bench" 2>/dev/null |
    grep -A1 -E "segment_accumulate_(3_blocks|pair)" | grep -oE "Function [^:]+|REG:[0-9]+ STACK:[0-9]+" |
    paste - - | sed -E 's/Function (.{0,90}).*\t/\1 /' > "$OUT/resources.log"
  cut -c1-160 "$OUT/resources.log"
fi
#    ncu: one launch each of the G1 accumulation (3 rows a step, unrolled) and the G2 forms.
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
ncu_args=(--launch-count 1 --section Occupancy --section LaunchStats --section WarpStateStats
  --metrics 'regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,smsp__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active')
ncu_grep="Registers Per|Achieved Occ|Warp Cycles Per Issued|inst_issued.avg.pct|inst_executed.sum|stalled_(wait|no_instruction|math_pipe_throttle|short_scoreboard|long_scoreboard|dispatch_stall)_per"
if [ -x "$ncu" ]; then
  for v in plain plain/r0; do
    step "ncu_g1_${v//\//_}" 45 "$ncu" --kernel-name regex:segment_accumulate_3 "${ncu_args[@]}" \
      "$dir/gpu_bench" --ops msm_g1 --msm-logs 22 --h-variants "$v" --arena-gib 6
    grep -E "$ncu_grep" "$OUT/ncu_g1_${v//\//_}.log" 2>/dev/null | awk '{$1=$1};1' | cut -c1-110
  done
  for v in lane_pair_rolled2_ahead lane_pair_rolled; do
    step "ncu_$v" 45 "$ncu" --kernel-name regex:segment_accumulate_pair "${ncu_args[@]}" \
      "$dir/gpu_bench" --ops msm_g2 --min-log 22 --max-log 22 --g2-acc "$v" --arena-gib 6
    grep -E "$ncu_grep" "$OUT/ncu_$v.log" 2>/dev/null | awk '{$1=$1};1' | cut -c1-110
  done
fi
# 1. Correctness first: the whole GPU suite (window copies through the backend, the 6-transform
#    H step, the scaled chunks against their oracles, mont_row's chains).
step suite 200 "$dir/gpu_suite_test"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" "$OUT/suite.log" 2>/dev/null | tail -12
# 2. The bench partition at 2^27: 45 GiB of tables, 20 GiB of vectors and 4 GiB of twiddles in
#    the H step; b, c and its scratch are released after it, so an H100 should hold it too, with
#    the arena at 74 of its 79 GiB (the default takes 90 % of the free memory) and its MSMs in
#    more window groups.
arena27=()
[[ "$gpu" == *H100* ]] && arena27=(--arena-gib 74)
step partition27 60 "$dir/gpu_bench" --ops partition --partition-log 27 --overlap off "${arena27[@]}"
grep -E "^part|^partition" "$OUT/partition27.log" 2>/dev/null | grep -v "^csv"
# 3. The NTT family at 2^20–2^27 and the H step: 6 transforms (default) against bellperson's 7
#    (/c7).
step ntt 60 "$dir/gpu_bench" --ops ntt,h --ntt-logs 20,24,26,27 --h-logs 24,27 \
  --ntt-shapes 10:1,10:1/c7
grep -E "^(ntt_|h_compute)" "$OUT/ntt.log" 2>/dev/null
# 4. The G1 MSM at 2^27: window copies (c = 22 with 2 and 4, c = 24 with 4).
step copies 150 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
  --h-variants plain,22:2:16384,22:4:16384,24:4:16384
grep -E "^msm_g1 " "$OUT/copies.log" 2>/dev/null
# 5. The 32 GiB PoRep partition through prove_compact: with four copies of H on an H200 (sums
#    checked against a partition without them), without on an H100 (no room beside the key).
copies=1
[[ "$gpu" == *H200* ]] && copies=4
step partition32 150 "$dir/pce_gpu_bench" --size 32GiB --repeats 2 --prove 1 --overlap off \
  --h-copies "$copies" --cache /tmp/porep32-compact.pcec
grep -E '"op": "(prove_compact|prove_plain|prove_h_copies|prove_check)"' "$OUT/partition32.log" 2>/dev/null |
  cut -c1-300
# 6. Window groups with the arena cut.
for arena in 27 25; do
  for mode in plan scaled; do
    CUZK_GPU_TRACE=1 step "groups_${arena}_$mode" 30 "$dir/gpu_bench" --ops msm_g1 --msm-logs 27 \
      --h-variants plain --arena-gib "$arena" --group-chunks "$mode"
    grep -E "^msm_g1 |gpu-trace-sum.*window sums" "$OUT/groups_${arena}_$mode.log" 2>/dev/null | cut -c1-120
  done
done
# 7. The G2 MSM at 2^20, 2^22, 2^24, 2^25 (issue 21 item 1's sizes; sppark's figures are the H200's).
step msm_g2 60 "$dir/gpu_bench" --ops msm_g2 --min-log 20 --max-log 25
grep -E "^msm_g2 " "$OUT/msm_g2.log" 2>/dev/null
# The status: 0 when every step that ran exited 0 (a skipped step's summary grep does not count).
if [ -n "$failed" ]; then
  echo "== failed:$failed"
  exit 1
fi
exit 0
