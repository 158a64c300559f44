/* sema_builtins_math.c: the element-wise math builtins, and the Python, triton and math
 * builtins a kernel may call on numbers.
 *
 * tl.exp .. tl.ceil (and their tl.math spellings), libdevice's other one-argument functions
 * (tanh, tan, asin, ..., erfinv, trunc, round, rint, nearbyint), abs, sigmoid, maximum / minimum, clamp,
 * fma, umulhi, fdiv / div_rn, where, cdiv and swizzle2d; Python's min, max, float, int, bool,
 * len and abs; triton.next_power_of_2; and `import math`'s functions on constexprs. Like the
 * handlers of sema_builtins.c they follow Triton 3.x (python/triton/language/{math,standard,
 * semantic}.py) and emit tile IR through s->b. The table that names them, and the binder that
 * calls them, are in sema_builtins.c; sema_int.h declares them and the helpers shared with it. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/sema_int.h"

/* ---- element-wise math ---- */

/* The one-argument math functions. Triton (math.py) accepts only these dtypes. */
static const struct {
	const char *name;
	ir_opcode op;
	bool f32_only; /* sqrt_rn, div_rn */
	bool precise;  /* correctly rounded rather than a fast approximation */
} math1[] = {
	/* name      op             f32_only  precise */
	{"exp",      IR_OP_EXP,     false,    false},
	{"exp2",     IR_OP_EXP2,    false,    false},
	{"log",      IR_OP_LOG,     false,    false},
	{"log2",     IR_OP_LOG2,    false,    false},
	{"sqrt",     IR_OP_SQRT,    false,    false},
	{"sqrt_rn",  IR_OP_SQRT,    true,     true},
	{"rsqrt",    IR_OP_RSQRT,   false,    false},
	{"sin",      IR_OP_SIN,     false,    false},
	{"cos",      IR_OP_COS,     false,    false},
	{"erf",      IR_OP_ERF,     false,    false},
	{"floor",    IR_OP_FLOOR,   false,    false},
	{"ceil",     IR_OP_CEIL,    false,    false},
	/* the rest of libdevice's (tl.math.* and extra.libdevice.* in tilecc) */
	{"tanh",     IR_OP_TANH,    false,    false},
	{"tan",      IR_OP_TAN,     false,    false},
	{"asin",     IR_OP_ASIN,    false,    false},
	{"acos",     IR_OP_ACOS,    false,    false},
	{"atan",     IR_OP_ATAN,    false,    false},
	{"sinh",     IR_OP_SINH,    false,    false},
	{"cosh",     IR_OP_COSH,    false,    false},
	{"log1p",    IR_OP_LOG1P,   false,    false},
	{"expm1",    IR_OP_EXPM1,   false,    false},
	{"log10",    IR_OP_LOG10,   false,    false},
	{"exp10",    IR_OP_EXP10,   false,    false},
	{"cbrt",     IR_OP_CBRT,    false,    false},
	{"erfinv",   IR_OP_ERFINV,  false,    false},
	{"trunc",    IR_OP_TRUNCFP, false,    false},
	{"round",    IR_OP_ROUND,   false,    false},
	{"rint",     IR_OP_RINT,    false,    false},
	{"nearbyint", IR_OP_NEARBYINT, false, false},
};

static void check_float_dtype(sema *s, ir_value *x, bool f32_only, srcloc loc)
{
	ir_type_kind k = sema_velem(x)->kind;
	if (k != IR_F32 && (f32_only || k != IR_F64))
		sema_fail(s, loc, "Expected dtype %s but got %s", f32_only ? "['fp32']" : "['fp32', 'fp64']",
			  sema_type_name(s, sema_velem(x)));
}

/* Numbers enter the math functions as fp32 tensors. */
static ir_value *math_arg(sema *s, const sval *v, srcloc loc, int id)
{
	if (sv_is_number(v))
		return sema_to_ir(s, v, ir_type_scalar(s->ctx, IR_F32), loc);
	return sema_need_ir(s, v, loc, arena_printf(s->a, "tl.%s", sema_builtin_name(id)));
}

