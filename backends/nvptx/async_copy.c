/* async_copy.c: the asynchronous copies of the NVIDIA backend (gpu_isa.cp_async,
 * cp_async_commit, cp_async_wait; sm_80 and later), used by the lowering of the pipeline
 * pass's async_copy, async_commit and async_wait (lib/transforms/pipeline.c). LLVM 19 has
 * NVVM intrinsics for all three: cp.async.{ca,cg}.shared.global with a source size
 * (the .s forms: bytes past the source size are zero-filled, so a source size of 0 is a
 * masked-off copy that reads nothing), cp.async.commit_group and cp.async.wait_group. */
#include <stdio.h>

#include "backends/nvptx/nvptx.h"

static LLVMValueRef declare(cg *c, const char *name, LLVMTypeRef fty)
{
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	return f ? f : LLVMAddFunction(c->mod, name, fty);
}

void nvptx_cp_async(cg *c, LLVMValueRef dst, LLVMValueRef src, int bytes, LLVMValueRef src_bytes)
{
	/* 16-byte copies bypass L1 (.cg), as the operands of a dot are read once per CTA;
	 * narrower ones exist only as .ca */
	char name[64];
	snprintf(name, sizeof name, "llvm.nvvm.cp.async.%s.shared.global.%d.s", bytes == 16 ? "cg" : "ca",
		 bytes);
	LLVMTypeRef gp = LLVMPointerTypeInContext(c->ctx, 1);
	LLVMTypeRef params[3] = {LLVMPointerTypeInContext(c->ctx, 3), gp, c->t_i32};
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), params, 3, 0);
	if (LLVMGetPointerAddressSpace(LLVMTypeOf(src)) != 1)
		src = LLVMBuildAddrSpaceCast(c->b, src, gp, "");
	LLVMValueRef args[3] = {dst, src, src_bytes};
	LLVMBuildCall2(c->b, fty, declare(c, name, fty), args, 3, "");
}

void nvptx_cp_async_commit(cg *c)
{
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), NULL, 0, 0);
	LLVMBuildCall2(c->b, fty, declare(c, "llvm.nvvm.cp.async.commit.group", fty), NULL, 0, "");
}

void nvptx_cp_async_wait(cg *c, int pending)
{
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), &c->t_i32, 1, 0);
	LLVMValueRef n = cg_i32(c, pending);
	LLVMBuildCall2(c->b, fty, declare(c, "llvm.nvvm.cp.async.wait.group", fty), &n, 1, "");
}
