/* sema_dtype.c: the attributes and methods of Triton's type objects, folded at compile time.
 *
 * A kernel reaches a type as x.dtype (the element type: tl.float16, or pointer<fp16> for a
 * tile of pointers), x.type (the whole type: a block type for a tile, the dtype for a
 * scalar), ptr.dtype.element_ty, or tl.float16 itself. All of them are SV_DTYPE values whose
 * ir_type may be a scalar, a pointer or a tile (Triton's dtype, pointer_type, block_type).
 *
 * The set follows python/triton/language/core.py (Triton 3.x): fields (name,
 * primitive_bitwidth, itemsize, int_bitwidth, fp_mantissa_width, exponent_bias, element_ty,
 * scalar, shape, numel, address_space) and methods (is_fp16(), is_int_signed(), is_block(),
 * get_int_max_value(), ...). As in Triton, the name-based predicates are false for pointer
 * and block types (x.type.is_fp16() is False for a tile; x.dtype.is_fp16() asks the
 * element). Fields a type does not have (int_bitwidth of a float) are located errors, as
 * Triton's AttributeError. */
#include <string.h>

#include "frontend/sema_int.h"

/* Triton's short dtype names, the `name` field ("fp16", "int32", "pointer<fp16>"). */
static const char *dtype_name(sema *s, const ir_type *t)
{
	static const char *const names[] = {
	    [IR_I1] = "int1",   [IR_I8] = "int8",    [IR_I16] = "int16",  [IR_I32] = "int32",
	    [IR_I64] = "int64", [IR_U8] = "uint8",   [IR_U16] = "uint16", [IR_U32] = "uint32",
	    [IR_U64] = "uint64", [IR_F8E4NV] = "fp8e4nv", [IR_F8E5] = "fp8e5", [IR_F16] = "fp16",
	    [IR_BF16] = "bf16", [IR_F32] = "fp32",   [IR_F64] = "fp64",
	};
	if (t->kind == IR_PTR)
		return arena_printf(s->a, "pointer<%s>", dtype_name(s, t->elem));
	if (t->kind == IR_TILE)
		return arena_printf(s->a, "<%s, %s>", sema_shape_str(s, t), dtype_name(s, t->elem));
	return names[t->kind];
}

static bool is_scalar(const ir_type *t)
{
	return t->kind != IR_PTR && t->kind != IR_TILE;
}

static _Noreturn void no_attr(sema *s, const ir_type *t, const char *name, srcloc loc)
{
	sema_fail(s, loc, "dtype %s has no attribute '%s'", sema_type_name(s, t), name);
}

sval sema_dtype_attr(sema *s, const ir_type *t, const char *name, srcloc loc)
{
	/* methods: bound to the type, called later through the builtin table */
	int b = sema_find_builtin(name, SEMA_NS_DTYPE);
	if (b >= 0) {
		sval *self = ARENA_NEW(s->a, sval);
		*self = sv_dtype(t);
		return (sval){.kind = SV_METHOD, .method = {b, self}};
	}
	if (!strcmp(name, "name"))
		return (sval){.kind = SV_STR, .s = dtype_name(s, t)};
	if (!strcmp(name, "element_ty")) {
		if (t->kind != IR_PTR && t->kind != IR_TILE)
			sema_fail(s, loc, "'element_ty' needs a pointer or block type, got %s",
				  sema_type_name(s, t));
		return sv_dtype(t->elem);
	}
	if (!strcmp(name, "scalar"))
		return sv_dtype(t->kind == IR_TILE ? t->elem : t);
	if (t->kind == IR_TILE) {
		if (!strcmp(name, "shape")) {
			sval items[16];
			for (int i = 0; i < t->rank && i < 16; i++)
				items[i] = sv_int(t->shape[i]);
			return sv_tuple(s, t->rank, items);
		}
		if (!strcmp(name, "numel"))
			return sv_int(ir_type_numel(t));
		no_attr(s, t, name, loc);
	}
	if (t->kind == IR_PTR) {
		if (!strcmp(name, "address_space"))
			return sv_int(t->addrspace);
		/* Triton's pointer_type has no primitive_bitwidth; tilecc answers 64 (a pointer's
		 * width on every target), which old kernels rely on */
		if (!strcmp(name, "primitive_bitwidth"))
			return sv_int(64);
		no_attr(s, t, name, loc);
	}
	if (!strcmp(name, "primitive_bitwidth"))
		return sv_int(ir_type_bits(t));
	if (!strcmp(name, "itemsize"))
		return sv_int(ir_type_bits(t) / 8);
	if (ir_type_is_int(t) && !strcmp(name, "int_bitwidth"))
		return sv_int(ir_type_bits(t));
	if (ir_type_is_float(t)) {
		static const struct {
			ir_type_kind k;
			int mantissa, bias;
		} fp[] = {
		    /* kind      mantissa bias */
		    {IR_F8E4NV, 3,       7},
		    {IR_F8E5,   2,       15},
		    {IR_F16,    10,      15},
		    {IR_BF16,   7,       127},
		    {IR_F32,    23,      127},
		    {IR_F64,    52,      1023},
		};
		for (size_t i = 0; i < sizeof fp / sizeof fp[0]; i++)
			if (fp[i].k == t->kind) {
				if (!strcmp(name, "fp_mantissa_width"))
					return sv_int(fp[i].mantissa);
				if (!strcmp(name, "exponent_bias"))
					return sv_int(fp[i].bias);
			}
	}
	no_attr(s, t, name, loc);
}

