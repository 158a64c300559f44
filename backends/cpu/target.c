/* target.c: the x86-64 host target (AVX2 / AVX-512 vectors). */
#include "backends/target.h"

static const char *const cpu_cpus[] = {"x86_64", "host", NULL};

const target_desc cpu_target = {
    .family = "x86-64",
    .description = "x86-64 CPUs (SSE/AVX2/AVX-512): ELF objects and shared objects",
    .llvm_target = "x86-64",
    .triple = "x86_64-unknown-linux-gnu",
    .cpus = cpu_cpus,
    .warp_size = 1,
    .is_gpu = false,
};
