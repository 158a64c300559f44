/* export.c: tile IR -> TTIR (--emit=ttir). Each function becomes a "tt.func" op, each tile
 * op the MLIR op its row of ttir_ops.def names, built with mlirOperationCreate in a builtin
 * module, verified by MLIR (arith, math and scf are registered and verified; tt is not, so
 * MLIR checks only the structure of its ops) and printed by MLIR's printer: arith, math and
 * scf in their pretty form, tt ops in the generic form (MLIR prints unregistered ops no
 * other way; ttir_pretty.c reads Triton's pretty form back).
 *
 * What TTIR cannot say is kept so that the text reads back to the same tile IR:
 *   - unsigned integers: MLIR's integers are signless and the sign sits in the op
 *     (arith.divui); a result of unsigned type gets {tilecc.unsigned = array<i32: idx..>},
 *     block arguments {tilecc.unsigned_args = [array<i32: ..>, ...]} (one array a region)
 *     on their op, parameters {tilecc.unsigned} among their argument attributes. Inside
 *     !tt.ptr<...> (opaque to MLIR) an unsigned pointee is written ui32.
 *   - value names: the location of an op is a NameLoc carrying its results' names (joined
 *     with ',', as "acc,,i" when the second result has none); block arguments have their
 *     own NameLoc locations. Triton writes variable names as NameLocs too.
 *   - ops Triton's dialects lack: "tilecc.NAME", the tile op's own name and attributes.
 *   - attributes no TTIR op takes: named tilecc.NAME on arith/math/scf ops (discardable
 *     attributes need a dialect prefix there), as they are on tt and tilecc ops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/ttir_int.h"

typedef struct exporter {
	MlirContext ctx;
	ir_context *ir;
	diag_engine *d;
	ttir_diag *td;
	ir_ptrmap vals;  /* ir_value -> MlirValue.ptr */
	ir_ptrmap types; /* ir_type -> MlirType.ptr */
	arena *a;
	int errors;
} exporter;

static const char *const cmpf_preds[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
					 "one",   "ord", "ueq", "ugt", "uge", "ult",
					 "ule",   "une", "uno", "true"};
static const char *const cmpi_preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};

static bool is_unsigned(const ir_type *t)
{
	const ir_type *e = ir_type_elem(t);
	return ir_type_is_int(e) && !ir_type_is_signed(e) && e->kind != IR_I1;
}

/* The MLIR spelling of t; in_ptr: inside !tt.ptr<...>, where unsigned stays unsigned. */
static bool type_text(exporter *e, strbuf *b, const ir_type *t, bool in_ptr)
{
	switch (t->kind) {
	case IR_I1:
		strbuf_puts(b, "i1");
		return true;
	case IR_I8: case IR_I16: case IR_I32: case IR_I64:
	case IR_U8: case IR_U16: case IR_U32: case IR_U64:
		strbuf_printf(b, "%si%d", in_ptr && is_unsigned(t) ? "u" : "", ir_type_bits(t));
		return true;
	case IR_F8E4NV:
		strbuf_puts(b, "f8E4M3FN");
		return true;
	case IR_F8E5:
		strbuf_puts(b, "f8E5M2");
		return true;
	case IR_F16: case IR_BF16: case IR_F32: case IR_F64:
		strbuf_puts(b, ir_type_kind_name(t->kind));
		return true;
	case IR_PTR:
		strbuf_puts(b, "!tt.ptr<");
		if (!type_text(e, b, t->elem, true))
			return false;
		if (t->addrspace != 1)
			strbuf_printf(b, ", %d", t->addrspace);
		strbuf_putc(b, '>');
		return true;
	case IR_TILE:
		if (t->layout)
			return false;
		strbuf_puts(b, "tensor<");
		for (int i = 0; i < t->rank; i++)
			strbuf_printf(b, "%lldx", (long long)t->shape[i]);
		if (!type_text(e, b, t->elem, in_ptr))
			return false;
		strbuf_putc(b, '>');
		return true;
	default:
		return false;
	}
}

