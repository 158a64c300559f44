/* sema_builtins_sort.c: the tl functions that move elements along an axis by index:
 * tl.gather (the tile IR's `gather` op), and what sema expands from it and the element-wise
 * ops: tl.flip (a gather with reversed indices), tl.sort (a bitonic network: one gather of
 * the partners and a compare-exchange per stage, log2(N) * (log2(N) + 1) / 2 stages),
 * tl.topk (a descending sort, then a gather of the first k), and tl.histogram (a
 * comparison of every element with every bin, summed).
 *
 * Triton implements flip, sort and topk in its standard library with reshapes to
 * [2, 2, ..., 2] hypercubes and reductions; the values (and, for sort, the multiset and
 * order) are the same here. Where elements compare equal or unordered (NaN), Triton's
 * network and this one may place them differently. */
#include <string.h>

#include "frontend/sema_int.h"

static const ir_type *i32t(sema *s)
{
	return ir_type_scalar(s->ctx, IR_I32);
}

static ir_value *tile_arg(sema *s, const sval *v, srcloc loc, const char *fn)
{
	ir_value *x = sema_need_ir(s, v, loc, fn);
	if (x->type->kind != IR_TILE)
		sema_fail(s, loc, "%s expects a tensor, got %s", fn, sv_describe(s, v));
	if (sema_velem(x)->kind == IR_PTR)
		sema_fail(s, loc, "%s expects numbers, got %s", fn, sema_type_name(s, x->type));
	return x;
}

/* The dimension argument: None is the last one, negative counts from the end. */
static int dim_arg(sema *s, const sval *v, srcloc loc, int rank, const char *fn)
{
	if (sv_absent(v))
		return rank - 1;
	int64_t d = sema_cint(s, v, loc, "dim");
	if (d < -rank || d >= rank)
		sema_fail(s, loc, "%s: dimension %lld is out of range for a tensor of rank %d", fn,
			  (long long)d, rank);
	return (int)(d < 0 ? d + rank : d);
}

/* An int32 tile of `shape` whose element is its coordinate along `axis` (arange placed
 * along axis, broadcast): the identity index of a gather. */
static ir_value *coord_tile(sema *s, int rank, const int64_t *shape, int axis, srcloc loc)
{
	int64_t n = shape[axis];
	sema_at(s, loc);
	ir_value *r = ir_build0(&s->b, IR_OP_MAKE_RANGE, ir_type_tile(s->ctx, i32t(s), 1, &n));
	ir_op_set_int(s->ctx, r->def, "start", 0);
	ir_op_set_int(s->ctx, r->def, "end", n);
	if (rank > 1) {
		int64_t sh[16];
		for (int d = 0; d < rank; d++)
			sh[d] = d == axis ? n : 1;
		r = ir_build1(&s->b, IR_OP_RESHAPE, ir_type_tile(s->ctx, i32t(s), rank, sh), r);
	}
	return sema_broadcast_to(s, r, rank, shape, loc);
}

static ir_value *gather(sema *s, ir_value *src, ir_value *index, int axis, srcloc loc)
{
	sema_at(s, loc);
	const ir_type *rt = ir_type_with_elem(s->ctx, index->type, sema_velem(src));
	ir_value *r = ir_build2(&s->b, IR_OP_GATHER, rt, src, index);
	ir_op_set_int(s->ctx, r->def, "axis", axis);
	return r;
}

/* tl.gather(src, index, axis) */
SEMA_HANDLER(sema_bi_gather)
{
	(void)id;
	ir_value *src = tile_arg(s, &sl[0], sl_loc[0], "tl.gather");
	ir_value *ix = sema_need_ir(s, &sl[1], sl_loc[1], "tl.gather");
	if (ix->type->kind != IR_TILE || !ir_type_is_int(sema_velem(ix)))
		sema_fail(s, sl_loc[1], "tl.gather's index must be an integer tensor, got %s",
			  sv_describe(s, &sl[1]));
	int rank = src->type->rank;
	if (ix->type->rank != rank)
		sema_fail(s, sl_loc[1], "tl.gather: the source and the index must have the same rank "
					"(%d and %d)", rank, ix->type->rank);
	int64_t ax = sema_cint(s, &sl[2], sl_loc[2], "axis");
	if (ax < -rank || ax >= rank)
		sema_fail(s, sl_loc[2], "tl.gather: axis %lld must be < the source's rank (%d)",
			  (long long)ax, rank);
	int axis = (int)(ax < 0 ? ax + rank : ax);
	for (int d = 0; d < rank; d++)
		if (d != axis && ix->type->shape[d] != src->type->shape[d])
			sema_fail(s, sl_loc[1], "tl.gather: index dimension %d (%lld) must match the "
						"source's (%lld); only the axis may differ", d,
				  (long long)ix->type->shape[d], (long long)src->type->shape[d]);
	return sv_ir(gather(s, src, ix, axis, a->loc));
}

