/* remove_conversions.c: removes layout conversions that are not needed (GPU kernels,
 * after assign-layouts). A convert_layout between register layouts moves its tile through
 * shared memory with barriers around it, so each one dropped is a round trip saved:
 *
 *   - a conversion to the layout its operand already has goes;
 *   - a conversion of a conversion converts the original once;
 *   - a conversion of a splat or a constant is that splat or constant built in the new
 *     layout (nothing to move);
 *   - an element-wise op whose tile operands all are, or come by conversion out of, one
 *     layout L (or are splats and constants) runs in L, and its result is converted once:
 *     two conversions in, one out;
 *   - a value carried by a `for` loop that the body would compute in another layout L (a
 *     running max or sum of reductions, in their slice layout), or that the body converts
 *     to L for an access (a pointer tile advanced by a constant, its load given 16-byte
 *     runs by access-layouts), is carried in L: its initial value is built, computed
 *     again or converted before the loop and converted back only where it is used in the
 *     old layout, which the other rules then trim (where the body computes the value in
 *     L, any initial value is converted to L once before the loop: a dot's accumulator
 *     loaded from memory);
 *   - a broadcast of index or mask arithmetic in another layout computes its operand
 *     again in the result's layout, where the broadcast copies registers;
 *   - an operand of such an op that is computed from scalars alone (splats, constants,
 *     ranges, and element-wise ops, expand_dims and broadcasts of them: index and mask
 *     arithmetic) is computed again in L rather than converted;
 *   - a reduction into a slice over conversions out of a blocked layout L (a dot's #mma
 *     accumulator) reduces in L and converts its smaller results;
 *   - expand_dims of a conversion out of a slice, feeding only broadcasts to the slice's
 *     parent layout, expands the slice itself (the broadcasts then copy registers);
 *   - conversions and other pure ops left without uses go.
 *
 * Conversions to #shared layouts (a dot's staged operands) are left alone. To a fixed
 * point, in every region of every function. */
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"
#include "transforms/walk.h"

#include "support/strbuf.h"

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
	ir_op_erase(op);
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

static const ir_type *with_layout(rewriter *w, const ir_type *t, const gpu_layout *l)
{
	return gpu_type_in_layout(w->c, t, l);
}

/* Whether tile x can be computed again in layout l from scalars alone, cheaply: a splat,
 * a constant or a range, or an element-wise op, expand_dims or broadcast of such values
 * (the index and mask arithmetic of a kernel, `cols[None, :] < n`). Such a value meeting
 * a tile in another layout is rebuilt there rather than the tile converted. A conversion
 * out of l counts too, as its source: attention's l_i[:, None], a row slice of the dot's
 * layout converted away, expands and broadcasts in that layout for acc / l_i. */
static bool rebuildable(const ir_value *x, const gpu_layout *l, int depth)
{
	if (x->type->kind != IR_TILE)
		return true;
	const ir_op *d = x->def;
	if (!d || depth == 0 || l->kind == GPU_SHARED)
		return false;
	switch (d->code) {
	case IR_OP_SPLAT:
	case IR_OP_CONSTANT:
		return true;
	case IR_OP_MAKE_RANGE:
		return x->type->rank == 1 && l->kind == GPU_SLICE;
	case IR_OP_CONVERT_LAYOUT: { /* a conversion out of l itself: its source */
		gpu_layout sl;
		const ir_type *st = d->operands[0]->type;
		return st->kind == IR_TILE && st->layout && gpu_layout_parse(st->layout, &sl) && gpu_layout_equal(&sl, l);
	}
	case IR_OP_EXPAND_DIMS: {
		if (l->kind != GPU_BLOCKED || x->type->rank != 2)
			return false;
		gpu_layout sl = *l;
		sl.kind = GPU_SLICE;
		sl.dim = (int)ir_op_int(d, "axis", -1);
		return sl.dim >= 0 && sl.dim < 2 && rebuildable(d->operands[0], &sl, depth - 1);
	}
	case IR_OP_BROADCAST:
		return l->kind == GPU_BLOCKED && d->operands[0]->type->kind == IR_TILE &&
		       rebuildable(d->operands[0], l, depth - 1);
	default:
		if (!(ir_ops[d->code].traits & T_ELEMENTWISE) || d->nresults != 1 || d->nregions)
			return false;
		for (int i = 0; i < d->noperands; i++)
			if (!rebuildable(d->operands[i], l, depth - 1))
				return false;
		return true;
	}
}

