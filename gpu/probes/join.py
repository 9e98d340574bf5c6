#!/usr/bin/env python3
"""Join probe patterns with the ncu counters that run_probes.sh recorded.

usage: python3 gpu/probes/join.py RUNDIR [RUNDIR...] > gpu/probes/h100-sm90.txt

A pattern measured in several run folders keeps the first one's numbers.

Output, one line per pattern (the format tests/check_probes.c reads):
    NAME SPACE OP SIZE WARPS WSTRIDE REQS UNITS[,UNITS...] o0 .. o31
REQS is the hardware's request count (l1tex__t_requests for global,
smsp__inst_executed_op_shared for shared) of one launch; UNITS the sectors
(global) or data-pipe wavefronts (shared), one value per repeated launch.
"""
import csv
import os
import sys

METRIC = {
    ("global", "ld"): ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("global", "st"): ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                       "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("shared", "ld"): ("smsp__inst_executed_op_shared_ld.sum",
                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("shared", "st"): ("smsp__inst_executed_op_shared_st.sum",
                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
}


def num(s):
    return int(float(s.replace(",", "")))


def main():
    rundirs = sys.argv[1:]
    if not rundirs:
        sys.exit("usage: join.py RUNDIR [RUNDIR...]")
    patfile = os.path.join(os.path.dirname(os.path.abspath(__file__)), "patterns.txt")
    pats = {}
    order = []
    for line in open(patfile):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        pats[f[0]] = f
        order.append(f[0])
    devices = []
    measured = {}
    for rundir in rundirs:
        launches = {}   # (space, op) -> list of pattern names in launch order
        for line in open(f"{rundir}/launches.txt"):
            f = line.split()
            if f[2] == "DEVICE":
                if " ".join(f[3:]) not in devices:
                    devices.append(" ".join(f[3:]))
                continue
            launches.setdefault((f[0], f[1]), []).append(f[4])
        here = {}
        for (space, op), names in launches.items():
            rows = [r for r in csv.reader(open(f"{rundir}/ncu_{space}_{op}.csv"))
                    if r and r[0] != "" and not r[0].startswith("==")]
            head = rows[0]
            data = [r for r in rows[1:] if r[0].isdigit()]
            if len(data) != len(names):
                sys.exit(f"join: {rundir}: {space} {op}: {len(data)} ncu rows for {len(names)} launches")
            ireq = head.index(METRIC[(space, op)][0])
            iun = head.index(METRIC[(space, op)][1])
            for name, r in zip(names, data):
                m = here.setdefault(name, [None, []])
                req = num(r[ireq])
                if m[0] is not None and m[0] != req:
                    sys.exit(f"join: {name}: request count changed between repeats")
                m[0] = req
                m[1].append(num(r[iun]))
        for name, m in here.items():
            measured.setdefault(name, m)
    print("# coalsim probe results: single-instruction patterns measured with Nsight Compute.")
    for d in devices:
        print(f"# device: {d}")
    print("# produced by: gpu/probes/run_probes.sh RUNDIR (on the GPU), then")
    print("#   python3 gpu/probes/join.py " + " ".join(os.path.relpath(d) for d in rundirs))
    print("# NAME SPACE OP SIZE WARPS WSTRIDE REQS UNITS(per launch, comma-separated) o0..o31")
    print("# UNITS: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum for global,")
    print("#        l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum for shared;")
    print("# REQS:  l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum / smsp__inst_executed_op_shared_{ld,st}.sum")
    for name in order:
        if name not in measured:
            continue
        f = pats[name]
        req, units = measured[name]
        print(" ".join(f[:6] + [str(req), ",".join(map(str, units))] + f[7:]))


if __name__ == "__main__":
    main()
