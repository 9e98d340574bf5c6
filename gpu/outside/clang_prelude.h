/* What clang needs to compile the suite's device code without the CUDA
 * headers (clang 14 cannot parse CUDA 13's): the CUDA keywords, the vector
 * types the kernels use, and the intrinsics they call, on clang's NVPTX
 * builtins.  Used by check_list.sh when CLANG is set:
 *   clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -O3 -S
 *         -Xclang -target-feature -Xclang +ptx70
 *         -include __clang_cuda_builtin_vars.h -include gpu/outside/clang_prelude.h FILE.cu
 * (+ptx70: without a CUDA install clang assumes a PTX ISA too old for the
 * *_sync intrinsics).  Only what the suite uses is here, so it is not a CUDA
 * header; files that include cooperative_groups.h or cuda_fp16.h, and
 * sgemm.cu's device assert(), still need the real headers (README.md). */
#ifndef COALSIM_CLANG_PRELUDE_H
#define COALSIM_CLANG_PRELUDE_H
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
typedef unsigned int uint;
typedef __SIZE_TYPE__ size_t;
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
struct uchar1 { unsigned char x; };
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };
struct double3 { double x, y, z; };
static __device__ __forceinline__ int __shfl_down_sync(unsigned m, int v, unsigned d) { return __nvvm_shfl_sync_down_i32(m, v, d, 0x1f); }
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ unsigned __activemask() { unsigned r; asm volatile("activemask.b32 %0;" : "=r"(r)); return r; }
static __device__ __forceinline__ int __reduce_add_sync(unsigned m, int v) { return __nvvm_redux_sync_add(v, m); }
static __device__ __forceinline__ float __ldg(const float *p) { return __nvvm_ldg_f(p); }
static __device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
static __device__ __forceinline__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
static __device__ __forceinline__ void __syncwarp(unsigned m = 0xffffffff) { __nvvm_bar_warp_sync(m); }
static __device__ __forceinline__ int __ffs(int x) { return x ? __builtin_ctz(x) + 1 : 0; }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __shfl_sync(unsigned m, int v, int l) { return __nvvm_shfl_sync_idx_i32(m, v, l, 0x1f); }
static __device__ __forceinline__ unsigned long long __shfl_sync(unsigned m, unsigned long long v, int l) {
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    lo = __nvvm_shfl_sync_idx_i32(m, lo, l, 0x1f); hi = __nvvm_shfl_sync_idx_i32(m, hi, l, 0x1f);
    return ((unsigned long long)hi << 32) | lo; }
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void *p) { size_t r; asm("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p)); return r; }
extern "C" __device__ double __nv_sin(double);
static __device__ __forceinline__ double sin(double x) { return __nv_sin(x); }

#endif
