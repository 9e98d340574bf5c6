// cluster.cu: Hopper's thread-block clusters, one kernel a rung, each checked
// against a CPU reference.  Test program for coalsim's PTX interpreter
// (issue 28: clusters), run unmodified on a real H100 and under coalsim's own
// driver.  Written for coalsim in the style of hopper.cu; models: the PTX ISA
// (special registers %cluster_*, mapa, getctarank, ld/st/atom .shared::cluster,
// barrier.cluster, mbarrier on .shared::cluster, cp.async.bulk.tensor
// .multicast::cluster) and CUTLASS's cute/arch/cluster_sm90.hpp,
// cute/arch/copy_sm90_tma.hpp and cutlass/arch/barrier.h.  No code copied.
//
// build:  nvcc -arch=sm_90a -O2 -lineinfo -o cluster gpu/hopper/cluster.cu
//         (no -lcuda: cuTensorMapEncodeTiled comes through the runtime's
//          cudaGetDriverEntryPointByVersion; <cuda.h> only for the types)
// run:    cluster [--size check|big] [--once] [--only NAME[,NAME..]]
//                 [--trials T] [--launches L]
//   --size check (default): small grids and a 256^3 GEMM: every output
//           compared in full; an interpreter runs each kernel in seconds.
//           Timing: T trials (default 1) of L launches (1).
//   --size big: large grids and 4096^3 GEMMs (spot-checked: 1024 entries),
//           T = 5, L = 10 by default.
//   --once: each kernel launched once, for its check (no timing): what
//           Nsight Compute and the interpreter's counters want.
// Output: "NAME: PASS (detail)" or "NAME: FAIL (detail)" a kernel, a
// "NAME: time ..." line (cudaEvents: median over T trials of the mean over L
// back-to-back launches), and "N passed, N failed".  Exit status 1 on any
// failure.
//
// The ladder (the cluster shape and how it is set):
//   a  cluster_ids       __cluster_dims__(2,2,1) (compile time), 3D grid: every
//                        thread writes %cluster_ctarank, %cluster_nctarank,
//                        %cluster_ctaid.{x,y,z}, %cluster_nctaid.{x,y,z},
//                        %clusterid.{x,y,z}, %nclusterid.{x,y,z},
//                        %is_explicit_cluster and getctarank of its own shared
//                        variable mapped (mapa) into rank+1; the host checks
//                        them against the definition (clusters tile the grid;
//                        rank = x + y*dimx + z*dimx*dimy within the cluster).
//   b  dsmem_ring        cluster (4,1,1) by cudaLaunchKernelEx's
//                        cudaLaunchAttributeClusterDimension (no
//                        __cluster_dims__): each CTA fills 1024 words of shared
//                        memory, barrier.cluster.arrive.release/wait.acquire,
//                        reads its neighbour's ((rank+1)%4) array through mapa +
//                        ld.shared::cluster.u32, and every thread does
//                        atom.shared::cluster.add.u32 (rank+1) on rank 0's
//                        counter; a second cluster barrier before any CTA exits
//                        (its shared memory must outlive the remote reads).
//   c  remote_mbarrier   __cluster_dims__(2,1,1): a 4-round ping-pong.  Rank 1's
//                        threads st.shared::cluster into rank 0's inbox, then
//                        mbarrier.arrive.release.cluster.shared::cluster on rank
//                        0's mbarrier; rank 0 waits (try_wait.parity.acquire
//                        .cluster), copies the inbox (another thread's word) to
//                        global and arrives on rank 1's mbarrier (inbox free).
//   d  tma_multicast     cluster (2,1,1) by launch attribute: both CTAs of a
//                        cluster get the same 64 x 32 float tile; rank r loads
//                        rows 32r..32r+31 with cp.async.bulk.tensor.2d ...
//                        .multicast::cluster, ctaMask 0b11: each half lands at
//                        the same shared offset in both CTAs and completes its
//                        bytes on each CTA's mbarrier (same offset), so each
//                        CTA's barrier (expect_tx: the whole tile) sees 2
//                        halves; each CTA writes its copy to global.
//   e  gemm_cluster_mc   wgmma GEMM, f16 -> f32, 128 x 128 CTA tile, a cluster
//                        of 2 along M (launch attribute) sharing the B tile: a
//                        producer warpgroup (setmaxnreg.dec, elect.sync) loads
//                        A (128 x 64, plain TMA) and half of B (64 n-rows x 64
//                        k, TMA multicast to both CTAs, ctaMask 0b11) into a
//                        3-stage ring; 2 consumer warpgroups (setmaxnreg.inc),
//                        m64n128k16, 128B swizzle.  Full barriers: 1 arrival
//                        + 32 KB (A 16 KB, own B half 8 KB, peer's 8 KB);
//                        empty barriers: 16 arrivals, the 8 consumer warps of
//                        BOTH CTAs (each warp arrives on its own CTA's and the
//                        peer's through mapa: the peer's producer overwrites
//                        this CTA's B stage too).
//      gemm_nocluster    the same kernel without a cluster: each CTA loads its
//                        whole B tile (the multicast's baseline: L2 traffic,
//                        time).
//
// Matrices (e): A is M x K row-major (K-major), B is K x N stored N x K
// row-major (K-major), C is M x N row-major f32; small integers (-3..3), so
// the f32 sums are exact and the check asks for equality.
//
// Why these orders (PTX ISA, "Distributed shared memory" and mbarrier): a
// remote CTA's shared memory may be accessed only while that CTA runs, so
// every kernel ends with barrier.cluster.arrive + wait; an mbarrier that a
// remote CTA (or a multicast copy) arrives on or completes bytes on must be
// initialised first: mbarrier.init, fence.mbarrier_init.release.cluster,
// then a cluster barrier, before any remote use.

#include <cuda.h>  // CUtensorMap and its enums only (no -lcuda)
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// wgmma, setmaxnreg and the TMA multicast are sm_90a's.  nvcc 13's
// -arch=sm_90a also embeds a plain compute_90 PTX (and checks it with
// ptxas): in that one they are a trap.  The GPU runs the sm_90a cubin; an
// interpreter must take the compute_90a PTX (cluster.ptx is that one: nvcc
// -arch=sm_90a --ptx).  The rest (clusters, mapa, DSMEM, barrier.cluster,
// mbarriers) is plain sm_90.
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HOPPER_A 1
#else
#define HOPPER_A 0
#endif

