#!/usr/bin/env python3
"""The model's times for a Hopper test program's launches beside the H100's.

Give the `coalsim run --hier --profile gpu/profiles/h100.txt --json
--log-file LOG PROGRAM --once` log and the program's check.txt from the H100
(its `NAME: time T us` lines, or gpu/outside/public_hopper's `kN NAME: time T us`: cudaEvent medians of back-to-back launches at
the check size), in pairs:

    python3 gpu/hopper/time_compare.py LOG1 CHECK1 [LOG2 CHECK2 ...]

Prints each launch's predicted and measured time, their ratio, and the mean
absolute error.
"""
import json
import re
import sys


def measured(path):
    d = {}
    for line in open(path):
        m = re.match(r"(?:k\w+ )?(\w+): time ([\d.]+) us", line)   # hopper.cu's, and public_hopper's "k2 NAME:"
        if m and m.group(1) not in d:      # the first: the check size
            d[m.group(1)] = float(m.group(2))
    return d


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    errs = []
    print("%-22s %10s %10s %7s" % ("launch", "predicted", "H100 us", "ratio"))
    for log, check in zip(argv[0::2], argv[1::2]):
        m = measured(check)
        for l in json.load(open(log))["launches"]:
            k = l["kernel"].split("<")[0].split("(")[0].split("::")[-1]   # a plain name
            t = l.get("hierarchy", {}).get("time", {}).get("total_us")
            if t is None or k not in m:
                continue
            errs.append(abs(t / m[k] - 1))
            print("%-22s %10.2f %10.2f %7.2f" % (k, t, m[k], t / m[k]))
    if errs:
        print("\n%d launches: mean absolute error %.1f%%, %d within 10%%, %d within 25%%" % (
            len(errs), 100 * sum(errs) / len(errs), sum(e <= 0.10 for e in errs), sum(e <= 0.25 for e in errs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