SEMA_HANDLER(sema_bi_math1)
{
	size_t i = 0;
	while (i < sizeof math1 / sizeof math1[0] && strcmp(math1[i].name, sema_builtin_name(id)))
		i++;
	if (i == sizeof math1 / sizeof math1[0])
		sema_fail(s, a->loc, "internal error: no math function '%s'", sema_builtin_name(id));
	ir_value *x = math_arg(s, &sl[0], sl_loc[0], id);
	check_float_dtype(s, x, math1[i].f32_only, sl_loc[0]);
	sema_at(s, a->loc);
	ir_value *r = ir_build1(&s->b, math1[i].op, x->type, x);
	if (math1[i].precise)
		ir_op_set_bool(s->ctx, r->def, "precise", true);
	return sv_ir(r);
}

static ir_value *abs_value(sema *s, ir_value *x, srcloc loc)
{
	const ir_type *e = sema_velem(x);
	sema_at(s, loc);
	if (ir_type_is_float(e))
		return ir_build1(&s->b, IR_OP_ABSF, x->type, x);
	if (ir_type_is_signed(e))
		return ir_build1(&s->b, IR_OP_ABSI, x->type, x);
	if (ir_type_is_int(e))
		return x;
	sema_fail(s, loc, "abs expects numbers, got %s", sema_type_name(s, x->type));
}

SEMA_HANDLER(sema_bi_abs)
{
	return sv_ir(abs_value(s, sema_to_tensor(s, &sl[0], sl_loc[0]), a->loc));
}

/* sigmoid(x) = 1 / (1 + exp(-x)), with exp's dtype rule */
SEMA_HANDLER(sema_bi_sigmoid)
{
	ir_value *x = math_arg(s, &sl[0], sl_loc[0], id);
	check_float_dtype(s, x, false, sl_loc[0]);
	sval neg = sema_unary(s, AST_UNEG, sv_ir(x), a->loc);
	sema_at(s, a->loc);
	ir_value *e = ir_build1(&s->b, IR_OP_EXP, x->type, neg.ir);
	sval den = sema_binary(s, AST_ADD, sv_int(1), sv_ir(e), a->loc);
	return sema_binary(s, AST_DIV, sv_int(1), den, a->loc);
}

/* The elementwise two-operand functions promote like arithmetic on tensors: Triton converts
 * numbers with to_tensor first, so here they are not weakly typed. */
static void strong_operands(sema *s, const sval *x, srcloc xl, const sval *y, srcloc yl,
			    ir_value **xo, ir_value **yo, srcloc loc, const char *fn)
{
	ir_value *a = sema_to_tensor(s, x, xl), *b = sema_to_tensor(s, y, yl);
	sema_arith_operands(s, sv_ir(a), sv_ir(b), false, xo, yo, loc, fn);
}

/* tl.maximum / tl.minimum and Python's max / min on tensors */
static ir_value *elementwise_max(sema *s, const sval *x, srcloc xl, const sval *y, srcloc yl,
				 bool is_max, bool propagate_nan, srcloc loc)
{
	const char *fn = is_max ? "tl.maximum" : "tl.minimum";
	ir_value *xa = sema_promote_bf16(s, sema_to_tensor(s, x, xl), xl);
	ir_value *ya = sema_promote_bf16(s, sema_to_tensor(s, y, yl), yl);
	ir_value *xo, *yo;
	if (sema_velem(xa)->kind == IR_PTR || sema_velem(ya)->kind == IR_PTR)
		sema_fail(s, loc, "Unexpected dtype %s for %s",
			  sema_type_name(s, sema_velem(sema_velem(xa)->kind == IR_PTR ? xa : ya)), fn);
	sema_arith_operands(s, sv_ir(xa), sv_ir(ya), false, &xo, &yo, loc, fn);
	sema_at(s, loc);
	return sema_max(s, xo, yo, is_max, propagate_nan);
}

