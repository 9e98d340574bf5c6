/* Module images (fatbin.h).  A fatbinary is a 16-byte header (magic
 * 0xBA55ED50, version, header size, payload size) and entries, each a
 * header (kind 1 PTX or 2 ELF, its size, the sm it is for, flags) and its
 * payload; nvcc compresses PTX with zstd (flag 0x8000) or, before CUDA
 * 12.8, LZ4 (0x2000).  The decompressors are loaded when first needed
 * (libzstd.so.1, liblz4.so.1), so coalsim builds without their headers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/fatbin.h"

#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u

static uint16_t u16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t u32(const unsigned char *p) { return (uint32_t)u16(p) | (uint32_t)u16(p + 2) << 16; }
static uint64_t u64(const unsigned char *p) { return (uint64_t)u32(p) | (uint64_t)u32(p + 4) << 32; }

/* SRC (N bytes, compressed as FLAGS say) into a buffer of OUTLEN bytes. */
static char *decompress(const unsigned char *src, size_t n, uint64_t flags, size_t outlen, char *err, size_t cap)
{
    char *out = malloc(outlen + 1);
    if (!out) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    const char *lib = flags & FLAG_ZSTD ? "libzstd.so.1" : "liblz4.so.1";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, cap, "its PTX is compressed and %s, which decompresses it, cannot be loaded (Debian: %s)", lib,
                 flags & FLAG_ZSTD ? "libzstd1" : "liblz4-1");
        free(out);
        return NULL;
    }
    long got = -1;
    if (flags & FLAG_ZSTD) {
        size_t (*dec)(void *, size_t, const void *, size_t) = (size_t (*)(void *, size_t, const void *, size_t))dlsym(
            h, "ZSTD_decompress");
        unsigned (*is_error)(size_t) = (unsigned (*)(size_t))dlsym(h, "ZSTD_isError");
        if (dec && is_error) {
            size_t r = dec(out, outlen, src, n);
            got = is_error(r) ? -1 : (long)r;
        }
    } else {
        int (*dec)(const char *, char *, int, int) = (int (*)(const char *, char *, int, int))dlsym(
            h, "LZ4_decompress_safe");
        if (dec && n < 1u << 30 && outlen < 1u << 30) got = dec((const char *)src, out, (int)n, (int)outlen);
    }
    dlclose(h);
    if (got < 0 || (size_t)got > outlen) {
        snprintf(err, cap, "its compressed PTX (%zu bytes, %s) does not decompress", n,
                 flags & FLAG_ZSTD ? "zstd" : "LZ4");
        free(out);
        return NULL;
    }
    out[got] = '\0';
    return out;
}

int fatbin_ptx(const void *image, unsigned sm, char **ptx, size_t *len, char *err, size_t cap)
{
    const unsigned char *p = image;
    if (!p) {
        snprintf(err, cap, "no image");
        return -1;
    }
    if (u32(p) == WRAPPER_MAGIC) {
        const void *data;
        memcpy(&data, p + 8, sizeof data);
        p = data;
        if (!p) {
            snprintf(err, cap, "a fatbinary wrapper with no fatbinary");
            return -1;
        }
    }
    if (u32(p) != FATBIN_MAGIC) {
        if (!memcmp(p, "\177ELF", 4)) {
            snprintf(err, cap, "a cubin (machine code only, no PTX)");
            return 1;
        }
        /* PTX text, as cuModuleLoadData takes it */
        const char *t = (const char *)p;
        if (strstr(t, ".version") && strstr(t, ".target")) {
            *len = strlen(t);
            if (!(*ptx = strdup(t))) {
                snprintf(err, cap, "out of memory");
                return -1;
            }
            return 0;
        }
        snprintf(err, cap, "not a fatbinary, cubin or PTX (it starts with 0x%08x)", u32(p));
        return -1;
    }
    uint16_t hsize = u16(p + 6);
    uint64_t total = u64(p + 8);
    const unsigned char *e = p + hsize, *end = p + hsize + total;
    const unsigned char *best = NULL;
    unsigned best_arch = 0, elf_arch = 0, ptx_min = 0;
    int nptx = 0;
    while (e + 64 <= end) {
        uint16_t kind = u16(e);
        uint32_t ehs = u32(e + 4);
        uint64_t size = u64(e + 8);
        unsigned arch = u32(e + 28);
        if (ehs < 64 || e + ehs + size > end) break;
        if (kind == KIND_PTX) {
            nptx++;
            if (!ptx_min || arch < ptx_min) ptx_min = arch;
            if (arch <= sm && arch >= best_arch) best = e, best_arch = arch;
        } else if (kind == KIND_ELF && arch > elf_arch) {
            elf_arch = arch;
        }
        e += ehs + size;
    }
    if (!best) {
        if (nptx) snprintf(err, cap, "its PTX is for compute_%u and newer, which an sm_%u GPU cannot run", ptx_min, sm);
        else if (elf_arch) snprintf(err, cap, "machine code for sm_%u only, no PTX", elf_arch);
        else snprintf(err, cap, "an empty fatbinary");
        return 1;
    }
    uint32_t ehs = u32(best + 4);
    uint64_t size = u64(best + 8), flags = u64(best + 40), full = u64(best + 56);
    uint32_t packed = u32(best + 16);
    const unsigned char *payload = best + ehs;
    if (flags & (FLAG_ZSTD | FLAG_LZ4)) {
        if (!full || full > (1ull << 31) || !packed || packed > size) {
            snprintf(err, cap, "a compressed PTX entry whose sizes do not add up");
            return -1;
        }
        if (!(*ptx = decompress(payload, packed, flags, (size_t)full, err, cap))) return -1;
        *len = strlen(*ptx);
        return 0;
    }
    size_t n = strnlen((const char *)payload, (size_t)size);
    if (!(*ptx = malloc(n + 1))) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    memcpy(*ptx, payload, n);
    (*ptx)[n] = '\0';
    *len = n;
    return 0;
}
