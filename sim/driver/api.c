/* The CUDA driver API entry points coalsim's driver implements (the rest
 * answer CUDA_ERROR_NOT_SUPPORTED: procaddr.c).  Every call takes the
 * driver's lock: a program's threads see one device whose work runs in
 * order, each launch to its end before the call returns. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "driver/api.h"

#define LOCKED(d) for (int once_ = (pthread_mutex_lock(&(d)->lock), 1); once_; once_ = 0, pthread_mutex_unlock(&(d)->lock))

static __thread CUcontext current;

/* ---- initialisation, version, devices ---- */

CUresult cuInit(unsigned flags)
{
    (void)flags;
    drv_get();
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n)
{
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    if (!dev) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", drv_get()->device_name);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    memcpy(uuid->bytes, "coalsim-model-00", 16);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *bytes = drv_get()->total_mem;
    return CUDA_SUCCESS;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *major = 9, *minor = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev)
{
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    return drv_device_attribute(drv_get(), attr, v);
}

CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
    if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    snprintf(id, (size_t)len, "0000:00:00.0");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
    if (!dev || !id) return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
    (void)dev, (void)peer;
    if (!can) return CUDA_ERROR_INVALID_VALUE;
    *can = 0;
    return CUDA_SUCCESS;
}

/* ---- contexts: one, the device's primary context ---- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *ctx = &drv_get()->ctx;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { return dev ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) { return dev ? CUDA_ERROR_INVALID_DEVICE : CUDA_SUCCESS; }

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags)
{
    if (dev) return CUDA_ERROR_INVALID_DEVICE;
    drv_get()->ctx.flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active)
{
    if (dev) return CUDA_ERROR_INVALID_DEVICE;
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    *flags = drv_get()->ctx.flags;
    *active = 1;
    return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice dev)
{
    (void)flags;
    CUresult rc = cuDevicePrimaryCtxRetain(ctx, dev);
    if (rc == CUDA_SUCCESS) current = *ctx;
    return rc;
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    if (current == ctx) current = NULL;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    current = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    current = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx)
{
    if (ctx) *ctx = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev)
{
    if (!dev) return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx)
{
    (void)ctx;
    return cuCtxGetDevice(dev);
}

CUresult cuCtxSynchronize(void) { return drv_get()->sticky; }

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    (void)ctx;
    return drv_get()->sticky;
}

CUresult cuCtxGetFlags(unsigned *flags)
{
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = drv_get()->ctx.flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetFlags(unsigned flags)
{
    drv_get()->ctx.flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *v)
{
    (void)ctx;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
    (void)ctx;
    if (!id) return CUDA_ERROR_INVALID_VALUE;
    *id = 1;
    return CUDA_SUCCESS;
}

/* limits: the stack a thread, printf's FIFO, the heap (the GPU's defaults) */
static size_t limits[8] = {1024, 1u << 20, 8u << 20, 2, 2048, 128, 0, 0};