/* maximum/minimum(x, y, propagate_nan); tl.math.max/min */
SEMA_HANDLER(sema_bi_maximum)
{
	const char *n = sema_builtin_name(id);
	bool is_max = !strcmp(n, "maximum") || !strcmp(n, "max");
	bool pn = !sv_absent(&sl[2]) && sema_truth(s, &sl[2], sl_loc[2]);
	return sv_ir(elementwise_max(s, &sl[0], sl_loc[0], &sl[1], sl_loc[1], is_max, pn, a->loc));
}

/* clamp(x, min, max, propagate_nan): floating point only */
SEMA_HANDLER(sema_bi_clamp)
{
	ir_value *x = sema_promote_bf16(s, sema_to_tensor(s, &sl[0], sl_loc[0]), sl_loc[0]);
	ir_value *lo = sema_promote_bf16(s, sema_to_tensor(s, &sl[1], sl_loc[1]), sl_loc[1]);
	ir_value *hi = sema_promote_bf16(s, sema_to_tensor(s, &sl[2], sl_loc[2]), sl_loc[2]);
	sema_arith_operands(s, sv_ir(lo), sv_ir(hi), false, &lo, &hi, a->loc, "tl.clamp");
	sema_arith_operands(s, sv_ir(x), sv_ir(lo), false, &x, &lo, a->loc, "tl.clamp");
	sema_arith_operands(s, sv_ir(x), sv_ir(hi), false, &x, &hi, a->loc, "tl.clamp");
	if (lo->type != x->type)
		sema_broadcast_pair(s, &x, &lo, a->loc, "tl.clamp");
	if (!ir_type_is_float(sema_velem(x)))
		sema_fail(s, sl_loc[0], "Unexpected dtype %s. Only floating point clamp is supported",
			  sema_type_name(s, sema_velem(x)));
	sema_at(s, a->loc);
	ir_value *r = ir_build3(&s->b, IR_OP_CLAMPF, x->type, x, lo, hi);
	if (!sv_absent(&sl[3]) && sema_truth(s, &sl[3], sl_loc[3]))
		ir_op_set_bool(s->ctx, r->def, "propagate_nan", true);
	return sv_ir(r);
}

/* fma(x, y, z): Triton legalizes (x, y), then (z, x), then (z, y) */
SEMA_HANDLER(sema_bi_fma)
{
	ir_value *x, *y, *z = sema_to_tensor(s, &sl[2], sl_loc[2]);
	strong_operands(s, &sl[0], sl_loc[0], &sl[1], sl_loc[1], &x, &y, a->loc, "tl.fma");
	sema_arith_operands(s, sv_ir(z), sv_ir(x), false, &z, &x, a->loc, "tl.fma");
	sema_arith_operands(s, sv_ir(z), sv_ir(y), false, &z, &y, a->loc, "tl.fma");
	if (x->type != z->type)
		sema_arith_operands(s, sv_ir(z), sv_ir(x), false, &z, &x, a->loc, "tl.fma");
	if (!ir_type_is_float(sema_velem(x)))
		sema_fail(s, a->loc, "tl.fma expects floating-point operands, got %s",
			  sema_type_name(s, sema_velem(x)));
	sema_at(s, a->loc);
	return sv_ir(ir_build3(&s->b, IR_OP_FMA, x->type, x, y, z));
}

/* umulhi(x, y): the high half of the product of 32- or 64-bit integers */
SEMA_HANDLER(sema_bi_umulhi)
{
	for (int i = 0; i < 2; i++)
		if (sl[i].kind == SV_IR) {
			ir_type_kind k = sema_velem(sl[i].ir)->kind;
			if (k != IR_I32 && k != IR_I64 && k != IR_U32 && k != IR_U64)
				sema_fail(s, sl_loc[i],
					  "Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got %s",
					  sema_type_name(s, sema_velem(sl[i].ir)));
		}
	ir_value *x, *y;
	strong_operands(s, &sl[0], sl_loc[0], &sl[1], sl_loc[1], &x, &y, a->loc, "tl.umulhi");
	if (!ir_type_is_int(sema_velem(x)))
		sema_fail(s, a->loc, "tl.umulhi expects integers, got %s", sema_type_name(s, sema_velem(x)));
	sema_at(s, a->loc);
	return sv_ir(ir_build2(&s->b, IR_OP_MULHI, x->type, x, y));
}

