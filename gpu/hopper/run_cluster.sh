#!/usr/bin/env bash
# gpu/hopper/cluster.cu on the GPU at hand (an H100): build, checks and times
# at both sizes, SASS, the ncu metrics for clusters / distributed shared
# memory / TMA multicast that exist, ncu counters of every kernel once at the
# check size.  Modelled on gpu/hopper/run_hopper.sh.
# usage: bash gpu/hopper/run_cluster.sh OUTDIR        (from anywhere)
# OUTDIR gets (at most 8 files: the device tool brings back no more):
#   log.txt            this script's log: versions, each step's rc and duration, ptxas -v, SASS opcode families
#   check.txt          cluster's output: --size check (times: 5 trials x 10 launches), then --size big
#   metrics_query.txt  ncu --query-metrics (gh100) base names matching
#                      cluster|dsmem|multicast|dshared|distributed, then those matching the
#                      Hopper async paths (tma|gmma|bulk|mbarrier), then the metric names asked of ncu
#   ncu.csv            ncu --csv --page raw, one row a kernel (cluster --size check --once)
#   counters.txt       tables from ncu.csv: the cluster/DSMEM/multicast metrics across kernels, the
#                      instruction / L1TEX / L2 op counters across kernels, per kernel the other
#                      non-zero ones, sass__inst_executed_per_opcode
#   sass.txt           cuobjdump -sass of the binary (sm_90a)
#   sass_counts.txt    per kernel, each SASS opcode (with its modifiers) and how many times it appears
#   full.tar.gz        everything else: full query listings, ptxas report, nvdisasm, ncu's own output, the PTX
# Nothing is changed on the GPU (ncu --clock-control none).  TOTAL (default
# 290 s) bounds the whole run.  A kernel that hangs in barrier.cluster.wait
# (unbounded, unlike the mbarrier waits) ends its step at the step's limit;
# then the big size is skipped.  Exit status: the number of failed steps.
# shellcheck disable=SC2016  # the sh -c scripts take their arguments as $1, $2
set -u
out=${1:?usage: bash gpu/hopper/run_cluster.sh OUTDIR}
mkdir -p "$out" && out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.." || exit 1
export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d /tmp/cluster_run.XXXXXX)
exec > >(tee -a "$out/log.txt") 2>&1

TOTAL=${TOTAL:-290}
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
    timeout -k 5 "$limit" "$@"
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

# ---- 1. build (the command the file's header gives), with ptxas's report
BIN=$W/cluster
step build 180 nvcc -arch=sm_90a -O2 -lineinfo -Xptxas -v -o "$BIN" gpu/hopper/cluster.cu 2> "$W/ptxas.txt"
grep -E 'entry function|registers|spill|warning|error' "$W/ptxas.txt" | grep -B1 -A1 -E "sm_90a|warning|error" | head -n 60
nvcc -arch=sm_90a --ptx -lineinfo -o "$W/cluster.ptx" gpu/hopper/cluster.cu 2>&1 | head -n 5
if [ -f gpu/hopper/cluster.ptx ] && ! cmp -s "$W/cluster.ptx" gpu/hopper/cluster.ptx; then
    say "note: the PTX built here differs from the committed gpu/hopper/cluster.ptx"
fi

