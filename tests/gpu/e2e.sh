#!/usr/bin/env bash
# e2e.sh: the e2e tests (tests/e2e) on an NVIDIA GPU, GPU-machine half. Needs gcc, the CUDA
# driver and (optionally) the CUDA headers; no cmake, no LLVM, no Python. Run from anywhere:
#
#   tests/gpu/e2e.sh DIR
#
# where DIR holds the cubins and manifest.txt that tests/gpu/stage-e2e.sh staged on the build
# machine. Builds libtilert (lib/runtime/*.c) and every harness (tests/e2e/HARNESS.c +
# e2e.c) with plain gcc, runs each harness on its cubins (in the manifest's order), prints
# each harness's summary line and the total "N passed, M failed"; exits non-zero when a case
# failed or a harness could not be built or run. A variant that did not compile for the GPU
# fails its cases with tilecc's diagnostics.
#
# Environment: CC (default gcc); CUDA_PATH (default /usr/local/cuda), for cuda.h;
# E2E_GPU_BUILD, a build directory to use instead of a temporary one; E2E_GPU_ASAN=1 to build
# everything with AddressSanitizer and UBSan; E2E_GPU_TIMEOUT, seconds per harness (default
# 900, when timeout(1) exists); E2E_GPU_ONLY="h1 h2", to run those harnesses only;
# E2E_GPU_WRAP, a command to run each harness under (e.g. "compute-sanitizer --tool
# racecheck").
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 DIR   (DIR: the cubins and manifest.txt of tests/gpu/stage-e2e.sh)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -d "$1" ]; then
	echo "e2e.sh: no directory $1" >&2
	exit 2
fi
staged=$(cd "$1" && pwd)
manifest=$staged/manifest.txt
if [ ! -f "$manifest" ]; then
	echo "e2e.sh: no $manifest (stage it with tests/gpu/stage-e2e.sh BUILD_DIR $1)" >&2
	exit 2
fi
cc=${CC:-gcc}
cuda=${CUDA_PATH:-/usr/local/cuda}
build=${E2E_GPU_BUILD:-$(mktemp -d "${TMPDIR:-/tmp}/tilecc-e2e-gpu.XXXXXX")}
mkdir -p "$build/obj" "$build/logs"

cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -Wall -Wextra -Wno-unused-parameter"
cflags="$cflags -Wno-missing-field-initializers -I$root/include"
if [ "${E2E_GPU_ASAN:-0}" = 1 ]; then
	cflags="$cflags -fsanitize=address,undefined -fno-omit-frame-pointer"
	# The driver maps memory where ASan's shadow gap would be, and keeps allocations for the
	# life of the process (see tests/gpu/run.sh).
	export ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
if [ -f "$cuda/include/cuda.h" ]; then
	cudaflags="-DTILERT_HAVE_CUDA_H=1 -I$cuda/include"
	echo "e2e.sh: cuda.h from $cuda/include"
else
	cudaflags=""
	echo "e2e.sh: no cuda.h; building with cuda.c's own declarations"
fi
echo "e2e.sh: building in $build with $($cc --version | head -n 1)"
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader || true
else
	echo "e2e.sh: no nvidia-smi here; the launches will say whether there is a GPU"
fi

# libtilert.a, as tests/gpu/run.sh builds it (libffi left out: it serves CPU kernels only).
for src in "$root"/lib/runtime/*.c; do
	extra=""
	[ "$(basename "$src")" = cuda.c ] && extra=$cudaflags
	# shellcheck disable=SC2086
	$cc $cflags $extra -O2 -fPIC -fvisibility=hidden -c "$src" \
		-o "$build/obj/$(basename "$src" .c).o"
done
rm -f "$build/libtilert.a"
ar rcs "$build/libtilert.a" "$build"/obj/*.o

# The harnesses: those of the manifest, in its order.
harnesses=()
declare -A cubins
while read -r h files; do
	case $h in \#* | "") continue ;; esac
	harnesses+=("$h")
	cubins[$h]=$files
done <"$manifest"
if [ ${#harnesses[@]} -eq 0 ]; then
	echo "e2e.sh: $manifest lists no harness" >&2
	exit 2
fi
for c in "$root"/tests/e2e/*.c; do
	h=$(basename "$c" .c)
	[ "$h" = e2e ] && continue
	[ -n "${cubins[$h]+x}" ] ||
		echo "e2e.sh: warning: tests/e2e/$h.c is not in the manifest (stale staging?)"
done

passed=0
failed=0
problems=()
summaries=()
timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then
	timeout_cmd=(timeout -k 10 "${E2E_GPU_TIMEOUT:-900}")
fi

for h in "${harnesses[@]}"; do
	if [ -n "${E2E_GPU_ONLY:-}" ] && ! [[ " $E2E_GPU_ONLY " == *" $h "* ]]; then
		continue
	fi
	exe=$build/e2e_$h
	if [ ! -f "$root/tests/e2e/$h.c" ]; then
		problems+=("$h: no tests/e2e/$h.c")
		continue
	fi
	# shellcheck disable=SC2086
	if ! $cc $cflags -O1 -o "$exe" "$root/tests/e2e/$h.c" "$root/tests/e2e/e2e.c" \
		"$build/libtilert.a" -ldl -lpthread -lm; then
		problems+=("$h: the harness did not build")
		continue
	fi
	args=()
	missing=0
	for f in ${cubins[$h]}; do
		if [ ! -f "$staged/$f" ]; then
			problems+=("$h: $staged/$f is missing")
			missing=1
		fi
		args+=("$staged/$f")
	done
	[ "$missing" = 0 ] || continue

	echo "== e2e.gpu.$h (${#args[@]} cubins)"
	log=$build/logs/$h.log
	set +e
	read -r -a wrap <<< "${E2E_GPU_WRAP:-}"
	${timeout_cmd[@]+"${timeout_cmd[@]}"} ${wrap[@]+"${wrap[@]}"} "$exe" "${args[@]}" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
	if [ -z "$summary" ]; then
		problems+=("$h: no summary line (exit status $rc; log $log)")
		summaries+=("e2e.gpu.$h: no summary (exit status $rc)")
		continue
	fi
	p=$(echo "$summary" | sed -E 's/^([0-9]+) passed.*/\1/')
	f=$(echo "$summary" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	summaries+=("e2e.gpu.$h: $summary")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		problems+=("$h: exit status $rc with no failed case")
	fi
done

echo
echo "== summary (logs in $build/logs)"
for s in "${summaries[@]+"${summaries[@]}"}"; do
	echo "$s"
done
for p in "${problems[@]+"${problems[@]}"}"; do
	echo "e2e.sh: ERROR: $p"
done
echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ] || [ ${#problems[@]} -ne 0 ] || [ "$passed" -eq 0 ]; then
	exit 1
fi
