#!/bin/sh
# coalsim run on CUDA programs built here by nvcc from tests/run/*.cu: their own
# result checks pass under coalsim's driver, every launch is reported (text,
# JSON, CSV, a log file, the -k/-s/-c selection), each launch's counters equal
# the kernel front end's for the same launch, events give the modelled time,
# kernel faults reach the program as a GPU's would, a crash still leaves the
# reports, and a missing program or bad options are errors.  Skipped (with a
# note) where there is no nvcc.
# usage: tests/run_check.sh [BUILD]
# shellcheck disable=SC2015  # ok always succeeds: A && ok || bad is if-then-else here
build=${1:-build}
cd "$(dirname "$0")/.." || exit 2
case $build in /*) ;; *) build=$PWD/$build ;; esac
coalsim=$build/coalsim
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
if [ -z "$nvcc" ]; then
    echo "runcheck: no nvcc, skipped (coalsim run needs programs built by nvcc)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/coalsim-run.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# built for sm_90 with line information, as a user profiling for an H100 would
for p in multi fault crash nolaunch managed wide; do
    if "$nvcc" -arch=sm_90 -lineinfo -o "$tmp/$p" "tests/run/$p.cu" >"$tmp/$p.log" 2>&1; then ok
    else bad "nvcc could not build tests/run/$p.cu"; cat "$tmp/$p.log"; exit 1; fi
done

# 1. the program's own check passes; every launch is reported after its output
"$coalsim" run "$tmp/multi" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && ok || { bad "coalsim run multi: exit status"; cat "$tmp/err"; }
grep -q "^PASS: 0 wrong, 2 launches counted on the device" "$tmp/out" && ok || bad "multi's own check under coalsim run"
grep -q "^device: NVIDIA H100 80GB HBM3 (coalsim), 132 SMs, compute capability 9.0" "$tmp/out" && ok ||
    bad "the device the program sees"
[ "$(grep -c '^== launch' "$tmp/out")" = 3 ] && ok || bad "three launches in the text report"
grep -q "^== launch 2: block_sum(float const\*, float\*, int)  grid (16,1,1)  block (256,1,1)  dynamic shared 1024 bytes" \
    "$tmp/out" && ok || bad "launch 2's heading"
grep -q "^== launch 3: gather<33>(float\*, float const\*, int)" "$tmp/out" && ok || bad "a template kernel's name"
[ "$(sed -n '/^PASS/=' "$tmp/out")" -lt "$(sed -n '/^== launch 1/=' "$tmp/out")" ] && ok ||
    bad "the program's output comes before the report"

# --sample: off unless asked (the program reads what its kernels wrote); asked, the report says
# how many blocks ran and the counts are the launch's
"$coalsim" run --threads 2 "$tmp/wide" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && ! grep -q "^sampled:" "$tmp/out" && grep -q "ld     4     32768   1048576" "$tmp/out" && ok ||
    { bad "coalsim run samples nothing unasked"; cat "$tmp/out" "$tmp/err"; }
"$coalsim" run --threads 2 --sample 512 "$tmp/wide" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -q "^sampled: 512 of 4096 blocks ran" "$tmp/out" && grep -q "ld     4     32768   1048576" "$tmp/out" &&
    ok || { bad "coalsim run --sample 512"; cat "$tmp/out" "$tmp/err"; }

# managed memory: the host and the kernels share it, no copies
"$coalsim" run "$tmp/managed" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -q "^managed: 0 wrong" "$tmp/out" && [ "$(grep -c '^== launch' "$tmp/out")" = 2 ] && ok ||
    { bad "managed memory"; cat "$tmp/out" "$tmp/err"; }

# 2. JSON in a log file: {"launches": [...]} with what each launch was
"$coalsim" run --json --log-file "$tmp/run.json" "$tmp/multi" >"$tmp/out" 2>&1 && ok || bad "coalsim run --json"
python3 - "$tmp/run.json" <<'PY' && ok || bad "the JSON report"
import json, sys
d = json.load(open(sys.argv[1]))
l = d["launches"]
assert [x["kernel"] for x in l] == ["saxpy(float*, float const*, int)", "block_sum(float const*, float*, int)",
                                    "gather<33>(float*, float const*, int)"], l
assert l[1]["grid"] == [16, 1, 1] and l[1]["block"] == [256, 1, 1] and l[1]["dynamic_shared"] == 1024
assert [x["launch"] for x in l] == [1, 2, 3]
assert l[1]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] > 0
PY
grep -q "^PASS" "$tmp/out" && ! grep -q '"launches"' "$tmp/out" && ok || bad "--log-file: the report stays out of stdout"

# 3. each launch's counters are the kernel front end's for the same launch
"$coalsim" --json tests/run/multi.cu --arch sm_90 --kernel saxpy --grid 16 --block 256 \
    --args y:16K=random:1,x:16K=random:2,4096 >"$tmp/k1.json" 2>"$tmp/err" || { bad "kernel front end"; cat "$tmp/err"; }
"$coalsim" --json tests/run/multi.cu --arch sm_90 --kernel block_sum --grid 16 --block 256 --dynamic-shared 1024 \
    --args x:16K=random:1,sums:64,4096 >"$tmp/k2.json" 2>"$tmp/err" || { bad "kernel front end"; cat "$tmp/err"; }
"$coalsim" --json tests/run/multi.cu --arch sm_90 --kernel 'gather<33>' --grid 16 --block 256 \
    --args out:16K,in:16K=random:1,4096 >"$tmp/k3.json" 2>"$tmp/err" || { bad "kernel front end"; cat "$tmp/err"; }
python3 - "$tmp/run.json" "$tmp/k1.json" "$tmp/k2.json" "$tmp/k3.json" <<'PY' && ok || bad "counters differ from the kernel front end's"
import json, sys
runs = json.load(open(sys.argv[1]))["launches"]
for i, path in enumerate(sys.argv[2:]):
    one = json.load(open(path))["metrics"]
    got = runs[i]["metrics"]
    diff = {k: (got.get(k), v) for k, v in one.items() if got.get(k) != v}
    assert not diff, (runs[i]["kernel"], diff)
PY

# 4. which launches are reported: -k NAME, -k regex:, -s, -c; CSV
"$coalsim" run -k block_sum "$tmp/multi" 2>&1 | grep '^== launch' >"$tmp/sel"
[ "$(cat "$tmp/sel")" = "== launch 2: block_sum(float const*, float*, int)  grid (16,1,1)  block (256,1,1)  dynamic shared 1024 bytes" ] &&
    ok || { bad "-k block_sum"; cat "$tmp/sel"; }
"$coalsim" run -k 'regex:^(saxpy|gather)' -s 1 "$tmp/multi" 2>&1 | grep -c '^== launch' | grep -qx 1 && ok || bad "-k regex: -s 1"
"$coalsim" run --launch-count 2 "$tmp/multi" 2>&1 | grep -c '^== launch' | grep -qx 2 && ok || bad "--launch-count 2"
"$coalsim" run --csv --log-file "$tmp/run.csv" "$tmp/multi" >/dev/null 2>&1
[ "$(grep -c '^trace,' "$tmp/run.csv")" = 1 ] && grep -q '^"launch 3: gather<33>' "$tmp/run.csv" && ok || bad "CSV: one header, launches named"

# --per-request (JSON: each launch's "requests"), --picture, --html: one file a launch
"$coalsim" run --json --per-request --log-file "$tmp/pr.json" "$tmp/multi" >/dev/null 2>&1
python3 - "$tmp/pr.json" <<'PY' && ok || bad "--per-request with coalsim run --json"
import json, sys
l = json.load(open(sys.argv[1]))["launches"]
assert len(l[0]["requests"]) == sum(a["requests"] for a in l[0]["accesses"]) == 513, len(l[0]["requests"])
PY
"$coalsim" run --picture -k saxpy "$tmp/multi" 2>&1 | grep -q "^    sector address" && ok || bad "--picture with coalsim run"
(cd "$tmp" && "$coalsim" run --html page.html ./multi >/dev/null 2>&1) && [ -s "$tmp/page-1.html" ] && [ -s "$tmp/page-3.html" ] &&
    ok || bad "--html: page-N.html for each launch"

# 5. events read the modelled clock: a program that times itself prints the model's time
"$coalsim" run --hier --profile gpu/profiles/h100.txt "$tmp/multi" >"$tmp/out" 2>&1
ms=$(sed -n 's/^saxpy: \([0-9.]*\) ms$/\1/p' "$tmp/out")
pred=$(sed -n '0,/^Predicted time: \([0-9.]*\) us.*/s//\1/p' "$tmp/out" | tail -1)
python3 -c "import sys; ms, us = float(sys.argv[1]), float(sys.argv[2]); assert ms > 0 and abs(ms * 1000 - us) < 0.06, (ms, us)" \
    "$ms" "$pred" && ok || bad "cudaEventElapsedTime ($ms ms) is not the first launch's predicted time ($pred us)"