# ---- 2. checks and times: check size (5 x 10 launches), then big (4096^3 GEMMs)
hung=0
if [ -x "$BIN" ]; then
    step check 60 sh -c '"$1" --size check --trials 5 --launches 10 > "$2/check.txt" 2>&1' sh "$BIN" "$out"
    [ $? -eq 124 ] && hung=1
    if [ "$hung" -eq 0 ]; then
        step big 120 sh -c '"$1" --size big >> "$2/check.txt" 2>&1' sh "$BIN" "$out"
        [ $? -eq 124 ] && hung=1
    else
        say "check timed out (a hang?): big size skipped"
    fi
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
    say "SASS opcodes of the cluster paths (static counts; sass_counts.txt has all):"
    grep -v -E ' (NOP|BRA|EXIT|IMAD|IADD3|MOV|ISETP|LOP3|SHF|LEA|BSSY|BSYNC|IMAD\.[A-Z.]*|ULDC[A-Z.0-9]*|LEA\.HI[A-Z.]*|SEL|PLOP3[A-Z.]*|FSEL|F2FP[A-Z.0-9]*|UMOV|UIADD3|ULEA|ULOP3[A-Z.]*|USHF[A-Z.0-9]*|UISETP[A-Z.0-9]*|IADD3\.X|SHF\.[A-Z.0-9]*|ISETP\.[A-Z.0-9]*|LOP3\.LUT|MOV\.[A-Z.0-9]*) ' \
        "$out/sass_counts.txt" | grep -E 'MAPA|CGA|UCGA|S2UR|S2R|LD|ST|ATOM|RED|SYNCS|UTMA|UBLKCP|ELECT|GMMA|WARPGROUP|FENCE|MEMBAR|SETMAXREG|BAR|CCTL|ERRBAR|PRMT|QSPC|GETCTA'
fi

# ---- 4. the metrics this ncu knows for gh100: base names, and full names (with suffixes)
CRE='cluster|dsmem|multicast|dshared|distributed'
HRE='tma|gmma|bulk|mbarrier'
# the instruction, L1TEX and L2 op counters that may count the .shared::cluster ld/st/atom and the
# multicast's L2 reads, most wanted first (MAXM may cut the tail)
ORES='^smsp__inst_executed_op_ ^smsp__sass_inst_executed_op_ ^sm__sass_inst_executed_op_ ^l1tex__data_.*shared
^l1tex__t_(requests|sectors)_pipe_lsu_mem_(global|local|shared) ^lts__t_(sectors|requests)_srcunit_tex(\.|_op_)
^lts__t_(sectors|requests)_op_ ^l1tex__m_'
step query 90 sh -c 'ncu --query-metrics --chip gh100 > "$1/query_base.txt" 2>&1' sh "$W"
step query_all 90 sh -c 'ncu --query-metrics --chip gh100 --query-metrics-mode all > "$1/query_all.txt" 2>&1' sh "$W" ||
    say "query-metrics-mode all failed (base names only)"
awk '$1 ~ /^[a-z0-9_]+__[a-z0-9_.]+$/' "$W/query_base.txt" > "$W/query_names.txt"
grep -E "$CRE" "$W/query_names.txt" > "$W/query_cluster.txt"
grep -E "$HRE" "$W/query_names.txt" | grep -v -E "$CRE" > "$W/query_hopper.txt"
awk '{ print $1 }' "$W/query_base.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_]+$' | sort -u > "$W/known_base.txt"
awk '{ print $1 }' "$W/query_all.txt" | grep -E '^[a-z0-9_]+__[a-z0-9_.]+$' | sort -u > "$W/known_all.txt"
say "query: $(wc -l < "$W/known_base.txt") base names, $(wc -l < "$W/known_all.txt") full names; base names matching $CRE: $(wc -l < "$W/query_cluster.txt"), $HRE (others): $(wc -l < "$W/query_hopper.txt")"

base_metrics="smsp__inst_executed.sum smsp__warps_launched.sum gpu__time_duration.sum sm__cycles_elapsed.max
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum smsp__inst_executed_op_shared_atom.sum
smsp__inst_executed_op_generic_ld.sum smsp__inst_executed_op_generic_st.sum smsp__inst_executed_op_generic_atom.sum
smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum smsp__inst_executed_op_global_atom.sum
smsp__inst_executed_op_global_red.sum smsp__inst_executed_op_ldsm.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
sm__inst_executed_pipe_tensor_op_gmma.sum l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum
dram__bytes_read.sum dram__bytes_write.sum lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum
lts__t_sectors_op_atom.sum lts__t_requests_srcunit_tex.sum lts__t_sectors_srcunit_tex_op_read.sum
smsp__cycles_active.sum sm__ctas_launched.sum
launch__cluster_dim_x launch__cluster_dim_y launch__cluster_dim_z launch__cluster_max_active
launch__cluster_max_potential_size launch__cluster_scheduling_policy launch__grid_size launch__shared_mem_per_block"
# wanted, in order: the cluster ones, the Hopper async ones, the op counters; full names ending in
# exactly .sum (base + .sum without the full listing); at most MAXM in all
MAXM=${MAXM:-700}
if [ -s "$W/known_all.txt" ]; then
    sums=$(grep -E '^[a-z0-9_]+__[a-z0-9_]+\.sum$' "$W/known_all.txt")
