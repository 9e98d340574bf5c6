#!/usr/bin/env python3
"""Join the matrix probes' launches with their ncu counters (run_matrix.sh's
OUTDIR) into the table tests/check_matrix.c replays through the model:

  NAME OP N WF_LD WF_ST SECTORS SECTORS_CA SMEM_WF GOFF x32 SOFF x32

OP: ldsm, ldsmt, stsm (N matrices) or ldgsts_ca, ldgsts_cg (N bytes a lane);
WF_LD, WF_ST: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum;
SECTORS: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum (cp.async is counted
there); SECTORS_CA: ..._op_ldgsts_cache_access.sum; SMEM_WF: the cp.async's
shared-side wavefronts, l1tex__data_pipe_lsu_wavefronts_mem_shared.sum less
the 4 every cp.async kernel shows (the .cg ones too, whose copies take none:
the same 4 whatever the pattern)."""
import csv
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "gpu/probes/runs/h100-matrix"
rows = [r for r in csv.reader(l for l in open(f"{d}/ncu.csv") if not l.startswith("=="))]
hdr, data = rows[0], rows[2:]
col = {n: i for i, n in enumerate(hdr)}
launches = [l.split() for l in open(f"{d}/launches.txt") if l.startswith("LAUNCH")]
print("# gpu/probes/matrix.cu on", open(f"{d}/log.txt").readline().strip() and
      [l for l in open(f"{d}/log.txt")][1].split(",")[0])
print("# NAME OP N WF_LD WF_ST SECTORS SECTORS_CA SMEM_WF GOFF x32 SOFF x32 (join_matrix.py)")
for l, r in zip(launches, data):
    if l[3] == "mma":
        continue
    v = lambda n: int(float(r[col[n]].replace(",", "")))
    wf_ld = v("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
    wf_st = v("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
    sec = v("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    sec_ca = v("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum")
    swf = v("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum") - 4 if l[3].startswith("ldgsts") else 0
    print(l[2], l[3], l[4], wf_ld, wf_st, sec, sec_ca, swf, " ".join(l[5:]))
