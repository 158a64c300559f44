/* import.c: TTIR -> tile IR (a .ttir input). The text goes through ttir_pretty.c (the tt
 * ops' pretty syntax to MLIR's generic form), is parsed by MLIR (mlirOperationCreateParse,
 * the file's name as the source name, so that ops without a loc(...) are located in it) and
 * verified; then every op of every tt.func is translated by its row of ttir_ops.def.
 *
 * MLIR's integers are signless and the ops carry the sign (arith.divui); tile IR's types
 * carry it. A value is signed unless the export's hints (tilecc.unsigned, tilecc.unsigned_args,
 * a parameter's tilecc.unsigned: export.c) say otherwise; where an op's sign is not its
 * operands' (arith.divui on signed values, as Triton writes unsigned division), the operands
 * are bitcast to the op's sign and the result back, so the meaning is kept either way.
 * Errors name the op and point at its location: the .ttir file's line and column when the
 * op has no loc(...) of its own. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir/ttir_int.h"

typedef struct importer {
	MlirContext ctx;
	ir_context *c;
	diag_engine *d;
	ttir_diag *td;
	ir_ptrmap vals; /* MlirValue.ptr -> ir_value */
	arena *a;
	int errors;
} importer;

static const char *const cmpf_preds[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
					 "one",   "ord", "ueq", "ugt", "uge", "ult",
					 "ule",   "une", "uno", "true"};
static const char *const cmpi_preds[] = {"eq", "ne", "lt", "le", "gt", "ge",
					 "lt", "le", "gt", "ge"};

static bool is_unsigned(const ir_type *t)
{
	const ir_type *e = ir_type_elem(t);
	return ir_type_is_int(e) && !ir_type_is_signed(e) && e->kind != IR_I1;
}

/* t with its integer elements (not i1) signed or unsigned. */
static const ir_type *with_sign(importer *im, const ir_type *t, bool uns)
{
	const ir_type *e = ir_type_elem(t);
	if (!ir_type_is_int(e) || e->kind == IR_I1 || is_unsigned(e) == uns)
		return t;
	static const ir_type_kind s[] = {IR_I8, IR_I16, IR_I32, IR_I64};
	static const ir_type_kind u[] = {IR_U8, IR_U16, IR_U32, IR_U64};
	ir_type_kind k = e->kind;
	for (int i = 0; i < 4; i++) {
		if (e->kind == s[i] || e->kind == u[i])
			k = uns ? u[i] : s[i];
	}
	return ir_type_with_elem(im->c, t, ir_type_scalar(im->c, k));
}

/* type ::= 'i1' | 'i'N | 'ui'N | 'f8E4M3FN' | 'f8E5M2' | 'f16' | 'bf16' | 'f32' | 'f64'
 *        | '!tt.ptr<' type (',' INT)? '>' | 'tensor<' (INT 'x')+ type '>' */
static const ir_type *read_type(importer *im, const char **p, int depth)
{
	static const struct {
		const char *text;
		ir_type_kind kind;
	} scalars[] = {
	    {"f8E4M3FN", IR_F8E4NV}, {"f8E5M2", IR_F8E5}, {"bf16", IR_BF16}, {"f16", IR_F16},
	    {"f32", IR_F32},         {"f64", IR_F64},     {"ui8", IR_U8},    {"ui16", IR_U16},
	    {"ui32", IR_U32},        {"ui64", IR_U64},    {"i16", IR_I16},   {"i32", IR_I32},
	    {"i64", IR_I64},         {"i8", IR_I8},       {"i1", IR_I1},
	};
	const char *s = *p;
	if (depth > 32)
		return NULL;
	if (!strncmp(s, "!tt.ptr<", 8)) {
		s += 8;
		const ir_type *el = read_type(im, &s, depth + 1);
		int as = 1;
		if (el && *s == ',') {
			char *end;
			as = (int)strtol(s + 1 + (s[1] == ' '), &end, 10);
			s = end;
		}
		if (!el || *s != '>' || (as != 1 && as != 3))
			return NULL;
		*p = s + 1;
		return ir_type_ptr(im->c, el, as);
	}
	if (!strncmp(s, "tensor<", 7)) {
		s += 7;
		int64_t shape[32];
		int rank = 0;
		while (*s >= '0' && *s <= '9') {
			char *end;
			long long v = strtoll(s, &end, 10);
			if (*end != 'x' || rank == 32 || v <= 0)
				return NULL;
			shape[rank++] = v;
			s = end + 1;
		}
		const ir_type *el = rank ? read_type(im, &s, depth + 1) : NULL;
		if (!el || *s != '>' || el->kind == IR_TILE)
			return NULL;
		*p = s + 1;
		return ir_type_tile(im->c, el, rank, shape);
	}
	for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
		size_t n = strlen(scalars[i].text);
		if (!strncmp(s, scalars[i].text, n)) {
			*p = s + n;
			return ir_type_scalar(im->c, scalars[i].kind);
		}
	}
	return NULL;
}

