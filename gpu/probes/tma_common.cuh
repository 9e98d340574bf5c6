// What the TMA probes (tma_bw.cu, tma_pipe.cu) share: a shared address as a 32-bit one, the driver's
// cuTensorMapEncodeTiled through the runtime (no -lcuda), and their command line ("--once N": one
// configuration, launched once, for ncu or coalsim run; nothing: all of them, timed).
#pragma once
#include <cuda.h>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "timing.cuh"

static __device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

typedef CUresult (*EncodeTiledFn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                  const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// cuTensorMapEncodeTiled, or exit(1) saying it is not there
static EncodeTiledFn encode_tiled_fn()
{
    void* fp = nullptr;
    cudaDriverEntryPointQueryResult q;
#if CUDART_VERSION >= 12050
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fp, 12000, cudaEnableDefault, &q));
#else
    CK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fp, cudaEnableDefault, &q));
#endif
    if (!fp) {
        fprintf(stderr, "cuTensorMapEncodeTiled: not found\n");
        exit(1);
    }
    return (EncodeTiledFn)fp;
}

// "--once N": N; no argument: -1 (every configuration, timed); anything else: the usage, exit(2)
static int once_arg(int argc, char** argv)
{
    if (argc == 3 && !strcmp(argv[1], "--once")) return atoi(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--once N]\n", argv[0]);
        exit(2);
    }
    return -1;
}