static MlirType ex_type(exporter *e, const ir_type *t, srcloc at)
{
	void *got = ir_ptrmap_get(&e->types, t);
	if (got)
		return (MlirType){got};
	strbuf b = {0};
	MlirType r = {NULL};
	if (!type_text(e, &b, t, false)) {
		strbuf tb = {0};
		ir_type_print(&tb, t);
		diag_error(e->d, at, "TTIR has no type for '%s'%s", tb.data ? tb.data : "?",
			   t->kind == IR_TILE && t->layout ? " (--emit=ttir writes IR before the GPU "
							    "layouts)" : "");
		strbuf_free(&tb);
		e->errors++;
	} else if (!b.oom) {
		r = mlirTypeParseGet(e->ctx, (MlirStringRef){b.data, b.len});
		if (!mlirTypeIsNull(r) && !ir_ptrmap_put(&e->types, t, (void *)r.ptr))
			r = (MlirType){NULL};
	}
	if (mlirTypeIsNull(r) && !e->errors) {
		diag_internal(e->d, "cannot make the MLIR type '%s'", b.data ? b.data : "?");
		e->errors++;
	}
	strbuf_free(&b);
	return r;
}

static MlirLocation ex_loc(exporter *e, srcloc l)
{
	const char *file = l.file ? diag_file_name(e->d, l.file) : NULL;
	if (!file)
		return mlirLocationUnknownGet(e->ctx);
	return mlirLocationFileLineColGet(e->ctx, mlirStringRefCreateFromCString(file), l.line,
					  l.col);
}

static MlirLocation named(exporter *e, MlirLocation base, const char *name)
{
	return mlirLocationNameGet(e->ctx, mlirStringRefCreateFromCString(name), base);
}

/* The op's location: its source position in a NameLoc of its results' names. */
static MlirLocation op_loc(exporter *e, const ir_op *op)
{
	MlirLocation base = ex_loc(e, op->loc);
	bool any = false;
	for (int i = 0; i < op->nresults; i++)
		any |= op->results[i].name != NULL;
	if (!any)
		return base;
	strbuf b = {0};
	for (int i = 0; i < op->nresults; i++) {
		if (i)
			strbuf_putc(&b, ',');
		if (op->results[i].name)
			strbuf_puts(&b, op->results[i].name);
	}
	MlirLocation r = b.oom ? base : named(e, base, b.data);
	strbuf_free(&b);
	return r;
}

static MlirNamedAttribute nattr(exporter *e, const char *name, MlirAttribute a)
{
	return mlirNamedAttributeGet(mlirIdentifierGet(e->ctx, mlirStringRefCreateFromCString(name)),
				     a);
}

static MlirAttribute i32_attr(exporter *e, int64_t v)
{
	return mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 32), v);
}

/* A tile attribute as the MLIR attribute of the same kind. */
static MlirAttribute generic_attr(exporter *e, const ir_attr *a, srcloc at)
{
	switch (a->kind) {
	case IR_ATTR_INT:
		return mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), a->i);
	case IR_ATTR_FLOAT:
		return mlirFloatAttrDoubleGet(e->ctx, mlirF64TypeGet(e->ctx), a->f);
	case IR_ATTR_BOOL:
		return mlirBoolAttrGet(e->ctx, a->i != 0);
	case IR_ATTR_STR:
		return mlirStringAttrGet(e->ctx, mlirStringRefCreateFromCString(a->s));
	case IR_ATTR_INTS:
		return mlirDenseI64ArrayGet(e->ctx, a->ints.n, a->ints.v);
	case IR_ATTR_TYPE: {
		MlirType t = ex_type(e, a->type, at);
		return mlirTypeIsNull(t) ? (MlirAttribute){NULL} : mlirTypeAttrGet(t);
	}
	}
	return (MlirAttribute){NULL};
}

