/* sema_builtins.c: the tl.* surface (and the Python and math builtins a kernel may call).
 *
 * One table, sema_builtins[], names every builtin with its namespaces, its parameters and
 * its handler. sema_call_builtin binds a call's arguments to the parameters the way Python
 * does (positional, then keywords; a method's receiver first; a parameter spelled "*name"
 * gathers the remaining positional arguments into a tuple, and those after it are
 * keyword-only) and calls the handler with one slot per parameter (SV_UNDEF when not given)
 * and the slots' locations for diagnostics.
 *
 * The handlers follow Triton 3.x (python/triton/language/{core,semantic,standard,math}.py):
 * the same promotions, defaults and checks, with Triton's messages where it has good ones.
 * Each emits tile IR through the builder in s->b; docs/ir.md and lib/ir/verify.c give the
 * operand conventions.
 *
 * This file holds the table, the binder, the lookups and the handlers for creation, memory,
 * atomics, block pointers, dot, reductions and scans, shape manipulation, casts, hints and
 * debugging. The element-wise math handlers and the Python, triton and math builtins live in
 * sema_builtins_math.c; the helpers both files use are in sema_int.h. */
#include <ctype.h>
#include <string.h>

#include "frontend/sema_int.h"

#define MAXR 16 /* dimensions of a tile */
#define MAXN 8  /* operands of a reduce or scan */

/* ---- small helpers ------------------------------------------------------------------------ */

static const ir_type *sty(sema *s, ir_type_kind k) { return ir_type_scalar(s->ctx, k); }
static int vrank(const ir_value *v) { return v->type->kind == IR_TILE ? v->type->rank : 0; }
static bool is_block_ptr(const ir_type *t) { return t->kind == IR_PTR && t->elem->kind == IR_TILE; }

/* elem for rank 0, else a tile of it. */
static const ir_type *shaped(sema *s, const ir_type *elem, int rank, const int64_t *shape)
{
	return rank ? ir_type_tile(s->ctx, elem, rank, shape) : elem;
}

static const char *tname(sema *s, const ir_type *t) { return sema_type_name(s, t); }

static const char *ints_str(sema *s, int n, const int64_t *v)
{
	strbuf b = {0};
	strbuf_putc(&b, '[');
	for (int i = 0; i < n; i++)
		strbuf_printf(&b, "%s%lld", i ? ", " : "", (long long)v[i]);
	strbuf_putc(&b, ']');
	const char *r = arena_strdup(s->a, b.data ? b.data : "[]");
	strbuf_free(&b);
	return r;
}

static const char *shape_of(sema *s, const ir_value *v)
{
	return v->type->kind == IR_TILE ? sema_shape_str(s, v->type) : "[]";
}

/* v as a value of element type e: numbers that fit become constants of e directly (what
 * Triton's to_tensor followed by a cast computes), everything else is cast. */
static ir_value *tensor_as(sema *s, const sval *v, const ir_type *e, srcloc loc)
{
	if (sv_is_number(v) && (ir_type_is_float(e) || (ir_type_is_int(e) && v->kind != SV_FLOAT)))
		return sema_to_ir(s, v, e, loc);
	return sema_cast(s, sema_to_tensor(s, v, loc), e, false, loc);
}

ir_value *sema_need_ir(sema *s, const sval *v, srcloc loc, const char *fn)
{
	if (v->kind != SV_IR)
		sema_fail(s, loc, "%s expects a tensor, got %s", fn, sv_describe(s, v));
	return v->ir;
}

static ir_value *need_tile(sema *s, const sval *v, srcloc loc, const char *fn)
{
	if (v->kind != SV_IR || v->ir->type->kind != IR_TILE)
		sema_fail(s, loc, "%s expects a tile, got %s", fn, sv_describe(s, v));
	return v->ir;
}

int64_t sema_cint(sema *s, const sval *v, srcloc loc, const char *what)
{
	if (v->kind == SV_INT)
		return v->i;
	if (v->kind == SV_BOOL)
		return v->b;
	return sema_expect_int(s, v, loc, arena_printf(s->a, "'%s'", what));
}

bool sema_cbool(sema *s, const sval *v, srcloc loc, const char *what, bool dflt)
{
	if (sv_absent(v))
		return dflt;
	if (v->kind == SV_BOOL)
		return v->b;
	if (v->kind == SV_INT)
		return v->i != 0;
	sema_fail(s, loc, "'%s' must be a constexpr bool, got %s", what, sv_describe(s, v));
}

/* A string argument; "" when absent. */
static const char *cstr(sema *s, const sval *v, srcloc loc, const char *what)
{
	if (sv_absent(v))
		return "";
	if (v->kind != SV_STR)
		sema_fail(s, loc, "'%s' must be a string, got %s", what, sv_describe(s, v));
	return v->s;
}

static const ir_type *cdtype(sema *s, const sval *v, srcloc loc, const char *what)
{
	if (v->kind != SV_DTYPE)
		sema_fail(s, loc, "'%s' must be a dtype such as tl.float32, got %s", what,
			  sv_describe(s, v));
	if (v->dtype->kind == IR_TILE) /* x.type of a tile: Triton's block_type */
		sema_fail(s, loc, "'%s' must be a dtype such as tl.float32, got the block type %s", what,
			  tname(s, v->dtype));
	return v->dtype;
}

/* An int or a tuple/list of ints (shapes, axes, orders); returns how many. */
static int int_list(sema *s, const sval *v, srcloc loc, const char *what, int64_t *out)
{
	int64_t k;
	if (v->kind == SV_INT || v->kind == SV_BOOL || (v->kind == SV_IR && sema_ir_const_int(v->ir, &k))) {
		out[0] = sema_cint(s, v, loc, what);
		return 1;
	}
	if (v->kind != SV_TUPLE)
		sema_fail(s, loc, "'%s' must be an integer or a tuple of constexpr integers, got %s",
			  what, sv_describe(s, v));
	if (v->tup.n > MAXR)
		sema_fail(s, loc, "'%s' has %d elements; at most %d are supported", what, v->tup.n, MAXR);
	for (int i = 0; i < v->tup.n; i++) {
		const sval *x = &v->tup.items[i];
		if (x->kind != SV_INT && x->kind != SV_BOOL && !(x->kind == SV_IR && sema_ir_const_int(x->ir, &k)))
			sema_fail(s, loc, "'%s' element %d must be a constexpr integer, got %s", what, i,
				  sv_describe(s, x));
		out[i] = sema_cint(s, x, loc, what);
	}
	return v->tup.n;
}

/* A tile shape: checked against the block shape rule. */
static int shape_arg(sema *s, const sval *v, srcloc loc, int64_t *out)
{
	int n = int_list(s, v, loc, "shape", out);
	sema_check_shape(s, n, out, loc);
	return n;
}

/* f(x, *shape) accepts f(x, (a, b)) and f(x, a, b): a lone tuple is the list itself. */
static sval unwrap1(const sval *v)
{
	if (v->kind == SV_TUPLE && v->tup.n == 1 && v->tup.items[0].kind == SV_TUPLE)
		return v->tup.items[0];
	return *v;
}

/* Triton's _wrap_axis. */
static int wrap_axis(sema *s, int64_t axis, int ndim, srcloc loc)
{
	if (axis < -ndim || axis >= ndim)
		sema_fail(s, loc, "invalid axis %lld. Expected %d <= axis < %d", (long long)axis, -ndim,
			  ndim);
	return (int)(axis < 0 ? axis + ndim : axis);
}

/* ---- IR building blocks ------------------------------------------------------------------- */

static ir_value *splat(sema *s, ir_value *x, int rank, const int64_t *shape)
{
	return ir_build1(&s->b, IR_OP_SPLAT, ir_type_tile(s->ctx, x->type, rank, shape), x);
}

static ir_value *make_range(sema *s, int64_t start, int64_t end)
{
	int64_t n = end - start;
	ir_value *r = ir_build0(&s->b, IR_OP_MAKE_RANGE, ir_type_tile(s->ctx, sty(s, IR_I32), 1, &n));
	ir_op_set_int(s->ctx, r->def, "start", start);
	ir_op_set_int(s->ctx, r->def, "end", end);
	return r;
}

static ir_value *reshape(sema *s, ir_value *x, int rank, const int64_t *shape, bool can_reorder,
			 srcloc loc)
{
	int64_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= shape[i];
	if (ir_type_numel(x->type) != n)
		sema_fail(s, loc, "reshape() cannot change total number of elements in tensor (%s to %s)",
			  shape_of(s, x), ints_str(s, rank, shape));
	const ir_type *t = shaped(s, sema_velem(x), rank, shape);
	if (t == x->type)
		return x;
	if (x->type->kind != IR_TILE)
		return splat(s, x, rank, shape);
	if (rank == 0)
		sema_fail(s, loc, "cannot reshape %s to a scalar", tname(s, x->type));
	ir_value *r = ir_build1(&s->b, IR_OP_RESHAPE, t, x);
	if (can_reorder)
		ir_op_set_bool(s->ctx, r->def, "can_reorder", true);
	return r;
}

/* Inserts a dimension of 1 at axis (0 <= axis <= rank); a scalar becomes a tile<1>. */
static ir_value *expand(sema *s, ir_value *x, int axis, srcloc loc)
{
	int r = vrank(x);
	int64_t sh[MAXR];
	if (r == 0) {
		sh[0] = 1;
		return splat(s, x, 1, sh);
	}
	if (r + 1 > MAXR)
		sema_fail(s, loc, "tiles of rank %d are not supported", r + 1);
	for (int i = 0, j = 0; i <= r; i++)
		sh[i] = i == axis ? 1 : x->type->shape[j++];
	ir_value *v = ir_build1(&s->b, IR_OP_EXPAND_DIMS,
				ir_type_tile(s->ctx, sema_velem(x), r + 1, sh), x);
	ir_op_set_int(s->ctx, v->def, "axis", axis);
	return v;
}

/* Triton's broadcast_impl_shape: no rank extension, dims of 1 stretch. */
static ir_value *bcast_shape(sema *s, ir_value *x, int rank, const int64_t *shape, srcloc loc)
{
	if (x->type->kind != IR_TILE)
		return rank ? splat(s, x, rank, shape) : x;
	const ir_type *t = x->type;
	if (t->rank != rank)
		sema_fail(s, loc, "Cannot broadcast, rank mismatch: %s, %s", shape_of(s, x),
			  ints_str(s, rank, shape));
	bool same = true;
	for (int i = 0; i < rank; i++) {
		if (t->shape[i] != shape[i] && t->shape[i] != 1)
			sema_fail(s, loc,
				  "Cannot broadcast, the expanded size of the tensor (%lld) must match the "
				  "existing size (%lld) at non-singleton dimension %d: %s, %s",
				  (long long)shape[i], (long long)t->shape[i], i, shape_of(s, x),
				  ints_str(s, rank, shape));
		same = same && t->shape[i] == shape[i];
	}
	if (same)
		return x;
	return ir_build1(&s->b, IR_OP_BROADCAST, ir_type_tile(s->ctx, t->elem, rank, shape), x);
}

/* The bf16 -> fp32 step Triton applies before max/min (no native bf16 max/compare). */
ir_value *sema_promote_bf16(sema *s, ir_value *x, srcloc loc)
{
	if (sema_velem(x)->kind == IR_BF16)
		return sema_cast(s, x, sty(s, IR_F32), false, loc);
	return x;
}

/* ---- reduce and scan ---------------------------------------------------------------------- */

/* Computes the combination of two groups of n scalars: a[0..n) with a[n..2n). */
typedef void (*combiner)(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx,
			 srcloc loc);

