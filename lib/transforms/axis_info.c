/* axis_info.c: the axis analysis (contiguity, divisibility and constancy of every value,
 * per dimension; see axis_info.h for what each fact means).
 *
 * One forward walk over the function in program order computes each op's results from its
 * operands' facts with a transfer rule per op. Region ops iterate: a `for` or `while`
 * re-walks its body until the loop-carried facts stop changing, meeting the initial values
 * with what the body yields; an `if` meets its two arms. Every fact only ever weakens during
 * that iteration, so it terminates.
 *
 * The rules follow Triton's AxisInfo analysis (lib/Analysis/AxisInfo.cpp), so that a kernel
 * gets the vector widths it gets from Triton. Where Triton is imprecise or unsound we differ:
 *   - Divisibility is a fact about the first element of each run. When a rule shortens the
 *     runs (add of a contiguous and a partly constant tile, select, meet at a loop), the new
 *     run starts fall inside the old runs, so we use the divisibility at those positions
 *     (div_at below) where Triton keeps the old run starts' divisibility.
 *   - The meet at control-flow joins does the same (Triton's join takes plain gcds).
 *   - Hints (multiple_of, max_contiguous) raise what the analysis proved; Triton replaces it.
 *   - Divisions, remainders, right shifts and comparisons of a contiguous tile by something
 *     constant over the run get their constancy/contiguity when the runs are partial too
 *     (Triton needs a fully contiguous and a fully constant operand).
 *   - shli/shri need a constant shift amount (Triton reads a variable amount's divisibility
 *     as a shift count); x >> c of a contiguous x is constant in runs, like x // 2^c; an
 *     exact division by 2^c keeps the rest of the divisibility; x & m with m = 2^k - 1
 *     behaves like x % 2^k; and/or/xor give per-element divisibility (Triton: none).
 *   - trunci, and exti from a signed to an unsigned type, keep contiguity only across runs
 *     that cannot wrap; ptrtoint/inttoptr and pointer bitcasts keep contiguity only when it
 *     means the same thing on both sides (Triton copies the facts unchanged).
 *   - Every other element-wise op keeps constancy (the gcd of its operands').
 *   - The per-element divisibility a new dimension gets (expand_dims, reshape) is the best
 *     any dimension proves (Triton takes the gcd over the dimensions).
 *   - Divisibility saturates at 2^30 (Triton: 2^62), which keeps products from overflowing.
 * Like Triton, the integer rules ignore wrap-around and assume divisions and remainders see
 * non-negative operands. */
#include "transforms/axis_info.h"

#include <string.h>

/* ---- arithmetic on facts ----------------------------------------------------------------- */

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a < 1 ? 1 : a;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* The largest power of two dividing v, saturated; 0 is divisible by everything. */
static int64_t pow2_divisor(int64_t v)
{
	uint64_t u = (uint64_t)v;
	if (u == 0)
		return AXIS_MAX_DIVISIBILITY;
	u &= 0 - u;
	return u > (uint64_t)AXIS_MAX_DIVISIBILITY ? AXIS_MAX_DIVISIBILITY : (int64_t)u;
}

/* The product of two divisibilities, saturated (both are at most 2^30: no overflow). */
static int64_t div_mul(int64_t a, int64_t b)
{
	int64_t p = a * b;
	return p > AXIS_MAX_DIVISIBILITY ? AXIS_MAX_DIVISIBILITY : p;
}

/* Wraps v to the width of integer type t and re-extends it by t's signedness (i1 and the
 * unsigned types zero-extend). */
static int64_t wrap(const ir_type *t, int64_t v)
{
	int bits = ir_type_bits(t);
	if (bits >= 64 || bits <= 0)
		return v;
	uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
	if (ir_type_is_signed(t) && (u >> (bits - 1)))
		u |= ~mask;
	return (int64_t)u;
}

/* ---- shapes --------------------------------------------------------------------------------- */

static int rank_of(const ir_type *t)
{
	return t && t->kind == IR_TILE ? t->rank : 0;
}

/* Scalars keep their facts in entry 0. */
static int ndims(int rank)
{
	return rank ? rank : 1;
}

static int64_t extent(const ir_type *t, int d)
{
	return t && t->kind == IR_TILE ? t->shape[d] : 1;
}

/* Byte size of what a pointer (or tile of pointers) points at; 0 when not a scalar. */
static int64_t pointee_size(const ir_type *t)
{
	const ir_type *e = ir_type_elem(t);
	if (!e || e->kind != IR_PTR || !e->elem || e->elem->kind == IR_TILE)
		return 0;
	int bits = ir_type_bits(e->elem);
	return bits >= 8 ? bits / 8 : 1;
}

/* ---- the conservative answer ------------------------------------------------------------------ */

#define ONES {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
#define UNKNOWN(r)                                                                                 \
	{.rank = (r), .contiguity = ONES, .divisibility = ONES, .constancy = ONES, .run_step = 1}
_Static_assert(AXIS_MAX_RANK == 16, "UNKNOWN spells out AXIS_MAX_RANK entries");
static const axis_val unknown_vals[AXIS_MAX_RANK + 1] = {
    UNKNOWN(0),  UNKNOWN(1),  UNKNOWN(2),  UNKNOWN(3),  UNKNOWN(4),  UNKNOWN(5),
    UNKNOWN(6),  UNKNOWN(7),  UNKNOWN(8),  UNKNOWN(9),  UNKNOWN(10), UNKNOWN(11),
    UNKNOWN(12), UNKNOWN(13), UNKNOWN(14), UNKNOWN(15), UNKNOWN(16),
};

static const axis_val *unknown_for(const ir_type *t)
{
	int r = rank_of(t);
	return &unknown_vals[r > AXIS_MAX_RANK ? AXIS_MAX_RANK : r];
}

/* ---- the value table ----------------------------------------------------------------------- */

/* Open addressing on the value's address; sized once from a count of the function's values,
 * so it lives in the arena and never grows. */
typedef struct axis_slot {
	const ir_value *key;
	axis_val *val;
} axis_slot;

