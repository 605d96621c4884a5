#!/usr/bin/env bash
# snarkjs ⇄ cuzk interop, both directions, plus the bellperson-format CLI round trip.
#   interop_test.sh CUZK_BINARY
# Installs the pinned snarkjs/circom2 (package-lock.json, copied from the oracles' pins) into
# tests/interop/node_modules with `npm ci` on first use. Exits 77 (CTest SKIP) when node or npm
# is absent; every other failure is a test failure.
#
# Steps: circom2 compiles mulchain(61) for bls12381 (64-row domain); a small phase-1 ceremony
# (2^7) and `snarkjs groth16 setup` make the zkey; then
#   1. `cuzk prove` on snarkjs's zkey → accepted by `snarkjs groth16 verify`
#   2. `snarkjs groth16 prove` → accepted by `cuzk verify`
#   3. a tampered public input, proof and key → rejected by both
#   4. `cuzk setup` makes a zkey → `snarkjs groth16 prove` with it → accepted by both verifiers
#   5. bellperson formats through the CLI: setup → .params/.vk → prove → 192-byte proof → verify
#   6. exit codes: --help 0, invalid 1, usage or input error 2
set -euo pipefail
CUZK="$(realpath "$1")"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "SKIP: node/npm not found; the snarkjs interop test needs node 18+ and npm"
  exit 77
