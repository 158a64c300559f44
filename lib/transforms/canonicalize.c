/* canonicalize.c: local simplifications to a fixed point.
 *   - integer arithmetic and comparisons on scalar or splat constants fold (with the wrap
 *     around and signedness of the type);
 *   - x + 0, x - 0, x * 1, x // 1, x | 0, x ^ 0, x << 0 on integers become x;
 *   - splat, broadcast and expand_dims of a constant become a constant of the new type;
 *   - select on a constant condition picks its arm; casts of integer constants fold;
 *   - a comparison of ranges of known bounds (make_range, constants, through expand_dims,
 *     broadcast, exti) that holds or fails everywhere becomes a constant; m & true is m;
 *   - an `if` or `for` without results whose regions hold nothing but their yield goes.
 * Floating-point identities are left alone (x + 0.0 is not x for x = -0.0).
 *
 * A worklist drives it: every op once, innermost regions first and in program order, then
 * again only the ops a rewrite touched (the replacement's definition, its operands'
 * definitions and its users). With use lists each rewrite costs its uses, so the pass is
 * linear in the function's size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/vec.h"
#include "transforms/pass.h"
#include "transforms/walk.h"

/* The ops still to visit, each queued at most once at a time. */
typedef struct worklist {
	VEC(ir_op *) ops;
	size_t head;
	ir_ptrmap queued; /* op -> op while it waits */
} worklist;

/* The worklist of the function being rewritten; set while the pass runs on it. */
typedef struct canon {
	ir_context *c;
	ir_func *f;
	worklist *w;
} canon;

static void push(worklist *w, ir_op *op)
{
	if (!op || ir_ptrmap_get(&w->queued, op) || !ir_ptrmap_put(&w->queued, op, op))
		return;
	vec_push(&w->ops, op);
}

/* A rewrite of op into v: op's users (their operand changes), v's definition and the
 * definitions of its operands (the transposes sink_trans builds) may simplify further.
 * Only the uses that move are visited, not every use of v (a value with many uses, such
 * as a parameter, would make that quadratic). */
static void touched(worklist *w, ir_op *op, ir_value *v)
{
	if (!w)
		return;
	for (int i = 0; i < op->nresults; i++)
		for (ir_use *u = op->results[i].uses; u; u = u->next)
			push(w, u->user);
	if (v->def) {
		push(w, v->def);
		for (int i = 0; i < v->def->noperands; i++)
			if (v->def->operands[i])
				push(w, v->def->operands[i]->def);
	}
}

static bool const_int(const ir_value *v, int64_t *out)
{
	const ir_op *d = v->def;
	if (!d || d->code != IR_OP_CONSTANT || !ir_type_is_int(ir_type_elem(v->type)))
		return false;
	const ir_attr *a = ir_op_attr(d, "value");
	if (!a || a->kind != IR_ATTR_INT)
		return false;
	*out = a->i;
	return true;
}

/* Wraps x to the width of integer type t and re-extends it by t's signedness. */
static int64_t wrap(const ir_type *t, int64_t x)
{
	int bits = ir_type_bits(t);
	if (bits >= 64)
		return x;
	uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)x & mask;
	if (t->kind == IR_I1)
		return (int64_t)u;
	if (ir_type_is_signed(t) && (u >> (bits - 1)))
		u |= ~mask;
	return (int64_t)u;
}

static bool fold_int(ir_opcode code, const ir_type *t, int64_t a, int64_t b, int64_t *r)
{
	bool sgn = ir_type_is_signed(t);
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	int bits = ir_type_bits(t);
	if (!sgn && bits < 64) {
		ua &= ((uint64_t)1 << bits) - 1;
		ub &= ((uint64_t)1 << bits) - 1;
	}
	switch (code) {
	case IR_OP_ADDI: *r = (int64_t)(ua + ub); break;
	case IR_OP_SUBI: *r = (int64_t)(ua - ub); break;
	case IR_OP_MULI: *r = (int64_t)(ua * ub); break;
	case IR_OP_DIVI:
	case IR_OP_REMI:
		if (ub == 0 || (sgn && b == -1 && a == INT64_MIN))
			return false; /* leave the run-time behaviour to the target */
		if (sgn)
			*r = code == IR_OP_DIVI ? a / b : a % b; /* C truncation, as Triton */
		else
			*r = (int64_t)(code == IR_OP_DIVI ? ua / ub : ua % ub);
		break;
	case IR_OP_ANDI: *r = a & b; break;
	case IR_OP_ORI: *r = a | b; break;
	case IR_OP_XORI: *r = a ^ b; break;
	case IR_OP_MAXI: *r = sgn ? (a > b ? a : b) : (int64_t)(ua > ub ? ua : ub); break;
	case IR_OP_MINI: *r = sgn ? (a < b ? a : b) : (int64_t)(ua < ub ? ua : ub); break;
	default: return false;
	}
	*r = wrap(t, *r);
	return true;
}