struct axis_info {
	arena *a;
	axis_slot *slots;
	size_t mask;      /* capacity - 1 (a power of two) */
	axis_val *pool;   /* one axis_val per value of the function */
	size_t npool, used;
};

static size_t slot_of(const axis_info *ai, const ir_value *v)
{
	uintptr_t h = (uintptr_t)v;
	h ^= h >> 17;
	h *= (uintptr_t)0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 7) & ai->mask;
	while (ai->slots[i].key && ai->slots[i].key != v)
		i = (i + 1) & ai->mask;
	return i;
}

const axis_val *axis_lookup(const axis_info *ai, const ir_value *v)
{
	if (!ai || !v)
		return unknown_for(v ? v->type : NULL);
	const axis_slot *s = &ai->slots[slot_of(ai, v)];
	return s->key ? s->val : unknown_for(v->type);
}

static void put(axis_info *ai, const ir_value *v, const axis_val *x)
{
	if (rank_of(v->type) > AXIS_MAX_RANK)
		return; /* cannot be described: lookups give the conservative answer */
	axis_slot *s = &ai->slots[slot_of(ai, v)];
	if (!s->key) {
		if (ai->used == ai->npool)
			return; /* not counted (cannot happen): stays unknown */
		s->key = v;
		s->val = &ai->pool[ai->used++];
	}
	*s->val = *x;
}

static size_t count_values(const ir_block *b)
{
	size_t n = (size_t)b->nargs;
	for (const ir_op *op = b->first; op; op = op->next) {
		n += (size_t)op->nresults;
		for (int r = 0; r < op->nregions; r++)
			n += count_values(op->regions[r]);
	}
	return n;
}

/* ---- normalisation ---------------------------------------------------------------------------- */

/* Makes x a well-formed description of a value of type t: runs no longer than the extent,
 * divisibilities powers of two within the cap, constants wrapped to the type and described
 * completely, only constancy for floats. */
static void finish(axis_val *x, const ir_type *t)
{
	const ir_type *e = ir_type_elem(t);
	bool is_int = ir_type_is_int(e), is_ptr = e && e->kind == IR_PTR;
	x->rank = rank_of(t);
	x->run_step = is_ptr && pointee_size(t) ? pointee_size(t) : 1;
	if (!is_int)
		x->is_const = false;
	if (x->is_const)
		x->value = wrap(e, x->value);
	for (int d = ndims(x->rank); d < AXIS_MAX_RANK; d++)
		x->contiguity[d] = x->divisibility[d] = x->constancy[d] = 1;
	for (int d = 0; d < ndims(x->rank); d++) {
		int64_t n = extent(t, d);
		if (x->is_const) {
			x->contiguity[d] = 1;
			x->constancy[d] = n;
			x->divisibility[d] = pow2_divisor(x->value);
		}
		if (!is_int && !is_ptr)
			x->contiguity[d] = x->divisibility[d] = 1;
		x->contiguity[d] = x->contiguity[d] < 1 ? 1 : x->contiguity[d] > n ? n : x->contiguity[d];
		x->constancy[d] = x->constancy[d] < 1 ? 1 : x->constancy[d] > n ? n : x->constancy[d];
		x->divisibility[d] = x->divisibility[d] < 1 ? 1 : pow2_divisor(x->divisibility[d]);
	}
}

/* The divisibility of x's elements at the indices along d that are multiples of c: the
 * run starts when c is a multiple of the run length, else points inside runs, which are
 * the run start plus a multiple of gcd(c, run length) steps. */
static int64_t div_at(const axis_val *x, int d, int64_t c)
{
	int64_t xc = x->contiguity[d];
	if (c % xc == 0)
		return x->divisibility[d];
	int64_t g = gcd64(c, xc);
	g = g > AXIS_MAX_DIVISIBILITY ? AXIS_MAX_DIVISIBILITY : g;
	return gcd64(x->divisibility[d], div_mul(g, x->run_step));
}

/* The divisibility of every single element: the best of what each dimension says. */
static int64_t elem_div(const axis_val *x)
{
	if (x->is_const)
		return pow2_divisor(x->value);
	int64_t best = 1;
	for (int d = 0; d < ndims(x->rank); d++)
		best = max64(best, div_at(x, d, 1));
	return best;
}

/* The conservative meet of two descriptions of values of one type, as at a control-flow
 * join: what holds for both. r may alias a or b. */
static void meet(axis_val *r, const axis_val *a, const axis_val *b)
{
	axis_val t = *a;
	for (int d = 0; d < ndims(a->rank); d++) {
		int64_t c = gcd64(a->contiguity[d], b->contiguity[d]);
		t.contiguity[d] = c;
		t.divisibility[d] = gcd64(div_at(a, d, c), div_at(b, d, c));
		t.constancy[d] = gcd64(a->constancy[d], b->constancy[d]);
	}
	t.is_const = a->is_const && b->is_const && a->value == b->value;
	*r = t;
}

static bool same(const axis_val *a, const axis_val *b)
{
	if (a->rank != b->rank || a->is_const != b->is_const ||
	    (a->is_const && a->value != b->value))
		return false;
	for (int d = 0; d < ndims(a->rank); d++)
		if (a->contiguity[d] != b->contiguity[d] || a->divisibility[d] != b->divisibility[d] ||
		    a->constancy[d] != b->constancy[d])
			return false;
	return true;
}

static bool is_const_eq(const axis_val *x, int64_t v)
{
	return x->is_const && x->value == v;
}

/* ---- transfer rules --------------------------------------------------------------------------- */

static const axis_val *get(const axis_info *ai, const ir_value *v)
{
	return axis_lookup(ai, v);
}

/* Any element-wise op: equal operands give equal results, so runs of constancy survive.
 * Scalar operands of a tile op (select's condition) are constant over the whole tile. */
static void rule_elementwise(axis_info *ai, const ir_op *op, axis_val *r, const ir_type *t)
{
	*r = *unknown_for(t);
	for (int d = 0; d < ndims(rank_of(t)); d++) {
		int64_t k = extent(t, d);
		for (int i = 0; i < op->noperands; i++) {
			const axis_val *x = get(ai, op->operands[i]);
			if (x->rank == rank_of(t))
				k = gcd64(k, x->constancy[d]);
		}
		r->constancy[d] = k;
	}
}

