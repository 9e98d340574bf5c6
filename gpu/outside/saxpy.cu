// SAXPY, one element per thread, from Mark Harris, "An Easy Introduction to
// CUDA C and C++" (NVIDIA Developer Blog, 2012).
//
// Source: https://developer.nvidia.com/blog/easy-introduction-cuda-c-and-c/
// Licence: the post states none for its code (NVIDIA's repository of the blog's
// code, github.com/NVIDIA-developer-blog/code-samples, is BSD-3-Clause; this
// kernel appears there too, as posts/grcuda/kernel/saxpy.cu, extern "C" with
// a renamed scalar); transcribed as a short excerpt with this citation.
// Changes: none.  The post launches (N + 255) / 256 blocks of 256 threads.

__global__
void saxpy(int n, float a, float *x, float *y)
{
  int i = blockIdx.x*blockDim.x + threadIdx.x;
  if (i < n) y[i] = a*x[i] + y[i];
}