// ============================================================================
// device helpers: cluster registers, mapa, DSMEM, cluster barrier, mbarriers,
// TMA
// ============================================================================

__device__ unsigned int g_timeout;  // set when an mbarrier wait gave up (a hang)

__device__ __forceinline__ uint32_t smem_u32(const void* p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// the special registers, one inline-PTX mov each (the PTX stays explicit)
#define SREG(fn, reg)                                                   \
    __device__ __forceinline__ uint32_t fn()                            \
    {                                                                   \
        uint32_t v;                                                     \
        asm volatile("mov.u32 %0, %%" reg ";" : "=r"(v));               \
        return v;                                                       \
    }
SREG(cluster_ctarank, "cluster_ctarank")
SREG(cluster_nctarank, "cluster_nctarank")
SREG(cluster_ctaid_x, "cluster_ctaid.x")
SREG(cluster_ctaid_y, "cluster_ctaid.y")
SREG(cluster_ctaid_z, "cluster_ctaid.z")
SREG(cluster_nctaid_x, "cluster_nctaid.x")
SREG(cluster_nctaid_y, "cluster_nctaid.y")
SREG(cluster_nctaid_z, "cluster_nctaid.z")
SREG(clusterid_x, "clusterid.x")
SREG(clusterid_y, "clusterid.y")
SREG(clusterid_z, "clusterid.z")
SREG(nclusterid_x, "nclusterid.x")
SREG(nclusterid_y, "nclusterid.y")
SREG(nclusterid_z, "nclusterid.z")
#undef SREG

// %is_explicit_cluster: a predicate, 1 when the launch asked for a cluster
__device__ __forceinline__ uint32_t is_explicit_cluster()
{
    uint32_t v;
    asm volatile("{\n.reg .pred p;\nmov.pred p, %%is_explicit_cluster;\nselp.u32 %0, 1, 0, p;\n}\n" : "=r"(v));
    return v;
}

// the shared::cluster address of the variable at shared::cta address ADDR in
// the CTA of rank RANK of this cluster
__device__ __forceinline__ uint32_t mapa(uint32_t addr, uint32_t rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}

// the rank of the CTA whose shared memory holds shared::cluster address ADDR
__device__ __forceinline__ uint32_t getctarank(uint32_t addr)
{
    uint32_t r;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(addr));
    return r;
}

// distributed shared memory: plain loads, stores and atomics on a
// shared::cluster address
__device__ __forceinline__ uint32_t ld_dsmem(uint32_t addr)
{
    uint32_t v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}
__device__ __forceinline__ void st_dsmem(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t atom_add_dsmem(uint32_t addr, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(addr), "r"(v) : "memory");
    return old;
}

// every thread of every CTA of the cluster: arrive (release: this thread's
// earlier writes) and wait (acquire)
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_sync()
{
    cluster_arrive();
    cluster_wait();
}

__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}

// make the mbarrier.inits before it visible to the other CTAs of the cluster
// (and their async copies); a cluster barrier must follow before any use
__device__ __forceinline__ void fence_mbarrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// make this thread's generic-proxy shared writes (here: the inits) visible to
// the async proxy
__device__ __forceinline__ void fence_proxy_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// arrive (count 1) and add BYTES to the transaction count of the current phase
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t* bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}

// arrive on the mbarrier at shared::cluster address CADDR (any CTA of the
// cluster, this one included), releasing this thread's earlier writes at
// cluster scope
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t caddr)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(caddr) : "memory");
}

// wait for the phase of parity PARITY of this CTA's mbarrier BAR to complete.
// CLUSTER: acquire at cluster scope (the arrivals came from another CTA).
// Bounded: after 2^24 failed tries it sets g_timeout and returns (the check
// then fails instead of the program hanging); after every 1024 failed tries
// it reads g_timeout and returns if it is set.
template <bool CLUSTER>
__device__ __forceinline__ void mbar_wait_t(uint64_t* bar, uint32_t parity)
{
    const uint32_t a = smem_u32(bar);
    for (uint32_t i = 0;; ++i) {
        uint32_t done;
        if (CLUSTER)
            asm volatile("{\n.reg .pred P;\n"
                         "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P, [%1], %2;\n"
                         "selp.b32 %0, 1, 0, P;\n}\n"
                         : "=r"(done)
                         : "r"(a), "r"(parity)
                         : "memory");
        else
            asm volatile("{\n.reg .pred P;\n"
                         "mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2;\n"
                         "selp.b32 %0, 1, 0, P;\n}\n"
                         : "=r"(done)
                         : "r"(a), "r"(parity)
                         : "memory");
        if (done) return;
        if ((i & 1023) == 1023 && *(volatile unsigned int*)&g_timeout) return;
        if (i == (1u << 24)) {
            atomicExch(&g_timeout, 1u);
            return;
        }
    }
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) { mbar_wait_t<false>(bar, parity); }
__device__ __forceinline__ void mbar_wait_cluster(uint64_t* bar, uint32_t parity) { mbar_wait_t<true>(bar, parity); }

// TMA 2D tile load into this CTA: box at (c0 innermost, c1) -> shared DST;
// completes the box's bytes on BAR
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, uint64_t* bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
                 : "memory");
}

// TMA 2D tile load multicast to the CTAs of the cluster whose rank bits are
// set in MASK: the box lands at DST's shared offset in each of them and
// completes its bytes on the mbarrier at BAR's offset in each of them
__device__ __forceinline__ void tma_load_2d_mc(void* dst, const CUtensorMap* map, uint64_t* bar, uint16_t mask,
                                               int c0, int c1)
{
#if HOPPER_A
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%4, %5}], [%2], %3;" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "h"(mask), "r"(c0), "r"(c1)
                 : "memory");
#else
    __trap();
#endif
}

// elect.sync: true in exactly one lane of the (full) warp
__device__ __forceinline__ bool elect_one()
{
    uint32_t pred;
    asm volatile("{\n.reg .b32 rx;\n.reg .pred px;\n"
                 "elect.sync rx|px, 0xffffffff;\n"
                 "selp.b32 %0, 1, 0, px;\n}\n"
                 : "=r"(pred));
    return pred != 0;
}