/* The same for a one-operand op whose facts are x's. */
static void rule_elementwise_of(const axis_val *x, axis_val *r, const ir_type *t)
{
	*r = *unknown_for(t);
	for (int d = 0; d < ndims(rank_of(t)); d++)
		r->constancy[d] = x->rank == rank_of(t) ? x->constancy[d] : extent(t, d);
}

/* Constant-fold an integer binary op on constant operands; false when it cannot. */
static bool fold(ir_opcode code, const ir_type *t, int64_t a, int64_t b, int64_t *out)
{
	bool sgn = ir_type_is_signed(t);
	int bits = ir_type_bits(t);
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	if (!sgn && bits < 64) {
		ua &= ((uint64_t)1 << bits) - 1;
		ub &= ((uint64_t)1 << bits) - 1;
	}
	switch (code) {
	case IR_OP_ADDI: *out = (int64_t)(ua + ub); break;
	case IR_OP_SUBI: *out = (int64_t)(ua - ub); break;
	case IR_OP_MULI: *out = (int64_t)(ua * ub); break;
	case IR_OP_ANDI: *out = (int64_t)(ua & ub); break;
	case IR_OP_ORI: *out = (int64_t)(ua | ub); break;
	case IR_OP_XORI: *out = (int64_t)(ua ^ ub); break;
	case IR_OP_DIVI:
	case IR_OP_REMI:
		if (ub == 0 || (sgn && b == -1 && a == INT64_MIN))
			return false;
		if (sgn)
			*out = code == IR_OP_DIVI ? a / b : a % b;
		else
			*out = (int64_t)(code == IR_OP_DIVI ? ua / ub : ua % ub);
		break;
	case IR_OP_SHLI:
		if (ub >= (uint64_t)bits)
			return false;
		*out = (int64_t)(ua << ub);
		break;
	case IR_OP_SHRI:
		if (ub >= (uint64_t)bits)
			return false;
		*out = sgn ? (a < 0 ? ~(~a >> ub) : a >> ub) : (int64_t)(ua >> ub);
		break;
	case IR_OP_MAXI: *out = sgn ? (a > b ? a : b) : (int64_t)(ua > ub ? ua : ub); break;
	case IR_OP_MINI: *out = sgn ? (a < b ? a : b) : (int64_t)(ua < ub ? ua : ub); break;
	default: return false;
	}
	return true;
}

/* The length of the aligned sub-runs of a contiguous x over which a y that is constant there
 * (per element: y's contiguity is 1) keeps x / y, x % y, x < y on one side of a multiple of
 * y: the sub-runs must start at multiples of y's divisibility and lie inside y's constant
 * runs. 1 when x is not contiguous. */
static int64_t aligned_run(const axis_val *x, const axis_val *y, int d)
{
	if (x->contiguity[d] <= 1 || y->contiguity[d] != 1)
		return 1;
	return gcd64(gcd64(x->contiguity[d], x->divisibility[d]),
		     gcd64(y->divisibility[d], y->constancy[d]));
}

/* addi, subi and addptr (esize: the pointee size, 1 for integers). A contiguous operand plus
 * one constant over its runs stays contiguous; subtracting a contiguous one does not. */
static void rule_add(const axis_val *l, const axis_val *x, axis_val *r, bool sub, int64_t esize)
{
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t c = gcd64(l->contiguity[d], x->constancy[d]);
		if (!sub)
			c = max64(c, gcd64(l->constancy[d], x->contiguity[d]));
		r->contiguity[d] = c;
		r->divisibility[d] = gcd64(div_at(l, d, c), div_mul(div_at(x, d, c), esize));
		r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
	}
}

/* x * 1 keeps x's runs; otherwise the product's divisibility is the product of the
 * operands' per-element divisibilities. */
static void rule_mul(const axis_val *l, const axis_val *x, axis_val *r)
{
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t c = 1;
		if (is_const_eq(x, 1))
			c = l->contiguity[d];
		if (is_const_eq(l, 1))
			c = max64(c, x->contiguity[d]);
		r->contiguity[d] = c;
		r->divisibility[d] = div_mul(div_at(l, d, c), div_at(x, d, c));
		r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
	}
}

/* x / y: constant over the aligned sub-runs of a contiguous x; an exact division by a power
 * of two keeps what is left of x's divisibility. */
static void rule_div(const axis_val *l, const axis_val *x, axis_val *r)
{
	for (int d = 0; d < ndims(l->rank); d++) {
		r->contiguity[d] = 1;
		int64_t ld = div_at(l, d, 1);
		r->divisibility[d] = 1;
		if (x->is_const && x->value > 0 && pow2_divisor(x->value) == x->value &&
		    ld >= x->value)
			r->divisibility[d] = ld == AXIS_MAX_DIVISIBILITY ? ld : ld / x->value;
		r->constancy[d] = max64(gcd64(l->constancy[d], x->constancy[d]), aligned_run(l, x, d));
	}
}

/* x % y: contiguous over the aligned sub-runs of a contiguous x; the remainder of a run
 * start keeps the divisibility both share. */
static void rule_rem(const axis_val *l, const axis_val *x, axis_val *r)
{
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t c = aligned_run(l, x, d);
		r->contiguity[d] = c;
		r->divisibility[d] = gcd64(div_at(l, d, c), div_at(x, d, c));
		r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
	}
}

/* x << c and x >> c for a constant c > 0: a multiplication or a floor division by 2^c (an
 * arithmetic shift floors too), so x >> c is constant over the aligned sub-runs of a
 * contiguous x, like x // 2^c. A variable amount keeps constancy, and for << the trailing
 * zeros of x. */
