// Held-out round 14 (issue 29): HeCBench lombscargle (NVIDIA's, from cuSignal, Apache-2.0): lombscargle (a frequency a thread, a sincosf a sample over every sample)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/lombscargle-cuda/main.cu"
