#!/usr/bin/env python3
"""Turn what gpu/outside/run_outside.sh left in OUT into data later code reads.

usage: python3 gpu/outside/join.py [--set SET] OUT [DEST]
           writes DEST/counters.txt and DEST/times.txt
           (DEST defaults to gpu/results/h100/outside; --set: only the
           launches of SET were run, as with run_outside.sh's SETS=time)
       python3 gpu/outside/join.py --summary OUT
           prints one line a launch (run_outside.sh saves it as summary.txt)

OUT holds times.txt (the launcher's "attr", "time" and "FAILED" lines) and
ncu.csv (Nsight Compute's raw CSV, each chunk after a line
"# chunk SET FIRST: NAME=MANGLED ..." naming the launches it ran).

counters.txt: "LAUNCH METRIC VALUE", one a line, launches in launches.list
order, metrics in metrics.txt order; an instanced metric (the instruction mix
by SASS opcode) gives one line an instance, METRIC:INSTANCE.  Values are as
ncu printed them, without thousands separators (run_outside.sh asks for base
units: bytes, nanoseconds, ...).
times.txt: "LAUNCH SET median_us mean_us min_us batch_us launches regs
static_smem local max_threads", "-" where a launch has no value.
Exit status 1 when an ncu row matches no launch or a launch has no row.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_launches(only=None):
    """[(name, set)] in launches.list order (of set ONLY, if given)."""
    out = []
    for line in open(os.environ.get("COALSIM_LAUNCHES") or os.path.join(HERE, "launches.list")):
        w = line.split()
        if w and not w[0].startswith("#") and (only is None or w[1] == only):
            out.append((w[0], w[1]))
    return out


def read_metrics():
    """The metric names of metrics.txt, in order."""
    return [l.split()[0] for l in open(os.path.join(HERE, "metrics.txt")) if l.split() and not l.startswith("#")]


def read_times(path):
    """{launch: {key: value}} from the launcher's attr/time/FAILED lines."""
    t = {}
    for line in open(path):
        w = line.split()
        if len(w) < 2 or w[0] not in ("attr", "time", "FAILED"):
            continue
        d = t.setdefault(w[1], {})
        if w[0] == "FAILED":
            d["failed"] = "yes"
        for kv in w[2:]:
            if "=" in kv:
                k, v = kv.split("=", 1)
                d[k] = v
    return t


def plain_name(kernel):
    """The function identifier of a mangled or demangled kernel name."""
    k = kernel
    if k.startswith("void "):
        k = k[5:]
    for stop in "(<":
        k = k.split(stop)[0]
    return k.split("::")[-1]


def same_kernel(mangled, shown):
    """Whether ncu's Kernel Name (mangled, or demangled if ncu could not print
    mangled names) is the kernel the launcher reported as mangled."""
    return shown == mangled or plain_name(shown) in mangled


def number(s):
    """An ncu value without thousands separators; non-numbers unchanged."""
    t = s.replace(",", "")
    try:
        float(t)
        return t
    except ValueError:
        return s


def read_ncu(path):
    """{launch: {column: value}} and a list of problems."""
    rows, problems = {}, []
    header, pending = None, []
    for line in open(path, newline=""):
        if line.startswith("# chunk"):
            for name, leftover in [p.split("=", 1) for p in pending]:
                problems.append("%s launched %s but has no ncu row" % (name, leftover))
            pending = line.split(":", 1)[1].split()
            header = None
            continue
        if not line.strip():
            continue
        row = next(csv.reader([line]))
        if row and row[0] == "ID":
            header = row
            continue
        if not header or not row or not row[0].isdigit():
            continue  # the units row, or noise
        d = dict(zip(header, row))
        shown = d.get("Kernel Name", "")
        while pending and not same_kernel(pending[0].split("=", 1)[1], shown):
            name, mangled = pending.pop(0).split("=", 1)
            problems.append("%s launched %s but has no ncu row" % (name, mangled))
        if not pending:
            problems.append("ncu row %s (%s) matches no launch" % (row[0], shown))
            continue
        name = pending.pop(0).split("=", 1)[0]
        rows[name] = d
    for p in pending:
        problems.append("%s launched %s but has no ncu row" % tuple(p.split("=", 1)))
    return rows, problems


