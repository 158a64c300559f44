/* target.c: the AMD and Hygon DCU target (HSACO through LLVM's AMDGPU backend). */
#include "backends/target.h"

static const char *const amdgpu_cpus[] = {"gfx906", "gfx90a", "gfx942", "dcu", "dcu-z100", NULL};

const target_desc amdgpu_target = {
    .family = "amdgcn",
    .description = "AMD GPUs and Hygon DCU: HSACO code objects (gfx906, gfx90a, gfx942)",
    .llvm_target = "amdgcn",
    .triple = "amdgcn-amd-amdhsa",
    .cpus = amdgpu_cpus,
    .warp_size = 64,
    .is_gpu = true,
};
