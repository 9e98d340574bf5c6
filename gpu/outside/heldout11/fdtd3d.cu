// Held-out round 11 (issue 29): cuda-samples 5_Domain_Specific/FDTD3d: FiniteDifferencesKernel (radius-4 3D stencil, a shared 2D tile marching in z, __constant__ coefficients)
// The public code is under .gl/heldout11 (bash gpu/outside/heldout11/prep.sh), not in this repository.
#include "../../../.gl/heldout11/FDTD3dGPUKernel.cuh"
