/* scalar.c: one element of an element-wise op, as LLVM instructions. Shared by every
 * lowering: the CPU loops call it per element, reductions call it inside their combine
 * regions, and the GPU lowerings will call it for the elements a thread owns.
 *
 * Semantics chosen here (documented in docs/abi.md): integer division and remainder by
 * zero give 0 rather than trapping, and INT_MIN / -1 gives INT_MIN, because masked-off
 * lanes of a tile are computed too; shifts by the bit width or more give 0 (or the sign
 * for arithmetic right shifts), like PTX; float-to-int conversions saturate (NaN -> 0). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codegen/cg.h"
#include "codegen/gpu_isa.h"

_Noreturn void cg_fail(cg *c, const ir_op *op, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* without an op, the function being lowered is where the problem is */
	diag_error(c->d, op ? op->loc : c->f ? c->f->loc : SRCLOC_NONE, "%s", buf);
	longjmp(*c->fail, 1);
}

LLVMTypeRef cg_scalar_type(cg *c, const ir_type *t)
{
	switch (t->kind) {
	case IR_I1: return c->t_i1;
	case IR_I8: case IR_U8: case IR_F8E4NV: case IR_F8E5: return c->t_i8;
	case IR_I16: case IR_U16: return c->t_i16;
	case IR_I32: case IR_U32: return c->t_i32;
	case IR_I64: case IR_U64: return c->t_i64;
	case IR_F16: return c->t_f16;
	case IR_BF16: return c->t_bf16;
	case IR_F32: return c->t_f32;
	case IR_F64: return c->t_f64;
	case IR_PTR: return c->t_ptr;
	default: return c->t_ptr; /* tiles are buffers, passed by pointer */
	}
}

LLVMTypeRef cg_mem_type(cg *c, const ir_type *t)
{
	return t->kind == IR_I1 ? c->t_i8 : cg_scalar_type(c, t);
}

LLVMValueRef cg_const_int(cg *c, LLVMTypeRef t, int64_t v)
{
	(void)c;
	return LLVMConstInt(t, (unsigned long long)v, 1);
}

LLVMValueRef cg_i64(cg *c, int64_t v)
{
	return LLVMConstInt(c->t_i64, (unsigned long long)v, 1);
}

LLVMValueRef cg_i32(cg *c, int64_t v)
{
	return LLVMConstInt(c->t_i32, (unsigned long long)v, 1);
}

LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef *tys, int ntys, LLVMTypeRef *fnty)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	if (!id)
		cg_fail(c, NULL, "internal: unknown LLVM intrinsic %s", name);
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(c->mod, id, tys, (size_t)ntys);
	*fnty = LLVMIntrinsicGetType(c->ctx, id, tys, (size_t)ntys);
	return f;
}

LLVMValueRef cg_call0(cg *c, const char *name)
{
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, name, NULL, 0, &fty);
	return LLVMBuildCall2(c->b, fty, f, NULL, 0, "");
}

LLVMValueRef cg_call_ext(cg *c, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n)
{
	LLVMTypeRef at[4];
	for (unsigned i = 0; i < n && i < 4; i++)
		at[i] = LLVMTypeOf(args[i]);
	LLVMTypeRef fty = LLVMFunctionType(ret, at, n, 0);
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	if (!f)
		f = LLVMAddFunction(c->mod, name, fty);
	return LLVMBuildCall2(c->b, fty, f, args, n, "");
}

LLVMValueRef cg_call_ext1(cg *c, const char *name, LLVMValueRef x)
{
	return cg_call_ext(c, name, LLVMTypeOf(x), &x, 1);
}

static LLVMValueRef call1(cg *c, const char *name, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x), fty;
	LLVMValueRef f = cg_intrinsic(c, name, &t, 1, &fty);
	return LLVMBuildCall2(c->b, fty, f, &x, 1, "");
}

/* Fast-math flags of an arithmetic op. Inside a reduction's combine region floating-point
 * ops may be reassociated: Triton reduces in a tree on GPUs, so no order is promised, and
 * this lets LLVM vectorize. On GPUs a multiply and an add may contract into one fma, as
 * with Triton's default (enable_fp_fusion); CPU targets keep them separate. */
static LLVMValueRef fm(cg *c, LLVMValueRef v)
{
	LLVMFastMathFlags f = 0;
	if (c->reassoc)
		f |= LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros;
	if (c->gpu)
		f |= LLVMFastMathAllowContract; /* Triton fuses a * b + c into fma on GPUs */
	if (f && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
		LLVMSetFastMathFlags(v, f);
	return v;
}

static LLVMValueRef call2(cg *c, const char *name, LLVMValueRef x, LLVMValueRef y)
{
	LLVMTypeRef t = LLVMTypeOf(x), fty;
	LLVMValueRef f = cg_intrinsic(c, name, &t, 1, &fty);
	LLVMValueRef a[2] = {x, y};
	return fm(c, LLVMBuildCall2(c->b, fty, f, a, 2, ""));
}

/* A libm function on float or double (for what LLVM has no intrinsic). */
static LLVMValueRef libm1(cg *c, const char *fname, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	char name[32];
	snprintf(name, sizeof name, "%s%s", fname, t == c->t_f32 ? "f" : "");
	LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
	if (!f)
		f = LLVMAddFunction(c->mod, name, fty);
	return LLVMBuildCall2(c->b, fty, f, &x, 1, "");
}

/* The innermost for or while op around op, NULL outside loops. */
static const ir_op *enclosing_loop(const ir_op *op)
{
	for (const ir_block *b = op->parent; b && b->parent; b = b->parent->parent)
		if (b->parent->code == IR_OP_FOR || b->parent->code == IR_OP_WHILE)
			return b->parent;
	return NULL;
}

/* Whether block b lies in a region of op, at any depth. */
static bool block_within(const ir_block *b, const ir_op *op)
{
	for (; b && b->parent; b = b->parent->parent)
		if (b->parent == op)
			return true;
	return false;
}

/* Whether v has one value in every iteration of loop: defined outside it, or computed in it
 * by pure ops (a few levels deep) from such values, as `b_ptrs += BLOCK_K * stride_bk` is. */
static bool loop_invariant(const ir_value *v, const ir_op *loop, int depth)
{
	if (!v->def)
		return !block_within(v->block, loop);
	if (!block_within(v->def->parent, loop))
		return true;
	if (depth == 0 || !(ir_ops[v->def->code].traits & T_PURE) || v->def->nregions)
		return false;
	for (int i = 0; i < v->def->noperands; i++)
		if (!loop_invariant(v->def->operands[i], loop, depth - 1))
			return false;
	return true;
}

/* Whether v is a tile of one value: a splat. */
static bool uniform(const ir_value *v)
{
	return v->def && v->def->code == IR_OP_SPLAT;
}

static bool is_signed(const ir_type *t)
{
	return ir_type_is_signed(t);
}

/* a / b or a % b that never traps: b == 0 gives 0, INT_MIN / -1 gives INT_MIN (rem 0). */
static LLVMValueRef safe_div(cg *c, bool rem, bool sgn, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef zero = LLVMConstInt(t, 0, 0), one = LLVMConstInt(t, 1, 0);
	LLVMValueRef bz = LLVMBuildICmp(c->b, LLVMIntEQ, b, zero, "");
	LLVMValueRef d = LLVMBuildSelect(c->b, bz, one, b, "");
	if (sgn) {
		/* INT_MIN / -1 overflows: divide by 1 instead (gives INT_MIN, remainder 0) */
		LLVMValueRef m1 = LLVMConstAllOnes(t);
		LLVMValueRef neg = LLVMBuildICmp(c->b, LLVMIntEQ, d, m1, "");
		d = LLVMBuildSelect(c->b, neg, one, d, "");
		LLVMValueRef q = rem ? LLVMBuildSRem(c->b, a, d, "") : LLVMBuildSDiv(c->b, a, d, "");
		if (!rem)
			q = LLVMBuildSelect(c->b, neg, LLVMBuildNeg(c->b, a, ""), q, "");
		else
			q = LLVMBuildSelect(c->b, neg, zero, q, "");
		return LLVMBuildSelect(c->b, bz, zero, q, "");
	}
	LLVMValueRef q = rem ? LLVMBuildURem(c->b, a, d, "") : LLVMBuildUDiv(c->b, a, d, "");
	return LLVMBuildSelect(c->b, bz, zero, q, "");
}

static LLVMValueRef shift(cg *c, ir_opcode code, bool sgn, LLVMValueRef a, LLVMValueRef n)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	unsigned bits = LLVMGetIntTypeWidth(t);
	LLVMValueRef w = LLVMConstInt(t, bits, 0);
	LLVMValueRef big = LLVMBuildICmp(c->b, LLVMIntUGE, n, w, "");
	LLVMValueRef safe = LLVMBuildSelect(c->b, big, LLVMConstInt(t, 0, 0), n, "");
	LLVMValueRef r;
	if (code == IR_OP_SHLI) {
		r = LLVMBuildShl(c->b, a, safe, "");
		return LLVMBuildSelect(c->b, big, LLVMConstInt(t, 0, 0), r, "");
	}
	if (sgn) {
		LLVMValueRef fill = LLVMBuildAShr(c->b, a, LLVMConstInt(t, bits - 1, 0), "");
		r = LLVMBuildAShr(c->b, a, safe, "");
		return LLVMBuildSelect(c->b, big, fill, r, "");
	}
	r = LLVMBuildLShr(c->b, a, safe, "");
	return LLVMBuildSelect(c->b, big, LLVMConstInt(t, 0, 0), r, "");
}

