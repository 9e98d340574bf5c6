/* cuGetExportTable: the private tables the CUDA runtime (cudart, linked
 * statically into every program nvcc builds) asks the driver for, by UUID.
 * Their layout is NVIDIA's and undocumented; what is here follows what the
 * runtime was seen to call under coalsim run (CUDA 12 and 13), as other
 * drop-in drivers (ZLUDA) describe them:
 *   6bd5fb6c-...: the runtime's interface: modules from fatbinaries, the
 *                 primary context;
 *   a094798c-...: tools callbacks: two buffers the runtime writes into;
 *   c693336e-...: context-local storage (put, delete, get by key);
 *   42d85a81-...: tools thread-local storage (nothing needed);
 *   263e8860-...: context checks;
 *   d4082055-...: the integrity check (integrity.c);
 *   f8cff951-...: a shortcut of the runtime's start-up: "not found" makes
 *                 the runtime take its ordinary path.
 * A slot the runtime calls that is not understood notes the call for the
 * report and answers CUDA_ERROR_NOT_SUPPORTED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/api.h"
#include "driver/integrity.h"

/* ---- the runtime's interface ---- */

static CUresult module_from_wrapper(CUmodule *m, const void *wrapper) { return cuModuleLoadData(m, wrapper); }

static CUresult primary_context(CUcontext *ctx, CUdevice dev) { return cuDevicePrimaryCtxRetain(ctx, dev); }

static CUresult module_from_wrapper_ext(CUmodule *m, const void *wrapper, void *a, void *b, unsigned c)
{
    (void)a, (void)b, (void)c;
    return cuModuleLoadData(m, wrapper);
}

static void runtime_note(size_t v) { (void)v; }

static CUresult module_from_fatbin_ext(const void *fatbin, CUmodule *m, void *a, void *b, unsigned c)
{
    (void)a, (void)b, (void)c;
    return cuModuleLoadData(m, fatbin);
}

static CUresult load_compilers(void) { return CUDA_SUCCESS; }

#define SLOT(n) \
    static CUresult slot##n(void) \
    { \
        drv_unsupported("cudart interface slot " #n); \
        return CUDA_ERROR_NOT_SUPPORTED; \
    }
SLOT(3)
SLOT(4)
SLOT(5)
SLOT(9)
SLOT(10)
SLOT(11)

static const void *runtime_table[13] = {
    (const void *)(13 * sizeof(void *)),
    (const void *)module_from_wrapper,
    (const void *)primary_context,
    (const void *)slot3,
    (const void *)slot4,
    (const void *)slot5,
    (const void *)module_from_wrapper_ext,
    (const void *)runtime_note,
    (const void *)module_from_fatbin_ext,
    (const void *)slot9,
    (const void *)slot10,
    (const void *)slot11,
    (const void *)load_compilers,
};

/* ---- tools callbacks: two buffers ---- */

static unsigned char tools_buffer1[4096], tools_buffer2[64];

static void tools_get1(void **p, size_t *n)
{
    *p = tools_buffer1;
    *n = 1024;
}

static void tools_get2(void **p, size_t *n)
{
    *p = tools_buffer2;
    *n = 14;
}

static const void *tools_table[7] = {
    (const void *)(7 * sizeof(void *)), NULL, (const void *)tools_get1, NULL, NULL, NULL, (const void *)tools_get2,
};

/* ---- context-local storage ---- */

static CUresult storage_put(CUcontext ctx, void *key, void *value, void *dtor)
{
    (void)dtor;
    driver *d = drv_get();
    struct drv_ctx *c = ctx ? ctx : &d->ctx;
    CUresult rc = CUDA_SUCCESS;
    pthread_mutex_lock(&d->lock);
    size_t i = 0;
    while (i < c->nslots && c->slots[i].key != key) i++;
    if (i == c->nslots) {
        if (c->nslots == c->capslots) {
            size_t cap = c->capslots ? 2 * c->capslots : 8;
            struct drv_slot *s = realloc(c->slots, cap * sizeof *s);
            if (!s) rc = CUDA_ERROR_OUT_OF_MEMORY;
            else c->slots = s, c->capslots = cap;
        }
        if (rc == CUDA_SUCCESS) c->slots[c->nslots++].key = key;
    }
    if (rc == CUDA_SUCCESS) c->slots[i].value = value;
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static CUresult storage_delete(CUcontext ctx, void *key)
{
    driver *d = drv_get();
    struct drv_ctx *c = ctx ? ctx : &d->ctx;
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < c->nslots; i++)
        if (c->slots[i].key == key) {
            c->slots[i] = c->slots[--c->nslots];
            break;
        }
    pthread_mutex_unlock(&d->lock);
    return CUDA_SUCCESS;
}

static CUresult storage_get(void **value, CUcontext ctx, void *key)
{
    driver *d = drv_get();
    struct drv_ctx *c = ctx ? ctx : &d->ctx;
    CUresult rc = CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < c->nslots; i++)
        if (c->slots[i].key == key) {
            if (value) *value = c->slots[i].value;
            rc = CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static const void *storage_table[4] = {
    (const void *)storage_put, (const void *)storage_delete, (const void *)storage_get, NULL,
};

/* ---- tools thread-local storage, context checks ---- */

static const void *tools_tls_table[4] = {(const void *)(4 * sizeof(void *)), NULL, NULL, NULL};

static CUresult context_check(CUcontext ctx, uint32_t *result, const void **extra)
{
    (void)ctx, (void)extra;
    if (result) *result = 0;
    return CUDA_SUCCESS;
}

static uint32_t context_check3(void) { return 0; }

static const void *checks_table[4] = {
    (const void *)(4 * sizeof(void *)), NULL, (const void *)context_check, (const void *)context_check3,
};

/* ---- the integrity check ---- */

static CUresult integrity(uint32_t version, uint64_t seconds, uint64_t result[2]);

static const void *integrity_table[3] = {(const void *)(3 * sizeof(void *)), (const void *)integrity, NULL};

static CUresult integrity(uint32_t version, uint64_t seconds, uint64_t result[2])
{
    if (!result) return CUDA_ERROR_INVALID_VALUE;
    return drv_integrity(version, seconds, runtime_table, integrity_table, (const void *)integrity, result);
}

static const struct {
    unsigned char id[16];
    const void *table;
} tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, runtime_table},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, tools_table},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}, storage_table},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, tools_tls_table},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, integrity_table},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, checks_table},
};

static const unsigned char startup_shortcut[16] = {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                                   0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9};

CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
    if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
    *table = NULL;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (!memcmp(tables[i].id, id->bytes, 16)) {
            *table = tables[i].table;
            return CUDA_SUCCESS;
        }
    if (memcmp(startup_shortcut, id->bytes, 16) != 0) {
        char what[80];
        int n = snprintf(what, sizeof what, "cuGetExportTable ");
        for (int i = 0; i < 16; i++) n += snprintf(what + n, sizeof what - (size_t)n, "%02x", id->bytes[i]);
        drv_unsupported(what);
    }
    return CUDA_ERROR_NOT_FOUND;
}
