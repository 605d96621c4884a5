#!/usr/bin/env bash
# CTest: Filecoin proofs through the daemon from the command line (docs/api.md, "Filecoin proof
# kinds"). venus's two real 2 KiB sectors (CUZK_FILECOIN_DATA/venus-2kib) are unsealed and sealed
# back (the comm_r Filecoin recorded), the kind's key is made with `cuzk filecoin setup`, a
# `cuzk daemon` is started on a unix socket with [filecoin] parameter_cache = that directory (and
# the key in [filecoin] preload), `cuzk submit` sends the request as Curio would and writes the
# proof, and `cuzk filecoin verify` checks it with the public data alone (Filecoin's recorded
# commitments). Bad requests are refused at submit (exit 1 with the daemon's message): vanilla
# proofs of other randomness, a key the directory does not hold (the message names the file).
# Usage: filecoin_daemon_smoke.sh CUZK KIND...   window (CI, ≈ 20 s), porep (slow: the 2 KiB
# PoRep setup takes minutes). Skipped (77) without CUZK_FILECOIN_DATA. The daemon proves on
# CUZK_DAEMON_BACKEND (default cpu; cuda:0 on a GPU machine).
set -u
cuzk="$1"
shift
if [ -z "${CUZK_FILECOIN_DATA:-}" ]; then
  echo "CUZK_FILECOIN_DATA is unset: the venus 2 KiB sectors are needed"
  exit 77
fi
data="$CUZK_FILECOIN_DATA"
tmp=$(mktemp -d)
daemon_pid=
cleanup() {
  [[ -n $daemon_pid ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"

# venus t0106 (shared/filecoin/README.md), resealed into $tmp/s0 and $tmp/s1.
venus_reseal
params="$tmp/params"
rand=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
bad_rand=2b2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a

# Starts the daemon over $params with the keys named in $1 preloaded (a TOML array).
start_daemon() {
  cat >"$tmp/cuzk.toml" <<EOF
[daemon]
listen = "unix://$tmp/cuzk.sock"
journal = ""
[engine]
cache_dir = "$tmp/cache"
[filecoin]
parameter_cache = "$params"
preload = $1
EOF
  "$cuzk" daemon --config "$tmp/cuzk.toml" --backend "${CUZK_DAEMON_BACKEND:-cpu}" \
    >"$tmp/daemon.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 1 100); do
    grep -q "cuzk daemon ready" "$tmp/daemon.log" && return 0
    kill -0 $daemon_pid 2>/dev/null || break
    sleep 0.2
  done
  echo "FAIL: the daemon did not start"
  cat "$tmp/daemon.log"
  exit 1
}
stop_daemon() {
  # CUZK_DAEMON_LOG_DIR: keep each daemon's log there (which devices proved, timings).
  [[ -n ${CUZK_DAEMON_LOG_DIR:-} ]] && cat "$tmp/daemon.log" >>"$CUZK_DAEMON_LOG_DIR/daemon.log"
  kill "$daemon_pid" && wait "$daemon_pid"
  daemon_pid=
}
wait_log() {  # wait_log <substring>: the daemon's log shows it within 60 s
  for _ in $(seq 1 300); do
    grep -qF -- "$1" "$tmp/daemon.log" && return 0
    sleep 0.2
  done
  echo "FAIL: the daemon's log never showed '$1'"
  cat "$tmp/daemon.log"
  fail=1
}

run_window() {
  local p=StackedDrgWindow2KiBV1
  expect 0 '"params_bytes"' filecoin setup --kind window --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  # A preload entry whose file is missing stops the daemon at start, naming the file.
  cat >"$tmp/bad.toml" <<EOF
[daemon]
listen = "unix://$tmp/bad.sock"
journal = ""
[filecoin]
parameter_cache = "$params"
preload = ["winning:2KiB"]
EOF
  expect 3 "v28-proof-of-spacetime-fallback" daemon --config "$tmp/bad.toml" --backend cpu
  start_daemon '["window:2KiB"]'
  wait_log "filecoin.preload: v28-proof-of-spacetime-fallback"
  expect 0 '"partitions": 1' filecoin post-vanilla --kind window --registered-proof $p \
    --sector "$tmp/s0" --sector "$tmp/s1" --randomness $rand --out "$tmp/window.vproof"
  local s=(submit --addr "unix://$tmp/cuzk.sock" --kind window --registered-proof $p
           --miner-id $miner --vanilla "$tmp/window.vproof")
  expect 0 '"proof_bytes": 192' "${s[@]}" --randomness $rand --out "$tmp/window.proof"
  size_is "$tmp/window.proof" 192
  expect 0 '"valid": true' filecoin verify --kind window --registered-proof $p --vk "$vk" \
    --randomness $rand --proof "$tmp/window.proof" \
    --sector-id 0 --comm-r "${comm_r[0]}" --sector-id 1 --comm-r "${comm_r[1]}"
  # Refused at submit: vanilla proofs of other randomness; the WinningPoSt key is not there.
  expect 1 'vanilla_proofs' "${s[@]}" --randomness $bad_rand --out "$tmp/x.proof"
  expect 0 '"sector_set_index"' filecoin post-vanilla --kind winning \
    --registered-proof StackedDrgWinning2KiBV1 --sector "$tmp/s0" --sector "$tmp/s1" \
    --randomness $rand --prover-id $prover --out "$tmp/winning.vproof"
  expect 1 "$params/v28-proof-of-spacetime-fallback" submit --addr "unix://$tmp/cuzk.sock" \
    --kind winning --registered-proof StackedDrgWinning2KiBV1 --miner-id $miner \
    --vanilla "$tmp/winning.vproof" --randomness $rand --out "$tmp/x.proof"
  stop_daemon
}

run_porep() {
  local p=StackedDrg2KiBV1
  local seed=0303030303030303030303030303030303030303030303030303030303030303
  expect 0 '"verified":true' filecoin commit1 --sector "$tmp/s0" --seed $seed --out "$tmp/c1.json"
  expect 0 '"params_bytes"' filecoin setup --kind porep --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  start_daemon '[]'
  local s=(submit --addr "unix://$tmp/cuzk.sock" --kind porep --c1 "$tmp/c1.json" --miner-id $miner)
  expect 0 '"proof_bytes": 192' "${s[@]}" --sector-id 0 --out "$tmp/porep.proof"
  size_is "$tmp/porep.proof" 192
  local v=(filecoin verify --kind porep --registered-proof $p --vk "$vk" --proof "$tmp/porep.proof"
           --prover-id $prover --ticket $ticket --comm-d "${comm_d[0]}" --seed $seed)
  expect 0 '"valid": true' "${v[@]}" --sector-id 0 --comm-r "${comm_r[0]}"
  expect 1 'invalid' "${v[@]}" --sector-id 1 --comm-r "${comm_r[0]}"
  # The C1 of sector 0 submitted as sector 1: refused at submit.
  expect 1 'the C1 is not of sector 1' "${s[@]}" --sector-id 1 --out "$tmp/x.proof"
  stop_daemon
}

for kind in "$@"; do
  t0=$SECONDS
  case $kind in
    window) run_window ;;
    porep) run_porep ;;
    *) echo "unknown kind $kind"; exit 2 ;;
  esac
  echo "== $kind: $((SECONDS - t0)) s"
done
exit $fail
