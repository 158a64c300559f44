#!/usr/bin/env bash
# demo.sh: the main job on a fresh machine. Installs what is missing, builds tilecc, and
# compiles the example kernel (examples/vadd.py) through the stages this build implements,
# printing each result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="$root/build"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
tilecc="$build/tools/tilecc/tilecc"
out="$build/demo"
mkdir -p "$out"

"$tilecc" --version
echo
echo "== tilecc examples/vadd.py -k vadd -s '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024' -o $out/vadd.tir"
"$tilecc" "$root/examples/vadd.py" -k vadd -s '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024' \
  -o "$out/vadd.tir" -ftime-report
cat "$out/vadd.tir"
# The round trip: the printed tile IR parses back to the identical text.
"$tilecc" "$out/vadd.tir" --emit=tir -o "$out/vadd.again.tir"
if cmp -s "$out/vadd.tir" "$out/vadd.again.tir"; then
  echo "check: tile IR round-trips (print -> parse -> print is identical): OK"
else
  echo "check: tile IR round trip FAILED" >&2
  exit 1
fi
