#!/usr/bin/env bash
# CTest (label slow): Groth16 end to end at 8 MiB from the command line, the 2 KiB smoke test's
# steps (filecoin_groth16_smoke.sh; docs/filecoin/groth16.md) on sectors sealed here from seeded
# random data (no real 8 MiB sectors exist for these proofs). Usage:
#   filecoin_groth16_8mib_smoke.sh CUZK KIND...   KIND: window | winning | porep | update
# Each kind: the data side makes its input (seal, post-vanilla, commit1, update + snap-vanilla),
# setup --seed 1 writes the key, prove on the CPU backend gives 192 bytes per partition and
# verifies itself, verify exits 0 with the public data and 1 with one public value changed.
# update encodes with h = 8, not the 8 MiB default 10 (storage-proofs-update hs = 7..12): prove
# and verify take --h 8; the default h fails both.
# Times on the 2-core VM (shared, load 6–15), per kind: window 85 s (sealing the two sectors
# included; setup 16 s, prove 7 s), winning 149 s (setup 101 s, prove 32 s), porep 603 s (setup
# 492 s, prove 39 s; peak RSS 3.2 GB), update 1,858 s (setup 972 s, prove 459 s for 4 partitions;
# peak RSS 9.4 GB). docs/filecoin/groth16.md "8 MiB slow tests" has the ctest line for a bigger host.
set -u
cuzk="$1"
shift
source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
params="$tmp/params"

prover=e807000000000000000000000000000000000000000000000000000000000000  # actor 1000 (LEB128)
ticket=0707070707070707070707070707070707070707070707070707070707070707
rand=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
bad_rand=2b2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
seed=0303030303030303030303030303030303030303030303030303030303030303
seal_proof=StackedDrg8MiBV1_1

# 8 MiB of Fr32 data (each 32-byte node's top two bits clear) from a seed.
make_data() {  # make_data <seed> <file>
  python3 - "$1" "$2" <<'P'
import random, sys
rng = random.Random(int(sys.argv[1]))
b = bytearray(rng.randbytes(8 << 20))
for i in range(31, len(b), 32):
    b[i] &= 0x3f
open(sys.argv[2], "wb").write(b)
P
}

comm_r=()
comm_d=()
seal_sectors() {  # two sealed sectors s0, s1 (once per script)
  [[ -d $tmp/s1 ]] && return
  local id
  for id in 0 1; do
    make_data $((id + 11)) "$tmp/data$id"
    expect 0 '"comm_r"' filecoin seal --registered-proof $seal_proof --data "$tmp/data$id" \
      --prover-id $prover --sector-id $id --ticket $ticket --out "$tmp/s$id"
    comm_r[id]=$(json_field comm_r "$tmp/out")
    comm_d[id]=$(json_field comm_d "$tmp/out")
  done
}

run_window() {
  local p=StackedDrgWindow8MiBV1_2
  seal_sectors
  expect 0 '"partitions": 1' filecoin post-vanilla --kind window --registered-proof $p \
    --sector "$tmp/s0" --sector "$tmp/s1" --randomness $rand --out "$tmp/window.vproof"
  expect 0 '"public_inputs": 22' filecoin circuit-info --kind window --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind window --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"verified": true' filecoin prove --kind window --registered-proof $p --params "$params" \
    --vanilla "$tmp/window.vproof" --randomness $rand --rs-seed 7 --backend cpu --out "$tmp/window.proof"
  size_is "$tmp/window.proof" 192
  local v=(filecoin verify --kind window --registered-proof $p --vk "$vk" --proof "$tmp/window.proof")
  local pub=(--sector-id 0 --comm-r "${comm_r[0]}" --sector-id 1 --comm-r "${comm_r[1]}")
  expect 0 '"valid": true' "${v[@]}" --randomness $rand "${pub[@]}"
  expect 1 'invalid' "${v[@]}" --randomness $bad_rand "${pub[@]}"
  expect 1 'invalid' "${v[@]}" --randomness $rand --sector-id 0 --comm-r "${comm_r[1]}" \
    --sector-id 1 --comm-r "${comm_r[1]}"
}

