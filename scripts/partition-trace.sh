#!/usr/bin/env bash
# The device stage of one bench partition, phase by phase, on a GPU machine:
#   scripts/partition-trace.sh OUTDIR LOGN... -- BIN...
# For each carried build BIN (a directory with `cuzk`, lib/ and env.sh as scripts/gpu-carry.sh makes
# them) and each 2^LOGN: `cuzk microbench partition --backend cuda:0` (median of 3 after a warm-up)
# with CUZK_GPU_TRACE=1, so builds that have the trace (gpu/trace.cuh) print every partition's
# device timeline: spans per stream (compute, copy, g2, side) for the uploads, the waits, the H step and
# each MSM's kernel groups. OUTDIR gets BIN-name_LOGN.log and summary.txt (stage times per run and,
# for the last run, the sum of each traced phase).
set -uo pipefail
out="$1"; shift
sizes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sizes+=("$1"); shift; done
shift
mkdir -p "$out"
summary="$out/summary.txt"
: > "$summary"
threads=$(nproc)
for b in "$@"; do
  bin="$(cd "$b" && pwd)"; name="$(basename "$bin")"
  for k in "${sizes[@]}"; do
    log="$out/${name}_$k.log"
    (source "$bin/env.sh"; CUZK_GPU_TRACE=1 "$bin/cuzk" microbench partition --log-n "$k" --backend cuda:0 \
      --threads "$threads" --repeats 3) > "$log" 2>&1
    echo "== $name 2^$k (rc $?)" >> "$summary"
    grep -E '^\{|^partition' "$log" >> "$summary"
    # The last run's phase sums and its title line.
    last=$(grep -n '^gpu-trace partition' "$log" | tail -1 | cut -d: -f1)
    if [ -n "$last" ]; then
      sed -n "${last}p" "$log" >> "$summary"
      title=$(sed -n "${last}p" "$log" | sed 's/^gpu-trace \(.*\): [0-9.]* ms$/\1/')
      grep -F "gpu-trace-sum $title |" "$log" | sed 's/^gpu-trace-sum [^|]*| /  /' >> "$summary"
    fi
  done
done
cat "$summary"
