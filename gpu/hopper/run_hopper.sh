#!/usr/bin/env bash
# gpu/hopper/hopper.cu on the GPU at hand (an H100): build, checks and times
# at both sizes, the ncu metrics of the Hopper async paths that exist, ncu
# counters of every kernel once at the check size, SASS.
# usage: bash gpu/hopper/run_hopper.sh OUTDIR        (from anywhere)
# OUTDIR gets (at most 8 files: the device tool brings back no more):
#   log.txt            this script's log: versions, each step's rc and duration, ptxas -v
#   check.txt          hopper's output: --size check (times: 5 trials x 10 launches), then --size big
#   metrics_query.txt  ncu --query-metrics (gh100) lines matching
#                      tma|gmma|ldgsts|ldsm|tensor|bulk|mbarrier|dsmem|l1tex__m, then the
#                      metric names asked of ncu
#   ncu.csv            ncu --csv --page raw, one row a kernel (hopper --size check --once)
#   counters.txt       tables from ncu.csv: the TMA/wgmma/bulk/mbarrier metrics across kernels,
#                      per kernel the other non-zero ones, sass__inst_executed_per_opcode*
#   sass.txt           cuobjdump -sass of the binary (sm_90a)
#   sass_counts.txt    per kernel, each SASS opcode (with its modifiers) and how many times it appears
#   full.tar.gz        everything else: full query listings, nvdisasm, ncu's own output, the PTX
# Nothing is changed on the GPU (ncu --clock-control none).  TOTAL (default
# 480 s) bounds the whole run.  Exit status: the number of failed steps.
# shellcheck disable=SC2016  # the sh -c scripts take their arguments as $1, $2
set -u
out=${1:?usage: bash gpu/hopper/run_hopper.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d /tmp/hopper_run.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1

TOTAL=${TOTAL:-480}
T0=$(date +%s)
failed=0
say() { echo "== $(($(date +%s) - T0)) s: $*"; }
# step NAME TIMEOUT CMD...: run, log its rc and duration, count failures
step() {
    local name=$1 limit=$2 t rc left
    shift 2
    t=$(date +%s)
    left=$((TOTAL - (t - T0)))
    [ "$limit" -le "$left" ] || limit=$((left > 1 ? left : 1))
    say "$name: start (limit $limit s)"
    timeout "$limit" "$@"
    rc=$?
    say "$name: rc=$rc ($(($(date +%s) - t)) s)"
    [ "$rc" -eq 0 ] || failed=$((failed + 1))
    return "$rc"
}

say "start: $(pwd), work $W"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv 2>&1
nvcc --version 2>&1 | tail -n 2
ncu --version 2>&1 | tail -n 1
command -v nvcc ncu cuobjdump nvdisasm python3

# ---- 1. build (the command the README gives), with ptxas's report
BIN=$W/hopper
step build 240 nvcc -arch=sm_90a -O2 -lineinfo -Xptxas -v -o "$BIN" gpu/hopper/hopper.cu 2> "$W/ptxas.txt"
grep -E 'entry function|registers|spill|warning|error' "$W/ptxas.txt" | grep -B1 -A1 -E "sm_90a|warning|error" | head -n 80
nvcc -arch=sm_90a --ptx -lineinfo -o "$W/hopper.ptx" gpu/hopper/hopper.cu 2>&1 | head -n 5
if [ -f gpu/hopper/hopper.ptx ] && ! cmp -s "$W/hopper.ptx" gpu/hopper/hopper.ptx; then
    say "note: the PTX built here differs from the committed gpu/hopper/hopper.ptx"
fi

# ---- 2. checks and times: check size (5 x 10 launches), then big (4096^3 GEMMs)
if [ -x "$BIN" ]; then
    step check 120 sh -c '"$1" --size check --trials 5 --launches 10 > "$2/check.txt" 2>&1' sh "$BIN" "$out"
    step big 200 sh -c '"$1" --size big >> "$2/check.txt" 2>&1' sh "$BIN" "$out"
    cat "$out/check.txt"
else
    say "no binary: checks skipped"
    failed=$((failed + 1))
fi

# ---- 3. SASS
if [ -x "$BIN" ]; then
    step sass 60 sh -c 'cuobjdump -sass "$1" > "$2/sass.txt"' sh "$BIN" "$out"
    (cd "$W" && cuobjdump -xelf all "$BIN" > /dev/null 2>&1)
    for c in "$W"/*.cubin; do
        [ -f "$c" ] && nvdisasm -c -g "$c" > "$c.nvdisasm.txt" 2>&1
    done
    # per kernel: each opcode with its modifiers, and how many times it appears
    awk '/Function : / { f = $3; next }
         /\/\*[0-9a-f]+\*\// {
             line = $0; sub(/^[^\/]*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
             split(line, w, /[ ;]/); if (w[1] != "") n[f " " w[1]]++
         }
         END { for (k in n) print k, n[k] }' "$out/sass.txt" | sort > "$out/sass_counts.txt"
    grep -E 'GMMA|UTMA|UBLKCP|SYNCS|ELECT|USETMAXREG|WARPGROUP|FENCE' "$out/sass_counts.txt"
fi

# ---- 4. the metrics this ncu knows for gh100: base names, and full names (with suffixes)
RE='tma|gmma|ldgsts|ldsm|tensor|bulk|mbarrier|dsmem|l1tex__m'
step query 90 sh -c 'ncu --query-metrics --chip gh100 > "$1/query_base.txt" 2>&1' sh "$W"
step query_all 90 sh -c 'ncu --query-metrics --chip gh100 --query-metrics-mode all > "$1/query_all.txt" 2>&1' sh "$W" ||
    say "query-metrics-mode all failed (base names only)"
awk '$1 ~ /^[a-z0-9_]+__[a-z0-9_.]+$/' "$W/query_base.txt" | grep -E "$RE" > "$W/query_filtered.txt"
awk '{ print $1 }' "$W/query_base.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_]+$' | sort -u > "$W/known_base.txt"
awk '{ print $1 }' "$W/query_all.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_.]+$' | sort -u > "$W/known_all.txt"
say "query: $(wc -l < "$W/known_base.txt") base names, $(wc -l < "$W/known_all.txt") full names, $(wc -l < "$W/query_filtered.txt") base names match $RE"

# gpu/run_tensor.sh's metrics, the issue's, and a few totals
base_metrics="smsp__inst_executed.sum smsp__inst_executed_op_ldsm.sum smsp__inst_executed_op_ldgsts.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum
smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
sm__inst_executed_pipe_tensor_op_hmma.sum sm__inst_executed_pipe_tensor_op_imma.sum
sm__inst_executed_pipe_tensor_op_dmma.sum smsp__inst_executed_pipe_tensor.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum smsp__warps_launched.sum gpu__time_duration.sum
sm__inst_executed_pipe_tensor_op_gmma.sum l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum
sm__cycles_elapsed.max dram__bytes_read.sum dram__bytes_write.sum
lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum lts__t_requests_srcunit_tex.sum"
# the filtered names: with the full listing, those ending in exactly .sum; else base + .sum
if [ -s "$W/known_all.txt" ]; then
    grep -E "$RE" "$W/known_all.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_]+\.sum$' > "$W/wanted_filtered.txt"
else
    awk '{ print $1 ".sum" }' "$W/query_filtered.txt" > "$W/wanted_filtered.txt"
fi
kept=""
for m in $base_metrics $(cat "$W/wanted_filtered.txt"); do
    case ",$kept," in *",$m,"*) continue ;; esac
    if grep -qxF -e "$m" "$W/known_all.txt" || grep -qxF -e "${m%.*}" "$W/known_base.txt"; then
        kept="$kept${kept:+,}$m"
    else
        say "metric $m: not in the query, dropped"
    fi
done
[ -n "$kept" ] || kept=$(printf '%s' "$base_metrics" | tr -s ' \n' ',')
{
    echo "# ncu --query-metrics --chip gh100: base names matching $RE (name, description)"
    cat "$W/query_filtered.txt"
    echo
    echo "# the metrics asked of ncu (before any it refused was dropped)"
    echo "$kept" | tr ',' '\n'
} > "$out/metrics_query.txt"
say "metrics: $(echo "$kept" | tr ',' '\n' | wc -l) asked"

# ---- 5. Nsight Compute: every kernel once, check size.  A metric ncu refuses
# is dropped and the run repeated (three times at most)
if [ -x "$BIN" ]; then
    rc=1
    for try in 1 2 3 4; do
        left=$((TOTAL - ($(date +%s) - T0) - 60))
        [ "$left" -gt 30 ] || { say "ncu: no time left"; break; }
        [ "$left" -le 200 ] || left=200
        say "ncu try $try: ${left} s at most, $(echo "$kept" | tr ',' '\n' | wc -l) metrics"
        timeout "$left" ncu --clock-control none --csv --page raw --metrics "$kept" \
            -k regex:'tma|bulk|wgmma' --launch-count 40 \
            --log-file "$W/ncu_raw.txt" "$BIN" --size check --once > "$W/ncu_stdout.txt" 2>&1
        rc=$?
        rows=$(grep -c '^"[0-9]' "$W/ncu_raw.txt" 2>/dev/null)
        say "ncu try $try: rc=$rc (hopper's own status passes through), ${rows:-0} kernel rows"
        tail -n 20 "$W/ncu_stdout.txt"
        [ "${rows:-0}" -gt 0 ] && { rc=0; break; }
        [ "$rc" -eq 124 ] && break  # out of time: no retry
        bad=$(grep -h -E '==ERROR==' "$W/ncu_raw.txt" "$W/ncu_stdout.txt" 2>/dev/null |
            grep -o -E '[a-z0-9_]+__[a-z0-9_.]+' | sort -u)
        if [ -z "$bad" ]; then
            [ "$try" -ge 2 ] && break
            say "ncu failed, no metric named in its errors: back to gpu/run_tensor.sh's list (known ones)"
            kept=$(for m in $base_metrics; do grep -qxF -e "${m%.*}" "$W/known_base.txt" && echo "$m"; done | paste -sd, -)
            continue
        fi
        for b in $bad; do
            say "ncu refused $b: dropped"
            kept=$(echo "$kept" | tr ',' '\n' | grep -vxF "$b" | paste -sd, -)
        done
    done
    [ "$rc" -eq 0 ] || failed=$((failed + 1))
    echo "$kept" | tr ',' '\n' > "$W/metrics_used.txt"
    grep -v '^==PROF==' "$W/ncu_raw.txt" > "$out/ncu.csv" 2>/dev/null
    say "ncu.csv: $(grep -c '^"[0-9]' "$out/ncu.csv" 2>/dev/null || echo 0) kernel rows"
    # the SASS opcodes each kernel executed
    # (values only: this ncu prints the instance values without the opcode names)
    step "ncu opcodes" 120 sh -c 'ncu --clock-control none --csv --page raw --metrics sass__inst_executed_per_opcode \
        --print-metric-instances values -k regex:"tma|bulk|wgmma" --launch-count 40 \
        --log-file "$2/ncu_opcodes.csv" "$1" --size check --once > "$2/ncu_opcodes_stdout.txt" 2>&1' sh "$BIN" "$W"
fi

# ---- 6. tables
python3 - "$out/ncu.csv" "$W/ncu_opcodes.csv" > "$out/counters.txt" 2> "$W/tables_err.txt" <<'EOF'
import csv, sys

def rows(path):
    try:
        lines = [l for l in open(path, errors="replace") if not l.startswith("==")]
    except OSError:
        return [], []
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return [], []
    r = list(csv.reader(lines[start:]))
    return r[0], [x for x in r[2:] if x and x[0].isdigit()]

def nonzero(v):
    try:
        return float(v.replace(",", "")) != 0
    except ValueError:
        return v not in ("", "n/a")

# ncu's raw page also prints the .avg/.max/.min rollups and device attributes: kept out here (ncu.csv has them)
def shown(h):
    return "__" in h and not h.startswith("device__") and not h.endswith((".avg", ".max", ".min"))

head, data = rows(sys.argv[1])
if head:
    kcol = head.index("Kernel Name")
    names = [row[kcol].split("(")[0] for row in data]
    mcols = [i for i, h in enumerate(head) if shown(h)]
    keys = [i for i in mcols if any(s in head[i] for s in ("tma", "gmma", "bulk", "mbarrier", "dsmem", "gpu__time"))
            and any(nonzero(row[i]) for row in data)]
    print("# ncu, hopper --size check --once: TMA / wgmma / bulk / mbarrier metrics that are non-zero")
    print("# for some kernel; one line a metric, one column a kernel:")
    for j, n in enumerate(names):
        print("#   %2d %s (grid %s, block %s)" % (j, n, data[j][head.index("Grid Size")], data[j][head.index("Block Size")]))
    print("%-72s %s" % ("metric", " ".join("%10d" % j for j in range(len(names)))))
    for i in keys:
        print("%-72s %s" % (head[i], " ".join("%10s" % row[i] for row in data)))
    print("\n# per kernel: every other metric asked that is non-zero (rollups .avg/.max/.min and device__* in ncu.csv)")
    for row in data:
        print("\n## %s" % row[kcol])
        for i in mcols:
            if i not in keys and nonzero(row[i]):
                print("  %-72s %s" % (head[i], row[i]))
ohead, odata = rows(sys.argv[2])
if ohead:
    kcol = ohead.index("Kernel Name")
    print("\n# sass__inst_executed_per_opcode* (--print-metric-instances values: the total, then the")
    print("# per-opcode values without their opcode names)")
    for row in odata:
        print("\n## %s" % row[kcol])
        for i, h in enumerate(ohead):
            if h.startswith("sass__") and nonzero(row[i]):
                print("  %-58s %s" % (h, row[i]))
EOF
say "counters.txt: $(wc -l < "$out/counters.txt") lines"

# ---- 7. everything else in one archive
cp "$out"/*.txt "$out/ncu.csv" "$W/" 2>/dev/null
tar -C "$W" --exclude='hopper' -czf "$out/full.tar.gz" . 2>/dev/null
ls -la "$out"
say "done: $failed failed step(s)"
exit "$failed"
