/* sema_expr.c: values and operators. Triton's rules for type promotion (weakly typed Python
 * numbers, fp16/bf16 division in fp32, C's usual arithmetic conversions for integers),
 * broadcasting, casts, and constant folding of constexpr arithmetic with Python semantics. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/sema_int.h"

sval sv_tuple(sema *s, int n, const sval *items)
{
	sval v = {.kind = SV_TUPLE};
	v.tup.n = n;
	v.tup.items = ARENA_NEWN(s->a, sval, n > 0 ? n : 1);
	if (n > 0)
		memcpy(v.tup.items, items, sizeof(sval) * (size_t)n);
	return v;
}

bool sv_is_number(const sval *v)
{
	return v->kind == SV_INT || v->kind == SV_FLOAT || v->kind == SV_BOOL;
}

/* Whether v is known at compile time: no SSA value or tensor descriptor, in tuples neither. */
bool sv_is_compile_time(const sval *v)
{
	if (v->kind == SV_IR || v->kind == SV_DESC)
		return false;
	if (v->kind == SV_TUPLE)
		for (int i = 0; i < v->tup.n; i++)
			if (!sv_is_compile_time(&v->tup.items[i]))
				return false;
	return true;
}

/* ---- names for diagnostics -------------------------------------------------------------- */

static const char *scalar_name(ir_type_kind k)
{
	static const char *const names[] = {
	    [IR_I1] = "int1",     [IR_I8] = "int8",   [IR_I16] = "int16",   [IR_I32] = "int32",
	    [IR_I64] = "int64",   [IR_U8] = "uint8",  [IR_U16] = "uint16",  [IR_U32] = "uint32",
	    [IR_U64] = "uint64",  [IR_F8E4NV] = "fp8e4nv", [IR_F8E5] = "fp8e5", [IR_F16] = "fp16",
	    [IR_BF16] = "bf16",   [IR_F32] = "fp32",  [IR_F64] = "fp64",
	};
	return k < IR_PTR ? names[k] : "?";
}

