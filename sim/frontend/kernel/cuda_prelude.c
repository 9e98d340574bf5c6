/* What clang needs to compile CUDA device code with no NVIDIA headers
 * (-nocudainc): the keywords, the built-in variables, and the device
 * functions kernels call most, written on clang's NVPTX builtins.  Fast
 * transcendental functions (expf, logf, sinf, cosf) use the hardware's
 * approximate instructions, as nvcc's -use_fast_math does. */
#include <stdio.h>
#include <string.h>

#include "frontend/kernel/compile.h"

static const char prelude[] =
    "/* coalsim's CUDA prelude for clang -nocudainc (generated; do not edit) */\n"
    "#pragma once\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n"
    "#define __managed__ __attribute__((managed))\n"
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
    "#define __forceinline__ __inline__ __attribute__((always_inline))\n"
    "#define __noinline__ __attribute__((noinline))\n"
    "#define __restrict__ __restrict\n"
    "#define __CUDACC__ 1\n"
    "#define __CUDA_ARCH__ 800\n"
    "#include <__clang_cuda_builtin_vars.h>\n"
    "typedef unsigned long size_t;\n"
    "#define CD static __device__ __inline__ __attribute__((always_inline))\n"
    "struct __attribute__((aligned(8))) float2 { float x, y; };\n"
    "struct __attribute__((aligned(16))) float4 { float x, y, z, w; };\n"
    "struct __attribute__((aligned(8))) int2 { int x, y; };\n"
    "struct __attribute__((aligned(16))) int4 { int x, y, z, w; };\n"
    "struct __attribute__((aligned(8))) uint2 { unsigned x, y; };\n"
    "struct __attribute__((aligned(16))) uint4 { unsigned x, y, z, w; };\n"
    "struct __attribute__((aligned(16))) double2 { double x, y; };\n"
    "struct float3 { float x, y, z; };\n"
    "struct int3 { int x, y, z; };\n"
    "CD float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }\n"
    "CD float3 make_float3(float x, float y, float z) { float3 v = {x, y, z}; return v; }\n"
    "CD float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }\n"
    "CD int2 make_int2(int x, int y) { int2 v = {x, y}; return v; }\n"
    "CD int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }\n"
    "CD float __int_as_float(int i) { return __builtin_bit_cast(float, i); }\n"
    "CD int __float_as_int(float f) { return __builtin_bit_cast(int, f); }\n"
    "CD unsigned __float_as_uint(float f) { return __builtin_bit_cast(unsigned, f); }\n"
    "CD float __uint_as_float(unsigned i) { return __builtin_bit_cast(float, i); }\n"
    "CD int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }\n"
    "CD int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }\n"
    "CD int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }\n"
    "CD void __syncwarp(unsigned m = 0xffffffffu) { __nvvm_bar_warp_sync(m); }\n"
    "CD void __threadfence(void) { __nvvm_membar_gl(); }\n"
    "CD void __threadfence_block(void) { __nvvm_membar_cta(); }\n"
    "CD int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }\n"
    "CD unsigned atomicAdd(unsigned *p, unsigned v) { return __nvvm_atom_add_gen_i((int *)p, (int)v); }\n"
    "CD unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __nvvm_atom_add_gen_ll((long long *)p, (long long)v); }\n"
    "CD float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }\n"
    "CD double atomicAdd(double *p, double v) { return __nvvm_atom_add_gen_d(p, v); }\n"
    "CD int atomicSub(int *p, int v) { return __nvvm_atom_add_gen_i(p, -v); }\n"
    "CD unsigned atomicSub(unsigned *p, unsigned v) { return __nvvm_atom_add_gen_i((int *)p, -(int)v); }\n"
    "CD int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }\n"
    "CD unsigned atomicExch(unsigned *p, unsigned v) { return __nvvm_atom_xchg_gen_i((int *)p, (int)v); }\n"
    "CD float atomicExch(float *p, float v) { return __int_as_float(__nvvm_atom_xchg_gen_i((int *)p, __float_as_int(v))); }\n"
    "CD int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }\n"
    "CD unsigned atomicMin(unsigned *p, unsigned v) { return __nvvm_atom_min_gen_ui(p, v); }\n"
    "CD int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }\n"
    "CD unsigned atomicMax(unsigned *p, unsigned v) { return __nvvm_atom_max_gen_ui(p, v); }\n"
    "CD int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }\n"
    "CD int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }\n"
    "CD int atomicXor(int *p, int v) { return __nvvm_atom_xor_gen_i(p, v); }\n"
    "CD unsigned atomicInc(unsigned *p, unsigned v) { return __nvvm_atom_inc_gen_ui(p, v); }\n"
    "CD unsigned atomicDec(unsigned *p, unsigned v) { return __nvvm_atom_dec_gen_ui(p, v); }\n"
    "CD int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }\n"
    "CD unsigned atomicCAS(unsigned *p, unsigned c, unsigned v) { return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v); }\n"
    "CD unsigned long long atomicCAS(unsigned long long *p, unsigned long long c, unsigned long long v) { return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)p, (long long)c, (long long)v); }\n"
    "CD int __shfl_sync(unsigned m, int v, int l, int w = 32) { return __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - w) << 8) | 0x1f); }\n"
    "CD float __shfl_sync(unsigned m, float v, int l, int w = 32) { return __nvvm_shfl_sync_idx_f32(m, v, l, ((32 - w) << 8) | 0x1f); }\n"
    "CD unsigned __shfl_sync(unsigned m, unsigned v, int l, int w = 32) { return (unsigned)__nvvm_shfl_sync_idx_i32(m, (int)v, l, ((32 - w) << 8) | 0x1f); }\n"
    "CD int __shfl_up_sync(unsigned m, int v, unsigned d, int w = 32) { return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8); }\n"
    "CD float __shfl_up_sync(unsigned m, float v, unsigned d, int w = 32) { return __nvvm_shfl_sync_up_f32(m, v, d, (32 - w) << 8); }\n"
    "CD int __shfl_down_sync(unsigned m, int v, unsigned d, int w = 32) { return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f); }\n"
    "CD float __shfl_down_sync(unsigned m, float v, unsigned d, int w = 32) { return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f); }\n"
    "CD unsigned __shfl_down_sync(unsigned m, unsigned v, unsigned d, int w = 32) { return (unsigned)__nvvm_shfl_sync_down_i32(m, (int)v, d, ((32 - w) << 8) | 0x1f); }\n"
    "CD int __shfl_xor_sync(unsigned m, int v, int x, int w = 32) { return __nvvm_shfl_sync_bfly_i32(m, v, x, ((32 - w) << 8) | 0x1f); }\n"
    "CD float __shfl_xor_sync(unsigned m, float v, int x, int w = 32) { return __nvvm_shfl_sync_bfly_f32(m, v, x, ((32 - w) << 8) | 0x1f); }\n"
    "CD unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }\n"
    "CD int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }\n"
    "CD int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }\n"
    "CD unsigned __activemask(void) { unsigned r; asm volatile(\"activemask.b32 %0;\" : \"=r\"(r)); return r; }\n"
    "CD int __popc(unsigned v) { return __builtin_popcount(v); }\n"
    "CD int __popcll(unsigned long long v) { return __builtin_popcountll(v); }\n"
    "CD int __clz(int v) { return v ? __builtin_clz((unsigned)v) : 32; }\n"
    "CD int __ffs(int v) { return v ? __builtin_ctz((unsigned)v) + 1 : 0; }\n"
    "CD unsigned __brev(unsigned v) { return __builtin_bitreverse32(v); }\n"
    "CD int min(int a, int b) { return a < b ? a : b; }\n"
    "CD int max(int a, int b) { return a > b ? a : b; }\n"
    "CD unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }\n"
    "CD unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }\n"
    "CD float min(float a, float b) { return __builtin_fminf(a, b); }\n"
    "CD float max(float a, float b) { return __builtin_fmaxf(a, b); }\n"
    "CD float fminf(float a, float b) { return __builtin_fminf(a, b); }\n"
    "CD float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }\n"
    "CD float fabsf(float a) { return __builtin_fabsf(a); }\n"
    "CD double fabs(double a) { return __builtin_fabs(a); }\n"
    "CD float sqrtf(float a) { return __nvvm_sqrt_rn_f(a); }\n"
    "CD double sqrt(double a) { return __nvvm_sqrt_rn_d(a); }\n"
    "CD float rsqrtf(float a) { return __nvvm_rsqrt_approx_f(a); }\n"
    "CD float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }\n"
    "CD double fma(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }\n"
    "CD float floorf(float a) { return __builtin_floorf(a); }\n"
    "CD float ceilf(float a) { return __builtin_ceilf(a); }\n"
    "CD float truncf(float a) { return __builtin_truncf(a); }\n"
    "CD float roundf(float a) { return __builtin_roundf(a); }\n"
    "CD float __expf(float a) { return __nvvm_ex2_approx_f(a * 1.4426950408889634f); }\n"
    "CD float expf(float a) { return __expf(a); }\n"
    "CD float exp2f(float a) { return __nvvm_ex2_approx_f(a); }\n"
    "CD float __logf(float a) { return __nvvm_lg2_approx_f(a) * 0.6931471805599453f; }\n"
    "CD float logf(float a) { return __logf(a); }\n"
    "CD float log2f(float a) { return __nvvm_lg2_approx_f(a); }\n"
    "CD float __sinf(float a) { return __nvvm_sin_approx_f(a); }\n"
    "CD float __cosf(float a) { return __nvvm_cos_approx_f(a); }\n"
    "CD float sinf(float a) { return __sinf(a); }\n"
    "CD float cosf(float a) { return __cosf(a); }\n"
    "CD float __powf(float a, float b) { return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a)); }\n"
    "CD float powf(float a, float b) { return __powf(a, b); }\n"
    "CD float __fdividef(float a, float b) { return __nvvm_div_approx_f(a, b); }\n"
    "CD float tanhf(float a) { float e = __expf(2.0f * a); return (e - 1.0f) / (e + 1.0f); }\n"
    "CD float __ldg(const float *p) { return __nvvm_ldg_f(p); }\n"
    "CD int __ldg(const int *p) { return __nvvm_ldg_i(p); }\n"
    "CD unsigned __ldg(const unsigned *p) { return (unsigned)__nvvm_ldg_i((const int *)p); }\n"
    "CD double __ldg(const double *p) { return __nvvm_ldg_d(p); }\n"
    "CD float4 __ldg(const float4 *p) { typedef float v4 __attribute__((ext_vector_type(4))); v4 v = __nvvm_ldg_f4((const v4 *)p); return make_float4(v.x, v.y, v.z, v.w); }\n"
    "CD float2 __ldg(const float2 *p) { typedef float v2 __attribute__((ext_vector_type(2))); v2 v = __nvvm_ldg_f2((const v2 *)p); return make_float2(v.x, v.y); }\n"
    "CD long long clock64(void) { return __nvvm_read_ptx_sreg_clock64(); }\n"
    "CD int clock(void) { return __nvvm_read_ptx_sreg_clock(); }\n"
    "#undef CD\n";

int coalsim_cuda_prelude_write(const char *dir, char *path, size_t cap)
{
    snprintf(path, cap, "%s/coalsim_cuda_prelude.h", dir);
    FILE *fp = fopen(path, "r");
    if (fp) {
        /* written before: keep it if it is this version's */
        char buf[sizeof prelude];
        size_t n = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        if (n == sizeof prelude - 1 && !memcmp(buf, prelude, n)) return 0;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    fp = fopen(tmp, "w");
    if (!fp) return -1;
    int bad = fwrite(prelude, 1, sizeof prelude - 1, fp) != sizeof prelude - 1;
    if (fclose(fp) != 0 || bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}
