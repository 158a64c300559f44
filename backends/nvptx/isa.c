/* isa.c: what the GPU lowering needs of NVIDIA GPUs (codegen/gpu_isa.h): NVVM intrinsics
 * for thread and program indices, barriers and shuffles; inline PTX where LLVM 19 has no
 * form for what Triton emits (predicated loads, div.full); libdevice for the math that
 * has no approximate instruction. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "backends/nvptx/nvptx.h"
#include "codegen/gpu_isa.h"

static LLVMValueRef thread_id(cg *c)
{
	return cg_call0(c, "llvm.nvvm.read.ptx.sreg.tid.x");
}

static LLVMValueRef program_id(cg *c, int axis)
{
	static const char *const names[3] = {"llvm.nvvm.read.ptx.sreg.ctaid.x",
					     "llvm.nvvm.read.ptx.sreg.ctaid.y",
					     "llvm.nvvm.read.ptx.sreg.ctaid.z"};
	return cg_call0(c, names[axis]);
}

static LLVMValueRef num_programs(cg *c, int axis)
{
	static const char *const names[3] = {"llvm.nvvm.read.ptx.sreg.nctaid.x",
					     "llvm.nvvm.read.ptx.sreg.nctaid.y",
					     "llvm.nvvm.read.ptx.sreg.nctaid.z"};
	return cg_call0(c, names[axis]);
}

static void barrier(cg *c)
{
	cg_call0(c, "llvm.nvvm.barrier0");
}

static LLVMValueRef shfl_xor(cg *c, LLVMValueRef x, int mask, int warp, LLVMValueRef tid)
{
	(void)tid;
	bool fl = LLVMTypeOf(x) == c->t_f32;
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, fl ? "llvm.nvvm.shfl.sync.bfly.f32" : "llvm.nvvm.shfl.sync.bfly.i32",
				      NULL, 0, &fty);
	LLVMValueRef args[4] = {cg_i32(c, -1), x, cg_i32(c, mask), cg_i32(c, warp - 1)};
	return LLVMBuildCall2(c->b, fty, f, args, 4, "");
}

static LLVMValueRef warp_uniform(cg *c, LLVMValueRef x)
{
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, "llvm.nvvm.shfl.sync.idx.i32", NULL, 0, &fty);
	LLVMValueRef args[4] = {cg_i32(c, -1), x, cg_i32(c, 0), cg_i32(c, 31)};
	return LLVMBuildCall2(c->b, fty, f, args, 4, "");
}

/* A masked load of 4, 8 or 16 bytes as one predicated PTX instruction, as Triton emits it:
 * the destination words start as `other` and `@p ld.global` overwrites them. LLVM would
 * otherwise branch around the load; on the H200 this moved layernorm from 0.88x to 0.95x
 * Triton (docs/perf.md). Marked as having side effects so that it stays in order with the
 * kernel's stores. */