static bool fold_cmp(const char *pred, bool sgn, int64_t a, int64_t b, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	if (!strcmp(pred, "eq")) *r = a == b;
	else if (!strcmp(pred, "ne")) *r = a != b;
	else if (!strcmp(pred, "lt")) *r = sgn ? a < b : ua < ub;
	else if (!strcmp(pred, "le")) *r = sgn ? a <= b : ua <= ub;
	else if (!strcmp(pred, "gt")) *r = sgn ? a > b : ua > ub;
	else if (!strcmp(pred, "ge")) *r = sgn ? a >= b : ua >= ub;
	else return false;
	return true;
}

/* Replaces op's single result with `with` everywhere and erases op. */
static void replace(canon *cn, ir_op *op, ir_value *with)
{
	if (!with->name)
		with->name = op->results[0].name;
	touched(cn->w, op, with);
	ir_replace_all_uses(&op->results[0], with);
	ir_op_erase(op);
}

static ir_value *make_const_like(ir_context *c, ir_op *at, const ir_type *t, const ir_attr *v)
{
	ir_builder b = {c, at->parent, at, at->loc};
	if (v->kind == IR_ATTR_FLOAT)
		return ir_const_float(&b, t, v->f);
	return ir_const_int(&b, t, v->i);
}

/* The values an integer tile or scalar v can hold, when they are known: a constant
 * [k, k], a make_range [start, end - 1], and those through expand_dims, broadcast and
 * exti (of the signed values they are). */
static bool int_bounds(const ir_value *v, int64_t *lo, int64_t *hi)
{
	const ir_op *d = v->def;
	int64_t k;
	if (const_int(v, &k)) {
		*lo = *hi = k;
		return true;
	}
	if (!d)
		return false;
	switch (d->code) {
	case IR_OP_MAKE_RANGE: {
		int64_t st = ir_op_int(d, "start", 0), en = ir_op_int(d, "end", 0);
		if (en <= st)
			return false;
		*lo = st, *hi = en - 1;
		return true;
	}
	case IR_OP_EXPAND_DIMS:
	case IR_OP_BROADCAST:
		return int_bounds(d->operands[0], lo, hi);
	case IR_OP_EXTI:
		return ir_type_is_signed(ir_type_elem(d->operands[0]->type)) && int_bounds(d->operands[0], lo, hi);
	default:
		return false;
	}
}

/* A comparison that holds (1) or fails (0) for every element of operand ranges [a0, a1]
 * and [b0, b1]; -1 when it depends on the element. */
static int cmp_bounds(const char *pred, int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	if (!strcmp(pred, "lt"))
		return a1 < b0 ? 1 : a0 >= b1 ? 0 : -1;
	if (!strcmp(pred, "le"))
		return a1 <= b0 ? 1 : a0 > b1 ? 0 : -1;
	if (!strcmp(pred, "gt"))
		return a0 > b1 ? 1 : a1 <= b0 ? 0 : -1;
	if (!strcmp(pred, "ge"))
		return a0 >= b1 ? 1 : a1 < b0 ? 0 : -1;
	if (!strcmp(pred, "eq") || !strcmp(pred, "ne")) {
		int eq = a0 == a1 && b0 == b1 && a0 == b0 ? 1 : a1 < b0 || b1 < a0 ? 0 : -1;
		return eq < 0 || !strcmp(pred, "eq") ? eq : !eq;
	}
	return -1;
}

