#!/usr/bin/env python3
"""Put Nsight Compute's counters beside the model's for every harness kernel.

usage: python3 gpu/join_counters.py RUNDIR [COALSIM] > gpu/results/h100/counters.txt

RUNDIR is what gpu/run_validate.sh wrote: launches.txt, ncu_counters.csv and
traces.tgz (the captured traces of the same launches), or, as committed in
gpu/results/h100, a traces/ folder instead of the archive.  The model's numbers
come from running COALSIM (default build/coalsim) --json on each trace.
Exit status 1 if any load count differs (stores may differ by the hardware's
run-to-run noise; the difference is printed)."""
import json
import os
import subprocess
import sys
import tarfile

from ncu_csv import launches, num

M = {
    "global_ld": ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors"),
    "global_st": ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sectors"),
    "shared_ld": ("smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "wavefronts"),
    "shared_st": ("smsp__inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "wavefronts"),
}


def main():
    rundir = sys.argv[1]
    coalsim = sys.argv[2] if len(sys.argv) > 2 else "build/coalsim"
    runs = launches(rundir, "ncu_counters.csv")
    if os.path.isdir(f"{rundir}/traces"):
        def trace(name):
            return open(f"{rundir}/traces/{name}.trace", "rb").read()
    else:
        tar = tarfile.open(f"{rundir}/traces.tgz")

        def trace(name):
            return tar.extractfile(f"coalsim-traces/{name}.trace").read()
    print("# Nsight Compute (hw) vs coalsim (model) on the harness's seed-sized launches, H100.")
    print("# produced by: gpu/run_validate.sh RUNDIR; python3 gpu/join_counters.py RUNDIR")
    print("# per kernel and op: requests hw/model, sectors or wavefronts hw/model, per request")
    print(f"{'kernel':26s} {'access':10s} {'req hw':>7s} {'req mod':>7s} {'units hw':>9s} {'units mod':>9s} "
          f"{'per req hw':>10s} {'per req mod':>11s}  verdict")
    bad = 0
    for name, r in runs:
        text = trace(name)
        rep = json.loads(subprocess.run([coalsim, "--json", "-"], input=text, capture_output=True, check=True).stdout)
        for key, (mreq, munits, unit) in M.items():
            hw_req, hw_units = num(r[mreq]), num(r[munits])
            t = rep["totals"][key]
            mod_req, mod_units = t["requests"], t[unit]
            if hw_req == 0 and mod_req == 0:
                continue
            if (hw_req, hw_units) == (mod_req, mod_units):
                verdict = "exact"
            elif key.startswith("shared") and hw_units == mod_units and hw_req > mod_req:
                # smsp__inst_executed counts warp instructions whose lanes are
                # all predicated off (the compiler if-converted a tid < 64
                # branch); they move no data, so the wavefronts still agree
                verdict = f"units exact; +{hw_req - mod_req} instructions with no active lane"
            elif key.endswith("_st") and hw_req == mod_req and hw_units >= mod_units:
                verdict = f"store noise +{hw_units - mod_units}"
            else:
                verdict = "DIFFERENT"
                bad += 1
            print(f"{name:26s} {key:10s} {hw_req:7d} {mod_req:7d} {hw_units:9d} {mod_units:9d} "
                  f"{hw_units / max(hw_req, 1):10.2f} {mod_units / max(mod_req, 1):11.2f}  {verdict}")
    print(f"# {bad} different")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