static void rule_shift(const axis_val *l, const axis_val *x, axis_val *r, bool left, int bits)
{
	bool known = x->is_const && x->value > 0 && x->value < bits && x->value < 30;
	int64_t p = known ? (int64_t)1 << x->value : 1;
	axis_val pv = *x; /* the divisor 2^c: constant, divisible by 2^c */
	for (int d = 0; d < ndims(x->rank); d++) {
		pv.contiguity[d] = 1;
		pv.divisibility[d] = p;
	}
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t ld = div_at(l, d, 1);
		r->contiguity[d] = 1;
		r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
		if (left) {
			r->divisibility[d] = div_mul(ld, p);
		} else if (known) {
			r->divisibility[d] = ld == AXIS_MAX_DIVISIBILITY ? ld : max64(1, ld / p);
			r->constancy[d] = max64(r->constancy[d], aligned_run(l, &pv, d));
		} else {
			r->divisibility[d] = 1;
		}
	}
}

/* and/or/xor: bits, not arithmetic. x & (2^k - 1) is x mod 2^k; otherwise each element keeps
 * the trailing zeros of either operand (and) or of both (or, xor). */
static void rule_bits(ir_opcode code, const axis_val *l, const axis_val *x, axis_val *r)
{
	if (code == IR_OP_ANDI) {
		const axis_val *m = x->is_const ? x : l, *v = x->is_const ? l : x;
		if (m->is_const && m->value > 0 && m->value < AXIS_MAX_DIVISIBILITY &&
		    pow2_divisor(m->value + 1) == m->value + 1) {
			axis_val mv = *m;
			mv.value = m->value + 1;
			for (int d = 0; d < ndims(l->rank); d++)
				mv.divisibility[d] = m->value + 1;
			rule_rem(v, &mv, r);
			return;
		}
	}
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t a = div_at(l, d, 1), b = div_at(x, d, 1);
		r->contiguity[d] = 1;
		r->divisibility[d] = code == IR_OP_ANDI ? max64(a, b) : gcd64(a, b);
		r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
	}
}

/* max/min of two tiles that increase by 1 over common runs follow one of them there. */
static void rule_minmax(const axis_val *l, const axis_val *x, axis_val *r)
{
	meet(r, l, x);
}

/* cmpi: x < y and x >= y are constant over the aligned sub-runs of a contiguous x against a
 * y constant there (y > x and y <= x likewise); other predicates only keep constancy. */
static void rule_cmp(const ir_op *op, const axis_val *l, const axis_val *x, axis_val *r)
{
	const ir_attr *pa = ir_op_attr(op, "pred");
	const char *p = pa && pa->kind == IR_ATTR_STR ? pa->s : "";
	bool ints = ir_type_is_int(ir_type_elem(op->operands[0]->type)); /* not pointers */
	bool lt_ge = ints && (!strcmp(p, "lt") || !strcmp(p, "ge"));
	bool gt_le = ints && (!strcmp(p, "gt") || !strcmp(p, "le"));
	for (int d = 0; d < ndims(l->rank); d++) {
		int64_t k = gcd64(l->constancy[d], x->constancy[d]);
		if (lt_ge)
			k = max64(k, aligned_run(l, x, d));
		if (gt_le)
			k = max64(k, aligned_run(x, l, d));
		r->contiguity[d] = 1;
		r->divisibility[d] = 1;
		r->constancy[d] = k;
	}
	if (l->is_const && x->is_const) {
		const ir_type *t = ir_type_elem(op->operands[0]->type);
		bool sgn = ir_type_is_signed(t);
		int64_t a = l->value, b = x->value;
		uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
		int c = sgn ? (a > b) - (a < b) : (ua > ub) - (ua < ub);
		bool v = !strcmp(p, "eq") ? c == 0 : !strcmp(p, "ne") ? c != 0 :
			 !strcmp(p, "lt") ? c < 0 : !strcmp(p, "le") ? c <= 0 :
			 !strcmp(p, "gt") ? c > 0 : !strcmp(p, "ge") ? c >= 0 : false;
		r->is_const = ir_type_is_int(t) && *p;
		r->value = v;
	}
}

/* select: where the condition is constant the result follows one arm, so runs are cut to
 * the condition's constant runs. */
static void rule_select(const axis_val *cnd, const axis_val *a, const axis_val *b, axis_val *r)
{
	if (cnd->is_const) {
		*r = cnd->value ? *a : *b;
		return;
	}
	if (cnd->rank == 0 || a->rank == 0) {
		meet(r, a, b);
		return;
	}
	for (int d = 0; d < ndims(a->rank); d++) {
		int64_t ck = cnd->constancy[d];
		int64_t c = gcd64(gcd64(a->contiguity[d], b->contiguity[d]), ck);
		r->contiguity[d] = c;
		r->divisibility[d] = gcd64(div_at(a, d, c), div_at(b, d, c));
		r->constancy[d] = gcd64(gcd64(a->constancy[d], b->constancy[d]), ck);
	}
	r->is_const = a->is_const && b->is_const && a->value == b->value;
	r->value = a->value;
}

