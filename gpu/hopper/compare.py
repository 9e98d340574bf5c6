#!/usr/bin/env python3
"""coalsim's counters for gpu/hopper/hopper.cu's count launches beside the H100's.

Each count launch of gpu/hopper/hopper.list (the tensor-map ones are comments
there, since the GPU launcher takes no tensor maps: they are read all the
same) runs on the kernel front end (gpu/hopper/hopper.ptx, the compute_90a PTX
the device built), and every metric coalsim names that the H100's run has
(gpu/results/h100/hopper/counters.txt, ncu of `hopper --size check --once`)
is printed beside it.  The kernels' buffers hold other values on the GPU
(hopper.cu's own fills), which changes no count: no address depends on them.

With --sass LISTING (the H100's, gpu/results/h100/hopper/sass.txt), the same
launches run on the SASS interpreter from that listing, the PTX giving the
module:

    python3 gpu/hopper/compare.py --sass gpu/results/h100/hopper/sass.txt

With --run-json FILE, the launches are those of a `coalsim run --json
--log-file FILE PROGRAM --once` of the program itself (every launch of the
program, as the GPU ran it), matched to the counters by kernel name:

    build/coalsim run --json --log-file /tmp/cl.json ./cluster --once
    python3 gpu/hopper/compare.py --run-json /tmp/cl.json --counters gpu/results/h100/cluster/counters.txt

With --times CHECK (the program's check.txt from the H100: its "NAME: time T
us" cudaEvent medians at the check size), each launch also runs with --hier
and its predicted time is printed beside the H100's.

usage: python3 gpu/hopper/compare.py [--coalsim build/coalsim] [--counters FILE] [--run-json FILE | --sass LISTING]
                                     [--times CHECK]
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def number(v):
    try:
        return int(v.replace(",", ""))
    except ValueError:
        return None


def counters(path):
    """{kernel: {metric: value}}: counters.txt's table (a column a kernel),
    then its '## kernel' sections (a metric a line)."""
    names, out, section = {}, {}, None
    for line in open(path):
        m = re.match(r"#\s+(\d+) (\w+) \(grid", line)
        if m:
            names[int(m.group(1))] = m.group(2)
            continue
        m = re.match(r"## (\w+)", line)
        if m:
            # a kernel's own section, or the heading of another table
            section = m.group(1) if m.group(1) in names.values() else None
            continue
        if line.startswith("#") or line.startswith("metric") or not line.strip():
            continue
        f = line.split()
        if section:
            if len(f) == 2 and number(f[1]) is not None:
                out.setdefault(section, {})[f[0]] = number(f[1])
            continue
        if len(f) != len(names) + 1:
            continue                 # a per-opcode list, not a row of the table
        for i, v in enumerate(f[1:]):
            out.setdefault(names[i], {})[f[0]] = number(v)
    return out


def launches(path):
    """(name, argv after the file) of every count launch, commented or not."""
    for line in open(path):
        s = line.lstrip("#").strip()
        f = s.split()
        if len(f) > 3 and f[1] == "count" and f[2].endswith(".cu"):
            yield f[0], f[3:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--counters", default=os.path.join(ROOT, "gpu", "results", "h100", "hopper", "counters.txt"))
    ap.add_argument("--run-json", help="a coalsim run --json log of the program: its launches")
    ap.add_argument("--sass", help="run the launches from this SASS listing (cuobjdump -sass or nvdisasm)")
    ap.add_argument("--times", help="the H100's check.txt: predicted times (--hier) beside its cudaEvent times")
    a = ap.parse_args()
    measured = {}
    if a.times:
        for line in open(a.times):
            m = re.match(r"(\w+): time ([\d.]+) us", line)
            if m and m.group(1) not in measured:      # the first: the check size
                measured[m.group(1)] = float(m.group(2))
    times = []
    tmp = tempfile.mkdtemp()
    listing = None
    if a.sass:
        listing = os.path.join(tmp, "listing.sass")      # the front end knows a listing by its .sass name
        shutil.copyfile(a.sass, listing)
    gpu = counters(a.counters)
    equal = total = 0
    off = []

    def runs():
        """(name, kernel, its metrics or None and why, what was run)"""
        if a.run_json:
            for l in json.load(open(a.run_json))["launches"]:
                yield l["kernel"], l["kernel"], l["metrics"], "grid %s block %s" % (l["grid"], l["block"])
            return
        for name, argv in launches(os.path.join(HERE, "hopper.list")):
            kernel = argv[argv.index("--kernel") + 1]
            ptx = os.path.join(HERE, "hopper.ptx")
            cmd = [a.coalsim, "--json"] + (["--hier"] if a.times else []) + ([listing, "--ptx", ptx] if listing else [ptx]) + argv
            r = subprocess.run(cmd, capture_output=True, text=True)
            what = " ".join(shlex.quote(x) for x in argv)
            if r.returncode != 0:
                yield name, kernel, None, r.stderr.strip()
            else:
                d = json.loads(r.stdout)
                t = d.get("hierarchy", {}).get("time", {}).get("total_us")
                if t is not None and kernel in measured:
                    times.append((kernel, t, measured[kernel]))
                yield name, kernel, d["metrics"], what

    for name, kernel, mine, what in runs():
        if mine is None:
            print("%s: coalsim failed: %s" % (name, what))
            off.append(name)
            continue
        theirs = gpu.get(kernel, {})
        print("%s (%s)" % (name, what))
        for metric in sorted(mine):
            if metric not in theirs or metric == "gpu__time_duration.sum":
                continue
            v, g = mine[metric], theirs[metric]
            total += 1
            equal += v == g
            mark = "" if v == g else "   <- %.3fx" % (v / g if g else float("inf"))
            print("  %-62s %12d %12d%s" % (metric, v, g, mark))
            if v != g:
                off.append("%s %s" % (name, metric))
    print("\n%d of %d counters equal the H100's" % (equal, total))
    for o in off:
        print("  differs: " + o)
    if times:
        print("\n%-22s %10s %10s %7s" % ("time", "predicted", "H100 us", "ratio"))
        for k, t, g in times:
            print("%-22s %10.2f %10.2f %7.2f" % (k, t, g, t / g))
        errs = [abs(t / g - 1) for _, t, g in times]
        print("%d launches: mean absolute error %.1f%%, %d within 10%%, %d within 25%%" % (
            len(errs), 100 * sum(errs) / len(errs), sum(e <= 0.10 for e in errs), sum(e <= 0.25 for e in errs)))
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
