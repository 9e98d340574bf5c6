// Naive (Hillis-Steele) and work-efficient (Blelloch) scans of one block, from
// Mark Harris, Shubhabrata Sengupta and John D. Owens, "Parallel Prefix Sum
// (Scan) with CUDA", GPU Gems 3, chapter 39 (NVIDIA / Addison-Wesley, 2007).
//
// Source: https://developer.nvidia.com/gpugems/gpugems3/part-vi-gpu-computing/chapter-39-parallel-prefix-sum-scan-cuda
//         Example 39-1 (scan) and Example 39-2 (prescan)
// Licence: the chapter states none for its listings (book text (c) 2008 NVIDIA
// Corporation, published free online by NVIDIA); transcribed as a short
// excerpt with this citation.
// Changes, both errata of the printed Example 39-1 that keep its memory
// accesses (two shared loads and one shared store a step):
//  - the step "temp[pout*n+thid] += temp[pin*n+thid - offset];" reads the
//    output buffer instead of the input one, so the result is no scan; it is
//    "temp[pout*n+thid] = temp[pin*n+thid] + temp[pin*n+thid - offset];" here;
//  - the last line's "thid1" (a typo, does not compile) is "thid".
// One block scans n elements: scan with n threads and 2 * n * 4 bytes of
// dynamic shared memory, prescan with n / 2 threads and n * 4 bytes.  Neither
// kernel looks at blockIdx: every block of a larger grid scans the same array.

__global__ void scan(float *g_odata, float *g_idata, int n)
{
  extern __shared__ float temp[]; // allocated on invocation
  int thid = threadIdx.x;
  int pout = 0, pin = 1;
  // Load input into shared memory.
  // This is exclusive scan, so shift right by one
  // and set first element to 0
  temp[pout*n + thid] = (thid > 0) ? g_idata[thid-1] : 0;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2)
  {
    pout = 1 - pout; // swap double buffer indices
    pin = 1 - pout;
    if (thid >= offset)
      temp[pout*n+thid] = temp[pin*n+thid] + temp[pin*n+thid - offset];
    else
      temp[pout*n+thid] = temp[pin*n+thid];
    __syncthreads();
  }
  g_odata[thid] = temp[pout*n+thid]; // write output
}

__global__ void prescan(float *g_odata, float *g_idata, int n)
{
  extern __shared__ float temp[];  // allocated on invocation
  int thid = threadIdx.x;
  int offset = 1;
  temp[2*thid] = g_idata[2*thid]; // load input into shared memory
  temp[2*thid+1] = g_idata[2*thid+1];
  for (int d = n>>1; d > 0; d >>= 1)                    // build sum in place up the tree
  {
    __syncthreads();
    if (thid < d)
    {
      int ai = offset*(2*thid+1)-1;
      int bi = offset*(2*thid+2)-1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) { temp[n - 1] = 0; } // clear the last element
  for (int d = 1; d < n; d *= 2) // traverse down tree & build scan
  {
    offset >>= 1;
    __syncthreads();
    if (thid < d)
    {
      int ai = offset*(2*thid+1)-1;
      int bi = offset*(2*thid+2)-1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  g_odata[2*thid] = temp[2*thid]; // write results to device memory
  g_odata[2*thid+1] = temp[2*thid+1];
}
