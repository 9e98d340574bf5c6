#!/usr/bin/env bash
# atomic_mix.cu on the device: a line's ATOMG and REDG requests in several orders, and shared
# double and float atomicAdd on one word by lanes, with the SASS of the shared ones.
# usage: bash gpu/probes/run_atomic_mix.sh OUTDIR     (from the repository root; under a minute)
set -u
out=${1:?usage: bash gpu/probes/run_atomic_mix.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
build_and_run atomic_mix
cuobjdump -sass /tmp/atomic_mix > /tmp/atomic_mix.sass 2>&1 || failed=$((failed + 1))
awk '/Function/ {f = $0} /shared_double|shared_float/ && /Function/ {p = 1} /Function/ && !/shared_double|shared_float/ {p = 0} p' /tmp/atomic_mix.sass |
    sed 's/^ *//; s/ *;.*$//; s/\/\*[0-9a-f]*\*\/ *//' | grep -v '^$' > "$out/atomic_mix_shared.sass.txt"
grep -E "Function|ATOM|RED|VOTE|CAS|LDS|BRA|DADD|FADD" "$out/atomic_mix_shared.sass.txt" | head -60
echo "failed steps: $failed"
exit "$failed"
