#!/usr/bin/env bash
# tutorials-cpu.sh: Triton's tutorials 01-06 on the CPU against Triton's own results, by hand
# (not in CI: it needs the tutorials and the references saved on a GPU machine by
# tests/gpu/tutorial_refs.py).
#
#   tests/corpus/tutorials-cpu.sh TRITON_CHECKOUT REFDIR [--target=x86-64|riscv64] [CASE...]
#
# TRITON_CHECKOUT is a Triton checkout (its python/tutorials) or a folder of the tutorial
# files. Compiles every row of tutorials-cpu.tsv (next to this script) that REFDIR/manifest.txt
# uses, from the file as published, with tilecc for the target, then runs
# tests/corpus/tutorial_run on them (under qemu-riscv64 for riscv64, as the e2e tests run):
# one PASS/FAIL line per case (with each output's largest errors above it), then
# "N passed, M failed"; exits non-zero when a case failed. CASE: run only the cases whose
# name contains one of these. A row that does not compile fails its cases with tilecc's
# diagnostics. BUILD=dir (default: build) is the build tree with tilecc and the runners;
# TILECC=path overrides the compiler.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 2 ]; then
	echo "usage: $0 TRITON_CHECKOUT REFDIR [--target=x86-64|riscv64] [CASE...]" >&2
	exit 2
fi
src=$1
refdir=$2
shift 2
target=x86-64
cases=()
for a in "$@"; do
	case $a in
	--target=*) target=${a#--target=} ;;
	*) cases+=(--case "$a") ;;
	esac
done
[ -d "$src/python/tutorials" ] && src=$src/python/tutorials
build=${BUILD:-$root/build}
case $build in /*) ;; *) build=$root/$build ;; esac
tilecc=${TILECC:-$build/tools/tilecc/tilecc}
manifest=$refdir/manifest.txt
for f in "$tilecc" "$manifest"; do
	if [ ! -e "$f" ]; then
		echo "tutorials-cpu: $f is missing" >&2
		exit 2
	fi
done
case $target in
x86-64)
	runner=("$build/tests/corpus/tutorial_run")
	targs=()
	sfx=.so
	;;
riscv64)
	qemu=$(command -v qemu-riscv64) || { echo "tutorials-cpu: qemu-riscv64 not found" >&2; exit 2; }
	runner=("$qemu" -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vlen=256,vext_spec=v1.0
		"$build/tests/e2e/riscv64/tutorial_run")
	targs=(--target=riscv64)
	sfx=.rv.so
	export E2E_QEMU=1
	;;
*)
	echo "tutorials-cpu: unknown target $target (x86-64 or riscv64)" >&2
	exit 2
	;;
esac
if [ ! -x "${runner[-1]}" ]; then
	echo "tutorials-cpu: ${runner[-1]} is missing (build the tree first)" >&2
	exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
used=$(awk '$1 == "kernel" {print $2}' "$manifest" | sort -u)
sos=()
ok=0
bad=0
while IFS=$'\t' read -r name file kernel sig opts; do
	case $name in \#*|"") continue;; esac
	printf '%s\n' "$used" | grep -qx -- "$name" || continue
	out=$work/$name$sfx
	args=("$src/$file" -k "$kernel" -s "$sig" "${targs[@]}" -o "$out")
	for o in $opts; do
		case $o in num_warps=*) args+=(--num-warps "${o#num_warps=}") ;; esac
	done
	if err=$("$tilecc" "${args[@]}" 2>&1) && [ -s "$out" ]; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		printf 'TILECC-FAILED\ntilecc %s\n%s\n' "${args[*]}" "$err" > "$out"
		echo "tutorials-cpu: $name ($file -k $kernel) does not compile:" >&2
		printf '%s\n' "$err" | head -5 >&2
	fi
	sos+=("$out")
done < "$here/tutorials-cpu.tsv"
echo "tutorials-cpu: $target, $ok kernels compiled, $bad failed; references: $(head -1 "$manifest")"
"${runner[@]}" "$manifest" "${cases[@]}" "${sos[@]}"
