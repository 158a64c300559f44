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
 * with the lanes and then the warps filling the last dimension first, and its operands
 * (pointers, mask, other, stored value) are converted to it; a loaded tile is converted
 * back for its users. remove-layout-conversions then computes the pointer and mask
 * arithmetic in the new layout (and carries loop-carried pointers in it), so the
 * conversions inserted here mostly disappear. Only layouts that cover the tile without
 * copies are used. coalesce later records the access width ({vec}) on the op.
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

/* The layout of 16-byte runs for a [rows, cols] tile with w elements per run; false when
 * the CTA cannot cover the tile with it without copies. */
static bool run_layout(const anchorer *s, const int64_t *shape, int w, gpu_layout *l)
{
	*l = (gpu_layout){.kind = GPU_BLOCKED, .rank = 2, .order = {1, 0}, .spt = {1, w}};
	int64_t runs = shape[1] / w; /* runs across one row */
	int lanes = s->warp;
	l->tpw[1] = (int)(runs < lanes ? runs : lanes);
	l->tpw[0] = lanes / l->tpw[1];
	int64_t left = runs / l->tpw[1];
	l->wpc[1] = (int)(left < s->warps ? left : s->warps);
	l->wpc[0] = s->warps / l->wpc[1];
	return l->tpw[0] * l->tpw[1] == lanes && l->wpc[0] * l->wpc[1] == s->warps &&
	       (int64_t)l->tpw[0] * l->wpc[0] <= shape[0] && shape[0] % ((int64_t)l->tpw[0] * l->wpc[0]) == 0;
}

/* The run of consecutive elements along the last dimension in a thread's slots. */
static int current_run(const ir_type *t, int warp, int warps)
{
	gpu_layout l;
	if (!gpu_type_layout(t, warp, warps, &l) || l.kind != GPU_BLOCKED || l.order[0] != t->rank - 1)
		return 1;
	return l.spt[t->rank - 1];
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
	int w = axis_vector_width(s->ai, p, m, 16);
	int64_t threads = (int64_t)s->warp * s->warps;
	while (w > 1 && ((int64_t)w * threads > ir_type_numel(pt) || pt->shape[1] % w))
		w /= 2;
	gpu_layout cur;
	if (w <= current_run(pt, s->warp, s->warps) || !gpu_type_layout(pt, s->warp, s->warps, &cur) ||
	    cur.kind != GPU_BLOCKED || cur.mma)
		return;
	gpu_layout l;
	if (!run_layout(s, pt->shape, w, &l))
		return;
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
