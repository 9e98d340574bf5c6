#!/usr/bin/env python3
"""Write the small sparse matrix the SpMV count launches read (launches.list).

usage: python3 gpu/outside/gen_data.py [OUTDIR]   (default: gpu/outside/data)

A 2048 x 2048 CSR matrix with irregular rows, so that the scalar kernel's
warps diverge and the vector kernel's warps are part idle, as in real
matrices: row r holds floor(2 ** (7 * u_r)) nonzeros (1 to 127, log-uniform),
u_r uniform in [0, 1); its distinct columns are drawn the same way and
sorted.  Both u and the columns come from fill.h's hash (SplitMix64), so the
files depend on nothing but this script.  Little-endian int32:

  csr2k_ptr.bin   2049 row offsets (Ap), csr2k_ptr[0] = 0
  csr2k_idx.bin   nnz column indices (Aj)

The values (Ax) and x are fill.h fills in the launch lines.  Prints nnz.
"""
import os
import struct
import sys

MASK = (1 << 64) - 1
ROWS = COLS = 2048


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def h(seed, i):
    return mix(mix(seed) ^ i)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data")
    os.makedirs(out, exist_ok=True)
    ptr, idx = [0], []
    for r in range(ROWS):
        u = (h(1, r) >> 40) / float(1 << 24)
        k = int(2 ** (7 * u))
        cols, draw = set(), 0
        while len(cols) < k:
            cols.add(h(1000 + r, draw) % COLS)
            draw += 1
        idx.extend(sorted(cols))
        ptr.append(len(idx))
    with open(os.path.join(out, "csr2k_ptr.bin"), "wb") as f:
        f.write(struct.pack("<%di" % len(ptr), *ptr))
    with open(os.path.join(out, "csr2k_idx.bin"), "wb") as f:
        f.write(struct.pack("<%di" % len(idx), *idx))
    print("rows %d cols %d nnz %d" % (ROWS, COLS, len(idx)))


if __name__ == "__main__":
    main()