/* tl.flip(x, dim=None): element i along dim becomes element N - 1 - i. */
static ir_value *flip(sema *s, ir_value *x, int dim, srcloc loc)
{
	const ir_type *t = x->type;
	ir_value *pos = coord_tile(s, t->rank, t->shape, dim, loc);
	ir_value *last = ir_const_int(&s->b, pos->type, t->shape[dim] - 1);
	ir_value *ix = ir_build2(&s->b, IR_OP_SUBI, pos->type, last, pos);
	return gather(s, x, ix, dim, loc);
}

SEMA_HANDLER(sema_bi_flip)
{
	(void)id;
	ir_value *x = tile_arg(s, &sl[0], sl_loc[0], "tl.flip");
	int dim = dim_arg(s, &sl[1], sl_loc[1], x->type->rank, "tl.flip");
	return sv_ir(flip(s, x, dim, a->loc));
}

static ir_value *cmp(sema *s, ir_value *x, ir_value *y, const char *ipred, const char *fpred)
{
	bool fl = ir_type_is_float(sema_velem(x));
	const ir_type *rt = ir_type_with_elem(s->ctx, x->type, ir_type_scalar(s->ctx, IR_I1));
	ir_value *c = ir_build2(&s->b, fl ? IR_OP_CMPF : IR_OP_CMPI, rt, x, y);
	ir_op_set_str(s->ctx, c->def, "pred", fl ? fpred : ipred);
	return c;
}

static ir_value *select3(sema *s, ir_value *c, ir_value *x, ir_value *y)
{
	return ir_build3(&s->b, IR_OP_SELECT, x->type, c, x, y);
}

/* (pos & m) == 0 as an i1 tile */
static ir_value *bit_clear(sema *s, ir_value *pos, int64_t m)
{
	ir_value *and = ir_build2(&s->b, IR_OP_ANDI, pos->type, pos, ir_const_int(&s->b, pos->type, m));
	return cmp(s, and, ir_const_int(&s->b, pos->type, 0), "eq", "oeq");
}

/* A bitonic sort of x along its last dimension. Stage (k, j) pairs element i with i ^ j;
 * the pair's lower element lo and upper element hi are exchanged when they are out of
 * order for the direction of i's block of k (ascending where i & k == 0, reversed when
 * descending). Both elements of a pair decide from the same (lo, hi), so each stage is a
 * permutation, NaNs included (an unordered pair stays as it is). */
static ir_value *bitonic_sort(sema *s, ir_value *x, bool descending, srcloc loc)
{
	const ir_type *t = x->type;
	int axis = t->rank - 1;
	int64_t n = t->shape[axis];
	if (sema_velem(x)->kind == IR_BF16 || sema_velem(x)->kind == IR_F8E4NV ||
	    sema_velem(x)->kind == IR_F8E5) {
		/* compared through fp32, exactly (every value is representable there) */
		ir_value *w = sema_cast(s, x, ir_type_scalar(s->ctx, IR_F32), false, loc);
		return sema_cast(s, bitonic_sort(s, w, descending, loc), sema_velem(x), false, loc);
	}
	ir_value *pos = coord_tile(s, t->rank, t->shape, axis, loc);
	for (int64_t k = 2; k <= n; k *= 2)
		for (int64_t j = k / 2; j >= 1; j /= 2) {
			sema_at(s, loc);
			ir_value *partner = ir_build2(&s->b, IR_OP_XORI, pos->type, pos,
						      ir_const_int(&s->b, pos->type, j));
			ir_value *y = gather(s, x, partner, axis, loc);
			ir_value *lower = bit_clear(s, pos, j);
			ir_value *lo = select3(s, lower, x, y), *hi = select3(s, lower, y, x);
			ir_value *up = cmp(s, lo, hi, "gt", "ogt");
			ir_value *down = cmp(s, lo, hi, "lt", "olt");
			/* ascending blocks: i & k == 0 (the last stage, k == n: all of them) */
			ir_value *asc = bit_clear(s, pos, k);
			ir_value *swap = descending ? select3(s, asc, down, up) : select3(s, asc, up, down);
			x = select3(s, swap, y, x);
		}
	return x;
}

static void need_pow2_last(sema *s, ir_value *x, int dim, srcloc loc, const char *fn)
{
	if (dim != x->type->rank - 1)
		sema_fail(s, loc, "%s: only the last dimension is supported (as in Triton), got "
				  "dimension %d of a tensor of rank %d", fn, dim, x->type->rank);
}

/* tl.sort(x, dim=None, descending=False) */
SEMA_HANDLER(sema_bi_sort)
{
	(void)id;
	ir_value *x = tile_arg(s, &sl[0], sl_loc[0], "tl.sort");
	int dim = dim_arg(s, &sl[1], sl_loc[1], x->type->rank, "tl.sort");
	need_pow2_last(s, x, dim, sl_loc[1], "tl.sort");
	bool desc = sema_cbool(s, &sl[2], sl_loc[2], "descending", false);
	return sv_ir(bitonic_sort(s, x, desc, a->loc));
}

/* tl.topk(x, k, dim=None, descending=True): the k largest along the last dimension, the
 * largest first (with descending=False, the k smallest, the smallest first). */