/* The tile IR type of t (unsigned integers when uns), or NULL with an error at `at`. */
static const ir_type *im_type(importer *im, MlirType t, bool uns, srcloc at)
{
	strbuf b = {0};
	mlirTypePrint(t, ttir_strbuf_cb, &b);
	const char *p = b.data ? b.data : "";
	const ir_type *r = b.oom ? NULL : read_type(im, &p, 0);
	if (r && *p)
		r = NULL;
	if (!r) {
		diag_error(im->d, at, "the type '%s' has no tile IR counterpart", b.data ? b.data : "?");
		im->errors++;
	}
	strbuf_free(&b);
	return r ? with_sign(im, r, uns) : NULL;
}

static char *str_of(importer *im, MlirStringRef s)
{
	char *r = arena_alloc(im->a, s.length + 1);
	memcpy(r, s.data, s.length);
	r[s.length] = 0;
	return r;
}

/* An MLIR attribute as a tile attribute's value; false when it has no tile IR form. */
static bool im_attr_value(importer *im, MlirAttribute v, ir_attr *out, srcloc at)
{
	if (mlirAttributeIsABool(v)) {
		out->kind = IR_ATTR_BOOL;
		out->i = mlirBoolAttrGetValue(v);
	} else if (mlirAttributeIsAInteger(v)) {
		out->kind = IR_ATTR_INT;
		out->i = mlirIntegerAttrGetValueInt(v);
	} else if (mlirAttributeIsAFloat(v)) {
		out->kind = IR_ATTR_FLOAT;
		out->f = mlirFloatAttrGetValueDouble(v);
	} else if (mlirAttributeIsAString(v)) {
		out->kind = IR_ATTR_STR;
		out->s = strtab_cstr(ir_names(im->c), str_of(im, mlirStringAttrGetValue(v)));
	} else if (mlirAttributeIsAUnit(v)) {
		out->kind = IR_ATTR_BOOL;
		out->i = 1;
	} else if (mlirAttributeIsADenseI32Array(v) || mlirAttributeIsADenseI64Array(v)) {
		intptr_t n = mlirDenseArrayGetNumElements(v);
		int64_t *xs = arena_alloc(im->a, sizeof *xs * (size_t)(n + 1));
		for (intptr_t i = 0; i < n; i++)
			xs[i] = mlirAttributeIsADenseI32Array(v) ? mlirDenseI32ArrayGetElement(v, i)
								 : mlirDenseI64ArrayGetElement(v, i);
		out->kind = IR_ATTR_INTS;
		out->ints.v = xs;
		out->ints.n = (int)n;
	} else if (mlirAttributeIsAType(v)) {
		out->kind = IR_ATTR_TYPE;
		out->type = im_type(im, mlirTypeAttrGetValue(v), false, at);
		return out->type != NULL;
	} else {
		return false;
	}
	return true;
}

/* What a name of ttir_ops.def (or a terminator, or "tilecc.NAME") stands for. */
static int op_code(const char *name, bool *uns)
{
	static const struct {
		const char *name;
		ir_opcode code;
	} extra[] = {
	    {"scf.yield", IR_OP_YIELD},        {"tt.reduce.return", IR_OP_YIELD},
	    {"tt.scan.return", IR_OP_YIELD},   {"tilecc.yield", IR_OP_YIELD},
	    {"scf.condition", IR_OP_CONDITION}, {"tt.return", IR_OP_RETURN},
	    {"tt.bitcast", IR_OP_BITCAST},     {"tilecc.cmpi", IR_OP_CMPI},
	};
	*uns = false;
	for (int i = 0; i < ttir_nrows; i++) {
		if (!strcmp(name, ttir_rows[i].name))
			return (int)ttir_rows[i].code;
		if (ttir_rows[i].uname && !strcmp(name, ttir_rows[i].uname)) {
			*uns = true;
			return (int)ttir_rows[i].code;
		}
	}
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (!strcmp(name, extra[i].name))
			return (int)extra[i].code;
	if (!strncmp(name, "tilecc.", 7))
		return ir_opcode_from_name(name + 7);
	return -1;
}