/* The value of a constant: a typed scalar, or a splat for a tile. */
static MlirAttribute const_value(exporter *e, const ir_op *op, MlirType rt, bool *exact)
{
	const ir_type *t = op->results[0].type;
	const ir_type *el = ir_type_elem(t);
	const ir_attr *v = ir_op_attr(op, "value");
	MlirType et = ex_type(e, el, op->loc);
	if (!v || mlirTypeIsNull(et))
		return (MlirAttribute){NULL};
	MlirAttribute s;
	if (ir_type_is_float(el))
		s = mlirFloatAttrDoubleGet(e->ctx, et, v->kind == IR_ATTR_FLOAT ? v->f : (double)v->i);
	else if (el->kind == IR_I1)
		s = mlirBoolAttrGet(e->ctx, v->i != 0);
	else
		s = mlirIntegerAttrGet(et, v->kind == IR_ATTR_FLOAT ? (int64_t)v->f : v->i);
	/* what the import will read back; where it is not the value (a double that the
	 * element type rounds, an unsigned value above the signed range), the value itself
	 * goes along as tilecc.value */
	*exact = true;
	if (ir_type_is_float(el)) {
		double back = mlirFloatAttrGetValueDouble(s);
		double want = v->kind == IR_ATTR_FLOAT ? v->f : (double)v->i;
		*exact = back == want || (back != back && want != want);
	} else if (el->kind == IR_I1) {
		*exact = v->kind == IR_ATTR_INT && (v->i == 0 || v->i == 1);
	} else if (v->kind == IR_ATTR_INT) {
		*exact = mlirIntegerAttrGetValueInt(s) == v->i;
	} else {
		*exact = false;
	}
	if (t->kind == IR_TILE)
		return el->kind == IR_I1 ? mlirDenseElementsAttrBoolSplatGet(rt, v->i != 0)
					 : mlirDenseElementsAttrSplatGet(rt, s);
	return s;
}

static int index_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* The MLIR name of op; *registered: an op of a registered dialect (arith, math, scf). */
static const char *op_name(exporter *e, const ir_op *op, const char *term, bool *registered)
{
	const char *name;
	const ir_type *o0 = op->noperands ? op->operands[0]->type : NULL;
	const ir_type *r0 = op->nresults ? op->results[0].type : NULL;
	const ttir_row *row = ttir_row_of(op->code);
	if (op->code == IR_OP_YIELD || op->code == IR_OP_CONDITION || op->code == IR_OP_RETURN)
		name = term;
	else if (op->code == IR_OP_BITCAST &&
		 (ir_type_elem(o0)->kind == IR_PTR || ir_type_elem(r0)->kind == IR_PTR))
		name = "tt.bitcast";
	else if (op->code == IR_OP_CMPI && ir_type_elem(o0)->kind == IR_PTR)
		name = "tilecc.cmpi";
	else if (row) {
		const ir_type *by = row->sign == TTIR_SIGN_OPERAND ? o0
				    : row->sign == TTIR_SIGN_RESULT ? r0 : NULL;
		name = by && row->uname && (is_unsigned(by) || ir_type_elem(by)->kind == IR_I1)
			   ? row->uname : row->name;
	} else {
		size_t n = strlen(ir_ops[op->code].name) + 8;
		char *s = arena_alloc(e->a, n);
		snprintf(s, n, "tilecc.%s", ir_ops[op->code].name);
		name = s;
	}
	*registered = !strncmp(name, "arith.", 6) || !strncmp(name, "math.", 5) ||
		      !strncmp(name, "scf.", 4);
	return name;
}

/* The terminator of region ri of op. */
static const char *term_of(const ir_op *op, int ri)
{
	if (!op)
		return "tt.return";
	switch (op->code) {
	case IR_OP_FOR:
	case IR_OP_IF:
		return "scf.yield";
	case IR_OP_WHILE:
		return ri == 0 ? "scf.condition" : "scf.yield";
	case IR_OP_REDUCE:
		return "tt.reduce.return";
	case IR_OP_SCAN:
		return "tt.scan.return";
	default:
		return "tilecc.yield";
	}
}

static bool ex_block(exporter *e, const ir_block *b, MlirBlock into, const ir_op *parent, int ri);

