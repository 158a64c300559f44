/* dce.c: dead code elimination. Removes pure ops none of whose results is used, in every
 * region of every function; chains of dead ops go too. Ops with memory effects,
 * terminators and control flow are kept.
 *
 * A worklist over use lists: first every op found dead, then each op whose last use an
 * erasure dropped. Every op is erased at most once and each erasure costs its operands, so
 * the pass is linear in the function's size. */
#include <stdlib.h>

#include "support/vec.h"
#include "transforms/pass.h"

typedef VEC(ir_op *) opvec;

static int is_removable(const ir_op *op)
{
	return (ir_ops[op->code].traits & T_PURE) && !(ir_ops[op->code].traits & T_TERMINATOR);
}

static bool is_dead(const ir_op *op)
{
	return op->parent && is_removable(op) && !ir_op_has_uses(op);
}

/* Queues the dead ops of b, innermost regions first. */
static void find_dead(ir_block *b, opvec *w)
{
	for (ir_op *op = b->last; op; op = op->prev) {
		for (int r = 0; r < op->nregions; r++)
			find_dead(op->regions[r], w);
		if (is_dead(op))
			vec_push(w, op);
	}
}

/* The definitions of the operands of op and of everything nested in it that are dead now
 * (op having been erased), queued. */
static void queue_operand_defs(const ir_op *op, opvec *w)
{
	for (int i = 0; i < op->noperands; i++) {
		ir_op *d = op->operands[i] ? op->operands[i]->def : NULL;
		if (d && is_dead(d))
			vec_push(w, d);
	}
	for (int r = 0; r < op->nregions; r++)
		for (const ir_op *o = op->regions[r]->first; o; o = o->next)
			queue_operand_defs(o, w);
}

int pass_dce(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		opvec w = {0};
		find_dead(f->body, &w);
		while (w.len) {
			ir_op *op = vec_pop(&w);
			if (!is_dead(op)) /* erased already, queued twice */
				continue;
			ir_op_erase(op);
			queue_operand_defs(op, &w);
		}
		vec_free(&w);
	}
	return 0;
}
