// 1-D stencil with a shared-memory halo, from Jason Sanders and Cyril Zeller,
// "CUDA C/C++ Basics" (NVIDIA, Supercomputing 2011 tutorial), slides 55-56.
//
// Source: https://www.nvidia.com/docs/IO/116711/sc11-cuda-c-basics.pdf
// Licence: the slides state none for the code (slides (c) NVIDIA Corporation
// 2011); transcribed as a short excerpt with this citation.
// Changes:
//  - the slides leave RADIUS and BLOCK_SIZE to the host code; RADIUS is 3 (the
//    slides' example: each output is the sum of 7 inputs) and BLOCK_SIZE 256,
//    each changeable with --define; blockDim.x must equal BLOCK_SIZE;
//  - the host passes in + RADIUS and out + RADIUS (the first block reads
//    in[-RADIUS]); a launcher passes whole buffers, so those two offsets are
//    the kernel's first line here.  They add one address computation and move
//    every access by RADIUS elements, as the host's offsets do.
// Launch: grid N / BLOCK_SIZE, block BLOCK_SIZE; in holds N + 2 * RADIUS ints,
// out N + RADIUS.

#ifndef RADIUS
#define RADIUS 3
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

__global__ void stencil_1d(int *in, int *out) {
    in += RADIUS, out += RADIUS;  // the host's d_in + RADIUS, d_out + RADIUS
    __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;

    // Read input elements into shared memory
    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
    }

    // Synchronize (ensure all the data is available)
    __syncthreads();

    // Apply the stencil
    int result = 0;
    for (int offset = -RADIUS ; offset <= RADIUS ; offset++)
        result += temp[lindex + offset];

    // Store the result
    out[gindex] = result;
}