/* x computed again in layout l before `before` (rebuildable said it can be). */
static ir_value *rebuild(rewriter *w, ir_value *x, const gpu_layout *l, ir_op *before)
{
	if (x->type->kind != IR_TILE)
		return x;
	const ir_op *d = x->def;
	const ir_type *t = with_layout(w, x->type, l);
	if (d->code == IR_OP_SPLAT || d->code == IR_OP_CONSTANT || d->code == IR_OP_MAKE_RANGE)
		return remat(w, d, t, before);
	if (d->code == IR_OP_CONVERT_LAYOUT)
		return d->operands[0]->type == t ? d->operands[0] : NULL;
	ir_value *ops[8];
	if (d->noperands > 8)
		return NULL;
	for (int i = 0; i < d->noperands; i++) {
		gpu_layout ol = *l;
		if (d->code == IR_OP_EXPAND_DIMS) {
			ol.kind = GPU_SLICE;
			ol.dim = (int)ir_op_int(d, "axis", -1);
		}
		ops[i] = rebuild(w, d->operands[i], &ol, before);
		if (!ops[i])
			return NULL;
	}
	ir_op *op = ir_op_create(w->c, d->code, d->noperands, ops, 1, &t, d->loc);
	for (int i = 0; i < d->nattrs; i++)
		ir_op_set_attr(w->c, op, &d->attrs[i]);
	ir_block_insert_before(before->parent, before, op);
	return &op->results[0];
}

/* An element-wise op over conversions out of one layout (and values rebuildable in it):
 * the op in that layout and one conversion of its result. */
static void hoist(rewriter *w, ir_op *op)
{
	const char *from = NULL;
	int converts = 0;
	for (int i = 0; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		if (x->type->kind != IR_TILE || is_remat(x) || (from && x->type->layout == from) || !is_convert(x))
			continue; /* the second loop below judges these */
		const char *l = x->def->operands[0]->type->layout;
		if (!l || (from && from != l))
			return;
		from = l;
		converts++;
	}
	/* operands in the layout the conversions come from need nothing either; the others
	 * must be cheap to compute in it */
	gpu_layout fl;
	if (!from || !gpu_layout_parse(from, &fl))
		return;
	for (int i = 0; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		if (x->type->kind == IR_TILE && !is_remat(x) && !is_convert(x) && x->type->layout != from &&
		    !rebuildable(x, &fl, 8))
			return;
	}
	if (converts < 1 || op->nresults != 1 || op->results[0].type->kind != IR_TILE ||
	    op->results[0].type->layout == from)
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
		else if (is_convert(x))
			ops[i] = x->def->operands[0];
		else if (x->type->layout != from)
			ops[i] = rebuild(w, x, &fl, op);
		else
			ops[i] = x;
		if (!ops[i])
			return;
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

/* Whether y could be computed in layout l inside a loop body (arg: the loop-carried
 * value being moved to l): it has l, comes by conversion out of l, is a splat or a
 * constant, is arg, or is an element-wise op of such values. */
static bool could_have(const ir_value *y, const char *l, const ir_value *arg, int depth)
{
	if (y->type->kind != IR_TILE || y == arg || y->type->layout == l || is_remat(y))
		return true;
	if (is_convert(y))
		return y->def->operands[0]->type->layout == l;
	if (depth == 0 || !y->def || !(ir_ops[y->def->code].traits & T_ELEMENTWISE))
		return false;
	for (int i = 0; i < y->def->noperands; i++)
		if (!could_have(y->def->operands[i], l, arg, depth - 1))
			return false;
	return true;
}

/* A layout other than the canonical one that y's computation brings in: the source of
 * a conversion, or a value's own, the first one found; NULL when none. */
static const char *brought_in(const ir_value *y, const char *canon, int depth)
{
	if (y->type->kind != IR_TILE)
		return NULL;
	if (is_convert(y))
		return y->def->operands[0]->type->layout;
	if (y->type->layout != canon)
		return y->type->layout;
	if (depth == 0 || !y->def || !(ir_ops[y->def->code].traits & T_ELEMENTWISE))
		return NULL;
	for (int i = 0; i < y->def->noperands; i++) {
		const char *l = brought_in(y->def->operands[i], canon, depth - 1);
		if (l)
			return l;
	}
	return NULL;
}

/* The for op's carried value k in layout l (see the top of the file). */
static void carry_in(rewriter *w, ir_op *op, int k, const char *l)
{
	ir_block *body = op->regions[0];
	ir_value *arg = body->args[1 + k], *init = op->operands[3 + k], *res = &op->results[k];
	ir_op *y = body->last;
	const ir_type *old = arg->type, *lt = in_layout(w, old, l);
	/* the initial value in l */
	ir_value *in;
	gpu_layout ll;
	if (is_remat(init))
		in = remat(w, init->def, lt, op);
	else if (is_convert(init) && init->def->operands[0]->type == lt)
		in = init->def->operands[0];
	else if (gpu_layout_parse(l, &ll) && rebuildable(init, &ll, 8) && (in = rebuild(w, init, &ll, op)))
		;
	else {
		ir_op *cv = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &init, 1, &lt, op->loc);
		ir_block_insert_before(op->parent, op, cv);
		in = &cv->results[0];
	}
	ir_op_set_operand(op, 3 + k, in);
	/* in the body: the arg in l, converted back for its uses */
	arg->type = lt;
	ir_op *back = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &arg, 1, &old, op->loc);
	ir_block_insert_before(body, body->first, back);
	ir_replace_uses_in(body, arg, &back->results[0]);
	ir_op_set_operand(back, 0, arg);
	/* what the body yields, in l */
	ir_value *yv = y->operands[k];
	ir_op *fwd = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &yv, 1, &lt, op->loc);
	ir_block_insert_before(body, y, fwd);
	ir_op_set_operand(y, k, &fwd->results[0]);
	/* after the loop: the result in l, converted back for its uses */
	res->type = lt;
	ir_op *after = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &res, 1, &old, op->loc);
	ir_block_insert_before(op->parent, op->next, after);
	ir_replace_uses_in(w->f->body, res, &after->results[0]);
	ir_op_set_operand(after, 0, res);
	w->changed++;
}

