// CSR sparse matrix-vector kernels of Nathan Bell and Michael Garland,
// "Efficient Sparse Matrix-Vector Multiplication on CUDA" (NVIDIA Technical
// Report NVR-2008-004, 2008): the scalar kernel (one thread per row) and the
// vector kernel (one warp per row), as released in the CUSP library.
//
// Source: https://github.com/cusplibrary/cusplibrary,
//         cusp/detail/device/spmv/csr_scalar.h (commit 103a22bb39a1224fbdef80d5b2a90b81ab514fa6),
//         cusp/detail/device/spmv/csr_vector.h (commit 21c2161ebd5db385a6cf1dbf041236f8b4fbc990),
//         cusp/detail/device/texture.h (commit 37532a4fffeca2bef8ce1b19b1614055ffe33136, fetch_x)
// Licence: Apache License 2.0 (notice below).
// Changes: namespaces cusp::detail::device and the host wrappers dropped;
// fetch_x<true> read x through a texture reference (texture<float,1>, removed
// in CUDA 12); here it reads x with __ldg, the read-only data cache path that
// replaced it.  fetch_x<false> is the plain load, as in the source.
// Instantiations at the end: int indices, float values; the vector kernel with
// the host's VECTORS_PER_BLOCK 4 and THREADS_PER_VECTOR 32 (block 128).
// The hosts launch the scalar kernel with 256 threads and ceil(rows / 256)
// blocks (capped by MAX_THREADS / 256), the vector kernel with 128 threads and
// ceil(rows / 4) blocks (capped by the occupancy); both loop grid-stride.
// The vector kernel's reduction relies on a warp's lanes running in lockstep
// (no volatile, no __syncwarp), as published.
//
//  Copyright 2008-2009 NVIDIA Corporation
//
//  Licensed under the Apache License, Version 2.0 (the "License");
//  you may not use this file except in compliance with the License.
//  You may obtain a copy of the License at
//
//      http://www.apache.org/licenses/LICENSE-2.0
//
//  Unless required by applicable law or agreed to in writing, software
//  distributed under the License is distributed on an "AS IS" BASIS,
//  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//  See the License for the specific language governing permissions and
//  limitations under the License.

// ---- texture.h (the texture path is __ldg here) ----
template <bool UseCache>
__inline__ __device__ float fetch_x(const int& i, const float * x)
{
    if (UseCache)
        return __ldg(&x[i]);
    else
        return x[i];
}

// ---- csr_scalar.h ----
////////////////////////////////////////////////////////////////////////
// CSR SpMV kernels based on a scalar model (one thread per row)
///////////////////////////////////////////////////////////////////////
//
// spmv_csr_scalar_device
//   Straightforward translation of standard CSR SpMV to CUDA
//   where each thread computes y[i] += A[i,:] * x 
//   (the dot product of the i-th row of A with the x vector)
//
// spmv_csr_scalar_tex_device
//   Same as spmv_csr_scalar_device, except x is accessed via texture cache.
//

template <typename IndexType, typename ValueType, bool UseCache>
__global__ void
spmv_csr_scalar_kernel(const IndexType num_rows,
                       const IndexType * Ap, 
                       const IndexType * Aj, 
                       const ValueType * Ax, 
                       const ValueType * x, 
                             ValueType * y)
{
    const IndexType thread_id = blockDim.x * blockIdx.x + threadIdx.x;
    const IndexType grid_size = gridDim.x * blockDim.x;

    for(IndexType row = thread_id; row < num_rows; row += grid_size)
    {
        const IndexType row_start = Ap[row];
        const IndexType row_end   = Ap[row+1];
        
        ValueType sum = y[row];
    
        for (IndexType jj = row_start; jj < row_end; jj++)
            sum += Ax[jj] * fetch_x<UseCache>(Aj[jj], x);       

        y[row] = sum;
    }
}

