/* coalesce.c: chooses how wide each global access of a GPU kernel is. For every load,
 * store and atomic on a tile of pointers, the widest access (at most 16 bytes, at most a
 * thread's run of consecutive elements, within one row, or within one column when the
 * layout's fastest dimension is dim 0: gpu_layout_run_dim) that the axis analysis proves
 * aligned and contiguous, with the mask constant over it, is recorded as {vec = N} on the
 * op; the lowering then moves N elements per instruction. Consecutive threads hold
 * consecutive groups (gpu_layout.h, and the layouts access-layouts chose for 2-D tiles),
 * so these accesses coalesce across a warp.
 *
 * Runs only on functions with a threads_per_warp attribute (set by the driver for GPU
 * targets); it changes no types and no values. */
#include "transforms/axis_info.h"
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"

static int access_width(const axis_info *ai, const ir_op *op, int warp, int warps)
{
	const ir_value *p = op->operands[0];
	const ir_value *m = NULL;
	if (p->type->kind != IR_TILE)
		return 1;
	if (op->code == IR_OP_LOAD && op->noperands > 1)
		m = op->operands[1];
	else if (op->code == IR_OP_STORE && op->noperands > 2)
		m = op->operands[2];
	else if (op->code == IR_OP_ATOMIC_RMW)
		return 1; /* atomics go one element at a time */
	int dim, v = gpu_layout_run_dim(p->type, warp, warps, &dim);
	if (v <= 1)
		return 1;
	/* along the dimension of the thread's run: the last one, or dim 0 for the runs
	 * access-layouts gives pointers contiguous down the columns */
	int w = axis_vector_width_dim(ai, p, m, dim, 16);
	while (w > v)
		w /= 2;
	/* a group must not straddle rows (columns): it lies within its dimension */
	int64_t ext = p->type->shape[dim];
	while (w > 1 && ext % w)
		w /= 2;
	return w < 1 ? 1 : w;
}

static void walk(ir_context *c, const axis_info *ai, ir_block *b, int warp, int warps)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			walk(c, ai, op->regions[r], warp, warps);
		if (op->code != IR_OP_LOAD && op->code != IR_OP_STORE)
			continue;
		int w = access_width(ai, op, warp, warps);
		if (w > 1)
			ir_op_set_int(c, op, "vec", w);
	}
}

int pass_coalesce(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		int warp, warps;
		if (!gpu_func_shape(f, &warp, &warps))
			continue;
		arena *a = ir_arena(m->ctx);
		walk(m->ctx, axis_analyze(a, f), f->body, warp, warps);
	}
	return 0;
}
