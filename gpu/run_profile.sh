#!/bin/sh
# Measure the device profile on the GPU: build the harness, run `harness
# profile` (rates, latencies, block cost) into OUT/profile.txt, and keep the
# SASS of the latency chase kernels (OUT/chase_sass.txt) to show each hop of a
# 16-chain warp is 16 independent loads.  Usage: sh gpu/run_profile.sh OUT
set -eu
out=${1:?usage: sh gpu/run_profile.sh OUT}
mkdir -p "$out"
make -s gpu
build/harness profile > "$out/profile.txt"
cuobjdump -sass build/harness | awk '/Function : / {on = /chase/} on' > "$out/chase_sass.txt"
cat "$out/profile.txt"
for f in $(grep -o 'Function : [^ ]*chase[^ ]*' "$out/chase_sass.txt" | awk '{print $3}'); do
    printf '%s: %s loads\n' "$f" "$(awk -v f="$f" '$0 ~ "Function : "f {on=1; next} /Function :/ {on=0} on && /LD[GS]/' "$out/chase_sass.txt" | wc -l)"
done
