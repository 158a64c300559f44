#!/usr/bin/env bash
# tune.sh: ahead-of-time autotuning on this CPU (docs/abi.md, "Autotuning"). Checks that
#  - tilecc --tune writes the tuner of axpy (kernels/axpy.py: 4 configs from its
#    @triton.autotune, one of which does not compile and is skipped with a warning, and a
#    boolean heuristic), which builds with libtilert alone and, run, writes a tuning file:
#    one best line per problem of axpy.spec (3), each naming a config that compiled, and a
#    comment saying why config 3 was skipped;
#  - tilecc --tuning on that file makes a launcher, byte for byte the same when made again;
#    tune_launch.c through it at the tuned sizes (the recorded winner each), at sizes not in
#    the file and odd ones (the winner of the nearest recorded size each): correct results,
#    the heuristic's variant each time;
#  - the same with a tuning file with known winners (fixed.tuning): exact matches, the
#    nearest recorded problem (by log distance), the default for n < 1;
#  - the same configs given by --configs FILE and --config give the same tuner.
#
#   tune.sh TILECC CC INCLUDE_DIR LIBTILERT WORK_DIR
set -euo pipefail
tilecc=$1 cc=$2 inc=$3 lib=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/tuned" "$work/again" "$work/fixed"
fail() { echo "tune.sh: FAIL: $*" >&2; exit 1; }
sig="*fp32:16, *fp32:16, *fp32:16, i32, fp32"
k=$here/kernels/axpy.py
build() { # SRC... -o OUT
	# shellcheck disable=SC2086 # AOT_CFLAGS: the sanitizer flags of an instrumented build
	"$cc" ${AOT_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I"$inc" "$@" \
		"$lib" -lpthread -ldl -lm -Wl,-rpath,"$(dirname "$lib")"
}

# 1. the tuner
"$tilecc" "$k" -k axpy -s "$sig" --tune "$here/axpy.spec" -o "$work/tuner.c" 2>"$work/tune.err" ||
	fail "tilecc --tune: $(cat "$work/tune.err")"
grep -q "axpy.py:12:9: warning: config 3 (BLOCK=24 num_warps=1) is skipped: it does not compile" \
	"$work/tune.err" || fail "no warning for config 3: $(cat "$work/tune.err")"
build "$work/tuner.c" -o "$work/tuner"
"$work/tuner" -q -o "$work/tuning.txt" || fail "the tuner failed"
[ "$(grep -c '^best: ' "$work/tuning.txt")" = 3 ] || fail "want 3 best lines: $(cat "$work/tuning.txt")"
for n in 4096 65536 1000; do
	grep -Eq "^best: n=$n -> [012] [0-9]+\.[0-9]+$" "$work/tuning.txt" ||
		fail "no best line for n=$n naming config 0, 1 or 2"
done
[ "$(grep -c '^#   config 3: skipped: does not compile: .*arange' "$work/tuning.txt")" = 3 ] ||
	fail "config 3 is not skipped with its reason at each problem"
grep -q '^signature: \*fp32:16, \*fp32:16, \*fp32:16, i32, fp32$' "$work/tuning.txt" || fail "no signature"

# 2. the launcher from it, twice: the same bytes
"$tilecc" "$k" -k axpy -s "$sig" --tuning "$work/tuning.txt" -o "$work/tuned/axpy.h"
"$tilecc" "$k" -k axpy -s "$sig" --tuning "$work/tuning.txt" -o "$work/again/axpy.h"
cmp "$work/tuned/axpy.h" "$work/again/axpy.h" || fail "the header differs when made again"
cmp "$work/tuned/axpy.c" "$work/again/axpy.c" || fail "the source differs when made again"
winner() { sed -n "s/^best: n=$1 -> \([0-9]*\) .*/\1/p" "$work/tuning.txt"; }
# the tuned sizes, then sizes between them and odd ones, each with the recorded size
# nearest to it (the least max/min ratio): 5000 and 2048 (2048/1000 > 4096/2048) are
# nearest 4096, 1001 and 77 nearest 1000, 300000 nearest 65536
args=()
for n in 4096 65536 1000; do
	args+=("$n:$(winner "$n")")
done
args+=("5000:$(winner 4096)" "2048:$(winner 4096)" "1001:$(winner 1000)" "77:$(winner 1000)"
	"300000:$(winner 65536)")
build -I"$work/tuned" "$here/tune_launch.c" "$work/tuned/axpy.c" -o "$work/tuned/run"
"$work/tuned/run" "${args[@]}" || fail "tune_launch (tuned) failed"

# 3. known winners: exact, nearest, default
"$tilecc" "$k" -k axpy -s "$sig" --tuning "$here/fixed.tuning" -o "$work/fixed/axpy.h"
grep -q '"BLOCK=24 num_warps=1",' "$work/fixed/axpy.c" || fail "config 3 is not listed"
if grep -q 'BLOCK=24 num_warps=1 EVEN' "$work/fixed/axpy.c"; then
	fail "config 3 is compiled though no problem chose it"
fi
build -I"$work/fixed" "$here/tune_launch.c" "$work/fixed/axpy.c" -o "$work/fixed/run"
out=$("$work/fixed/run" 4096:1 65536:2 1000:0 5000:1 1001:0 2048:1 300000:2 20000:2 0:2 -5:2) ||
	fail "tune_launch (fixed) failed: $out"
echo "$out" | grep -q "^n=1001: config 0, BLOCK=16 num_warps=1 EVEN=False, ok$" || fail "n=1001: $out"
echo "$out" | grep -q "^n=4096: config 1, BLOCK=64 num_warps=2 EVEN=True, ok$" || fail "n=4096: $out"
echo "$out" | grep -q "^artifact: x86-64$" || fail "artifact: $out"

# 4. the configs from a file or the command line give the same tuner as the decorator's
sed -n 's/^config: \(.*[^ ]\)  # [0-9].*/\1/p' "$here/fixed.tuning" >"$work/configs.txt"
"$tilecc" "$k" -k axpy -s "$sig" --tune "$here/axpy.spec" --configs "$work/configs.txt" \
	-o "$work/tuner2.c" 2>/dev/null
cmp "$work/tuner.c" "$work/tuner2.c" || fail "--configs FILE gives another tuner"
"$tilecc" "$k" -k axpy -s "$sig" --tune "$here/axpy.spec" --config "BLOCK=16 num_warps=1" \
	--config "BLOCK=64 num_warps=2" --config "BLOCK=256 num_warps=4 num_stages=1" \
	--config "BLOCK=24 num_warps=1" -o "$work/tuner3.c" 2>/dev/null
cmp "$work/tuner.c" "$work/tuner3.c" || fail "--config gives another tuner"
echo "tune.sh: PASS"