const char *sema_shape_str(sema *s, const ir_type *t)
{
	strbuf b = {0};
	strbuf_putc(&b, '[');
	for (int i = 0; t->kind == IR_TILE && i < t->rank; i++)
		strbuf_printf(&b, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
	strbuf_putc(&b, ']');
	char *r = arena_strdup(s->a, b.data ? b.data : "[]");
	strbuf_free(&b);
	return r;
}

const char *sema_type_name(sema *s, const ir_type *t)
{
	if (t->kind == IR_TILE)
		return arena_printf(s->a, "tensor %s of %s", sema_shape_str(s, t),
				    sema_type_name(s, t->elem));
	if (t->kind == IR_PTR)
		return arena_printf(s->a, "pointer<%s>", sema_type_name(s, t->elem));
	return scalar_name(t->kind);
}

const char *sv_describe(sema *s, const sval *v)
{
	switch (v->kind) {
	case SV_UNDEF: return "nothing (the call returns no value)";
	case SV_IR:
		return v->ir->type->kind == IR_TILE
			   ? arena_printf(s->a, "a %s", sema_type_name(s, v->ir->type))
			   : arena_printf(s->a, "a runtime %s scalar", sema_type_name(s, v->ir->type));
	case SV_INT: return arena_printf(s->a, "the constant %lld", (long long)v->i);
	case SV_FLOAT: return arena_printf(s->a, "the constant %g", v->f);
	case SV_BOOL: return v->b ? "the constant True" : "the constant False";
	case SV_NONE: return "None";
	case SV_STR: return arena_printf(s->a, "the string \"%s\"", v->s);
	case SV_DTYPE: return arena_printf(s->a, "the dtype %s", sema_type_name(s, v->dtype));
	case SV_TUPLE: return arena_printf(s->a, "a tuple of %d", v->tup.n);
	case SV_MODULE: return "a module";
	case SV_JITFN: return arena_printf(s->a, "the function '%s'", v->fn->name);
	case SV_BUILTIN: return arena_printf(s->a, "the builtin '%s'", sema_builtins[v->builtin].name);
	case SV_METHOD: return arena_printf(s->a, "the method '%s'", sema_builtins[v->method.builtin].name);
	case SV_SLICE: return "a slice";
	case SV_LAMBDA: return "a lambda";
	case SV_PYMOD: return arena_printf(s->a, "the module %s", v->pymod->name);
	case SV_DESC: return arena_printf(s->a, "a tensor descriptor of %s", sema_type_name(s, v->desc->base->type->elem));
	case SV_TYPEINFO:
		return arena_printf(s->a, "torch.%s(%s)", ir_type_is_float(v->dtype) ? "finfo" : "iinfo",
				    sema_type_name(s, v->dtype));
	}
	return "a value";
}

/* ---- numbers ------------------------------------------------------------------------------ */

const ir_type *sema_number_type(sema *s, const sval *v)
{
	ir_type_kind k = IR_I32;
	if (v->kind == SV_BOOL)
		k = IR_I1;
	else if (v->kind == SV_FLOAT) /* to_tensor: fp64 outside fp32's normal range */
		k = v->f == 0 || !isfinite(v->f) ||
				    (fabs(v->f) >= 0x1p-126 && fabs(v->f) <= 0x1.fffffep127)
			? IR_F32
			: IR_F64;
	else if (v->i >= -2147483648LL && v->i < 2147483648LL)
		k = IR_I32;
	else if (v->i >= 0 && v->i < 4294967296LL)
		k = IR_U32;
	else
		k = IR_I64;
	return ir_type_scalar(s->ctx, k);
}

static double num_f(const sval *v)
{
	return v->kind == SV_FLOAT ? v->f : v->kind == SV_BOOL ? (double)v->b : (double)v->i;
}

static int64_t num_i(const sval *v)
{
	return v->kind == SV_BOOL ? v->b : v->i;
}

int64_t sema_float_to_int(sema *s, double f, srcloc loc)
{
	if (isnan(f))
		sema_fail(s, loc, "cannot convert float NaN to integer");
	if (isinf(f))
		sema_fail(s, loc, "cannot convert float infinity to integer");
	if (f >= 9223372036854775808.0 || f < -9223372036854775808.0)
		sema_fail(s, loc, "%g does not fit in a 64-bit integer", f);
	return (int64_t)f;
}

double sema_float_pow(sema *s, double a, double b, srcloc loc)
{
	if (a == 0 && b < 0)
		sema_fail(s, loc, "0.0 cannot be raised to a negative power");
	if (a < 0 && isfinite(b) && b != floor(b))
		sema_fail(s, loc, "a negative number raised to a fractional power (a complex "
				  "number) in a constant expression");
	double p = pow(a, b);
	if (isinf(p) && isfinite(a) && isfinite(b))
		sema_fail(s, loc, "float overflow in a constant expression: %g ** %g", a, b);
	return p;
}

ir_value *sema_const(sema *s, const ir_type *t, const sval *v)
{
	const ir_type *e = ir_type_elem(t);
	if (ir_type_is_float(e))
		return ir_const_float(&s->b, t, num_f(v));
	if (v->kind == SV_FLOAT) /* a float stored in an integer: truncation, like Triton */
		return ir_const_int(&s->b, t, sema_float_to_int(s, v->f, s->b.loc));
	int64_t x = num_i(v);
	if (e->kind == IR_I1)
		x = x != 0;
	return ir_const_int(&s->b, t, x);
}

ir_value *sema_to_ir(sema *s, const sval *v, const ir_type *as, srcloc loc)
{
	if (v->kind == SV_IR)
		return v->ir;
	if (!sv_is_number(v))
		sema_fail(s, loc, "expected a tensor or a number, got %s", sv_describe(s, v));
	sema_at(s, loc);
	return sema_const(s, as ? as : sema_number_type(s, v), v);
}

bool sema_ir_const_int(const ir_value *v, int64_t *out)
{
	const ir_op *d = v->def;
	if (!d || d->code != IR_OP_CONSTANT || v->type->kind == IR_TILE || ir_type_is_float(v->type))
		return false;
	const ir_attr *a = ir_op_attr(d, "value");
	if (!a || a->kind != IR_ATTR_INT)
		return false;
	*out = a->i;
	return true;
}

int64_t sema_expect_int(sema *s, const sval *v, srcloc loc, const char *what)
{
	int64_t k;
	if (v->kind == SV_INT)
		return v->i;
	if (v->kind == SV_BOOL)
		return v->b;
	/* a local assigned an integer is a scalar constant (Triton would reject it here;
	 * tilecc takes its value) */
	if (v->kind == SV_IR && sema_ir_const_int(v->ir, &k))
		return k;
	if (v->kind == SV_IR)
		sema_fail(s, loc, "%s must be a constexpr integer, but it is %s known only at run time",
			  what, sv_describe(s, v));
	sema_fail(s, loc, "%s must be a constexpr integer, got %s", what, sv_describe(s, v));
}

const ir_type *sema_expect_dtype(sema *s, const sval *v, srcloc loc, const char *what)
{
	if (v->kind != SV_DTYPE)
		sema_fail(s, loc, "%s must be a dtype such as tl.float32, got %s", what,
			  sv_describe(s, v));
	return v->dtype;
}

bool sema_truth(sema *s, const sval *v, srcloc loc)
{
	switch (v->kind) {
	case SV_INT: return v->i != 0;
	case SV_FLOAT: return v->f != 0;
	case SV_BOOL: return v->b;
	case SV_NONE: return false;
	case SV_STR: return v->s[0] != 0;
	case SV_TUPLE: return v->tup.n != 0;
	case SV_DTYPE: case SV_MODULE: case SV_JITFN: case SV_BUILTIN: case SV_METHOD: return true;
	default: {
		int64_t k; /* a local assigned a number: a scalar constant */
		if (v->kind == SV_IR && sema_ir_const_int(v->ir, &k))
			return k != 0;
		sema_fail(s, loc, "a constexpr condition is required here, got %s", sv_describe(s, v));
	}
	}
}

void sema_check_shape(sema *s, int rank, const int64_t *shape, srcloc loc)
{
	int64_t n = 1;
	for (int i = 0; i < rank; i++) {
		if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)))
			sema_fail(s, loc, "shape dimension %d is %lld; tile dimensions must be powers of two",
				  i, (long long)shape[i]);
		if (shape[i] > s->max_tile_elems / n) /* n * shape[i] too many, without overflow */
			sema_fail(s, loc,
				  "a tile may hold at most %lld elements (raise the limit with "
				  "--max-tile-elems=N)",
				  (long long)s->max_tile_elems);
		n *= shape[i];
	}
}

