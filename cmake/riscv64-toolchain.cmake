# riscv64-toolchain.cmake: cross-compiling for riscv64 Linux with Debian's
# riscv64-linux-gnu-gcc, whose target files live in /usr/riscv64-linux-gnu.
#
# That directory is the sysroot for finding things (headers, libraries) but is not passed
# as --sysroot: Debian's cross gcc already searches it, under include/ and lib/ rather than
# usr/include and usr/lib, and --sysroot would make it look in the wrong places. Programs
# run under qemu-user with the same directory as the loader prefix.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(TILECC_RISCV64_SYSROOT /usr/riscv64-linux-gnu CACHE PATH "riscv64 target root")
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH ${TILECC_RISCV64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(TILECC_QEMU_RISCV64 qemu-riscv64)
if(TILECC_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TILECC_QEMU_RISCV64} -L ${TILECC_RISCV64_SYSROOT})
endif()
