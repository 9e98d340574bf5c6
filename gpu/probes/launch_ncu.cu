// What a launch costs when Nsight Compute times it (gpu__time_duration, caches
// flushed, one launch at a time) against back-to-back cudaEvent loops, for
// launches with next to no work: an empty kernel and one that stores a word a
// thread, from 1 block of 32 threads to 33 waves of 256-thread blocks.  The
// time model's back-to-back cost is launch_b2b_us (gpu/profiles/*.txt);
// held-out round 11's smallest launches took 2.6-2.9 us under ncu where that
// cost alone is 3.4-4.0 (README, "Held out, round 11").
//   usage: launch_ncu [REPEATS]    (prints one line a configuration)
// Under ncu (run_launch_ncu.sh) each configuration's launches are profiled; the
// printed event times are then not meaningful, only ncu's.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                     \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));           \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

__global__ void empty_kernel() {}

__global__ void store_kernel(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 21;
    if (repeats < 1) repeats = 1;
    static const struct {
        unsigned blocks, threads;
    } cfg[] = {{1, 32}, {132, 32}, {132, 256}, {1056, 256}, {4224, 256}, {34848, 256}};
    int *out;
    CK(cudaMalloc(&out, (size_t)34848 * 256 * sizeof(int)));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int k = 0; k < 2; k++)
        for (const auto &c : cfg) {
            auto launch = [&] {
                if (k) store_kernel<<<c.blocks, c.threads>>>(out);
                else empty_kernel<<<c.blocks, c.threads>>>();
            };
            std::vector<float> each;
            for (int w = 0; w < 3; w++) launch();
            CK(cudaDeviceSynchronize());
            for (int r = 0; r < repeats; r++) {
                CK(cudaEventRecord(a));
                launch();
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                float ms;
                CK(cudaEventElapsedTime(&ms, a, b));
                each.push_back(ms * 1e3f);
            }
            CK(cudaEventRecord(a));
            for (int r = 0; r < repeats; r++) launch();
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float batch;
            CK(cudaEventElapsedTime(&batch, a, b));
            std::sort(each.begin(), each.end());
            printf("%s blocks=%u threads=%u event_median_us=%.3f batch_us_per_launch=%.3f\n", k ? "store" : "empty",
                   c.blocks, c.threads, each[each.size() / 2], batch * 1e3f / repeats);
        }
    CK(cudaFree(out));
    return 0;
}
