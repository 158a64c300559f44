/* lower_cpu.c: tile IR to LLVM IR for CPUs (x86-64 and riscv64).
 *
 * A program instance is one call of the kernel's function. A tile lives in a buffer (an
 * alloca in the entry block, row-major, one element after another); an op on tiles is a
 * loop over the elements, written so that LLVM's loop vectorizer turns it into target
 * vectors (AVX2 / AVX-512, or scalable RVV with predicated tails). Scalars are SSA values.
 * Contiguous loads and stores (from the axis analysis) become loops over consecutive
 * addresses, which vectorize into masked vector loads; tl.dot is a register-tiled
 * micro-kernel over explicit vectors; reductions reassociate like Triton's trees.
 *
 * Values are immutable, so ops that keep the element order (reshape, expand_dims, the
 * hints) alias their operand's buffer. Loop-carried tiles get buffers of their own, and
 * `yield` copies into them (through temporaries when the yielded buffers are themselves
 * carried, so that swaps work). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "codegen/cg.h"
#include "codegen/lower.h"
#include "codegen/lower_cpu.h"
#include "transforms/axis_info.h"

/* ---- values -----------------------------------------------------------------------------
 *
 * A tile value is either in a buffer, or lazy: an element-wise or index-mapping op whose
 * element i can be computed on demand from its operands' elements i (or remapped indices).
 * Lazy values fuse chains like `ptr + offs`, `offs < n`, `x * scale + b` into the loop of
 * their consumer, so that pointer tiles and masks are never stored. A lazy value is put in
 * a buffer where it is defined when recomputing it would cost (it is used more than once,
 * or inside a nested region, and holds an expensive op; or its expression grew large). */

typedef struct tv {
	LLVMValueRef buf;  /* the buffer, or NULL while lazy */
	LLVMValueRef shift; /* pointer tiles: every element is buf's advanced by this many
			     * elements (i64; a `for` carries such a tile without rewriting
			     * it, lower_for), or NULL */
	const ir_op *op;   /* the defining op of a lazy value */
	int weight;        /* size of the lazy expression tree */
	bool expensive;    /* the tree holds a division or a math function */
	LLVMValueRef entry; /* a tile with a shift, carried by a `for`: the branch into the
			     * loop (code before it runs once per entry into the loop) */
	LLVMValueRef src;  /* a lazy broadcast: its operand computed into this buffer (an
			    * expensive operand that the broadcast would recompute for every
			    * copy of each element), or NULL */
} tv;

static bool is_tile(const ir_type *t)
{
	return t->kind == IR_TILE;
}

static int64_t numel(const ir_type *t)
{
	return ir_type_numel(t);
}

static tv *tile_of(cg *c, const ir_value *v)
{
	tv *t = ir_ptrmap_get(&c->vals, v);
	if (!t)
		cg_fail(c, v->def, "internal: value used before it was lowered");
	return t;
}

static LLVMValueRef materialize(cg *c, const ir_value *v);

/* A scalar's LLVM value, or a tile's buffer (a lazy tile gets a fresh buffer here). */
static LLVMValueRef get(cg *c, const ir_value *v)
{
	if (is_tile(v->type))
		return materialize(c, v);
	LLVMValueRef x = ir_ptrmap_get(&c->vals, v);
	if (!x)
		cg_fail(c, v->def, "internal: value used before it was lowered");
	return x;
}

static void put(cg *c, const ir_value *v, void *x)
{
	if (!ir_ptrmap_put(&c->vals, v, x))
		cg_fail(c, v->def, "out of memory");
}

/* Binds a scalar value, or a tile to its buffer. */
static void set(cg *c, const ir_value *v, LLVMValueRef x)
{
	if (is_tile(v->type)) {
		tv *t = ARENA_NEW(c->a, tv);
		t->buf = x;
		put(c, v, t);
		return;
	}
	put(c, v, x);
}

/* A buffer for a tile of type t, in the entry block. */
static LLVMValueRef alloc_tile(cg *c, const ir_type *t)
{
	return cpu_alloca(c, LLVMArrayType2(cg_mem_type(c, t->elem), (uint64_t)numel(t)), "tile");
}

static LLVMValueRef elem_ptr(cg *c, LLVMValueRef buf, const ir_type *elem, LLVMValueRef i)
{
	return LLVMBuildGEP2(c->b, cg_mem_type(c, elem), buf, &i, 1, "");
}

static LLVMValueRef load_elem(cg *c, LLVMValueRef buf, const ir_type *elem, LLVMValueRef i)
{
	LLVMValueRef v = LLVMBuildLoad2(c->b, cg_mem_type(c, elem), elem_ptr(c, buf, elem, i), "");
	if (elem->kind == IR_I1)
		v = LLVMBuildTrunc(c->b, v, c->t_i1, "");
	return v;
}

static void store_elem(cg *c, LLVMValueRef buf, const ir_type *elem, LLVMValueRef i, LLVMValueRef v)
{
	if (elem->kind == IR_I1)
		v = LLVMBuildZExt(c->b, v, c->t_i8, "");
	LLVMBuildStore(c->b, v, elem_ptr(c, buf, elem, i));
}

static LLVMValueRef lazy_elem(cg *c, const ir_op *op, LLVMValueRef i);

/* The element of v at linear index i: buffers are read, lazy tiles computed, scalars
 * broadcast. */
static LLVMValueRef elem(cg *c, const ir_value *v, LLVMValueRef i)
{
	if (!is_tile(v->type))
		return get(c, v);
	tv *t = tile_of(c, v);
	if (t->buf && t->shift)
		return LLVMBuildGEP2(c->b, cg_mem_type(c, v->type->elem->elem), load_elem(c, t->buf, v->type->elem, i),
				     &t->shift, 1, "");
	if (t->buf)
		return load_elem(c, t->buf, v->type->elem, i);
	return lazy_elem(c, t->op, i);
}

static LLVMValueRef operand_elem(cg *c, const ir_value *v, LLVMValueRef i)
{
	return elem(c, v, i);
}

static void copy_tile(cg *c, LLVMValueRef dst, LLVMValueRef src, const ir_type *t)
{
	if (dst == src)
		return;
	uint64_t bytes = (uint64_t)numel(t) * (t->elem->kind == IR_I1 ? 1 : (uint64_t)ir_type_bits(t->elem) / 8);
	if (t->elem->kind == IR_F8E4NV || t->elem->kind == IR_F8E5)
		bytes = (uint64_t)numel(t);
	LLVMBuildMemCpy(c->b, dst, 16, src, 16, cg_i64(c, (int64_t)bytes));
}

/* Writes every element of v into out. */
static void fill_from(cg *c, LLVMValueRef out, const ir_value *v)
{
	cgloop l;
	LLVMValueRef i = loop_open(c, &l, numel(v->type));
	store_elem(c, out, v->type->elem, i, elem(c, v, i));
	loop_close(c, &l);
}

/* ---- lazy tiles ---------------------------------------------------------------------------- */

static LLVMValueRef masked_load(cg *c, LLVMValueRef p, const ir_type *e, LLVMValueRef m,
				LLVMValueRef other, bool vol);

/* Divisions and math functions are worth a buffer when their result is reused. */
static bool costly(const ir_op *op)
{
	switch (op->code) {
	case IR_OP_DIVI: case IR_OP_REMI: case IR_OP_DIVF: case IR_OP_REMF: case IR_OP_EXP:
	case IR_OP_EXP2: case IR_OP_LOG: case IR_OP_LOG2: case IR_OP_SQRT: case IR_OP_RSQRT:
	case IR_OP_SIN: case IR_OP_COS: case IR_OP_TANH: case IR_OP_ERF: case IR_OP_FTOI:
	case IR_OP_TAN: case IR_OP_ASIN: case IR_OP_ACOS: case IR_OP_ATAN: case IR_OP_SINH:
	case IR_OP_COSH: case IR_OP_LOG1P: case IR_OP_EXPM1: case IR_OP_LOG10: case IR_OP_EXP10:
	case IR_OP_CBRT: case IR_OP_ERFINV: case IR_OP_POW: case IR_OP_ATAN2: case IR_OP_FMOD:
	case IR_OP_HYPOT: case IR_OP_ILOGB:
	case IR_OP_TRUNCF: case IR_OP_EXTF: case IR_OP_LOAD:
		return true;
	default:
		return false;
	}
}

/* The source index of result element i for ops that move elements around. */
static LLVMValueRef remap(cg *c, const ir_op *op, LLVMValueRef i)
{
	const ir_type *rt = op->results[0].type, *st = op->operands[0]->type;
	int64_t sst[16];
	LLVMValueRef idx[16], sidx[16];
	if (!is_tile(st))
		return NULL; /* a broadcast scalar */
	cg_strides(st, sst);
	cg_unflatten(c, rt, i, idx);
	if (op->code == IR_OP_BROADCAST) {
		for (int d = 0; d < rt->rank; d++)
			if (st->shape[d] == 1)
				idx[d] = NULL;
		return cg_flatten(c, sst, idx, rt->rank);
	}
	/* trans: result dim d is source dim order[d] */
	const ir_attr *ord = ir_op_attr(op, "order");
	for (int d = 0; d < rt->rank; d++)
		sidx[ord->ints.v[d]] = idx[d];
	return cg_flatten(c, sst, sidx, rt->rank);
}

static LLVMValueRef lazy_elem(cg *c, const ir_op *op, LLVMValueRef i)
{
	const ir_type *rt = op->results[0].type;
	LLVMValueRef a[4];
	if (ir_ops[op->code].traits & T_ELEMENTWISE) {
		for (int k = 0; k < op->noperands; k++)
			a[k] = elem(c, op->operands[k], i);
		return cg_scalar_op(c, op, a, rt->elem);
	}
	switch (op->code) {
	case IR_OP_CONSTANT:
		return cg_const_value(c, op, rt->elem);
	case IR_OP_MAKE_RANGE:
		return LLVMBuildAdd(c->b, LLVMBuildTrunc(c->b, i, c->t_i32, ""),
				    cg_i32(c, ir_op_int(op, "start", 0)), "");
	case IR_OP_SPLAT:
		return get(c, op->operands[0]);
	case IR_OP_LOAD: {
		const ir_value *m = op->noperands > 1 ? op->operands[1] : NULL;
		const ir_value *o = op->noperands > 2 ? op->operands[2] : NULL;
		LLVMValueRef addr = elem(c, op->operands[0], i);
		return masked_load(c, addr, rt->elem, m ? elem(c, m, i) : NULL, o ? elem(c, o, i) : NULL,
				   ir_op_int(op, "volatile", 0) != 0);
	}
	case IR_OP_BROADCAST:
	case IR_OP_TRANS: {
		LLVMValueRef src = remap(c, op, i);
		LLVMValueRef sbuf = tile_of(c, &op->results[0])->src;
		if (src && sbuf)
			return load_elem(c, sbuf, op->operands[0]->type->elem, src);
		return src ? elem(c, op->operands[0], src) : get(c, op->operands[0]);
	}
	default: /* expand_dims, reshape and the hints keep the element order */
		return elem(c, op->operands[0], i);
	}
}

