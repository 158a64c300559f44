/* isa.c: what the GPU lowering needs of AMD GPUs and Hygon DCUs (codegen/gpu_isa.h):
 * amdgcn intrinsics for work-item and workgroup indices, the HSA dispatch packet for the
 * grid size, LDS (addrspace 3) at its exact size, ds_bpermute for cross-lane exchange in
 * a 64-wide wave, and tilecc's own device math library (backends/amdgpu/device/devmath.c,
 * linked by emit.c) where LLVM's AMDGPU backend has no lowering (fp64 transcendentals,
 * erf, tanh): there are no ROCm device libraries to call. */
#include <stdio.h>
#include <string.h>

#include <llvm-c/IRReader.h>

#include "backends/amdgpu/amdgpu.h"
#include "codegen/gpu_isa.h"

static LLVMValueRef thread_id(cg *c)
{
	return cg_call0(c, "llvm.amdgcn.workitem.id.x");
}

static LLVMValueRef program_id(cg *c, int axis)
{
	static const char *const names[3] = {"llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y",
					     "llvm.amdgcn.workgroup.id.z"};
	return cg_call0(c, names[axis]);
}

/* The HSA kernel dispatch packet holds the workgroup size (u16 at byte 4 + 2 * axis) and
 * the grid size in work-items (u32 at byte 12 + 4 * axis); the number of programs is
 * their quotient. The packet is there with code objects v4 and v5 alike. */
static LLVMValueRef packet_field(cg *c, LLVMValueRef pkt, int off, LLVMTypeRef t)
{
	LLVMValueRef o = cg_i64(c, off);
	LLVMValueRef p = LLVMBuildGEP2(c->b, c->t_i8, pkt, &o, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(c->b, t, p, "");
	LLVMSetAlignment(v, (unsigned)(t == c->t_i16 ? 2 : 4));
	return t == c->t_i32 ? v : LLVMBuildZExt(c->b, v, c->t_i32, "");
}

static LLVMValueRef num_programs(cg *c, int axis)
{
	LLVMValueRef pkt = cg_call0(c, "llvm.amdgcn.dispatch.ptr");
	LLVMValueRef grid = packet_field(c, pkt, 12 + 4 * axis, c->t_i32);
	LLVMValueRef wg = packet_field(c, pkt, 4 + 2 * axis, c->t_i16);
	return LLVMBuildUDiv(c->b, grid, wg, "");
}

/* A workgroup barrier with workgroup-scope fences, as HIP's __syncthreads: the fences
 * order the LDS accesses around s_barrier (which by itself orders no memory). The C API
 * of LLVM 19 cannot give a fence a sync scope, so the function comes from IR text, linked
 * into the module once and inlined. */
static const char barrier_ir[] =
    "define hidden void @__tilecc_barrier() #0 {\n"
    "  fence syncscope(\"workgroup\") release\n"
    "  call void @llvm.amdgcn.s.barrier()\n"
    "  fence syncscope(\"workgroup\") acquire\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.amdgcn.s.barrier() #1\n"
    "attributes #0 = { alwaysinline convergent nounwind }\n"
    "attributes #1 = { convergent nounwind willreturn }\n";

LLVMValueRef amdgpu_ir_function(cg *c, const char *name, const char *ir, const char *what)
{
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	if (f)
		return f;
	LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), what);
	LLVMModuleRef m = NULL;
	char *err = NULL;
	if (LLVMParseIRInContext(c->ctx, mb, &m, &err))
		cg_fail(c, NULL, "internal: the AMD %s does not parse: %s", what, err ? err : "");
	if (cg_link_module(c, m))
		cg_fail(c, NULL, "internal: cannot link the AMD %s", what);
	return LLVMGetNamedFunction(c->mod, name);
}

static void barrier(cg *c)
{
	LLVMValueRef f = amdgpu_ir_function(c, "__tilecc_barrier", barrier_ir, "barrier");
	LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
}

/* ds_bpermute_b32 reads the value of any lane of the wave: its address is lane * 4. */
static LLVMValueRef shfl_xor(cg *c, LLVMValueRef x, int mask, int warp, LLVMValueRef tid)
{
	bool fl = LLVMTypeOf(x) == c->t_f32;
	LLVMValueRef lane = LLVMBuildAnd(c->b, tid, cg_i32(c, warp - 1), "");
	LLVMValueRef src = LLVMBuildXor(c->b, lane, cg_i32(c, mask), "");
	LLVMValueRef args[2] = {LLVMBuildShl(c->b, src, cg_i32(c, 2), ""),
				fl ? LLVMBuildBitCast(c->b, x, c->t_i32, "") : x};
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, "llvm.amdgcn.ds.bpermute", NULL, 0, &fty);
	LLVMValueRef r = LLVMBuildCall2(c->b, fty, f, args, 2, "");
	return fl ? LLVMBuildBitCast(c->b, r, c->t_f32, "") : r;
}

/* fp64 transcendentals, erf, tanh and the rest of libdevice's functions: the device library,
 * in fp64 (fp32 arguments are widened and the result rounded back; fmod and ilogb are exact
 * that way). The rest, fp32 exp/log/sin/cos/sqrt, floor/ceil/trunc/round/rint/nearbyint
 * and ldexp included, is the generic lowering, which the AMDGPU backend compiles to its own
 * instructions. */