/* Attributes the import drops: MLIR's and Triton's defaults with no tile IR meaning. */
static bool dropped(const char *op, const char *name, MlirAttribute v)
{
	if (!strcmp(name, "operandSegmentSizes") || !strcmp(name, "fastmath") ||
	    !strcmp(name, "overflowFlags") || !strcmp(name, "tilecc.unsigned") ||
	    !strcmp(name, "tilecc.unsigned_args") || !strcmp(name, "tilecc.arg_names") ||
	    !strcmp(name, "tilecc.term_locs") || !strcmp(name, "tilecc.value"))
		return true;
	/* tt.load / tt.store: Triton's cache and eviction enums at their defaults (1: none,
	 * normal), and isVolatile = false */
	if ((!strcmp(op, "tt.load") || !strcmp(op, "tt.store")) && mlirAttributeIsAInteger(v) &&
	    (!strcmp(name, "cache") || !strcmp(name, "evict")) && mlirIntegerAttrGetValueInt(v) == 1)
		return true;
	if (!strcmp(name, "isVolatile") && mlirAttributeIsABool(v) && !mlirBoolAttrGetValue(v))
		return true;
	if (!strcmp(op, "tt.dot") && !strcmp(name, "maxNumImpreciseAcc") &&
	    mlirAttributeIsAInteger(v) && mlirIntegerAttrGetValueInt(v) == 0)
		return true;
	return false;
}

/* Triton's atomic enums (TritonAttrDefs.td: RMWOp, MemSemantic, MemSyncScope), read as
 * integers in the generic form, as the tile IR's string attributes kind, sem and scope; false
 * for another attribute or a value out of range (which then reaches the verifier as is). */
static bool atomic_enum(const char *name, int64_t i, ir_attr *a)
{
	static const char *const kinds[] = {NULL,  "and", "or",  "xor",  "add", "fadd",
					    "max", "min", "umax", "umin", "xchg"};
	static const char *const sems[] = {NULL, "relaxed", "acquire", "release", "acq_rel"};
	static const char *const scopes[] = {NULL, "gpu", "cta", "sys"};
	const char *s = NULL;
	if (!strcmp(name, "atomic_rmw_op") && i >= 1 && i <= 10)
		s = kinds[i], name = "kind";
	else if (!strcmp(name, "sem") && i >= 1 && i <= 4)
		s = sems[i];
	else if (!strcmp(name, "scope") && i >= 1 && i <= 3)
		s = scopes[i];
	if (!s)
		return false;
	a->name = name;
	a->kind = IR_ATTR_STR;
	a->s = s;
	return true;
}

/* Bitcasts v to type t (which differs from v's in the sign of its integers), before
 * `before` in b. */
static ir_value *recast(importer *im, ir_block *b, ir_value *v, const ir_type *t, srcloc loc)
{
	if (v->type == t)
		return v;
	ir_op *op = ir_op_create(im->c, IR_OP_BITCAST, 1, &v, 1, &t, loc);
	if (!op)
		return NULL;
	ir_block_append(b, op);
	return &op->results[0];
}

/* The names a NameLoc gave the results ("acc,,i"), interned; numeric ones are dropped. */
static void name_results(importer *im, ir_op *op, const char *names)
{
	for (int i = 0; names && i < op->nresults; i++) {
		const char *e = strchr(names, ',');
		size_t n = e ? (size_t)(e - names) : strlen(names);
		size_t k = 0;
		while (k < n && names[k] >= '0' && names[k] <= '9')
			k++;
		if (n && k < n)
			op->results[i].name = strtab_intern(ir_names(im->c), names, n);
		names = e ? e + 1 : NULL;
	}
}

/* The unsigned indices of an array<i32: ...> attribute, as flags for n values. */
static void flags_of(MlirAttribute a, bool *flags, int n)
{
	for (int i = 0; i < n; i++)
		flags[i] = false;
	if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI32Array(a))
		return;
	for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); i++) {
		int32_t k = mlirDenseI32ArrayGetElement(a, i);
		if (k >= 0 && k < n)
			flags[k] = true;
	}
}

