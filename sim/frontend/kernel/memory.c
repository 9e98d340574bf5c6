/* Memory kept across launches (coalsim_memory in coalsim.h): allocations
 * are kmem buffers named by their order, made and freed as a program's
 * cudaMalloc and cudaFree ask; copies go page by page.  Managed memory is
 * the process's own memory mapped at the allocation's address, so that the
 * host and the kernels share it as on a GPU with unified memory. */
#define _GNU_SOURCE      /* MAP_FIXED_NOREPLACE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coalsim.h"
#include "frontend/kernel/kmem.h"

coalsim_memory *coalsim_memory_new(void)
{
    coalsim_memory *m = calloc(1, sizeof *m);
    if (m && kmem_init(&m->m) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

static size_t mapped_size(uint64_t size) { return (size_t)((size + KMEM_PAGE - 1) / KMEM_PAGE * KMEM_PAGE); }

void coalsim_memory_free(coalsim_memory *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->m.nbufs; i++)
        if (m->m.bufs[i].host) munmap(m->m.bufs[i].host, mapped_size(m->m.bufs[i].size));
    kmem_free(&m->m);
    free(m);
}

uint64_t coalsim_memory_alloc(coalsim_memory *m, uint64_t size)
{
    if (!size || size > (1ull << 40)) return 0;
    if (m->m.next_base + size >= 1ull << KMEM_ADDR_BITS) return 0;
    char name[32];
    snprintf(name, sizeof name, "alloc%llu", (unsigned long long)++m->allocs);
    kfill f = {.kind = KF_ZERO};
    return kmem_add(&m->m, name, size, &f);
}

uint64_t coalsim_memory_alloc_managed(coalsim_memory *m, uint64_t size)
{
    if (!size || size > (1ull << 40)) return 0;
    uint64_t base = kmem_next_base(&m->m, size);
    if (base + size >= 1ull << KMEM_ADDR_BITS) return 0;
    void *p = mmap((void *)(uintptr_t)base, mapped_size(size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) return 0;
    char name[32];
    snprintf(name, sizeof name, "managed%llu", (unsigned long long)++m->allocs);
    if (p != (void *)(uintptr_t)base || !kmem_add_host(&m->m, name, size, p)) {
        munmap(p, mapped_size(size));
        return 0;
    }
    return base;
}

int coalsim_memory_release(coalsim_memory *m, uint64_t addr)
{
    if (addr < KMEM_BASE) return -1;      /* module variables stay */
    const kbuf *b = kmem_find(&m->m, addr, 1);
    if (!b || b->base != addr) return -1;
    unsigned char *host = b->host;
    uint64_t size = b->size;
    if (kmem_release(&m->m, addr) != 0) return -1;
    if (host) munmap(host, mapped_size(size));
    return 0;
}

int coalsim_memory_find(const coalsim_memory *m, uint64_t addr, uint64_t n, uint64_t *base, uint64_t *size)
{
    const kbuf *b = kmem_find(&m->m, addr, n ? n : 1);
    if (!b) return -1;
    if (base) *base = b->base;
    if (size) *size = b->size;
    return 0;
}

int coalsim_memory_write(coalsim_memory *m, uint64_t addr, const void *src, size_t n)
{
    if (!n) return 0;
    if (!kmem_find(&m->m, addr, n)) return -1;
    return kmem_write(&m->m, addr, src, n);
}

int coalsim_memory_read(coalsim_memory *m, uint64_t addr, void *dst, size_t n)
{
    if (!n) return 0;
    if (!kmem_find(&m->m, addr, n)) return -1;
    return kmem_read(&m->m, addr, dst, n);
}

int coalsim_memory_copy(coalsim_memory *m, uint64_t dst, uint64_t src, size_t n)
{
    if (!n) return 0;
    if (!kmem_find(&m->m, dst, n) || !kmem_find(&m->m, src, n)) return -1;
    unsigned char buf[KMEM_PAGE];
    /* overlapping ranges copy as memmove does */
    int back = dst > src && dst < src + n;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < sizeof buf ? n - done : sizeof buf;
        size_t off = back ? n - done - k : done;
        if (kmem_read(&m->m, src + off, buf, k) != 0 || kmem_write(&m->m, dst + off, buf, k) != 0) return -1;
        done += k;
    }
    return 0;
}

int coalsim_memory_set(coalsim_memory *m, uint64_t addr, uint32_t value, unsigned size, size_t n)
{
    if (size != 1 && size != 2 && size != 4) return -1;
    if (!n) return 0;
    if (!kmem_find(&m->m, addr, (uint64_t)n * size)) return -1;
    unsigned char buf[KMEM_PAGE];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(value >> (8 * (i % size)));
    uint64_t total = (uint64_t)n * size;
    for (uint64_t done = 0; done < total;) {
        size_t k = total - done < sizeof buf ? (size_t)(total - done) : sizeof buf;
        if (kmem_write(&m->m, addr + done, buf, k) != 0) return -1;
        done += k;
    }
    return 0;
}

int coalsim_memory_is_managed(const coalsim_memory *m, uint64_t addr)
{
    const kbuf *b = kmem_find(&m->m, addr, 1);
    return b && b->host;
}
