#!/usr/bin/env bash
# stage-aot.sh: the multi-target launchers (examples/gpu) on an NVIDIA GPU, build-machine
# half. Installs BUILD_DIR's tilecc into a scratch prefix, configures and builds
# examples/gpu against it twice, and copies each build's generated kernel sources (its
# tilecc/ directory: vadd, softmax and matmul launchers, the .args they were made with)
# into OUTDIR, for tests/gpu/aot.sh, which runs on the GPU machine, where there is no tilecc:
#
#   tests/gpu/stage-aot.sh BUILD_DIR OUTDIR      (here; e.g. build .scratch/aot)
#   tests/gpu/aot.sh OUTDIR                      (there, from the repository root)
#
# OUTDIR/full: TARGETS sm_90a sm_80 gfx942 x86-64 (an H100/H200 takes the sm_90a cubins).
# OUTDIR/ptx:  TARGETS sm_80 x86-64 (on a 9.0 device no cubin fits: the sm_80 PTX is
#              compiled by the driver, the JIT path).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 BUILD_DIR OUTDIR" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
out=$2
if [ ! -f "$build/CMakeCache.txt" ]; then
	echo "stage-aot.sh: $build is not a configured build directory (cmake -S . -B $build)" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tilecc-stage-aot.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "stage-aot.sh: building tilecc and libtilert in $build"
cmake --build "$build" -j1 --target tilecc tilert tilert_static
cmake --install "$build" --prefix "$work/prefix" >/dev/null

stage() { # NAME TARGETS
	local name=$1 targets=$2
	echo "stage-aot.sh: examples/gpu with TARGETS $targets"
	cmake -S "$root/examples/gpu" -B "$work/$name" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
		"-DEXAMPLE_TARGETS=$targets" >/dev/null
	cmake --build "$work/$name" -j1
	# the x86-64 artifacts run here: a quick check before the GPU machine sees them
	TILERT_FORCE_CPU=1 EXPECT_VARIANT=x86-64 "$work/$name/tilecc_gpu_example" | tail -n 1
	rm -rf "${out:?}/$name"
	mkdir -p "$out/$name"
	for d in "$work/$name"/tilecc/*/; do
		k=$(basename "$d")
		mkdir -p "$out/$name/$k"
		cp "$d"/*.h "$d"/*.c "$d"/*.args "$out/$name/$k/"
	done
	echo "$targets" >"$out/$name/TARGETS" # aot.sh configures with the same EXAMPLE_TARGETS
}
stage full "sm_90a;sm_80;gfx942;x86-64"
stage ptx "sm_80;x86-64"

kb=$(du -sk "$out" | cut -f1)
echo "stage-aot.sh: staged in $out ($kb KiB); on the GPU machine: tests/gpu/aot.sh $out"
