// Does L1 serve a load of a sector the same SM just stored, and which load forms go around L1?
// Held-out round 14's knn insertion sort (each thread shifts its own column of a global matrix:
// loads of words it just stored) reads 208 k sectors from L2 for 2.2 M sectors its loads ask L1
// for; the model drops a stored sector from L1, so it sends them all to L2 and is 5.6-22x slow.
// reduceGmem's warp steps load with `volatile`, and would then hit L1 in the model, where the
// GPU reads L2.  Each kernel below runs one pattern with one load form; run it under ncu for
//   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum            sectors the loads ask L1 for
//   l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum   of those, hits
//   lts__t_sectors_srcunit_tex_op_read.sum                    sectors L1 reads from L2
// Patterns (each thread works down its own column; a warp's request is 128 coalesced bytes, 4
// sectors; `first` loads are always plain):
//   P0 ld,ld      a plain load, then a load of the same word
//   P1 ld,st,ld   a plain load, a store of the word, a load of it
//   P2 st,ld      a store of a word no load brought in, a load of it
//   P3 st,ld^1    as P2, the load reads the neighbour lane's word (same sector, stored by the
//                 same instruction)
//   P4 half st,ld the even lanes store, then every lane loads (a sector L1 holds in part)
//   P5 st,ld next a store, then a load of the next row (a sector never stored: a cold miss each)
// Load forms Q: 0 plain (ld.global, ld.ca), 1 ld.volatile, 2 ld.cg, 3 ld.cv, 4 ld.relaxed.gpu,
//   5 ld.relaxed.sys, 6 ld.acquire.gpu, 7 ld.global.nc (after a store: not coherent, counted only),
//   8 ld.global.lu.
// Prints each kernel's time (median of 15 back-to-back launches); `once` runs each kernel once
// (for ncu).
//
// nvcc -O3 -arch=sm_90 -o l1_store l1_store.cu && ./l1_store
#include "timing.cuh"
#include <cstring>

template <int Q> __device__ __forceinline__ unsigned ldq(const unsigned *p)
{
    unsigned v;
    if (Q == 0) asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 1) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 2) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 3) asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 4) asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 5) asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 6) asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 7) asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    if (Q == 8) asm volatile("ld.global.lu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void st(unsigned *p, unsigned v)
{
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Column t of a ROWS x n matrix (n = all threads), row i at a[i * n + t].
template <int P, int Q> __global__ void probe(unsigned *a, int rows, unsigned *sink)
{
    const size_t n = (size_t)gridDim.x * blockDim.x;
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x & 31;
    unsigned acc = 0;
    for (int i = 0; i + 1 < rows; i++) {
        unsigned *p = a + i * n + t;
        if (P == 0) {
            acc += ldq<0>(p);
            acc += ldq<Q>(p);
        } else if (P == 1) {
            unsigned v = ldq<0>(p);
            st(p, v + 1);
            acc += ldq<Q>(p);
        } else if (P == 2) {
            st(p, i + acc);
            acc += ldq<Q>(p);
        } else if (P == 3) {
            st(p, i + acc);
            acc += ldq<Q>(a + i * n + (t ^ 1));
        } else if (P == 4) {
            if ((lane & 1) == 0) st(p, i + acc);
            acc += ldq<Q>(p);
        } else {
            st(p, i + acc);
            acc += ldq<Q>(p + n);
        }
    }
    if (acc == 0xdeadbeefu) *sink = acc;
}

template <int P, int Q> static void run(unsigned *a, int rows, unsigned *sink, int blocks, bool once)
{
    float ms = 0;
    if (once) {
        probe<P, Q><<<blocks, 256>>>(a, rows, sink);
        CK(cudaDeviceSynchronize());
    } else {
        ms = median_ms([&] { probe<P, Q><<<blocks, 256>>>(a, rows, sink); });
    }
    printf("P%d Q%d %9.2f us\n", P, Q, ms * 1e3);
    fflush(stdout);
}

template <int P> static void forms(unsigned *a, int rows, unsigned *sink, int blocks, bool once)
{
    run<P, 0>(a, rows, sink, blocks, once);
    run<P, 1>(a, rows, sink, blocks, once);
    run<P, 2>(a, rows, sink, blocks, once);
    run<P, 3>(a, rows, sink, blocks, once);
    run<P, 4>(a, rows, sink, blocks, once);
    run<P, 5>(a, rows, sink, blocks, once);
    run<P, 6>(a, rows, sink, blocks, once);
    run<P, 7>(a, rows, sink, blocks, once);
    run<P, 8>(a, rows, sink, blocks, once);
}

int main(int argc, char **argv)
{
    const bool once = argc > 1 && !strcmp(argv[1], "once");
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int blocks = prop.multiProcessorCount * 4, rows = 64;
    const size_t words = (size_t)blocks * 256 * rows;
    unsigned *a, *sink;
    CK(cudaMalloc(&a, words * 4));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(a, 0, words * 4));
    printf("# %s, %d blocks of 256, %d rows, %zu MB\n", prop.name, blocks, rows, words * 4 >> 20);
    forms<0>(a, rows, sink, blocks, once);
    forms<1>(a, rows, sink, blocks, once);
    forms<2>(a, rows, sink, blocks, once);
    run<3, 0>(a, rows, sink, blocks, once);
    run<3, 1>(a, rows, sink, blocks, once);
    run<4, 0>(a, rows, sink, blocks, once);
    run<4, 1>(a, rows, sink, blocks, once);
    run<5, 0>(a, rows, sink, blocks, once);
    return 0;
}
