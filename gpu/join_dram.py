#!/usr/bin/env python3
"""The memory-hierarchy model (coalsim --hier on each kernel's sketch, at the
size the harness launched) beside Nsight Compute's DRAM and L2 counters.

usage: python3 gpu/join_dram.py RUNDIR [COALSIM [PROFILE]] > gpu/results/h100/dram.txt
RUNDIR is what gpu/run_dram.sh wrote (launches.txt, ncu_dram.csv).  The
predicted time (with PROFILE, default gpu/profiles/h100.txt) is set beside the median time of
the same launch measured by harness time (gpu/results/h100/time.json)."""
import json
import subprocess
import sys

from ncu_csv import launches, num

SMS = 132
BIG = {   # kernel -> (sketch, --set values of the harness's large launch)
    **{k: (k, ["blocks=131072", "threads=256"]) for k in
       ("add", "add_permuted", "add_offset", "add_stride", "add_broadcast")},
    **{f"strided_read_s{s}": ("strided_read", [f"stride={s}", f"blocks={SMS * 16}", "threads=256", "N=67108864"])
       for s in (1, 2, 4, 8, 16, 32, 64, 128)},
    "row_sum": ("row_sum", ["M=8192", "threads=256"]),
    "col_sum": ("col_sum", ["M=8192", "threads=256"]),
    **{k: (k, ["N=8192"]) for k in ("copy", "transpose1", "transpose2", "transpose3")},
    "transposeSmem": ("transposeSmem", ["nrows=8192", "ncols=8192"]),
    "transposeSmemPad2": ("transposeSmemPad2", ["nrows=8192", "ncols=8192"]),
    "reduceGmem": ("reduceGmem", ["n=16777216"]),
    "reduceSmem": ("reduceSmem", ["n=16777216"]),
    "reduceSmemUnroll": ("reduceSmemUnroll", ["n=16777216"]),
    "copy_float4": ("copy_float4", ["n4=33554432", f"blocks={SMS * 16}"]),
}


def main():
    rundir = sys.argv[1]
    coalsim = sys.argv[2] if len(sys.argv) > 2 else "build/coalsim"
    profile = sys.argv[3] if len(sys.argv) > 3 else "gpu/profiles/h100.txt"
    runs = launches(rundir, "ncu_dram.csv")
    hw = dict(runs)
    measured = {k["kernel"]: k["ms"] * 1e3 for k in json.load(open("gpu/results/h100/time.json"))["kernels"]}
    print("# DRAM bytes and L2 sectors: Nsight Compute on the H100 (hw) vs coalsim --hier on the kernel's sketch")
    print("# produced by: gpu/run_dram.sh RUNDIR; python3 gpu/join_dram.py RUNDIR")
    print("# model DRAM write = dirty lines evicted during the kernel (lines still dirty at its end are not counted,")
    print("# as ncu does not count them); ratio = model / hw")
    print(f"{'kernel':20s} {'DRAM read hw':>14s} {'model':>14s} {'ratio':>6s} {'DRAM write hw':>14s} {'model':>14s} "
          f"{'ratio':>6s} {'L2 sectors hw':>14s} {'model':>12s} {'ratio':>6s} {'time us hw':>10s} {'model':>8s} {'ratio':>6s}  bound")
    for name, _ in runs:
        if name not in BIG:
            continue
        sketch, sets = BIG[name]
        args = [coalsim, "--hier", "--json", "--profile", profile] + \
            [a for s in sets for a in ("--set", s)] + [f"examples/sketches/{sketch}.sketch"]
        h = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["hierarchy"]
        l2, rd, wr = h["l2_sectors"], h["dram_read_bytes"], h["dram_write_bytes"]
        pt, bound = h["time"]["total_us"], h["time"]["bound"]
        mt = measured.get(name, 0.0)
        r = hw[name]
        hrd, hwr = num(r["dram__bytes_read.sum"]), num(r["dram__bytes_write.sum"])
        hl2 = num(r["lts__t_sectors_srcunit_tex_op_read.sum"]) + num(r["lts__t_sectors_srcunit_tex_op_write.sum"])
        ratio = lambda a, b: f"{a / b:6.2f}" if b else "     -"
        print(f"{name:20s} {hrd:14d} {rd:14d} {ratio(rd, hrd)} {hwr:14d} {wr:14d} {ratio(wr, hwr)} "
              f"{hl2:14d} {l2:12d} {ratio(l2, hl2)} {mt:10.1f} {pt:8.1f} {ratio(pt, mt)}  {bound}", flush=True)


if __name__ == "__main__":
    main()
