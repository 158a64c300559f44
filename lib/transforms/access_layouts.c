/* access_layouts.c: gives the global loads and stores of 2-D tiles in a GPU kernel a
 * layout in which each thread's run of consecutive elements is one 16-byte access, as
 * Triton's coalescing does. The canonical layout (gpu_layout.h) gives a thread at most
 * four consecutive elements whatever their type: 8 bytes of fp16, and a 128x64 fp16 tile
 * of pointers then takes 16 pointers per thread instead of 8. For an access whose
 * pointers the axis analysis proves contiguous and aligned over w > 4 elements along the
 * last dimension (and whose mask is constant over them), the op is given
 *
 *   blocked<per_thread [1, w], lanes [L0, L1], warps [W0, W1], order [1, 0]>
 *
 * with the lanes and then the warps filling the last dimension first. An access whose
 * pointers are contiguous down the columns instead (a tile loaded transposed, as
 * attention's K^T: offs_d[:, None] + cols[None, :] * stride), over more elements than the
 * last dimension offers and than its layout's run along dim 0, gets the mirror image
 *
 *   blocked<per_thread [w, 1], lanes [L0, L1], warps [W0, W1], order [0, 1]>
 *
 * with the lanes and warps filling dim 0 first. The op's operands (pointers, mask,
 * other, stored value) are converted to the layout; a loaded tile is converted
 * back for its users. remove-layout-conversions then computes the pointer and mask
 * arithmetic in the new layout (and carries loop-carried pointers in it), so the
 * conversions inserted here mostly disappear. Only layouts that cover the tile without
 * copies are used. coalesce later records the access width ({vec}) on the op.
 *
 * A load given runs along dim 0 whose tile is only staged for a wgmma dot has the staging
 * layout (#shared, chosen row-major by assign-layouts before the load had its runs)
 * turned column-major, so that the runs stay whole in shared memory (stage_transposed).
 *
 * Runs only on functions with a threads_per_warp attribute, after assign-layouts. */
#include "transforms/axis_info.h"
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"

typedef struct anchorer {
	ir_context *c;
	ir_func *f;
	const axis_info *ai;
	int warp, warps;
} anchorer;

/* The layout of 16-byte runs along dimension d (1: rows, 0: columns) of a [rows, cols]
 * tile with w elements per run, lanes and warps filling d first; false when the CTA
 * cannot cover the tile with it without copies. */
static bool run_layout(const anchorer *s, const int64_t *shape, int d, int w, gpu_layout *l)
{
	int o = 1 - d;
	*l = (gpu_layout){.kind = GPU_BLOCKED, .rank = 2, .order = {d, o}};
	l->spt[d] = w, l->spt[o] = 1;
	int64_t runs = shape[d] / w; /* runs along one row (column) */
	int lanes = s->warp;
	l->tpw[d] = (int)(runs < lanes ? runs : lanes);
	l->tpw[o] = lanes / l->tpw[d];
	int64_t left = runs / l->tpw[d];
	l->wpc[d] = (int)(left < s->warps ? left : s->warps);
	l->wpc[o] = s->warps / l->wpc[d];
	return l->tpw[0] * l->tpw[1] == lanes && l->wpc[0] * l->wpc[1] == s->warps &&
	       (int64_t)l->tpw[o] * l->wpc[o] <= shape[o] && shape[o] % ((int64_t)l->tpw[o] * l->wpc[o]) == 0;
}

/* The run of consecutive elements along dimension dim in a thread's slots (1 when the
 * layout's fastest dimension is another). */
static int current_run(const ir_type *t, int warp, int warps, int dim)
{
	gpu_layout l;
	if (!gpu_type_layout(t, warp, warps, &l) || l.kind != GPU_BLOCKED || l.order[0] != dim)
		return 1;
	return l.spt[dim];
}

/* The widest run along dim that the pointers p (mask m) allow and the CTA can spread over
 * the tile: every thread at least one run, the extent along dim a multiple of it. */
