#!/usr/bin/env python3
"""coalsim's counters for pranjalssh/fast.cu's Hopper GEMM ladder beside the H100's.

Each launch of a `coalsim run --json` log of gpu/outside/public_hopper/harness.cu
(--size check: one launch a kernel) is matched by its kernel (sgemmWarptiling is
k1, matmulKernelN kN, matmulKernelPP kpp) to the H100's row of the same kernel at
the same size (gpu/results/h100/public_hopper/ncu.csv: ncu --csv --page raw of
`harness --size check --only K`, run_device.sh), and every metric coalsim reports
that ncu has is printed beside it (gpu__time_duration excepted: no time model here).

usage: python3 gpu/outside/public_hopper/compare.py [--ncu CSV] [--log LOG]... [--diag-log LOG]...
       python3 gpu/outside/public_hopper/compare.py --extract LOG > counters.json

--log: a coalsim run log of the unmodified source (default: the committed
gpu/results/h100/public_hopper/coalsim_counters.json, the metrics of such a log);
--diag-log: a log of the diagnostic build (prep.sh --diag), compared apart
(default, when neither is given: the committed coalsim_counters_diag.json).
--extract: a log's launches with their metrics only (what is committed).
"""
import argparse
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
RES = os.path.join(ROOT, "gpu", "results", "h100", "public_hopper")

KINDS = [  # (kind, metric regex), first match wins
    ("warp instructions", r"^smsp__(thread_)?inst_executed\.sum$"),
    ("instructions by op", r"^smsp__inst_executed_op_"),
    ("wgmma", r"gmma"),
    ("TMA", r"tma"),
    ("global LSU requests/sectors", r"^l1tex__t_(requests|sectors)_pipe_lsu_mem_global"),
    ("local LSU requests/sectors", r"^l1tex__t_(requests|sectors)_pipe_lsu_mem_local"),
    ("DSMEM requests/sectors", r"dshared"),
    ("shared wavefronts/conflicts", r"^l1tex__data_"),
    ("other", r"."),
]


def kind_of(metric):
    return next(k for k, rx in KINDS if re.search(rx, metric))


def harness_id(kernel):
    m = re.search(r"sgemmWarptiling|matmulKernel(\w+?)\b|matmulKernel(\w+)<", kernel)
    if not m:
        return None
    if m.group(0).startswith("sgemm"):
        return "1"
    return (m.group(1) or m.group(2)).lower()


def number(v):
    try:
        return int(v.replace(",", ""))
    except (ValueError, AttributeError):
        try:
            return float(v.replace(",", ""))
        except (ValueError, AttributeError):
            return None


def ncu_rows(path):
    out = {}
    with open(path, newline="") as f:
        for d in csv.DictReader(f):
            out[d["harness_kernel"]] = d
    return out


def coalsim_launches(path):
    return json.load(open(path))["launches"]


def compare(title, logs, gpu, out):
    per_kind = {}
    equal = total = 0
    differs = []
    print("=" * 100, file=out)
    print(title, file=out)
    print("=" * 100, file=out)
    for log in logs:
        for ln in coalsim_launches(log):
            k = harness_id(ln["kernel"])
            row = gpu.get(k)
            print("\nk%s %s  grid %s block %s  (coalsim launch %s of %s)" % (
                k, ln["kernel"].split("(")[0], ln.get("grid"), ln.get("block"), ln.get("launch"),
                os.path.basename(log)), file=out)
            if row is None:
                print("  no H100 row", file=out)
                continue
            print("  %-66s %14s %14s" % ("metric", "coalsim", "H100"), file=out)
            ke = kt = 0
            for metric in sorted(ln["metrics"]):
                if metric == "gpu__time_duration.sum" or metric not in row:
                    continue
                v, g = ln["metrics"][metric], number(row[metric])
                if g is None or g != g:  # empty, or nan: ncu's pass for it failed (kernels 8, 11, 12's SASS-patched pass)
                    print("  %-66s %14d %14s   (not compared)" % (metric, v, row[metric] or "-"), file=out)
                    continue
                same = v == g
                total += 1
                equal += same
                kt += 1
                ke += same
                kd = per_kind.setdefault(kind_of(metric), [0, 0, []])
                kd[0] += same
                kd[1] += 1
                if not same:
                    r = v / g if g else float("inf")
                    kd[2].append(r)
                    differs.append((k, metric, v, g, r))
                mark = "" if same else "   <- %.3fx" % (v / g if g else float("inf"))
                print("  %-66s %14d %14d%s" % (metric, v, g, mark), file=out)
            print("  k%s: %d of %d equal" % (k, ke, kt), file=out)
    print("\nsummary: %d of %d counters equal the H100's" % (equal, total), file=out)
    for kind, _ in KINDS:
        if kind in per_kind:
            e, t, rs = per_kind[kind]
            span = "" if not rs else "; the others %.3f-%.3fx" % (min(rs), max(rs))
            print("  %-30s %3d of %3d equal%s" % (kind, e, t, span), file=out)
    for k, metric, v, g, r in differs:
        print("  differs: k%-3s %-62s %12d vs %12d (%.3fx)" % (k, metric, v, g, r), file=out)
    print(file=out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ncu", default=os.path.join(RES, "ncu.csv"))
    ap.add_argument("--log", action="append")
    ap.add_argument("--diag-log", action="append", default=[])
    ap.add_argument("--extract")
    a = ap.parse_args()
    if a.extract:
        ls = [{"launch": x.get("launch"), "kernel": x["kernel"], "grid": x.get("grid"), "block": x.get("block"),
               "metrics": x["metrics"]} for x in coalsim_launches(a.extract)]
        json.dump({"launches": ls}, sys.stdout, indent=1)
        print()
        return 0
    gpu = ncu_rows(a.ncu)
    if not a.log and not a.diag_log:  # the committed extracts
        a.diag_log = [os.path.join(RES, "coalsim_counters_diag.json")]
    logs = a.log or [os.path.join(RES, "coalsim_counters.json")]
    compare("coalsim run of the unmodified source (%s) vs the H100" % ", ".join(os.path.basename(x) for x in logs),
            logs, gpu, sys.stdout)
    if a.diag_log:
        compare("DIAGNOSTIC: coalsim run of the source with prep.sh --diag's two edits (%s) vs the H100 "
                "(unmodified source)" % ", ".join(os.path.basename(x) for x in a.diag_log), a.diag_log, gpu, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
