/* sema_builtins_libdevice.c: libdevice's functions of two arguments, and those that take or
 * give integers (triton.language.extra.libdevice, also reachable as tl.math.*):
 *
 *   pow(x, y)   atan2(y, x)   fmod(x, y)   hypot(x, y)   ldexp(x, n)   ilogb(x)
 *   isnan(x)    isinf(x)      signbit(x)   finitef(x)    isfinited(x)
 *
 * Triton calls these through extern_elementwise, whose dispatch this follows: each argument
 * becomes a tensor (a Python float fp32, an int int32); when the argument dtypes are not one
 * of the function's signatures they are promoted as for arithmetic, and then they must be;
 * otherwise "input arg type does not match". All arguments broadcast to one shape. The
 * signatures are libdevice's: fp32 and fp64 (no fp16/bf16), pow also (fp, int32), ldexp
 * (fp, int32); ilogb and the classification functions return int32 (0 or 1 for the
 * latter), isfinited takes fp64 only and finitef fp32 only.
 *
 * The one-argument functions with a float result (tanh, tan, asin, ..., erfinv, trunc,
 * round, rint, nearbyint) are in sema_builtins_math.c's table with exp and the others. */
#include <string.h>

#include "frontend/sema_int.h"

#define F32 IR_F32
#define F64 IR_F64
#define I32 IR_I32

/* A function's signatures: up to two argument dtypes each (the second IR_VOID when one). */
typedef struct sig {
	ir_type_kind arg[2];
} sig;

static const struct {
	const char *name;
	int nargs;
	sig sigs[4];
	int nsigs;
} fns[] = {
	/* name        args  signatures                                                 n */
	{"pow",        2,    {{{F32, F32}}, {{F64, F64}}, {{F32, I32}}, {{F64, I32}}},  4},
	{"atan2",      2,    {{{F32, F32}}, {{F64, F64}}},                              2},
	{"fmod",       2,    {{{F32, F32}}, {{F64, F64}}},                              2},
	{"hypot",      2,    {{{F32, F32}}, {{F64, F64}}},                              2},
	{"ldexp",      2,    {{{F32, I32}}, {{F64, I32}}},                              2},
	{"ilogb",      1,    {{{F32}}, {{F64}}},                                        2},
	{"isnan",      1,    {{{F32}}, {{F64}}},                                        2},
	{"isinf",      1,    {{{F32}}, {{F64}}},                                        2},
	{"signbit",    1,    {{{F32}}, {{F64}}},                                        2},
	{"finitef",    1,    {{{F32}}},                                                 1},
	{"isfinited",  1,    {{{F64}}},                                                 1},
};

static int find_fn(const char *name)
{
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (!strcmp(fns[i].name, name))
			return (int)i;
	return -1;
}

static bool matches(int f, ir_value *const *x)
{
	for (int k = 0; k < fns[f].nsigs; k++) {
		bool ok = true;
		for (int i = 0; i < fns[f].nargs; i++)
			ok = ok && sema_velem(x[i])->kind == fns[f].sigs[k].arg[i];
		if (ok)
			return true;
	}
	return false;
}

static const char *sig_list(sema *s, int f)
{
	const char *out = "";
	for (int k = 0; k < fns[f].nsigs; k++) {
		const char *one = "";
		for (int i = 0; i < fns[f].nargs; i++)
			one = arena_printf(s->a, "%s%s%s", one, i ? ", " : "",
					   sema_type_name(s, ir_type_scalar(s->ctx, fns[f].sigs[k].arg[i])));
		out = arena_printf(s->a, "%s%s(%s%s)", out, k ? ", " : "", one, fns[f].nargs == 1 ? "," : "");
	}
	return out;
}