CUresult cuCtxGetLimit(size_t *v, int limit)
{
    if (!v || limit < 0 || limit >= 8) return CUDA_ERROR_INVALID_VALUE;
    *v = limits[limit];
    return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(int limit, size_t v)
{
    if (limit < 0 || limit >= 8) return CUDA_ERROR_INVALID_VALUE;
    limits[limit] = v;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCacheConfig(int *c)
{
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    *c = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCacheConfig(int c)
{
    (void)c;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetSharedMemConfig(int *c)
{
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    *c = 1;     /* four-byte banks */
    return CUDA_SUCCESS;
}

CUresult cuCtxSetSharedMemConfig(int c)
{
    (void)c;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return CUDA_SUCCESS;
}

CUresult cuCtxResetPersistingL2Cache(void) { return CUDA_SUCCESS; }

/* ---- modules, libraries, functions ---- */

CUresult cuModuleGetLoadingMode(int *mode)
{
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    *mode = 1;   /* CU_MODULE_EAGER_LOADING */
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    if (!m || !image) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    CUresult rc;
    LOCKED(d) rc = drv_module_load(d, image, m);
    return rc;
}

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, void *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return cuModuleLoadData(m, image);
}

CUresult cuModuleLoadFatBinary(CUmodule *m, const void *image) { return cuModuleLoadData(m, image); }

CUresult cuModuleLoad(CUmodule *m, const char *path)
{
    if (!m || !path) return CUDA_ERROR_INVALID_VALUE;
    FILE *fp = fopen(path, "rb");
    if (!fp) return CUDA_ERROR_NOT_FOUND;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (len + got + 1 > cap) {
            cap = (len + got + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(fp);
    if (!buf) return CUDA_ERROR_INVALID_IMAGE;
    buf[len] = '\0';
    CUresult rc = cuModuleLoadData(m, buf);
    free(buf);
    return rc;
}

CUresult cuModuleUnload(CUmodule m)
{
    if (!m) return CUDA_ERROR_INVALID_HANDLE;
    driver *d = drv_get();
    LOCKED(d) drv_module_unload(d, m);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (!f || !m || !name) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    CUresult rc;
    LOCKED(d) rc = drv_module_function(d, m, name, f);
    return rc;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name)
{
    if (!m || !name) return CUDA_ERROR_INVALID_VALUE;
    uint64_t size = 0, a = m->k ? coalsim_kernel_symbol(m->k, name, &size) : 0;
    if (!a) return CUDA_ERROR_NOT_FOUND;
    if (dptr) *dptr = a;
    if (bytes) *bytes = (size_t)size;
    return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, void *jo, void **jv, unsigned jn, void *lo, void **lv,
                           unsigned ln)
{
    (void)jo, (void)jv, (void)jn, (void)lo, (void)lv, (void)ln;
    return cuModuleLoadData(lib, code);
}

CUresult cuLibraryUnload(CUlibrary lib) { return cuModuleUnload(lib); }

CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary lib, const char *name) { return cuModuleGetFunction(k, lib, name); }

CUresult cuLibraryGetModule(CUmodule *m, CUlibrary lib)
{
    if (!m || !lib) return CUDA_ERROR_INVALID_VALUE;
    *m = lib;
    return CUDA_SUCCESS;
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary lib, const char *name)
{
    return cuModuleGetGlobal_v2(dptr, bytes, lib, name);
}

CUresult cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    if (!f || !k) return CUDA_ERROR_INVALID_VALUE;
    *f = k;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f)
{
    if (!v || !f) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    CUresult rc;
    LOCKED(d) rc = drv_func_attribute(d, f, attr, v);
    return rc;
}

CUresult cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice dev)
{
    (void)dev;
    return cuFuncGetAttribute(v, attr, k);
}

CUresult cuFuncSetAttribute(CUfunction f, int attr, int v)
{
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
        if (v < 0 || v > 227 * 1024) return CUDA_ERROR_INVALID_VALUE;
        f->max_dynamic_shared = (unsigned)v;
    }
    return CUDA_SUCCESS;
}

CUresult cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice dev)
{
    (void)dev;
    return cuFuncSetAttribute(k, attr, v);
}

CUresult cuFuncSetCacheConfig(CUfunction f, int c)
{
    (void)c;
    return f ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuKernelSetCacheConfig(CUkernel k, int c, CUdevice dev)
{
    (void)dev;
    return cuFuncSetCacheConfig(k, c);
}

CUresult cuFuncSetSharedMemConfig(CUfunction f, int c)
{
    (void)c;
    return f ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuFuncGetName(const char **name, CUfunction f)
{
    if (!name || !f) return CUDA_ERROR_INVALID_VALUE;
    *name = f->name;
    return CUDA_SUCCESS;
}

CUresult cuKernelGetName(const char **name, CUkernel k) { return cuFuncGetName(name, k); }

CUresult cuFuncGetModule(CUmodule *m, CUfunction f)
{
    if (!m || !f) return CUDA_ERROR_INVALID_VALUE;
    *m = f->mod;
    return CUDA_SUCCESS;
}

CUresult cuFuncIsLoaded(int *state, CUfunction f)
{
    if (!state || !f) return CUDA_ERROR_INVALID_VALUE;
    *state = 1;   /* CU_FUNCTION_LOADING_STATE_LOADED */
    return CUDA_SUCCESS;
}

CUresult cuFuncLoad(CUfunction f) { return f ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction f, int threads, size_t dyn,
                                                              unsigned flags)
{
    (void)flags;
    if (!n || !f || threads <= 0) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    CUresult rc;
    LOCKED(d) rc = drv_occupancy(d, f, (unsigned)threads, dyn, n);
    return rc;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads, size_t dyn)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, threads, dyn, 0);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *block, CUfunction f,
                                                   size_t (*dyn_of)(int), size_t dyn, int limit, unsigned flags)
{
    (void)flags;
    if (!min_grid || !block || !f) return CUDA_ERROR_INVALID_VALUE;
    int best = 0, best_threads = 32, top = limit > 0 && limit < 1024 ? limit : 1024;
    for (int t = 32; t <= top; t += 32) {
        int n = 0;
        CUresult rc = cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, t, dyn_of ? dyn_of(t) : dyn);
        if (rc != CUDA_SUCCESS) return rc;
        if (n * t >= best) best = n * t, best_threads = t;
    }
    *block = best_threads;
    *min_grid = (int)drv_get()->sms * (best / best_threads);
    return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction f, size_t (*dyn_of)(int),
                                          size_t dyn, int limit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block, f, dyn_of, dyn, limit, 0);
}

