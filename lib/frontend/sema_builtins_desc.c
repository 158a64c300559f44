/* sema_builtins_desc.c: tensor descriptors made in the kernel (tl.make_tensor_descriptor)
 * or passed by the host (a tensordesc<fp16[64, 64]> parameter, Triton's TensorDescriptor),
 * and their methods desc.load(offsets), desc.store(offsets, value) and desc.atomic_*.
 *
 * A descriptor is a compile-time object (SV_DESC): the base pointer, the runtime shape
 * (int32) and strides (int64) of a global tensor, and a constexpr block shape. Each access
 * becomes the ordinary masked pointer access it stands for: the block's coordinates
 * offsets[d] + arange(block[d]) along every dimension, the pointers base + sum(coord[d] *
 * strides[d]) (in 64 bits), and the mask 0 <= coord[d] < shape[d]. So out-of-bounds reads
 * give 0 (or NaN with padding_option="nan") and out-of-bounds writes are dropped, as with
 * the TMA units Triton uses on Hopper; every target runs them the same way.
 *
 * A host descriptor arrives as 2 * rank + 2 runtime parameters (docs/abi.md, "Tensor
 * descriptor parameters"): the base, the shape (i32 each), the strides (i64 each) and the
 * padding (i1, true for NaN); its last stride is taken as the constant 1, which the host
 * guarantees (Triton asserts it, tilert_tensor_desc_init checks it). */
#include <math.h>
#include <string.h>

#include "frontend/sema_int.h"

enum { DESC_MAX_RANK = 5 };

/* An int or a runtime integer scalar of a shape, stride or offset list, as sval. */
static sval list_item(sema *s, const sval *list, int i, srcloc loc, const char *what)
{
	sval v = list->tup.items[i];
	if (v.kind == SV_INT || v.kind == SV_BOOL)
		return v;
	if (v.kind == SV_IR && v.ir->type->kind != IR_TILE && ir_type_is_int(v.ir->type))
		return v;
	sema_fail(s, loc, "%s[%d] must be an integer, got %s", what, i, sv_describe(s, &v));
}

static const sval *need_list(sema *s, const sval *v, srcloc loc, const char *what, int n)
{
	if (v->kind != SV_TUPLE)
		sema_fail(s, loc, "%s must be a list or tuple, got %s", what, sv_describe(s, v));
	if (n >= 0 && v->tup.n != n)
		sema_fail(s, loc, "%s has %d entries, but the descriptor has %d dimensions", what,
			  v->tup.n, n);
	return v;
}

/* The rules Triton puts on a block shape: powers of two within the tensor size limit, and
 * at least 16 bytes along the last dimension (the TMA units' smallest box row). */
void sema_desc_check_block(sema *s, const ir_type *elem, int rank, const int64_t *block,
			   srcloc loc)
{
	sema_check_shape(s, rank, block, loc);
	int64_t bytes = block[rank - 1] * ir_type_bits(elem) / 8;
	if (bytes < 16)
		sema_fail(s, loc, "a descriptor's block must have at least 16 bytes in the last "
				  "dimension, got %lld * %d = %lld bytes", (long long)block[rank - 1],
			  ir_type_bits(elem) / 8, (long long)bytes);
}