/* fdiv(x, y, ieee_rounding); div_rn(x, y) (fp32, correctly rounded) */
SEMA_HANDLER(sema_bi_fdiv)
{
	bool rn = !strcmp(sema_builtin_name(id), "div_rn");
	ir_value *x = sema_to_tensor(s, &sl[0], sl_loc[0]), *y = sema_to_tensor(s, &sl[1], sl_loc[1]);
	if (rn) {
		check_float_dtype(s, x, true, sl_loc[0]);
		check_float_dtype(s, y, true, sl_loc[1]);
	} else if (!ir_type_is_float(sema_velem(x)) || !ir_type_is_float(sema_velem(y))) {
		sema_fail(s, a->loc, "both operands of fdiv must have floating scalar type, got %s and %s",
			  sema_type_name(s, sema_velem(x)), sema_type_name(s, sema_velem(y)));
	}
	sema_arith_operands(s, sv_ir(x), sv_ir(y), false, &x, &y, a->loc, rn ? "tl.div_rn" : "tl.fdiv");
	sema_at(s, a->loc);
	ir_value *r = ir_build2(&s->b, IR_OP_DIVF, x->type, x, y);
	if (rn || sema_cbool(s, &sl[2], sl_loc[2], "ieee_rounding", false))
		ir_op_set_bool(s->ctx, r->def, "precise", true);
	return sv_ir(r);
}

/* where(condition, x, y): x and y promote like arithmetic (numbers weakly typed); all three
 * broadcast to one shape */
SEMA_HANDLER(sema_bi_where)
{
	ir_value *c = sema_to_tensor(s, &sl[0], sl_loc[0]);
	if (sema_velem(c)->kind != IR_I1)
		c = sema_to_i1(s, c, sl_loc[0]);
	ir_value *x, *y;
	bool px = sl[1].kind == SV_IR && sema_velem(sl[1].ir)->kind == IR_PTR;
	bool py = sl[2].kind == SV_IR && sema_velem(sl[2].ir)->kind == IR_PTR;
	if (px || py) {
		x = sema_to_tensor(s, &sl[1], sl_loc[1]);
		y = sema_to_tensor(s, &sl[2], sl_loc[2]);
		if (sema_velem(x) != sema_velem(y))
			sema_fail(s, a->loc, "tl.where needs x and y of one type, got %s and %s",
				  sema_type_name(s, sema_velem(x)), sema_type_name(s, sema_velem(y)));
		sema_broadcast_pair(s, &x, &y, a->loc, "tl.where");
	} else {
		sema_arith_operands(s, sl[1], sl[2], false, &x, &y, a->loc, "tl.where");
	}
	sema_broadcast_pair(s, &c, &x, a->loc, "tl.where");
	sema_broadcast_pair(s, &x, &y, a->loc, "tl.where");
	sema_at(s, a->loc);
	return sv_ir(ir_build3(&s->b, IR_OP_SELECT, x->type, c, x, y));
}

/* cdiv(x, div) = (x + div - 1) // div, for constexprs (Python semantics) and tensors alike */
SEMA_HANDLER(sema_bi_cdiv)
{
	sval t = sema_binary(s, AST_ADD, sl[0], sl[1], a->loc);
	t = sema_binary(s, AST_SUB, t, sv_int(1), a->loc);
	return sema_binary(s, AST_FLOORDIV, t, sl[1], a->loc);
}

