// Held-out round 15 (issue 29): HeCBench softmax: softMax (a thread a slice: lanes a slice apart) and softMax2 (a warp a slice, cooperative-groups reductions); expf's code rounds with fma.rm.f32
// The public code is under .gl/heldout15 (bash gpu/outside/heldout15/prep.sh), not in this repository.
#include "../../../.gl/heldout15/hecbench/softmax-cuda/main.cu"
