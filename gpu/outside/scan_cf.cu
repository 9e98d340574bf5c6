// Work-efficient (Blelloch) scan of one block with the bank-conflict-avoiding
// padding, from Mark Harris, Shubhabrata Sengupta and John D. Owens, "Parallel
// Prefix Sum (Scan) with CUDA", GPU Gems 3, chapter 39 (NVIDIA /
// Addison-Wesley, 2007).
//
// Source: https://developer.nvidia.com/gpugems/gpugems3/part-vi-gpu-computing/chapter-39-parallel-prefix-sum-scan-cuda
//         Example 39-3 (the CONFLICT_FREE_OFFSET macro) applied to Example
//         39-2 as Example 39-4 describes (blocks A to E)
// Licence: the chapter states none for its listings (book text (c) 2008 NVIDIA
// Corporation, published free online by NVIDIA); transcribed as a short
// excerpt with this citation.
// Changes: Example 39-4's replacement blocks are written into Example 39-2
// (this file's prescan is the result); NUM_BANKS and LOG_NUM_BANKS, 16 and 4
// as printed (the G80's banks), are wrapped in #ifndef so that a launch can
// select the 32 banks of current GPUs with --define NUM_BANKS=32 --define
// LOG_NUM_BANKS=5.  The ZERO_BANK_CONFLICTS variant is as printed (its shifts
// parse as n >> (NUM_BANKS + n) >> ..., a known slip; it is not used here).
// Launch: one block of n / 2 threads, (n + (n >> LOG_NUM_BANKS)) * 4 bytes of
// dynamic shared memory.  Every block of a larger grid scans the same array.

#ifndef NUM_BANKS
#define NUM_BANKS 16
#endif
#ifndef LOG_NUM_BANKS
#define LOG_NUM_BANKS 4
#endif
#ifdef ZERO_BANK_CONFLICTS
#define CONFLICT_FREE_OFFSET(n) \
    ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))
#else
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#endif

__global__ void prescan(float *g_odata, float *g_idata, int n)
{
  extern __shared__ float temp[];  // allocated on invocation
  int thid = threadIdx.x;
  int offset = 1;
  int ai = thid;
  int bi = thid + (n/2);
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = g_idata[ai];
  temp[bi + bankOffsetB] = g_idata[bi];
  for (int d = n>>1; d > 0; d >>= 1)                    // build sum in place up the tree
  {
    __syncthreads();
    if (thid < d)
    {
      int ai = offset*(2*thid+1)-1;
      int bi = offset*(2*thid+2)-1;
      ai += CONFLICT_FREE_OFFSET(ai);
      bi += CONFLICT_FREE_OFFSET(bi);
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid==0) { temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0; } // clear the last element
  for (int d = 1; d < n; d *= 2) // traverse down tree & build scan
  {
    offset >>= 1;
    __syncthreads();
    if (thid < d)
    {
      int ai = offset*(2*thid+1)-1;
      int bi = offset*(2*thid+2)-1;
      ai += CONFLICT_FREE_OFFSET(ai);
      bi += CONFLICT_FREE_OFFSET(bi);
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  g_odata[ai] = temp[ai + bankOffsetA]; // write results to device memory
  g_odata[bi] = temp[bi + bankOffsetB];
}
