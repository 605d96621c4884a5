#!/usr/bin/env bash
# On a GPU machine: CPU and CUDA proofs of the 2 KiB Filecoin circuits through `cuzk filecoin`
# (docs/filecoin/groth16.md). Seals two 2 KiB sectors, makes each kind's vanilla proofs, runs a
# seeded setup, proves with --backend cpu and --backend cuda:0 under the same --rs-seed and requires
# the same bytes, then verifies the CUDA proof; first runs the filecoin_groth16_test GTest.
#   scripts/filecoin-groth16-gpu.sh DIR [KINDS]
# DIR holds a CUDA build's cuzk and filecoin_groth16_test (and DIR/lib with their shared libraries
# when the machine lacks them, as scripts/gpu-carry.sh lays them out); KINDS defaults to
# "window winning update porep". Exit 1 when a proof differs or a step fails.
# CUZK_GPU_SIZE=8MiB runs the same flow on 8 MiB sectors (the GTest step is 2 KiB only);
# CUZK_SETUP_DEVICE=cuda:0 makes each key with the GPU's fixed-base multiplications.
set -u
SIZE=${CUZK_GPU_SIZE:-2KiB}
case $SIZE in 2KiB) BYTES=2048 ;; 8MiB) BYTES=8388608 ;; *) echo "CUZK_GPU_SIZE: 2KiB or 8MiB"; exit 2 ;; esac
SETUP_DEV=()
[ -n "${CUZK_SETUP_DEVICE:-}" ] && SETUP_DEV=(--device "$CUZK_SETUP_DEVICE")
here="$(cd "$1" && pwd)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
C="$here/cuzk"
kinds="${2:-window winning update porep}"
fail=0
nvidia-smi -L
if [ "$SIZE" = 2KiB ]; then
  echo "== gtest"; timeout 300 "$here/filecoin_groth16_test" 2>&1 | tail -12
  [ "${PIPESTATUS[0]}" = 0 ] || fail=1
fi
T=$(mktemp -d); cd "$T"
P=0500000000000000000000000000000000000000000000000000000000000000
TK=0101010101010101010101010101010101010101010101010101010101010101
R=2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a0a
head -c $BYTES /dev/zero | tr '\0' '\021' > d3; head -c $BYTES /dev/zero | tr '\0' '\022' > d9; head -c $BYTES /dev/zero > zero
for id in 3 9; do $C filecoin seal --registered-proof StackedDrg${SIZE}V1_1 --data d$id --prover-id $P --sector-id $id --ticket $TK --out s$id > /dev/null || echo "seal $id failed"; done
cr() { sed -n 's/.*"comm_r": *"\([0-9a-f]*\)".*/\1/p' s$1/sector.json; }
fld() { sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$2" | head -1; }
cmp_kind() {  # kind proof prove-args... ; verify-args in V
  local kind=$1 p=$2; shift 2
  local t0=$SECONDS
  $C filecoin setup --kind $kind --registered-proof $p --out params --seed 1 "${SETUP_DEV[@]}" > setup.json || { echo "setup $kind failed"; fail=1; return; }
  echo "$kind setup $((SECONDS - t0)) s, $(fld params setup.json | xargs ls -la | awk '{print $5}') B"
  for b in cpu cuda:0; do
    $C filecoin prove --kind $kind --registered-proof $p --params params "$@" --rs-seed 7 --backend $b --out $kind.$b.proof > prove.json 2> prove.err || { echo "prove $kind $b failed"; cat prove.err; fail=1; }
    echo "$kind $b: $(tr -d '\n ' < prove.json | sed 's/.*"seconds"://')"
  done
  if cmp -s $kind.cpu.proof $kind.cuda:0.proof; then echo "$kind: CPU and CUDA proofs identical ($(stat -c %s $kind.cpu.proof) B)"; else echo "FAIL $kind: proofs differ"; fail=1; fi
  $C filecoin verify --kind $kind --registered-proof $p --vk "$(fld vk setup.json)" --proof $kind.cuda:0.proof "${V[@]}" > /dev/null; local rc=$?; echo "$kind verify CUDA proof: rc=$rc"; [ $rc = 0 ] || fail=1
}
for kind in $kinds; do case $kind in
window)
  $C filecoin post-vanilla --kind window --registered-proof StackedDrgWindow${SIZE}V1 --sector s3 --sector s9 --randomness $R --out w.vproof > /dev/null
  V=(--randomness $R --sector-id 3 --comm-r $(cr 3) --sector-id 9 --comm-r $(cr 9))
  cmp_kind window StackedDrgWindow${SIZE}V1 --vanilla w.vproof --randomness $R ;;
winning)
  $C filecoin post-vanilla --kind winning --registered-proof StackedDrgWinning${SIZE}V1 --sector s3 --sector s9 --randomness $R --prover-id $P --out g.vproof > g.json
  idx=$(sed -n 's/.*"sector_set_index": *\([0-9]*\).*/\1/p' g.json); sid=$([[ $idx == 0 ]] && echo 3 || echo 9)
  V=(--randomness $R --sector-id $sid --comm-r $(cr $sid))
  cmp_kind winning StackedDrgWinning${SIZE}V1 --vanilla g.vproof --randomness $R --prover-id $P ;;
update)
  $C filecoin seal --registered-proof StackedDrg${SIZE}V1_1 --data zero --prover-id $P --sector-id 7 --ticket $TK --out cc > /dev/null
  $C filecoin update --sector cc --data d3 --out upd > /dev/null; $C filecoin snap-vanilla --sector upd --out snap.vproof > /dev/null
  V=(--comm-r-old $(fld comm_r_old upd/update.json) --comm-r-new $(fld comm_r_new upd/update.json) --comm-d-new $(fld comm_d_new upd/update.json))
  cmp_kind update StackedDrg${SIZE}V1 --vanilla snap.vproof "${V[@]}" ;;
porep)
  S=0303030303030303030303030303030303030303030303030303030303030303
  $C filecoin commit1 --sector s3 --seed $S --out c1.json > /dev/null
  V=(--prover-id $P --sector-id 3 --ticket $TK --seed $S --comm-r $(cr 3) --comm-d $(fld comm_d s3/sector.json))
  cmp_kind porep StackedDrg${SIZE}V1_1 --c1 c1.json --prover-id $P --sector-id 3 ;;
esac; done
rm -rf "$T"
exit $fail
