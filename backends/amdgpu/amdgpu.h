/* amdgpu.h: what the files of the AMD GPU backend share. */
#ifndef TILECC_BACKENDS_AMDGPU_H
#define TILECC_BACKENDS_AMDGPU_H

#include "codegen/gpu_isa.h"

/* atomic.c: gpu_isa.atomic, an atomic with its ordering and sync scope. */
LLVMValueRef amdgpu_atomic(cg *c, const cg_atomic *a);
/* isa.c: links IR text (device functions) into c->mod once; fails the lowering with what
 * when it does not parse or link. Returns the function `name` from it. */
LLVMValueRef amdgpu_ir_function(cg *c, const char *name, const char *ir, const char *what);
/* mfma.c: gpu_isa.mfma, .fdot2, .sdot4: the matrix-core and dot instructions. */
void amdgpu_mfma(cg *c, int kind, int nonk, int gen, LLVMValueRef a, LLVMValueRef b, LLVMValueRef *acc);
LLVMValueRef amdgpu_fdot2(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc);
LLVMValueRef amdgpu_sdot4(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc);

#endif
