/* mma.c: the tensor-core instructions of the NVIDIA backend (gpu_isa.ldmatrix and
 * gpu_isa.mma, used by lib/codegen/lower_mma.c). LLVM 19 has NVVM intrinsics for both:
 * ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16 and
 * mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 (sm_80 and later). */
#include <stdio.h>

#include "backends/nvptx/nvptx.h"

/* The declared function `name` of type fty, declared on first use. */
static LLVMValueRef declare(cg *c, const char *name, LLVMTypeRef fty)
{
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	return f ? f : LLVMAddFunction(c->mod, name, fty);
}

void nvptx_ldmatrix(cg *c, LLVMValueRef p, int n, bool trans, LLVMValueRef *out)
{
	char name[80];
	snprintf(name, sizeof name, "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x%d%s.b16.p3", n,
		 trans ? ".trans" : "");
	LLVMTypeRef parts[4] = {c->t_i32, c->t_i32, c->t_i32, c->t_i32};
	LLVMTypeRef ret = n == 1 ? c->t_i32 : LLVMStructTypeInContext(c->ctx, parts, (unsigned)n, 0);
	LLVMTypeRef pty = LLVMPointerTypeInContext(c->ctx, 3);
	LLVMTypeRef fty = LLVMFunctionType(ret, &pty, 1, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, fty, declare(c, name, fty), &p, 1, "");
	if (n == 1) {
		out[0] = r;
		return;
	}
	for (int i = 0; i < n; i++)
		out[i] = LLVMBuildExtractValue(c->b, r, (unsigned)i, "");
}

void nvptx_mma(cg *c, int kind, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *acc)
{
	/* fp16 fragments are <2 x half> to LLVM, bf16 ones i32 */
	LLVMTypeRef ot = kind == 0 ? LLVMVectorType(c->t_f16, 2) : c->t_i32;
	const char *name = kind == 0 ? "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
				     : "llvm.nvvm.mma.m16n8k16.row.col.bf16";
	LLVMTypeRef params[10], fparts[4] = {c->t_f32, c->t_f32, c->t_f32, c->t_f32};
	LLVMValueRef args[10];
	for (int i = 0; i < 6; i++) {
		params[i] = ot;
		LLVMValueRef x = i < 4 ? a[i] : b[i - 4];
		args[i] = kind == 0 ? LLVMBuildBitCast(c->b, x, ot, "") : x;
	}
	for (int i = 0; i < 4; i++) {
		params[6 + i] = c->t_f32;
		args[6 + i] = acc[i];
	}
	LLVMTypeRef ret = LLVMStructTypeInContext(c->ctx, fparts, 4, 0);
	LLVMTypeRef fty = LLVMFunctionType(ret, params, 10, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, fty, declare(c, name, fty), args, 10, "");
	for (int i = 0; i < 4; i++)
		acc[i] = LLVMBuildExtractValue(c->b, r, (unsigned)i, "");
}