else
    sums=$(awk '{ print $1 ".sum" }' "$W/query_names.txt")
fi
{
    echo "$sums" | grep -E "$CRE"
    echo "$sums" | grep -v -E "$CRE" | grep -E "$HRE"
    for re in $ORES; do echo "$sums" | grep -v -E "$CRE|$HRE" | grep -E "$re"; done
} > "$W/wanted_filtered.txt"
kept=""
nk=0
for m in $base_metrics $(cat "$W/wanted_filtered.txt"); do
    case ",$kept," in *",$m,"*) continue ;; esac
    [ "$nk" -lt "$MAXM" ] || { say "metric $m: past $MAXM, left out"; continue; }
    if grep -qxF -e "$m" "$W/known_all.txt" || grep -qxF -e "${m%.*}" "$W/known_base.txt"; then
        kept="$kept${kept:+,}$m"
        nk=$((nk + 1))
    else
        say "metric $m: not in the query, dropped"
    fi
done
[ -n "$kept" ] || kept=$(printf '%s' "$base_metrics" | tr -s ' \n' ',')
{
    echo "# ncu --query-metrics --chip gh100: base names matching $CRE (name, type, unit, description)"
    cat "$W/query_cluster.txt"
    echo
    echo "# base names matching $HRE and not the above"
    cat "$W/query_hopper.txt"
    echo
    echo "# the metrics asked of ncu (before any it refused was dropped)"
    echo "$kept" | tr ',' '\n'
} > "$out/metrics_query.txt"
say "metrics: $(echo "$kept" | tr ',' '\n' | wc -l) asked"

# ---- 5. Nsight Compute: every kernel once, check size.  A metric ncu refuses
# is dropped and the run repeated (three times at most)
if [ -x "$BIN" ]; then
    NCU_ARGS="--size check --once"
    [ "$hung" -eq 1 ] && say "ncu after a hang: each kernel still runs; ncu gets what time is left"
    rc=1
    for try in 1 2 3 4; do
        left=$((TOTAL - ($(date +%s) - T0) - 40))
        [ "$left" -gt 20 ] || { say "ncu: no time left"; break; }
        [ "$left" -le 150 ] || left=150
        [ "$hung" -eq 0 ] || [ "$left" -le 60 ] || left=60
        say "ncu try $try: ${left} s at most, $(echo "$kept" | tr ',' '\n' | wc -l) metrics"
        # shellcheck disable=SC2086
        timeout "$left" ncu --clock-control none --csv --page raw --metrics "$kept" --launch-count 20 \
            --log-file "$W/ncu_raw.txt" "$BIN" $NCU_ARGS > "$W/ncu_stdout.txt" 2>&1
        rc=$?
        rows=$(grep -c '^"[0-9]' "$W/ncu_raw.txt" 2>/dev/null)
        say "ncu try $try: rc=$rc (cluster's own status passes through), ${rows:-0} kernel rows"
        tail -n 12 "$W/ncu_stdout.txt"
        [ "${rows:-0}" -gt 0 ] && { rc=0; break; }
        [ "$rc" -eq 124 ] && break  # out of time: no retry
        bad=$(grep -h -E '==ERROR==' "$W/ncu_raw.txt" "$W/ncu_stdout.txt" 2>/dev/null |
            grep -o -E '[a-z0-9_]+__[a-z0-9_.]+' | sort -u)
        if [ -z "$bad" ]; then
            [ "$try" -ge 2 ] && break
            say "ncu failed, no metric named in its errors: back to the base list (known ones)"
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
    # the SASS opcodes each kernel executed: with their names (details) if this ncu prints them, else values
    for mode in details values; do
        left=$((TOTAL - ($(date +%s) - T0) - 15))
        [ "$left" -gt 15 ] || { say "ncu opcodes: no time left"; break; }
        [ "$left" -le 60 ] || left=60
        # shellcheck disable=SC2086
        step "ncu opcodes ($mode)" "$left" sh -c 'ncu --clock-control none --csv --page raw --metrics sass__inst_executed_per_opcode \
            --print-metric-instances "$3" --launch-count 20 \
            --log-file "$2/ncu_opcodes.csv" "$1" --size check --once > "$2/ncu_opcodes_stdout.txt" 2>&1' sh "$BIN" "$W" "$mode" &&
            grep -q '^"[0-9]' "$W/ncu_opcodes.csv" && break
    done
