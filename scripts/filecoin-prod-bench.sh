#!/usr/bin/env bash
# Production-size Filecoin proofs through the daemon on one GPU (issue 20 item 7; results in
# docs/perf/filecoin.md, "Daemon, production size"). Run on the GPU host, one step per call so
# each stays under the device's 10-minute command limit; WORK keeps keys and inputs between
# calls while the machine is held:
#   scripts/filecoin-prod-bench.sh BIN WORK STEP...
# BIN holds `cuzk` (scripts/gpu-carry.sh). Steps:
#   inputs        synthetic 32 GiB inputs of miner 1000 (synth-inputs): a C1, one WindowPoSt
#                 partition, a WinningPoSt, a SnapDeals update
#   setup-KIND    our own key for the 32 GiB circuit of KIND (porep, winning, window, update),
#                 fixed-base multiplications on cuda:0, compact form from WORK/cache when there
#   prove-KIND    starts the daemon on cuda:0 over WORK/params, proves KIND's inputs, self-check
#                 on, and verifies the proof with `cuzk filecoin verify`; GPU utilisation sampled
#                 every 100 ms (nvidia-smi) while it runs
#   winning-during-porep   a WinningPoSt submitted while a PoRep C2 runs (CUZK_BENCH_WINNING_DELAY
#                 seconds after it, default 8; the C2 takes ≈ 20 s): its latency, its key made
#                 resident by a WinningPoSt before (as [filecoin] preload would)
#   throughput-porep-N     N PoRep C2 jobs submitted at once (the key loaded by a first job
#                 beforehand): seconds per proof in steady state (between the first and the last
#                 completion), daemon peak RSS, GPU busy share
#   drop-KIND     removes KIND's key (the host has 64 GiB of disk; the 32 GiB PoRep key is 47 GB)
# Each step prints one JSON line per measurement (prefix "RESULT ") and keeps logs in WORK/logs.
# CUZK_BENCH_SIZE (default 32GiB) and CUZK_BENCH_BACKEND (default cuda:0; `cpu` sets up and proves
# on the CPU) let the same steps run at 2 KiB on any machine. CUZK_BENCH_COMPACT (default true) is
# the daemon's [gpu] compact_witness; when true no pinned partition pool is reserved (compact
# partitions never use it).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BIN WORK STEP..." >&2; exit 2; }
bin=$(cd "$1" && pwd)
work="$2"
shift 2
cuzk="$bin/cuzk"
[ -f "$bin/env.sh" ] && source "$bin/env.sh"
mkdir -p "$work/params" "$work/cache" "$work/logs" "$work/in"
work=$(cd "$work" && pwd)
miner=1000
size=${CUZK_BENCH_SIZE:-32GiB}
backend=${CUZK_BENCH_BACKEND:-cuda:0}
compact=${CUZK_BENCH_COMPACT:-true}
device_flag=()
[ "$backend" = cpu ] || device_flag=(--device "$backend")
declare -A proof=([porep]=StackedDrg${size}V1_1 [winning]=StackedDrgWinning${size}V1
                  [window]=StackedDrgWindow${size}V1_2 [update]=StackedDrg${size}V1)