static void fill_from(cg *c, LLVMValueRef out, const ir_value *v);

/* A buffer holding v: its own if it has one, else a fresh one filled now (not kept, since
 * this point need not dominate v's other uses). */
static LLVMValueRef materialize(cg *c, const ir_value *v)
{
	tv *t = tile_of(c, v);
	if (t->buf && !t->shift)
		return t->buf;
	LLVMValueRef out = alloc_tile(c, v->type);
	fill_from(c, out, v);
	return out;
}

/* Binds result `res` of op as a lazy tile, or computes it into a buffer right here when
 * recomputing it at each use would cost more. */
static void define_lazy(cg *c, const ir_op *op, int res)
{
	const ir_value *v = &op->results[res];
	tv *t = ARENA_NEW(c->a, tv);
	t->op = op;
	t->weight = 1;
	t->expensive = costly(op);
	for (int k = 0; k < op->noperands; k++) {
		const ir_value *x = op->operands[k];
		if (!is_tile(x->type))
			continue;
		tv *xt = tile_of(c, x);
		if (!xt->buf) {
			t->weight += xt->weight;
			t->expensive |= xt->expensive;
		}
	}
	put(c, v, t);
	intptr_t uses = (intptr_t)ir_ptrmap_get(&c->uses, v);
	if (t->weight > 48 || (t->expensive && uses > 1)) {
		LLVMValueRef out = alloc_tile(c, v->type);
		fill_from(c, out, v);
		t->buf = out;
	}
}

static bool writes_memory(const ir_op *op)
{
	if (ir_ops[op->code].traits & T_WRITE)
		return true;
	for (int r = 0; r < op->nregions; r++)
		for (const ir_op *x = op->regions[r]->first; x; x = x->next)
			if (writes_memory(x))
				return true;
	return false;
}

/* A tile load may be evaluated lazily, fused into the loop of its consumer, when every
 * value computed from it is used in the same block (not in a nested region) and no op
 * that writes memory runs between the load and the last op of that chain.
 *
 * Decided for every load of a block at once, in one backward sweep over the block: for
 * each op, the position of the last op of the block its results reach through uses in the
 * block (last[]) and whether they reach a nested region (nested[]); a prefix count of the
 * ops that write memory answers "any write in between" for each load. Linear in the
 * block's size and its uses (a walk per load would make big kernels quadratic). */
static void plan_lazy_loads(cg *c, const ir_block *b)
{
	int n = 0;
	for (const ir_op *op = b->first; op; op = op->next)
		n++;
	if (!n)
		return;
	ir_ptrmap pos = {0};
	int *last = malloc(sizeof(int) * (size_t)n), *writes = malloc(sizeof(int) * ((size_t)n + 1));
	bool *nested = calloc((size_t)n, sizeof(bool));
	const ir_op **at = malloc(sizeof(*at) * (size_t)n);
	if (!last || !writes || !nested || !at) {
		free(last), free(writes), free(nested), free(at);
		return; /* no lazy loads: slower code, still right */
	}
	int i = 0;
	writes[0] = 0;
	for (const ir_op *op = b->first; op; op = op->next, i++) {
		at[i] = op;
		ir_ptrmap_put(&pos, op, (void *)(intptr_t)(i + 1));
		writes[i + 1] = writes[i] + writes_memory(op);
	}
	for (i = n - 1; i >= 0; i--) {
		last[i] = -1;
		for (int k = 0; k < at[i]->nresults; k++)
			for (const ir_use *u = at[i]->results[k].uses; u; u = u->next) {
				if (u->user->parent != b) {
					nested[i] = true;
					continue;
				}
				int j = (int)(intptr_t)ir_ptrmap_get(&pos, u->user) - 1;
				if (j <= i)
					continue; /* not in the block's order: no chain through it */
				int reach = last[j] > j ? last[j] : j;
				if (reach > last[i])
					last[i] = reach;
				nested[i] |= nested[j];
			}
	}
	for (i = 0; i < n; i++) {
		const ir_op *ld = at[i];
		if (ld->code != IR_OP_LOAD || !is_tile(ld->results[0].type) ||
		    ld->operands[0]->type->kind != IR_TILE)
			continue;
		if (!nested[i] && last[i] > i && writes[last[i]] - writes[i + 1] == 0)
			ir_ptrmap_put(&c->lazy_loads, ld, (void *)ld);
	}
	free(last), free(writes), free(nested), free(at);
	ir_ptrmap_free(&pos);
	for (const ir_op *op = b->first; op; op = op->next)
		for (int r = 0; r < op->nregions; r++)
			plan_lazy_loads(c, op->regions[r]);
}

/* Counts the uses of every value of block b (nested regions count as many uses). */
static void count_uses(cg *c, const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int k = 0; k < op->noperands; k++) {
			const ir_value *x = op->operands[k];
			const ir_block *home = x->def ? x->def->parent : x->block;
			intptr_t n = (intptr_t)ir_ptrmap_get(&c->uses, x);
			n += home == b ? 1 : 100;
			ir_ptrmap_put(&c->uses, x, (void *)n);
		}
		for (int r = 0; r < op->nregions; r++)
			count_uses(c, op->regions[r]);
	}
}

/* ---- element-wise ops ------------------------------------------------------------------- */

static void lower_elementwise(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type;
	LLVMValueRef a[4];
	if (!is_tile(rt)) {
		for (int k = 0; k < op->noperands; k++)
			a[k] = get(c, op->operands[k]);
		set(c, &op->results[0], cg_scalar_op(c, op, a, rt));
		return;
	}
	define_lazy(c, op, 0);
}

/* ---- creation and shape ops -------------------------------------------------------------- */

static void lower_constant(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type;
	LLVMValueRef v = cg_const_value(c, op, ir_type_elem(rt));
	if (!is_tile(rt)) {
		set(c, &op->results[0], v);
		return;
	}
	define_lazy(c, op, 0);
}

/* Row-major strides of a shape. */
/* Splits linear index i of shape t into per-dimension indices. */
static void lower_shape(cg *c, const ir_op *op)
{
	const ir_value *x = op->noperands ? op->operands[0] : NULL;
	const ir_type *rt = op->results[0].type;
	cgloop l;
	LLVMValueRef i, out;
	switch (op->code) {
	case IR_OP_PROGRAM_ID:
	case IR_OP_NUM_PROGRAMS: {
		int64_t axis = ir_op_int(op, "axis", 0);
		unsigned n = LLVMCountParams(c->fn);
		unsigned base = n - 6 + (op->code == IR_OP_NUM_PROGRAMS ? 3 : 0);
		set(c, &op->results[0], LLVMGetParam(c->fn, base + (unsigned)axis));
		return;
	}
	case IR_OP_BROADCAST:
		if (is_tile(x->type) && !tile_of(c, x)->buf && tile_of(c, x)->expensive && numel(rt) >= 4 * numel(x->type)) {
			/* (pid * BM + arange(0, BM)) % M broadcast to BM x BK pointers: the
			 * remainders once each into a buffer, not BK times */
			tv *t = ARENA_NEW(c->a, tv);
			t->op = op;
			t->weight = 1;
			t->src = materialize(c, x);
			put(c, &op->results[0], t);
			return;
		}
		define_lazy(c, op, 0);
		return;
	case IR_OP_MAKE_RANGE:
	case IR_OP_SPLAT:
	case IR_OP_TRANS:
		define_lazy(c, op, 0);
		return;
	case IR_OP_EXPAND_DIMS:
	case IR_OP_RESHAPE:
	case IR_OP_MULTIPLE_OF:
	case IR_OP_MAX_CONTIGUOUS:
		/* the row-major element order is unchanged: share the operand's tile (or scalar) */
		put(c, &op->results[0], ir_ptrmap_get(&c->vals, x));
		return;
	case IR_OP_JOIN: {
		out = alloc_tile(c, rt);
		i = loop_open(c, &l, numel(x->type));
		LLVMValueRef two = LLVMBuildShl(c->b, i, cg_i64(c, 1), "");
		store_elem(c, out, rt->elem, two, operand_elem(c, op->operands[0], i));
		store_elem(c, out, rt->elem, LLVMBuildAdd(c->b, two, cg_i64(c, 1), ""),
			   operand_elem(c, op->operands[1], i));
		loop_close(c, &l);
		set(c, &op->results[0], out);
		return;
	}
	case IR_OP_GATHER: {
		/* into a buffer of its own: a gather reads its source out of order, so the source
		 * is materialized once rather than recomputed at each index */
		const ir_value *ix = op->operands[1];
		LLVMValueRef src = get(c, x);
		out = alloc_tile(c, rt);
		i = loop_open(c, &l, numel(rt));
		LLVMValueRef si = cg_gather_index(c, op, i, elem(c, ix, i));
		store_elem(c, out, rt->elem, i, load_elem(c, src, rt->elem, si));
		loop_close(c, &l);
		set(c, &op->results[0], out);
		return;
	}
	case IR_OP_SPLIT: {
		const ir_type *ht = op->results[0].type;
		LLVMValueRef o0 = is_tile(ht) ? alloc_tile(c, ht) : NULL;
		LLVMValueRef o1 = is_tile(ht) ? alloc_tile(c, ht) : NULL;
		if (!is_tile(ht)) {
			set(c, &op->results[0], elem(c, x, cg_i64(c, 0)));
			set(c, &op->results[1], elem(c, x, cg_i64(c, 1)));
			return;
		}
		i = loop_open(c, &l, numel(ht));
		LLVMValueRef two = LLVMBuildShl(c->b, i, cg_i64(c, 1), "");
		store_elem(c, o0, ht->elem, i, elem(c, x, two));
		store_elem(c, o1, ht->elem, i, elem(c, x, LLVMBuildAdd(c->b, two, cg_i64(c, 1), "")));
		loop_close(c, &l);
		set(c, &op->results[0], o0);
		set(c, &op->results[1], o1);
		return;
	}
	default:
		cg_fail(c, op, "internal: not a shape op");
	}
}

/* ---- memory ------------------------------------------------------------------------------- */

/* How many consecutive elements along the last dimension the pointer tile advances by
 * one element each (1 when unknown). Always divides the last dimension. */