/* ---- broadcasting ------------------------------------------------------------------------- */

ir_value *sema_broadcast_to(sema *s, ir_value *x, int rank, const int64_t *shape, srcloc loc)
{
	const ir_type *t = x->type;
	const ir_type *target = ir_type_tile(s->ctx, ir_type_elem(t), rank, shape);
	if (t == target)
		return x;
	sema_at(s, loc);
	if (t->kind != IR_TILE)
		return ir_build1(&s->b, IR_OP_SPLAT, target, x);
	if (t->rank > rank)
		goto bad;
	/* left-extend with dims of 1 */
	while (t->rank < rank) {
		const ir_type *nt;
		int64_t sh[16];
		sh[0] = 1;
		memcpy(sh + 1, t->shape, sizeof(int64_t) * (size_t)t->rank);
		nt = ir_type_tile(s->ctx, t->elem, t->rank + 1, sh);
		ir_value *e = ir_build1(&s->b, IR_OP_EXPAND_DIMS, nt, x);
		ir_op_set_int(s->ctx, e->def, "axis", 0);
		x = e;
		t = nt;
	}
	for (int i = 0; i < rank; i++)
		if (t->shape[i] != shape[i] && t->shape[i] != 1)
			goto bad;
	if (t == target)
		return x;
	return ir_build1(&s->b, IR_OP_BROADCAST, target, x);
bad:
	sema_fail(s, loc, "cannot broadcast shape %s to %s", sema_shape_str(s, x->type),
		  sema_shape_str(s, target));
}

void sema_broadcast_pair(sema *s, ir_value **x, ir_value **y, srcloc loc, const char *opname)
{
	const ir_type *a = (*x)->type, *b = (*y)->type;
	if (a->kind != IR_TILE && b->kind != IR_TILE)
		return;
	if (a->kind != IR_TILE) {
		*x = sema_broadcast_to(s, *x, b->rank, b->shape, loc);
		return;
	}
	if (b->kind != IR_TILE) {
		*y = sema_broadcast_to(s, *y, a->rank, a->shape, loc);
		return;
	}
	int rank = a->rank > b->rank ? a->rank : b->rank;
	if (rank > 16)
		sema_fail(s, loc, "tiles of rank %d are not supported", rank);
	int64_t sh[16];
	for (int i = 0; i < rank; i++) {
		int ia = i - (rank - a->rank), ib = i - (rank - b->rank);
		int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
		if (da != db && da != 1 && db != 1)
			sema_fail(s, loc, "incompatible shapes %s and %s for '%s' (dimension %d: %lld vs %lld)",
				  sema_shape_str(s, a), sema_shape_str(s, b), opname, i, (long long)da,
				  (long long)db);
		sh[i] = da == 1 ? db : da;
	}
	*x = sema_broadcast_to(s, *x, rank, sh, loc);
	*y = sema_broadcast_to(s, *y, rank, sh, loc);
}

/* ---- casts -------------------------------------------------------------------------------- */

ir_value *sema_to_i1(sema *s, ir_value *x, srcloc loc)
{
	const ir_type *e = ir_type_elem(x->type);
	if (e->kind == IR_I1)
		return x;
	sema_at(s, loc);
	const ir_type *rt = ir_type_with_elem(s->ctx, x->type, ir_type_scalar(s->ctx, IR_I1));
	ir_value *zero, *r;
	if (e->kind == IR_PTR) {
		const ir_type *i64 = ir_type_with_elem(s->ctx, x->type, ir_type_scalar(s->ctx, IR_I64));
		x = ir_build1(&s->b, IR_OP_PTRTOINT, i64, x);
		e = ir_type_elem(i64);
	}
	zero = ir_type_is_float(e) ? ir_const_float(&s->b, x->type, 0) : ir_const_int(&s->b, x->type, 0);
	r = ir_build2(&s->b, ir_type_is_float(e) ? IR_OP_CMPF : IR_OP_CMPI, rt, x, zero);
	ir_op_set_str(s->ctx, r->def, "pred", ir_type_is_float(e) ? "une" : "ne");
	return r;
}

static int fp_rank(ir_type_kind k)
{
	switch (k) {
	case IR_F8E4NV: case IR_F8E5: return 1;
	case IR_F16: case IR_BF16: return 2;
	case IR_F32: return 3;
	case IR_F64: return 4;
	default: return 0;
	}
}

