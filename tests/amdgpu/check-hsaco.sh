#!/bin/sh
# check-hsaco.sh: checks HSACOs that tilecc made, without an AMD GPU (none is at hand).
#
#   tests/amdgpu/check-hsaco.sh [--isa TABLE] DIR/GFX/K.hsaco...  (each with K.hsaco.meta)
#
# For each code object: tilecc compiled it (not the "TILECC-FAILED" stand-in of
# tests/e2e/compile.cmake); llvm-readelf-19 --notes shows one kernel for amdgcn-amd-amdhsa--GFX
# (GFX: the name of the file's folder), wave64; its explicit arguments are tilecc's
# runtime parameters (the params= of the launch metadata) in order, with the size and kind
# of each (pointers: 8-byte global buffers; scalars by value at their natural size and
# alignment); its group segment is the lds= that the lowering planned, at most 64 KiB; its
# maximum workgroup size is the metadata's block=; and llvm-objdump-19 disassembles it to
# a kernel that ends in s_endpgm.
#
# With --isa TABLE (tests/amdgpu/dot-isa.txt: "VARIANT PATTERN-gfx906 PATTERN-gfx90a
# PATTERN-gfx942" lines), a code object whose name (K) the table lists is a dot kernel and
# must also use no scratch memory (.private_segment_fixed_size 0: no register spills) and
# contain an instruction matching its processor's pattern (an extended regular expression
# over the disassembly: v_mfma_..., v_dot2_f32_f16, ...; "-" for none; a trailing "!spills"
# marks a known exception to the scratch rule, which the table explains). Every listed
# variant must be among the files checked. Prints one line per failure and a summary;
# exit 1 if any.
set -u
isa=""
if [ "${1:-}" = "--isa" ]; then
	isa=$2
	shift 2
fi
readelf=${READELF:-llvm-readelf-19}
objdump=${OBJDUMP:-llvm-objdump-19}
ok=0
bad=0
seen_dots=""

fail() {
	echo "FAIL $1: $2"
	bad=$((bad + 1))
}

# "kind size offset" for each explicit argument of the notes, then "lds N", "wave N",
# "target T", "name K", "maxwg N".
notes() {
	"$readelf" --notes "$1" | awk '
	/^(    |  - )\.args:/ { inargs = 1; next }
	inargs && /^(    |  - )\.[a-z_]+:/ { inargs = 0 }
	inargs && /^      - / { flush(); sub(/^      - /, "        ") }
	inargs && /\.offset:/ { off = $2 }
	inargs && /\.size:/ { size = $2 }
	inargs && /\.value_kind:/ { kind = $2 }
	/^(    |  - )\.group_segment_fixed_size:/ { print "lds", $NF }
	/^(    |  - )\.private_segment_fixed_size:/ { print "scratch", $NF }
	/^(    |  - )\.wavefront_size:/ { print "wave", $NF }
	/^(    |  - )\.max_flat_workgroup_size:/ { print "maxwg", $NF }
	/^(    |  - )\.name:/ { print "name", $NF }
	/^amdhsa\.target:/ { print "target", $2 }
	function flush() { if (kind != "") print "arg", kind, size, off; kind = "" }
	/^(    |  - )\.[a-z_]+:/ && !inargs { flush() }
	END { flush() }'
}

# "kind size" for each parameter of the metadata's params= line.
params() {
	sed -n 's/^params=//p' "$1" | tr ',' '\n' | sed 's/:.*//' | awk '
	NF == 0 { next }
	/^\*/ { print "global_buffer", 8; next }
	/^(i1|i8|u8)$/ { print "by_value", 1; next }
	/^(i16|u16|fp16|bf16)$/ { print "by_value", 2; next }
	/^(i32|u32|fp32)$/ { print "by_value", 4; next }
	/^(i64|u64|fp64)$/ { print "by_value", 8; next }
	{ print "unknown", $0 }'
}

