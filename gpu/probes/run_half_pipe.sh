#!/usr/bin/env bash
# Half-precision arithmetic's issue rate on the GPU at hand (half_pipe.cu),
# its SASS, ncu's pipe counters for it, and the SASS of LeetCUDA's CUDA-core
# HGEMM kernels (the hot loops the rate is for; .gl/public_tc must be there:
# gpu/outside/public_tc/prep.sh).
# usage: bash gpu/probes/run_half_pipe.sh OUTDIR     (from the repository root)
# OUTDIR gets rates.txt (RATE lines), sass.txt, sass_counts.txt, ncu.csv,
# metrics.txt, hgemm_sass.txt (LeetCUDA's hgemm.cu) and log.txt.  Nothing is
# changed on the GPU.  Expected: about a minute.
set -u
out=${1:?usage: bash gpu/probes/run_half_pipe.sh OUTDIR}
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O3 -arch=sm_90 -o /tmp/half_pipe gpu/probes/half_pipe.cu || exit 1
timeout 120 /tmp/half_pipe > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
cuobjdump -sass /tmp/half_pipe > "$out/sass.txt"
awk '/Function : / { f = $3; next }
     /\/\*[0-9a-f]+\*\// { line = $0; sub(/^[^\/]*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
                           split(line, w, /[ ;]/); n[f " " w[1]]++ }
     END { for (k in n) print k, n[k] }' "$out/sass.txt" | sort > "$out/sass_counts.txt"
grep -E "HFMA2|HADD2|HMUL2|FFMA|HFMA" "$out/sass_counts.txt"
# ncu: the pipe counters gh100 has, of these
ncu --query-metrics --chip gh100 > /tmp/q.txt 2>&1
kept=""
for m in sm__inst_executed_pipe_fma.sum sm__inst_executed_pipe_fmaheavy.sum sm__inst_executed_pipe_fmalite.sum \
         sm__inst_executed_pipe_fp16.sum sm__pipe_fma_cycles_active.max sm__pipe_fmaheavy_cycles_active.max \
         sm__pipe_fp16_cycles_active.max sm__pipe_fmalite_cycles_active.max sm__cycles_elapsed.max smsp__inst_executed.sum \
         sm__inst_executed_pipe_alu.sum; do
    grep -q "^${m%.*} " /tmp/q.txt && kept=$kept${kept:+,}$m
done
echo "$kept" | tr ',' '\n' > "$out/metrics.txt"
echo "metrics: $kept"
timeout 300 ncu --clock-control none --csv --page raw --metrics "$kept" --log-file "$out/ncu.csv" /tmp/half_pipe > /dev/null 2>&1 ||
    failed=$((failed + 1))
echo "ncu rows: $(grep -c '^"[0-9]' "$out/ncu.csv")"
f=.gl/public_tc/leetcuda/hgemm/hgemm.cu
if [ -f "$f" ]; then
    timeout 300 nvcc -arch=sm_90 -O3 -lineinfo -cubin "$f" -o /tmp/hgemm.cubin && cuobjdump -sass /tmp/hgemm.cubin > "$out/hgemm_sass.txt"
    awk '/Function : / { f = $3; next }
         /\/\*[0-9a-f]+\*\// { line = $0; sub(/^[^\/]*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
                               split(line, w, /[ ;]/); n[f " " w[1]]++ }
         END { for (k in n) print k, n[k] }' "$out/hgemm_sass.txt" | sort > "$out/hgemm_sass_counts.txt"
    grep -E " (HFMA2|HFMA2.MMA|HADD2|HMUL2|LDS|LDS.128|LDS.64|FFMA|PRMT)" "$out/hgemm_sass_counts.txt" | head -80
fi
echo "failed steps: $failed"
exit "$failed"