// ============================================================================
// wgmma helpers (as in hopper.cu)
// ============================================================================
#if HOPPER_A
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
#else
__device__ __forceinline__ void wgmma_fence() { __trap(); }
__device__ __forceinline__ void wgmma_commit() { __trap(); }
__device__ __forceinline__ void wgmma_wait0() { __trap(); }
#endif

template <int N>
__device__ __forceinline__ void fence_regs(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// K-major, 128-byte swizzle descriptor: rows of 128 bytes, 8-row groups
// SBO = 1024 bytes apart, LBO unused (1), layout 1 (bits 62-63)
__device__ __forceinline__ uint64_t desc_k_sw128(uint32_t saddr)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | (uint64_t)1 << 16 | (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

// D(f32) (+)= A(f16, smem desc, K-major) * B(f16, smem desc, K-major), m64n128k16
__device__ __forceinline__ void wgmma_m64n128k16_f16(float (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// write the m64n128 accumulators of this warpgroup to C (row-major, ldc),
// tile origin (row0, col0): thread t, warp w = t/32, lane l; register i holds
// row 16w + l/4 + 8*((i>>1)&1), column 8*(i>>2) + 2*(l%4) + (i&1)
__device__ __forceinline__ void store_acc(float* C, int ldc, int row0, int col0, const float (&d)[64])
{
    const int t = threadIdx.x % 128, w = t / 32, l = t % 32;
#pragma unroll
    for (int i = 0; i < 64; i += 2) {
        const int row = row0 + 16 * w + l / 4 + 8 * ((i >> 1) & 1);
        const int col = col0 + 8 * (i >> 2) + 2 * (l % 4);
        C[(size_t)row * ldc + col] = d[i];
        C[(size_t)row * ldc + col + 1] = d[i + 1];
    }
}

// ============================================================================
// a. cluster_ids: __cluster_dims__(2,2,1)
// ============================================================================
constexpr int ID_FIELDS = 16;
constexpr int ID_CX = 2, ID_CY = 2, ID_CZ = 1;

// OUT: ID_FIELDS words a thread, thread (block b linear, t) at (b * blockDim.x + t) * ID_FIELDS:
//   0 %cluster_ctarank  1 %cluster_nctarank  2-4 %cluster_ctaid.xyz  5-7 %cluster_nctaid.xyz
//   8-10 %clusterid.xyz  11-13 %nclusterid.xyz  14 %is_explicit_cluster
//   15 getctarank(mapa(&probe, (rank + 1) % nctarank))
extern "C" __global__ void __cluster_dims__(ID_CX, ID_CY, ID_CZ) __launch_bounds__(128) cluster_ids(uint32_t* out)
{
    __shared__ uint32_t probe;
    const size_t b = ((size_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    uint32_t* o = out + (b * blockDim.x + threadIdx.x) * ID_FIELDS;
    const uint32_t rank = cluster_ctarank(), n = cluster_nctarank();
    o[0] = rank;
    o[1] = n;
    o[2] = cluster_ctaid_x();
    o[3] = cluster_ctaid_y();
    o[4] = cluster_ctaid_z();
    o[5] = cluster_nctaid_x();
    o[6] = cluster_nctaid_y();
    o[7] = cluster_nctaid_z();
    o[8] = clusterid_x();
    o[9] = clusterid_y();
    o[10] = clusterid_z();
    o[11] = nclusterid_x();
    o[12] = nclusterid_y();
    o[13] = nclusterid_z();
    o[14] = is_explicit_cluster();
    o[15] = getctarank(mapa(smem_u32(&probe), (rank + 1) % n));
}

// ============================================================================
// b. dsmem_ring: cluster (4,1,1) from the launch
// ============================================================================
constexpr int RING_N = 1024;      // words of shared memory a CTA
constexpr int RING_CLUSTER = 4;   // CTAs a cluster
constexpr int RING_THREADS = 256;

__host__ __device__ __forceinline__ uint32_t ring_value(uint32_t block, uint32_t i) { return (block << 12) | i; }

// OUT[block][i] = the neighbour's (rank + 1) word i; COUNTERS[cluster] = rank
// 0's counter after every thread of the cluster added rank + 1; OLDS[block
// * RING_THREADS + t] = what the thread's atom returned
extern "C" __global__ void __launch_bounds__(RING_THREADS) dsmem_ring(uint32_t* out, uint32_t* counters, uint32_t* olds)
{
    __shared__ uint32_t buf[RING_N];
    __shared__ uint32_t counter;
    const uint32_t rank = cluster_ctarank(), n = cluster_nctarank();
    for (int i = threadIdx.x; i < RING_N; i += blockDim.x) buf[i] = ring_value(blockIdx.x, i);
    if (threadIdx.x == 0) counter = 0;
    cluster_sync();  // every CTA's buf and counter written and visible to the cluster
    const uint32_t nb = mapa(smem_u32(buf), (rank + 1) % n);
    for (int i = threadIdx.x; i < RING_N; i += blockDim.x) out[(size_t)blockIdx.x * RING_N + i] = ld_dsmem(nb + 4 * i);
    olds[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = atom_add_dsmem(mapa(smem_u32(&counter), 0), rank + 1);
    cluster_sync();  // all remote reads and atomics done before any CTA exits; rank 0's counter final
    if (rank == 0 && threadIdx.x == 0) counters[clusterid_x()] = counter;
}

// ============================================================================
// c. remote_mbarrier: __cluster_dims__(2,1,1), ping-pong through DSMEM
// ============================================================================
constexpr int RMB_T = 128, RMB_ROUNDS = 4, RMB_SKEW = 37;

__host__ __device__ __forceinline__ uint32_t rmb_value(uint32_t cl, uint32_t r, uint32_t t)
{
    return (cl << 16) | (r << 8) | t;
}

// OUT[cluster][round][t] = the inbox word (t + RMB_SKEW + round) % RMB_T that rank 1 wrote in ROUND
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(RMB_T) remote_mbarrier(uint32_t* out)
{
    __shared__ uint32_t inbox[RMB_T];           // rank 0's is written by rank 1
    __shared__ __align__(8) uint64_t bar;       // rank 0: inbox full; rank 1: inbox read (RMB_T arrivals each)
    const uint32_t rank = cluster_ctarank(), cl = clusterid_x(), t = threadIdx.x;
    if (t == 0) {
        mbar_init(&bar, RMB_T);
        fence_mbarrier_init();
    }
    cluster_sync();  // both barriers initialised before any remote arrive
    const uint32_t peer_bar = mapa(smem_u32(&bar), rank ^ 1);
    if (rank == 1) {
        const uint32_t slot = mapa(smem_u32(&inbox[t]), 0);
        for (int r = 0; r < RMB_ROUNDS; ++r) {
            if (r > 0) mbar_wait_cluster(&bar, (r - 1) & 1);  // rank 0 has read round r - 1
            st_dsmem(slot, rmb_value(cl, r, t));
            mbar_arrive_cluster(peer_bar);                   // releases the store above
        }
    } else {
        for (int r = 0; r < RMB_ROUNDS; ++r) {
            mbar_wait_cluster(&bar, r & 1);  // all RMB_T stores of round r visible
            out[((size_t)cl * RMB_ROUNDS + r) * RMB_T + t] = inbox[(t + RMB_SKEW + r) % RMB_T];
            mbar_arrive_cluster(peer_bar);   // this thread is done with the inbox
        }
    }
    cluster_sync();  // rank 0's last arrivals on rank 1's barrier land before rank 1 exits
}

// ============================================================================
// d. tma_multicast: cluster (2,1,1) from the launch
// ============================================================================
constexpr int MC_W = 32, MC_H = 64;  // the tile: 32 floats (128 bytes) x 64 rows = 8 KB; halves of 32 rows

// TIN: W x H floats, box MC_W x MC_H/2.  OUT: two W x H copies, copy r written by the CTAs of rank r.
// Cluster c = %clusterid.x takes the tile at (c * MC_W, blockIdx.y * MC_H).
extern "C" __global__ void __launch_bounds__(256) tma_multicast(const __grid_constant__ CUtensorMap tin, float* out, int W, int H)
{
    __shared__ __align__(1024) float tile[MC_H * MC_W];
    __shared__ __align__(8) uint64_t bar;
    const uint32_t rank = cluster_ctarank();
    const int x0 = clusterid_x() * MC_W, y0 = blockIdx.y * MC_H;
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    cluster_sync();  // the peer's barrier initialised before this CTA's multicast completes bytes on it
    if (threadIdx.x == 0) {
        mbar_arrive_expect_tx(&bar, sizeof(tile));  // the whole tile: this CTA's half and the peer's
        tma_load_2d_mc(tile + rank * (MC_H / 2) * MC_W, &tin, &bar, 0x3, x0, y0 + rank * (MC_H / 2));
    }
    mbar_wait(&bar, 0);
    float* o = out + (size_t)rank * W * H;
    for (int i = threadIdx.x; i < MC_H * MC_W; i += blockDim.x) {
        const int r = i / MC_W, c = i % MC_W;
        o[(size_t)(y0 + r) * W + x0 + c] = tile[i];
    }
    cluster_sync();  // no CTA exits while its multicast may still write the peer
}

// ============================================================================
// e. gemm_cluster_mc / gemm_nocluster: 128 x 128 tile, 3-stage ring,
// producer warpgroup + 2 consumer warpgroups, m64n128k16
// ============================================================================
constexpr int CM_BM = 128, CM_BN = 128, CM_BK = 64, CM_ST = 3;
constexpr int CM_A_BYTES = CM_BM * CM_BK * 2, CM_B_BYTES = CM_BN * CM_BK * 2;  // 16 KB each
constexpr int CM_SMEM = CM_ST * (CM_A_BYTES + CM_B_BYTES) + 2 * CM_ST * 8 + 1024;  // + room to align to 1024

// MC: a cluster of 2 along M (grid x); B multicast (ctaMask 0b11), TB's box
// 64 k x 64 n-rows; else TB's box 64 k x 128 n-rows, no cluster.  TA: box 64 k
// x 128 m-rows.  Grid (M/128, N/128), 384 threads.
template <bool MC>
__device__ __forceinline__ void gemm_cluster_body(const CUtensorMap* ta, const CUtensorMap* tb, float* C, int N, int K)
{
    extern __shared__ uint8_t smem_raw[];
    // 1024-byte aligned (the 128B swizzle); the same offset in every CTA of the
    // cluster (the same kernel, the same shared layout), as multicast needs
    uint8_t* sm = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
    uint8_t* sA = sm;
    uint8_t* sB = sm + CM_ST * CM_A_BYTES;
    uint64_t* full = reinterpret_cast<uint64_t*>(sB + CM_ST * CM_B_BYTES);
    uint64_t* empty = full + CM_ST;
    const int wg = threadIdx.x / 128;
    const int m0 = blockIdx.x * CM_BM, n0 = blockIdx.y * CM_BN, KT = K / CM_BK;
    const uint32_t rank = MC ? cluster_ctarank() : 0;
    if (threadIdx.x == 0) {
        for (int s = 0; s < CM_ST; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], MC ? 16 : 8);  // consumer warps: both CTAs' with multicast
        }
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    if (MC) cluster_sync();  // the peer's barriers exist before the first multicast or remote arrive
    else __syncthreads();
    if (wg == 0) {  // producer
#if HOPPER_A
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
#endif
        if (threadIdx.x / 32 == 0 && elect_one()) {
            for (int kt = 0; kt < KT; ++kt) {
                const int s = kt % CM_ST;
                if (kt >= CM_ST) {  // every consumer (both CTAs' with multicast) done with round kt/CM_ST - 1
                    if (MC) mbar_wait_cluster(&empty[s], ((kt / CM_ST) - 1) & 1);
                    else mbar_wait(&empty[s], ((kt / CM_ST) - 1) & 1);
                }
                mbar_arrive_expect_tx(&full[s], CM_A_BYTES + CM_B_BYTES);  // with MC: half of B from the peer
                tma_load_2d(sA + s * CM_A_BYTES, ta, &full[s], kt * CM_BK, m0);
                if (MC)
                    tma_load_2d_mc(sB + s * CM_B_BYTES + rank * (CM_B_BYTES / 2), tb, &full[s], 0x3, kt * CM_BK,
                                   n0 + rank * (CM_BN / 2));
                else tma_load_2d(sB + s * CM_B_BYTES, tb, &full[s], kt * CM_BK, n0);
            }
        }
    } else {  // consumers
#if HOPPER_A
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
#endif
        const int cw = wg - 1;
        float d[64];
#pragma unroll
        for (int i = 0; i < 64; ++i) d[i] = 0.0f;
        for (int kt = 0; kt < KT; ++kt) {
            const int s = kt % CM_ST;
            mbar_wait(&full[s], (kt / CM_ST) & 1);
            const uint32_t a = smem_u32(sA + s * CM_A_BYTES + cw * 64 * 128), b = smem_u32(sB + s * CM_B_BYTES);
            wgmma_fence();
            fence_regs(d);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) wgmma_m64n128k16_f16(d, desc_k_sw128(a + 32 * kk), desc_k_sw128(b + 32 * kk), 1);
            wgmma_commit();
            fence_regs(d);
            wgmma_wait0();
            fence_regs(d);
            if (threadIdx.x % 32 == 0) {  // this warp is done with stage s, in both CTAs' eyes
                if (MC) {
                    mbar_arrive_cluster(mapa(smem_u32(&empty[s]), rank));      // its own (through mapa too)
                    mbar_arrive_cluster(mapa(smem_u32(&empty[s]), rank ^ 1));  // the peer's
                } else mbar_arrive(&empty[s]);
            }
        }
        store_acc(C, N, m0 + cw * 64, n0, d);
    }
    if (MC) cluster_sync();  // the peer's last arrivals and multicast writes land before either CTA exits
}

extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_cluster_mc(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_cluster_body<true>(&ta, &tb, C, N, K);
}
extern "C" __global__ void __launch_bounds__(384, 1)
    gemm_nocluster(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_cluster_body<false>(&ta, &tb, C, N, K);
}

// ============================================================================
// host
// ============================================================================

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) fatal(#x, cudaGetErrorString(e_), __LINE__);                        \
    } while (0)

static int g_passed = 0, g_failed = 0;

static void fatal(const char* what, const char* err, int line)
{
    printf("CUDA error at line %d: %s: %s\n", line, what, err);
    printf("%d passed, %d failed (stopped at a CUDA error)\n", g_passed, g_failed + 1);
    exit(1);
}

struct Opt {
    bool big = false, once = false;
    int trials = -1, launches = -1;
    std::vector<std::string> only;
};
static Opt g_opt;

static bool selected(const char* name)
{
    if (g_opt.only.empty()) return true;
    for (const std::string& o : g_opt.only)
        if (strncmp(name, o.c_str(), o.size()) == 0) return true;
    return false;
}

static void verdict(const char* name, bool ok, const char* detail)
{
    printf("%s: %s (%s)\n", name, ok ? "PASS" : "FAIL", detail);
    fflush(stdout);
    if (ok) ++g_passed;
    else ++g_failed;
}

// launch errors are fatal (the context is gone); an mbarrier wait that gave
// up is reported and cleared.  True when no wait gave up.
static bool finish_launch(const char* name)
{
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned int to = 0;
    CK(cudaMemcpyFromSymbol(&to, g_timeout, sizeof(to)));
    if (to) {
        printf("%s: an mbarrier wait timed out (hang)\n", name);
        to = 0;
        CK(cudaMemcpyToSymbol(g_timeout, &to, sizeof(to)));
        return false;
    }
    return true;
}

// median over trials of (time of LAUNCHES back-to-back launches) / LAUNCHES
template <class F>
static void time_it(const char* name, F launch, double work, const char* unit)
{
    if (g_opt.once) return;
    const int T = g_opt.trials, L = g_opt.launches;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int t = 0; t < T; ++t) {
        CK(cudaEventRecord(e0));
        for (int l = 0; l < L; ++l) launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float x = 0;
        CK(cudaEventElapsedTime(&x, e0, e1));
        ms.push_back(x / L);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    printf("%s: time %.2f us (median of %d trials x %d launches, min %.2f max %.2f)  %.1f %s\n", name, med * 1e3, T, L,
           ms.front() * 1e3, ms.back() * 1e3, work / (med * 1e-3), unit);
    fflush(stdout);
}

// a launch with a cluster shape from the launch attribute (cudaLaunchKernelEx)
template <class... Params, class... Args>
static void launch_cluster(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, dim3 cluster, Args... args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = 0;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster.x;
    attr[0].val.clusterDim.y = cluster.y;
    attr[0].val.clusterDim.z = cluster.z;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, kernel, args...));
}

// how many clusters of this shape fit the GPU at once (cudaOccupancyMaxActiveClusters); -1 if not answered
template <class... Params>
static int max_active_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem, dim3 cluster)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster.x;
    attr[0].val.clusterDim.y = cluster.y;
    attr[0].val.clusterDim.z = cluster.z;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int n = -1;
    if (cudaOccupancyMaxActiveClusters(&n, (const void*)kernel, &cfg) != cudaSuccess) {
        (void)cudaGetLastError();
        n = -1;
    }
    return n;
}