// ---- csr_vector.h ----
//////////////////////////////////////////////////////////////////////////////
// CSR SpMV kernels based on a vector model (one warp per row)
//////////////////////////////////////////////////////////////////////////////
//
// spmv_csr_vector_device
//   Each row of the CSR matrix is assigned to a warp.  The warp computes
//   y[i] = A[i,:] * x, i.e. the dot product of the i-th row of A with 
//   the x vector, in parallel.  This division of work implies that 
//   the CSR index and data arrays (Aj and Ax) are accessed in a contiguous
//   manner (but generally not aligned).  On GT200 these accesses are
//   coalesced, unlike kernels based on the one-row-per-thread division of 
//   work.  Since an entire 32-thread warp is assigned to each row, many 
//   threads will remain idle when their row contains a small number 
//   of elements.  This code relies on implicit synchronization among 
//   threads in a warp.
//
// spmv_csr_vector_tex_device
//   Same as spmv_csr_vector_tex_device, except that the texture cache is 
//   used for accessing the x vector.
//  
//  Note: THREADS_PER_VECTOR must be one of [2,4,8,16,32]


template <typename IndexType, typename ValueType, unsigned int VECTORS_PER_BLOCK, unsigned int THREADS_PER_VECTOR, bool UseCache>
__global__ void
spmv_csr_vector_kernel(const IndexType num_rows,
                       const IndexType * Ap, 
                       const IndexType * Aj, 
                       const ValueType * Ax, 
                       const ValueType * x, 
                             ValueType * y)
{
    __shared__ ValueType sdata[(VECTORS_PER_BLOCK + 1) * THREADS_PER_VECTOR];      // padded to avoid reduction conditionals
    __shared__ IndexType ptrs[VECTORS_PER_BLOCK][2];
    
    const IndexType THREADS_PER_BLOCK = VECTORS_PER_BLOCK * THREADS_PER_VECTOR;

    const IndexType thread_id   = THREADS_PER_BLOCK * blockIdx.x + threadIdx.x;    // global thread index
    const IndexType thread_lane = threadIdx.x & (THREADS_PER_VECTOR - 1);          // thread index within the vector
    const IndexType vector_id   = thread_id   /  THREADS_PER_VECTOR;               // global vector index
    const IndexType vector_lane = threadIdx.x /  THREADS_PER_VECTOR;               // vector index within the block
    const IndexType num_vectors = VECTORS_PER_BLOCK * gridDim.x;                   // total number of active vectors

    for(IndexType row = vector_id; row < num_rows; row += num_vectors)
    {
        // use two threads to fetch Ap[row] and Ap[row+1]
        // this is considerably faster than the straightforward version
        if(thread_lane < 2)
            ptrs[vector_lane][thread_lane] = Ap[row + thread_lane];

        const IndexType row_start = ptrs[vector_lane][0];                   //same as: row_start = Ap[row];
        const IndexType row_end   = ptrs[vector_lane][1];                   //same as: row_end   = Ap[row+1];

        // initialize local sum
        ValueType sum = 0;
        
        // accumulate local sums
        for(IndexType jj = row_start + thread_lane; jj < row_end; jj += THREADS_PER_VECTOR)
            sum += Ax[jj] * fetch_x<UseCache>(Aj[jj], x);

        // store local sum in shared memory
        sdata[threadIdx.x] = sum;
        
        // reduce local sums to row sum
        if (THREADS_PER_VECTOR > 16) sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x + 16];
        if (THREADS_PER_VECTOR >  8) sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x +  8];
        if (THREADS_PER_VECTOR >  4) sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x +  4];
        if (THREADS_PER_VECTOR >  2) sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x +  2];
        if (THREADS_PER_VECTOR >  1) sdata[threadIdx.x] = sum = sum + sdata[threadIdx.x +  1];
       
        // first thread writes the result
        if (thread_lane == 0)
            y[row] += sdata[threadIdx.x];
    }
}

// ---- instantiations: int indices, float values ----
template __global__ void spmv_csr_scalar_kernel<int, float, false>(const int, const int *, const int *, const float *,
                                                                   const float *, float *);
template __global__ void spmv_csr_scalar_kernel<int, float, true>(const int, const int *, const int *, const float *,
                                                                  const float *, float *);
template __global__ void spmv_csr_vector_kernel<int, float, 4, 32, false>(const int, const int *, const int *,
                                                                          const float *, const float *, float *);
