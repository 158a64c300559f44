#!/usr/bin/env bash
# run.sh: compile time against IR size (docs/perf.md, "compile time vs IR size").
# Generates tile IR of 10k / 100k / 1M ops (gen_ir.py) and Triton kernels of nested
# tl.static_range (gen_unroll.py: 25^3 and 40^3 unrolled bodies), times tilecc on each and
# prints the wall time in ms and in ms per op (ops: of the tile IR after sema, before the
# passes). Every size runs to tile IR (parse or sema, verify, the default pipeline, print);
# 10k and 100k ops also to an x86-64 object, to sm_90 PTX and to a gfx942 HSACO, where LLVM's
# time dominates (functions over 20 000 LLVM instructions take the reduced pipeline,
# lib/codegen/emit.c).
#   bench/compile/run.sh [BUILD_DIR]        FULL=1: the LLVM columns for 1M ops and 25^3 too
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
tilecc=$build/tools/tilecc/tilecc
[ -x "$tilecc" ] || { echo "run.sh: build tilecc first ($tilecc)" >&2; exit 1; }
out=$build/bench-compile
mkdir -p "$out"
here=$root/bench/compile

# wall-clock ms of one command
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>"$out/last.err" || { cat "$out/last.err" >&2; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# ops in a tile IR file: the lines that define or are ops (not braces, labels or 'func')
count_ops() {
	grep -cvE '^\s*(\}|\^|func |//|$)' "$1"
}

row() { # name ops what ms
	awk -v n="$1" -v o="$2" -v w="$3" -v t="$4" \
		'BEGIN { printf "%-14s %9d  %-16s %10d ms  %9.4f ms/op\n", n, o, w, t, t / o }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "tilecc: $("$tilecc" --version | head -1)"
printf "%-14s %9s  %-16s %13s  %15s\n" input ops output time per-op
for n in 10000 100000 1000000; do
	python3 "$here/gen_ir.py" "$n" >"$out/ir$n.tir"
	ops=$(count_ops "$out/ir$n.tir")
	row "ir-$n" "$ops" "tir" "$(ms "$tilecc" "$out/ir$n.tir" --emit=tir -o "$out/o.tir")"
	if [ "$n" -le 100000 ] || [ "${FULL:-0}" = 1 ]; then
		row "ir-$n" "$ops" "x86-64 object" "$(ms "$tilecc" "$out/ir$n.tir" --target=x86-64 -o "$out/o.o")"
		row "ir-$n" "$ops" "sm_90 ptx" "$(ms "$tilecc" "$out/ir$n.tir" --target=sm_90 --emit=ptx -o "$out/o.ptx")"
		row "ir-$n" "$ops" "gfx942 hsaco" "$(ms "$tilecc" "$out/ir$n.tir" --target=gfx942 -o "$out/o.hsaco")"
	fi
done
python3 "$here/gen_unroll.py" 3 >"$out/unroll3.py"
for e in 10 25 40; do
	sig="*fp32:16, *fp32:16, $e"
	"$tilecc" "$out/unroll3.py" -k unroll -s "$sig" -O0 --emit=tir -o "$out/u$e.tir"
	ops=$(count_ops "$out/u$e.tir")
	row "unroll-$e^3" "$ops" "tir" "$(ms "$tilecc" "$out/unroll3.py" -k unroll -s "$sig" --emit=tir -o "$out/o.tir")"
	if [ "$e" -le 10 ] || { [ "${FULL:-0}" = 1 ] && [ "$e" -le 25 ]; }; then
		row "unroll-$e^3" "$ops" "x86-64 object" "$(ms "$tilecc" "$out/unroll3.py" -k unroll -s "$sig" --target=x86-64 -o "$out/o.o")"
		row "unroll-$e^3" "$ops" "sm_90 ptx" "$(ms "$tilecc" "$out/unroll3.py" -k unroll -s "$sig" --target=sm_90 --emit=ptx -o "$out/o.ptx")"
		row "unroll-$e^3" "$ops" "gfx942 hsaco" "$(ms "$tilecc" "$out/unroll3.py" -k unroll -s "$sig" --target=gfx942 -o "$out/o.hsaco")"
	fi
done
