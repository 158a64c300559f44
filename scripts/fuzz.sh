#!/usr/bin/env bash
# fuzz.sh: build the libFuzzer targets of fuzz/ (clang 19, ASan+UBSan) and run them one
# after another (docs/reliability.md).
#   scripts/fuzz.sh --short              each target for 25 s (CI): non-zero on a crash,
#                                        a leak, a timeout or running out of memory
#   scripts/fuzz.sh --minutes 30         each target for 30 minutes
#   scripts/fuzz.sh --minutes 30 --keep-going
#                                        the same, but a crash does not end the run
#                                        (libFuzzer's -fork=1 -ignore_crashes=1): every
#                                        crashing input is kept under the artifacts folder
#   --target NAME (repeatable)           only these targets: frontend frontend_gpu ir
#                                        signature loader
#   --seconds N                          each target for N seconds
# The build is build-fuzz/; the seed corpora (fuzz/make-seeds.py) are remade in
# build-fuzz/fuzz-seeds/ when missing, the growing corpora stay in build-fuzz/fuzz-corpus/,
# crashing inputs go to build-fuzz/fuzz-artifacts/<target>/ and each run's log to
# build-fuzz/fuzz-logs/<target>.log. At the end a table gives, per target, the
# executions, libFuzzer's coverage (cov: edges, ft: features), the crashing inputs the run
# left and the result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
all_targets=(frontend frontend_gpu ir signature loader)
seconds=25
keep_going=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short) seconds=25 ;;
    --minutes) seconds=$(( $2 * 60 )); shift ;;
    --seconds) seconds=$2; shift ;;
    --keep-going) keep_going=1 ;;
    --target) targets+=("$2"); shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

"$root/scripts/install-deps.sh"
build="$root/build-fuzz"
flags=(-DTILECC_FUZZ=ON -DTILECC_BUILD_TESTS=OFF -DCMAKE_C_COMPILER=clang-19
       -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g")
if [ "${CI:-}" = "true" ]; then
  flags+=(-DTILECC_WERROR=ON)
fi
if command -v ccache >/dev/null; then
  flags+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
cmake -S "$root" -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build" -j "$jobs"

if [ ! -d "$build/fuzz-seeds/loader" ]; then
  echo "fuzz.sh: making the seed corpora" >&2
  python3 "$root/fuzz/make-seeds.py" --tilecc "$build/tools/tilecc/tilecc" --out "$build/fuzz-seeds"
fi

dict_for() {
  case "$1" in
    frontend|frontend_gpu) echo "$root/fuzz/dict/python.dict" ;;
    ir) echo "$root/fuzz/dict/tir.dict" ;;
    signature) echo "$root/fuzz/dict/signature.dict" ;;
    *) echo "" ;;
  esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# TILECC_PATH would let kernels import files from elsewhere
unset TILECC_PATH
mkdir -p "$build/fuzz-logs"
failed=0
summary=()
for t in "${targets[@]}"; do
  exe="$build/fuzz/fuzz_$t"
  if [ ! -x "$exe" ]; then
    echo "fuzz.sh: no target '$t' (${all_targets[*]})" >&2
    exit 2
  fi
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t"
  log="$build/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$artifacts"
  args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096
        -max_len=65536 -artifact_prefix="$artifacts/")
  d=$(dict_for "$t")
  [ -z "$d" ] || args+=(-dict="$d")
  if [ "$keep_going" = 1 ]; then
    args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  echo "fuzz.sh: $t for ${seconds} s" >&2
  marker="$build/fuzz-logs/$t.start"
  touch "$marker"
  rc=0
  "$exe" "${args[@]}" "$corpus" "$build/fuzz-seeds/$t" >"$log" 2>&1 || rc=$?
  # executions and coverage: the final stats, or the last status line (fork mode)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  # the inputs this run left (fork mode exits 0 after crashes it ignored)
  ncrash=$(find "$artifacts" -type f -newer "$marker" | wc -l)
  result=ok
  if [ "$rc" -eq 0 ] && [ "$ncrash" -gt 0 ]; then
    result="FAILED ($ncrash inputs in $artifacts)"
    failed=1
  elif [ "$rc" -ne 0 ]; then
    result="FAILED (exit $rc; $(grep -m1 -o 'ERROR: [A-Za-z]*: [A-Za-z-]*' "$log" || echo see log))"
    failed=1
    grep -A 12 -m1 'ERROR:' "$log" >&2 || true
    echo "fuzz.sh: $t: the log is $log, the input in $artifacts" >&2
  fi
  summary+=("$(printf '%-13s %10s %7s %8s %8s  %s' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$ncrash" "$result")")
done

echo
printf '%-13s %10s %7s %8s %8s  %s\n' target executions cov ft crashes result
for line in "${summary[@]}"; do
  echo "$line"
done
exit $failed
