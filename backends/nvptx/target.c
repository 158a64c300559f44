/* target.c: the NVIDIA target (PTX and cubin through LLVM's NVPTX backend). */
#include "backends/target.h"

static const char *const nvptx_cpus[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", NULL};

const target_desc nvptx_target = {
    .family = "nvptx",
    .description = "NVIDIA GPUs: PTX and cubin (sm_80 .. sm_90a)",
    .llvm_target = "nvptx64",
    .triple = "nvptx64-nvidia-cuda",
    .cpus = nvptx_cpus,
    .warp_size = 32,
    .is_gpu = true,
};
