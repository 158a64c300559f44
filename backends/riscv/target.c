/* target.c: the RISC-V target (rv64gcv, vector length agnostic). */
#include "backends/target.h"

static const char *const riscv_cpus[] = {"riscv", NULL};

const target_desc riscv_target = {
    .family = "riscv64",
    .description = "64-bit RISC-V with the V extension (rv64gcv): ELF objects",
    .llvm_target = "riscv64",
    .triple = "riscv64-unknown-linux-gnu",
    .cpus = riscv_cpus,
    .warp_size = 1,
    .is_gpu = false,
};
