#!/usr/bin/env bash
# Several held-out lists measured in one device call (issue 29): for each list,
# l2warm_run.sh's run (the events of back-to-back launches: warm; ncu's
# gpu__time_duration: cold), its small files packed into one archive.
#   usage: bash gpu/outside/run_heldout_lists.sh OUT LIST...     (from anywhere; no network)
# OUT gets heldout.tgz (a folder a list, named by the list's file name without
# .list: summary.txt, times.txt, ncu.csv, log.txt) and log.txt.  Each list gets
# at most HARD seconds (default 150) to start its steps.  Clocks are left as
# they are.  Then, on any machine, for each list L:
#   tar xzf OUT/heldout.tgz -C X
#   COALSIM_LAUNCHES=gpu/outside/L.list python3 gpu/outside/join.py --set time X/L RESULTS
#   python3 gpu/outside/l2warm_compare.py --profile gpu/profiles/DEV.txt --results RESULTS --list gpu/outside/L.list
set -u
out=${1:?usage: bash gpu/outside/run_heldout_lists.sh OUT LIST...}
shift
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
W=$(mktemp -d /tmp/coalsim-heldout.XXXXXX)
{
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
    for list in "$@"; do
        name=$(basename "$list" .list)
        echo "== $(date +%T) $name"
        LIST=$list HARD=${HARD:-150} bash gpu/outside/l2warm_run.sh "$W/$name" > "$W/$name.out" 2>&1
        echo "rc=$? $(grep -c . "$W/$name/summary.txt" 2>/dev/null) summary lines"
        rm -f "$W/$name/outside.tgz"
    done
} 2>&1 | tee "$out/log.txt"
tar czf "$out/heldout.tgz" -C "$W" .
ls -la "$out"