static MlirAttribute attr_named(MlirOperation op, const char *name)
{
	return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static bool im_block(importer *im, MlirBlock mb, ir_block *b);

/* The location of op; for a terminator without operands, the one its parent's
 * tilecc.term_locs keeps (export.c: MLIR's printer leaves such terminators out). */
static MlirLocation term_loc(MlirOperation op)
{
	MlirLocation own = mlirOperationGetLocation(op);
	if (mlirOperationGetNumOperands(op) || !mlirOperationIsNull(mlirOperationGetNextInBlock(op)))
		return own;
	MlirOperation parent = mlirOperationGetParentOperation(op);
	if (mlirOperationIsNull(parent))
		return own;
	MlirAttribute locs = attr_named(parent, "tilecc.term_locs");
	if (mlirAttributeIsNull(locs) || !mlirAttributeIsAArray(locs))
		return own;
	MlirBlock b = mlirOperationGetBlock(op);
	for (intptr_t r = 0; r < mlirOperationGetNumRegions(parent); r++)
		if (mlirBlockEqual(mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, r)), b) &&
		    r < mlirArrayAttrGetNumElements(locs) &&
		    mlirAttributeIsALocation(mlirArrayAttrGetElement(locs, r)))
			return mlirLocationFromAttribute(mlirArrayAttrGetElement(locs, r));
	return own;
}

/* Gives block b the arguments of MLIR block mb (region ri of mop, whose hints say which are
 * unsigned and what they are called), mapped. */