// ---- tensor maps, through the runtime (no -lcuda)
typedef CUresult (*EncodeTiledFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                  const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static EncodeTiledFn encode_tiled()
{
    static EncodeTiledFn fn = nullptr;
    if (fn) return fn;
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
#else
    CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q));
#endif
    if (!p || q != cudaDriverEntryPointSuccess) {
        printf("cuTensorMapEncodeTiled: not found through the runtime\n");
        exit(1);
    }
    fn = (EncodeTiledFn)p;
    return fn;
}

// a 2D tensor map: INNER x OUTER elements, rows PITCH bytes apart, box
// BOX_IN x BOX_OUT.  False (and a message) if the driver refuses it.
static bool tmap_2d(CUtensorMap* m, CUtensorMapDataType type, void* base, uint64_t inner, uint64_t outer,
                    uint64_t pitch, uint32_t box_in, uint32_t box_out, CUtensorMapSwizzle swizzle)
{
    const cuuint64_t dims[2] = {inner, outer};
    const cuuint64_t strides[1] = {pitch};
    const cuuint32_t box[2] = {box_in, box_out};
    const cuuint32_t estr[2] = {1, 1};
    const CUresult r = encode_tiled()(m, type, 2, base, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                      swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        printf("cuTensorMapEncodeTiled failed (%d): type %d dims %llu x %llu pitch %llu box %u x %u swizzle %d\n", (int)r,
               (int)type, (unsigned long long)inner, (unsigned long long)outer, (unsigned long long)pitch, box_in,
               box_out, (int)swizzle);
        return false;
    }
    return true;
}

