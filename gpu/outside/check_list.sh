#!/bin/sh
# Checks gpu/outside/launches.list on any machine with nvcc, no GPU needed:
# builds the launcher, compiles every compile unit of the list to PTX and a
# sm_90 cubin (warnings are errors), checks that seeds.cu has no capture code,
# and runs "launch --check" on every line (kernel found, arguments match its
# parameters, buffers sized, launch shape legal).
# usage: sh gpu/outside/check_list.sh [WORKDIR]     (run from anywhere)
# LIST=FILE checks another list (gpu/outside/tensor.list).
# Exit status 0 when every line checks.  With CLANG set (CLANG=clang), also
# reports which files clang compiles in device-only mode with clang_prelude.h
# instead of the CUDA headers (informative: a failure there does not fail).
set -eu
cd "$(dirname "$0")/../.."
work=${1:-$(mktemp -d /tmp/coalsim-outside.XXXXXX)}
mkdir -p "$work/build"
NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-sm_90}
LIST=${LIST:-gpu/outside/launches.list}

"$NVCC" -std=c++17 -O2 -Xcompiler -Wall,-Wextra,-Werror -o "$work/launch" gpu/outside/launch.cu -ldl

# one compile unit a line: UNIT FILE [-DNAME=VALUE ...]
"$work/launch" --units "$LIST" > "$work/units.txt"
echo "check_list: $(wc -l < "$work/units.txt") compile units into $work/build"
# -Werror all-warnings: a warning that nvcc or ptxas prints fails the check
while read -r unit file defs; do
    for kind in ptx cubin; do
        # shellcheck disable=SC2086
        "$NVCC" -arch="$ARCH" -O3 -lineinfo -$kind -Werror all-warnings $defs "$file" \
            -o "$work/build/$unit.$kind" || { echo "check_list: $file ($kind) failed"; exit 1; }
    done
done < "$work/units.txt"

# the seed kernels' CAP=false instantiations must not touch the capture state
if [ -f "$work/build/seeds.ptx" ] && grep -n 'd_cap\]\|\[d_cap' "$work/build/seeds.ptx"; then
    echo "check_list: seeds.ptx uses d_cap: capture code in a CAP=false kernel"
    exit 1
fi

"$work/launch" --check --keep-going --list "$LIST" --build "$work/build" > "$work/check.txt"
sets=$(awk '!/^#/ && NF {n[$2]++} END {printf "%d count, %d time", n["count"], n["time"]}' "$LIST")
echo "check_list: $(grep -c '^ok ' "$work/check.txt") launches check ($sets)"

if [ -n "${CLANG:-}" ]; then
    mkdir -p "$work/clang"
    cut -d' ' -f2 "$work/units.txt" | sort -u | while read -r file; do
        b=$(basename "$file" .cu)
        if "$CLANG" -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -O3 -S \
            -Xclang -target-feature -Xclang +ptx70 -Wno-unknown-cuda-version \
            -include __clang_cuda_builtin_vars.h -include gpu/outside/clang_prelude.h \
            "$file" -o "$work/clang/$b.ptx" 2> "$work/clang/$b.err"; then
            echo "clang: $file ok"
        else
            echo "clang: $file FAILS: $(grep -m1 error "$work/clang/$b.err")"
        fi
    done
fi
