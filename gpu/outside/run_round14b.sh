#!/usr/bin/env bash
# The second device call of this round: gpu/probes/l1_store.cu, fence.cu and shared_cas_ev.cu, and
# on an H200 held-out round 14 (the H100 ran it in run_round14.sh).
#   usage: bash gpu/outside/run_round14b.sh OUT      (carry .gl/heldout14)
set -u
out=${1:?usage: bash gpu/outside/run_round14b.sh OUT}
mkdir -p "$out"
bash gpu/probes/run_l1_store.sh "$out/l1" 2>&1 | grep -v "^#" | tail -45
bash gpu/probes/run_fence.sh "$out/fence" 2>&1 | grep -v "^#" | tail -30
bash gpu/probes/run_shared_cas_ev.sh "$out/ev" 2>&1 | grep -v "^#" | tail -25
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    HARD=300 bash gpu/outside/run_heldout_lists.sh "$out/lists" gpu/outside/heldout14.list > "$out/lists.log" 2>&1
    tail -2 "$out/lists.log"
fi