static int run_width(const anchorer *s, const ir_value *p, const ir_value *m, int dim)
{
	const ir_type *pt = p->type;
	int w = axis_vector_width_dim(s->ai, p, m, dim, 16);
	int64_t threads = (int64_t)s->warp * s->warps;
	while (w > 1 && ((int64_t)w * threads > ir_type_numel(pt) || pt->shape[dim] % w))
		w /= 2;
	return w;
}

/* The single op using v in the function (nested regions included); NULL unless there is
 * exactly one use. */
static ir_op *only_use_in(ir_block *b, const ir_value *v, int *n)
{
	ir_op *u = NULL;
	for (ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->noperands; i++)
			if (op->operands[i] == v)
				u = op, ++*n;
		for (int r = 0; r < op->nregions; r++) {
			ir_op *x = only_use_in(op->regions[r], v, n);
			u = x ? x : u;
		}
	}
	return u;
}

static ir_op *only_use(anchorer *s, const ir_value *v)
{
	int n = 0;
	ir_op *u = only_use_in(s->f->body, v, &n);
	return n == 1 ? u : NULL;
}

/* Whether x is dot's B, of 16-bit elements. */
static bool b_of_mma_sync16(const ir_op *dot, const ir_value *x)
{
	return dot->operands[1] == x && dot->operands[0] != x && ir_type_bits(x->type->elem) == 16;
}

/* The loaded tile `back` (a load's result in its old layout), when its only use is a
 * convert_layout to #shared read only by a wgmma dot (the result's layout #mma version
 * 3), is staged column-major instead: the NVMMA layout with order [0, 1] keeps the
 * thread's runs along dim 0 contiguous in shared memory (vector stores, or the
 * pipeline's 16-byte cp.async), and wgmma reads the operand K-major (B) or M-major (A)
 * through its transpose bits, as Triton stages K^T. On mma.sync (version 2) the same for
 * a 16-bit B (gpu_layout_shared_for_transposed): ldmatrix without .trans reads its rows of
 * K as B's fragments; A stays row-major. */
static void stage_transposed(anchorer *s, const ir_value *back)
{
	ir_op *cv = only_use(s, back);
	if (!cv || cv->code != IR_OP_CONVERT_LAYOUT || !gpu_is_shared(cv->results[0].type))
		return;
	ir_op *dot = only_use(s, &cv->results[0]);
	gpu_layout acc;
	if (!dot || dot->code != IR_OP_DOT || dot->operands[2] == &cv->results[0] ||
	    !dot->results[0].type->layout || !gpu_layout_parse(dot->results[0].type->layout, &acc) ||
	    (acc.mma != 3 && acc.mma != 2))
		return;
	const ir_type *t = cv->results[0].type;
	if (acc.mma == 2) {
		if (!b_of_mma_sync16(dot, &cv->results[0]))
			return;
		gpu_layout l = gpu_layout_shared_for_transposed(t);
		const ir_type *want = gpu_layout_fits(&l, t->shape, t->rank, s->warp, s->warps)
					      ? gpu_type_in_layout(s->c, t, &l) : NULL;
		if (want)
			cv->results[0].type = want;
		return;
	}
	/* tf32 and int8 (4- and 1-byte elements): wgmma reads A K-major only, so A stays
	 * row-major (B is staged transposed already: assign-layouts) */
	int64_t eb = ir_type_bits(t->elem) / 8;
	if (eb != 2 && dot->operands[0] == &cv->results[0])
		return;
	gpu_layout l = gpu_layout_shared_nvmma(t, true);
	if (l.kind != GPU_SHARED || !gpu_layout_fits(&l, t->shape, t->rank, s->warp, s->warps))
		return;
	const ir_type *want = gpu_type_in_layout(s->c, t, &l);
	if (want)
		cv->results[0].type = want;
}

/* Whether loaded tile v only goes, converted to #shared, to a dot on mma.sync (#mma
 * version 2) as its A, or as a B of 32- or 8-bit elements: ldmatrix reads those by rows,
 * so runs down their columns would only be stored to shared memory one element at a time
 * (and hold more registers than they save). A 16-bit B is staged transposed instead. */