// ---- deterministic inputs
static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rand_int(uint64_t seed, uint64_t i, int lo, int hi)  // in [lo, hi]
{
    return lo + (int)(mix64(mix64(seed) ^ i) % (uint64_t)(hi - lo + 1));
}

template <class T>
static T* dev_alloc(size_t n)
{
    T* p = nullptr;
    CK(cudaMalloc(&p, n * sizeof(T)));
    return p;
}

// ============================================================================
// a. cluster_ids
// ============================================================================
static void test_cluster_ids()
{
    const char* name = "cluster_ids";
    if (!selected(name)) return;
    const dim3 grid = g_opt.big ? dim3(64, 64, 4) : dim3(6, 4, 2), block(g_opt.big ? 128 : 96);
    const size_t nblocks = (size_t)grid.x * grid.y * grid.z, n = nblocks * block.x * ID_FIELDS;
    uint32_t* dout = dev_alloc<uint32_t>(n);
    CK(cudaMemset(dout, 0xFF, n * 4));
    auto launch = [&] { cluster_ids<<<grid, block>>>(dout); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out(n);
    CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    static const char* field[ID_FIELDS] = {"cluster_ctarank", "cluster_nctarank", "cluster_ctaid.x", "cluster_ctaid.y",
                                           "cluster_ctaid.z", "cluster_nctaid.x", "cluster_nctaid.y", "cluster_nctaid.z",
                                           "clusterid.x", "clusterid.y", "clusterid.z", "nclusterid.x", "nclusterid.y",
                                           "nclusterid.z", "is_explicit_cluster", "getctarank(mapa(rank+1))"};
    size_t bad = 0;
    for (uint32_t bz = 0; bz < grid.z; ++bz)
        for (uint32_t by = 0; by < grid.y; ++by)
            for (uint32_t bx = 0; bx < grid.x; ++bx) {
                const uint32_t cx = bx % ID_CX, cy = by % ID_CY, cz = bz % ID_CZ;
                const uint32_t rank = cx + cy * ID_CX + cz * ID_CX * ID_CY, nr = ID_CX * ID_CY * ID_CZ;
                const uint32_t want[ID_FIELDS] = {rank,          nr,          cx,          cy,          cz,
                                                  ID_CX,         ID_CY,       ID_CZ,       bx / ID_CX,  by / ID_CY,
                                                  bz / ID_CZ,    grid.x / ID_CX, grid.y / ID_CY, grid.z / ID_CZ, 1,
                                                  (rank + 1) % nr};
                const size_t b = ((size_t)bz * grid.y + by) * grid.x + bx;
                for (uint32_t t = 0; t < block.x; ++t)
                    for (int f = 0; f < ID_FIELDS; ++f) {
                        const uint32_t got = out[(b * block.x + t) * ID_FIELDS + f];
                        if (got != want[f] && bad++ < 8)
                            printf("  block (%u,%u,%u) thread %u %%%s: got %u want %u\n", bx, by, bz, t, field[f], got,
                                   want[f]);
                    }
            }
    char detail[200];
    if (bad) snprintf(detail, sizeof detail, "%zu of %zu values wrong", bad, n);
    else snprintf(detail, sizeof detail, "%zu values exact: grid %ux%ux%u, cluster 2x2x1, %u threads a block", n, grid.x,
                  grid.y, grid.z, block.x);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, (double)n * 4 / 1e9, "GB/s (written)");
    cudaFree(dout);
}

