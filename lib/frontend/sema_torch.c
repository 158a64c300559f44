/* sema_torch.c: the part of torch that kernel files compute with at compile time.
 *
 * Real kernel files import torch for their host code, and some of their module-level
 * constants come from it: `_MIN_FLOAT32_VAL = tl.constexpr(torch.finfo(torch.float32).min)`,
 * `INT32_MAX = torch.iinfo(torch.int32).max`. Those are numbers fixed by the dtype, so
 * tilecc provides a built-in `torch` module with exactly that surface:
 *
 *   - the dtypes (torch.float16, torch.half, torch.int32, torch.bool, ...), which are the
 *     matching Triton dtypes (torch.float16 is tl.float16);
 *   - torch.finfo(float dtype): bits, eps, max, min, tiny, smallest_normal, resolution, dtype;
 *   - torch.iinfo(integer dtype): bits, max, min, dtype.
 *
 * The values are torch's (IEEE limits of each format; resolution is 10 ** -floor(-log10(eps))).
 * Any other torch name a kernel reaches (torch.empty, torch.device, torch.complex64) is a
 * located error that says what the built-in module has; host code may use anything, since
 * module level is only evaluated where a kernel needs it. */
#include <math.h>
#include <string.h>

#include "frontend/sema_int.h"

/* torch's dtype names (and aliases) and the tilecc type each one is. */
static const struct {
	const char *name;
	ir_type_kind kind;
} torch_dtypes[] = {
    {"float16", IR_F16},  {"half", IR_F16},       {"bfloat16", IR_BF16},
    {"float32", IR_F32},  {"float", IR_F32},      {"float64", IR_F64},
    {"double", IR_F64},   {"float8_e4m3fn", IR_F8E4NV}, {"float8_e5m2", IR_F8E5},
    {"int8", IR_I8},      {"int16", IR_I16},      {"short", IR_I16},
    {"int32", IR_I32},    {"int", IR_I32},        {"int64", IR_I64},
    {"long", IR_I64},     {"uint8", IR_U8},       {"uint16", IR_U16},
    {"uint32", IR_U32},   {"uint64", IR_U64},     {"bool", IR_I1},
};

/* The torch name of a tilecc type ("float32"), for finfo(...).dtype. */
static const char *torch_name(ir_type_kind k)
{
	for (size_t i = 0; i < sizeof torch_dtypes / sizeof torch_dtypes[0]; i++)
		if (torch_dtypes[i].kind == k)
			return torch_dtypes[i].name;
	return "?";
}

sval sema_torch_attr(sema *s, const char *name, srcloc loc)
{
	for (size_t i = 0; i < sizeof torch_dtypes / sizeof torch_dtypes[0]; i++)
		if (!strcmp(torch_dtypes[i].name, name))
			return sv_dtype(ir_type_scalar(s->ctx, torch_dtypes[i].kind));
	int b = sema_find_builtin(name, SEMA_NS_TORCH);
	if (b >= 0)
		return (sval){.kind = SV_BUILTIN, .builtin = b};
	sema_fail(s, loc, "'torch.%s' is not available to kernels: tilecc's built-in torch has only "
			  "the dtypes, torch.finfo and torch.iinfo", name);
}

/* torch.finfo(dtype) and torch.iinfo(dtype): the entry's name says which. As torch, finfo
 * takes only floating dtypes and iinfo only integer ones (not bool). */
SEMA_HANDLER(sema_bi_torch_info)
{
	bool fi = !strcmp(sema_builtin_name(id), "finfo");
	const ir_type *t;
	if (sl[0].kind == SV_UNDEF) {
		if (!fi)
			sema_fail(s, a->loc, "torch.iinfo() needs a dtype");
		t = ir_type_scalar(s->ctx, IR_F32); /* finfo() is the default dtype's */
	} else {
		t = sema_expect_dtype(s, &sl[0], sl_loc[0], fi ? "torch.finfo's argument"
							       : "torch.iinfo's argument");
	}
	if (t->kind == IR_PTR || t->kind == IR_TILE ||
	    (fi ? !ir_type_is_float(t) : !ir_type_is_int(t) || t->kind == IR_I1))
		sema_fail(s, sl_loc[0], "torch.%s needs %s dtype, got %s", fi ? "finfo" : "iinfo",
			  fi ? "a floating-point" : "an integer", sema_type_name(s, t));
	return (sval){.kind = SV_TYPEINFO, .dtype = t};
}

/* Limits of the floating formats: eps (2^-mantissa), the largest finite value, the
 * smallest normal one, and torch's resolution. */
static void float_limits(ir_type_kind k, double *eps, double *max, double *tiny, double *res)
{
	int mant, emax, emin;
	switch (k) {
	case IR_F16: mant = 10, emax = 15, emin = -14; break;
	case IR_BF16: mant = 7, emax = 127, emin = -126; break;
	case IR_F32: mant = 23, emax = 127, emin = -126; break;
	case IR_F64: mant = 52, emax = 1023, emin = -1022; break;
	case IR_F8E5: mant = 2, emax = 15, emin = -14; break;
	default: /* IR_F8E4NV: e4m3fn has no infinities; its largest is 0b1.110 * 2^8 = 448 */
		*eps = 0.125, *max = 448.0, *tiny = ldexp(1.0, -6), *res = 1.0;
		return;
	}
	*eps = ldexp(1.0, -mant);
	*max = ldexp(2.0 - ldexp(1.0, -mant), emax);
	*tiny = ldexp(1.0, emin);
	*res = pow(10.0, -floor(-log10(*eps)));
}

sval sema_typeinfo_attr(sema *s, const sval *v, const char *name, srcloc loc)
{
	const ir_type *t = v->dtype;
	bool fi = ir_type_is_float(t);
	if (!strcmp(name, "bits"))
		return sv_int(ir_type_bits(t));
	if (!strcmp(name, "dtype"))
		return (sval){.kind = SV_STR, .s = torch_name(t->kind)};
	if (!fi) {
		if (t->kind == IR_U64 && !strcmp(name, "max"))
			sema_fail(s, loc, "torch.iinfo(torch.uint64).max does not fit tilecc's 64-bit "
					  "signed constexprs");
		int64_t lo, hi;
		sema_int_range(t, &lo, &hi);
		if (!strcmp(name, "min"))
			return sv_int(lo);
		if (!strcmp(name, "max"))
			return sv_int(hi);
		sema_fail(s, loc, "torch.iinfo has no attribute '%s' (it has bits, min, max, dtype)",
			  name);
	}
	double eps, max, tiny, res;
	float_limits(t->kind, &eps, &max, &tiny, &res);
	if (!strcmp(name, "eps"))
		return sv_float(eps);
	if (!strcmp(name, "max"))
		return sv_float(max);
	if (!strcmp(name, "min"))
		return sv_float(-max);
	if (!strcmp(name, "tiny") || !strcmp(name, "smallest_normal"))
		return sv_float(tiny);
	if (!strcmp(name, "resolution"))
		return sv_float(res);
	sema_fail(s, loc, "torch.finfo has no attribute '%s' (it has bits, eps, min, max, tiny, "
			  "smallest_normal, resolution, dtype)", name);
}
