/* mma.c: the tensor-core instructions of the NVIDIA backend (gpu_isa.ldmatrix and
 * gpu_isa.mma, used by lib/codegen/lower_mma.c). LLVM 19 has NVVM intrinsics for both:
 * ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16 and mma.sync.aligned
 *   m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32, m16n8k16.row.col.f16.f16.f16.f16,
 *   m16n8k8.row.col.f32.tf32.tf32.f32, m16n8k32.row.col.s32.s8.s8.s32
 * (sm_80 and later), and cvt.rna.tf32.f32 (llvm.nvvm.f2tf32.rna); not for the fp8 form
 * m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32 (sm_89 and later), which is inline PTX. */
#include <stdio.h>
#include <string.h>

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

/* cvt.rn.{f16x2,bf16x2}.f32 (sm_80): the instruction's first source goes to the upper
 * half, so hi comes first. The epilogue of every 16-bit dot converts its accumulators in
 * pairs, and half as many instructions pack them for the stores. */
void nvptx_narrow_pair(cg *c, LLVMValueRef lo, LLVMValueRef hi, bool bf16, LLVMValueRef *out)
{
	LLVMTypeRef et = bf16 ? c->t_bf16 : c->t_f16, vt = LLVMVectorType(et, 2);
	LLVMTypeRef params[2] = {c->t_f32, c->t_f32};
	LLVMTypeRef fty = LLVMFunctionType(vt, params, 2, 0);
	LLVMValueRef args[2] = {hi, lo};
	LLVMValueRef v = LLVMBuildCall2(c->b, fty, declare(c, bf16 ? "llvm.nvvm.ff2bf16x2.rn" : "llvm.nvvm.ff2f16x2.rn", fty),
					args, 2, "");
	out[0] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 0), "");
	out[1] = LLVMBuildExtractElement(c->b, v, cg_i32(c, 1), "");
}

/* A tf32 fragment register from the fp32 bits x (i32): rounded to nearest, ties away
 * from zero (cvt.rna.tf32.f32), so that the mma reads a value in the tf32 format its
 * .tf32 operands are specified in, rather than fp32 bits whose low 13 it would drop. */
static LLVMValueRef to_tf32(cg *c, LLVMValueRef x)
{
	LLVMTypeRef ft = LLVMFunctionType(c->t_i32, &c->t_f32, 1, 0);
	LLVMValueRef f = LLVMBuildBitCast(c->b, x, c->t_f32, "");
	return LLVMBuildCall2(c->b, ft, declare(c, "llvm.nvvm.f2tf32.rna", ft), &f, 1, "");
}

void nvptx_stmatrix(cg *c, LLVMValueRef p, const LLVMValueRef *regs)
{
	/* inline PTX: LLVM 19 has no stmatrix intrinsic; the shared address as 32 bits
	 * (-nvptx-short-ptr) */
	static const char text[] = "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};";
	static const char cons[] = "r,r,r,r,r,~{memory}";
	LLVMTypeRef params[5] = {c->t_i32, c->t_i32, c->t_i32, c->t_i32, c->t_i32};
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->ctx), params, 5, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)text, sizeof text - 1, (char *)cons, sizeof cons - 1, 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef args[5] = {LLVMBuildPtrToInt(c->b, p, c->t_i32, ""), regs[0], regs[1], regs[2], regs[3]};
	LLVMBuildCall2(c->b, fty, fn, args, 5, "");
}

/* fp8 (sm_89 and later; PTX 8.4): inline PTX, which LLVM 19 has no intrinsic for. The
 * fragments are S8's: four elements per register. */
