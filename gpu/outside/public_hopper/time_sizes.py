#!/usr/bin/env python3
"""The model's time for fast.cu's GEMMs at the sizes of a list, beside the GPU's.

A list (heldout7.list) has lines "KERNEL M,N,K".  Two steps:

  predict: run each launch under `coalsim run --hier` (one process a launch; the
      harness checks every output entry, then makes one timed launch), keeping the
      JSON log of each in DIR:
        python3 gpu/outside/public_hopper/time_sizes.py predict LIST DIR \\
            --coalsim build/coalsim --harness HARNESS [--profile h100] [--jobs 2] [--sass-listing LISTING]
      The first launch is cold (none of its data in L2, as ncu times it), the second
      starts with the L2 the first left (as a cudaEvent loop's launches do).

  compare: the predictions beside run_device.sh's SIZES stage (sizes.txt: the
      cudaEvent medians of back-to-back launches; ncu_sizes.csv: ncu's cold
      gpu__time_duration of the first launch):
        python3 gpu/outside/public_hopper/time_sizes.py compare LIST DIR \\
            --events RESULTS/sizes.txt [--ncu RESULTS/ncu_sizes.csv]
      Warm predictions are compared with the events, cold ones with ncu.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys


def read_list(path):
    out = []
    for n, line in enumerate(open(path), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        f = line.split()
        if len(f) != 2 or not re.fullmatch(r"\d+,\d+,\d+", f[1]):
            sys.exit("%s:%d: want 'KERNEL M,N,K', got '%s'" % (path, n, line))
        out.append((f[0], f[1]))
    return out


def log_path(d, k, mnk):
    return os.path.join(d, "k%s_%s.json" % (k, mnk.replace(",", "x")))


def predict_one(args, k, mnk):
    log = log_path(args.dir, k, mnk)
    cmd = [args.coalsim, "run", "--hier", "--profile", args.profile, "--json", "--log-file", log]
    if args.sass_listing:
        cmd += ["--sass-listing", args.sass_listing]
    cmd += [args.harness, "--mnk", mnk, "--only", k, "--time", "--trials", "1", "--launches", "1"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log[:-5] + ".txt", "w") as f:
        f.write(" ".join(cmd) + "\n" + p.stdout)
    return k, mnk, p.returncode


def predict(args):
    os.makedirs(args.dir, exist_ok=True)
    todo = read_list(args.list)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for k, mnk, rc in ex.map(lambda t: predict_one(args, *t), todo):
            print("k%s %s: rc %d" % (k, mnk, rc), flush=True)
    return 0


def events(path):
    """(kernel id, 'M,N,K') -> cudaEvent median (us), from harness 'kN NAME: time T us ... M N K m n k' lines"""
    d = {}
    for line in open(path):
        m = re.match(r"k(\w+) \w+: time ([\d.]+) us .* M N K (\d+) (\d+) (\d+)", line)
        if m:
            d[(m.group(1), "%s,%s,%s" % m.group(3, 4, 5))] = float(m.group(2))
    return d


def ncu_times(path):
    """(kernel id, 'M,N,K') -> ncu's gpu__time_duration (us)"""
    d = {}
    if not path:
        return d
    rows = list(csv.reader(open(path)))
    head, units = rows[0], dict(zip(rows[0], rows[1]))
    scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(units.get("gpu__time_duration.sum"), 1e-3)
    for r in rows[2:]:
        x = dict(zip(head, r))
        if x.get("gpu__time_duration.sum"):
            d[(x["harness_kernel"], x["mnk"])] = float(x["gpu__time_duration.sum"].replace(",", "")) * scale
    return d


def summary(errs):
    if not errs:
        return "none"
    return "mean absolute error %.1f%%, %d within 10%%, %d within 25%% (of %d)" % (
        100 * sum(errs) / len(errs), sum(e <= 0.10 for e in errs), sum(e <= 0.25 for e in errs), len(errs))


def compare(args):
    ev, nc = events(args.events), ncu_times(args.ncu)
    print("%-4s %-16s %9s %9s %9s %6s %9s %6s" % ("k", "M,N,K", "cold", "warm", "events", "ratio", "ncu", "ratio"))
    we, ce, missing = [], [], []
    for k, mnk in read_list(args.list):
        try:
            launches = json.load(open(log_path(args.dir, k, mnk)))["launches"]
            cold = launches[0]["hierarchy"]["time"]["total_us"]
            warm = launches[1]["hierarchy"]["time"]["total_us"]
        except (OSError, ValueError, KeyError, IndexError):
            missing.append("k%s %s" % (k, mnk))
            continue
        e, n = ev.get((k, mnk)), nc.get((k, mnk))
        cells = ["%9.2f" % cold, "%9.2f" % warm]
        cells += ["%9.2f %6.2f" % (e, warm / e) if e else "%9s %6s" % ("-", "-")]
        cells += ["%9.2f %6.2f" % (n, cold / n) if n else "%9s %6s" % ("-", "-")]
        if e:
            we.append(abs(warm / e - 1))
        if n:
            ce.append(abs(cold / n - 1))
        print("%-4s %-16s %s" % (k, mnk, " ".join(cells)))
    print("\nwarm model vs cudaEvents: %s" % summary(we))
    print("cold model vs ncu:        %s" % summary(ce))
    if missing:
        print("no prediction: %s" % ", ".join(missing))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("predict")
    p.add_argument("list")
    p.add_argument("dir")
    p.add_argument("--coalsim", default="build/coalsim")
    p.add_argument("--harness", required=True)
    p.add_argument("--profile", default="h100")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--sass-listing", help="the harness's SASS listing (make_listing.sh): its kernels run from it")
    c = sub.add_parser("compare")
    c.add_argument("list")
    c.add_argument("dir")
    c.add_argument("--events", required=True)
    c.add_argument("--ncu")
    args = ap.parse_args()
    return predict(args) if args.cmd == "predict" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
