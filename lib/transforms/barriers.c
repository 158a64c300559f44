/* barriers.c: barrier insertion for GPU kernels. An op that moves data through shared
 * memory ({smem}, from smem-alloc) overwrites what the previous such op left there, so
 * every thread must be done reading it first: a `barrier` goes before each such op,
 * except the first one a thread can reach in a block with no earlier use of shared
 * memory in the kernel before it. The ops' own barrier between writing and reading stays
 * in their lowering. Marks the function {barriers_explicit} so that the lowering adds no
 * barriers of its own before such ops. */
#include "transforms/pass.h"

/* Inserts barriers in b; `seen` says whether shared memory may have been used before b's
 * first op. Returns whether b (or its regions) uses shared memory. */
static bool walk(ir_context *c, ir_block *b, bool seen)
{
	bool used = false;
	for (ir_op *op = b->first; op; op = op->next) {
		bool before = seen || used;
		for (int r = 0; r < op->nregions; r++) {
			/* a loop body runs again after itself: treat shared memory as used before */
			bool loop = op->code == IR_OP_FOR || op->code == IR_OP_WHILE;
			used |= walk(c, op->regions[r], before || loop);
		}
		if (op->code == IR_OP_ASYNC_COPY)
			used = true; /* writes a ring slot: later users of shared memory wait */
		if (!ir_op_attr(op, "smem"))
			continue;
		if (before && !(op->prev && op->prev->code == IR_OP_BARRIER)) {
			ir_builder bl = {c, b, op, op->loc};
			ir_build(&bl, IR_OP_BARRIER, 0, NULL, 0, NULL);
		}
		used = true;
	}
	return used;
}

int pass_insert_barriers(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		if (!ir_func_attr(f, "shared"))
			continue; /* smem-alloc has not run: the lowering keeps its own barriers */
		walk(m->ctx, f->body, false);
		ir_func_set_int(m->ctx, f, "barriers_explicit", 1);
	}
	return 0;
}
