/* nvptx.h: what the files of the NVIDIA backend share. */
#ifndef TILECC_BACKENDS_NVPTX_H
#define TILECC_BACKENDS_NVPTX_H

#include "codegen/gpu_isa.h"

/* atomic.c: gpu_isa.atomic, an atomic as inline PTX with its semantic and scope. */
LLVMValueRef nvptx_atomic(cg *c, const cg_atomic *a);

/* mma.c: gpu_isa.ldmatrix and gpu_isa.mma, mma.sync through LLVM's NVVM intrinsics;
 * gpu_isa.stmatrix (inline PTX);
 * gpu_isa.narrow_pair, cvt.rn.{f16x2,bf16x2}.f32. */
void nvptx_ldmatrix(cg *c, LLVMValueRef p, int n, bool trans, LLVMValueRef *out);
void nvptx_stmatrix(cg *c, LLVMValueRef p, const LLVMValueRef *regs);
void nvptx_mma(cg *c, int kind, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *acc);
void nvptx_narrow_pair(cg *c, LLVMValueRef lo, LLVMValueRef hi, bool bf16, LLVMValueRef *out);

/* async_copy.c: gpu_isa.cp_async, cp_async_commit and cp_async_wait (cp.async). */
void nvptx_cp_async(cg *c, LLVMValueRef dst, LLVMValueRef src, int bytes, LLVMValueRef src_bytes);
void nvptx_cp_async_commit(cg *c);
/* gpu_isa.wide_offset: cvt.s64.s32 as inline PTX. */
LLVMValueRef nvptx_wide_offset(cg *c, LLVMValueRef off);
void nvptx_cp_async_wait(cg *c, int pending);
/* wgmma.c: gpu_isa's wgmma hooks, inline PTX (sm_90a). */
void nvptx_wgmma_fence(cg *c);
void nvptx_wgmma_commit(cg *c);
void nvptx_fence_proxy_async(cg *c);
void nvptx_wgmma(cg *c, int kind, int n, LLVMValueRef da, LLVMValueRef db, bool trans_a, bool trans_b,
		 bool scale_d, LLVMValueRef *acc);
void nvptx_wgmma_rs(cg *c, int kind, int n, const LLVMValueRef *a, LLVMValueRef db, bool trans_b,
		    bool scale_d, LLVMValueRef *acc);
void nvptx_wgmma_wait(cg *c, int pending, LLVMValueRef *acc, int n);

#endif