/* The register layout of a conversion of v in block b (not in nested regions), other
 * than v's own: a load or store anchored there by access-layouts; NULL when none. */
static const char *converted_to(const ir_block *b, const ir_value *v)
{
	for (const ir_op *u = b->first; u; u = u->next)
		if (u->code == IR_OP_CONVERT_LAYOUT && u->operands[0] == v &&
		    !gpu_is_shared(u->results[0].type) && u->results[0].type->layout != v->type->layout)
			return u->results[0].type->layout;
	return NULL;
}

static void carry_loop(rewriter *w, ir_op *op)
{
	ir_block *body = op->regions[0];
	ir_op *y = body->last;
	if (!y || y->code != IR_OP_YIELD)
		return;
	for (int k = 0; k < op->nresults; k++) {
		ir_value *arg = body->args[1 + k], *init = op->operands[3 + k];
		const ir_type *t = arg->type;
		if (t->kind != IR_TILE || !t->layout)
			continue;
		/* the layout the body computes the next value in, else one the body converts the
		 * value to (a loop-carried pointer tile advanced by a constant, converted for its
		 * load): carried there, the conversion goes */
		const char *l = brought_in(y->operands[k], t->layout, 6);
		bool computed = l && l != t->layout;
		gpu_layout ll;
		if (!computed)
			l = converted_to(body, arg);
		if (!l || l == t->layout || !could_have(y->operands[k], l, arg, 6))
			continue;
		/* the initial value must be cheap to have in l: a constant or splat (tl.zeros),
		 * a conversion out of l, or arithmetic of such values (tl.zeros(...) - inf, the
		 * attention tutorial's m_i). Where the body computes the next value in l (a dot's
		 * accumulator), any initial value will do, converted once before the loop (an
		 * accumulator loaded from memory): the loop then converts nothing, where it
		 * converted twice each iteration. */
		if (!computed && !is_remat(init) && !(is_convert(init) && init->def->operands[0]->type->layout == l) &&
		    !(gpu_layout_parse(l, &ll) && rebuildable(init, &ll, 8)))
			continue;
		carry_in(w, op, k, l);
	}
}

/* expand_dims(convert(s)) with s in a slice along the axis, used only by broadcasts to
 * the slice's parent layout: expand s itself, in the parent layout. */
static void expand_slice(rewriter *w, ir_op *op)
{
	ir_value *x = op->operands[0];
	if (!is_convert(x))
		return;
	ir_value *sv = x->def->operands[0];
	gpu_layout sl;
	if (!sv->type->layout || !gpu_layout_parse(sv->type->layout, &sl) || sl.kind != GPU_SLICE ||
	    sl.dim != ir_op_int(op, "axis", -1))
		return;
	sl.kind = GPU_BLOCKED;
	strbuf b = {0};
	gpu_layout_print(&b, &sl);
	const ir_type *rt = op->results[0].type;
	const ir_type *pt = b.data ? ir_type_tile_layout(w->c, rt->elem, rt->rank, rt->shape, b.data) : NULL;
	strbuf_free(&b);
	if (!pt || pt == rt)
		return;
	/* every use must be a broadcast to the parent layout */
	int uses = 0;
	for (ir_op *u = op->next; u; u = u->next)
		for (int i = 0; i < u->noperands; i++)
			if (u->operands[i] == &op->results[0]) {
				if (u->code != IR_OP_BROADCAST || u->results[0].type->layout != pt->layout)
					return;
				uses++;
			}
	if (!uses || uses != walk_count_uses(w->f->body, &op->results[0]))
		return;
	ir_op *e = ir_op_create(w->c, IR_OP_EXPAND_DIMS, 1, &sv, 1, &pt, op->loc);
	for (int i = 0; i < op->nattrs; i++)
		ir_op_set_attr(w->c, e, &op->attrs[i]);
	ir_block_insert_before(op->parent, op, e);
	for (ir_op *u = op->next; u; u = u->next)
		for (int i = 0; i < u->noperands; i++)
			if (u->operands[i] == &op->results[0])
				ir_op_set_operand(u, i, &e->results[0]);
	w->changed++;
}