static void mma_fp8(cg *c, int kind, const LLVMValueRef *a, const LLVMValueRef *b, LLVMValueRef *acc)
{
	const char *ty = kind == GPU_ISA_MMA_E4M3 ? "e4m3" : "e5m2";
	char text[160];
	snprintf(text, sizeof text,
		 "mma.sync.aligned.m16n8k32.row.col.f32.%s.%s.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
		 "{$10, $11, $12, $13};",
		 ty, ty);
	static const char cons[] = "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
	LLVMTypeRef in[10], out[4];
	LLVMValueRef args[10];
	for (int i = 0; i < 6; i++) {
		in[i] = c->t_i32;
		args[i] = i < 4 ? a[i] : b[i - 4];
	}
	for (int i = 0; i < 4; i++) {
		in[6 + i] = out[i] = c->t_f32;
		args[6 + i] = acc[i];
	}
	LLVMTypeRef ret = LLVMStructTypeInContext(c->ctx, out, 4, 0);
	LLVMTypeRef ft = LLVMFunctionType(ret, in, 10, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), (char *)cons, strlen(cons), 0, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, ft, fn, args, 10, "");
	for (int i = 0; i < 4; i++)
		acc[i] = LLVMBuildExtractValue(c->b, r, (unsigned)i, "");
}

void nvptx_mma(cg *c, int kind, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *acc)
{
	if (kind == GPU_ISA_MMA_E4M3 || kind == GPU_ISA_MMA_E5M2) {
		mma_fp8(c, kind, a, b, acc);
		return;
	}
	/* fp16 fragments are <2 x half> to LLVM; bf16, tf32 and s8 ones i32 */
	LLVMTypeRef h2 = LLVMVectorType(c->t_f16, 2);
	bool f16 = kind == GPU_ISA_MMA_F16 || kind == GPU_ISA_MMA_F16_F16;
	LLVMTypeRef ot = f16 ? h2 : c->t_i32;
	const char *name;
	LLVMTypeRef ct; /* one accumulator register */
	int nc = 4;     /* accumulator registers */
	switch (kind) {
	case GPU_ISA_MMA_F16: name = "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"; ct = c->t_f32; break;
	case GPU_ISA_MMA_BF16: name = "llvm.nvvm.mma.m16n8k16.row.col.bf16"; ct = c->t_f32; break;
	case GPU_ISA_MMA_TF32: name = "llvm.nvvm.mma.m16n8k8.row.col.tf32"; ct = c->t_f32; break;
	case GPU_ISA_MMA_S8: name = "llvm.nvvm.mma.m16n8k32.row.col.s8"; ct = c->t_i32; break;
	default: name = "llvm.nvvm.mma.m16n8k16.row.col.f16.f16"; ct = h2; nc = 2; break;
	}
	LLVMTypeRef params[10], rparts[4];
	LLVMValueRef args[10];
	for (int i = 0; i < 6; i++) {
		params[i] = ot;
		LLVMValueRef x = i < 4 ? a[i] : b[i - 4];
		args[i] = f16 ? LLVMBuildBitCast(c->b, x, ot, "") : kind == GPU_ISA_MMA_TF32 ? to_tf32(c, x) : x;
	}
	for (int i = 0; i < nc; i++) {
		params[6 + i] = ct;
		rparts[i] = ct;
		if (nc == 4) {
			args[6 + i] = acc[i];
			continue;
		}
		/* fp16 accumulators: c0c1 (row g), c2c3 (row g + 8), two halves each */
		LLVMValueRef v = LLVMGetPoison(h2);
		v = LLVMBuildInsertElement(c->b, v, acc[2 * i], cg_i32(c, 0), "");
		args[6 + i] = LLVMBuildInsertElement(c->b, v, acc[2 * i + 1], cg_i32(c, 1), "");
	}
	LLVMTypeRef ret = LLVMStructTypeInContext(c->ctx, rparts, (unsigned)nc, 0);
	LLVMTypeRef fty = LLVMFunctionType(ret, params, (unsigned)(6 + nc), 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, fty, declare(c, name, fty), args, (unsigned)(6 + nc), "");
	for (int i = 0; i < nc; i++) {
		LLVMValueRef x = LLVMBuildExtractValue(c->b, r, (unsigned)i, "");
		if (nc == 4) {
			acc[i] = x;
			continue;
		}
		acc[2 * i] = LLVMBuildExtractElement(c->b, x, cg_i32(c, 0), "");
		acc[2 * i + 1] = LLVMBuildExtractElement(c->b, x, cg_i32(c, 1), "");
	}
}
