#!/usr/bin/env bash
# cuzk prove vs `snarkjs groth16 prove` on mulchain(2^K − 3), same zkey and witness, same run.
#   bench/groth16_vs_snarkjs.sh BUILD_DIR [K ...]      (default K: 12 14 16 18)
# Needs tests/interop/node_modules (npm ci there, as the interop test does) and /usr/bin/time.
# cuzk runs twice: "cuzk" decodes the zkey (and writes its key image), "cuzk-img" maps the image.
# Prints one line per tool and size: wall seconds, CPU seconds (user + sys), peak RSS; both
# commands include their key and witness loading (snarkjs also its ~1.5 s node start-up).
# CPU seconds matter on a shared machine: when other jobs compete for the cores, wall time
# stretches for both tools while CPU time stays put.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(realpath "$1")"; shift
SIZES="${*:-12 14 16 18}"
S="$ROOT/tests/interop/node_modules/.bin/snarkjs"
[ -x "$S" ] || (cd "$ROOT/tests/interop" && npm ci --no-audit --no-fund --loglevel=error)
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=16384}"
D="${BENCH_DIR:-/tmp/cuzk_g16_bench}"
mkdir -p "$D"
printf '%-7s %-10s %8s %8s %9s\n' k tool wall_s cpu_s rss_mb
for k in $SIZES; do
  [ -s "$D/mulchain_$k.zkey" ] || "$BUILD/bin/groth16_bench" gen "$k" "$D" >&2
  # cuzk twice: the first run decodes the zkey and writes its key image (KEY.zkey.cuzkimg), the
  # second maps that image instead of decoding the points.
  rm -f "$D/mulchain_$k.zkey.cuzkimg"
  for run in first image; do
    /usr/bin/time -f "%e %U %S %M" -o "$D/t_$run" "$BUILD/bin/cuzk" prove --zkey "$D/mulchain_$k.zkey" \
      --wtns "$D/mulchain_$k.wtns" --proof "$D/p_cuzk_$k.json" --public "$D/pub_$k.json" --no-subgroup-check --timings 2>> "$D/cuzk_$k.log"
  done
  /usr/bin/time -f "%e %U %S %M" -o "$D/t_sj" "$S" groth16 prove "$D/mulchain_$k.zkey" "$D/mulchain_$k.wtns" \
    "$D/p_sj_$k.json" "$D/pub_sj_$k.json"
  for t in first image sj; do
    read -r e u s m < "$D/t_$t"
    printf '%-7s %-10s %8.2f %8.2f %9.0f\n' "$k" "$(case $t in sj) echo snarkjs;; first) echo cuzk;; image) echo cuzk-img;; esac)" "$e" "$(echo "$u + $s" | bc)" "$((m / 1024))"
  done
  sed 's/^/        /' "$D/cuzk_$k.log"
  rm -f "$D/cuzk_$k.log"
  "$S" zkey export verificationkey "$D/mulchain_$k.zkey" "$D/vk_$k.json" > /dev/null
  "$S" groth16 verify "$D/vk_$k.json" "$D/pub_$k.json" "$D/p_cuzk_$k.json" | tail -1 | sed 's/^/        snarkjs verifies the cuzk proof: /'
done
