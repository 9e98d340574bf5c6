"""Reading what the run scripts leave: the launch order the harness printed and
Nsight Compute's raw CSV, one row per launch (shared by the join scripts)."""
import csv
import sys


def num(s):
    """An ncu value ("1,234" or "1234.0") as an integer."""
    return int(float(s.replace(",", "")))


def launches(rundir, csvname):
    """[(kernel name, {metric: value string})] in launch order."""
    names = [l.split()[1] for l in open(f"{rundir}/launches.txt") if l.startswith("LAUNCH ")]
    rows = [r for r in csv.reader(open(f"{rundir}/{csvname}")) if r and not r[0].startswith("==")]
    head, data = rows[0], [r for r in rows[1:] if r[0].isdigit()]
    if len(data) != len(names):
        sys.exit(f"{csvname}: {len(data)} ncu rows for {len(names)} launches")
    return [(n, dict(zip(head, r))) for n, r in zip(names, data)]
