#!/usr/bin/env bash
# CTest: `cuzk filecoin seal` two 2 KiB sectors, then `post-vanilla --kind window` (V1 and V1_2)
# and `--kind winning`; `verify-vanilla` must accept each output (exit 0) and refuse a copy with
# one path byte changed (exit 1); a bad flag or a missing sector directory exits 2.
set -u
cuzk="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
# 2 KiB of Fr32 data: every byte 0x11 (top bits of byte 31 clear).
head -c 2048 /dev/zero | tr '\0' '\021' >"$tmp/data"
prover=0500000000000000000000000000000000000000000000000000000000000000
ticket=0101010101010101010101010101010101010101010101010101010101010101
rand=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
for id in 3 9; do
  expect 0 '"comm_r"' filecoin seal --registered-proof StackedDrg2KiBV1_1 --data "$tmp/data" \
    --prover-id $prover --sector-id $id --ticket $ticket --out "$tmp/s$id"
done
comm_r() { sed -n 's/.*"comm_r": *"\([0-9a-f]*\)".*/\1/p' "$tmp/s$1/sector.json"; }
pub=(--sector-id 3 --comm-r "$(comm_r 3)" --sector-id 9 --comm-r "$(comm_r 9)")
for p in StackedDrgWindow2KiBV1 StackedDrgWindow2KiBV1_2; do
  expect 0 '"partitions": 1' filecoin post-vanilla --kind window --registered-proof $p \
    --sector "$tmp/s3" --sector "$tmp/s9" --randomness $rand --out "$tmp/$p.vproof"
  expect 0 '"valid": true' filecoin verify-vanilla --kind window --registered-proof $p \
    --vanilla "$tmp/$p.vproof" --randomness $rand "${pub[@]}"
  # Byte 80 lies in the first inclusion proof's first path element's sibling hashes.
  cp "$tmp/$p.vproof" "$tmp/bad.vproof"
  printf '\x3f' | dd of="$tmp/bad.vproof" bs=1 seek=80 conv=notrunc status=none
  expect 1 "invalid" filecoin verify-vanilla --kind window --registered-proof $p \
    --vanilla "$tmp/bad.vproof" --randomness $rand "${pub[@]}"
done
expect 0 '"sector_set_index"' filecoin post-vanilla --kind winning \
  --registered-proof StackedDrgWinning2KiBV1 --sector "$tmp/s3" --sector "$tmp/s9" \
  --randomness $rand --prover-id $prover --out "$tmp/win.vproof"
idx=$(sed -n 's/.*"sector_set_index": *\([0-9]*\).*/\1/p' "$tmp/out")
sid=$([[ $idx == 0 ]] && echo 3 || echo 9)
expect 0 '"valid": true' filecoin verify-vanilla --kind winning \
  --registered-proof StackedDrgWinning2KiBV1 --vanilla "$tmp/win.vproof" --randomness $rand \
  --sector-id $sid --comm-r "$(comm_r $sid)" --prover-id $prover --sector-set-size 2 \
  --sector-index "$idx"
expect 2 "--randomness" filecoin post-vanilla --kind window --registered-proof \
  StackedDrgWindow2KiBV1 --sector "$tmp/s3" --randomness ffff --out "$tmp/x"
expect 2 "nothing" filecoin post-vanilla --kind window --registered-proof \
  StackedDrgWindow2KiBV1 --sector "$tmp/nothing" --randomness $rand --out "$tmp/x"
expect 2 "not a winning" filecoin post-vanilla --kind winning --registered-proof \
  StackedDrgWindow2KiBV1 --sector "$tmp/s3" --randomness $rand --prover-id $prover --out "$tmp/x"
exit $fail
