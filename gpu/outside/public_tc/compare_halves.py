#!/usr/bin/env python3
"""compare_outputs.py for half-precision buffers: each count launch of
COALSIM_LAUNCHES (default gpu/outside/public_tc.list) run on coalsim (--dump)
and its buffers set against the H100's (run_outside.sh's dumps/LAUNCH/BUF.bin)
as 16-bit floats: how many elements differ, by how many units in the last
place (the distance between their fp16 bit patterns, same sign) and the
largest relative difference.

usage: python3 gpu/outside/public_tc/compare_halves.py DUMPS-DIR [--sass DIR] [--coalsim PATH]
"""
import argparse
import os
import shlex
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "gpu", "outside"))
from compare import unit_of  # noqa: E402


def ordered(h):
    """an fp16 bit pattern as an integer in the order of the values"""
    return -(h & 0x7fff) if h & 0x8000 else h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dumps")
    ap.add_argument("--coalsim", default=os.path.join(ROOT, "build", "coalsim"))
    ap.add_argument("--sass")
    a = ap.parse_args()
    lines = {}
    for line in open(os.environ.get("COALSIM_LAUNCHES") or os.path.join(ROOT, "gpu", "outside", "public_tc.list")):
        w = shlex.split(line, comments=True)
        if w and w[1] == "count":
            lines[w[0]] = w
    print(f"# launch buffer: the {'SASS' if a.sass else 'PTX'} interpreter's result against the H100's, as fp16 elements")
    exact = ulp1 = other = 0
    for name in sorted(os.listdir(a.dumps)):
        if name not in lines:
            continue
        _, _, f, *rest = lines[name]
        with tempfile.TemporaryDirectory() as tmp:
            args = [os.path.join(a.sass, unit_of(f, rest) + ".nvdisasm"), "--ptx", f] if a.sass else [f]
            r = subprocess.run([a.coalsim, "--json", "--threads", "1", "--dump", tmp] + args + rest, cwd=ROOT,
                               capture_output=True, text=True)
            if r.returncode:
                print(f"{name}: FAILED {r.stderr.strip()[:200]}")
                other += 1
                continue
            for buf in sorted(os.listdir(os.path.join(a.dumps, name))):
                gpu = open(os.path.join(a.dumps, name, buf), "rb").read()
                path = os.path.join(tmp, buf)
                ours = (open(path, "rb").read() if os.path.exists(path) else b"")[:len(gpu)]
                n = len(gpu) // 2
                if len(ours) < 2 * n:
                    print(f"{name} {buf}: DIFFERENT size {len(ours)} vs {len(gpu)}")
                    other += 1
                    continue
                g = struct.unpack(f"<{n}H", gpu[:2 * n])
                o = struct.unpack(f"<{n}H", ours[:2 * n])
                gf = struct.unpack(f"<{n}e", gpu[:2 * n])
                of = struct.unpack(f"<{n}e", ours[:2 * n])
                diff = [i for i in range(n) if g[i] != o[i]]
                if not diff:
                    exact += 1
                    print(f"{name} {buf}: equal ({n} halves)")
                    continue
                ulps = max(abs(ordered(g[i]) - ordered(o[i])) for i in diff)
                rel = max(abs(gf[i] - of[i]) / max(abs(gf[i]), abs(of[i]), 1e-30) for i in diff)
                print(f"{name} {buf}: {len(diff)} of {n} halves differ ({100.0 * len(diff) / n:.3f}%), "
                      f"by at most {ulps} ulp ({rel:.2e} relative)")
                if ulps <= 1:
                    ulp1 += 1
                else:
                    other += 1
    print(f"# buffers equal bit for bit: {exact}; within 1 fp16 ulp: {ulp1}; further apart or failed: {other}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
