#!/usr/bin/env bash
# rv_icount.sh: dynamic instruction counts of the bench kernels on RISC-V (rv64gcv) under
# qemu-user, at VLEN 128 and 256: tilecc's code against the same algorithm in C
# (rv_icount.c) built by gcc 12 -O3 -march=rv64gcv (which does not vectorize for RVV) and
# by clang-19 -O3 -march=rv64gcv (which does), and for matmul against OpenBLAS's sgemm
# (scipy-openblas32's riscv64 library from PyPI, whose kernels are chosen by VLEN).
# qemu logs every translation block it executes (-d in_asm,exec,nochain); the count of a
# run is the sum of the instructions of the blocks it executed, less the count of the same
# binary's run that loads everything and calls nothing. Counts, not seconds: they do not
# depend on the machine's load.
#   bench/cpu/rv_icount.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
# the shared workload when it is beside the checkout, the repository's copy otherwise
kernels=$root/../shared/bench-kernels
[ -d "$kernels" ] || kernels=$root/bench/kernels
tilecc=$build/tools/tilecc/tilecc
out=$build/bench-rv
mkdir -p "$out"
"$tilecc" "$kernels/vadd.py" -k vadd -s "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --target=riscv64 -o "$out/vadd.so"
"$tilecc" "$kernels/softmax.py" -k softmax -s "*fp32:16, *fp32:16, i32:16, i32:16, i32:16, 4096" --target=riscv64 -o "$out/softmax.so"
"$tilecc" "$kernels/layernorm.py" -k layernorm -s "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32, 1024" --target=riscv64 -o "$out/layernorm.so"
"$tilecc" "$kernels/matmul.py" -k matmul -s "*fp32:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 64, 64, 8" --target=riscv64 -o "$out/matmul.so"
# -rdynamic: rv_icount.c's __isoc23_strtol for OpenBLAS (rv_weak_glibc.py)
riscv64-linux-gnu-gcc -O3 -march=rv64gcv -mabi=lp64d -rdynamic "$root/bench/cpu/rv_icount.c" -o "$out/rv_icount.gcc" -ldl -lm
clang-19 --target=riscv64-linux-gnu -O3 -march=rv64gcv -mabi=lp64d "$root/bench/cpu/rv_icount.c" -o "$out/rv_icount.clang" -ldl -lm

# OpenBLAS: scipy-openblas32's manylinux riscv64 wheel (Debian 12 has no riscv64 port);
# without it (no network, no wheel) the column says n/a
blas=$out/openblas/libscipy_openblas.so
if [ ! -f "$blas" ]; then
  rm -rf "$out/openblas" && mkdir -p "$out/openblas"
  if pip download scipy-openblas32 --platform manylinux_2_39_riscv64 --only-binary=:all: --no-deps \
       -d "$out/openblas" > "$out/openblas/pip.log" 2>&1; then
    python3 -m zipfile -e "$out"/openblas/scipy_openblas32-*riscv64*.whl "$out/openblas/wheel"
    cp "$out/openblas/wheel/scipy_openblas32/lib/libscipy_openblas.so" "$blas.tmp"
    python3 "$root/bench/cpu/rv_weak_glibc.py" "$blas.tmp" && mv "$blas.tmp" "$blas"
  fi
fi

# count LOG: instructions executed, from qemu's in_asm + exec log
count() {
  awk '
    /^IN:/ { inblk = 1; start = ""; n = 0; next }
    inblk && /^0x[0-9a-f]+:/ { if (start == "") start = substr($1, 1, length($1) - 1); n++; next }
    inblk && !/^0x/ { if (start != "") { sub(/^0x0*/, "", start); size[start] = n } inblk = 0 }
    /^Trace / { match($0, /\[[0-9a-f]+\/[0-9a-f]+\//); pc = substr($0, RSTART + 1, RLENGTH - 2);
                split(pc, parts, "/"); p = parts[2]; sub(/^0*/, "", p); total += size[p] }
    END { printf "%d\n", total }' "$1"
}
# run VLEN BINARY ARGS...: the instructions of one run
run() {
  local vlen=$1 bin=$2; shift 2
  qemu-riscv64 -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vlen=$vlen -E OPENBLAS_NUM_THREADS=1 \
    -d in_asm,exec,nochain -D "$out/q.log" "$out/$bin" "$@" > /dev/null
  count "$out/q.log"
}
# net VLEN BINARY KERNEL MODE [SO]: a call's instructions, less the set-up's
net() {
  local vlen=$1 bin=$2; shift 2
  local base
  if [ $# -gt 2 ]; then base=$(run "$vlen" "$bin" "$@" load); else base=$(run "$vlen" "$bin" "$1" none); fi
  echo $(( $(run "$vlen" "$bin" "$@") - base ))
}

printf "| kernel    | size            | VLEN | tilecc insns | gcc -O3 insns | clang-19 -O3 insns | OpenBLAS insns | tilecc / clang | tilecc / OpenBLAS |\n"
printf "|-----------|-----------------|------|--------------|---------------|--------------------|----------------|----------------|-------------------|\n"
for vlen in 128 256; do
  for k in vadd softmax layernorm matmul; do
    case $k in
      vadd) size="2^16 fp32";; softmax) size="16x4096 fp32";; layernorm) size="16x4096 fp16";; matmul) size="128^3 fp32";;
    esac
    t=$(net $vlen rv_icount.gcc $k tilecc "$out/$k.so")
    g=$(net $vlen rv_icount.gcc $k c)
    c=$(net $vlen rv_icount.clang $k c)
    b=-
    if [ $k = matmul ] && [ -f "$blas" ]; then b=$(net $vlen rv_icount.gcc $k openblas "$blas"); fi
    awk -v k=$k -v s="$size" -v v=$vlen -v t=$t -v g=$g -v c=$c -v b=$b 'BEGIN {
      printf "| %-9s | %-15s | %4d | %12d | %13d | %18d | %14s | %14.2f | %17s |\n", k, s, v, t, g, c,
             b == "-" ? "n/a" : b, t / c, b == "-" ? "n/a" : sprintf("%.2f", t / b) }'
  done
done
rm -f "$out/q.log"
