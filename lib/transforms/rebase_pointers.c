/* rebase_pointers.c: a loop-carried tile of pointers that the loop advances
 * by one amount for every element becomes a carried scalar pointer, from which the body
 * rebuilds the tile. In the matmul form
 *
 *   a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
 *   for k in range(...):
 *       a = tl.load(a_ptrs, ...)
 *       a_ptrs += BLOCK_K
 *
 * each thread carries one 64-bit pointer per element of its share of the tile through the
 * loop (32 for a 128 x 64 tile on 256 threads: 64 VGPRs, and as many for B), beside the
 * accumulators; on gfx906's FMA path with 128 x 128 blocks that passes the 256 VGPRs and
 * spills. After the rewrite the loop carries the scalar a_ptr + k * BLOCK_K (SGPRs) and
 * the body recomputes the tile from it with the ops that built a_ptrs before the loop
 * (splat, addptr of the row offsets, broadcast, addptr of the column offsets): what stays
 * live across iterations is the loop-invariant offsets (a row offset per row a thread
 * holds, a few column offsets), not a pointer per element.
 *
 * A carried value qualifies when it is a tile of pointers; the loop yields addptr(it, X)
 * with X the splat of a scalar or an integer constant, and nothing else reads that
 * addptr; the loop's result for it is unused; and its initial value is a chain of addptr
 * (through the pointer operand), broadcast, expand_dims and convert_layout ops that starts
 * from the splat of a scalar pointer. Pointers are addresses, so
 * (base + k X) + offsets = (base + offsets) + k X element by element: the loads and
 * stores see the same addresses.
 *
 * The rewrite means the same on every target, and the pass rewrites every function it runs
 * on; but by default only AMD's GPU pipeline runs it (pass_amd_pipeline, for the register
 * pressure above): NVIDIA's cp.async pipeliner (pipeline.c) reads the carried pointer tiles
 * as they are, and its output stays as it was. Named in --passes it runs for any target,
 * which is how the e2e tests run rewritten loops on x86-64 (e2e.x86rebase.*). */
#include "transforms/pass.h"
#include "transforms/walk.h"

#define MAX_CHAIN 16

/* The scalar amount of the per-element step x (a tile): the splat's scalar; a new i32 constant before `before` when x is an integer
 * constant tile; else NULL. */
static ir_value *uniform_step(ir_context *c, ir_block *body, ir_value *x, ir_op *before)
{
	ir_op *d = x->def;
	if (!d)
		return NULL;
	if (d->code == IR_OP_SPLAT && ir_type_is_scalar(d->operands[0]->type))
		return d->operands[0]; /* outside the loop or before the yield in body: SSA */
	const ir_attr *a = d->code == IR_OP_CONSTANT ? ir_op_attr(d, "value") : NULL;
	if (!a || a->kind != IR_ATTR_INT)
		return NULL;
	const ir_type *et = ir_type_elem(x->type);
	ir_builder b = {.ctx = c, .block = body, .before = before, .loc = d->loc};
	return ir_const_int(&b, et, a->i);
}

/* The ops from the splat of a scalar pointer up to v (chain[0] the splat, chain[n-1] v's
 * def), each reading the previous one through operand 0; their count, 0 when v is not
 * built that way. */
static int pointer_chain(ir_value *v, ir_op **chain)
{
	ir_op *rev[MAX_CHAIN];
	int n = 0;
	for (ir_op *d = v->def; d && n < MAX_CHAIN; d = d->operands[0]->def) {
		rev[n++] = d;
		if (d->code == IR_OP_SPLAT) {
			if (d->operands[0]->type->kind != IR_PTR)
				return 0;
			for (int i = 0; i < n; i++)
				chain[i] = rev[n - 1 - i];
			return n;
		}
		if (d->nresults != 1 || d->noperands < 1 || d->nregions ||
		    (d->code != IR_OP_ADDPTR && d->code != IR_OP_BROADCAST && d->code != IR_OP_EXPAND_DIMS &&
		     d->code != IR_OP_CONVERT_LAYOUT))
			return 0;
	}
	return 0;
}

