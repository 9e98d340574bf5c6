// hopper.cu: Hopper's asynchronous copy and warpgroup-MMA path, one kernel a rung,
// each checked against a CPU reference.  Test program for coalsim's PTX
// interpreter (issue 28), run unmodified on a real H100 and under coalsim's
// own driver.  Written for coalsim; models: the PTX ISA, CUTLASS's cute/arch
// (mma_sm90_desc.hpp, copy_sm90_tma.hpp, cluster_sm90.hpp) and
// cute/atom/mma_traits_sm90_gmma.hpp, and the public Hopper GEMM tutorials
// (e.g. pranjalssh's "fast.cu" series).  No code copied.
//
// build:  nvcc -arch=sm_90a -O2 -lineinfo -o hopper gpu/hopper/hopper.cu
//         (no -lcuda: cuTensorMapEncodeTiled comes through the runtime's
//          cudaGetDriverEntryPointByVersion; <cuda.h> only for the types)
// run:    hopper [--size check|big] [--once] [--only NAME[,NAME..]]
//                [--trials T] [--launches L]
//   --size check (default): small sizes (256^3 GEMMs, 252x200 TMA tensors):
//           every output compared in full; an interpreter runs each kernel
//           in seconds.  Timing: T trials (default 1) of L launches (1).
//   --size big: 4096^3 GEMMs, 8188x8190 / 8192x8192 TMA tensors, 64 M float
//           bulk copies: outputs spot-checked (GEMMs: 1024 entries; copies
//           in full); T = 5, L = 10 by default.
//   --once: each kernel launched once, for its check (no timing): what
//           Nsight Compute and the interpreter's counters want.
// Output: a line a kernel "NAME: PASS (max rel err E)" or "NAME: FAIL ...",
// a "NAME: time ..." line (cudaEvents: median over T trials of the mean
// over L back-to-back launches), and "N passed, N failed".  Exit status 1 on
// any failure.
//
// The ladder:
//   a  tma_load_store_2d   TMA 2D tile load (no swizzle) -> shared, mbarrier
//                          with expect_tx; 2*x+1 in shared (generic proxy),
//                          fence.proxy.async, TMA 2D store (bulk_group).  The
//                          tensor (252 x 200 floats) is not a multiple of the
//                          64 x 32 box: loads zero-fill, stores clip.
//   b  tma_swizzle_{32,64,128}b  TMA load with CU_TENSOR_MAP_SWIZZLE_32B/64B/
//                          128B (box inner dim = the swizzle span); each thread
//                          reads its element at the swizzled address it works
//                          out itself (see swz() below) and writes it row-major.
//   c  bulk_copy           cp.async.bulk global->shared (mbarrier complete_tx,
//                          also mbarrier.expect_tx / complete_tx by hand), then
//                          3*x+1 and cp.async.bulk shared->global (bulk_group).
//   d  wgmma_gemm_{f16,bf16}  C(f32) = A * B, one warpgroup a 64 x 64 tile,
//                          K step 64, A and B by TMA with 128-byte swizzle,
//                          m64n64k16 from shared-memory descriptors (K-major).
//   e  wgmma_gemm_ws       warp-specialised, pipelined: 3 warpgroups (a TMA
//                          producer with setmaxnreg.dec and elect.sync, 2
//                          consumers with setmaxnreg.inc), 4-stage ring of
//                          full/empty mbarriers, 128 x 256 tile, m64n256k16.
//   f  wgmma_gemm_rega     A from registers (wgmma ... {a0..a3}, b-desc)
//      wgmma_gemm_mnb      B N-major (imm-trans-b = 1), 64 x 128 tile, m64n128k16
//      wgmma_gemm_noswz    no TMA: tiles written by st.shared in the interleaved
//                          (no-swizzle) core-matrix layout, fence.proxy.async
//      wgmma_gemm_{tf32,e4m3,s8}  m64n64k8 tf32, m64n64k32 e4m3 (f32 acc),
//                          m64n64k32 s8 (s32 acc): kernel d's code, other types
//
// Matrices: A is M x K row-major (K-major); B is K x N, stored N x K
// row-major (K-major, "TN" GEMM) except wgmma_gemm_mnb's (K x N row-major,
// N-major); C is M x N row-major, f32 (s32 for s8).  Inputs are small
// integers (e4m3: -2..2), so every f32/s32 sum is exact and the check asks
// for equality (max rel err 0); e4m3 is allowed 1e-3 (fp8 wgmma's
// accumulator is said to keep fewer bits).  A failing GEMM check is followed
// by four runs with identity matrices and index-coded operands that show
// which row and k each output took ("diag" lines).
//
// Layouts used (checked against the PTX ISA and CUTLASS, see each helper):
//  * TMA swizzle (cp.async.bulk.tensor, CU_TENSOR_MAP_SWIZZLE_{32,64,128}B):
//    the byte at offset o of the dense box lands at o ^ (((o >> 7) & M) << 4),
//    M = 1, 3, 7: the 16-byte chunk index (address bits 4..6) XORed with
//    address bits 7..9 -- CuTe's Swizzle<1|2|3,4,3> on the shared address.
//    The hardware applies it to the absolute shared address, so every tile
//    here is 1024-byte aligned (then offset and address agree).
//  * wgmma shared-memory descriptor (64 bits): start address >> 4 in bits
//    0-13, leading-dimension byte offset >> 4 in 16-29, stride-dimension
//    byte offset >> 4 in 32-45, base offset in 49-51 (0: tiles 1024-aligned),
//    layout in 62-63 (0 interleave/none, 1 128B, 2 64B, 3 32B).
//    K-major, 128B swizzle: rows of 128 bytes, 8-row groups SBO = 1024 bytes
//    apart, LBO unused (1); the k-th 32-byte slice of K is start + 32*k.
//    K-major, no swizzle: 8x16-byte core matrices (128 contiguous bytes),
//    LBO = bytes between core matrices along K, SBO = along M/N.
//    MN-major, 128B swizzle: rows of 64 MN-elements (128 bytes) along K,
//    SBO = bytes between 8-row (8 k) groups, LBO = bytes between 64-element
//    MN blocks.
//  * wgmma accumulator fragment (m64nN, f32/s32): thread t of the warpgroup,
//    warp w = t/32, lane l; register i holds row 16w + l/4 + 8*((i>>1)&1),
//    column 8*(i>>2) + 2*(l%4) + (i&1) (CUTLASS's CLayout_64xN).  Register-A
//    fragment (f16, k16, CUTLASS's ALayout_64x16): the same with N = 16, the
//    .b32 register j holding values 2j (low half) and 2j+1: row 16w + l/4
//    (+8 for j odd), k 2*(l%4) and +1 (+8 for j >= 2).

