// What a shuffle returns when its source lane is outside the shuffle's
// membermask and not executing it (the PTX ISA: undefined).  Lanes 8-31 of
// the warp hold known values in the register the shuffle reads, then only
// lanes 0-7 shuffle down by 16, 8, 4, 2, 1 with membermask 0xff; each lane
// writes what every step returned.  Built twice: as nvcc compiles it for the
// GPU, and from compute_75 PTX (JIT), as the CUDA samples' reduce7 runs.
// usage: shfl_inactive  (prints one line a lane: the five values it got)
#include <cstdio>

__global__ void probe(int *out)
{
    int lane = threadIdx.x;
    int v = 1000 + lane;                  // every lane: its value in the register
    __syncwarp();
    unsigned mask = __ballot_sync(0xffffffffu, lane < 8);
    if (lane < 8) {
        v = 100 + lane;                   // the members' new value
        for (int k = 0, off = 16; off > 0; off /= 2, k++) out[lane * 5 + k] = __shfl_down_sync(mask, v, off);
    }
}

int main()
{
    int *d, h[40];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0xff, sizeof h);
    probe<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("status %s\n", cudaGetErrorString(e));
    for (int l = 0; l < 8; l++)
        std::printf("lane %d: down16 %d down8 %d down4 %d down2 %d down1 %d\n", l, h[l * 5], h[l * 5 + 1], h[l * 5 + 2],
                    h[l * 5 + 3], h[l * 5 + 4]);
    return 0;
}
