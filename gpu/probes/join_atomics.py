#!/usr/bin/env python3
"""Join the atomic probes' launches with ncu's counters (gpu/probes/atomics.cu,
run by gpu/outside/run_sass_detail.sh) into one line a pattern and kernel:

  PATTERN OP REQUESTS SECTORS LTS_SECTORS WAVEFRONTS o0..o31

(OP: atom_global, red_global, redf_global, cas_global, atom_shared,
red_shared; REQUESTS and SECTORS are l1tex's for the atom or red op of
global memory; WAVEFRONTS the shared atomic's; '-' where not measured.)

usage: python3 gpu/probes/join_atomics.py RUNDIR > gpu/probes/h100-atomics.txt
"""
import csv
import os
import sys


def main():
    run = sys.argv[1]
    pats, launches = {}, []
    for line in open(os.path.join(run, "launches.txt")):
        w = line.split()
        if w and w[0] == "PATTERN":
            pats[w[1]] = w[2:]
        elif w and w[0] == "LAUNCH":
            launches.append((int(w[1]), w[2], w[3]))
    rows = [r for r in csv.reader(open(os.path.join(run, "ncu.csv"))) if r and not r[0].startswith("==")]
    head = rows[0]
    data = {int(r[0]): dict(zip(head, r)) for r in rows[2:] if r[0].isdigit()}

    def val(d, m):
        v = d.get(m, "")
        return v.replace(",", "") if v not in ("", "n/a") else "-"

    print("# atomic probes on the H100: gpu/probes/atomics.cu under ncu (gpu/outside/run_sass_detail.sh),")
    print("# joined by gpu/probes/join_atomics.py; offsets in bytes, '-' an inactive lane")
    print("# PATTERN OP REQUESTS SECTORS LTS_SECTORS WAVEFRONTS o0..o31")
    for idx, name, op in launches:
        d = data.get(idx)
        if d is None:
            continue
        kind = "red" if op.startswith("red") else "atom"
        if op.endswith("global"):
            req = val(d, f"l1tex__t_requests_pipe_lsu_mem_global_op_{kind}.sum")
            sec = val(d, f"l1tex__t_sectors_pipe_lsu_mem_global_op_{kind}.sum")
            lts = val(d, f"lts__t_sectors_op_{kind}.sum")
            wf = "-"
        else:
            req = sec = lts = "-"
            wf = val(d, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")
        offs = ["-" if o == "-1" else o for o in pats[name]]
        print(name, op, req, sec, lts, wf, " ".join(offs))


if __name__ == "__main__":
    main()
