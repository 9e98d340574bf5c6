// Atomic probes for coalsim: how the H100 counts a warp's global atomics and
// reductions (requests, sectors) and shared atomics (wavefronts) when lanes
// share addresses, words and sectors.
//
// Every pattern is 32 lane offsets (bytes, 4-byte aligned; -1: the lane is
// off) run as one single-warp launch of each kernel below, whose only LSU
// instruction is the atomic under test (offsets come from __constant__
// memory, results go to the other space).  Run it under ncu
// (run_atomics.sh); stdout says which pattern and kernel each launch was:
//   LAUNCH <index> <pattern> <op>
// and "PATTERN <name> o0 .. o31" once a pattern, for the join.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                                        \
    do {                                                                                                \
        cudaError_t err_ = (x);                                                                         \
        if (err_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "atomics: %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

__constant__ int c_off[32];

__global__ void k_atom_global(char *base)
{
    __shared__ unsigned sink[32];
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned v;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(base + o) : "memory");
    ((volatile unsigned *)sink)[threadIdx.x] = v;
}
__global__ void k_red_global(char *base)
{
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    asm volatile("red.global.add.u32 [%0], 1;" ::"l"(base + o) : "memory");
}
__global__ void k_redf_global(char *base)
{
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    asm volatile("red.global.add.f32 [%0], 0f3F800000;" ::"l"(base + o) : "memory");
}
__global__ void k_cas_global(char *base)
{
    __shared__ unsigned sink[32];
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned v;
    asm volatile("atom.global.cas.b32 %0, [%1], 0, 1;" : "=r"(v) : "l"(base + o) : "memory");
    ((volatile unsigned *)sink)[threadIdx.x] = v;
}
__global__ void k_atom_shared(unsigned *gsink)
{
    __shared__ __align__(16) unsigned smem[1024];
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned v, a = (unsigned)__cvta_generic_to_shared(smem) + (unsigned)o;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(a) : "memory");
    ((volatile unsigned *)gsink)[threadIdx.x] = v;
}
__global__ void k_red_shared(int)
{
    __shared__ __align__(16) unsigned smem[1024];
    int o = c_off[threadIdx.x];
    if (o < 0) return;
    unsigned a = (unsigned)__cvta_generic_to_shared(smem) + (unsigned)o;
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a) : "memory");
}

struct Pattern {
    std::string name;
    int off[32];
};

static unsigned rng_state = 12345;
static unsigned rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static std::vector<Pattern> patterns(void)
{
    std::vector<Pattern> v;
    auto add = [&](const char *name, int (*f)(int, unsigned), unsigned arg) {
        Pattern p;
        p.name = name;
        for (int l = 0; l < 32; l++) p.off[l] = f(l, arg);
        v.push_back(p);
    };
    add("unit", [](int l, unsigned) { return 4 * l; }, 0);
    add("same", [](int, unsigned) { return 0; }, 0);
    add("same_word_in_sector3", [](int, unsigned) { return 100; }, 0);
    add("pairs", [](int l, unsigned) { return 4 * (l / 2); }, 0);
    add("quads", [](int l, unsigned) { return 4 * (l / 4); }, 0);
    add("eights", [](int l, unsigned) { return 4 * (l / 8); }, 0);
    add("mod8", [](int l, unsigned) { return 4 * (l % 8); }, 0);
    add("mod2", [](int l, unsigned) { return 4 * (l % 2); }, 0);
    add("stride32B", [](int l, unsigned) { return 32 * l; }, 0);
    add("stride32B_pairs", [](int l, unsigned) { return 32 * (l / 2); }, 0);
    add("two_sectors_two_words", [](int l, unsigned) { return l < 16 ? 0 : 32; }, 0);
    add("two_sectors_16_and_1", [](int l, unsigned) { return l < 16 ? 0 : 32 + 4 * (l - 16); }, 0);
    add("one_sector_16_and_1", [](int l, unsigned) { return l < 16 ? 0 : 4 * ((l - 16) % 8); }, 0);
    add("half_same_half_unit", [](int l, unsigned) { return l < 16 ? 512 : 4 * l; }, 0);
    add("half_off", [](int l, unsigned) { return l % 2 ? -1 : 4 * l; }, 0);
    add("half_off_same", [](int l, unsigned) { return l % 2 ? -1 : 0; }, 0);
    add("one_lane", [](int l, unsigned) { return l == 5 ? 64 : -1; }, 0);
    add("line_stride", [](int l, unsigned) { return 128 * l; }, 0);
    add("rand64w_s1", [](int, unsigned) { return (int)(4 * (rnd() % 64)); }, 0);
    add("rand64w_s2", [](int, unsigned) { return (int)(4 * (rnd() % 64)); }, 0);
    add("rand16w_s1", [](int, unsigned) { return (int)(4 * (rnd() % 16)); }, 0);
    add("rand16w_s2", [](int, unsigned) { return (int)(4 * (rnd() % 16)); }, 0);
    add("rand256w_s1", [](int, unsigned) { return (int)(4 * (rnd() % 256)); }, 0);
    add("rand256w_s2", [](int, unsigned) { return (int)(4 * (rnd() % 256)); }, 0);
    add("rand768w_s1", [](int, unsigned) { return (int)(4 * (rnd() % 768)); }, 0);
    add("rand8w", [](int, unsigned) { return (int)(4 * (rnd() % 8)); }, 0);
    add("sorted_runs", [](int l, unsigned) { return 4 * (l / 3); }, 0);
    add("bank_conflict_2way", [](int l, unsigned) { return 128 * (l % 2) + 4 * (l / 2); }, 0);
    add("bank_conflict_32way", [](int l, unsigned) { return 128 * l; }, 0);
    return v;
}

int main(void)
{
    std::vector<Pattern> pats = patterns();
    char *gbuf;
    unsigned *gsink;
    CHECK(cudaMalloc(&gbuf, 1 << 20));
    CHECK(cudaMalloc(&gsink, 4096));
    CHECK(cudaMemset(gbuf, 0, 1 << 20));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("DEVICE %s sm_%d%d base mod 4096 = %llu\n", prop.name, prop.major, prop.minor,
           (unsigned long long)((uintptr_t)gbuf % 4096));
    for (const Pattern &p : pats) {
        printf("PATTERN %s", p.name.c_str());
        for (int l = 0; l < 32; l++) printf(" %d", p.off[l]);
        printf("\n");
    }
    const char *ops[] = {"atom_global", "red_global", "redf_global", "cas_global", "atom_shared", "red_shared"};
    int idx = 0;
    for (const Pattern &p : pats) {
        CHECK(cudaMemcpyToSymbol(c_off, p.off, sizeof p.off));
        for (int k = 0; k < 6; k++) {
            if (k >= 4) {
                bool fits = true;
                for (int l = 0; l < 32; l++) fits = fits && p.off[l] < 4096;
                if (!fits) continue;
            }
            switch (k) {
            case 0: k_atom_global<<<1, 32>>>(gbuf); break;
            case 1: k_red_global<<<1, 32>>>(gbuf); break;
            case 2: k_redf_global<<<1, 32>>>(gbuf); break;
            case 3: k_cas_global<<<1, 32>>>(gbuf); break;
            case 4: k_atom_shared<<<1, 32>>>(gsink); break;
            default: k_red_shared<<<1, 32>>>(0); break;
            }
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            printf("LAUNCH %d %s %s\n", idx++, p.name.c_str(), ops[k]);
        }
    }
    CHECK(cudaFree(gbuf));
    CHECK(cudaFree(gsink));
    return 0;
}
