#!/usr/bin/env python3
"""Write the seed kernels' address traces (format v1) into traces/.

Each kernel from the seed documents (../shared/seeds) is evaluated here from
its own index expressions, thread by thread, in the order a warp issues its
instructions: for every block, for every warp, each memory instruction with its
32 lanes.  Arrays get cudaMalloc-like bases (2 MiB apart, so 256-byte aligned).
The GPU harness (gpu/, issue 3) captures the same kernels on real hardware.

usage: python3 traces/gen_seed_traces.py [OUTDIR]
"""
import os
import sys

BASE = 0x7F3A00000000
STEP = 0x200000


def arrays(*names):
    return {n: BASE + i * STEP for i, n in enumerate(names)}


class Trace:
    def __init__(self, path, header):
        self.f = open(path, "w")
        for line in header.strip("\n").split("\n"):
            self.f.write(f"# {line}\n" if line else "#\n")

    def rec(self, op, space, size, label, block, thread, addr):
        self.f.write(f"{op} {space} {size} {label} {block} {thread} 0x{addr:x}\n")

    def close(self):
        self.f.close()


def warps(nthreads, ws=32):
    for w in range(0, nthreads, ws):
        yield range(w, min(w + ws, nthreads))


def add_family(out):
    kernels = {
        "add": ("int n = threadIdx.x + blockIdx.x * blockDim.x;\nz[n] = x[n] + y[n];",
                lambda tx, bx, bd, gd: (tx + bx * bd,) * 3),
        "add_permuted": ("int tid_permuted = threadIdx.x ^ 0x1;\nint n = tid_permuted + blockIdx.x * blockDim.x;\n"
                         "z[n] = x[n] + y[n];",
                         lambda tx, bx, bd, gd: ((tx ^ 1) + bx * bd,) * 3),
        "add_offset": ("int n = threadIdx.x + blockIdx.x * blockDim.x + 1;\nz[n] = x[n] + y[n];",
                       lambda tx, bx, bd, gd: (tx + bx * bd + 1,) * 3),
        "add_stride": ("int n = blockIdx.x + threadIdx.x * gridDim.x;\nz[n] = x[n] + y[n];",
                       lambda tx, bx, bd, gd: (bx + tx * gd,) * 3),
        "add_broadcast": ("int n = threadIdx.x + blockIdx.x * blockDim.x;\nz[n] = x[0] + y[n];",
                          lambda tx, bx, bd, gd: (0, tx + bx * bd, tx + bx * bd)),
    }
    grid, block = 128, 32
    a = arrays("x", "y", "z")
    for name, (body, idx) in kernels.items():
        t = Trace(f"{out}/{name}.trace",
                  f"seed 000/002: {name}<<<128, 32>>>(x, y, z), float arrays from cudaMalloc\n{body}")
        for bx in range(grid):
            for w in warps(block):
                for k, (lab, op) in enumerate((("x", "ld"), ("y", "ld"), ("z", "st"))):
                    for tx in w:
                        t.rec(op, "global", 4, lab, bx, tx, a[lab] + 4 * idx(tx, bx, block, grid)[k])
        t.close()


def strided_read(out):
    grid, block = 2, 64
    T = grid * block
    t = Trace(f"{out}/strided_read.trace", """seed 001: strided_read_kernel<<<2, 64>>>(in, out, N, stride) for stride 1..128,
N = 2 * T * stride floats (two loop trips per thread); labels in_sS / out_sS
for (size_t j = t * stride; j < N; j += T * stride) { float v = in[j]; ... }
if (t < N) out[t] = acc;""")
    a = arrays("in", "out")
    for stride in (1, 2, 4, 8, 16, 32, 64, 128):
        N = 2 * T * stride
        for bx in range(grid):
            for w in warps(block):
                trips = {}
                for tx in w:
                    gt = bx * block + tx
                    trips[tx] = list(range(gt * stride, N, T * stride))
                for k in range(max(len(v) for v in trips.values())):
                    for tx in w:
                        if k < len(trips[tx]):
                            t.rec("ld", "global", 4, f"in_s{stride}", bx, tx, a["in"] + 4 * trips[tx][k])
                for tx in w:
                    t.rec("st", "global", 4, f"out_s{stride}", bx, tx, a["out"] + 4 * (bx * block + tx))
    t.close()