# the L2 carries from launch to launch: gather reads what block_sum just read
"$coalsim" run --hier --json --log-file "$tmp/hier.json" "$tmp/multi" >/dev/null 2>&1
python3 - "$tmp/hier.json" <<'PY' && ok || bad "--hier: launch 3 does not find launch 2's lines in L2"
import json, sys
l = json.load(open(sys.argv[1]))["launches"]
assert l[1]["metrics"]["dram__bytes_read.sum"] == 16384, l[1]["metrics"]["dram__bytes_read.sum"]
assert l[2]["metrics"]["dram__bytes_read.sum"] == 0, l[2]["metrics"]["dram__bytes_read.sum"]
PY

# 6. kernel faults reach the program as from a GPU (sticky), the report names kernel, block, lane and source line
for what in oob:cudaErrorIllegalAddress:fault.cu:11 misaligned:cudaErrorMisalignedAddress:fault.cu:12 \
            assert:cudaErrorAssert:fault.cu:13; do
    arg=${what%%:*} rest=${what#*:}
    err=${rest%%:*} line=${rest#*:}
    "$coalsim" run "$tmp/fault" "$arg" >"$tmp/out" 2>"$tmp/err"
    [ $? = 0 ] && grep -q "^$arg: $err, then $err" "$tmp/out" && ok || { bad "fault $arg: the program's view"; cat "$tmp/out" "$tmp/err"; }
    grep -q "^coalsim: launch 1: .*: kernel fault: .*block (0,0,0).*lane 0" "$tmp/err" && grep -q "$line" "$tmp/err" && ok ||
        { bad "fault $arg: the message"; cat "$tmp/err"; }
done

# 7. a program that crashes: its signal, and the launches before it reported
"$coalsim" run "$tmp/crash" >"$tmp/out" 2>"$tmp/err"
[ $? = 134 ] && ok || bad "a crash's exit status"
grep -q "^== launch 1: fill(int\*)" "$tmp/out" && ok || bad "the launch before the crash is reported"
grep -q "was ended by signal 6" "$tmp/err" && ok || bad "the crash is named"

# 8. no launch: a note, the program's exit status
"$coalsim" run "$tmp/nolaunch" >"$tmp/out" 2>"$tmp/err"
[ $? = 3 ] && grep -q "^copied 42 back" "$tmp/out" && grep -q "made no CUDA kernel launch" "$tmp/err" && ok ||
    bad "a program with no launch"

# 9. bad input: missing or not executable program, usage errors
"$coalsim" run "$tmp/no-such-program" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && grep -q "no-such-program: no such executable file" "$tmp/err" && ok || bad "a missing program"
"$coalsim" run tests/run/multi.cu >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && grep -q "multi.cu: no such executable file" "$tmp/err" && ok || bad "a file that is not executable"
printf 'int main(void) { return 0; }\n' >"$tmp/static.c"
if cc -static -o "$tmp/static" "$tmp/static.c" 2>/dev/null; then
    "$coalsim" run "$tmp/static" >"$tmp/out" 2>"$tmp/err"
    [ $? = 1 ] && grep -q "is linked fully statically" "$tmp/err" && ok || bad "a fully static program"
fi
"$coalsim" run >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "coalsim run needs a program" "$tmp/err" && ok || bad "coalsim run with no program"
"$coalsim" run --grid 4 "$tmp/multi" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "takes the launches from the program" "$tmp/err" && ok || bad "coalsim run --grid"
"$coalsim" -k x traces/add_offset.trace >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && ok || bad "-k outside coalsim run"
"$coalsim" run --log-file /nonexistent/dir/x "$tmp/multi" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && grep -q "/nonexistent/dir/x: cannot write" "$tmp/err" && ok || bad "an unwritable log file"

# 10. Hopper's asynchronous path (gpu/hopper/hopper.cu, built for sm_90a): the
# host makes tensor maps (cuTensorMapEncodeTiled), the kernels use TMA,
# mbarriers, bulk copies and wgmma; all 14 of its own checks pass, and the
# pipelined GEMM's counters equal the kernel front end's for the same launch
if "$nvcc" -arch=sm_90a -lineinfo -o "$tmp/hopper" gpu/hopper/hopper.cu >"$tmp/hopper.log" 2>&1; then
    "$coalsim" run --json --log-file "$tmp/hopper.json" "$tmp/hopper" --once >"$tmp/out" 2>"$tmp/err"
    [ $? = 0 ] && grep -q "^14 passed, 0 failed" "$tmp/out" && ok ||
        { bad "hopper.cu's own checks under coalsim run"; cat "$tmp/out" "$tmp/err"; }
    "$coalsim" --json --kernel wgmma_gemm_ws --grid 2,1 --block 384 --dynamic-shared 197696 \
        --args 'A:256K=randomh:1@f16:512x256:64x128:128,Bt:256K=randomh:2@f16:512x256:64x256:128,C:256K,256,512' \
        gpu/hopper/hopper.cu >"$tmp/ws.json" 2>"$tmp/err" && ok || { bad "wgmma_gemm_ws on the kernel front end"; cat "$tmp/err"; }
    python3 - "$tmp/hopper.json" "$tmp/ws.json" <<'PY' && ok || bad "wgmma_gemm_ws's counters, coalsim run against the front end"
import json, sys
run = [l for l in json.load(open(sys.argv[1]))["launches"] if l["kernel"] == "wgmma_gemm_ws"][0]
one = json.load(open(sys.argv[2]))
assert run["metrics"] == one["metrics"], (run["metrics"], one["metrics"])
assert run["metrics"]["sm__inst_executed_pipe_tensor_op_gmma.sum"] > 0
PY
    # the same program from the H100's SASS listing of hopper.cu (--sass-listing): its checks pass and
    # each launch issues the H100's warp instructions (ncu: gpu/results/h100/hopper/counters.txt; the
    # warp-specialised GEMM's try_wait loops spin on the GPU and sleep here: 15,470 against 15,626)
    "$coalsim" run --json --log-file "$tmp/hsass.json" --sass-listing gpu/results/h100/hopper/sass.txt \
        "$tmp/hopper" --once >"$tmp/out" 2>"$tmp/err"
    [ $? = 0 ] && grep -q "^14 passed, 0 failed" "$tmp/out" && ok ||
        { bad "hopper.cu's own checks under coalsim run --sass-listing"; cat "$tmp/out" "$tmp/err"; }
    python3 - "$tmp/hsass.json" <<'PY' && ok || bad "hopper.cu's warp instructions from its SASS listing"
import json, sys
h100 = {"tma_load_store_2d": 29652, "tma_swizzle_32b": 83968, "tma_swizzle_64b": 68992, "tma_swizzle_128b": 61504,
        "bulk_copy": 21378, "wgmma_gemm_f16": 25808, "wgmma_gemm_bf16": 25808, "wgmma_gemm_rega": 47760,
        "wgmma_gemm_mnb": 14024, "wgmma_gemm_noswz": 59584, "wgmma_gemm_tf32": 44880, "wgmma_gemm_e4m3": 16272,
        "wgmma_gemm_s8": 16272, "wgmma_gemm_ws": 15470}
got = {l["kernel"]: l["metrics"]["smsp__inst_executed.sum"] for l in json.load(open(sys.argv[1]))["launches"]}
assert got == h100, got
PY
    "$coalsim" run --sass-listing "$tmp/none.sass" "$tmp/hopper" --once >"$tmp/out" 2>"$tmp/err"
    [ $? = 1 ] && grep -q "none.sass: cannot read" "$tmp/err" && ok || bad "an unreadable --sass-listing"
else bad "nvcc could not build gpu/hopper/hopper.cu"; cat "$tmp/hopper.log"; fi
# clusters: __cluster_dims__ and cudaLaunchKernelEx's attribute, distributed shared
# memory, remote mbarrier arrivals, TMA multicast (gpu/hopper/cluster.cu)
if "$nvcc" -arch=sm_90a -lineinfo -o "$tmp/cluster" gpu/hopper/cluster.cu >"$tmp/cluster.log" 2>&1; then
    "$coalsim" run --log-file "$tmp/cluster.txt" "$tmp/cluster" --once >"$tmp/out" 2>"$tmp/err"
    [ $? = 0 ] && grep -q "^6 passed, 0 failed" "$tmp/out" && [ "$(grep -c '^== launch' "$tmp/cluster.txt")" = 6 ] && ok ||
        { bad "cluster.cu's own checks under coalsim run"; cat "$tmp/out" "$tmp/err"; }
    # with its SASS listing: every launch, those in clusters too, runs from the H100's SASS
    "$coalsim" run --log-file "$tmp/csass.txt" --sass-listing gpu/results/h100/cluster/sass.txt "$tmp/cluster" --once \
        >"$tmp/out" 2>"$tmp/err"
    [ $? = 0 ] && grep -q "^6 passed, 0 failed" "$tmp/out" && [ "$(grep -c '^Executed (SASS' "$tmp/csass.txt")" = 6 ] &&
        [ "$(grep -c '^Executed (PTX' "$tmp/csass.txt")" = 0 ] && ok ||
        { bad "cluster.cu under coalsim run --sass-listing"; cat "$tmp/out" "$tmp/err"; }
else bad "nvcc could not build gpu/hopper/cluster.cu"; cat "$tmp/cluster.log"; fi

echo "runcheck: $pass passed, $fail failed"
[ "$fail" = 0 ]