ir_value *sema_cast(sema *s, ir_value *x, const ir_type *to, bool bitcast, srcloc loc)
{
	const ir_type *from = ir_type_elem(x->type);
	if (to->kind == IR_TILE)
		to = to->elem;
	if (from == to)
		return x;
	sema_at(s, loc);
	const ir_type *rt = ir_type_with_elem(s->ctx, x->type, to);
	if (bitcast) {
		if (ir_type_bits(from) != ir_type_bits(to))
			sema_fail(s, loc, "cannot bitcast %s to %s: their sizes differ (%d and %d bits)",
				  sema_type_name(s, from), sema_type_name(s, to), ir_type_bits(from),
				  ir_type_bits(to));
		return ir_build1(&s->b, IR_OP_BITCAST, rt, x);
	}
	bool ff = ir_type_is_float(from), tf = ir_type_is_float(to);
	bool fi = ir_type_is_int(from), ti = ir_type_is_int(to);
	/* fp16 <-> bf16 and conversions between the fp8 formats go through fp32 */
	if (ff && tf && fp_rank(from->kind) == fp_rank(to->kind)) {
		x = sema_cast(s, x, ir_type_scalar(s->ctx, IR_F32), false, loc);
		return sema_cast(s, x, to, false, loc);
	}
	if (ff && tf)
		return ir_build1(&s->b, fp_rank(to->kind) > fp_rank(from->kind) ? IR_OP_EXTF : IR_OP_TRUNCF,
				 rt, x);
	if ((fi || ff || from->kind == IR_PTR) && to->kind == IR_I1)
		return sema_to_i1(s, x, loc);
	if (fi && ti) {
		int fb = ir_type_bits(from), tb = ir_type_bits(to);
		if (fb == tb)
			return ir_build1(&s->b, IR_OP_BITCAST, rt, x);
		return ir_build1(&s->b, tb > fb ? IR_OP_EXTI : IR_OP_TRUNCI, rt, x);
	}
	if (fi && tf)
		return ir_build1(&s->b, IR_OP_ITOF, rt, x);
	if (ff && ti)
		return ir_build1(&s->b, IR_OP_FTOI, rt, x);
	if (from->kind == IR_PTR && to->kind == IR_PTR)
		return ir_build1(&s->b, IR_OP_BITCAST, rt, x);
	if (from->kind == IR_PTR && ti && ir_type_bits(to) == 64)
		return ir_build1(&s->b, IR_OP_PTRTOINT, rt, x);
	if (fi && ir_type_bits(from) == 64 && to->kind == IR_PTR)
		return ir_build1(&s->b, IR_OP_INTTOPTR, rt, x);
	sema_fail(s, loc, "cannot cast %s to %s", sema_type_name(s, from), sema_type_name(s, to));
}

/* ---- promotion ------------------------------------------------------------------------------ */

/* Triton's dtype.kind() for the weak-scalar rule: bool < integral < floating. Signed and
 * unsigned integers are one kind, so a Python int never widens an integer tile
 * (x_u32 % 7 is uint32, x_i8 + 1 is int8). */
static int kind_rank(const ir_type *t)
{
	if (t->kind == IR_I1)
		return 0;
	if (ir_type_is_int(t))
		return 1;
	if (ir_type_is_float(t))
		return 2;
	return 3;
}

/* The range of integer type t, as Triton's get_int_min_value/get_int_max_value (int1 is
 * unsigned, 0..1). The maximum of uint64 does not fit: it is clamped to INT64_MAX, which
 * only matters for constants that tilecc cannot represent anyway. */
void sema_int_range(const ir_type *t, int64_t *lo, int64_t *hi)
{
	int bits = ir_type_bits(t);
	if (ir_type_is_signed(t)) {
		*lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
		*hi = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
	} else {
		*lo = 0;
		*hi = bits >= 63 ? INT64_MAX : ((int64_t)1 << bits) - 1;
	}
}

/* C's usual arithmetic conversions, as Triton applies them to integer types. */
static const ir_type *int_promote(const ir_type *a, const ir_type *b)
{
	bool sa = ir_type_is_signed(a), sb = ir_type_is_signed(b);
	int ra = ir_type_bits(a), rb = ir_type_bits(b);
	if (sa == sb)
		return ra > rb ? a : b;
	if (!sa)
		return ra >= rb ? a : b;
	return rb >= ra ? b : a;
}

/* The computation type of an arithmetic op; a_weak/b_weak mark Python numbers. */
static const ir_type *computation_type(sema *s, const ir_type *a, bool a_weak, const ir_type *b,
				       bool b_weak, bool div_or_mod, srcloc loc, const char *opname)
{
	if (a_weak != b_weak) {
		const ir_type *sc = a_weak ? a : b, *te = a_weak ? b : a;
		if (kind_rank(sc) <= kind_rank(te)) {
			if (div_or_mod && (te->kind == IR_F16 || te->kind == IR_BF16))
				return ir_type_scalar(s->ctx, IR_F32);
			return te;
		}
	}
	if (a->kind == IR_F64 || b->kind == IR_F64)
		return ir_type_scalar(s->ctx, IR_F64);
	if (a->kind == IR_F32 || b->kind == IR_F32)
		return ir_type_scalar(s->ctx, IR_F32);
	if (a->kind == IR_F16 || b->kind == IR_F16)
		return ir_type_scalar(s->ctx, div_or_mod ? IR_F32 : IR_F16);
	if (a->kind == IR_BF16 || b->kind == IR_BF16) {
		if (div_or_mod || a->kind != b->kind)
			return ir_type_scalar(s->ctx, IR_F32);
		return a;
	}
	if (ir_type_is_float(a) && ir_type_is_float(b))
		return a == b ? a : ir_type_scalar(s->ctx, IR_F16);
	if (ir_type_is_float(a) || ir_type_is_float(b)) /* fp8 with an integer */
		return ir_type_is_float(a) ? a : b;
	if (!ir_type_is_int(a) || !ir_type_is_int(b))
		sema_fail(s, loc, "unexpected operand types %s and %s for '%s'", sema_type_name(s, a),
			  sema_type_name(s, b), opname);
	if (div_or_mod && ir_type_is_signed(a) != ir_type_is_signed(b))
		sema_fail(s, loc,
			  "cannot use '%s' between %s and %s: the signedness differs; cast one of them",
			  opname, sema_type_name(s, a), sema_type_name(s, b));
	return int_promote(a, b);
}

