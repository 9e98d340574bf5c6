// Held-out round 13 (issue 29): cuda-samples 2_Concepts_and_Techniques/boxFilter: d_boxfilter_x_global (a row a thread: lanes a row apart), d_boxfilter_y_global (a column a thread) and d_boxfilter_rgba_y (a column of RGBA8 pixels a thread), running sums over a radius
// The public code is under .gl/heldout13 (bash gpu/outside/heldout13/prep.sh), not in this repository.
// boxFilter_kernel.cu defines its own checkCudaErrors after including helper.h: helper.h's is taken back first.
#include "../../../.gl/heldout13/helper.h"
#undef checkCudaErrors
#include "../../../.gl/heldout13/boxFilter_kernel.cu"
