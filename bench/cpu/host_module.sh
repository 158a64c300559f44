#!/usr/bin/env bash
# host_module.sh: compile time against the size of the host code around a kernel.
#
#   bench/cpu/host_module.sh [LINES] [GLOBALS]
#
# Writes, in a temporary directory, bench/kernels/vadd.py alone and the same kernel after
# and before LINES lines (default 20000) of host Python (functions, classes, assignments,
# torch calls, an if/try at module level), then a kernel that reads GLOBALS (default 200)
# module constants spread through that host code. Each is compiled with -o x.so (x86-64)
# five times; prints the best wall time and the sema time of -ftime-report. TILECC=path
# overrides the compiler (default: build/tools/tilecc/tilecc). Not a test: numbers only.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
tilecc=${TILECC:-$here/build/tools/tilecc/tilecc}
lines=${1:-20000}
nglob=${2:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# host code: blocks of 9 lines, GLOBALS constants spread evenly among them
host() {
	awk -v lines="$lines" -v nglob="$nglob" 'BEGIN {
		nblk = int(lines / 9); every = int(nblk / nglob); if (every < 1) every = 1; g = 0
		for (i = 0; i < nblk; i++) {
			if (i % every == 0 && g < nglob) { printf "G_%d = %d\n", g, g + 1; g++ } else printf "x_%d = [1, 2, 3]\n", i
			if (i % 3 == 0) {
				printf "def host_fn_%d(a, b=2):\n    y = a * b + %d\n    return torch.zeros(y)\n\n\n", i, i
				printf "class Host_%d:\n    def __init__(self):\n        self.v = host_fn_%d(1)\n", i, i
			} else if (i % 3 == 1) {
				printf "if HAS_X:\n    cfg_%d = {\"a\": %d, \"b\": [1, 2]}\nelse:\n    cfg_%d = None\n", i, i, i
				printf "try:\n    t_%d = torch.empty(%d)\nexcept Exception:\n    t_%d = 0\n", i, i, i
			} else {
				printf "total_%d = sum(range(%d)) + len(\"%d\")\n", i, i, i
				printf "names_%d = [n for n in dir() if n.startswith(\"x\")]\n", i
				printf "def host_gen_%d():\n    for k in range(%d):\n        yield k\n", i, i
				printf "value_%d = host_gen_%d\n\n\n", i, i
			}
		}
	}'
}

{ echo "import torch"; echo "HAS_X = torch.cuda.is_available()"; } > "$work/head.py"
cp "$here/bench/kernels/vadd.py" "$work/alone.py"
{ cat "$here/bench/kernels/vadd.py"; cat "$work/head.py"; host; } > "$work/after.py"
{ cat "$work/head.py"; host; echo; cat "$here/bench/kernels/vadd.py"; } > "$work/before.py"
# the kernel that reads every G_i: out = x + (G_0 + ... + G_{n-1})
{
	cat "$work/head.py"; host; echo
	echo "import triton"; echo "import triton.language as tl"; echo; echo
	echo "@triton.jit"
	echo "def vadd_g(x_ptr, out_ptr, n, BLOCK: tl.constexpr):"
	echo "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)"
	echo "    x = tl.load(x_ptr + offs, mask=offs < n)"
	printf "    s = 0"; for ((i = 0; i < nglob; i++)); do printf " + G_%d" "$i"; done; echo
	echo "    tl.store(out_ptr + offs, x + s, mask=offs < n)"
} > "$work/globals.py"

run() { # name file kernel signature
	local best=999999999 parse= sema=
	for _ in 1 2 3 4 5; do
		local t0 t1 ms
		t0=$(date +%s%N)
		"$tilecc" "$2" -k "$3" -s "$4" -o "$work/x.so" -ftime-report 2> "$work/report"
		t1=$(date +%s%N)
		ms=$(( (t1 - t0) / 1000 ))
		if [ "$ms" -lt "$best" ]; then
			best=$ms
			parse=$(awk '/^ *parse /{print $2 " " $3}' "$work/report")
			sema=$(awk '/^ *sema /{print $(NF-1) " " $NF}' "$work/report")
		fi
	done
	printf '%-32s %7d lines  %8s ms  parse %-10s  sema %s\n' "$1" "$(wc -l < "$2")" \
		"$(awk -v us="$best" 'BEGIN { printf "%.1f", us / 1000 }')" "$parse" "$sema"
}
sig="*fp32:16, *fp32:16, *fp32:16, i32, 1024"
run "vadd alone" "$work/alone.py" vadd "$sig"
run "vadd, then host code" "$work/after.py" vadd "$sig"
run "host code, then vadd" "$work/before.py" vadd "$sig"
run "vadd_g reading $nglob globals" "$work/globals.py" vadd_g "*fp32:16, *fp32:16, i32, 1024"
