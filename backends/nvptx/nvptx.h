/* nvptx.h: what the files of the NVIDIA backend share. */
#ifndef TILECC_BACKENDS_NVPTX_H
#define TILECC_BACKENDS_NVPTX_H

#include "codegen/gpu_isa.h"

/* atomic.c: gpu_isa.atomic, an atomic as inline PTX with its semantic and scope. */
LLVMValueRef nvptx_atomic(cg *c, const cg_atomic *a);

#endif
