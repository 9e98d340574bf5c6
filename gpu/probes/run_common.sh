# shellcheck shell=bash
# shellcheck disable=SC2034  # failed: the sourcing script's
# What gpu/probes/run_*.sh share, sourced after setting out (the output folder): out made
# absolute, CUDA on the PATH, all output also appended to $out/log.txt, failed=0, and the GPU,
# its driver and clocks and nvcc's version printed first.
mkdir -p "$out" && out=$(cd "$out" && pwd)
export PATH=$PATH:/usr/local/cuda/bin
exec > >(tee -a "$out/log.txt") 2>&1
failed=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -n 1