static LLVMIntPredicate ipred(const char *p, bool sgn)
{
	if (!strcmp(p, "eq")) return LLVMIntEQ;
	if (!strcmp(p, "ne")) return LLVMIntNE;
	if (!strcmp(p, "lt")) return sgn ? LLVMIntSLT : LLVMIntULT;
	if (!strcmp(p, "le")) return sgn ? LLVMIntSLE : LLVMIntULE;
	if (!strcmp(p, "gt")) return sgn ? LLVMIntSGT : LLVMIntUGT;
	return sgn ? LLVMIntSGE : LLVMIntUGE;
}

static LLVMRealPredicate fpred(const char *p)
{
	static const struct {
		const char *s;
		LLVMRealPredicate p;
	} t[] = {
	    {"oeq", LLVMRealOEQ}, {"one", LLVMRealONE}, {"olt", LLVMRealOLT}, {"ole", LLVMRealOLE},
	    {"ogt", LLVMRealOGT}, {"oge", LLVMRealOGE}, {"ueq", LLVMRealUEQ}, {"une", LLVMRealUNE},
	    {"ult", LLVMRealULT}, {"ule", LLVMRealULE}, {"ugt", LLVMRealUGT}, {"uge", LLVMRealUGE},
	    {"ord", LLVMRealORD}, {"uno", LLVMRealUNO},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].s, p))
			return t[i].p;
	return LLVMRealUNO;
}

static const char *str_attr(const ir_op *op, const char *name, const char *dflt)
{
	const ir_attr *a = ir_op_attr(op, name);
	return a && a->kind == IR_ATTR_STR ? a->s : dflt;
}

static bool is_fp8(const ir_type *t)
{
	return t->kind == IR_F8E4NV || t->kind == IR_F8E5;
}

/* fp8 <-> fp32 through integer bit manipulation (LLVM has no fp8 types).
 * e5m2 is the top byte of an fp16; e4m3fn (bias 7, no infinities, 0x7f/0xff are NaN). */
static LLVMValueRef fp8_to_f32(cg *c, LLVMValueRef v, const ir_type *from)
{
	LLVMBuilderRef b = c->b;
	if (from->kind == IR_F8E5) {
		LLVMValueRef w = LLVMBuildShl(b, LLVMBuildZExt(b, v, c->t_i16, ""),
					      LLVMConstInt(c->t_i16, 8, 0), "");
		return LLVMBuildFPExt(b, LLVMBuildBitCast(b, w, c->t_f16, ""), c->t_f32, "");
	}
	/* e4m3fn: value = (-1)^s * 2^(e-7) * (1 + m/8), subnormal e == 0: 2^-6 * m/8. Built
	 * from bits (no exp2, which some targets, NVPTX, only approximate): a normal number is
	 * the fp32 of exponent e - 7 + 127 and mantissa m << 20, a subnormal m * 2^-9. */
	LLVMValueRef x = LLVMBuildZExt(b, v, c->t_i32, "");
	LLVMValueRef s = LLVMBuildAnd(b, x, cg_i32(c, 0x80), "");
	LLVMValueRef e = LLVMBuildAnd(b, LLVMBuildLShr(b, x, cg_i32(c, 3), ""), cg_i32(c, 15), "");
	LLVMValueRef m = LLVMBuildAnd(b, x, cg_i32(c, 7), "");
	LLVMValueRef nbits = LLVMBuildOr(b, LLVMBuildShl(b, LLVMBuildAdd(b, e, cg_i32(c, 120), ""), cg_i32(c, 23), ""),
					 LLVMBuildShl(b, m, cg_i32(c, 20), ""), "");
	LLVMValueRef norm = LLVMBuildBitCast(b, nbits, c->t_f32, "");
	LLVMValueRef sub = LLVMBuildFMul(b, LLVMConstReal(c->t_f32, 1.0 / 512.0), LLVMBuildUIToFP(b, m, c->t_f32, ""), "");
	LLVMValueRef isz = LLVMBuildICmp(b, LLVMIntEQ, e, cg_i32(c, 0), "");
	LLVMValueRef mag = LLVMBuildSelect(b, isz, sub, norm, "");
	LLVMValueRef isnan = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, x, cg_i32(c, 0x7f), ""),
					   cg_i32(c, 0x7f), "");
	mag = LLVMBuildSelect(b, isnan, LLVMConstReal(c->t_f32, __builtin_nan("")), mag, "");
	LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntNE, s, cg_i32(c, 0), "");
	return LLVMBuildSelect(b, neg, LLVMBuildFNeg(b, mag, ""), mag, "");
}

