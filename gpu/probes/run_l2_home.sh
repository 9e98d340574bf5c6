#!/usr/bin/env bash
# Where L2 keeps a line, line by line (l2_home.cu), with the sides l2_pairs.cu finds first.
# usage: bash gpu/probes/run_l2_home.sh OUTDIR     (from the repository root)
# OUTDIR gets pairs.txt, home.txt (512 lines in a row), home4k.txt (a line in each 4 KiB of 64 MiB)
# and log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_l2_home.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_pairs gpu/probes/l2_pairs.cu || exit 1
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/l2_home gpu/probes/l2_home.cu || exit 1
timeout 240 /tmp/l2_pairs > "$out/pairs.txt" || failed=$((failed + 1))
PAIRS="$out/pairs.txt" timeout 240 /tmp/l2_home > "$out/home.txt" || failed=$((failed + 1))
PAIRS="$out/pairs.txt" timeout 240 /tmp/l2_home 4096 16384 > "$out/home4k.txt" || failed=$((failed + 1))
for f in home home4k; do
    head -1 "$out/$f.txt"
    # each reader's loads by where they were served: <340 cycles (its side), <600 (the other side), more (DRAM)
    awk '!/^#/ {for (k = 4; k <= 6; k++) { c = $k < 340 ? "near" : $k < 600 ? "far" : "dram"; n[$1 " " k " " c]++ } }
         END {for (x in n) print x, n[x]}' "$out/$f.txt" | sort
done
echo "failed steps: $failed"
exit "$failed"
