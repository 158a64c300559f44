/* lower_mfma.h: a dot on AMD matrix cores (lower_mfma.c), called by the GPU lowering
 * (lower_gpu_dot.c) for a dot whose result has the #mfma layout (transforms/gpu_mma.h). */
#ifndef TILECC_CODEGEN_LOWER_MFMA_H
#define TILECC_CODEGEN_LOWER_MFMA_H

#include "codegen/cg.h"
#include "transforms/gpu_mma.h"

/* Whether A and B staged in the #shared tile types at and bt can be read as
 * lower_mfma_dot does: 2-D tiles in shared memory, unpaneled. */
bool lower_mfma_fits(const gpu_mma *p, const ir_type *at, const ir_type *bt);

/* acc (the accumulator's slots in the #mfma layout: f32, i32 for S8) += A B, with A and
 * B staged in shared memory (LDS) at abase and bbase (addrspace 3 pointers to their
 * first bytes) as the #shared tile types at and bt; tid is the thread index. Every
 * thread of the program calls it (the MFMA instructions are wave-wide). Each lane reads
 * its kw operand elements of each instruction with one vector load where the tile keeps
 * them contiguous and swizzled together (A row-major, B stored transposed), else one by
 * one. */
void lower_mfma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase, const ir_type *at,
		    const ir_type *bt, LLVMValueRef tid, LLVMValueRef *acc);

#endif