static LLVMValueRef f32_to_fp8(cg *c, LLVMValueRef v, const ir_type *to)
{
	LLVMBuilderRef b = c->b;
	if (to->kind == IR_F8E5) {
		/* round the fp16 to 8 bits, to nearest even */
		LLVMValueRef h = LLVMBuildBitCast(b, LLVMBuildFPTrunc(b, v, c->t_f16, ""), c->t_i16, "");
		LLVMValueRef lsb = LLVMBuildAnd(b, LLVMBuildLShr(b, h, LLVMConstInt(c->t_i16, 8, 0), ""),
						LLVMConstInt(c->t_i16, 1, 0), "");
		LLVMValueRef r = LLVMBuildAdd(b, h, LLVMBuildAdd(b, LLVMConstInt(c->t_i16, 0x7f, 0), lsb, ""), "");
		LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
		r = LLVMBuildSelect(b, isnan, LLVMConstInt(c->t_i16, 0x7f00, 0), r, "");
		return LLVMBuildTrunc(b, LLVMBuildLShr(b, r, LLVMConstInt(c->t_i16, 8, 0), ""), c->t_i8, "");
	}
	/* e4m3fn by search-free arithmetic: clamp to 448, scale into the format's grid and
	 * round to nearest even with rint */
	LLVMValueRef a = call1(c, "llvm.fabs", v);
	LLVMValueRef cl = call2(c, "llvm.minnum", a, LLVMConstReal(c->t_f32, 448.0));
	/* exponent of the value, floored at the subnormal range (2^-6) */
	LLVMValueRef lg = call1(c, "llvm.floor", call1(c, "llvm.log2", cl));
	lg = call2(c, "llvm.maxnum", lg, LLVMConstReal(c->t_f32, -6.0));
	LLVMValueRef step = call1(c, "llvm.exp2", LLVMBuildFSub(b, lg, LLVMConstReal(c->t_f32, 3.0), ""));
	LLVMValueRef q = LLVMBuildFMul(b, call1(c, "llvm.rint", LLVMBuildFDiv(b, cl, step, "")), step, "");
	/* re-derive exponent and mantissa from the rounded value */
	LLVMValueRef lg2 = call1(c, "llvm.floor", call1(c, "llvm.log2", q));
	lg2 = call2(c, "llvm.maxnum", lg2, LLVMConstReal(c->t_f32, -6.0));
	LLVMValueRef isz = LLVMBuildFCmp(b, LLVMRealOLT, q, LLVMConstReal(c->t_f32, 1.0 / 64.0), "");
	LLVMValueRef e = LLVMBuildSelect(b, isz, cg_i32(c, 0),
					 LLVMBuildAdd(b, LLVMBuildFPToSI(b, lg2, c->t_i32, ""), cg_i32(c, 7), ""), "");
	LLVMValueRef mant = LLVMBuildFDiv(b, q, call1(c, "llvm.exp2", lg2), "");
	LLVMValueRef mnorm = LLVMBuildFMul(b, LLVMBuildFSub(b, mant, LLVMConstReal(c->t_f32, 1.0), ""),
					   LLVMConstReal(c->t_f32, 8.0), "");
	LLVMValueRef msub = LLVMBuildFMul(b, q, LLVMConstReal(c->t_f32, 512.0), "");
	LLVMValueRef m = LLVMBuildFPToSI(b, LLVMBuildSelect(b, isz, msub, mnorm, ""), c->t_i32, "");
	LLVMValueRef bits = LLVMBuildOr(b, LLVMBuildShl(b, e, cg_i32(c, 3), ""), m, "");
	LLVMValueRef zero = LLVMBuildFCmp(b, LLVMRealOEQ, q, LLVMConstReal(c->t_f32, 0.0), "");
	bits = LLVMBuildSelect(b, zero, cg_i32(c, 0), bits, "");
	LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
	bits = LLVMBuildSelect(b, isnan, cg_i32(c, 0x7f), bits, "");
	LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildLShr(b, LLVMBuildBitCast(b, v, c->t_i32, ""),
							  cg_i32(c, 24), ""), cg_i32(c, 0x80), "");
	return LLVMBuildTrunc(b, LLVMBuildOr(b, bits, sign, ""), c->t_i8, "");
}

static LLVMValueRef half_bits_to_f32(cg *c, LLVMValueRef h);
static LLVMValueRef f32_to_half_bits(cg *c, LLVMValueRef f);

/* v as x + k, through adds of constants (x + k1 + k2 ...); NULL when v is no such add. */
static LLVMValueRef add_const(LLVMValueRef v, long long *k)
{
	LLVMValueRef x = NULL;
	*k = 0;
	while (LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAdd &&
	       LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
		*k += LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
		x = v = LLVMGetOperand(v, 0);
	}
	return x;
}

/* The widening of an `exti {wrap_free}` (a descriptor's offset + arange, only ever an
 * address of an access under the mask that says it is in bounds, so it did not wrap
 * where it matters): a + (x + k) as ext(a + x) + k, the slot's constant k apart in 64
 * bits. Each thread then computes one address per row of lanes, and its slots are that
 * address plus immediates. Only for k >= 0 (a range's slot constants): where the mask
 * holds, 0 <= a + x + k < shape <= INT32_MAX, so a + x lies in [-k, INT32_MAX) and does
 * not wrap either; a negative k (an offset such as `om - 5`) could push a + x past
 * INT32_MAX. */
static LLVMValueRef ext_wrap_free(cg *c, LLVMValueRef v, LLVMTypeRef tt, bool sgn)
{
	LLVMBuilderRef b = c->b;
	long long k = 0;
	LLVMValueRef x = add_const(v, &k), y;
	if (!x && LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == LLVMAdd) {
		LLVMValueRef a0 = LLVMGetOperand(v, 0), a1 = LLVMGetOperand(v, 1);
		if ((y = add_const(a1, &k)) != NULL)
			x = LLVMBuildAdd(b, a0, y, "");
		else if ((y = add_const(a0, &k)) != NULL)
			x = LLVMBuildAdd(b, y, a1, "");
	}
	if (!x || k < 0) {
		x = v;
		k = 0;
	}
	x = sgn ? LLVMBuildSExt(b, x, tt, "") : LLVMBuildZExt(b, x, tt, "");
	return k ? LLVMBuildAdd(b, x, LLVMConstInt(tt, (unsigned long long)k, 1), "") : x;
}

