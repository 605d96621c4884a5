# Shared by the cuzk/cli/*_smoke.sh CTest scripts; sourced, never run. A script sources it by its
# own location, which works from ctest (CMake passes the scripts' absolute source paths) and from
# a plain shell in any directory:
#   source "$(dirname "${BASH_SOURCE[0]}")/smoke_lib.sh"
# The script sets $cuzk (the binary) and $tmp (a scratch directory) before calling these, and
# exits with $fail at the end.
fail=0

# expect <rc> <needle> <cuzk args...>: runs "$cuzk" with the args, output in $tmp/out and
# $tmp/err; a failure (another exit code, or the needle in neither output) prints both outputs
# and sets fail=1. An empty needle checks the exit code alone.
expect() {
  local want=$1 needle=$2
  shift 2
  local t0=$SECONDS
  "$cuzk" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne $want ]] || { [[ -n $needle ]] && ! grep -qF -- "$needle" "$tmp/out" "$tmp/err"; }; then
    echo "FAIL: exit $rc (want $want), looking for '$needle': cuzk $*"
    cat "$tmp/out" "$tmp/err"
    fail=1
  else
    echo "ok: exit $rc in $((SECONDS - t0)) s: $needle (cuzk ${1:-} ${2:-} ${3:-} ${4:-})"
  fi
}

# size_is <file> <bytes>: fail=1 unless the file has exactly that many bytes.
size_is() {
  local n
  n=$(stat -c %s "$1" 2>/dev/null || echo 0)
  if [[ $n -ne $2 ]]; then
    echo "FAIL: $1 has $n bytes, want $2"
    fail=1
  fi
}

# json_field <key> <file>: the first string value of "key" in a JSON file.
json_field() { sed -n "s/.*\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$2" | head -1; }

# venus_reseal: venus's two real 2 KiB sectors (t0106; $data/venus-2kib, $data being
# CUZK_FILECOIN_DATA) unsealed and sealed back into $tmp/s0 and $tmp/s1, each checked against the
# comm_r Filecoin recorded. Sets venus, miner (106), prover (its prover_id 0x6a), ticket
# (lotus-seed's) and the arrays comm_d, comm_r and replica_id (index = sector id).
venus_reseal() {
  venus="$data/venus-2kib"
  miner=106
  prover=6a00000000000000000000000000000000000000000000000000000000000000
  ticket=79ac3dd7defaad6d40e033a1c89124df3cbefdf072868b1924e562f0d4204189
  comm_d=(2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21
          cba50b4a44d909277ea22e76654dfa89a4ef9664d02192fc7321bbb9580b093e)
  comm_r=(6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257
          2f889cb216b14800f68048108b46d2261073ae842074eb66656035421e5ead03)
  # replica_id = SHA-256(prover_id ‖ u64be(id) ‖ ticket ‖ comm_d ‖ porep_id), top two bits cleared.
  replica_id=(61f89482291a9dd662e9232342fbe197fb999de622060bbe5284bf4e020fe012
              f8de114c92ff643fc6e66fde244f4d4102a2a3acfa4c8d464e0d6de66b413a1a)
  local id
  for id in 0 1; do
    expect 0 '"comm_d"' filecoin unseal --replica "$venus/sealed/s-t0106-$id" \
      --registered-proof StackedDrg2KiBV1 --replica-id "${replica_id[$id]}" \
      --comm-d "${comm_d[$id]}" --out "$tmp/venus$id.bin"
    expect 0 "\"comm_r\":\"${comm_r[$id]}\"" filecoin seal --registered-proof StackedDrg2KiBV1 \
      --prover-id $prover --sector-id $id --ticket $ticket --data "$tmp/venus$id.bin" \
      --out "$tmp/s$id"
  done
}
