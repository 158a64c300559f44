/* common.c: lowering helpers every target shares: constants, the ABI types of kernel
 * parameters, row-major index arithmetic, and region terminators. */
#include "codegen/cg.h"

LLVMValueRef cg_const_value(cg *c, const ir_op *op, const ir_type *e)
{
	const ir_attr *v = ir_op_attr(op, "value");
	if (!v)
		cg_fail(c, op, "internal: constant without a value");
	LLVMTypeRef t = cg_scalar_type(c, e);
	if (ir_type_is_float(e)) {
		if (e->kind == IR_F8E4NV || e->kind == IR_F8E5)
			cg_fail(c, op, "fp8 constants are not supported by this backend yet");
		return LLVMConstReal(t, v->kind == IR_ATTR_FLOAT ? v->f : (double)v->i);
	}
	return LLVMConstInt(t, (unsigned long long)(v->kind == IR_ATTR_FLOAT ? (int64_t)v->f : v->i), 1);
}

LLVMTypeRef cg_abi_type(cg *c, const ir_type *t)
{
	switch (t->kind) {
	case IR_I1: return c->t_i8;
	case IR_F16: case IR_BF16: return c->t_i16;
	default: return cg_scalar_type(c, t);
	}
}

LLVMValueRef cg_from_abi(cg *c, const ir_type *t, LLVMValueRef v)
{
	switch (t->kind) {
	case IR_I1: return LLVMBuildICmp(c->b, LLVMIntNE, v, LLVMConstNull(c->t_i8), "");
	case IR_F16: case IR_BF16: return LLVMBuildBitCast(c->b, v, cg_scalar_type(c, t), "");
	default: return v;
	}
}

void cg_strides(const ir_type *t, int64_t *st)
{
	int64_t s = 1;
	for (int d = t->rank - 1; d >= 0; d--) {
		st[d] = s;
		s *= t->shape[d];
	}
}

void cg_unflatten(cg *c, const ir_type *t, LLVMValueRef i, LLVMValueRef *idx)
{
	LLVMTypeRef it = LLVMTypeOf(i);
	int64_t st[16];
	cg_strides(t, st);
	for (int d = 0; d < t->rank; d++) {
		LLVMValueRef q = LLVMBuildUDiv(c->b, i, LLVMConstInt(it, (unsigned long long)st[d], 0), "");
		idx[d] = t->shape[d] == 1 ? LLVMConstInt(it, 0, 0)
					  : LLVMBuildURem(c->b, q, LLVMConstInt(it, (unsigned long long)t->shape[d], 0), "");
	}
}

LLVMValueRef cg_flatten(cg *c, const int64_t *st, LLVMValueRef *idx, int rank)
{
	LLVMTypeRef it = NULL;
	for (int d = 0; d < rank && !it; d++)
		if (idx[d])
			it = LLVMTypeOf(idx[d]);
	if (!it)
		return cg_i64(c, 0);
	LLVMValueRef s = LLVMConstInt(it, 0, 0);
	for (int d = 0; d < rank; d++)
		if (idx[d])
			s = LLVMBuildAdd(c->b, s, LLVMBuildMul(c->b, idx[d], LLVMConstInt(it, (unsigned long long)st[d], 0), ""), "");
	return s;
}

const ir_op *cg_terminator(const ir_block *b)
{
	return b->last && (ir_ops[b->last->code].traits & T_TERMINATOR) ? b->last : NULL;
}
