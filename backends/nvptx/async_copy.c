/* async_copy.c: the asynchronous copies of the NVIDIA backend (gpu_isa.cp_async,
 * cp_async_commit, cp_async_wait; sm_80 and later), used by the lowering of the pipeline
 * pass's async_copy, async_commit and async_wait (lib/transforms/pipeline.c). LLVM 19 has
 * NVVM intrinsics for commit_group and wait_group; the copy, cp.async.{ca,cg}.shared.global
 * with a source size (bytes past the source size are zero-filled, so a source size of 0
 * is a masked-off copy that reads nothing), is inline PTX. */
#include <stdio.h>
#include <string.h>

#include "backends/nvptx/nvptx.h"

static LLVMValueRef declare(cg *c, const char *name, LLVMTypeRef fty)
{
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	return f ? f : LLVMAddFunction(c->mod, name, fty);
}

void nvptx_cp_async(cg *c, LLVMValueRef dst, LLVMValueRef src, int bytes, LLVMValueRef src_bytes)
{
	/* 16-byte copies bypass L1 (.cg), as the operands of a dot are read once per CTA;
	 * narrower ones exist only as .ca. Inline PTX rather than the NVVM intrinsic: with
	 * 32-bit shared pointers (-nvptx-short-ptr), LLVM 19 selects no pattern for the
	 * intrinsic's source-size form. */
	char text[96];
	snprintf(text, sizeof text, "cp.async.%s.shared.global [$0], [$1], %d, $2;",
		 bytes == 16 ? "cg" : "ca", bytes);
	LLVMTypeRef gp = LLVMPointerTypeInContext(c->ctx, 1);
	LLVMTypeRef params[3] = {c->t_i32, gp, c->t_i32};
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), params, 3, 0);
	if (LLVMGetPointerAddressSpace(LLVMTypeOf(src)) != 1)
		src = LLVMBuildAddrSpaceCast(c->b, src, gp, "");
	static const char cons[] = "r,l,r,~{memory}";
	LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), (char *)cons, sizeof cons - 1, 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[3] = {LLVMBuildPtrToInt(c->b, dst, c->t_i32, ""), src, src_bytes};
	LLVMBuildCall2(c->b, fty, fn, args, 3, "");
}

LLVMValueRef nvptx_wide_offset(cg *c, LLVMValueRef off)
{
	/* no side effects: LLVM may still hoist, sink or merge it */
	LLVMTypeRef fty = LLVMFunctionType(c->t_i64, &c->t_i32, 1, 0);
	static const char text[] = "cvt.s64.s32 $0, $1;", cons[] = "=l,r";
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)text, sizeof text - 1, (char *)cons,
					   sizeof cons - 1, 0, 0, LLVMInlineAsmDialectATT, 0);
	return LLVMBuildCall2(c->b, fty, fn, &off, 1, "");
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