static int64_t contiguous_run(cg *c, const ir_value *ptrs)
{
	const ir_type *t = ptrs->type;
	if (!c->ai || !is_tile(t))
		return 1;
	const axis_val *av = axis_lookup(c->ai, ptrs);
	int64_t last = t->shape[t->rank - 1];
	int64_t run = av->contiguity[t->rank - 1];
	if (run < 1)
		run = 1;
	if (run > last)
		run = last;
	while (last % run)
		run--;
	return run;
}

/* A conditional block: positions the builder in `then` when cond holds; returns the join. */
static LLVMBasicBlockRef cond_open(cg *c, LLVMValueRef cond)
{
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "then");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "join");
	LLVMBuildCondBr(c->b, cond, then, join);
	LLVMPositionBuilderAtEnd(c->b, then);
	return join;
}

static void cond_close(cg *c, LLVMBasicBlockRef join)
{
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, join);
}

/* Loads one element from p (of element type e) when m (may be NULL) holds, else other. */
static LLVMValueRef masked_load(cg *c, LLVMValueRef p, const ir_type *e, LLVMValueRef m,
				LLVMValueRef other, bool vol)
{
	LLVMTypeRef mt = cg_mem_type(c, e);
	if (!m) {
		LLVMValueRef v = LLVMBuildLoad2(c->b, mt, p, "");
		if (vol)
			LLVMSetVolatile(v, 1);
		return e->kind == IR_I1 ? LLVMBuildTrunc(c->b, v, c->t_i1, "") : v;
	}
	LLVMValueRef dflt = other ? other : LLVMConstNull(mt);
	if (other && e->kind == IR_I1)
		dflt = LLVMBuildZExt(c->b, other, c->t_i8, "");
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef join = cond_open(c, m);
	LLVMBasicBlockRef then = LLVMGetInsertBlock(c->b);
	LLVMValueRef v = LLVMBuildLoad2(c->b, mt, p, "");
	if (vol)
		LLVMSetVolatile(v, 1);
	cond_close(c, join);
	LLVMValueRef phi = LLVMBuildPhi(c->b, mt, "");
	LLVMValueRef vals[2] = {v, dflt};
	LLVMBasicBlockRef bbs[2] = {then, pre};
	LLVMAddIncoming(phi, vals, bbs, 2);
	return e->kind == IR_I1 ? LLVMBuildTrunc(c->b, phi, c->t_i1, "") : phi;
}

static void masked_store(cg *c, LLVMValueRef p, const ir_type *e, LLVMValueRef m, LLVMValueRef v)
{
	if (e->kind == IR_I1)
		v = LLVMBuildZExt(c->b, v, c->t_i8, "");
	if (!m) {
		LLVMBuildStore(c->b, v, p);
		return;
	}
	LLVMBasicBlockRef join = cond_open(c, m);
	LLVMBuildStore(c->b, v, p);
	cond_close(c, join);
}

/* Block pointers are small structs in memory: base, shape[r], strides[r], offsets[r]. */
static LLVMTypeRef bptr_type(cg *c, int rank)
{
	LLVMTypeRef f[4] = {c->t_ptr, LLVMArrayType2(c->t_i64, (uint64_t)rank),
			    LLVMArrayType2(c->t_i64, (uint64_t)rank), LLVMArrayType2(c->t_i32, (uint64_t)rank)};
	return LLVMStructTypeInContext(c->ctx, f, 4, 0);
}

static LLVMValueRef bptr_field(cg *c, LLVMValueRef bp, int rank, unsigned field, int d)
{
	LLVMTypeRef st = bptr_type(c, rank);
	LLVMValueRef idx[3] = {cg_i32(c, 0), cg_i32(c, field), cg_i32(c, d)};
	return LLVMBuildGEP2(c->b, st, bp, idx, field == 0 ? 2 : 3, "");
}

static LLVMValueRef alloc_bptr(cg *c, int rank)
{
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(c->b);
	LLVMValueRef term = LLVMGetBasicBlockTerminator(c->entry);
	if (term)
		LLVMPositionBuilderBefore(c->b, term);
	else
		LLVMPositionBuilderAtEnd(c->b, c->entry);
	LLVMValueRef a = LLVMBuildAlloca(c->b, bptr_type(c, rank), "bptr");
	LLVMPositionBuilderAtEnd(c->b, cur);
	return a;
}

static void lower_block_ptr(cg *c, const ir_op *op)
{
	const ir_type *tt = op->results[0].type->elem;
	int r = tt->rank;
	LLVMValueRef bp = alloc_bptr(c, r);
	if (op->code == IR_OP_MAKE_BLOCK_PTR) {
		LLVMBuildStore(c->b, get(c, op->operands[0]), bptr_field(c, bp, r, 0, 0));
		for (int d = 0; d < r; d++) {
			LLVMBuildStore(c->b, get(c, op->operands[1 + d]), bptr_field(c, bp, r, 1, d));
			LLVMBuildStore(c->b, get(c, op->operands[1 + r + d]), bptr_field(c, bp, r, 2, d));
			LLVMBuildStore(c->b, get(c, op->operands[1 + 2 * r + d]), bptr_field(c, bp, r, 3, d));
		}
	} else { /* advance: read everything first, then write (bp may be the source) */
		LLVMValueRef src = get(c, op->operands[0]);
		LLVMTypeRef st = bptr_type(c, r);
		LLVMValueRef whole = LLVMBuildLoad2(c->b, st, src, "");
		for (int d = 0; d < r; d++) {
			unsigned off_idx[2] = {3, (unsigned)d};
			LLVMValueRef o = LLVMBuildExtractValue(c->b, LLVMBuildExtractValue(c->b, whole, off_idx[0], ""),
							       off_idx[1], "");
			o = LLVMBuildAdd(c->b, o, get(c, op->operands[1 + d]), "");
			LLVMValueRef arr = LLVMBuildExtractValue(c->b, whole, 3, "");
			arr = LLVMBuildInsertValue(c->b, arr, o, (unsigned)d, "");
			whole = LLVMBuildInsertValue(c->b, whole, arr, 3, "");
		}
		LLVMBuildStore(c->b, whole, bp);
	}
	set(c, &op->results[0], bp);
}

static bool has_int(const ir_attr *a, int64_t v)
{
	for (int i = 0; a && i < a->ints.n; i++)
		if (a->ints.v[i] == v)
			return true;
	return false;
}

/* Address and in-bounds flag of element i of a block-pointer tile access. */
static LLVMValueRef bptr_addr(cg *c, const ir_op *op, LLVMValueRef bp, const ir_type *tt,
			      LLVMValueRef i, LLVMValueRef *inb)
{
	int r = tt->rank;
	const ir_attr *bc = ir_op_attr(op, "boundary_check");
	LLVMValueRef idx[16];
	cg_unflatten(c, tt, i, idx);
	LLVMValueRef base = LLVMBuildLoad2(c->b, c->t_ptr, bptr_field(c, bp, r, 0, 0), "");
	LLVMValueRef off = cg_i64(c, 0);
	*inb = NULL;
	for (int d = 0; d < r; d++) {
		LLVMValueRef o = LLVMBuildSExt(c->b, LLVMBuildLoad2(c->b, c->t_i32, bptr_field(c, bp, r, 3, d), ""),
					       c->t_i64, "");
		LLVMValueRef pos = LLVMBuildAdd(c->b, o, idx[d], "");
		LLVMValueRef stride = LLVMBuildLoad2(c->b, c->t_i64, bptr_field(c, bp, r, 2, d), "");
		off = LLVMBuildAdd(c->b, off, LLVMBuildMul(c->b, pos, stride, ""), "");
		if (has_int(bc, d)) {
			LLVMValueRef shape = LLVMBuildLoad2(c->b, c->t_i64, bptr_field(c, bp, r, 1, d), "");
			LLVMValueRef ok = LLVMBuildAnd(c->b, LLVMBuildICmp(c->b, LLVMIntSGE, pos, cg_i64(c, 0), ""),
						       LLVMBuildICmp(c->b, LLVMIntSLT, pos, shape, ""), "");
			*inb = *inb ? LLVMBuildAnd(c->b, *inb, ok, "") : ok;
		}
	}
	return LLVMBuildGEP2(c->b, cg_mem_type(c, tt->elem), base, &off, 1, "");
}

static void load_runs(cg *c, const ir_op *op, LLVMValueRef out);

/* Whether tile load op is read by a dot (its A or B operand) and nothing else, may be
 * performed there instead (plan_lazy_loads: no write in between), and has rows of
 * consecutive addresses (B: or runs of a multiple of 16, whole vectors of the packing): the
 * dot then reads the rows where they are in memory when the mask holds everywhere
 * (dot_rows), and performs the load into a buffer only when it does not. */
static bool dot_reads_load(cg *c, const ir_op *op)
{
	const ir_value *r = &op->results[0];
	if (!is_tile(r->type) || r->type->rank < 2 || !ir_ptrmap_get(&c->lazy_loads, op) ||
	    ir_op_int(op, "volatile", 0) != 0 || (intptr_t)ir_ptrmap_get(&c->uses, r) != 1)
		return false;
	const ir_use *u = r->uses;
	if (!u || u->user->code != IR_OP_DOT || u->index > 1)
		return false;
	int64_t run = contiguous_run(c, op->operands[0]), cols = r->type->shape[r->type->rank - 1];
	return run == cols || (u->index == 1 && run % 16 == 0);
}

static void lower_load(cg *c, const ir_op *op)
{
	const ir_value *p = op->operands[0];
	const ir_value *m = op->noperands > 1 ? op->operands[1] : NULL;
	const ir_value *o = op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *rt = op->results[0].type;
	const ir_type *e = ir_type_elem(rt);
	bool vol = ir_op_int(op, "volatile", 0) != 0;
	cgloop l;
	if (ir_type_elem(p->type)->kind == IR_PTR && ir_type_elem(p->type)->elem->kind == IR_TILE &&
	    !is_tile(p->type)) {
		/* block pointer */
		const ir_type *tt = p->type->elem;
		const char *pad = NULL;
		const ir_attr *pa = ir_op_attr(op, "padding");
		if (pa && pa->kind == IR_ATTR_STR)
			pad = pa->s;
		LLVMValueRef out = alloc_tile(c, rt);
		LLVMValueRef i = loop_open(c, &l, numel(rt));
		LLVMValueRef inb;
		LLVMValueRef addr = bptr_addr(c, op, get(c, p), tt, i, &inb);
		LLVMValueRef dflt = NULL;
		if (inb && pad && !strcmp(pad, "nan") && ir_type_is_float(e))
			dflt = LLVMConstReal(cg_scalar_type(c, e), __builtin_nan(""));
		store_elem(c, out, e, i, masked_load(c, addr, e, inb, dflt, vol));
		loop_close(c, &l);
		set(c, &op->results[0], out);
		return;
	}
	if (!is_tile(rt)) {
		LLVMValueRef mv = m ? get(c, m) : NULL;
		set(c, &op->results[0], masked_load(c, get(c, p), e, mv, o ? get(c, o) : NULL, vol));
		return;
	}
	/* lazily only when the pointers are computed (affine in the index, so LLVM sees the
	 * contiguity), or when a dot reads the rows itself; pointers read from a buffer take
	 * the run-based loop of load_runs */
	if ((!tile_of(c, p)->buf && ir_ptrmap_get(&c->lazy_loads, op)) || dot_reads_load(c, op)) {
		define_lazy(c, op, 0);
		return;
	}
	LLVMValueRef out = alloc_tile(c, rt);
	load_runs(c, op, out);
	set(c, &op->results[0], out);
}

