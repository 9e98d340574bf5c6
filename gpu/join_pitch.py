#!/usr/bin/env python3
"""The time model beside `harness pitch` (gpu/run_pitch.sh): each timed kernel
of the pitch table run through coalsim --hier --profile on its sketch, at
pitches 8192 and 9216 (the model sees a pitch only through the addresses).

usage: python3 gpu/join_pitch.py PITCH_TXT [COALSIM [PROFILE]] > gpu/results/h100/pitch/model.txt"""
import json
import re
import subprocess
import sys


def sketch_for(name, pitch):
    """(sketch, --set values) for a row of the pitch table, or None."""
    m = re.match(r"copy <<<\((\d+), (\d+)\), \((\d+), (\d+)\)>>>$", name)
    if m:
        return "gpu/sketches/copy_pitch.sketch", [f"bx={m.group(3)}", f"by={m.group(4)}", f"pitch={pitch}"]
    m = re.match(r"copy_flat <<<(\d+), (\d+)>>>$", name)
    if m:
        return "gpu/sketches/copy_flat.sketch", [f"threads={m.group(2)}"]
    if name.startswith("col_sum <<<") or name == "col_sum_pitch, zeros":
        return "gpu/sketches/col_sum_pitch.sketch", [f"pitch={pitch}"]
    if name == "col_sum (seed), zeros":
        return "examples/sketches/col_sum.sketch", ["M=8192", "threads=256"]
    if name == "copy (seed), zeros":
        return "examples/sketches/copy.sketch", ["N=8192"]
    if name.startswith("transposeSmem (seed)"):
        return "examples/sketches/transposeSmem.sketch", ["nrows=8192", "ncols=8192"]
    return None


def main():
    path = sys.argv[1]
    coalsim = sys.argv[2] if len(sys.argv) > 2 else "build/coalsim"
    profile = sys.argv[3] if len(sys.argv) > 3 else "gpu/profiles/h100.txt"
    print(f"# harness pitch ({path}) beside coalsim --hier --profile {profile}; ratio = model / hw")
    print(f"{'kernel':50s} {'pitch':>6s} {'hw us':>8s} {'model':>8s} {'ratio':>6s}  {'bound':8s} tail")
    for line in open(path):
        if line.startswith("chase"):
            break
        m = re.match(r"(.+?)\s+(\d+|-)\s+([0-9.]+)\s+([0-9.]+)$", line.rstrip())
        if not m or m.group(1) == "kernel":
            continue
        name, pitch, hw = m.group(1), m.group(2), float(m.group(3))
        if pitch not in ("8192", "9216", "-"):
            continue
        sk = sketch_for(name, pitch)
        if not sk:
            continue
        args = [coalsim, "--hier", "--json", "--profile", profile] + [a for s in sk[1] for a in ("--set", s)] + [sk[0]]
        t = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["hierarchy"]["time"]
        print(f"{name:50s} {pitch:>6s} {hw:8.1f} {t['total_us']:8.1f} {t['total_us'] / hw:6.2f}  {t['bound']:8s} "
              f"{t.get('block_tail', 1):.2f}", flush=True)


if __name__ == "__main__":
    main()