// ============================================================================
// b. dsmem_ring
// ============================================================================
static void test_dsmem_ring()
{
    const char* name = "dsmem_ring";
    if (!selected(name)) return;
    const int nclusters = g_opt.big ? 2048 : 8, nblocks = nclusters * RING_CLUSTER;
    const dim3 grid(nblocks), block(RING_THREADS), cl(RING_CLUSTER, 1, 1);
    uint32_t* dout = dev_alloc<uint32_t>((size_t)nblocks * RING_N);
    uint32_t* dcnt = dev_alloc<uint32_t>(nclusters);
    uint32_t* dold = dev_alloc<uint32_t>((size_t)nblocks * RING_THREADS);
    CK(cudaMemset(dout, 0xFF, (size_t)nblocks * RING_N * 4));
    CK(cudaMemset(dcnt, 0xFF, nclusters * 4));
    CK(cudaMemset(dold, 0xFF, (size_t)nblocks * RING_THREADS * 4));
    auto launch = [&] { launch_cluster(dsmem_ring, grid, block, 0, cl, dout, dcnt, dold); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out((size_t)nblocks * RING_N), cnt(nclusters), old((size_t)nblocks * RING_THREADS);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cnt.data(), dcnt, cnt.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(old.data(), dold, old.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int b = 0; b < nblocks; ++b) {
        const int nb = (b / RING_CLUSTER) * RING_CLUSTER + (b % RING_CLUSTER + 1) % RING_CLUSTER;
        for (int i = 0; i < RING_N; ++i) {
            const uint32_t got = out[(size_t)b * RING_N + i], want = ring_value(nb, i);
            if (got != want && bad++ < 6)
                printf("  block %d word %d: got 0x%08x (block %u word %u) want block %d's\n", b, i, got, got >> 12,
                       got & 4095, nb);
        }
    }
    // the counter: every thread of the cluster added rank + 1; the olds: distinct, each below the total
    const uint32_t total = RING_THREADS * (RING_CLUSTER * (RING_CLUSTER + 1) / 2);
    size_t badc = 0;
    for (int c = 0; c < nclusters; ++c) {
        if (cnt[c] != total && badc++ < 4) printf("  cluster %d counter: got %u want %u\n", c, cnt[c], total);
        std::vector<uint32_t> o(old.begin() + (size_t)c * RING_CLUSTER * RING_THREADS,
                                old.begin() + (size_t)(c + 1) * RING_CLUSTER * RING_THREADS);
        std::sort(o.begin(), o.end());
        bool fine = o.back() < total;
        for (size_t i = 1; i < o.size(); ++i) fine = fine && o[i] != o[i - 1];
        if (!fine && badc++ < 4) printf("  cluster %d: the atoms' old values are not distinct values below %u\n", c, total);
    }
    const int mac = max_active_clusters(dsmem_ring, grid, block, 0, cl);
    char detail[200];
    if (bad || badc) snprintf(detail, sizeof detail, "%zu of %zu words wrong, %zu counter/atom faults", bad, out.size(), badc);
    else snprintf(detail, sizeof detail, "%zu remote words exact, %d counters = %u, atom olds distinct; %d clusters of 4, max active %d",
                  out.size(), nclusters, total, nclusters, mac);
    verdict(name, ok && !bad && !badc, detail);
    time_it(name, launch, (double)nblocks * RING_N * 4 / 1e9, "GB/s (DSMEM read)");
    cudaFree(dout);
    cudaFree(dcnt);
    cudaFree(dold);
}

// ============================================================================
// c. remote_mbarrier
// ============================================================================
static void test_remote_mbarrier()
{
    const char* name = "remote_mbarrier";
    if (!selected(name)) return;
    const int nclusters = g_opt.big ? 1056 : 8;
    const size_t n = (size_t)nclusters * RMB_ROUNDS * RMB_T;
    uint32_t* dout = dev_alloc<uint32_t>(n);
    CK(cudaMemset(dout, 0xFF, n * 4));
    auto launch = [&] { remote_mbarrier<<<2 * nclusters, RMB_T>>>(dout); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out(n);
    CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int c = 0; c < nclusters; ++c)
        for (int r = 0; r < RMB_ROUNDS; ++r)
            for (int t = 0; t < RMB_T; ++t) {
                const uint32_t got = out[((size_t)c * RMB_ROUNDS + r) * RMB_T + t];
                const uint32_t want = rmb_value(c, r, (t + RMB_SKEW + r) % RMB_T);
                if (got != want && bad++ < 6)
                    printf("  cluster %d round %d thread %d: got 0x%08x (cluster %u round %u t %u) want 0x%08x\n", c, r, t,
                           got, got >> 16, (got >> 8) & 255, got & 255, want);
            }
    char detail[200];
    if (bad) snprintf(detail, sizeof detail, "%zu of %zu words wrong", bad, n);
    else snprintf(detail, sizeof detail, "%zu words exact: %d clusters of 2, %d rounds of %d remote stores and arrivals each way",
                  n, nclusters, RMB_ROUNDS, RMB_T);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, (double)nclusters * RMB_ROUNDS / 1e6, "M cluster-rounds/s");
    cudaFree(dout);
}