/* A block for region block b, its arguments mapped. */
static MlirBlock make_block(exporter *e, const ir_block *b, srcloc at)
{
	MlirType *ts = arena_alloc(e->a, sizeof *ts * (size_t)(b->nargs + 1));
	MlirLocation *ls = arena_alloc(e->a, sizeof *ls * (size_t)(b->nargs + 1));
	for (int i = 0; i < b->nargs; i++) {
		ts[i] = ex_type(e, b->args[i]->type, at);
		if (mlirTypeIsNull(ts[i]))
			return (MlirBlock){NULL};
		ls[i] = mlirLocationUnknownGet(e->ctx);
		if (b->args[i]->name)
			ls[i] = named(e, ls[i], b->args[i]->name);
	}
	MlirBlock blk = mlirBlockCreate(b->nargs, ts, ls);
	for (int i = 0; i < b->nargs; i++)
		if (!ir_ptrmap_put(&e->vals, b->args[i], (void *)mlirBlockGetArgument(blk, i).ptr)) {
			mlirBlockDestroy(blk);
			return (MlirBlock){NULL};
		}
	return blk;
}

/* The indices of the unsigned values among n, as array<i32: ...>; NULL when none. */
static MlirAttribute unsigned_of(exporter *e, ir_value *const *vs, const ir_value *res, int n)
{
	int32_t *idx = arena_alloc(e->a, sizeof *idx * (size_t)(n + 1));
	int k = 0;
	for (int i = 0; i < n; i++)
		if (is_unsigned(vs ? vs[i]->type : res[i].type))
			idx[k++] = i;
	return k ? mlirDenseI32ArrayGet(e->ctx, k, idx) : (MlirAttribute){NULL};
}

/* The names of the regions' block arguments, [["k", "acc"], [...]], "" for a nameless one;
 * NULL when none has a name. (The C API of LLVM 19 cannot read a block argument's location,
 * so the NameLocs on the arguments are for readers and this is for the importer.) */
static MlirAttribute arg_names(exporter *e, ir_block *const *blocks, int n)
{
	bool any = false;
	for (int r = 0; r < n; r++)
		for (int i = 0; i < blocks[r]->nargs; i++)
			any |= blocks[r]->args[i]->name != NULL;
	if (!any)
		return (MlirAttribute){NULL};
	MlirAttribute *per = arena_alloc(e->a, sizeof *per * (size_t)n);
	for (int r = 0; r < n; r++) {
		const ir_block *b = blocks[r];
		MlirAttribute *names = arena_alloc(e->a, sizeof *names * (size_t)(b->nargs + 1));
		for (int i = 0; i < b->nargs; i++)
			names[i] = mlirStringAttrGet(
			    e->ctx, mlirStringRefCreateFromCString(b->args[i]->name ? b->args[i]->name : ""));
		per[r] = mlirArrayAttrGet(e->ctx, b->nargs, names);
	}
	return mlirArrayAttrGet(e->ctx, n, per);
}

