#!/usr/bin/env bash
# run.sh: the GPU benchmark, build-machine half. Compiles the five bench kernels to cubins
# with tilecc (timing each compile, front to cubin), and stages them with the kernels'
# sources in DIR for bench/gpu/bench.py, which runs on the GPU machine:
#   bench/gpu/run.sh [BUILD_DIR] [DIR]        (here)
#   python3 bench/gpu/bench.py DIR/kernels DIR [results.json]   (there)
# TARGET picks the GPU target (default sm_90a: wgmma on Hopper); TARGET=sm_80 writes PTX
# in the .cubin files (an sm_80 cubin does not load on sm_90; the driver compiles the
# PTX), for comparing the mma.sync path with Triton's (DISABLE_MMA_V3=1 there).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
dir=${2:-$root/.scratch/gpu}
# the shared workload when it is beside the checkout, the repository's copy otherwise
kernels=$root/../shared/bench-kernels
[ -d "$kernels" ] || kernels=$root/bench/kernels
tilecc=$build/tools/tilecc/tilecc
target=${TARGET:-sm_90a}
emit=cubin
case $target in sm_8*) emit=ptx;; esac
mkdir -p "$dir/kernels"
cp "$kernels"/*.py "$dir/kernels/"
declare -A sig warps
while IFS=$'\t' read -r k s w; do
  case $k in \#*|"") continue;; esac
  sig[$k]=$s; warps[$k]=$w
done < "$kernels/signatures.tsv"
echo "{" > "$dir/compile_ms.json"
first=1
for k in vadd softmax layernorm matmul attention; do
  t0=$(date +%s%N)
  "$tilecc" "$kernels/$k.py" -k "$k" -s "${sig[$k]}" --num-warps "${warps[$k]}" --target=$target --emit=$emit -o "$dir/$k.cubin"
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000 ))
  [ $first = 1 ] || echo "," >> "$dir/compile_ms.json"
  printf '"%s": %d.%03d' "$k" $((ms / 1000)) $((ms % 1000)) >> "$dir/compile_ms.json"
  first=0
  printf "tilecc %s -> %s.cubin: %d.%03d ms\n" "$k" "$k" $((ms / 1000)) $((ms % 1000))
done
# the other sizes of the issue: matmul in bf16, attention with head dim 128
extra() { # name kernel signature warps
  t0=$(date +%s%N)
  "$tilecc" "$kernels/$2.py" -k "$2" -s "$3" --num-warps "$4" --target=$target --emit=$emit -o "$dir/$1.cubin"
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000 ))
  printf ',\n"%s": %d.%03d' "$1" $((ms / 1000)) $((ms % 1000)) >> "$dir/compile_ms.json"
  printf "tilecc %s -> %s.cubin: %d.%03d ms\n" "$1" "$1" $((ms / 1000)) $((ms % 1000))
}
extra matmul_bf16 matmul "*bf16:16, *bf16:16, *bf16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8" 4
extra attention_d128 attention "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32:16, fp32, i32:16, i32:16, 128, 128, 64" 8
echo "}" >> "$dir/compile_ms.json"
