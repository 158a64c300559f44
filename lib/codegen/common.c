/* common.c: lowering helpers every target shares: constants, the ABI types of kernel
 * parameters, row-major index arithmetic, and region terminators. */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include <llvm-c/Linker.h>

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

LLVMValueRef cg_gather_index(cg *c, const ir_op *op, LLVMValueRef i, LLVMValueRef ix)
{
	const ir_type *rt = op->results[0].type, *st = op->operands[0]->type;
	const ir_type *xe = op->operands[1]->type->elem;
	int axis = (int)ir_op_int(op, "axis", 0);
	LLVMTypeRef it = LLVMTypeOf(i);
	LLVMValueRef idx[16];
	int64_t sst[16];
	cg_strides(st, sst);
	cg_unflatten(c, rt, i, idx);
	/* the index widened to 64 bits (sign-extended for signed index types), clamped there,
	 * then in i's type */
	bool sgn = ir_type_is_signed(xe);
	LLVMValueRef w = ix;
	if (LLVMGetIntTypeWidth(LLVMTypeOf(ix)) < 64)
		w = sgn ? LLVMBuildSExt(c->b, ix, c->t_i64, "") : LLVMBuildZExt(c->b, ix, c->t_i64, "");
	LLVMValueRef n = cg_i64(c, st->shape[axis]), last = cg_i64(c, st->shape[axis] - 1);
	LLVMValueRef in = LLVMBuildICmp(c->b, LLVMIntULT, w, n, "");
	LLVMValueRef neg = sgn ? LLVMBuildICmp(c->b, LLVMIntSLT, w, cg_i64(c, 0), "")
			       : LLVMConstInt(c->t_i1, 0, 0);
	LLVMValueRef v = LLVMBuildSelect(c->b, in, w, LLVMBuildSelect(c->b, neg, cg_i64(c, 0), last, ""), "");
	idx[axis] = LLVMGetIntTypeWidth(it) < 64 ? LLVMBuildTrunc(c->b, v, it, "") : v;
	for (int d = 0; d < rt->rank; d++)
		if (st->shape[d] == 1 && d != axis)
			idx[d] = NULL;
	return cg_flatten(c, sst, idx, rt->rank);
}

const ir_op *cg_terminator(const ir_block *b)
{
	return b->last && (ir_ops[b->last->code].traits & T_TERMINATOR) ? b->last : NULL;
}

LLVMValueRef cg_range_cond(cg *c, LLVMValueRef iv, LLVMValueRef ub, LLVMValueRef step, bool sgn)
{
	LLVMValueRef up = LLVMBuildICmp(c->b, sgn ? LLVMIntSLT : LLVMIntULT, iv, ub, "");
	if (!sgn)
		return up;
	LLVMValueRef down = LLVMBuildICmp(c->b, LLVMIntSGT, iv, ub, "");
	LLVMValueRef pos = LLVMBuildICmp(c->b, LLVMIntSGT, step, LLVMConstNull(LLVMTypeOf(step)), "");
	return LLVMBuildSelect(c->b, pos, up, down, "");
}

/* ---- line tables ------------------------------------------------------------------------ */

void cg_debug_begin(cg *c, const ir_func *f, LLVMValueRef fn)
{
	const char *file = f->loc.line ? diag_file_name(c->d, f->loc.file) : NULL;
	c->dsp = NULL;
	if (!file)
		return;
	LLVMDIBuilderRef dib = c->dib;
	if (!dib) {
		dib = LLVMCreateDIBuilder(c->mod);
		c->dib = dib;
		const char *slash = strrchr(file, '/');
		const char *base = slash ? slash + 1 : file;
		size_t dirlen = slash ? (size_t)(slash - file) : 1;
		LLVMMetadataRef df = LLVMDIBuilderCreateFile(dib, base, strlen(base), slash ? file : ".", dirlen);
		/* NVPTX: .loc/.file directives only (LLVM's DebugDirectivesOnly, 3, which the C API
		 * does not name): full line tables make ptxas refuse optimized code */
		LLVMDWARFEmissionKind kind = c->gpu ? (LLVMDWARFEmissionKind)3 : LLVMDWARFEmissionLineTablesOnly;
		LLVMDIBuilderCreateCompileUnit(dib, LLVMDWARFSourceLanguagePython, df, "tilecc", 6, 1, "", 0, 0,
					       "", 0, kind, 0, 0, 0, "", 0, "", 0);
		LLVMAddModuleFlag(c->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
				  LLVMValueAsMetadata(LLVMConstInt(c->t_i32, 3, 0)));
	}
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	LLVMMetadataRef df = LLVMDIBuilderCreateFile(dib, base, strlen(base), slash ? file : ".",
						     slash ? (size_t)(slash - file) : 1);
	LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(dib, df, NULL, 0, LLVMDIFlagZero);
	c->dsp = LLVMDIBuilderCreateFunction(dib, df, f->name, strlen(f->name), f->name, strlen(f->name), df,
					     f->loc.line, ty, 0, 1, f->loc.line, LLVMDIFlagZero, 1);
	LLVMSetSubprogram(fn, c->dsp);
	cg_debug_loc(c, f->loc);
}

void cg_debug_loc(cg *c, srcloc loc)
{
	if (c->dsp && loc.line)
		LLVMSetCurrentDebugLocation2(c->b, LLVMDIBuilderCreateDebugLocation(c->ctx, loc.line, loc.col,
										     c->dsp, NULL));
}

void cg_debug_end(cg *c)
{
	c->dsp = NULL;
	LLVMSetCurrentDebugLocation2(c->b, NULL);
}

void cg_debug_finish(cg *c)
{
	if (!c->dib)
		return;
	LLVMDIBuilderFinalize(c->dib);
	LLVMDisposeDIBuilder(c->dib);
	c->dib = NULL;
}

int cg_link_module(cg *c, LLVMModuleRef lib)
{
	LLVMSetTarget(lib, LLVMGetTarget(c->mod));
	LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(c->mod));
	return LLVMLinkModules2(c->mod, lib) != 0;
}