/* Builds a reduce (rank drops at axis; rank 1 gives scalars) or scan (shape kept) op over n
 * tiles of one shape, whose region combines element pairs through fn. */
static void region_op(sema *s, ir_opcode code, int n, ir_value **in, int axis, bool reverse,
		      combiner fn, const void *ctx, srcloc loc, ir_value **res)
{
	const ir_type *rt[MAXN], *el[MAXN];
	const ir_type *t0 = in[0]->type;
	if (n > MAXN)
		sema_fail(s, loc, "at most %d tensors can be reduced together", MAXN);
	for (int i = 0; i < n; i++) {
		const ir_type *t = in[i]->type;
		bool same = t->kind == IR_TILE && t->rank == t0->rank;
		for (int d = 0; same && d < t->rank; d++)
			same = t->shape[d] == t0->shape[d];
		if (!same)
			sema_fail(s, loc, "all %s inputs must have the same shape, got %s and %s",
				  code == IR_OP_REDUCE ? "reduction" : "scan", shape_of(s, in[0]),
				  shape_of(s, in[i]));
		el[i] = t->elem;
		if (code == IR_OP_SCAN) {
			rt[i] = t;
		} else {
			int64_t sh[MAXR];
			int k = 0;
			for (int d = 0; d < t->rank; d++)
				if (d != axis)
					sh[k++] = t->shape[d];
			rt[i] = shaped(s, t->elem, k, sh);
		}
	}
	sema_at(s, loc);
	ir_op *op = ir_build(&s->b, code, n, in, n, rt);
	if (!op)
		sema_fail(s, loc, "out of memory");
	ir_op_set_int(s->ctx, op, "axis", axis);
	if (code == IR_OP_SCAN)
		ir_op_set_bool(s->ctx, op, "reverse", reverse);
	ir_block *blk = op->regions[0];
	ir_value *args[2 * MAXN] = {0}, *out[MAXN] = {0};
	for (int k = 0; k < 2 * n; k++)
		args[k] = ir_block_add_arg(s->ctx, blk, el[k % n], NULL);
	ir_builder saved = s->b;
	s->b.block = blk;
	s->b.before = NULL;
	fn(s, args, n, out, ctx, loc);
	for (int i = 0; i < n; i++) {
		if (out[i]->type->kind == IR_TILE)
			sema_fail(s, loc, "the combine function must return scalars, got %s",
				  tname(s, out[i]->type));
		out[i] = sema_cast(s, out[i], el[i], false, loc);
	}
	sema_at(s, loc);
	ir_build(&s->b, IR_OP_YIELD, n, out, 0, NULL);
	s->b = saved;
	for (int i = 0; i < n; i++)
		res[i] = &op->results[i];
}

/* Triton's reduce: axis None flattens first; keep_dims puts the reduced dims back as 1s. */
static void reduce_n(sema *s, int n, ir_value **in, const sval *axis_v, srcloc axis_loc, bool keep,
		     combiner fn, const void *ctx, srcloc loc, ir_value **res)
{
	int rank = vrank(in[0]), axis;
	if (rank == 0)
		sema_fail(s, loc, "cannot reduce %s: a tile is required", tname(s, in[0]->type));
	if (sv_absent(axis_v)) {
		for (int i = 0; i < n; i++) {
			int64_t numel = ir_type_numel(in[i]->type);
			in[i] = reshape(s, in[i], 1, &numel, true, loc);
		}
		axis = 0;
	} else {
		axis = wrap_axis(s, sema_cint(s, axis_v, axis_loc, "axis"), rank, axis_loc);
	}
	region_op(s, IR_OP_REDUCE, n, in, axis, false, fn, ctx, loc, res);
	if (!keep)
		return;
	for (int i = 0; i < n; i++) {
		if (!sv_absent(axis_v))
			res[i] = expand(s, res[i], axis, loc);
		else
			for (int d = 0; d < rank; d++)
				res[i] = expand(s, res[i], 0, loc);
	}
}

static void cb_add(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	for (int i = 0; i < n; i++) {
		const ir_type *t = a[i]->type;
		out[i] = ir_build2(&s->b, ir_type_is_float(t) ? IR_OP_ADDF : IR_OP_ADDI, t, a[i], a[n + i]);
	}
}

static void cb_mul(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	for (int i = 0; i < n; i++) {
		const ir_type *t = a[i]->type;
		out[i] = ir_build2(&s->b, ir_type_is_float(t) ? IR_OP_MULF : IR_OP_MULI, t, a[i], a[n + i]);
	}
}

static void cb_xor(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	for (int i = 0; i < n; i++)
		out[i] = ir_build2(&s->b, IR_OP_XORI, a[i]->type, a[i], a[n + i]);
}

static void cb_max(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	for (int i = 0; i < n; i++)
		out[i] = sema_max(s, a[i], a[n + i], true, false);
}

static void cb_min(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	for (int i = 0; i < n; i++)
		out[i] = sema_max(s, a[i], a[n + i], false, false);
}

typedef struct arg_ctx {
	bool is_max, tie_left;
} arg_ctx;

/* Triton's _argmax_combine / _argmin_combine over (value, index) pairs:
 * take the left pair when value1 > value2 (or <), or on a tie with the smaller index. */
static void cb_arg(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	const arg_ctx *c = ctx;
	sval v1 = sv_ir(a[0]), i1 = sv_ir(a[1]), v2 = sv_ir(a[2]), i2 = sv_ir(a[3]);
	const ir_type *b1 = sty(s, IR_I1);
	ir_value *take = sema_compare(s, c->is_max ? AST_GT : AST_LT, v1, v2, loc).ir;
	if (c->tie_left) {
		ir_value *eq = sema_compare(s, AST_EQ, v1, v2, loc).ir;
		ir_value *lt = sema_compare(s, AST_LT, i1, i2, loc).ir;
		ir_value *tie = ir_build2(&s->b, IR_OP_ANDI, b1, eq, lt);
		take = ir_build2(&s->b, IR_OP_ORI, b1, take, tie);
	}
	out[0] = ir_build3(&s->b, IR_OP_SELECT, a[0]->type, take, a[0], a[2]);
	out[1] = ir_build3(&s->b, IR_OP_SELECT, a[1]->type, take, a[1], a[3]);
}

/* A user combine function: a @triton.jit helper (or a builtin) called on SV_IR scalars. */
static void cb_call(sema *s, ir_value *const *a, int n, ir_value **out, const void *ctx, srcloc loc)
{
	const sval *fn = ctx;
	sval argv[2 * MAXN];
	srcloc locs[2 * MAXN];
	for (int k = 0; k < 2 * n; k++) {
		argv[k] = sv_ir(a[k]);
		locs[k] = loc;
	}
	sema_args ca = {.pos = argv, .pos_loc = locs, .npos = 2 * n, .loc = loc};
	sval r = fn->kind == SV_JITFN ? sema_call_jit(s, fn->fn, &ca)
				      : sema_call_builtin(s, fn->builtin, &ca);
	const sval *items = &r;
	int m = 1;
	if (r.kind == SV_TUPLE) {
		items = r.tup.items;
		m = r.tup.n;
	} else if (r.kind == SV_UNDEF || r.kind == SV_NONE) {
		m = 0;
	}
	if (m != n)
		sema_fail(s, loc, "the combine function returned %d value%s, expected %d", m,
			  m == 1 ? "" : "s", n);
	for (int i = 0; i < n; i++)
		out[i] = tensor_as(s, &items[i], a[i]->type, loc);
}

static const sval *combine_fn(sema *s, const sval *v, srcloc loc)
{
	if (v->kind != SV_JITFN && v->kind != SV_BUILTIN)
		sema_fail(s, loc, "combine_fn must be a @triton.jit function, got %s", sv_describe(s, v));
	return v;
}

/* The inputs of reduce / associative_scan: a tensor, or a tuple of tensors. */
static int region_inputs(sema *s, const sval *v, srcloc loc, const char *fn, ir_value **in)
{
	if (v->kind != SV_TUPLE) {
		in[0] = need_tile(s, v, loc, fn);
		return 1;
	}
	if (v->tup.n < 1 || v->tup.n > MAXN)
		sema_fail(s, loc, "%s takes 1 to %d tensors, got %d", fn, MAXN, v->tup.n);
	for (int i = 0; i < v->tup.n; i++)
		in[i] = need_tile(s, &v->tup.items[i], loc, fn);
	return v->tup.n;
}

/* ---- the handlers -------------------------------------------------------------------------
 * SEMA_HANDLER (sema_int.h) gives their signature; those of this file are static. */

#define HANDLER(name) static SEMA_HANDLER(name)

/* ---- creation ---- */

HANDLER(bi_program_id)
{
	int64_t axis = sema_cint(s, &sl[0], sl_loc[0], "axis");
	bool num = !strcmp(sema_builtin_name(id), "num_programs");
	if (axis < 0 || axis > 2)
		sema_fail(s, sl_loc[0], "%s axis must be 0, 1, or 2 but got %lld",
			  num ? "num_programs" : "program_id", (long long)axis);
	ir_value *r = ir_build0(&s->b, num ? IR_OP_NUM_PROGRAMS : IR_OP_PROGRAM_ID, sty(s, IR_I32));
	ir_op_set_int(s->ctx, r->def, "axis", axis);
	return sv_ir(r);
}

HANDLER(bi_arange)
{
	int64_t start = sema_cint(s, &sl[0], sl_loc[0], "start");
	int64_t end = sema_cint(s, &sl[1], sl_loc[1], "end");
	if (start < INT32_MIN || start > INT32_MAX || end < INT32_MIN || end > (int64_t)INT32_MAX + 1)
		sema_fail(s, a->loc, "tl.arange must fit in int32, got %lld..%lld", (long long)start,
			  (long long)end);
	if (end <= start)
		sema_fail(s, a->loc, "tl.arange's end must be greater than its start, got %lld..%lld",
			  (long long)start, (long long)end);
	int64_t n = end - start;
	if (n & (n - 1))
		sema_fail(s, a->loc, "tl.arange's range must be a power of two, got %lld..%lld",
			  (long long)start, (long long)end);
	sema_check_shape(s, 1, &n, a->loc);
	return sv_ir(make_range(s, start, end));
}

/* full(shape, value, dtype); zeros(shape, dtype) */
static sval full(sema *s, const sval *shape_v, srcloc shape_loc, const sval *value, srcloc vloc,
		 const ir_type *dt)
{
	int64_t sh[MAXR];
	int rank = shape_arg(s, shape_v, shape_loc, sh);
	if (dt->kind == IR_TILE || is_block_ptr(dt))
		sema_fail(s, vloc, "'dtype' must be a scalar dtype, got %s", tname(s, dt));
	if (sv_is_number(value)) {
		if (dt->kind == IR_PTR)
			sema_fail(s, vloc, "cannot fill a tile of %s with a number", tname(s, dt));
		return sv_ir(sema_const(s, shaped(s, dt, rank, sh), value));
	}
	ir_value *x = sema_need_ir(s, value, vloc, "tl.full");
	if (x->type->kind == IR_TILE)
		sema_fail(s, vloc, "tl.full's value must be a scalar, got %s", tname(s, x->type));
	x = sema_cast(s, x, dt, false, vloc);
	return sv_ir(rank ? splat(s, x, rank, sh) : x);
}

HANDLER(bi_full)
{
	return full(s, &sl[0], sl_loc[0], &sl[1], sl_loc[1], cdtype(s, &sl[2], sl_loc[2], "dtype"));
}