/* Performs tile load op into buffer out: one loop over the runs of consecutive addresses
 * (contiguous_run) with one pointer read per run, or one over the elements. */
static void load_runs(cg *c, const ir_op *op, LLVMValueRef out)
{
	const ir_value *p = op->operands[0];
	const ir_value *m = op->noperands > 1 ? op->operands[1] : NULL;
	const ir_value *o = op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *rt = op->results[0].type;
	const ir_type *e = ir_type_elem(rt);
	bool vol = ir_op_int(op, "volatile", 0) != 0;
	cgloop l;
	int64_t run = contiguous_run(c, p);
	if (run > 1) {
		/* runs of consecutive addresses: one base pointer per run */
		cgloop outer, inner;
		LLVMValueRef r = loop_open(c, &outer, numel(rt) / run);
		LLVMValueRef first = LLVMBuildMul(c->b, r, cg_i64(c, run), "");
		LLVMValueRef base = elem(c, p, first);
		LLVMValueRef j = loop_open(c, &inner, run);
		LLVMValueRef i = LLVMBuildAdd(c->b, first, j, "");
		LLVMValueRef addr = LLVMBuildGEP2(c->b, cg_mem_type(c, e), base, &j, 1, "");
		LLVMValueRef mv = m ? operand_elem(c, m, i) : NULL;
		LLVMValueRef ov = o ? operand_elem(c, o, i) : NULL;
		store_elem(c, out, e, i, masked_load(c, addr, e, mv, ov, vol));
		loop_close(c, &inner);
		loop_close(c, &outer);
	} else {
		LLVMValueRef i = loop_open(c, &l, numel(rt));
		LLVMValueRef addr = operand_elem(c, p, i);
		LLVMValueRef mv = m ? operand_elem(c, m, i) : NULL;
		LLVMValueRef ov = o ? operand_elem(c, o, i) : NULL;
		store_elem(c, out, e, i, masked_load(c, addr, e, mv, ov, vol));
		loop_close(c, &l);
	}
}

/* The mask m with the ops that keep "every element holds" looked through: a broadcast,
 * reshape, expand_dims or splat keeps it (the source's elements are all there). */
static const ir_value *mask_source(const ir_value *m)
{
	while (is_tile(m->type) && m->def &&
	       (m->def->code == IR_OP_BROADCAST || m->def->code == IR_OP_EXPAND_DIMS || m->def->code == IR_OP_RESHAPE ||
		m->def->code == IR_OP_SPLAT))
		m = m->def->operands[0];
	return m;
}

/* The number of elements all_true reads for m: the leaves below the broadcasts and the
 * `&`s, a scalar counting 1. */
static int64_t all_true_cost(const ir_value *m)
{
	m = mask_source(m);
	if (!is_tile(m->type))
		return 1;
	if (m->def && m->def->code == IR_OP_ANDI)
		return all_true_cost(m->def->operands[0]) + all_true_cost(m->def->operands[1]);
	return numel(m->type);
}

/* Whether every element of mask m holds, as an i1; a broadcast, reshape or expand_dims
 * is looked through, so a mask along one axis costs that axis, and a & b is checked as
 * both (the bench matmul's (cm[:, None] < M) & (cn[None, :] < N): 2 x 128 compares, not
 * 128 x 128). */
static LLVMValueRef all_true(cg *c, const ir_value *m)
{
	m = mask_source(m);
	if (!is_tile(m->type))
		return get(c, m);
	if (m->def && m->def->code == IR_OP_ANDI && !tile_of(c, m)->buf)
		return LLVMBuildAnd(c->b, all_true(c, m->def->operands[0]), all_true(c, m->def->operands[1]), "");
	LLVMValueRef flag = cpu_alloca(c, c->t_i8, "all");
	LLVMBuildStore(c->b, LLVMConstInt(c->t_i8, 1, 0), flag);
	cgloop l;
	LLVMValueRef i = loop_open(c, &l, numel(m->type));
	LLVMValueRef x = LLVMBuildZExt(c->b, elem(c, m, i), c->t_i8, "");
	LLVMBuildStore(c->b, LLVMBuildAnd(c->b, LLVMBuildLoad2(c->b, c->t_i8, flag, ""), x, ""), flag);
	loop_close(c, &l);
	return LLVMBuildICmp(c->b, LLVMIntNE, LLVMBuildLoad2(c->b, c->t_i8, flag, ""), LLVMConstInt(c->t_i8, 0, 0), "");
}

static void lower_store(cg *c, const ir_op *op)
{
	const ir_value *p = op->operands[0], *v = op->operands[1];
	const ir_value *m = op->noperands > 2 ? op->operands[2] : NULL;
	cgloop l;
	if (!is_tile(p->type) && p->type->elem->kind == IR_TILE) {
		const ir_type *tt = p->type->elem;
		LLVMValueRef i = loop_open(c, &l, numel(tt));
		LLVMValueRef inb;
		LLVMValueRef addr = bptr_addr(c, op, get(c, p), tt, i, &inb);
		masked_store(c, addr, tt->elem, inb, operand_elem(c, v, i));
		loop_close(c, &l);
		return;
	}
	const ir_type *e = ir_type_elem(v->type);
	if (!is_tile(p->type)) {
		masked_store(c, get(c, p), e, m ? get(c, m) : NULL, get(c, v));
		return;
	}
	int64_t run = contiguous_run(c, p);
	if (run > 1) {
		/* a mask that is cheap to check everywhere (one along each axis, say), and
		 * holds everywhere in most programs: plain vector stores then, the masked ones
		 * (vmaskmovps, slow on AMD) only for the programs at the edges */
		LLVMBasicBlockRef join = NULL, slow = NULL;
		bool split = m && is_tile(m->type) && all_true_cost(m) * 8 <= numel(m->type);
		for (int pass = 0; pass < (split ? 2 : 1); pass++) {
			if (split && pass == 0) {
				LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "store.all");
				slow = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "store.masked");
				join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "store.done");
				LLVMBuildCondBr(c->b, all_true(c, m), fast, slow);
				LLVMPositionBuilderAtEnd(c->b, fast);
			} else if (split) {
				LLVMBuildBr(c->b, join);
				LLVMPositionBuilderAtEnd(c->b, slow);
			}
			const ir_value *mm = split && pass == 0 ? NULL : m;
			cgloop outer, inner;
			LLVMValueRef r = loop_open(c, &outer, numel(p->type) / run);
			LLVMValueRef first = LLVMBuildMul(c->b, r, cg_i64(c, run), "");
			LLVMValueRef base = elem(c, p, first);
			LLVMValueRef j = loop_open(c, &inner, run);
			LLVMValueRef i = LLVMBuildAdd(c->b, first, j, "");
			LLVMValueRef addr = LLVMBuildGEP2(c->b, cg_mem_type(c, e), base, &j, 1, "");
			masked_store(c, addr, e, mm ? operand_elem(c, mm, i) : NULL, operand_elem(c, v, i));
			loop_close(c, &inner);
			loop_close(c, &outer);
		}
		if (split) {
			LLVMBuildBr(c->b, join);
			LLVMPositionBuilderAtEnd(c->b, join);
		}
		return;
	}
	LLVMValueRef i = loop_open(c, &l, numel(p->type));
	masked_store(c, operand_elem(c, p, i), e, m ? operand_elem(c, m, i) : NULL, operand_elem(c, v, i));
	loop_close(c, &l);
}

static LLVMValueRef atomic_one(cg *c, const ir_op *op, LLVMValueRef p, LLVMValueRef m,
			       LLVMValueRef *vals, const ir_type *e)
{
	LLVMTypeRef mt = cg_mem_type(c, e);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b), join = NULL, then = pre;
	if (m) {
		join = cond_open(c, m);
		then = LLVMGetInsertBlock(c->b);
	}
	/* a program is one thread: the atomic is LLVM's, at the op's ordering; every scope is
	 * served by the system's (programs run on several threads of the pool) */
	cg_atomic a = cg_atomic_of(op, e);
	a.ptr = p;
	if (op->code == IR_OP_ATOMIC_CAS) {
		a.cmp = vals[0];
		a.val = vals[1];
	} else {
		a.val = vals[0];
	}
	LLVMValueRef r = cg_atomic_llvm(c, &a, cg_atomic_ordering(a.sem));
	if (!m)
		return r;
	cond_close(c, join);
	LLVMValueRef phi = LLVMBuildPhi(c->b, mt, "");
	LLVMValueRef vv[2] = {r, LLVMConstNull(mt)};
	LLVMBasicBlockRef bb[2] = {then, pre};
	LLVMAddIncoming(phi, vv, bb, 2);
	return phi;
}

static void lower_atomic(cg *c, const ir_op *op)
{
	const ir_value *p = op->operands[0];
	bool cas = op->code == IR_OP_ATOMIC_CAS;
	int nv = cas ? 2 : 1;
	const ir_value *m = !cas && op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *rt = op->results[0].type, *e = ir_type_elem(rt);
	LLVMValueRef vals[2];
	if (!is_tile(rt)) {
		for (int k = 0; k < nv; k++)
			vals[k] = get(c, op->operands[1 + k]);
		set(c, &op->results[0], atomic_one(c, op, get(c, p), m ? get(c, m) : NULL, vals, e));
		return;
	}
	LLVMValueRef out = alloc_tile(c, rt);
	cgloop l;
	LLVMValueRef i = loop_open(c, &l, numel(rt));
	for (int k = 0; k < nv; k++)
		vals[k] = operand_elem(c, op->operands[1 + k], i);
	LLVMValueRef r = atomic_one(c, op, operand_elem(c, p, i), m ? operand_elem(c, m, i) : NULL, vals, e);
	LLVMBuildStore(c->b, r, elem_ptr(c, out, e, i));
	loop_close(c, &l);
	set(c, &op->results[0], out);
}