/* The arguments as tensors of a signature's dtypes, broadcast to one shape. */
static void dispatch(sema *s, int f, const sval *sl, const srcloc *sl_loc, srcloc loc, ir_value **x)
{
	const char *qual = arena_printf(s->a, "libdevice.%s", fns[f].name);
	for (int i = 0; i < fns[f].nargs; i++)
		x[i] = sema_to_tensor(s, &sl[i], sl_loc[i]);
	if (fns[f].nargs == 2) {
		if (matches(f, x))
			sema_broadcast_pair(s, &x[0], &x[1], loc, qual);
		else
			sema_arith_operands(s, sv_ir(x[0]), sv_ir(x[1]), false, &x[0], &x[1], loc, qual);
	}
	if (!matches(f, x)) {
		const char *got = "";
		for (int i = 0; i < fns[f].nargs; i++)
			got = arena_printf(s->a, "%s%s%s", got, i ? ", " : "", sema_type_name(s, sema_velem(x[i])));
		sema_fail(s, loc, "%s: input arg type does not match. Expect one of [%s], got (%s%s)", qual,
			  sig_list(s, f), got, fns[f].nargs == 1 ? "," : "");
	}
}

static ir_value *cmpf(sema *s, const char *pred, ir_value *x, ir_value *y)
{
	ir_value *r = ir_build2(&s->b, IR_OP_CMPF, ir_type_with_elem(s->ctx, x->type, ir_type_scalar(s->ctx, IR_I1)), x, y);
	ir_op_set_str(s->ctx, r->def, "pred", pred);
	return r;
}

/* pow, atan2, fmod, hypot, ldexp, ilogb, isnan, isinf, signbit, finitef, isfinited */
SEMA_HANDLER(sema_bi_libdevice)
{
	const char *name = sema_builtin_name(id);
	int f = find_fn(name);
	if (f < 0)
		sema_fail(s, a->loc, "internal error: no libdevice function '%s'", name);
	ir_value *x[2];
	dispatch(s, f, sl, sl_loc, a->loc, x);
	const ir_type *i32 = ir_type_scalar(s->ctx, IR_I32);
	sema_at(s, a->loc);
	if (!strcmp(name, "pow")) {
		/* (fp, int32): powi, as pow with the exponent converted (exactly) to x's dtype */
		if (ir_type_is_int(sema_velem(x[1])))
			x[1] = sema_cast(s, x[1], sema_velem(x[0]), false, a->loc);
		sema_at(s, a->loc);
		return sv_ir(ir_build2(&s->b, IR_OP_POW, x[0]->type, x[0], x[1]));
	}
	if (!strcmp(name, "atan2"))
		return sv_ir(ir_build2(&s->b, IR_OP_ATAN2, x[0]->type, x[0], x[1]));
	if (!strcmp(name, "fmod"))
		return sv_ir(ir_build2(&s->b, IR_OP_FMOD, x[0]->type, x[0], x[1]));
	if (!strcmp(name, "hypot"))
		return sv_ir(ir_build2(&s->b, IR_OP_HYPOT, x[0]->type, x[0], x[1]));
	if (!strcmp(name, "ldexp"))
		return sv_ir(ir_build2(&s->b, IR_OP_LDEXP, x[0]->type, x[0], x[1]));
	const ir_type *rt = ir_type_with_elem(s->ctx, x[0]->type, i32);
	if (!strcmp(name, "ilogb"))
		return sv_ir(ir_build1(&s->b, IR_OP_ILOGB, rt, x[0]));
	/* the classification functions: a comparison, 0 or 1 as int32 */
	ir_value *c;
	if (!strcmp(name, "isnan")) {
		c = cmpf(s, "uno", x[0], x[0]);
	} else if (!strcmp(name, "signbit")) {
		const ir_type *it = ir_type_scalar(s->ctx, sema_velem(x[0])->kind == IR_F64 ? IR_I64 : IR_I32);
		ir_value *bits = sema_cast(s, x[0], it, true, a->loc);
		c = sema_compare(s, AST_LT, sv_ir(bits), sv_int(0), a->loc).ir;
	} else {
		ir_value *ax = ir_build1(&s->b, IR_OP_ABSF, x[0]->type, x[0]);
		ir_value *inf = sema_const(s, x[0]->type, &(sval){.kind = SV_FLOAT, .f = __builtin_inf()});
		c = cmpf(s, !strcmp(name, "isinf") ? "oeq" : "olt", ax, inf);
	}
	return sv_ir(sema_cast(s, c, i32, false, a->loc));
}
