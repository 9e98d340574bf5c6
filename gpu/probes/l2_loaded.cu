// The latency of a load that L2 serves, and of one that DRAM serves, while
// other warps keep L2 busy with scattered line requests.  The time model
// charges unloaded L2 latency (lat_l2_ns); spmv_vector's gathers keep L2
// 71% busy on the H100 and take about 400 ns a round trip where the model
// says 236.
//
// One block a SM: warp 0 chases a random cycle of 128-byte lines (one
// coalesced request a hop, each hop needing the last), warps 1..LOADERS
// each load 32 random lines a request (one a lane) with __ldcg, 4 requests
// in flight, until the chase is done.  The kernel's time over the hops is
// the latency; the loaders' lines over the time is the load.
//
// nvcc -O3 -arch=sm_90 -o l2_loaded l2_loaded.cu && ./l2_loaded
#include "timing.cuh"

__global__ void loaded(const unsigned *lines, const unsigned *chase_lines, unsigned mask, unsigned *starts, int hops,
                       int loaders, unsigned long long *done_lines, float *sink)
{
    __shared__ volatile int done;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) done = 0;
    __syncthreads();
    if (warp == 0) {
        unsigned p = starts[blockIdx.x];
        for (int h = 0; h < hops; h++) p = __ldcg(&chase_lines[(size_t)p * 32 + lane]);
        if (lane == 0) {
            starts[blockIdx.x] = p;
            done = 1;
        }
    } else if ((int)warp <= loaders) {
        unsigned x = (blockIdx.x * 1024u + threadIdx.x) * 2654435761u + 12345u;
        unsigned long long n = 0;
        unsigned acc = 0;
        while (!done) {
            unsigned a[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                x = x * 1664525u + 1013904223u;
                a[k] = __ldcg(&lines[(size_t)((x >> 8) & mask) * 32]);
            }
            acc += a[0] ^ a[1] ^ a[2] ^ a[3];
            n += 4 * 32;                             /* 4 requests of 32 lines */
        }
        if (acc == 0xdeadbeefu) *sink = (float)acc;
        if (lane == 0) atomicAdd(done_lines, n);       /* the warp's lines: 32 a request */
    }
}

// lines[i * 32 + l] = next[i]
__global__ void fill(unsigned *lines, const unsigned *next, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n * 32) lines[i] = next[i / 32];
}

static void make_cycle(unsigned *d, size_t n, unsigned *starts, int sms)
{
    std::vector<unsigned> perm(n), next(n);
    for (size_t i = 0; i < n; i++) perm[i] = (unsigned)i;
    srand(7);
    for (size_t i = n - 1; i > 0; i--) std::swap(perm[i], perm[(size_t)rand() % (i + 1)]);
    for (size_t i = 0; i < n; i++) next[perm[i]] = perm[(i + 1) % n];
    unsigned *dn;
    CK(cudaMalloc(&dn, n * sizeof(unsigned)));
    CK(cudaMemcpy(dn, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    fill<<<(unsigned)((n * 32 + 255) / 256), 256>>>(d, dn, n);
    CK(cudaDeviceSynchronize());
    CK(cudaFree(dn));
    std::vector<unsigned> st(sms);
    for (int i = 0; i < sms; i++) st[i] = perm[(size_t)i * (n / sms)];
    CK(cudaMemcpy(starts, st.data(), sms * sizeof(unsigned), cudaMemcpyHostToDevice));
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const size_t l2lines = (size_t)1 << 17;            /* 16 MiB: in L2 */
    const size_t dlines = (size_t)1 << 23;             /* 1 GiB: DRAM */
    unsigned *l2buf, *dbuf, *starts;
    unsigned long long *done_lines;
    float *sink;
    CK(cudaMalloc(&l2buf, l2lines * 128));
    CK(cudaMalloc(&dbuf, dlines * 128));
    CK(cudaMalloc(&starts, sms * sizeof(unsigned)));
    CK(cudaMalloc(&done_lines, sizeof(unsigned long long)));
    CK(cudaMalloc(&sink, sizeof(float)));
    printf("# device = %s, sms = %d\n", prop.name, sms);
    printf("# chase    loaders/SM  load_lines_per_ns  hop_ns   (median of 9 runs)\n");
    const int loaders[] = {0, 1, 2, 3, 4, 5, 6, 8, 16, 31};
    for (int where = 0; where < 2; where++) {
        unsigned *chase = where == 0 ? l2buf : dbuf;
        size_t n = where == 0 ? l2lines : dlines;
        make_cycle(chase, n, starts, sms);
        if (where == 1) make_cycle(l2buf, l2lines, starts, sms), make_cycle(chase, n, starts, sms);
        const int hops = where == 0 ? 3000 : 1500;
        for (int li : loaders) {
            std::vector<float> ms;
            std::vector<double> rate;
            for (int r = 0; r < 9; r++) {
                CK(cudaMemset(done_lines, 0, sizeof(unsigned long long)));
                cudaEvent_t a, b;
                CK(cudaEventCreate(&a));
                CK(cudaEventCreate(&b));
                CK(cudaEventRecord(a));
                loaded<<<sms, 32 * (li + 1)>>>(l2buf, chase, (unsigned)(l2lines - 1), starts, hops, li, done_lines, sink);
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                CK(cudaGetLastError());
                float t;
                CK(cudaEventElapsedTime(&t, a, b));
                unsigned long long lines;
                CK(cudaMemcpy(&lines, done_lines, sizeof lines, cudaMemcpyDeviceToHost));
                ms.push_back(t);
                rate.push_back((double)lines / (t * 1e6));
                CK(cudaEventDestroy(a));
                CK(cudaEventDestroy(b));
            }
            std::vector<float> s = ms;
            std::sort(s.begin(), s.end());
            float med = s[s.size() / 2];
            double rt = 0;
            for (size_t i = 0; i < ms.size(); i++)
                if (ms[i] == med) rt = rate[i];
            printf("%-8s %10d %18.1f %8.1f\n", where == 0 ? "l2" : "dram", li, rt, med * 1e6 / hops);
        }
    }
    return 0;
}
