#!/usr/bin/env python3
"""coalsim's counters for gpu/hopper/hopper.cu's count launches beside the H100's.

Each count launch of gpu/hopper/hopper.list (the tensor-map ones are comments
there, since the GPU launcher takes no tensor maps: they are read all the
same) runs on the kernel front end (gpu/hopper/hopper.ptx, the compute_90a PTX
the device built), and every metric coalsim names that the H100's run has
(gpu/results/h100/hopper/counters.txt, ncu of `hopper --size check --once`)
is printed beside it.  The kernels' buffers hold other values on the GPU
(hopper.cu's own fills), which changes no count: no address depends on them.

With --run-json FILE, the launches are those of a `coalsim run --json
--log-file FILE PROGRAM --once` of the program itself (every launch of the
program, as the GPU ran it), matched to the counters by kernel name:

    build/coalsim run --json --log-file /tmp/cl.json ./cluster --once
    python3 gpu/hopper/compare.py --run-json /tmp/cl.json --counters gpu/results/h100/cluster/counters.txt

usage: python3 gpu/hopper/compare.py [--coalsim build/coalsim] [--counters FILE] [--run-json FILE]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

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
    a = ap.parse_args()
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
            cmd = [a.coalsim, "--json", os.path.join(HERE, "hopper.ptx")] + argv
            r = subprocess.run(cmd, capture_output=True, text=True)
            what = " ".join(shlex.quote(x) for x in argv)
            if r.returncode != 0:
                yield name, kernel, None, r.stderr.strip()
            else:
                yield name, kernel, json.loads(r.stdout)["metrics"], what

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
    return 0


if __name__ == "__main__":
    sys.exit(main())
