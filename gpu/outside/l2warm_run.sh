#!/usr/bin/env bash
# The GPU run of the --l2 cold|warm held-out launches (gpu/outside/l2warm.list):
# run_outside.sh's time set on that list (compile, cudaEvent times of launches
# back to back = warm L2, ncu's counters and gpu__time_duration = cold: ncu
# flushes the caches before each replay), only its small files kept.
#   usage: [LIST=FILE] bash gpu/outside/l2warm_run.sh OUT      (from anywhere; no network)
# OUT gets summary.txt, times.txt, ncu.csv, log.txt (run_outside.sh's), and
# outside.tgz when it is under 4 MiB.  Clocks are left as they are.  Nothing
# starts after HARD seconds (default 330).  Then, on any machine:
#   COALSIM_LAUNCHES=gpu/outside/l2warm.list python3 gpu/outside/join.py --set time OUT gpu/results/h100/l2warm
#   python3 gpu/outside/l2warm_compare.py --profile gpu/profiles/h100.txt --results gpu/results/h100/l2warm
set -u
out=${1:?usage: bash gpu/outside/l2warm_run.sh OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
LIST=${LIST:-gpu/outside/l2warm.list}       # or another list of the same kind (gpu/outside/l2sides.list)
export LIST COALSIM_LAUNCHES=$LIST SETS=time HARD=${HARD:-330}
W=$(mktemp -d /tmp/coalsim-l2warm.XXXXXX)
bash gpu/outside/run_outside.sh "$W/o"
echo "run_outside.sh: rc=$?"
for f in summary.txt times.txt ncu.csv log.txt; do [ -f "$W/o/$f" ] && cp "$W/o/$f" "$out/"; done
if [ -f "$W/o/outside.tgz" ] && [ "$(stat -c %s "$W/o/outside.tgz")" -lt $((4 << 20)) ]; then cp "$W/o/outside.tgz" "$out/"; fi
ls -la "$out"
