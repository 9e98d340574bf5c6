#!/usr/bin/env python3
"""coalsim --l2 cold and --l2 warm against the GPU, on the held-out launches
of gpu/outside/l2warm.list (issue 29, class 1: inputs still in L2 from the
previous launch).

Runs every `time` launch through `coalsim --json --hier --profile PROFILE
--l2 warm`: one run gives both predictions (hierarchy.time.total_us is the
warm launch, the second of two back to back; cold_us the first, cold one).
Sets them beside the GPU's two times:
  event: the median cudaEvent time per launch of launches back to back
         (results/times.txt): warm L2, what a timing loop measures;
  ncu:   Nsight Compute's gpu__time_duration (results/counters.txt): ncu
         flushes the caches before each replay, so cold.
Prints one line a launch, then the mean absolute errors: cold model and warm
model against the event times (all, data in L2, data larger than L2), and
the cold model against ncu; the same lines go to --out.

usage: python3 gpu/outside/l2warm_compare.py --profile gpu/profiles/h100.txt
           --results gpu/results/h100/l2warm [--out FILE] [--cache DIR] [--jobs N]
Without --results (or before the GPU run) it only runs coalsim on every line.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import statistics
import subprocess

from time_compare import measured, ncu_times   # the events' and ncu's times of join.py's files

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
L2_BYTES = 50 << 20


def launches(path):
    for line in open(path):
        w = shlex.split(line, comments=True)
        if w and w[1] == "time":
            yield w[0], w[2], w[3:]


def size_of(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)] if m else 0


def footprint(rest):
    """Bytes of the sized buffers of --args."""
    args = rest[rest.index("--args") + 1] if "--args" in rest else ""
    total = 0
    for a in args.split(","):
        m = re.match(r"[A-Za-z_]\w*:([0-9]+[KMG]?)", a)
        if m:
            total += size_of(m.group(1))
    return total


def run(a, name, f, rest):
    cached = os.path.join(a.cache, name + ".json") if a.cache else None
    if cached and os.path.exists(cached):
        age = os.path.getmtime(cached)
        if age > os.path.getmtime(a.profile) and age > os.path.getmtime(a.coalsim):
            return name, json.load(open(cached)), None
    r = subprocess.run([a.coalsim, "--json", "--threads", str(a.threads), "--hier", "--profile", a.profile,
                        "--l2", "warm", f] + rest, capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        return name, None, r.stderr.strip()
    if cached:
        os.makedirs(a.cache, exist_ok=True)
        with open(cached, "w") as fp:
            fp.write(r.stdout)
    return name, json.loads(r.stdout), None


def table(rows, key_pred, key_meas):
    errs = [abs(r[key_pred] / r[key_meas] - 1) for r in rows if r.get(key_meas)]
    if not errs:
        return "-"
    return "%.1f%% (median %.1f%%), %d of %d beyond 25%%, largest %.0f%%" % (
        100 * statistics.mean(errs), 100 * statistics.median(errs), sum(e > 0.25 for e in errs), len(errs),
        100 * max(errs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", required=True)
    ap.add_argument("--results")
    ap.add_argument("--list", default=os.environ.get("COALSIM_LAUNCHES") or
                    os.path.join(ROOT, "gpu", "outside", "l2warm.list"))
    ap.add_argument("--out")
    ap.add_argument("--cache")
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    a = ap.parse_args()
    ev, ncu = {}, {}
    if a.results:
        ev = measured(os.path.join(a.results, "times.txt"))
        cpath = os.path.join(a.results, "counters.txt")
        if os.path.exists(cpath):
            ncu = ncu_times(cpath)
    todo = list(launches(a.list))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        res = {n: (j, e) for n, j, e in ex.map(lambda t: run(a, *t), todo)}
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    lines = ["# coalsim --hier --profile %s --l2 warm (commit %s) on %s; event: median cudaEvent time per launch, "
             "back to back (warm); ncu: gpu__time_duration (caches flushed: cold)" % (
                 os.path.relpath(a.profile, ROOT), head or "?", os.path.relpath(a.list, ROOT)),
             "# %-27s %7s %4s %9s %9s %9s %9s %7s %7s %7s  %s" % (
                 "launch", "MB", "fits", "event_us", "warm_us", "cold_us", "ncu_us", "warm/ev", "cold/ev",
                 "cold/ncu", "bound (warm)")]
    rows = []
    for name, f, rest in todo:
        j, err = res[name]
        fp = footprint(rest)
        if j is None:
            lines.append("%-29s coalsim failed: %s" % (name, err.splitlines()[-1] if err else "?"))
            continue
        t = j["hierarchy"]["time"]
        # a sampled launch's successor starts cold (its L2 is not known): warm is then the cold time
        cold = t["cold_us"] if "cold_us" in t else t["total_us"]
        r = {"name": name, "mb": fp / 1e6, "fits": fp <= L2_BYTES, "warm": t["total_us"], "cold": cold,
             "event": ev.get(name), "ncu": ncu.get(name), "bound": t["bound"]}
        rows.append(r)

        def ratio(p, m):
            return "%7.3f" % (p / m) if m else "      -"
        lines.append("%-29s %7.1f %4s %9s %9.2f %9.2f %9s %s %s %s  %s" % (
            name, r["mb"], "yes" if r["fits"] else "no", "%.2f" % r["event"] if r["event"] else "-", r["warm"],
            r["cold"], "%.2f" % r["ncu"] if r["ncu"] else "-", ratio(r["warm"], r["event"]),
            ratio(r["cold"], r["event"]), ratio(r["cold"], r["ncu"]), r["bound"]))
    for what, sel in (("all", rows), ("data in L2", [r for r in rows if r["fits"]]),
                      ("data larger than L2", [r for r in rows if not r["fits"]])):
        lines.append("# %s (%d): event vs cold model: %s" % (what, len(sel), table(sel, "cold", "event")))
        lines.append("# %s (%d): event vs warm model: %s" % (what, len(sel), table(sel, "warm", "event")))
        lines.append("# %s (%d): ncu vs cold model:   %s" % (what, len(sel), table(sel, "cold", "ncu")))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.out:
        with open(a.out, "w") as fp:
            fp.write(text)


if __name__ == "__main__":
    main()
