#!/usr/bin/env bash
# spec.sh: the specialization-variant launchers on an NVIDIA GPU, GPU-machine half (see
# stage-spec.sh). Builds libtilert from lib/runtime and tests/aot/spec_launch.c with the
# staged launchers, then runs it: on a CUDA device it must choose the sm_90a cubin, run each
# launch's predicted variant on device memory (pointers aligned and one element off, sizes
# 1, primes, 16k, 16k+1) and get the results right.
#
#   tests/gpu/spec.sh OUTDIR       (from the repository root; OUTDIR from stage-spec.sh)
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1/vadd.c" ] || [ ! -f "$1/affine2d.c" ]; then
	echo "usage: $0 DIR   (DIR: vadd.[ch] and affine2d.[ch] of tests/gpu/stage-spec.sh)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
staged=$(cd "$1" && pwd)
cc=${CC:-gcc}
cuda=${CUDA_PATH:-/usr/local/cuda}
build=$(mktemp -d "${TMPDIR:-/tmp}/tilecc-spec-gpu.XXXXXX")
mkdir -p "$build/obj"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -I$root/include"
cudaflags=""
[ -f "$cuda/include/cuda.h" ] && cudaflags="-DTILERT_HAVE_CUDA_H=1 -I$cuda/include"
# shellcheck disable=SC2086 # the flags are word lists
for src in "$root"/lib/runtime/*.c; do
	extra=""
	[ "$(basename "$src")" = cuda.c ] && extra=$cudaflags
	$cc $cflags $extra -fPIC -fvisibility=hidden -c "$src" -o "$build/obj/$(basename "$src" .c).o"
done
ar rcs "$build/libtilert.a" "$build"/obj/*.o
# shellcheck disable=SC2086
$cc $cflags -Werror -I"$staged" "$root/tests/aot/spec_launch.c" "$staged/vadd.c" \
	"$staged/affine2d.c" "$build/libtilert.a" -ldl -lpthread -lm -o "$build/spec_launch"
out=$(env -u TILERT_FORCE_CPU "$build/spec_launch") || { echo "$out"; echo "spec.sh: FAIL"; exit 1; }
echo "$out" | grep -v "not run:"
echo "$out" | grep -q "^artifacts: vadd sm_90a cubin, affine2d sm_90a cubin$" ||
	{ echo "spec.sh: FAIL: the launchers did not choose the sm_90a cubin"; exit 1; }
echo "spec.sh: all checks passed on the GPU"
