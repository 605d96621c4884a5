#!/usr/bin/env bash
# CTest: `cuzk filecoin verify-vanilla` on the real 32 GiB WindowPoSt proof of Curio
# ($CUZK_FILECOIN_DATA/curio-32gib-post, public info from its postpub.json) must exit 0; a copy
# with one byte of a path hash changed must exit 1 naming the inclusion proof; a truncated copy
# and a bad flag must exit 2. Exit 77 (skipped) when CUZK_FILECOIN_DATA is unset.
set -u
cuzk="$1"
if [[ -z "${CUZK_FILECOIN_DATA:-}" ]]; then
  echo "CUZK_FILECOIN_DATA is unset: skipping the real-proof checks"
  exit 77
fi
proof="$CUZK_FILECOIN_DATA/curio-32gib-post/post.vproof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# postpub.json: Randomness = 32 zero bytes, sector 1, SealedCID digest below, PoStProof 8.
args=(filecoin verify-vanilla --kind window --registered-proof StackedDrgWindow32GiBV1
      --randomness 0000000000000000000000000000000000000000000000000000000000000000
      --sector-id 1 --comm-r df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b)
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
expect 0 '"valid": true' "${args[@]}" --vanilla "$proof"
# Byte 80: inclusion_proofs[0].base_proof[0].hashes[0], byte 4.
cp "$proof" "$tmp/bad.vproof" && chmod u+w "$tmp/bad.vproof"
printf '\xff' | dd of="$tmp/bad.vproof" bs=1 seek=80 conv=notrunc status=none
expect 1 "inclusion_proofs[0]: the leaf and the path hashes" "${args[@]}" --vanilla "$tmp/bad.vproof"
head -c 24000 "$proof" >"$tmp/short.vproof"
expect 2 "truncated" "${args[@]}" --vanilla "$tmp/short.vproof"
expect 2 "--randomness" "${args[@]/0000000000000000000000000000000000000000000000000000000000000000/ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff}" --vanilla "$proof"
expect 2 "--c1 is required" filecoin verify-vanilla --kind porep --registered-proof StackedDrg2KiBV1 --vanilla "$proof"
exit $fail