def rowcol_sum(out):
    t = Trace(f"{out}/rowcol_sum.trace", """seed 003: row sum vs column sum of a 4x4 float matrix, drawn with 4-thread warps
and 16-byte rows: run with --warp-size 4 --sector 16
row: for (i = 0; i < 4; i++) sum += a[threadIdx.x * 4 + i];
col: for (i = 0; i < 4; i++) sum += a[i * 4 + threadIdx.x];""")
    base = 0x1000
    for lab, idx in (("row", lambda tx, i: tx * 4 + i), ("col", lambda tx, i: i * 4 + tx)):
        for i in range(4):
            for tx in range(4):
                t.rec("ld", "global", 4, lab, 0, tx, base + 4 * idx(tx, i))
    t.close()


def matrix(out):
    N, TILE = 64, 32
    bodies = {
        "matrix_copy": ("B[ny * N + nx] = A[ny * N + nx];", lambda nx, ny: (ny * N + nx, ny * N + nx)),
        "transpose1": ("B[nx * N + ny] = A[ny * N + nx];", lambda nx, ny: (ny * N + nx, nx * N + ny)),
        "transpose2": ("B[ny * N + nx] = A[nx * N + ny];", lambda nx, ny: (nx * N + ny, ny * N + nx)),
        "transpose3": ("B[ny * N + nx] = __ldg(&A[nx * N + ny]);", lambda nx, ny: (nx * N + ny, ny * N + nx)),
    }
    a = arrays("A", "B")
    for name, (body, idx) in bodies.items():
        t = Trace(f"{out}/{name}.trace", f"""seed 002: {name}<<<dim3(2, 2), dim3(32, 32)>>>(A, B, N = 64), real = float
nx = blockIdx.x * 32 + threadIdx.x; ny = blockIdx.y * 32 + threadIdx.y;
if (nx < N && ny < N) {body}""")
        for by in range(N // TILE):
            for bx in range(N // TILE):
                blk = by * (N // TILE) + bx
                for w in warps(TILE * TILE):
                    for k, (lab, op) in enumerate((("A", "ld"), ("B", "st"))):
                        for tid in w:
                            tx, ty = tid % TILE, tid // TILE
                            nx, ny = bx * TILE + tx, by * TILE + ty
                            t.rec(op, "global", 4, lab, blk, tid, a[lab] + 4 * idx(nx, ny)[k])
        t.close()


def smem_tiles(out):
    """seed 004: square 32x32 and rectangular 32x16 int tiles, one block each."""
    a = arrays("out")

    def emit(t, prefix, bdx, bdy, store_idx, load_idx):
        for w in warps(bdx * bdy):
            for tid in w:
                t.rec("st", "shared", 4, f"{prefix}.tile_st", 0, tid, 4 * store_idx(tid % bdx, tid // bdx))
        for w in warps(bdx * bdy):
            for tid in w:
                t.rec("ld", "shared", 4, f"{prefix}.tile_ld", 0, tid, 4 * load_idx(tid % bdx, tid // bdx))
            for tid in w:
                t.rec("st", "global", 4, f"{prefix}.out", 0, tid, a["out"] + 4 * tid)

    S = 32
    t = Trace(f"{out}/smem_square.trace", """seed 004: square shared tiles, __shared__ int tile[32][32], block (32, 32), grid 1
setRowReadRow:        tile[ty][tx] = idx; out[idx] = tile[ty][tx];
setColReadCol:        tile[tx][ty] = idx; out[idx] = tile[tx][ty];
setRowReadCol:        tile[ty][tx] = idx; out[idx] = tile[tx][ty];
setRowReadColDyn:     tile[row_idx] = row_idx; out[row_idx] = tile[col_idx];  (extern tile[])
setRowReadColIpad:    tile[32][33]: tile[ty][tx] = idx; out[idx] = tile[tx][ty];
setRowReadColDynIpad: row_idx = ty*(32+1)+tx; col_idx = tx*(32+1)+ty""")
    emit(t, "setRowReadRow", S, S, lambda x, y: y * S + x, lambda x, y: y * S + x)
    emit(t, "setColReadCol", S, S, lambda x, y: x * S + y, lambda x, y: x * S + y)
    emit(t, "setRowReadCol", S, S, lambda x, y: y * S + x, lambda x, y: x * S + y)
    emit(t, "setRowReadColDyn", S, S, lambda x, y: y * S + x, lambda x, y: x * S + y)
    emit(t, "setRowReadColIpad", S, S, lambda x, y: y * 33 + x, lambda x, y: x * 33 + y)
    emit(t, "setRowReadColDynIpad", S, S, lambda x, y: y * 33 + x, lambda x, y: x * 33 + y)
    t.close()

    X, Y, NPAD = 32, 16, 2
    t = Trace(f"{out}/smem_rect.trace", """seed 004: rectangular shared tiles, __shared__ int tile[16][32], block (32, 16), grid 1
idx = threadIdx.y * blockDim.x + threadIdx.x; row_idx = idx % 16; col_idx = idx / 16
setRowReadRow:       tile[ty][tx] = idx; out[idx] = tile[ty][tx];
setColReadCol:       tile[row_idx][col_idx] = idx; out[idx] = tile[row_idx][col_idx];
setRowReadCol:       tile[ty][tx] = idx; out[idx] = tile[row_idx][col_idx];
setRowReadColDyn:    tile[idx] = idx; out[idx] = tile[row_idx * 32 + col_idx];
setRowReadColPad:    tile[16][32 + NPAD], NPAD = 2: tile[ty][tx] = idx; out[idx] = tile[row_idx][col_idx];
setRowReadColDynPad: tile[ty * (32 + NPAD) + tx] = idx; out[idx] = tile[row_idx * (32 + NPAD) + col_idx];""")
    rc = lambda x, y: ((y * X + x) % Y, (y * X + x) // Y)   # (row_idx, col_idx)
    emit(t, "setRowReadRow", X, Y, lambda x, y: y * X + x, lambda x, y: y * X + x)
    emit(t, "setColReadCol", X, Y, lambda x, y: rc(x, y)[0] * X + rc(x, y)[1], lambda x, y: rc(x, y)[0] * X + rc(x, y)[1])
    emit(t, "setRowReadCol", X, Y, lambda x, y: y * X + x, lambda x, y: rc(x, y)[0] * X + rc(x, y)[1])
    emit(t, "setRowReadColDyn", X, Y, lambda x, y: y * X + x, lambda x, y: rc(x, y)[0] * X + rc(x, y)[1])
    P = X + NPAD
    emit(t, "setRowReadColPad", X, Y, lambda x, y: y * P + x, lambda x, y: rc(x, y)[0] * P + rc(x, y)[1])
    emit(t, "setRowReadColDynPad", X, Y, lambda x, y: y * P + x, lambda x, y: rc(x, y)[0] * P + rc(x, y)[1])
    t.close()


def reduce(out):
    DIM, n = 128, 1024
    a = arrays("g_idata", "g_odata")

    def tree(t, bx, space, base, ldlab):
        """The in-place steps for blockDim 128: tid < 64, then the unrolled warp."""
        for w in warps(DIM):
            for step in (64, 32, 16, 8, 4, 2, 1):
                active = [tid for tid in w if tid < (64 if step == 64 else 32)]
                if not active:
                    continue
                for lab, off, op in ((f"{ldlab}+=[tid+{step}].a", 0, "ld"), (f"{ldlab}+=[tid+{step}].b", step, "ld"),
                                     (f"{ldlab}+=[tid+{step}].sum", 0, "st")):
                    for tid in active:
                        t.rec(op, space, 4, lab, bx, tid, base + 4 * (tid + off))
            if w[0] == 0:
                t.rec("ld", space, 4, f"{ldlab}[0]", bx, 0, base)
                t.rec("st", "global", 4, "g_odata[bid]", bx, 0, a["g_odata"] + 4 * bx)

    t = Trace(f"{out}/reduce_gmem.trace", """seed 004: reduceGmem<<<8, 128>>>(g_idata, g_odata, 1024): in-place reduction in global memory
if (tid < 64) idata[tid] += idata[tid + 64]; then the last warp unrolled (volatile)""")
    for bx in range(n // DIM):
        tree(t, bx, "global", a["g_idata"] + 4 * bx * DIM, "idata")
    t.close()

    t = Trace(f"{out}/reduce_smem.trace", """seed 004: reduceSmem<<<8, 128>>>(g_idata, g_odata, 1024), __shared__ int smem[128]
smem[tid] = idata[tid]; then the same steps in shared memory""")
    for bx in range(n // DIM):
        for w in warps(DIM):
            for tid in w:
                t.rec("ld", "global", 4, "idata[tid]", bx, tid, a["g_idata"] + 4 * (bx * DIM + tid))
            for tid in w:
                t.rec("st", "shared", 4, "smem[tid]=", bx, tid, 4 * tid)
        tree(t, bx, "shared", 0, "smem")
    t.close()

    t = Trace(f"{out}/reduce_smem_unroll.trace", """seed 004: reduceSmemUnroll<<<2, 128>>>(g_idata, g_odata, 1024): each block sums 4 blocks of data
a1..a4 = g_idata[idx + k * blockDim.x]; smem[tid] = a1 + a2 + a3 + a4; then the shared steps""")
    for bx in range(n // DIM // 4):
        for w in warps(DIM):
            for k in range(4):
                for tid in w:
                    t.rec("ld", "global", 4, f"g_idata[idx+{k}*bdim]", bx, tid,
                          a["g_idata"] + 4 * (bx * DIM * 4 + tid + k * DIM))
            for tid in w:
                t.rec("st", "shared", 4, "smem[tid]=", bx, tid, 4 * tid)
        tree(t, bx, "shared", 0, "smem")
    t.close()


def transpose_smem(out):
    B, nrows, ncols = 16, 32, 32
    a = arrays("in", "out")
    for name, pad in (("transpose_smem", 0), ("transpose_smem_pad", 2)):
        t = Trace(f"{out}/{name}.trace", f"""seed 004: {'transposeSmem' if not pad else 'transposeSmem with tile[16][16 + 2] (pad 1 leaves a 2-way conflict)'}<<<dim3(2, 2), dim3(16, 16)>>>(out, in, 32, 32)
__shared__ float tile[16][16{' + 2' if pad else ''}]; tile[threadIdx.y][threadIdx.x] = in[offset];
bidx = ty * 16 + tx; irow = bidx / 16; icol = bidx % 16; out[transposed_offset] = tile[icol][irow];""")
        W = B + pad
        for by in range(2):
            for bx in range(2):
                blk = by * 2 + bx
                for w in warps(B * B):
                    for tid in w:
                        tx, ty = tid % B, tid // B
                        row, col = by * B + ty, bx * B + tx
                        t.rec("ld", "global", 4, "in", blk, tid, a["in"] + 4 * (row * ncols + col))
                    for tid in w:
                        tx, ty = tid % B, tid // B
                        t.rec("st", "shared", 4, "tile_st", blk, tid, 4 * (ty * W + tx))
                for w in warps(B * B):
                    for tid in w:
                        irow, icol = tid // B, tid % B
                        t.rec("ld", "shared", 4, "tile_ld", blk, tid, 4 * (icol * W + irow))
                    for tid in w:
                        irow, icol = tid // B, tid % B
                        col, row = by * B + icol, bx * B + irow
                        t.rec("st", "global", 4, "out", blk, tid, a["out"] + 4 * (row * nrows + col))
        t.close()


def ldmatrix(out):
    """Beyond the seeds: an HGEMM's 64x64 half tile of A, filled 16 bytes a
    thread (STS.128 or cp.async) and read by ldmatrix.x4 as mma operands, in
    three layouts: 128-byte rows, rows padded by 8 halves, and CuTe's
    Swizzle<3,3,3> (the 16-byte chunk index XORed with the row's low 3 bits).
    4 warps; warp w reads the 16x16 blocks of rows 16w..16w+15."""
    layouts = [("plain", lambda r, c: 2 * (r * 64 + c)),
               ("pad8", lambda r, c: 2 * (r * 72 + c)),
               ("swz333", lambda r, c: 2 * (r * 64 + ((c // 8) ^ (r % 8)) * 8 + c % 8))]
    t = Trace(f"{out}/ldmatrix.trace", """an HGEMM's A tile: __shared__ half A[64][64] (plain), A[64][64 + 8] (pad8), and
A[64][64] under CuTe's Swizzle<3,3,3> (swz333), block 128 threads, grid 1
fill:  thread t stores halves 8 (t % 8).. of rows t / 8, t / 8 + 16, ... (16 bytes: STS.128)
read:  warp w, for k in 0, 16, 32, 48: ldmatrix.x4 of the block at (16 w, k): lane l gives
       row 16 w + l % 8 + 8 (l / 8 % 2), halves k + 8 (l / 16)..""")
    for name, at in layouts:
        for w in warps(128):
            for rep in range(4):
                for tid in w:
                    r, c = tid // 8 + 16 * rep, 8 * (tid % 8)
                    t.rec("st", "shared", 16, f"{name}.fill", 0, tid, at(r, c))
        for w in warps(128):
            wi = w[0] // 32
            for k in range(0, 64, 16):
                for tid in w:
                    l = tid % 32
                    t.rec("ldsm", "shared", 16, f"{name}.ldmatrix", 0, tid, at(16 * wi + l % 8 + 8 * (l // 8 % 2), k + 8 * (l // 16)))
    t.close()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    ldmatrix(out)
    add_family(out)
    strided_read(out)
    rowcol_sum(out)
    matrix(out)
    smem_tiles(out)
    reduce(out)
    transpose_smem(out)


if __name__ == "__main__":
    main()
