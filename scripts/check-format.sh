#!/usr/bin/env bash
# Fails when a tracked C++/CUDA source differs from what clang-format (.clang-format at the root)
# makes of it; prints the files. `scripts/check-format.sh --fix` rewrites them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' 2>/dev/null ||
  find cuzk tests bench tools \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \))
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
mapfile -t bad < <(clang-format --dry-run "${files[@]}" 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*code should be clang-formatted.*/\1/p' | sort -u)
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) not formatted (run scripts/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
