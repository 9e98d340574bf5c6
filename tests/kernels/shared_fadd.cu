// Shared-memory float and double atomicAdd, which ptxas makes a compare-and-store loop on sm_90
// (sim/frontend/ptx/ptx_lower.c; gpu/probes/shared_cas.cu): each kernel adds 1 a thread to
// shared words, then thread 0 (or each lane of warp 0) writes what the block summed.
#define TID (blockIdx.x * blockDim.x + threadIdx.x)

// every thread of the block on one word; the old values each thread saw go to o
__global__ void one_word(float *out, float *o)
{
    __shared__ float s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    o[TID] = atomicAdd(&s, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// the same in double, the old value not used
__global__ void one_word_double(double *out)
{
    __shared__ double s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, 1.0);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// lane l on word l: the block's warps share 32 words
__global__ void lane_words(float *out)
{
    __shared__ float s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&s[threadIdx.x % 32], 1.0f);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

// warp w's lanes all on word w: no other warp on it
__global__ void warp_words(float *out)
{
    __shared__ float s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&s[threadIdx.x / 32], 1.0f);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

// only odd threads add (the atomic under a guard)
__global__ void odd_threads(float *out, int n)
{
    __shared__ float s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (threadIdx.x & n) atomicAdd(&s, 2.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// lane l on word 32 l: 32 words on one bank
__global__ void bank_words(float *out)
{
    __shared__ float s[1024];
    s[threadIdx.x % 32 * 32] = 0;
    __syncwarp();
    atomicAdd(&s[threadIdx.x % 32 * 32], 1.0f);
    __syncwarp();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x * 32];
}

// double, lane l on word l: lanes l and l + 16 on one bank, in the two halves of the warp
__global__ void double_lanes(double *out)
{
    __shared__ double s[32];
    s[threadIdx.x % 32] = 0;
    __syncwarp();
    atomicAdd(&s[threadIdx.x % 32], 1.0);
    __syncwarp();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}
