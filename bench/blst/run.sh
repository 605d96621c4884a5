#!/usr/bin/env bash
# cuzk vs blst, side by side, one thread (issue 2 item 7; docs/perf/README.md has the table).
#
#   bench/blst/run.sh [BUILD_DIR] [ROUNDS] [REPEATS]
#
# Fetches blst's C/asm sources as shipped in the npm package @chainsafe/blst@0.2.11 (pinned,
# integrity checked) into bench/blst/scratch/ (gitignored), builds libblst.a with blst's own build.sh
# (default flags: -O, x86-64 assembly, -D__ADX__ when the CPU has ADX), configures BUILD_DIR
# (default: build-blst) with -DCUZK_BLST_DIR, builds the blst_compare program and runs it REPEATS
# times (default 3) with ROUNDS alternating rounds each (default 15). Not part of the tests; exits 77
# when npm is missing or the package cannot be fetched.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${1:-$ROOT/build-blst}"
ROUNDS="${2:-15}"
REPEATS="${3:-3}"
PKG="@chainsafe/blst@0.2.11"
TARBALL="chainsafe-blst-0.2.11.tgz"
INTEGRITY="sha512-URyOLq5GtxBoxibOnd2pgLydCy0UZzbiIIBcsRAvGxAsRzjZL04TsQfwRkz5aphU3a1ebeRoMmI/HHyMCiFSQg=="
WORK="$HERE/scratch"

if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
  echo "SKIP: npm/node not found (needed to fetch and check $PKG)"
  exit 77
fi
mkdir -p "$WORK"
if [ ! -f "$WORK/blst/libblst.a" ]; then
  if [ ! -f "$WORK/$TARBALL" ]; then
    (cd "$WORK" && npm pack "$PKG" --silent > /dev/null) || { echo "SKIP: npm pack $PKG failed"; exit 77; }
  fi
  got="$(node -e "const c = require('crypto'), f = require('fs');
    process.stdout.write('sha512-' + c.createHash('sha512').update(f.readFileSync(process.argv[1])).digest('base64'))" \
    "$WORK/$TARBALL")"
  if [ "$got" != "$INTEGRITY" ]; then
    echo "FAIL: $TARBALL integrity $got, expected $INTEGRITY" >&2
    rm -f "$WORK/$TARBALL"
    exit 1
  fi
  rm -rf "$WORK/package" "$WORK/blst"
  tar -xzf "$WORK/$TARBALL" -C "$WORK" package/blst
  mv "$WORK/package/blst" "$WORK/blst"
  rmdir "$WORK/package"
  (cd "$WORK/blst" && sh ./build.sh)
fi

cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF \
  -DCUZK_BLST_DIR="$WORK/blst" > /dev/null
cmake --build "$BUILD" -j2 --target blst_compare
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
for i in $(seq 1 "$REPEATS"); do
  echo "== run $i of $REPEATS"
  "$BUILD/bin/blst_compare" "$ROUNDS"
done
