/* remove_conversions.c: removes layout conversions that are not needed (GPU kernels,
 * after assign-layouts). Every convert_layout moves its tile through shared memory with
 * two barriers, so each one dropped is a round trip saved:
 *
 *   - a conversion to the layout its operand already has goes;
 *   - a conversion of a conversion converts the original once;
 *   - a conversion of a splat or a constant is that splat or constant built in the new
 *     layout (nothing to move);
 *   - an element-wise op whose tile operands are all conversions out of one layout L (or
 *     splats and constants) runs in L, and its result is converted once: two conversions
 *     in, one out;
 *   - conversions left without uses go.
 *
 * To a fixed point, in every region of every function. */
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"
#include "transforms/walk.h"

typedef struct rewriter {
	ir_func *f;
	ir_context *c;
	int changed;
} rewriter;

static bool is_convert(const ir_value *v)
{
	return v->def && v->def->code == IR_OP_CONVERT_LAYOUT;
}

static bool is_remat(const ir_value *v)
{
	return v->def && v->type->kind == IR_TILE &&
	       (v->def->code == IR_OP_SPLAT || v->def->code == IR_OP_CONSTANT);
}

static void replace(rewriter *w, ir_op *op, ir_value *with)
{
	ir_replace_uses_in(w->f->body, &op->results[0], with);
	ir_op_remove(op);
	w->changed++;
}

/* The splat or constant def rebuilt before `before` with the type t. */
static ir_value *remat(rewriter *w, const ir_op *def, const ir_type *t, ir_op *before)
{
	ir_op *op = ir_op_create(w->c, def->code, def->noperands, def->operands, 1, &t, def->loc);
	for (int i = 0; i < def->nattrs; i++)
		ir_op_set_attr(w->c, op, &def->attrs[i]);
	ir_block_insert_before(before->parent, before, op);
	return &op->results[0];
}

static const ir_type *in_layout(rewriter *w, const ir_type *t, const char *layout)
{
	return ir_type_tile_layout(w->c, t->elem, t->rank, t->shape, layout);
}

/* An element-wise op over conversions out of one layout: the op in that layout and one
 * conversion of its result. */
static void hoist(rewriter *w, ir_op *op)
{
	const char *from = NULL;
	int converts = 0;
	for (int i = 0; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		if (x->type->kind != IR_TILE || is_remat(x))
			continue;
		if (!is_convert(x))
			return;
		const char *l = x->def->operands[0]->type->layout;
		if (!l || (from && from != l))
			return;
		from = l;
		converts++;
	}
	if (converts < 2 || op->nresults != 1 || op->results[0].type->kind != IR_TILE)
		return;
	ir_value *ops[8];
	if (op->noperands > 8)
		return;
	for (int i = 0; i < op->noperands; i++) {
		ir_value *x = op->operands[i];
		if (x->type->kind != IR_TILE)
			ops[i] = x;
		else if (is_remat(x))
			ops[i] = remat(w, x->def, in_layout(w, x->type, from), op);
		else
			ops[i] = x->def->operands[0];
	}
	const ir_type *rt = op->results[0].type;
	const ir_type *lt = in_layout(w, rt, from);
	ir_op *inner = ir_op_create(w->c, op->code, op->noperands, ops, 1, &lt, op->loc);
	for (int i = 0; i < op->nattrs; i++)
		ir_op_set_attr(w->c, inner, &op->attrs[i]);
	ir_block_insert_before(op->parent, op, inner);
	ir_value *src = &inner->results[0];
	ir_op *cv = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &src, 1, &rt, op->loc);
	ir_block_insert_before(op->parent, op, cv);
	replace(w, op, &cv->results[0]);
}

static void visit(rewriter *w, ir_block *b)
{
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			visit(w, op->regions[r]);
		if (op->code != IR_OP_CONVERT_LAYOUT) {
			if (ir_ops[op->code].traits & T_ELEMENTWISE)
				hoist(w, op);
			continue;
		}
		ir_value *x = op->operands[0];
		if (x->type == op->results[0].type)
			replace(w, op, x);
		else if (is_convert(x)) {
			ir_op_set_operand(op, 0, x->def->operands[0]);
			w->changed++;
		} else if (is_remat(x))
			replace(w, op, remat(w, x->def, op->results[0].type, op));
	}
}

/* Conversions nothing uses any more. */
static int sweep(ir_block *b, const valset *used)
{
	int n = 0;
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			n += sweep(op->regions[r], used);
		if (op->code == IR_OP_CONVERT_LAYOUT && !valset_has(used, &op->results[0])) {
			ir_op_remove(op);
			n++;
		}
	}
	return n;
}

int pass_remove_layout_conversions(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		rewriter w = {.f = f, .c = m->ctx};
		for (int round = 0; round < 16; round++) {
			w.changed = 0;
			visit(&w, f->body);
			valset used = {0};
			walk_collect_uses(f->body, &used);
			w.changed += sweep(f->body, &used);
			valset_free(&used);
			if (!w.changed)
				break;
		}
	}
	return 0;
}