static bool staged_for_mma_sync(anchorer *s, const ir_value *v)
{
	ir_op *cv = only_use(s, v);
	if (!cv || cv->code != IR_OP_CONVERT_LAYOUT || !gpu_is_shared(cv->results[0].type))
		return false;
	ir_op *dot = only_use(s, &cv->results[0]);
	gpu_layout acc;
	return dot && dot->code == IR_OP_DOT && dot->results[0].type->layout &&
	       gpu_layout_parse(dot->results[0].type->layout, &acc) && acc.mma == 2 &&
	       !b_of_mma_sync16(dot, &cv->results[0]);
}

/* Operand i of op converted to type t (a convert_layout before op). */
static void convert_operand(anchorer *s, ir_op *op, int i, const ir_type *t)
{
	ir_value *x = op->operands[i];
	if (x->type->kind != IR_TILE || x->type == t)
		return;
	const ir_type *xt = ir_type_tile_layout(s->c, x->type->elem, x->type->rank, x->type->shape, t->layout);
	ir_op *cv = ir_op_create(s->c, IR_OP_CONVERT_LAYOUT, 1, &x, 1, &xt, op->loc);
	ir_block_insert_before(op->parent, op, cv);
	ir_op_set_operand(op, i, &cv->results[0]);
}

static void anchor(anchorer *s, ir_op *op)
{
	const ir_value *p = op->operands[0];
	const ir_type *pt = p->type;
	if (pt->kind != IR_TILE || pt->rank != 2 || !pt->layout || pt->elem->kind != IR_PTR)
		return;
	const ir_value *m = op->code == IR_OP_LOAD && op->noperands > 1 ? op->operands[1]
			    : op->code == IR_OP_STORE && op->noperands > 2 ? op->operands[2]
									   : NULL;
	gpu_layout cur, l;
	if (!gpu_type_layout(pt, s->warp, s->warps, &cur) || cur.kind != GPU_BLOCKED || cur.mma)
		return;
	/* the last dimension, unless the pointers run further down the columns */
	int w1 = run_width(s, p, m, 1), w0 = run_width(s, p, m, 0);
	int d = 0;
	bool down = !(op->code == IR_OP_LOAD && staged_for_mma_sync(s, &op->results[0]));
	if (!(down && w0 > w1 && w0 > current_run(pt, s->warp, s->warps, 0) &&
	      run_layout(s, pt->shape, 0, w0, &l))) {
		d = 1;
		if (w1 <= current_run(pt, s->warp, s->warps, 1) || !run_layout(s, pt->shape, 1, w1, &l))
			return;
	}
	const ir_type *want = gpu_type_in_layout(s->c, pt, &l);
	if (!want)
		return;
	for (int i = 0; i < op->noperands; i++)
		convert_operand(s, op, i, want);
	if (op->code == IR_OP_LOAD) {
		ir_value *r = &op->results[0];
		const ir_type *old = r->type;
		r->type = ir_type_tile_layout(s->c, old->elem, old->rank, old->shape, want->layout);
		ir_op *back = ir_op_create(s->c, IR_OP_CONVERT_LAYOUT, 1, &r, 1, &old, op->loc);
		ir_block_insert_before(op->parent, op->next, back);
		ir_replace_uses_in(s->f->body, r, &back->results[0]);
		ir_op_set_operand(back, 0, r);
		if (d == 0)
			stage_transposed(s, &back->results[0]);
	}
}

static void walk(anchorer *s, ir_block *b)
{
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			walk(s, op->regions[r]);
		if (op->code == IR_OP_LOAD || op->code == IR_OP_STORE)
			anchor(s, op);
	}
}

int pass_access_layouts(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		anchorer s = {.c = m->ctx, .f = f};
		if (!gpu_func_shape(f, &s.warp, &s.warps))
			continue;
		s.ai = axis_analyze(ir_arena(m->ctx), f);
		walk(&s, f->body);
	}
	return 0;
}
