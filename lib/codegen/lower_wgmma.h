/* lower_wgmma.h: a dot on the warpgroup tensor cores of sm_90a (lower_wgmma.c), called by
 * the GPU lowering (lower_gpu.c) for a dot whose result has the #mma<version = 3> layout
 * (transforms/gpu_mma.h has the plan, the fragment mapping and the descriptors). */
#ifndef TILECC_CODEGEN_LOWER_WGMMA_H
#define TILECC_CODEGEN_LOWER_WGMMA_H

#include "codegen/cg.h"
#include "transforms/gpu_mma.h"

/* Whether the staged operands' #shared layouts as (A, M x K) and bs (B, K x N) are the
 * NVMMA layouts wgmma reads as plan p does. */
bool lower_wgmma_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs);

/* acc (the accumulator's slots in the #mma v3 layout, f32) += A B with wgmma.mma_async,
 * A and B staged at a and b: addrspace 3 pointers to the tiles' first bytes, values of
 * the program (a ring slot chosen at run time will do), aligned as gpu_layout_shared_align
 * says (1024 bytes for the 128B mode), in the layouts as and bs. The stores that staged
 * them must be visible to the async proxy: each writing thread runs gpu_isa.
 * fence_proxy_async after its stores, then the barrier, then this. warp is the thread's
 * warp index (lg_warp_index: warp-uniform, so its descriptors are too); every thread of the program calls it (wgmma is warpgroup-wide). It issues
 * wgmma.fence, every instruction, commit_group and wait_group 0: the results are in acc
 * when it returns. */
void lower_wgmma_dot(cg *c, const gpu_mma *p, LLVMValueRef a, LLVMValueRef b, const gpu_layout *as,
		     const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc);

/* lower_wgmma_dot in two halves, for a pipelined loop (async wgmma): issue runs
 * wgmma.fence, every instruction and commit_group, and leaves in acc the values the
 * instructions will write, not readable yet; wait(pending) runs wait_group `pending`
 * with every accumulator slot tied through it (acc in place): with pending 0 they are
 * readable afterwards; with 1 the previous group's reads of shared memory are done (its
 * ring slot may be written again) while this one is in flight. Nothing but wgmma may
 * touch acc between issue and a wait(0). */
void lower_wgmma_issue(cg *c, const gpu_mma *p, LLVMValueRef a, LLVMValueRef b, const gpu_layout *as,
		       const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc);
void lower_wgmma_wait(cg *c, const gpu_mma *p, int pending, LLVMValueRef *acc);

/* lower_wgmma_issue with A in registers (the "RS" form, gpu_mma.h): a holds the thread's
 * slots of A in layout al, an #mma v3 layout gpu_wgmma_a_regs accepts; B in shared memory
 * as before. lower_wgmma_fits_rs says whether al and bs are such layouts. */
bool lower_wgmma_fits_rs(const gpu_mma *p, const gpu_layout *al, const gpu_layout *bs);
void lower_wgmma_issue_rs(cg *c, const gpu_mma *p, const gpu_layout *al, const LLVMValueRef *a, LLVMValueRef b,
			  const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc);

#endif
