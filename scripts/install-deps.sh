#!/usr/bin/env bash
# install-deps.sh: bring every package tilecc needs to build and test, from Debian's
# archive. Idempotent: when everything is present it only checks (well under a second);
# otherwise it runs `apt-get update` once and installs what is missing.
#
# The CUDA toolkit is not installed here: CMake finds it at /usr/local/cuda when the machine
# image has it, and its absence only disables the steps that need ptxas.
#
# Triton 3.6.0 from PyPI goes into a virtual environment of its own
# (${XDG_CACHE_HOME:-~/.cache}/tilecc/triton-3.6.0; TILECC_TRITON_VENV to move it): ctest
# mlir.triton has it write the TTIR of the bench kernels (tests/mlir/triton_ttir.py, no GPU
# needed), which tilecc then compiles and runs. Test tooling only: tilecc does not use it.
set -euo pipefail

triton_venv=${TILECC_TRITON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tilecc/triton-3.6.0}
install_triton() {
  if "$triton_venv/bin/python" -c 'import triton, sys; sys.exit(triton.__version__ != "3.6.0")' 2>/dev/null; then
    return 0
  fi
  echo "install-deps: Triton 3.6.0 into $triton_venv (for ctest mlir.triton)" >&2
  rm -rf "$triton_venv"
  mkdir -p "$(dirname "$triton_venv")"
  python3 -m venv "$triton_venv"
  "$triton_venv/bin/pip" install -q --disable-pip-version-check triton==3.6.0
}

pkgs=(
  cmake make gcc
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19 clang-19
  libclang-rt-19-dev  # libFuzzer's runtime, for scripts/fuzz.sh
  libffi-dev libamdhip64-dev
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
  python3 python3-venv
  libopenblas-dev
)

missing=()
for p in "${pkgs[@]}"; do
  # dpkg-query prints "install ok installed" only for fully installed packages.
  st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  install_triton
  exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
install_triton
