#!/usr/bin/env bash
# stage-ttir.sh: Triton's own TTIR on the GPU (issue 14, the MLIR bridge), build-machine half.
# Compiles every NAME.ttir of TTIR_DIR that has a NAME.json beside it (Triton's cache writes
# one for each kernel; tests/gpu/tutorials.py with TUTORIALS_TTIR_OUT writes NAME-cI.json) with
# tilecc for TARGET, at the num_warps and num_stages the JSON gives (TTIR does not say them),
# into OUTDIR/NAME.cubin, and the compile times into OUTDIR/compile_ms.json:
#
#   TUTORIALS_TTIR_OUT=T python3 tests/gpu/tutorials.py DIR   (there: Triton writes the TTIR)
#   tests/gpu/stage-ttir.sh TILECC T OUTDIR [TARGET]          (here; TARGET: sm_90 by default)
#   TUTORIALS_FROM_TTIR=OUTDIR python3 tests/gpu/tutorials.py DIR          (there)
#   BENCH_FROM_TTIR=1 python3 bench/gpu/bench.py KERNELS OUTDIR            (there, bench kernels)
#
# A kernel that does not compile gets a NAME.cubin holding "TILECC-FAILED" and the
# diagnostics, which the harnesses report as that case's failure. Run by hand: the TTIR is
# Triton's output and is not part of this repository.
set -uo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: $0 TILECC TTIR_DIR OUTDIR [TARGET]" >&2
	exit 2
fi
tilecc=$1
src=$2
out=$3
target=${4:-sm_90}
mkdir -p "$out"
ok=0
bad=0
entries=()
for t in "$src"/*.ttir; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .ttir)
	meta=${t%.ttir}.json
	if [ ! -f "$meta" ]; then
		echo "stage-ttir: $name: no $name.json beside it (num_warps, num_stages); skipped" >&2
		continue
	fi
	warps=$(sed -n 's/.*"num_warps": *\([0-9]*\).*/\1/p' "$meta")
	stages=$(sed -n 's/.*"num_stages": *\([0-9]*\).*/\1/p' "$meta")
	args=("$t" --target="$target" --num-warps "${warps:-4}" -o "$out/$name.cubin")
	[ -n "$stages" ] && args+=(--num-stages "$stages")
	t0=$(date +%s%N)
	if err=$("$tilecc" "${args[@]}" 2>&1); then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		printf 'TILECC-FAILED\n%s\n' "$err" > "$out/$name.cubin"
		echo "stage-ttir: $name: tilecc failed:" >&2
		echo "$err" | head -n 5 >&2
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	entries+=("\"$name\": $ms")
done
(IFS=,; printf '{%s}\n' "${entries[*]}") | sed 's/,/, /g' > "$out/compile_ms.json"
echo "stage-ttir: $ok compiled, $bad failed ($target)"
[ "$bad" -eq 0 ]
