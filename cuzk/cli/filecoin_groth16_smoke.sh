#!/usr/bin/env bash
# CTest: Groth16 end to end for the Filecoin circuits at 2 KiB from the command line
# (docs/filecoin/groth16.md). The inputs are real: venus's two 2 KiB sectors (lotus-seed,
# StackedDrg2KiBV1; CUZK_FILECOIN_DATA/venus-2kib) are unsealed and sealed back with the data-side
# commands, which must give the comm_r Filecoin recorded; the verifier is given those recorded
# commitments, not ours. Usage: filecoin_groth16_smoke.sh CUZK KIND...
#   winning, window  post-vanilla, setup, prove (CPU), verify; CI (seconds)
#   update           update of a zero-sealed sector with venus sector 0's data, snap-vanilla, …
#   porep            commit1 of venus sector 0, …  (update and porep: minutes, the slow test)
# Each kind: setup writes its v28 files (names checked against rust-fil-proofs parameters.json),
# prove gives 192 bytes per partition and the same bytes again for the same --rs-seed, verify exits
# 0 with the public data, 1 with one public value changed, 2 on bad input. Skipped (77) without
# CUZK_FILECOIN_DATA.
set -u
cuzk="$1"
shift
if [ -z "${CUZK_FILECOIN_DATA:-}" ]; then
  echo "CUZK_FILECOIN_DATA is unset: the venus 2 KiB sectors are needed"
  exit 77
fi
data="$CUZK_FILECOIN_DATA"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
# The three files setup wrote for a kind must carry names rust-fil-proofs publishes.
check_names() {
  local f
  for f in params vk; do
    local path
    path=$(json_field "$f" "$tmp/out")
    if [[ ! -f $path ]] || ! grep -qF "\"$(basename "$path")\"" "$data/parameters.json"; then
      echo "FAIL: setup's .$f '$path' is missing or not a name in parameters.json"
      fail=1
    fi
  done
  [[ -f $(json_field meta "$tmp/out") ]] || { echo "FAIL: no .meta"; fail=1; }
}

# venus t0106 (shared/filecoin/README.md), resealed into $tmp/s0 and $tmp/s1.
venus_reseal
params="$tmp/params"
rand=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
bad_rand=2b2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a

