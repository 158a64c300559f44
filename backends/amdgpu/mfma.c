/* mfma.c: AMD's matrix-core (MFMA) and dot instructions, as the GPU lowering asks for them
 * (codegen/gpu_isa.h: mfma, fdot2, sdot4): the llvm.amdgcn.mfma.* intrinsic of each
 * operand kind, instruction shape and generation (transforms/gpu_mma.h has the table),
 * and llvm.amdgcn.fdot2 / sdot4 (v_dot2_f32_f16, v_dot4_i32_i8; gfx906 and CDNA). */
#include "backends/amdgpu/amdgpu.h"
#include "transforms/gpu_mma.h"

/* The intrinsic of kind k on nonk x nonk instructions of generation gen
 * (column: nonk 32, nonk 16). */
static const char *mfma_name(int k, int nonk, int gen)
{
	bool n32 = nonk == 32;
	switch ((gpu_mma_kind)k) {
	case GPU_MMA_F16:
		return n32 ? "llvm.amdgcn.mfma.f32.32x32x8f16" : "llvm.amdgcn.mfma.f32.16x16x16f16";
	case GPU_MMA_BF16:
		return n32 ? "llvm.amdgcn.mfma.f32.32x32x8bf16.1k" : "llvm.amdgcn.mfma.f32.16x16x16bf16.1k";
	case GPU_MMA_S8:
		if (gen >= 3)
			return n32 ? "llvm.amdgcn.mfma.i32.32x32x16.i8" : "llvm.amdgcn.mfma.i32.16x16x32.i8";
		return n32 ? "llvm.amdgcn.mfma.i32.32x32x8i8" : "llvm.amdgcn.mfma.i32.16x16x16i8";
	case GPU_MMA_E4M3:
		return n32 ? "llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8" : "llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8";
	case GPU_MMA_E5M2:
		return n32 ? "llvm.amdgcn.mfma.f32.32x32x16.bf8.bf8" : "llvm.amdgcn.mfma.f32.16x16x32.bf8.bf8";
	default:
		return NULL;
	}
}

void amdgpu_mfma(cg *c, int kind, int nonk, int gen, LLVMValueRef a, LLVMValueRef b, LLVMValueRef *acc)
{
	const char *name = mfma_name(kind, nonk, gen);
	if (!name)
		cg_fail(c, NULL, "internal: no MFMA instruction for kind %d", kind);
	unsigned n = (unsigned)(nonk * nonk / 64);
	LLVMTypeRef et = LLVMTypeOf(acc[0]), vt = LLVMVectorType(et, n);
	LLVMValueRef v = LLVMGetPoison(vt);
	for (unsigned r = 0; r < n; r++)
		v = LLVMBuildInsertElement(c->b, v, acc[r], cg_i32(c, r), "");
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, name, NULL, 0, &fty);
	/* cbsz, abid, blgp: no broadcasts, no lane swizzle */
	LLVMValueRef args[6] = {a, b, v, cg_i32(c, 0), cg_i32(c, 0), cg_i32(c, 0)};
	LLVMValueRef d = LLVMBuildCall2(c->b, fty, f, args, 6, "");
	for (unsigned r = 0; r < n; r++)
		acc[r] = LLVMBuildExtractElement(c->b, d, cg_i32(c, r), "");
}

static LLVMValueRef dot_call(cg *c, const char *name, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, name, NULL, 0, &fty);
	LLVMValueRef args[4] = {a, b, acc, LLVMConstInt(LLVMInt1TypeInContext(c->ctx), 0, 0)}; /* no clamp */
	return LLVMBuildCall2(c->b, fty, f, args, 4, "");
}

LLVMValueRef amdgpu_fdot2(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
	return dot_call(c, "llvm.amdgcn.fdot2", a, b, acc);
}

LLVMValueRef amdgpu_sdot4(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
	return dot_call(c, "llvm.amdgcn.sdot4", a, b, acc);
}
