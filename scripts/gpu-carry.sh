#!/usr/bin/env bash
# Copies the GPU test binaries, gpu_bench, pce_gpu_bench and the `cuzk` program from a CUDA build, with every
# shared library they need that is not part of glibc or the driver, into DEST (binaries in DEST,
# libraries in DEST/lib, all stripped), so they run on a machine without the build dependencies:
#   scripts/gpu-carry.sh BUILD_DIR DEST [NAMES]
# NAMES (comma-separated, e.g. cuzk or cuzk,gpu_suite_test) carries only those binaries: each
# binary holds the whole device code (≈ 15–18 MB compressed), and a call's working tree travels
# within 64 MiB. gpu_suite_test (`ninja gpu_suite_test`: every GPU test in one binary, pick with
# --gtest_filter) is the way to carry the tests.
#   (on that machine) export LD_LIBRARY_PATH=DEST/lib:$LD_LIBRARY_PATH; DEST/cuzk --help
# DEST/env.sh sets LD_LIBRARY_PATH when sourced. Keep DEST out of git (.git/info/exclude).
# With CUZK_CARRY_ARCHIVE=FILE it also writes DEST as FILE (tar, xz -9e): the binaries share most
# of their device code, which xz's large dictionary finds — three binaries came to 24.8 MB, against
# 60 MB at xz's default level (over the call's 64 MiB with the tree). Put FILE under an ignored
# folder (build-carry.d/) and carry it; on the machine: tar xJf FILE.
set -euo pipefail
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR DEST [NAMES]" >&2; exit 2; }
build="$1" dest="$2" only="${3:-}"
mkdir -p "$dest/lib"
bins=()
for f in "$build"/tests/gpu_*_test "$build"/bin/gpu_bench "$build"/bin/gpu_params_load "$build"/bin/pce_gpu_bench "$build"/bin/cuzk "$build"/bin/cuzk-grpc; do
  [ -x "$f" ] || continue
  name=$(basename "$f")
  [ "$name" = cuzk-grpc ] && name=cuzk  # `cuzk daemon` and `cuzk bench` run cuzk-grpc beside cuzk
  [ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
  bins+=("$f")
done
[ ${#bins[@]} -gt 0 ] || { echo "no binaries under $build" >&2; exit 1; }
# glibc, the dynamic loader and the driver's libcuda come from the target machine.
skip='^(linux-vdso|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|ld-linux|libcuda\.so|libresolv\.so)'
for b in "${bins[@]}"; do
  cp -f "$b" "$dest/"
  strip --strip-unneeded "$dest/$(basename "$b")" 2>/dev/null || true
  ldd "$b" | awk '/=> \// {print $1, $3}' | while read -r name path; do
    [[ "$name" =~ $skip ]] && continue
    [ -e "$dest/lib/$name" ] && continue
    cp -fL "$path" "$dest/lib/$name"
    strip --strip-unneeded "$dest/lib/$name" 2>/dev/null || true
  done
done
cat > "$dest/env.sh" <<'EOF'
# Source this file: the carried libraries come before the machine's.
export LD_LIBRARY_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
EOF
echo "carried ${#bins[@]} binaries and $(ls "$dest/lib" | wc -l) libraries into $dest ($(du -sh "$dest" | cut -f1))"
if [ -n "${CUZK_CARRY_ARCHIVE:-}" ]; then
  parent=$(cd "$(dirname "$dest")" && pwd)
  archive=$(cd "$(dirname "$CUZK_CARRY_ARCHIVE")" && pwd)/$(basename "$CUZK_CARRY_ARCHIVE")
  tar -C "$parent" -cf - "$(basename "$dest")" | xz -9e -T2 > "$archive"
  echo "archived $dest as $archive ($(du -h "$archive" | cut -f1))"
fi