run_window() {
  local p=StackedDrgWindow2KiBV1
  # 2 sectors × (1 + 10 challenges) = 22 inputs (FORMATS.md §7, generate_public_inputs).
  expect 0 '"public_inputs": 22' filecoin circuit-info --kind window --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind window --registered-proof $p --out "$params" --seed 1
  check_names
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"partitions": 1' filecoin post-vanilla --kind window --registered-proof $p \
    --sector "$tmp/s0" --sector "$tmp/s1" --randomness $rand --out "$tmp/window.vproof"
  local prove=(filecoin prove --kind window --registered-proof $p --params "$params"
               --vanilla "$tmp/window.vproof" --randomness $rand --rs-seed 7)
  expect 0 '"verified": true' "${prove[@]}" --out "$tmp/window.proof"
  size_is "$tmp/window.proof" 192
  expect 0 '"verified": true' "${prove[@]}" --out "$tmp/window2.proof" --sector-id 0 \
    --comm-r "${comm_r[0]}" --sector-id 1 --comm-r "${comm_r[1]}"
  cmp -s "$tmp/window.proof" "$tmp/window2.proof" || { echo "FAIL: same --rs-seed, other bytes"; fail=1; }
  local v=(filecoin verify --kind window --registered-proof $p --vk "$vk" --randomness $rand)
  local pub=(--sector-id 0 --comm-r "${comm_r[0]}" --sector-id 1 --comm-r "${comm_r[1]}")
  expect 0 '"valid": true' "${v[@]}" --proof "$tmp/window.proof" "${pub[@]}"
  expect 0 '"valid": true' "${v[@]}" --proof "$tmp/window.proof" "${pub[@]}" --partition-index 0
  # One public value changed at a time: the sector id, comm_r, randomness, the challenge rule.
  expect 1 'invalid' "${v[@]}" --proof "$tmp/window.proof" --sector-id 0 --comm-r "${comm_r[0]}" \
    --sector-id 2 --comm-r "${comm_r[1]}"
  expect 1 'invalid' "${v[@]}" --proof "$tmp/window.proof" --sector-id 0 --comm-r "${comm_r[1]}" \
    --sector-id 1 --comm-r "${comm_r[1]}"
  expect 1 'invalid' filecoin verify --kind window --registered-proof $p --vk "$vk" \
    --randomness $bad_rand --proof "$tmp/window.proof" "${pub[@]}"
  expect 1 'invalid' filecoin verify --kind window --registered-proof StackedDrgWindow2KiBV1_2 \
    --vk "$vk" --randomness $rand --proof "$tmp/window.proof" "${pub[@]}"
  # Bad input: truncated proof, two proofs for one partition, damaged or missing .vk, bad flags.
  head -c 100 "$tmp/window.proof" >"$tmp/short.proof"
  expect 2 'multiple of 192' "${v[@]}" --proof "$tmp/short.proof" "${pub[@]}"
  cat "$tmp/window.proof" "$tmp/window.proof" >"$tmp/double.proof"
  expect 2 '2 proofs' "${v[@]}" --proof "$tmp/double.proof" "${pub[@]}"
  head -c 500 "$vk" >"$tmp/short.vk"
  expect 2 'short.vk' filecoin verify --kind window --registered-proof $p --vk "$tmp/short.vk" \
    --randomness $rand --proof "$tmp/window.proof" "${pub[@]}"
  expect 2 'No such file' "${v[@]}" --proof "$tmp/none.proof" "${pub[@]}"
  expect 2 '--comm-r' "${v[@]}" --proof "$tmp/window.proof" --sector-id 0 \
    --comm-r ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
  expect 2 '--sector-id' "${v[@]}" --proof "$tmp/window.proof" --sector-id 0 --comm-r "${comm_r[0]}" \
    --sector-id 1
  expect 2 'is not a window' filecoin verify --kind window --registered-proof StackedDrgWinning2KiBV1 \
    --vk "$vk" --randomness $rand --proof "$tmp/window.proof" "${pub[@]}"
  # prove refuses what does not fit: vanilla proofs of other randomness (exit 1), a sector flag
  # that is not the proofs' (exit 1), a missing key (exit 2).
  expect 1 'unsatisfied' filecoin prove --kind window --registered-proof $p --params "$params" \
    --vanilla "$tmp/window.vproof" --randomness $bad_rand --out "$tmp/x.proof"
  expect 1 'sector' "${prove[@]}" --out "$tmp/x.proof" --sector-id 0 --comm-r "${comm_r[0]}" \
    --sector-id 5 --comm-r "${comm_r[1]}"
  expect 2 'no proving key' filecoin prove --kind window --registered-proof $p \
    --params "$tmp/nothing" --vanilla "$tmp/window.vproof" --randomness $rand --out "$tmp/x.proof"
  # --api-version overrides the proof's challenge rule in every command: 1.1.0 keeps V1's rule
  # (the same bytes), V1_2 with 1.0.0 is V1 (same key, inputs and bytes, and it verifies), 1.2.0
  # does not fit V1's vanilla proofs (exit 1). --porep-id is PoRep's alone, update takes neither.
  expect 0 '"verified": true' "${prove[@]}" --api-version 1.1.0 --out "$tmp/window3.proof"
  cmp -s "$tmp/window.proof" "$tmp/window3.proof" || { echo "FAIL: api 1.1.0 changed the proof"; fail=1; }
  expect 0 '"verified": true' filecoin prove --kind window --registered-proof StackedDrgWindow2KiBV1_2 \
    --api-version 1.0.0 --params "$params" --vanilla "$tmp/window.vproof" --randomness $rand \
    --rs-seed 7 --out "$tmp/window4.proof"
  cmp -s "$tmp/window.proof" "$tmp/window4.proof" || { echo "FAIL: V1_2 at 1.0.0 is not V1"; fail=1; }
  expect 0 '"valid": true' filecoin verify --kind window --registered-proof StackedDrgWindow2KiBV1_2 \
    --api-version 1.0.0 --vk "$vk" --randomness $rand --proof "$tmp/window.proof" "${pub[@]}"
  expect 1 'invalid' "${v[@]}" --api-version 1.2.0 --proof "$tmp/window.proof" "${pub[@]}"
  expect 1 'unsatisfied' "${prove[@]}" --api-version 1.2.0 --out "$tmp/x.proof"
  expect 2 '--porep-id is for --kind porep' "${prove[@]}" --porep-id "$(printf '%064d' 0)" \
    --out "$tmp/x.proof"
  expect 2 'do not apply to --kind update' filecoin circuit-info --kind update \
    --registered-proof StackedDrg2KiBV1 --api-version 1.2.0
}

