# harnesses.cmake: the e2e harnesses, one executable each (NAME.c + e2e.c). Shared by
# CMakeLists.txt (the host build) and cross/CMakeLists.txt (the riscv64 cross build).
set(E2E_HARNESSES bench elementwise convert math reduce control memory sync shapes dot dot_tc random libdevice
    surface sort desc asm bigkernel)
