// harness pitch: the experiments behind the time model's misses.  Does a
// power-of-two row pitch slow the kernels whose warps read rows 32 KiB apart
// (col_sum, copy, transposeSmem run 21-28% slower than the model predicted)?
// The same kernels with the row pitch as a parameter (no: under 5%), a
// contiguous copy with 1-D blocks (block shape matters), and the latency
// chase with its 16 chains a fixed stride apart (make_group_cycle in
// harness.cu); how round trips vary is chase_timed (profile.cuh).
#pragma once

// col_sum of an M-column matrix whose rows are PITCH floats apart
__global__ void col_sum_pitch(const float *a, float *out, int M, int pitch)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= M) return;
    float s = 0.f;
    for (int i = 0; i < M; i++) s += a[(size_t)i * pitch + t];
    out[t] = s;
}

// the seed's copy (2-D blocks) with rows PITCH floats apart
__global__ void copy_pitch(const float *A, float *B, int N, int pitch)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    const size_t index = (size_t)ny * pitch + nx;
    if (nx < N && ny < N) B[index] = A[index];
}

// the same bytes copied with 1-D blocks: consecutive warps, consecutive lines
__global__ void copy_flat(const float *A, float *B, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) B[i] = A[i];
}

// Fill P[0..n) with pseudo-random floats in [0, 1).
__global__ void fill_random(float *p, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 32);
        x ^= x >> 15, x *= 2246822519u, x ^= x >> 13;
        p[i] = (x >> 8) * (1.0f / 16777216.0f);
    }
}