/* dtype.is_fp16() and the other methods; the table entry's name says which. */
SEMA_HANDLER(sema_bi_dtype_method)
{
	const char *m = sema_builtin_name(id);
	const ir_type *t = sl[0].dtype;
	ir_type_kind k = t->kind;
	bool sc = is_scalar(t);
	static const struct {
		const char *name;
		ir_type_kind kind;
	} exact[] = {
	    {"is_fp16", IR_F16},    {"is_bf16", IR_BF16},    {"is_fp32", IR_F32},
	    {"is_fp64", IR_F64},    {"is_fp8e4nv", IR_F8E4NV}, {"is_fp8e5", IR_F8E5},
	    {"is_int1", IR_I1},     {"is_bool", IR_I1},      {"is_int8", IR_I8},
	    {"is_int16", IR_I16},   {"is_int32", IR_I32},    {"is_int64", IR_I64},
	    {"is_uint8", IR_U8},    {"is_uint16", IR_U16},   {"is_uint32", IR_U32},
	    {"is_uint64", IR_U64},
	};
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (!strcmp(m, exact[i].name))
			return sv_bool(sc && k == exact[i].kind);
	if (!strcmp(m, "is_fp8"))
		return sv_bool(k == IR_F8E4NV || k == IR_F8E5);
	if (!strcmp(m, "is_fp8e4b8") || !strcmp(m, "is_fp8e4b15") || !strcmp(m, "is_fp8e5b16"))
		return sv_bool(false); /* formats tilecc does not have */
	if (!strcmp(m, "is_floating"))
		return sv_bool(sc && ir_type_is_float(t));
	if (!strcmp(m, "is_standard_floating"))
		return sv_bool(k == IR_F16 || k == IR_BF16 || k == IR_F32 || k == IR_F64);
	if (!strcmp(m, "is_int"))
		return sv_bool(sc && ir_type_is_int(t));
	/* int1 counts as unsigned, as in Triton's UINT_TYPES */
	if (!strcmp(m, "is_int_signed"))
		return sv_bool(sc && ir_type_is_int(t) && ir_type_is_signed(t));
	if (!strcmp(m, "is_int_unsigned"))
		return sv_bool(sc && ir_type_is_int(t) && !ir_type_is_signed(t));
	if (!strcmp(m, "is_ptr"))
		return sv_bool(k == IR_PTR);
	if (!strcmp(m, "is_block"))
		return sv_bool(k == IR_TILE);
	if (!strcmp(m, "is_const"))
		return sv_bool(false);
	if (!strcmp(m, "is_void"))
		return sv_bool(false);
	if (!strcmp(m, "get_block_shapes")) {
		if (k != IR_TILE)
			no_attr(s, t, m, a->loc);
		return sema_dtype_attr(s, t, "shape", a->loc);
	}
	if (!strcmp(m, "get_int_max_value") || !strcmp(m, "get_int_min_value")) {
		if (!sc || !ir_type_is_int(t))
			sema_fail(s, a->loc, "%s() needs an integer dtype, got %s", m,
				  sema_type_name(s, t));
		if (k == IR_U64 && !strcmp(m, "get_int_max_value"))
			sema_fail(s, a->loc, "uint64's maximum does not fit tilecc's 64-bit signed "
					     "constexprs");
		int64_t lo, hi;
		sema_int_range(t, &lo, &hi);
		return sv_int(!strcmp(m, "get_int_max_value") ? hi : lo);
	}
	if (!strcmp(m, "with_element_ty")) {
		const ir_type *e = sema_expect_dtype(s, &sl[1], sl_loc[1], "with_element_ty's argument");
		if (k == IR_TILE)
			return sv_dtype(ir_type_tile(s->ctx, e, t->rank, t->shape));
		return sv_dtype(e);
	}
	sema_fail(s, a->loc, "dtype method '%s' is not supported", m);
}

/* tl.core.get_int_dtype(bitwidth, signed): int1 for 1 bit, else the int or uint type of that
 * width, as Triton's core.py. */
SEMA_HANDLER(sema_bi_get_int_dtype)
{
	(void)id;
	int64_t bits = sema_cint(s, &sl[0], sl_loc[0], "bitwidth");
	if (!sv_is_number(&sl[1]))
		sema_fail(s, sl_loc[1], "get_int_dtype's 'signed' must be a constexpr bool, got %s",
			  sv_describe(s, &sl[1]));
	bool sg = sema_truth(s, &sl[1], sl_loc[1]);
	ir_type_kind k;
	switch (bits) {
	case 1: k = IR_I1; break;
	case 8: k = sg ? IR_I8 : IR_U8; break;
	case 16: k = sg ? IR_I16 : IR_U16; break;
	case 32: k = sg ? IR_I32 : IR_U32; break;
	case 64: k = sg ? IR_I64 : IR_U64; break;
	default:
		sema_fail(s, sl_loc[0], "get_int_dtype: unsupported bitwidth %lld", (long long)bits);
	}
	return sv_dtype(ir_type_scalar(s->ctx, k));
}