/* ---- memory ---- */

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    if (d->sticky) return d->sticky;
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    uint64_t a;
    LOCKED(d) a = coalsim_memory_alloc(d->mem, n);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    /* keep the host's own mappings out of the device's addresses, so that an
     * address is one or the other (cuMemcpy) and the host faults on a device
     * pointer as it would with a GPU */
    void *r = mmap((void *)(uintptr_t)a, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                   -1, 0);
    if (r != MAP_FAILED && r != (void *)(uintptr_t)a) munmap(r, n);
    *p = a;
    return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags)
{
    (void)flags;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    driver *d = drv_get();
    if (d->sticky) return d->sticky;
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    uint64_t a;
    LOCKED(d) a = coalsim_memory_alloc_managed(d->mem, n);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    *p = a;
    return CUDA_SUCCESS;
}

/* managed memory is where it is: prefetches and advice change nothing here */
CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s)
{
    (void)p, (void)n, (void)dev, (void)s;
    return drv_get()->sticky;
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, void *location, unsigned flags, CUstream s)
{
    (void)p, (void)n, (void)location, (void)flags, (void)s;
    return drv_get()->sticky;
}

CUresult cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice dev)
{
    (void)p, (void)n, (void)advice, (void)dev;
    return CUDA_SUCCESS;
}

CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, void *location)
{
    (void)p, (void)n, (void)advice, (void)location;
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
    if (!p) return CUDA_SUCCESS;
    driver *d = drv_get();
    if (d->sticky) return d->sticky;
    uint64_t base = 0, size = 0;
    int bad, managed = 0;
    LOCKED(d) {
        bad = coalsim_memory_find(d->mem, p, 1, &base, &size) != 0 || base != p;
        managed = !bad && coalsim_memory_is_managed(d->mem, p);
        bad = bad || coalsim_memory_release(d->mem, p) != 0;
    }
    if (bad) return CUDA_ERROR_INVALID_VALUE;
    if (!managed) munmap((void *)(uintptr_t)p, (size_t)size);     /* the reservation cuMemAlloc made */
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    driver *d = drv_get();
    if (free_bytes) *free_bytes = d->total_mem;
    if (total) *total = d->total_mem;
    return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p)
{
    driver *d = drv_get();
    uint64_t b, s;
    int bad;
    LOCKED(d) bad = coalsim_memory_find(d->mem, p, 1, &b, &s);
    if (bad) return CUDA_ERROR_NOT_FOUND;
    if (base) *base = b;
    if (size) *size = (size_t)s;
    return CUDA_SUCCESS;
}

CUresult cuMemAllocHost_v2(void **p, size_t n)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (posix_memalign(p, 4096, n ? n : 1) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
    return CUDA_SUCCESS;
}

CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
    (void)flags;
    return cuMemAllocHost_v2(p, n);
}

CUresult cuMemFreeHost(void *p)
{
    free(p);
    return CUDA_SUCCESS;
}

CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags)
{
    (void)p, (void)n, (void)flags;
    return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *p)
{
    (void)p;
    return CUDA_SUCCESS;
}

/* One copy: D (device address) or H (host pointer) on each side. */
static CUresult copy(CUdeviceptr dst, int dst_dev, CUdeviceptr src, int src_dev, size_t n)
{
    driver *d = drv_get();
    if (d->sticky) return d->sticky;
    if (!n) return CUDA_SUCCESS;
    int bad = 0;
    LOCKED(d) {
        if (dst_dev && src_dev) bad = coalsim_memory_copy(d->mem, dst, src, n);
        else if (dst_dev) bad = coalsim_memory_write(d->mem, dst, (const void *)(uintptr_t)src, n);
        else if (src_dev) bad = coalsim_memory_read(d->mem, src, (void *)(uintptr_t)dst, n);
        else memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    }
    return bad ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) { return copy(dst, 1, (uintptr_t)src, 0, n); }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) { return copy((uintptr_t)dst, 0, src, 1, n); }
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copy(dst, 1, src, 1, n); }

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    (void)s;
    return cuMemcpyHtoD_v2(dst, src, n);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    (void)s;
    return cuMemcpyDtoH_v2(dst, src, n);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    (void)s;
    return cuMemcpyDtoD_v2(dst, src, n);
}

/* unified addressing: the address says which side */
static int is_device(CUdeviceptr p)
{
    driver *d = drv_get();
    int found;
    LOCKED(d) found = coalsim_memory_find(d->mem, p, 1, NULL, NULL) == 0;
    return found;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copy(dst, is_device(dst), src, is_device(src), n); }

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    (void)s;
    return cuMemcpy(dst, src, n);
}

