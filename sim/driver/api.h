/* The driver's entry points (api.c) and what they ask of the driver
 * beside driver.h (attrs.c). */
#ifndef COALSIM_DRIVER_API_H
#define COALSIM_DRIVER_API_H

#include "driver/driver.h"

/* cuDeviceGetAttribute of the modelled GPU. */
CUresult drv_device_attribute(const driver *d, int attr, int *v);
/* cuFuncGetAttribute. */
CUresult drv_func_attribute(driver *d, struct drv_func *f, int attr, int *v);
/* Blocks of F with THREADS threads and DYN bytes of dynamic shared memory a SM holds. */
CUresult drv_occupancy(driver *d, struct drv_func *f, unsigned threads, size_t dyn, int *n);
/* The error's name (NAME) or description, or NULL if E is no CUresult. */
const char *drv_error_string(CUresult e, int name);

CUresult cuInit(unsigned flags);
CUresult cuDriverGetVersion(int *v);
CUresult cuDeviceGetCount(int *n);
CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev);
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id);
CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags);
CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active);
CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxGetCurrent(CUcontext *ctx);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *ctx);
CUresult cuCtxGetDevice(CUdevice *dev);
CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx);
CUresult cuCtxSynchronize(void);
CUresult cuCtxSynchronize_v2(CUcontext ctx);
CUresult cuCtxGetFlags(unsigned *flags);
CUresult cuCtxSetFlags(unsigned flags);
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *v);
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id);
CUresult cuCtxGetLimit(size_t *v, int limit);
CUresult cuCtxSetLimit(int limit, size_t v);
CUresult cuCtxGetCacheConfig(int *c);
CUresult cuCtxSetCacheConfig(int c);
CUresult cuCtxGetSharedMemConfig(int *c);
CUresult cuCtxSetSharedMemConfig(int c);
CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest);
CUresult cuCtxResetPersistingL2Cache(void);
CUresult cuModuleGetLoadingMode(int *mode);
CUresult cuModuleLoadData(CUmodule *m, const void *image);
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, void *opts, void **vals);
CUresult cuModuleLoadFatBinary(CUmodule *m, const void *image);
CUresult cuModuleLoad(CUmodule *m, const char *path);
CUresult cuModuleUnload(CUmodule m);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name);
CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, void *jo, void **jv, unsigned jn, void *lo, void **lv, unsigned ln);
CUresult cuLibraryUnload(CUlibrary lib);
CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name);
CUresult cuLibraryGetModule(CUmodule *m, CUlibrary lib);
CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name);
CUresult cuKernelGetFunction(CUfunction *f, CUkernel k);
CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f);
CUresult cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice dev);
CUresult cuFuncSetAttribute(CUfunction f, int attr, int v);
/* tensormap.c */
CUresult cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *base, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box, const unsigned *estrides, int interleave,
                                int swizzle, int l2promo, int oobfill);
CUresult cuTensorMapReplaceAddress(void *map, void *base);
CUresult cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice dev);
CUresult cuFuncSetCacheConfig(CUfunction f, int c);
CUresult cuKernelSetCacheConfig(CUkernel k, int c, CUdevice dev);
CUresult cuFuncSetSharedMemConfig(CUfunction f, int c);
CUresult cuFuncGetName(const char **name, CUfunction f);
CUresult cuKernelGetName(const char **name, CUkernel k);
CUresult cuFuncGetModule(CUmodule *m, CUfunction f);
CUresult cuFuncIsLoaded(int *state, CUfunction f);
CUresult cuFuncLoad(CUfunction f);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction f, int threads, size_t dyn, unsigned flags);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads, size_t dyn);
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction f, size_t (*dyn_of)(int), size_t dyn, int limit, unsigned flags);
CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f, size_t (*dyn_of)(int), size_t dyn, int limit);
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n);
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags);
CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s);
CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, void *location, unsigned flags, CUstream s);
CUresult cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice dev);
CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, void *location);
CUresult cuMemFree_v2(CUdeviceptr p);
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p);
CUresult cuMemAllocHost_v2(void **p, size_t n);
CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags);
CUresult cuMemFreeHost(void *p);
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags);
CUresult cuMemHostUnregister(void *p);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s);
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n);
CUresult cuMemsetD16_v2(CUdeviceptr p, unsigned short v, size_t n);
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n);
CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, CUstream s);
CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, CUstream s);
CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s);
CUresult cuStreamCreate(CUstream *s, unsigned flags);
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int prio);
CUresult cuStreamDestroy_v2(CUstream s);
CUresult cuStreamSynchronize(CUstream s);
CUresult cuStreamQuery(CUstream s);
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags);
CUresult cuStreamGetFlags(CUstream s, unsigned *flags);
CUresult cuStreamGetPriority(CUstream s, int *prio);
CUresult cuStreamGetCtx(CUstream s, CUcontext *ctx);
CUresult cuStreamAddCallback(CUstream s, void (*cb)(CUstream, CUresult, void *), void *user, unsigned flags);
CUresult cuLaunchHostFunc(CUstream s, void (*fn)(void *), void *user);
CUresult cuEventCreate(CUevent *e, unsigned flags);
CUresult cuEventDestroy_v2(CUevent e);
CUresult cuEventRecord(CUevent e, CUstream s);
CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags);
CUresult cuEventSynchronize(CUevent e);
CUresult cuEventQuery(CUevent e);
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b);
CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b);
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream s, void **params, void **extra);
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream s, void **params);
CUresult cuGetErrorString(CUresult e, const char **s);
CUresult cuGetErrorName(CUresult e, const char **s);
CUresult cuProfilerStart(void);
CUresult cuProfilerStop(void);

/* exports.c: the runtime's private tables */
CUresult cuGetExportTable(const void **table, const CUuuid *id);

#endif