LLVMValueRef cg_convert(cg *c, const ir_op *op, LLVMValueRef v, const ir_type *from,
			const ir_type *to)
{
	LLVMBuilderRef b = c->b;
	LLVMTypeRef tt = cg_scalar_type(c, to);
	switch (op->code) {
	case IR_OP_EXTI:
		if (ir_op_int(op, "wrap_free", 0))
			return ext_wrap_free(c, v, tt, is_signed(from));
		return is_signed(from) ? LLVMBuildSExt(b, v, tt, "") : LLVMBuildZExt(b, v, tt, "");
	case IR_OP_TRUNCI:
		return LLVMBuildTrunc(b, v, tt, "");
	case IR_OP_ITOF:
		if (is_fp8(to)) {
			LLVMValueRef f = is_signed(from) ? LLVMBuildSIToFP(b, v, c->t_f32, "")
							 : LLVMBuildUIToFP(b, v, c->t_f32, "");
			return f32_to_fp8(c, f, to);
		}
		return is_signed(from) ? LLVMBuildSIToFP(b, v, tt, "") : LLVMBuildUIToFP(b, v, tt, "");
	case IR_OP_FTOI: {
		if (is_fp8(from))
			v = fp8_to_f32(c, v, from);
		LLVMTypeRef tys[2] = {tt, LLVMTypeOf(v)}, fty;
		LLVMValueRef f = cg_intrinsic(c, is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat",
					      tys, 2, &fty);
		return LLVMBuildCall2(b, fty, f, &v, 1, "");
	}
	case IR_OP_EXTF:
		if (c->soft_half && from->kind == IR_F16) {
			/* inline integer code that vectorizes, not a libcall per element */
			LLVMValueRef f = half_bits_to_f32(c, LLVMBuildBitCast(b, v, c->t_i16, ""));
			return to->kind == IR_F32 ? f : LLVMBuildFPExt(b, f, tt, "");
		}
		if (is_fp8(from)) {
			LLVMValueRef f = fp8_to_f32(c, v, from);
			return to->kind == IR_F32 ? f
			       : to->kind == IR_F64 ? LLVMBuildFPExt(b, f, tt, "")
			       : is_fp8(to) ? f32_to_fp8(c, f, to) : LLVMBuildFPTrunc(b, f, tt, "");
		}
		return LLVMBuildFPExt(b, v, tt, "");
	case IR_OP_TRUNCF: {
		const char *r = str_attr(op, "rounding", "rtne");
		if (is_fp8(to)) {
			if (is_fp8(from))
				v = fp8_to_f32(c, v, from);
			else if (from->kind != IR_F32)
				v = LLVMBuildFPCast(b, v, c->t_f32, "");
			return f32_to_fp8(c, v, to);
		}
		if (from->kind == IR_F64 && (to->kind == IR_F16 || to->kind == IR_BF16) && strcmp(r, "rtz")) {
			/* no libcall (__truncdfhf2 is in no library we link): narrow to fp32 with
			 * round-to-odd, after which rounding to the 16-bit format is exact RNE */
			LLVMValueRef f = LLVMBuildFPTrunc(b, v, c->t_f32, "");
			LLVMValueRef fb = LLVMBuildBitCast(b, f, c->t_i32, "");
			LLVMValueRef back = LLVMBuildFPExt(b, f, c->t_f64, "");
			/* toward zero: one ulp back where nearest rounded away */
			LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, call1(c, "llvm.fabs", back),
							  call1(c, "llvm.fabs", v), "");
			LLVMValueRef fin = LLVMBuildFCmp(b, LLVMRealOLE, call1(c, "llvm.fabs", v),
							 LLVMConstReal(c->t_f64, 3.4028234663852886e38), "");
			LLVMValueRef tz = LLVMBuildSelect(b, LLVMBuildAnd(b, away, fin, ""),
							  LLVMBuildSub(b, fb, cg_i32(c, 1), ""), fb, "");
			/* then the sticky bit: odd when anything was dropped */
			LLVMValueRef inexact = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealONE, back, v, ""), fin, "");
			LLVMValueRef bits = LLVMBuildSelect(b, inexact, LLVMBuildOr(b, tz, cg_i32(c, 1), ""), tz, "");
			v = LLVMBuildBitCast(b, bits, c->t_f32, "");
			from = ir_type_scalar(c->f->module->ctx, IR_F32);
			if (to->kind == IR_BF16 || !c->soft_half)
				return LLVMBuildFPTrunc(b, v, tt, "");
		}
		if (c->soft_half && to->kind == IR_F16 && strcmp(r, "rtz")) {
			if (from->kind != IR_F32)
				v = LLVMBuildFPTrunc(b, v, c->t_f32, "");
			return LLVMBuildBitCast(b, f32_to_half_bits(c, v), c->t_f16, "");
		}
		if (!strcmp(r, "rtz")) {
			/* round to nearest, then step one ulp toward zero where that rounded
			 * away from zero (bits - 1 on the magnitude) */
			LLVMValueRef rn = LLVMBuildFPTrunc(b, v, tt, "");
			LLVMValueRef back = LLVMBuildFPExt(b, rn, LLVMTypeOf(v), "");
			LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, call1(c, "llvm.fabs", back),
							  call1(c, "llvm.fabs", v), "");
			LLVMTypeRef it = LLVMIntTypeInContext(c->ctx, LLVMGetTypeKind(tt) == LLVMFloatTypeKind ? 32 : 16);
			LLVMValueRef bits = LLVMBuildBitCast(b, rn, it, "");
			LLVMValueRef dec = LLVMBuildBitCast(b, LLVMBuildSub(b, bits, LLVMConstInt(it, 1, 0), ""), tt, "");
			return LLVMBuildSelect(b, away, dec, rn, "");
		}
		return LLVMBuildFPTrunc(b, v, tt, "");
	}
	case IR_OP_BITCAST:
		if (LLVMTypeOf(v) == tt)
			return v;
		return LLVMBuildBitCast(b, v, tt, "");
	case IR_OP_PTRTOINT:
		return LLVMBuildPtrToInt(b, v, tt, "");
	case IR_OP_INTTOPTR:
		return LLVMBuildIntToPtr(b, v, tt, "");
	default:
		cg_fail(c, op, "internal: '%s' is not a conversion", ir_ops[op->code].name);
	}
}

/* exp and exp2 in fp32 as plain arithmetic, so that LLVM vectorizes them on every target
 * (libm's expf is a scalar call). exp: n = rint(x * log2(e)), r = x - n * ln2 in two parts
 * (Cody-Waite), e^r by its Taylor series to degree 7 (|r| <= 0.35: truncation 6e-9), then
 * scaled by 2^n as two powers of two so that overflow gives inf and underflow goes
 * gradually to 0. exp2 is the same with r = (x - n) * ln2. Measured error <= 2 ulp on the
 * normal range; NaN propagates. Triton's GPU exp (ex2.approx of x * log2(e)) is less
 * accurate for large |x|. */