static void rebase_carried(ir_context *c, ir_func *f, ir_op *fo, int a)
{
	ir_block *body = fo->regions[0];
	ir_op *y = body->last;
	ir_value *arg = body->args[1 + a];
	const ir_type *t = arg->type;
	if (t->kind != IR_TILE || t->elem->kind != IR_PTR || ir_value_has_uses(&fo->results[a]))
		return;
	ir_value *next = y->operands[a];
	ir_op *adv = next->def;
	if (!adv || adv->code != IR_OP_ADDPTR || adv->parent != body || adv->operands[0] != arg ||
	    walk_count_uses(f->body, next) != 1)
		return;
	ir_op *chain[MAX_CHAIN];
	int n = pointer_chain(fo->operands[3 + a], chain);
	if (n == 0)
		return;
	ir_value *base = chain[0]->operands[0];
	ir_value *step = uniform_step(c, body, adv->operands[1], y);
	if (!step)
		return;

	/* the carried value is now the scalar base; the tile is rebuilt at the top of the body */
	int nusers = 0;
	for (ir_use *u = arg->uses; u; u = u->next)
		nusers++;
	ir_op **uop = ARENA_NEWN(ir_arena(c), ir_op *, nusers ? nusers : 1);
	int *uidx = ARENA_NEWN(ir_arena(c), int, nusers ? nusers : 1);
	nusers = 0;
	for (ir_use *u = arg->uses; u; u = u->next) {
		uop[nusers] = u->user;
		uidx[nusers++] = u->index;
	}
	arg->type = base->type;
	fo->results[a].type = base->type;
	ir_op_set_operand(fo, 3 + a, base);
	ir_value *prev = arg;
	ir_op *at = body->first;
	for (int i = 0; i < n; i++) {
		ir_op *op = chain[i];
		ir_value **xs = ARENA_NEWN(ir_arena(c), ir_value *, op->noperands);
		for (int j = 0; j < op->noperands; j++)
			xs[j] = j == 0 ? prev : op->operands[j];
		const ir_type *rt = op->results[0].type;
		ir_op *cl = ir_op_create(c, op->code, op->noperands, xs, 1, &rt, op->loc);
		for (int k = 0; k < op->nattrs; k++)
			ir_op_set_attr(c, cl, &op->attrs[k]);
		ir_block_insert_before(body, at, cl);
		prev = &cl->results[0];
	}
	for (int i = 0; i < nusers; i++)
		ir_op_set_operand(uop[i], uidx[i], prev);
	/* the yield advances the scalar; the tile's advance goes */
	ir_builder b = {.ctx = c, .block = body, .before = y, .loc = adv->loc};
	ir_value *adv_s = ir_build2(&b, IR_OP_ADDPTR, base->type, arg, step);
	ir_op_set_operand(y, a, adv_s);
	ir_op *xdef = adv->operands[1]->def;
	ir_op_erase(adv);
	if (xdef && xdef->parent == body && !ir_op_has_uses(xdef))
		ir_op_erase(xdef);
}

static void walk(ir_context *c, ir_func *f, ir_block *b)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			walk(c, f, op->regions[r]);
		if (op->code != IR_OP_FOR || op->nregions != 1)
			continue;
		ir_block *body = op->regions[0];
		ir_op *y = body->last;
		int n = op->nresults;
		if (!y || y->code != IR_OP_YIELD || y->noperands != n || body->nargs != n + 1 ||
		    op->noperands != n + 3)
			continue;
		for (int a = 0; a < n; a++)
			rebase_carried(c, f, op, a);
	}
}

int pass_rebase_pointers(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next)
		walk(m->ctx, f, f->body);
	return 0;
}