/* Integer binary ops: the rule for the opcode, then constant folding and identities. */
static void rule_int_binary(const ir_op *op, const axis_val *l, const axis_val *x, axis_val *r,
			    const ir_type *t)
{
	const ir_type *e = ir_type_elem(t);
	*r = *unknown_for(t);
	ir_opcode code = op->code;
	/* identities: x + 0, x - 0, x * 1, x / 1, x | 0, x ^ 0, x << 0, x >> 0 are x */
	bool right_id = (is_const_eq(x, 0) && (code == IR_OP_ADDI || code == IR_OP_SUBI ||
					       code == IR_OP_ORI || code == IR_OP_XORI ||
					       code == IR_OP_SHLI || code == IR_OP_SHRI)) ||
			(is_const_eq(x, 1) && (code == IR_OP_MULI || code == IR_OP_DIVI));
	bool left_id = is_const_eq(l, 0) && (code == IR_OP_ADDI || code == IR_OP_ORI ||
					     code == IR_OP_XORI);
	left_id |= is_const_eq(l, 1) && code == IR_OP_MULI;
	if (right_id || left_id) {
		*r = right_id ? *l : *x;
		return;
	}
	switch (code) {
	case IR_OP_ADDI: rule_add(l, x, r, false, 1); break;
	case IR_OP_SUBI: rule_add(l, x, r, true, 1); break;
	case IR_OP_MULI: rule_mul(l, x, r); break;
	case IR_OP_DIVI: rule_div(l, x, r); break;
	case IR_OP_REMI: rule_rem(l, x, r); break;
	case IR_OP_SHLI: rule_shift(l, x, r, true, ir_type_bits(e)); break;
	case IR_OP_SHRI: rule_shift(l, x, r, false, ir_type_bits(e)); break;
	case IR_OP_ANDI:
	case IR_OP_ORI:
	case IR_OP_XORI: rule_bits(code, l, x, r); break;
	case IR_OP_MAXI:
	case IR_OP_MINI: rule_minmax(l, x, r); break;
	default:
		for (int d = 0; d < ndims(l->rank); d++)
			r->constancy[d] = gcd64(l->constancy[d], x->constancy[d]);
		break;
	}
	int64_t v;
	r->is_const = false;
	if (l->is_const && x->is_const && fold(code, e, l->value, x->value, &v)) {
		r->is_const = true;
		r->value = v;
	} else if ((code == IR_OP_MULI || code == IR_OP_ANDI) &&
		   (is_const_eq(l, 0) || is_const_eq(x, 0))) {
		r->is_const = true; /* x * 0, x & 0 */
		r->value = 0;
	} else if (code == IR_OP_REMI && is_const_eq(x, 1)) {
		r->is_const = true;
		r->value = 0;
	}
}

/* Integer and pointer casts. exti keeps everything (Triton), except that a signed source
 * read as unsigned breaks runs at -1 -> 0, which the aligned sub-runs of gcd(contiguity,
 * divisibility) never cross inside. trunci likewise keeps the sub-runs that cannot wrap at
 * the narrower width. An address is its integer, so ptrtoint, inttoptr and pointer bitcasts
 * keep divisibility and constancy, and contiguity only where one element step is the same
 * number of bytes on both sides. Bitcasts involving floats keep constancy only. */
static void rule_cast(const ir_op *op, const axis_val *x, axis_val *r, const ir_type *t)
{
	const ir_type *from = ir_type_elem(op->operands[0]->type), *to = ir_type_elem(t);
	int64_t span = 0; /* runs must not cross a multiple of this; 0: no limit */
	*r = *x;
	switch (op->code) {
	case IR_OP_EXTI:
		if (ir_type_is_signed(from) && !ir_type_is_signed(to))
			span = AXIS_MAX_DIVISIBILITY;
		break;
	case IR_OP_TRUNCI: {
		int bits = ir_type_bits(to) - (ir_type_is_signed(to) ? 1 : 0);
		span = bits >= 30 ? AXIS_MAX_DIVISIBILITY : (int64_t)1 << bits;
		break;
	}
	case IR_OP_BITCAST:
		if (ir_type_is_int(from) && ir_type_is_int(to))
			break;
		if (from->kind != IR_PTR || to->kind != IR_PTR) {
			rule_elementwise_of(x, r, t);
			return;
		}
		r->is_const = false;
		if (pointee_size(op->operands[0]->type) != pointee_size(t))
			span = 1;
		break;
	case IR_OP_PTRTOINT:
	case IR_OP_INTTOPTR:
		r->is_const = false;
		if (pointee_size(op->code == IR_OP_INTTOPTR ? t : op->operands[0]->type) != 1)
			span = 1;
		break;
	default: break;
	}
	if (span)
		for (int d = 0; d < ndims(x->rank); d++) {
			int64_t c = gcd64(x->contiguity[d], gcd64(x->divisibility[d], span));
			r->contiguity[d] = c;
			r->divisibility[d] = div_at(x, d, c);
		}
}

/* splat and broadcast: dimensions that were 1 become constant along the whole extent. */
static void rule_broadcast(const axis_val *x, axis_val *r, const ir_type *t, const ir_type *xt)
{
	*r = *unknown_for(t);
	for (int d = 0; d < ndims(rank_of(t)); d++) {
		bool grown = x->rank == 0 || extent(xt, d) == 1;
		r->contiguity[d] = grown ? 1 : x->contiguity[d];
		r->divisibility[d] = x->rank == 0 ? x->divisibility[0] :
				     grown ? div_at(x, d, 1) : x->divisibility[d];
		r->constancy[d] = grown ? extent(t, d) : x->constancy[d];
	}
	r->is_const = x->is_const;
	r->value = x->value;
}

static void rule_expand_dims(const ir_op *op, const axis_val *x, axis_val *r, const ir_type *t)
{
	int axis = (int)ir_op_int(op, "axis", 0), rank = rank_of(t);
	*r = *unknown_for(t);
	if (axis < 0 || axis >= rank || x->rank != rank - 1)
		return;
	int64_t ed = elem_div(x);
	for (int d = 0, s = 0; d < rank; d++) {
		if (d == axis) {
			r->divisibility[d] = ed;
			continue;
		}
		r->contiguity[d] = x->contiguity[s];
		r->divisibility[d] = x->divisibility[s];
		r->constancy[d] = x->constancy[s];
		s++;
	}
	r->is_const = x->is_const;
	r->value = x->value;
}

static void rule_trans(const ir_op *op, const axis_val *x, axis_val *r, const ir_type *t)
{
	const ir_attr *o = ir_op_attr(op, "order");
	*r = *unknown_for(t);
	if (!o || o->kind != IR_ATTR_INTS || o->ints.n != x->rank || x->rank != rank_of(t))
		return;
	for (int d = 0; d < x->rank; d++) {
		int64_t s = o->ints.v[d];
		if (s < 0 || s >= x->rank)
			return;
		r->contiguity[d] = x->contiguity[s];
		r->divisibility[d] = x->divisibility[s];
		r->constancy[d] = x->constancy[s];
	}
	r->is_const = x->is_const;
	r->value = x->value;
}

/* reshape keeps the last dimension's runs when one of the old and new last extents divides
 * the other (row-major order: runs along the last dimension stay runs of the flat order);
 * the other dimensions only keep per-element divisibility. */