static LLVMValueRef exp_f32(cg *c, LLVMValueRef x, bool base2)
{
	LLVMBuilderRef b = c->b;
	LLVMTypeRef f = c->t_f32;
#define K(v) LLVMConstReal(f, (v))
	LLVMValueRef xc = call2(c, "llvm.minnum", call2(c, "llvm.maxnum", x, K(-160.0)), K(130.0));
	LLVMValueRef n, r;
	if (base2) {
		n = call1(c, "llvm.rint", xc);
		r = LLVMBuildFMul(b, LLVMBuildFSub(b, xc, n, ""), K(0.6931471805599453), "");
	} else {
		n = call1(c, "llvm.rint", LLVMBuildFMul(b, xc, K(1.4426950408889634), ""));
		r = LLVMBuildFSub(b, xc, LLVMBuildFMul(b, n, K(0.693145751953125), ""), "");
		r = LLVMBuildFSub(b, r, LLVMBuildFMul(b, n, K(1.428606765330187e-06), ""), "");
	}
	/* e^r = 1 + r + r^2/2! + ... + r^7/7!, Horner */
	static const double coef[] = {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0};
	LLVMValueRef p = K(coef[0]);
	for (int i = 1; i < 8; i++)
		p = LLVMBuildFAdd(b, LLVMBuildFMul(b, p, r, ""), K(coef[i]), "");
	/* 2^n = 2^n1 * 2^n2 with both halves normal */
	LLVMValueRef ni = LLVMBuildFPToSI(b, n, c->t_i32, "");
	LLVMValueRef n1 = LLVMBuildAShr(b, ni, cg_i32(c, 1), "");
	LLVMValueRef n2 = LLVMBuildSub(b, ni, n1, "");
	LLVMValueRef s1 = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, n1, cg_i32(c, 127), ""), cg_i32(c, 23), ""), f, "");
	LLVMValueRef s2 = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildAdd(b, n2, cg_i32(c, 127), ""), cg_i32(c, 23), ""), f, "");
	LLVMValueRef res = LLVMBuildFMul(b, LLVMBuildFMul(b, p, s1, ""), s2, "");
	LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
	return LLVMBuildSelect(b, isnan, x, res, "");
#undef K
}

/* libm's name for fname on x's type: "tanf" or "tan" */
static const char *libm_name(cg *c, const char *fname, LLVMValueRef x, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", fname, LLVMTypeOf(x) == c->t_f32 ? "f" : "");
	return buf;
}

/* A libm function of two arguments of one float type. */
static LLVMValueRef libm2(cg *c, const char *fname, LLVMValueRef x, LLVMValueRef y)
{
	char name[32];
	LLVMValueRef a[2] = {x, y};
	return cg_call_ext(c, libm_name(c, fname, x, name, sizeof name), LLVMTypeOf(x), a, 2);
}

/* ilogb from libm (int ilogbf(float), int ilogb(double)), with 0 and NaN giving INT_MIN on
 * every target, as on x86-64 and CUDA (glibc's riscv64 port gives -INT_MAX for 0 and
 * INT_MAX for NaN) */
static LLVMValueRef ilogb_libm(cg *c, LLVMValueRef x)
{
	char name[32];
	LLVMValueRef r = cg_call_ext(c, libm_name(c, "ilogb", x, name, sizeof name), c->t_i32, &x, 1);
	LLVMValueRef zero_or_nan = LLVMBuildFCmp(c->b, LLVMRealUEQ, x, LLVMConstNull(LLVMTypeOf(x)), "");
	return LLVMBuildSelect(c->b, zero_or_nan, cg_i32(c, INT32_MIN), r, "");
}

/* erfinv, which libm lacks, in double: Giles' single-precision approximation ("Approximating
 * the erfinv function", GPU Computing Gems, 2011) to start, then four Newton steps, on
 * erf(x) - |y| for |y| <= 1/2 and on log(erfc(x) / (1 - |y|)) beyond (1 - |y| is exact
 * there, and erfc keeps the precision that erf, rounding to 1, loses). The same algorithm
 * as the AMD device library's (backends/amdgpu/device/devmath.c). */
static LLVMValueRef erfinv_f64(cg *c, LLVMValueRef y)
{
	LLVMBuilderRef b = c->b;
	LLVMTypeRef d = c->t_f64;
#define K(v) LLVMConstReal(d, (v))
	static const double small[] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
				       -4.39150654e-06, 0.00021858087, -0.00125372503,
				       -0.00417768164, 0.246640727,    1.50140941};
	static const double large[] = {-0.000200214257, 0.000100950558, 0.00134934322,
				       -0.00367342844,  0.00573950773,  -0.0076224613,
				       0.00943887047,   1.00167406,     2.83297682};
	LLVMValueRef a = call1(c, "llvm.fabs", y);
	LLVMValueRef t = LLVMBuildFSub(b, K(1.0), a, "");
	LLVMValueRef w = LLVMBuildFNeg(b, libm1(c, "log1p", LLVMBuildFNeg(b, LLVMBuildFMul(b, a, a, ""), "")), "");
	LLVMValueRef w1 = LLVMBuildFSub(b, w, K(2.5), "");
	LLVMValueRef w2 = LLVMBuildFSub(b, call1(c, "llvm.sqrt", w), K(3.0), "");
	LLVMValueRef p1 = K(small[0]), p2 = K(large[0]);
	for (int i = 1; i < 9; i++) {
		p1 = LLVMBuildFAdd(b, LLVMBuildFMul(b, p1, w1, ""), K(small[i]), "");
		p2 = LLVMBuildFAdd(b, LLVMBuildFMul(b, p2, w2, ""), K(large[i]), "");
	}
	LLVMValueRef p = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, w, K(5.0), ""), p1, p2, "");
	LLVMValueRef x = LLVMBuildFMul(b, p, a, "");
	LLVMValueRef centre = LLVMBuildFCmp(b, LLVMRealOLE, a, K(0.5), "");
	for (int i = 0; i < 4; i++) {
		LLVMValueRef e = call1(c, "llvm.exp", LLVMBuildFNeg(b, LLVMBuildFMul(b, x, x, ""), ""));
		LLVMValueRef der = LLVMBuildFMul(b, K(1.1283791670955126), e, ""); /* erf'(x) */
		LLVMValueRef s1 = LLVMBuildFDiv(b, LLVMBuildFSub(b, a, libm1(c, "erf", x), ""), der, "");
		LLVMValueRef cc = libm1(c, "erfc", x);
		LLVMValueRef s2 = LLVMBuildFDiv(b, LLVMBuildFMul(b, call1(c, "llvm.log", LLVMBuildFDiv(b, cc, t, "")), cc, ""), der, "");
		x = LLVMBuildFAdd(b, x, LLVMBuildSelect(b, centre, s1, s2, ""), "");
	}
	LLVMValueRef r = call2(c, "llvm.copysign", x, y);
	LLVMValueRef one = LLVMBuildFCmp(b, LLVMRealOEQ, a, K(1.0), "");
	r = LLVMBuildSelect(b, one, call2(c, "llvm.copysign", K(__builtin_inf()), y), r, "");
	/* y = +-0 gives +-0 (the steps keep x = 0); |y| > 1 and NaN give NaN through log1p */
	return r;
#undef K
}

