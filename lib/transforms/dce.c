/* dce.c: dead code elimination. Removes pure ops none of whose results is used, to a
 * fixed point (so chains of dead ops go too), in every region of every function. Ops with
 * memory effects, terminators and control flow are kept. */
#include <stdlib.h>

#include "support/vec.h"
#include "transforms/pass.h"
#include "transforms/walk.h"

static int is_removable(const ir_op *op)
{
	return (ir_ops[op->code].traits & T_PURE) && !(ir_ops[op->code].traits & T_TERMINATOR);
}

/* Removes dead ops of block b, innermost regions first; returns how many went. */
static int sweep(ir_block *b, valset *used)
{
	int removed = 0;
	for (ir_op *op = b->last, *prev; op; op = prev) {
		prev = op->prev;
		for (int r = 0; r < op->nregions; r++)
			removed += sweep(op->regions[r], used);
		if (!is_removable(op))
			continue;
		int live = 0;
		for (int i = 0; i < op->nresults && !live; i++)
			live = valset_has(used, &op->results[i]);
		if (!live) {
			ir_op_remove(op);
			removed++;
		}
	}
	return removed;
}

int pass_dce(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		for (;;) {
			valset used = {0};
			walk_collect_uses(f->body, &used);
			int n = sweep(f->body, &used);
			valset_free(&used);
			if (n == 0)
				break;
		}
	}
	return 0;
}
