#!/usr/bin/env bash
# atomic_tput.cu on the device: the L2's atomic throughput over many units, by the lines and
# sectors a request of distinct words touches.
# usage: bash gpu/probes/run_atomic_tput.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_tput.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run atomic_tput
echo "failed steps: $failed"
exit "$failed"