/* The libm functions (for what LLVM has no intrinsic), by op. */
static const char *const libm_fn[] = {
    [IR_OP_TANH] = "tanh",   [IR_OP_ERF] = "erf",     [IR_OP_TAN] = "tan",
    [IR_OP_ASIN] = "asin",   [IR_OP_ACOS] = "acos",   [IR_OP_ATAN] = "atan",
    [IR_OP_SINH] = "sinh",   [IR_OP_COSH] = "cosh",   [IR_OP_LOG1P] = "log1p",
    [IR_OP_EXPM1] = "expm1", [IR_OP_LOG10] = "log10", [IR_OP_EXP10] = "exp10",
    [IR_OP_CBRT] = "cbrt",   [IR_OP_ATAN2] = "atan2", [IR_OP_HYPOT] = "hypot",
};

/* The math ops of two operands and ilogb: the target's hook first, then LLVM and libm.
 * fp16/bf16 operands run in fp32 (Triton's sema rejects them for these; the IR allows). */
static LLVMValueRef math2(cg *c, const ir_op *op, LLVMValueRef *in, const ir_type *t)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef a[2] = {in[0], op->noperands > 1 ? in[1] : NULL};
	LLVMTypeRef xt = LLVMTypeOf(a[0]);
	bool narrow = xt == c->t_f16 || xt == c->t_bf16;
	for (int i = 0; i < op->noperands; i++)
		if (narrow && LLVMTypeOf(a[i]) == xt)
			a[i] = LLVMBuildFPExt(b, a[i], c->t_f32, "");
	LLVMValueRef r = c->isa && c->isa->math ? c->isa->math(c, op, a) : NULL;
	if (!r) {
		switch (op->code) {
		case IR_OP_POW: r = call2(c, "llvm.pow", a[0], a[1]); break;
		case IR_OP_FMOD: r = LLVMBuildFRem(b, a[0], a[1], ""); break;
		case IR_OP_ATAN2: case IR_OP_HYPOT: r = libm2(c, libm_fn[op->code], a[0], a[1]); break;
		case IR_OP_LDEXP: {
			LLVMTypeRef tys[2] = {LLVMTypeOf(a[0]), c->t_i32}, fty;
			LLVMValueRef f = cg_intrinsic(c, "llvm.ldexp", tys, 2, &fty);
			r = LLVMBuildCall2(b, fty, f, a, 2, "");
			break;
		}
		case IR_OP_ILOGB: return ilogb_libm(c, a[0]);
		default: cg_fail(c, op, "internal: not a math op");
		}
	}
	if (op->code == IR_OP_ILOGB)
		return r;
	return narrow ? LLVMBuildFPTrunc(b, r, cg_scalar_type(c, t), "") : r;
}

/* Math on fp16/bf16 runs in fp32. */
static LLVMValueRef math1(cg *c, const ir_op *op, LLVMValueRef x, const ir_type *t)
{
	LLVMBuilderRef b = c->b;
	bool narrow = t->kind == IR_F16 || t->kind == IR_BF16;
	if (narrow)
		x = LLVMBuildFPExt(b, x, c->t_f32, "");
	LLVMValueRef r = c->isa && c->isa->math ? c->isa->math(c, op, &x) : NULL;
	if (r)
		return narrow ? LLVMBuildFPTrunc(b, r, cg_scalar_type(c, t), "") : r;
	switch (op->code) {
	case IR_OP_EXP:
		r = LLVMTypeOf(x) == c->t_f32 ? exp_f32(c, x, false) : call1(c, "llvm.exp", x);
		break;
	case IR_OP_EXP2:
		r = LLVMTypeOf(x) == c->t_f32 ? exp_f32(c, x, true) : call1(c, "llvm.exp2", x);
		break;
	case IR_OP_LOG: r = call1(c, "llvm.log", x); break;
	case IR_OP_LOG2: r = call1(c, "llvm.log2", x); break;
	case IR_OP_SQRT: r = call1(c, "llvm.sqrt", x); break;
	case IR_OP_RSQRT:
		r = LLVMBuildFDiv(b, LLVMConstReal(LLVMTypeOf(x), 1.0), call1(c, "llvm.sqrt", x), "");
		break;
	case IR_OP_SIN: r = call1(c, "llvm.sin", x); break;
	case IR_OP_COS: r = call1(c, "llvm.cos", x); break;
	case IR_OP_TANH: case IR_OP_ERF: case IR_OP_TAN: case IR_OP_ASIN: case IR_OP_ACOS:
	case IR_OP_ATAN: case IR_OP_SINH: case IR_OP_COSH: case IR_OP_LOG1P: case IR_OP_EXPM1:
	case IR_OP_LOG10: case IR_OP_EXP10: case IR_OP_CBRT:
		r = libm1(c, libm_fn[op->code], x);
		break;
	case IR_OP_ERFINV:
		if (LLVMTypeOf(x) == c->t_f64)
			r = erfinv_f64(c, x);
		else
			r = LLVMBuildFPTrunc(b, erfinv_f64(c, LLVMBuildFPExt(b, x, c->t_f64, "")), c->t_f32, "");
		break;
	case IR_OP_TRUNCFP: r = call1(c, "llvm.trunc", x); break;
	case IR_OP_ROUND: r = call1(c, "llvm.round", x); break;
	case IR_OP_RINT: r = call1(c, "llvm.rint", x); break;
	case IR_OP_NEARBYINT: r = call1(c, "llvm.nearbyint", x); break;
	case IR_OP_ABSF: r = call1(c, "llvm.fabs", x); break;
	case IR_OP_FLOOR: r = call1(c, "llvm.floor", x); break;
	case IR_OP_CEIL: r = call1(c, "llvm.ceil", x); break;
	default: cg_fail(c, op, "internal: not a math op");
	}
	if (narrow)
		r = LLVMBuildFPTrunc(b, r, cg_scalar_type(c, t), "");
	return r;
}

