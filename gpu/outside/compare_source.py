#!/usr/bin/env python3
"""coalsim's SASS front end against Nsight Compute's Source page, per SASS
instruction.

run_sass_detail.sh saved ncu's Source page (SourceCounters section, SASS
view) of some count launches as gpu/results/h100/outside/source/LAUNCH.csv.
This runs the same launches on coalsim (the H100's listing with its PTX,
--json --source), joins the instructions by their offset in the kernel, and
prints each one where a count differs: instructions executed, thread
instructions, shared wavefronts, global sectors (ncu's L2 Theoretical
Sectors Global: the sectors the instruction asks for).

usage: python3 gpu/outside/compare_source.py [--coalsim PATH] [--only LAUNCH...] [--all]
"""
import argparse
import csv
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from compare import unit_of  # noqa: E402

H100 = os.path.join(ROOT, "gpu", "results", "h100", "outside")


def ncu_rows(path):
    rows = list(csv.reader(open(path)))
    head = rows[1]
    out = []
    for r in rows[2:]:
        if len(r) < len(head) or not r[0].startswith("0x"):
            continue
        d = dict(zip(head, r))
        out.append(d)
    base = int(out[0]["Address"], 16)
    for d in out:
        d["offset"] = int(d["Address"], 16) - base
    return out


def num(s):
    try:
        return int(s.replace(",", ""))
    except ValueError:
        return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--all", action="store_true", help="print every instruction, not only those that differ")
    a = ap.parse_args()
    lines = {}
    for line in open(os.path.join(HERE, "launches.list")):
        w = shlex.split(line, comments=True)
        if w:
            lines[w[0]] = w
    srcdir = os.path.join(H100, "source")
    totals = {}
    for f in sorted(os.listdir(srcdir)):
        name = f[:-4]
        if not f.endswith(".csv") or name not in lines or (a.only and name not in a.only):
            continue
        _, _, src, *rest = lines[name]
        listing = os.path.join(H100, "sass", unit_of(src, rest) + ".nvdisasm")
        r = subprocess.run([a.coalsim, "--json", "--source", "--threads", "1", listing, "--ptx", src] + rest,
                           capture_output=True, text=True, cwd=ROOT)
        if r.returncode:
            print(f"{name}: coalsim FAILED: {r.stderr.strip()[:300]}")
            continue
        ours = {i["addr"]: i for i in json.loads(r.stdout)["source"]}
        hw = ncu_rows(os.path.join(srcdir, f))
        diff = 0
        t = totals.setdefault(name, [0, 0, 0, 0, 0, 0])
        for d in hw:
            o = ours.get(d["offset"])
            if o is None:
                print(f"{name} {d['offset']:04x}: not in coalsim's listing: {d['Source'].strip()}")
                diff += 1
                continue
            pairs = [("inst", num(d["Instructions Executed"]), o["executed"]),
                     ("threads", num(d["Thread Instructions Executed"]), o["threads"])]
            if "wavefronts" in o or num(d.get("L1 Wavefronts Shared", "0")):
                pairs.append(("wavefronts", num(d.get("L1 Wavefronts Shared", "0")), o.get("wavefronts", 0)))
            if "sectors" in o or num(d.get("L2 Theoretical Sectors Global", "0")):
                pairs.append(("sectors", num(d.get("L2 Theoretical Sectors Global", "0")), o.get("sectors", 0)))
            bad = [(k, h, c) for k, h, c in pairs if h != c]
            t[0] += pairs[0][1]
            t[1] += pairs[0][2]
            if bad or a.all:
                diff += bool(bad)
                s = ", ".join(f"{k} H100 {h} coalsim {c}" for k, h, c in (bad or pairs))
                print(f"{name} {d['offset']:04x} {d['Source'].strip():<48} {s}")
        print(f"# {name}: {len(hw)} instructions, {diff} differ; warp instructions H100 {t[0]} coalsim {t[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
