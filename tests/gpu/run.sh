#!/bin/sh
# run.sh: the GPU test of libtilert's CUDA path, for a machine with an NVIDIA GPU (sm_90 or
# newer), its driver and gcc. Needs no cmake and no LLVM: libtilert (lib/runtime/*.c) and
# the tests are built here with plain gcc commands, against cuda.h when the CUDA headers
# are installed (without them, cuda.c declares the driver types itself).
#
#   tests/gpu/run.sh            build in a temporary directory, run, print a summary
#
# Environment: CC (default gcc); CUDA_PATH (default /usr/local/cuda), for cuda.h and
# ptxas; TILERT_GPU_BUILD, a build directory to use instead of a temporary one;
# TILERT_GPU_ASAN=0 to skip the second run under AddressSanitizer and UBSan.
#
# What runs:
#   test_cuda_runtime PTX [CUBIN]   tests/gpu/test_cuda_runtime.c: PTX from a file and from
#                                   memory, the cubin ptxas makes of it (when there is a
#                                   ptxas), launches checked against C, streams, threads,
#                                   errors
#   test_cuda_runtime --fault PTX   a kernel that faults, reported by the synchronize
#   test_cuda_runtime --assert PTX  tl.device_assert compiled by tilecc (check_below.ptx):
#                                   passing data go through, failing data stop the kernel
#   test_cuda_runtime --no-device   TILERT_CUDA_DEVICE=99: TILERT_ERR_NO_DRIVER
#   test_runtime_cuda PTX [CUBIN]   tests/runtime/test_runtime_cuda.c, the ctest of machines
#                                   without a GPU, taking its with-a-device branch here
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-gcc}
cuda=${CUDA_PATH:-/usr/local/cuda}
build=${TILERT_GPU_BUILD:-$(mktemp -d "${TMPDIR:-/tmp}/tilert-gpu.XXXXXX")}
ptx=$root/tests/gpu/vadd_meta.ptx
mkdir -p "$build"

cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -Wall -Wextra -Wno-unused-parameter"
cflags="$cflags -Wno-missing-field-initializers -I$root/include"
if [ -f "$cuda/include/cuda.h" ]; then
	cudaflags="-DTILERT_HAVE_CUDA_H=1 -I$cuda/include"
	echo "run.sh: cuda.h from $cuda/include"
else
	cudaflags=""
	echo "run.sh: no cuda.h; building with cuda.c's own declarations"
fi

failed=0
fail() {
	echo "run.sh: FAILED: $*"
	failed=$((failed + 1))
}

# build VARIANT EXTRA_FLAGS: libtilert.a, libtilert.so and the two test programs in
# $build/VARIANT. libffi is left out: it serves CPU kernels only.
build() {
	dir=$build/$1
	flags="$cflags $2"
	mkdir -p "$dir/obj"
	for src in "$root"/lib/runtime/*.c; do
		obj=$dir/obj/$(basename "$src" .c).o
		extra=""
		[ "$(basename "$src")" = cuda.c ] && extra=$cudaflags
		# shellcheck disable=SC2086
		$cc $flags $extra -O2 -fPIC -fvisibility=hidden -c "$src" -o "$obj" || return 1
	done
	rm -f "$dir/libtilert.a"
	ar rcs "$dir/libtilert.a" "$dir"/obj/*.o || return 1
	# shellcheck disable=SC2086
	$cc $flags -shared -o "$dir/libtilert.so" "$dir"/obj/*.o -ldl -lpthread || return 1
	# shellcheck disable=SC2086
	$cc $flags -O1 -o "$dir/test_cuda_runtime" "$root/tests/gpu/test_cuda_runtime.c" \
		"$dir/libtilert.a" -ldl -lpthread || return 1
	# shellcheck disable=SC2086
	$cc $flags -O1 -I"$root/tests/unit" -I"$root/lib" -o "$dir/test_runtime_cuda" \
		"$root/tests/runtime/test_runtime_cuda.c" "$dir/libtilert.a" -ldl -lpthread || return 1
}

# run VARIANT: every test program of the variant.
run() {
	dir=$build/$1
	echo "== $1: test_cuda_runtime"
	"$dir/test_cuda_runtime" "$ptx" ${cubin:+"$cubin"} || fail "$1: test_cuda_runtime"
	echo "== $1: test_cuda_runtime --fault"
	"$dir/test_cuda_runtime" --fault "$ptx" || fail "$1: test_cuda_runtime --fault"
	echo "== $1: test_cuda_runtime --assert"
	"$dir/test_cuda_runtime" --assert "$root/tests/gpu/check_below.ptx" ||
		fail "$1: test_cuda_runtime --assert"
	echo "== $1: test_cuda_runtime --no-device"
	TILERT_CUDA_DEVICE=99 "$dir/test_cuda_runtime" --no-device ||
		fail "$1: test_cuda_runtime --no-device"
	echo "== $1: test_runtime_cuda"
	"$dir/test_runtime_cuda" "$ptx" ${cubin:+"$cubin"} || fail "$1: test_runtime_cuda"
}

echo "run.sh: building in $build with $($cc --version | head -n 1)"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
fi

# The cubin: ptxas from PATH or from the toolkit, for this GPU's architecture.
ptxas=$(command -v ptxas 2>/dev/null || true)
[ -z "$ptxas" ] && [ -x "$cuda/bin/ptxas" ] && ptxas=$cuda/bin/ptxas
arch=sm_90
if command -v nvidia-smi >/dev/null 2>&1; then
	cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | tr -d ' .')
	case "$cap" in [0-9][0-9] | [0-9][0-9][0-9]) [ "$cap" -ge 90 ] && arch=sm_$cap ;; esac
fi
cubin=""
if [ -n "$ptxas" ]; then
	if "$ptxas" -arch="$arch" "$ptx" -o "$build/vadd_meta.cubin"; then
		cubin=$build/vadd_meta.cubin
		echo "run.sh: $ptxas -arch=$arch made $cubin"
	else
		fail "ptxas -arch=$arch vadd_meta.ptx"
	fi
else
	echo "run.sh: no ptxas; the cubin is not tested"
fi

if build plain ""; then
	if readelf -d "$build/plain/libtilert.so" | grep NEEDED | grep -q libcuda; then
		fail "libtilert.so links libcuda"
	fi
	run plain
else
	fail "building (plain)"
fi

# The driver maps memory where ASan's shadow gap would be, and keeps allocations for the
# life of the process: hence protect_shadow_gap=0 and no leak check.
if [ "${TILERT_GPU_ASAN:-1}" != 0 ]; then
	if build asan "-fsanitize=address,undefined -fno-omit-frame-pointer"; then
		ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
		export ASAN_OPTIONS UBSAN_OPTIONS
		run asan
	else
		fail "building (asan)"
	fi
fi

if [ "$failed" -ne 0 ]; then
	echo "run.sh: $failed failure(s)"
	exit 1
fi
echo "run.sh: all GPU tests passed"
