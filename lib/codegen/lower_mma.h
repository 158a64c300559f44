/* lower_mma.h: a dot on NVIDIA tensor cores (lower_mma.c), called by the GPU lowering
 * (lower_gpu.c) for a dot whose result has the #mma layout (transforms/gpu_mma.h). */
#ifndef TILECC_CODEGEN_LOWER_MMA_H
#define TILECC_CODEGEN_LOWER_MMA_H

#include "codegen/cg.h"
#include "transforms/gpu_mma.h"

/* Whether the staged operands' #shared layouts as and bs are ones ldmatrix can read as
 * lower_mma_dot does (16-byte swizzle groups, phases within 8 rows; B of TF32 and S8 is
 * read element by element, through the same swizzle); with a_regs, as is A's register
 * layout, which must be its fragments' (gpu_mma_a_regs). */
bool lower_mma_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, bool a_regs);

/* acc (the accumulator's slots in the #mma layout: f32, i32 for S8, half for an fp16
 * accumulator) += A B, with A and B staged in
 * shared memory at abase and bbase (addrspace 3 pointers: a planned offset, plus a ring
 * slot's for the pipeline's copies) in layouts as and bs; tid is the thread index. Every
 * thread of the program calls it (ldmatrix and mma.sync are warp-wide). With aregs, A is
 * the thread's slots of a register tile in layout as (gpu_mma_a_regs; abase unused). B
 * may be stored transposed (bs of order [0, 1]: K contiguous). */
void lower_mma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase,
		   const gpu_layout *as, const gpu_layout *bs, const LLVMValueRef *aregs, LLVMValueRef tid,
		   LLVMValueRef *acc);

#endif
