/* cuGetProcAddress: the CUDA runtime linked into a program asks the driver
 * for each entry point by name and API version.  The implemented ones come
 * from api.c (the implementation for the newest version not newer than the
 * one asked for); every other name cuda.h declares (names.h) gets a stub
 * that notes the call for the report and answers CUDA_ERROR_NOT_SUPPORTED;
 * names the API does not have are CUDA_ERROR_NOT_FOUND. */
#include <string.h>

#include "driver/api.h"

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags, int *status);
CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *ctx, void **green);

static const struct entry {
    const char *name;
    int since;                 /* the API version (1000 * major + 10 * minor) it has this signature from */
    void *fn;
} entries[] = {
    {"cuCtxCreate", 0, (void *)cuCtxCreate_v2},
    {"cuCtxCreate_v2", 0, (void *)cuCtxCreate_v2},
    {"cuCtxDestroy", 0, (void *)cuCtxDestroy_v2},
    {"cuCtxDestroy_v2", 0, (void *)cuCtxDestroy_v2},
    {"cuCtxGetApiVersion", 0, (void *)cuCtxGetApiVersion},
    {"cuCtxGetCacheConfig", 0, (void *)cuCtxGetCacheConfig},
    {"cuCtxGetCurrent", 0, (void *)cuCtxGetCurrent},
    {"cuCtxGetDevice", 0, (void *)cuCtxGetDevice},
    {"cuCtxGetDevice", 13000, (void *)cuCtxGetDevice_v2},
    {"cuCtxGetDevice_v2", 0, (void *)cuCtxGetDevice_v2},
    {"cuCtxGetFlags", 0, (void *)cuCtxGetFlags},
    {"cuCtxGetId", 0, (void *)cuCtxGetId},
    {"cuCtxGetLimit", 0, (void *)cuCtxGetLimit},
    {"cuCtxGetSharedMemConfig", 0, (void *)cuCtxGetSharedMemConfig},
    {"cuCtxGetStreamPriorityRange", 0, (void *)cuCtxGetStreamPriorityRange},
    {"cuCtxPopCurrent", 0, (void *)cuCtxPopCurrent_v2},
    {"cuCtxPopCurrent_v2", 0, (void *)cuCtxPopCurrent_v2},
    {"cuCtxPushCurrent", 0, (void *)cuCtxPushCurrent_v2},
    {"cuCtxPushCurrent_v2", 0, (void *)cuCtxPushCurrent_v2},
    {"cuCtxResetPersistingL2Cache", 0, (void *)cuCtxResetPersistingL2Cache},
    {"cuCtxSetCacheConfig", 0, (void *)cuCtxSetCacheConfig},
    {"cuCtxSetCurrent", 0, (void *)cuCtxSetCurrent},
    {"cuCtxSetFlags", 0, (void *)cuCtxSetFlags},
    {"cuCtxSetLimit", 0, (void *)cuCtxSetLimit},
    {"cuCtxSetSharedMemConfig", 0, (void *)cuCtxSetSharedMemConfig},
    {"cuCtxSynchronize", 0, (void *)cuCtxSynchronize},
    {"cuCtxSynchronize", 13000, (void *)cuCtxSynchronize_v2},
    {"cuCtxSynchronize_v2", 0, (void *)cuCtxSynchronize_v2},
    {"cuDeviceCanAccessPeer", 0, (void *)cuDeviceCanAccessPeer},
    {"cuDeviceComputeCapability", 0, (void *)cuDeviceComputeCapability},
    {"cuDeviceGet", 0, (void *)cuDeviceGet},
    {"cuDeviceGetAttribute", 0, (void *)cuDeviceGetAttribute},
    {"cuDeviceGetByPCIBusId", 0, (void *)cuDeviceGetByPCIBusId},
    {"cuDeviceGetCount", 0, (void *)cuDeviceGetCount},
    {"cuDeviceGetName", 0, (void *)cuDeviceGetName},
    {"cuDeviceGetPCIBusId", 0, (void *)cuDeviceGetPCIBusId},
    {"cuDeviceGetUuid", 0, (void *)cuDeviceGetUuid},
    {"cuDevicePrimaryCtxGetState", 0, (void *)cuDevicePrimaryCtxGetState},
    {"cuDevicePrimaryCtxRelease", 0, (void *)cuDevicePrimaryCtxRelease_v2},
    {"cuDevicePrimaryCtxRelease_v2", 0, (void *)cuDevicePrimaryCtxRelease_v2},
    {"cuDevicePrimaryCtxReset", 0, (void *)cuDevicePrimaryCtxReset_v2},
    {"cuDevicePrimaryCtxReset_v2", 0, (void *)cuDevicePrimaryCtxReset_v2},
    {"cuDevicePrimaryCtxRetain", 0, (void *)cuDevicePrimaryCtxRetain},
    {"cuDevicePrimaryCtxSetFlags", 0, (void *)cuDevicePrimaryCtxSetFlags_v2},
    {"cuDevicePrimaryCtxSetFlags_v2", 0, (void *)cuDevicePrimaryCtxSetFlags_v2},
    {"cuDeviceTotalMem", 0, (void *)cuDeviceTotalMem_v2},
    {"cuDeviceTotalMem_v2", 0, (void *)cuDeviceTotalMem_v2},
    {"cuDriverGetVersion", 0, (void *)cuDriverGetVersion},
    {"cuEventCreate", 0, (void *)cuEventCreate},
    {"cuEventDestroy", 0, (void *)cuEventDestroy_v2},
    {"cuEventDestroy_v2", 0, (void *)cuEventDestroy_v2},
    {"cuEventElapsedTime", 0, (void *)cuEventElapsedTime},
    {"cuEventElapsedTime", 12080, (void *)cuEventElapsedTime_v2},
    {"cuEventElapsedTime_v2", 0, (void *)cuEventElapsedTime_v2},
    {"cuEventQuery", 0, (void *)cuEventQuery},
    {"cuEventRecord", 0, (void *)cuEventRecord},
    {"cuEventRecordWithFlags", 0, (void *)cuEventRecordWithFlags},
    {"cuEventSynchronize", 0, (void *)cuEventSynchronize},
    {"cuFuncGetAttribute", 0, (void *)cuFuncGetAttribute},
    {"cuFuncGetModule", 0, (void *)cuFuncGetModule},
    {"cuFuncGetName", 0, (void *)cuFuncGetName},
    {"cuFuncIsLoaded", 0, (void *)cuFuncIsLoaded},
    {"cuFuncLoad", 0, (void *)cuFuncLoad},
    {"cuFuncSetAttribute", 0, (void *)cuFuncSetAttribute},
    {"cuFuncSetCacheConfig", 0, (void *)cuFuncSetCacheConfig},
    {"cuFuncSetSharedMemConfig", 0, (void *)cuFuncSetSharedMemConfig},
    {"cuGetErrorName", 0, (void *)cuGetErrorName},
    {"cuGetErrorString", 0, (void *)cuGetErrorString},
    {"cuInit", 0, (void *)cuInit},
    {"cuKernelGetAttribute", 0, (void *)cuKernelGetAttribute},
    {"cuKernelGetFunction", 0, (void *)cuKernelGetFunction},
    {"cuKernelGetName", 0, (void *)cuKernelGetName},
    {"cuKernelSetAttribute", 0, (void *)cuKernelSetAttribute},
    {"cuKernelSetCacheConfig", 0, (void *)cuKernelSetCacheConfig},
    {"cuLaunchCooperativeKernel", 0, (void *)cuLaunchCooperativeKernel},
    {"cuLaunchHostFunc", 0, (void *)cuLaunchHostFunc},
    {"cuLaunchKernel", 0, (void *)cuLaunchKernel},
    {"cuLaunchKernelEx", 0, (void *)cuLaunchKernelEx},
    {"cuLibraryGetGlobal", 0, (void *)cuLibraryGetGlobal},
    {"cuLibraryGetKernel", 0, (void *)cuLibraryGetKernel},
    {"cuLibraryGetModule", 0, (void *)cuLibraryGetModule},
    {"cuLibraryLoadData", 0, (void *)cuLibraryLoadData},
    {"cuLibraryUnload", 0, (void *)cuLibraryUnload},
    {"cuMemAdvise", 0, (void *)cuMemAdvise},
    {"cuMemAdvise", 12020, (void *)cuMemAdvise_v2},
    {"cuMemAdvise_v2", 0, (void *)cuMemAdvise_v2},
    {"cuMemAlloc", 0, (void *)cuMemAlloc_v2},
    {"cuMemAllocHost", 0, (void *)cuMemAllocHost_v2},
    {"cuMemAllocHost_v2", 0, (void *)cuMemAllocHost_v2},
    {"cuMemAllocManaged", 0, (void *)cuMemAllocManaged},
    {"cuMemAlloc_v2", 0, (void *)cuMemAlloc_v2},
    {"cuMemFree", 0, (void *)cuMemFree_v2},
    {"cuMemFreeHost", 0, (void *)cuMemFreeHost},
    {"cuMemFree_v2", 0, (void *)cuMemFree_v2},
    {"cuMemGetAddressRange", 0, (void *)cuMemGetAddressRange_v2},
    {"cuMemGetAddressRange_v2", 0, (void *)cuMemGetAddressRange_v2},
    {"cuMemGetInfo", 0, (void *)cuMemGetInfo_v2},
    {"cuMemGetInfo_v2", 0, (void *)cuMemGetInfo_v2},
    {"cuMemHostAlloc", 0, (void *)cuMemHostAlloc},
    {"cuMemHostRegister", 0, (void *)cuMemHostRegister_v2},
    {"cuMemHostRegister_v2", 0, (void *)cuMemHostRegister_v2},
    {"cuMemHostUnregister", 0, (void *)cuMemHostUnregister},
    {"cuMemPrefetchAsync", 0, (void *)cuMemPrefetchAsync},
    {"cuMemPrefetchAsync", 12020, (void *)cuMemPrefetchAsync_v2},
    {"cuMemPrefetchAsync_v2", 0, (void *)cuMemPrefetchAsync_v2},
    {"cuMemcpy", 0, (void *)cuMemcpy},
    {"cuMemcpyAsync", 0, (void *)cuMemcpyAsync},
    {"cuMemcpyDtoD", 0, (void *)cuMemcpyDtoD_v2},
    {"cuMemcpyDtoDAsync", 0, (void *)cuMemcpyDtoDAsync_v2},
    {"cuMemcpyDtoDAsync_v2", 0, (void *)cuMemcpyDtoDAsync_v2},
    {"cuMemcpyDtoD_v2", 0, (void *)cuMemcpyDtoD_v2},
    {"cuMemcpyDtoH", 0, (void *)cuMemcpyDtoH_v2},
    {"cuMemcpyDtoHAsync", 0, (void *)cuMemcpyDtoHAsync_v2},
    {"cuMemcpyDtoHAsync_v2", 0, (void *)cuMemcpyDtoHAsync_v2},
    {"cuMemcpyDtoH_v2", 0, (void *)cuMemcpyDtoH_v2},
    {"cuMemcpyHtoD", 0, (void *)cuMemcpyHtoD_v2},
    {"cuMemcpyHtoDAsync", 0, (void *)cuMemcpyHtoDAsync_v2},
    {"cuMemcpyHtoDAsync_v2", 0, (void *)cuMemcpyHtoDAsync_v2},
    {"cuMemcpyHtoD_v2", 0, (void *)cuMemcpyHtoD_v2},
    {"cuMemsetD16", 0, (void *)cuMemsetD16_v2},
    {"cuMemsetD16Async", 0, (void *)cuMemsetD16Async},
    {"cuMemsetD16_v2", 0, (void *)cuMemsetD16_v2},
    {"cuMemsetD32", 0, (void *)cuMemsetD32_v2},
    {"cuMemsetD32Async", 0, (void *)cuMemsetD32Async},
    {"cuMemsetD32_v2", 0, (void *)cuMemsetD32_v2},
    {"cuMemsetD8", 0, (void *)cuMemsetD8_v2},
    {"cuMemsetD8Async", 0, (void *)cuMemsetD8Async},
    {"cuMemsetD8_v2", 0, (void *)cuMemsetD8_v2},
    {"cuModuleGetFunction", 0, (void *)cuModuleGetFunction},
    {"cuModuleGetGlobal", 0, (void *)cuModuleGetGlobal_v2},
    {"cuModuleGetGlobal_v2", 0, (void *)cuModuleGetGlobal_v2},
    {"cuModuleGetLoadingMode", 0, (void *)cuModuleGetLoadingMode},
    {"cuModuleLoad", 0, (void *)cuModuleLoad},
    {"cuModuleLoadData", 0, (void *)cuModuleLoadData},
    {"cuModuleLoadDataEx", 0, (void *)cuModuleLoadDataEx},
    {"cuModuleLoadFatBinary", 0, (void *)cuModuleLoadFatBinary},
    {"cuModuleUnload", 0, (void *)cuModuleUnload},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", 0, (void *)cuOccupancyMaxActiveBlocksPerMultiprocessor},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", 0, (void *)cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags},
    {"cuOccupancyMaxPotentialBlockSize", 0, (void *)cuOccupancyMaxPotentialBlockSize},
    {"cuOccupancyMaxPotentialBlockSizeWithFlags", 0, (void *)cuOccupancyMaxPotentialBlockSizeWithFlags},
    {"cuProfilerStart", 0, (void *)cuProfilerStart},
    {"cuProfilerStop", 0, (void *)cuProfilerStop},
    {"cuStreamAddCallback", 0, (void *)cuStreamAddCallback},
    {"cuStreamCreate", 0, (void *)cuStreamCreate},
    {"cuStreamCreateWithPriority", 0, (void *)cuStreamCreateWithPriority},
    {"cuStreamDestroy", 0, (void *)cuStreamDestroy_v2},
    {"cuStreamDestroy_v2", 0, (void *)cuStreamDestroy_v2},
    {"cuStreamGetCtx", 0, (void *)cuStreamGetCtx},
    {"cuStreamGetFlags", 0, (void *)cuStreamGetFlags},
    {"cuStreamGetPriority", 0, (void *)cuStreamGetPriority},
    {"cuStreamQuery", 0, (void *)cuStreamQuery},
    {"cuStreamSynchronize", 0, (void *)cuStreamSynchronize},
    {"cuStreamWaitEvent", 0, (void *)cuStreamWaitEvent},
    {"cuTensorMapEncodeTiled", 0, (void *)cuTensorMapEncodeTiled},
    {"cuTensorMapReplaceAddress", 0, (void *)cuTensorMapReplaceAddress},
    {"cuGetProcAddress", 0, (void *)cuGetProcAddress},
    {"cuGetProcAddress", 12000, (void *)cuGetProcAddress_v2},
    {"cuGetProcAddress_v2", 0, (void *)cuGetProcAddress_v2},
    {"cuStreamGetCtx", 12050, (void *)cuStreamGetCtx_v2},
    {"cuStreamGetCtx_v2", 0, (void *)cuStreamGetCtx_v2},
    {"cuGetExportTable", 0, (void *)cuGetExportTable},
};

