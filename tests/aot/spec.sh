#!/usr/bin/env bash
# spec.sh: launchers with specialization variants (tilecc -s "...:?" -o k.h; docs/abi.md,
# "Specialization variants"). Checks that
#  - vadd (three pointers and n specialized: 2*2*2*3 = 24 variants) and affine2d (two
#    pointers, N and the row stride: 36) headers are generated and compile with -Werror;
#  - spec_launch.c, launching them at sizes 1, primes, 16, 16k, 16k+1 with pointers aligned
#    and one element off, sees each launch run the variant its arguments call for, every
#    variant run (those that valid arguments can reach), and correct results;
#  - headers for target lists (variants x targets: x86-64,riscv64 and sm_90a,x86-64)
#    compile, and the sm_90a,x86-64 ones pass spec_launch.c here on their x86-64 artifacts;
#  - bad uses are refused with a located diagnostic and a non-zero exit.
#
#   spec.sh TILECC CC INCLUDE_DIR LIBTILERT WORK_DIR BENCH_DIR
set -euo pipefail
tilecc=$1 cc=$2 inc=$3 lib=$4 work=$5 bench=$6
here=$(dirname "$0")
rm -rf "$work"
mkdir -p "$work/run" "$work/multi"
fail() { echo "spec.sh: FAIL: $*" >&2; exit 1; }

vsig="*fp32:?, *fp32:?, *fp32:?, i32:?, 1024"
asig="*fp32:?, *fp32:?, i32, i32:?, i32:?, 16, 32"
"$tilecc" "$bench/vadd.py" -k vadd -s "$vsig" -o "$work/run/vadd.h"
"$tilecc" "$here/kernels/affine2d.py" -k affine2d -s "$asig" -o "$work/run/affine2d.h"
grep -q '"DDDD", /\* \*fp32:16, \*fp32:16, \*fp32:16, i32:16, 1024 \*/' "$work/run/vadd.c" ||
	fail "vadd's table has no all-hinted first entry"
grep -q '"----", /\* \*fp32, \*fp32, \*fp32, i32, 1024 \*/' "$work/run/vadd.c" ||
	fail "vadd's table has no unhinted entry"
# shellcheck disable=SC2086 # AOT_CFLAGS: the sanitizer flags of an instrumented build
"$cc" ${AOT_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I"$inc" \
	-I"$work/run" "$here/spec_launch.c" "$work/run/vadd.c" "$work/run/affine2d.c" "$lib" \
	-lpthread -ldl -lm -Wl,-rpath,"$(dirname "$lib")" -o "$work/run/spec_launch"
"$work/run/spec_launch" || fail "spec_launch failed"

# variants x targets: the same table, one artifact set per variant
"$tilecc" "$bench/vadd.py" -k vadd -s "*fp32:?, *fp32, *fp32, i32:?, 1024" \
	--target=x86-64,riscv64 -o "$work/multi/vadd.h"
[ "$(grep -c '{"riscv64", TILERT_FORMAT_HOST' "$work/multi/vadd.c")" = 6 ] ||
	fail "want 6 riscv64 artifacts (one per variant)"
"$cc" -c -Wall -Werror -I"$inc" -I"$work/multi" "$work/multi/vadd.c" -o "$work/multi/vadd.o"

# variants x GPU targets: the headers tests/gpu/stage-spec.sh stages for the H200 compile,
# and run here on their x86-64 artifacts (no GPU), with the same checks
if [ -n "${TILECC_PTXAS:-}" ] || command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
	"$here/../gpu/stage-spec.sh" "$tilecc" "$work/gpu" >/dev/null
	grep -q '{"sm_90a", TILERT_FORMAT_CUBIN' "$work/gpu/vadd.c" || fail "no sm_90a cubin"
	[ "$(grep -c '{"sm_90a", TILERT_FORMAT_PTX' "$work/gpu/vadd.c")" = 24 ] ||
		fail "want 24 sm_90a PTX (one per variant)"
	# shellcheck disable=SC2086
	"$cc" ${AOT_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I"$inc" \
		-I"$work/gpu" "$here/spec_launch.c" "$work/gpu/vadd.c" "$work/gpu/affine2d.c" "$lib" \
		-lpthread -ldl -lm -Wl,-rpath,"$(dirname "$lib")" -o "$work/gpu/spec_launch"
	out=$(TILERT_FORCE_CPU=1 "$work/gpu/spec_launch") || fail "spec_launch (sm_90a,x86-64) failed"
	echo "$out" | grep -q "^artifacts: vadd x86-64, affine2d x86-64$" || fail "not x86-64: $out"
else
	echo "spec.sh: no ptxas: the sm_90a,x86-64 headers are not checked"
fi

# 16-bit and 64-bit integers are specialized too (i16 is not i1)
"$tilecc" "$here/kernels/affine2d.py" -k affine2d -s "*fp32, *fp32, i32, i16:?, i64:?, 16, 32" \
	-o "$work/multi/wide.h"
grep -q '"---DD", /\* \*fp32, \*fp32, i32, i16:16, i64:16, 16, 32 \*/' "$work/multi/wide.c" ||
	fail "i16:? / i64:? did not give their variants"
"$cc" -c -Wall -Werror -I"$inc" -I"$work/multi" "$work/multi/wide.c" -o "$work/multi/wide.o"

# bad uses: exit code, message, location
expect_error() { # CODE PATTERN SIG ARGS...
	local code=$1 pat=$2 sig=$3 rc=0 msg
	shift 3
	msg=$("$tilecc" "$bench/vadd.py" -k vadd -s "$sig" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = "$code" ] || fail "'$sig $*' exited $rc, want $code ($msg)"
	echo "$msg" | grep -q -- "$pat" || fail "'$sig $*' said '$msg', want '$pat'"
}
rc=0
msg=$("$tilecc" "$here/kernels/affine2d.py" -k affine2d -s "*fp32:?, *fp32:?, i32:?, i32:?, i32:?, 16, 32" \
	-o "$work/bad.h" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] || fail "five ':?' exited $rc, want 2 ($msg)"
echo "$msg" | grep -q "<signature>:1:33: error: more than 4 parameters to specialize" ||
	fail "five ':?' said '$msg'"
expect_error 2 "<signature>:1:35: error: '1024:?': a constexpr value cannot be specialized" \
	"*fp32:?, *fp32:16, *fp32:16, i32, 1024:?" -o "$work/bad.h"
expect_error 1 "<signature>:1:35: error: parameter 'BLOCK' is a tl.constexpr" \
	"*fp32:?, *fp32:16, *fp32:16, i32, i32:?" -o "$work/bad.h"
expect_error 2 "<signature>:1:28: error: 'fp32:?': only integer and pointer parameters" \
	"*fp32:16, *fp32:16, *fp32, fp32:?, 1024" -o "$work/bad.h"
expect_error 2 "<signature>:1:6: error: ':?' asks for specialization variants, which only a header" \
	"*fp32:?, *fp32:16, *fp32:16, i32, 1024" -o "$work/bad.so"
if [ -e "$work/bad.h" ] || [ -e "$work/bad.c" ] || [ -e "$work/bad.so" ]; then
	fail "a failed run left files"
fi
echo "spec.sh: all checks passed"