def instances(value):
    """An instanced metric's cell ("FFMA: 12; IADD3: 4" or similar) as pairs;
    [] if it has no such structure."""
    out = []
    for part in value.replace("(", "").replace(")", "").split(";"):
        if ":" in part:
            k, v = part.rsplit(":", 1)
            out.append((k.strip(), number(v.strip())))
    return out


def write_data(out, dest, only=None):
    launches = read_launches(only)
    metrics = read_metrics()
    times = read_times(os.path.join(out, "times.txt"))
    rows, problems = read_ncu(os.path.join(out, "ncu.csv"))
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "counters.txt"), "w") as f:
        f.write("# Nsight Compute's counters for %s, one launch and metric a line.\n"
                % os.path.relpath(os.environ.get("COALSIM_LAUNCHES") or os.path.join(HERE, "launches.list"),
                                  os.path.dirname(os.path.dirname(HERE))))
        f.write("# produced by: bash gpu/outside/run_outside.sh OUT; python3 gpu/outside/join.py OUT\n")
        for name, _ in launches:
            d = rows.get(name)
            if d is None:
                continue
            for m in metrics:
                if m not in d:
                    continue
                inst = instances(d[m]) if ":" in d[m] else []
                if inst:
                    for k, v in inst:
                        f.write("%s %s:%s %s\n" % (name, m, k, v))
                else:
                    f.write("%s %s %s\n" % (name, m, number(d[m]) or "-"))
    keys = ["median_us", "mean_us", "min_us", "batch_us_per_launch", "launches", "regs", "static_smem", "local",
            "max_threads"]
    with open(os.path.join(dest, "times.txt"), "w") as f:
        f.write("# launch set " + " ".join(k.replace("_per_launch", "") for k in keys) + "\n")
        for name, s in launches:
            d = times.get(name, {})
            if "failed" in d:
                f.write("%s %s FAILED\n" % (name, s))
            else:
                f.write("%s %s %s\n" % (name, s, " ".join(d.get(k, "-") for k in keys)))
    missing = [n for n, _ in launches if n not in rows]
    for p in problems:
        print("join: " + p, file=sys.stderr)
    if missing:
        print("join: %d launches have no ncu row: %s" % (len(missing), " ".join(missing)), file=sys.stderr)
    print("join: %d launches, %d with counters, %d timed -> %s" %
          (len(launches), len(rows), sum(1 for n, _ in launches if "median_us" in times.get(n, {})), dest))
    return 1 if problems or missing else 0


def summary(out):
    launches = read_launches()
    times = read_times(os.path.join(out, "times.txt"))
    rows, problems = read_ncu(os.path.join(out, "ncu.csv")) if os.path.exists(os.path.join(out, "ncu.csv")) else ({}, [])
    cols = [("gld_req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
            ("gld_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            ("gst_req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
            ("gst_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
            ("shld_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            ("shst_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
            ("bank_ld", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            ("bank_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
            ("warp_inst", "smsp__inst_executed.sum"),
            ("dram_rd", "dram__bytes_read.sum"),
            ("dram_wr", "dram__bytes_write.sum"),
            ("ncu_ns", "gpu__time_duration.sum")]
    print("%-32s %-5s %10s %4s " % ("launch", "set", "median_us", "regs") + " ".join("%12s" % c for c, _ in cols))
    for name, s in launches:
        t = times.get(name, {})
        d = rows.get(name, {})
        med = "FAILED" if "failed" in t else t.get("median_us", "-")
        print("%-32s %-5s %10s %4s " % (name, s, med, t.get("regs", "-")) +
              " ".join("%12s" % number(d.get(m, "-")) for _, m in cols))
    for p in problems:
        print("# " + p)
    return 0


def main():
    args = sys.argv[1:]
    only = None
    if len(args) >= 2 and args[0] == "--set":
        only = args[1]
        args = args[2:]
    if len(args) == 2 and args[0] == "--summary":
        return summary(args[1])
    if len(args) in (1, 2) and not args[0].startswith("-"):
        dest = args[1] if len(args) == 2 else os.path.join(HERE, "..", "results", "h100", "outside")
        return write_data(args[0], os.path.normpath(dest), only)
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
