// Held-out round 12 (issue 29): cuda-samples 5_Domain_Specific/recursiveGaussian: d_recursiveGaussian_rgba and d_simpleRecursive_rgba (IIR filters, a column a thread, forward and reverse passes over RGBA8 pixels)
// The public code is under .gl/heldout12 (bash gpu/outside/heldout12/prep.sh), not in this repository.
#include "../../../.gl/heldout12/recursiveGaussian_kernel.cuh"