static bool is_identity(ir_opcode code, int side, int64_t k)
{
	/* side 1: the constant is the right operand */
	switch (code) {
	case IR_OP_ADDI: case IR_OP_ORI: case IR_OP_XORI: return k == 0;
	case IR_OP_SUBI: case IR_OP_SHLI: case IR_OP_SHRI: return side == 1 && k == 0;
	case IR_OP_MULI: return k == 1;
	case IR_OP_DIVI: return side == 1 && k == 1;
	default: return false;
	}
}

/* x^T: a trans {order = [1, 0]} of 2-D tile x, placed before `at`. */
static ir_value *transposed(ir_context *c, ir_op *at, ir_value *x)
{
	if (x->type->kind != IR_TILE)
		return x; /* a scalar operand broadcasts either way */
	int64_t sh[2] = {x->type->shape[1], x->type->shape[0]};
	ir_builder b = {c, at->parent, at, at->loc};
	ir_value *r = ir_build1(&b, IR_OP_TRANS, ir_type_tile(c, x->type->elem, 2, sh), x);
	int64_t order[2] = {1, 0};
	ir_op_set_ints(c, r->def, "order", order, 2);
	return r;
}

/* A transpose of a 2-D value that only it uses, pushed into the value's definition: the
 * load of a tile of pointers loads the transposed pointers instead (tutorial 06's
 * desc_k.load(...).T), and a transposed splat, constant, broadcast, expand_dims or
 * element-wise op is that op of transposed operands, down to the index arithmetic's
 * leaves (computed again where others still use the originals). The GPU layouts then
 * see K^T's pointers contiguous down its columns, as in
 * the bench kernel's k_ptr + cols[None, :] * stride + offs_d[:, None], and stage and
 * pipeline it K-major, where a transpose of the loaded tile would go through shared
 * memory every iteration. Before layouts only (types without one). */
static int sink_trans(canon *cn, ir_op *op)
{
	ir_context *c = cn->c;
	ir_func *f = cn->f;
	const ir_type *t = op->results[0].type;
	ir_value *x = op->operands[0];
	const ir_attr *ord = ir_op_attr(op, "order");
	ir_op *d = x->def;
	if (t->kind != IR_TILE || t->rank != 2 || t->layout || x->type->layout || !ord || ord->kind != IR_ATTR_INTS ||
	    ord->ints.n != 2 || ord->ints.v[0] != 1 || !d || d->nresults != 1 || d->nregions)
		return 0;
	/* a load moves only when nothing else reads it, in the same block; the index
	 * arithmetic is cheap to have twice (the original stays for its other users) */
	if (d->code == IR_OP_LOAD && (d->parent != op->parent || walk_count_uses(f->body, x) != 1))
		return 0;
	ir_builder b = {c, op->parent, op, op->loc};
	ir_value *r = NULL;
	switch (d->code) {
	case IR_OP_CONSTANT: {
		const ir_attr *v = ir_op_attr(d, "value");
		if (v && (v->kind == IR_ATTR_INT || v->kind == IR_ATTR_FLOAT))
			r = make_const_like(c, op, t, v);
		break;
	}
	case IR_OP_SPLAT:
		r = ir_build1(&b, IR_OP_SPLAT, t, d->operands[0]);
		break;
	case IR_OP_EXPAND_DIMS: { /* of a 1-D tile: along the other axis */
		int64_t a = ir_op_int(d, "axis", -1);
		if (d->operands[0]->type->kind == IR_TILE && d->operands[0]->type->rank == 1 && (a == 0 || a == 1)) {
			r = ir_build1(&b, IR_OP_EXPAND_DIMS, t, d->operands[0]);
			ir_op_set_int(c, r->def, "axis", 1 - a);
		}
		break;
	}
	case IR_OP_BROADCAST:
		if (d->operands[0]->type->kind == IR_TILE && d->operands[0]->type->rank == 2)
			r = ir_build1(&b, IR_OP_BROADCAST, t, transposed(c, op, d->operands[0]));
		break;
	case IR_OP_LOAD:
		if (d->noperands < 1 || d->operands[0]->type->kind != IR_TILE)
			break; /* a block pointer's load keeps its shape */
		/* fall through */
	default:
		if (d->code != IR_OP_LOAD && !(ir_ops[d->code].traits & T_ELEMENTWISE))
			break;
		ir_value *ops[8];
		if (d->noperands > 8)
			break;
		for (int i = 0; i < d->noperands; i++) {
			ir_value *y = d->operands[i];
			if (y->type->kind == IR_TILE && y->type->rank != 2)
				return 0;
			ops[i] = transposed(c, op, y);
		}
		ir_op *n = ir_op_create(c, d->code, d->noperands, ops, 1, &t, d->loc);
		for (int i = 0; i < d->nattrs; i++)
			ir_op_set_attr(c, n, &d->attrs[i]);
		ir_block_insert_before(op->parent, op, n);
		r = &n->results[0];
		break;
	}
	if (!r)
		return 0;
	replace(cn, op, r);
	if (!walk_count_uses(f->body, x))
		ir_op_erase(d);
	return 1;
}

