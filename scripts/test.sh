#!/usr/bin/env bash
# test.sh: install what is missing, build, and run the whole test suite with ctest.
#   scripts/test.sh           normal build in build/
#   scripts/test.sh --asan    AddressSanitizer + UBSan build in build-asan/
# With CI=true in the environment, warnings are errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"

build="$root/build"
flags=()
if [ "${1:-}" = "--asan" ]; then
  build="$root/build-asan"
  flags+=(-DTILECC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [ "${CI:-}" = "true" ]; then
  flags+=(-DTILECC_WERROR=ON)
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$build" "${flags[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j "$jobs"
