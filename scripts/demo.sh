#!/usr/bin/env bash
# The main job: builds cuzk, starts the proving daemon (Groth16 on the CPU backend, or on the
# GPUs it finds) on a unix socket in a temporary directory, proves one job through gRPC, prints
# the result and stops the daemon with SIGTERM.
#
# Default (CUZK_DEMO=porep): a Filecoin PoRep C2 of a 2 KiB sector, end to end with cuzk's own
# commands: `cuzk filecoin seal` seals 2 KiB of data (StackedDrg2KiBV1_1, miner 106, sector 1),
# `cuzk filecoin commit1` makes its C1 output, `cuzk filecoin setup` makes the 2 KiB PoRep
# parameters (v28 .params/.vk from our own trapdoor; minutes on 2 cores, cached in
# ./cuzk-cache/filecoin-params for later runs), the daemon proves the C2 from the request Curio
# would send (`cuzk submit`; [filecoin] parameter_cache = that directory) and `cuzk filecoin
# verify` checks the 192-byte proof with the verifying key and the public data alone (comm_r,
# comm_d, prover id, sector id, ticket, seed). Exits 0 only when the proof verifies.
#
# CUZK_DEMO=bench: a bench-12 job (a 2^12-constraint PoRep-shaped circuit, 2 partitions) with the
# bench client; exits 0 only when the job completed (the daemon self-verifies every partition
# proof before it answers) and the proof has 2 x 192 bytes. Its key is a seeded benchmark setup
# cached in ./cuzk-cache. CUZK_DEMO_CIRCUIT / CUZK_DEMO_PARTITIONS change that job.
#
# CUZK_CACHE_DIR overrides ./cuzk-cache. Extra arguments go to scripts/build.sh.
# CUZK_DEMO_NO_BUILD=1 with CUZK_BIN=<path of cuzk> skips the build (the CTests demo_smoke and
# demo_porep_smoke run it so).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CIRCUIT=${CUZK_DEMO_CIRCUIT:-bench-12}
PARTS=${CUZK_DEMO_PARTITIONS:-2}
CACHE=${CUZK_CACHE_DIR:-$ROOT/cuzk-cache}
SEED=${CUZK_DEMO_SEED:-$(date +%s)}
DEMO=${CUZK_DEMO:-porep}

CUZK=${CUZK_BIN:-$ROOT/build/bin/cuzk}
if [[ -z "${CUZK_DEMO_NO_BUILD:-}" ]]; then
  echo "== building (scripts/build.sh)"
  BUILD_LOG=$(mktemp /tmp/cuzk-build.XXXXXX)
  if ! ./scripts/build.sh "$@" >"$BUILD_LOG" 2>&1; then
    tail -40 "$BUILD_LOG"; echo "build failed (full log: $BUILD_LOG)"; exit 1
  fi
  rm -f "$BUILD_LOG"
fi

