// How fast the H100's L2 takes global atomics that meet on one word or one line.
//
// Held-out round 12 (issue 29) found the model's one constant, atomic_same_ns (1.77 ns a lane,
// measured with every lane of a warp on one word), wrong both ways:
//   - simpleAtomicIntrinsics puts eleven atomics a thread on eleven words of one 128-byte line,
//     every lane of a warp on the same word: the GPU took 0.41 ns a lane over all eleven words,
//     2.6x the model's one-word time, as if the words of a line did not run side by side;
//   - warpAggregatedAtomicsCG sends one elected lane a warp to one counter: 0.79 ns a request,
//     not 1.77.
// Each case here is a loop of ITERS atomics a thread, 264 or 1056 blocks of 256 threads, timed
// back to back (median of 9 cudaEvent launches); the table gives ns a lane-atomic, over all
// lanes that do one:
//   OP          add (atomicAdd of 1), addv (of the thread's index: not uniform), exch, cas, inc,
//               addf (atomicAdd of 1.0f), redf and red (red.global.add.f32 / .u32: no value back)
//   LANES       32: every lane of a warp on the same word; 1: lane 0 only (one request a warp)
//   WORDS       how many words the warps spread over (warp w of the grid on word w % WORDS)
//   GAP         bytes between those words: 4 (one line, up to 32 words), 128 (a line each),
//               4096; GAP 0: one request's lanes spread over WORDS words of one line (lane % WORDS),
//               every warp on the same line (warpAggregatedAtomicsCG's buckets: a leader lane a
//               bucket, five counters in one line, one request)
// and "serial": one warp, one lane, each atomic waiting for the last's old value (a round trip).
// Run `cuobjdump -sass` on the build (run_atomic_rate.sh) to see whether ptxas aggregated a warp's
// uniform-address adds itself (a VOTE/POPC and one lane's ATOMG).
//
// nvcc -O3 -arch=sm_90 -o atomic_rate atomic_rate.cu && ./atomic_rate
#include <cstring>
#include "timing.cuh"

enum { OP_ADD, OP_ADDV, OP_EXCH, OP_CAS, OP_INC, OP_ADDF, OP_REDF, OP_RED, OPS };
static const char *op_name[OPS] = {"add", "addv", "exch", "cas", "inc", "addf", "redf", "red"};

template <int OP>
__global__ void hammer(unsigned *base, unsigned words, unsigned gap_words, unsigned lanes, int iters, unsigned *sink)
{
    unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (lanes == 1 && lane) return;
    unsigned *p = gap_words ? base + (warp % words) * gap_words : base + lane % words;
    unsigned acc = 0;
    for (int i = 0; i < iters; i++) {
        if (OP == OP_ADD) acc += atomicAdd(p, 1u);
        if (OP == OP_ADDV) acc += atomicAdd(p, threadIdx.x + i);
        if (OP == OP_EXCH) acc += atomicExch(p, threadIdx.x + i);
        if (OP == OP_CAS) acc += atomicCAS(p, acc, threadIdx.x + i);
        if (OP == OP_INC) acc += atomicInc(p, 1000000u);
        if (OP == OP_ADDF) acc += (unsigned)atomicAdd((float *)p, 1.0f);
        if (OP == OP_REDF) asm volatile("red.global.add.f32 [%0], 1.0;" ::"l"(p) : "memory");
        if (OP == OP_RED) asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
    }
    if (acc == 0x12345678u) *sink = acc;
}

// One lane, each atomic on the old value of the last: the round trip of one atomic.
__global__ void serial(unsigned *p, int iters, unsigned *sink)
{
    unsigned v = 0;
    for (int i = 0; i < iters; i++) v = atomicAdd(p + (v & 1), 1u);
    if (v == 0x12345678u) *sink = v;
}

static void launch(int op, dim3 g, unsigned *buf, unsigned words, unsigned gap, unsigned lanes, int iters, unsigned *sink)
{
    switch (op) {
    case OP_ADD: hammer<OP_ADD><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_ADDV: hammer<OP_ADDV><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_EXCH: hammer<OP_EXCH><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_CAS: hammer<OP_CAS><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_INC: hammer<OP_INC><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_ADDF: hammer<OP_ADDF><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    case OP_REDF: hammer<OP_REDF><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    default: hammer<OP_RED><<<g, 256>>>(buf, words, gap, lanes, iters, sink); break;
    }
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    unsigned *buf, *sink;
    CK(cudaMalloc(&buf, 1 << 20));
    CK(cudaMemset(buf, 0, 1 << 20));
    CK(cudaMalloc(&sink, 4));
    const int iters = 64;
    printf("# device = %s, sms = %d; 256-thread blocks, %d atomics a lane that does any; median of 9 launches\n",
           prop.name, prop.multiProcessorCount, iters);
    printf("# op    lanes words   gap  blocks      us   ns_per_lane_atomic   ns_per_request\n");
    const unsigned words_list[] = {1, 2, 4, 11, 32};
    const unsigned gaps[] = {4, 128, 4096, 0};
    for (int op = 0; op < OPS; op++)
        for (unsigned lanes : {32u, 1u})
            for (unsigned blocks : {264u, 1056u})
                for (unsigned words : words_list)
                    for (unsigned gap : gaps) {
                        if (words == 1 && gap != 4) continue;
                        if (gap == 0 && (lanes != 32 || blocks != 264)) continue;
                        if (gap == 4 && words * 4 > 128) continue;
                        if (op != OP_ADD && op != OP_EXCH && op != OP_ADDF && (blocks != 264 || gap == 4096)) continue;
                        dim3 g(blocks);
                        float ms = median_ms([&] { launch(op, g, buf, words, gap / 4, lanes, iters, sink); }, 9);
                        double lane_ops = (double)blocks * 256 / (lanes == 32 ? 1 : 32) * iters;
                        double reqs = (double)blocks * 8 * iters;
                        printf("%-6s %5u %5u %5u %7u %8.1f %18.4f %18.4f\n", op_name[op], lanes, words, gap, blocks,
                               ms * 1e3, ms * 1e6 / lane_ops, ms * 1e6 / reqs);
                    }
    const int siters = 4096;
    float ms = median_ms([&] { serial<<<1, 1>>>(buf, siters, sink); }, 9);
    printf("# serial: one lane, each atomic on the last's old value: %.1f ns an atomic\n", ms * 1e6 / siters);
    CK(cudaGetLastError());
    return 0;
}
