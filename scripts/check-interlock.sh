#!/usr/bin/env bash
# The GPU interlock rule (DESIGN.md §3): device-global CUDA calls (allocation, device-wide
# synchronization, pool trims, memory queries, pinned host allocation) may appear only in
# cuzk/gpu/device_context.*. Fails (exit 1) naming each offending line elsewhere in the sources.
# Comment lines are ignored. Usage: scripts/check-interlock.sh [repo-root]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
pattern='\bcuda(Malloc|MallocAsync|MallocManaged|MallocHost|HostAlloc|Free|FreeAsync|FreeHost|DeviceSynchronize|DeviceReset|MemPoolTrimTo|MemGetInfo)\b'
dirs=()
for d in cuzk tests bench tools; do [ -d "$d" ] && dirs+=("$d"); done
hits=$(grep -rnE --include='*.cu' --include='*.cuh' --include='*.cpp' --include='*.hpp' --include='*.h' --include='*.cc' \
  "$pattern" "${dirs[@]}" 2>/dev/null |
  grep -vE '^cuzk/gpu/device_context\.(cu|hpp):' |
  grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*|/\*)' || true)
if [ -n "$hits" ]; then
  echo "check-interlock: device-global CUDA calls outside cuzk/gpu/device_context.* (DESIGN.md §3):"
  echo "$hits"
  exit 1
fi
echo "check-interlock: ok (no device-global CUDA call outside cuzk/gpu/device_context.*)"
