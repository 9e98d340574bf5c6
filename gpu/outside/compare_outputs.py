#!/usr/bin/env python3
"""The kernels' results on coalsim's interpreter against the GPU's.

run_outside.sh dumps, for every count launch, each buffer the launch wrote
(outside.tgz: dumps/LAUNCH/BUF.bin).  This runs the same launches on coalsim
(--dump) and compares the buffers: bit for bit, and where they differ, as
32-bit floats (the largest relative difference) and as 32-bit integers (the
words that differ).

With --sass, the launches run on the SASS interpreter from the H100's
listings (gpu/results/h100/outside/sass/UNIT.nvdisasm) instead of the PTX.

usage: python3 gpu/outside/compare_outputs.py DUMPS-DIR [--coalsim PATH] [--sass [DIR]] [--only NAME...]
"""
import argparse
import os
import shlex
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import unit_of  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dumps")
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--sass", nargs="?", const=os.path.join(ROOT, "gpu", "results", "h100", "outside", "sass"))
    a = ap.parse_args()
    lines = {}
    for line in open(os.environ.get("COALSIM_LAUNCHES") or os.path.join(ROOT, "gpu", "outside", "launches.list")):
        w = shlex.split(line, comments=True)
        if w and w[1] == "count":
            lines[w[0]] = w
    exact = close = differ = 0
    print(f"# launch buffer: the {'SASS' if a.sass else 'PTX'} interpreter's result against the H100's "
          "(run_outside.sh --dump-changed)")
    for name in sorted(os.listdir(a.dumps)):
        if name not in lines or (a.only and name not in a.only):
            continue
        _, _, f, *rest = lines[name]
        with tempfile.TemporaryDirectory() as tmp:
            args = [os.path.join(a.sass, unit_of(f, rest) + ".nvdisasm"), "--ptx", f] if a.sass else [f]
            r = subprocess.run([a.coalsim, "--json", "--threads", "1", "--dump", tmp] + args + rest, cwd=ROOT,
                               capture_output=True, text=True)
            if r.returncode:
                print(f"{name}: FAILED {r.stderr.strip()[:200]}")
                differ += 1
                continue
            for buf in sorted(os.listdir(os.path.join(a.dumps, name))):
                gpu = open(os.path.join(a.dumps, name, buf), "rb").read()
                path = os.path.join(tmp, buf)
                ours = open(path, "rb").read() if os.path.exists(path) else b""
                ours = ours[:len(gpu)]
                if ours == gpu:
                    exact += 1
                    print(f"{name} {buf}: equal ({len(gpu)} bytes)")
                    continue
                n = len(gpu) // 4
                g = struct.unpack(f"<{n}f", gpu[:4 * n])
                o = struct.unpack(f"<{n}f", ours[:4 * n]) if len(ours) >= 4 * n else None
                if o is None:
                    print(f"{name} {buf}: DIFFERENT size {len(ours)} vs {len(gpu)}")
                    differ += 1
                    continue
                words = sum(1 for i in range(n) if gpu[4 * i:4 * i + 4] != ours[4 * i:4 * i + 4])
                worst = 0.0
                for x, y in zip(g, o):
                    if x != x and y != y:
                        continue
                    d = abs(x - y) / max(abs(x), abs(y), 1e-30)
                    worst = max(worst, d)
                if worst < 1e-3:
                    close += 1
                    print(f"{name} {buf}: {words} of {n} words differ, as floats by at most {worst:.2e} (relative)")
                else:
                    differ += 1
                    print(f"{name} {buf}: DIFFERENT: {words} of {n} words differ, as floats by up to {worst:.2e}")
    print(f"# buffers equal bit for bit: {exact}; equal as floats within 1e-3: {close}; different: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
