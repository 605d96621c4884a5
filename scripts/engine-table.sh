#!/usr/bin/env bash
# The H200 table of docs/perf/engine.md: one fresh daemon per row, then `cuzk bench batch`.
#   scripts/engine-table.sh BIN OUTDIR ROW...      ROW = K:gw:cap:jobs[:pw[:extra]]
# BIN: a directory with `cuzk` (and lib/ + env.sh as scripts/gpu-carry.sh makes them). cap: a
# vram_cap_bytes value ("16GiB") or "-" for none; pw: synthesis_workers ("-" or absent: the
# default); extra: one more [engine] line, e.g. gpu_queue_depth=4 (no spaces). Keys and matrices
# are cached in $CUZK_TABLE_CACHE (default /tmp/cuzk-table-cache): each K is generated once
# (`cuzk bench preload` before the row, not timed). Every job self-verifies (the daemon default).
# CUZK_TABLE_DEVICES: gpu.devices (default [0]; '"cpu"' for a try on a machine without a GPU).
# CUZK_TABLE_GPU_EXTRA: one more [gpu] line, e.g. 'partition_pinned_bytes = "24GiB"'.
# Per row OUTDIR gets row-<n>.log (bench output) and daemon-<n>.log; a summary table goes last.
set -uo pipefail
bin="$(cd "$1" && pwd)"; out="$2"; shift 2
[ -f "$bin/env.sh" ] && source "$bin/env.sh"
cache="${CUZK_TABLE_CACHE:-/tmp/cuzk-table-cache}"
mkdir -p "$out" "$cache"
sock="$out/.cuzk-table.sock"
summary="$out/table.txt"
printf "%-4s %-3s %-6s %-5s %-4s %-22s %8s %9s %11s %11s %8s %8s %10s %10s %s\n" row K gw cap jobs extra "s/job" \
  "steady" "dev ms/p" "synth ms/p" "busy" "steady%" "budgetMiB" "rssMiB" "ok" > "$summary"
n=0
for row in "$@"; do
  n=$((n + 1))
  IFS=: read -r K gw cap jobs pw extra <<< "$row"
  cfg="$out/d-$n.toml"
  {
    echo "[daemon]"; echo "listen = \"unix://$sock\""; echo "journal = \"\""
    echo "[engine]"; echo "cache_dir = \"$cache\""; echo "gpu_workers_per_device = $gw"
    [ -n "${pw:-}" ] && [ "$pw" != "-" ] && echo "synthesis_workers = $pw"
    [ -n "${extra:-}" ] && echo "${extra/=/ = }"
    echo "[gpu]"; echo "devices = ${CUZK_TABLE_DEVICES:-[0]}"
    [ "$cap" != "-" ] && echo "vram_cap_bytes = \"$cap\""
    [ -n "${CUZK_TABLE_GPU_EXTRA:-}" ] && echo "$CUZK_TABLE_GPU_EXTRA"
  } > "$cfg"
  rm -f "$sock"
  "$bin/cuzk" daemon -c "$cfg" > "$out/daemon-$n.log" 2>&1 &
  dpid=$!
  for _ in $(seq 900); do [ -S "$sock" ] && break; sleep 0.1; done  # a large pinned pool takes seconds to reserve
  s=$(date +%s)
  "$bin/cuzk" bench -a "unix://$sock" preload bench-"$K" >> "$out/row-$n.log" 2>&1
  echo "== row $n ($row): preload $(( $(date +%s) - s )) s" | tee -a "$out/row-$n.log"
  "$bin/cuzk" bench -a "unix://$sock" batch -t bench-"$K" -p 10 -c "$jobs" -j 2 >> "$out/row-$n.log" 2>&1
  rc=$?
  kill -TERM "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null
  L="$out/row-$n.log"
  v() { grep -m1 "^$1" "$L" | awk '{print $NF}'; }
  ok="$(v 'jobs completed')/$jobs"
  [ $rc = 0 ] || ok="$ok FAIL rc=$rc"
  spj=$(v 'seconds per job'); steady=$(grep -m1 '^steady seconds per job' "$L" | awk '{print $5}')
  syn=$(v 'avg synthesis'); dev=$(v 'avg device stage')
  busy=$(grep -m1 '^device 0' "$L" | awk '{print $3}'); sb=$(grep -m1 '^device 0' "$L" | awk '{print $6}')
  printf "%-4s %-3s %-6s %-5s %-4s %-22s %8s %9s %11.0f %11.0f %8s %8s %10s %10s %s\n" "$n" "$K" "$gw" "$cap" "$jobs" \
    "pw=${pw:--} ${extra:-}" "$spj" "${steady:-n/a}" "$(awk "BEGIN{print ${dev:-0} / 10}")" "$(awk "BEGIN{print ${syn:-0} / 10}")" \
    "$busy" "${sb:-n/a}" "$(v 'daemon budget peak')" "$(v 'daemon peak RSS')" "$ok" >> "$summary"
done
cat "$summary"