static bool is_weak(const sval *v)
{
	return sv_is_number(v);
}

void sema_arith_operands(sema *s, sval l, sval r, bool div_or_mod, ir_value **lo, ir_value **ro,
			 srcloc loc, const char *opname)
{
	if (!sv_is_number(&l) && l.kind != SV_IR)
		sema_fail(s, loc, "unsupported operand for '%s': %s", opname, sv_describe(s, &l));
	if (!sv_is_number(&r) && r.kind != SV_IR)
		sema_fail(s, loc, "unsupported operand for '%s': %s", opname, sv_describe(s, &r));
	const ir_type *lt = l.kind == SV_IR ? ir_type_elem(l.ir->type) : sema_number_type(s, &l);
	const ir_type *rt = r.kind == SV_IR ? ir_type_elem(r.ir->type) : sema_number_type(s, &r);
	const ir_type *ct = computation_type(s, lt, is_weak(&l), rt, is_weak(&r), div_or_mod, loc, opname);
	if (!ir_type_is_signed(ct) && ir_type_is_int(ct) && ct->kind != IR_I1 &&
	    ((l.kind == SV_INT && l.i < 0) || (r.kind == SV_INT && r.i < 0)))
		sema_fail(s, loc,
			  "cannot use '%s' between an unsigned tensor and a negative constant; cast one "
			  "of them explicitly", opname);
	/* a Python int that the computation type cannot hold is an error, as in Triton
	 * (x_i8 + 300), not a silent wrap */
	if (ir_type_is_int(ct)) {
		int64_t lo, hi;
		sema_int_range(ct, &lo, &hi);
		const sval *w[2] = {&l, &r};
		for (int i = 0; i < 2; i++)
			if (w[i]->kind == SV_INT && (w[i]->i < lo || w[i]->i > hi))
				sema_fail(s, loc, "the constant %lld is out of range for %s in '%s'",
					  (long long)w[i]->i, sema_type_name(s, ct), opname);
	}
	*lo = l.kind == SV_IR ? sema_cast(s, l.ir, ct, false, loc) : sema_to_ir(s, &l, ct, loc);
	*ro = r.kind == SV_IR ? sema_cast(s, r.ir, ct, false, loc) : sema_to_ir(s, &r, ct, loc);
	sema_broadcast_pair(s, lo, ro, loc, opname);
}

ir_value *sema_max(sema *s, ir_value *x, ir_value *y, bool is_max, bool propagate_nan)
{
	const ir_type *e = ir_type_elem(x->type);
	ir_opcode op;
	if (ir_type_is_float(e))
		op = propagate_nan ? (is_max ? IR_OP_MAXIMUMF : IR_OP_MINIMUMF)
				   : (is_max ? IR_OP_MAXNUMF : IR_OP_MINNUMF);
	else
		op = is_max ? IR_OP_MAXI : IR_OP_MINI;
	return ir_build2(&s->b, op, x->type, x, y);
}

/* ---- constexpr folding with Python semantics -------------------------------------------- */

static int64_t py_floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static int64_t py_mod(int64_t a, int64_t b)
{
	int64_t m = a % b;
	if (m != 0 && ((m < 0) != (b < 0)))
		m += b;
	return m;
}