static LLVMValueRef masked_load(cg *c, LLVMValueRef p, LLVMTypeRef t, LLVMValueRef m,
				LLVMValueRef other, int bytes)
{
	int nw = bytes / 4;
	LLVMTypeRef wt = LLVMVectorType(c->t_i32, (unsigned)nw);
	LLVMValueRef ow = LLVMBuildBitCast(c->b, other, nw == 1 ? c->t_i32 : wt, "");
	char text[256];
	static const char *const dst[] = {"", "$0", "{$0, $1}", "", "{$0, $1, $2, $3}"};
	static const char *const vec[] = {"", "", ".v2", "", ".v4"};
	int n = 0;
	for (int i = 0; i < nw; i++)
		n += snprintf(text + n, sizeof text - (size_t)n, "mov.b32 $%d, $%d;\n\t", i, nw + 2 + i);
	snprintf(text + n, sizeof text - (size_t)n, "@$%d ld.global%s.b32 %s, [$%d];", nw + 1, vec[nw],
		 dst[nw], nw);
	char cons[64];
	n = 0;
	for (int i = 0; i < nw; i++)
		n += snprintf(cons + n, sizeof cons - (size_t)n, "=r,");
	n += snprintf(cons + n, sizeof cons - (size_t)n, "l,b");
	for (int i = 0; i < nw; i++)
		n += snprintf(cons + n, sizeof cons - (size_t)n, ",r");
	LLVMTypeRef words[4] = {c->t_i32, c->t_i32, c->t_i32, c->t_i32};
	LLVMTypeRef rt = nw == 1 ? c->t_i32 : LLVMStructTypeInContext(c->ctx, words, (unsigned)nw, 0);
	LLVMTypeRef args[6] = {c->t_ptr, c->t_i1};
	LLVMValueRef argv[6] = {p, m};
	for (int i = 0; i < nw; i++) {
		args[2 + i] = c->t_i32;
		argv[2 + i] = nw == 1 ? ow : LLVMBuildExtractElement(c->b, ow, cg_i32(c, i), "");
	}
	LLVMTypeRef ft = LLVMFunctionType(rt, args, (unsigned)(2 + nw), 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, ft, fn, argv, (unsigned)(2 + nw), "");
	if (nw == 1)
		return LLVMBuildBitCast(c->b, r, t, "");
	LLVMValueRef v = LLVMGetPoison(wt);
	for (int i = 0; i < nw; i++)
		v = LLVMBuildInsertElement(c->b, v, LLVMBuildExtractValue(c->b, r, (unsigned)i, ""),
					   cg_i32(c, i), "");
	return LLVMBuildBitCast(c->b, v, t, "");
}

/* fp32: the approximate instructions Triton uses (ex2.approx.ftz, lg2.approx, sin.approx,
 * sqrt.approx, rsqrt.approx); tanh, erf, the rest of libdevice's functions and fp64:
 * libdevice's __nv_* functions, linked into the module by emit.c. NULL for the rest (the
 * generic lowering: floor, ceil, trunc, round, rint and nearbyint are PTX instructions). */
