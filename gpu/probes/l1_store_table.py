#!/usr/bin/env python3
"""The table of gpu/probes/l1_store.cu's ncu run: per kernel (pattern P, load form Q), the sectors
its loads ask L1 for, the hits, and the sectors L1 reads from L2, each a load request.
usage: python3 gpu/probes/l1_store_table.py l1_store_ncu.csv"""
import csv
import re
import sys

FORMS = ["plain", "volatile", "cg", "cv", "relaxed.gpu", "relaxed.sys", "acquire.gpu", "nc", "lu"]


def main():
    rows = {}
    order = []
    with open(sys.argv[1], newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        m = re.search(r"probe<(\d+), (\d+)>", r["Kernel Name"])
        if not m:
            continue
        key = (r["ID"], int(m.group(1)), int(m.group(2)))
        if key not in rows:
            rows[key] = {}
            order.append(key)
        scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(r.get("Metric Unit", ""), 1.0)
        if r["Metric Name"] != "gpu__time_duration.sum":
            scale = 1.0
        rows[key][r["Metric Name"]] = float(r["Metric Value"].replace(",", "")) * scale
    print("%-3s %-12s %8s %8s %8s %9s" % ("P", "load", "sec/req", "hit/req", "L2/req", "time us"))
    for key in order:
        v = rows[key]
        req = v.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0) or 1
        print("P%-2d %-12s %8.2f %8.2f %8.2f %9.1f" % (
            key[1], FORMS[key[2]],
            v.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0) / req,
            v.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0) / req,
            v.get("lts__t_sectors_srcunit_tex_op_read.sum", 0) / req,
            v.get("gpu__time_duration.sum", 0)))


if __name__ == "__main__":
    main()