HANDLER(bi_zeros)
{
	sval zero = sv_int(0);
	return full(s, &sl[0], sl_loc[0], &zero, a->loc, cdtype(s, &sl[1], sl_loc[1], "dtype"));
}

HANDLER(bi_zeros_like)
{
	ir_value *x = sema_need_ir(s, &sl[0], sl_loc[0], "tl.zeros_like");
	const ir_type *e = sema_velem(x);
	if (e->kind == IR_PTR)
		sema_fail(s, sl_loc[0], "tl.zeros_like needs a numeric tensor, got %s", tname(s, x->type));
	sval zero = sv_int(0);
	return sv_ir(sema_const(s, x->type, &zero));
}

/* ---- memory ---- */

static const char *const load_caches[] = {".ca", ".cg", ".cv", NULL};
static const char *const store_caches[] = {".wb", ".cg", ".cs", ".wt", NULL};
static const char *const evictions[] = {"evict_first", "evict_last", NULL};

static const char *one_of(sema *s, const sval *v, srcloc loc, const char *what,
			  const char *const *set, const char *fmt)
{
	const char *x = cstr(s, v, loc, what);
	if (!*x)
		return NULL;
	for (; *set; set++)
		if (!strcmp(x, *set))
			return x;
	sema_fail(s, loc, fmt, x);
}

/* boundary_check: an int or a tuple of dims of the block, sorted, no duplicates. */
static int boundary_check(sema *s, const sval *v, srcloc loc, int rank, int64_t *out)
{
	if (sv_absent(v) || (v->kind == SV_TUPLE && v->tup.n == 0))
		return 0;
	int n = int_list(s, v, loc, "boundary_check", out);
	for (int i = 0; i < n; i++) {
		if (out[i] < 0 || out[i] >= rank)
			sema_fail(s, loc, "boundary_check dimension %lld is out of range for a block of rank %d",
				  (long long)out[i], rank);
		for (int j = 0; j < i; j++)
			if (out[j] == out[i])
				sema_fail(s, loc, "Duplicate dimension in `boundary_check`");
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int64_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static ir_value *pointer_arg(sema *s, const sval *v, srcloc loc, const char *fn)
{
	if (v->kind != SV_IR || sema_velem(v->ir)->kind != IR_PTR)
		sema_fail(s, loc, "Unsupported ptr type %s in `%s`", sv_describe(s, v), fn);
	return v->ir;
}

static ir_value *mask_arg(sema *s, const sval *v, srcloc loc)
{
	ir_value *m = sema_to_tensor(s, v, loc);
	if (sema_velem(m)->kind != IR_I1)
		sema_fail(s, loc, "Mask must have boolean scalar type, got %s", tname(s, m->type));
	return m;
}

static void mem_hints(sema *s, ir_op *op, const char *cache, const char *evict)
{
	if (cache)
		ir_op_set_str(s->ctx, op, "cache", cache);
	if (evict)
		ir_op_set_str(s->ctx, op, "evict", evict);
}

/* load(pointer, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy,
 *      volatile) */
HANDLER(bi_load)
{
	ir_value *p = pointer_arg(s, &sl[0], sl_loc[0], "tl.load");
	const char *cache = one_of(s, &sl[5], sl_loc[5], "cache_modifier", load_caches,
				   "Cache modifier %s not supported");
	const char *evict = one_of(s, &sl[6], sl_loc[6], "eviction_policy", evictions,
				   "Eviction policy %s not supported");
	bool vol = sema_cbool(s, &sl[7], sl_loc[7], "volatile", false);
	const char *pad = cstr(s, &sl[4], sl_loc[4], "padding_option");
	if (*pad && strcmp(pad, "zero") && strcmp(pad, "nan"))
		sema_fail(s, sl_loc[4], "Padding option %s not supported", pad);
	int64_t bc[MAXR];
	ir_value *ops[3] = {p};
	int nops = 1;
	const ir_type *rt;
	int nbc = 0;
	if (is_block_ptr(p->type)) {
		const ir_type *blk = p->type->elem;
		if (!sv_absent(&sl[1]) || !sv_absent(&sl[2]))
			sema_fail(s, sv_absent(&sl[1]) ? sl_loc[2] : sl_loc[1],
				  "`mask` and `other` arguments cannot be specified for loading block pointers");
		if (ir_type_is_int(blk->elem) && !strcmp(pad, "nan"))
			sema_fail(s, sl_loc[4], "Padding option `nan` is not supported for integer block pointers");
		nbc = boundary_check(s, &sl[3], sl_loc[3], blk->rank, bc);
		rt = blk;
	} else {
		bool has_bc = !sv_absent(&sl[3]) && !(sl[3].kind == SV_TUPLE && sl[3].tup.n == 0);
		if (*pad || has_bc)
			sema_fail(s, *pad ? sl_loc[4] : sl_loc[3],
				  "`padding_option` or `boundary_check` argument is not supported for loading "
				  "a tensor of pointers or loading a scalar, because the compiler does not know "
				  "the boundary; please use block pointers (defined by `make_block_ptr`) instead");
		if (sv_absent(&sl[1]) && !sv_absent(&sl[2]))
			sema_fail(s, sl_loc[2], "`other` cannot be provided without `mask`");
		const ir_type *elem = sema_velem(p)->elem;
		rt = ir_type_with_elem(s->ctx, p->type, elem);
		if (!sv_absent(&sl[1])) {
			ir_value *m = mask_arg(s, &sl[1], sl_loc[1]);
			if (p->type->kind != IR_TILE && m->type->kind == IR_TILE)
				sema_fail(s, sl_loc[1],
					  "Mask argument cannot be block type if pointer argument is not a block");
			if (p->type->kind == IR_TILE)
				m = sema_broadcast_to(s, m, p->type->rank, p->type->shape, sl_loc[1]);
			ops[nops++] = m;
			if (!sv_absent(&sl[2])) {
				ir_value *o = tensor_as(s, &sl[2], elem, sl_loc[2]);
				if (p->type->kind != IR_TILE && o->type->kind == IR_TILE)
					sema_fail(s, sl_loc[2],
						  "Other argument cannot be block type if pointer argument is not a block");
				if (p->type->kind == IR_TILE)
					o = sema_broadcast_to(s, o, p->type->rank, p->type->shape, sl_loc[2]);
				ops[nops++] = o;
			}
		}
	}
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_LOAD, nops, ops, 1, &rt);
	mem_hints(s, op, cache, evict);
	if (vol)
		ir_op_set_bool(s->ctx, op, "volatile", true);
	if (nbc)
		ir_op_set_ints(s->ctx, op, "boundary_check", bc, nbc);
	if (*pad && is_block_ptr(p->type))
		ir_op_set_str(s->ctx, op, "padding", pad);
	return sv_ir(&op->results[0]);
}

/* store(pointer, value, mask, boundary_check, cache_modifier, eviction_policy) */
HANDLER(bi_store)
{
	ir_value *p = pointer_arg(s, &sl[0], sl_loc[0], "tl.store");
	const char *cache = one_of(s, &sl[4], sl_loc[4], "cache_modifier", store_caches,
				   "Cache modifier %s not supported");
	const char *evict = one_of(s, &sl[5], sl_loc[5], "eviction_policy", evictions,
				   "Eviction policy %s not supported");
	int64_t bc[MAXR];
	int nbc = 0, nops = 2;
	ir_value *ops[3] = {p};
	if (is_block_ptr(p->type)) {
		const ir_type *blk = p->type->elem;
		if (!sv_absent(&sl[2]))
			sema_fail(s, sl_loc[2], "`mask` argument cannot be specified for storing to block pointers");
		ir_value *v = sv_is_number(&sl[1]) ? sema_to_ir(s, &sl[1], blk->elem, sl_loc[1])
						    : sema_need_ir(s, &sl[1], sl_loc[1], "tl.store");
		if (v->type->kind != IR_TILE)
			v = splat(s, v, blk->rank, blk->shape);
		if (v->type != ir_type_with_elem(s->ctx, blk, sema_velem(v)))
			sema_fail(s, sl_loc[1], "Block shape(%s) and value shape(%s) mismatch",
				  sema_shape_str(s, blk), shape_of(s, v));
		if (sema_velem(v) != blk->elem)
			sema_fail(s, sl_loc[1], "Block element type(%s) and value element type(%s) mismatch",
				  tname(s, blk->elem), tname(s, sema_velem(v)));
		nbc = boundary_check(s, &sl[3], sl_loc[3], blk->rank, bc);
		ops[1] = v;
	} else {
		if (!sv_absent(&sl[3]) && !(sl[3].kind == SV_TUPLE && sl[3].tup.n == 0))
			sema_fail(s, sl_loc[3],
				  "`boundary_check` argument is not supported for storing a tensor of pointers "
				  "or storing a scalar, because the compiler does not know the boundary; please "
				  "use block pointers (defined by `make_block_ptr`) instead");
		const ir_type *elem = sema_velem(p)->elem;
		ir_value *v = tensor_as(s, &sl[1], elem, sl_loc[1]);
		ir_value *m = sv_absent(&sl[2]) ? NULL : mask_arg(s, &sl[2], sl_loc[2]);
		if (p->type->kind != IR_TILE) {
			if (v->type->kind == IR_TILE)
				sema_fail(s, sl_loc[1],
					  "Value argument cannot be block type if pointer argument is not a block");
			if (m && m->type->kind == IR_TILE)
				sema_fail(s, sl_loc[2],
					  "Mask argument cannot be block type if pointer argument is not a block");
		} else {
			v = sema_broadcast_to(s, v, p->type->rank, p->type->shape, sl_loc[1]);
			if (m)
				m = sema_broadcast_to(s, m, p->type->rank, p->type->shape, sl_loc[2]);
		}
		ops[1] = sema_cast(s, v, elem, false, sl_loc[1]);
		if (m)
			ops[nops++] = m;
	}
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_STORE, nops, ops, 0, NULL);
	mem_hints(s, op, cache, evict);
	if (nbc)
		ir_op_set_ints(s->ctx, op, "boundary_check", bc, nbc);
	return (sval){.kind = SV_NONE};
}

/* ---- atomics ---- */

static const char *const sems[] = {"acquire", "release", "acq_rel", "relaxed", NULL};
static const char *const scopes[] = {"gpu", "cta", "sys", NULL};

static void atomic_attrs(sema *s, ir_op *op, const sval *sem, srcloc sem_loc, const sval *scope,
			 srcloc scope_loc)
{
	const char *x = one_of(s, sem, sem_loc, "sem", sems, "Memory semantic %s not supported");
	const char *y = one_of(s, scope, scope_loc, "scope", scopes, "Memory scope %s not supported");
	ir_op_set_str(s->ctx, op, "sem", x ? x : "acq_rel");
	ir_op_set_str(s->ctx, op, "scope", y ? y : "gpu");
}

static ir_value *atomic_ptr(sema *s, const sval *v, srcloc loc, const char *fn)
{
	if (v->kind != SV_IR || sema_velem(v->ir)->kind != IR_PTR || is_block_ptr(sema_velem(v->ir)))
		sema_fail(s, loc, "Pointer argument of %s must be a pointer or a tile of pointers, got %s",
			  fn, sv_describe(s, v));
	return v->ir;
}

