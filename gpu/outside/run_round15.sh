#!/usr/bin/env bash
# One device call (issue 29, 2026-12-08's plan): held-out round 15 (gpu/outside/heldout15.list, its
# predictions committed before), round 14 where the card is an H200 (the H100 ran it), then the
# probes written and not yet run: gpu/probes/l1_store.cu (which loads go around L1; does a store
# that misses allocate), fence.cu (what a block's __threadfence costs) and shared_cas_ev.cu
# (atomicPerf's shared double add: events against ncu).
#   usage: bash gpu/outside/run_round15.sh OUT      (carry .gl/heldout14 and .gl/heldout15)
set -u
out=${1:?usage: bash gpu/outside/run_round15.sh OUT}
mkdir -p "$out"
lists=gpu/outside/heldout15.list
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && lists="$lists gpu/outside/heldout14.list"
# shellcheck disable=SC2086
HARD=300 bash gpu/outside/run_heldout_lists.sh "$out/lists" $lists > "$out/lists.log" 2>&1
tail -3 "$out/lists.log"
bash gpu/probes/run_l1_store.sh "$out/l1" 2>&1 | grep -v "^#" | tail -45
bash gpu/probes/run_fence.sh "$out/fence" 2>&1 | grep -v "^#" | tail -30
[ "$SECONDS" -lt 480 ] && bash gpu/probes/run_shared_cas_ev.sh "$out/ev" 2>&1 | grep -v "^#" | tail -25
echo "done in $SECONDS s"
