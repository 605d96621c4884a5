#!/usr/bin/env bash
# CTest: SnapDeals from the command line on a 2 KiB sector: `seal` zero data, `update` it with
# patterned data, `snap-vanilla`, then `verify-vanilla --kind snap` exits 0 with update.json's
# commitments; a proof with one path byte changed exits 1 naming the challenge; a wrong comm,
# partition index or h exits 1 or 2; `update --decode` gives the data back byte for byte.
set -u
cuzk="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
field() { sed -n "s/.*\"$1\": *\"\\([0-9a-f]*\\)\".*/\\1/p" "$tmp/upd/update.json"; }

head -c 2048 /dev/zero >"$tmp/zero"
# 64 nodes of "abcdefghijklmnopqrstuvwxyz012345": byte 31 is '5' (0x35), so each node is below r.
for _ in $(seq 64); do printf 'abcdefghijklmnopqrstuvwxyz012345'; done >"$tmp/data"
z32=0000000000000000000000000000000000000000000000000000000000000000
expect 0 '"comm_r"' filecoin seal --registered-proof StackedDrg2KiBV1_1 --data "$tmp/zero" \
  --prover-id "$z32" --sector-id 7 --ticket "$z32" --out "$tmp/sealed"
expect 0 '"comm_r_new"' filecoin update --sector "$tmp/sealed" --data "$tmp/data" --out "$tmp/upd"
expect 2 'not allowed' filecoin update --sector "$tmp/sealed" --data "$tmp/data" --out "$tmp/x" --h 3
expect 0 '"partitions":1' filecoin snap-vanilla --sector "$tmp/upd" --out "$tmp/proof"
old=$(field comm_r_old) new=$(field comm_r_new) d=$(field comm_d_new)
pub=(filecoin verify-vanilla --kind snap --registered-proof StackedDrg2KiBV1 --comm-r-old "$old"
     --comm-r-new "$new" --comm-d-new "$d")
expect 0 '"valid": true' "${pub[@]}" --vanilla "$tmp/proof"
expect 0 '"valid": true' "${pub[@]}" --vanilla "$tmp/proof" --partition-index 0
expect 2 'partitions' "${pub[@]}" --vanilla "$tmp/proof" --partition-index 1
expect 2 'not allowed' "${pub[@]}" --vanilla "$tmp/proof" --h 2
# Byte 400: inside challenge 0's proof_r_old path (comm_c 32, apex 8+256, count 8, variant 4,
# path count 8, hashes count 8, then hashes).
cp "$tmp/proof" "$tmp/bad"
printf '\x01' | dd of="$tmp/bad" bs=1 seek=400 conv=notrunc status=none
expect 1 'challenge 0' "${pub[@]}" --vanilla "$tmp/bad"
expect 1 'comm_r_old' filecoin verify-vanilla --kind snap --registered-proof StackedDrg2KiBV1 \
  --comm-r-old "$new" --comm-r-new "$new" --comm-d-new "$d" --vanilla "$tmp/proof"
head -c 100 "$tmp/proof" >"$tmp/short"
expect 2 'PartitionProof 0' "${pub[@]}" --vanilla "$tmp/short"
expect 0 '"comm_d_new"' filecoin update --decode --sector "$tmp/upd" --out "$tmp/decoded"
if ! cmp -s "$tmp/data" "$tmp/decoded"; then
  echo "FAIL: decoded data differ from the data"
  fail=1
fi
exit $fail
