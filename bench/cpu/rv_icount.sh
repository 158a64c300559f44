#!/usr/bin/env bash
# rv_icount.sh: dynamic instruction counts of the bench kernels on RISC-V (rv64gcv) under
# qemu-user: tilecc's code against gcc -O3 -march=rv64gcv building the same algorithm in C.
# qemu logs every translation block it executes (-d in_asm,exec,nochain); the count of a
# run is the sum of the instructions of the blocks it executed, and a run with no kernel
# call is subtracted. Counts, not seconds: they do not depend on the machine's load.
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
qemu="qemu-riscv64 -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vlen=256"
"$tilecc" "$kernels/vadd.py" -k vadd -s "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --target=riscv64 -o "$out/vadd.so"
"$tilecc" "$kernels/softmax.py" -k softmax -s "*fp32:16, *fp32:16, i32:16, i32:16, i32:16, 4096" --target=riscv64 -o "$out/softmax.so"
"$tilecc" "$kernels/layernorm.py" -k layernorm -s "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32, 1024" --target=riscv64 -o "$out/layernorm.so"
"$tilecc" "$kernels/matmul.py" -k matmul -s "*fp32:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 64, 64, 8" --target=riscv64 -o "$out/matmul.so"
riscv64-linux-gnu-gcc -O3 -march=rv64gcv -mabi=lp64d "$root/bench/cpu/rv_icount.c" -o "$out/rv_icount" -ldl -lm

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
run() { $qemu -d in_asm,exec,nochain -D "$out/q.log" "$out/rv_icount" "$@" > /dev/null; count "$out/q.log"; }

printf "| kernel    | size            | tilecc insns | gcc -O3 rv64gcv insns | ratio |\n"
printf "|-----------|-----------------|--------------|-----------------------|-------|\n"
for k in vadd softmax layernorm matmul; do
  case $k in
    vadd) size="2^16 fp32";; softmax) size="16x4096 fp32";; layernorm) size="16x4096 fp16";; matmul) size="128^3 fp32";;
  esac
  base=$(run $k none)
  t=$(( $(run $k tilecc "$out/$k.so") - base ))
  g=$(( $(run $k gcc) - base ))
  awk -v k=$k -v s="$size" -v t=$t -v g=$g 'BEGIN { printf "| %-9s | %-15s | %12d | %21d | %5.2f |\n", k, s, t, g, t / g }'
done
rm -f "$out/q.log"