static bool im_args(importer *im, MlirOperation mop, int ri, MlirBlock mb, ir_block *b,
		    srcloc at)
{
	int n = (int)mlirBlockGetNumArguments(mb);
	bool *uns = arena_alloc(im->a, sizeof *uns * (size_t)(n + 1));
	MlirAttribute ua = attr_named(mop, "tilecc.unsigned_args");
	MlirAttribute na = attr_named(mop, "tilecc.arg_names");
	flags_of(!mlirAttributeIsNull(ua) && mlirAttributeIsAArray(ua) &&
			 ri < mlirArrayAttrGetNumElements(ua)
		     ? mlirArrayAttrGetElement(ua, ri) : (MlirAttribute){NULL},
		 uns, n);
	MlirAttribute names = {NULL};
	if (!mlirAttributeIsNull(na) && mlirAttributeIsAArray(na) && ri < mlirArrayAttrGetNumElements(na))
		names = mlirArrayAttrGetElement(na, ri);
	for (int i = 0; i < n; i++) {
		MlirValue v = mlirBlockGetArgument(mb, i);
		const ir_type *t = im_type(im, mlirValueGetType(v), uns[i], at);
		if (!t)
			return false;
		const char *name = NULL;
		if (!mlirAttributeIsNull(names) && mlirAttributeIsAArray(names) &&
		    i < mlirArrayAttrGetNumElements(names)) {
			MlirAttribute s = mlirArrayAttrGetElement(names, i);
			if (mlirAttributeIsAString(s) && mlirStringAttrGetValue(s).length)
				name = str_of(im, mlirStringAttrGetValue(s));
		}
		ir_value *arg;
		if (b->func) { /* a function body: its arguments exist already */
			arg = b->args[i];
			arg->type = t;
		} else {
			arg = ir_block_add_arg(im->c, b, t, name);
		}
		if (!arg || !ir_ptrmap_put(&im->vals, v.ptr, arg))
			return false;
	}
	return true;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool fail(importer *im, srcloc at, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_error(im->d, at, "%s", buf);
	im->errors++;
	return false;
}

static bool im_op(importer *im, MlirOperation mop, ir_block *b)
{
	const char *name = str_of(im, mlirIdentifierStr(mlirOperationGetName(mop)));
	ttir_loc l;
	ttir_loc_read(term_loc(mop), &l);
	srcloc at = ttir_srcloc(im->td, &l);
	const char *names = l.name ? strtab_cstr(ir_names(im->c), l.name) : NULL;
	strbuf_free(&l.text);

	/* llvm.intr.assume (Triton's tl.assume): a promise with no tile IR op; it is left out,
	 * which only forgoes what it promised */
	if (!strcmp(name, "llvm.intr.assume") && !mlirOperationGetNumResults(mop))
		return true;
	bool uns_op;
	int code = op_code(name, &uns_op);
	if (code < 0)
		return fail(im, at, "unsupported op '%s' in TTIR input%s", name,
			    !strncmp(name, "tt.", 3) ? " (docs/ir.md, \"TTIR\", lists the tt ops "
						       "tilecc reads)" : "");
	const ir_opinfo *info = &ir_ops[code];
	int nops = (int)mlirOperationGetNumOperands(mop);
	int nres = (int)mlirOperationGetNumResults(mop);
	int nreg = (int)mlirOperationGetNumRegions(mop);
	if (nreg != info->nregions)
		return fail(im, at, "'%s' has a number of regions tile IR's '%s' does not take", name,
			    info->name);
	ir_value **ops = arena_alloc(im->a, sizeof *ops * (size_t)(nops + 1));
	const ir_type **res = arena_alloc(im->a, sizeof *res * (size_t)(nres + 1));
	for (int i = 0; i < nops; i++) {
		ops[i] = ir_ptrmap_get(&im->vals, mlirOperationGetOperand(mop, i).ptr);
		if (!ops[i])
			return fail(im, at, "an operand of '%s' is defined where tile IR cannot see it",
				    name);
	}
	bool *uns = arena_alloc(im->a, sizeof *uns * (size_t)(nres + 1));
	flags_of(attr_named(mop, "tilecc.unsigned"), uns, nres);
	for (int i = 0; i < nres; i++) {
		res[i] = im_type(im, mlirValueGetType(mlirOperationGetResult(mop, i)), uns[i], at);
		if (!res[i])
			return false;
	}

	/* the attributes, in tile IR's spelling. MLIR 19 keeps the properties of an
	 * unregistered op written <{...}> (Triton's generic tt.reduce) apart from its
	 * attributes, and the C API lists only the latter: those are looked up by name. */
	static const char *const props[] = {"axis", "reverse", "start", "end", "order",
					    "cache", "evict", "isVolatile", "inputPrecision",
					    "maxNumImpreciseAcc", "message", "operandSegmentSizes",
					    "atomic_rmw_op", "sem", "scope"};
	int nlisted = (int)mlirOperationGetNumAttributes(mop);
	int nprops = name[0] == 't' && name[1] == 't' && name[2] == '.'
			 ? (int)(sizeof props / sizeof props[0]) : 0;
	MlirNamedAttribute *all = arena_alloc(im->a, sizeof *all * (size_t)(nlisted + nprops + 1));
	int nattrs = 0;
	for (int i = 0; i < nlisted; i++)
		all[nattrs++] = mlirOperationGetAttribute(mop, i);
	for (int k = 0; k < nprops; k++) {
		bool listed = false;
		for (int i = 0; i < nlisted && !listed; i++) {
			MlirStringRef an = mlirIdentifierStr(all[i].name);
			listed = an.length == strlen(props[k]) && !memcmp(an.data, props[k], an.length);
		}
		MlirAttribute v = attr_named(mop, props[k]);
		if (!listed && !mlirAttributeIsNull(v))
			all[nattrs++] = mlirNamedAttributeGet(
			    mlirIdentifierGet(im->ctx, mlirStringRefCreateFromCString(props[k])), v);
	}
	ir_attr *attrs = arena_alloc(im->a, sizeof *attrs * (size_t)(nattrs + 1));
	int na = 0;
	int cmp_sign = -1; /* arith.cmpi: 1 unsigned, 0 signed, -1 either (eq, ne) */
	for (int i = 0; i < nattrs; i++) {
		MlirNamedAttribute nav = all[i];
		const char *an = str_of(im, mlirIdentifierStr(nav.name));
		MlirAttribute v = nav.attribute;
		ir_attr *a = &attrs[na];
		memset(a, 0, sizeof *a);
		if (dropped(name, an, v))
			continue;
		if (!strcmp(an, "predicate") && (code == IR_OP_CMPI || code == IR_OP_CMPF) &&
		    mlirAttributeIsAInteger(v)) {
			int64_t p = mlirIntegerAttrGetValueInt(v);
			if (p < 0 || p > (code == IR_OP_CMPI ? 9 : 15))
				return fail(im, at, "'%s': unknown predicate", name);
			a->name = "pred";
			a->kind = IR_ATTR_STR;
			a->s = code == IR_OP_CMPI ? cmpi_preds[p] : cmpf_preds[p];
			if (code == IR_OP_CMPI && p >= 2)
				cmp_sign = p >= 6;
		} else if ((code == IR_OP_ATOMIC_RMW || code == IR_OP_ATOMIC_CAS) &&
			   mlirAttributeIsAInteger(v) && atomic_enum(an, mlirIntegerAttrGetValueInt(v), a)) {
			/* Triton's enums of the generic form, as the tile IR's strings */
		} else if (!strcmp(an, "value") && code == IR_OP_CONSTANT) {
			MlirAttribute s = v;
			if (mlirAttributeIsADenseElements(v)) {
				if (!mlirDenseElementsAttrIsSplat(v))
					return fail(im, at, "'%s': only splat tensor constants have a tile IR "
						    "form", name);
				s = mlirDenseElementsAttrGetSplatValue(v);
			}
			if (!im_attr_value(im, s, a, at))
				return fail(im, at, "'%s': a constant of this kind has no tile IR form",
					    name);
			if (a->kind == IR_ATTR_BOOL)
				a->kind = IR_ATTR_INT;
			/* the exact value, where the export had to round it (export.c) */
			MlirAttribute exact = attr_named(mop, "tilecc.value");
			if (!mlirAttributeIsNull(exact) && !im_attr_value(im, exact, a, at))
				return fail(im, at, "'%s': a bad tilecc.value", name);
			a->name = "value";
		} else {
			if (!im_attr_value(im, v, a, at))
				return fail(im, at, "attribute '%s' of '%s' has no tile IR form", an, name);
			if (!strncmp(an, "tilecc.", 7))
				an += 7;
			else if (!strcmp(an, "tt.num_stages"))
				an = "num_stages";
			else if (!strcmp(an, "message") && code == IR_OP_ASSERT)
				an = "msg";
			else if (!strcmp(an, "inputPrecision") && code == IR_OP_DOT &&
				 a->kind == IR_ATTR_INT) {
				static const char *const precs[] = {"tf32", "tf32x3", "ieee"};
				if (a->i < 0 || a->i > 2)
					return fail(im, at, "'%s': unknown inputPrecision", name);
				an = "input_precision";
				a->kind = IR_ATTR_STR;
				a->s = precs[a->i];
			} else if (!strcmp(an, "maxNumImpreciseAcc") && code == IR_OP_DOT)
				an = "max_num_imprecise_acc";
			a->name = an;
			char buf[160];
			const char *bad = ir_check_attr(a, false, buf, sizeof buf);
			if (bad)
				return fail(im, at, "%s", bad);
		}
		na++;
	}

	/* the sign of the op against its operands': recast where they differ */
	const ttir_row *row = ttir_row_of((ir_opcode)code);
	const ir_type *want_res = nres ? res[0] : NULL;
	bool recast_result = false;
	if (row && row->uname && row->sign == TTIR_SIGN_OPERAND) {
		for (int i = 0; i < nops; i++)
			if (!(ops[i] = recast(im, b, ops[i], with_sign(im, ops[i]->type, uns_op), at)))
				return false;
		if (code != IR_OP_EXTI && code != IR_OP_ITOF && nres) {
			res[0] = with_sign(im, res[0], uns_op);
			recast_result = res[0] != want_res;
		}
	} else if (row && row->sign == TTIR_SIGN_RESULT && nres) {
		res[0] = with_sign(im, res[0], uns_op);
		recast_result = res[0] != want_res;
	} else if (code == IR_OP_CMPI && cmp_sign >= 0) {
		for (int i = 0; i < nops; i++)
			if (!(ops[i] = recast(im, b, ops[i], with_sign(im, ops[i]->type, cmp_sign), at)))
				return false;
	} else if (info->rule == V_SAME_INT || code == IR_OP_SELECT) {
		/* the sign does not matter: the operands take the result's */
		for (int i = code == IR_OP_SELECT ? 1 : 0; i < nops && nres; i++)
			if (ir_type_elem(ops[i]->type)->kind != IR_PTR &&
			    !(ops[i] = recast(im, b, ops[i], with_sign(im, ops[i]->type,
									is_unsigned(res[0])), at)))
				return false;
	}

	ir_op *op = ir_op_create(im->c, (ir_opcode)code, nops, ops, nres, res, at);
	if (!op)
		return false;
	for (int i = 0; i < na; i++)
		ir_op_set_attr(im->c, op, &attrs[i]);
	name_results(im, op, names);
	for (int r = 0; r < nreg; r++) {
		MlirRegion mr = mlirOperationGetRegion(mop, r);
		MlirBlock mb = mlirRegionGetFirstBlock(mr);
		if (mlirBlockIsNull(mb) || !mlirBlockIsNull(mlirBlockGetNextInRegion(mb)))
			return fail(im, at, "'%s': tile IR regions have exactly one block", name);
		if (!im_args(im, mop, r, mb, op->regions[r], at) || !im_block(im, mb, op->regions[r]))
			return false;
	}
	ir_block_append(b, op);
	for (int i = 0; i < nres; i++) {
		ir_value *v = &op->results[i];
		if (i == 0 && recast_result) {
			v = recast(im, b, v, want_res, at);
			if (!v)
				return false;
			if (op->results[0].name) {
				v->name = op->results[0].name;
				op->results[0].name = NULL;
			}
		}
		if (!ir_ptrmap_put(&im->vals, mlirOperationGetResult(mop, i).ptr, v))
			return false;
	}
	return true;
}

static bool im_block(importer *im, MlirBlock mb, ir_block *b)
{
	for (MlirOperation o = mlirBlockGetFirstOperation(mb); !mlirOperationIsNull(o);
	     o = mlirOperationGetNextInBlock(o))
		if (!im_op(im, o, b))
			return false;
	return true;
}

/* A parameter's facts from its argument attributes: tt.divisibility, tilecc.equal_to_1,
 * tilecc.unsigned; Triton's tt.equal_to and others are ignored. */
static void param_facts(MlirAttribute dict, ir_param_info *pi, bool *uns)
{
	*uns = false;
	if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict))
		return;
	MlirAttribute dv = mlirDictionaryAttrGetElementByName(
	    dict, mlirStringRefCreateFromCString("tt.divisibility"));
	if (!mlirAttributeIsNull(dv) && mlirAttributeIsAInteger(dv) && mlirIntegerAttrGetValueInt(dv) > 0)
		pi->divisibility = mlirIntegerAttrGetValueInt(dv);
	pi->equal_to_1 = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(
	    dict, mlirStringRefCreateFromCString("tilecc.equal_to_1")));
	*uns = !mlirAttributeIsNull(
	    mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("tilecc.unsigned")));
}