LLVMValueRef cg_scalar_op(cg *c, const ir_op *op, LLVMValueRef *a, const ir_type *elem)
{
	LLVMBuilderRef b = c->b;
	const ir_type *in = op->noperands ? ir_type_elem(op->operands[0]->type) : elem;
	bool sgn = is_signed(in);
	switch (op->code) {
	case IR_OP_ADDI: return LLVMBuildAdd(b, a[0], a[1], "");
	case IR_OP_SUBI: return LLVMBuildSub(b, a[0], a[1], "");
	case IR_OP_MULI: return LLVMBuildMul(b, a[0], a[1], "");
	case IR_OP_DIVI: return safe_div(c, false, sgn, a[0], a[1]);
	case IR_OP_REMI: return safe_div(c, true, sgn, a[0], a[1]);
	case IR_OP_ANDI: return LLVMBuildAnd(b, a[0], a[1], "");
	case IR_OP_ORI: return LLVMBuildOr(b, a[0], a[1], "");
	case IR_OP_XORI: return LLVMBuildXor(b, a[0], a[1], "");
	case IR_OP_SHLI: case IR_OP_SHRI: return shift(c, op->code, sgn, a[0], a[1]);
	case IR_OP_MAXI: return call2(c, sgn ? "llvm.smax" : "llvm.umax", a[0], a[1]);
	case IR_OP_MINI: return call2(c, sgn ? "llvm.smin" : "llvm.umin", a[0], a[1]);
	case IR_OP_MULHI: {
		LLVMTypeRef t = LLVMTypeOf(a[0]);
		unsigned w = LLVMGetIntTypeWidth(t);
		LLVMTypeRef wt = LLVMIntTypeInContext(c->ctx, 2 * w);
		LLVMValueRef p = LLVMBuildMul(b, LLVMBuildZExt(b, a[0], wt, ""), LLVMBuildZExt(b, a[1], wt, ""), "");
		return LLVMBuildTrunc(b, LLVMBuildLShr(b, p, LLVMConstInt(wt, w, 0), ""), t, "");
	}
	case IR_OP_ABSI: {
		if (!sgn)
			return a[0];
		LLVMTypeRef t = LLVMTypeOf(a[0]), fty;
		LLVMValueRef f = cg_intrinsic(c, "llvm.abs", &t, 1, &fty);
		LLVMValueRef args[2] = {a[0], LLVMConstInt(c->t_i1, 0, 0)};
		return LLVMBuildCall2(b, fty, f, args, 2, "");
	}
	case IR_OP_ADDF: return fm(c, LLVMBuildFAdd(b, a[0], a[1], ""));
	case IR_OP_SUBF: return fm(c, LLVMBuildFSub(b, a[0], a[1], ""));
	case IR_OP_MULF: return fm(c, LLVMBuildFMul(b, a[0], a[1], ""));
	case IR_OP_DIVF:
		if (c->isa && c->isa->fdiv && LLVMTypeOf(a[0]) == c->t_f32 && !ir_op_int(op, "precise", 0))
			return c->isa->fdiv(c, op, a[0], a[1]);
		return LLVMBuildFDiv(b, a[0], a[1], "");
	case IR_OP_REMF: return LLVMBuildFRem(b, a[0], a[1], "");
	case IR_OP_NEGF: return LLVMBuildFNeg(b, a[0], "");
	case IR_OP_MAXNUMF: return call2(c, "llvm.maxnum", a[0], a[1]);
	case IR_OP_MINNUMF: return call2(c, "llvm.minnum", a[0], a[1]);
	case IR_OP_MAXIMUMF: return call2(c, "llvm.maximum", a[0], a[1]);
	case IR_OP_MINIMUMF: return call2(c, "llvm.minimum", a[0], a[1]);
	case IR_OP_FMA: {
		LLVMTypeRef t = LLVMTypeOf(a[0]), fty;
		LLVMValueRef f = cg_intrinsic(c, "llvm.fma", &t, 1, &fty);
		return LLVMBuildCall2(b, fty, f, a, 3, "");
	}
	case IR_OP_CLAMPF: {
		bool nan = ir_op_int(op, "propagate_nan", 0) != 0;
		LLVMValueRef lo = call2(c, nan ? "llvm.maximum" : "llvm.maxnum", a[0], a[1]);
		return call2(c, nan ? "llvm.minimum" : "llvm.minnum", lo, a[2]);
	}
	case IR_OP_EXP: case IR_OP_EXP2: case IR_OP_LOG: case IR_OP_LOG2: case IR_OP_SQRT:
	case IR_OP_RSQRT: case IR_OP_SIN: case IR_OP_COS: case IR_OP_TANH: case IR_OP_ERF:
	case IR_OP_ABSF: case IR_OP_FLOOR: case IR_OP_CEIL: case IR_OP_TAN: case IR_OP_ASIN:
	case IR_OP_ACOS: case IR_OP_ATAN: case IR_OP_SINH: case IR_OP_COSH: case IR_OP_LOG1P:
	case IR_OP_EXPM1: case IR_OP_LOG10: case IR_OP_EXP10: case IR_OP_CBRT: case IR_OP_ERFINV:
	case IR_OP_TRUNCFP: case IR_OP_ROUND: case IR_OP_RINT: case IR_OP_NEARBYINT:
		return math1(c, op, a[0], elem);
	case IR_OP_POW: case IR_OP_ATAN2: case IR_OP_FMOD: case IR_OP_HYPOT: case IR_OP_LDEXP:
	case IR_OP_ILOGB:
		return math2(c, op, a, elem);
	case IR_OP_CMPI:
		return LLVMBuildICmp(b, ipred(str_attr(op, "pred", "eq"), sgn), a[0], a[1], "");
	case IR_OP_CMPF:
		return LLVMBuildFCmp(b, fpred(str_attr(op, "pred", "oeq")), a[0], a[1], "");
	case IR_OP_SELECT:
		return LLVMBuildSelect(b, a[0], a[1], a[2], "");
	case IR_OP_EXTI: case IR_OP_TRUNCI: case IR_OP_ITOF: case IR_OP_FTOI: case IR_OP_EXTF:
	case IR_OP_TRUNCF: case IR_OP_BITCAST: case IR_OP_PTRTOINT: case IR_OP_INTTOPTR:
		return cg_convert(c, op, a[0], in, elem);
	case IR_OP_ADDPTR: {
		const ir_type *pt = ir_type_elem(op->operands[0]->type);
		const ir_type *ot = ir_type_elem(op->operands[1]->type);
		LLVMValueRef off = a[1];
		const ir_op *loop = enclosing_loop(op);
		/* widened where computed once: outside loops, or in a loop the splat step of a
		 * tile of pointers advanced every iteration (`b_ptrs += BLOCK_K * stride_bk`),
		 * which LLVM hoists. Not an invariant offset that differs by element
		 * (attention's `+ offs_d[None, :]`): a 64-bit register per element held across
		 * the loop cost attention 3-6 % (docs/perf.md, stage 8). */
		if (LLVMTypeOf(off) == c->t_i32 && is_signed(ot) && c->wide_offsets &&
		    !LLVMIsConstant(off) &&
		    (!loop || (uniform(op->operands[1]) && loop_invariant(op->operands[1], loop, 4))))
			off = c->isa->wide_offset(c, off);
		else if (LLVMTypeOf(off) != c->t_i64)
			off = is_signed(ot) ? LLVMBuildSExt(b, off, c->t_i64, "")
					    : LLVMBuildZExt(b, off, c->t_i64, "");
		LLVMTypeRef et = cg_mem_type(c, pt->elem);
		return LLVMBuildGEP2(b, et, a[0], &off, 1, "");
	}
	default:
		cg_fail(c, op, "internal: '%s' is not an element-wise op", ir_ops[op->code].name);
	}
}

/* ---- soft half-precision conversions -------------------------------------------------------
 * Without Zfh (rv64gcv has none) LLVM converts fp16 through the libcalls __extendhfsf2 and
 * __truncsfhf2 (and bf16 through __truncsfbf2), which gcc 12's riscv64 libgcc lacks. The
 * module defines them itself, hidden, in integer arithmetic: exact widening, and
 * round-to-nearest-even narrowing with overflow to inf and gradual underflow. */

