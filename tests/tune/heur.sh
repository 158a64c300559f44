#!/usr/bin/env bash
# heur.sh: integer-valued @triton.heuristics in ahead-of-time autotuning, on this CPU
# (docs/abi.md, "Heuristics"). kernels/center.py has BLOCK_N = next_power_of_2(N), ROWS =
# max(1, min(4, 512 // BLOCK_N, cdiv(M, 2))) (a heuristic of the one before it) and a
# boolean EVEN_M = M % ROWS == 0; the grid, cdiv(M, ROWS), uses one. Checks that
#  - tilecc --tune compiles every config for the values the spec's problems reach (BLOCK_N
#    128, 1024, 4096; ROWS 1, 4) and those its heuristic: lines list (BLOCK_N 256, ROWS 2),
#    and the tuner records them in the tuning file (heuristic: lines) with a best line per
#    problem;
#  - tilecc --tuning on that file makes a launcher (the same bytes twice) that computes the
#    heuristics at each launch and runs the matching variant: center_launch.c checks the
#    variant and the result at the tuned sizes and others whose values were compiled
#    (N = 200: BLOCK_N 256), and that a size whose BLOCK_N was not (N = 2000: 2048) fails
#    with TILERT_ERR_NOT_FOUND, saying so, and writes nothing;
#  - --heuristic BLOCK_N=2048 at --tuning adds that value: N = 2000 then runs.
#
#   heur.sh TILECC CC INCLUDE_DIR LIBTILERT WORK_DIR
set -euo pipefail
tilecc=$1 cc=$2 inc=$3 lib=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/tuned" "$work/again" "$work/more"
fail() { echo "heur.sh: FAIL: $*" >&2; exit 1; }
sig="*fp32:16, *fp32:16, i32, i32, i32"
k=$here/kernels/center.py
build() { # SRC... -o OUT
	# shellcheck disable=SC2086 # AOT_CFLAGS: the sanitizer flags of an instrumented build
	"$cc" ${AOT_CFLAGS:-} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -I"$inc" "$@" \
		"$lib" -lpthread -ldl -lm -Wl,-rpath,"$(dirname "$lib")"
}

# 1. the tuner, and the tuning file it writes
"$tilecc" "$k" -k center -s "$sig" --tune "$here/center.spec" -o "$work/tuner.c" 2>"$work/tune.err" ||
	fail "tilecc --tune: $(cat "$work/tune.err")"
[ ! -s "$work/tune.err" ] || fail "tilecc --tune said: $(cat "$work/tune.err")"
build "$work/tuner.c" -o "$work/tuner"
"$work/tuner" -q -o "$work/tuning.txt" || fail "the tuner failed: $(cat "$work/tuning.txt")"
grep -qx 'heuristic: BLOCK_N = 128, 256, 1024, 4096' "$work/tuning.txt" ||
	fail "no BLOCK_N values: $(cat "$work/tuning.txt")"
grep -qx 'heuristic: ROWS = 1, 2, 4' "$work/tuning.txt" || fail "no ROWS values"
for n in 100 1000 3000; do
	grep -Eq "^best: N=$n -> [01] [0-9]+\.[0-9]+$" "$work/tuning.txt" || fail "no best line for N=$n"
done
if grep -q 'skipped' "$work/tuning.txt"; then
	fail "a config was skipped: $(grep skipped "$work/tuning.txt")"
fi
grep -q 'BLOCK_N=1024 ROWS=1 EVEN_M=True' "$work/tuning.txt" || fail "the variant at N=1000"

# 2. the launcher: the same bytes twice; launches at compiled and uncompiled values
"$tilecc" "$k" -k center -s "$sig" --tuning "$work/tuning.txt" -o "$work/tuned/center.h"
"$tilecc" "$k" -k center -s "$sig" --tuning "$work/tuning.txt" -o "$work/again/center.h"
cmp "$work/tuned/center.h" "$work/again/center.h" || fail "the header differs when made again"
cmp "$work/tuned/center.c" "$work/again/center.c" || fail "the source differs when made again"
build -I"$work/tuned" "$here/center_launch.c" "$work/tuned/center.c" -o "$work/tuned/run"
# tuned sizes; M odd and even (EVEN_M); N = 1 and 97 (BLOCK_N 1 and 128: 1 is not compiled),
# 129 and 256 (BLOCK_N 256, ROWS 2), 4096; 2000 (BLOCK_N 2048) not compiled
out=$("$work/tuned/run" 37:100 8:1000 5:3000 1:100 2:100 40:128 7:97 3:129 6:256 9:4096 \
	1:1:x 4:2000:x 1:5000:x) || fail "center_launch failed: $out"
echo "$out"
echo "$out" | grep -q "^m=37 n=100: config [01], .* BLOCK_N=128 ROWS=4 EVEN_M=False, ok$" ||
	fail "m=37 n=100: $out"
echo "$out" | grep -q "^m=3 n=129: config [01], .* BLOCK_N=256 ROWS=2 EVEN_M=False, ok$" ||
	fail "m=3 n=129: $out"

# 3. --heuristic adds values: BLOCK_N 2048 and 1 (ROWS is already 1 there)
"$tilecc" "$k" -k center -s "$sig" --tuning "$work/tuning.txt" --heuristic BLOCK_N=2048,1 \
	-o "$work/more/center.h"
grep -q 'h0_values\[6\] = {INT64_C(1), INT64_C(128), INT64_C(256), INT64_C(1024), INT64_C(2048), INT64_C(4096)}' \
	"$work/more/center.c" || fail "--heuristic did not add BLOCK_N 1 and 2048"
build -I"$work/more" "$here/center_launch.c" "$work/more/center.c" -o "$work/more/run"
out=$("$work/more/run" 4:2000 3:1999 1:1 4:1 1:5000:x) || fail "center_launch (more) failed: $out"
echo "$out"
echo "heur.sh: PASS"