static sval fold_binary(sema *s, ast_binop op, const sval *l, const sval *r, srcloc loc)
{
	bool fl = l->kind == SV_FLOAT || r->kind == SV_FLOAT;
	if (op == AST_DIV) {
		if (num_f(r) == 0)
			sema_fail(s, loc, "division by zero in a constant expression");
		return sv_float(num_f(l) / num_f(r));
	}
	if (fl) {
		double a = num_f(l), b = num_f(r);
		switch (op) {
		case AST_ADD: return sv_float(a + b);
		case AST_SUB: return sv_float(a - b);
		case AST_MUL: return sv_float(a * b);
		case AST_POW: return sv_float(sema_float_pow(s, a, b, loc));
		case AST_FLOORDIV:
			if (b == 0)
				sema_fail(s, loc, "division by zero in a constant expression");
			return sv_float(floor(a / b));
		case AST_MOD: {
			if (b == 0)
				sema_fail(s, loc, "modulo by zero in a constant expression");
			double m = fmod(a, b);
			if (m != 0 && ((m < 0) != (b < 0)))
				m += b;
			return sv_float(m);
		}
		default:
			sema_fail(s, loc, "unsupported operand types for '%s': float constants",
				  ast_binop_str(op));
		}
	}
	int64_t a = num_i(l), b = num_i(r), x;
	switch (op) {
	case AST_ADD: if (__builtin_add_overflow(a, b, &x)) goto ovf; break;
	case AST_SUB: if (__builtin_sub_overflow(a, b, &x)) goto ovf; break;
	case AST_MUL: if (__builtin_mul_overflow(a, b, &x)) goto ovf; break;
	case AST_FLOORDIV:
	case AST_MOD:
		if (b == 0)
			sema_fail(s, loc, "integer division or modulo by zero in a constant expression");
		if (a == INT64_MIN && b == -1)
			goto ovf;
		x = op == AST_FLOORDIV ? py_floordiv(a, b) : py_mod(a, b);
		break;
	case AST_POW:
		if (b < 0)
			return sv_float(sema_float_pow(s, (double)a, (double)b, loc));
		/* by squaring: b can be large when a is 0 or +-1 */
		x = 1;
		for (int64_t base = a, e = b; e; e >>= 1) {
			if ((e & 1) && __builtin_mul_overflow(x, base, &x))
				goto ovf;
			if (e > 1 && __builtin_mul_overflow(base, base, &base))
				goto ovf;
		}
		break;
	case AST_LSHIFT:
		if (b < 0 || b > 63)
			sema_fail(s, loc, "shift count %lld out of range", (long long)b);
		x = (int64_t)((uint64_t)a << b);
		if ((x >> b) != a)
			goto ovf;
		break;
	case AST_RSHIFT:
		if (b < 0)
			sema_fail(s, loc, "negative shift count");
		x = b > 63 ? (a < 0 ? -1 : 0) : a >> b;
		break;
	case AST_BITAND: x = a & b; break;
	case AST_BITOR: x = a | b; break;
	case AST_BITXOR: x = a ^ b; break;
	default:
		sema_fail(s, loc, "unsupported operator '%s' on constants", ast_binop_str(op));
	}
	if (l->kind == SV_BOOL && r->kind == SV_BOOL &&
	    (op == AST_BITAND || op == AST_BITOR || op == AST_BITXOR))
		return sv_bool(x != 0);
	return sv_int(x);
ovf:
	sema_fail(s, loc, "integer overflow in a constant expression (tilecc folds constexprs "
			  "in 64 bits)");
}

/* ---- operators ---------------------------------------------------------------------------- */

static sval ptr_arith(sema *s, ast_binop op, sval l, sval r, srcloc loc)
{
	const char *opname = ast_binop_str(op);
	bool lp = l.kind == SV_IR && ir_type_elem(l.ir->type)->kind == IR_PTR;
	bool rp = r.kind == SV_IR && ir_type_elem(r.ir->type)->kind == IR_PTR;
	if ((lp && rp) || (op != AST_ADD && op != AST_SUB) || (rp && op == AST_SUB))
		sema_fail(s, loc, "unsupported pointer arithmetic: %s %s %s", sv_describe(s, &l),
			  opname, sv_describe(s, &r));
	sval p = lp ? l : r, o = lp ? r : l;
	ir_value *off = sema_to_ir(s, &o, NULL, loc);
	if (!ir_type_is_int(ir_type_elem(off->type)))
		sema_fail(s, loc, "pointer offsets must be integers, got %s", sv_describe(s, &o));
	ir_value *ptr = p.ir;
	sema_broadcast_pair(s, &ptr, &off, loc, opname);
	sema_at(s, loc);
	if (op == AST_SUB) {
		ir_value *zero = ir_const_int(&s->b, off->type, 0);
		off = ir_build2(&s->b, IR_OP_SUBI, off->type, zero, off);
	}
	return sv_ir(ir_build2(&s->b, IR_OP_ADDPTR, ptr->type, ptr, off));
}

static void require_value(sema *s, const sval *v, srcloc loc, const char *opname)
{
	if (v->kind != SV_IR && !sv_is_number(v))
		sema_fail(s, loc, "unsupported operand for '%s': %s", opname, sv_describe(s, v));
}