#define X(n) \
    static CUresult stub_##n(void) \
    { \
        drv_unsupported(#n); \
        return CUDA_ERROR_NOT_SUPPORTED; \
    }
#include "driver/names.h"
#undef X

static const struct stub {
    const char *name;
    void *fn;
} stubs[] = {
#define X(n) {#n, (void *)stub_##n},
#include "driver/names.h"
#undef X
};

CUresult cuStreamGetCtx_v2(CUstream s, CUcontext *ctx, void **green)
{
    if (green) *green = NULL;
    return cuStreamGetCtx(s, ctx);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags, int *status)
{
    (void)flags;     /* per-thread default streams: every stream runs in order here */
    if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
    const struct entry *best = NULL;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (!strcmp(entries[i].name, symbol) && entries[i].since <= version && (!best || entries[i].since > best->since))
            best = &entries[i];
    *pfn = best ? best->fn : NULL;
    for (size_t i = 0; !*pfn && i < sizeof stubs / sizeof stubs[0]; i++)
        if (!strcmp(stubs[i].name, symbol)) *pfn = stubs[i].fn;
    if (status) *status = *pfn ? 0 : 1;     /* CU_GET_PROC_ADDRESS_SUCCESS, _SYMBOL_NOT_FOUND */
    return *pfn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, uint64_t flags)
{
    return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}