sval sema_host_desc(sema *s, int rank, const int64_t *block, ir_value *const *args)
{
	sema_desc *d = ARENA_NEW(s->a, sema_desc);
	d->rank = rank;
	d->base = args[0];
	for (int i = 0; i < rank; i++) {
		d->block[i] = block[i];
		d->shape[i] = args[1 + i];
		/* the last stride is 1 by contract: a constant keeps the rows contiguous for the
		 * axis analysis, as an in-kernel descriptor's literal 1 does */
		sval one = sv_int(1);
		d->strides[i] = i == rank - 1 ? sema_to_ir(s, &one, ir_type_scalar(s->ctx, IR_I64),
							   s->b.loc)
					      : args[1 + rank + i];
	}
	d->pad_flag = ir_type_is_float(d->base->type->elem) ? args[1 + 2 * rank] : NULL;
	return (sval){.kind = SV_DESC, .desc = d};
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape, padding_option="zero") */
SEMA_HANDLER(sema_bi_make_tensor_descriptor)
{
	(void)id;
	ir_value *base = sema_need_ir(s, &sl[0], sl_loc[0], "tl.make_tensor_descriptor");
	if (base->type->kind != IR_PTR || base->type->elem->kind == IR_TILE)
		sema_fail(s, sl_loc[0], "tl.make_tensor_descriptor's base must be a pointer to scalars, "
					"got %s", sv_describe(s, &sl[0]));
	const sval *bl = need_list(s, &sl[3], sl_loc[3], "block_shape", -1);
	int rank = bl->tup.n;
	if (rank < 1 || rank > DESC_MAX_RANK)
		sema_fail(s, sl_loc[3], "tensor descriptors have 1 to %d dimensions, got %d",
			  DESC_MAX_RANK, rank);
	need_list(s, &sl[1], sl_loc[1], "shape", rank);
	need_list(s, &sl[2], sl_loc[2], "strides", rank);
	sema_desc *d = ARENA_NEW(s->a, sema_desc);
	d->rank = rank;
	d->base = base;
	const ir_type *i32 = ir_type_scalar(s->ctx, IR_I32), *i64 = ir_type_scalar(s->ctx, IR_I64);
	for (int i = 0; i < rank; i++) {
		d->block[i] = sema_expect_int(s, &bl->tup.items[i], sl_loc[3], "block_shape entries");
		sval sh = list_item(s, &sl[1], i, sl_loc[1], "shape");
		sval st = list_item(s, &sl[2], i, sl_loc[2], "strides");
		if (i == rank - 1 && !(st.kind == SV_INT && st.i == 1))
			sema_fail(s, sl_loc[2], "a tensor descriptor's last stride must be the constant 1, "
						"got %s (give it as 1, or as an i32:1 parameter)",
				  sv_describe(s, &st));
		d->shape[i] = sh.kind == SV_IR ? sema_cast(s, sh.ir, i32, false, sl_loc[1])
					       : sema_to_ir(s, &sh, i32, sl_loc[1]);
		d->strides[i] = st.kind == SV_IR ? sema_cast(s, st.ir, i64, false, sl_loc[2])
						 : sema_to_ir(s, &st, i64, sl_loc[2]);
	}
	sema_desc_check_block(s, base->type->elem, rank, d->block, sl_loc[3]);
	const char *pad = "zero";
	if (!sv_absent(&sl[4])) {
		if (sl[4].kind != SV_STR || (strcmp(sl[4].s, "zero") && strcmp(sl[4].s, "nan")))
			sema_fail(s, sl_loc[4], "padding_option must be \"zero\" or \"nan\", got %s",
				  sv_describe(s, &sl[4]));
		pad = sl[4].s;
	}
	if (!strcmp(pad, "nan") && !ir_type_is_float(base->type->elem))
		sema_fail(s, sl_loc[4], "padding_option=\"nan\" needs a floating-point tensor, got %s",
			  sema_type_name(s, base->type->elem));
	d->pad_nan = !strcmp(pad, "nan");
	return (sval){.kind = SV_DESC, .desc = d};
}

/* The pointers and the in-bounds mask of the block at offsets. */
static void block_access(sema *s, const sema_desc *d, const sval *offs, srcloc loc,
			 sval *ptrs, sval *mask)
{
	need_list(s, offs, loc, "offsets", d->rank);
	const ir_type *i32 = ir_type_scalar(s->ctx, IR_I32), *i64 = ir_type_scalar(s->ctx, IR_I64);
	sval p = sv_ir(d->base), m = sv_bool(true);
	for (int i = 0; i < d->rank; i++) {
		sval o = list_item(s, offs, i, loc, "offsets");
		ir_value *ov = o.kind == SV_IR ? sema_cast(s, o.ir, i32, false, loc) : sema_to_ir(s, &o, i32, loc);
		int64_t n = d->block[i];
		sema_at(s, loc);
		ir_value *r = ir_build0(&s->b, IR_OP_MAKE_RANGE, ir_type_tile(s->ctx, i32, 1, &n));
		ir_op_set_int(s->ctx, r->def, "start", 0);
		ir_op_set_int(s->ctx, r->def, "end", n);
		/* the range along dim i: unit dims inserted around it (expand_dims, which the
		 * GPU layouts see through: a slice expanding into its parent, no data moved) */
		for (int k = 0, rank = 1; k < d->rank; k++) {
			if (k == i)
				continue;
			int64_t cur[DESC_MAX_RANK]; /* the shape with a unit dim inserted at k */
			for (int j = 0, src = 0; j <= rank; j++)
				cur[j] = j == k ? 1 : r->type->shape[src++];
			r = ir_build1(&s->b, IR_OP_EXPAND_DIMS, ir_type_tile(s->ctx, i32, rank + 1, cur), r);
			ir_op_set_int(s->ctx, r->def, "axis", k);
			rank++;
		}
		sval c = sema_binary(s, AST_ADD, sv_ir(ov), sv_ir(r), loc);
		/* 0 <= c < shape as one unsigned compare, c < max(shape, 0) (a negative c is
		 * above any i32 bound as u32; the max, a scalar, keeps a negative shape empty):
		 * one compare a row, not two and an and */
		const ir_type *u32 = ir_type_scalar(s->ctx, IR_U32);
		sval zero = sv_int(0);
		sema_at(s, loc);
		ir_value *bound = ir_build2(&s->b, IR_OP_MAXI, i32, d->shape[i],
					    sema_to_ir(s, &zero, i32, loc));
		sval in = sema_compare(s, AST_LT, sv_ir(sema_cast(s, c.ir, ir_type_with_elem(s->ctx, c.ir->type, u32), true, loc)),
				       sv_ir(sema_cast(s, bound, u32, true, loc)), loc);
		m = i == 0 ? in : sema_binary(s, AST_BITAND, m, in, loc);
		/* wrap_free: the widened offset is only an address of the masked access below,
		 * so where the mask holds offset + arange did not wrap, and the code generator
		 * may widen offset + lane part and add the slot's constant in 64 bits (one
		 * address a thread, the rest immediates) */
		ir_value *c64v = sema_cast(s, c.ir, i64, false, loc);
		if (c64v->def && c64v->def->code == IR_OP_EXTI)
			ir_op_set_int(s->ctx, c64v->def, "wrap_free", 1);
		sval c64 = sv_ir(c64v);
		p = sema_binary(s, AST_ADD, p, sema_binary(s, AST_MUL, c64, sv_ir(d->strides[i]), loc), loc);
	}
	*ptrs = p;
	*mask = m;
}

