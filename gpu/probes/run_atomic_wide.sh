#!/usr/bin/env bash
# atomic_wide.cu on the device: a request's lanes spread over lines of one atomic unit or several, and
# 32- and 64-bit, integer and float atomics on one word, 32 elements or one lane.
# usage: bash gpu/probes/run_atomic_wide.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_wide.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run atomic_wide
echo "failed steps: $failed"
exit "$failed"
