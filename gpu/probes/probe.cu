// Single-instruction memory probes for coalsim.
//
// Reads gpu/probes/patterns.txt (see gen_patterns.py for the format) and runs
// every pattern (optionally only those whose SPACE and OP match argv[2],
// argv[3], and whose NAME contains argv[4]) as its own kernel launch: one block of WARPS*32 threads, each active
// lane executing exactly one ld/st of SIZE bytes at base + offset.  The offsets
// come from __constant__ memory (LDC, which no LSU counter sees), and the access
// is inline PTX marked volatile, so the kernel's only LSU instruction is the one
// under test.  Run it under ncu (run_probes.sh) to read the counters per launch.
//
// stdout: one line per launch, "LAUNCH <index> <pattern name> <repeat>", in the
// order ncu numbers the kernels.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                              \
    do {                                                                      \
        cudaError_t err_ = (x);                                               \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "probe: %s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
                    cudaGetErrorString(err_));                                \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

enum { MAXWARPS = 32, SHARED_BYTES = 48 * 1024 };
static const size_t GLOBAL_BYTES = 16u << 20;

__constant__ long long c_off[MAXWARPS * 32];

template <int SIZE> __device__ __forceinline__ unsigned ldg(const char *p);
template <> __device__ __forceinline__ unsigned ldg<1>(const char *p) { unsigned v; asm volatile("ld.global.u8 %0, [%1];" : "=r"(v) : "l"(p)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned ldg<2>(const char *p) { unsigned short v; asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(p)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned ldg<4>(const char *p) { unsigned v; asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned ldg<8>(const char *p) { unsigned a, b; asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p)); return a ^ b; }
template <> __device__ __forceinline__ unsigned ldg<16>(const char *p) { unsigned a, b, c, d; asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p)); return a ^ b ^ c ^ d; }

template <int SIZE> __device__ __forceinline__ void stg(char *p, unsigned v);
template <> __device__ __forceinline__ void stg<1>(char *p, unsigned v) { asm volatile("st.global.u8 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void stg<2>(char *p, unsigned v) { unsigned short h = (unsigned short)v; asm volatile("st.global.u16 [%0], %1;" :: "l"(p), "h"(h) : "memory"); }
template <> __device__ __forceinline__ void stg<4>(char *p, unsigned v) { asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void stg<8>(char *p, unsigned v) { asm volatile("st.global.v2.u32 [%0], {%1, %1};" :: "l"(p), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void stg<16>(char *p, unsigned v) { asm volatile("st.global.v4.u32 [%0], {%1, %1, %1, %1};" :: "l"(p), "r"(v) : "memory"); }

template <int SIZE> __device__ __forceinline__ unsigned lds(unsigned a);
template <> __device__ __forceinline__ unsigned lds<1>(unsigned a) { unsigned v; asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v) : "r"(a)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned lds<2>(unsigned a) { unsigned short v; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(a)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned lds<4>(unsigned a) { unsigned v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a)); return (unsigned)v; }
template <> __device__ __forceinline__ unsigned lds<8>(unsigned a) { unsigned x, y; asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a)); return x ^ y; }
template <> __device__ __forceinline__ unsigned lds<16>(unsigned a) { unsigned x, y, z, w; asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a)); return x ^ y ^ z ^ w; }