fail=0
result() { echo "RESULT $*"; echo "$*" >>"$work/logs/results.jsonl"; }
json_str() { sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$2" | head -1; }
json_num() { sed -n "s/.*\"$1\": *\\([0-9.]*\\).*/\\1/p" "$2" | head -1; }
peak_rss_mib() { awk '/VmHWM/ {printf "%d", $2 / 1024}' "/proc/$1/status" 2>/dev/null; }

step_inputs() {
  local t0=$SECONDS
  "$cuzk" filecoin synth-inputs --kind porep --registered-proof "${proof[porep]}" --seed 1 \
    --miner-id $miner --out "$work/in/c1.json" >"$work/in/porep.json" || fail=1
  "$cuzk" filecoin synth-inputs --kind window --registered-proof "${proof[window]}" --seed 2 \
    --miner-id $miner --out "$work/in/window.vproof" >"$work/in/window.json" || fail=1
  "$cuzk" filecoin synth-inputs --kind winning --registered-proof "${proof[winning]}" --seed 3 \
    --miner-id $miner --out "$work/in/winning.vproof" >"$work/in/winning.json" || fail=1
  "$cuzk" filecoin synth-inputs --kind snap --registered-proof "${proof[update]}" --seed 4 \
    --out "$work/in/update.vproof" >"$work/in/update.json" || fail=1
  result "{\"step\": \"inputs\", \"seconds\": $((SECONDS - t0)), \"ok\": $((1 - fail))}"
}

step_setup() {  # step_setup KIND
  local kind=$1 t0=$SECONDS
  "$cuzk" filecoin setup --kind "$kind" --registered-proof "${proof[$kind]}" \
    --out "$work/params" --cache-dir "$work/cache" "${device_flag[@]}" \
    >"$work/logs/setup-$kind.json" 2>"$work/logs/setup-$kind.err"
  local rc=$?
  [ $rc -eq 0 ] || { fail=1; tail -20 "$work/logs/setup-$kind.err"; }
  result "{\"step\": \"setup-$kind\", \"rc\": $rc, \"seconds\": $((SECONDS - t0)), \"out\": $(tr -d '\n' <"$work/logs/setup-$kind.json" | sed 's/^$/null/')}"
  df -h "$work" | tail -1
}

daemon_pid=
smi_pid=
start_daemon() {
  cat >"$work/cuzk.toml" <<EOF
[daemon]
listen = "unix://$work/cuzk.sock"
journal = ""
[engine]
cache_dir = "$work/cache"
key_images = false
[filecoin]
parameter_cache = "$work/params"
self_check = "always"
[gpu]
compact_witness = $compact
EOF
  [ "$compact" = true ] && echo 'partition_pinned_bytes = 0' >>"$work/cuzk.toml"
  "$cuzk" daemon --config "$work/cuzk.toml" --backend "$backend" >"$work/logs/daemon.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 1 300); do
    grep -q "cuzk daemon ready" "$work/logs/daemon.log" && break
    kill -0 $daemon_pid 2>/dev/null || { echo "daemon died"; tail -20 "$work/logs/daemon.log"; return 1; }
    sleep 0.2
  done
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits \
    -lms 100 >"$work/logs/smi.csv" 2>/dev/null &
  smi_pid=$!
}
stop_daemon() {
  local rss
  rss=$(peak_rss_mib "$daemon_pid")
  "$cuzk" bench --addr "unix://$work/cuzk.sock" status >"$work/logs/status-$(date +%H%M%S).txt" 2>&1
  grep -E "synthesized|budget|resident memory" "$work"/logs/status-*.txt | tail -3
  [ -n "$smi_pid" ] && kill "$smi_pid" 2>/dev/null
  kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  daemon_pid= smi_pid=
  # GPU busy: the share of samples with utilisation > 0 between the first and last busy sample.
  local busy
  busy=$(awk -F', ' '$2 > 0 {if (!f) f = NR; l = NR; b++} END {if (l) printf "%.3f", b / (l - f + 1); else print 0}' "$work/logs/smi.csv")
  local vram
  vram=$(awk -F', ' '$3 > m {m = $3} END {print m + 0}' "$work/logs/smi.csv")
  result "{\"daemon_peak_rss_mib\": ${rss:-0}, \"gpu_busy_share\": $busy, \"peak_vram_mib\": $vram}"
  grep -E "loaded|resident|partition .* device|synthes" "$work/logs/daemon.log" | tail -30 \
    >"$work/logs/daemon-tail.txt"
}
submit() {  # submit NAME ARGS... → the submit JSON in $work/logs/NAME.json
  local name=$1
  shift
  "$cuzk" submit --addr "unix://$work/cuzk.sock" "$@" --out "$work/logs/$name.proof" \
    >"$work/logs/$name.json" 2>"$work/logs/$name.err"
  local rc=$?
  [ $rc -eq 0 ] || { fail=1; cat "$work/logs/$name.err"; }
  result "{\"submit\": \"$name\", \"rc\": $rc, \"out\": $(tr -d '\n' <"$work/logs/$name.json" | sed 's/^$/null/')}"
  return $rc
}

porep_args() {
  local f="$work/in/porep.json"
  echo --kind porep --c1 "$work/in/c1.json" --miner-id $miner --sector-id "$(json_num sector_id "$f")"
}
verify_porep() {
  local f="$work/in/porep.json"
  "$cuzk" filecoin verify --kind porep --registered-proof "${proof[porep]}" \
    --vk "$(json_str vk "$work/logs/setup-porep.json")" --proof "$work/logs/porep.proof" \
    --prover-id "$(json_str prover_id "$f")" --sector-id "$(json_num sector_id "$f")" \
    --ticket "$(json_str ticket "$f")" --seed "$(json_str seed_randomness "$f")" \
    --comm-d "$(json_str comm_d "$f")" --comm-r "$(json_str comm_r "$f")" >"$work/logs/verify-porep.json"
  local rc=$?
  result "{\"verify\": \"porep\", \"rc\": $rc}"
  [ $rc -eq 0 ] || fail=1
}
post_args() {  # post_args KIND
  local f="$work/in/$1.json"
  echo --kind "$1" --registered-proof "${proof[$1]}" --miner-id $miner \
    --vanilla "$work/in/$1.vproof" --randomness "$(json_str randomness "$f")"
}
update_args() {
  local f="$work/in/update.json"
  echo --kind update --registered-proof "${proof[update]}" --vanilla "$work/in/update.vproof" \
    --comm-r-old "$(json_str comm_r_old "$f")" --comm-r-new "$(json_str comm_r_new "$f")" \
    --comm-d-new "$(json_str comm_d_new "$f")"
}

step_prove() {  # step_prove KIND
  local kind=$1
  start_daemon || { fail=1; return; }
  case $kind in
    porep) submit porep $(porep_args) && verify_porep ;;
    winning | window) submit "$kind" $(post_args "$kind") ;;
    update) submit update $(update_args) ;;
  esac
  stop_daemon
}

