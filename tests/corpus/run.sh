#!/usr/bin/env bash
# run.sh: compiles the published Triton corpus with tilecc, by hand (not in CI).
#
#   tests/corpus/run.sh TRITON_CHECKOUT FLAGGEMS_CHECKOUT
#
# Every @triton.jit function of Triton's tutorials 01-09 (python/tutorials/0[1-9]-*.py)
# and of FlagGems' src/flag_gems/ops/*.py and src/flag_gems/fused/*.py is listed with
# `tilecc --list-kernels` (which must parse every file). Each kernel with a row in
# signatures.tsv (next to this script) is compiled as published for x86-64 (-o .so) and
# for sm_90 (-o .ptx). Prints a table, a summary, and the failures grouped by their first
# diagnostic. FlagGems' @pointwise_dynamic functions (its generated kernels) are counted
# apart. A function without a row that is never launched anywhere in the checkouts (no
# `NAME[`) but that other code of its file refers to (a call, a combine_fn) is a helper,
# compiled through the kernels that call it; helpers are counted apart from the kernels
# still without a row, which are listed. A row whose signature is empty or `-` compiles a
# kernel without parameters. TILECC=path overrides the compiler (default:
# build/tools/tilecc/tilecc).
set -u
here=$(cd "$(dirname "$0")" && pwd)
triton=${1:?usage: run.sh TRITON_CHECKOUT FLAGGEMS_CHECKOUT}
flaggems=${2:?usage: run.sh TRITON_CHECKOUT FLAGGEMS_CHECKOUT}
tilecc=${TILECC:-$here/../../build/tools/tilecc/tilecc}
tsv=$here/signatures.tsv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=()
for f in "$triton"/python/tutorials/0[1-9]-*.py; do files+=("triton:${f#$triton/}"); done
for f in "$flaggems"/src/flag_gems/ops/*.py "$flaggems"/src/flag_gems/fused/*.py; do
	files+=("flaggems:${f#$flaggems/}")
done

path_of() { case $1 in triton:*) echo "$triton/${1#triton:}";; flaggems:*) echo "$flaggems/${1#flaggems:}";; esac; }

# the names of the functions decorated with @pointwise_dynamic in a file
pointwise_names() {
	awk '/^[ \t]*@pointwise_dynamic/ {pd = 1} /^[ \t]*def / && pd {sub(/^[ \t]*def /, ""); sub(/\(.*/, ""); print; pd = 0}' "$1"
}

# every NAME[ of the checkouts' Python files: the names launched somewhere (grid launches,
# or kernel = NAME[grid] handed to a wrapper)
grep -rhoE --include='*.py' '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\[' "$triton/python/tutorials" "$flaggems/src" 2>/dev/null |
	sed -E 's/[[:space:]]*\[$//' | sort -u > "$work/launched"

# a helper: never launched, and named in its file outside its own def line; a function
# neither launched nor named anywhere else is unused (dead code, e.g. flash_kernel.py's
# u64_from_lohi)
is_launched() { grep -qx "$1" "$work/launched"; }
is_named() {
	grep -vE "^[[:space:]]*def[[:space:]]+$1[[:space:]]*\(" "$2" | grep -qE "(^|[^A-Za-z0-9_])$1([^A-Za-z0-9_]|$)"
}