static int simplify(canon *cn, ir_op *op)
{
	ir_context *c = cn->c;
	int64_t a = 0, b = 0, r;
	const ir_type *t = op->nresults == 1 ? op->results[0].type : NULL;
	switch (op->code) {
	case IR_OP_ADDI: case IR_OP_SUBI: case IR_OP_MULI: case IR_OP_DIVI: case IR_OP_REMI:
	case IR_OP_ANDI: case IR_OP_ORI: case IR_OP_XORI: case IR_OP_MAXI: case IR_OP_MINI:
	case IR_OP_SHLI: case IR_OP_SHRI: {
		bool ka = const_int(op->operands[0], &a), kb = const_int(op->operands[1], &b);
		if (ka && kb && fold_int(op->code, ir_type_elem(t), a, b, &r)) {
			ir_builder bl = {c, op->parent, op, op->loc};
			replace(cn, op, ir_const_int(&bl, t, r));
			return 1;
		}
		if (kb && is_identity(op->code, 1, b) && op->operands[0]->type == t) {
			replace(cn, op, op->operands[0]);
			return 1;
		}
		if (ka && is_identity(op->code, 0, a) && op->operands[1]->type == t) {
			replace(cn, op, op->operands[1]);
			return 1;
		}
		/* (x + c1) - c2 and the other sums of x and two constants: x + (c1 - c2), as
		 * MLIR's arith canonicalization folds cdiv's (x + d) - 1 in Triton's TTIR. The
		 * integers wrap, so the sum may be regrouped; only when op is the inner sum's one
		 * user, so that no op is added. */
		if ((op->code == IR_OP_ADDI || op->code == IR_OP_SUBI) && kb && !ka) {
			ir_op *d = op->operands[0]->def;
			int64_t k1, k = 0;
			ir_value *x = NULL;
			if (d && (d->code == IR_OP_ADDI || d->code == IR_OP_SUBI) && d->nresults == 1 &&
			    d->results[0].type == t && d->results[0].uses && !d->results[0].uses->next) {
				if (const_int(d->operands[1], &k1) && !const_int(d->operands[0], &a))
					x = d->operands[0], k = d->code == IR_OP_ADDI ? k1 : -k1;
				else if (d->code == IR_OP_ADDI && const_int(d->operands[0], &k1) &&
					 !const_int(d->operands[1], &a))
					x = d->operands[1], k = k1;
			}
			if (x && x->type == t) {
				const ir_type *e = ir_type_elem(t);
				k = wrap(e, (int64_t)((uint64_t)k + (uint64_t)(op->code == IR_OP_ADDI ? b : -b)));
				ir_builder bl = {c, op->parent, op, op->loc};
				ir_value *r = k ? ir_build2(&bl, IR_OP_ADDI, t, x, ir_const_int(&bl, t, k)) : x;
				replace(cn, op, r);
				if (!d->results[0].uses)
					ir_op_erase(d);
				return 1;
			}
		}
		/* masks: m & true is m, m & false is false (i1) */
		if (op->code == IR_OP_ANDI && ir_type_elem(t)->kind == IR_I1 && (ka || kb)) {
			int64_t k = kb ? b : a;
			ir_value *other = op->operands[kb ? 0 : 1];
			if (k && other->type == t) {
				replace(cn, op, other);
				return 1;
			}
			if (!k) {
				ir_builder bl = {c, op->parent, op, op->loc};
				replace(cn, op, ir_const_int(&bl, t, 0));
				return 1;
			}
		}
		return 0;
	}
	case IR_OP_CMPI: {
		const ir_attr *p = ir_op_attr(op, "pred");
		bool sgn = ir_type_is_signed(ir_type_elem(op->operands[0]->type));
		if (p && p->kind == IR_ATTR_STR && const_int(op->operands[0], &a) &&
		    const_int(op->operands[1], &b) && fold_cmp(p->s, sgn, a, b, &r)) {
			ir_builder bl = {c, op->parent, op, op->loc};
			replace(cn, op, ir_const_int(&bl, t, r));
			return 1;
		}
		/* a range against a bound it never crosses (a block's own columns against its
		 * width: tensor descriptors' masks): the same answer for every element */
		int64_t a0, a1, b0, b1;
		if (p && p->kind == IR_ATTR_STR && int_bounds(op->operands[0], &a0, &a1) &&
		    int_bounds(op->operands[1], &b0, &b1) && (sgn || (a0 >= 0 && b0 >= 0))) {
			int k = cmp_bounds(p->s, a0, a1, b0, b1);
			if (k >= 0) {
				ir_builder bl = {c, op->parent, op, op->loc};
				replace(cn, op, ir_const_int(&bl, t, k));
				return 1;
			}
		}
		return 0;
	}
	case IR_OP_SPLAT: case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: {
		const ir_op *d = op->operands[0]->def;
		const ir_attr *v = d && d->code == IR_OP_CONSTANT ? ir_op_attr(d, "value") : NULL;
		if (v) {
			replace(cn, op, make_const_like(c, op, t, v));
			return 1;
		}
		return 0;
	}
	case IR_OP_SELECT:
		if (const_int(op->operands[0], &a) && op->operands[0]->type->kind != IR_TILE) {
			replace(cn, op, op->operands[a ? 1 : 2]);
			return 1;
		}
		if (op->operands[1] == op->operands[2]) {
			replace(cn, op, op->operands[1]);
			return 1;
		}
		return 0;
	case IR_OP_EXTI: case IR_OP_TRUNCI:
		if (const_int(op->operands[0], &a)) {
			const ir_type *from = ir_type_elem(op->operands[0]->type);
			/* extension reads the source by its signedness; truncation wraps */
			int64_t x = op->code == IR_OP_EXTI && !ir_type_is_signed(from)
					? (int64_t)((uint64_t)wrap(from, a) &
						    (ir_type_bits(from) >= 64 ? ~0ull
									      : (((uint64_t)1 << ir_type_bits(from)) - 1)))
					: a;
			ir_builder bl = {c, op->parent, op, op->loc};
			replace(cn, op, ir_const_int(&bl, t, wrap(ir_type_elem(t), x)));
			return 1;
		}
		return 0;
	case IR_OP_TRANS:
		return sink_trans(cn, op);
	case IR_OP_IF:
	case IR_OP_FOR:
		/* a while loop may not terminate, so only if and for qualify */
		if (op->nresults)
			return 0;
		for (int r = 0; r < op->nregions; r++) {
			const ir_op *first = op->regions[r]->first;
			if (first && first->code != IR_OP_YIELD)
				return 0;
		}
		ir_op_erase(op);
		return 1;
	default:
		return 0;
	}
}

/* Queues the ops of b, innermost regions first, in program order. */
static void queue_all(worklist *w, ir_block *b)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			queue_all(w, op->regions[r]);
		push(w, op);
	}
}

int pass_canonicalize(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		worklist w = {0};
		queue_all(&w, f->body);
		canon cn = {m->ctx, f, &w};
		/* every rewrite removes an op or pushes a transpose towards the leaves; the bound
		 * only guards against a rewrite that undoes another */
		size_t budget = 16 * (w.ops.len + 16);
		while (w.head < w.ops.len && budget--) {
			ir_op *op = w.ops.data[w.head++];
			ir_ptrmap_put(&w.queued, op, NULL);
			if (op->parent) /* not erased */
				simplify(&cn, op);
		}
		vec_free(&w.ops);
		ir_ptrmap_free(&w.queued);
	}
	return 0;
}