sval sema_binary(sema *s, ast_binop op, sval l, sval r, srcloc loc)
{
	const char *opname = ast_binop_str(op);
	if (sv_is_number(&l) && sv_is_number(&r))
		return fold_binary(s, op, &l, &r, loc);
	/* tuples concatenate and repeat like Python's */
	if (l.kind == SV_TUPLE && r.kind == SV_TUPLE && op == AST_ADD) {
		sval *items = ARENA_NEWN(s->a, sval, l.tup.n + r.tup.n + 1);
		memcpy(items, l.tup.items, sizeof(sval) * (size_t)l.tup.n);
		memcpy(items + l.tup.n, r.tup.items, sizeof(sval) * (size_t)r.tup.n);
		return sv_tuple(s, l.tup.n + r.tup.n, items);
	}
	if (l.kind == SV_STR && r.kind == SV_STR && op == AST_ADD)
		return (sval){.kind = SV_STR, .s = arena_printf(s->a, "%s%s", l.s, r.s)};
	require_value(s, &l, loc, opname);
	require_value(s, &r, loc, opname);
	if ((l.kind == SV_IR && ir_type_elem(l.ir->type)->kind == IR_PTR) ||
	    (r.kind == SV_IR && ir_type_elem(r.ir->type)->kind == IR_PTR))
		return ptr_arith(s, op, l, r, loc);

	ir_value *a, *b;
	const ir_type *e;
	ir_opcode code;
	switch (op) {
	case AST_ADD: case AST_SUB: case AST_MUL:
		sema_arith_operands(s, l, r, false, &a, &b, loc, opname);
		e = ir_type_elem(a->type);
		if (ir_type_is_float(e))
			code = op == AST_ADD ? IR_OP_ADDF : op == AST_SUB ? IR_OP_SUBF : IR_OP_MULF;
		else
			code = op == AST_ADD ? IR_OP_ADDI : op == AST_SUB ? IR_OP_SUBI : IR_OP_MULI;
		break;
	case AST_DIV:
		/* true division: Triton's computation type with the division rule (fp16 and
		 * bf16 divide in fp32), then integers go to fp32 */
		sema_arith_operands(s, l, r, true, &a, &b, loc, opname);
		if (ir_type_is_int(ir_type_elem(a->type))) {
			const ir_type *f32 = ir_type_scalar(s->ctx, IR_F32);
			a = sema_cast(s, a, f32, false, loc);
			b = sema_cast(s, b, f32, false, loc);
		}
		code = IR_OP_DIVF;
		break;
	case AST_FLOORDIV: case AST_MOD:
		sema_arith_operands(s, l, r, true, &a, &b, loc, opname);
		e = ir_type_elem(a->type);
		if (ir_type_is_float(e)) {
			if (op == AST_FLOORDIV)
				sema_fail(s, loc, "'//' is not defined for floating-point operands (%s)",
					  sema_type_name(s, e));
			code = IR_OP_REMF;
		} else
			code = op == AST_FLOORDIV ? IR_OP_DIVI : IR_OP_REMI;
		break;
	case AST_BITAND: case AST_BITOR: case AST_BITXOR: case AST_LSHIFT: case AST_RSHIFT: {
		/* Triton's bitwise_op_type_checking_impl: the arithmetic promotion (a Python int
		 * is weak: x_u8 & 0xF0 stays uint8), then both must be integers */
		const ir_type *ta = l.kind == SV_IR ? ir_type_elem(l.ir->type) : sema_number_type(s, &l);
		const ir_type *tb = r.kind == SV_IR ? ir_type_elem(r.ir->type) : sema_number_type(s, &r);
		if (!ir_type_is_int(ta) || !ir_type_is_int(tb))
			sema_fail(s, loc, "operator '%s' needs integer operands, got %s and %s", opname,
				  sema_type_name(s, ta), sema_type_name(s, tb));
		sema_arith_operands(s, l, r, false, &a, &b, loc, opname);
		code = op == AST_BITAND ? IR_OP_ANDI : op == AST_BITOR ? IR_OP_ORI
			: op == AST_BITXOR ? IR_OP_XORI : op == AST_LSHIFT ? IR_OP_SHLI : IR_OP_SHRI;
		break;
	}
	case AST_POW:
		sema_fail(s, loc, "'**' is only supported on constexpr values");
	default:
		sema_fail(s, loc, "operator '%s' is not supported on tensors", opname);
	}
	sema_at(s, loc);
	return sv_ir(ir_build2(&s->b, code, a->type, a, b));
}

static bool fold_compare(ast_cmpop op, const sval *l, const sval *r)
{
	if (l->kind == SV_FLOAT || r->kind == SV_FLOAT) {
		double a = num_f(l), b = num_f(r);
		switch (op) {
		case AST_EQ: return a == b;
		case AST_NE: return a != b;
		case AST_LT: return a < b;
		case AST_LE: return a <= b;
		case AST_GT: return a > b;
		default: return a >= b;
		}
	}
	int64_t a = num_i(l), b = num_i(r);
	switch (op) {
	case AST_EQ: return a == b;
	case AST_NE: return a != b;
	case AST_LT: return a < b;
	case AST_LE: return a <= b;
	case AST_GT: return a > b;
	default: return a >= b;
	}
}

/* Structural equality of compile-time values (for ==, is, and merging control flow). */
static bool sv_equal(const sval *a, const sval *b)
{
	if (sv_is_number(a) && sv_is_number(b))
		return fold_compare(AST_EQ, a, b) && (a->kind == SV_FLOAT) == (b->kind == SV_FLOAT);
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SV_NONE: case SV_UNDEF: return true;
	case SV_IR: return a->ir == b->ir;
	case SV_STR: return !strcmp(a->s, b->s);
	case SV_DTYPE: return a->dtype == b->dtype;
	case SV_MODULE: return a->module == b->module;
	case SV_JITFN: return a->fn == b->fn;
	case SV_BUILTIN: return a->builtin == b->builtin;
	case SV_TUPLE:
		if (a->tup.n != b->tup.n)
			return false;
		for (int i = 0; i < a->tup.n; i++)
			if (!sv_equal(&a->tup.items[i], &b->tup.items[i]))
				return false;
		return true;
	default: return false;
	}
}

bool sema_sv_equal(const sval *a, const sval *b)
{
	return sv_equal(a, b);
}