/* ---- regions, reductions, scans ---------------------------------------------------------- */

static void lower_block(cg *c, const ir_block *b);
/* Runs a combine region on scalar inputs (2n block arguments); writes n results. */
static void combine(cg *c, const ir_block *region, LLVMValueRef *in, int n2, LLVMValueRef *out)
{
	for (int k = 0; k < n2; k++)
		set(c, region->args[k], in[k]);
	bool saved = c->reassoc;
	c->reassoc = true;
	lower_block(c, region);
	c->reassoc = saved;
	const ir_op *y = cg_terminator(region);
	for (int k = 0; y && k < y->noperands; k++)
		out[k] = get(c, y->operands[k]);
}

/* inline_asm: GPU assembly cannot run here; the op's CPU variant (its region, from
 * cpu=FN) runs element by element instead (pack only groups the GPU's calls, so it plays
 * no part here), and without one the kernel is refused. */
static void lower_inline_asm(cg *c, const ir_op *op)
{
	const ir_block *body = op->regions[0];
	const ir_op *y = cg_terminator(body);
	const ir_type *rt = op->results[0].type;
	int nres = op->nresults;
	if (!y || y->noperands != nres)
		cg_fail(c, op, "tl.inline_asm_elementwise cannot run on a CPU target: give a CPU "
			       "variant with cpu=FN (a @triton.jit function of the same arguments; "
			       "docs/language.md)");
	if (nres > 8)
		cg_fail(c, op, "inline assembly with more than 8 results is not supported");
	LLVMValueRef in[16], out[8];
	int n = op->noperands < 16 ? op->noperands : 16;
	if (!is_tile(rt)) {
		for (int k = 0; k < n; k++)
			in[k] = get(c, op->operands[k]);
		combine(c, body, in, n, out);
		for (int r = 0; r < nres; r++)
			set(c, &op->results[r], out[r]);
		return;
	}
	cgloop l;
	LLVMValueRef buf[8];
	for (int r = 0; r < nres; r++)
		buf[r] = alloc_tile(c, op->results[r].type);
	LLVMValueRef i = loop_open(c, &l, numel(rt));
	for (int k = 0; k < n; k++)
		in[k] = elem(c, op->operands[k], i);
	combine(c, body, in, n, out);
	for (int r = 0; r < nres; r++)
		store_elem(c, buf[r], op->results[r].type->elem, i, out[r]);
	loop_close(c, &l);
	for (int r = 0; r < nres; r++)
		set(c, &op->results[r], buf[r]);
}

static void lower_reduce_scan(cg *c, const ir_op *op)
{
	int n = op->noperands;
	int64_t axis = ir_op_int(op, "axis", 0);
	bool scan = op->code == IR_OP_SCAN, reverse = scan && ir_op_int(op, "reverse", 0);
	const ir_type *t = op->operands[0]->type;
	if (n > 8)
		cg_fail(c, op, "reductions of more than 8 operands are not supported");
	int64_t outer = 1, inner = 1, K = t->shape[axis];
	for (int d = 0; d < axis; d++)
		outer *= t->shape[d];
	for (int d = (int)axis + 1; d < t->rank; d++)
		inner *= t->shape[d];
	const ir_block *region = op->regions[0];
	LLVMValueRef out_bufs[8];
	const ir_type *et[8];
	for (int k = 0; k < n; k++) {
		et[k] = op->operands[k]->type->elem;
		/* reductions accumulate into a buffer of outer*inner elements */
		const ir_type *rt = op->results[k].type;
		out_bufs[k] = alloc_tile(c, is_tile(rt) ? rt : ir_type_tile(c->f->module->ctx, rt, 1, (int64_t[]){1}));
	}
	LLVMValueRef acc[8], x[16], r[8];
	cgloop lo, lk, li;
	LLVMValueRef o = loop_open(c, &lo, outer);
	LLVMValueRef obase = LLVMBuildMul(c->b, o, cg_i64(c, K * inner), "");
	LLVMValueRef rbase = LLVMBuildMul(c->b, o, cg_i64(c, scan ? K * inner : inner), "");
	/* the lanes of the reduction below: 64, or fewer where K has no multiple of 64 */
	int64_t lanes = K % 64 == 0 ? 64 : K % 32 == 0 ? 32 : K % 16 == 0 ? 16 : 0;
	if (!scan && inner == 1 && K >= 32 && lanes) {
		/* reducing the last dimension: LANES partial results side by side, combined
		 * element-wise over the row (a loop LLVM vectorizes without recognising a
		 * reduction), then folded in order. Triton reduces in a tree, in no promised
		 * order, so this is as exact as it is. The lanes are the vectorized loop's trip
		 * count, so at most that many elements a step: with 16 the RVV loop at LMUL 4
		 * and VLEN 256 (32 floats a register) ran scalar. */
		const int64_t LANES = lanes;
		LLVMValueRef part[8];
		for (int k = 0; k < n; k++) {
			part[k] = alloc_tile(c, ir_type_tile(c->f->module->ctx, et[k], 1, (int64_t[]){LANES}));
			cgloop lj;
			LLVMValueRef j = loop_open(c, &lj, LANES);
			store_elem(c, part[k], et[k], j, elem(c, op->operands[k], LLVMBuildAdd(c->b, obase, j, "")));
			loop_close(c, &lj);
		}
		LLVMValueRef step = loop_open_range(c, &lk, cg_i64(c, 1), cg_i64(c, K / LANES));
		LLVMValueRef sbase = LLVMBuildAdd(c->b, obase, LLVMBuildMul(c->b, step, cg_i64(c, LANES), ""), "");
		cgloop lj;
		LLVMValueRef j = loop_open(c, &lj, LANES);
		for (int k = 0; k < n; k++) {
			x[k] = load_elem(c, part[k], et[k], j);
			x[n + k] = elem(c, op->operands[k], LLVMBuildAdd(c->b, sbase, j, ""));
		}
		combine(c, region, x, 2 * n, r);
		for (int k = 0; k < n; k++)
			store_elem(c, part[k], et[k], j, r[k]);
		loop_close_rolled(c, &lj);
		loop_close(c, &lk);
		/* fold the lanes in order */
		for (int k = 0; k < n; k++)
			acc[k] = load_elem(c, part[k], et[k], cg_i64(c, 0));
		for (int l = 1; l < LANES; l++) {
			for (int k = 0; k < n; k++) {
				x[k] = acc[k];
				x[n + k] = load_elem(c, part[k], et[k], cg_i64(c, l));
			}
			combine(c, region, x, 2 * n, acc);
		}
		for (int k = 0; k < n; k++)
			store_elem(c, out_bufs[k], et[k], o, acc[k]);
	} else if (inner == 1) {
		/* reducing (or scanning) the last dimension: a scalar accumulator per operand */
		int64_t k0 = reverse ? K - 1 : 0;
		for (int k = 0; k < n; k++) {
			acc[k] = elem(c, op->operands[k], LLVMBuildAdd(c->b, obase, cg_i64(c, k0), ""));
			if (scan)
				store_elem(c, out_bufs[k], et[k], LLVMBuildAdd(c->b, rbase, cg_i64(c, k0), ""), acc[k]);
		}
		LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
		LLVMValueRef kk = loop_open_range(c, &lk, cg_i64(c, 1), cg_i64(c, K));
		LLVMValueRef phis[8];
		for (int k = 0; k < n; k++) {
			/* the accumulators are phis in the loop header */
			LLVMBasicBlockRef body = LLVMGetInsertBlock(c->b);
			LLVMPositionBuilderBefore(c->b, LLVMGetNextInstruction(lk.iv));
			phis[k] = LLVMBuildPhi(c->b, cg_scalar_type(c, et[k]), "acc");
			LLVMAddIncoming(phis[k], &acc[k], &pre, 1);
			LLVMPositionBuilderAtEnd(c->b, body);
		}
		LLVMValueRef pos = reverse ? LLVMBuildSub(c->b, cg_i64(c, K - 1), kk, "") : kk;
		for (int k = 0; k < n; k++) {
			x[k] = phis[k];
			x[n + k] = elem(c, op->operands[k], LLVMBuildAdd(c->b, obase, pos, ""));
		}
		combine(c, region, x, 2 * n, r);
		for (int k = 0; k < n; k++) {
			if (scan)
				store_elem(c, out_bufs[k], et[k], LLVMBuildAdd(c->b, rbase, pos, ""), r[k]);
			LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
			LLVMAddIncoming(phis[k], &r[k], &latch, 1);
		}
		loop_close(c, &lk);
		if (!scan)
			for (int k = 0; k < n; k++)
				store_elem(c, out_bufs[k], et[k], o, phis[k]);
	} else {
		/* an inner dimension remains: element-wise over it, which vectorizes */
		int64_t k0 = reverse ? K - 1 : 0;
		LLVMValueRef ii = loop_open(c, &li, inner);
		for (int k = 0; k < n; k++)
			store_elem(c, out_bufs[k], et[k],
				   LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, rbase, cg_i64(c, scan ? k0 * inner : 0), ""), ii, ""),
				   elem(c, op->operands[k],
					LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, obase, cg_i64(c, k0 * inner), ""), ii, "")));
		loop_close(c, &li);
		LLVMValueRef kk = loop_open_range(c, &lk, cg_i64(c, 1), cg_i64(c, K));
		LLVMValueRef pos = reverse ? LLVMBuildSub(c->b, cg_i64(c, K - 1), kk, "") : kk;
		LLVMValueRef prev = reverse ? LLVMBuildAdd(c->b, pos, cg_i64(c, 1), "") : LLVMBuildSub(c->b, pos, cg_i64(c, 1), "");
		ii = loop_open(c, &li, inner);
		LLVMValueRef src = LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, obase, LLVMBuildMul(c->b, pos, cg_i64(c, inner), ""), ""), ii, "");
		LLVMValueRef dst = scan ? LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, rbase, LLVMBuildMul(c->b, pos, cg_i64(c, inner), ""), ""), ii, "")
					: LLVMBuildAdd(c->b, rbase, ii, "");
		LLVMValueRef accp = scan ? LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, rbase, LLVMBuildMul(c->b, prev, cg_i64(c, inner), ""), ""), ii, "")
					 : dst;
		for (int k = 0; k < n; k++) {
			x[k] = load_elem(c, out_bufs[k], et[k], accp);
			x[n + k] = elem(c, op->operands[k], src);
		}
		combine(c, region, x, 2 * n, r);
		for (int k = 0; k < n; k++)
			store_elem(c, out_bufs[k], et[k], dst, r[k]);
		loop_close(c, &li);
		loop_close(c, &lk);
	}
	loop_close(c, &lo);
	for (int k = 0; k < n; k++) {
		const ir_type *rt = op->results[k].type;
		if (is_tile(rt))
			set(c, &op->results[k], out_bufs[k]);
		else
			set(c, &op->results[k], load_elem(c, out_bufs[k], rt, cg_i64(c, 0)));
	}
}

