#!/usr/bin/env bash
# tune.sh: autotuning on an NVIDIA GPU, GPU-machine half (tests/gpu/stage-tune.sh made DIR).
# Needs cmake, a C compiler and the CUDA driver; no tilecc, no LLVM, no Python. Builds
# libtilert from this checkout (lib/runtime is a project of its own) and the staged tuner
# (DIR/tuner.c) against it, runs the tuner, which times every config at every problem on
# the GPU (CUDA events, L2 cleared before each launch, the median of rep_ms of launches)
# and writes DIR/tuning.txt, and prints the file. Run from the repository root:
#
#   tests/gpu/tune.sh DIR
#
# tests/gpu/tune_triton.py runs the built tuner (DIR/tuner) itself, next to Triton's
# autotuner; this script builds it (and can be run alone).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1/tuner.c" ]; then
	echo "usage: $0 DIR   (DIR: what tests/gpu/stage-tune.sh staged)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "$1" && pwd)
rt=$dir/build-tilert
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
cmake -S "$root/lib/runtime" -B "$rt" ${gen[@]+"${gen[@]}"} -DCMAKE_BUILD_TYPE=Release \
	-DTILERT_WITH_FFI=OFF >/dev/null
cmake --build "$rt" -j "$(nproc 2>/dev/null || echo 4)" --target tilert_static >/dev/null
"${CC:-cc}" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/include" "$dir/tuner.c" \
	"$rt/libtilert.a" -lpthread -ldl -lm -o "$dir/tuner"
if [ "${TUNE_BUILD_ONLY:-0}" = 1 ]; then
	echo "tune.sh: built $dir/tuner"
	exit 0
fi
command -v nvidia-smi >/dev/null 2>&1 &&
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader || true
"$dir/tuner" -o "$dir/tuning.txt"
cat "$dir/tuning.txt"