sval sema_compare(sema *s, ast_cmpop op, sval l, sval r, srcloc loc)
{
	const char *opname = ast_cmpop_str(op);
	if (op == AST_IS || op == AST_ISNOT) {
		/* Python identity, folded at compile time as Triton folds it: a tensor is never
		 * None (x is None is False), and is only itself */
		bool eq = sv_equal(&l, &r) && (l.kind == r.kind);
		return sv_bool(op == AST_IS ? eq : !eq);
	}
	if (op == AST_IN || op == AST_NOTIN) {
		if (r.kind != SV_TUPLE || l.kind == SV_IR)
			sema_fail(s, loc, "'%s' is only supported on constexpr tuples", opname);
		bool found = false;
		for (int i = 0; i < r.tup.n && !found; i++)
			found = sv_equal(&l, &r.tup.items[i]);
		return sv_bool(op == AST_IN ? found : !found);
	}
	if (sv_is_number(&l) && sv_is_number(&r))
		return sv_bool(fold_compare(op, &l, &r));
	if (l.kind != SV_IR && r.kind != SV_IR) {
		if (op == AST_EQ || op == AST_NE) {
			bool eq = sv_equal(&l, &r);
			return sv_bool(op == AST_EQ ? eq : !eq);
		}
		sema_fail(s, loc, "cannot compare %s and %s with '%s'", sv_describe(s, &l),
			  sv_describe(s, &r), opname);
	}
	ir_value *a, *b;
	bool lp = l.kind == SV_IR && ir_type_elem(l.ir->type)->kind == IR_PTR;
	bool rp = r.kind == SV_IR && ir_type_elem(r.ir->type)->kind == IR_PTR;
	if (lp || rp) {
		if (!(lp && rp))
			sema_fail(s, loc, "cannot compare a pointer with %s", sv_describe(s, lp ? &r : &l));
		const ir_type *i64 = ir_type_scalar(s->ctx, IR_I64);
		a = sema_cast(s, l.ir, i64, false, loc);
		b = sema_cast(s, r.ir, i64, false, loc);
		a = sema_cast(s, a, ir_type_scalar(s->ctx, IR_U64), true, loc);
		b = sema_cast(s, b, ir_type_scalar(s->ctx, IR_U64), true, loc);
		sema_broadcast_pair(s, &a, &b, loc, opname);
	} else {
		require_value(s, &l, loc, opname);
		require_value(s, &r, loc, opname);
		sema_arith_operands(s, l, r, false, &a, &b, loc, opname);
	}
	static const char *const ipred[] = {[AST_EQ] = "eq", [AST_NE] = "ne", [AST_LT] = "lt",
					    [AST_LE] = "le", [AST_GT] = "gt", [AST_GE] = "ge"};
	static const char *const fpred[] = {[AST_EQ] = "oeq", [AST_NE] = "une", [AST_LT] = "olt",
					    [AST_LE] = "ole", [AST_GT] = "ogt", [AST_GE] = "oge"};
	bool fl = ir_type_is_float(ir_type_elem(a->type));
	sema_at(s, loc);
	const ir_type *rt = ir_type_with_elem(s->ctx, a->type, ir_type_scalar(s->ctx, IR_I1));
	ir_value *c = ir_build2(&s->b, fl ? IR_OP_CMPF : IR_OP_CMPI, rt, a, b);
	ir_op_set_str(s->ctx, c->def, "pred", fl ? fpred[op] : ipred[op]);
	return sv_ir(c);
}

sval sema_unary(sema *s, ast_unop op, sval x, srcloc loc)
{
	if (sv_is_number(&x)) {
		switch (op) {
		case AST_UPLUS: return x.kind == SV_BOOL ? sv_int(x.b) : x;
		case AST_UNEG:
			if (x.kind == SV_FLOAT)
				return sv_float(-x.f);
			if (num_i(&x) == INT64_MIN)
				sema_fail(s, loc, "integer overflow in a constant expression");
			return sv_int(-num_i(&x));
		case AST_UINVERT:
			if (x.kind == SV_FLOAT)
				sema_fail(s, loc, "bad operand for '~': a float constant");
			return sv_int(~num_i(&x));
		case AST_UNOT: return sv_bool(!sema_truth(s, &x, loc));
		}
	}
	if (x.kind != SV_IR) {
		if (op == AST_UNOT)
			return sv_bool(!sema_truth(s, &x, loc));
		sema_fail(s, loc, "bad operand for unary '%s': %s", ast_unop_str(op), sv_describe(s, &x));
	}
	const ir_type *e = ir_type_elem(x.ir->type);
	sema_at(s, loc);
	switch (op) {
	case AST_UPLUS:
		return x;
	case AST_UNEG:
		if (e->kind == IR_PTR)
			sema_fail(s, loc, "cannot negate a pointer");
		if (ir_type_is_float(e))
			return sv_ir(ir_build2(&s->b, IR_OP_SUBF, x.ir->type,
					       ir_const_float(&s->b, x.ir->type, 0), x.ir));
		return sv_ir(ir_build2(&s->b, IR_OP_SUBI, x.ir->type, ir_const_int(&s->b, x.ir->type, 0),
				       x.ir));
	case AST_UINVERT:
	case AST_UNOT:
		if (!ir_type_is_int(e))
			sema_fail(s, loc, "'%s' needs an integer or boolean operand, got %s",
				  ast_unop_str(op), sema_type_name(s, e));
		if (op == AST_UNOT && e->kind != IR_I1)
			return sv_ir(sema_binary(s, AST_BITXOR, sv_ir(sema_to_i1(s, x.ir, loc)),
						 sv_bool(true), loc).ir);
		return sv_ir(ir_build2(&s->b, IR_OP_XORI, x.ir->type, x.ir,
				       ir_const_int(&s->b, x.ir->type, e->kind == IR_I1 ? 1 : -1)));
	}
	sema_fail(s, loc, "unsupported unary operator");
}
