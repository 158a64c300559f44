/* layouts.c: assigns every tile of a GPU kernel its layout, written into its type as
 *
 *   tile<64x128xf32, #blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1], order [1, 0]>>
 *
 * A blocked layout says how one CTA covers the tile: each thread holds per_thread
 * consecutive elements per dimension, the 32 (or 64) lanes of a warp and the warps of the
 * CTA are laid out over the dimensions as the lists say, fastest dimension first in order,
 * and the pattern repeats to cover a larger tile; where the CTA covers more than the
 * tile, threads wrap around and hold copies.
 *
 * The layout follows the distribution the lowering uses (gpu_layout.h): a thread's group
 * of V consecutive row-major elements, lanes then warps along the flattened index. That
 * distribution depends on the element count alone, so element-wise ops, expand_dims and
 * reshape keep their operands' layouts and move nothing; the ops that change layout
 * (broadcast, trans, join, split, reductions along an axis, scans, dot) are exactly the
 * conversions that smem-alloc plans through shared memory. MMA and shared (swizzled)
 * layouts come with tensor cores.
 *
 * Runs only on functions with a threads_per_warp attribute; changes types, not values. */
#include <stdio.h>

#include "support/strbuf.h"
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"

enum { MAX_RANK = 8 }; /* deeper tiles keep no layout (the lowering needs none) */

typedef struct blocked {
	int rank;
	int64_t spt[MAX_RANK], tpw[MAX_RANK], wpc[MAX_RANK];
} blocked;

/* Spreads n (a power of two) over dims from the last, each taking what its remaining
 * extent room[d] allows; what is left goes to the outermost dim (wrapping). */
static void spread(int rank, int64_t n, int64_t *room, int64_t *out)
{
	for (int d = rank - 1; d >= 0; d--) {
		int64_t k = 1;
		while (k * 2 <= n && room[d] % (k * 2) == 0)
			k *= 2;
		out[d] = k;
		room[d] /= k;
		n /= k;
	}
	out[0] *= n;
}

static blocked layout_of(const ir_type *t, int warp, int warps)
{
	blocked b = {.rank = t->rank};
	int64_t n = ir_type_numel(t);
	int64_t room[MAX_RANK];
	for (int d = 0; d < t->rank; d++)
		room[d] = t->shape[d];
	spread(t->rank, n >= warp * warps ? gpu_group(n, warp * warps) : 1, room, b.spt);
	spread(t->rank, warp, room, b.tpw);
	spread(t->rank, warps, room, b.wpc);
	return b;
}

static void put_list(strbuf *s, const char *name, const int64_t *v, int n, bool reverse)
{
	strbuf_printf(s, "%s [", name);
	for (int i = 0; i < n; i++)
		strbuf_printf(s, "%s%lld", i ? ", " : "", (long long)(reverse ? n - 1 - i : v[i]));
	strbuf_printf(s, "]");
}

static const ir_type *with_layout(ir_context *c, const ir_type *t, int warp, int warps)
{
	blocked b = layout_of(t, warp, warps);
	strbuf s = {0};
	strbuf_printf(&s, "blocked<");
	put_list(&s, "per_thread", b.spt, b.rank, false);
	strbuf_printf(&s, ", ");
	put_list(&s, "lanes", b.tpw, b.rank, false);
	strbuf_printf(&s, ", ");
	put_list(&s, "warps", b.wpc, b.rank, false);
	strbuf_printf(&s, ", ");
	put_list(&s, "order", NULL, b.rank, true);
	strbuf_printf(&s, ">");
	const ir_type *r = s.data ? ir_type_tile_layout(c, t->elem, t->rank, t->shape, s.data) : t;
	strbuf_free(&s);
	return r ? r : t;
}

typedef struct assigner {
	ir_context *c;
	diag_engine *d;
	int warp, warps;
	int errors;
} assigner;

/* Gives v its layout; a layout already there (IR read from text) must be that one, the
 * only distribution the lowering implements; the first mismatch is reported. */
static void assign(assigner *s, ir_value *v, srcloc loc)
{
	const ir_type *t = v->type;
	if (t->kind != IR_TILE || t->rank > MAX_RANK || s->errors)
		return; /* one error says it; the rest would repeat it */
	const ir_type *want = with_layout(s->c, t, s->warp, s->warps);
	if (t->layout && t->layout != want->layout) {
		diag_error(s->d, loc, "layout '#%s' is not supported for this tile; with %d warps "
			   "of %d threads it must be '#%s'", t->layout, s->warps, s->warp,
			   want->layout);
		s->errors++;
		return;
	}
	v->type = want;
}

static void walk(assigner *s, ir_block *b, srcloc loc)
{
	for (int i = 0; i < b->nargs; i++)
		assign(s, b->args[i], loc);
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nresults; r++)
			assign(s, &op->results[r], op->loc);
		for (int r = 0; r < op->nregions; r++)
			walk(s, op->regions[r], op->loc);
	}
}

int pass_assign_layouts(ir_module *m, diag_engine *d)
{
	assigner s = {.c = m->ctx, .d = d};
	for (ir_func *f = m->funcs; f; f = f->next) {
		if (!gpu_func_shape(f, &s.warp, &s.warps))
			continue;
		walk(&s, f->body, f->loc);
	}
	return s.errors != 0;
}
