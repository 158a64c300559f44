#!/usr/bin/env bash
# stage-tutorials-bench.sh: Triton's tutorials 03 and 06 against Triton, build-machine half.
# Compiles every row of bench/gpu/tutorials-bench.tsv (matmul_kernel and _attn_fwd at each
# config of the tutorials' autotune lists) with tilecc for sm_90a, from the tutorial files
# as published (a checkout's python/tutorials, or a folder of them), into OUTDIR/NAME.cubin,
# timing each compile (OUTDIR/compile_ms.json, front to cubin, as bench/gpu/run.sh), and
# copies the tutorial files and the table beside them for bench/gpu/tutorials_bench.py:
#
#   bench/gpu/stage-tutorials-bench.sh TILECC TUTORIALS_DIR OUTDIR   (here)
#   python3 bench/gpu/tutorials_bench.py --dry-run OUTDIR            (here: checks the staging)
#   python3 bench/gpu/tutorials_bench.py OUTDIR [out.json]           (on the H200)
#
# A config that does not compile keeps its row: its NAME.cubin holds "TILECC-FAILED" and the
# diagnostics, which tutorials_bench.py reports as that config's result (never timed). Run by
# hand: the tutorials are Triton's, not part of this repository.
set -uo pipefail
if [ $# -ne 3 ]; then
	echo "usage: $0 TILECC TUTORIALS_DIR OUTDIR" >&2
	exit 2
fi
tilecc=$1
src=$2
out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
table=$root/bench/gpu/tutorials-bench.tsv
mkdir -p "$out"
cp "$src/03-matrix-multiplication.py" "$src/06-fused-attention.py" "$out/" || exit 1
ok=0
bad=0
json="{"
while IFS=$'\t' read -r name file kernel sig warps stages defs problem; do
	case $name in \#*|"") continue;; esac
	args=("$src/$file" -k "$kernel" -s "$sig" --num-warps "$warps" --num-stages "$stages" --target=sm_90a
		--emit=cubin -o "$out/$name.cubin")
	if [ "$defs" != "-" ]; then
		for d in $defs; do args+=(-D "$d"); done
	fi
	t0=$(date +%s%N)
	if err=$("$tilecc" "${args[@]}" 2>&1); then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		printf 'TILECC-FAILED\n%s\n' "$err" > "$out/$name.cubin"
		echo "stage-tutorials-bench: $name ($file -k $kernel -s \"$sig\" --num-warps $warps --num-stages $stages) does not compile:" >&2
		echo "$err" | head -5 >&2
	fi
	t1=$(date +%s%N)
	us=$(( (t1 - t0) / 1000 ))
	[ "$json" = "{" ] || json+=","
	json+=$(printf '\n"%s": %d.%03d' "$name" $((us / 1000)) $((us % 1000)))
	printf '%s: %d.%03d ms\n' "$name" $((us / 1000)) $((us % 1000))
done < "$table"
printf '%s\n}\n' "$json" > "$out/compile_ms.json"
cp "$table" "$out/"
echo "stage-tutorials-bench: $ok compiled, $bad failed"
