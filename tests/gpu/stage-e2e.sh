#!/usr/bin/env bash
# stage-e2e.sh: the e2e tests on an NVIDIA GPU, build-machine half. Builds the target
# e2e_cubins of BUILD_DIR (every e2e kernel variant compiled by tilecc with --target=sm_90,
# and gpu/manifest.txt) and copies the cubins and the manifest into OUTDIR, for
# tests/gpu/e2e.sh, which runs on the GPU machine:
#
#   tests/gpu/stage-e2e.sh BUILD_DIR OUTDIR      (here; e.g. build .scratch/gpu-e2e)
#   tests/gpu/e2e.sh OUTDIR                      (there, from the repository root)
#
# The cubins take the build's E2E_GPU_FLAGS (CMake cache, default empty) as more tilecc
# options: `cmake -B BUILD_DIR -DE2E_GPU_FLAGS=--mma-prefetch` stages them with an opt-in pass.
#
# A variant that tilecc cannot compile for the GPU is staged all the same: its .cubin holds
# "TILECC-FAILED" and the diagnostics, which the harness reports as that case's failure.
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 BUILD_DIR OUTDIR" >&2
	exit 2
fi
build=$1
out=$2
if [ ! -f "$build/CMakeCache.txt" ]; then
	echo "stage-e2e.sh: $build is not a configured build directory (cmake -S . -B $build)" >&2
	exit 1
fi

jobs=$(nproc 2>/dev/null || echo 2)
echo "stage-e2e.sh: building e2e_cubins in $build"
cmake --build "$build" --target e2e_cubins -j "$jobs"

src=$build/tests/e2e/gpu
manifest=$src/manifest.txt
if [ ! -f "$manifest" ]; then
	echo "stage-e2e.sh: no $manifest (is this build configured with tests?)" >&2
	exit 1
fi

mkdir -p "$out"
rm -f "$out"/*.cubin "$out"/manifest.txt
ok=0
bad=0
while read -r harness files; do
	case $harness in \#* | "") continue ;; esac
	for f in $files; do
		if [ ! -f "$src/$f" ]; then
			echo "stage-e2e.sh: $src/$f is missing (listed for $harness)" >&2
			exit 1
		fi
		cp "$src/$f" "$out/$f"
		if [ "$(head -c 13 "$src/$f" | tr -d '\000')" = TILECC-FAILED ]; then
			bad=$((bad + 1))
			echo "  $harness: $f did not compile for the GPU (the harness will report it)"
		else
			ok=$((ok + 1))
		fi
	done
done <"$manifest"
cp "$manifest" "$out/manifest.txt"

kb=$(du -sk "$out" | cut -f1)
echo "stage-e2e.sh: $ok cubins and $bad compile failures staged in $out ($kb KiB)"
if [ "$kb" -gt 61440 ]; then
	echo "stage-e2e.sh: $out is over 60 MiB, too much to carry" >&2
	exit 1
fi
