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

# Build gpu/probes/NAME.cu for sm_90 and run it into $out/NAME.txt, printed too; a failed run
# counts in failed.  The build failing ends the script.
build_and_run() {
    timeout 300 nvcc -O3 -arch=sm_90 -o "/tmp/$1" "gpu/probes/$1.cu" || exit 1
    timeout 300 "/tmp/$1" > "$out/$1.txt" || failed=$((failed + 1))
    cat "$out/$1.txt"
}