static bool ex_op(exporter *e, const ir_op *op, MlirBlock into, const char *term)
{
	bool registered;
	const char *name = op_name(e, op, term, &registered);
	int nattrs = 0, cap = op->nattrs + 7;
	MlirNamedAttribute *attrs = arena_alloc(e->a, sizeof *attrs * (size_t)cap);
	MlirValue *ops = arena_alloc(e->a, sizeof *ops * (size_t)(op->noperands + 1));
	MlirType *res = arena_alloc(e->a, sizeof *res * (size_t)(op->nresults + 1));
	for (int i = 0; i < op->noperands; i++) {
		void *v = ir_ptrmap_get(&e->vals, op->operands[i]);
		if (!v) {
			diag_internal(e->d, "operand %d of '%s' has no MLIR value", i,
				      ir_ops[op->code].name);
			return false;
		}
		ops[i] = (MlirValue){v};
	}
	for (int i = 0; i < op->nresults; i++) {
		res[i] = ex_type(e, op->results[i].type, op->loc);
		if (mlirTypeIsNull(res[i]))
			return false;
	}

	/* the attributes: the op's own, in TTIR's spelling where it has one */
	for (int i = 0; i < op->nattrs; i++) {
		const ir_attr *a = &op->attrs[i];
		const char *an = a->name;
		MlirAttribute v = {NULL};
		if (!strcmp(an, "axis") &&
		    (op->code == IR_OP_PROGRAM_ID || op->code == IR_OP_NUM_PROGRAMS ||
		     op->code == IR_OP_EXPAND_DIMS || op->code == IR_OP_REDUCE ||
		     op->code == IR_OP_SCAN || op->code == IR_OP_GATHER) && a->kind == IR_ATTR_INT) {
			v = i32_attr(e, a->i);
		} else if ((!strcmp(an, "start") || !strcmp(an, "end")) &&
			   op->code == IR_OP_MAKE_RANGE && a->kind == IR_ATTR_INT) {
			v = i32_attr(e, a->i);
		} else if (!strcmp(an, "order") && op->code == IR_OP_TRANS && a->kind == IR_ATTR_INTS) {
			int32_t *o = arena_alloc(e->a, sizeof *o * (size_t)(a->ints.n + 1));
			for (int k = 0; k < a->ints.n; k++)
				o[k] = (int32_t)a->ints.v[k];
			v = mlirDenseI32ArrayGet(e->ctx, a->ints.n, o);
		} else if (!strcmp(an, "pred") && a->kind == IR_ATTR_STR &&
			   !strcmp(name, "arith.cmpi")) {
			int p = index_of(cmpi_preds, 6, a->s);
			if (p >= 2 && (is_unsigned(op->operands[0]->type) ||
				       ir_type_elem(op->operands[0]->type)->kind == IR_I1))
				p += 4;
			an = "predicate";
			v = mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), p < 0 ? 0 : p);
		} else if (!strcmp(an, "pred") && a->kind == IR_ATTR_STR && op->code == IR_OP_CMPF) {
			int p = index_of(cmpf_preds, 16, a->s);
			an = "predicate";
			v = mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), p < 0 ? 0 : p);
		} else if (!strcmp(an, "value") && op->code == IR_OP_CONSTANT) {
			bool exact = true;
			v = const_value(e, op, res[0], &exact);
			if (!exact && !mlirAttributeIsNull(v))
				attrs[nattrs++] = nattr(e, "tilecc.value", generic_attr(e, a, op->loc));
		} else if (!strcmp(an, "num_stages") && op->code == IR_OP_FOR &&
			   a->kind == IR_ATTR_INT) {
			an = "tt.num_stages";
			v = i32_attr(e, a->i);
		} else if (!strcmp(an, "msg") && op->code == IR_OP_ASSERT && a->kind == IR_ATTR_STR) {
			an = "message";
			v = generic_attr(e, a, op->loc);
		} else {
			v = generic_attr(e, a, op->loc);
			if (registered) {
				size_t n = strlen(an) + 8;
				char *s = arena_alloc(e->a, n);
				snprintf(s, n, "tilecc.%s", an);
				an = s;
			}
		}
		if (mlirAttributeIsNull(v)) {
			if (!e->errors)
				diag_internal(e->d, "cannot write attribute '%s' of '%s'", a->name,
					      ir_ops[op->code].name);
			return false;
		}
		attrs[nattrs++] = nattr(e, an, v);
	}
	MlirAttribute u = unsigned_of(e, NULL, op->results, op->nresults);
	if (!mlirAttributeIsNull(u))
		attrs[nattrs++] = nattr(e, "tilecc.unsigned", u);
	/* MLIR's printer leaves out a terminator without operands (scf.for's scf.yield) and
	 * the parser makes a new one where the region ends: its location goes along here */
	if (op->nregions) {
		MlirAttribute *locs = arena_alloc(e->a, sizeof *locs * (size_t)op->nregions);
		bool any = false;
		for (int r = 0; r < op->nregions; r++) {
			const ir_op *t = op->regions[r]->last;
			locs[r] = mlirLocationGetAttribute(mlirLocationUnknownGet(e->ctx));
			if (t && t->noperands == 0 && (ir_ops[t->code].traits & T_TERMINATOR) && t->loc.file) {
				locs[r] = mlirLocationGetAttribute(ex_loc(e, t->loc));
				any = true;
			}
		}
		if (any)
			attrs[nattrs++] = nattr(e, "tilecc.term_locs",
						mlirArrayAttrGet(e->ctx, op->nregions, locs));
	}
	MlirAttribute an_ = arg_names(e, op->regions, op->nregions);
	if (!mlirAttributeIsNull(an_))
		attrs[nattrs++] = nattr(e, "tilecc.arg_names", an_);
	if (op->nregions) {
		MlirAttribute *per = arena_alloc(e->a, sizeof *per * (size_t)op->nregions);
		bool any = false;
		for (int r = 0; r < op->nregions; r++) {
			const ir_block *b = op->regions[r];
			per[r] = unsigned_of(e, b->args, NULL, b->nargs);
			any |= !mlirAttributeIsNull(per[r]);
			if (mlirAttributeIsNull(per[r]))
				per[r] = mlirDenseI32ArrayGet(e->ctx, 0, NULL);
		}
		if (any)
			attrs[nattrs++] = nattr(e, "tilecc.unsigned_args",
						mlirArrayAttrGet(e->ctx, op->nregions, per));
	}

	/* regions, built before the op, which takes them over */
	MlirRegion *regions = arena_alloc(e->a, sizeof *regions * (size_t)(op->nregions + 1));
	for (int r = 0; r < op->nregions; r++) {
		MlirBlock blk = make_block(e, op->regions[r], op->loc);
		if (mlirBlockIsNull(blk) || !ex_block(e, op->regions[r], blk, op, r)) {
			if (!mlirBlockIsNull(blk))
				mlirBlockDestroy(blk);
			for (int k = 0; k < r; k++)
				mlirRegionDestroy(regions[k]);
			return false;
		}
		regions[r] = mlirRegionCreate();
		mlirRegionAppendOwnedBlock(regions[r], blk);
	}

	MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name),
						      op_loc(e, op));
	mlirOperationStateAddOperands(&st, op->noperands, ops);
	mlirOperationStateAddResults(&st, op->nresults, res);
	mlirOperationStateAddAttributes(&st, nattrs, attrs);
	mlirOperationStateAddOwnedRegions(&st, op->nregions, regions);
	MlirOperation mop = mlirOperationCreate(&st);
	if (mlirOperationIsNull(mop)) {
		diag_internal(e->d, "MLIR did not create '%s'", name);
		return false;
	}
	mlirBlockAppendOwnedOperation(into, mop);
	for (int i = 0; i < op->nresults; i++)
		if (!ir_ptrmap_put(&e->vals, &op->results[i],
				   (void *)mlirOperationGetResult(mop, i).ptr))
			return false;
	return true;
}