/* Calls the tl builtin `name` with positional arguments and keyword mask= (and other=). */
static sval call_tl(sema *s, const char *name, int npos, const sval *pos, const sval *mask,
		    const sval *other, srcloc loc)
{
	srcloc ploc[4] = {loc, loc, loc, loc};
	ast_keyword kws[2] = {{.loc = loc}, {.loc = loc}};
	sval kv[2];
	int nkw = 0;
	kws[nkw].name = strtab_cstr(s->names, "mask");
	kv[nkw++] = *mask;
	if (other) {
		kws[nkw].name = strtab_cstr(s->names, "other");
		kv[nkw++] = *other;
	}
	sema_args sa = {.pos = pos, .pos_loc = ploc, .npos = npos, .kws = kws, .kw = kv,
			.nkw = nkw, .loc = loc};
	return sema_call_builtin(s, sema_find_builtin(name, SEMA_NS_TL), &sa);
}

/* desc.load(offsets), desc.store(offsets, value), desc.atomic_add(offsets, value), ... */
SEMA_HANDLER(sema_bi_desc_method)
{
	const sema_desc *d = sl[0].desc;
	const char *m = sema_builtin_name(id);
	sval ptrs, mask;
	block_access(s, d, &sl[1], sl_loc[1], &ptrs, &mask);
	if (!strcmp(m, "load")) {
		sval other = d->pad_nan ? sv_float(NAN) : sv_int(0);
		if (d->pad_flag) {
			/* a host descriptor's padding is known at launch: where(padding, nan, 0) */
			sval w[3] = {sv_ir(d->pad_flag), sv_float(NAN), sv_float(0)};
			srcloc wl[3] = {a->loc, a->loc, a->loc};
			sema_args wa = {.pos = w, .pos_loc = wl, .npos = 3, .loc = a->loc};
			other = sema_call_builtin(s, sema_find_builtin("where", SEMA_NS_TL), &wa);
		}
		return call_tl(s, "load", 1, &ptrs, &mask, &other, a->loc);
	}
	/* the value is broadcast to the block, as Triton's descriptor stores require */
	sval pos[2] = {ptrs, sl[2]};
	if (sl[2].kind == SV_IR && sl[2].ir->type->kind == IR_TILE) {
		const ir_type *vt = sl[2].ir->type;
		bool same = vt->rank == d->rank;
		for (int i = 0; same && i < d->rank; i++)
			same = vt->shape[i] == d->block[i];
		if (!same)
			sema_fail(s, sl_loc[2], "desc.%s: the value's shape %s is not the descriptor's block "
						"shape", m, sema_shape_str(s, vt));
	}
	if (!strcmp(m, "store")) {
		call_tl(s, "store", 2, pos, &mask, NULL, a->loc);
		return (sval){.kind = SV_UNDEF};
	}
	return call_tl(s, m, 2, pos, &mask, NULL, a->loc);
}

sval sema_desc_attr(sema *s, const sval *v, const char *name, srcloc loc)
{
	const sema_desc *d = v->desc;
	int b = sema_find_builtin(name, SEMA_NS_DESC);
	if (b >= 0) {
		sval *self = ARENA_NEW(s->a, sval);
		*self = *v;
		return (sval){.kind = SV_METHOD, .method = {b, self}};
	}
	if (!strcmp(name, "block_shape")) {
		sval items[DESC_MAX_RANK];
		for (int i = 0; i < d->rank; i++)
			items[i] = sv_int(d->block[i]);
		return sv_tuple(s, d->rank, items);
	}
	if (!strcmp(name, "dtype"))
		return sv_dtype(d->base->type->elem);
	if (!strcmp(name, "block_type"))
		return sv_dtype(ir_type_tile(s->ctx, d->base->type->elem, d->rank, d->block));
	if (!strcmp(name, "shape") || !strcmp(name, "strides")) {
		sval items[DESC_MAX_RANK];
		for (int i = 0; i < d->rank; i++)
			items[i] = sv_ir(name[1] == 'h' ? d->shape[i] : d->strides[i]);
		return sv_tuple(s, d->rank, items);
	}
	sema_fail(s, loc, "a tensor descriptor has no attribute '%s'", name);
}
