/* lower_mma.h: a dot on NVIDIA tensor cores (lower_mma.c), called by the GPU lowering
 * (lower_gpu.c) for a dot whose result has the #mma layout (transforms/gpu_mma.h). */
#ifndef TILECC_CODEGEN_LOWER_MMA_H
#define TILECC_CODEGEN_LOWER_MMA_H

#include "codegen/cg.h"
#include "transforms/gpu_mma.h"

/* acc (the accumulator's slots in the #mma layout: f32, i32 for S8, half for an fp16
 * accumulator) += A B, with A and B staged in
 * shared memory at abase and bbase (addrspace 3 pointers: a planned offset, plus a ring
 * slot's for the pipeline's copies) in layouts as and bs; tid is the thread index. Every
 * thread of the program calls it (ldmatrix and mma.sync are warp-wide). With aregs, A is
 * the thread's slots of a register tile in layout as (gpu_mma_a_regs; abase unused). B
 * may be stored transposed (bs of order [0, 1]: K contiguous). With ahead, the first aks
 * k-steps of A and bks of B come from its registers (lower_mma_fetch's, by local_load)
 * instead. */
typedef struct mma_ahead {
	const LLVMValueRef *a, *b; /* registers, in lower_mma_fetch's order */
	int aks, bks;              /* k-steps of each (0: none) */
} mma_ahead;
void lower_mma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase,
		   const gpu_layout *as, const gpu_layout *bs, const LLVMValueRef *aregs, const mma_ahead *ahead,
		   LLVMValueRef tid, LLVMValueRef *acc);

/* One 32-bit fragment register of two 16-bit elements (kind F16 or BF16; lo in the low
 * half), and its two elements back. */
LLVMValueRef lower_mma_pack(cg *c, gpu_mma_kind k, LLVMValueRef lo, LLVMValueRef hi);
void lower_mma_unpack(cg *c, gpu_mma_kind k, LLVMValueRef r, LLVMValueRef *lo, LLVMValueRef *hi);

/* The fragments of the first `ksteps` k-steps of operand opidx (0: A, 1: B) of plan p, read
 * with ldmatrix from the staged tile at base in #shared layout sl (p's M, N, K are the
 * staged tile's, its pitch): regs[(t ksteps + kk) per + q], register q (per = 4 for A, 2
 * for B) of row tile t (A) or column tile t (B) at k-step kk, the i32 registers of
 * mma.sync. The 16-bit kinds only (gpu_mma_staged_fits). */
void lower_mma_fetch(cg *c, const gpu_mma *p, int opidx, LLVMValueRef base, const gpu_layout *sl, int ksteps,
		     LLVMValueRef tid, LLVMValueRef *regs);

#endif