/* ---- dot: operands in buffers for lower_cpu_dot.c's micro-kernel ------------------------- */

/* Converts a tile to the compute type (f32, f64 or i32) into a new buffer. */
static LLVMValueRef to_compute(cg *c, const ir_op *op, const ir_value *v, const ir_type *ct)
{
	const ir_type *t = v->type;
	tv *tt = tile_of(c, v);
	if (t->elem == ct && tt->buf && !tt->shift)
		return tt->buf;
	const ir_type *nt = ir_type_with_elem(c->f->module->ctx, t, ct);
	LLVMValueRef out = alloc_tile(c, nt);
	cgloop l;
	LLVMValueRef i = loop_open(c, &l, numel(t));
	LLVMValueRef x = elem(c, v, i);
	if (t->elem != ct) {
		ir_op conv = {0};
		if (ir_type_is_float(ct))
			conv.code = ir_type_is_float(t->elem)
					? (ir_type_bits(t->elem) < ir_type_bits(ct) || t->elem->kind == IR_F8E4NV ||
							   t->elem->kind == IR_F8E5
						   ? IR_OP_EXTF
						   : IR_OP_TRUNCF)
					: IR_OP_ITOF;
		else
			conv.code = ir_type_bits(t->elem) < 32 ? IR_OP_EXTI
				    : ir_type_bits(t->elem) > 32 ? IR_OP_TRUNCI : IR_OP_BITCAST;
		conv.loc = op->loc;
		x = cg_convert(c, &conv, x, t->elem, ct);
	}
	store_elem(c, out, ct, i, x);
	loop_close(c, &l);
	return out;
}

/* Whether the dot may write its result over its accumulator operand's buffer: the operand
 * is a tile carried by a `for` (its buffer is the loop's own, written only by the yield) and
 * the dot is its only use, so nothing reads the old value afterwards. The yield then finds
 * the result already in place, and the per-iteration copies of the accumulator vanish. */
static bool dot_in_place(cg *c, const ir_value *acc, const ir_type *ct)
{
	if (acc->def || !acc->block || !acc->block->parent || acc->block->parent->code != IR_OP_FOR)
		return false;
	if (acc->type->elem != ct || !tile_of(c, acc)->buf || tile_of(c, acc)->shift)
		return false;
	return (intptr_t)ir_ptrmap_get(&c->uses, acc) == 1;
}

/* Whether v is a splat of the constant zero (tl.zeros), so the dot starts from zeros
 * instead of reading a buffer of them. */
static bool is_zero_tile(const ir_value *v)
{
	const ir_op *d = v->def;
	if (!d || d->code != IR_OP_CONSTANT || !is_tile(v->type))
		return false;
	const ir_attr *a = ir_op_attr(d, "value");
	if (!a)
		return false;
	return (a->kind == IR_ATTR_INT && a->i == 0) || (a->kind == IR_ATTR_FLOAT && a->f == 0 && !signbit(a->f));
}

/* Fills rows[r] with the address of run r of the buffer buf (elements of type e, runs of
 * `run` elements one after another, nruns in all). */
static void rows_of_buffer(cg *c, LLVMValueRef rows, LLVMValueRef buf, const ir_type *e, int64_t nruns, int64_t run)
{
	cgloop l;
	LLVMValueRef r = loop_open(c, &l, nruns);
	LLVMValueRef off = LLVMBuildMul(c->b, r, cg_i64(c, run), "");
	LLVMBuildStore(c->b, elem_ptr(c, buf, e, off), LLVMBuildGEP2(c->b, c->t_ptr, rows, &r, 1, ""));
	loop_close(c, &l);
}

/* An array of the addresses of the rows of dot operand `which` (0: A, 1: B; the batches'
 * rows one after another), whose elements have type *etype: the compute type ct, or for B
 * any type cpu_dot_packs_from converts. When the operand is a load that the dot performs
 * (dot_reads_load) of the right type, the rows are where the load reads them if its mask
 * holds everywhere, and a buffer the load is performed into if not; other operands are
 * buffers (converted to ct when need be). */
static LLVMValueRef dot_rows(cg *c, const ir_op *op, int which, const ir_type *ct, const ir_type **etype,
			     bool *from_memory, int64_t *run_out, LLVMValueRef *shift_out)
{
	*from_memory = false;
	*shift_out = NULL;
	const ir_value *v = op->operands[which];
	const ir_type *t = v->type;
	int64_t cols = t->shape[t->rank - 1], nrows = numel(t) / cols;
	tv *tt = tile_of(c, v);
	const ir_op *ld = !tt->buf && tt->op && tt->op->code == IR_OP_LOAD && dot_reads_load(c, tt->op) ? tt->op : NULL;
	bool as_is = t->elem == ct || (which == 1 && cpu_dot_packs_from(c, t->elem, ct));
	if (ld && !as_is) {
		/* performed here into a buffer, then converted */
		tt->buf = alloc_tile(c, t);
		load_runs(c, ld, tt->buf);
		ld = NULL;
	}
	/* B's rows may come in runs of consecutive addresses shorter than a row */
	int64_t run = ld && which == 1 ? contiguous_run(c, ld->operands[0]) : cols;
	*run_out = run;
	LLVMValueRef rows = cpu_alloca(c, LLVMArrayType2(c->t_ptr, (uint64_t)(nrows * (cols / run))), "rows");
	if (!ld) {
		LLVMValueRef buf;
		if (as_is && tt->buf && !tt->shift) {
			buf = tt->buf;
			*etype = t->elem;
		} else {
			buf = to_compute(c, op, v, ct);
			*etype = ct;
		}
		rows_of_buffer(c, rows, buf, *etype, nrows, cols);
		return rows;
	}
	*etype = t->elem;
	*from_memory = true;
	const ir_value *m = ld->noperands > 1 ? ld->operands[1] : NULL;
	LLVMBasicBlockRef slow = NULL, join = NULL;
	if (m) {
		LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "dot.inplace");
		slow = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "dot.masked");
		join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "dot.rows");
		LLVMBuildCondBr(c->b, all_true(c, m), fast, slow);
		LLVMPositionBuilderAtEnd(c->b, fast);
	}
	/* the rows where they are: the micro-kernel reads a block of MR rows of A for every
	 * panel of B while it is in L1, and B's rows once, when it packs them */
	LLVMValueRef buf = alloc_tile(c, t);
	int64_t nruns = nrows * (cols / run);
	const ir_value *ptrs = ld->operands[0];
	tv *pt = tile_of(c, ptrs);
	LLVMValueRef fast_rows = rows, fast_shift = NULL;
	if (pt->buf && pt->shift && pt->entry) {
		/* a pointer tile that the loop around advances by a scalar: its runs' first
		 * addresses are gathered once per entry into the loop, and the shift added as the
		 * rows are read (gathering them every iteration read a line of the pointer tile
		 * per run) */
		LLVMValueRef done = cpu_alloca(c, c->t_i8, "rows.done");
		LLVMBasicBlockRef cur = LLVMGetInsertBlock(c->b);
		LLVMPositionBuilderBefore(c->b, pt->entry);
		LLVMBuildStore(c->b, LLVMConstInt(c->t_i8, 0, 0), done);
		LLVMPositionBuilderAtEnd(c->b, cur);
		LLVMValueRef first = LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildLoad2(c->b, c->t_i8, done, ""),
						  LLVMConstInt(c->t_i8, 0, 0), "");
		LLVMBasicBlockRef join_once = cond_open(c, first);
		cgloop l;
		LLVMValueRef r = loop_open(c, &l, nruns);
		LLVMValueRef off = LLVMBuildMul(c->b, r, cg_i64(c, run), "");
		LLVMBuildStore(c->b, load_elem(c, pt->buf, ptrs->type->elem, off), LLVMBuildGEP2(c->b, c->t_ptr, rows, &r, 1, ""));
		loop_close(c, &l);
		LLVMBuildStore(c->b, LLVMConstInt(c->t_i8, 1, 0), done);
		cond_close(c, join_once);
		fast_shift = LLVMBuildMul(c->b, pt->shift, cg_i64(c, ir_type_bits(t->elem) / 8), "");
	} else {
		cgloop l;
		LLVMValueRef r = loop_open(c, &l, nruns);
		LLVMValueRef off = LLVMBuildMul(c->b, r, cg_i64(c, run), "");
		LLVMValueRef p = elem(c, ptrs, off);
		LLVMBuildStore(c->b, p, LLVMBuildGEP2(c->b, c->t_ptr, rows, &r, 1, ""));
		loop_close(c, &l);
	}
	if (!m) {
		*shift_out = fast_shift;
		return fast_rows;
	}
	LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(c->b);
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, slow);
	/* the masked load into a buffer: rows of its own, no shift */
	LLVMValueRef slow_rows = fast_shift ? cpu_alloca(c, LLVMArrayType2(c->t_ptr, (uint64_t)nruns), "rows") : rows;
	load_runs(c, ld, buf);
	rows_of_buffer(c, slow_rows, buf, t->elem, nruns, run);
	LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(c->b);
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, join);
	if (!fast_shift)
		return rows;
	LLVMBasicBlockRef from[2] = {fast_end, slow_end};
	LLVMValueRef rp = LLVMBuildPhi(c->b, c->t_ptr, "rows");
	LLVMValueRef rv[2] = {fast_rows, slow_rows};
	LLVMAddIncoming(rp, rv, from, 2);
	LLVMValueRef sp = LLVMBuildPhi(c->b, c->t_i64, "rows.shift");
	LLVMValueRef sv[2] = {fast_shift, cg_i64(c, 0)};
	LLVMAddIncoming(sp, sv, from, 2);
	*shift_out = sp;
	return rp;
}

