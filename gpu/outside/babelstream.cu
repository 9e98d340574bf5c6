// The BabelStream kernels (Tom Deakin, Simon McIntosh-Smith, University of
// Bristol HPC; after John D. McCalpin's STREAM): copy, mul, add, triad (a
// DAXPY-like a = b + scalar * c) and dot, in double precision.
//
// Source: https://github.com/UoB-HPC/BabelStream, tag v4.0
//         (commit e21134d53814147595aa2d96fcb94800b77a35dc), src/cuda/CUDAStream.cu,
//         with TBSIZE from src/cuda/CUDAStream.h and startScalar from src/Stream.h
// Licence: BabelStream's own (free to use, modify and redistribute; results
// of modified code must be labelled as such), reproduced below.
// Changes: host class CUDAStream<T> dropped; the kernels' T instantiated as
// double (BabelStream's default) at the end; TBSIZE and startScalar written in.
// Later releases (v5) replaced these kernels by a generic for_each; v4.0 has
// them spelled out.  The host launches copy/mul/add/triad/nstream with
// array_size / TBSIZE blocks of TBSIZE = 1024 threads, dot with
// DOT_NUM_BLOCKS = 256 blocks of 1024.
// Results obtained from this code are "based on a variant of the BabelStream
// benchmark code", not BabelStream benchmark results.
//
// Copyright 2015-16: Tom Deakin, Simon McIntosh-Smith, University of Bristol HPC
// Based on John D. McCalpin's original STREAM benchmark for CPUs
// License:
//  1. You are free to use this program and/or to redistribute
//     this program.
//  2. You are free to modify this program for your own use,
//     including commercial use, subject to the publication
//     restrictions in item 3.
//  3. You are free to publish results obtained from running this
//     program, or from works that you derive from this program,
//     with the following limitations:
//     3a. In order to be referred to as "BabelStream benchmark results",
//         published results must be in conformance to the BabelStream
//         Run Rules published at
//         http://github.com/UoB-HPC/BabelStream/wiki/Run-Rules
//         and incorporated herein by reference.
//         The copyright holders retain the
//         right to determine conformity with the Run Rules.
//     3b. Results based on modified source code or on runs not in
//         accordance with the BabelStream Run Rules must be clearly
//         labelled whenever they are published.  Examples of
//         proper labelling include:
//         "tuned BabelStream benchmark results"
//         "based on a variant of the BabelStream benchmark code"
//         Other comparable, clear and reasonable labelling is
//         acceptable.
//     3c. Submission of results to the BabelStream benchmark web site
//         is encouraged, but not required.
//  4. Use of this program or creation of derived works based on this
//     program constitutes acceptance of these licensing restrictions.
//  5. Absolutely no warranty is expressed or implied.

#define TBSIZE 1024
#define startScalar (0.4)

template <typename T>
__global__ void copy_kernel(const T * a, T * c)
{
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i];
}

template <typename T>
__global__ void mul_kernel(T * b, const T * c)
{
  const T scalar = startScalar;
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  b[i] = scalar * c[i];
}

template <typename T>
__global__ void add_kernel(const T * a, const T * b, T * c)
{
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

template <typename T>
__global__ void triad_kernel(T * a, const T * b, const T * c)
{
  const T scalar = startScalar;
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] = b[i] + scalar * c[i];
}

template <typename T>
__global__ void nstream_kernel(T * a, const T * b, const T * c)
{
  const T scalar = startScalar;
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  a[i] += b[i] + scalar * c[i];
}

template <class T>
__global__ void dot_kernel(const T * a, const T * b, T * sum, int array_size)
{
  __shared__ T tb_sum[TBSIZE];

  int i = blockDim.x * blockIdx.x + threadIdx.x;
  const size_t local_i = threadIdx.x;

  tb_sum[local_i] = 0.0;
  for (; i < array_size; i += blockDim.x*gridDim.x)
    tb_sum[local_i] += a[i] * b[i];

  for (int offset = blockDim.x / 2; offset > 0; offset /= 2)
  {
    __syncthreads();
    if (local_i < offset)
    {
      tb_sum[local_i] += tb_sum[local_i+offset];
    }
  }

  if (local_i == 0)
    sum[blockIdx.x] = tb_sum[local_i];
}

template __global__ void copy_kernel<double>(const double *, double *);
template __global__ void mul_kernel<double>(double *, const double *);
template __global__ void add_kernel<double>(const double *, const double *, double *);
template __global__ void triad_kernel<double>(double *, const double *, const double *);
template __global__ void nstream_kernel<double>(double *, const double *, const double *);
template __global__ void dot_kernel<double>(const double *, const double *, double *, int);