for f in "$@"; do
	gfx=$(basename "$(dirname "$f")")
	what="$gfx/$(basename "$f")"
	if [ ! -s "$f" ]; then
		fail "$what" "missing"
		continue
	fi
	if head -c 13 "$f" | grep -q TILECC-FAILED; then
		fail "$what" "tilecc did not compile it: $(sed -n 2,6p "$f" | tr '\n' ' ')"
		continue
	fi
	meta=$f.meta
	if [ ! -s "$meta" ]; then
		fail "$what" "no launch metadata ($meta)"
		continue
	fi
	n=$(notes "$f")
	if [ -z "$n" ]; then
		fail "$what" "llvm-readelf shows no kernel metadata"
		continue
	fi
	want_args=$(params "$meta")
	got_args=$(echo "$n" | awk '$1 == "arg" && $2 !~ /^hidden_/ { print $2, $3 }')
	if [ "$want_args" != "$got_args" ]; then
		fail "$what" "arguments [$(echo "$got_args" | tr '\n' ';')] are not the parameters [$(echo "$want_args" | tr '\n' ';')]"
		continue
	fi
	misaligned=$(echo "$n" | awk '$1 == "arg" && ($4 % ($3 > 8 ? 8 : $3) != 0 || $4 < last) { print $4 } $1 == "arg" { last = $4 + $3 }')
	[ -z "$misaligned" ] || { fail "$what" "argument offsets out of order or misaligned: $misaligned"; continue; }
	field() { echo "$n" | awk -v k="$1" '$1 == k { print $2; exit }'; }
	lds=$(field lds)
	want_lds=$(sed -n 's/^lds=//p' "$meta")
	block=$(sed -n 's/^block=\([0-9]*\),.*/\1/p' "$meta")
	name=$(sed -n 's/^name=//p' "$meta")
	[ "$(field target)" = "amdgcn-amd-amdhsa--$gfx" ] || { fail "$what" "target $(field target), not $gfx"; continue; }
	[ "$(field wave)" = 64 ] || { fail "$what" "wavefront size $(field wave), not 64"; continue; }
	[ "$(field name)" = "$name" ] || { fail "$what" "kernel $(field name), metadata says $name"; continue; }
	[ "$lds" = "$want_lds" ] || { fail "$what" "group segment $lds bytes, the lowering planned $want_lds"; continue; }
	[ "$lds" -le 65536 ] || { fail "$what" "group segment $lds bytes is over 64 KiB"; continue; }
	[ "$(field maxwg)" = "$block" ] || { fail "$what" "max workgroup size $(field maxwg), block=$block"; continue; }
	dis=$("$objdump" -d "$f" 2>&1) || { fail "$what" "llvm-objdump failed: $dis"; continue; }
	echo "$dis" | grep -q "^[0-9a-f]* <$name>:" || { fail "$what" "no code for $name in the disassembly"; continue; }
	echo "$dis" | grep -q "s_endpgm" || { fail "$what" "the kernel has no s_endpgm"; continue; }
	if [ -n "$isa" ]; then
		variant=$(basename "$f" .hsaco)
		col=$(case $gfx in gfx906) echo 2 ;; gfx90a) echo 3 ;; gfx942) echo 4 ;; *) echo 0 ;; esac)
		want=$(awk -v v="$variant" -v c="$col" '$1 == v && c > 0 { print $c }' "$isa")
		if [ -n "$want" ]; then
			seen_dots="$seen_dots $variant"
			spills_ok=no
			case $want in *'!spills') spills_ok=yes; want=${want%!spills} ;; esac
			if [ "$spills_ok" = no ] && [ "$(field scratch)" != 0 ]; then
				fail "$what" "a dot kernel with $(field scratch) bytes of scratch (register spills)"
				continue
			fi
			if [ "$want" != - ] && ! echo "$dis" | grep -Eq "$want"; then
				fail "$what" "a dot kernel without $want"
				continue
			fi
		fi
	fi
	ok=$((ok + 1))
done
if [ -n "$isa" ]; then
	for v in $(awk '!/^#/ && NF { print $1 }' "$isa"); do
		case " $seen_dots " in
		*" $v "*) ;;
		*) fail "$v" "listed in $isa but not among the code objects checked" ;;
		esac
	done
fi
echo "check-hsaco: $ok passed, $bad failed"
[ "$bad" -eq 0 ]