/* swizzle2d(i, j, size_i, size_j, size_g) */
SEMA_HANDLER(sema_bi_swizzle2d)
{
	srcloc l = a->loc;
	sval ij = sema_binary(s, AST_ADD, sema_binary(s, AST_MUL, sl[0], sl[3], l), sl[1], l);
	sval size_gj = sema_binary(s, AST_MUL, sl[4], sl[3], l);
	sval group = sema_binary(s, AST_FLOORDIV, ij, size_gj, l);
	sval off_i = sema_binary(s, AST_MUL, group, sl[4], l);
	sval rest = sema_binary(s, AST_SUB, sl[2], off_i, l);
	sval size_g;
	if (sv_is_number(&rest) && sv_is_number(&sl[4]))
		size_g = sema_compare(s, AST_LT, rest, sl[4], l).b ? rest : sl[4];
	else
		size_g = sv_ir(elementwise_max(s, &rest, l, &sl[4], sl_loc[4], false, false, l));
	sval new_i = sema_binary(s, AST_ADD, off_i, sema_binary(s, AST_MOD, ij, size_g, l), l);
	sval new_j = sema_binary(s, AST_FLOORDIV, sema_binary(s, AST_MOD, ij, size_gj, l), size_g, l);
	sval items[2] = {new_i, new_j};
	return sv_tuple(s, 2, items);
}

/* ---- Python builtins ---- */

static double num_f(const sval *v)
{
	return v->kind == SV_FLOAT ? v->f : v->kind == SV_BOOL ? (double)v->b : (double)v->i;
}

/* Python's a < b on numbers. */
static bool num_lt(const sval *x, const sval *y)
{
	if (x->kind != SV_FLOAT && y->kind != SV_FLOAT)
		return (x->kind == SV_BOOL ? x->b : x->i) < (y->kind == SV_BOOL ? y->b : y->i);
	return num_f(x) < num_f(y);
}

/* min(*args) / max(*args): Python on constexprs; with any tensor operand, tl.minimum /
 * tl.maximum folded left to right (Triton 3.x maps the builtins onto them). */
SEMA_HANDLER(sema_bi_py_minmax)
{
	bool is_max = !strcmp(sema_builtin_name(id), "max");
	if (sv_absent(&sl[0]) || sl[0].tup.n == 0)
		sema_fail(s, a->loc, "%s expected at least 1 argument, got 0", sema_builtin_name(id));
	const sval *items = sl[0].tup.items;
	int n = sl[0].tup.n;
	const srcloc *locs = NULL;
	if (n == 1 && items[0].kind != SV_TUPLE)
		sema_fail(s, a->loc, "%s() needs a tuple or at least 2 arguments, got %s", sema_builtin_name(id),
			  sv_describe(s, &items[0]));
	if (n == 1) {
		n = items[0].tup.n;
		items = items[0].tup.items;
		if (n == 0)
			sema_fail(s, a->loc, "%s() arg is an empty sequence", sema_builtin_name(id));
	} else if (!a->self && n == a->npos) {
		locs = a->pos_loc;
	}
	sval acc = items[0];
	for (int i = 0; i < n; i++) {
		const sval *v = &items[i];
		srcloc l = locs ? locs[i] : a->loc;
		if (!sv_is_number(v) && v->kind != SV_IR)
			sema_fail(s, l, "%s() expects numbers or tensors, got %s", sema_builtin_name(id),
				  sv_describe(s, v));
	}
	for (int i = 1; i < n; i++) {
		const sval *v = &items[i];
		srcloc l = locs ? locs[i] : a->loc;
		if (sv_is_number(&acc) && sv_is_number(v)) {
			if (is_max ? num_lt(&acc, v) : num_lt(v, &acc))
				acc = *v;
		} else {
			acc = sv_ir(elementwise_max(s, &acc, locs ? locs[0] : a->loc, v, l, is_max, false,
						    a->loc));
		}
	}
	return acc;
}