TMP=$(mktemp -d /tmp/cuzk-demo.XXXXXX)
SOCK=$TMP/cuzk.sock
DPID=
cleanup() {
  if [[ -n "$DPID" ]] && kill -0 "$DPID" 2>/dev/null; then kill -TERM "$DPID" 2>/dev/null || true; wait "$DPID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

run_bench_demo() {
  echo "== starting: cuzk daemon --listen unix://$SOCK --cache-dir $CACHE"
  start_daemon --listen "unix://$SOCK" --journal none --cache-dir "$CACHE"

  echo "== proving: cuzk bench single -t $CIRCUIT -p $PARTS --seed $SEED"
  T0=$(date +%s.%N)
  RC=0
  "$CUZK" bench -a "unix://$SOCK" single -t "$CIRCUIT" -p "$PARTS" --seed "$SEED" -o "$TMP/proof.bin" || RC=$?
  T1=$(date +%s.%N)

  BYTES=0
  [[ -f "$TMP/proof.bin" ]] && BYTES=$(stat -c %s "$TMP/proof.bin")
  echo "== daemon log"
  sed 's/^/   /' "$TMP/daemon.log"

  echo "== stopping the daemon (SIGTERM)"
  kill -TERM "$DPID"
  DRC=0
  wait "$DPID" || DRC=$?
  DPID=

  echo
  echo "circuit          : $CIRCUIT, $PARTS partitions, seed $SEED"
  echo "client wall time : $(awk -v a="$T0" -v b="$T1" 'BEGIN { printf "%.2f s", b - a }') (first run includes key generation)"
  echo "proof bytes      : $BYTES (expected $((PARTS * 192)) = $PARTS x 192)"
  [[ "$BYTES" -gt 0 ]] && echo "proof (first 48) : $(head -c 48 "$TMP/proof.bin" | od -An -tx1 | tr -d ' \n')"
  echo "daemon exit code : $DRC"
  if [[ $RC -eq 0 && "$BYTES" -eq $((PARTS * 192)) && $DRC -eq 0 ]]; then
    echo "verified         : yes (every partition proof checked by the daemon against the verifying key)"
    exit 0
  fi
  echo "verified         : NO (bench client exit $RC)"
  exit 1
}

# `cuzk daemon ARGS...` listening on $SOCK; returns when its socket is open.
start_daemon() {
  "$CUZK" daemon "$@" >"$TMP/daemon.log" 2>&1 &
  DPID=$!
  for _ in $(seq 1 300); do
    [[ -S "$SOCK" ]] && break
    if ! kill -0 "$DPID" 2>/dev/null; then
      echo "the daemon exited during start-up:"; cat "$TMP/daemon.log"; exit 1
    fi
    sleep 0.1
  done
  [[ -S "$SOCK" ]] || { echo "the daemon did not open $SOCK"; cat "$TMP/daemon.log"; exit 1; }
  grep -m1 "engine.prover" "$TMP/daemon.log" | sed 's/^/   daemon: /' || true
}

field() { sed -n "s/.*\"$1\": *\"\([0-9a-f]*\)\".*/\1/p" "$2" | head -1; }

# 32 bytes as 64 hex digits from a number, below r (the last byte's top bits clear).
hex32() { printf '%062x00' "$1"; }

run_porep_demo() {
  local proof=StackedDrg2KiBV1_1 miner=106 sector=1
  # prover_id: the miner's ID-address payload (LEB128 of 106 = 0x6a), 32 bytes.
  local prover=6a00000000000000000000000000000000000000000000000000000000000000
  local ticket seed
  ticket=$(hex32 "$SEED")
  seed=$(hex32 $((SEED + 1)))
  local params=$CACHE/filecoin-params
  mkdir -p "$CACHE"

  echo "== sealing 2 KiB of data: cuzk filecoin seal --registered-proof $proof --sector-id $sector"
  yes 0123456789 | tr -d '\n' | head -c 2048 >"$TMP/data" || true  # bytes < 0x40: Fr32 nodes
  "$CUZK" filecoin seal --registered-proof $proof --data "$TMP/data" --prover-id $prover \
    --sector-id $sector --ticket "$ticket" --out "$TMP/sector" >"$TMP/seal.json"
  local comm_r comm_d
  comm_r=$(field comm_r "$TMP/seal.json")
  comm_d=$(field comm_d "$TMP/seal.json")
  echo "   comm_r $comm_r"
  echo "   comm_d $comm_d"

  echo "== C1: cuzk filecoin commit1 --sector … --seed $seed"
  "$CUZK" filecoin commit1 --sector "$TMP/sector" --seed "$seed" --out "$TMP/c1.json" >/dev/null
  echo "   $(stat -c %s "$TMP/c1.json") bytes of C1 output JSON"

  if "$CUZK" filecoin params --dir "$params" --registered-proof $proof >/dev/null 2>&1; then
    echo "== parameters: cached in $params"
  else
    echo "== parameters: cuzk filecoin setup --kind porep --registered-proof $proof"
    echo "   (first run only: 2.7 M constraints, minutes on 2 cores; cached in $params)"
    rm -rf "$params.new"
    "$CUZK" filecoin setup --kind porep --registered-proof $proof --out "$params.new" >/dev/null
    mkdir -p "$params"
    mv "$params.new"/* "$params"/
    rmdir "$params.new"
  fi
  local vk
  vk=$params/$("$CUZK" filecoin params --dir "$params" --registered-proof $proof |
                 grep -o 'v28-[^"]*\.vk' | head -1)

  cat >"$TMP/cuzk.toml" <<TOML
[daemon]
listen = "unix://$SOCK"
journal = ""
[engine]
cache_dir = "$CACHE"
[filecoin]
parameter_cache = "$params"
TOML
  echo "== starting: cuzk daemon --config cuzk.toml ([filecoin] parameter_cache = $params)"
  start_daemon --config "$TMP/cuzk.toml"

  echo "== proving PoRep C2 through the daemon: cuzk submit --kind porep --c1 c1.json"
  local rc=0
  "$CUZK" submit --addr "unix://$SOCK" --kind porep --c1 "$TMP/c1.json" --sector-id $sector \
    --miner-id $miner --out "$TMP/proof.bin" >"$TMP/submit.json" || rc=$?
  sed 's/^/   /' "$TMP/submit.json"

  echo "== stopping the daemon (SIGTERM)"
  kill -TERM "$DPID"
  local drc=0
  wait "$DPID" || drc=$?
  DPID=

  echo "== verifying with the public data alone: cuzk filecoin verify --kind porep"
  local vrc=1
  if [[ $rc -eq 0 ]]; then
    vrc=0
    "$CUZK" filecoin verify --kind porep --registered-proof $proof --vk "$vk" \
      --proof "$TMP/proof.bin" --comm-r "$comm_r" --comm-d "$comm_d" --prover-id $prover \
      --sector-id $sector --ticket "$ticket" --seed "$seed" >"$TMP/verify.json" || vrc=$?
    sed 's/^/   /' "$TMP/verify.json"
  fi
  local bytes=0
  [[ -f "$TMP/proof.bin" ]] && bytes=$(stat -c %s "$TMP/proof.bin")
  echo
  echo "proof            : PoRep C2, $proof, miner $miner, sector $sector"
  echo "proof bytes      : $bytes (expected 192: one partition at 2 KiB; 1920 at 32 GiB)"
  [[ "$bytes" -gt 0 ]] && echo "proof (first 48) : $(head -c 48 "$TMP/proof.bin" | od -An -tx1 | tr -d ' \n')"
  echo "daemon exit code : $drc"
  if [[ $rc -eq 0 && $vrc -eq 0 && "$bytes" -eq 192 && $drc -eq 0 ]]; then
    echo "verified         : yes (cuzk filecoin verify with the verifying key and the public data)"
    exit 0
  fi
  echo "daemon log:"; sed 's/^/   /' "$TMP/daemon.log"
  echo "verified         : NO (submit exit $rc, verify exit $vrc)"
  exit 1
}

case $DEMO in
  porep) run_porep_demo ;;
  bench) run_bench_demo ;;
  *) echo "CUZK_DEMO must be porep or bench"; exit 2 ;;
esac
