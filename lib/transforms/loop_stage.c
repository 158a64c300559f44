/* loop_stage.c: the stage-0 slice of loads in a loop body (loop_stage.h). */
#include "transforms/loop_stage.h"

ir_op *loop_only_user(const ir_func *f, ir_block *b, const ir_value *v)
{
	if (walk_count_uses(f->body, v) != 1)
		return NULL;
	for (ir_op *op = b->first; op; op = op->next)
		for (int i = 0; i < op->noperands; i++)
			if (op->operands[i] == v)
				return op;
	return NULL;
}

bool loop_stage0(ir_block *body, ir_op *const *loads, int n, int nopnds, valset *ops, bool *carried)
{
	enum { WORK = 512 };
	const ir_value *work[WORK];
	int top = 0;
	valset seen = {0};
	bool ok = true;
	for (int q = 0; q < n; q++)
		for (int i = 0; i < nopnds && i < loads[q]->noperands; i++)
			if (top < WORK)
				work[top++] = loads[q]->operands[i];
	ir_op *y = body->last;
	while (ok && top > 0) {
		const ir_value *v = work[--top];
		if (valset_has(&seen, v))
			continue;
		valset_add(&seen, v);
		for (int a = 0; a < body->nargs; a++)
			if (body->args[a] == v && a > 0) {
				carried[a - 1] = true;
				if (top < WORK)
					work[top++] = y->operands[a - 1];
				else
					ok = false;
			}
		const ir_op *d = v->def;
		if (!d || d->parent != body)
			continue; /* the induction variable, a carried value, or from outside */
		if (!(ir_ops[d->code].traits & T_PURE) || d->nregions || d->nresults != 1 ||
		    d->noperands > 8 || d->code == IR_OP_LOCAL_VIEW) {
			ok = false;
			break;
		}
		valset_add(ops, d);
		for (int i = 0; i < d->noperands && ok; i++) {
			if (top == WORK)
				ok = false;
			else
				work[top++] = d->operands[i];
		}
	}
	valset_free(&seen);
	return ok;
}

/* Whether value v depends, within stage 0, on a carried value that runs ahead. */
static bool ahead(const ir_block *body, const ir_value *v, const bool *carried, const valset *ops, int depth)
{
	for (int a = 1; a < body->nargs; a++)
		if (body->args[a] == v)
			return carried[a - 1];
	if (!v->def || !valset_has(ops, v->def) || depth == 0)
		return false;
	for (int i = 0; i < v->def->noperands; i++)
		if (ahead(body, v->def->operands[i], carried, ops, depth - 1))
			return true;
	return false;
}

bool loop_ahead_private(const ir_func *f, ir_op *fo, ir_op *const *skip, int nskip, const valset *ops,
			const bool *carried)
{
	ir_block *body = fo->regions[0];
	ir_op *y = body->last;
	int nc = body->nargs - 1;
	for (ir_op *op = body->first; op; op = op->next) {
		bool skipped = valset_has(ops, op);
		for (int q = 0; q < nskip && !skipped; q++)
			skipped = op == skip[q];
		if (skipped)
			continue;
		for (int i = 0; i < op->noperands; i++) {
			if (op == y && i < nc && carried[i])
				continue;
			if (ahead(body, op->operands[i], carried, ops, 64))
				return false;
		}
		for (int r = 0; r < op->nregions; r++)
			for (int a = 0; a < nc; a++)
				if (carried[a] && walk_count_uses(op->regions[r], body->args[1 + a]))
					return false;
	}
	for (int a = 0; a < nc; a++)
		if (carried[a] && walk_count_uses(f->body, &fo->results[a]))
			return false;
	return true;
}

void loop_clone_stage0(ir_context *c, ir_block *body, const valset *ops, ir_ptrmap *map, ir_block *into,
		       ir_op *before)
{
	for (ir_op *op = body->first; op; op = op->next) {
		if (!valset_has(ops, op))
			continue;
		ir_value *xs[8]; /* loop_stage0 admits ops of at most 8 operands */
		for (int i = 0; i < op->noperands; i++) {
			ir_value *m = ir_ptrmap_get(map, op->operands[i]);
			xs[i] = m ? m : op->operands[i];
		}
		const ir_type *t = op->results[0].type;
		ir_op *cl = ir_op_create(c, op->code, op->noperands, xs, 1, &t, op->loc);
		for (int i = 0; i < op->nattrs; i++)
			ir_op_set_attr(c, cl, &op->attrs[i]);
		ir_block_insert_before(into, before, cl);
		ir_ptrmap_put(map, &op->results[0], &cl->results[0]);
	}
}

bool loop_pipelinable(const ir_op *fo, int64_t *step)
{
	const ir_block *body = fo->regions[0];
	const ir_op *y = body->last, *d = fo->operands[2]->def;
	const ir_attr *a = d && d->code == IR_OP_CONSTANT ? ir_op_attr(d, "value") : NULL;
	if (!y || y->code != IR_OP_YIELD || !a || a->kind != IR_ATTR_INT || a->i <= 0)
		return false;
	*step = a->i;
	const ir_type *it = body->args[0]->type;
	return it->kind == IR_I32 || it->kind == IR_I64;
}

ir_value *loop_ahead_mask(ir_context *c, ir_builder *b, const ir_op *ld, ir_ptrmap *map, ir_value *live)
{
	const ir_type *mt = ir_type_with_elem(c, ld->operands[0]->type, ir_type_scalar(c, IR_I1));
	ir_value *m = ir_build1(b, IR_OP_SPLAT, mt, live);
	if (ld->noperands > 1) {
		ir_value *lm = loop_mapped(map, ld->operands[1]);
		if (lm->type->kind != IR_TILE)
			lm = ir_build1(b, IR_OP_SPLAT, mt, lm);
		m = ir_build2(b, IR_OP_ANDI, mt, lm, m);
	}
	return m;
}

ir_value *loop_mapped(ir_ptrmap *map, ir_value *v)
{
	ir_value *m = ir_ptrmap_get(map, v);
	return m ? m : v;
}

ir_op *loop_add_carried(ir_context *c, ir_op *fo, int n, ir_value *const *init, ir_value **args)
{
	int no = fo->noperands, nr = fo->nresults;
	ir_value **ops = ARENA_NEWN(ir_arena(c), ir_value *, (size_t)(no + n));
	const ir_type **rt = ARENA_NEWN(ir_arena(c), const ir_type *, (size_t)(nr + n));
	for (int i = 0; i < no; i++)
		ops[i] = fo->operands[i];
	for (int i = 0; i < nr; i++)
		rt[i] = fo->results[i].type;
	for (int q = 0; q < n; q++) {
		ops[no + q] = init[q];
		rt[nr + q] = init[q]->type;
	}
	ir_op *nf = ir_op_create(c, IR_OP_FOR, no + n, ops, nr + n, rt, fo->loc);
	for (int i = 0; i < fo->nattrs; i++)
		ir_op_set_attr(c, nf, &fo->attrs[i]);
	ir_block_insert_before(fo->parent, fo, nf);
	/* the body moves over; fo keeps nf's empty block and goes */
	ir_block *body = fo->regions[0];
	fo->regions[0] = nf->regions[0];
	fo->regions[0]->parent = fo;
	nf->regions[0] = body;
	body->parent = nf;
	for (int q = 0; q < n; q++)
		args[q] = ir_block_add_arg(c, body, init[q]->type, NULL);
	for (int i = 0; i < nr; i++) {
		nf->results[i].name = fo->results[i].name;
		ir_replace_all_uses(&fo->results[i], &nf->results[i]);
	}
	ir_op_erase(fo);
	return nf;
}