nfiles=0 nparse=0 nkern=0 npd=0 nnosig=0 nhelp=0 nunused=0 nx86=0 nsm90=0 nrows=0
: > "$work/fail"
: > "$work/nosig"
: > "$work/unused"
printf '%-58s %-36s %-5s %-5s %s\n' FILE KERNEL X86 SM90 "FIRST DIAGNOSTIC" > "$work/table"
for key in "${files[@]}"; do
	src=$(path_of "$key")
	nfiles=$((nfiles + 1))
	if ! "$tilecc" "$src" --list-kernels > "$work/list" 2> "$work/err"; then
		printf '%-58s %-36s %-5s %-5s %s\n' "$key" "(file)" parse - "$(grep -m1 error: "$work/err")" >> "$work/table"
		echo "parse: $(grep -m1 -o 'error: .*' "$work/err")" >> "$work/fail"
		continue
	fi
	nparse=$((nparse + 1))
	pointwise_names "$src" > "$work/pd"
	for k in $(grep -v '^ ' "$work/list" | awk '{print $1}'); do
		if grep -qx "$k" "$work/pd"; then npd=$((npd + 1)); continue; fi
		nkern=$((nkern + 1))
		row=$(awk -F'\t' -v f="$key" -v k="$k" '$1 == f && $2 == k {print; exit}' "$tsv")
		if [ -z "$row" ]; then
			if ! is_launched "$k" && is_named "$k" "$src"; then
				nhelp=$((nhelp + 1))
			elif ! is_launched "$k"; then
				nunused=$((nunused + 1))
				echo "$key $k" >> "$work/unused"
			else
				nnosig=$((nnosig + 1))
				echo "$key $k" >> "$work/nosig"
			fi
			continue
		fi
		nrows=$((nrows + 1))
		sig=$(printf '%s' "$row" | cut -f3)
		defs=$(printf '%s' "$row" | cut -f4)
		dargs=()
		# NAME=VALUE words become -D NAME=VALUE; words that start with -- (--num-warps=8,
		# --num-stages=3: the launch options of the host call or autotune config) pass as is
		if [ -n "$defs" ] && [ "$defs" != - ]; then
			for d in $defs; do case $d in --*) dargs+=("$d");; *) dargs+=(-D "$d");; esac; done
		fi
		sargs=(-s "$sig")
		if [ -z "$sig" ] || [ "$sig" = - ]; then sargs=(); fi
		r86=ok r90=ok first=
		if ! "$tilecc" "$src" -k "$k" "${sargs[@]}" "${dargs[@]}" -o "$work/k.so" 2> "$work/e86"; then
			r86=FAIL
			first=$(grep -m1 -E 'error' "$work/e86")
			echo "$(grep -m1 -o -E '(internal )?error: .*' "$work/e86" || echo 'error: (no message)')" >> "$work/fail"
		else
			nx86=$((nx86 + 1))
		fi
		if ! "$tilecc" "$src" -k "$k" "${sargs[@]}" "${dargs[@]}" --target=sm_90 -o "$work/k.ptx" 2> "$work/e90"; then
			r90=FAIL
			[ -n "$first" ] || first=$(grep -m1 -E 'error' "$work/e90")
			[ "$r86" = FAIL ] || echo "sm_90 only: $(grep -m1 -o -E '(internal )?error: .*' "$work/e90")" >> "$work/fail"
		else
			nsm90=$((nsm90 + 1))
		fi
		printf '%-58s %-36s %-5s %-5s %s\n' "$key" "$k" "$r86" "$r90" "${first#$src:}" >> "$work/table"
	done
done
cat "$work/table"
echo
echo "files: $nfiles, parsed (--list-kernels): $nparse"
echo "@triton.jit functions (plain): $nkern; @pointwise_dynamic (generated, not compiled here): $npd"
echo "with a signature row: $nrows; helpers without a row (compiled through their callers): $nhelp"
echo "unused functions without a row (neither launched nor called): $nunused"
echo "kernels without a row: $nnosig"
echo "compiled: x86-64 $nx86/$nrows, sm_90 $nsm90/$nrows"
echo "compiled, of all kernels (rows + kernels without a row): x86-64 $nx86/$((nrows + nnosig)), sm_90 $nsm90/$((nrows + nnosig))"
if [ -s "$work/unused" ]; then
	echo
	echo "unused functions without a row:"
	sed 's/^/  /' "$work/unused"
fi
if [ -s "$work/nosig" ]; then
	echo
	echo "kernels without a row:"
	sed 's/^/  /' "$work/nosig"
fi
echo
echo "failures by first diagnostic (names and numbers kept):"
sed -E 's/^(sm_90 only: )?(internal )?error: //' "$work/fail" | sort | uniq -c | sort -rn