static void lower_dot(cg *c, const ir_op *op)
{
	const ir_type *at = op->operands[0]->type;
	const ir_type *rt = op->results[0].type;
	ir_context *ctx = c->f->module->ctx;
	const ir_type *re = rt->elem;
	const ir_type *ct = ir_type_is_float(re) ? ir_type_scalar(ctx, re->kind == IR_F64 ? IR_F64 : IR_F32)
						 : ir_type_scalar(ctx, IR_I32);
	cpu_dot d = {.ct = ct, .batch = rt->rank == 3 ? rt->shape[0] : 1, .m = rt->shape[rt->rank - 2],
		     .n = rt->shape[rt->rank - 1], .k = at->shape[at->rank - 1]};
	const ir_type *ae;
	int64_t a_run;
	d.a_rows = dot_rows(c, op, 0, ct, &ae, &d.a_next, &a_run, &d.a_shift);
	d.b_rows = dot_rows(c, op, 1, ct, &d.b_elem, &d.b_prefetch, &d.b_run, &d.b_shift);
	const ir_value *acc = op->operands[2];
	const ir_type *outt = ir_type_with_elem(ctx, rt, ct);
	if (dot_in_place(c, acc, ct)) {
		d.out = d.acc = tile_of(c, acc)->buf;
	} else {
		d.acc = is_zero_tile(acc) ? NULL : to_compute(c, op, acc, ct);
		d.out = alloc_tile(c, outt);
	}
	cpu_dot_lower(c, &d);
	LLVMValueRef out = d.out;
	if (re != ct) {
		bool fl = ir_type_is_float(ct);
		LLVMValueRef fin = alloc_tile(c, rt);
		cgloop l;
		LLVMValueRef i = loop_open(c, &l, numel(rt));
		ir_op conv = {.code = fl ? (ir_type_bits(re) < ir_type_bits(ct) ? IR_OP_TRUNCF : IR_OP_EXTF) : IR_OP_TRUNCI,
			      .loc = op->loc};
		store_elem(c, fin, re, i, cg_convert(c, &conv, load_elem(c, out, ct, i), ct, re));
		loop_close(c, &l);
		out = fin;
	}
	set(c, &op->results[0], out);
}

/* ---- structured control flow ------------------------------------------------------------- */

/* Copies yielded values into destination buffers as one parallel assignment (dst[k] NULL:
 * slot k is not copied). */
static void yield_into(cg *c, const ir_op *y, LLVMValueRef *dst, const ir_type *const *types, int n)
{
	LLVMValueRef tmp[256];
	for (int k = 0; k < n; k++) {
		tmp[k] = NULL;
		if (!is_tile(types[k]) || !dst[k])
			continue;
		LLVMValueRef src = get(c, y->operands[k]);
		for (int j = 0; j < n; j++)
			if (j != k && dst[j] == src) {
				tmp[k] = alloc_tile(c, types[k]);
				copy_tile(c, tmp[k], src, types[k]);
			}
	}
	for (int k = 0; k < n; k++)
		if (is_tile(types[k]) && dst[k])
			copy_tile(c, dst[k], tmp[k] ? tmp[k] : get(c, y->operands[k]), types[k]);
}

/* The step of a pointer tile that a `for` advances uniformly: when slot k of the loop body's
 * yield y is `addptr(arg, splat(s))` or `addptr(arg, constant)` of the slot's own argument,
 * the op that gives the step (the splat or the constant), else NULL. Such a tile is carried
 * as its initial buffer and a scalar offset (tv.shift), so the loop never rewrites it. */
static const ir_op *uniform_step(const ir_block *body, const ir_op *y, int k)
{
	const ir_value *v = y->operands[k];
	if (!is_tile(v->type) || v->type->elem->kind != IR_PTR || !v->def || v->def->code != IR_OP_ADDPTR)
		return NULL;
	if (v->def->operands[0] != body->args[1 + k])
		return NULL;
	const ir_op *s = v->def->operands[1]->def;
	if (!s || (s->code != IR_OP_SPLAT && s->code != IR_OP_CONSTANT))
		return NULL;
	return s;
}

/* The scalar value of step op s (uniform_step) as an i64 element count. */
static LLVMValueRef step_value(cg *c, const ir_op *s)
{
	const ir_type *et = s->results[0].type->elem;
	LLVMValueRef x = s->code == IR_OP_SPLAT ? get(c, s->operands[0]) : cg_const_value(c, s, et);
	if (LLVMTypeOf(x) == c->t_i64)
		return x;
	return ir_type_is_signed(et) ? LLVMBuildSExt(c->b, x, c->t_i64, "") : LLVMBuildZExt(c->b, x, c->t_i64, "");
}

static void lower_for(cg *c, const ir_op *op)
{
	int n = op->nresults;
	const ir_block *body = op->regions[0];
	LLVMValueRef lb = get(c, op->operands[0]), ub = get(c, op->operands[1]), step = get(c, op->operands[2]);
	const ir_type *it = op->operands[0]->type;
	bool sgn = ir_type_is_signed(it);
	LLVMValueRef carry[256], shift0[256], shift[256];
	const ir_type *types[256];
	const ir_op *y = cg_terminator(body);
	const ir_op *steps[256];
	for (int k = 0; k < n; k++) {
		types[k] = op->results[k].type;
		steps[k] = y ? uniform_step(body, y, k) : NULL;
		if (steps[k]) {
			/* values are immutable and this buffer is never written: no copy */
			tv *it = tile_of(c, op->operands[3 + k]);
			carry[k] = get(c, op->operands[3 + k]);
			shift0[k] = it->buf && it->shift ? it->shift : cg_i64(c, 0);
			if (it->buf && it->shift)
				carry[k] = it->buf;
			continue;
		}
		LLVMValueRef init = get(c, op->operands[3 + k]);
		if (is_tile(types[k])) {
			carry[k] = alloc_tile(c, types[k]);
			copy_tile(c, carry[k], init, types[k]);
		} else {
			carry[k] = init;
		}
	}
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for");
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.done");
	LLVMValueRef entry = LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, head);
	LLVMValueRef iv = LLVMBuildPhi(c->b, LLVMTypeOf(lb), "iv");
	LLVMAddIncoming(iv, &lb, &pre, 1);
	LLVMValueRef phis[256];
	for (int k = 0; k < n; k++)
		if (!is_tile(types[k])) {
			phis[k] = LLVMBuildPhi(c->b, cg_scalar_type(c, types[k]), "");
			LLVMAddIncoming(phis[k], &carry[k], &pre, 1);
		} else if (steps[k]) {
			shift[k] = LLVMBuildPhi(c->b, c->t_i64, "shift");
			LLVMAddIncoming(shift[k], &shift0[k], &pre, 1);
		}
	LLVMBuildCondBr(c->b, cg_range_cond(c, iv, ub, step, sgn), bb, done);
	LLVMPositionBuilderAtEnd(c->b, bb);
	set(c, body->args[0], iv);
	for (int k = 0; k < n; k++) {
		set(c, body->args[1 + k], is_tile(types[k]) ? carry[k] : phis[k]);
		if (steps[k]) {
			tile_of(c, body->args[1 + k])->shift = shift[k];
			tile_of(c, body->args[1 + k])->entry = entry;
		}
	}
	lower_block(c, body);
	LLVMValueRef dst[256], nshift[256];
	for (int k = 0; k < n; k++) {
		dst[k] = steps[k] ? NULL : carry[k];
		if (steps[k])
			nshift[k] = LLVMBuildAdd(c->b, shift[k], step_value(c, steps[k]), "");
	}
	yield_into(c, y, dst, types, n);
	LLVMValueRef next = LLVMBuildAdd(c->b, iv, step, "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	LLVMAddIncoming(iv, &next, &latch, 1);
	for (int k = 0; k < n; k++)
		if (!is_tile(types[k])) {
			LLVMValueRef v = get(c, y->operands[k]);
			LLVMAddIncoming(phis[k], &v, &latch, 1);
		} else if (steps[k]) {
			LLVMAddIncoming(shift[k], &nshift[k], &latch, 1);
		}
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, done);
	for (int k = 0; k < n; k++) {
		set(c, &op->results[k], is_tile(types[k]) ? carry[k] : phis[k]);
		if (steps[k])
			tile_of(c, &op->results[k])->shift = shift[k];
	}
}

static void lower_if(cg *c, const ir_op *op)
{
	int n = op->nresults;
	LLVMValueRef cond = get(c, op->operands[0]);
	LLVMValueRef res[256];
	const ir_type *types[256];
	for (int k = 0; k < n; k++) {
		types[k] = op->results[k].type;
		res[k] = is_tile(types[k]) ? alloc_tile(c, types[k]) : NULL;
	}
	LLVMBasicBlockRef arms[2] = {LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.then"),
				     LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.else")};
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.join");
	LLVMBuildCondBr(c->b, cond, arms[0], arms[1]);
	LLVMValueRef sv[2][256];
	LLVMBasicBlockRef ends[2];
	for (int a = 0; a < 2; a++) {
		LLVMPositionBuilderAtEnd(c->b, arms[a]);
		lower_block(c, op->regions[a]);
		const ir_op *y = cg_terminator(op->regions[a]);
		yield_into(c, y, res, types, n);
		for (int k = 0; k < n; k++)
			if (!is_tile(types[k]))
				sv[a][k] = get(c, y->operands[k]);
		ends[a] = LLVMGetInsertBlock(c->b);
		LLVMBuildBr(c->b, join);
	}
	LLVMPositionBuilderAtEnd(c->b, join);
	for (int k = 0; k < n; k++) {
		if (is_tile(types[k])) {
			set(c, &op->results[k], res[k]);
			continue;
		}
		LLVMValueRef phi = LLVMBuildPhi(c->b, cg_scalar_type(c, types[k]), "");
		LLVMValueRef vals[2] = {sv[0][k], sv[1][k]};
		LLVMAddIncoming(phi, vals, ends, 2);
		set(c, &op->results[k], phi);
	}
}

static void lower_while(cg *c, const ir_op *op)
{
	int n = op->nresults;
	const ir_block *before = op->regions[0], *after = op->regions[1];
	LLVMValueRef carry[256], res[256];
	const ir_type *types[256];
	for (int k = 0; k < n; k++) {
		types[k] = op->results[k].type;
		LLVMValueRef init = get(c, op->operands[k]);
		if (is_tile(types[k])) {
			carry[k] = alloc_tile(c, types[k]);
			copy_tile(c, carry[k], init, types[k]);
			res[k] = alloc_tile(c, types[k]);
		} else {
			carry[k] = init;
		}
	}
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while");
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while.done");
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, head);
	LLVMValueRef phis[256];
	for (int k = 0; k < n; k++) {
		if (is_tile(types[k])) {
			set(c, before->args[k], carry[k]);
		} else {
			phis[k] = LLVMBuildPhi(c->b, cg_scalar_type(c, types[k]), "");
			LLVMAddIncoming(phis[k], &carry[k], &pre, 1);
			set(c, before->args[k], phis[k]);
		}
	}
	lower_block(c, before);
	const ir_op *cnd = cg_terminator(before);
	/* the condition's values are the loop's results and the body's arguments */
	LLVMValueRef vals[256];
	for (int k = 0; k < n; k++) {
		vals[k] = get(c, cnd->operands[1 + k]);
		if (is_tile(types[k]))
			copy_tile(c, res[k], vals[k], types[k]);
	}
	LLVMBasicBlockRef cend = LLVMGetInsertBlock(c->b);
	LLVMBuildCondBr(c->b, get(c, cnd->operands[0]), bb, done);
	LLVMPositionBuilderAtEnd(c->b, bb);
	for (int k = 0; k < n; k++)
		set(c, after->args[k], is_tile(types[k]) ? res[k] : vals[k]);
	lower_block(c, after);
	const ir_op *y = cg_terminator(after);
	yield_into(c, y, carry, types, n);
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	for (int k = 0; k < n; k++)
		if (!is_tile(types[k])) {
			LLVMValueRef v = get(c, y->operands[k]);
			LLVMAddIncoming(phis[k], &v, &latch, 1);
		}
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, done);
	(void)cend;
	for (int k = 0; k < n; k++)
		set(c, &op->results[k], is_tile(types[k]) ? res[k] : vals[k]);
}

