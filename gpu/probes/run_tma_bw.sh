#!/usr/bin/env bash
# TMA tile loads streamed by every SM (tma_bw.cu): their rate into the SMs from L2 and DRAM, and
# what ncu counts for them (L2 read sectors against TMA bytes, the SM clock), as the boxes are
# shared by 1, 2, 8 or all CTAs.
# With tma_pipe as PROBE: tma_pipe.cu, a GEMM's TMA pipeline without the math (a stage's time).
# usage: bash gpu/probes/run_tma_bw.sh OUTDIR [PROBE]     (from the repository root; PROBE: tma_bw
#        (default) or tma_pipe)
# OUTDIR gets rates.txt (TMA or PIPE lines), ncu.csv (one launch a configuration), table.txt and
# log.txt.  Nothing is changed on the GPU.  Expected: under a minute.
set -u
out=${1:?usage: bash gpu/probes/run_tma_bw.sh OUTDIR [tma_bw|tma_pipe]}
probe=${2:-tma_bw}
case $probe in tma_bw | tma_pipe) ;; *) echo "run_tma_bw.sh: PROBE is tma_bw or tma_pipe, not '$probe'" >&2; exit 2 ;; esac
# shellcheck source=gpu/probes/run_common.sh
. "$(dirname "$0")/run_common.sh"
timeout 300 nvcc -O2 -gencode arch=compute_90a,code=sm_90a -o "/tmp/$probe" "gpu/probes/$probe.cu" || exit 1
timeout 120 "/tmp/$probe" > "$out/rates.txt" || failed=$((failed + 1))
cat "$out/rates.txt"
m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,lts__t_sectors_op_read.sum,\
lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,\
dram__bytes_read.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
n=$(grep -cE '^(TMA|PIPE) ' "$out/rates.txt")
: > "$out/ncu.csv"
for i in $(seq 0 $((n - 1))); do
    timeout 120 ncu --clock-control none --csv --page raw --print-units base --metrics "$m" "/tmp/$probe" --once "$i" \
        > "/tmp/ncu_$i.csv" 2>&1 || failed=$((failed + 1))
    if [ "$i" -eq 0 ]; then grep -E '^"(ID|)"' "/tmp/ncu_$i.csv" | head -n 2 >> "$out/ncu.csv"; fi
    grep -E '^"[0-9]' "/tmp/ncu_$i.csv" >> "$out/ncu.csv"
    grep -E '==ERROR==' "/tmp/ncu_$i.csv" | head -n 3
done
python3 - "$out/ncu.csv" "$out/rates.txt" > "$out/table.txt" <<'PY'
import csv, sys
def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return v
rows = list(csv.reader(open(sys.argv[1])))
names = [l.split()[1] for l in open(sys.argv[2]) if l.startswith(("TMA ", "PIPE "))]
h = rows[0]
print("%-18s %9s %8s %10s %10s %8s %10s" % ("config", "ncu us", "GHz", "TMA MB", "L2 rd MB", "L2/TMA", "DRAM MB"))
for name, r in zip(names, [r for r in rows[2:] if r and r[0].isdigit()]):
    d = {k: num(v) for k, v in zip(h, r)}
    g = lambda k: d.get(k, 0) if isinstance(d.get(k, 0), float) else 0
    tma, l2 = g("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"), g("lts__t_sectors_op_read.sum") * 32
    print("%-18s %9.2f %8.3f %10.1f %10.1f %8.3f %10.1f" % (name, g("gpu__time_duration.sum") / 1e3,
          g("sm__cycles_elapsed.avg.per_second") / 1e9, tma / 1e6, l2 / 1e6, l2 / tma if tma else 0, g("dram__bytes_read.sum") / 1e6))
PY
cat "$out/table.txt"
echo "failed steps: $failed"
exit "$failed"