// ============================================================================
// d. tma_multicast
// ============================================================================
static void test_tma_multicast()
{
    const char* name = "tma_multicast";
    if (!selected(name)) return;
    const int W = g_opt.big ? 8192 : 256, H = g_opt.big ? 8192 : 192;
    std::vector<float> in((size_t)W * H);
    for (size_t i = 0; i < in.size(); ++i) in[i] = (float)(i % 8000000) + 0.5f;
    float* din = dev_alloc<float>(in.size());
    float* dout = dev_alloc<float>(2 * in.size());
    CK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xFF, 2 * in.size() * 4));
    CUtensorMap tin;
    if (!tmap_2d(&tin, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, din, W, H, (uint64_t)W * 4, MC_W, MC_H / 2,
                 CU_TENSOR_MAP_SWIZZLE_NONE)) {
        verdict(name, false, "tensor map refused");
        return;
    }
    const dim3 grid(2 * (W / MC_W), H / MC_H), block(256), cl(2, 1, 1);
    auto launch = [&] { launch_cluster(tma_multicast, grid, block, 0, cl, tin, dout, W, H); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out(2 * in.size());
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int r = 0; r < 2; ++r)
        for (size_t i = 0; i < in.size(); ++i) {
            uint32_t w;
            memcpy(&w, &in[i], 4);
            const uint32_t got = out[(size_t)r * in.size() + i];
            if (got != w && bad++ < 6) {
                float g;
                memcpy(&g, &got, 4);
                printf("  copy %d (x %zu, y %zu): got %.1f (0x%08x) want %.1f\n", r, i % W, i / W, g, got, in[i]);
            }
        }
    char detail[200];
    if (bad) snprintf(detail, sizeof detail, "%zu of %zu values wrong", bad, out.size());
    else snprintf(detail, sizeof detail, "both copies of the %d x %d tensor exact: %u clusters of 2, each half multicast to both",
                  W, H, grid.x * grid.y / 2);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, 3.0 * W * H * 4 / 1e9, "GB/s (read once + write twice)");
    cudaFree(din);
    cudaFree(dout);
}

// ============================================================================
// e. gemm_cluster_mc, gemm_nocluster
// ============================================================================
struct GemmData {
    int M, N, K;
    std::vector<float> A, B;  // A M x K, B K x N (logical)
    std::vector<double> C;    // full reference (check size only)
};

static const GemmData& gemm_data(int M, int N, int K)
{
    static GemmData* d = nullptr;
    if (d && d->M == M && d->N == N && d->K == K) return *d;
    delete d;
    d = new GemmData{M, N, K, {}, {}, {}};
    d->A.resize((size_t)M * K);
    d->B.resize((size_t)K * N);
    for (size_t i = 0; i < d->A.size(); ++i) d->A[i] = (float)rand_int(1, i, -3, 3);
    for (size_t i = 0; i < d->B.size(); ++i) d->B[i] = (float)rand_int(2, i, -3, 3);
    if (!g_opt.big) {
        d->C.assign((size_t)M * N, 0.0);
        for (int m = 0; m < M; ++m)
            for (int k = 0; k < K; ++k) {
                const double a = d->A[(size_t)m * K + k];
                if (a == 0) continue;
                const float* b = &d->B[(size_t)k * N];
                double* c = &d->C[(size_t)m * N];
                for (int n = 0; n < N; ++n) c[n] += a * b[n];
            }
    }
    return *d;
}