static void lower_assert(cg *c, const ir_op *op)
{
	const ir_value *cv = op->operands[0];
	const ir_attr *ma = ir_op_attr(op, "msg");
	const char *msg = ma && ma->kind == IR_ATTR_STR && ma->s[0] ? ma->s : "device_assert";
	LLVMTypeRef pt[4] = {c->t_ptr, c->t_ptr, c->t_i32, c->t_ptr};
	LLVMTypeRef fty = LLVMFunctionType(c->t_void, pt, 4, 0);
	LLVMValueRef f = LLVMGetNamedFunction(c->mod, "__assert_fail");
	if (!f)
		f = LLVMAddFunction(c->mod, "__assert_fail", fty);
	const char *file = diag_file_name(c->d, op->loc.file);
	cgloop l;
	LLVMValueRef i = NULL;
	if (is_tile(cv->type))
		i = loop_open(c, &l, numel(cv->type));
	LLVMValueRef ok = i ? operand_elem(c, cv, i) : get(c, cv);
	LLVMBasicBlockRef join = cond_open(c, LLVMBuildNot(c->b, ok, ""));
	LLVMValueRef args[4] = {LLVMBuildGlobalStringPtr(c->b, msg, "msg"),
				LLVMBuildGlobalStringPtr(c->b, file ? file : "<kernel>", "file"),
				cg_i32(c, op->loc.line), LLVMBuildGlobalStringPtr(c->b, c->f->name, "fn")};
	LLVMBuildCall2(c->b, fty, f, args, 4, "");
	cond_close(c, join);
	if (i)
		loop_close(c, &l);
}

static void lower_op(cg *c, const ir_op *op)
{
	cg_debug_loc(c, op->loc);
	unsigned tr = ir_ops[op->code].traits;
	if (tr & T_ELEMENTWISE) {
		lower_elementwise(c, op);
		return;
	}
	switch (op->code) {
	case IR_OP_CONSTANT: lower_constant(c, op); return;
	case IR_OP_PROGRAM_ID: case IR_OP_NUM_PROGRAMS: case IR_OP_MAKE_RANGE: case IR_OP_SPLAT:
	case IR_OP_BROADCAST: case IR_OP_EXPAND_DIMS: case IR_OP_RESHAPE: case IR_OP_TRANS:
	case IR_OP_JOIN: case IR_OP_SPLIT: case IR_OP_MULTIPLE_OF: case IR_OP_MAX_CONTIGUOUS:
	case IR_OP_GATHER:
		lower_shape(c, op);
		return;
	case IR_OP_LOAD: lower_load(c, op); return;
	case IR_OP_STORE: lower_store(c, op); return;
	case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS: lower_atomic(c, op); return;
	case IR_OP_MAKE_BLOCK_PTR: case IR_OP_ADVANCE: lower_block_ptr(c, op); return;
	case IR_OP_DOT: lower_dot(c, op); return;
	case IR_OP_REDUCE: case IR_OP_SCAN: lower_reduce_scan(c, op); return;
	case IR_OP_INLINE_ASM: lower_inline_asm(c, op); return;
	case IR_OP_FOR: lower_for(c, op); return;
	case IR_OP_IF: lower_if(c, op); return;
	case IR_OP_WHILE: lower_while(c, op); return;
	case IR_OP_YIELD: case IR_OP_CONDITION: return; /* read by the parent */
	case IR_OP_RETURN: LLVMBuildRetVoid(c->b); return;
	case IR_OP_ASSERT: lower_assert(c, op); return;
	case IR_OP_BARRIER: return; /* one thread runs a program on CPUs */
	default: cg_fail(c, op, "the CPU backend cannot lower '%s' yet", ir_ops[op->code].name);
	}
}

static void lower_block(cg *c, const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next)
		lower_op(c, op);
}

/* ---- the kernel's functions ---------------------------------------------------------------- */

/* The ABI type of a runtime parameter (docs/abi.md): i1 as a byte, fp16/bf16 as raw bits. */
int lower_cpu_func(cg *c, const ir_func *f, const char *target_family)
{
	c->f = f;
	memset(&c->uses, 0, sizeof c->uses);
	count_uses(c, f->body);
	memset(&c->lazy_loads, 0, sizeof c->lazy_loads);
	plan_lazy_loads(c, f->body);
	int np = f->body->nargs;
	/* in the arena, as every record of the lowering: a cg_fail longjmps past this function */
	LLVMTypeRef *pt = ARENA_NEWN(c->a, LLVMTypeRef, np + 6);
	if (!pt)
		cg_fail(c, NULL, "out of memory");
	for (int i = 0; i < np; i++)
		pt[i] = cg_abi_type(c, f->body->args[i]->type);
	for (int i = 0; i < 6; i++)
		pt[np + i] = c->t_i32;
	LLVMTypeRef fty = LLVMFunctionType(c->t_void, pt, (unsigned)np + 6, 0);
	c->fn = LLVMAddFunction(c->mod, f->name, fty);
	cg_debug_begin(c, f, c->fn);
	c->entry = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "entry");
	LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "start");
	LLVMPositionBuilderAtEnd(c->b, start);
	for (int i = 0; i < np; i++)
		set(c, f->body->args[i], cg_from_abi(c, f->body->args[i]->type, LLVMGetParam(c->fn, (unsigned)i)));
	lower_block(c, f->body);
	LLVMPositionBuilderAtEnd(c->b, c->entry);
	LLVMBuildBr(c->b, start);
	cg_debug_end(c); /* the wrapper below carries no source lines */

	/* NAME__grid(void **args, nx, ny, nz, first, last) */
	char name[512];
	snprintf(name, sizeof name, "%s__grid", f->name);
	LLVMTypeRef gpt[6] = {c->t_ptr, c->t_i32, c->t_i32, c->t_i32, c->t_i64, c->t_i64};
	LLVMValueRef g = LLVMAddFunction(c->mod, name, LLVMFunctionType(c->t_void, gpt, 6, 0));
	LLVMValueRef saved_fn = c->fn;
	c->fn = g;
	LLVMBasicBlockRef ge = LLVMAppendBasicBlockInContext(c->ctx, g, "entry");
	LLVMPositionBuilderAtEnd(c->b, ge);
	LLVMValueRef *args = ARENA_NEWN(c->a, LLVMValueRef, np + 6);
	if (!args)
		cg_fail(c, NULL, "out of memory");
	for (int i = 0; i < np; i++) {
		LLVMValueRef idx = cg_i64(c, i);
		LLVMValueRef pp = LLVMBuildLoad2(c->b, c->t_ptr, LLVMBuildGEP2(c->b, c->t_ptr, LLVMGetParam(g, 0), &idx, 1, ""), "");
		args[i] = LLVMBuildLoad2(c->b, pt[i], pp, "");
	}
	LLVMValueRef nx = LLVMGetParam(g, 1), ny = LLVMGetParam(g, 2), nz = LLVMGetParam(g, 3);
	cgloop l;
	LLVMValueRef id = loop_open_range(c, &l, LLVMGetParam(g, 4), LLVMGetParam(g, 5));
	LLVMValueRef nx64 = LLVMBuildSExt(c->b, nx, c->t_i64, ""), ny64 = LLVMBuildSExt(c->b, ny, c->t_i64, "");
	LLVMValueRef x = LLVMBuildSRem(c->b, id, nx64, "");
	LLVMValueRef yz = LLVMBuildSDiv(c->b, id, nx64, "");
	LLVMValueRef y = LLVMBuildSRem(c->b, yz, ny64, "");
	LLVMValueRef z = LLVMBuildSDiv(c->b, yz, ny64, "");
	args[np + 0] = LLVMBuildTrunc(c->b, x, c->t_i32, "");
	args[np + 1] = LLVMBuildTrunc(c->b, y, c->t_i32, "");
	args[np + 2] = LLVMBuildTrunc(c->b, z, c->t_i32, "");
	args[np + 3] = nx;
	args[np + 4] = ny;
	args[np + 5] = nz;
	LLVMBuildCall2(c->b, fty, saved_fn, args, (unsigned)np + 6, "");
	loop_close(c, &l);
	LLVMBuildRetVoid(c->b);
	c->fn = saved_fn;
	ir_ptrmap_free(&c->uses);
	ir_ptrmap_free(&c->lazy_loads);
	memset(&c->uses, 0, sizeof c->uses);
	memset(&c->lazy_loads, 0, sizeof c->lazy_loads);

	/* NAME__meta */
	strbuf meta = {0};
	const ir_attr *nw = ir_func_attr(f, "num_warps");
	strbuf_printf(&meta, "tilecc-kernel=1\nname=%s\ntarget=%s\nparams=", f->name, target_family);
	cg_signature_text(&meta, f);
	strbuf_printf(&meta, "\nnum_warps=%lld\nshared=0\nblock=1,1,1\n",
		      (long long)(nw && nw->kind == IR_ATTR_INT ? nw->i : 4));
	snprintf(name, sizeof name, "%s__meta", f->name);
	LLVMValueRef str = LLVMConstStringInContext(c->ctx, meta.data, (unsigned)meta.len, 0);
	LLVMValueRef gv = LLVMAddGlobal(c->mod, LLVMTypeOf(str), name);
	LLVMSetInitializer(gv, str);
	LLVMSetGlobalConstant(gv, 1);
	if (c->meta_out)
		strbuf_putn(c->meta_out, meta.data, meta.len);
	strbuf_free(&meta);
	return 0;
}