static LLVMValueRef math(cg *c, const ir_op *op, LLVMValueRef *a)
{
	static const struct {
		const char *name;
		bool f32; /* fp32 too, through fp64 */
	} lib[] = {
	    [IR_OP_EXP] = {"__tilecc_dm_exp", false},     [IR_OP_EXP2] = {"__tilecc_dm_exp2", false},
	    [IR_OP_LOG] = {"__tilecc_dm_log", false},     [IR_OP_LOG2] = {"__tilecc_dm_log2", false},
	    [IR_OP_SIN] = {"__tilecc_dm_sin", false},     [IR_OP_COS] = {"__tilecc_dm_cos", false},
	    [IR_OP_TANH] = {"__tilecc_dm_tanh", true},    [IR_OP_ERF] = {"__tilecc_dm_erf", true},
	    [IR_OP_TAN] = {"__tilecc_dm_tan", true},      [IR_OP_ASIN] = {"__tilecc_dm_asin", true},
	    [IR_OP_ACOS] = {"__tilecc_dm_acos", true},    [IR_OP_ATAN] = {"__tilecc_dm_atan", true},
	    [IR_OP_SINH] = {"__tilecc_dm_sinh", true},    [IR_OP_COSH] = {"__tilecc_dm_cosh", true},
	    [IR_OP_LOG1P] = {"__tilecc_dm_log1p", true},  [IR_OP_EXPM1] = {"__tilecc_dm_expm1", true},
	    [IR_OP_LOG10] = {"__tilecc_dm_log10", true},  [IR_OP_EXP10] = {"__tilecc_dm_exp10", true},
	    [IR_OP_CBRT] = {"__tilecc_dm_cbrt", true},    [IR_OP_ERFINV] = {"__tilecc_dm_erfinv", true},
	    [IR_OP_POW] = {"__tilecc_dm_pow", true},      [IR_OP_ATAN2] = {"__tilecc_dm_atan2", true},
	    [IR_OP_FMOD] = {"__tilecc_dm_fmod", true},    [IR_OP_HYPOT] = {"__tilecc_dm_hypot", true},
	    [IR_OP_ILOGB] = {"__tilecc_dm_ilogb", true},
	};
	LLVMTypeRef xt = LLVMTypeOf(a[0]);
	bool f64 = xt == c->t_f64;
	if ((size_t)op->code >= sizeof lib / sizeof lib[0] || !lib[op->code].name)
		return NULL;
	if (!f64 && !lib[op->code].f32)
		return NULL;
	unsigned n = (unsigned)op->noperands;
	LLVMValueRef w[2];
	for (unsigned i = 0; i < n; i++)
		w[i] = f64 ? a[i] : LLVMBuildFPExt(c->b, a[i], c->t_f64, "");
	if (op->code == IR_OP_ILOGB)
		return cg_call_ext(c, lib[op->code].name, c->t_i32, w, 1);
	LLVMValueRef r = cg_call_ext(c, lib[op->code].name, c->t_f64, w, n);
	return f64 ? r : LLVMBuildFPTrunc(c->b, r, xt, "");
}

/* No device library prints on AMD here (HIP's __assert_fail lives in the ROCm device
 * libraries): a failed assert traps, and the launch fails without the message. */
static void assert_fail(cg *c, const char *msg, const char *file, int line, const char *func)
{
	(void)msg;
	(void)file;
	(void)line;
	(void)func;
	cg_call0(c, "llvm.trap");
}

/* LDS is declared at its size, which is known once the kernel is lowered: a placeholder
 * until then, replaced in finish_kernel. */
static LLVMValueRef smem_begin(cg *c, LLVMValueRef fn)
{
	char name[300];
	snprintf(name, sizeof name, "%.250s.lds.pending", LLVMGetValueName(fn));
	LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->mod, LLVMArrayType2(c->t_i8, 0), name, 3);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	return g;
}

enum { LDS_LIMIT = 65536 }; /* bytes per workgroup on gfx9 (and Hygon's DCUs) */

static void finish_kernel(cg *c, LLVMValueRef fn, int threads, LLVMValueRef smem, int64_t bytes)
{
	if (bytes > LDS_LIMIT)
		cg_fail(c, NULL, "kernel '%s' needs %lld bytes of LDS (shared memory); AMD GPUs have %d "
				 "per workgroup: use smaller blocks",
			LLVMGetValueName(fn), (long long)bytes, LDS_LIMIT);
	if (LLVMGetFirstUse(smem)) {
		char name[300];
		snprintf(name, sizeof name, "%.250s.lds", LLVMGetValueName(fn));
		LLVMTypeRef t = LLVMArrayType2(c->t_i8, (uint64_t)(bytes > 0 ? bytes : 16));
		LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->mod, t, name, 3);
		LLVMSetLinkage(g, LLVMInternalLinkage);
		LLVMSetInitializer(g, LLVMGetUndef(t));
		LLVMSetAlignment(g, 16);
		LLVMReplaceAllUsesWith(smem, g);
	}
	LLVMDeleteGlobal(smem);
	LLVMSetFunctionCallConv(fn, LLVMAMDGPUKERNELCallConv);
	char wg[32];
	snprintf(wg, sizeof wg, "1,%d", threads);
	LLVMAddTargetDependentFunctionAttr(fn, "amdgpu-flat-work-group-size", wg);
	LLVMAddTargetDependentFunctionAttr(fn, "uniform-work-group-size", "true");
}

const gpu_isa amdgpu_isa = {
    .family = "amdgcn",
    .param_addrspace = 1,
    .static_smem = true,
    .thread_id = thread_id,
    .program_id = program_id,
    .num_programs = num_programs,
    .barrier = barrier,
    .shfl_xor = shfl_xor,
    .masked_load = NULL,
    .math = math,
    .fdiv = NULL,
    .atomic = amdgpu_atomic,
    .mfma = amdgpu_mfma,
    .fdot2 = amdgpu_fdot2,
    .sdot4 = amdgpu_sdot4,
    .assert_fail = assert_fail,
    .smem_begin = smem_begin,
    .finish_kernel = finish_kernel,
};
