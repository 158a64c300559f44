#!/usr/bin/env bash
# aot.sh: the multi-target launchers (examples/gpu) on an NVIDIA GPU, GPU-machine half.
# Needs cmake, a C compiler and the CUDA driver; no tilecc, no LLVM, no Python. Run from
# the repository root:
#
#   tests/gpu/aot.sh DIR
#
# where DIR is what tests/gpu/stage-aot.sh staged on the build machine. For each staged set
# (full, ptx) it builds examples/gpu with CMake from the pre-generated sources
# (TILECC_PREGENERATED_DIR) and libtilert from this checkout (TILECC_SOURCE_DIR), runs it
# on the GPU expecting the artifact the device's compute capability calls for (nvidia-smi):
#   full on 9.0: "sm_90a cubin"; on 8.x: "sm_80 cubin"
#   ptx  on 9.0: "sm_80 ptx" (the driver JIT-compiles it); on 8.x: "sm_80 cubin"
# (another device: any GPU artifact; no nvidia-smi: the GPU run is skipped, said so), and
# once more with TILERT_FORCE_CPU=1, expecting "x86-64". Every run checks vadd, softmax
# and matmul against C at awkward sizes. Prints one line per run and "N passed, M failed".
#
# Environment: AOT_BUILD, a directory to build in instead of a temporary one; CC.
set -uo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 DIR   (DIR: what tests/gpu/stage-aot.sh staged)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
staged=$(cd "$1" && pwd)
build=${AOT_BUILD:-$(mktemp -d "${TMPDIR:-/tmp}/tilecc-aot.XXXXXX")}
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)

cc=""
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader || true
	cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')
fi
expect() { # SET: the variant the device should take
	case "$1:$cc" in
	full:9.0) echo "sm_90a cubin" ;;
	ptx:9.0) echo "sm_80 ptx" ;;
	*:8.0 | *:8.6 | *:8.9) echo "sm_80 cubin" ;;
	*) echo "" ;; # another device: any GPU artifact (not x86-64), printed
	esac
}

passed=0
failed=0
for set in full ptx; do
	if [ ! -d "$staged/$set" ]; then
		echo "aot.sh: $staged/$set is missing (stage it with tests/gpu/stage-aot.sh)" >&2
		failed=$((failed + 1))
		continue
	fi
	b=$build/$set
	log=$build/$set.log
	targets=$(cat "$staged/$set/TARGETS")
	if ! { cmake -S "$root/examples/gpu" -B "$b" ${gen[@]+"${gen[@]}"} -DCMAKE_BUILD_TYPE=Release \
		"-DEXAMPLE_TARGETS=$targets" \
		-DTILECC_SOURCE_DIR="$root" -DTILECC_PREGENERATED_DIR="$staged/$set" &&
		cmake --build "$b" -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
		echo "aot.sh: $set: the build failed:"
		tail -n 40 "$log"
		failed=$((failed + 1))
		continue
	fi
	for mode in gpu cpu; do
		if [ $mode = cpu ]; then
			want=x86-64
			envs=(TILERT_FORCE_CPU=1)
		else
			want=$(expect $set)
			envs=(TILERT_FORCE_CPU=0)
		fi
		if [ $mode = gpu ] && [ -z "$cc" ]; then
			echo "aot.sh: $set/$mode: SKIP (no nvidia-smi, no NVIDIA GPU to expect a variant of)"
			continue
		fi
		if out=$(env "${envs[@]}" EXPECT_VARIANT="$want" "$b/tilecc_gpu_example" 2>&1) &&
			{ [ $mode = cpu ] || ! echo "$out" | grep -q ': x86-64$'; }; then
			passed=$((passed + 1))
			echo "aot.sh: $set/$mode: PASS ($(echo "$out" | head -n 3 | tr '\n' ' '))"
		else
			failed=$((failed + 1))
			echo "aot.sh: $set/$mode: FAIL (expected variant '${want:-any}'):"
			echo "$out" | sed 's/^/    /'
		fi
	done
done
echo "aot.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
