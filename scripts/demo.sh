#!/usr/bin/env bash
# demo.sh: the main job on a fresh machine. Installs what is missing, builds tilecc and
# libtilert, compiles the example kernel (examples/vadd.py) to tile IR, to PTX for an H200
# (and a cubin when the CUDA toolkit's ptxas is there), to an HSACO for an AMD MI300
# (gfx942; compiled, not run: no AMD GPU), to LLVM IR and to a host shared
# object embedded in a C header, builds a small program around that header, runs it on the
# host and prints its check.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="$root/build"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target tilecc tilert >/dev/null
tilecc="$build/tools/tilecc/tilecc"
out="$build/demo"
mkdir -p "$out"

"$tilecc" --version
echo
echo "== tilecc examples/vadd.py -k vadd -s '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024' -o $out/vadd.tir"
"$tilecc" "$root/examples/vadd.py" -k vadd -s '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024' \
  -o "$out/vadd.tir" -ftime-report
cat "$out/vadd.tir"
# The round trip: the printed tile IR parses back to the identical text.
"$tilecc" "$out/vadd.tir" --emit=tir -o "$out/vadd.again.tir"
if cmp -s "$out/vadd.tir" "$out/vadd.again.tir"; then
  echo "check: tile IR round-trips (print -> parse -> print is identical): OK"
else
  echo "check: tile IR round trip FAILED" >&2
  exit 1
fi
echo
sig='*fp32:16, *fp32:16, *fp32:16, i32, 1024'
# for the GPU, the benchmark's specialization: n divisible by 16 lets the masks cover whole
# 16-byte vectors
sig16='*fp32:16, *fp32:16, *fp32:16, i32:16, 1024'
echo "== tilecc examples/vadd.py -k vadd -s '$sig16' --target=sm_90 -o $out/vadd.ptx"
"$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig16" --target=sm_90 -o "$out/vadd.ptx"
echo "   $(grep -cE 'ld.global.v4.(f32|b32)' "$out/vadd.ptx") 128-bit global loads, $(grep -m1 '.maxntid' "$out/vadd.ptx" | sed 's/^[[:space:]]*//')"
if "$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig16" --target=sm_90 -o "$out/vadd.cubin" 2>/dev/null; then
  echo "   and vadd.cubin through ptxas ($(wc -c < "$out/vadd.cubin") bytes)"
fi
echo "== tilecc examples/vadd.py -k vadd -s '$sig16' --target=gfx942 -o $out/vadd.hsaco   (AMD; not run here)"
"$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig16" --target=gfx942 -o "$out/vadd.hsaco"
"$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig16" --target=gfx942 -o "$out/vadd.amdgcn.s"
echo "   $(grep -c global_load_dwordx4 "$out/vadd.amdgcn.s") 16-byte global loads, wave64, HSACO $(wc -c < "$out/vadd.hsaco") bytes"
echo "== tilecc examples/vadd.py -k vadd -s '$sig' -o $out/vadd.h   (host: $(uname -m))"
"$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig" -o "$out/vadd.h"
"$tilecc" "$root/examples/vadd.py" -k vadd -s "$sig" -o "$out/vadd.ll"
echo "   wrote vadd.h, vadd.c (the shared object embedded), vadd.ll ($(grep -c 'masked.load' "$out/vadd.ll") masked vector loads)"
cc -O2 -I"$root/include" -I"$out" "$root/examples/vadd_main.c" "$out/vadd.c" -o "$out/vadd_main" \
  -L"$build/lib/runtime" -ltilert -Wl,-rpath,"$build/lib/runtime" -lpthread -ldl
"$out/vadd_main"
