/* atomic.c: the parts of an atomic that every target shares: its kind, semantics and scope
 * read from the op, Triton's semantics as LLVM orderings, and the atomic as LLVM's own
 * atomicrmw / cmpxchg (the CPUs' form, and the GPUs' fallback where the target has no
 * instruction of its own for the kind and type). */
#include <string.h>

#include "codegen/cg.h"

static const char *str_attr(const ir_op *op, const char *name, const char *dflt)
{
	const ir_attr *a = ir_op_attr(op, name);
	return a && a->kind == IR_ATTR_STR ? a->s : dflt;
}

cg_atomic cg_atomic_of(const ir_op *op, const ir_type *elem)
{
	cg_atomic a = {0};
	a.kind = op->code == IR_OP_ATOMIC_CAS ? "cas" : str_attr(op, "kind", "add");
	a.sem = str_attr(op, "sem", "acq_rel");
	a.scope = str_attr(op, "scope", "gpu");
	a.elem = elem;
	return a;
}

LLVMAtomicOrdering cg_atomic_ordering(const char *sem)
{
	if (sem && !strcmp(sem, "relaxed"))
		return LLVMAtomicOrderingMonotonic;
	if (sem && !strcmp(sem, "acquire"))
		return LLVMAtomicOrderingAcquire;
	if (sem && !strcmp(sem, "release"))
		return LLVMAtomicOrderingRelease;
	return LLVMAtomicOrderingAcquireRelease;
}

static LLVMAtomicOrdering failure_ordering(LLVMAtomicOrdering o)
{
	if (o == LLVMAtomicOrderingAcquireRelease)
		return LLVMAtomicOrderingAcquire;
	if (o == LLVMAtomicOrderingRelease)
		return LLVMAtomicOrderingMonotonic;
	return o;
}

LLVMAtomicOrdering cg_atomic_failure_ordering(const char *sem)
{
	return failure_ordering(cg_atomic_ordering(sem));
}

static LLVMAtomicRMWBinOp rmw_op(const cg_atomic *a)
{
	bool fl = ir_type_is_float(a->elem);
	const char *k = a->kind;
	if (!strcmp(k, "fadd")) return LLVMAtomicRMWBinOpFAdd;
	if (!strcmp(k, "max")) return fl ? LLVMAtomicRMWBinOpFMax : LLVMAtomicRMWBinOpMax;
	if (!strcmp(k, "min")) return fl ? LLVMAtomicRMWBinOpFMin : LLVMAtomicRMWBinOpMin;
	if (!strcmp(k, "umax")) return LLVMAtomicRMWBinOpUMax;
	if (!strcmp(k, "umin")) return LLVMAtomicRMWBinOpUMin;
	if (!strcmp(k, "and")) return LLVMAtomicRMWBinOpAnd;
	if (!strcmp(k, "or")) return LLVMAtomicRMWBinOpOr;
	if (!strcmp(k, "xor")) return LLVMAtomicRMWBinOpXor;
	if (!strcmp(k, "xchg")) return LLVMAtomicRMWBinOpXchg;
	return LLVMAtomicRMWBinOpAdd;
}

LLVMValueRef cg_atomic_llvm(cg *c, const cg_atomic *a, LLVMAtomicOrdering ord)
{
	LLVMTypeRef mt = cg_mem_type(c, a->elem);
	if (strcmp(a->kind, "cas")) {
		if (rmw_op(a) != LLVMAtomicRMWBinOpXchg || !ir_type_is_float(a->elem))
			return LLVMBuildAtomicRMW(c->b, rmw_op(a), a->ptr, a->val, ord, 0);
	}
	/* cmpxchg takes integers only, and xchg of floats goes through the same bits */
	LLVMTypeRef it = mt;
	LLVMValueRef cmp = a->cmp, nv = a->val;
	if (ir_type_is_float(a->elem)) {
		it = LLVMIntTypeInContext(c->ctx, (unsigned)ir_type_bits(a->elem));
		nv = LLVMBuildBitCast(c->b, nv, it, "");
		if (cmp)
			cmp = LLVMBuildBitCast(c->b, cmp, it, "");
	}
	LLVMValueRef r;
	if (!strcmp(a->kind, "cas")) {
		LLVMValueRef x = LLVMBuildAtomicCmpXchg(c->b, a->ptr, cmp, nv, ord, failure_ordering(ord), 0);
		r = LLVMBuildExtractValue(c->b, x, 0, "");
	} else {
		r = LLVMBuildAtomicRMW(c->b, LLVMAtomicRMWBinOpXchg, a->ptr, nv, ord, 0);
	}
	return it != mt ? LLVMBuildBitCast(c->b, r, mt, "") : r;
}
