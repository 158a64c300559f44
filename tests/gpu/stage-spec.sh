#!/usr/bin/env bash
# stage-spec.sh: the specialization-variant launchers on an NVIDIA GPU, build-machine half.
# Generates the vadd and affine2d launchers of tests/aot/spec.sh for --target=sm_90a,x86-64
# (24 and 36 variants, each with an sm_90a cubin, its PTX and an x86-64 shared object) into
# OUTDIR, for tests/gpu/spec.sh, which builds libtilert and tests/aot/spec_launch.c against
# them on the GPU machine and runs it there, in device memory:
#
#   tests/gpu/stage-spec.sh TILECC OUTDIR     (here; e.g. build/tools/tilecc/tilecc .scratch/gpu-spec)
#   tests/gpu/spec.sh OUTDIR                  (there, from the repository root)
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 TILECC OUTDIR" >&2
	exit 2
fi
tilecc=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
rm -f "$out"/vadd.[ch] "$out"/affine2d.[ch]
"$tilecc" "$root/bench/kernels/vadd.py" -k vadd -s "*fp32:?, *fp32:?, *fp32:?, i32:?, 1024" \
	--target=sm_90a,x86-64 -o "$out/vadd.h"
"$tilecc" "$root/tests/aot/kernels/affine2d.py" -k affine2d \
	-s "*fp32:?, *fp32:?, i32, i32:?, i32:?, 16, 32" --target=sm_90a,x86-64 -o "$out/affine2d.h"
echo "stage-spec.sh: staged in $out ($(du -sk "$out" | cut -f1) KiB)"
