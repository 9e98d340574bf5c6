// Device profile microbenchmarks for the memory-hierarchy model's time
// prediction (harness profile): DRAM, L2 and L1 read bandwidth, shared-memory
// wavefronts per second, the time of an empty launch, scattered lines, and
// the latency chases.
#pragma once

// Read N4 float4 from P, REPS times, grid-stride; the sum goes to SINK only
// if it is impossible, so the loads stay.  MODE 0: plain loads (DRAM for a
// large buffer), 1: __ldcg (L2 only), 2: __ldca on a per-block window that
// fits in L1.
template <int MODE> __global__ void bw_read(const float4 *p, size_t n4, int reps, float *sink)
{
    float acc = 0.f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++) {
        if (MODE == 2) {
            const float4 *w = p + (size_t)(blockIdx.x % 8) * n4;   /* 8 windows of n4 float4 */
            for (size_t i = threadIdx.x; i < n4; i += blockDim.x) {
                float4 v = __ldca(&w[i]);
                acc += v.x + v.y + v.z + v.w;
            }
        } else {
            for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
                float4 v = MODE == 1 ? __ldcg(&p[i]) : p[i];
                acc += v.x + v.y + v.z + v.w;
            }
        }
    }
    if (acc == -1.2345e30f) *sink = acc;
}

// Conflict-free 4-byte shared loads: each warp request is one wavefront.
__global__ void smem_read(int reps, float *sink)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = (float)i;
    __syncthreads();
    float acc = 0.f;
    unsigned k = threadIdx.x;
    for (int r = 0; r < reps; r++) {
        acc += s[k & 1023];
        k += 32;                  /* next row, same bank: still one word a bank per warp */
    }
    if (acc == -1.2345e30f) *sink = acc;
}

__global__ void empty_kernel() {}

// Scattered requests: every lane of a warp in its own 128-byte line, a
// grid-stride walk over a buffer that fits in L2, so the L1/L2 request path
// and not DRAM sets the pace.  STORE: the same with stores.  Run it long
// (hundreds of microseconds): 20 passes (60 us) measured the ramp as well,
// 107 lines a ns for loads where 400 passes give 158.
template <bool STORE> __global__ void scatter(float *p, size_t lines, int reps, float *sink)
{
    float acc = 0.f;
    size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    size_t warps = (size_t)gridDim.x * blockDim.x / 32;
    for (int r = 0; r < reps; r++)
        for (size_t w = warp; w * 32 < lines; w += warps) {
            /* odd multiplier, power-of-two LINES: a cheap permutation of the lines */
            size_t line = (w * 32 + lane) * 1031 & (lines - 1);
            if (STORE) p[line * 32] = (float)r;
            else acc += p[line * 32];
        }
    if (acc == -1.2345e30f) *sink = acc;
}

// Scattered stores as a transpose makes them: the column walk of an N x N
// float matrix larger than L2.  Thread (x, y) of a 32 x 8 block writes row
// (bx * 32 + x), columns (by * 32 + y + 8k), k < 4: a warp's lanes are rows
// apart (a line each), the block's warps and passes fill the 32 columns of
// those lines.  Random lines of a buffer in L2 (scatter<true>) go 20% slower
// on the H100 (50 lines a ns against 61), but this is the store users
// scatter.
__global__ void column_store(float *p, int n)
{
    int row = blockIdx.x * 32 + threadIdx.x, col0 = blockIdx.y * 32 + threadIdx.y;
    for (int k = 0; k < 32; k += 8) p[(size_t)row * n + col0 + k] = (float)k;
}

// Dependent chains through a random cycle of 128-byte lines, for the latency
// the time model charges a warp per round trip.  Each warp follows CHAINS
// chains at once; a hop is one coalesced request (32 lanes x 4 bytes of one
// line, every word of which holds the next line's index), and a chain's next
// hop needs its last one, so a warp has CHAINS independent requests in flight,
// like a loop that issues CHAINS loads before using them.  MODE 0: plain
// loads, 1: __ldcg (L2, not L1), 2: shared memory (the first 64 lines of the
// cycle copied in).  STARTS: CHAINS start lines per warp; each chain's last
// line is written back, so the next run goes on where this one stopped and
// does not find its lines in L2.
template <int CHAINS, int MODE>
__global__ void chase(const unsigned *lines, unsigned *starts, int hops)
{
    __shared__ unsigned s[MODE == 2 ? 64 * 32 : 1];
    const unsigned lane = threadIdx.x % 32;
    if (MODE == 2) {
        for (unsigned i = threadIdx.x; i < 64 * 32; i += blockDim.x) s[i] = lines[i];
        __syncthreads();
    }
    const size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    unsigned p[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) p[c] = starts[warp * CHAINS + c];
    for (int h = 0; h < hops; h++) {
#pragma unroll
        for (int c = 0; c < CHAINS; c++) {
            const unsigned i = p[c] * 32 + lane;
            p[c] = MODE == 2 ? s[i] : MODE == 1 ? __ldcg(&lines[i]) : lines[i];
        }
    }
    if (lane == 0)
#pragma unroll
        for (int c = 0; c < CHAINS; c++) starts[warp * CHAINS + c] = p[c];
}

// lines[i * 32 + l] = next[i]: every word of line i names the next line.
__global__ void fill_lines(unsigned *lines, const unsigned *next, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n * 32) lines[i] = next[i / 32];
}

// The latency chase with each hop timed: a hop is a round trip of CHAINS
// independent line requests (the clock is read only once all have arrived);
// lane 0 writes the SM cycles each hop took to CYCLES[warp * hops + h].
template <int CHAINS>
__global__ void chase_timed(const unsigned *lines, unsigned *starts, int hops, unsigned *cycles)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    unsigned p[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) p[c] = starts[warp * CHAINS + c];
    long long t0;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) : "r"(p[0]) : "memory");
    for (int h = 0; h < hops; h++) {
        unsigned dep = 0;
#pragma unroll
        for (int c = 0; c < CHAINS; c++) {
            p[c] = lines[p[c] * 32 + lane];
            dep ^= p[c];
        }
        long long t1;
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) : "r"(dep) : "memory");
        if (lane == 0) cycles[warp * hops + h] = (unsigned)(t1 - t0);
        t0 = t1;
    }
    if (lane == 0)
#pragma unroll
        for (int c = 0; c < CHAINS; c++) starts[warp * CHAINS + c] = p[c];
}
