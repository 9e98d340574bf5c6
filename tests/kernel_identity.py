#!/usr/bin/env python3
"""The kernel front end against the GPU: for every seed kernel of gpu/, the
warp requests coalsim's PTX interpreter makes for the launch the harness
captured on the H100 (gpu/results/h100/traces/) are the captured ones.

Requests are compared per (block, warp) as multisets of (op, space, size,
lanes and their addresses): labels differ (the harness names accesses, the
interpreter uses source lines) and so may the order of independent loads.
Global addresses are compared relative to their buffer: the captures do not
record where cudaMalloc put each buffer, so an address is taken relative to
the 256-byte boundary (cudaMalloc's alignment) below the lowest address the
kernel touched in its 2 MiB region.  That keeps every address's place in its
sector and line, which is all the models look at.

usage: tests/kernel_identity.py COALSIM [--verbose]"""
import collections
import os
import subprocess
import sys

MB = 1 << 20
F = 4
N_ADD = (1 << 25) + 1
SEEDS = "tests/kernels/seeds.ptx"   # nvcc -ptx of tests/kernels/seeds.cu (make kernel-ptx)
TRACES = "gpu/results/h100/traces"


def add(kind):
    return (kind + "<false>", "128", "32", f"x:{N_ADD * F}=random:1,y:{N_ADD * F}=random:2,z:{N_ADD * F}", 0)


def strided(s):
    n = 2 * 128 * s
    return ("strided_read_kernel<false>", "2", "64", f"in:{(1 << 26) * F}=random:1,out:{(1 << 26) * F},{n},{s}", 0)


def smem(kind, rect, dyn):
    blk = "32,16" if rect else "32,32"
    return (kind + "<false>", "1", blk, f"out:{132 * 64 * 1024 * 4}", dyn * 4)


CASES = {
    "add": add("add"), "add_permuted": add("add_permuted"), "add_offset": add("add_offset"),
    "add_stride": add("add_stride"), "add_broadcast": add("add_broadcast"),
    "row_sum": ("row_sum<false>", "2", "32", f"a:{8192 * 8192 * F}=random:1,out:{8192 * F},64", 0),
    "col_sum": ("col_sum<false>", "2", "32", f"a:{8192 * 8192 * F}=random:1,out:{8192 * F},64", 0),
    "copy_float4": ("copy_float4<false>", "4", "256", f"in:{512 * MB}=random:1,out:{512 * MB},1024", 0),
    "reduceGmem": ("reduceGmem<false>", "8", "128", f"g:{(1 << 24) * F}=randint:1:201,o:{(1 << 17) * F},1024", 0),
    "reduceSmem": ("reduceSmem<false>", "8", "128", f"g:{(1 << 24) * F}=randint:1:201,o:{(1 << 17) * F},1024", 0),
    "reduceSmemUnroll": ("reduceSmemUnroll<false>", "2", "128",
                         f"g:{(1 << 24) * F}=randint:1:201,o:{(1 << 17) * F},1024", 0),
    "transposeSmem": ("transposeSmem<false, 0>", "2,2", "16,16",
                      f"out:{8192 * 8192 * F},in:{8192 * 8192 * F}=random:1,32,32", 0),
    "transposeSmemPad2": ("transposeSmem<false, 2>", "2,2", "16,16",
                          f"out:{8192 * 8192 * F},in:{8192 * 8192 * F}=random:1,32,32", 0),
}
for k in ("copy", "transpose1", "transpose2", "transpose3"):
    CASES[k] = (k + "<false>", "2,2", "32,32", f"A:{8192 * 8192 * F}=random:1,B:{8192 * 8192 * F},64", 0)
for s in (1, 2, 4, 8, 16, 32, 64, 128):
    CASES[f"strided_read_s{s}"] = strided(s)
for k, rect, dyn in (("setRowReadRow", 0, 0), ("setColReadCol", 0, 0), ("setRowReadCol", 0, 0),
                     ("setRowReadColDyn", 0, 32 * 32), ("setRowReadColIpad", 0, 0),
                     ("setRowReadColDynIpad", 0, 32 * 33), ("rectSetRowReadRow", 1, 0),
                     ("rectSetColReadCol", 1, 0), ("rectSetRowReadCol", 1, 0),
                     ("rectSetRowReadColDyn", 1, 32 * 16), ("rectSetRowReadColPad", 1, 0),
                     ("rectSetRowReadColDynPad", 1, 34 * 16)):
    CASES[k] = smem(k, rect, dyn)


def requests(lines, warp=32):
    """(block, warp) -> Counter of requests, grouped as the trace format says."""
    recs = []
    low = {}
    for line in lines:
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        op, space, size, label, block, thread, addr = line
        addr = int(addr, 0)
        if space == "global":
            region = addr >> 21
            low[region] = min(low.get(region, addr), addr)
        recs.append((op, space, size, label, block, thread, addr))
    out = collections.defaultdict(collections.Counter)
    cur, key, lanes = None, None, {}

    def flush():
        if key is not None:
            out[key[0]][(key[1], tuple(sorted(lanes.items())))] += 1

    for op, space, size, label, block, thread, addr in recs:
        thread = int(thread)
        if space == "global":
            addr -= low[addr >> 21] // 256 * 256
        head = (op, space, int(size), label, int(block), thread // warp)
        lane = thread % warp
        if head != cur or lane in lanes:
            flush()
            cur, lanes = head, {}
            key = ((int(block), thread // warp), (op, space, int(size)))
        lanes[lane] = addr
    flush()
    return out


def main():
    coalsim = sys.argv[1]
    verbose = "--verbose" in sys.argv
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    bad = 0
    for name, (kernel, grid, block, args, dyn) in sorted(CASES.items()):
        cmd = [coalsim, "trace", SEEDS, "--kernel", kernel, "--grid", grid, "--block", block, "--args", args]
        if dyn:
            cmd += ["--dynamic-shared", str(dyn)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL {name}: {' '.join(cmd)}\n{run.stderr}")
            bad += 1
            continue
        ours = requests(run.stdout.splitlines())
        with open(f"{TRACES}/{name}.trace") as f:
            theirs = requests(f)
        nreq = sum(sum(c.values()) for c in theirs.values())
        diff = [k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k)]
        if diff:
            bad += 1
            print(f"FAIL {name}: {len(diff)} of {len(theirs)} warps differ")
            if verbose:
                k = sorted(diff)[0]
                a, b = ours.get(k, collections.Counter()), theirs.get(k, collections.Counter())
                print("  warp", k, "interpreter only:", list((a - b).items())[:2])
                print("  warp", k, "GPU only:", list((b - a).items())[:2])
        else:
            print(f"ok   {name}: {nreq} requests of {len(theirs)} warps equal")
    print(f"kernel identity: {len(CASES) - bad} of {len(CASES)} kernels equal the H100's captured requests")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
