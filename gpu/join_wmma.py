"""Nsight Compute's counters for the WMMA fragment kernels, one kernel and
metric a line: the file tests/check_tensor.c compares the interpreter with.

usage: python3 gpu/join_wmma.py RUNDIR > gpu/results/h100/wmma/counters.txt
RUNDIR: what gpu/run_wmma.sh left (wmma_ncu.csv, metrics.txt).  wmma_check
--once launches every load and store kernel (its _g then its _s) and every
tile once, so each kernel name is one ncu row."""
import csv
import sys

from ncu_csv import num


def main(rundir):
    metrics = [m.strip() for m in open(f"{rundir}/metrics.txt") if m.strip()]
    rows = [r for r in csv.reader(open(f"{rundir}/wmma_ncu.csv")) if r and not r[0].startswith("==")]
    head, data = rows[0], [r for r in rows[1:] if r[0].isdigit()]
    col = head.index("Kernel Name")
    seen = set()
    print("# Nsight Compute's counters for tests/kernels/wmma.cu on the H100, one kernel and metric a line.")
    print(f"# produced by: bash gpu/run_wmma.sh OUT; python3 gpu/join_wmma.py OUT ({len(data)} launches)")
    for r in data:
        rec = dict(zip(head, r))
        name = r[col]
        if name in seen:
            sys.exit(f"{name}: launched twice")
        seen.add(name)
        for m in metrics:
            if m in rec and m != "gpu__time_duration.sum":
                print(name, m, num(rec[m]))


if __name__ == "__main__":
    main(sys.argv[1])
