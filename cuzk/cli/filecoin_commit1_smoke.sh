#!/usr/bin/env bash
# `cuzk filecoin seal`, `commit1` and `verify-vanilla --kind porep` on a 2 KiB sector: the C1
# verifies (bare and in Curio's envelope, with replica_id recomputed), wrong public data exits 1,
# bad usage exits 2.
set -u
CUZK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fails=0
expect() {  # expect RC DESCRIPTION COMMAND...
  local want=$1 what=$2
  shift 2
  "$@" >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want"; cat out.txt err.txt; fails=$((fails + 1))
  fi
}
python3 - <<'P'
b = bytearray((i * 37 + 11) % 256 for i in range(2048))
for i in range(31, 2048, 32):
    b[i] &= 0x3f
open("data", "wb").write(b)
P
P1=0100000000000000000000000000000000000000000000000000000000000000
T=0202020202020202020202020202020202020202020202020202020202020202
S=0303030303030303030303030303030303030303030303030303030303030303
V=(filecoin verify-vanilla --kind porep --registered-proof StackedDrg2KiBV1_1)
expect 0 seal "$CUZK" filecoin seal --registered-proof StackedDrg2KiBV1_1 --data data \
  --prover-id $P1 --sector-id 7 --ticket $T --out sec
expect 0 commit1 "$CUZK" filecoin commit1 --sector sec --seed $S --out c1.json
grep -q '"verified":true' out.txt || { echo "FAIL: commit1 did not verify"; fails=$((fails + 1)); }
expect 0 "verify C1" "$CUZK" "${V[@]}" --c1 c1.json
expect 0 "verify, replica_id recomputed" "$CUZK" "${V[@]}" --c1 c1.json --prover-id $P1 \
  --sector-id 7
python3 - <<'P'
import base64, json
t = open("c1.json", "rb").read()
open("env.json", "w").write(json.dumps(
    {"SectorNum": 7, "Phase1Out": base64.b64encode(t).decode(), "SectorSize": 2048},
    separators=(",", ":")))
P
expect 0 "verify Curio envelope" "$CUZK" "${V[@]}" --c1 env.json
expect 1 "wrong sector id" "$CUZK" "${V[@]}" --c1 c1.json --prover-id $P1 --sector-id 8
expect 1 "wrong seed" "$CUZK" "${V[@]}" --c1 c1.json --seed ${S/03/04}
expect 1 "wrong proof" "$CUZK" filecoin verify-vanilla --kind porep \
  --registered-proof StackedDrg2KiBV1 --c1 c1.json
expect 2 "missing --c1" "$CUZK" "${V[@]}"
expect 2 "comm_d not below r" "$CUZK" "${V[@]}" --c1 c1.json --comm-d \
  ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
expect 2 "bad seed hex" "$CUZK" filecoin commit1 --sector sec --seed zz --out x.json
expect 2 "too many partitions" "$CUZK" filecoin commit1 --sector sec --seed $S --out x.json \
  --partition-count 2
[ "$fails" = 0 ] && echo "commit1 smoke: ok"
exit $((fails > 0))