/* atomic_{add,max,min,and,or,xor,xchg}(pointer, val, mask, sem, scope) */
HANDLER(bi_atomic_rmw)
{
	const char *opn = sema_builtin_name(id) + strlen("atomic_");
	const char *fn = arena_printf(s->a, "tl.%s", sema_builtin_name(id));
	ir_value *p = atomic_ptr(s, &sl[0], sl_loc[0], fn);
	const ir_type *e = sema_velem(p)->elem;
	if ((e->kind == IR_F16 || e->kind == IR_BF16) && strcmp(opn, "add"))
		sema_fail(s, sl_loc[0], "atomic_%s does not support %s", opn, tname(s, e));
	if (e->kind == IR_I16 || e->kind == IR_U16 || ir_type_bits(e) < 16)
		sema_fail(s, sl_loc[0], "atomic_%s does not support %s", opn, tname(s, e));
	const char *kind = opn;
	if (!strcmp(opn, "add")) {
		kind = ir_type_is_float(e) ? "fadd" : "add";
	} else if (!strcmp(opn, "max") || !strcmp(opn, "min")) {
		if (ir_type_is_float(e) && e->kind != IR_F32 && e->kind != IR_F64)
			sema_fail(s, sl_loc[0], "atomic_%s not supported for dtype %s", opn, tname(s, e));
		if (ir_type_is_int(e) && !ir_type_is_signed(e))
			kind = !strcmp(opn, "max") ? "umax" : "umin";
	} else if (strcmp(opn, "xchg") && !ir_type_is_int(e)) {
		sema_fail(s, sl_loc[0], "atomic_%s needs an integer pointee, got %s", opn, tname(s, e));
	}
	ir_value *v = tensor_as(s, &sl[1], e, sl_loc[1]);
	ir_value *m = sv_absent(&sl[2]) ? NULL : mask_arg(s, &sl[2], sl_loc[2]);
	if (p->type->kind == IR_TILE) {
		v = bcast_shape(s, v, p->type->rank, p->type->shape, sl_loc[1]);
		if (m)
			m = bcast_shape(s, m, p->type->rank, p->type->shape, sl_loc[2]);
	} else if (v->type->kind == IR_TILE || (m && m->type->kind == IR_TILE)) {
		sema_fail(s, v->type->kind == IR_TILE ? sl_loc[1] : sl_loc[2],
			  "%s argument cannot be block type if pointer argument is not a block",
			  v->type->kind == IR_TILE ? "Value" : "Mask");
	}
	v = sema_cast(s, v, e, false, sl_loc[1]);
	ir_value *ops[3] = {p, v, m};
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_ATOMIC_RMW, m ? 3 : 2, ops, 1, &v->type);
	ir_op_set_str(s->ctx, op, "kind", kind);
	atomic_attrs(s, op, &sl[3], sl_loc[3], &sl[4], sl_loc[4]);
	return sv_ir(&op->results[0]);
}

/* atomic_cas(pointer, cmp, val, sem, scope) */
HANDLER(bi_atomic_cas)
{
	ir_value *p = atomic_ptr(s, &sl[0], sl_loc[0], "tl.atomic_cas");
	const ir_type *e = sema_velem(p)->elem;
	int bits = ir_type_bits(e);
	if (bits != 16 && bits != 32 && bits != 64)
		sema_fail(s, sl_loc[0], "atomic_cas only supports elements with width {16, 32, 64}, got %s",
			  tname(s, e));
	ir_value *ops[3] = {p};
	for (int i = 1; i <= 2; i++) {
		ir_value *v = tensor_as(s, &sl[i], e, sl_loc[i]);
		if (p->type->kind == IR_TILE)
			v = bcast_shape(s, v, p->type->rank, p->type->shape, sl_loc[i]);
		else if (v->type->kind == IR_TILE)
			sema_fail(s, sl_loc[i], "%s argument cannot be block type if pointer argument is not a block",
				  i == 1 ? "Cmp" : "Value");
		ops[i] = sema_cast(s, v, e, false, sl_loc[i]);
	}
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_ATOMIC_CAS, 3, ops, 1, &ops[2]->type);
	atomic_attrs(s, op, &sl[3], sl_loc[3], &sl[4], sl_loc[4]);
	return sv_ir(&op->results[0]);
}

/* ---- block pointers ---- */

/* Elements of shape/strides (i64) or offsets (i32): constexprs or integer scalars. */
static int index_values(sema *s, const sval *v, srcloc loc, const char *what, bool i64,
			ir_value **out)
{
	const sval *items = v;
	int n = 1;
	if (v->kind == SV_TUPLE) {
		items = v->tup.items;
		n = v->tup.n;
	}
	if (n > MAXR)
		sema_fail(s, loc, "'%s' has %d elements; at most %d are supported", what, n, MAXR);
	const ir_type *t = sty(s, i64 ? IR_I64 : IR_I32);
	for (int i = 0; i < n; i++) {
		const sval *x = &items[i];
		if (x->kind == SV_INT || x->kind == SV_BOOL) {
			int64_t c = sema_cint(s, x, loc, what);
			if (!i64 && (c < INT32_MIN || c > INT32_MAX))
				sema_fail(s, loc, "Block pointers only support 32 bit `offsets/block_shape`, got "
					  "a value %lld which is out of the range", (long long)c);
			sema_at(s, loc);
			out[i] = ir_const_int(&s->b, t, c);
		} else if (x->kind == SV_IR && x->ir->type->kind != IR_TILE && ir_type_is_int(x->ir->type)) {
			if (!i64 && (x->ir->type->kind == IR_I64 || x->ir->type->kind == IR_U64))
				sema_fail(s, loc, "Block pointers only support 32 bit `offsets/block_shape`, add a "
					  "`.to(tl.int32)` or use regular indexing for 64 bit support");
			out[i] = sema_cast(s, x->ir, t, false, loc);
		} else {
			sema_fail(s, loc, "Expected an integer scalar in `%s`, got %s", what, sv_describe(s, x));
		}
	}
	return n;
}

/* make_block_ptr(base, shape, strides, offsets, block_shape, order) */
HANDLER(bi_make_block_ptr)
{
	const sval *b = &sl[0];
	if (b->kind != SV_IR || b->ir->type->kind != IR_PTR || is_block_ptr(b->ir->type))
		sema_fail(s, sl_loc[0],
			  "Expected `base` to be a pointer type (but not a block pointer type or others), got %s",
			  sv_describe(s, b));
	ir_value *base = b->ir;
	ir_value *sh[MAXR], *st[MAXR], *of[MAXR];
	int64_t bs[MAXR], order[MAXR];
	int ns = index_values(s, &sl[1], sl_loc[1], "shape", true, sh);
	int nt = index_values(s, &sl[2], sl_loc[2], "strides", true, st);
	int no = index_values(s, &sl[3], sl_loc[3], "offsets", false, of);
	int nb = int_list(s, &sl[4], sl_loc[4], "block_shape", bs);
	int nr = int_list(s, &sl[5], sl_loc[5], "order", order);
	bool seen[MAXR] = {0};
	for (int i = 0; i < nr; i++) {
		if (order[i] < 0 || order[i] >= nr || seen[order[i]])
			sema_fail(s, sl_loc[5],
				  "Expected a permutation of (0, 1, ..., len(order)-1) in order, got %s",
				  ints_str(s, nr, order));
		seen[order[i]] = true;
	}
	if (ns != nb || nt != nb || no != nb || nr != nb)
		sema_fail(s, a->loc, "Expected shape/strides/offsets/block_shape to have the same length");
	sema_check_shape(s, nb, bs, sl_loc[4]);
	ir_value *ops[1 + 3 * MAXR];
	ops[0] = base;
	for (int i = 0; i < nb; i++) {
		ops[1 + i] = sh[i];
		ops[1 + nb + i] = st[i];
		ops[1 + 2 * nb + i] = of[i];
	}
	const ir_type *rt = ir_type_ptr(s->ctx, ir_type_tile(s->ctx, base->type->elem, nb, bs),
					base->type->addrspace);
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_MAKE_BLOCK_PTR, 1 + 3 * nb, ops, 1, &rt);
	ir_op_set_ints(s->ctx, op, "order", order, nr);
	return sv_ir(&op->results[0]);
}

/* advance(base, offsets) */
HANDLER(bi_advance)
{
	if (sl[0].kind != SV_IR || !is_block_ptr(sl[0].ir->type))
		sema_fail(s, sl_loc[0], "tl.advance expects a block pointer, got %s", sv_describe(s, &sl[0]));
	ir_value *p = sl[0].ir, *ops[1 + MAXR];
	int rank = p->type->elem->rank;
	int n = index_values(s, &sl[1], sl_loc[1], "offsets", false, ops + 1);
	if (n != rank)
		sema_fail(s, sl_loc[1], "tl.advance expects %d offsets for a block of rank %d, got %d", rank,
			  rank, n);
	ops[0] = p;
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_ADVANCE, 1 + n, ops, 1, &p->type);
	return sv_ir(&op->results[0]);
}

/* ---- linear algebra ---- */

static bool is_fp8(const ir_type *t) { return t->kind == IR_F8E4NV || t->kind == IR_F8E5; }

/* dot(input, other, acc, input_precision, allow_tf32, max_num_imprecise_acc, out_dtype) */
HANDLER(bi_dot)
{
	ir_value *x = need_tile(s, &sl[0], sl_loc[0], "tl.dot");
	ir_value *y = need_tile(s, &sl[1], sl_loc[1], "tl.dot");
	int r = vrank(x);
	if (!((r == 2 && vrank(y) == 2) || (r == 3 && vrank(y) == 3)))
		sema_fail(s, a->loc, "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)",
			  shape_of(s, x), shape_of(s, y));
	const ir_type *ex = sema_velem(x), *ey = sema_velem(y);
	static const ir_type_kind ok[] = {IR_I8, IR_U8, IR_F16, IR_BF16, IR_F32, IR_F64};
	for (int k = 0; k < 2; k++) {
		const ir_type *e = k ? ey : ex;
		bool fine = is_fp8(e);
		for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
			fine = fine || e->kind == ok[i];
		if (!fine)
			sema_fail(s, sl_loc[k], "Unsupported %s dtype %s for tl.dot", k ? "rhs" : "lhs",
				  tname(s, e));
	}
	if (ex != ey)
		sema_fail(s, a->loc, "Both operands must be same dtype. Got %s and %s", tname(s, ex),
			  tname(s, ey));
	const int64_t *xs = x->type->shape, *ys = y->type->shape;
	if (xs[r - 1] != ys[r - 2] || (r == 3 && xs[0] != ys[0]))
		sema_fail(s, a->loc, "shapes %s and %s are incompatible for dot", shape_of(s, x),
			  shape_of(s, y));
	int64_t M = xs[r - 2], N = ys[r - 1], K = xs[r - 1];
	int64_t minK = ir_type_bits(ex) == 8 ? 32 : 16;
	if (M < 16 || N < 16 || K < minK)
		sema_fail(s, a->loc, "Input shapes should have M >= 16, N >= 16 and K >= %lld, got %s and %s",
			  (long long)minK, shape_of(s, x), shape_of(s, y));
	const ir_type *out =
	    sv_absent(&sl[6]) ? sty(s, IR_F32) : cdtype(s, &sl[6], sl_loc[6], "out_dtype");
	const ir_type *re;
	if (ir_type_is_int(ex)) {
		if (ex->kind != IR_I8)
			sema_fail(s, sl_loc[0], "only int8 supported for integer tl.dot, got %s", tname(s, ex));
		re = sty(s, IR_I32);
	} else if (out->kind == IR_BF16) {
		sema_fail(s, sl_loc[6], "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/"
			  "float16 and cast with `.to(tl.bfloat16)`");
	} else if (ex->kind == IR_F32 || ex->kind == IR_BF16) {
		re = sty(s, IR_F32);
	} else if (ex->kind == IR_F64) {
		re = sty(s, IR_F64);
	} else {
		if (out->kind != IR_F16 && out->kind != IR_F32)
			sema_fail(s, sl_loc[6], "out_dtype must be float32 or float16, got %s", tname(s, out));
		re = out;
	}
	int64_t rs[3];
	if (r == 3)
		rs[0] = xs[0];
	rs[r - 2] = M;
	rs[r - 1] = N;
	const ir_type *rt = ir_type_tile(s->ctx, re, r, rs);
	ir_value *acc;
	if (sv_absent(&sl[2])) {
		sval zero = sv_int(0);
		sema_at(s, a->loc);
		acc = sema_const(s, rt, &zero);
	} else {
		acc = sema_need_ir(s, &sl[2], sl_loc[2], "tl.dot's acc");
		if (sema_velem(acc) != re)
			sema_fail(s, sl_loc[2], "tl.dot's acc must have element type %s, got %s", tname(s, re),
				  tname(s, sema_velem(acc)));
		acc = sema_broadcast_to(s, acc, r, rs, sl_loc[2]);
	}
	/* precision: tf32 by default for fp32 inputs, unless allow_tf32=False */
	const char *prec;
	if (!sv_absent(&sl[3]) && !sv_absent(&sl[4]))
		sema_fail(s, sl_loc[4], "Only one of input_precision and allow_tf32 can be specified");
	if (!sv_absent(&sl[3])) {
		const char *p = cstr(s, &sl[3], sl_loc[3], "input_precision");
		char low[16] = {0};
		for (int i = 0; p[i] && i < 15; i++)
			low[i] = (char)tolower((unsigned char)p[i]);
		if (strcmp(low, "tf32") && strcmp(low, "tf32x3") && strcmp(low, "ieee"))
			sema_fail(s, sl_loc[3], "input_precision must be one of ('tf32', 'tf32x3', 'ieee'). Got %s",
				  p);
		prec = arena_strdup(s->a, low);
	} else if (ex->kind == IR_F32) {
		prec = sema_cbool(s, &sl[4], sl_loc[4], "allow_tf32", true) ? "tf32" : "ieee";
	} else {
		prec = "ieee";
	}
	sema_at(s, a->loc);
	ir_value *d = ir_build3(&s->b, IR_OP_DOT, rt, x, y, acc);
	ir_op_set_str(s->ctx, d->def, "input_precision", prec);
	if (!sv_absent(&sl[5])) {
		int64_t m = sema_cint(s, &sl[5], sl_loc[5], "max_num_imprecise_acc");
		if (is_fp8(ex) && m > K)
			sema_fail(s, sl_loc[5], "max_num_imprecise_acc (%lld) must be <= K (%lld)", (long long)m,
				  (long long)K);
		ir_op_set_int(s->ctx, d->def, "max_num_imprecise_acc", m);
	}
	return sv_ir(d);
}