static void rule_reshape(const axis_val *x, axis_val *r, const ir_type *t, const ir_type *xt)
{
	int rank = rank_of(t);
	*r = *unknown_for(t);
	int64_t ed = elem_div(x);
	bool all_const = true;
	for (int d = 0; d < x->rank; d++)
		all_const &= x->constancy[d] == extent(xt, d);
	for (int d = 0; d < rank; d++) {
		r->divisibility[d] = ed;
		r->constancy[d] = all_const ? extent(t, d) : 1;
	}
	int64_t lin = x->rank ? extent(xt, x->rank - 1) : 1, lout = rank ? extent(t, rank - 1) : 1;
	if (rank && x->rank && (lin % lout == 0 || lout % lin == 0)) {
		int last = rank - 1, xl = x->rank - 1;
		int64_t g = lin < lout ? lin : lout;
		int64_t c = gcd64(x->contiguity[xl], g);
		r->contiguity[last] = c;
		r->divisibility[last] = max64(div_at(x, xl, c), c == 1 ? ed : 1);
		if (!all_const)
			r->constancy[last] = gcd64(x->constancy[xl], g);
	}
	r->is_const = x->is_const;
	r->value = x->value;
}

/* join(a, b) stacks a and b along a new last dimension of 2; split takes them apart. */
static void rule_join(const axis_val *a, const axis_val *b, axis_val *r, const ir_type *t)
{
	int rank = rank_of(t);
	axis_val m;
	meet(&m, a, b);
	*r = *unknown_for(t);
	for (int d = 0; d < rank - 1; d++) {
		r->contiguity[d] = m.contiguity[d];
		r->divisibility[d] = m.divisibility[d];
		r->constancy[d] = m.constancy[d];
	}
	r->divisibility[rank - 1] = gcd64(elem_div(a), elem_div(b));
	r->is_const = m.is_const;
	r->value = m.value;
}

static void rule_split(const axis_val *x, axis_val *r, const ir_type *t)
{
	*r = *unknown_for(t);
	int rank = rank_of(t);
	if (rank == 0) {
		r->divisibility[0] = elem_div(x);
	} else {
		for (int d = 0; d < rank; d++) {
			r->contiguity[d] = x->contiguity[d];
			r->divisibility[d] = x->divisibility[d];
			r->constancy[d] = x->constancy[d];
		}
	}
	r->is_const = x->is_const;
	r->value = x->value;
}

/* multiple_of / max_contiguous: the programmer's promise, added to what is proven. */
static void rule_hint(const ir_op *op, const axis_val *x, axis_val *r)
{
	*r = *x;
	bool div = op->code == IR_OP_MULTIPLE_OF;
	const ir_attr *h = ir_op_attr(op, div ? "divisibility" : "contiguity");
	if (!h || h->kind != IR_ATTR_INTS)
		return;
	for (int d = 0; d < ndims(x->rank) && d < h->ints.n; d++) {
		if (div)
			r->divisibility[d] = max64(x->divisibility[d], pow2_divisor(h->ints.v[d]));
		else
			r->contiguity[d] = max64(x->contiguity[d], h->ints.v[d]);
	}
}

static void rule_constant(const ir_op *op, axis_val *r, const ir_type *t)
{
	*r = *unknown_for(t);
	for (int d = 0; d < ndims(rank_of(t)); d++)
		r->constancy[d] = extent(t, d);
	const ir_attr *a = ir_op_attr(op, "value");
	if (a && (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL) &&
	    ir_type_is_int(ir_type_elem(t))) {
		r->is_const = true;
		r->value = a->i;
	}
}

static void rule_make_range(const ir_op *op, axis_val *r, const ir_type *t)
{
	int64_t start = ir_op_int(op, "start", 0), end = ir_op_int(op, "end", 1);
	*r = *unknown_for(t);
	r->contiguity[0] = end - start;
	r->divisibility[0] = pow2_divisor(start);
}

/* ---- the walk ----------------------------------------------------------------------------------- */

static void walk_block(axis_info *ai, const ir_block *b);

/* Every region argument unknown, then the region's ops: for reduce/scan combine regions,
 * whose arguments are elements in no particular order. */
static void walk_opaque_region(axis_info *ai, const ir_block *b)
{
	for (int i = 0; i < b->nargs; i++)
		put(ai, b->args[i], unknown_for(b->args[i]->type));
	walk_block(ai, b);
}

static const ir_op *terminator(const ir_block *b)
{
	const ir_op *t = b->last;
	return t && (t->code == IR_OP_YIELD || t->code == IR_OP_CONDITION) ? t : NULL;
}

enum { MAX_LOOP_ITERATIONS = 200 };

/* for lb, ub, step, inits: the induction variable is lb plus multiples of step; the
 * iteration arguments start as the inits' facts and are met with the yielded values' facts
 * until nothing changes. The results are the iteration arguments' facts. */
static void walk_for(axis_info *ai, const ir_op *op)
{
	const ir_block *body = op->regions[0];
	int n = op->nresults;
	if (op->noperands < 3 || body->nargs != n + 1 || op->noperands != n + 3) {
		walk_opaque_region(ai, body);
		for (int i = 0; i < n; i++)
			put(ai, &op->results[i], unknown_for(op->results[i].type));
		return;
	}
	axis_val iv = *unknown_for(body->args[0]->type);
	iv.divisibility[0] = gcd64(get(ai, op->operands[0])->divisibility[0],
				   get(ai, op->operands[2])->divisibility[0]);
	finish(&iv, body->args[0]->type);
	put(ai, body->args[0], &iv);
	for (int i = 0; i < n; i++)
		put(ai, body->args[i + 1], get(ai, op->operands[i + 3]));
	for (int it = 0;; it++) {
		walk_block(ai, body);
		const ir_op *y = terminator(body);
		bool changed = false;
		for (int i = 0; i < n; i++) {
			const axis_val *cur = get(ai, body->args[i + 1]);
			axis_val next;
			if (y && y->noperands == n)
				meet(&next, cur, get(ai, y->operands[i]));
			else
				next = *unknown_for(body->args[i + 1]->type);
			finish(&next, body->args[i + 1]->type);
			if (it >= MAX_LOOP_ITERATIONS)
				next = *unknown_for(body->args[i + 1]->type);
			if (!same(&next, cur)) {
				changed = true;
				put(ai, body->args[i + 1], &next);
			}
		}
		if (!changed)
			break;
	}
	for (int i = 0; i < n; i++)
		put(ai, &op->results[i], get(ai, body->args[i + 1]));
}

/* while inits: the "before" region's arguments start as the inits and are met with what the
 * "after" region yields; the condition's values feed the "after" region and the results. */
static void walk_while(axis_info *ai, const ir_op *op)
{
	const ir_block *before = op->regions[0], *after = op->regions[1];
	int n = op->noperands, m = op->nresults;
	if (before->nargs != n || after->nargs != m) {
		walk_opaque_region(ai, before);
		walk_opaque_region(ai, after);
		for (int i = 0; i < m; i++)
			put(ai, &op->results[i], unknown_for(op->results[i].type));
		return;
	}
	for (int i = 0; i < n; i++)
		put(ai, before->args[i], get(ai, op->operands[i]));
	for (int it = 0;; it++) {
		walk_block(ai, before);
		const ir_op *c = terminator(before);
		for (int i = 0; i < m; i++)
			put(ai, after->args[i],
			    c && c->noperands == m + 1 ? get(ai, c->operands[i + 1])
						       : unknown_for(after->args[i]->type));
		walk_block(ai, after);
		const ir_op *y = terminator(after);
		bool changed = false;
		for (int i = 0; i < n; i++) {
			const axis_val *cur = get(ai, before->args[i]);
			axis_val next;
			if (y && y->noperands == n)
				meet(&next, cur, get(ai, y->operands[i]));
			else
				next = *unknown_for(before->args[i]->type);
			finish(&next, before->args[i]->type);
			if (it >= MAX_LOOP_ITERATIONS)
				next = *unknown_for(before->args[i]->type);
			if (!same(&next, cur)) {
				changed = true;
				put(ai, before->args[i], &next);
			}
		}
		if (!changed)
			break;
	}
	for (int i = 0; i < m; i++)
		put(ai, &op->results[i], get(ai, after->args[i]));
}

/* if: each result is what both arms yield. */
static void walk_if(axis_info *ai, const ir_op *op)
{
	walk_block(ai, op->regions[0]);
	walk_block(ai, op->regions[1]);
	const ir_op *a = terminator(op->regions[0]), *b = terminator(op->regions[1]);
	for (int i = 0; i < op->nresults; i++) {
		axis_val r = *unknown_for(op->results[i].type);
		if (a && b && a->noperands == op->nresults && b->noperands == op->nresults)
			meet(&r, get(ai, a->operands[i]), get(ai, b->operands[i]));
		finish(&r, op->results[i].type);
		put(ai, &op->results[i], &r);
	}
}

/* An op with regions has no transfer rule of its own: its results come from its regions. */
static bool walk_region_op(axis_info *ai, const ir_op *op)
{
	switch (op->code) {
	case IR_OP_FOR: walk_for(ai, op); return true;
	case IR_OP_WHILE: walk_while(ai, op); return true;
	case IR_OP_IF: walk_if(ai, op); return true;
	default: break;
	}
	if (!op->nregions)
		return false;
	for (int r = 0; r < op->nregions; r++)
		walk_opaque_region(ai, op->regions[r]);
	for (int i = 0; i < op->nresults; i++)
		put(ai, &op->results[i], unknown_for(op->results[i].type));
	return true;
}

static bool ranks_fit(const ir_op *op)
{
	for (int i = 0; i < op->noperands; i++)
		if (!op->operands[i] || rank_of(op->operands[i]->type) > AXIS_MAX_RANK)
			return false;
	for (int i = 0; i < op->nresults; i++)
		if (rank_of(op->results[i].type) > AXIS_MAX_RANK)
			return false;
	return true;
}

/* The facts about the single result of op (or its first, for split). */
static void transfer(axis_info *ai, const ir_op *op, axis_val *r, const ir_type *t)
{
	const axis_val *x = op->noperands > 0 ? get(ai, op->operands[0]) : NULL;
	const axis_val *y = op->noperands > 1 ? get(ai, op->operands[1]) : NULL;
	*r = *unknown_for(t);
	switch (op->code) {
	case IR_OP_CONSTANT: rule_constant(op, r, t); break;
	case IR_OP_MAKE_RANGE: rule_make_range(op, r, t); break;
	case IR_OP_PROGRAM_ID:
	case IR_OP_NUM_PROGRAMS: break;
	case IR_OP_SPLAT:
	case IR_OP_BROADCAST: rule_broadcast(x, r, t, op->operands[0]->type); break;
	case IR_OP_EXPAND_DIMS: rule_expand_dims(op, x, r, t); break;
	case IR_OP_RESHAPE: rule_reshape(x, r, t, op->operands[0]->type); break;
	case IR_OP_TRANS: rule_trans(op, x, r, t); break;
	case IR_OP_JOIN: rule_join(x, y, r, t); break;
	case IR_OP_SPLIT: rule_split(x, r, t); break;
	case IR_OP_ADDI:
	case IR_OP_SUBI:
	case IR_OP_MULI:
	case IR_OP_DIVI:
	case IR_OP_REMI:
	case IR_OP_ANDI:
	case IR_OP_ORI:
	case IR_OP_XORI:
	case IR_OP_SHLI:
	case IR_OP_SHRI:
	case IR_OP_MAXI:
	case IR_OP_MINI: rule_int_binary(op, x, y, r, t); break;
	case IR_OP_CMPI: rule_cmp(op, x, y, r); break;
	case IR_OP_SELECT: rule_select(x, y, get(ai, op->operands[2]), r); break;
	case IR_OP_EXTI:
	case IR_OP_TRUNCI:
	case IR_OP_BITCAST:
	case IR_OP_PTRTOINT:
	case IR_OP_INTTOPTR: rule_cast(op, x, r, t); break;
	case IR_OP_ADDPTR:
		if (x->rank == y->rank) {
			int64_t es = pointee_size(t);
			rule_add(x, y, r, false, es ? es : 1);
			if (!es) /* block pointers: nothing is known about an element step */
				for (int d = 0; d < ndims(x->rank); d++)
					r->contiguity[d] = 1;
		}
		break;
	case IR_OP_MULTIPLE_OF:
	case IR_OP_MAX_CONTIGUOUS: rule_hint(op, x, r); break;
	case IR_OP_CONVERT_LAYOUT: *r = *x; break; /* the same elements, held differently */
	default:
		/* loads, atomics, dot, block pointers: nothing known; other element-wise ops
		 * (float arithmetic, casts to float, mulhi, absi, cmpf) keep constancy */
		if (ir_ops[op->code].traits & T_ELEMENTWISE)
			rule_elementwise(ai, op, r, t);
		break;
	}
	finish(r, t);
}

static void walk_block(axis_info *ai, const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		if (walk_region_op(ai, op) || !op->nresults)
			continue;
		for (int i = 0; i < op->nresults; i++) {
			const ir_type *t = op->results[i].type;
			axis_val r = *unknown_for(t);
			if (ranks_fit(op) && (i == 0 || op->code == IR_OP_SPLIT))
				transfer(ai, op, &r, t);
			put(ai, &op->results[i], &r);
		}
	}
}

/* ---- the public entry points ---------------------------------------------------------------------- */

axis_info *axis_analyze(arena *a, const ir_func *f)
{
	axis_info *ai = ARENA_NEW(a, axis_info);
	if (!ai)
		return NULL;
	size_t n = count_values(f->body), cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	ai->a = a;
	ai->slots = ARENA_NEWN(a, axis_slot, cap);
	ai->pool = ARENA_NEWN(a, axis_val, n ? n : 1);
	if (!ai->slots || !ai->pool)
		return NULL;
	ai->mask = cap - 1;
	ai->npool = n;
	const ir_block *body = f->body;
	for (int i = 0; i < body->nargs; i++) {
		const ir_value *p = body->args[i];
		axis_val v = *unknown_for(p->type);
		if (f->params) {
			for (int d = 0; d < ndims(v.rank); d++)
				v.divisibility[d] = f->params[i].divisibility;
			if (f->params[i].equal_to_1) {
				v.is_const = true;
				v.value = 1;
			}
		}
		finish(&v, p->type);
		put(ai, p, &v);
	}
	walk_block(ai, body);
	return ai;
}

int axis_vector_width_dim(const axis_info *ai, const ir_value *ptr, const ir_value *mask,
			  int dim, int max_bytes)
{
	const ir_type *t = ptr ? ptr->type : NULL;
	int64_t es = pointee_size(t);
	if (!ai || !t || t->kind != IR_TILE || !es || max_bytes < es || dim < 0 || dim >= t->rank ||
	    dim >= AXIS_MAX_RANK)
		return 1;
	const axis_val *p = axis_lookup(ai, ptr);
	int64_t w = 1;
	while (w * 2 * es <= max_bytes)
		w *= 2;
	/* A vector at an index that is a multiple of w inside a run is w * es aligned only if
	 * the run start is; it must not cross a run's end, nor a change of the predicate. */
	int64_t align = p->divisibility[dim] / es;
	while (w > 1 && (w > align || p->contiguity[dim] % w))
		w /= 2;
	if (mask && mask->type && mask->type->kind == IR_TILE) {
		const axis_val *m = axis_lookup(ai, mask);
		while (w > 1 && m->constancy[dim] % w)
			w /= 2;
	}
	return (int)w;
}

int axis_vector_width(const axis_info *ai, const ir_value *ptr, const ir_value *mask,
		      int max_bytes)
{
	int rank = ptr ? rank_of(ptr->type) : 0;
	return axis_vector_width_dim(ai, ptr, mask, rank - 1, max_bytes);
}

static void put_list(strbuf *out, const char *name, const int64_t *v, int n)
{
	strbuf_printf(out, " %s=[", name);
	for (int i = 0; i < n; i++)
		strbuf_printf(out, "%s%lld", i ? ", " : "", (long long)v[i]);
	strbuf_putc(out, ']');
}

/* The names the IR printer gives op's results: what ir_print_op prints before " = ". */
static int result_names(const ir_op *op, char names[][64], int max)
{
	strbuf s = {0};
	ir_print_op(&s, op, 0);
	const char *text = s.data ? s.data : "", *eq = strstr(text, " = ");
	int n = 0;
	for (const char *p = text; eq && p < eq && n < max;) {
		while (p < eq && (*p == ' ' || *p == ','))
			p++;
		const char *e = p;
		while (e < eq && *e != ',' && *e != ' ')
			e++;
		if (e > p) {
			size_t len = (size_t)(e - p) < 63 ? (size_t)(e - p) : 63;
			memcpy(names[n], p, len);
			names[n++][len] = 0;
		}
		p = e;
	}
	strbuf_free(&s);
	return n;
}

static void print_block(strbuf *out, const axis_info *ai, const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		if (op->nresults) {
			char names[16][64];
			int nn = result_names(op, names, 16);
			for (int i = 0; i < op->nresults; i++) {
				const axis_val *v = axis_lookup(ai, &op->results[i]);
				int n = ndims(v->rank);
				strbuf_printf(out, "// %s:", i < nn ? names[i] : "?");
				put_list(out, "contiguity", v->contiguity, n);
				put_list(out, "divisibility", v->divisibility, n);
				put_list(out, "constancy", v->constancy, n);
				if (v->is_const)
					strbuf_printf(out, " value=%lld", (long long)v->value);
				strbuf_putc(out, '\n');
			}
		}
		for (int r = 0; r < op->nregions; r++)
			print_block(out, ai, op->regions[r]);
	}
}

void axis_print(strbuf *out, const axis_info *ai, const ir_func *f)
{
	print_block(out, ai, f->body);
}
