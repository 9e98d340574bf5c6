#!/usr/bin/env python3
"""coalsim's predicted kernel time against the GPU's, on the outside suite.

Runs every `time` launch of gpu/outside/launches.list through
`coalsim --hier --profile PROFILE --json` and sets the prediction
(hierarchy.time.total_us, and the bound that decides it) beside the median
cudaEvent time per launch of back-to-back launches the GPU took
(gpu/results/DEV/outside/times.txt, made by run_outside.sh and join.py).
Prints one line a launch, then the mean absolute error, the largest error and
how many are within 10% and 25%; the same lines go to --out when given.

usage: python3 gpu/outside/time_compare.py --profile gpu/profiles/h100.txt
           --times gpu/results/h100/outside/times.txt [--l2 cold|warm]
           [--ncu gpu/results/h100/outside/counters.txt] [--out FILE]
           [--cache DIR] [--jobs N] [--coalsim PATH] [--only NAME...] [--sass [DIR]]

--sass runs each launch's SASS listing (DIR/UNIT.nvdisasm, default the
H100's gpu/results/h100/outside/sass) with its module as --ptx, as
compare.py --sass does: the SASS front end counts the instructions and
their pipes and follows the real registers where the PTX one estimates.

--l2 warm predicts each launch as the second of two back to back (coalsim
--l2 warm, two runs), as the events time it; the default cold one starts
after a flush, as ncu times it: --ncu COUNTERS compares it with ncu's
gpu__time_duration of each launch (join.py's counters.txt) instead.

--cache DIR keeps each launch's JSON report (DIR/NAME.json) and reuses it
when the profile and coalsim are older than it: the interpreter runs about
3 G warp-instructions for the whole set (tens of minutes on two cores).
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import statistics
import subprocess
import sys

from compare import unit_of   # the compile unit run_outside.sh named a build

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def launches(only):
    for line in open(os.environ.get("COALSIM_LAUNCHES") or os.path.join(ROOT, "gpu", "outside", "launches.list")):
        w = shlex.split(line, comments=True)
        if w and w[1] == "time" and (not only or w[0] in only):
            yield w[0], w[2], w[3:]


def measured(path):
    t = {}
    for line in open(path):
        w = line.split()
        if len(w) > 2 and not w[0].startswith("#") and w[2] not in ("-", "FAILED"):
            t[w[0]] = float(w[2])
    return t


def ncu_times(path):
    """Nsight Compute's gpu__time_duration.sum (ns) of each launch, in us."""
    t = {}
    for line in open(path):
        w = line.split()
        if len(w) == 3 and w[1] == "gpu__time_duration.sum":
            t[w[0]] = float(w[2]) / 1e3
    return t


def run(a, name, f, rest):
    if a.sass:
        # the module: the PTX run_outside.sh kept beside the listing, else the .cu
        unit = unit_of(f, rest)
        ptx = os.path.join(os.path.dirname(os.path.normpath(a.sass)), "ptx", unit + ".ptx")
        module = ptx if os.path.exists(ptx) else f
        f, rest = os.path.join(a.sass, unit + ".nvdisasm"), ["--ptx", module] + rest
        name_cache = name + ".sass"
    else:
        name_cache = name
    if a.l2 != "cold":
        rest, name_cache = ["--l2", a.l2] + rest, name_cache + "." + a.l2
    cached = os.path.join(a.cache, name_cache + ".json") if a.cache else None
    if cached and os.path.exists(cached):
        age = os.path.getmtime(cached)
        if age > os.path.getmtime(a.profile) and age > os.path.getmtime(a.coalsim):
            return name, json.load(open(cached)), None
    r = subprocess.run([a.coalsim, "--json", "--threads", str(a.threads), "--hier", "--profile", a.profile, f] + rest,
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        return name, None, r.stderr.strip()
    if cached:
        os.makedirs(a.cache, exist_ok=True)
        with open(cached, "w") as fp:
            fp.write(r.stdout)
    return name, json.loads(r.stdout), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", required=True)
    ap.add_argument("--times", required=True)
    ap.add_argument("--ncu", metavar="COUNTERS",
                    help="compare with ncu's gpu__time_duration in this counters.txt (cold) instead of --times")
    ap.add_argument("--out")
    ap.add_argument("--cache")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument("--threads", type=int, default=2, help="coalsim --threads for each launch")
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--l2", choices=("cold", "warm"), default="cold",
                    help="coalsim --l2: warm is the second of two launches back to back, as the events time it")
    ap.add_argument("--sass", nargs="?", const=os.path.join(ROOT, "gpu", "results", "h100", "outside", "sass"),
                    help="run the SASS listings of this folder (default: the H100's) with their module as --ptx")
    a = ap.parse_args()
    src = a.ncu or a.times
    src = os.path.join(ROOT, src) if not os.path.isabs(src) else src
    hw = ncu_times(src) if a.ncu else measured(src)
    todo = list(launches(a.only))
    res = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for name, j, err in ex.map(lambda t: run(a, *t), todo):
            res[name] = (j, err)
    against = ("%s (ncu's gpu__time_duration: caches flushed before each replay)" % a.ncu if a.ncu else
               "%s (median cudaEvent time per launch, back to back)" % os.path.relpath(a.times, ROOT))
    lines = ["# coalsim --hier --profile %s%s%s against %s" %
             (os.path.relpath(a.profile, ROOT), " --l2 warm" if a.l2 == "warm" else "",
              " on the SASS listings of " + os.path.relpath(a.sass, ROOT) if a.sass else "", against),
             "# launch                          measured_us  predicted_us  ratio  bound     terms (us)"]
    errs, failed = [], 0
    for name, _, _ in todo:
        j, err = res[name]
        if j is None:
            failed += 1
            lines.append("%-34s FAILED: %s" % (name, (err or "")[:200]))
            continue
        if name not in hw:
            lines.append("%-34s no measured time" % name)
            continue
        t = j["hierarchy"]["time"]
        ratio = t["total_us"] / hw[name]
        errs.append((abs(ratio - 1), name))
        terms = " ".join("%s=%.1f" % (k[:-3], t[k]) for k in ("dram_us", "l2_us", "smem_us", "issue_us", "pipe_us",
                                                               "path_us", "dispatch_us", "atomic_us") if t.get(k))
        lines.append("%-34s %11.1f %13.1f %6.3f  %-9s %s" % (name, hw[name], t["total_us"], ratio, t["bound"], terms))
    if errs:
        e = [x for x, _ in errs]
        worst = max(errs)
        lines.append("# %d launches: mean absolute error %.1f%%, median %.1f%%, within 10%%: %d, within 25%%: %d, "
                     "largest %.1f%% (%s)%s" % (len(e), 100 * statistics.mean(e), 100 * statistics.median(e),
                                               sum(x <= 0.10 for x in e), sum(x <= 0.25 for x in e), 100 * worst[0],
                                               worst[1], ", %d failed" % failed if failed else ""))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as fp:
            fp.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