static void test_gemm(const char* name, bool mc)
{
    if (!selected(name)) return;
    const int S = g_opt.big ? 4096 : 256, M = S, N = S, K = S;
    const GemmData& data = gemm_data(M, N, K);
    __half *dA = dev_alloc<__half>((size_t)M * K), *dB = dev_alloc<__half>((size_t)K * N);
    float* dC = dev_alloc<float>((size_t)M * N);
    {
        std::vector<__half> ha((size_t)M * K), hb((size_t)K * N);
        for (size_t i = 0; i < ha.size(); ++i) ha[i] = __float2half(data.A[i]);
        for (int k = 0; k < K; ++k)
            for (int n = 0; n < N; ++n) hb[(size_t)n * K + k] = __float2half(data.B[(size_t)k * N + n]);  // N x K
        CK(cudaMemcpy(dA, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
        CK(cudaMemset(dC, 0xFF, (size_t)M * N * 4));  // NaN where nothing is written
    }
    CUtensorMap ta, tb;
    if (!tmap_2d(&ta, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, dA, K, M, (uint64_t)K * 2, CM_BK, CM_BM, CU_TENSOR_MAP_SWIZZLE_128B) ||
        !tmap_2d(&tb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, dB, K, N, (uint64_t)K * 2, CM_BK, mc ? CM_BN / 2 : CM_BN,
                 CU_TENSOR_MAP_SWIZZLE_128B)) {
        verdict(name, false, "tensor map refused");
        return;
    }
    auto kernel = mc ? gemm_cluster_mc : gemm_nocluster;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, CM_SMEM));
    const dim3 grid(M / CM_BM, N / CM_BN), block(384), cl(2, 1, 1);
    auto launch = [&] {
        if (mc) launch_cluster(gemm_cluster_mc, grid, block, CM_SMEM, cl, ta, tb, dC, N, K);
        else gemm_nocluster<<<grid, block, CM_SMEM>>>(ta, tb, dC, N, K);
    };
    launch();
    const bool ok = finish_launch(name);
    std::vector<float> C((size_t)M * N);
    CK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0, n = 0;
    std::vector<int> badtile((M / 64) * (N / 64), 0);  // wrong entries a 64 x 64 block
    auto cmp = [&](int m, int nn, double ref) {
        const double got = C[(size_t)m * N + nn];
        ++n;
        if (!(got == ref)) {
            ++badtile[(m / 64) * (N / 64) + nn / 64];
            if (bad++ < 6) printf("  C[%d][%d]: got %.9g want %.9g\n", m, nn, got, ref);
        }
    };
    if (!g_opt.big) {
        for (int m = 0; m < M; ++m)
            for (int nn = 0; nn < N; ++nn) cmp(m, nn, data.C[(size_t)m * N + nn]);
    } else {
        for (int s = 0; s < 1024; ++s) {
            const int m = (int)(mix64(3 * s + 7) % M), nn = (int)(mix64(5 * s + 11) % N);
            double ref = 0;
            for (int k = 0; k < K; ++k) ref += (double)data.A[(size_t)m * K + k] * data.B[(size_t)k * N + nn];
            cmp(m, nn, ref);
        }
    }
    if (bad && !g_opt.big) {  // which 64 x 64 blocks (rows: m / 64, the CTA rank is (m / 128) % 2; cols: n / 64, the B half)
        printf("  wrong entries a 64 x 64 block (rows m/64, cols n/64):\n");
        for (int bm = 0; bm < M / 64; ++bm) {
            printf("   ");
            for (int bn = 0; bn < N / 64; ++bn) printf(" %5d", badtile[bm * (N / 64) + bn]);
            printf("\n");
        }
    }
    const int mac = mc ? max_active_clusters(gemm_cluster_mc, grid, block, CM_SMEM, cl) : 0;
    char detail[240];
    snprintf(detail, sizeof detail, "max rel err %s, %zu of %zu entries wrong, M N K %d %d %d, %s", bad ? "> 0" : "0", bad,
             n, M, N, K, mc ? "clusters of 2 along M, B multicast" : "no cluster");
    if (mc) snprintf(detail + strlen(detail), sizeof detail - strlen(detail), ", max active clusters %d", mac);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, 2.0 * M * N * K / 1e12, "TFLOP/s");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--size" && i + 1 < argc) {
            const std::string s = argv[++i];
            if (s != "check" && s != "big") {
                printf("--size: check or big\n");
                return 2;
            }
            g_opt.big = s == "big";
        } else if (a == "--once") g_opt.once = true;
        else if (a == "--trials" && i + 1 < argc) g_opt.trials = atoi(argv[++i]);
        else if (a == "--launches" && i + 1 < argc) g_opt.launches = atoi(argv[++i]);
        else if (a == "--only" && i + 1 < argc) {
            std::string s = argv[++i];
            size_t p;
            while ((p = s.find(',')) != std::string::npos) {
                g_opt.only.push_back(s.substr(0, p));
                s = s.substr(p + 1);
            }
            if (!s.empty()) g_opt.only.push_back(s);
        } else {
            printf("usage: %s [--size check|big] [--once] [--only NAME[,NAME..]] [--trials T] [--launches L]\n", argv[0]);
            return 2;
        }
    }
    if (g_opt.trials < 1) g_opt.trials = g_opt.big ? 5 : 1;
    if (g_opt.launches < 1) g_opt.launches = g_opt.big ? 10 : 1;

    int dev = 0;
    cudaDeviceProp p;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&p, dev));
    int cl_launch = 0;
    (void)cudaDeviceGetAttribute(&cl_launch, cudaDevAttrClusterLaunch, dev);
    printf("device: %s, sm_%d%d, %d SMs, %zu KB shared a block (opt-in), cluster launch %s\n", p.name, p.major, p.minor,
           p.multiProcessorCount, (size_t)p.sharedMemPerBlockOptin / 1024, cl_launch ? "yes" : "no");
    printf("size: %s%s\n", g_opt.big ? "big" : "check", g_opt.once ? ", once (no timing)" : "");
    fflush(stdout);
    if (p.major < 9) {
        printf("needs sm_90 (Hopper)\n");
        return 1;
    }

    test_cluster_ids();
    test_dsmem_ring();
    test_remote_mbarrier();
    test_tma_multicast();
    test_gemm("gemm_cluster_mc", true);
    test_gemm("gemm_nocluster", false);

    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
