#!/usr/bin/env bash
# install-deps.sh: bring every package tilecc needs to build and test, from Debian's
# archive. Idempotent: when everything is present it only checks (well under a second);
# otherwise it runs `apt-get update` once and installs what is missing.
#
# The CUDA toolkit is not installed here: CMake finds it at /usr/local/cuda when the machine
# image has it, and its absence only disables the steps that need ptxas.
set -euo pipefail

pkgs=(
  cmake make gcc
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19 clang-19
  libclang-rt-19-dev  # libFuzzer's runtime, for scripts/fuzz.sh
  libffi-dev libamdhip64-dev
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
  python3
  libopenblas-dev
)

missing=()
for p in "${pkgs[@]}"; do
  # dpkg-query prints "install ok installed" only for fully installed packages.
  st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
