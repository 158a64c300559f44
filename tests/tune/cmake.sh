#!/usr/bin/env bash
# cmake.sh: tilecc_add_kernel(... TUNING file ...) (docs/cmake.md): installs BUILD_DIR into a
# scratch prefix, builds tests/tune/project (axpy's launcher from fixed.tuning) against it,
# runs tune_launch with the known winners of fixed.tuning, and checks that the tuning file
# is a dependency of the kernel's build edge; then tilecc-tune, installed beside tilecc.
#
#   cmake.sh BUILD_DIR WORK_DIR GENERATOR CC [C_FLAGS]
set -euo pipefail
build=$1 work=$2 generator=$3 cc=$4 cflags=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "cmake.sh: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$here/project" -B "$work/b" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
	-DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" \
	-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DCMAKE_C_FLAGS=$cflags" \
	"-DCMAKE_EXE_LINKER_FLAGS=$cflags" >"$work/configure.log" 2>&1 ||
	fail "configure: $(cat "$work/configure.log")"
cmake --build "$work/b" -j1 >"$work/build.log" 2>&1 || fail "build: $(cat "$work/build.log")"
grep -q -- "--tuning" "$work/b/tilecc/axpy_tuned/axpy.args" || fail "no --tuning in the .args"
out=$("$work/b/tune_launch" 4096:1 65536:2 1000:0 5000:1 1001:0 0:2) || fail "tune_launch: $out"
echo "$out" | grep -q "^n=5000: config 1, BLOCK=64 num_warps=2 EVEN=False, ok$" || fail "$out"
# the tuning file is a dependency of the kernel's build edge
grep -q "fixed.tuning" "$work/b/build.ninja" 2>/dev/null || [ "$generator" != Ninja ] ||
	fail "the tuning file is not a dependency"
# tilecc-tune, installed beside tilecc: tunes in one command
rm -f "$work/tuning.txt"
CC="$cc $cflags" "$work/prefix/bin/tilecc-tune" -o "$work/tuning.txt" "$here/kernels/axpy.py" -k axpy \
	-s "*fp32:16, *fp32:16, *fp32:16, i32, fp32" --tune "$here/axpy.spec" 2>"$work/tune.err" ||
	fail "tilecc-tune: $(cat "$work/tune.err")"
[ "$(grep -c '^best: n=' "$work/tuning.txt")" = 3 ] || fail "tilecc-tune wrote no 3 best lines"
echo "cmake.sh: PASS"
