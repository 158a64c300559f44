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
#
# Once the launcher has been made from DIR/tuning.txt back on the build machine (bash
# DIR/ARGS writes DIR/launcher/KERNEL.h and .c: sm_90a + x86-64) and DIR copied here again,
# `tests/gpu/tune.sh DIR` also builds tests/gpu/tune_launch_matmul.c against it and runs it
# on the GPU at the tuned sizes (each must get its recorded winner) and at 1024 and 2048
# (the nearest recorded ones), checking sampled entries of C against the host; set
# TUNE_SKIP=1 to run that check only, without tuning again.
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
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader || true
fi
if [ "${TUNE_SKIP:-0}" != 1 ]; then
	"$dir/tuner" -o "$dir/tuning.txt"
	cat "$dir/tuning.txt"
fi
kernel=$(cat "$dir/KERNEL")
if [ -f "$dir/launcher/$kernel.h" ]; then
	"${CC:-cc}" -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/include" -I"$dir/launcher" \
		-DKERNEL="$kernel" "-DHEADER=\"$kernel.h\"" "$root/tests/gpu/tune_launch_matmul.c" \
		"$dir/launcher/$kernel.c" "$rt/libtilert.a" -lpthread -ldl -lm -o "$dir/launch_check"
	args=()
	for m in 512 4096 8192; do
		args+=("$m:$(sed -n "s/^best: M=$m N=$m K=$m -> \([0-9]*\) .*/\1/p" "$dir/launcher/tuning.txt")")
	done
	args+=(1024:-1 2048:-1)
	"$dir/launch_check" "${args[@]}"
	echo "tune.sh: the tuned launcher: PASS"
fi
