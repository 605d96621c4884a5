#!/usr/bin/env bash
# `cuzk filecoin params` on a temporary directory: expected/found/missing, the digest check against
# a manifest, FIL_PROOFS_PARAMETER_CACHE, and the exit codes 0 / 1 / 2.
# Usage: filecoin_params_smoke.sh <path of cuzk>
set -uo pipefail
cuzk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# 2 KiB Window PoSt, as named in rust-fil-proofs @ 87348a74 parameters.json.
W=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0
# First 32 hex digits of BLAKE2b-512("abc") (RFC 7693 Appendix A; `printf abc | b2sum -l 512`).
abc=ba80a53f981c4d0d6a2797b69f12f6e9

printf abc >"$dir/$W.params"
printf abd >"$dir/$W.vk"
printf x >"$dir/notes.txt"
cat >"$dir/manifest.json" <<EOF
{"$W.params": {"cid": "Qm1", "digest": "$abc", "sector_size": 2048},
 "$W.vk": {"cid": "Qm2", "digest": "$abc", "sector_size": 2048}}
EOF

# run <want rc> <pattern the output must hold, or ""> <args...>
run() {
  local want=$1 pattern=$2
  shift 2
  out=$("$cuzk" filecoin params "$@" 2>"$dir/stderr")
  local rc=$?
  if [[ $rc != "$want" ]]; then
    echo "FAIL (rc $rc, want $want): cuzk filecoin params $*"
    echo "$out" | head -40
    cat "$dir/stderr"
    failures=$((failures + 1))
    return
  fi
  if [[ -n $pattern ]] && ! grep -Eq -- "$pattern" <<<"$out$(cat "$dir/stderr")"; then
    echo "FAIL (no '$pattern'): cuzk filecoin params $*"
    echo "$out" | head -40
    failures=$((failures + 1))
    return
  fi
  echo "ok: cuzk filecoin params $*"
}

# Every published circuit: 44 names expected, 2 found, the rest missing; others listed, exit 0.
run 0 '"expected": 44' --dir "$dir"
run 0 '"notes.txt"' --dir "$dir"
run 0 '"found": 2,' --dir "$dir"
# One registered proof: both files there (exit 0), or missing (exit 1, named on stderr).
run 0 '"circuit": "window-post"' --dir "$dir" --registered-proof StackedDrgWindow2KiBV1_2
run 1 'is missing from' --dir "$dir" --registered-proof StackedDrgWinning2KiBV1
# Digest check: the .vk is "abd", not "abc".
run 1 '"check": "mismatch"' --dir "$dir" --manifest "$dir/manifest.json" --check \
  --registered-proof StackedDrgWindow2KiBV1
run 1 "\"digest\": \"$abc\"" --dir "$dir" --manifest "$dir/manifest.json" --check
printf abc >"$dir/$W.vk"
run 0 '"ok": 2' --dir "$dir" --manifest "$dir/manifest.json" --check
run 0 '"found": 2,' --dir "$dir" --manifest "$dir/manifest.json"
# Without a proof the manifest's other names are expected (and checked) too.
printf abc >"$dir/extra.srs"
cat >"$dir/manifest2.json" <<EOF
{"$W.params": {"cid": "Qm1", "digest": "$abc", "sector_size": 2048},
 "extra.srs": {"cid": "Qm3", "digest": "$abc", "sector_size": 0}}
EOF
run 0 '"expected": 45' --dir "$dir" --manifest "$dir/manifest2.json" --check
run 0 '"ok": 2' --dir "$dir" --manifest "$dir/manifest2.json" --check
run 0 '"not-in-manifest": 1' --dir "$dir" --manifest "$dir/manifest2.json" --check
# The default directory follows FIL_PROOFS_PARAMETER_CACHE.
export FIL_PROOFS_PARAMETER_CACHE=$dir
run 0 "\"dir\": \"$dir\"" --registered-proof StackedDrgWindow2KiBV1
unset FIL_PROOFS_PARAMETER_CACHE
# Usage and parse errors: exit 2 with a message.
run 2 'needs --manifest' --dir "$dir" --check
printf '{"a.vk": {"cid": "Q"}}' >"$dir/bad.json"
run 2 "entry 'a.vk': field 'digest'" --dir "$dir" --manifest "$dir/bad.json"
printf 'not json' >"$dir/bad.json"
run 2 'not JSON' --dir "$dir" --manifest "$dir/bad.json"
run 2 'NoSuchProof' --dir "$dir" --registered-proof NoSuchProof
run 2 'does not exist' --dir "$dir/absent"

if ((failures)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "all cases passed"