static bool im_func(importer *im, ir_module *m, MlirOperation fop)
{
	ttir_loc l;
	ttir_loc_read(mlirOperationGetLocation(fop), &l);
	srcloc at = ttir_srcloc(im->td, &l);
	strbuf_free(&l.text);
	MlirAttribute sym = attr_named(fop, "sym_name");
	if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym))
		return fail(im, at, "tt.func without a sym_name");
	const char *fname = str_of(im, mlirStringAttrGetValue(sym));
	if (mlirOperationGetNumRegions(fop) != 1)
		return fail(im, at, "tt.func @%s: expected one region", fname);
	MlirBlock mb = mlirRegionGetFirstBlock(mlirOperationGetRegion(fop, 0));
	if (mlirBlockIsNull(mb) || !mlirBlockIsNull(mlirBlockGetNextInRegion(mb)))
		return fail(im, at, "tt.func @%s: tile IR functions have exactly one block", fname);
	MlirAttribute ft = attr_named(fop, "function_type");
	if (!mlirAttributeIsNull(ft) && mlirAttributeIsAType(ft) &&
	    mlirTypeIsAFunction(mlirTypeAttrGetValue(ft)) &&
	    mlirFunctionTypeGetNumResults(mlirTypeAttrGetValue(ft)) != 0)
		return fail(im, at, "tt.func @%s returns values; tilecc reads kernels only", fname);
	int n = (int)mlirBlockGetNumArguments(mb);
	const ir_type **types = arena_alloc(im->a, sizeof *types * (size_t)(n + 1));
	const char **names = arena_alloc(im->a, sizeof *names * (size_t)(n + 1));
	ir_param_info *facts = arena_alloc(im->a, sizeof *facts * (size_t)(n + 1));
	MlirAttribute argattrs = attr_named(fop, "arg_attrs");
	MlirAttribute na = attr_named(fop, "tilecc.arg_names");
	MlirAttribute an0 = !mlirAttributeIsNull(na) && mlirAttributeIsAArray(na) &&
				    mlirArrayAttrGetNumElements(na) > 0
				? mlirArrayAttrGetElement(na, 0) : (MlirAttribute){NULL};
	for (int i = 0; i < n; i++) {
		bool uns = false;
		facts[i] = (ir_param_info){.divisibility = 1};
		if (!mlirAttributeIsNull(argattrs) && mlirAttributeIsAArray(argattrs) &&
		    i < mlirArrayAttrGetNumElements(argattrs))
			param_facts(mlirArrayAttrGetElement(argattrs, i), &facts[i], &uns);
		types[i] = im_type(im, mlirValueGetType(mlirBlockGetArgument(mb, i)), uns, at);
		if (!types[i])
			return false;
		names[i] = NULL;
		if (!mlirAttributeIsNull(an0) && mlirAttributeIsAArray(an0) &&
		    i < mlirArrayAttrGetNumElements(an0)) {
			MlirAttribute s = mlirArrayAttrGetElement(an0, i);
			if (mlirAttributeIsAString(s) && mlirStringAttrGetValue(s).length)
				names[i] = str_of(im, mlirStringAttrGetValue(s));
		}
	}
	ir_func *f = ir_func_create(m, fname, n, types, names, at);
	if (!f)
		return false;
	for (int i = 0; i < n; i++) {
		f->params[i].divisibility = facts[i].divisibility;
		f->params[i].equal_to_1 = facts[i].equal_to_1;
		if (!ir_ptrmap_put(&im->vals, mlirBlockGetArgument(mb, i).ptr, f->body->args[i]))
			return false;
	}
	/* the function's own attributes (num_warps, ...); MLIR's and Triton's are dropped */
	static const char *const skip[] = {"sym_name", "sym_visibility", "function_type",
					   "arg_attrs", "res_attrs", "noinline", "tilecc.arg_names"};
	for (intptr_t i = 0; i < mlirOperationGetNumAttributes(fop); i++) {
		MlirNamedAttribute nav = mlirOperationGetAttribute(fop, i);
		const char *an = str_of(im, mlirIdentifierStr(nav.name));
		bool skipped = false;
		for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
			skipped |= !strcmp(an, skip[k]);
		if (skipped)
			continue;
		ir_attr a = {0};
		if (!im_attr_value(im, nav.attribute, &a, at))
			return fail(im, at, "attribute '%s' of tt.func @%s has no tile IR form", an, fname);
		a.name = an;
		char buf[160];
		const char *bad = ir_check_attr(&a, true, buf, sizeof buf);
		if (bad)
			return fail(im, at, "%s", bad);
		ir_func_set_attr(im->c, f, &a);
	}
	return im_block(im, mb, f->body);
}