/* float(x): numbers and the strings Python accepts ("inf", "-inf", "nan", "1e-3") */
SEMA_HANDLER(sema_bi_py_float)
{
	const sval *v = &sl[0];
	if (v->kind == SV_UNDEF)
		return sv_float(0);
	if (sv_is_number(v))
		return sv_float(num_f(v));
	if (v->kind == SV_STR) {
		const char *p = v->s;
		while (isspace((unsigned char)*p))
			p++;
		size_t n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		char buf[64];
		if (n == 0 || n >= sizeof buf)
			goto bad;
		memcpy(buf, p, n);
		buf[n] = 0;
		const char *q = buf;
		double sign = 1;
		if (*q == '+' || *q == '-')
			sign = *q++ == '-' ? -1 : 1;
		char low[64];
		size_t i = 0;
		for (; q[i]; i++)
			low[i] = (char)tolower((unsigned char)q[i]);
		low[i] = 0;
		if (!strcmp(low, "inf") || !strcmp(low, "infinity"))
			return sv_float(sign * INFINITY);
		if (!strcmp(low, "nan"))
			return sv_float(NAN);
		if (!isdigit((unsigned char)*q) && *q != '.')
			goto bad;
		char *end;
		errno = 0;
		double d = strtod(q, &end);
		if (*end)
			goto bad;
		return sv_float(sign * d);
	bad:
		sema_fail(s, sl_loc[0], "could not convert string to float: '%s'", v->s);
	}
	if (v->kind == SV_IR)
		sema_fail(s, sl_loc[0], "float() of a tensor is not known at compile time; use x.to(tl.float32)");
	sema_fail(s, sl_loc[0], "float() argument must be a string or a number, got %s",
		  sv_describe(s, v));
}

/* int(x): truncation toward zero for floats; decimal strings */
SEMA_HANDLER(sema_bi_py_int)
{
	const sval *v = &sl[0];
	switch (v->kind) {
	case SV_UNDEF: return sv_int(0);
	case SV_INT: return *v;
	case SV_BOOL: return sv_int(v->b);
	case SV_FLOAT:
		return sv_int(sema_float_to_int(s, v->f, sl_loc[0]));
	case SV_STR: {
		char *end;
		errno = 0;
		long long x = strtoll(v->s, &end, 10);
		while (isspace((unsigned char)*end))
			end++;
		if (end == v->s || *end || errno)
			sema_fail(s, sl_loc[0], "invalid literal for int() with base 10: '%s'", v->s);
		return sv_int(x);
	}
	case SV_IR:
		sema_fail(s, sl_loc[0], "int() of a tensor is not known at compile time; use x.to(tl.int32)");
	default:
		sema_fail(s, sl_loc[0], "int() argument must be a string or a number, got %s",
			  sv_describe(s, v));
	}
}

SEMA_HANDLER(sema_bi_py_bool)
{
	if (sl[0].kind == SV_UNDEF)
		return sv_bool(false);
	if (sl[0].kind == SV_IR)
		sema_fail(s, sl_loc[0], "bool() of a tensor is not known at compile time");
	return sv_bool(sema_truth(s, &sl[0], sl_loc[0]));
}

SEMA_HANDLER(sema_bi_py_len)
{
	const sval *v = &sl[0];
	if (v->kind == SV_TUPLE)
		return sv_int(v->tup.n);
	if (v->kind == SV_STR)
		return sv_int((int64_t)strlen(v->s));
	if (v->kind == SV_IR && v->ir->type->kind == IR_TILE)
		return sv_int(v->ir->type->shape[0]);
	sema_fail(s, sl_loc[0], "%s has no len()", sv_describe(s, v));
}

SEMA_HANDLER(sema_bi_py_abs)
{
	const sval *v = &sl[0];
	switch (v->kind) {
	case SV_INT:
		if (v->i == INT64_MIN)
			sema_fail(s, sl_loc[0], "abs(%lld) overflows 64 bits", (long long)v->i);
		return sv_int(v->i < 0 ? -v->i : v->i);
	case SV_BOOL: return sv_int(v->b);
	case SV_FLOAT: return sv_float(fabs(v->f));
	case SV_IR: return sv_ir(abs_value(s, v->ir, a->loc));
	default: sema_fail(s, sl_loc[0], "bad operand for abs(): %s", sv_describe(s, v));
	}
}