static LLVMValueRef math(cg *c, const ir_op *op, LLVMValueRef *a)
{
	LLVMValueRef x = a[0];
	bool f64 = LLVMTypeOf(x) == c->t_f64;
	const char *name = NULL;
	LLVMValueRef arg = x;
	double post = 1.0;
	if (!f64) {
		switch (op->code) {
		case IR_OP_EXP: /* both flush subnormals, as Triton's (ex2.approx.ftz.f32) */
			name = "llvm.nvvm.ex2.approx.ftz.f";
			arg = LLVMBuildFMul(c->b, x, LLVMConstReal(c->t_f32, 1.4426950408889634), "");
			break;
		case IR_OP_EXP2: name = "llvm.nvvm.ex2.approx.ftz.f"; break;
		case IR_OP_LOG: name = "llvm.nvvm.lg2.approx.f"; post = 0.6931471805599453; break;
		case IR_OP_LOG2: name = "llvm.nvvm.lg2.approx.f"; break;
		case IR_OP_SIN: name = "llvm.nvvm.sin.approx.f"; break;
		case IR_OP_COS: name = "llvm.nvvm.cos.approx.f"; break;
		case IR_OP_RSQRT: name = "llvm.nvvm.rsqrt.approx.f"; break;
		case IR_OP_SQRT: /* tl.sqrt; tl.sqrt_rn ({precise}) is llvm.sqrt, sqrt.rn */
			if (!ir_op_int(op, "precise", 0))
				name = "llvm.nvvm.sqrt.approx.ftz.f";
			break;
		default: break;
		}
		if (name) {
			LLVMTypeRef fty;
			LLVMValueRef f = cg_intrinsic(c, name, NULL, 0, &fty);
			LLVMValueRef r = LLVMBuildCall2(c->b, fty, f, &arg, 1, "");
			return post != 1.0 ? LLVMBuildFMul(c->b, r, LLVMConstReal(c->t_f32, post), "") : r;
		}
	}
	/* {fp32, fp64}; `always`: libdevice for fp32 too */
	static const struct {
		const char *name[2];
		bool always;
	} lib[] = {
	    [IR_OP_EXP] = {{"__nv_expf", "__nv_exp"}, false},
	    [IR_OP_EXP2] = {{"__nv_exp2f", "__nv_exp2"}, false},
	    [IR_OP_LOG] = {{"__nv_logf", "__nv_log"}, false},
	    [IR_OP_LOG2] = {{"__nv_log2f", "__nv_log2"}, false},
	    [IR_OP_RSQRT] = {{"__nv_rsqrtf", "__nv_rsqrt"}, false},
	    [IR_OP_SIN] = {{"__nv_sinf", "__nv_sin"}, false},
	    [IR_OP_COS] = {{"__nv_cosf", "__nv_cos"}, false},
	    [IR_OP_TANH] = {{"__nv_tanhf", "__nv_tanh"}, true},
	    [IR_OP_ERF] = {{"__nv_erff", "__nv_erf"}, true},
	    [IR_OP_TAN] = {{"__nv_tanf", "__nv_tan"}, true},
	    [IR_OP_ASIN] = {{"__nv_asinf", "__nv_asin"}, true},
	    [IR_OP_ACOS] = {{"__nv_acosf", "__nv_acos"}, true},
	    [IR_OP_ATAN] = {{"__nv_atanf", "__nv_atan"}, true},
	    [IR_OP_SINH] = {{"__nv_sinhf", "__nv_sinh"}, true},
	    [IR_OP_COSH] = {{"__nv_coshf", "__nv_cosh"}, true},
	    [IR_OP_LOG1P] = {{"__nv_log1pf", "__nv_log1p"}, true},
	    [IR_OP_EXPM1] = {{"__nv_expm1f", "__nv_expm1"}, true},
	    [IR_OP_LOG10] = {{"__nv_log10f", "__nv_log10"}, true},
	    [IR_OP_EXP10] = {{"__nv_exp10f", "__nv_exp10"}, true},
	    [IR_OP_CBRT] = {{"__nv_cbrtf", "__nv_cbrt"}, true},
	    [IR_OP_ERFINV] = {{"__nv_erfinvf", "__nv_erfinv"}, true},
	    [IR_OP_POW] = {{"__nv_powf", "__nv_pow"}, true},
	    [IR_OP_ATAN2] = {{"__nv_atan2f", "__nv_atan2"}, true},
	    [IR_OP_FMOD] = {{"__nv_fmodf", "__nv_fmod"}, true},
	    [IR_OP_HYPOT] = {{"__nv_hypotf", "__nv_hypot"}, true},
	    [IR_OP_LDEXP] = {{"__nv_ldexpf", "__nv_ldexp"}, true},
	    [IR_OP_ILOGB] = {{"__nv_ilogbf", "__nv_ilogb"}, true},
	};
	if ((size_t)op->code >= sizeof lib / sizeof lib[0] || !lib[op->code].name[0])
		return NULL;
	if (!lib[op->code].always && !f64)
		return NULL;
	const char *fn = lib[op->code].name[f64];
	if (op->code == IR_OP_ILOGB) { /* 0 and NaN: INT_MIN, as on the other targets */
		LLVMValueRef r = cg_call_ext(c, fn, c->t_i32, a, 1);
		LLVMValueRef z = LLVMBuildFCmp(c->b, LLVMRealUEQ, x, LLVMConstNull(LLVMTypeOf(x)), "");
		return LLVMBuildSelect(c->b, z, cg_i32(c, INT32_MIN), r, "");
	}
	return cg_call_ext(c, fn, LLVMTypeOf(x), a, (unsigned)op->noperands);
}

/* fp32 `/` as Triton compiles it: div.full.f32 (2 ulp, no slow path); tl.div_rn and
 * fdiv(ieee_rounding=True) carry {precise} and stay IEEE (div.rn). LLVM 19 has no
 * intrinsic for it. */
static LLVMValueRef fdiv(cg *c, const ir_op *op, LLVMValueRef x, LLVMValueRef y)
{
	(void)op;
	static const char text[] = "div.full.f32 $0, $1, $2;", cons[] = "=f,f,f";
	LLVMTypeRef args[2] = {c->t_f32, c->t_f32};
	LLVMTypeRef ft = LLVMFunctionType(c->t_f32, args, 2, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, sizeof text - 1, (char *)cons, sizeof cons - 1,
					   0, 0, LLVMInlineAsmDialectATT, 0);
	LLVMValueRef argv[2] = {x, y};
	return LLVMBuildCall2(c->b, ft, fn, argv, 2, "");
}

