#!/bin/sh
# selftest.sh: ctest corpus.tutorial_run: tutorial_run (the CPU half of the comparison of
# Triton's tutorials with Triton's results) on a manifest of tutorial_c_refs --selftest, with
# bench/kernels/vadd.py compiled by this build's tilecc: one case must pass, and one whose
# reference is one unit in the last place off must fail, with the runner's exit status.
#
#   selftest.sh TILECC SOURCE_ROOT TUTORIAL_C_REFS TUTORIAL_RUN [QEMU RV_TUTORIAL_RUN]
set -u
tilecc=$1 root=$2 refs=$3 run=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$refs" --selftest "$work" > /dev/null || exit 1
check() { # $1: what, then the command
	what=$1
	shift
	"$@" > "$work/log" 2>&1
	rc=$?
	cat "$work/log"
	if [ $rc -eq 0 ] || ! grep -q '^PASS selftest-vadd-n4099 ' "$work/log" ||
	   ! grep -q '^FAIL selftest-vadd-n4099-one-ulp-off ' "$work/log" ||
	   ! grep -q '^1 passed, 1 failed$' "$work/log"; then
		echo "selftest ($what): expected the first case to pass, the second to fail (exit $rc)"
		exit 1
	fi
}
"$tilecc" "$root/bench/kernels/vadd.py" -k vadd -s "*fp32, *fp32, *fp32, i32, BLOCK=1024" \
	-o "$work/vadd.so" || exit 1
check x86-64 "$run" "$work/manifest.txt" "$work/vadd.so"
if [ $# -ge 6 ]; then
	"$tilecc" "$root/bench/kernels/vadd.py" -k vadd -s "*fp32, *fp32, *fp32, i32, BLOCK=1024" \
		--target=riscv64 -o "$work/vadd.rv.so" || exit 1
	check riscv64 "$5" -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vlen=256,vext_spec=v1.0 "$6" \
		"$work/manifest.txt" "$work/vadd.rv.so"
fi
echo "selftest: ok"