step_winning_during_porep() {
  start_daemon || { fail=1; return; }
  # The WinningPoSt key made resident first, as an operator's [filecoin] preload would.
  submit winning-warm $(post_args winning) >/dev/null
  submit porep $(porep_args) &
  local porep_pid=$!
  sleep "${CUZK_BENCH_WINNING_DELAY:-8}"  # the PoRep's partitions are queued and proving
  submit winning-during-porep $(post_args winning)
  wait $porep_pid
  stop_daemon
}

step_throughput_porep() {  # step_throughput_porep N
  local n=$1 i t0 pids=()
  start_daemon || { fail=1; return; }
  submit porep-warm $(porep_args) || { stop_daemon; return; }
  t0=$(date +%s.%N)
  for i in $(seq 1 "$n"); do
    (submit "porep-$i" $(porep_args) >/dev/null; date +%s.%N >"$work/logs/porep-$i.done") &
    pids+=($!)
  done
  wait "${pids[@]}"
  local done_times
  done_times=$(cat "$work"/logs/porep-[0-9]*.done | sort -n | tr '\n' ' ')
  result "$(echo "$done_times" | awk -v n="$n" -v t0="$t0" '{
    first = $1; last = $NF
    printf "{\"step\": \"throughput-porep\", \"jobs\": %d, \"wall_s\": %.1f, \"first_done_s\": %.1f, \"steady_s_per_proof\": %.1f}", n, last - t0, first - t0, (n > 1 ? (last - first) / (n - 1) : last - t0) }')"
  rm -f "$work"/logs/porep-[0-9]*.done
  stop_daemon
}

for step in "$@"; do
  echo "== $step ($(date +%T))"
  case $step in
    inputs) step_inputs ;;
    setup-*) step_setup "${step#setup-}" ;;
    prove-*) step_prove "${step#prove-}" ;;
    winning-during-porep) step_winning_during_porep ;;
    throughput-porep-*) step_throughput_porep "${step#throughput-porep-}" ;;
    drop-*) rm -f "$(json_str params "$work/logs/setup-${step#drop-}.json")" ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
done
exit $fail
