// Offset and strided global accesses, from Mark Harris, "How to Access
// Global Memory Efficiently in CUDA C/C++ Kernels" (NVIDIA Developer Blog,
// 2013).
//
// Source: https://github.com/NVIDIA-developer-blog/code-samples, commit 72d62ec464442786a36754508bcb1094d197d6a5,
//         series/cuda-cpp/coalescing-global/coalescing.cu
// Licence: BSD-3-Clause, reproduced below.
// Changes: host code (runTest) dropped; offset and stride instantiated for
// float and double (the post's two runs).  The host launches n / 256 blocks of
// 256 threads, n = 4 MiB / sizeof(T) (1 Mi floats, 512 Ki doubles), on a
// buffer of 33 * n elements (room for strides up to 32), s = 0..32 (offset)
// and 1..32 (stride).
//
// Copyright (c) 1993-2015, NVIDIA CORPORATION. All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions
// are met:
//  * Redistributions of source code must retain the above copyright
//    notice, this list of conditions and the following disclaimer.
//  * Redistributions in binary form must reproduce the above copyright
//    notice, this list of conditions and the following disclaimer in the
//    documentation and/or other materials provided with the distribution.
//  * Neither the name of NVIDIA CORPORATION nor the names of its
//    contributors may be used to endorse or promote products derived
//    from this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
// EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
// PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT OWNER OR
// CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
// EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
// PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
// PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY
// OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
// (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

template <typename T>
__global__ void offset(T* a, int s)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x + s;
  a[i] = a[i] + 1;
}

template <typename T>
__global__ void stride(T* a, int s)
{
  int i = (blockDim.x * blockIdx.x + threadIdx.x) * s;
  a[i] = a[i] + 1;
}

template __global__ void offset<float>(float *, int);
template __global__ void stride<float>(float *, int);
template __global__ void offset<double>(double *, int);
template __global__ void stride<double>(double *, int);
