// Thread-block cluster kernels for the interpreter's tests (tests/check_hopper.c):
// cluster special registers, distributed shared memory through mapa and
// barrier.cluster, an mbarrier arrived on from another CTA, and a TMA load
// multicast to every CTA of the cluster.  Compiled to cluster.ptx by
// `make kernel-ptx` (nvcc -arch=sm_90); gpu/hopper/cluster.cu has the same
// kinds of kernel checked on the H100.
#include <cuda.h>
#include <stdint.h>
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned sreg_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

// out[8 * linear thread + k]: rank, nctarank, cluster_ctaid.x/.y, clusterid.x/.y, nclusterid.x, cluster_nctaid.x
extern "C" __global__ void __cluster_dims__(2, 2, 1) cluster_ids(unsigned* out)
{
    unsigned v[8];
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[0]));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[1]));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[2]));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[3]));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(v[4]));
    asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(v[5]));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(v[6]));
    asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[7]));
    unsigned b = blockIdx.x + blockIdx.y * gridDim.x;
    if (threadIdx.x == 0)
        for (int k = 0; k < 8; k++) out[8 * b + k] = v[k];
}

// each CTA fills its array; out[block][i] = the next rank's array[i]; every
// CTA adds one to rank 0's counter, which rank 0 writes to count[cluster]
extern "C" __global__ void dsmem_ring(int* out, int* count)
{
    __shared__ int buf[128];
    __shared__ int counter;
    unsigned rank = sreg_rank(), n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    buf[threadIdx.x] = (int)(rank * 1000 + threadIdx.x);
    if (threadIdx.x == 0) counter = 0;
    cluster_sync();
    uint32_t peer, zero;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(peer) : "r"(smem_u32(&buf[threadIdx.x])), "r"((rank + 1) % n));
    int v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(peer));
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
    if (threadIdx.x == 0) {
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(zero) : "r"(smem_u32(&counter)));
        asm volatile("red.shared::cluster.add.u32 [%0], 1;" ::"r"(zero) : "memory");
    }
    cluster_sync();
    if (rank == 0 && threadIdx.x == 0) count[blockIdx.x / n] = counter;
    cluster_sync();   // no CTA leaves while another may still read its memory
}

// rank 1 writes rank 0's shared word and arrives on rank 0's mbarrier; rank 0 waits and copies it out
extern "C" __global__ void __cluster_dims__(2, 1, 1) remote_mbarrier(int* out)
{
    __shared__ __align__(8) uint64_t bar;
    __shared__ int word;
    unsigned rank = sreg_rank();
    if (threadIdx.x == 0 && rank == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar)));
        word = -1;
    }
    cluster_sync();
    if (threadIdx.x == 0 && rank == 1) {
        uint32_t rb, rw;
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rb) : "r"(smem_u32(&bar)));
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(rw) : "r"(smem_u32(&word)));
        asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(rw), "r"(4242 + (int)blockIdx.x) : "memory");
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rb) : "memory");
    }
    if (rank == 0) {
        asm volatile("{\n\t.reg .pred P;\nW:\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P, [%0], 0;\n"
                     "\t@!P bra W;\n}" ::"r"(smem_u32(&bar))
                     : "memory");
        if (threadIdx.x == 0) out[blockIdx.x / 2] = word;
    }
    cluster_sync();
}

// a 2-CTA cluster loads a 64 x 32 float box: rank r fetches rows 32r..32r+31
// (half the box) and multicasts them to both CTAs; each CTA then has the
// whole box, which it writes to out[block]
extern "C" __global__ void __cluster_dims__(2, 1, 1) tma_multicast(const __grid_constant__ CUtensorMap t, float* out)
{
    __shared__ __align__(1024) float tile[64 * 32];
    __shared__ __align__(8) uint64_t bar;
    unsigned rank = sreg_rank();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar)), "r"(64 * 32 * 4));
        uint16_t mask = 3;
        int y = (int)(blockIdx.x / 2) * 64 + (int)rank * 32;
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                     "[%0], [%1, {%2, %3}], [%4], %5;" ::"r"(smem_u32(&tile[rank * 32 * 32])),
                     "l"(&t), "r"(0), "r"(y), "r"(smem_u32(&bar)), "h"(mask)
                     : "memory");
    }
    asm volatile("{\n\t.reg .pred P;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n\t@!P bra W;\n}" ::"r"(
                     smem_u32(&bar))
                 : "memory");
    for (int i = threadIdx.x; i < 64 * 32; i += blockDim.x) out[blockIdx.x * 64 * 32 + i] = tile[i];
    cluster_sync();
}

// ---- bulk reductions: cp.reduce.async.bulk ----

__device__ __forceinline__ void bulk_commit_wait()
{
    asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
}

// g[i] += i + 1 + block (u32 add), f[i] += 0.5 * (i + block) (f32 add),
// m[i] = min(m[i], i - 2 * block) (s32 min), h[i] += 1.0 (f16 add):
// block by block, each from a shared buffer of N elements (N a multiple of 8)
extern "C" __global__ void bulk_reduce(unsigned* g, float* f, int* m, __half_raw* h, int n)
{
    __shared__ __align__(128) unsigned su[1024];
    __shared__ __align__(128) float sf[1024];
    __shared__ __align__(128) int si[1024];
    __shared__ __align__(128) unsigned short sh[1024];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        su[i] = i + 1 + blockIdx.x;
        sf[i] = 0.5f * (float)(i + blockIdx.x);
        si[i] = i - 2 * (int)blockIdx.x;
        sh[i] = 0x3c00;                                  // 1.0 in f16
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" ::"l"(g),
                     "r"(smem_u32(su)), "r"(n * 4) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(f),
                     "r"(smem_u32(sf)), "r"(n * 4) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], %2;" ::"l"(m),
                     "r"(smem_u32(si)), "r"(n * 4) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], %2;" ::"l"(h),
                     "r"(smem_u32(sh)), "r"(n * 2) : "memory");
        bulk_commit_wait();
    }
}