run_winning() {
  local p=StackedDrgWinning2KiBV1
  # 66 sectors × (1 + 1 challenge) = 132 inputs.
  expect 0 '"public_inputs": 132' filecoin circuit-info --kind winning --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind winning --registered-proof $p --out "$params" --seed 1
  check_names
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"sector_set_index"' filecoin post-vanilla --kind winning --registered-proof $p \
    --sector "$tmp/s0" --sector "$tmp/s1" --randomness $rand --prover-id $prover \
    --out "$tmp/winning.vproof"
  local idx
  idx=$(sed -n 's/.*"sector_set_index": *\([0-9]*\).*/\1/p' "$tmp/out")
  expect 0 '"verified": true' filecoin prove --kind winning --registered-proof $p \
    --params "$params" --vanilla "$tmp/winning.vproof" --randomness $rand --prover-id $prover \
    --rs-seed 7 --out "$tmp/winning.proof"
  size_is "$tmp/winning.proof" 192
  local v=(filecoin verify --kind winning --registered-proof $p --vk "$vk" --randomness $rand
           --prover-id $prover --proof "$tmp/winning.proof")
  local other=$((1 - idx))
  expect 0 '"valid": true' "${v[@]}" --sector-id "$idx" --comm-r "${comm_r[$idx]}"
  expect 1 'invalid' "${v[@]}" --sector-id "$other" --comm-r "${comm_r[$other]}"
  expect 1 'invalid' "${v[@]}" --sector-id "$idx" --comm-r "${comm_r[$other]}"
  expect 2 'challenged sector alone' "${v[@]}" --sector-id 0 --comm-r "${comm_r[0]}" \
    --sector-id 1 --comm-r "${comm_r[1]}"
  expect 2 '--prover-id' filecoin prove --kind winning --registered-proof $p --params "$params" \
    --vanilla "$tmp/winning.vproof" --randomness $rand --prover-id 80 --out "$tmp/x.proof"
}