ir_module *ttir_import(ir_context *c, diag_engine *d, uint32_t file, const char *text,
		       uint32_t len)
{
	uint32_t *cols = NULL, nlines = 0;
	char *generic = ttir_pretty_to_generic(d, file, text, len, &cols, &nlines);
	if (!generic)
		return NULL;
	const char *fname = diag_file_name(d, file);
	ttir_diag td = {.d = d, .file = file, .file_name = fname, .cols = cols, .nlines = nlines,
			.a = ir_arena(c)};
	importer im = {.c = c, .d = d, .td = &td, .a = ir_arena(c)};
	im.ctx = ttir_context_create(&td);
	ir_module *m = NULL;
	MlirOperation top = mlirOperationCreateParse(im.ctx, mlirStringRefCreateFromCString(generic),
						     mlirStringRefCreateFromCString(fname ? fname : "<input>"));
	if (!mlirOperationIsNull(top) && !td.errors &&
	    mlirOperationVerify(top)) {
		const char *tn = str_of(&im, mlirIdentifierStr(mlirOperationGetName(top)));
		if (strcmp(tn, "builtin.module")) {
			ttir_loc l;
			ttir_loc_read(mlirOperationGetLocation(top), &l);
			fail(&im, ttir_srcloc(&td, &l), "expected a module, found '%s'", tn);
			strbuf_free(&l.text);
		} else {
			m = ir_module_create(c);
			MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(top, 0));
			for (MlirOperation o = mlirBlockGetFirstOperation(body);
			     m && !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
				const char *on = str_of(&im, mlirIdentifierStr(mlirOperationGetName(o)));
				if (!strcmp(on, "tt.func")) {
					if (!im_func(&im, m, o))
						m = NULL;
				} else {
					ttir_loc l;
					ttir_loc_read(mlirOperationGetLocation(o), &l);
					fail(&im, ttir_srcloc(&td, &l),
					     "unsupported op '%s' at module level (tilecc reads tt.func)",
					     on);
					strbuf_free(&l.text);
					m = NULL;
				}
			}
			if (m && !m->funcs) {
				diag_error(d, (srcloc){file, 1, 1, 1}, "the TTIR module has no tt.func");
				m = NULL;
			}
		}
	}
	if (!mlirOperationIsNull(top))
		mlirOperationDestroy(top);
	if (!m && !im.errors && !td.errors)
		diag_error(d, (srcloc){file, 1, 1, 1}, "MLIR could not parse the TTIR");
	ttir_context_destroy(im.ctx);
	ir_ptrmap_free(&im.vals);
	ttir_diag_free(&td);
	free(generic);
	free(cols);
	return m;
}