/* A broadcast whose operand is in another layout moves the tile through shared memory;
 * an operand that is index or mask arithmetic (rm[:, None] * stride, rk[None, :] < n) is
 * computed again in the result's blocked layout instead, where the broadcast copies
 * registers. */
static void broadcast_in_place(rewriter *w, ir_op *op)
{
	ir_value *x = op->operands[0];
	const ir_type *rt = op->results[0].type;
	gpu_layout rl;
	if (x->type->kind != IR_TILE || !rt->layout || x->type->layout == rt->layout ||
	    !gpu_layout_parse(rt->layout, &rl) || rl.kind != GPU_BLOCKED || !rebuildable(x, &rl, 8))
		return;
	ir_value *r = rebuild(w, x, &rl, op);
	if (!r)
		return;
	ir_op_set_operand(op, 0, r);
	w->changed++;
}

/* A reduction into a slice whose operands come by conversion out of one blocked layout L
 * (a dot's #mma accumulator): it reduces in L, into L's slice, and its results are
 * converted instead (the slices are smaller, and the rules above often drop them). */
static void reduce_through(rewriter *w, ir_op *op)
{
	const char *from = NULL;
	for (int i = 0; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		if (!is_convert(x) || (from && x->def->operands[0]->type->layout != from))
			return;
		from = x->def->operands[0]->type->layout;
	}
	gpu_layout l, have;
	if (!from || !gpu_layout_parse(from, &l) || l.kind != GPU_BLOCKED || !gpu_reduce_slices(op))
		return;
	for (int r = 0; r < op->nresults; r++) {
		const ir_type *t = op->results[r].type;
		if (t->kind != IR_TILE || !t->layout || !gpu_layout_parse(t->layout, &have) || have.kind != GPU_SLICE)
			return;
	}
	gpu_layout sl = l;
	sl.kind = GPU_SLICE;
	sl.dim = (int)ir_op_int(op, "axis", 0);
	for (int i = 0; i < op->noperands; i++)
		ir_op_set_operand(op, i, op->operands[i]->def->operands[0]);
	for (int r = 0; r < op->nresults; r++) {
		ir_value *res = &op->results[r];
		const ir_type *old = res->type;
		res->type = with_layout(w, old, &sl);
		ir_op *back = ir_op_create(w->c, IR_OP_CONVERT_LAYOUT, 1, &res, 1, &old, op->loc);
		ir_block_insert_before(op->parent, op->next, back);
		ir_replace_uses_in(w->f->body, res, &back->results[0]);
		ir_op_set_operand(back, 0, res);
	}
	w->changed++;
}

static void visit(rewriter *w, ir_block *b)
{
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			visit(w, op->regions[r]);
		if (op->code == IR_OP_FOR)
			carry_loop(w, op);
		if (op->code == IR_OP_EXPAND_DIMS)
			expand_slice(w, op);
		if (op->code == IR_OP_REDUCE)
			reduce_through(w, op);
		if (op->code == IR_OP_BROADCAST && is_convert(op->operands[0]) &&
		    op->operands[0]->def->operands[0]->type->layout == op->results[0].type->layout) {
			ir_op_set_operand(op, 0, op->operands[0]->def->operands[0]);
			w->changed++;
		} else if (op->code == IR_OP_BROADCAST)
			broadcast_in_place(w, op);
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
		} else if (is_remat(x) && !gpu_is_shared(op->results[0].type)) {
			/* (a #shared tile is written by its conversion: nothing to rebuild) */
			replace(w, op, remat(w, x->def, op->results[0].type, op));
		} else if (!gpu_is_shared(op->results[0].type)) {
			/* index and mask arithmetic: computed again in the new layout */
			gpu_layout tl;
			ir_value *r;
			if (op->results[0].type->layout && gpu_layout_parse(op->results[0].type->layout, &tl) &&
			    rebuildable(x, &tl, 8) && (r = rebuild(w, x, &tl, op)))
				replace(w, op, r);
		}
	}
}

/* Pure ops (conversions, and what the rules above left behind) nothing uses any more. */
static int sweep(ir_block *b, const valset *used)
{
	int n = 0;
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			n += sweep(op->regions[r], used);
		bool dead = (ir_ops[op->code].traits & T_PURE) && !op->nregions && op->nresults == 1 &&
			    !(ir_ops[op->code].traits & T_TERMINATOR);
		if (dead && !valset_has(used, &op->results[0])) {
			ir_op_erase(op);
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