// a cluster of 2: CTA 1 adds its 256 words into CTA 0's buffer through
// cp.reduce.async.bulk.shared::cluster, which completes CTA 0's mbarrier;
// CTA 0 writes the sums: out[i] = 1000 + i + 3 i
extern "C" __global__ void __cluster_dims__(2, 1, 1) bulk_reduce_dsmem(unsigned* out)
{
    __shared__ __align__(128) unsigned buf[256];
    __shared__ __align__(8) uint64_t bar;
    unsigned rank = sreg_rank();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = rank == 0 ? 1000 + i : 3 * i;
    if (threadIdx.x == 0 && rank == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar)), "r"(256 * 4));
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    cluster_sync();
    if (threadIdx.x == 0 && rank == 1) {
        uint32_t dst, mbar;
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(dst) : "r"(smem_u32(buf)));
        asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(mbar) : "r"(smem_u32(&bar)));
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 "
                     "[%0], [%1], %2, [%3];" ::"r"(dst), "r"(smem_u32(buf)), "r"(256 * 4), "r"(mbar)
                     : "memory");
    }
    if (rank == 0) {
        asm volatile("{\n\t.reg .pred P;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n\t@!P bra W;\n}" ::"r"(
                         smem_u32(&bar))
                     : "memory");
        for (int i = threadIdx.x; i < 256; i += blockDim.x) out[i] = buf[i];
    }
    cluster_sync();
}

// the tensor map's 32 x 16 box at (x, y) = (32 * block, 0) += tile: t's
// elements become t + 1 + box element index (f32 add into a 2-D tensor)
extern "C" __global__ void tma_reduce(const __grid_constant__ CUtensorMap t)
{
    __shared__ __align__(128) float tile[16 * 32];
    for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x) tile[i] = 1.0f + (float)i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&t),
                     "r"((int)blockIdx.x * 32), "r"(0), "r"(smem_u32(tile))
                     : "memory");
        bulk_commit_wait();
    }
}

// mbarrier.pending_count of the states two arrivals (noComplete) returned: out = {4, 3} on the H100
// (the count each arrival found)
extern "C" __global__ void mbar_pending(unsigned* out)
{
    __shared__ __align__(8) uint64_t bar;
    if (threadIdx.x == 0) {
        uint64_t s1, s2;
        unsigned c1, c2;
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" ::"r"(smem_u32(&bar)));
        asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(s1) : "r"(smem_u32(&bar)) : "memory");
        asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], 2;" : "=l"(s2) : "r"(smem_u32(&bar)) : "memory");
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c1) : "l"(s1));
        asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c2) : "l"(s2));
        out[0] = c1;
        out[1] = c2;
    }
}

// ---- TMA copies for the time model and the L2 merge (frontend/tmamerge.h) ----

// N copies of 32 x 32-float boxes (4 KiB) a CTA: lane 0 of warps 0 .. P-1 issues copies i = w, w + P, ..
// (N <= 8, P <= 4), copy i into slot i completing mbarrier i (ONE_BAR, with P = 1: all complete mbarrier 0);
// then every thread waits for all N.  Box i of CTA b is at row ((SHARED ? 0 : b) * N + i) * 32: with SHARED
// every CTA asks for the same boxes in the same order.  out[b] = the sum of the CTA's first column (so the
// copies are read).
extern "C" __global__ void tma_producers(const __grid_constant__ CUtensorMap t, float* out, int n, int p, int shared,
                                         int one_bar)
{
    __shared__ __align__(128) float slot[8][32 * 32];
    __shared__ __align__(8) uint64_t bar[8];
    if (threadIdx.x == 0) {
        for (int i = 0; i < n; i++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(&bar[i])));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const int w = (int)threadIdx.x / 32;
    if (threadIdx.x % 32 == 0 && w < p) {
        if (one_bar)
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(&bar[0])), "r"(n * 32 * 32 * 4));
        for (int i = w; i < n; i += p) {
            uint64_t* b = &bar[one_bar ? 0 : i];
            if (!one_bar)
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(32 * 32 * 4));
            int y = ((shared ? 0 : (int)blockIdx.x) * n + i) * 32;
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_u32(slot[i])),
                         "l"(&t), "r"(0), "r"(y), "r"(smem_u32(b))
                         : "memory");
        }
    }
    for (int i = 0; i < (one_bar ? 1 : n); i++)
        asm volatile("{\n\t.reg .pred P;\nW:\n\tmbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n\t@!P bra W;\n}" ::"r"(
                         smem_u32(&bar[i]))
                     : "memory");
    if (threadIdx.x == 0) {
        float s = 0;
        for (int i = 0; i < n; i++)
            for (int r = 0; r < 32; r++) s += slot[i][r * 32];
        out[blockIdx.x] = s;
    }
}
