// Does a shared load whose lanes are all predicated off take a turn of the
// L1 data pipe?  ptxas predicates short branches (reduce1's step, prescan's
// up-sweep), so every warp issues their LDS and STS; the time model counts
// their issue but gives them no wavefront.
//
// Each warp runs N iterations of 8 independent predicated LDS, STS or LDG
// (one word a lane, no bank conflict: one wavefront each when on).  On: all
// lanes on; off: all lanes off (the predicate is a kernel argument, so
// ptxas keeps the instruction).  64 warps a SM, so that a pipe at one
// wavefront a cycle is the bound when the instructions count.  Each case
// runs 11 launches in a row (lds on, lds off, sts on, ...), so that ncu
// --launch-skip 11k --launch-count 1 picks one.
//
// nvcc -O3 -arch=sm_90 -o pred_off pred_off.cu && ./pred_off
#include "timing.cuh"

// MODE 0: LDS, 1: STS, 2: LDG (each lane its own word of a line a warp:
// one request of 4 sectors when on).
template <int MODE> __global__ void pred_mem(int n, int on, float *g, float *out)
{
    __shared__ float s[1024];
    s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    const float *ga = g + threadIdx.x;
    float v0 = 0, v1 = 0, v2 = 0, v3 = 0, v4 = 0, v5 = 0, v6 = 0, v7 = 0;
    for (int i = 0; i < n; i++) {
        if (MODE == 0)
            asm volatile("{ .reg .pred p; setp.ne.s32 p, %8, 0;\n"
                         "@p ld.shared.f32 %0, [%9];\n@p ld.shared.f32 %1, [%9];\n"
                         "@p ld.shared.f32 %2, [%9];\n@p ld.shared.f32 %3, [%9];\n"
                         "@p ld.shared.f32 %4, [%9];\n@p ld.shared.f32 %5, [%9];\n"
                         "@p ld.shared.f32 %6, [%9];\n@p ld.shared.f32 %7, [%9]; }"
                         : "+f"(v0), "+f"(v1), "+f"(v2), "+f"(v3), "+f"(v4), "+f"(v5), "+f"(v6), "+f"(v7)
                         : "r"(on), "r"(a));
        else if (MODE == 1)
            asm volatile("{ .reg .pred p; setp.ne.s32 p, %0, 0;\n"
                         "@p st.shared.f32 [%1], %2;\n@p st.shared.f32 [%1], %2;\n"
                         "@p st.shared.f32 [%1], %2;\n@p st.shared.f32 [%1], %2;\n"
                         "@p st.shared.f32 [%1], %2;\n@p st.shared.f32 [%1], %2;\n"
                         "@p st.shared.f32 [%1], %2;\n@p st.shared.f32 [%1], %2; }"
                         :
                         : "r"(on), "r"(a), "f"((float)i)
                         : "memory");
        else
            asm volatile("{ .reg .pred p; setp.ne.s32 p, %8, 0;\n"
                         "@p ld.global.ca.f32 %0, [%9];\n@p ld.global.ca.f32 %1, [%9];\n"
                         "@p ld.global.ca.f32 %2, [%9];\n@p ld.global.ca.f32 %3, [%9];\n"
                         "@p ld.global.ca.f32 %4, [%9];\n@p ld.global.ca.f32 %5, [%9];\n"
                         "@p ld.global.ca.f32 %6, [%9];\n@p ld.global.ca.f32 %7, [%9]; }"
                         : "+f"(v0), "+f"(v1), "+f"(v2), "+f"(v3), "+f"(v4), "+f"(v5), "+f"(v6), "+f"(v7)
                         : "r"(on), "l"(ga));
    }
    float acc = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
    if (acc == -1.2345f) out[0] = acc;
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount, n = 4096;
    float *out;
    CK(cudaMalloc(&out, sizeof(float)));
    const unsigned grid = sms * 2, block = 1024;     /* 64 warps a SM */
    double lds = (double)grid * (block / 32) * n * 8; /* warp-level LDS issued */
    float *g;
    CK(cudaMalloc(&g, 4096 * sizeof(float)));
    CK(cudaMemset(g, 0, 4096 * sizeof(float)));
    printf("# device = %s, sms = %d; %d warps a SM, %.0f warp-level instructions a launch\n", prop.name, sms, 64, lds);
    printf("# case          ms     instructions per SM per ns\n");
    static const char *name[3] = {"lds", "sts", "ldg"};
    for (int mode = 0; mode < 3; mode++)
        for (int lanes = 1; lanes >= 0; lanes--) {
            /* 11 launches a case: a warm-up and 10 timed */
            float ms = median_ms(
                [&] {
                    if (mode == 0) pred_mem<0><<<grid, block>>>(n, lanes, g, out);
                    else if (mode == 1) pred_mem<1><<<grid, block>>>(n, lanes, g, out);
                    else pred_mem<2><<<grid, block>>>(n, lanes, g, out);
                },
                10);
            printf("%s_%-4s %9.3f  %8.3f\n", name[mode], lanes ? "on" : "off", ms, lds / sms / (ms * 1e6));
        }
    return 0;
}
