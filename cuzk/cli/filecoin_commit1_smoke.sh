#!/usr/bin/env bash
# `cuzk filecoin seal`, `commit1` and `verify-vanilla --kind porep` on a 2 KiB sector: the C1
# verifies (bare and in Curio's envelope, with replica_id recomputed), wrong public data exits 1,
# bad usage exits 2.
set -u
cuzk="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
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
expect 0 '' filecoin seal --registered-proof StackedDrg2KiBV1_1 --data data \
  --prover-id $P1 --sector-id 7 --ticket $T --out sec
expect 0 '"verified":true' filecoin commit1 --sector sec --seed $S --out c1.json
expect 0 '' "${V[@]}" --c1 c1.json
expect 0 '' "${V[@]}" --c1 c1.json --prover-id $P1 \
  --sector-id 7
python3 - <<'P'
import base64, json
t = open("c1.json", "rb").read()
open("env.json", "w").write(json.dumps(
    {"SectorNum": 7, "Phase1Out": base64.b64encode(t).decode(), "SectorSize": 2048},
    separators=(",", ":")))
P
expect 0 '' "${V[@]}" --c1 env.json
expect 1 '' "${V[@]}" --c1 c1.json --prover-id $P1 --sector-id 8
expect 1 '' "${V[@]}" --c1 c1.json --seed ${S/03/04}
expect 1 '' filecoin verify-vanilla --kind porep \
  --registered-proof StackedDrg2KiBV1 --c1 c1.json
expect 2 '' "${V[@]}"
expect 2 '' "${V[@]}" --c1 c1.json --comm-d \
  ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
expect 2 '' filecoin commit1 --sector sec --seed zz --out x.json
expect 2 '' filecoin commit1 --sector sec --seed $S --out x.json \
  --partition-count 2
[ "$fail" = 0 ] && echo "commit1 smoke: ok"
exit $fail