static CUresult set(CUdeviceptr p, uint32_t v, unsigned size, size_t n)
{
    driver *d = drv_get();
    if (d->sticky) return d->sticky;
    int bad;
    LOCKED(d) bad = coalsim_memory_set(d->mem, p, v, size, n);
    return bad ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) { return set(p, v, 1, n); }
CUresult cuMemsetD16_v2(CUdeviceptr p, unsigned short v, size_t n) { return set(p, v, 2, n); }
CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned v, size_t n) { return set(p, v, 4, n); }

CUresult cuMemsetD8Async(CUdeviceptr p, unsigned char v, size_t n, CUstream s)
{
    (void)s;
    return set(p, v, 1, n);
}

CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, CUstream s)
{
    (void)s;
    return set(p, v, 2, n);
}

CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s)
{
    (void)s;
    return set(p, v, 4, n);
}

/* ---- streams and events: in order; events read the modelled clock ---- */

CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    if (!(*s = calloc(1, sizeof **s))) return CUDA_ERROR_OUT_OF_MEMORY;
    (*s)->flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int prio)
{
    (void)prio;
    return cuStreamCreate(s, flags);
}

CUresult cuStreamDestroy_v2(CUstream s)
{
    free(s);
    return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream s)
{
    (void)s;
    return drv_get()->sticky;
}

CUresult cuStreamQuery(CUstream s)
{
    (void)s;
    return drv_get()->sticky;
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
    (void)s, (void)e, (void)flags;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream s, unsigned *flags)
{
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = s ? s->flags : 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetPriority(CUstream s, int *prio)
{
    (void)s;
    if (!prio) return CUDA_ERROR_INVALID_VALUE;
    *prio = 0;
    return CUDA_SUCCESS;
}

CUresult cuStreamGetCtx(CUstream s, CUcontext *ctx)
{
    (void)s;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = &drv_get()->ctx;
    return CUDA_SUCCESS;
}

CUresult cuStreamAddCallback(CUstream s, void (*cb)(CUstream, CUresult, void *), void *user, unsigned flags)
{
    (void)flags;
    if (!cb) return CUDA_ERROR_INVALID_VALUE;
    cb(s, drv_get()->sticky, user);
    return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream s, void (*fn)(void *), void *user)
{
    (void)s;
    if (!fn) return CUDA_ERROR_INVALID_VALUE;
    fn(user);
    return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *e, unsigned flags)
{
    (void)flags;
    if (!e) return CUDA_ERROR_INVALID_VALUE;
    return (*e = calloc(1, sizeof **e)) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuEventDestroy_v2(CUevent e)
{
    free(e);
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent e, CUstream s)
{
    (void)s;
    if (!e) return CUDA_ERROR_INVALID_HANDLE;
    driver *d = drv_get();
    LOCKED(d) e->t_us = d->now_us;
    e->recorded = 1;
    return CUDA_SUCCESS;
}

CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags)
{
    (void)flags;
    return cuEventRecord(e, s);
}

CUresult cuEventSynchronize(CUevent e) { return e ? drv_get()->sticky : CUDA_ERROR_INVALID_HANDLE; }
CUresult cuEventQuery(CUevent e) { return e ? drv_get()->sticky : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    if (!ms || !a || !b) return CUDA_ERROR_INVALID_VALUE;
    if (!a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
    *ms = (float)((b->t_us - a->t_us) / 1000.0);
    return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime(ms, a, b); }

/* ---- launches ---- */

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream s, void **params, void **extra)
{
    (void)s;
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    driver *d = drv_get();
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    CUresult rc;
    LOCKED(d) rc = drv_launch(d, f, grid, block, shared, params, extra);
    return rc;
}

/* cuLaunchKernelEx: a launch with attributes, of which the cluster's shape
 * (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, 4: three unsigned) changes what
 * runs; the others (cooperative, scheduling preferences, priorities) are
 * what an in-order device has anyway. */
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
    if (!c || (c->numAttrs && !c->attrs)) return CUDA_ERROR_INVALID_VALUE;
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    driver *d = drv_get();
    unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ}, block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
    unsigned cluster[3] = {0, 0, 0};
    for (unsigned i = 0; i < c->numAttrs; i++)
        if (c->attrs[i].id == 4) memcpy(cluster, c->attrs[i].value, sizeof cluster);
    CUresult rc;
    LOCKED(d) {
        memcpy(d->cluster, cluster, sizeof cluster);
        rc = drv_launch(d, f, grid, block, c->sharedMemBytes, params, extra);
        memset(d->cluster, 0, sizeof d->cluster);
    }
    return rc;
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, CUstream s, void **params)
{
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, s, params, NULL);
}

/* ---- errors, profiler ---- */

CUresult cuGetErrorString(CUresult e, const char **s)
{
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    *s = drv_error_string(e, 0);
    return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult e, const char **s)
{
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    *s = drv_error_string(e, 1);
    return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }
