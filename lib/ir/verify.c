/* verify.c: the tile IR verifier.
 *
 * Two layers. The structural layer checks every op against its row in ops.def (operand,
 * result and region counts), terminators (each region ends with the one its parent expects,
 * nothing follows a terminator, a function body ends with 'return') and dominance (an operand
 * is an argument or result defined earlier in the same block or in an enclosing one). The
 * type layer runs the op's RULE, one function per rule below. Every problem is reported at
 * the op's location as "'name' op ..."; the walk continues so that one run finds them all. */
#include "ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/vec.h"

typedef struct verifier {
	ir_context *c;
	diag_engine *d;
	int errors;
	ir_ptrmap visible;		  /* values in scope at the current op */
	VEC(const ir_value *) defined; /* the same values, innermost last */
} verifier;

static void err(verifier *v, const ir_op *op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void err(verifier *v, const ir_op *op, const char *fmt, ...)
{
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	v->errors++;
	diag_error(v->d, op->loc, "'%s' op %s", ir_ops[op->code].name, buf);
}

/* The printed form of t, for messages; lives in the context's arena. */
static const char *tn(verifier *v, const ir_type *t)
{
	strbuf b = {0};
	ir_type_print(&b, t);
	const char *s = arena_strdup(ir_arena(v->c), b.data ? b.data : "?");
	strbuf_free(&b);
	return s ? s : "?";
}

/* ---- helpers --------------------------------------------------------------------------- */

static const ir_type *opt(const ir_op *op, int i) { return op->operands[i]->type; }
static const ir_type *rest(const ir_op *op, int i) { return op->results[i].type; }
static bool is_tile(const ir_type *t) { return t->kind == IR_TILE; }
static const ir_type *elem(const ir_type *t) { return ir_type_elem(t); }

static bool same_shape(const ir_type *a, const ir_type *b)
{
	if (!is_tile(a) || !is_tile(b))
		return !is_tile(a) && !is_tile(b);
	if (a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return true;
}

/* Equal types, a tile's layout aside (for results checked against a type built here). */
static bool same_type(const ir_type *a, const ir_type *b)
{
	return a == b || (is_tile(a) && is_tile(b) && a->elem == b->elem && same_shape(a, b));
}

static bool is_i1(const ir_type *t) { return elem(t)->kind == IR_I1; }
static bool is_block_ptr(const ir_type *t) { return t->kind == IR_PTR && t->elem->kind == IR_TILE; }
/* A pointer to a scalar, or a tile of them. */
static bool is_scalar_ptrs(const ir_type *t)
{
	const ir_type *e = elem(t);
	return e->kind == IR_PTR && e->elem->kind != IR_TILE;
}

static const ir_attr *need_attr(verifier *v, const ir_op *op, const char *name, ir_attr_kind k,
				const char *what)
{
	const ir_attr *a = ir_op_attr(op, name);
	if (!a)
		err(v, op, "requires attribute '%s'", name);
	else if (a->kind != k)
		err(v, op, "attribute '%s' must be %s", name, what);
	else
		return a;
	return NULL;
}

static bool str_in(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

/* Checks that the operands' types equal the result type; false after reporting. */
static bool all_same(verifier *v, const ir_op *op)
{
	for (int i = 1; i < op->noperands; i++)
		if (opt(op, i) != opt(op, 0)) {
			err(v, op, "operands have different types: '%s' and '%s'", tn(v, opt(op, 0)),
			    tn(v, opt(op, i)));
			return false;
		}
	if (op->nresults && op->noperands && rest(op, 0) != opt(op, 0)) {
		err(v, op, "result type '%s' does not match operand type '%s'", tn(v, rest(op, 0)),
		    tn(v, opt(op, 0)));
		return false;
	}
	return true;
}

static bool is_perm(const ir_attr *a, int rank)
{
	if (a->ints.n != rank || rank > 64)
		return false;
	bool seen[64] = {0};
	for (int i = 0; i < rank; i++) {
		if (a->ints.v[i] < 0 || a->ints.v[i] >= rank || seen[a->ints.v[i]])
			return false;
		seen[a->ints.v[i]] = true;
	}
	return true;
}

/* ---- region helpers ---------------------------------------------------------------------- */

/* The block's terminator when it is `code`, else NULL (the structural check reports it). */
static const ir_op *terminator(const ir_block *b, ir_opcode code)
{
	return b->last && b->last->code == code ? b->last : NULL;
}

static void check_args(verifier *v, const ir_op *op, int r, int n, const ir_type *const *types)
{
	const ir_block *b = op->regions[r];
	if (b->nargs != n) {
		err(v, op, "region %d has %d arguments, expected %d", r + 1, b->nargs, n);
		return;
	}
	for (int i = 0; i < n; i++)
		if (b->args[i]->type != types[i])
			err(v, op, "region %d argument %d has type '%s', expected '%s'", r + 1, i,
			    tn(v, b->args[i]->type), tn(v, types[i]));
}

/* Checks that the region's terminator (code) carries values of the given types, starting at
 * its operand `skip`. */
static void check_yield(verifier *v, const ir_op *op, int r, ir_opcode code, int skip, int n,
			const ir_type *const *types)
{
	const ir_op *y = terminator(op->regions[r], code);
	if (!y || y->noperands < skip)
		return;
	if (y->noperands - skip != n) {
		err(v, op, "region %d %s %d values, expected %d", r + 1,
		    code == IR_OP_YIELD ? "yields" : "passes", y->noperands - skip, n);
		return;
	}
	for (int i = 0; i < n; i++) {
		const ir_value *x = y->operands[skip + i];
		if (x && x->type != types[i])
			err(v, op, "region %d %s value %d of type '%s', expected '%s'", r + 1,
			    code == IR_OP_YIELD ? "yields" : "passes", i, tn(v, x->type),
			    tn(v, types[i]));
	}
}

static const ir_type **result_types(verifier *v, const ir_op *op)
{
	const ir_type **t = ARENA_NEWN(ir_arena(v->c), const ir_type *, op->nresults + 1);
	for (int i = 0; t && i < op->nresults; i++)
		t[i] = rest(op, i);
	return t;
}

/* ---- the rules, one per V_* ------------------------------------------------------------- */

static void rule_constant(verifier *v, const ir_op *op)
{
	const ir_type *e = elem(rest(op, 0));
	const ir_attr *a = ir_op_attr(op, "value");
	if (!a)
		err(v, op, "requires attribute 'value'");
	else if (ir_type_is_int(e) && a->kind != IR_ATTR_INT)
		err(v, op, "attribute 'value' must be an integer for type '%s'", tn(v, rest(op, 0)));
	else if (ir_type_is_float(e) && a->kind != IR_ATTR_FLOAT)
		err(v, op, "attribute 'value' must be a float for type '%s'", tn(v, rest(op, 0)));
	else if (!ir_type_is_int(e) && !ir_type_is_float(e))
		err(v, op, "result must be an integer or float scalar or tile, got '%s'",
		    tn(v, rest(op, 0)));
}

static void rule_program_id(verifier *v, const ir_op *op)
{
	const ir_attr *a = need_attr(v, op, "axis", IR_ATTR_INT, "an integer");
	if (a && (a->i < 0 || a->i > 2))
		err(v, op, "axis must be 0, 1 or 2, got %lld", (long long)a->i);
	if (rest(op, 0)->kind != IR_I32)
		err(v, op, "result must be 'i32', got '%s'", tn(v, rest(op, 0)));
}

static void rule_make_range(verifier *v, const ir_op *op)
{
	const ir_attr *s = need_attr(v, op, "start", IR_ATTR_INT, "an integer");
	const ir_attr *e = need_attr(v, op, "end", IR_ATTR_INT, "an integer");
	if (!s || !e)
		return;
	if (s->i >= e->i || s->i < INT32_MIN || e->i > (int64_t)INT32_MAX + 1) {
		err(v, op, "requires start < end within i32, got [%lld, %lld)", (long long)s->i,
		    (long long)e->i);
		return;
	}
	int64_t n = e->i - s->i;
	if (n & (n - 1))
		err(v, op, "extent %lld is not a power of two", (long long)n);
	const ir_type *r = rest(op, 0);
	if (!is_tile(r) || r->rank != 1 || r->shape[0] != n || r->elem->kind != IR_I32)
		err(v, op, "result must be 'tile<%lldxi32>', got '%s'", (long long)n, tn(v, r));
}

static void rule_splat(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	if (is_tile(a))
		err(v, op, "operand must be a scalar, got '%s'", tn(v, a));
	else if (!is_tile(r) || r->elem != a)
		err(v, op, "result must be a tile of '%s', got '%s'", tn(v, a), tn(v, r));
}

/* convert_layout: the same tile in another layout */
static void rule_convert_layout(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	if (!is_tile(a) || !same_type(a, r))
		err(v, op, "cannot convert '%s' to '%s': the shape and element type must stay",
		    tn(v, a), tn(v, r));
}

static void check_mask(verifier *v, const ir_op *op, int i, const ir_type *like);

/* local_view %slot: a tile in a #shared layout, in a ring slot (dialects/gpu/ops.def). */
static void rule_local_view(verifier *v, const ir_op *op)
{
	const ir_type *s = opt(op, 0), *r = rest(op, 0);
	if (!s || s->kind != IR_I32)
		err(v, op, "the slot must be an i32, got '%s'", tn(v, s));
	if (!is_tile(r) || !r->layout || strncmp(r->layout, "shared<", 7))
		err(v, op, "result '%s' must be a tile in a #shared layout", tn(v, r));
	const char *need[] = {"ring", "within", "slot_bytes"};
	for (int i = 0; i < 3; i++)
		need_attr(v, op, need[i], IR_ATTR_INT, "an integer");
}

/* local_load %view: the view's top-left corner, in registers: the element type stays, no
 * extent grows, the result is not in a #shared layout. */
static void rule_local_load(verifier *v, const ir_op *op)
{
	const ir_type *s = opt(op, 0), *r = rest(op, 0);
	if (!is_tile(s) || !s->layout || strncmp(s->layout, "shared<", 7)) {
		err(v, op, "the operand must be a tile in a #shared layout, got '%s'", tn(v, s));
		return;
	}
	bool ok = is_tile(r) && r->rank == s->rank && r->elem == s->elem && !(r->layout && !strncmp(r->layout, "shared<", 7));
	for (int d = 0; ok && d < r->rank; d++)
		ok = r->shape[d] <= s->shape[d];
	if (!ok)
		err(v, op, "result '%s' must be a corner of '%s' in registers", tn(v, r), tn(v, s));
}

/* async_copy %view, %ptrs[, %mask]: the view's shape and element type are the pointees'. */
static void rule_async_copy(verifier *v, const ir_op *op)
{
	if (op->noperands < 2 || op->noperands > 3) {
		err(v, op, "expects 2 or 3 operands (view, ptrs, mask), got %d", op->noperands);
		return;
	}
	const ir_type *d = opt(op, 0), *p = opt(op, 1);
	if (!is_tile(d) || !d->layout || strncmp(d->layout, "shared<", 7)) {
		err(v, op, "the destination must be a tile in a #shared layout, got '%s'", tn(v, d));
		return;
	}
	if (!is_scalar_ptrs(p) || !is_tile(p) || elem(p)->elem != d->elem || !same_shape(p, d))
		err(v, op, "the pointers '%s' do not point to the elements of '%s'", tn(v, p), tn(v, d));
	else if (op->noperands > 2)
		check_mask(v, op, 2, p);
}

static void rule_async_wait(verifier *v, const ir_op *op)
{
	const ir_attr *n = need_attr(v, op, "pending", IR_ATTR_INT, "an integer");
	if (n && (n->i < 0 || n->i > 7))
		err(v, op, "attribute 'pending' must be 0 to 7, got %lld", (long long)n->i);
}

static void rule_broadcast(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	bool ok = is_tile(a) && is_tile(r) && a->rank == r->rank && a->elem == r->elem;
	for (int i = 0; ok && i < a->rank; i++)
		ok = a->shape[i] == r->shape[i] || a->shape[i] == 1;
	if (!ok)
		err(v, op, "cannot broadcast '%s' to '%s'", tn(v, a), tn(v, r));
}

static void rule_expand_dims(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	const ir_attr *ax = need_attr(v, op, "axis", IR_ATTR_INT, "an integer");
	if (!ax)
		return;
	int rank = is_tile(a) ? a->rank : 0;
	if (ax->i < 0 || ax->i > rank) {
		err(v, op, "axis %lld out of range for '%s'", (long long)ax->i, tn(v, a));
		return;
	}
	bool ok = is_tile(r) && r->rank == rank + 1 && r->elem == elem(a) && r->shape[ax->i] == 1;
	for (int i = 0, j = 0; ok && i < r->rank; i++)
		if (i != ax->i)
			ok = r->shape[i] == a->shape[j++];
	if (!ok)
		err(v, op, "result '%s' is not '%s' with a 1 inserted at axis %lld", tn(v, r), tn(v, a),
		    (long long)ax->i);
}

static void rule_reshape(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	if (!is_tile(r) || elem(a) != r->elem || ir_type_numel(a) != ir_type_numel(r))
		err(v, op, "cannot reshape '%s' to '%s'", tn(v, a), tn(v, r));
}

static void rule_trans(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	const ir_attr *o = need_attr(v, op, "order", IR_ATTR_INTS, "an integer array");
	if (!o)
		return;
	if (!is_tile(a) || !is_perm(o, a->rank)) {
		err(v, op, "order is not a permutation of the dimensions of '%s'", tn(v, a));
		return;
	}
	bool ok = is_tile(r) && r->rank == a->rank && r->elem == a->elem;
	for (int i = 0; ok && i < r->rank; i++)
		ok = r->shape[i] == a->shape[o->ints.v[i]];
	if (!ok)
		err(v, op, "result '%s' is not '%s' permuted by order", tn(v, r), tn(v, a));
}

static void rule_join(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *b = opt(op, 1), *r = rest(op, 0);
	if (a != b) {
		err(v, op, "operands have different types: '%s' and '%s'", tn(v, a), tn(v, b));
		return;
	}
	int rank = is_tile(a) ? a->rank : 0;
	bool ok = is_tile(r) && r->rank == rank + 1 && r->elem == elem(a) && r->shape[rank] == 2;
	for (int i = 0; ok && i < rank; i++)
		ok = r->shape[i] == a->shape[i];
	if (!ok)
		err(v, op, "result '%s' is not '%s' with a trailing dimension 2", tn(v, r), tn(v, a));
}

/* gather %src, %index {axis}: result[..., j, ...] = src[..., index[..., j, ...], ...] along
 * axis; index is an integer tile of src's rank whose dims other than axis are src's, and the
 * result has index's shape and src's element type. */
static void rule_gather(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *x = opt(op, 1), *r = rest(op, 0);
	const ir_attr *ax = need_attr(v, op, "axis", IR_ATTR_INT, "an integer");
	if (!ax)
		return;
	if (!is_tile(a) || !is_tile(x) || a->rank != x->rank || !ir_type_is_int(x->elem)) {
		err(v, op, "needs a source tile and an integer index tile of the same rank, got '%s' "
			   "and '%s'", tn(v, a), tn(v, x));
		return;
	}
	if (ax->i < 0 || ax->i >= a->rank) {
		err(v, op, "axis %lld is out of range for '%s'", (long long)ax->i, tn(v, a));
		return;
	}
	for (int d = 0; d < a->rank; d++)
		if (d != ax->i && a->shape[d] != x->shape[d]) {
			err(v, op, "index '%s' differs from source '%s' in dimension %d (only the axis may)",
			    tn(v, x), tn(v, a), d);
			return;
		}
	if (!is_tile(r) || r->elem != a->elem || r->rank != x->rank ||
	    memcmp(r->shape, x->shape, sizeof(int64_t) * (size_t)r->rank))
		err(v, op, "result '%s' must have the index's shape and the source's element type",
		    tn(v, r));
}

/* inline_asm %a, %b, ... {asm, constraints, pack}: one or more results of one shape, every
 * operand a scalar or a tile of that shape; the region (the CPU variant) takes one scalar
 * per operand and yields one value of each result's element type, or is only a `yield`
 * (no CPU variant). */
static void rule_inline_asm(verifier *v, const ir_op *op)
{
	if (op->nresults < 1) {
		err(v, op, "inline_asm needs at least one result");
		return;
	}
	const ir_type *r = rest(op, 0);
	if (!need_attr(v, op, "asm", IR_ATTR_STR, "a string") ||
	    !need_attr(v, op, "constraints", IR_ATTR_STR, "a string"))
		return;
	if (ir_op_int(op, "pack", 1) < 1) {
		err(v, op, "pack must be at least 1");
		return;
	}
	for (int k = 1; k < op->nresults; k++) {
		const ir_type *t = rest(op, k);
		if (is_tile(t) != is_tile(r) || (is_tile(t) && (t->rank != r->rank ||
				   memcmp(t->shape, r->shape, sizeof(int64_t) * (size_t)r->rank)))) {
			err(v, op, "result %d '%s' does not have result 0's shape '%s'", k, tn(v, t),
			    tn(v, r));
			return;
		}
	}
	for (int k = 0; k < op->noperands; k++) {
		const ir_type *t = opt(op, k);
		if (is_tile(t) && (!is_tile(r) || t->rank != r->rank ||
				   memcmp(t->shape, r->shape, sizeof(int64_t) * (size_t)r->rank))) {
			err(v, op, "operand %d '%s' does not have the result's shape '%s'", k, tn(v, t),
			    tn(v, r));
			return;
		}
	}
	const ir_block *b = op->regions[0];
	const ir_op *y = b->last;
	if (!y || y->code != IR_OP_YIELD || (y->noperands && y->noperands != op->nresults)) {
		err(v, op, "the CPU variant must end with a yield of one value per result, or of none");
		return;
	}
	if (y->noperands == 0)
		return;
	if (b->nargs != op->noperands) {
		err(v, op, "the CPU variant takes %d arguments for %d operands", b->nargs, op->noperands);
		return;
	}
	for (int k = 0; k < op->nresults; k++)
		if (y->operands[k]->type != elem(rest(op, k)))
			err(v, op, "the CPU variant yields '%s' for result %d, expected '%s'",
			    tn(v, y->operands[k]->type), k, tn(v, elem(rest(op, k))));
}

static void rule_split(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0);
	if (!is_tile(a) || a->shape[a->rank - 1] != 2) {
		err(v, op, "operand '%s' must be a tile whose last dimension is 2", tn(v, a));
		return;
	}
	const ir_type *want = a->rank == 1 ? a->elem
				: ir_type_tile(v->c, a->elem, a->rank - 1, a->shape);
	for (int i = 0; i < 2; i++)
		if (!same_type(rest(op, i), want))
			err(v, op, "result %d has type '%s', expected '%s'", i, tn(v, rest(op, i)),
			    tn(v, want));
}

static void rule_same_elem(verifier *v, const ir_op *op, bool want_int)
{
	if (!all_same(v, op))
		return;
	const ir_type *e = elem(rest(op, 0));
	if (want_int ? !ir_type_is_int(e) : !ir_type_is_float(e))
		err(v, op, "expects %s operands, got '%s'", want_int ? "integer" : "floating-point",
		    tn(v, rest(op, 0)));
}

/* ldexp(x, n): x floating point, n int32 of x's shape, the result of x's type */
static void rule_ldexp(verifier *v, const ir_op *op)
{
	const ir_type *x = opt(op, 0), *n = opt(op, 1), *r = rest(op, 0);
	if (!ir_type_is_float(elem(x)))
		err(v, op, "expects a floating-point operand, got '%s'", tn(v, x));
	else if (elem(n)->kind != IR_I32 || !same_shape(n, x))
		err(v, op, "the exponent must be i32 of the operand's shape, got '%s' for '%s'", tn(v, n),
		    tn(v, x));
	else if (r != x)
		err(v, op, "result type '%s' does not match operand type '%s'", tn(v, r), tn(v, x));
}

static void rule_cmp(verifier *v, const ir_op *op, bool is_int)
{
	static const char *const ipreds[] = {"eq", "ne", "lt", "le", "gt", "ge", NULL};
	static const char *const fpreds[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ueq",
					     "une", "ult", "ule", "ugt", "uge", "ord", "uno", NULL};
	const ir_type *a = opt(op, 0), *b = opt(op, 1), *r = rest(op, 0);
	if (a != b)
		err(v, op, "operands have different types: '%s' and '%s'", tn(v, a), tn(v, b));
	else if (is_int && !ir_type_is_int(elem(a)) && elem(a)->kind != IR_PTR)
		err(v, op, "expects integer or pointer operands, got '%s'", tn(v, a));
	else if (!is_int && !ir_type_is_float(elem(a)))
		err(v, op, "expects floating-point operands, got '%s'", tn(v, a));
	else if (!is_i1(r) || !same_shape(r, a))
		err(v, op, "result must be i1 of the operands' shape, got '%s' for '%s'", tn(v, r),
		    tn(v, a));
	const ir_attr *p = need_attr(v, op, "pred", IR_ATTR_STR, "a string");
	if (p && !str_in(p->s, is_int ? ipreds : fpreds))
		err(v, op, "invalid predicate \"%s\"", p->s);
}

static void rule_select(verifier *v, const ir_op *op)
{
	const ir_type *c = opt(op, 0), *a = opt(op, 1), *b = opt(op, 2), *r = rest(op, 0);
	if (!is_i1(c) || (is_tile(c) && !same_shape(c, r)))
		err(v, op, "condition must be i1 scalar or an i1 tile of the result's shape, got '%s'",
		    tn(v, c));
	if (a != b)
		err(v, op, "operands have different types: '%s' and '%s'", tn(v, a), tn(v, b));
	else if (r != a)
		err(v, op, "result type '%s' does not match operand type '%s'", tn(v, r), tn(v, a));
}

static void rule_cast(verifier *v, const ir_op *op)
{
	const ir_type *a = opt(op, 0), *r = rest(op, 0);
	if (!same_shape(a, r)) {
		err(v, op, "operand '%s' and result '%s' differ in shape", tn(v, a), tn(v, r));
		return;
	}
	const ir_type *x = elem(a), *y = elem(r);
	int bx = ir_type_bits(x), by = ir_type_bits(y);
	bool ok = false;
	switch (op->code) {
	case IR_OP_EXTI: ok = ir_type_is_int(x) && ir_type_is_int(y) && by > bx; break;
	case IR_OP_TRUNCI: ok = ir_type_is_int(x) && ir_type_is_int(y) && by < bx; break;
	case IR_OP_ITOF: ok = ir_type_is_int(x) && ir_type_is_float(y); break;
	case IR_OP_FTOI: ok = ir_type_is_float(x) && ir_type_is_int(y); break;
	case IR_OP_EXTF: ok = ir_type_is_float(x) && ir_type_is_float(y) && by > bx; break;
	case IR_OP_TRUNCF: ok = ir_type_is_float(x) && ir_type_is_float(y) && by < bx; break;
	case IR_OP_BITCAST: ok = x->kind != IR_TILE && y->kind != IR_TILE && bx == by; break;
	case IR_OP_PTRTOINT: ok = x->kind == IR_PTR && ir_type_is_int(y); break;
	case IR_OP_INTTOPTR: ok = ir_type_is_int(x) && y->kind == IR_PTR; break;
	case IR_OP_ILOGB: ok = ir_type_is_float(x) && y->kind == IR_I32; break;
	default: break;
	}
	if (!ok)
		err(v, op, "cannot convert '%s' to '%s'", tn(v, a), tn(v, r));
	const ir_attr *rnd = ir_op_attr(op, "rounding");
	if (rnd && (op->code != IR_OP_TRUNCF || rnd->kind != IR_ATTR_STR ||
		    (strcmp(rnd->s, "rtne") && strcmp(rnd->s, "rtz"))))
		err(v, op, "attribute 'rounding' must be \"rtne\" or \"rtz\" on 'truncf'");
}

static void rule_addptr(verifier *v, const ir_op *op)
{
	const ir_type *p = opt(op, 0), *o = opt(op, 1), *r = rest(op, 0);
	if (elem(p)->kind != IR_PTR)
		err(v, op, "first operand must be a pointer or a tile of pointers, got '%s'", tn(v, p));
	else if (!ir_type_is_int(elem(o)) || !same_shape(p, o))
		err(v, op, "offset '%s' must be an integer of the shape of '%s'", tn(v, o), tn(v, p));
	else if (r != p)
		err(v, op, "result type '%s' does not match operand type '%s'", tn(v, r), tn(v, p));
}

static void check_mask(verifier *v, const ir_op *op, int i, const ir_type *like)
{
	const ir_type *m = opt(op, i);
	if (!is_i1(m) || !same_shape(m, like))
		err(v, op, "mask '%s' must be i1 of the shape of '%s'", tn(v, m), tn(v, like));
}

static void check_boundary(verifier *v, const ir_op *op, const ir_type *tile)
{
	const ir_attr *bc = ir_op_attr(op, "boundary_check");
	if (!bc)
		return;
	bool ok = bc->kind == IR_ATTR_INTS;
	for (int i = 0; ok && i < bc->ints.n; i++)
		ok = bc->ints.v[i] >= 0 && bc->ints.v[i] < tile->rank;
	if (!ok)
		err(v, op, "attribute 'boundary_check' must list dimensions of '%s'", tn(v, tile));
}

static void rule_load(verifier *v, const ir_op *op)
{
	if (op->noperands < 1 || op->noperands > 3) {
		err(v, op, "expects 1 to 3 operands (ptr, mask, other), got %d", op->noperands);
		return;
	}
	const ir_type *p = opt(op, 0), *r = rest(op, 0);
	if (is_block_ptr(p)) {
		if (op->noperands != 1)
			err(v, op, "takes no mask or other with a block pointer");
		if (r != p->elem)
			err(v, op, "result '%s' must be the pointee '%s'", tn(v, r), tn(v, p->elem));
		check_boundary(v, op, p->elem);
		const ir_attr *pad = ir_op_attr(op, "padding");
		if (pad && (pad->kind != IR_ATTR_STR || (strcmp(pad->s, "zero") && strcmp(pad->s, "nan"))))
			err(v, op, "attribute 'padding' must be \"zero\" or \"nan\"");
		return;
	}
	if (!is_scalar_ptrs(p)) {
		err(v, op, "operand must be a pointer or a tile of pointers, got '%s'", tn(v, p));
		return;
	}
	if (elem(r) != elem(p)->elem || !same_shape(r, p))
		err(v, op, "result '%s' does not match what '%s' points to", tn(v, r), tn(v, p));
	if (op->noperands > 1)
		check_mask(v, op, 1, p);
	if (op->noperands > 2 && opt(op, 2) != r)
		err(v, op, "'other' has type '%s', expected '%s'", tn(v, opt(op, 2)), tn(v, r));
}

/* The value stored through (or combined into) ptr must match what it points to. */
static void check_pointee(verifier *v, const ir_op *op, const ir_type *p, const ir_type *x)
{
	if (!is_scalar_ptrs(p))
		err(v, op, "operand must be a pointer or a tile of pointers, got '%s'", tn(v, p));
	else if (elem(x) != elem(p)->elem || !same_shape(x, p))
		err(v, op, "value '%s' does not match what '%s' points to", tn(v, x), tn(v, p));
}

static void rule_store(verifier *v, const ir_op *op)
{
	if (op->noperands < 2 || op->noperands > 3) {
		err(v, op, "expects 2 or 3 operands (ptr, value, mask), got %d", op->noperands);
		return;
	}
	const ir_type *p = opt(op, 0), *x = opt(op, 1);
	if (is_block_ptr(p)) {
		if (op->noperands != 2)
			err(v, op, "takes no mask with a block pointer");
		if (x != p->elem)
			err(v, op, "value '%s' must be the pointee '%s'", tn(v, x), tn(v, p->elem));
		check_boundary(v, op, p->elem);
		return;
	}
	check_pointee(v, op, p, x);
	if (op->noperands > 2)
		check_mask(v, op, 2, p);
}

static void rule_atomic_rmw(verifier *v, const ir_op *op)
{
	static const char *const kinds[] = {"add", "fadd", "max", "min", "umax", "umin",
					    "and", "or",   "xor", "xchg", NULL};
	const ir_attr *k = need_attr(v, op, "kind", IR_ATTR_STR, "a string");
	if (k && !str_in(k->s, kinds))
		err(v, op, "invalid kind \"%s\"", k->s);
	if (op->noperands < 2 || op->noperands > 3) {
		err(v, op, "expects 2 or 3 operands (ptr, value, mask), got %d", op->noperands);
		return;
	}
	check_pointee(v, op, opt(op, 0), opt(op, 1));
	if (op->noperands > 2)
		check_mask(v, op, 2, opt(op, 0));
	if (rest(op, 0) != opt(op, 1))
		err(v, op, "result type '%s' does not match value type '%s'", tn(v, rest(op, 0)),
		    tn(v, opt(op, 1)));
}

static void rule_atomic_cas(verifier *v, const ir_op *op)
{
	check_pointee(v, op, opt(op, 0), opt(op, 2));
	if (opt(op, 1) != opt(op, 2))
		err(v, op, "operands have different types: '%s' and '%s'", tn(v, opt(op, 1)),
		    tn(v, opt(op, 2)));
	else if (rest(op, 0) != opt(op, 2))
		err(v, op, "result type '%s' does not match value type '%s'", tn(v, rest(op, 0)),
		    tn(v, opt(op, 2)));
}

static void rule_make_block_ptr(verifier *v, const ir_op *op)
{
	int n = op->noperands;
	if (n < 4 || (n - 1) % 3) {
		err(v, op, "expects a base and rank shapes, strides and offsets, got %d operands", n);
		return;
	}
	int rank = (n - 1) / 3;
	const ir_type *base = opt(op, 0), *r = rest(op, 0);
	if (base->kind != IR_PTR || base->elem->kind == IR_TILE)
		err(v, op, "base must be a scalar pointer, got '%s'", tn(v, base));
	for (int i = 1; i < n; i++) {
		const ir_type *t = opt(op, i);
		bool offs = i > 2 * rank;
		if (offs ? t->kind != IR_I32 : t->kind != IR_I64 && t->kind != IR_I32)
			err(v, op, "%s %d must be %s, got '%s'",
			    i <= rank ? "shape" : offs ? "offset" : "stride", (i - 1) % rank,
			    offs ? "i32" : "i32 or i64", tn(v, t));
	}
	const ir_attr *o = need_attr(v, op, "order", IR_ATTR_INTS, "an integer array");
	if (o && !is_perm(o, rank))
		err(v, op, "attribute 'order' must be a permutation of %d dimensions", rank);
	if (!is_block_ptr(r) || r->elem->rank != rank ||
	    (base->kind == IR_PTR && (r->elem->elem != base->elem || r->addrspace != base->addrspace)))
		err(v, op, "result must be a block pointer of rank %d to '%s', got '%s'", rank,
		    base->kind == IR_PTR ? tn(v, base->elem) : "?", tn(v, r));
}

static void rule_advance(verifier *v, const ir_op *op)
{
	if (op->noperands < 1) {
		err(v, op, "expects a block pointer and offsets");
		return;
	}
	const ir_type *p = opt(op, 0);
	if (!is_block_ptr(p)) {
		err(v, op, "first operand must be a block pointer, got '%s'", tn(v, p));
		return;
	}
	if (op->noperands - 1 != p->elem->rank)
		err(v, op, "expects %d offsets for '%s', got %d", p->elem->rank, tn(v, p),
		    op->noperands - 1);
	for (int i = 1; i < op->noperands; i++)
		if (opt(op, i)->kind != IR_I32)
			err(v, op, "offset %d must be i32, got '%s'", i - 1, tn(v, opt(op, i)));
	if (rest(op, 0) != p)
		err(v, op, "result type '%s' does not match operand type '%s'", tn(v, rest(op, 0)),
		    tn(v, p));
}

static void rule_dot(verifier *v, const ir_op *op)
{
	if (op->noperands < 3) {
		err(v, op, "expects 3 operands (A, B, accumulator), got %d", op->noperands);
		return;
	}
	const ir_type *a = opt(op, 0), *b = opt(op, 1), *c = opt(op, 2), *r = rest(op, 0);
	bool ok = is_tile(a) && is_tile(b) && is_tile(c) && a->rank == b->rank &&
		  a->rank == c->rank && (a->rank == 2 || a->rank == 3);
	if (ok) {
		int k = a->rank - 2;
		for (int i = 0; ok && i < k; i++)
			ok = a->shape[i] == b->shape[i] && a->shape[i] == c->shape[i];
		ok = ok && a->shape[k + 1] == b->shape[k] && a->shape[k] == c->shape[k] &&
		     b->shape[k + 1] == c->shape[k + 1];
	}
	if (!ok) {
		err(v, op, "shapes do not fit [M,K] x [K,N] + [M,N]: '%s', '%s', '%s'", tn(v, a),
		    tn(v, b), tn(v, c));
		return;
	}
	bool int8 = a->elem->kind == IR_I8 || a->elem->kind == IR_U8;
	if (a->elem != b->elem)
		err(v, op, "operands have different element types: '%s' and '%s'", tn(v, a), tn(v, b));
	else if (int8 ? c->elem->kind != IR_I32 : !ir_type_is_float(c->elem) || !ir_type_is_float(a->elem))
		err(v, op, "accumulator '%s' does not fit inputs '%s'", tn(v, c), tn(v, a));
	if (r != c)
		err(v, op, "result type '%s' does not match accumulator type '%s'", tn(v, r), tn(v, c));
	/* operands past the accumulator: the first k-steps of A or B fetched ahead
	 * (#dot_op<opIdx = 0 | 1, ...>, transforms/mma_prefetch.c), at most one of each */
	if (op->noperands > 5) {
		err(v, op, "expects 3 operands, and at most 2 fetched ahead, got %d", op->noperands);
		return;
	}
	int seen = 0;
	for (int i = 3; i < op->noperands; i++) {
		const ir_type *f = opt(op, i);
		const char *lay = is_tile(f) ? f->layout : NULL;
		int idx = lay && !strncmp(lay, "dot_op<opIdx = 0", 16) ? 0 : lay && !strncmp(lay, "dot_op<opIdx = 1", 16) ? 1 : -1;
		const ir_type *of = idx == 0 ? a : b;
		bool ok = idx >= 0 && !(seen & 1 << idx) && a->rank == 2 && f->rank == 2 && f->elem == a->elem &&
			  f->shape[idx] == of->shape[idx] && f->shape[1 - idx] <= of->shape[1 - idx];
		if (!ok) {
			err(v, op, "operand %d '%s' is not the first k of A or B in a #dot_op layout", i, tn(v, f));
			return;
		}
		seen |= 1 << idx;
	}
}

/* reduce and scan: n tiles of one shape in, n results, a combiner region over elements. */
static void rule_reduce_scan(verifier *v, const ir_op *op, bool scan)
{
	int n = op->noperands;
	if (n < 1 || op->nresults != n) {
		err(v, op, "expects as many results as operands (at least one), got %d and %d",
		    op->nresults, n);
		return;
	}
	const ir_type *a = opt(op, 0);
	const ir_attr *ax = need_attr(v, op, "axis", IR_ATTR_INT, "an integer");
	if (!is_tile(a)) {
		err(v, op, "operands must be tiles, got '%s'", tn(v, a));
		return;
	}
	if (ax && (ax->i < 0 || ax->i >= a->rank)) {
		err(v, op, "axis %lld out of range for '%s'", (long long)ax->i, tn(v, a));
		return;
	}
	if (scan) {
		const ir_attr *rv = ir_op_attr(op, "reverse");
		if (rv && rv->kind != IR_ATTR_BOOL)
			err(v, op, "attribute 'reverse' must be a boolean");
	}
	const ir_type **args = ARENA_NEWN(ir_arena(v->c), const ir_type *, 2 * n);
	if (!args)
		return;
	for (int i = 0; i < n; i++) {
		const ir_type *t = opt(op, i);
		if (!same_shape(t, a)) {
			err(v, op, "operands have different shapes: '%s' and '%s'", tn(v, a), tn(v, t));
			return;
		}
		args[i] = args[n + i] = elem(t);
		const ir_type *want = t;
		if (!scan && ax) {
			int64_t shape[64];
			int k = 0;
			for (int d = 0; d < t->rank && k < 64; d++)
				if (d != ax->i)
					shape[k++] = t->shape[d];
			want = k ? ir_type_tile(v->c, t->elem, k, shape) : t->elem;
		}
		if (ax && !same_type(rest(op, i), want))
			err(v, op, "result %d has type '%s', expected '%s'", i, tn(v, rest(op, i)),
			    tn(v, want));
	}
	check_args(v, op, 0, 2 * n, args);
	check_yield(v, op, 0, IR_OP_YIELD, 0, n, args);
}

static void rule_for(verifier *v, const ir_op *op)
{
	if (op->noperands < 3) {
		err(v, op, "expects lower bound, upper bound and step, got %d operands",
		    op->noperands);
		return;
	}
	const ir_type *lb = opt(op, 0);
	if (!ir_type_is_int(lb) || opt(op, 1) != lb || opt(op, 2) != lb)
		err(v, op, "bounds and step must be one integer scalar type, got '%s', '%s', '%s'",
		    tn(v, lb), tn(v, opt(op, 1)), tn(v, opt(op, 2)));
	int n = op->noperands - 3;
	if (op->nresults != n) {
		err(v, op, "has %d results for %d initial values", op->nresults, n);
		return;
	}
	const ir_type **args = ARENA_NEWN(ir_arena(v->c), const ir_type *, n + 1);
	if (!args)
		return;
	args[0] = lb;
	for (int i = 0; i < n; i++) {
		args[i + 1] = opt(op, i + 3);
		if (rest(op, i) != args[i + 1])
			err(v, op, "result %d has type '%s', but its initial value is '%s'", i,
			    tn(v, rest(op, i)), tn(v, args[i + 1]));
	}
	check_args(v, op, 0, n + 1, args);
	check_yield(v, op, 0, IR_OP_YIELD, 0, n, args + 1);
}

static void rule_if(verifier *v, const ir_op *op)
{
	const ir_type *c = opt(op, 0);
	if (c->kind != IR_I1)
		err(v, op, "condition must be 'i1', got '%s'", tn(v, c));
	const ir_type **rt = result_types(v, op);
	for (int r = 0; rt && r < 2; r++) {
		check_args(v, op, r, 0, NULL);
		check_yield(v, op, r, IR_OP_YIELD, 0, op->nresults, rt);
	}
}

static void rule_while(verifier *v, const ir_op *op)
{
	int n = op->noperands;
	const ir_type **init = ARENA_NEWN(ir_arena(v->c), const ir_type *, n + 1);
	const ir_type **rt = result_types(v, op);
	if (!init || !rt)
		return;
	for (int i = 0; i < n; i++)
		init[i] = opt(op, i);
	check_args(v, op, 0, n, init);
	check_args(v, op, 1, op->nresults, rt);
	check_yield(v, op, 0, IR_OP_CONDITION, 1, op->nresults, rt);
	check_yield(v, op, 1, IR_OP_YIELD, 0, n, init);
	const ir_op *c = terminator(op->regions[0], IR_OP_CONDITION);
	if (c && (c->noperands < 1 || (c->operands[0] && c->operands[0]->type &&
				       c->operands[0]->type->kind != IR_I1)))
		err(v, op, "'condition' must start with an i1 scalar");
}

static void rule_assert(verifier *v, const ir_op *op)
{
	if (!is_i1(opt(op, 0)))
		err(v, op, "operand must be i1, got '%s'", tn(v, opt(op, 0)));
	need_attr(v, op, "msg", IR_ATTR_STR, "a string");
}

static void check_rule(verifier *v, const ir_op *op)
{
	switch (ir_ops[op->code].rule) {
	case V_NONE: case V_YIELD: case V_CONDITION: break;
	case V_CONSTANT: rule_constant(v, op); break;
	case V_PROGRAM_ID: rule_program_id(v, op); break;
	case V_MAKE_RANGE: rule_make_range(v, op); break;
	case V_SPLAT: rule_splat(v, op); break;
	case V_BROADCAST: rule_broadcast(v, op); break;
	case V_EXPAND_DIMS: rule_expand_dims(v, op); break;
	case V_RESHAPE: rule_reshape(v, op); break;
	case V_TRANS: rule_trans(v, op); break;
	case V_JOIN: rule_join(v, op); break;
	case V_SPLIT: rule_split(v, op); break;
	case V_GATHER: rule_gather(v, op); break;
	case V_INLINE_ASM: rule_inline_asm(v, op); break;
	case V_SAME_INT: rule_same_elem(v, op, true); break;
	case V_SAME_FLOAT: rule_same_elem(v, op, false); break;
	case V_LDEXP: rule_ldexp(v, op); break;
	case V_CMPI: rule_cmp(v, op, true); break;
	case V_CMPF: rule_cmp(v, op, false); break;
	case V_SELECT: rule_select(v, op); break;
	case V_CAST: rule_cast(v, op); break;
	case V_ADDPTR: rule_addptr(v, op); break;
	case V_LOAD: rule_load(v, op); break;
	case V_STORE: rule_store(v, op); break;
	case V_ATOMIC_RMW: rule_atomic_rmw(v, op); break;
	case V_ATOMIC_CAS: rule_atomic_cas(v, op); break;
	case V_MAKE_BLOCK_PTR: rule_make_block_ptr(v, op); break;
	case V_ADVANCE: rule_advance(v, op); break;
	case V_DOT: rule_dot(v, op); break;
	case V_REDUCE: rule_reduce_scan(v, op, false); break;
	case V_SCAN: rule_reduce_scan(v, op, true); break;
	case V_SAME_AS_OPERAND: all_same(v, op); break;
	case V_FOR: rule_for(v, op); break;
	case V_IF: rule_if(v, op); break;
	case V_WHILE: rule_while(v, op); break;
	case V_ASSERT: rule_assert(v, op); break;
	case V_CONVERT_LAYOUT: rule_convert_layout(v, op); break;
	case V_LOCAL_VIEW: rule_local_view(v, op); break;
	case V_LOCAL_LOAD: rule_local_load(v, op); break;
	case V_ASYNC_COPY: rule_async_copy(v, op); break;
	case V_ASYNC_WAIT: rule_async_wait(v, op); break;
	}
}

/* ---- attributes that passes divide by or loop on ----------------------------------------- */

static bool pow2_in(int64_t x, int64_t most)
{
	return x >= 1 && x <= most && !(x & (x - 1));
}

/* Whether a is an integer attribute; else a message. */
static const char *want_int(const ir_attr *a, char *buf, size_t size, const char *what)
{
	if (a->kind == IR_ATTR_INT)
		return NULL;
	snprintf(buf, size, "attribute '%s' must be %s", a->name, what);
	return buf;
}

const char *ir_check_attr(const ir_attr *a, bool is_func, char *buf, size_t size)
{
	const char *n = a->name, *bad;
	if (is_func && !strcmp(n, "num_warps")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (pow2_in(a->i, IR_MAX_NUM_WARPS))
			return NULL;
		snprintf(buf, size, "num_warps must be a power of two from 1 to %d, got %lld",
			 IR_MAX_NUM_WARPS, (long long)a->i);
		return buf;
	}
	if (!strcmp(n, "num_stages")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (a->i >= 0 && a->i <= IR_MAX_NUM_STAGES)
			return NULL;
		snprintf(buf, size, "num_stages must be from 0 to %d, got %lld", IR_MAX_NUM_STAGES,
			 (long long)a->i);
		return buf;
	}
	if (is_func && !strcmp(n, "num_ctas")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (a->i >= 1 && a->i <= IR_MAX_NUM_CTAS)
			return NULL;
		snprintf(buf, size, "num_ctas must be from 1 to %d, got %lld", IR_MAX_NUM_CTAS,
			 (long long)a->i);
		return buf;
	}
	if (is_func && !strcmp(n, "threads_per_warp")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (a->i == 32 || a->i == 64)
			return NULL;
		snprintf(buf, size, "threads_per_warp must be 32 or 64, got %lld", (long long)a->i);
		return buf;
	}
	if (is_func && !strcmp(n, "nv_cc")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (a->i >= 10 && a->i <= 1000)
			return NULL;
		snprintf(buf, size, "nv_cc must be a compute capability from 10 to 1000 (90 for "
			 "sm_90), got %lld", (long long)a->i);
		return buf;
	}
	if (!is_func && !strcmp(n, "unroll")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (a->i >= 0 && a->i <= IR_MAX_UNROLL)
			return NULL;
		snprintf(buf, size, "unroll must be from 0 to %d, got %lld", IR_MAX_UNROLL,
			 (long long)a->i);
		return buf;
	}
	if (!is_func && !strcmp(n, "vec")) {
		if ((bad = want_int(a, buf, size, "an integer")))
			return bad;
		if (pow2_in(a->i, IR_MAX_VEC))
			return NULL;
		snprintf(buf, size, "vec must be a power of two from 1 to %d, got %lld", IR_MAX_VEC,
			 (long long)a->i);
		return buf;
	}
	return NULL;
}

static void check_op_attrs(verifier *v, const ir_op *op)
{
	char buf[256];
	for (int i = 0; i < op->nattrs; i++) {
		const char *bad = ir_check_attr(&op->attrs[i], false, buf, sizeof buf);
		if (bad)
			err(v, op, "%s", bad);
	}
}

/* ---- structure --------------------------------------------------------------------------- */

static void make_visible(verifier *v, const ir_value *x)
{
	ir_ptrmap_put(&v->visible, x, (void *)x);
	vec_push(&v->defined, x);
}

static void hide_to(verifier *v, size_t mark)
{
	while (v->defined.len > mark)
		ir_ptrmap_put(&v->visible, vec_pop(&v->defined), NULL);
}

/* The terminator region r of op must end with. */
static ir_opcode region_terminator(const ir_op *op, int r)
{
	return op->code == IR_OP_WHILE && r == 0 ? IR_OP_CONDITION : IR_OP_YIELD;
}

static void verify_block(verifier *v, const ir_block *b);

/* Where a terminator may stand: return ends a function body, condition ends the first
 * region of a while, yield ends every other region. */
static void check_placement(verifier *v, const ir_op *op)
{
	const ir_block *b = op->parent;
	const ir_op *parent = b ? b->parent : NULL;
	int r = -1;
	for (int i = 0; parent && i < parent->nregions; i++)
		if (parent->regions[i] == b)
			r = i;
	if (op->code == IR_OP_RETURN && (!b || !b->func))
		err(v, op, "must be in a function body, not in a region of '%s'",
		    parent ? ir_ops[parent->code].name : "?");
	else if ((op->code == IR_OP_YIELD || op->code == IR_OP_CONDITION) &&
		 (!parent || r < 0 || region_terminator(parent, r) != op->code))
		err(v, op, "is not the terminator of %s", parent ? "this region" : "a function body");
	else if (op->next)
		err(v, op, "must be the last op in its block");
}

static void verify_op(verifier *v, const ir_op *op)
{
	if ((unsigned)op->code >= IR_NUM_OPS) {
		v->errors++;
		diag_error(v->d, op->loc, "invalid opcode %d", (int)op->code);
		return;
	}
	const ir_opinfo *info = &ir_ops[op->code];
	bool ok = true;
	if (info->noperands != VARIADIC && op->noperands != info->noperands) {
		err(v, op, "expects %d operand%s, got %d", info->noperands,
		    info->noperands == 1 ? "" : "s", op->noperands);
		ok = false;
	}
	if (info->nresults != VARIADIC && op->nresults != info->nresults) {
		err(v, op, "expects %d result%s, got %d", info->nresults,
		    info->nresults == 1 ? "" : "s", op->nresults);
		ok = false;
	}
	if (op->nregions != info->nregions) {
		err(v, op, "expects %d regions, got %d", info->nregions, op->nregions);
		return;
	}
	for (int i = 0; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		if (!x || !x->type) {
			err(v, op, "operand %d is %s", i, x ? "untyped" : "missing");
			ok = false;
		} else if (!ir_ptrmap_get(&v->visible, x)) {
			err(v, op, "operand %d is not defined before this use", i);
		}
	}
	for (int i = 0; i < op->nresults; i++)
		if (!op->results[i].type) {
			err(v, op, "result %d has no type", i);
			ok = false;
		}
	if (info->traits & T_TERMINATOR)
		check_placement(v, op);
	for (int r = 0; r < op->nregions; r++) {
		const ir_block *b = op->regions[r];
		for (int i = 0; i < b->nargs; i++)
			if (!b->args[i]->type) {
				err(v, op, "region %d argument %d has no type", r + 1, i);
				ok = false;
			}
		verify_block(v, b);
		ir_opcode want = region_terminator(op, r);
		if (!b->last || b->last->code != want)
			err(v, op, "region %d must end with '%s'", r + 1, ir_ops[want].name);
	}
	check_op_attrs(v, op);
	if (ok)
		check_rule(v, op);
	for (int i = 0; i < op->nresults; i++)
		make_visible(v, &op->results[i]);
}

static void verify_block(verifier *v, const ir_block *b)
{
	size_t mark = v->defined.len;
	for (int i = 0; i < b->nargs; i++)
		make_visible(v, b->args[i]);
	for (const ir_op *op = b->first; op; op = op->next) {
		if (op->parent != b) {
			v->errors++;
			diag_error(v->d, op->loc, "'%s' op has a wrong parent block",
				   (unsigned)op->code < IR_NUM_OPS ? ir_ops[op->code].name : "?");
		}
		verify_op(v, op);
	}
	hide_to(v, mark);
}

static void verify_func(verifier *v, const ir_func *f)
{
	char buf[256];
	for (int i = 0; i < f->nattrs; i++) {
		const char *bad = ir_check_attr(&f->attrs[i], true, buf, sizeof buf);
		if (bad) {
			v->errors++;
			diag_error(v->d, f->loc, "function '@%s': %s", f->name, bad);
		}
	}
	for (int i = 0; i < f->body->nargs; i++) {
		if (!f->body->args[i]->type) {
			v->errors++;
			diag_error(v->d, f->loc, "parameter %d of '@%s' has no type", i, f->name);
		}
		if (f->params[i].divisibility < 1) {
			v->errors++;
			diag_error(v->d, f->loc, "parameter %d of '@%s' has divisibility %lld", i,
				   f->name, (long long)f->params[i].divisibility);
		}
	}
	verify_block(v, f->body);
	if (!f->body->last || f->body->last->code != IR_OP_RETURN) {
		v->errors++;
		diag_error(v->d, f->body->last ? f->body->last->loc : f->loc,
			   "function '@%s' must end with 'return'", f->name);
	}
}

int ir_verify_module(const ir_module *m, diag_engine *d)
{
	verifier v = {.c = m->ctx, .d = d};
	for (const ir_func *f = m->funcs; f; f = f->next) {
		verify_func(&v, f);
		v.errors += ir_verify_uses(f, d);
	}
	ir_ptrmap_free(&v.visible);
	vec_free(&v.defined);
	return v.errors;
}
