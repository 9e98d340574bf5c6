#!/usr/bin/env bash
# Flat memory: stream a multi-gigabyte generated trace through coalsim's stdin
# (never stored on disk) and report its peak resident memory.
#   usage: bench/flat-memory.sh [RECORDS]     (default 110 M records, ~4.2 GB)
set -eo pipefail
cd "$(dirname "$0")/.."
records=${1:-110000000}
make -s build/coalsim
cc -O2 -o build/gentrace bench/gentrace.c
build/gentrace "$records" | tee >(wc -c > build/flat.bytes) |
    /usr/bin/time -f "%e %M" -o build/flat.time build/coalsim - > /dev/null
sleep 1
awk -v b="$(cat build/flat.bytes)" -v r="$records" '{ printf "%d records, %.2f GB through stdin: %.1f s, peak RSS %.1f MB\n", r, b / 1e9, $1, $2 / 1024 }' build/flat.time
