#!/usr/bin/env bash
# The offline CLI without node: groth16_bench writes a circom .r1cs/.wtns (mulchain, 2^8 − 3
# constraints); cuzk setup/prove/verify in both formats; tampered inputs, proofs and keys; exit
# codes 0 (valid), 1 (invalid), 2 (usage or input error), --help.
#   cli_test.sh CUZK_BINARY GROTH16_BENCH_BINARY
set -euo pipefail
CUZK="$(realpath "$1")"
GEN="$(realpath "$2")"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
cd "$W"
expect_rc() {  # expect_rc WANT CMD...
  local want=$1; shift
  set +e; "$@" > "$W/out.txt" 2>&1; local rc=$?; set -e
  if [ "$rc" != "$want" ]; then echo "FAIL: expected exit $want, got $rc: $*"; cat "$W/out.txt"; exit 1; fi
  echo "ok (exit $rc): ${*:2}"
}
"$GEN" gen 8 . > /dev/null
C=mulchain_8
for fmt in zkey params; do
  "$CUZK" setup $C.r1cs --out key.$fmt --vk vk.$fmt --threads 2 --seed 7
done
mv vk.zkey vk.json
mv vk.params key.vk
"$CUZK" prove --zkey key.zkey --wtns $C.wtns --proof proof.json --public public.json --threads 2
"$CUZK" prove --params key.params --r1cs $C.r1cs --wtns $C.wtns --proof proof.bin --threads 2
expect_rc 0 "$CUZK" verify --vk vk.json --proof proof.json --public public.json
expect_rc 0 "$CUZK" verify --vk key.vk --proof proof.bin --public public.json
# Two partition proofs concatenated, with an array of input arrays.
cat proof.bin proof.bin > proofs2.bin
printf '[%s,%s]' "$(cat public.json)" "$(cat public.json)" > public2.json
expect_rc 0 "$CUZK" verify --vk key.vk --proof proofs2.bin --public public2.json
sed 's/"3"/"4"/' public.json > bad_public.json
# A batch with one bad entry is rejected, and the per-proof pass names it.
printf '[%s,%s]' "$(cat public.json)" "$(cat bad_public.json)" > public2_bad.json
expect_rc 1 "$CUZK" verify --vk key.vk --proof proofs2.bin --public public2_bad.json
out=$("$CUZK" verify --vk key.vk --proof proofs2.bin --public public2.json || true)
grep -q "batch-verified" <<<"$out" || { echo "FAIL: two proofs were not batch-verified: $out"; exit 1; }
out=$("$CUZK" verify --vk key.vk --proof proofs2.bin --public public2_bad.json || true)
grep -q "proof 1: INVALID" <<<"$out" && ! grep -q "proof 0: INVALID" <<<"$out" ||
  { echo "FAIL: the batch's invalid proof is not named alone: $out"; exit 1; }