/* ---- reductions and scans ---- */

/* Triton's _pick_sum_dtype: ints narrower than 32 bits widen to int32 / uint32 (int1 counts
 * as unsigned in Triton); an explicit dtype wins. */
static ir_value *sum_dtype(sema *s, ir_value *x, const sval *dt, srcloc dt_loc)
{
	if (!sv_absent(dt))
		return sema_cast(s, x, cdtype(s, dt, dt_loc, "dtype"), false, dt_loc);
	const ir_type *e = sema_velem(x);
	if (ir_type_is_int(e) && ir_type_bits(e) < 32)
		return sema_cast(s, x, sty(s, ir_type_is_signed(e) ? IR_I32 : IR_U32), false, dt_loc);
	return x;
}

static ir_value *numeric_tile(sema *s, const sval *v, srcloc loc, const char *fn)
{
	ir_value *x = need_tile(s, v, loc, fn);
	if (sema_velem(x)->kind == IR_PTR)
		sema_fail(s, loc, "%s expects numbers, got %s", fn, tname(s, x->type));
	return x;
}

/* sum(input, axis, keep_dims, dtype); xor_sum(input, axis, keep_dims) */
HANDLER(bi_sum)
{
	bool xor = !strcmp(sema_builtin_name(id), "xor_sum");
	ir_value *x = numeric_tile(s, &sl[0], sl_loc[0], xor ? "tl.xor_sum" : "tl.sum");
	if (xor && !ir_type_is_int(sema_velem(x)))
		sema_fail(s, sl_loc[0], "xor_sum only supported for integers, got %s", tname(s, sema_velem(x)));
	if (!xor)
		x = sum_dtype(s, x, &sl[3], sl_loc[3]);
	ir_value *r;
	reduce_n(s, 1, &x, &sl[1], sl_loc[1], sema_cbool(s, &sl[2], sl_loc[2], "keep_dims", false),
		 xor ? cb_xor : cb_add, NULL, a->loc, &r);
	return sv_ir(r);
}

/* (value, index) reduction along axis: Triton's _reduce_with_indices. */
static sval arg_reduce(sema *s, ir_value *x, const sval *axis_v, srcloc aloc, bool is_max,
		       bool tie_left, bool keep, srcloc loc, bool pair)
{
	if (sv_absent(axis_v))
		sema_fail(s, aloc, "%s requires an axis",
			  pair ? "return_indices" : is_max ? "tl.argmax" : "tl.argmin");
	int rank = vrank(x);
	int axis = wrap_axis(s, sema_cint(s, axis_v, aloc, "axis"), rank, aloc);
	sema_at(s, loc);
	ir_value *idx = make_range(s, 0, x->type->shape[axis]);
	if (rank > 1) {
		for (int d = 0; d < rank; d++)
			if (d != axis)
				idx = expand(s, idx, d, loc);
		idx = bcast_shape(s, idx, rank, x->type->shape, loc);
	}
	ir_value *in[2] = {x, idx}, *res[2];
	arg_ctx c = {is_max, tie_left};
	sval ax = sv_int(axis);
	reduce_n(s, 2, in, &ax, aloc, keep, cb_arg, &c, loc, res);
	if (!pair)
		return sv_ir(res[1]);
	sval items[2] = {sv_ir(res[0]), sv_ir(res[1])};
	return sv_tuple(s, 2, items);
}

/* max/min(input, axis, return_indices, return_indices_tie_break_left, keep_dims) */
HANDLER(bi_max)
{
	bool is_max = !strcmp(sema_builtin_name(id), "max");
	ir_value *x = numeric_tile(s, &sl[0], sl_loc[0], is_max ? "tl.max" : "tl.min");
	x = sema_promote_bf16(s, x, sl_loc[0]);
	bool keep = sema_cbool(s, &sl[4], sl_loc[4], "keep_dims", false);
	if (sema_cbool(s, &sl[2], sl_loc[2], "return_indices", false))
		return arg_reduce(s, x, &sl[1], sl_loc[1], is_max,
				  sema_cbool(s, &sl[3], sl_loc[3], "return_indices_tie_break_left", true), keep,
				  a->loc, true);
	const ir_type *e = sema_velem(x);
	if (ir_type_bits(e) < 32)
		x = sema_cast(s, x, sty(s, ir_type_is_float(e) ? IR_F32 : IR_I32), false, sl_loc[0]);
	ir_value *r;
	reduce_n(s, 1, &x, &sl[1], sl_loc[1], keep, is_max ? cb_max : cb_min, NULL, a->loc, &r);
	return sv_ir(r);
}

/* argmax/argmin(input, axis, tie_break_left, keep_dims) */
HANDLER(bi_argmax)
{
	bool is_max = !strcmp(sema_builtin_name(id), "argmax");
	ir_value *x = numeric_tile(s, &sl[0], sl_loc[0], is_max ? "tl.argmax" : "tl.argmin");
	x = sema_promote_bf16(s, x, sl_loc[0]);
	return arg_reduce(s, x, &sl[1], sl_loc[1], is_max,
			  sema_cbool(s, &sl[2], sl_loc[2], "tie_break_left", true),
			  sema_cbool(s, &sl[3], sl_loc[3], "keep_dims", false), a->loc, false);
}

/* reduce(input, axis, combine_fn, keep_dims) */
HANDLER(bi_reduce)
{
	ir_value *in[MAXN], *res[MAXN];
	int n = region_inputs(s, &sl[0], sl_loc[0], "tl.reduce", in);
	const sval *fn = combine_fn(s, &sl[2], sl_loc[2]);
	reduce_n(s, n, in, &sl[1], sl_loc[1], sema_cbool(s, &sl[3], sl_loc[3], "keep_dims", false),
		 cb_call, fn, a->loc, res);
	if (sl[0].kind != SV_TUPLE)
		return sv_ir(res[0]);
	sval items[MAXN];
	for (int i = 0; i < n; i++)
		items[i] = sv_ir(res[i]);
	return sv_tuple(s, n, items);
}

static sval scan(sema *s, int n, ir_value **in, const sval *axis_v, srcloc aloc, bool reverse,
		 combiner fn, const void *ctx, srcloc loc, bool tuple)
{
	if (sv_absent(axis_v))
		sema_fail(s, aloc, "a scan requires an axis");
	int axis = wrap_axis(s, sema_cint(s, axis_v, aloc, "axis"), vrank(in[0]), aloc);
	ir_value *res[MAXN];
	region_op(s, IR_OP_SCAN, n, in, axis, reverse, fn, ctx, loc, res);
	if (!tuple)
		return sv_ir(res[0]);
	sval items[MAXN];
	for (int i = 0; i < n; i++)
		items[i] = sv_ir(res[i]);
	return sv_tuple(s, n, items);
}

/* associative_scan(input, axis, combine_fn, reverse) */
HANDLER(bi_associative_scan)
{
	ir_value *in[MAXN];
	int n = region_inputs(s, &sl[0], sl_loc[0], "tl.associative_scan", in);
	const sval *fn = combine_fn(s, &sl[2], sl_loc[2]);
	return scan(s, n, in, &sl[1], sl_loc[1], sema_cbool(s, &sl[3], sl_loc[3], "reverse", false),
		    cb_call, fn, a->loc, sl[0].kind == SV_TUPLE);
}

/* cumsum/cumprod(input, axis=0, reverse=False, dtype=None) */
HANDLER(bi_cumsum)
{
	bool sum = !strcmp(sema_builtin_name(id), "cumsum");
	ir_value *x = numeric_tile(s, &sl[0], sl_loc[0], sum ? "tl.cumsum" : "tl.cumprod");
	x = sema_promote_bf16(s, x, sl_loc[0]);
	if (sum)
		x = sum_dtype(s, x, &sl[3], sl_loc[3]);
	else if (!sv_absent(&sl[3]))
		x = sema_cast(s, x, cdtype(s, &sl[3], sl_loc[3], "dtype"), false, sl_loc[3]);
	sval zero = sv_int(0);
	return scan(s, 1, &x, sv_absent(&sl[1]) ? &zero : &sl[1], sl_loc[1],
		    sema_cbool(s, &sl[2], sl_loc[2], "reverse", false), sum ? cb_add : cb_mul, NULL, a->loc,
		    false);
}

/* ---- shape manipulation ---- */

/* reshape(input, *shape, can_reorder); view(input, *shape) */
HANDLER(bi_reshape)
{
	bool view = !strcmp(sema_builtin_name(id), "view");
	ir_value *x = sema_need_ir(s, &sl[0], sl_loc[0], view ? "tl.view" : "tl.reshape");
	if (sv_absent(&sl[1]))
		sema_fail(s, a->loc, "'%s' missing required argument 'shape'", view ? "tl.view" : "tl.reshape");
	sval shv = unwrap1(&sl[1]);
	int64_t sh[MAXR];
	int rank = shape_arg(s, &shv, sl_loc[1], sh);
	if (view)
		diag_warning(s->d, a->loc, "view is deprecated, please use reshape with can_reorder being true");
	bool reorder = view || sema_cbool(s, &sl[2], sl_loc[2], "can_reorder", false);
	return sv_ir(reshape(s, x, rank, sh, reorder, a->loc));
}