/* CUDA's device-side assert: __assertfail (which ptxas and the driver provide) prints the
 * message with the thread and block and stops the kernel; the launch's synchronize then
 * fails with CUDA_ERROR_ASSERT. */
static void assert_fail(cg *c, const char *msg, const char *file, int line, const char *func)
{
	LLVMTypeRef pt[5] = {c->t_ptr, c->t_ptr, c->t_i32, c->t_ptr, c->t_i64};
	LLVMTypeRef fty = LLVMFunctionType(c->t_void, pt, 5, 0);
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, "__assertfail");
	if (!f)
		f = LLVMAddFunction(c->mod, "__assertfail", fty);
	LLVMValueRef args[5] = {LLVMBuildGlobalStringPtr(c->b, msg, "msg"), LLVMBuildGlobalStringPtr(c->b, file, "file"),
				cg_i32(c, line), LLVMBuildGlobalStringPtr(c->b, func, "fn"), cg_i64(c, 1)};
	LLVMBuildCall2(c->b, fty, f, args, 5, "");
}

/* One dynamic shared-memory array for every kernel of the module; its size is a launch
 * parameter (the metadata's shared=). */
static LLVMValueRef smem_begin(cg *c, LLVMValueRef fn)
{
	(void)fn;
	LLVMValueRef sm = LLVMGetNamedGlobal(c->mod, "tilecc_smem");
	if (!sm) {
		sm = LLVMAddGlobalInAddressSpace(c->mod, LLVMArrayType2(c->t_i8, 0), "tilecc_smem", 3);
		LLVMSetLinkage(sm, LLVMExternalLinkage);
		LLVMSetAlignment(sm, 1024); /* the 128B swizzle pattern of wgmma's operands */
	}
	return sm;
}

static void annotate(cg *c, LLVMValueRef fn, const char *key, int64_t v)
{
	LLVMMetadataRef ops[3] = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(c->ctx, key, strlen(key)),
				  LLVMValueAsMetadata(cg_i32(c, v))};
	LLVMAddNamedMetadataOperand(c->mod, "nvvm.annotations",
				    LLVMMetadataAsValue(c->ctx, LLVMMDNodeInContext2(c->ctx, ops, 3)));
}

static void finish_kernel(cg *c, LLVMValueRef fn, int threads, LLVMValueRef smem, int64_t bytes)
{
	(void)smem;
	(void)bytes;
	annotate(c, fn, "kernel", 1);
	annotate(c, fn, "maxntidx", threads);
}

const gpu_isa nvptx_isa = {
    .family = "nvptx",
    .param_addrspace = 0,
    .thread_id = thread_id,
    .program_id = program_id,
    .num_programs = num_programs,
    .barrier = barrier,
    .shfl_xor = shfl_xor,
    .warp_uniform = warp_uniform,
    .masked_load = masked_load,
    .math = math,
    .fdiv = fdiv,
    .atomic = nvptx_atomic,
    .ldmatrix = nvptx_ldmatrix,
    .stmatrix = nvptx_stmatrix,
    .mma = nvptx_mma,
    .cp_async = nvptx_cp_async,
    .wide_offset = nvptx_wide_offset,
    .cp_async_commit = nvptx_cp_async_commit,
    .cp_async_wait = nvptx_cp_async_wait,
    .wgmma_fence = nvptx_wgmma_fence,
    .wgmma = nvptx_wgmma,
    .wgmma_rs = nvptx_wgmma_rs,
    .wgmma_commit = nvptx_wgmma_commit,
    .wgmma_wait = nvptx_wgmma_wait,
    .fence_proxy_async = nvptx_fence_proxy_async,
    .narrow_pair = nvptx_narrow_pair,
    .assert_fail = assert_fail,
    .smem_begin = smem_begin,
    .finish_kernel = finish_kernel,
};
