#!/usr/bin/env bash
# One device call for what is new until measured (docs/perf/gpu.md), most important first (each
# step runs only while its least time is left): the whole GPU suite, the bench partition at 2^27,
# the NTT in radix-4 pairs and the H step in 6 transforms against 7, the G1 MSM at 2^27
# with window copies of H, the 32 GiB PoRep partition through prove_compact (with four copies of H
# on an H200), window groups with the arena cut (--group-chunks), and the G2 MSM last. Binaries
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
  echo "== $name rc=$? after ${SECONDS}s"
}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "device: $gpu"
# 1. Correctness first: the whole GPU suite (window copies through the backend, the 6-transform
#    H step, the scaled chunks against their oracles, the radix-4 NTT shapes, mont_row's chains).
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
# 3. The NTT family and the H step: radix-4 stage pairs (/r4) against radix 2, 2^20–2^27, and the
#    H step's 6 transforms (default) against bellperson's 7 (/c7).
step ntt 60 "$dir/gpu_bench" --ops ntt,h --ntt-logs 20,24,26,27 --h-logs 24,27 \
  --ntt-shapes 10:1,10:1/r4,10:1/c7
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
