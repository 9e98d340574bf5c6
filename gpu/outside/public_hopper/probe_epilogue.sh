#!/usr/bin/env bash
# Where fast.cu's persistent GEMMs spend the time their C stores take: k6 and
# k9 store C from the accumulators with STG.E.U16 (k9 .STRONG.SYS), k12 through
# shared memory and TMA stores.  At 6144 x 2048 x 512 the H100 ran k6-k9 in
# 37-40 us and k12 in 26 (gpu/results/h100/heldout8); at 2048 x 4096 x 1024
# 33-34 against 29.  Here: the same kernels at sizes that keep C and vary K
# (the MMAs a tile between its stores), each with its cudaEvent time and ncu's
# cold time, its warps' stall reasons, and its L1/L2 store traffic; and for k6
# at 6144 x 2048 x 512 the stall samples of each SASS instruction (which
# instructions the warps wait at: the STGs, the wgmma waits, the barriers).
# Needs .gl/public_hopper (prep.sh; on the device it comes through carry).
# usage: bash gpu/outside/public_hopper/probe_epilogue.sh OUTDIR
# OUTDIR gets: log.txt, times.txt (events), ncu.csv (raw, a row a launch),
# table.txt (the short table), source_k6.csv (the per-instruction samples),
# full.tar.gz (every ncu log).  Nothing is changed on the GPU (--clock-control none).
# shellcheck disable=SC2016  # the sh -c scripts take their arguments as $1, $2
set -u
out=${1:?usage: bash gpu/outside/public_hopper/probe_epilogue.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d /tmp/probe_epilogue.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1
T0=$(date +%s)
say() { echo "== $(($(date +%s) - T0)) s: $*"; }
test -d .gl/public_hopper/fast.cu || { say "no .gl/public_hopper/fast.cu: run gpu/outside/public_hopper/prep.sh first"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
BIN=$W/harness
say "build"
timeout 300 nvcc -gencode "arch=compute_90a,code=[compute_90a,sm_90a]" -O3 -lineinfo -std=c++17 -DNDEBUG \
    --expt-relaxed-constexpr -w -I.gl/public_hopper/fast.cu -o "$BIN" gpu/outside/public_hopper/harness.cu -lcuda ||
    { say "build failed"; exit 1; }

SIZES="6144,2048,512 2048,4096,1024 6144,2048,1024 6144,2048,256 2048,4096,512 2048,4096,2048"
KS="6 9 12"
: > "$out/times.txt"
say "events"
for mnk in $SIZES; do
    for k in $KS; do
        timeout 60 "$BIN" --size big --mnk "$mnk" --only "$k" --launches 10 >> "$out/times.txt" 2>&1 ||
            echo "k$k $mnk: status $?" >> "$out/times.txt"
    done
done
grep -E 'time|FAIL|status' "$out/times.txt"

st=""
for r in drain lg_throttle long_scoreboard barrier membar mio_throttle short_scoreboard sleeping wait \
    math_pipe_throttle selected not_selected dispatch_stall no_instruction branch_resolving misc; do
    st="$st,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
metrics="gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__inst_executed.sum,\
sm__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__bytes_write.sum,dram__bytes_read.sum,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__data_pipe_lsu_wavefronts.sum,l1tex__m_l1tex2xbar_write_bytes.sum$st"
say "ncu"
n=0
: > "$W/list.txt"
for mnk in $SIZES; do
    for k in $KS; do
        n=$((n + 1))
        echo "$k $mnk" >> "$W/list.txt"
        timeout 90 ncu --clock-control none -c 1 --csv --page raw --print-units base --metrics "$metrics" \
            --log-file "$W/ncu_$n.csv" "$BIN" --size big --mnk "$mnk" --only "$k" --trials 1 --launches 1 \
            > "$W/ncu_${n}_stdout.txt" 2>&1 || say "ncu k$k $mnk: status $?"
    done
done
say "source page, k6 6144,2048,512"
timeout 200 ncu --clock-control none -c 1 --section SourceCounters --section WarpStateStats -o "$W/k6src" \
    "$BIN" --size big --mnk 6144,2048,512 --only 6 --trials 1 --launches 1 > "$W/k6src_stdout.txt" 2>&1 ||
    say "ncu source: status $?"
timeout 120 ncu --import "$W/k6src.ncu-rep" --page source --csv --print-source sass > "$out/source_k6.csv" 2>"$W/source_err.txt" ||
    say "ncu source page: status $?"
python3 - "$W" "$out" <<'EOF'
import csv, io, sys
w, out = sys.argv[1], sys.argv[2]
rows, head = [], []
for i, line in enumerate(open(w + "/list.txt"), 1):
    k, mnk = line.split()
    try:
        text = open("%s/ncu_%d.csv" % (w, i)).read()
    except OSError:
        continue
    lines = [l for l in text.splitlines() if l.startswith('"')]
    if len(lines) < 3:
        continue
    r = list(csv.reader(io.StringIO("\n".join(lines))))
    d = dict(zip(r[0], r[2]))
    d["k"], d["mnk"] = k, mnk
    rows.append(d)
    for key in r[0]:
        if key not in head:
            head.append(key)
with open(out + "/ncu.csv", "w", newline="") as f:
    wr = csv.writer(f)
    wr.writerow(["k", "mnk"] + head)
    for d in rows:
        wr.writerow([d["k"], d["mnk"]] + [d.get(h, "") for h in head])
def num(d, key):
    try:
        return float(d.get(key, "").replace(",", ""))
    except ValueError:
        return float("nan")
stalls = [h for h in head if h.startswith("smsp__average_warps_issue_stalled_")]
with open(out + "/table.txt", "w") as f:
    f.write("%-3s %-15s %8s %6s %6s %6s %10s %10s  %s\n" % ("k", "M,N,K", "ncu_us", "gmma%", "lts%", "l1%", "st_sect", "lts_wr",
                                                          "stalls a issue (largest)"))
    for d in rows:
        st = sorted(((num(d, h), h.split("stalled_")[1].split("_per_")[0]) for h in stalls), reverse=True)[:6]
        f.write("%-3s %-15s %8.2f %6.1f %6.1f %6.1f %10.0f %10.0f  %s\n" % (
            d["k"], d["mnk"], num(d, "gpu__time_duration.sum") / 1e3,
            num(d, "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed"),
            num(d, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
            num(d, "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
            num(d, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), num(d, "lts__t_sectors_op_write.sum"),
            " ".join("%s=%.2f" % (n, v) for v, n in st)))
print(open(out + "/table.txt").read())
EOF
tar -C "$W" --exclude=harness -czf "$out/full.tar.gz" . 2>/dev/null
ls -la "$out"
say "done"
