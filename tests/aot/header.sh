#!/usr/bin/env bash
# header.sh: GPU and multi-target headers (tilecc -o k.h --target=...). Checks that
#  - --target=sm_90a and --target=sm_80,sm_90a,gfx942,x86-64 headers are generated and
#    compile with the system C compiler (cc -c -Wall -Werror);
#  - a repeated --target gives the same files as the comma-separated list;
#  - the embedded artifacts are byte for byte the cubin, PTX, HSACO and shared object that
#    tilecc emits for each target on its own (dump_variants.c writes them out);
#  - the launcher runs here, where there is no GPU, on the x86-64 artifact, and also with
#    TILERT_FORCE_CPU=1, and gets vadd right at awkward sizes;
#  - bad target lists are refused with a clear message and a non-zero exit.
#
#   header.sh TILECC CC INCLUDE_DIR LIBTILERT WORK_DIR BENCH_DIR
# Exits 77 (skipped) when there is no ptxas to make cubins.
set -euo pipefail
tilecc=$1 cc=$2 inc=$3 lib=$4 work=$5 bench=$6
sig="*fp32:16, *fp32:16, *fp32:16, i32, 1024"
src=$bench/vadd.py

if [ -z "${TILECC_PTXAS:-}" ] && ! command -v ptxas >/dev/null && [ ! -x /usr/local/cuda/bin/ptxas ]; then
	echo "header.sh: no ptxas: skipped"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work/one" "$work/multi" "$work/rep" "$work/sep" "$work/dump"
fail() { echo "header.sh: FAIL: $*" >&2; exit 1; }

# one GPU target
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_90a -o "$work/one/vadd.h"
grep -q '{"sm_90a", TILERT_FORMAT_CUBIN' "$work/one/vadd.c" || fail "sm_90a header has no cubin"
grep -q '{"sm_90a", TILERT_FORMAT_PTX' "$work/one/vadd.c" || fail "sm_90a header has no PTX"
"$cc" -c -Wall -Werror -I"$inc" -I"$work/one" "$work/one/vadd.c" -o "$work/one/vadd.o"

# several targets, and the same given as repeated --target
targets=sm_80,sm_90a,gfx942,x86-64
"$tilecc" "$src" -k vadd -s "$sig" --target=$targets -o "$work/multi/vadd.h"
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_80 --target sm_90a --target=gfx942,x86-64 \
	-o "$work/rep/vadd.h"
cmp "$work/multi/vadd.h" "$work/rep/vadd.h" || fail "repeated --target gives another header"
cmp "$work/multi/vadd.c" "$work/rep/vadd.c" || fail "repeated --target gives another source"
grep -q "for sm_80, sm_90a, gfx942, x86-64" "$work/multi/vadd.h" || fail "header comment"
"$cc" -c -Wall -Werror -I"$inc" -I"$work/multi" "$work/multi/vadd.c" -o "$work/multi/vadd.o"
# shellcheck disable=SC2086 # AOT_CFLAGS: the sanitizer flags of an instrumented build
"$cc" ${AOT_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Werror -I"$inc" -I"$work/multi" \
	"$(dirname "$0")/dump_variants.c" "$work/multi/vadd.c" "$lib" -lpthread -ldl \
	-Wl,-rpath,"$(dirname "$lib")" -o "$work/dump/dump"

# each target on its own
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_80 -o "$work/sep/sm_80.cubin"
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_80 -o "$work/sep/sm_80.ptx"
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_90a -o "$work/sep/sm_90a.cubin"
"$tilecc" "$src" -k vadd -s "$sig" --target=sm_90a -o "$work/sep/sm_90a.ptx"
"$tilecc" "$src" -k vadd -s "$sig" --target=gfx942 -o "$work/sep/gfx942.hsaco"
"$tilecc" "$src" -k vadd -s "$sig" --target=x86-64 -o "$work/sep/x86-64.so"

out=$(env -u TILERT_FORCE_CPU "$work/dump/dump" "$work/dump")
echo "$out"
for f in sm_80.cubin sm_80.ptx sm_90a.cubin sm_90a.ptx gfx942.hsaco x86-64.so; do
	cmp "$work/sep/$f" "$work/dump/$f" || fail "embedded $f differs from the one emitted alone"
done
n=0
for f in "$work"/dump/*.*; do n=$((n + 1)); done
[ "$n" = 6 ] || fail "$n embedded artifacts, not 6"
echo "$out" | grep -qx "variant: x86-64" || fail "the launcher did not choose x86-64 here"
out=$(TILERT_FORCE_CPU=1 "$work/dump/dump" "$work/dump")
echo "$out" | grep -qx "variant: x86-64" || fail "TILERT_FORCE_CPU=1 did not give x86-64"

# bad target lists: message and exit code
expect_error() { # CODE PATTERN ARGS...
	local code=$1 pat=$2 rc=0 msg
	shift 2
	msg=$("$tilecc" "$src" -k vadd -s "$sig" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = "$code" ] || fail "'$*' exited $rc, want $code ($msg)"
	echo "$msg" | grep -q -- "$pat" || fail "'$*' said '$msg', want '$pat'"
}
expect_error 2 "unknown target 'sm_99x' in 'sm_90a,sm_99x'" --target=sm_90a,sm_99x -o "$work/bad.h"
expect_error 2 "target 'sm_90a' is given twice" --target=sm_90a,x86-64,sm_90a -o "$work/bad.h"
expect_error 2 "target 'gfx906' is given twice in 'dcu,gfx906' (as 'dcu' and 'gfx906')" \
	--target=dcu,gfx906 -o "$work/bad.h"
expect_error 1 "note: while compiling kernel for target 'gfx9999' of 'x86-64,gfx9999'" \
	--target=x86-64,gfx9999 -o "$work/bad.h"
expect_error 2 "empty entry in the target list" --target=sm_90a,,x86-64 -o "$work/bad.h"
expect_error 2 "a header needs -o FILE.h" --target=sm_90a --emit=header
expect_error 2 "several targets ('sm_90a,x86-64') make one header" --target=sm_90a,x86-64 \
	-o "$work/bad.so"
if [ -e "$work/bad.h" ] || [ -e "$work/bad.c" ]; then fail "a failed run left files"; fi
echo "header.sh: all checks passed"
