// Why a copy of 42-52 MB run back to back takes longer than ncu's cold replay of it (issue 29: on
// the H100 1.16-1.36x, on the H200 up to 1.25x; the read-only launches of the same size do not).
// Is it the previous launch's dirty lines, written back to DRAM while the next launch runs?
//
// For copies of N floats a side (a thread an element, 256-thread blocks), each configuration is the
// median of 9 cudaEvent times of the copy alone, queued behind what runs before it (untimed; a launch
// timed from an idle GPU would add its start, about 3 us):
//   b2b        the copy right after the same copy (what a timing loop measures)
//   flushed    after a 256 MiB read that leaves L2 holding nothing of the copy's, and nothing dirty
//   dirty      after a copy of two other buffers of the same size: nothing of the copy's in L2,
//              and the other copy's output dirty there
//   in_warm    after the flush, then a read of the copy's input: its input in L2, nothing dirty
//   out_dirty  after the flush, then a write of the copy's output: its output in L2 and dirty
// and for a read of N floats (a sum), b2b and flushed.
//
// l2_dirty          every size, a line each
#include "timing.cuh"

__global__ void copy(const float *in, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void fill(float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}

__global__ void sum(const float *in, size_t n, float *sink)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    if (v == 1234.5f) *sink = v;
}

// The median over RUNS of the time of TIMED, each run after BEFORE (untimed).
template <class B, class T> static float median_after(B before, T timed, int runs = 9)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < runs + 1; r++) {
        before();
        CK(cudaEventRecord(a));
        timed();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r) t.push_back(ms);      /* the first warms up */
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const size_t big = 64ull << 20, flush_n = (256ull << 20) / 16;   /* floats a side at most; float4s to flush */
    float *in, *out, *in2, *out2, *sink;
    float4 *fl;
    CK(cudaMalloc(&in, big * 4));
    CK(cudaMalloc(&out, big * 4));
    CK(cudaMalloc(&in2, big * 4));
    CK(cudaMalloc(&out2, big * 4));
    CK(cudaMalloc(&fl, flush_n * 16));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(in, 0, big * 4));
    CK(cudaMemset(in2, 0, big * 4));
    CK(cudaMemset(fl, 0, flush_n * 16));
    const int sms = prop.multiProcessorCount;
    printf("# device = %s, sms = %d, l2 = %d bytes; us, median of 9 (the timed launch alone)\n", prop.name, sms,
           prop.l2CacheSize);
    printf("# MiB_a_side copy_MiB  copy:b2b flushed dirty in_warm out_dirty   read:b2b flushed\n");
    for (double mib : {4.0, 8.0, 12.0, 16.0, 18.0, 21.0, 24.0, 26.0, 32.0, 48.0}) {
        const size_t n = (size_t)(mib * 1048576 / 4);
        const unsigned g = (unsigned)((n + 255) / 256);
        auto cp = [&] { copy<<<g, 256>>>(in, out, n); };
        auto cp2 = [&] { copy<<<g, 256>>>(in2, out2, n); };
        auto rd = [&] { sum<<<g, 256>>>(in, n, sink); };
        auto flush = [&] { read_through_l2<<<2 * sms, 1024>>>(fl, flush_n, sink); };
        /* every timed launch queued behind an untimed one: none starts from an idle GPU */
        float b2b = median_after(cp, cp);
        float flushed = median_after(flush, cp);
        float dirty = median_after([&] { flush(); cp2(); }, cp);
        float in_warm = median_after([&] { flush(); rd(); }, cp);
        float out_dirty = median_after([&] { flush(); fill<<<g, 256>>>(out, n); }, cp);
        float rb2b = median_after(rd, rd);
        float rflushed = median_after(flush, rd);
        printf("%6.0f %8.0f   %8.2f %8.2f %8.2f %8.2f %8.2f   %8.2f %8.2f\n", mib, 2 * mib, b2b * 1e3, flushed * 1e3,
               dirty * 1e3, in_warm * 1e3, out_dirty * 1e3, rb2b * 1e3, rflushed * 1e3);
        fflush(stdout);
    }
    return 0;
}
