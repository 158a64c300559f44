#!/usr/bin/env bash
# ttir-compare.sh: tilecc's TTIR of a kernel beside the TTIR Triton wrote for the same
# specialization, op by op (issue 14). Counts the ops of each (their names, whether printed
# in the pretty or the generic form; tt.func, module and terminators included) and prints
# one line per op name where the counts differ, then "same ops" or "N op names differ":
#
#   scripts/ttir-compare.sh TILECC KERNEL.py SIGNATURE TRITON.ttir [tilecc options...]
#
# e.g. for the bench kernels, with Triton's TTIR from its cache (TRITON_CACHE_DIR=D while
# bench/gpu/bench.py runs on the GPU machine; D/*/vadd.ttir):
#   scripts/ttir-compare.sh build/tools/tilecc/tilecc vadd.py "$(awk -F'\t' '$1=="vadd"{print $2}' \
#       signatures.tsv)" D/HASH/vadd.ttir
# Exit status: 0 when the op counts are equal, 1 when they differ, 2 on bad use or when
# tilecc fails. Names of values and the order of ops are not compared.
set -uo pipefail
if [ $# -lt 4 ]; then
	echo "usage: $0 TILECC KERNEL.py SIGNATURE TRITON.ttir [tilecc options...]" >&2
	exit 2
fi
tilecc=$1 py=$2 sig=$3 theirs=$4
shift 4
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
if ! "$tilecc" "$py" -s "$sig" --emit=ttir "$@" -o "$tmp/ours.ttir"; then
	exit 2
fi
[ -r "$theirs" ] || { echo "$0: cannot read $theirs" >&2; exit 2; }
# the op of each line: after an optional '%results =', a dialect.name, quoted (generic) or not
ops() {
	sed -nE 's/^[[:space:]]*(%[^=]*=[[:space:]]*)?"?(tt|arith|scf|math|cf|gpu|llvm|tilecc)\.([a-z_0-9.]+).*/\2.\3/p' "$1" |
		sort | uniq -c | awk '{print $2, $1}' | sort
}
ops "$tmp/ours.ttir" > "$tmp/ours.ops"
ops "$theirs" > "$tmp/theirs.ops"
join -a1 -a2 -e 0 -o 0,1.2,2.2 "$tmp/ours.ops" "$tmp/theirs.ops" |
	awk 'BEGIN { printf "%-24s %7s %7s\n", "op", "tilecc", "triton" }
	     $2 != $3 { printf "%-24s %7d %7d\n", $1, $2, $3; d++ }
	     END { if (d) { print d " op names differ"; exit 1 } print "same ops" }'
