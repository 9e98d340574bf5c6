// Address capture: in the CAP=true instantiation of a kernel, every active lane
// of a warp writes one record per memory access into a device buffer.  The
// lowest active lane reserves room for the whole warp with one atomicAdd, so a
// warp instruction's records are contiguous, lanes in order: exactly the
// grouping trace format v1 wants.  Blocks can be sampled (every k-th block).
#pragma once
#include <cstdint>

struct CapRecord {
    unsigned long long addr;
    unsigned block, thread;
    unsigned char op, space, size, label;
    unsigned pad;
};

struct CapState {
    CapRecord *buf;
    unsigned long long *count;
    unsigned long long capacity;
    unsigned block_stride;
};

__constant__ CapState d_cap;

template <bool CAP>
__device__ __forceinline__ void cap_note(int op, int space, int size, int label, const volatile void *p)
{
    if constexpr (CAP) {
        unsigned blk = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
        if (blk % d_cap.block_stride) return;
        unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
        unsigned lane = tid & 31;
        unsigned mask = __activemask();
        unsigned leader = __ffs(mask) - 1;
        unsigned long long base = 0;
        if (lane == leader) base = atomicAdd(d_cap.count, (unsigned long long)__popc(mask));
        base = __shfl_sync(mask, base, leader);
        unsigned long long i = base + __popc(mask & ((1u << lane) - 1));
        if (i < d_cap.capacity) {
            CapRecord r;
            r.addr = space ? (unsigned long long)__cvta_generic_to_shared((const void *)p)
                           : (unsigned long long)(uintptr_t)p;
            r.block = blk;
            r.thread = tid;
            r.op = (unsigned char)op;
            r.space = (unsigned char)space;
            r.size = (unsigned char)size;
            r.label = (unsigned char)label;
            r.pad = 0;
            d_cap.buf[i] = r;
        }
    } else {
        (void)op, (void)space, (void)size, (void)label, (void)p;
    }
}