fi

# ---- 6. tables
python3 - "$out/ncu.csv" "$W/ncu_opcodes.csv" > "$out/counters.txt" 2> "$W/tables_err.txt" <<'EOF'
import csv, re, sys

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

def shown(h):
    return "__" in h and not h.startswith("device__") and not h.endswith((".avg", ".max", ".min"))

CRE = re.compile(r"cluster|dsmem|multicast|dshared|distributed")
ORE = re.compile(r"^smsp__(sass_)?inst_executed|^sm__sass_inst_executed_op_|^l1tex__(t|data)_|^lts__t_|^dram__|^gpu__time|^sm__ctas|^smsp__warps")
HRE = re.compile(r"tma|gmma|bulk|mbarrier|^l1tex__m_")

head, data = rows(sys.argv[1])
used = set()
if head:
    kcol = head.index("Kernel Name")
    names = [row[kcol].split("(")[0] for row in data]
    mcols = [i for i, h in enumerate(head) if shown(h)]
    print("# ncu, cluster --size check --once; one line a metric (non-zero for some kernel), one column a kernel:")
    for j, n in enumerate(names):
        print("#   %2d %s (grid %s, block %s)" % (j, n, data[j][head.index("Grid Size")], data[j][head.index("Block Size")]))
    for title, rx in (("cluster / distributed shared memory / multicast metrics", CRE),
                      ("TMA / wgmma / bulk / mbarrier / L1TEX M-stage metrics", HRE),
                      ("instruction, L1TEX T/data, L2 and time counters", ORE)):
        keys = [i for i in mcols if i not in used and rx.search(head[i]) and any(nonzero(row[i]) for row in data)]
        used.update(keys)
        print("\n## %s\n%-78s %s" % (title, "metric", " ".join("%10d" % j for j in range(len(names)))))
        for i in keys:
            print("%-78s %s" % (head[i], " ".join("%10s" % row[i] for row in data)))
    print("\n## per kernel: every other metric asked that is non-zero (rollups .avg/.max/.min and device__* in ncu.csv)")
    for row in data:
        print("\n### %s" % row[kcol])
        for i in mcols:
            if i not in used and nonzero(row[i]):
                print("  %-76s %s" % (head[i], row[i]))
ohead, odata = rows(sys.argv[2])
if ohead:
    kcol = ohead.index("Kernel Name")
    print("\n## sass__inst_executed_per_opcode* (--print-metric-instances)")
    for row in odata:
        print("\n### %s" % row[kcol])
        for i, h in enumerate(ohead):
            if h.startswith("sass__") and nonzero(row[i]):
                print("  %-58s %s" % (h, row[i]))
EOF
say "counters.txt: $(wc -l < "$out/counters.txt") lines"
[ -s "$W/tables_err.txt" ] && cat "$W/tables_err.txt"

# ---- 7. everything else in one archive
cp "$out"/*.txt "$out/ncu.csv" "$W/" 2>/dev/null
tar -C "$W" --exclude='cluster' -czf "$out/full.tar.gz" . 2>/dev/null
ls -la "$out"
say "done: $failed failed step(s)"
exit "$failed"