#include <cuda.h>  // CUtensorMap and its enums only (no -lcuda)
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// wgmma and setmaxnreg exist on sm_90a only.  nvcc 13's -arch=sm_90a also
// embeds a plain compute_90 PTX (and checks it with ptxas): in that one they
// are a trap.  The GPU runs the sm_90a cubin; an interpreter must take the
// compute_90a PTX (hopper.ptx is that one: nvcc -arch=sm_90a --ptx).
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HOPPER_A 1
#else
#define HOPPER_A 0
#endif

// ============================================================================
// device helpers: shared addresses, mbarriers, TMA and bulk copies, fences
// ============================================================================

__device__ unsigned int g_timeout;  // set when an mbarrier wait gave up (a hang)

__device__ __forceinline__ uint32_t smem_u32(const void* p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
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

// expect BYTES more transactions without arriving
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, uint32_t bytes)
{
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
}

// complete BYTES transactions by hand (as an async copy would)
__device__ __forceinline__ void mbar_complete_tx(uint64_t* bar, uint32_t bytes)
{
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
}

// wait for the phase of parity PARITY to complete.  Bounded: after 2^24
// failed tries it sets g_timeout and returns (the check then fails instead
// of the program hanging); after every 1024 failed tries it reads g_timeout
// and returns if it is set.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity)
{
    const uint32_t a = smem_u32(bar);
    for (uint32_t i = 0;; ++i) {
        uint32_t done;
        asm volatile("{\n.reg .pred P;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 P, [%1], %2;\n"
                     "selp.b32 %0, 1, 0, P;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
        if (done) return;
        // another block gave up already: give up too (never taken when the
        // barrier completes within 1023 tries)
        if ((i & 1023) == 1023 && *(volatile unsigned int*)&g_timeout) return;
        if (i == (1u << 24)) {
            atomicExch(&g_timeout, 1u);
            return;
        }
    }
}

// TMA 2D tile load: box at coordinates (c0 innermost, c1) -> shared DST;
// completes BOX bytes on BAR
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, uint64_t* bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
                 : "memory");
}

// TMA 2D tile store: shared SRC -> the box at (c0, c1), clipped to the tensor
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                     (uint64_t)map),
                 "r"(smem_u32(src)), "r"(c0), "r"(c1)
                 : "memory");
}

// non-tensor bulk copies (sizes and addresses multiples of 16 bytes)
__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, uint32_t bytes, uint64_t* bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
}