SEMA_HANDLER(sema_bi_topk)
{
	(void)id;
	ir_value *x = tile_arg(s, &sl[0], sl_loc[0], "tl.topk");
	int64_t k = sema_cint(s, &sl[1], sl_loc[1], "k");
	int dim = dim_arg(s, &sl[2], sl_loc[2], x->type->rank, "tl.topk");
	need_pow2_last(s, x, dim, sl_loc[2], "tl.topk");
	bool desc = sema_cbool(s, &sl[3], sl_loc[3], "descending", true);
	int64_t n = x->type->shape[dim];
	if (k < 1 || k > n || (k & (k - 1)))
		sema_fail(s, sl_loc[1], "tl.topk: k must be a power of two between 1 and the dimension's "
					"size %lld, got %lld", (long long)n, (long long)k);
	ir_value *sorted = bitonic_sort(s, x, desc, a->loc);
	if (k == n)
		return sv_ir(sorted);
	int64_t sh[16];
	memcpy(sh, x->type->shape, sizeof(int64_t) * (size_t)x->type->rank);
	sh[dim] = k;
	return sv_ir(gather(s, sorted, coord_tile(s, x->type->rank, sh, dim, a->loc), dim, a->loc));
}

/* tl.histogram(x, num_bins, mask=None): int32 counts of the values 0 .. num_bins - 1 of a
 * 1-D integer tensor; values outside the bins and masked-off elements are not counted.
 * Expanded as a [num_bins, N] comparison summed along N. */
SEMA_HANDLER(sema_bi_histogram)
{
	(void)id;
	ir_value *x = tile_arg(s, &sl[0], sl_loc[0], "tl.histogram");
	if (x->type->rank != 1 || !ir_type_is_int(sema_velem(x)))
		sema_fail(s, sl_loc[0], "tl.histogram only supports a 1-D integer tensor, got %s",
			  sema_type_name(s, x->type));
	int64_t nb = sema_cint(s, &sl[1], sl_loc[1], "num_bins");
	sema_check_shape(s, 1, &nb, sl_loc[1]);
	int64_t n = x->type->shape[0];
	if (nb * n > (1 << 20))
		sema_fail(s, a->loc, "tl.histogram of %lld elements into %lld bins needs a [%lld, %lld] "
				     "comparison tile in tilecc; at most 1048576 elements are supported",
			  (long long)n, (long long)nb, (long long)nb, (long long)n);
	int64_t sh[2] = {nb, n};
	sema_at(s, a->loc);
	ir_value *bins = coord_tile(s, 2, sh, 0, a->loc);
	/* the values in their own type against the bins: values that are negative or above
	 * the bins never match; a bin the value type cannot reach (nb > its range) is empty */
	const ir_type *xe = sema_velem(x);
	ir_value *xr = ir_build1(&s->b, IR_OP_EXPAND_DIMS, ir_type_tile(s->ctx, xe, 2, (int64_t[]){1, n}), x);
	ir_op_set_int(s->ctx, xr->def, "axis", 0);
	ir_value *wide = sema_broadcast_to(s, xr, 2, sh, a->loc), *bw = bins;
	if (ir_type_bits(xe) < 64) {
		/* compared in 64 bits (sign- or zero-extended), so that no value aliases a bin */
		const ir_type *i64 = ir_type_scalar(s->ctx, IR_I64);
		wide = sema_cast(s, wide, i64, false, a->loc);
		bw = sema_cast(s, bins, i64, false, a->loc);
	} else {
		bw = sema_cast(s, bins, xe, false, a->loc);
	}
	ir_value *eq = cmp(s, wide, bw, "eq", "oeq");
	if (!sv_absent(&sl[2])) {
		ir_value *m = sema_need_ir(s, &sl[2], sl_loc[2], "tl.histogram");
		if (sema_velem(m)->kind != IR_I1)
			sema_fail(s, sl_loc[2], "tl.histogram's mask must be boolean, got %s",
				  sema_type_name(s, m->type));
		if (m->type->kind == IR_TILE) {
			if (m->type->rank != 1 || m->type->shape[0] != n)
				sema_fail(s, sl_loc[2], "tl.histogram's mask must have the input's shape");
			m = ir_build1(&s->b, IR_OP_EXPAND_DIMS, ir_type_tile(s->ctx, m->type->elem, 2,
									       (int64_t[]){1, n}), m);
			ir_op_set_int(s->ctx, m->def, "axis", 0);
		}
		m = sema_broadcast_to(s, m, 2, sh, a->loc);
		eq = ir_build2(&s->b, IR_OP_ANDI, eq->type, eq, m);
	}
	ir_value *ones = sema_cast(s, eq, i32t(s), false, a->loc);
	sval pos[1] = {sv_ir(ones)};
	srcloc ploc[1] = {a->loc};
	ast_keyword kw = {.loc = a->loc};
	kw.name = strtab_cstr(s->names, "axis");
	sval kv[1] = {sv_int(1)};
	sema_args sa = {.pos = pos, .pos_loc = ploc, .npos = 1, .kws = &kw, .kw = kv, .nkw = 1,
			.loc = a->loc};
	return sema_call_builtin(s, sema_find_builtin("sum", SEMA_NS_TL), &sa);
}
