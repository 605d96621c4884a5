#!/usr/bin/env bash
# The main job: builds cuzk, starts the proving daemon (Groth16 on the CPU backend, or on the
# GPUs it finds) on a unix socket in a temporary directory, proves one small job through gRPC
# (bench-12: a 2^12-constraint PoRep-shaped circuit, 2 partitions) with the bench client, prints
# the result and stops the daemon with SIGTERM. Exits 0 only when the job completed — the daemon
# self-verifies every partition proof against the verifying key before it answers — and the
# proof has 2 × 192 bytes.
#
# The first run generates the bench-12 proving key (seeded benchmark setup) and caches it in
# ./cuzk-cache (CUZK_CACHE_DIR overrides); later runs read it. Extra arguments go to
# scripts/build.sh. CUZK_DEMO_CIRCUIT / CUZK_DEMO_PARTITIONS change the job; CUZK_DEMO_NO_BUILD=1
# with CUZK_BIN=<path of cuzk> skips the build (the CTest demo_smoke runs it so).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CIRCUIT=${CUZK_DEMO_CIRCUIT:-bench-12}
PARTS=${CUZK_DEMO_PARTITIONS:-2}
CACHE=${CUZK_CACHE_DIR:-$ROOT/cuzk-cache}
SEED=${CUZK_DEMO_SEED:-$(date +%s)}

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

echo "== starting: cuzk daemon --listen unix://$SOCK --cache-dir $CACHE"
"$CUZK" daemon --listen "unix://$SOCK" --journal none --cache-dir "$CACHE" >"$TMP/daemon.log" 2>&1 &
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
