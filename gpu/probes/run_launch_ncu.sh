#!/usr/bin/env bash
# launch_ncu.cu: a near-empty launch's cost under Nsight Compute (gpu__time_duration) against
# back-to-back cudaEvent loops.
# usage: bash gpu/probes/run_launch_ncu.sh OUTDIR     (from the repository root)
# OUTDIR gets events.txt (the plain run), ncu.csv (ncu --csv --page raw: every launch of a run
# with 5 repeats), ncu.txt (the median gpu__time_duration of each kernel and grid) and log.txt.
# Nothing is changed on the GPU (ncu --clock-control none).  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_launch_ncu.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/launch_ncu gpu/probes/launch_ncu.cu || exit 1
timeout 120 /tmp/launch_ncu 21 > "$out/events.txt" || failed=$((failed + 1))
cat "$out/events.txt"
timeout 300 ncu --clock-control none --csv --page raw \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size /tmp/launch_ncu 5 \
    > "$out/ncu.csv" 2> "$out/ncu.err" || failed=$((failed + 1))
python3 - "$out/ncu.csv" > "$out/ncu.txt" <<'PY' || failed=$((failed + 1))
import csv, statistics, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next(i for i, r in enumerate(rows) if r[0] == "ID")
col = {n: i for i, n in enumerate(rows[head])}
unit = rows[head + 1][col["gpu__time_duration.sum"]]
scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(unit, 1e-3)
runs = {}
for r in rows[head + 2:]:
    key = (r[col["Kernel Name"]].split("(")[0], int(float(r[col["launch__grid_size"]].replace(",", ""))),
           int(float(r[col["launch__block_size"]].replace(",", ""))))
    runs.setdefault(key, []).append(float(r[col["gpu__time_duration.sum"]].replace(",", "")) * scale)
for (k, g, b), v in sorted(runs.items()):
    print("%s blocks=%d threads=%d ncu_median_us=%.3f launches=%d" % (k, g, b, statistics.median(v), len(v)))
PY
cat "$out/ncu.txt"
echo "failed steps: $failed"
exit "$failed"
