#!/usr/bin/env bash
# One device call for this round (issue 29): held-out round 14 (and round 13 on an H100, which
# has not run it), then gpu/probes/shared_cas.cu if time is left.
#   usage: bash gpu/outside/run_round14.sh OUT      (carry .gl/heldout13 and .gl/heldout14)
set -u
out=${1:?usage: bash gpu/outside/run_round14.sh OUT}
mkdir -p "$out"
lists=gpu/outside/heldout14.list
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 && lists="$lists gpu/outside/heldout13.list"
# shellcheck disable=SC2086
HARD=300 bash gpu/outside/run_heldout_lists.sh "$out/lists" $lists > "$out/lists.log" 2>&1
tail -3 "$out/lists.log"
if [ "$SECONDS" -lt 330 ]; then
    bash gpu/probes/run_shared_cas.sh "$out/cas" > /dev/null 2>&1
    echo "shared_cas: rc $? $(grep -c '^case' "$out/cas/shared_cas.txt") cases"
else
    echo "shared_cas: not run ($SECONDS s gone)"
fi