run_winning() {
  local p=StackedDrgWinning8MiBV1
  seal_sectors
  expect 0 '"sector_set_index"' filecoin post-vanilla --kind winning --registered-proof $p \
    --sector "$tmp/s0" --sector "$tmp/s1" --randomness $rand --prover-id $prover \
    --out "$tmp/winning.vproof"
  local idx
  idx=$(sed -n 's/.*"sector_set_index": *\([0-9]*\).*/\1/p' "$tmp/out")
  expect 0 '"public_inputs": 132' filecoin circuit-info --kind winning --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind winning --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"verified": true' filecoin prove --kind winning --registered-proof $p --params "$params" \
    --vanilla "$tmp/winning.vproof" --randomness $rand --prover-id $prover --rs-seed 7 \
    --backend cpu --out "$tmp/winning.proof"
  size_is "$tmp/winning.proof" 192
  local v=(filecoin verify --kind winning --registered-proof $p --vk "$vk" --randomness $rand
           --prover-id $prover --proof "$tmp/winning.proof")
  local other=$((1 - idx))
  expect 0 '"valid": true' "${v[@]}" --sector-id "$idx" --comm-r "${comm_r[$idx]}"
  expect 1 'invalid' "${v[@]}" --sector-id "$idx" --comm-r "${comm_r[$other]}"
}

run_porep() {
  local p=$seal_proof
  seal_sectors
  expect 0 '"verified":true' filecoin commit1 --sector "$tmp/s0" --seed $seed --out "$tmp/c1.json"
  expect 0 '"constraints"' filecoin circuit-info --kind porep --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind porep --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  expect 0 '"verified": true' filecoin prove --kind porep --registered-proof $p --params "$params" \
    --c1 "$tmp/c1.json" --prover-id $prover --sector-id 0 --rs-seed 7 --backend cpu \
    --out "$tmp/porep.proof"
  size_is "$tmp/porep.proof" 192  # 8 MiB PoRep: one partition
  local v=(filecoin verify --kind porep --registered-proof $p --vk "$vk" --proof "$tmp/porep.proof"
           --prover-id $prover --ticket $ticket --comm-d "${comm_d[0]}" --sector-id 0)
  expect 0 '"valid": true' "${v[@]}" --comm-r "${comm_r[0]}" --seed $seed
  expect 1 'invalid' "${v[@]}" --comm-r "${comm_r[0]}" --seed ${seed/03/04}
  expect 1 'invalid' "${v[@]}" --comm-r "${comm_r[1]}" --seed $seed
}

run_update() {
  local p=StackedDrg8MiBV1
  local z32=0000000000000000000000000000000000000000000000000000000000000000
  head -c $((8 << 20)) /dev/zero >"$tmp/zero"
  make_data 21 "$tmp/new"
  expect 0 '"comm_r"' filecoin seal --registered-proof $seal_proof --data "$tmp/zero" \
    --prover-id $prover --sector-id 7 --ticket $z32 --out "$tmp/cc"
  expect 0 '"h":8' filecoin update --sector "$tmp/cc" --data "$tmp/new" --h 8 --out "$tmp/upd"
  expect 0 '"partitions":4' filecoin snap-vanilla --sector "$tmp/upd" --out "$tmp/snap.vproof"
  local old new d
  old=$(json_field comm_r_old "$tmp/upd/update.json")
  new=$(json_field comm_r_new "$tmp/upd/update.json")
  d=$(json_field comm_d_new "$tmp/upd/update.json")
  local pub=(--comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d")
  expect 0 '"public_inputs": 4' filecoin circuit-info --kind update --registered-proof $p
  expect 0 '"params_bytes"' filecoin setup --kind update --registered-proof $p --out "$params" --seed 1
  local vk
  vk=$(json_field vk "$tmp/out")
  local prove=(filecoin prove --kind update --registered-proof $p --params "$params"
               --vanilla "$tmp/snap.vproof" "${pub[@]}" --rs-seed 7 --backend cpu)
  # The vanilla proofs hold no h: under the default h (10) they fail.
  expect 1 'vanilla_proofs' "${prove[@]}" --out "$tmp/x.proof"
  expect 0 '"verified": true' "${prove[@]}" --h 8 --out "$tmp/update.proof"
  size_is "$tmp/update.proof" $((4 * 192))
  local v=(filecoin verify --kind update --registered-proof $p --vk "$vk" --proof "$tmp/update.proof")
  expect 0 '"valid": true' "${v[@]}" "${pub[@]}" --h 8
  expect 1 'invalid' "${v[@]}" "${pub[@]}"  # h_select of h = 10, not 8
  expect 1 'invalid' "${v[@]}" "${pub[@]}" --h 9
  expect 1 'invalid' "${v[@]}" --comm-r-old "$new" --comm-r-new "$new" --comm-d-new "$d" --h 8
}

for kind in "$@"; do
  t0=$SECONDS
  case $kind in
    window) run_window ;;
    winning) run_winning ;;
    porep) run_porep ;;
    update) run_update ;;
    *) echo "unknown kind $kind"; exit 2 ;;
  esac
  echo "== $kind (8 MiB): $((SECONDS - t0)) s"
done
exit $fail