HANDLER(bi_ravel)
{
	ir_value *x = need_tile(s, &sl[0], sl_loc[0], "tl.ravel");
	int64_t n = ir_type_numel(x->type);
	return sv_ir(reshape(s, x, 1, &n, true, a->loc));
}

/* Triton's permute: dims must be a permutation of the input's dims. */
static ir_value *permute(sema *s, ir_value *x, int n, const int64_t *dims, srcloc loc)
{
	int r = vrank(x);
	if (r != n)
		sema_fail(s, loc, "permute dims must have the same length as input shape (%s vs %s)",
			  ints_str(s, n, dims), shape_of(s, x));
	bool seen[MAXR] = {0}, ident = true;
	int64_t sh[MAXR];
	for (int i = 0; i < n; i++) {
		if (dims[i] < 0 || dims[i] >= n || seen[dims[i]])
			sema_fail(s, loc, "permute dims must be a permutation of 0, 1, ..., n-1, but were %s",
				  ints_str(s, n, dims));
		seen[dims[i]] = true;
		ident = ident && dims[i] == i;
		sh[i] = x->type->shape[dims[i]];
	}
	if (ident)
		return x;
	ir_value *v = ir_build1(&s->b, IR_OP_TRANS, ir_type_tile(s->ctx, sema_velem(x), r, sh), x);
	ir_op_set_ints(s->ctx, v->def, "order", dims, n);
	return v;
}

/* trans(input, *dims) (default (1, 0)); permute(input, *dims) */
HANDLER(bi_trans)
{
	bool tr = !strcmp(sema_builtin_name(id), "trans");
	ir_value *x = need_tile(s, &sl[0], sl_loc[0], tr ? "tl.trans" : "tl.permute");
	int64_t dims[MAXR] = {1, 0};
	int n = 2;
	if (!sv_absent(&sl[1])) {
		sval d = unwrap1(&sl[1]);
		n = int_list(s, &d, sl_loc[1], "dims", dims);
	} else if (!tr) {
		n = 0;
	}
	return sv_ir(permute(s, x, n, dims, sv_absent(&sl[1]) ? a->loc : sl_loc[1]));
}

/* broadcast_to(input, *shape) */
HANDLER(bi_broadcast_to)
{
	ir_value *x = sema_to_tensor(s, &sl[0], sl_loc[0]);
	if (sv_absent(&sl[1]))
		sema_fail(s, a->loc, "'tl.broadcast_to' missing required argument 'shape'");
	sval shv = unwrap1(&sl[1]);
	int64_t sh[MAXR];
	int rank = shape_arg(s, &shv, sl_loc[1], sh);
	return sv_ir(bcast_shape(s, x, rank, sh, a->loc));
}

/* broadcast(input, other) */
HANDLER(bi_broadcast)
{
	ir_value *x = sema_to_tensor(s, &sl[0], sl_loc[0]), *y = sema_to_tensor(s, &sl[1], sl_loc[1]);
	sema_broadcast_pair(s, &x, &y, a->loc, "tl.broadcast");
	sval items[2] = {sv_ir(x), sv_ir(y)};
	return sv_tuple(s, 2, items);
}

