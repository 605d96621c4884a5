#!/usr/bin/env bash
# Builds cuzk and runs the demo (the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh "$@" >/dev/null
./build/bin/cuzk demo
