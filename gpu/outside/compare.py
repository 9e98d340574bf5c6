#!/usr/bin/env python3
"""coalsim's kernel front end against Nsight Compute on the outside suite.

Runs every launch of gpu/outside/launches.list (one SET) through coalsim --json
and sets its predicted "metrics" beside the counters the H100 gave for the same
launch (gpu/results/h100/outside/counters.txt, made by run_outside.sh and
join.py).  Prints one line a launch and metric group, and a summary.

usage: python3 gpu/outside/compare.py [--set count|time] [--coalsim PATH] [--only NAME...]
                                      [--counters FILE] [--sass [DIR]] [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# the groups compared: (name, [metrics summed]); global requests and sectors
# must be exact, shared wavefronts within the hardware's noise
GROUPS = [
    ("gld_req", ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]),
    ("gld_sec", ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]),
    ("gst_req", ["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]),
    ("gst_sec", ["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]),
    ("gatom_req", ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"]),
    ("gatom_sec", ["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"]),
    ("shld_wf", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]),
    ("shst_wf", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]),
    ("shld_inst", ["smsp__inst_executed_op_shared_ld.sum"]),
    ("shst_inst", ["smsp__inst_executed_op_shared_st.sum"]),
    ("gld_inst", ["smsp__inst_executed_op_global_ld.sum"]),
    ("gst_inst", ["smsp__inst_executed_op_global_st.sum"]),
    ("ldsm_inst", ["smsp__inst_executed_op_ldsm.sum"]),
    ("ldgsts_inst", ["smsp__inst_executed_op_ldgsts.sum"]),
    ("ldgsts_ca_req", ["l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"]),
    ("ldgsts_ca_sec", ["l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"]),
    ("hmma", ["sm__inst_executed_pipe_tensor_op_hmma.sum"]),
    ("imma", ["sm__inst_executed_pipe_tensor_op_imma.sum"]),
    ("dmma", ["sm__inst_executed_pipe_tensor_op_dmma.sum"]),
    ("inst", ["smsp__inst_executed.sum"]),
    ("warps", ["smsp__warps_launched.sum"]),
]
GLOBAL = ("gld_req", "gld_sec", "gst_req", "gst_sec", "gatom_req", "gatom_sec")


def launches(path, want, only):
    for line in open(path):
        w = shlex.split(line, comments=True)
        if not w:
            continue
        name, s, f, *rest = w
        if s == want and (not only or name in only):
            yield name, f, rest


def counters(path):
    c = {}
    for line in open(path):
        if line.startswith("#"):
            continue
        w = line.split(None, 2)
        if len(w) == 3:
            try:
                c.setdefault(w[0], {})[w[1]] = float(w[2].replace(",", ""))
            except ValueError:
                pass
    return c


def unit_of(f, rest):
    """The compile unit run_outside.sh named f's build with these --define's."""
    u = os.path.splitext(os.path.basename(f))[0]
    for i, w in enumerate(rest):
        if w == "--define" and i + 1 < len(rest):
            u += "_" + rest[i + 1].replace("=", "-")
    return u


def run(coalsim, name, f, rest, sass):
    args = [f]
    if sass:
        args = [os.path.join(sass, unit_of(f, rest) + ".nvdisasm"), "--ptx", f]
    r = subprocess.run([coalsim, "--json", "--threads", "1"] + args + rest, capture_output=True, text=True,
                       cwd=ROOT, timeout=3600)
    if r.returncode:
        return name, None, r.stderr.strip()
    return name, json.loads(r.stdout)["metrics"], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="count")
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--counters", default=os.path.join(ROOT, "gpu", "results", "h100", "outside", "counters.txt"))
    ap.add_argument("--sass", nargs="?", const=os.path.join(ROOT, "gpu", "results", "h100", "outside", "sass"),
                    help="run the SASS listings of this folder (default: the H100's): coalsim LISTING --ptx FILE.cu")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", nargs="*")
    a = ap.parse_args()
    hw = counters(a.counters)
    todo = list(launches(os.environ.get("COALSIM_LAUNCHES") or os.path.join(ROOT, "gpu", "outside", "launches.list"), a.set, a.only))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for name, m, err in ex.map(lambda t: run(a.coalsim, *t, a.sass), todo):
            results[name] = (m, err)
    print(f"# coalsim {'SASS' if a.sass else 'PTX'} front end vs Nsight Compute on the H100, set {a.set}")
    print("# launch          metric          H100       coalsim   ratio")
    exact_global = exact_shared = total = failed = 0
    inst_ratios = []
    for name, _, _ in todo:
        m, err = results[name]
        if m is None:
            failed += 1
            print(f"{name:<30} FAILED: {err[:200]}")
            continue
        h = hw.get(name)
        if h is None:
            print(f"{name:<30} no H100 counters")
            continue
        total += 1
        glob_ok = shared_ok = True
        for g, names in GROUPS:
            if not any(n in h for n in names):
                continue          # not measured in that run (counters collected before the metric was)
            hv = sum(h.get(n, 0) for n in names)
            cv = sum(m.get(n, 0) for n in names)
            if hv == 0 and cv == 0:
                continue
            ratio = cv / hv if hv else float("inf")
            mark = "" if hv == cv else "  <-"
            if g in GLOBAL and hv != cv:
                glob_ok = False
            if g in ("shld_wf", "shst_wf") and abs(ratio - 1) > 0.02:
                shared_ok = False
            if g == "inst":
                inst_ratios.append((name, ratio))
            print(f"{name:<30} {g:<10} {hv:>12.0f} {cv:>12.0f} {ratio:7.3f}{mark}")
        exact_global += glob_ok
        exact_shared += shared_ok
    print(f"# {total} launches compared, {failed} failed")
    print(f"# global requests and sectors (ld, st, atomics) equal the H100's: {exact_global} of {total}")
    print(f"# shared wavefronts within 2% of the H100's: {exact_shared} of {total}")
    if inst_ratios:
        rs = sorted(r for _, r in inst_ratios)
        print(f"# warp instructions / H100's: median {rs[len(rs) // 2]:.3f}, range {rs[0]:.3f} to {rs[-1]:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