static bool ex_block(exporter *e, const ir_block *b, MlirBlock into, const ir_op *parent, int ri)
{
	const char *term = term_of(parent, ri);
	for (const ir_op *o = b->first; o; o = o->next)
		if (!ex_op(e, o, into, term))
			return false;
	return true;
}

static bool ex_func(exporter *e, const ir_func *f, MlirBlock module_body)
{
	const ir_block *body = f->body;
	MlirBlock blk = make_block(e, body, f->loc);
	if (mlirBlockIsNull(blk))
		return false;
	if (!ex_block(e, body, blk, NULL, 0)) {
		mlirBlockDestroy(blk);
		return false;
	}
	MlirRegion region = mlirRegionCreate();
	mlirRegionAppendOwnedBlock(region, blk);

	MlirType *ins = arena_alloc(e->a, sizeof *ins * (size_t)(body->nargs + 1));
	MlirAttribute *argd = arena_alloc(e->a, sizeof *argd * (size_t)(body->nargs + 1));
	for (int i = 0; i < body->nargs; i++) {
		ins[i] = mlirValueGetType(mlirBlockGetArgument(blk, i));
		MlirNamedAttribute pa[3];
		int n = 0;
		const ir_param_info *pi = &f->params[i];
		if (pi->divisibility != 1)
			pa[n++] = nattr(e, "tt.divisibility", i32_attr(e, pi->divisibility));
		if (pi->equal_to_1)
			pa[n++] = nattr(e, "tilecc.equal_to_1", mlirUnitAttrGet(e->ctx));
		if (is_unsigned(body->args[i]->type))
			pa[n++] = nattr(e, "tilecc.unsigned", mlirUnitAttrGet(e->ctx));
		argd[i] = mlirDictionaryAttrGet(e->ctx, n, pa);
	}
	int nattrs = 0;
	MlirNamedAttribute *attrs = arena_alloc(e->a, sizeof *attrs * (size_t)(f->nattrs + 5));
	attrs[nattrs++] = nattr(e, "sym_name",
				mlirStringAttrGet(e->ctx, mlirStringRefCreateFromCString(f->name)));
	attrs[nattrs++] = nattr(e, "sym_visibility",
				mlirStringAttrGet(e->ctx, mlirStringRefCreateFromCString("public")));
	attrs[nattrs++] = nattr(e, "function_type",
				mlirTypeAttrGet(mlirFunctionTypeGet(e->ctx, body->nargs, ins, 0, NULL)));
	attrs[nattrs++] = nattr(e, "arg_attrs", mlirArrayAttrGet(e->ctx, body->nargs, argd));
	ir_block *const bodies[1] = {f->body};
	MlirAttribute an_ = arg_names(e, bodies, 1);
	if (!mlirAttributeIsNull(an_))
		attrs[nattrs++] = nattr(e, "tilecc.arg_names", an_);
	for (int i = 0; i < f->nattrs; i++) {
		MlirAttribute v = generic_attr(e, &f->attrs[i], f->loc);
		if (mlirAttributeIsNull(v)) {
			mlirRegionDestroy(region);
			return false;
		}
		attrs[nattrs++] = nattr(e, f->attrs[i].name, v);
	}
	MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("tt.func"),
						      ex_loc(e, f->loc));
	mlirOperationStateAddAttributes(&st, nattrs, attrs);
	mlirOperationStateAddOwnedRegions(&st, 1, &region);
	MlirOperation fop = mlirOperationCreate(&st);
	if (mlirOperationIsNull(fop)) {
		diag_internal(e->d, "MLIR did not create tt.func @%s", f->name);
		return false;
	}
	mlirBlockAppendOwnedOperation(module_body, fop);
	return true;
}

