#!/bin/sh
# The experiments behind the time model's misses (gpu/README.md): col_sum and
# copy at other row pitches and block shapes (the pitch turned out not to
# matter), the seed's col_sum beside the same loop compiled differently, L1
# reads on 32 and on 132 SMs, the chase with strided chains, and round trips
# timed one by one.  Builds the harness, runs `harness pitch` into
# OUT/pitch.txt and keeps the SASS of these kernels (OUT/pitch_sass.txt).
# Usage: sh gpu/run_pitch.sh OUT
set -eu
out=${1:?usage: sh gpu/run_pitch.sh OUT}
mkdir -p "$out"
make -s gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm --format=csv > "$out/gpu.txt" || true
build/harness pitch | tee "$out/pitch.txt"
cuobjdump -sass build/harness | awk '/Function : / {on = /pitch|copy_flat|chase_timed|_Z7col_sumILb0/} on' > "$out/pitch_sass.txt"
for f in $(grep -o 'Function : [^ ]*' "$out/pitch_sass.txt" | awk '{print $3}'); do
    printf '%s: %s global loads\n' "$f" "$(awk -v f="$f" '$0 ~ "Function : "f {on=1; next} /Function :/ {on=0} on && /LDG/' "$out/pitch_sass.txt" | wc -l)"
done
