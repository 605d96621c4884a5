#!/usr/bin/env bash
# CTest: `cuzk filecoin synth-inputs` at 32 GiB — window (2 sectors) and winning vanilla proofs
# that `verify-vanilla` accepts (exit 0), the same bytes again for the same seed, a 2 KiB C1 JSON;
# 32 GiB SnapDeals partition proofs that `verify-vanilla --kind snap` accepts and a changed byte
# fails; a bad size exits 2.
set -u
cuzk="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
# The public data printed by synth-inputs, as verify-vanilla flags.
public_args() {
  local rand ids roots i
  rand=$(sed -n 's/.*"randomness": "\([0-9a-f]*\)".*/\1/p' "$1")
  mapfile -t ids < <(sed -n 's/.*"sector_id": \([0-9]*\).*/\1/p' "$1")
  mapfile -t roots < <(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' "$1")
  pub=(--randomness "$rand")
  for i in "${!ids[@]}"; do pub+=(--sector-id "${ids[$i]}" --comm-r "${roots[$i]}"); done
}
expect 0 '"partitions": 1' filecoin synth-inputs --kind window --sector-size 32GiB --seed 5 \
  --sectors 2 --out "$tmp/w.vproof"
cp "$tmp/out" "$tmp/w.json"
public_args "$tmp/w.json"
expect 0 '"valid": true' filecoin verify-vanilla --kind window \
  --registered-proof StackedDrgWindow32GiBV1_2 --vanilla "$tmp/w.vproof" "${pub[@]}"
expect 0 '"bytes": 49920' filecoin synth-inputs --kind window --sector-size 32GiB --seed 5 \
  --sectors 2 --out "$tmp/w2.vproof" --threads 1
cmp -s "$tmp/w.vproof" "$tmp/w2.vproof" || { echo "FAIL: same seed, different bytes"; fail=1; }
expect 0 '"sector_id": 0' filecoin synth-inputs --kind winning --sector-size 32GiB --seed 5 \
  --out "$tmp/win.vproof"
public_args "$tmp/out"
expect 0 '"valid": true' filecoin verify-vanilla --kind winning \
  --registered-proof StackedDrgWinning32GiBV1 --vanilla "$tmp/win.vproof" "${pub[@]}"
expect 0 '"challenges_per_partition": 2' filecoin synth-inputs --kind porep --sector-size 2KiB \
  --seed 5 --out "$tmp/c1.json"
grep -q '"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{"StackedDrg2KiBV1":' \
  "$tmp/c1.json" || { echo "FAIL: C1 JSON head"; fail=1; }
# Miner f01000's C1: prover_id is its ID address payload, e8 07 (LEB128 of 1000), then zeros.
expect 0 '"prover_id": "e807000000000000000000000000000000000000000000000000000000000000"' \
  filecoin synth-inputs --kind porep --sector-size 2KiB --seed 5 --miner-id 1000 \
  --out "$tmp/c1m.json"
expect 2 '--miner-id is for' filecoin synth-inputs --kind snap --sector-size 32GiB --seed 5 \
  --miner-id 1000 --out "$tmp/x"
expect 0 '"partitions": 16' filecoin synth-inputs --kind snap --sector-size 32GiB --seed 5 \
  --out "$tmp/s.vproof"
snap_pub=()
for f in comm_r_old comm_d_new comm_r_new; do
  snap_pub+=("--${f//_/-}" "$(sed -n "s/.*\"$f\": \"\([0-9a-f]*\)\".*/\1/p" "$tmp/out")")
done
expect 0 '"valid": true' filecoin verify-vanilla --kind snap \
  --registered-proof StackedDrg32GiBV1 --vanilla "$tmp/s.vproof" "${snap_pub[@]}"
expect 0 '"h": 10' filecoin synth-inputs --kind snap --sector-size 32GiB --seed 5 \
  --out "$tmp/s2.vproof" --threads 1
cmp -s "$tmp/s.vproof" "$tmp/s2.vproof" || { echo "FAIL: snap: same seed, different bytes"; fail=1; }
# Flip one byte of a path hash: 16 equal partitions, so size / 2 starts partition 8; 5000 bytes
# on lies in a sibling of its first challenge's proof_r_old (after comm_c and 128 apex leaves).
size=$(stat -c %s "$tmp/s.vproof")
python3 - "$tmp/s.vproof" "$tmp/s3.vproof" $((size / 2 + 5000)) <<'PY' || fail=1
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[int(sys.argv[3])] ^= 1
open(sys.argv[2], 'wb').write(b)
PY
expect 1 'partition 8, challenge 0' filecoin verify-vanilla --kind snap \
  --registered-proof StackedDrg32GiBV1 --vanilla "$tmp/s3.vproof" "${snap_pub[@]}"
expect 2 "--sector-size" filecoin synth-inputs --kind window --sector-size 3GiB --seed 1 \
  --out "$tmp/x"
expect 2 "not yet" filecoin synth-inputs --kind porep --registered-proof \
  StackedDrg32GiBV1_2_Feat_NonInteractivePoRep --seed 1 --out "$tmp/x"
exit $fail