run_update() {
  local p=StackedDrg2KiBV1
  local z32=0000000000000000000000000000000000000000000000000000000000000000
  head -c 2048 /dev/zero >"$tmp/zero"
  expect 0 '"comm_r"' filecoin seal --registered-proof StackedDrg2KiBV1_1 --data "$tmp/zero" \
    --prover-id $prover --sector-id 7 --ticket $z32 --out "$tmp/cc"
  expect 0 '"comm_r_new"' filecoin update --sector "$tmp/cc" --data "$tmp/venus0.bin" --out "$tmp/upd"
  expect 0 '"partitions":1' filecoin snap-vanilla --sector "$tmp/upd" --out "$tmp/snap.vproof"
  local old new d
  old=$(json_field comm_r_old "$tmp/upd/update.json")
  new=$(json_field comm_r_new "$tmp/upd/update.json")
  d=$(json_field comm_d_new "$tmp/upd/update.json")
  expect 0 '"public_inputs": 4' filecoin circuit-info --kind update --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind update --registered-proof $p --out "$params" --seed 1
  check_names
  local vk
  vk=$(json_field vk "$tmp/out")
  local pub=(--comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d")
  expect 0 '"verified": true' filecoin prove --kind update --registered-proof $p --params "$params" \
    --vanilla "$tmp/snap.vproof" "${pub[@]}" --rs-seed 7 --out "$tmp/update.proof"
  size_is "$tmp/update.proof" 192
  local v=(filecoin verify --kind update --registered-proof $p --vk "$vk" --proof "$tmp/update.proof")
  expect 0 '"valid": true' "${v[@]}" "${pub[@]}"
  expect 0 '"valid": true' "${v[@]}" "${pub[@]}" --partition-index 0
  expect 1 'invalid' "${v[@]}" --comm-r-old "$new" --comm-r-new "$new" --comm-d-new "$d"
  expect 2 'not allowed' "${v[@]}" "${pub[@]}" --h 2  # 2 KiB allows h = 1 alone
  expect 2 'partitions' "${v[@]}" "${pub[@]}" --partition-index 1
  expect 2 '--comm-d-new is required' "${v[@]}" --comm-r-old "$old" --comm-r-new "$new"
}

run_porep() {
  local p=StackedDrg2KiBV1
  local seed=0303030303030303030303030303030303030303030303030303030303030303
  expect 0 '"verified":true' filecoin commit1 --sector "$tmp/s0" --seed $seed --out "$tmp/c1.json"
  # 3 + 18 per challenge × 2 challenges = 39 inputs (FORMATS.md §7).
  expect 0 '"public_inputs": 39' filecoin circuit-info --kind porep --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind porep --registered-proof $p --out "$params" --seed 1
  check_names
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"verified": true' filecoin prove --kind porep --registered-proof $p --params "$params" \
    --c1 "$tmp/c1.json" --prover-id $prover --sector-id 0 --comm-r "${comm_r[0]}" --rs-seed 7 \
    --out "$tmp/porep.proof"
  size_is "$tmp/porep.proof" 192
  local v=(filecoin verify --kind porep --registered-proof $p --vk "$vk" --proof "$tmp/porep.proof"
           --prover-id $prover --ticket $ticket --comm-d "${comm_d[0]}")
  expect 0 '"valid": true' "${v[@]}" --sector-id 0 --comm-r "${comm_r[0]}" --seed $seed
  expect 1 'invalid' "${v[@]}" --sector-id 0 --comm-r "${comm_r[0]}" --seed ${seed/03/04}
  expect 1 'invalid' "${v[@]}" --sector-id 1 --comm-r "${comm_r[0]}" --seed $seed
  expect 1 'invalid' filecoin verify --kind porep --registered-proof StackedDrg2KiBV1_1 --vk "$vk" \
    --proof "$tmp/porep.proof" --prover-id $prover --ticket $ticket --comm-d "${comm_d[0]}" \
    --sector-id 0 --comm-r "${comm_r[0]}" --seed $seed
  expect 2 '--seed is required' "${v[@]}" --sector-id 0 --comm-r "${comm_r[0]}"
  expect 2 'not of sector 1' filecoin prove --kind porep --registered-proof $p --params "$params" \
    --c1 "$tmp/c1.json" --prover-id $prover --sector-id 1 --out "$tmp/x.proof"
  # --porep-id / --api-version: venus's C1 (porep_id 0, api 1.0.0) relabelled StackedDrg2KiBV1_1,
  # as a PoRepConfig built by hand would make it, proves and verifies with the overrides that
  # name how it was made; overrides it contradicts are refused naming both.
  local id0 id5
  id0=$(printf '%064d' 0)
  id5=05$(printf '%062d' 0)
  sed 's/"registered_proof":"StackedDrg2KiBV1"/"registered_proof":"StackedDrg2KiBV1_1"/' \
    "$tmp/c1.json" >"$tmp/c1_v11.json"
  local prove_v11=(filecoin prove --kind porep --registered-proof StackedDrg2KiBV1_1 --params "$params"
                   --c1 "$tmp/c1_v11.json" --prover-id $prover --sector-id 0 --rs-seed 7)
  expect 2 'replica_id' "${prove_v11[@]}" --out "$tmp/x.proof"
  expect 0 '"verified": true' "${prove_v11[@]}" --porep-id "$id0" --api-version 1.0.0 \
    --out "$tmp/porep_v11.proof"
  cmp -s "$tmp/porep.proof" "$tmp/porep_v11.proof" || { echo "FAIL: overrides changed the proof"; fail=1; }
  expect 0 '"valid": true' filecoin verify --kind porep --registered-proof StackedDrg2KiBV1_1 \
    --porep-id "$id0" --api-version 1.0.0 --vk "$vk" --proof "$tmp/porep_v11.proof" \
    --prover-id $prover --ticket $ticket --comm-d "${comm_d[0]}" --sector-id 0 \
    --comm-r "${comm_r[0]}" --seed $seed
  expect 2 "porep_id $id0 (its registered proof StackedDrg2KiBV1's), not with the porep_id override $id5" \
    filecoin prove --kind porep --registered-proof $p --params "$params" --c1 "$tmp/c1.json" \
    --prover-id $prover --sector-id 0 --porep-id "$id5" --out "$tmp/x.proof"
  expect 2 "api version 1.0.0 (its registered proof StackedDrg2KiBV1's), not of the api_version override 1.1.0" \
    filecoin prove --kind porep --registered-proof $p --params "$params" --c1 "$tmp/c1.json" \
    --prover-id $prover --sector-id 0 --api-version 1.1.0 --out "$tmp/x.proof"
  expect 2 "(StackedDrg2KiBV1_1) is not the C1's seal proof StackedDrg2KiBV1" \
    "${prove_v11[@]/c1_v11.json/c1.json}" --out "$tmp/x.proof"
}

for kind in "$@"; do
  t0=$SECONDS
  case $kind in
    window) run_window ;;
    winning) run_winning ;;
    update) run_update ;;
    porep) run_porep ;;
    *) echo "unknown kind $kind"; exit 2 ;;
  esac
  echo "== $kind: $((SECONDS - t0)) s"
done
exit $fail
