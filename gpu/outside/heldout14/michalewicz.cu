// Held-out round 14 (issue 29): HeCBench michalewicz: eval (the Michalewicz function of a dim-float vector a thread: sinf, powf; a float atomicMin by atomicCAS on one word)
// The public code is under .gl/heldout14 (bash gpu/outside/heldout14/prep.sh), not in this repository.
#include "../../../.gl/heldout14/hecbench/michalewicz-cuda/main.cu"
