#!/usr/bin/env bash
# The GPU run for gpu/outside/public_tc.list: run_outside.sh over that list
# (compile, cudaEvent times, ncu with metrics.txt, sanitizer), results in
# $OUT/ptc.  Needs .gl/public_tc (prep.sh) beside the repository; run from
# the repository root.
set -u
: "${OUT:?OUT must name the output folder}"
test -d .gl/public_tc || { echo "no .gl/public_tc: run gpu/outside/public_tc/prep.sh first"; exit 1; }
LIST=gpu/outside/public_tc.list HARD=${HARD:-480} bash gpu/outside/run_outside.sh "$OUT/ptc"
ls -la "$OUT/ptc"
