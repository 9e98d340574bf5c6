/* What the modelled GPU says about itself (api.h): device and function
 * attributes, occupancy, error strings.  The device is an H100 SXM (sm_90;
 * an H200 when the profile names one): the numbers its driver reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/api.h"

CUresult drv_device_attribute(const driver *d, int attr, int *v)
{
    uint64_t l2 = d->have_profile && d->profile.l2_bytes ? d->profile.l2_bytes : 50u << 20;
    switch (attr) {
    case 1: *v = 1024; break;                 /* max threads a block */
    case 2: case 3: *v = 1024; break;         /* block x, y */
    case 4: *v = 64; break;                   /* block z */
    case 5: *v = 2147483647; break;           /* grid x */
    case 6: case 7: *v = 65535; break;        /* grid y, z */
    case 8: *v = 49152; break;                /* shared memory a block */
    case 9: *v = 65536; break;                /* constant memory */
    case 10: *v = 32; break;                  /* warp */
    case 11: *v = 2147483647; break;          /* pitch */
    case 12: *v = 65536; break;               /* registers a block */
    case 13: *v = 1980000; break;             /* SM clock, kHz */
    case 14: *v = 512; break;                 /* texture alignment */
    case 15: *v = 1; break;                   /* copies overlap kernels */
    case 16: *v = (int)d->sms; break;
    case 19: *v = 1; break;                   /* can map host memory */
    case 30: *v = 512; break;                 /* surface alignment */
    case 31: *v = 1; break;                   /* concurrent kernels */
    case 32: *v = 1; break;                   /* ECC */
    case 36: *v = strstr(d->device_name, "H200") ? 3201000 : 2619000; break;   /* memory clock, kHz */
    case 37: *v = 5120; break;                /* memory bus, bits */
    case 38: *v = (int)l2; break;
    case 39: *v = 2048; break;                /* threads a SM */
    case 40: *v = 2; break;                   /* copy engines */
    case 41: *v = 1; break;                   /* unified addressing */
    case 51: *v = 32; break;                  /* texture pitch alignment */
    case 75: *v = 9; break;                   /* compute capability */
    case 76: *v = 0; break;
    case 78: case 79: case 80: *v = 1; break; /* stream priorities, global and local L1 caching */
    case 81: *v = 233472; break;              /* shared memory a SM */
    case 82: *v = 65536; break;               /* registers a SM */
    case 83: case 89: *v = 1; break;          /* managed memory, host and device at once */
    case 87: *v = 2; break;                   /* float to double throughput */
    case 90: *v = 1; break;                   /* compute preemption */
    case 95: *v = 1; break;                   /* cooperative launch */
    case 97: *v = 232448; break;              /* shared memory a block, opted in */
    case 99: *v = 1; break;                   /* host register */
    case 106: *v = 32; break;                 /* blocks a SM */
    case 111: *v = 1024; break;               /* shared memory the system keeps a block */
    case 120: *v = 1; break;                  /* cluster launch */
    default:
        /* features coalsim's driver does not give (pooled memory, IPC,
         * textures, ...) read as absent */
        *v = 0;
        break;
    }
    return CUDA_SUCCESS;
}

CUresult drv_func_attribute(driver *d, struct drv_func *f, int attr, int *v)
{
    int known = drv_func_resources(d, f) == 0;
    unsigned regs = known ? f->res.regs : 0;
    switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: {
        unsigned t = 1024;
        if (regs) {
            unsigned per_warp = (regs * 32 + 255) / 256 * 256;
            unsigned warps = 65536 / per_warp;
            if (warps * 32 < t) t = warps * 32;
        }
        *v = (int)t;
        break;
    }
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = known ? (int)f->res.smem_static : 0; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *v = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *v = known ? (int)f->res.stack_bytes : 0; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
        if (!known) drv_unsupported("cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS) without ptxas: 0 given");
        *v = (int)regs;
        break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: {
        const char *ptx = f->mod && f->mod->k ? coalsim_kernel_module(f->mod->k, NULL) : NULL;
        const char *t = ptx ? strstr(ptx, ".target sm_") : NULL;
        *v = t ? atoi(t + 11) : 0;
        break;
    }
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = 90; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *v = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = (int)f->max_dynamic_shared; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = -1; break;
    default: *v = 0; break;
    }
    return CUDA_SUCCESS;
}

CUresult drv_occupancy(driver *d, struct drv_func *f, unsigned threads, size_t dyn, int *n)
{
    coalsim_sm_limits lim;
    coalsim_occupancy occ;
    coalsim_sm_limits_preset("hopper", &lim);
    int known = drv_func_resources(d, f) == 0;
    if (!known) drv_unsupported("cuOccupancyMaxActiveBlocksPerMultiprocessor without ptxas: registers not counted");
    if (coalsim_occupancy_of(&lim, threads, known ? f->res.regs : 0, (known ? f->res.smem_static : 0) + dyn, &occ) != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *n = (int)occ.blocks;
    return CUDA_SUCCESS;
}

static const struct {
    CUresult e;
    const char *name, *text;
} errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const char *drv_error_string(CUresult e, int name)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].e == e) return name ? errors[i].name : errors[i].text;
    return NULL;
}