static LLVMValueRef half_bits_to_f32(cg *c, LLVMValueRef h)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef x = LLVMBuildZExt(b, h, c->t_i32, "");
	LLVMValueRef s = LLVMBuildShl(b, LLVMBuildAnd(b, x, cg_i32(c, 0x8000), ""), cg_i32(c, 16), "");
	LLVMValueRef e = LLVMBuildAnd(b, LLVMBuildLShr(b, x, cg_i32(c, 10), ""), cg_i32(c, 31), "");
	LLVMValueRef m = LLVMBuildAnd(b, x, cg_i32(c, 0x3ff), "");
	LLVMValueRef mm = LLVMBuildShl(b, m, cg_i32(c, 13), "");
	LLVMValueRef norm = LLVMBuildOr(b, LLVMBuildOr(b, s, LLVMBuildShl(b, LLVMBuildAdd(b, e, cg_i32(c, 112), ""), cg_i32(c, 23), ""), ""), mm, "");
	LLVMValueRef infnan = LLVMBuildOr(b, LLVMBuildOr(b, s, cg_i32(c, 0x7f800000), ""), mm, "");
	LLVMValueRef sub = LLVMBuildFMul(b, LLVMBuildUIToFP(b, m, c->t_f32, ""), LLVMConstReal(c->t_f32, 5.9604644775390625e-08), "");
	sub = LLVMBuildOr(b, LLVMBuildBitCast(b, sub, c->t_i32, ""), s, "");
	LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, cg_i32(c, 31), ""), infnan, norm, "");
	r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, cg_i32(c, 0), ""), sub, r, "");
	return LLVMBuildBitCast(b, r, c->t_f32, "");
}

static LLVMValueRef f32_to_half_bits(cg *c, LLVMValueRef f)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef u = LLVMBuildBitCast(b, f, c->t_i32, "");
	LLVMValueRef s = LLVMBuildAnd(b, LLVMBuildLShr(b, u, cg_i32(c, 16), ""), cg_i32(c, 0x8000), "");
	LLVMValueRef a = LLVMBuildAnd(b, u, cg_i32(c, 0x7fffffff), "");
	/* normal: rebias and round the 13 dropped bits to nearest even */
	LLVMValueRef h = LLVMBuildSub(b, LLVMBuildLShr(b, a, cg_i32(c, 13), ""), cg_i32(c, 112 << 10), "");
	LLVMValueRef rest = LLVMBuildAnd(b, a, cg_i32(c, 0x1fff), "");
	LLVMValueRef up = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGT, rest, cg_i32(c, 0x1000), ""),
				      LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, rest, cg_i32(c, 0x1000), ""),
						   LLVMBuildTrunc(b, h, c->t_i1, ""), ""), "");
	LLVMValueRef norm = LLVMBuildAdd(b, h, LLVMBuildZExt(b, up, c->t_i32, ""), "");
	/* subnormal: a * 2^24 + 2^23 rounds to nearest even in the float add, and the sum's
	 * mantissa bits are the integer (no float-to-int conversion: qemu 7.2 aborts on
	 * RVV's truncating vector conversions) */
	LLVMValueRef fa = LLVMBuildBitCast(b, a, c->t_f32, "");
	LLVMValueRef q = LLVMBuildFAdd(b, LLVMBuildFMul(b, fa, LLVMConstReal(c->t_f32, 16777216.0), ""),
				       LLVMConstReal(c->t_f32, 8388608.0), "");
	LLVMValueRef sub = LLVMBuildSub(b, LLVMBuildBitCast(b, q, c->t_i32, ""), cg_i32(c, 0x4b000000), "");
	LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, a, cg_i32(c, 0x38800000), ""), sub, norm, "");
	r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, a, cg_i32(c, 0x477ff000), ""), cg_i32(c, 0x7c00), r, "");
	r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, a, cg_i32(c, 0x7f800000), ""), cg_i32(c, 0x7e00), r, "");
	return LLVMBuildTrunc(b, LLVMBuildOr(b, r, s, ""), c->t_i16, "");
}

static LLVMValueRef define_hidden(cg *c, const char *name, LLVMTypeRef ret, LLVMTypeRef arg)
{
	LLVMValueRef f = LLVMAddFunction(c->mod, name, LLVMFunctionType(ret, &arg, 1, 0));
	LLVMSetVisibility(f, LLVMHiddenVisibility);
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, f, "entry");
	LLVMPositionBuilderAtEnd(c->b, bb);
	return f;
}

void cg_define_half_libcalls(cg *c, bool half, bool bf16)
{
	LLVMValueRef used[3], f;
	int n = 0;
	if (half) {
		f = define_hidden(c, "__extendhfsf2", c->t_f32, c->t_f16);
		LLVMBuildRet(c->b, half_bits_to_f32(c, LLVMBuildBitCast(c->b, LLVMGetParam(f, 0), c->t_i16, "")));
		used[n++] = f;
		f = define_hidden(c, "__truncsfhf2", c->t_f16, c->t_f32);
		LLVMBuildRet(c->b, LLVMBuildBitCast(c->b, f32_to_half_bits(c, LLVMGetParam(f, 0)), c->t_f16, ""));
		used[n++] = f;
	}
	if (bf16) {
		/* bf16: the top half of an fp32, rounded to nearest even (NaN stays NaN) */
		f = define_hidden(c, "__truncsfbf2", c->t_bf16, c->t_f32);
		LLVMValueRef u = LLVMBuildBitCast(c->b, LLVMGetParam(f, 0), c->t_i32, "");
		LLVMValueRef lsb = LLVMBuildAnd(c->b, LLVMBuildLShr(c->b, u, cg_i32(c, 16), ""), cg_i32(c, 1), "");
		LLVMValueRef r = LLVMBuildAdd(c->b, u, LLVMBuildAdd(c->b, cg_i32(c, 0x7fff), lsb, ""), "");
		LLVMValueRef isnan = LLVMBuildFCmp(c->b, LLVMRealUNO, LLVMGetParam(f, 0), LLVMGetParam(f, 0), "");
		r = LLVMBuildSelect(c->b, isnan, LLVMBuildOr(c->b, u, cg_i32(c, 0x400000), ""), r, "");
		r = LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, r, cg_i32(c, 16), ""), c->t_i16, "");
		LLVMBuildRet(c->b, LLVMBuildBitCast(c->b, r, c->t_bf16, ""));
		used[n++] = f;
	}
	if (!n)
		return;
	/* keep them through the optimizer: the calls only appear during instruction selection */
	LLVMTypeRef at = LLVMArrayType2(c->t_ptr, (uint64_t)n);
	LLVMValueRef g = LLVMAddGlobal(c->mod, at, "llvm.compiler.used");
	LLVMSetLinkage(g, LLVMAppendingLinkage);
	LLVMSetSection(g, "llvm.metadata");
	LLVMSetInitializer(g, LLVMConstArray2(c->t_ptr, used, (uint64_t)n));
}