__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, uint32_t bytes)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(smem_u32(src)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// wait until the committed bulk stores have read their shared source
__device__ __forceinline__ void bulk_wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
// wait until they have completed (written global memory)
__device__ __forceinline__ void bulk_wait0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// make this thread's generic-proxy shared writes visible to the async proxy
// (TMA stores, bulk copies and wgmma read shared memory through it)
__device__ __forceinline__ void fence_proxy_async_shared()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// ============================================================================
// wgmma helpers
// ============================================================================

#if HOPPER_A
// order register and shared-memory accesses before the wgmmas that follow
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
// close the group of wgmmas issued since the last commit
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
// wait until no committed group is pending
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
#else
__device__ __forceinline__ void wgmma_fence() { __trap(); }
__device__ __forceinline__ void wgmma_commit() { __trap(); }
__device__ __forceinline__ void wgmma_wait0() { __trap(); }
#endif

// keep the compiler from moving accumulator registers across the async MMA
// (CUTLASS's warpgroup_fence_operand)
template <int N>
__device__ __forceinline__ void fence_regs(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N>
__device__ __forceinline__ void fence_regs(int (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// shared-memory matrix descriptor (see the header): K-major, 128-byte
// swizzle; SADDR must sit in a 1024-byte aligned 8 x 128-byte atom, plus a
// multiple of 32 bytes for the k-th k-slice (base offset 0)
__device__ __forceinline__ uint64_t desc_k_sw128(uint32_t saddr)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4)  // start address
           | (uint64_t)1 << 16                // LBO: unused for swizzled K-major ("assumed 1")
           | (uint64_t)(1024 >> 4) << 32      // SBO: 8 rows x 128 bytes
           | (uint64_t)1 << 62;               // layout: 128-byte swizzle
}

// MN-major, 128-byte swizzle: LBO between 64-element MN blocks, SBO between
// 8-k groups
__device__ __forceinline__ uint64_t desc_mn_sw128(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | (uint64_t)((lbo >> 4) & 0x3FFF) << 16 |
           (uint64_t)((sbo >> 4) & 0x3FFF) << 32 | (uint64_t)1 << 62;
}

// K-major, no swizzle (interleaved core matrices): LBO between core matrices
// along K, SBO between core matrices along M/N; layout 0
__device__ __forceinline__ uint64_t desc_k_none(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | (uint64_t)((lbo >> 4) & 0x3FFF) << 16 |
           (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
}

// write the m64nN accumulators of this warpgroup to C (row-major, ldc),
// tile origin (row0, col0); the fragment layout is in the header
template <int NR, typename Acc>
__device__ __forceinline__ void store_acc(Acc* C, int ldc, int row0, int col0, const Acc (&d)[NR])
{
    const int t = threadIdx.x % 128, w = t / 32, l = t % 32;
#pragma unroll
    for (int i = 0; i < NR; i += 2) {
        const int row = row0 + 16 * w + l / 4 + 8 * ((i >> 1) & 1);
        const int col = col0 + 8 * (i >> 2) + 2 * (l % 4);
        C[(size_t)row * ldc + col] = d[i];
        C[(size_t)row * ldc + col + 1] = d[i + 1];
    }
}

// ============================================================================
// wgmma.mma_async wrappers (one a shape and type used here).  Operand order:
// {d}, a-desc (or {a} registers), b-desc, scale-d (predicate: 0 = D = A*B,
// 1 = D += A*B), imm-scale-a, imm-scale-b (1: not negated), imm-trans-a,
// imm-trans-b (0: K-major) where the type has them.
// ============================================================================

// D(f32) (+)= A(f16, smem desc, K-major) * B(f16, smem desc, K-major); imm-scale-a/b 1, imm-trans-a/b 0
__device__ __forceinline__ void wgmma_m64n64k16_f16(float (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// the same for bf16
__device__ __forceinline__ void wgmma_m64n64k16_bf16(float (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// tf32 (k8; both K-major: tf32 has no transpose operands)
__device__ __forceinline__ void wgmma_m64n64k8_tf32(float (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// fp8 e4m3 (k32, f32 accumulator; K-major only)
__device__ __forceinline__ void wgmma_m64n64k32_e4m3(float (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// s8 (k32, s32 accumulator; no scale operands; K-major only)
__device__ __forceinline__ void wgmma_m64n64k32_s8(int (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p;\n}\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
                   "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]),
                   "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                   "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// f16, B MN-major: imm-trans-b = 1
__device__ __forceinline__ void wgmma_m64n128k16_f16_tb(float (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p, 1, 1, 0, 1;\n}\n"
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

// f16, n256 (the warp-specialised kernel's consumers)
__device__ __forceinline__ void wgmma_m64n256k16_f16(float (&d)[128], uint64_t da, uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "%128, %129, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(scale_d));
#else
    __trap();
#endif
}

// f16 with A from registers (4 x .b32 = 8 halves a thread), B from shared memory; imm-scale-a/b 1, imm-trans-b 0
__device__ __forceinline__ void wgmma_m64n64k16_f16_rs(float (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d)
{
#if HOPPER_A
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "{%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
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
// a. tma_load_store_2d
// ============================================================================
constexpr int TLS_BW = 64, TLS_BH = 32;  // the box: 64 floats x 32 rows = 8 KB

// TIN and TOUT are 2D float tensors of the same extent (TOUT with a wider
// row pitch); TILES (may be null) gets every block's whole shared tile as
// TMA left it (zeros outside the tensor), block (x, y) at (y * gridDim.x + x)
// * 2048 floats
extern "C" __global__ void __launch_bounds__(256)
    tma_load_store_2d(const __grid_constant__ CUtensorMap tin, const __grid_constant__ CUtensorMap tout, float* tiles)
{
    __shared__ __align__(1024) float tile[TLS_BH * TLS_BW];
    __shared__ __align__(8) uint64_t bar;
    const int x0 = blockIdx.x * TLS_BW, y0 = blockIdx.y * TLS_BH;
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();  // the initialised barrier, visible to the async proxy
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_arrive_expect_tx(&bar, sizeof(tile));  // the whole box: its out-of-bounds part is filled too
        tma_load_2d(tile, &tin, &bar, x0, y0);
    }
    mbar_wait(&bar, 0);
    float* dump = tiles ? tiles + ((size_t)blockIdx.y * gridDim.x + blockIdx.x) * (TLS_BH * TLS_BW) : nullptr;
    for (int i = threadIdx.x; i < TLS_BH * TLS_BW; i += blockDim.x) {
        const float v = tile[i];
        if (dump) dump[i] = v;
        tile[i] = 2.0f * v + 1.0f;
    }
    fence_proxy_async_shared();  // each writer: its st.shared before the TMA store reads them
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_store_2d(&tout, tile, x0, y0);  // clipped at the tensor's edges
        bulk_commit();
        bulk_wait_read0();  // the shared tile may not go away before the store has read it
    }
}

// ============================================================================
// b. tma_swizzle_{32,64,128}b
// ============================================================================
// The shared offset at which TMA (and wgmma) keep the byte of dense offset O
// of a box with SPAN-byte swizzle (32, 64 or 128): the 16-byte chunk index
// XOR address bits 7.., CuTe's Swizzle<log2(SPAN/16), 4, 3>.  The tile must
// be 1024-byte aligned (the hardware swizzles the absolute address).
template <int SPAN>
__device__ __forceinline__ uint32_t swz(uint32_t o)
{
    constexpr uint32_t MASK = SPAN / 16 - 1;  // 1, 3, 7
    return o ^ (((o >> 7) & MASK) << 4);
}

// TIN: a W x H u32 tensor, box SPAN/4 x 64, swizzle SPAN bytes; OUT: W x H
// row-major.  OUT equals the input only if the swizzle is the hardware's.
template <int SPAN>
__device__ __forceinline__ void tma_swizzle_body(const CUtensorMap* tin, uint32_t* out, int W, int H)
{
    constexpr int COLS = SPAN / 4, ROWS = 64;
    __shared__ __align__(1024) uint32_t tile[ROWS * COLS];
    __shared__ __align__(8) uint64_t bar;
    const int x0 = blockIdx.x * COLS, y0 = blockIdx.y * ROWS;
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_arrive_expect_tx(&bar, sizeof(tile));
        tma_load_2d(tile, tin, &bar, x0, y0);
    }
    mbar_wait(&bar, 0);
    for (int i = threadIdx.x; i < ROWS * COLS; i += blockDim.x) {
        const int r = i / COLS, c = i % COLS;
        const uint32_t v = tile[swz<SPAN>(r * SPAN + c * 4) / 4];
        const int gx = x0 + c, gy = y0 + r;
        if (gx < W && gy < H) out[(size_t)gy * W + gx] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256)
    tma_swizzle_32b(const __grid_constant__ CUtensorMap tin, uint32_t* out, int W, int H)
{
    tma_swizzle_body<32>(&tin, out, W, H);
}
extern "C" __global__ void __launch_bounds__(256)
    tma_swizzle_64b(const __grid_constant__ CUtensorMap tin, uint32_t* out, int W, int H)
{
    tma_swizzle_body<64>(&tin, out, W, H);
}
extern "C" __global__ void __launch_bounds__(256)
    tma_swizzle_128b(const __grid_constant__ CUtensorMap tin, uint32_t* out, int W, int H)
{
    tma_swizzle_body<128>(&tin, out, W, H);
}

// ============================================================================
// c. bulk_copy
// ============================================================================
constexpr int BC_CHUNK = 4096;  // floats a block (16 KB)

// out[i] = 3 * in[i] + 1, N a multiple of 4 (whole 16-byte units)
extern "C" __global__ void __launch_bounds__(256) bulk_copy(const float* in, float* out, int n)
{
    __shared__ __align__(128) float buf[BC_CHUNK];
    __shared__ __align__(8) uint64_t bar;
    const size_t base = (size_t)blockIdx.x * BC_CHUNK;
    const int cnt = min(BC_CHUNK, (int)(n - base));
    const uint32_t bytes = (uint32_t)cnt * 4;
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect_tx(&bar, 64);             // 64 bytes that no copy brings ...
        mbar_arrive_expect_tx(&bar, bytes);   // the copies' bytes, and the one arrival
        const uint32_t q = (bytes / 4) & ~15u;  // four pieces, multiples of 16 bytes
        uint32_t off = 0;
        for (int p = 0; p < 4; ++p) {
            const uint32_t len = p < 3 ? q : bytes - 3 * q;
            if (len) bulk_g2s((char*)buf + off, (const char*)(in + base) + off, len, &bar);
            off += len;
        }
        mbar_complete_tx(&bar, 64);           // ... completed by hand
    }
    mbar_wait(&bar, 0);
    for (int i = threadIdx.x; i < cnt; i += blockDim.x) buf[i] = 3.0f * buf[i] + 1.0f;
    fence_proxy_async_shared();
    __syncthreads();
    if (threadIdx.x == 0) {
        const uint32_t h = (bytes / 2) & ~15u;  // two pieces
        if (h) bulk_s2g(out + base, buf, h);
        bulk_s2g((char*)(out + base) + h, (const char*)buf + h, bytes - h);
        bulk_commit();
        bulk_wait0();
    }
}

// ============================================================================
// d. wgmma_gemm_{f16,bf16} (and f: _{tf32,e4m3,s8}): one warpgroup a 64 x 64
// tile; each k-tile is 64 rows x 128 bytes of A and of B (one 128-byte
// swizzle atom wide: 64 f16/bf16, 32 tf32, 128 8-bit elements), loaded by
// TMA, consumed by four wgmmas of 32 bytes of K each.
// ============================================================================
struct OpF16 {
    using T = __half;
    using Acc = float;
    static __device__ __forceinline__ void mma(Acc (&d)[32], uint64_t a, uint64_t b, int s) { wgmma_m64n64k16_f16(d, a, b, s); }
};
struct OpBF16 {
    using T = __nv_bfloat16;
    using Acc = float;
    static __device__ __forceinline__ void mma(Acc (&d)[32], uint64_t a, uint64_t b, int s) { wgmma_m64n64k16_bf16(d, a, b, s); }
};
struct OpTF32 {
    using T = float;
    using Acc = float;
    static __device__ __forceinline__ void mma(Acc (&d)[32], uint64_t a, uint64_t b, int s) { wgmma_m64n64k8_tf32(d, a, b, s); }
};
struct OpE4M3 {
    using T = uint8_t;
    using Acc = float;
    static __device__ __forceinline__ void mma(Acc (&d)[32], uint64_t a, uint64_t b, int s) { wgmma_m64n64k32_e4m3(d, a, b, s); }
};
struct OpS8 {
    using T = int8_t;
    using Acc = int;
    static __device__ __forceinline__ void mma(Acc (&d)[32], uint64_t a, uint64_t b, int s) { wgmma_m64n64k32_s8(d, a, b, s); }
};

template <class Op>
__device__ __forceinline__ void gemm_body(const CUtensorMap* ta, const CUtensorMap* tb, typename Op::Acc* C, int N, int K)
{
    using Acc = typename Op::Acc;
    constexpr int BK = 128 / sizeof(typename Op::T);  // elements of K a tile
    __shared__ __align__(1024) uint8_t sA[64 * 128];
    __shared__ __align__(1024) uint8_t sB[64 * 128];
    __shared__ __align__(8) uint64_t bar;
    const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    Acc d[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) d[i] = Acc(12345);  // the first wgmma (scale-d = 0) must ignore this
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
    for (int kt = 0; kt < K / BK; ++kt) {
        if (threadIdx.x == 0) {
            mbar_arrive_expect_tx(&bar, sizeof(sA) + sizeof(sB));
            tma_load_2d(sA, ta, &bar, kt * BK, m0);
            tma_load_2d(sB, tb, &bar, kt * BK, n0);
        }
        mbar_wait(&bar, kt & 1);
        wgmma_fence();
        fence_regs(d);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)  // 32 bytes of K each: k16 f16/bf16, k8 tf32, k32 e4m3/s8
            Op::mma(d, desc_k_sw128(smem_u32(sA) + 32 * kk), desc_k_sw128(smem_u32(sB) + 32 * kk), (kt | kk) != 0);
        wgmma_commit();
        fence_regs(d);
        wgmma_wait0();
        fence_regs(d);
        __syncthreads();  // every warp's wgmmas have read sA, sB before the next loads
    }
    store_acc(C, N, m0, n0, d);
}

// TA: A (M x K, K innermost), box 128 bytes x 64 rows, 128B swizzle; TB: B
// stored N x K, the same box.  Grid (N/64, M/64), 128 threads.
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_f16(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_body<OpF16>(&ta, &tb, C, N, K);
}
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_bf16(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_body<OpBF16>(&ta, &tb, C, N, K);
}
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_tf32(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_body<OpTF32>(&ta, &tb, C, N, K);
}
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_e4m3(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    gemm_body<OpE4M3>(&ta, &tb, C, N, K);
}
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_s8(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, int* C, int N, int K)
{
    gemm_body<OpS8>(&ta, &tb, C, N, K);
}

// ============================================================================
// f. wgmma_gemm_rega: A from registers.  Each thread loads its A fragment
// (rows r, r+8; k c, c+1 and c+8, c+9, see the header) straight from global
// memory; B (N x K) by TMA, 128B swizzle.  Grid (N/64, M/64), 128 threads.
// ============================================================================
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_rega(const __half* A, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    __shared__ __align__(1024) uint8_t sB[64 * 128];
    __shared__ __align__(8) uint64_t bar;
    const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    const int t = threadIdx.x, w = t / 32, l = t % 32;
    const int r = m0 + 16 * w + l / 4, c = 2 * (l % 4);
    const uint32_t* A32 = reinterpret_cast<const uint32_t*>(A);  // two halves a word
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    if (t == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
    for (int kt = 0; kt < K / 64; ++kt) {
        if (t == 0) {
            mbar_arrive_expect_tx(&bar, sizeof(sB));
            tma_load_2d(sB, &tb, &bar, kt * 64, n0);
        }
        uint32_t a[4][4];
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            const int k = kt * 64 + kk * 16 + c;
            a[kk][0] = A32[((size_t)r * K + k) / 2];            // row r,   k c..c+1
            a[kk][1] = A32[((size_t)(r + 8) * K + k) / 2];      // row r+8, k c..c+1
            a[kk][2] = A32[((size_t)r * K + k + 8) / 2];        // row r,   k c+8..c+9
            a[kk][3] = A32[((size_t)(r + 8) * K + k + 8) / 2];  // row r+8, k c+8..c+9
        }
        mbar_wait(&bar, kt & 1);
        wgmma_fence();  // also orders the A registers just written before the wgmmas read them
        fence_regs(d);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wgmma_m64n64k16_f16_rs(d, a[kk], desc_k_sw128(smem_u32(sB) + 32 * kk), 1);
        wgmma_commit();
        fence_regs(d);
        wgmma_wait0();
        fence_regs(d);
        __syncthreads();
    }
    store_acc(C, N, m0, n0, d);
}

// ============================================================================
// f. wgmma_gemm_mnb: B N-major (K x N row-major), imm-trans-b = 1.  A tile
// 64 x 64 K-major as above; B tile 64 (k) x 128 (n) as two TMA boxes of 64 n
// (128 bytes) x 64 k rows with 128B swizzle, the second 8192 bytes after the
// first: LBO = 8192 (next 64-n block), SBO = 1024 (next 8 k rows); the k-th
// k16 slice starts 16 rows = 2048 bytes further.  Grid (N/128, M/64).
// ============================================================================
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_mnb(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    __shared__ __align__(1024) uint8_t sA[64 * 128];
    __shared__ __align__(1024) uint8_t sB[2 * 64 * 128];
    __shared__ __align__(8) uint64_t bar;
    const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 128;
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) d[i] = 0.0f;
    if (threadIdx.x == 0) {
        mbar_init(&bar, 1);
        fence_proxy_async_shared();
    }
    __syncthreads();
    for (int kt = 0; kt < K / 64; ++kt) {
        if (threadIdx.x == 0) {
            mbar_arrive_expect_tx(&bar, sizeof(sA) + sizeof(sB));
            tma_load_2d(sA, &ta, &bar, kt * 64, m0);
            tma_load_2d(sB, &tb, &bar, n0, kt * 64);
            tma_load_2d(sB + 64 * 128, &tb, &bar, n0 + 64, kt * 64);
        }
        mbar_wait(&bar, kt & 1);
        wgmma_fence();
        fence_regs(d);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
            wgmma_m64n128k16_f16_tb(d, desc_k_sw128(smem_u32(sA) + 32 * kk),
                                    desc_mn_sw128(smem_u32(sB) + 2048 * kk, 8192, 1024), 1);
        wgmma_commit();
        fence_regs(d);
        wgmma_wait0();
        fence_regs(d);
        __syncthreads();
    }
    store_acc(C, N, m0, n0, d);
}

// ============================================================================
// f. wgmma_gemm_noswz: no TMA, no swizzle.  The threads copy A and B (N x K)
// tiles of 64 rows x 64 k with 16-byte loads and st.shared into the
// interleaved layout: element (row r, k) at byte (r%8)*16 + (k%8)*2 +
// (k/8)*128 + (r/8)*1024, i.e. 8 x 16-byte core matrices of 128 contiguous
// bytes, LBO = 128 (next core matrix along K), SBO = 1024 (next 8 rows); the
// k-th k16 slice starts 256 bytes further.  Grid (N/64, M/64).
// ============================================================================
extern "C" __global__ void __launch_bounds__(128)
    wgmma_gemm_noswz(const __half* A, const __half* Bt, float* C, int N, int K)
{
    __shared__ __align__(1024) uint8_t sA[64 * 128];
    __shared__ __align__(1024) uint8_t sB[64 * 128];
    const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    for (int kt = 0; kt < K / 64; ++kt) {
        for (int i = threadIdx.x; i < 64 * 8; i += blockDim.x) {  // 16-byte chunks: row i/8, k-chunk i%8
            const int r = i / 8, kc = i % 8;
            const uint4 va = *reinterpret_cast<const uint4*>(A + (size_t)(m0 + r) * K + kt * 64 + kc * 8);
            const uint4 vb = *reinterpret_cast<const uint4*>(Bt + (size_t)(n0 + r) * K + kt * 64 + kc * 8);
            const int off = (r % 8) * 16 + kc * 128 + (r / 8) * 1024;
            *reinterpret_cast<uint4*>(sA + off) = va;
            *reinterpret_cast<uint4*>(sB + off) = vb;
        }
        fence_proxy_async_shared();  // st.shared (generic proxy) -> wgmma (async proxy)
        __syncthreads();
        wgmma_fence();
        fence_regs(d);
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
            wgmma_m64n64k16_f16(d, desc_k_none(smem_u32(sA) + 256 * kk, 128, 1024),
                                desc_k_none(smem_u32(sB) + 256 * kk, 128, 1024), 1);
        wgmma_commit();
        fence_regs(d);
        wgmma_wait0();
        fence_regs(d);
        __syncthreads();
    }
    store_acc(C, N, m0, n0, d);
}

// ============================================================================
// e. wgmma_gemm_ws: warp-specialised, pipelined.  384 threads: warpgroup 0
// is the producer (setmaxnreg.dec to 40; one elected thread issues the TMA
// loads), warpgroups 1 and 2 consume (setmaxnreg.inc to 232), each 64 rows
// of the 128 x 256 tile with m64n256k16.  A ring of WS_ST stages, each with
// a "full" mbarrier (1 arrival + the TMA bytes) and an "empty" one (one
// arrival from each of the 8 consumer warps).  Tiles: A 128 rows x 64 k,
// B 256 rows x 64 k, both 128-byte swizzled.  Grid (M/128, N/256).
// ============================================================================
constexpr int WS_BM = 128, WS_BN = 256, WS_BK = 64, WS_ST = 4;
constexpr int WS_A_BYTES = WS_BM * WS_BK * 2, WS_B_BYTES = WS_BN * WS_BK * 2;
constexpr int WS_SMEM = WS_ST * (WS_A_BYTES + WS_B_BYTES) + 2 * WS_ST * 8 + 1024;  // + room to align to 1024

extern "C" __global__ void __launch_bounds__(384, 1)
    wgmma_gemm_ws(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C, int N, int K)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t* sm = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);  // 1024-byte aligned
    uint8_t* sA = sm;
    uint8_t* sB = sm + WS_ST * WS_A_BYTES;
    uint64_t* full = reinterpret_cast<uint64_t*>(sB + WS_ST * WS_B_BYTES);
    uint64_t* empty = full + WS_ST;
    const int wg = threadIdx.x / 128;
    const int m0 = blockIdx.x * WS_BM, n0 = blockIdx.y * WS_BN, KT = K / WS_BK;
    if (threadIdx.x == 0) {
        for (int s = 0; s < WS_ST; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        fence_proxy_async_shared();
    }
    __syncthreads();
    if (wg == 0) {  // producer
#if HOPPER_A
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");  // give registers back
#endif
        if (threadIdx.x / 32 == 0 && elect_one()) {
            for (int kt = 0; kt < KT; ++kt) {
                const int s = kt % WS_ST;
                if (kt >= WS_ST) mbar_wait(&empty[s], ((kt / WS_ST) - 1) & 1);  // consumers done with round kt/WS_ST - 1
                mbar_arrive_expect_tx(&full[s], WS_A_BYTES + WS_B_BYTES);
                tma_load_2d(sA + s * WS_A_BYTES, &ta, &full[s], kt * WS_BK, m0);
                tma_load_2d(sB + s * WS_B_BYTES, &tb, &full[s], kt * WS_BK, n0);
            }
        }
    } else {  // consumers
#if HOPPER_A
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");  // 128 x 40 + 256 x 232 <= 64 K
#endif
        const int cw = wg - 1;
        float d[128];
#pragma unroll
        for (int i = 0; i < 128; ++i) d[i] = 0.0f;
        for (int kt = 0; kt < KT; ++kt) {
            const int s = kt % WS_ST;
            mbar_wait(&full[s], (kt / WS_ST) & 1);
            const uint32_t a = smem_u32(sA + s * WS_A_BYTES + cw * 64 * 128), b = smem_u32(sB + s * WS_B_BYTES);
            wgmma_fence();
            fence_regs(d);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) wgmma_m64n256k16_f16(d, desc_k_sw128(a + 32 * kk), desc_k_sw128(b + 32 * kk), 1);
            wgmma_commit();
            fence_regs(d);
            wgmma_wait0();
            fence_regs(d);
            if (threadIdx.x % 32 == 0) mbar_arrive(&empty[s]);  // this warp is done with stage s
        }
        store_acc(C, N, m0 + cw * 64, n0, d);
    }
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
// a. tma_load_store_2d
// ============================================================================
static void test_tma_load_store()
{
    const char* name = "tma_load_store_2d";
    if (!selected(name)) return;
    // W, H not multiples of the 64 x 32 box; row pitch W*4 a multiple of 16
    const int W = g_opt.big ? 8188 : 252, H = g_opt.big ? 8190 : 200;
    const int OP = W + 4, OH = H + 8;  // the output's pitch (floats) and rows: a margin that must stay untouched
    const int gx = (W + TLS_BW - 1) / TLS_BW, gy = (H + TLS_BH - 1) / TLS_BH;
    std::vector<float> in((size_t)W * H);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) in[(size_t)y * W + x] = (float)((y * 1000 + x + 1) % 4000000);
    float* din = dev_alloc<float>(in.size());
    float* dout = dev_alloc<float>((size_t)OP * OH);
    const bool dump = !g_opt.big;
    const size_t ntiles = (size_t)gx * gy * TLS_BW * TLS_BH;
    float* dtiles = dump ? dev_alloc<float>(ntiles) : nullptr;
    CK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xFF, (size_t)OP * OH * 4));  // 0xFFFFFFFF: never written
    if (dump) CK(cudaMemset(dtiles, 0xFF, ntiles * 4));
    CUtensorMap tin, tout;
    if (!tmap_2d(&tin, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, din, W, H, (uint64_t)W * 4, TLS_BW, TLS_BH,
                 CU_TENSOR_MAP_SWIZZLE_NONE) ||
        !tmap_2d(&tout, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dout, W, H, (uint64_t)OP * 4, TLS_BW, TLS_BH,
                 CU_TENSOR_MAP_SWIZZLE_NONE)) {
        verdict(name, false, "tensor map refused");
        return;
    }
    auto launch = [&] { tma_load_store_2d<<<dim3(gx, gy), 256>>>(tin, tout, dtiles); };
    launch();
    bool ok = finish_launch(name);
    std::vector<uint32_t> out((size_t)OP * OH), tiles(dump ? ntiles : 0);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    if (dump) CK(cudaMemcpy(tiles.data(), dtiles, ntiles * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0, n = 0;
    auto complain = [&](const char* what, int x, int y, uint32_t got, uint32_t want) {
        if (bad++ < 6) printf("  %s (x %d, y %d): got 0x%08x want 0x%08x\n", what, x, y, got, want);
    };
    // the tiles as loaded: the input, zeros outside it
    for (int by = 0; dump && by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx)
            for (int r = 0; r < TLS_BH; ++r)
                for (int c = 0; c < TLS_BW; ++c) {
                    const int x = bx * TLS_BW + c, y = by * TLS_BH + r;
                    const float want = (x < W && y < H) ? in[(size_t)y * W + x] : 0.0f;
                    uint32_t w;
                    memcpy(&w, &want, 4);
                    const uint32_t got = tiles[((size_t)by * gx + bx) * (TLS_BW * TLS_BH) + r * TLS_BW + c];
                    ++n;
                    if (got != w) complain("loaded tile", x, y, got, w);
                }
    // the store: 2x+1 inside the tensor, the margin untouched (clipped)
    for (int y = 0; y < OH; ++y)
        for (int x = 0; x < OP; ++x) {
            uint32_t w = 0xFFFFFFFFu;
            if (x < W && y < H) {
                const float f = 2.0f * in[(size_t)y * W + x] + 1.0f;
                memcpy(&w, &f, 4);
            }
            ++n;
            if (out[(size_t)y * OP + x] != w) complain("stored", x, y, out[(size_t)y * OP + x], w);
        }
    char detail[160];
    if (bad) snprintf(detail, sizeof detail, "%zu of %zu values wrong", bad, n);
    else snprintf(detail, sizeof detail, "max rel err 0, %zu values: zero fill and clipping exact", n);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, 2.0 * W * H * 4 / 1e9, "GB/s (read + write)");
    cudaFree(din);
    cudaFree(dout);
    if (dtiles) cudaFree(dtiles);
}

// ============================================================================
// b. tma_swizzle_{32,64,128}b
// ============================================================================
template <int SPAN>
static void test_tma_swizzle(const char* name, void (*kernel)(CUtensorMap, uint32_t*, int, int))
{
    if (!selected(name)) return;
    const int W = g_opt.big ? 8192 : 256, H = g_opt.big ? 8190 : 200;  // H not a multiple of the 64-row box
    const int COLS = SPAN / 4;
    const CUtensorMapSwizzle sw = SPAN == 32   ? CU_TENSOR_MAP_SWIZZLE_32B
                                  : SPAN == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                               : CU_TENSOR_MAP_SWIZZLE_128B;
    std::vector<uint32_t> in((size_t)W * H);
    for (size_t i = 0; i < in.size(); ++i) in[i] = (uint32_t)(mix64(i + SPAN) & 0xFFFF0000u) | (uint32_t)(i & 0xFFFF);
    uint32_t* din = dev_alloc<uint32_t>(in.size());
    uint32_t* dout = dev_alloc<uint32_t>(in.size());
    CK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xFF, in.size() * 4));
    CUtensorMap tin;
    if (!tmap_2d(&tin, CU_TENSOR_MAP_DATA_TYPE_UINT32, din, W, H, (uint64_t)W * 4, COLS, 64, sw)) {
        verdict(name, false, "tensor map refused");
        return;
    }
    const dim3 grid(W / COLS, (H + 63) / 64);
    auto launch = [&] { kernel<<<grid, 256>>>(tin, dout, W, H); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out(in.size());
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < in.size(); ++i)
        if (out[i] != in[i] && bad++ < 6) {
            // which input element landed here: its (x, y) from the low half, when it is ours
            printf("  (x %zu, y %zu): got 0x%08x want 0x%08x\n", i % W, i / W, out[i], in[i]);
        }
    char detail[160];
    if (bad) snprintf(detail, sizeof detail, "%zu of %zu values wrong", bad, in.size());
    else snprintf(detail, sizeof detail, "max rel err 0, %zu values: the swizzle is Swizzle<%d,4,3>", in.size(),
                  SPAN == 32 ? 1 : SPAN == 64 ? 2 : 3);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, 2.0 * W * H * 4 / 1e9, "GB/s (read + write)");
    cudaFree(din);
    cudaFree(dout);
}

// ============================================================================
// c. bulk_copy
// ============================================================================
static void test_bulk_copy()
{
    const char* name = "bulk_copy";
    if (!selected(name)) return;
    const int n = (g_opt.big ? 64 * 1024 * 1024 : 65536) + 1000;  // the last block copies 1000 floats
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = (float)(i % 1000003);
    float* din = dev_alloc<float>(n);
    float* dout = dev_alloc<float>(n + 64);
    CK(cudaMemcpy(din, in.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xFF, (size_t)(n + 64) * 4));
    const int grid = (n + BC_CHUNK - 1) / BC_CHUNK;
    auto launch = [&] { bulk_copy<<<grid, 256>>>(din, dout, n); };
    launch();
    const bool ok = finish_launch(name);
    std::vector<uint32_t> out(n + 64);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int i = 0; i < n + 64; ++i) {
        uint32_t w = 0xFFFFFFFFu;
        if (i < n) {
            const float f = 3.0f * in[i] + 1.0f;
            memcpy(&w, &f, 4);
        }
        if (out[i] != w && bad++ < 6) printf("  [%d]: got 0x%08x want 0x%08x\n", i, out[i], w);
    }
    char detail[160];
    if (bad) snprintf(detail, sizeof detail, "%zu of %d values wrong", bad, n + 64);
    else snprintf(detail, sizeof detail, "max rel err 0, %d values and a 64-float margin", n);
    verdict(name, ok && !bad, detail);
    time_it(name, launch, 2.0 * n * 4 / 1e9, "GB/s (read + write)");
    cudaFree(din);
    cudaFree(dout);
}

// ============================================================================
// GEMMs
// ============================================================================
enum GemmKind { G_F16, G_BF16, G_TF32, G_E4M3, G_S8, G_REGA, G_MNB, G_NOSWZ, G_WS };
struct GemmSpec {
    const char* name;
    GemmKind kind;
    int eb;          // bytes an element of A and B
    double tol;      // max relative error allowed
    int code_mod;    // diag: index codes modulo this (exactly representable)
    const char* ops; // "TFLOP/s" or "TOP/s"
};

static uint8_t to_e4m3(float v)  // exact for the small integers used here (|v| <= 16 and integral or .5)
{
    if (v == 0.0f) return 0;
    uint8_t s = v < 0 ? 0x80 : 0;
    float a = fabsf(v);
    int e = (int)floorf(log2f(a));
    const int m = (int)lrintf((a / ldexpf(1.0f, e) - 1.0f) * 8.0f);
    return (uint8_t)(s | ((e + 7) << 3) | m);
}

// ROWS x COLS floats (row-major) -> bytes of the kernel's element type
static std::vector<uint8_t> pack(const std::vector<float>& v, GemmKind kind, int eb)
{
    std::vector<uint8_t> out(v.size() * eb);
    for (size_t i = 0; i < v.size(); ++i) {
        switch (kind) {
        case G_BF16: {
            const __nv_bfloat16 h = __float2bfloat16(v[i]);
            memcpy(&out[i * 2], &h, 2);
            break;
        }
        case G_TF32: memcpy(&out[i * 4], &v[i], 4); break;
        case G_E4M3: out[i] = to_e4m3(v[i]); break;
        case G_S8: out[i] = (uint8_t)(int8_t)lrintf(v[i]); break;
        default: {
            const __half h = __float2half(v[i]);
            memcpy(&out[i * 2], &h, 2);
        }
        }
    }
    return out;
}

// one GEMM problem on the device: logical A (M x K), B (K x N), packed as the kernel wants
struct GemmRun {
    const GemmSpec& g;
    int M, N, K;
    void *dA = nullptr, *dB = nullptr, *dC = nullptr;
    CUtensorMap ta, tb;
    bool ok = true;

    GemmRun(const GemmSpec& g_, int M_, int N_, int K_) : g(g_), M(M_), N(N_), K(K_)
    {
        CK(cudaMalloc(&dA, (size_t)M * K * g.eb));
        CK(cudaMalloc(&dB, (size_t)K * N * g.eb));
        CK(cudaMalloc(&dC, (size_t)M * N * 4));
        const CUtensorMapDataType tt = g.kind == G_BF16   ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                       : g.kind == G_TF32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                       : g.eb == 1        ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                                          : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
        const uint32_t bk = 128 / g.eb;  // one 128-byte swizzle row of K
        const CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_128B;
        switch (g.kind) {
        case G_NOSWZ: break;
        case G_REGA: ok = tmap_2d(&tb, tt, dB, K, N, (uint64_t)K * g.eb, bk, 64, sw); break;
        case G_MNB:
            ok = tmap_2d(&ta, tt, dA, K, M, (uint64_t)K * g.eb, bk, 64, sw) &&
                 tmap_2d(&tb, tt, dB, N, K, (uint64_t)N * g.eb, 64, 64, sw);  // B: K x N, N innermost
            break;
        case G_WS:
            ok = tmap_2d(&ta, tt, dA, K, M, (uint64_t)K * g.eb, WS_BK, WS_BM, sw) &&
                 tmap_2d(&tb, tt, dB, K, N, (uint64_t)K * g.eb, WS_BK, WS_BN, sw);
            break;
        default:
            ok = tmap_2d(&ta, tt, dA, K, M, (uint64_t)K * g.eb, bk, 64, sw) &&
                 tmap_2d(&tb, tt, dB, K, N, (uint64_t)K * g.eb, bk, 64, sw);
        }
        if (g.kind == G_WS) CK(cudaFuncSetAttribute(wgmma_gemm_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, WS_SMEM));
    }
    ~GemmRun()
    {
        cudaFree(dA);
        cudaFree(dB);
        cudaFree(dC);
    }
    void upload(const std::vector<float>& A, const std::vector<float>& B)
    {
        std::vector<float> Bs((size_t)K * N);
        if (g.kind == G_MNB) Bs = B;  // K x N row-major
        else
            for (int k = 0; k < K; ++k)
                for (int n = 0; n < N; ++n) Bs[(size_t)n * K + k] = B[(size_t)k * N + n];  // N x K
        const std::vector<uint8_t> pa = pack(A, g.kind, g.eb), pb = pack(Bs, g.kind, g.eb);
        CK(cudaMemcpy(dA, pa.data(), pa.size(), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, pb.data(), pb.size(), cudaMemcpyHostToDevice));
        CK(cudaMemset(dC, 0xFF, (size_t)M * N * 4));  // NaN (or -1) where nothing is written
    }
    void launch()
    {
        float* Cf = (float*)dC;
        switch (g.kind) {
        case G_F16: wgmma_gemm_f16<<<dim3(N / 64, M / 64), 128>>>(ta, tb, Cf, N, K); break;
        case G_BF16: wgmma_gemm_bf16<<<dim3(N / 64, M / 64), 128>>>(ta, tb, Cf, N, K); break;
        case G_TF32: wgmma_gemm_tf32<<<dim3(N / 64, M / 64), 128>>>(ta, tb, Cf, N, K); break;
        case G_E4M3: wgmma_gemm_e4m3<<<dim3(N / 64, M / 64), 128>>>(ta, tb, Cf, N, K); break;
        case G_S8: wgmma_gemm_s8<<<dim3(N / 64, M / 64), 128>>>(ta, tb, (int*)dC, N, K); break;
        case G_REGA: wgmma_gemm_rega<<<dim3(N / 64, M / 64), 128>>>((const __half*)dA, tb, Cf, N, K); break;
        case G_MNB: wgmma_gemm_mnb<<<dim3(N / 128, M / 64), 128>>>(ta, tb, Cf, N, K); break;
        case G_NOSWZ:
            wgmma_gemm_noswz<<<dim3(N / 64, M / 64), 128>>>((const __half*)dA, (const __half*)dB, Cf, N, K);
            break;
        case G_WS: wgmma_gemm_ws<<<dim3(M / WS_BM, N / WS_BN), 384, WS_SMEM>>>(ta, tb, Cf, N, K); break;
        }
    }
    std::vector<double> download()
    {
        std::vector<double> C((size_t)M * N);
        std::vector<uint32_t> raw((size_t)M * N);
        CK(cudaMemcpy(raw.data(), dC, raw.size() * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < raw.size(); ++i) {
            if (g.kind == G_S8) C[i] = (double)(int32_t)raw[i];
            else {
                float f;
                memcpy(&f, &raw[i], 4);
                C[i] = f;
            }
        }
        return C;
    }
};

// logical inputs: integers in [-3, 3] (exact in every type used)
struct GemmData {
    int M, N, K;
    std::vector<float> A, B;
    std::vector<double> C;  // full reference (check size only)
};

static const GemmData& gemm_data(int M, int N, int K)
{
    static std::vector<GemmData*> cache;
    for (GemmData* d : cache)
        if (d->M == M && d->N == N && d->K == K) return *d;
    GemmData* d = new GemmData{M, N, K, {}, {}, {}};
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
    cache.push_back(d);
    return *d;
}

// on a failed check: four runs with identity matrices and index-coded
// operands, printed for a few rows and columns of the first tile
static void gemm_diag(GemmRun& run)
{
    const int M = run.M, N = run.N, K = run.K, mod = run.g.code_mod;
    if (K < M || K < N) return;
    static const int rows[8] = {0, 1, 4, 8, 9, 16, 32, 63}, cols[8] = {0, 1, 2, 7, 8, 9, 16, 63};
    const char* what[4] = {"A=I, B[k][n]=k: C[m][n] should be m", "A=I, B[k][n]=n: should be n",
                           "B=I, A[m][k]=m: should be m", "B=I, A[m][k]=k: should be n"};
    std::vector<float> A((size_t)M * K), B((size_t)K * N);
    for (int v = 0; v < 4; ++v) {
        for (int m = 0; m < M; ++m)
            for (int k = 0; k < K; ++k)
                A[(size_t)m * K + k] = v < 2 ? (m == k ? 1.0f : 0.0f) : (float)((v == 2 ? m : k) % mod);
        for (int k = 0; k < K; ++k)
            for (int n = 0; n < N; ++n)
                B[(size_t)k * N + n] = v >= 2 ? (k == n ? 1.0f : 0.0f) : (float)((v == 0 ? k : n) % mod);
        run.upload(A, B);
        run.launch();
        finish_launch(run.g.name);
        const std::vector<double> C = run.download();
        size_t bad = 0;
        for (int m = 0; m < M; ++m)
            for (int n = 0; n < N; ++n) bad += C[(size_t)m * N + n] != (double)(((v == 0 || v == 2) ? m : n) % mod);
        printf("  diag %s (codes mod %d): %zu wrong; rows 0 1 4 8 9 16 32 63 x cols 0 1 2 7 8 9 16 63:\n", what[v], mod,
               bad);
        for (int r : rows) {
            printf("    ");
            for (int c : cols) printf(" %6g", C[(size_t)r * N + c]);
            printf("\n");
        }
    }
}

static void test_gemm(const GemmSpec& g)
{
    if (!selected(g.name)) return;
    const int S = g_opt.big ? 4096 : 256;
    const int M = S, N = S, K = (g.kind == G_WS && !g_opt.big) ? 512 : S;  // ws: K = 8 tiles, the ring wraps twice
    const GemmData& data = gemm_data(M, N, K);
    GemmRun run(g, M, N, K);
    if (!run.ok) {
        verdict(g.name, false, "tensor map refused");
        return;
    }
    run.upload(data.A, data.B);
    run.launch();
    bool ok = finish_launch(g.name);
    const std::vector<double> C = run.download();
    double maxrel = 0;
    size_t bad = 0, n = 0;
    auto cmp = [&](int m, int nn, double ref) {
        const double got = C[(size_t)m * N + nn];
        const double rel = std::isnan(got) ? INFINITY : fabs(got - ref) / std::max(1.0, fabs(ref));
        maxrel = std::max(maxrel, rel);
        ++n;
        if (rel > g.tol && bad++ < 6) printf("  C[%d][%d]: got %.9g want %.9g\n", m, nn, got, ref);
    };
    if (!g_opt.big) {
        for (int m = 0; m < M; ++m)
            for (int nn = 0; nn < N; ++nn) cmp(m, nn, data.C[(size_t)m * N + nn]);
    } else {  // spot check: 1024 entries, the reference computed here
        for (int s = 0; s < 1024; ++s) {
            const int m = (int)(mix64(3 * s + 7) % M), nn = (int)(mix64(5 * s + 11) % N);
            double ref = 0;
            for (int k = 0; k < K; ++k) ref += (double)data.A[(size_t)m * K + k] * data.B[(size_t)k * N + nn];
            cmp(m, nn, ref);
        }
    }
    char detail[200];
    snprintf(detail, sizeof detail, "max rel err %.3g, %zu of %zu entries beyond %.0e, M N K %d %d %d", maxrel, bad, n,
             g.tol, M, N, K);
    verdict(g.name, ok && !bad, detail);
    if ((!ok || bad) && !g_opt.big) gemm_diag(run);
    if (!ok || bad) run.upload(data.A, data.B);
    time_it(g.name, [&] { run.launch(); }, 2.0 * M * N * K / 1e12, g.ops);
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
    printf("device: %s, sm_%d%d, %d SMs, %zu KB shared a block (opt-in)\n", p.name, p.major, p.minor,
           p.multiProcessorCount, (size_t)p.sharedMemPerBlockOptin / 1024);
    printf("size: %s%s\n", g_opt.big ? "big" : "check", g_opt.once ? ", once (no timing)" : "");
    fflush(stdout);
    if (p.major < 9) {
        printf("needs sm_90 (Hopper)\n");
        return 1;
    }

    test_tma_load_store();
    test_tma_swizzle<32>("tma_swizzle_32b", tma_swizzle_32b);
    test_tma_swizzle<64>("tma_swizzle_64b", tma_swizzle_64b);
    test_tma_swizzle<128>("tma_swizzle_128b", tma_swizzle_128b);
    test_bulk_copy();
    static const GemmSpec gemms[] = {
        {"wgmma_gemm_f16", G_F16, 2, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_bf16", G_BF16, 2, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_rega", G_REGA, 2, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_mnb", G_MNB, 2, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_noswz", G_NOSWZ, 2, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_tf32", G_TF32, 4, 1e-6, 256, "TFLOP/s"},
        {"wgmma_gemm_e4m3", G_E4M3, 1, 1e-3, 16, "TFLOP/s"},
        {"wgmma_gemm_s8", G_S8, 1, 0, 128, "TOP/s"},
        {"wgmma_gemm_ws", G_WS, 2, 1e-6, 256, "TFLOP/s"},
    };
    for (const GemmSpec& g : gemms) test_gemm(g);

    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
