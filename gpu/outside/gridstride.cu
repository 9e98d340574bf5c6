// Grid-stride loops: SAXPY from Mark Harris, "CUDA Pro Tip: Write Flexible
// Kernels with Grid-Stride Loops" (NVIDIA Developer Blog, 2013), and add from
// Mark Harris, "An Even Easier Introduction to CUDA" (NVIDIA Developer Blog,
// 2017).
//
// Sources: https://developer.nvidia.com/blog/cuda-pro-tip-write-flexible-kernels-grid-stride-loops/
//          https://developer.nvidia.com/blog/even-easier-introduction-cuda/
// Licence: the posts state none for their code; transcribed as short excerpts
// with this citation.
// Changes: none.  The first post suggests a grid of 32 * (number of SMs)
// blocks of 256 threads; the second launches (N + 255) / 256 blocks of 256.

__global__
void saxpy(int n, float a, float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; 
         i < n; 
         i += blockDim.x * gridDim.x) 
      {
          y[i] = a * x[i] + y[i];
      }
}

__global__
void add(int n, float *x, float *y)
{
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride)
    y[i] = x[i] + y[i];
}
