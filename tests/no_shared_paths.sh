#!/usr/bin/env bash
# Fails when a file of the project names a folder beside the checkout (".." + "/shared"): the
# build and the tests must work from a clone anywhere, with their data in tests/data
# (tests/data/README.md). Allowed: docs/ and tools/oracles/README.md, which may tell the history,
# and .ci/run, which exports CUZK_FILECOIN_DATA from such a folder when the machine has one.
# Usage: no_shared_paths.sh [SOURCE_DIR]   (default: the checkout holding this script)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
pattern='\.\./shared'  # written so that this file does not match itself
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files --cached --others --exclude-standard)
else  # an exported tree: every file but build output
  mapfile -t files < <(find . \( -path './build*' -o -path ./.git -o -name node_modules \) -prune \
    -o -type f -print | sed 's#^\./##')
fi
checked=()
for f in "${files[@]}"; do
  case "$f" in docs/* | tools/oracles/README.md | .ci/run) continue ;; esac
  if [[ -f "$f" ]]; then checked+=("$f"); fi
done
mapfile -t bad < <(printf '%s\0' "${checked[@]}" | xargs -0 grep -lIE -- "$pattern" || true)
if ((${#bad[@]})); then
  echo "no_shared_paths: ${#bad[@]} file(s) refer to a folder beside the checkout:"
  for f in "${bad[@]}"; do grep -nIE "$pattern" "$f" | sed "s#^#  $f:#"; done
  exit 1
fi
echo "no_shared_paths: ${#checked[@]} files, none refers to a folder beside the checkout"