expect_rc 1 "$CUZK" verify --vk vk.json --proof proof.json --public bad_public.json
expect_rc 1 "$CUZK" verify --vk key.vk --proof proof.bin --public bad_public.json
# A proof for another key: the zkey and params keys have different trapdoors.
"$CUZK" setup $C.r1cs --out other.zkey --vk other.json --threads 2 --seed 8
expect_rc 1 "$CUZK" verify --vk other.json --proof proof.json --public public.json
# Input errors.
expect_rc 2 "$CUZK" verify --vk vk.json --proof missing.json --public public.json
expect_rc 2 "$CUZK" verify --vk key.vk --proof proofs2.bin --public public.json
head -c 100 proof.bin > short.bin
expect_rc 2 "$CUZK" verify --vk key.vk --proof short.bin --public public.json
head -c 2000 key.params > trunc.params
expect_rc 2 "$CUZK" prove --params trunc.params --r1cs $C.r1cs --wtns $C.wtns --proof x.bin
grep -q "truncated" out.txt || { echo "FAIL: no truncation message"; cat out.txt; exit 1; }
# A damaged section 4 entry (cuzk setup writes sections 1, 2, 4, …: entry 0's matrix word at byte
# 1020) is named by section and index.
cp key.zkey bad4.zkey
printf '\x02' | dd of=bad4.zkey bs=1 seek=1020 conv=notrunc status=none
expect_rc 2 "$CUZK" prove --zkey bad4.zkey --wtns $C.wtns --proof x.json
grep -q "section 4 (coefficients): coefficient 0: matrix 2" out.txt || { echo "FAIL: section 4 entry not named"; cat out.txt; exit 1; }
# --timings splits the load.
"$CUZK" prove --zkey key.zkey --wtns $C.wtns --proof proof0.json --public public0.json --threads 2 --timings 2> timings.txt
grep -q "cuzk prove: key .* witness" timings.txt || { echo "FAIL: no key/witness split"; cat timings.txt; exit 1; }
expect_rc 0 "$CUZK" verify --vk vk.json --proof proof0.json --public public0.json
# The decoded-key image beside the zkey: written by the first prove above, used now; a touched
# (stale) zkey or a damaged image is rebuilt; --no-key-image neither reads nor writes one.
[ -s key.zkey.cuzkimg ] || { echo "FAIL: no key image written"; exit 1; }
img_prove() {  # img_prove EXPECTED_NOTE [options]
  local want=$1; shift
  "$CUZK" prove --zkey key.zkey --wtns $C.wtns --proof pi.json --public pubi.json --threads 2 --timings "$@" 2> timings.txt
  grep -q "key image $want" timings.txt || { echo "FAIL: key image not $want"; cat timings.txt; exit 1; }
  expect_rc 0 "$CUZK" verify --vk vk.json --proof pi.json --public pubi.json
}
img_prove used
touch -d '2001-01-01' key.zkey
img_prove "rebuilt (invalid_argument"
img_prove used
printf '\x5a' | dd of=key.zkey.cuzkimg bs=1 seek=4200 conv=notrunc status=none
img_prove "rebuilt (bad_encoding"
# An image of version 1 (before the circuit's rows were stored in it) is rebuilt, then used.
printf '\x01' | dd of=key.zkey.cuzkimg bs=1 seek=8 conv=notrunc status=none
img_prove "rebuilt (bad_encoding.*version 1,"
img_prove used
# With the image nothing of section 4 is read: a damaged entry (the bad4 byte above) under the
# zkey's old size and mtime goes unseen, the rows come from the image and the proof verifies.
cp -p key.zkey key.zkey.orig
printf '\x02' | dd of=key.zkey bs=1 seek=1020 conv=notrunc status=none
touch -r key.zkey.orig key.zkey
img_prove used
mv key.zkey.orig key.zkey
img_prove "rebuilt (invalid_argument" --no-subgroup-check  # the image records the check mode
rm key.zkey.cuzkimg
img_prove off --no-key-image
[ ! -e key.zkey.cuzkimg ] || { echo "FAIL: --no-key-image wrote an image"; exit 1; }
# One witness value changed (the low bit of the last value): no proof, exit 1, the constraint named.
cp $C.wtns bad.wtns
off=$(($(stat -c %s bad.wtns) - 32))
byte=$(od -An -tu1 -j $off -N1 bad.wtns | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of=bad.wtns bs=1 seek=$off conv=notrunc status=none
# The .r1cs path names the constraint; the .zkey (no C rows) verifies the proof before writing.
for case in "--params key.params --r1cs $C.r1cs|does not satisfy constraint [0-9]* of" \
            "--zkey key.zkey|does not satisfy the circuit"; do
  key=${case%%|*}; want=${case#*|}
  rm -f bad.out
  expect_rc 1 "$CUZK" prove $key --wtns bad.wtns --proof bad.out
  grep -q "$want" "$W/out.txt" || { echo "FAIL: expected '$want'"; cat "$W/out.txt"; exit 1; }
  [ ! -e bad.out ] || { echo "FAIL: a proof was written for a wrong witness"; exit 1; }
done
expect_rc 2 "$CUZK" prove --zkey key.zkey --params key.params --wtns $C.wtns --proof x.bin
expect_rc 2 "$CUZK" prove --params key.params --wtns $C.wtns --proof x.bin
expect_rc 2 "$CUZK" verify --vk vk.json
for c in setup prove verify; do expect_rc 0 "$CUZK" $c --help; done
echo "cli: all checks passed"