/* expand_dims(input, axis): axis an int or a tuple, relative to the result's rank */
HANDLER(bi_expand_dims)
{
	ir_value *x = sema_to_tensor(s, &sl[0], sl_loc[0]);
	int64_t ax[MAXR];
	int n = int_list(s, &sl[1], sl_loc[1], "axis", ax);
	int nd = vrank(x) + n;
	if (nd > MAXR)
		sema_fail(s, sl_loc[1], "tiles of rank %d are not supported", nd);
	for (int i = 0; i < n; i++) {
		ax[i] = wrap_axis(s, ax[i], nd, sl_loc[1]);
		for (int j = 0; j < i; j++)
			if (ax[j] == ax[i])
				sema_fail(s, sl_loc[1], "expand_dims received duplicate axes, normalized axes = %s",
					  ints_str(s, i + 1, ax));
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ax[j - 1] > ax[j]; j--) {
			int64_t t = ax[j];
			ax[j] = ax[j - 1];
			ax[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		x = expand(s, x, (int)ax[i], a->loc);
	return sv_ir(x);
}

/* split(a): the last dimension (of size 2) comes apart into two values */
HANDLER(bi_split)
{
	ir_value *x = need_tile(s, &sl[0], sl_loc[0], "tl.split");
	const ir_type *t = x->type;
	if (t->shape[t->rank - 1] != 2)
		sema_fail(s, sl_loc[0], "tl.split needs a tile whose last dimension is 2, got %s",
			  shape_of(s, x));
	const ir_type *rt = shaped(s, t->elem, t->rank - 1, t->shape);
	const ir_type *rts[2] = {rt, rt};
	ir_op *op = ir_build(&s->b, IR_OP_SPLIT, 1, &x, 2, rts);
	sval items[2] = {sv_ir(&op->results[0]), sv_ir(&op->results[1])};
	return sv_tuple(s, 2, items);
}

static ir_value *join(sema *s, ir_value *x, ir_value *y, srcloc loc)
{
	if (sema_velem(x) != sema_velem(y))
		sema_fail(s, loc, "tl.join needs operands of one type, got %s and %s", tname(s, sema_velem(x)),
			  tname(s, sema_velem(y)));
	sema_broadcast_pair(s, &x, &y, loc, "tl.join");
	int r = vrank(x);
	int64_t sh[MAXR];
	if (r + 1 > MAXR)
		sema_fail(s, loc, "tiles of rank %d are not supported", r + 1);
	for (int i = 0; i < r; i++)
		sh[i] = x->type->shape[i];
	sh[r] = 2;
	sema_at(s, loc);
	return ir_build2(&s->b, IR_OP_JOIN, ir_type_tile(s->ctx, sema_velem(x), r + 1, sh), x, y);
}

/* join(a, b) */
HANDLER(bi_join)
{
	return sv_ir(join(s, sema_to_tensor(s, &sl[0], sl_loc[0]), sema_to_tensor(s, &sl[1], sl_loc[1]),
			  a->loc));
}

/* interleave(a, b): join, then merge the new dimension into the last one */
HANDLER(bi_interleave)
{
	ir_value *c = join(s, sema_to_tensor(s, &sl[0], sl_loc[0]), sema_to_tensor(s, &sl[1], sl_loc[1]),
			   a->loc);
	int r = vrank(c);
	if (r == 1)
		return sv_ir(c);
	int64_t sh[MAXR];
	for (int i = 0; i < r - 2; i++)
		sh[i] = c->type->shape[i];
	sh[r - 2] = 2 * c->type->shape[r - 2];
	return sv_ir(reshape(s, c, r - 1, sh, false, a->loc));
}

/* ---- casts ---- */

/* cast(input, dtype, fp_downcast_rounding, bitcast) and x.to(...) */
HANDLER(bi_cast)
{
	ir_value *x = sema_to_tensor(s, &sl[0], sl_loc[0]);
	/* a block type (y.type) casts to its element type, as Triton's cast takes .scalar */
	sval dt = sl[1];
	if (dt.kind == SV_DTYPE && dt.dtype->kind == IR_TILE)
		dt = sv_dtype(dt.dtype->elem);
	const ir_type *to = cdtype(s, &dt, sl_loc[1], "dtype");
	if (to->kind == IR_TILE || is_block_ptr(to))
		sema_fail(s, sl_loc[1], "cannot cast to %s", tname(s, to));
	if (sema_cbool(s, &sl[3], sl_loc[3], "bitcast", false))
		return sv_ir(sema_cast(s, x, to, true, a->loc));
	const char *rnd = cstr(s, &sl[2], sl_loc[2], "fp_downcast_rounding");
	const ir_type *from = sema_velem(x);
	if (*rnd) {
		if (strcmp(rnd, "rtne") && strcmp(rnd, "rtz"))
			sema_fail(s, sl_loc[2], "Invalid rounding mode: %s. Supported rounding modes are 'rtne' "
				  "and 'rtz'.", rnd);
		if (!ir_type_is_float(from) || !ir_type_is_float(to) || ir_type_bits(to) >= ir_type_bits(from))
			sema_fail(s, sl_loc[2], "fp_downcast_rounding should be set only for truncating fp "
				  "conversions. Source scalar type is %s and destination type is %s",
				  tname(s, from), tname(s, to));
	}
	ir_value *r = sema_cast(s, x, to, false, a->loc);
	if (*rnd && r->def && r->def->code == IR_OP_TRUNCF)
		ir_op_set_str(s->ctx, r->def, "rounding", rnd);
	return sv_ir(r);
}

/* ---- hints and debugging ---- */

/* multiple_of / max_contiguous / max_constancy(input, values) */
HANDLER(bi_hint)
{
	const char *n = sema_builtin_name(id);
	ir_value *x = sema_need_ir(s, &sl[0], sl_loc[0], arena_printf(s->a, "tl.%s", n));
	int64_t v[MAXR];
	int k = int_list(s, &sl[1], sl_loc[1], "values", v);
	bool mult = !strcmp(n, "multiple_of");
	int want = vrank(x) > 0 ? vrank(x) : mult ? 1 : 0;
	if (k != want)
		sema_fail(s, sl_loc[1], "Shape of input to %s does not match the length of values (%d vs %d)",
			  n, want, k);
	if (!strcmp(n, "max_constancy"))
		return sv_ir(x); /* the IR has no constancy hint */
	sema_at(s, a->loc);
	ir_value *r = ir_build1(&s->b, mult ? IR_OP_MULTIPLE_OF : IR_OP_MAX_CONTIGUOUS, x->type, x);
	ir_op_set_ints(s->ctx, r->def, mult ? "divisibility" : "contiguity", v, k);
	return sv_ir(r);
}

HANDLER(bi_debug_barrier)
{
	ir_build(&s->b, IR_OP_BARRIER, 0, NULL, 0, NULL);
	return (sval){.kind = SV_NONE};
}

/* device_assert(cond, msg, mask): mask given, the condition is cond | ~mask */
HANDLER(bi_device_assert)
{
	ir_value *c = sema_to_tensor(s, &sl[0], sl_loc[0]);
	const char *msg = cstr(s, &sl[1], sl_loc[1], "msg");
	c = sema_to_i1(s, c, sl_loc[0]);
	if (!sv_absent(&sl[2])) {
		ir_value *m = sema_to_i1(s, sema_to_tensor(s, &sl[2], sl_loc[2]), sl_loc[2]);
		sval nm = sema_unary(s, AST_UINVERT, sv_ir(m), sl_loc[2]);
		c = sema_binary(s, AST_BITOR, sv_ir(c), nm, a->loc).ir;
	}
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_ASSERT, 1, &c, 0, NULL);
	ir_op_set_str(s->ctx, op, "msg", msg);
	return (sval){.kind = SV_NONE};
}

/* static_assert(cond, msg): checked now */
HANDLER(bi_static_assert)
{
	if (sl[0].kind == SV_IR)
		sema_fail(s, sl_loc[0], "static_assert's condition must be known at compile time, got %s",
			  sv_describe(s, &sl[0]));
	const char *msg = cstr(s, &sl[1], sl_loc[1], "msg");
	if (!sema_truth(s, &sl[0], sl_loc[0]))
		sema_fail(s, sl_loc[0], "static_assert failed%s%s", *msg ? ": " : "", msg);
	return (sval){.kind = SV_NONE};
}

static const char *sv_text(sema *s, const sval *v)
{
	switch (v->kind) {
	case SV_STR: return v->s;
	case SV_INT: return arena_printf(s->a, "%lld", (long long)v->i);
	case SV_FLOAT: return arena_printf(s->a, "%g", v->f);
	case SV_BOOL: return v->b ? "True" : "False";
	case SV_NONE: return "None";
	case SV_DTYPE: return tname(s, v->dtype);
	default: return sv_describe(s, v);
	}
}

/* static_print(*values): prints at compile time, as a note */
HANDLER(bi_static_print)
{
	strbuf b = {0};
	if (!sv_absent(&sl[0]))
		for (int i = 0; i < sl[0].tup.n; i++)
			strbuf_printf(&b, "%s%s", i ? " " : "", sv_text(s, &sl[0].tup.items[i]));
	diag_note(s->d, a->loc, "static_print: %s", b.data ? b.data : "");
	strbuf_free(&b);
	return (sval){.kind = SV_NONE};
}

/* device_print / print: no printf support in the backends yet; dropped with a warning */
HANDLER(bi_device_print)
{
	diag_warning(s->d, a->loc, "device_print is not supported by tilecc; the call is dropped");
	return (sval){.kind = SV_NONE};
}

/* assume(cond): a hint the IR cannot carry; evaluated and dropped */
HANDLER(bi_assume)
{
	sema_to_tensor(s, &sl[0], sl_loc[0]);
	return (sval){.kind = SV_NONE};
}

HANDLER(bi_constexpr)
{
	return sv_absent(&sl[0]) ? sv_none() : sl[0];
}

/* pointer_type(element_ty, address_space=1) */
HANDLER(bi_pointer_type)
{
	const ir_type *t = cdtype(s, &sl[0], sl_loc[0], "element_ty");
	int64_t as = sv_absent(&sl[1]) ? 1 : sema_cint(s, &sl[1], sl_loc[1], "address_space");
	if (as != 1 && as != 3)
		sema_fail(s, sl_loc[1], "address_space must be 1 (global) or 3 (shared), got %lld",
			  (long long)as);
	return sv_dtype(ir_type_ptr(s->ctx, t, (int)as));
}

/* range / static_range: only the iterable of a for loop (the statement code reads them) */
HANDLER(bi_range)
{
	sema_fail(s, a->loc, "'%s' can only be used as the iterable of a for loop", sema_builtin_name(id));
}


/* ---- the table ----------------------------------------------------------------------------
 * Where a name has several entries (tl.max the reduction, tl.math.max the element-wise one,
 * Python's max), the method entry comes first: the method lookup takes the first match. */

#define TL SEMA_NS_TL
#define TM SEMA_NS_MATH
#define TR SEMA_NS_TRITON
#define PY SEMA_NS_PY
#define PM SEMA_NS_PYMATH
#define DT SEMA_NS_DTYPE
#define DS SEMA_NS_DESC
#define TO SEMA_NS_TORCH
#define TS SEMA_NS_TLSTD
#define P(...) {__VA_ARGS__, NULL}

const sema_builtin sema_builtins[] = {
	/* name              ns        params                                                  req  handler                  method */
	/* creation */
	{"program_id",       TL,       P("axis"),                                              1,   bi_program_id,           false},
	{"num_programs",     TL,       P("axis"),                                              1,   bi_program_id,           false},
	{"arange",           TL,       P("start", "end"),                                      2,   bi_arange,               false},
	{"full",             TL,       P("shape", "value", "dtype"),                           3,   bi_full,                 false},
	{"zeros",            TL,       P("shape", "dtype"),                                    2,   bi_zeros,                false},
	{"zeros_like",       TL,       P("input"),                                             1,   bi_zeros_like,           false},
	/* memory */
	{"load",             TL,       P("pointer", "mask", "other", "boundary_check", "padding_option",
				         "cache_modifier", "eviction_policy", "volatile"),     1,   bi_load,                 false},
	{"store",            TL,       P("pointer", "value", "mask", "boundary_check", "cache_modifier",
				         "eviction_policy"),                                   2,   bi_store,                true},
	{"atomic_add",       TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_max",       TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_min",       TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_and",       TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_or",        TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_xor",       TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_xchg",      TL,       P("pointer", "val", "mask", "sem", "scope"),            2,   bi_atomic_rmw,           true},
	{"atomic_cas",       TL,       P("pointer", "cmp", "val", "sem", "scope"),             3,   bi_atomic_cas,           true},
	{"make_block_ptr",   TL,       P("base", "shape", "strides", "offsets", "block_shape",
				         "order"),                                             6,   bi_make_block_ptr,       false},
	{"advance",          TL,       P("base", "offsets"),                                   2,   bi_advance,              true},
	/* linear algebra */
	{"dot",              TL,       P("input", "other", "acc", "input_precision", "allow_tf32",
				         "max_num_imprecise_acc", "out_dtype"),                2,   bi_dot,                  false},
	/* reductions and scans */
	{"sum",              TL,       P("input", "axis", "keep_dims", "dtype"),               1,   bi_sum,                  true},
	{"xor_sum",          TL,       P("input", "axis", "keep_dims"),                        1,   bi_sum,                  true},
	{"max",              TL,       P("input", "axis", "return_indices",
				         "return_indices_tie_break_left", "keep_dims"),        1,   bi_max,                  true},
	{"min",              TL,       P("input", "axis", "return_indices",
				         "return_indices_tie_break_left", "keep_dims"),        1,   bi_max,                  true},
	{"argmax",           TL,       P("input", "axis", "tie_break_left", "keep_dims"),      2,   bi_argmax,               true},
	{"argmin",           TL,       P("input", "axis", "tie_break_left", "keep_dims"),      2,   bi_argmax,               true},
	{"reduce",           TL,       P("input", "axis", "combine_fn", "keep_dims"),          3,   bi_reduce,               true},
	{"associative_scan", TL,       P("input", "axis", "combine_fn", "reverse"),            3,   bi_associative_scan,     true},
	{"cumsum",           TL,       P("input", "axis", "reverse", "dtype"),                 1,   bi_cumsum,               true},
	{"cumprod",          TL,       P("input", "axis", "reverse", "dtype"),                 1,   bi_cumsum,               true},
	/* shape manipulation */
	{"reshape",          TL,       P("input", "*shape", "can_reorder"),                    1,   bi_reshape,              true},
	{"view",             TL,       P("input", "*shape"),                                   1,   bi_reshape,              true},
	{"ravel",            TL,       P("x"),                                                 1,   bi_ravel,                true},
	{"trans",            TL,       P("input", "*dims"),                                    1,   bi_trans,                true},
	{"permute",          TL,       P("input", "*dims"),                                    1,   bi_trans,                true},
	{"broadcast_to",     TL,       P("input", "*shape"),                                   1,   bi_broadcast_to,         true},
	{"broadcast",        TL,       P("input", "other"),                                    2,   bi_broadcast,            false},
	{"expand_dims",      TL,       P("input", "axis"),                                     2,   bi_expand_dims,          true},
	{"split",            TL,       P("a"),                                                 1,   bi_split,                true},
	{"join",             TL,       P("a", "b"),                                            2,   bi_join,                 false},
	{"interleave",       TL,       P("a", "b"),                                            2,   bi_interleave,           false},
	/* moving elements by index (sema_builtins_sort.c) */
	{"gather",           TL,       P("src", "index", "axis"),                              3,   sema_bi_gather,          true},
	{"flip",             TL,       P("x", "dim"),                                          1,   sema_bi_flip,            true},
	{"sort",             TL,       P("x", "dim", "descending"),                            1,   sema_bi_sort,            true},
	{"topk",             TL,       P("x", "k", "dim", "descending"),                       2,   sema_bi_topk,            true},
	{"histogram",        TL,       P("input", "num_bins", "mask"),                         2,   sema_bi_histogram,       true},
	/* element-wise math */
	{"exp",              TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"exp2",             TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"log",              TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"log2",             TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"sqrt",             TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"sqrt_rn",          TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"rsqrt",            TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"sin",              TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"cos",              TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"erf",              TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"floor",            TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"ceil",             TL|TM,    P("x"),                                                 1,   sema_bi_math1,           true},
	{"abs",              TL|TM,    P("x"),                                                 1,   sema_bi_abs,             true},
	/* libdevice's other functions (triton.language.extra.libdevice; tl.math here too) */
	{"tanh",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"tan",              TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"asin",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"acos",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"atan",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"sinh",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"cosh",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"log1p",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"expm1",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"log10",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"exp10",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"cbrt",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"erfinv",           TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"trunc",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"round",            TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"rint",             TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"nearbyint",        TM,       P("arg0"),                                              1,   sema_bi_math1,          false},
	{"pow",              TM,       P("arg0", "arg1"),                                      2,   sema_bi_libdevice,      false},
	{"atan2",            TM,       P("arg0", "arg1"),                                      2,   sema_bi_libdevice,      false},
	{"fmod",             TM,       P("arg0", "arg1"),                                      2,   sema_bi_libdevice,      false},
	{"hypot",            TM,       P("arg0", "arg1"),                                      2,   sema_bi_libdevice,      false},
	{"ldexp",            TM,       P("arg0", "arg1"),                                      2,   sema_bi_libdevice,      false},
	{"ilogb",            TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"isnan",            TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"isinf",            TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"signbit",          TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"finitef",          TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"isfinited",        TM,       P("arg0"),                                              1,   sema_bi_libdevice,      false},
	{"sigmoid",          TL,       P("x"),                                                 1,   sema_bi_sigmoid,         true},
	{"fma",              TL|TM,    P("x", "y", "z"),                                       3,   sema_bi_fma,             false},
	{"umulhi",           TL|TM,    P("x", "y"),                                            2,   sema_bi_umulhi,          false},
	{"fdiv",             TL|TM,    P("x", "y", "ieee_rounding"),                           2,   sema_bi_fdiv,            false},
	{"div_rn",           TL|TM,    P("x", "y"),                                            2,   sema_bi_fdiv,            false},
	{"maximum",          TL,       P("x", "y", "propagate_nan"),                           2,   sema_bi_maximum,         false},
	{"minimum",          TL,       P("x", "y", "propagate_nan"),                           2,   sema_bi_maximum,         false},
	{"max",              TM,       P("x", "y", "propagate_nan"),                           2,   sema_bi_maximum,         false},
	{"min",              TM,       P("x", "y", "propagate_nan"),                           2,   sema_bi_maximum,         false},
	{"clamp",            TL,       P("x", "min", "max", "propagate_nan"),                  3,   sema_bi_clamp,           false},
	{"where",            TL,       P("condition", "x", "y"),                               3,   sema_bi_where,           false},
	{"cdiv",             TL|TR,    P("x", "div"),                                          2,   sema_bi_cdiv,            true},
	{"swizzle2d",        TL,       P("i", "j", "size_i", "size_j", "size_g"),              5,   sema_bi_swizzle2d,       false},
	/* random numbers (sema_builtins_random.c) */
	{"philox_impl",      TL,       P("c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"),      6,   sema_bi_philox_impl,     false},
	{"philox",           TL,       P("seed", "c0", "c1", "c2", "c3", "n_rounds"),          5,   sema_bi_philox,          false},
	{"randint",          TL,       P("seed", "offset", "n_rounds"),                        2,   sema_bi_random,          false},
	{"randint4x",        TL,       P("seed", "offset", "n_rounds"),                        2,   sema_bi_random,          false},
	{"rand",             TL,       P("seed", "offset", "n_rounds"),                        2,   sema_bi_random,          false},
	{"rand4x",           TL,       P("seed", "offsets", "n_rounds"),                       2,   sema_bi_random,          false},
	{"randn",            TL,       P("seed", "offset", "n_rounds"),                        2,   sema_bi_random,          false},
	{"randn4x",          TL,       P("seed", "offset", "n_rounds"),                        2,   sema_bi_random,          false},
	{"uint_to_uniform_float", TL,  P("x"),                                                 1,   sema_bi_uint_to_uniform_float, false},
	{"pair_uniform_to_normal", TL, P("u1", "u2"),                                          2,   sema_bi_pair_uniform_to_normal, false},
	/* casts */
	{"cast",             TL,       P("input", "dtype", "fp_downcast_rounding", "bitcast"), 2,   bi_cast,                 true},
	{"to",               0,        P("input", "dtype", "fp_downcast_rounding", "bitcast"), 2,   bi_cast,                 true},
	/* hints and debugging */
	{"multiple_of",      TL,       P("input", "values"),                                   2,   bi_hint,                 false},
	{"max_contiguous",   TL,       P("input", "values"),                                   2,   bi_hint,                 false},
	{"max_constancy",    TL,       P("input", "values"),                                   2,   bi_hint,                 false},
	{"debug_barrier",    TL,       P(NULL),                                                0,   bi_debug_barrier,        false},
	{"device_assert",    TL,       P("cond", "msg", "mask"),                               1,   bi_device_assert,        false},
	{"static_assert",    TL,       P("cond", "msg"),                                       1,   bi_static_assert,        false},
	{"static_print",     TL,       P("*values", "sep", "end", "file", "flush"),            0,   bi_static_print,         false},
	{"device_print",     TL,       P("prefix", "*args", "hex"),                            1,   bi_device_print,         false},
	{"assume",           TL,       P("cond"),                                              1,   bi_assume,               false},
	{"constexpr",        TL,       P("value"),                                             0,   bi_constexpr,            false},
	{"pointer_type",     TL,       P("element_ty", "address_space"),                       1,   bi_pointer_type,         false},
	{"range",            TL|PY,    P("*args"),                                             0,   bi_range,                false},
	{"static_range",     TL,       P("*args"),                                             0,   bi_range,                false},
	{"inline_asm_elementwise", TL, P("asm", "constraints", "args", "dtype", "is_pure", "pack",
	                                 "cpu"),                                               6,   sema_bi_inline_asm,      false},
	/* tensor descriptors (sema_builtins_desc.c) */
	{"make_tensor_descriptor", TL, P("base", "shape", "strides", "block_shape", "padding_option"),
	                                                                                       4,   sema_bi_make_tensor_descriptor, false},
	{"_experimental_make_tensor_descriptor", TL, P("base", "shape", "strides", "block_shape",
	                                         "padding_option"),                            4,   sema_bi_make_tensor_descriptor, false},
	{"load",             DS,       P("self", "offsets"),                                   2,   sema_bi_desc_method,     true},
	{"store",            DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_add",       DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_min",       DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_max",       DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_and",       DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_or",        DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	{"atomic_xor",       DS,       P("self", "offsets", "value"),                          3,   sema_bi_desc_method,     true},
	/* methods of dtypes (sema_dtype.c) */
	{"is_fp8",          DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp8e4nv",      DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp8e4b8",      DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp8e4b15",     DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp8e5",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp8e5b16",     DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp16",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_bf16",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp32",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_fp64",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int1",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_bool",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int8",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int16",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int32",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int64",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_uint8",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_uint16",       DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_uint32",       DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_uint64",       DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_floating",     DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_standard_floating", DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int",          DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int_signed",   DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_int_unsigned", DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_ptr",          DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_block",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_const",        DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"is_void",         DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"get_block_shapes", DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"get_int_max_value", DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"get_int_min_value", DT,       P("self"),                                              1,   sema_bi_dtype_method,    true},
	{"with_element_ty", DT,       P("self", "element_ty"),                                2,   sema_bi_dtype_method,    true},
	/* Python builtins */
	{"min",              PY,       P("*args"),                                             0,   sema_bi_py_minmax,       false},
	{"max",              PY,       P("*args"),                                             0,   sema_bi_py_minmax,       false},
	{"float",            PY,       P("x"),                                                 0,   sema_bi_py_float,        false},
	{"int",              PY,       P("x"),                                                 0,   sema_bi_py_int,          false},
	{"bool",             PY,       P("x"),                                                 0,   sema_bi_py_bool,         false},
	{"len",              PY,       P("obj"),                                               1,   sema_bi_py_len,          false},
	{"abs",              PY,       P("x"),                                                 1,   sema_bi_py_abs,          false},
	{"print",            PY,       P("*args", "sep", "end", "file", "flush"),              0,   bi_device_print,         false},
	/* triton */
	{"next_power_of_2",  TR,       P("n"),                                                 1,   sema_bi_next_power_of_2, false},
	{"get_int_dtype",    TL,       P("bitwidth", "signed"),                                2,   sema_bi_get_int_dtype,   false},
	{"_log2",            TS,       P("i"),                                                 1,   sema_bi_log2_floor,      false},
	/* import math */
	{"log",              PM,       P("x", "base"),                                         1,   sema_bi_pymath,          false},
	{"log2",             PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"log10",            PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"sqrt",             PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"exp",              PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"exp2",             PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"pow",              PM,       P("x", "y"),                                            2,   sema_bi_pymath,          false},
	{"fabs",             PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"ceil",             PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"floor",            PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"trunc",            PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"isnan",            PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"isinf",            PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"isfinite",         PM,       P("x"),                                                 1,   sema_bi_pymath,          false},
	{"gcd",              PM,       P("a", "b"),                                            1,   sema_bi_pymath,          false},
	/* torch (sema_torch.c) */
	{"finfo",            TO,       P("type"),                                              0,   sema_bi_torch_info,      false},
	{"iinfo",            TO,       P("type"),                                              1,   sema_bi_torch_info,      false},
};

const int sema_num_builtins = (int)(sizeof sema_builtins / sizeof sema_builtins[0]);

/* A method-only entry (ns 0: x.to) matches the method lookup, which asks for tl and
 * tl.math together. */
int sema_find_builtin(const char *name, unsigned ns)
{
	bool method_lookup = (ns & SEMA_NS_TL) && (ns & SEMA_NS_MATH);
	for (int i = 0; i < sema_num_builtins; i++) {
		const sema_builtin *e = &sema_builtins[i];
		if (strcmp(e->name, name))
			continue;
		if ((e->ns & ns) || (e->ns == 0 && method_lookup))
			return i;
	}
	return -1;
}

int sema_find_method(const char *name)
{
	for (int i = 0; i < sema_num_builtins; i++)
		if (sema_builtins[i].method && !strcmp(sema_builtins[i].name, name))
			return i;
	return -1;
}

const ir_type *sema_dtype_by_name(sema *s, const char *name)
{
	static const struct {
		const char *name;
		ir_type_kind kind;
	} dtypes[] = {
		/* name         kind */
		{"int1",        IR_I1},
		{"int8",        IR_I8},
		{"int16",       IR_I16},
		{"int32",       IR_I32},
		{"int64",       IR_I64},
		{"uint8",       IR_U8},
		{"uint16",      IR_U16},
		{"uint32",      IR_U32},
		{"uint64",      IR_U64},
		{"float8e4nv",  IR_F8E4NV},
		{"float8e5",    IR_F8E5},
		{"float16",     IR_F16},
		{"bfloat16",    IR_BF16},
		{"float32",     IR_F32},
		{"float64",     IR_F64},
	};
	for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (!strcmp(dtypes[i].name, name))
			return ir_type_scalar(s->ctx, dtypes[i].kind);
	return NULL;
}

/* ---- binding -------------------------------------------------------------------------------- */

static const char *qualname(sema *s, const sema_builtin *e, bool method)
{
	if (e->ns & SEMA_NS_DTYPE)
		return arena_printf(s->a, "dtype.%s", e->name);
	if (e->ns & SEMA_NS_DESC)
		return arena_printf(s->a, "tensor_descriptor.%s", e->name);
	if (method && !(e->ns & (SEMA_NS_TL | SEMA_NS_MATH)))
		return arena_printf(s->a, "tensor.%s", e->name);
	if (e->ns & SEMA_NS_TL)
		return arena_printf(s->a, "tl.%s", e->name);
	if (e->ns & SEMA_NS_MATH)
		return arena_printf(s->a, "tl.math.%s", e->name);
	if (e->ns & SEMA_NS_TRITON)
		return arena_printf(s->a, "triton.%s", e->name);
	if (e->ns & SEMA_NS_PYMATH)
		return arena_printf(s->a, "math.%s", e->name);
	if (e->ns & SEMA_NS_TORCH)
		return arena_printf(s->a, "torch.%s", e->name);
	if (e->ns & SEMA_NS_TLSTD)
		return arena_printf(s->a, "triton.language.standard.%s", e->name);
	return e->name;
}

sval sema_call_builtin(sema *s, int id, const sema_args *a)
{
	const sema_builtin *e = &sema_builtins[id];
	sval slot[12];
	srcloc sloc[12];
	bool filled[12] = {0};
	int np = 0, var = -1;
	for (int i = 0; i < 12; i++) {
		slot[i] = (sval){.kind = SV_UNDEF};
		sloc[i] = a->loc;
	}
	while (np < 12 && e->params[np])
		np++;
	for (int i = 0; i < np; i++)
		if (e->params[i][0] == '*')
			var = i;
	/* positional: the receiver, then the call's arguments */
	int off = a->self ? 1 : 0, total = a->npos + off, k = 0;
#define POS(j) ((j) < off ? *a->self : a->pos[(j) - off])
#define POSLOC(j) ((j) < off ? a->loc : a->pos_loc[(j) - off])
	for (int i = 0; i < np && k < total; i++) {
		if (i == var) {
			int n = total - k;
			sval *items = ARENA_NEWN(s->a, sval, n);
			for (int j = 0; j < n; j++)
				items[j] = POS(k + j);
			slot[i] = sv_tuple(s, n, items);
			sloc[i] = POSLOC(k);
			filled[i] = true;
			k = total;
			break;
		}
		slot[i] = POS(k);
		sloc[i] = POSLOC(k);
		filled[i] = true;
		k++;
	}
	if (k < total) {
		int most = var >= 0 ? var : np;
		sema_fail(s, a->loc, "'%s' takes at most %d argument%s (%d given)",
			  qualname(s, e, a->self), most, most == 1 ? "" : "s", total);
	}
#undef POS
#undef POSLOC
	for (int j = 0; j < a->nkw; j++) {
		const ast_keyword *kw = &a->kws[j];
		int i = 0;
		while (i < np && (i == var || strcmp(e->params[i], kw->name)))
			i++;
		if (i == np)
			sema_fail(s, kw->loc, "'%s' got an unexpected keyword argument '%s'",
				  qualname(s, e, a->self), kw->name);
		if (filled[i])
			sema_fail(s, kw->loc, "'%s' got multiple values for argument '%s'",
				  qualname(s, e, a->self), kw->name);
		slot[i] = a->kw[j];
		sloc[i] = kw->value ? kw->value->loc : kw->loc;
		filled[i] = true;
	}
	for (int i = 0; i < e->required && i < np; i++)
		if (!filled[i])
			sema_fail(s, a->loc, "'%s' missing required argument '%s'", qualname(s, e, a->self),
				  e->params[i]);
	sema_at(s, a->loc);
	return e->fn(s, a, slot, sloc, id);
}
