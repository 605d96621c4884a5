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
