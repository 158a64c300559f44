#!/usr/bin/env bash
# run.sh: the CPU benchmark (bench/cpu/bench.c). Builds tilecc, compiles the bench kernels
# from ../shared/bench-kernels for this machine (-mcpu=native), builds the harness with
# gcc -O3 -march=native, and prints the table that docs/perf.md records.
#   bench/cpu/run.sh [BUILD_DIR]        (ROUNDS=N: the matmul table's interleaved rounds, default 7)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
# the shared workload when it is beside the checkout, the repository's copy otherwise
kernels=$root/../shared/bench-kernels
[ -d "$kernels" ] || kernels=$root/bench/kernels
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j "$(nproc)" --target tilecc tilert >/dev/null
tilecc=$build/tools/tilecc/tilecc
out=$build/bench-cpu
mkdir -p "$out"
# The same files and constexprs Triton compiles (signatures.tsv), fp32 for the CPU matmul, whose
# blocks are the CPU's (below).
"$tilecc" "$kernels/vadd.py" -k vadd -s "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" -o "$out/vadd.so"
"$tilecc" "$kernels/softmax.py" -k softmax -s "*fp32:16, *fp32:16, i32:16, i32:16, i32:16, 4096" -o "$out/softmax.so"
"$tilecc" "$kernels/layernorm.py" -k layernorm -s "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32, 1024" -o "$out/layernorm.so"
# matmul's blocks for the CPU (BM=, BN=, BK= to change): 256 x 256 x 64 rather than the GPUs'
# 128 x 128 x 64, so that each program's packing of B and reading of A in place serve twice
# the rows and columns (docs/perf.md, "2026-12-07, second session"); bench and matmul read BM and BN for the grid
export BM=${BM:-256} BN=${BN:-256}
BK=${BK:-64}
"$tilecc" "$kernels/matmul.py" -k matmul -s "*fp32:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, $BM, $BN, $BK, 8" -o "$out/matmul.so"
gcc -O3 -march=native -I"$root/include" "$root/bench/cpu/bench.c" -o "$out/bench" \
  -L"$build/lib/runtime" -ltilert -lopenblas -ldl -lpthread -lffi -lm -Wl,-rpath,"$build/lib/runtime"
gcc -O2 -I"$root/include" "$root/bench/cpu/matmul.c" -o "$out/matmul" \
  -L"$build/lib/runtime" -ltilert -lopenblas -ldl -lpthread -lffi -lm -Wl,-rpath,"$build/lib/runtime"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; one thread each"
"$out/bench" "$out"
# tilecc's matmul against OpenBLAS at 1024^3 and 2048^3, 1 and 2 threads (matmul.c unsets
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE so that OpenBLAS picks its kernel from the CPU)
echo
"$out/matmul" "$out" "${ROUNDS:-7}"