template <int SIZE> __device__ __forceinline__ void sts(unsigned a, unsigned v);
template <> __device__ __forceinline__ void sts<1>(unsigned a, unsigned v) { asm volatile("st.shared.u8 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void sts<2>(unsigned a, unsigned v) { unsigned short h = (unsigned short)v; asm volatile("st.shared.u16 [%0], %1;" :: "r"(a), "h"(h) : "memory"); }
template <> __device__ __forceinline__ void sts<4>(unsigned a, unsigned v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void sts<8>(unsigned a, unsigned v) { asm volatile("st.shared.v2.u32 [%0], {%1, %1};" :: "r"(a), "r"(v) : "memory"); }
template <> __device__ __forceinline__ void sts<16>(unsigned a, unsigned v) { asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" :: "r"(a), "r"(v) : "memory"); }

// A load's result is stored to a sink in the *other* space (a global load's to
// shared memory, a shared load's to global memory), unconditionally: ptxas
// deletes or sinks a load whose result is unused or used only behind a branch,
// and a store in the other space adds nothing to the counters under test.
template <int SIZE> __global__ void k_ld_global(const char *base)
{
    extern __shared__ __align__(16) char smem[];
    long long o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned v = ldg<SIZE>(base + o);
    ((volatile unsigned *)smem)[threadIdx.x] = v;
}
template <int SIZE> __global__ void k_st_global(char *base)
{
    long long o = c_off[threadIdx.x];
    if (o < 0) return;
    stg<SIZE>(base + o, threadIdx.x);
}
template <int SIZE> __global__ void k_ld_shared(unsigned *gsink)
{
    extern __shared__ __align__(16) char smem[];
    long long o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned v = lds<SIZE>((unsigned)__cvta_generic_to_shared(smem) + (unsigned)o);
    ((volatile unsigned *)gsink)[threadIdx.x] = v;
}
template <int SIZE> __global__ void k_st_shared(int)
{
    extern __shared__ __align__(16) char smem[];
    long long o = c_off[threadIdx.x];
    if (o < 0) return;
    sts<SIZE>((unsigned)__cvta_generic_to_shared(smem) + (unsigned)o, threadIdx.x);
}
__global__ void k_shared_base(unsigned *out)
{
    extern __shared__ __align__(16) char smem[];
    *out = (unsigned)__cvta_generic_to_shared(smem);
}

struct Pattern {
    std::string name, space, op;
    int size, warps, repeat;
    long long wstride;
    long long off[32];
};

static void launch(const Pattern &p, char *gbuf)
{
    dim3 block(p.warps * 32);
    bool g = p.space == "global", ld = p.op == "ld";
#define L(S)                                                                              \
    case S:                                                                               \
        if (g && ld) k_ld_global<S><<<1, block, 4096>>>(gbuf);                                  \
        else if (g) k_st_global<S><<<1, block>>>(gbuf);                                   \
        else if (ld) k_ld_shared<S><<<1, block, SHARED_BYTES>>>((unsigned *)gbuf);                       \
        else k_st_shared<S><<<1, block, SHARED_BYTES>>>(0);                               \
        break;
    switch (p.size) { L(1) L(2) L(4) L(8) L(16) default: fprintf(stderr, "probe: bad size\n"); exit(1); }
#undef L
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "gpu/probes/patterns.txt";
    const char *want_space = argc > 2 ? argv[2] : NULL;
    const char *want_op = argc > 3 ? argv[3] : NULL;
    const char *want_name = argc > 4 ? argv[4] : NULL;   // substring of NAME
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return 1; }
    std::vector<Pattern> pats;
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        Pattern p;
        char name[256], space[16], op[16];
        int n = 0, pos = 0;
        if (sscanf(line, "%255s %15s %15s %d %d %lld %d%n", name, space, op, &p.size, &p.warps,
                   &p.wstride, &p.repeat, &pos) != 7) {
            fprintf(stderr, "probe: %s:%d: bad pattern\n", path, lineno);
            return 1;
        }
        p.name = name; p.space = space; p.op = op;
        char *s = line + pos;
        for (int l = 0; l < 32; l++) {
            char tok[64];
            if (sscanf(s, "%63s%n", tok, &n) != 1) { fprintf(stderr, "probe: %s:%d: short\n", path, lineno); return 1; }
            s += n;
            p.off[l] = strcmp(tok, "-") == 0 ? -1 : atoll(tok);
        }
        if (p.warps < 1 || p.warps > MAXWARPS) { fprintf(stderr, "probe: %s:%d: warps\n", path, lineno); return 1; }
        if (want_space && p.space != want_space) continue;
        if (want_op && p.op != want_op) continue;
        if (want_name && !strstr(name, want_name)) continue;
        pats.push_back(p);
    }
    fclose(f);

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    char *gbuf;
    CHECK(cudaMalloc(&gbuf, GLOBAL_BYTES));
    unsigned *dbase, sbase;
    CHECK(cudaMalloc(&dbase, sizeof *dbase));
    k_shared_base<<<1, 1, SHARED_BYTES>>>(dbase);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&sbase, dbase, sizeof sbase, cudaMemcpyDeviceToHost));
    printf("DEVICE %s sm_%d%d global_base=%p (mod 4096 = %llu) shared_base=0x%x\n", prop.name,
           prop.major, prop.minor, (void *)gbuf, (unsigned long long)((uintptr_t)gbuf % 4096), sbase);

    int idx = 0;
    for (const Pattern &p : pats) {
        long long host[MAXWARPS * 32];
        for (int w = 0; w < p.warps; w++)
            for (int l = 0; l < 32; l++)
                host[w * 32 + l] = p.off[l] < 0 ? -1 : p.off[l] + w * p.wstride;
        CHECK(cudaMemcpyToSymbol(c_off, host, sizeof(long long) * 32 * p.warps));
        for (int r = 0; r < p.repeat; r++) {
            launch(p, gbuf);
            printf("LAUNCH %d %s %d\n", idx++, p.name.c_str(), r);
        }
    }
    CHECK(cudaFree(gbuf));
    CHECK(cudaFree(dbase));
    return 0;
}