fi
if [ ! -x "$HERE/node_modules/.bin/snarkjs" ] || [ ! -x "$HERE/node_modules/.bin/circom2" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi
S="$HERE/node_modules/.bin/snarkjs"
CIRCOM="$HERE/node_modules/.bin/circom2"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
cd "$W"
step() { printf '\n== %s\n' "$*"; }
expect_rc() {  # expect_rc WANT CMD...
  local want=$1; shift
  set +e; "$@" > "$W/out.txt" 2>&1; local rc=$?; set -e
  if [ "$rc" != "$want" ]; then echo "FAIL: expected exit $want, got $rc: $*"; cat "$W/out.txt"; exit 1; fi
  echo "ok (exit $rc): $(basename "$1") ${2:-} ${3:-}"
}
snarkjs_verify() { "$S" groth16 verify "$@"; }

step "compile mulchain(61) for bls12381, witness"
printf 'pragma circom 2.0.0;\ninclude "mulchain.circom";\ncomponent main {public [a]} = MulChain(61);\n' > main.circom
cp "$HERE/circuits/mulchain.circom" .  # circom2 runs as WASI: it sees only the working directory
"$CIRCOM" main.circom --r1cs --wasm --prime bls12381 -o . > compile.log
echo '{"a": "3", "b": "11"}' > input.json
"$S" wtns calculate main_js/main.wasm input.json main.wtns

step "snarkjs ceremony 2^7 and groth16 setup"
"$S" powersoftau new bls12381 7 pot0.ptau > /dev/null
"$S" powersoftau contribute pot0.ptau pot1.ptau --name=ci -e="interop entropy" > /dev/null
"$S" powersoftau prepare phase2 pot1.ptau pot.ptau > /dev/null
"$S" groth16 setup main.r1cs pot.ptau s0.zkey > /dev/null
"$S" zkey contribute s0.zkey snarkjs.zkey --name=ci -e="zkey entropy" > /dev/null
"$S" zkey export verificationkey snarkjs.zkey vk.json > /dev/null

step "1. cuzk prove on the snarkjs zkey, snarkjs verifies"
"$CUZK" prove --zkey snarkjs.zkey --wtns main.wtns --proof cuzk_proof.json --public cuzk_public.json --threads 2
expect_rc 0 "$S" groth16 verify vk.json cuzk_public.json cuzk_proof.json
expect_rc 0 "$CUZK" verify --vk vk.json --proof cuzk_proof.json --public cuzk_public.json
# Again from the key image the first prove wrote (points and section 4's rows mapped, not decoded).
"$CUZK" prove --zkey snarkjs.zkey --wtns main.wtns --proof img_proof.json --public img_public.json --threads 2 --timings 2> img.txt
grep -q "key image used" img.txt || { echo "FAIL: key image not used"; cat img.txt; exit 1; }
expect_rc 0 "$S" groth16 verify vk.json img_public.json img_proof.json

step "2. snarkjs prove, cuzk verifies"
"$S" groth16 prove snarkjs.zkey main.wtns sj_proof.json sj_public.json
cmp sj_public.json cuzk_public.json
expect_rc 0 "$CUZK" verify --vk vk.json --proof sj_proof.json --public sj_public.json

step "3. tampered public input, proof and key are rejected by both"
node -e 'const f=process.argv[1];const p=require(f);p[1]=String(BigInt(p[1])+1n);require("fs").writeFileSync(f+".bad.json",JSON.stringify(p))' "$W/sj_public.json"
node -e 'const f=process.argv[1];const p=require(f);p.pi_c=p.pi_a;require("fs").writeFileSync(f+".bad.json",JSON.stringify(p))' "$W/sj_proof.json"
node -e 'const f=process.argv[1];const p=require(f);p.IC[1]=p.IC[0];require("fs").writeFileSync(f+".bad.json",JSON.stringify(p))' "$W/vk.json"
for who in sj cuzk; do
  expect_rc 1 "$S" groth16 verify vk.json sj_public.json.bad.json ${who}_proof.json
  expect_rc 1 "$CUZK" verify --vk vk.json --proof ${who}_proof.json --public sj_public.json.bad.json
  expect_rc 1 "$S" groth16 verify vk.json.bad.json sj_public.json ${who}_proof.json
  expect_rc 1 "$CUZK" verify --vk vk.json.bad.json --proof ${who}_proof.json --public sj_public.json
done
expect_rc 1 "$S" groth16 verify vk.json sj_public.json sj_proof.json.bad.json
expect_rc 1 "$CUZK" verify --vk vk.json --proof sj_proof.json.bad.json --public sj_public.json

step "4. cuzk setup makes the zkey; snarkjs proves and exports the vk"
"$CUZK" setup main.r1cs --out cuzk.zkey --vk cuzk_vk.json --threads 2
"$S" zkey export verificationkey cuzk.zkey cuzk_vk_sj.json > /dev/null
cmp cuzk_vk.json cuzk_vk_sj.json
"$S" groth16 prove cuzk.zkey main.wtns sj2_proof.json sj2_public.json
expect_rc 0 "$S" groth16 verify cuzk_vk.json sj2_public.json sj2_proof.json
expect_rc 0 "$CUZK" verify --vk cuzk_vk.json --proof sj2_proof.json --public sj2_public.json
"$CUZK" prove --zkey cuzk.zkey --wtns main.wtns --proof c2_proof.json --public c2_public.json
expect_rc 0 "$S" groth16 verify cuzk_vk.json c2_public.json c2_proof.json
expect_rc 1 "$CUZK" verify --vk vk.json --proof c2_proof.json --public c2_public.json

step "5. bellperson formats: setup → .params/.vk → prove → 192-byte proof → verify"
"$CUZK" setup main.r1cs --out key.params --vk key.vk --threads 2
"$CUZK" prove --params key.params --r1cs main.r1cs --wtns main.wtns --proof proof.bin --public pub.json
[ "$(stat -c %s proof.bin)" = 192 ] || { echo "FAIL: proof.bin is not 192 bytes"; exit 1; }
expect_rc 0 "$CUZK" verify --vk key.vk --proof proof.bin --public pub.json
expect_rc 1 "$CUZK" verify --vk key.vk --proof proof.bin --public sj_public.json.bad.json

step "6. exit codes"
expect_rc 0 "$CUZK" verify --help
expect_rc 0 "$CUZK" prove --help
expect_rc 0 "$CUZK" setup --help
expect_rc 2 "$CUZK" verify --vk vk.json --proof missing.json --public sj_public.json
expect_rc 2 "$CUZK" verify --vk vk.json --proof sj_proof.json
expect_rc 2 "$CUZK" prove --zkey snarkjs.zkey --wtns input.json --proof x.json
head -c 1000 snarkjs.zkey > trunc.zkey
expect_rc 2 "$CUZK" prove --zkey trunc.zkey --wtns main.wtns --proof x.json
grep -q "truncated" "$W/out.txt" || { echo "FAIL: truncated zkey message"; cat "$W/out.txt"; exit 1; }
echo
echo "interop: all steps passed"