int ttir_export(const ir_module *m, diag_engine *d, strbuf *out)
{
	ttir_diag td = {.d = d, .internal = true, .a = ir_arena(m->ctx)};
	exporter e = {.ir = m->ctx, .d = d, .td = &td, .a = ir_arena(m->ctx)};
	e.ctx = ttir_context_create(&td);
	MlirModule mod = mlirModuleCreateEmpty(mlirLocationUnknownGet(e.ctx));
	MlirBlock body = mlirModuleGetBody(mod);
	bool ok = true;
	for (const ir_func *f = m->funcs; f && ok; f = f->next)
		ok = ex_func(&e, f, body);
	MlirOperation mop = mlirModuleGetOperation(mod);
	if (ok && !mlirOperationVerify(mop))
		ok = false;
	if (ok) {
		MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
		mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
		mlirOperationPrintWithFlags(mop, flags, ttir_strbuf_cb, out);
		strbuf_putc(out, '\n');
		mlirOpPrintingFlagsDestroy(flags);
	} else if (!e.errors && !td.errors) {
		diag_internal(d, "the TTIR export failed");
	}
	mlirModuleDestroy(mod);
	ttir_context_destroy(e.ctx);
	ir_ptrmap_free(&e.vals);
	ir_ptrmap_free(&e.types);
	ttir_diag_free(&td);
	return ok ? 0 : 1;
}