/* triton.next_power_of_2(n), with Triton's bit trick (0 gives 0) */
SEMA_HANDLER(sema_bi_next_power_of_2)
{
	int64_t n = sema_cint(s, &sl[0], sl_loc[0], "n");
	uint64_t x = (uint64_t)n - 1;
	x |= x >> 1;
	x |= x >> 2;
	x |= x >> 4;
	x |= x >> 8;
	x |= x >> 16;
	x |= x >> 32;
	return sv_int((int64_t)(x + 1));
}

/* triton.language.standard._log2(i): floor(log2(i)) of a constexpr, 0 for i <= 1, as
 * Triton's loop of right shifts (argsort and bitonic sorts use it on a power of two) */
SEMA_HANDLER(sema_bi_log2_floor)
{
	int64_t n = sema_cint(s, &sl[0], sl_loc[0], "i");
	int64_t r = 0;
	while (n > 1) {
		n >>= 1;
		r++;
	}
	return sv_int(r);
}

/* import math: the functions on constexpr numbers */
SEMA_HANDLER(sema_bi_pymath)
{
	const char *n = sema_builtin_name(id);
	for (int i = 0; i < 2; i++)
		if (sl[i].kind != SV_UNDEF && !sv_is_number(&sl[i]))
			sema_fail(s, sl_loc[i], "math.%s() needs a constexpr number, got %s", n,
				  sv_describe(s, &sl[i]));
	double x = num_f(&sl[0]);
	if (!strcmp(n, "isnan"))
		return sv_bool(isnan(x));
	if (!strcmp(n, "isinf"))
		return sv_bool(isinf(x));
	if (!strcmp(n, "isfinite"))
		return sv_bool(isfinite(x));
	if (!strcmp(n, "ceil") || !strcmp(n, "floor") || !strcmp(n, "trunc")) {
		if (sl[0].kind != SV_FLOAT)
			return sv_int(sl[0].kind == SV_BOOL ? sl[0].b : sl[0].i);
		double r = !strcmp(n, "ceil") ? ceil(x) : !strcmp(n, "floor") ? floor(x) : trunc(x);
		return sv_int(sema_float_to_int(s, r, sl_loc[0]));
	}
	if (!strcmp(n, "gcd")) {
		int64_t p = sema_cint(s, &sl[0], sl_loc[0], "a");
		int64_t q = sv_absent(&sl[1]) ? 0 : sema_cint(s, &sl[1], sl_loc[1], "b");
		p = p < 0 ? -p : p;
		q = q < 0 ? -q : q;
		while (q) {
			int64_t t = p % q;
			p = q;
			q = t;
		}
		return sv_int(p);
	}
	bool two = !strcmp(n, "pow") || (!strcmp(n, "log") && !sv_absent(&sl[1]));
	double y = two ? num_f(&sl[1]) : 0;
	if ((!strcmp(n, "log") || !strcmp(n, "log2") || !strcmp(n, "log10")) && x <= 0)
		sema_fail(s, sl_loc[0], "math domain error");
	if (!strcmp(n, "sqrt") && x < 0)
		sema_fail(s, sl_loc[0], "math domain error");
	double r;
	if (!strcmp(n, "log"))
		r = two ? log(x) / log(y) : log(x);
	else if (!strcmp(n, "log2"))
		r = log2(x);
	else if (!strcmp(n, "log10"))
		r = log10(x);
	else if (!strcmp(n, "sqrt"))
		r = sqrt(x);
	else if (!strcmp(n, "exp"))
		r = exp(x);
	else if (!strcmp(n, "exp2"))
		r = exp2(x);
	else if (!strcmp(n, "pow"))
		r = sema_float_pow(s, x, y, a->loc);
	else if (!strcmp(n, "fabs"))
		r = fabs(x);
	else
		sema_fail(s, a->loc, "internal error: no math function '%s'", n);
	return sv_float(r);
}
