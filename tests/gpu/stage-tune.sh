#!/usr/bin/env bash
# stage-tune.sh: autotuning the matmul tutorial on an NVIDIA GPU (docs/abi.md, "Autotuning"),
# build-machine half. With BUILD_DIR's tilecc it writes the tuner of the tutorial's
# matmul_kernel for sm_90a (tilecc --tune tests/gpu/matmul_tune.spec: 512^2, 4096^2, 8192^2
# fp16, the tutorial's CUDA configs, every config's cubin embedded) into OUTDIR, with what
# the GPU machine needs to build and run it without tilecc or LLVM:
#
#   tests/gpu/stage-tune.sh BUILD_DIR OUTDIR [TUTORIAL]   (here)
#   tests/gpu/tune.sh OUTDIR                              (there: builds libtilert and the
#                                                          tuner, writes OUTDIR/tuning.txt)
#   python3 tests/gpu/tune_triton.py TUTORIAL OUTDIR      (there: our tuner, then Triton's
#                                                          autotuner, side by side)
#   tilecc ... --tuning OUTDIR/tuning.txt -o k.h          (here again: OUTDIR/ARGS has it)
#
# TUTORIAL is Triton's python/tutorials/03-matrix-multiplication.py (not in this
# repository): its kernel and configs are used. Without it, bench/kernels/matmul.py stands
# in, with tests/gpu/matmul_configs.txt (the tutorial's configs, renamed to its parameters).
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 BUILD_DIR OUTDIR [03-matrix-multiplication.py]" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
tutorial=${3:-}
if [ ! -f "$build/CMakeCache.txt" ]; then
	echo "stage-tune.sh: $build is not a configured build directory" >&2
	exit 1
fi
cmake --build "$build" -j1 --target tilecc >/dev/null
tilecc=$build/tools/tilecc/tilecc
[ -x "$tilecc" ] || tilecc=$(find "$build" -name tilecc -type f -perm -u+x | head -n 1)
sig="*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1"
if [ -n "$tutorial" ]; then
	cp "$tutorial" "$out/kernel.py"
	python3 "$root/tests/gpu/tutorial_configs.py" "$tutorial" >"$out/configs.txt"
	kernel=matmul_kernel
	defs=(-D "ACTIVATION=''")
	cp "$root/tests/gpu/matmul_tune.spec" "$out/spec.txt"
else
	echo "stage-tune.sh: no tutorial given: bench/kernels/matmul.py with the tutorial's configs"
	cp "$root/bench/kernels/matmul.py" "$out/kernel.py"
	rename() { sed -e 's/BLOCK_SIZE_/BLOCK_/g' -e 's/GROUP_SIZE_M/GROUP_M/g' "$@"; }
	grep -v '^#' "$root/tests/gpu/matmul_configs.txt" | rename >"$out/configs.txt"
	rename "$root/tests/gpu/matmul_tune.spec" >"$out/spec.txt"
	kernel=matmul
	defs=()
fi
args=("$out/kernel.py" -k "$kernel" -s "$sig" ${defs[@]+"${defs[@]}"} --target=sm_90a
	--configs "$out/configs.txt")
echo "stage-tune.sh: $(grep -c . "$out/configs.txt") configs of $kernel for sm_90a"
"$tilecc" "${args[@]}" --tune "$out/spec.txt" -o "$out/tuner.c"
printf '%s\n' "$kernel" >"$out/KERNEL"
# what makes the launcher from the tuning file, back here
{
	printf '%q ' "$tilecc" "$out/kernel.py" -k "$kernel" -s "$sig" ${defs[@]+"${defs[@]}"} \
		--target=sm_90a,x86-64 --tuning "$out/launcher/tuning.txt" -o "$out/launcher/$kernel.h"
	echo
} >"$out/ARGS.tmp"
# ARGS: run here once tuning.txt came back from the GPU machine; the launcher then holds a
# copy of the tuning file it was made from (tune.sh checks the launches against it)
{
	echo "# bash $out/ARGS: the tuned launcher from $out/tuning.txt (tests/gpu/stage-tune.sh)"
	echo "set -e"
	printf 'mkdir -p %q\ncp %q %q\n' "$out/launcher" "$out/tuning.txt" "$out/launcher/tuning.txt"
	cat "$out/ARGS.tmp"
} >"$out/ARGS"
rm -f "$out/ARGS.tmp"
kb=$(du -sk "$out" | cut -f1)
echo "stage-tune.sh: staged in $out ($kb KiB); on the GPU machine:"
echo "  tests/gpu/tune.sh $out && python3 tests/gpu/tune_triton.py TUTORIAL $out"
echo "then, with DIR/tuning.txt back here: bash $out/ARGS (the launcher, sm_90a + x86-64),"
echo "and there again: TUNE_SKIP=1 tests/gpu/tune.sh $out (launches through it, checks C)"
