#!/usr/bin/env bash
# stage-tutorials.sh: Triton's tutorials on the GPU, build-machine half. Compiles every row of
# tests/gpu/tutorials.tsv from the tutorial files as published (a checkout's
# python/tutorials, or a folder of them) with tilecc for sm_90, into OUTDIR/NAME.cubin, and
# copies the tutorial files beside them for tests/gpu/tutorials.py (the GPU-machine half):
#
#   tests/gpu/stage-tutorials.sh TILECC TUTORIALS_DIR OUTDIR     (here)
#   python3 tests/gpu/tutorials.py OUTDIR                         (there)
#
# A kernel that does not compile gets a NAME.cubin holding "TILECC-FAILED" and the
# diagnostics, which tutorials.py reports as that case's failure. Run by hand (the
# tutorials are Triton's: they are not part of this repository).
set -uo pipefail
if [ $# -ne 3 ]; then
	echo "usage: $0 TILECC TUTORIALS_DIR OUTDIR" >&2
	exit 2
fi
tilecc=$1
src=$2
out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
ok=0
bad=0
while IFS=$'\t' read -r name file kernel sig warps defs; do
	case $name in \#*|"") continue;; esac
	cp "$src/$file" "$out/$file"
	args=("$src/$file" -k "$kernel" -s "$sig" --num-warps "$warps" --target=sm_90 -o "$out/$name.cubin")
	if [ "$defs" != "-" ]; then
		for d in $defs; do args+=(-D "$d"); done
	fi
	if err=$("$tilecc" "${args[@]}" 2>&1); then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		printf 'TILECC-FAILED\n%s\n' "$err" > "$out/$name.cubin"
		echo "stage-tutorials: $name ($file -k $kernel) does not compile:" >&2
		echo "$err" | head -5 >&2
	fi
done < "$root/tests/gpu/tutorials.tsv"
cp "$root/tests/gpu/tutorials.tsv" "$out/"
echo "stage-tutorials: $ok compiled, $bad failed"
