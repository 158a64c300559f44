/* lower_gpu.c: tile IR to LLVM IR for GPUs (NVIDIA and AMD). What differs between them
 * (thread indices, barriers, shuffles, shared memory, the kernel's form) comes from the
 * target's table, c->isa (gpu_isa.h).
 *
 * A program is a CTA (workgroup) of T = num_warps * warp threads (a warp is 32 threads on
 * NVIDIA, a wave 64 on AMD). Each tile is held as its layout in its type says
 * (assign-layouts; layout.c): a tile is, in the lowering, the E scalar SSA values of the
 * slots this thread holds. The canonical blocked layout of a tile of N elements is its
 * flattened (row-major) distribution: with E = N / T elements per thread (N >= T) in
 * groups of V consecutive elements, thread t owns the indices ((e / V) * T + t) * V + e % V
 * (a tile smaller than the CTA is replicated: thread t holds index t % N), which depends on
 * the element count only, so element-wise ops, expand_dims and reshape between canonical
 * tiles move no data. Reductions along an axis of a 2-D+ tile leave their result in the
 * slice of the operand's layout (in-thread, then shuffles, then shared memory across warps
 * only if warps split the axis); expand_dims of a slice and broadcasts within one layout
 * copy registers; convert_layout, and the ops that move elements between threads
 * otherwise (broadcast between layouts, trans, join, split, scans), go through shared
 * memory with barriers; a dot reads its operands from shared memory, where convert_layout
 * to a #shared layout staged them (swizzled); on tensor cores (the #mma layout) through
 * ldmatrix and mma.sync (lower_mma.c) or wgmma (lower_wgmma.c); dots and the pipeline ring
 * are lowered in lower_gpu_dot.c. A reduction of a whole 1-D tile uses warp
 * shuffles. Contiguous global accesses whose alignment the axis analysis proves become
 * 16-byte vector loads and stores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/lower_gpu.h"
#include "transforms/axis_info.h"
#include "transforms/gpu_mma.h"

gpu *lg_prog; /* the program being lowered; lower_gpu_func is not reentrant */

/* The warp index that no lowering used in the end (a wgmma of one warpgroup reads none):
 * LLVM keeps the shuffle (a call), so it is erased here, and the division it shuffled. */
static void drop_unused_warp_index(gpu *g)
{
	if (g->warp_id && g->warp_id != g->warp_div && !LLVMGetFirstUse(g->warp_id))
		LLVMInstructionEraseFromParent(g->warp_id);
	if (g->warp_div && !LLVMGetFirstUse(g->warp_div))
		LLVMInstructionEraseFromParent(g->warp_div);
	g->warp_id = g->warp_div = NULL;
}

LLVMValueRef lg_warp_index(cg *c)
{
	gpu *g = lg_prog;
	if (g->warp_id)
		return g->warp_id;
	/* beside tid (the entry block's first instruction), whatever block is being built */
	LLVMBuilderRef saved = c->b;
	c->b = LLVMCreateBuilderInContext(c->ctx);
	LLVMValueRef next = LLVMIsAInstruction(g->tid) ? LLVMGetNextInstruction(g->tid) : NULL;
	if (next)
		LLVMPositionBuilderBefore(c->b, next);
	else
		LLVMPositionBuilderAtEnd(c->b, c->entry);
	LLVMValueRef w = g->warp_div = LLVMBuildUDiv(c->b, g->tid, cg_i32(c, g->warp), "warp");
	if (c->isa->warp_uniform)
		w = c->isa->warp_uniform(c, w);
	LLVMDisposeBuilder(c->b);
	c->b = saved;
	return g->warp_id = w;
}

/* ---- values --------------------------------------------------------------------------- */

LLVMValueRef lg_sget(cg *c, const ir_value *v)
{
	LLVMValueRef x = ir_ptrmap_get(&c->vals, v);
	if (!x)
		cg_fail(c, v->def, "internal: value used before it was lowered");
	return x;
}

gtile *lg_tget(cg *c, const ir_value *v)
{
	gtile *t = ir_ptrmap_get(&c->vals, v);
	if (!t)
		cg_fail(c, v->def, "internal: tile used before it was lowered");
	return t;
}

void lg_put(cg *c, const ir_value *v, void *x)
{
	if (!ir_ptrmap_put(&c->vals, v, x))
		cg_fail(c, v->def, "out of memory");
}

gtile *lg_new_tile(cg *c, int n)
{
	gtile *t = ARENA_NEW(c->a, gtile);
	t->n = n;
	t->v = ARENA_NEWN(c->a, LLVMValueRef, n > 0 ? n : 1);
	t->smem = -1;
	return t;
}

/* Elements per thread and group size for a tile of numel elements. */
int lg_per_thread(int64_t numel)
{
	return gpu_per_thread(numel, lg_prog->T);
}

static int group(int64_t numel)
{
	return gpu_group(numel, lg_prog->T);
}

/* ---- index arithmetic ------------------------------------------------------------------ */

/* The indices of a thread's slots are the same few functions of the thread index for
 * every slot, plus a constant: slot e of a blocked layout sits at
 * ((warp * tpw + lane) * spt) + (rep * cover + in) along each dimension. Built naively,
 * each slot recomputed the lane, the warp and their products, with their x * 1, x + 0
 * and x / 1, and wrapped each coordinate (% extent) even where it cannot exceed the
 * extent: three quarters of the LLVM IR of the bench matmul (14 000 instructions, of
 * which 2 400 survived LLVM's passes), all of it for LLVM to fold and CSE again, which
 * was most of its time. So index values are built as ix: an LLVM value v (thread
 * dependent, or none) plus a constant k, with an exclusive upper bound hi of v + k over
 * all threads (IX_UNKNOWN when not known). The constant parts of a slot's coordinates
 * stay constants up to the one add that makes its index; identities fold (x * 1, x + 0,
 * x / 1, x % 1); x % m and x / m fold away when hi <= m says x < m; the thread-dependent
 * parts are built once per basic block (ix_bin's table) and reused by every slot and op
 * in that block. The GPU lowering always appends at the end of its current block, so a
 * value built earlier in the same block dominates every later use there. */
#define IX_UNKNOWN ((int64_t)1 << 32)
typedef struct ix {
	LLVMValueRef v; /* NULL: the value is k */
	int64_t k;
	int64_t hi;     /* 0 <= v + k < hi (as unsigned i32), IX_UNKNOWN when not known */
} ix;

typedef struct ix_entry {
	LLVMOpcode op;
	LLVMValueRef a, b, r;
} ix_entry;

static struct {
	LLVMBasicBlockRef block;
	int n;
	ix_entry e[128];
} ix_memo;

static int64_t ix_clamp(int64_t hi)
{
	return hi > IX_UNKNOWN || hi < 1 ? IX_UNKNOWN : hi;
}

/* a op b, built once per block. */
static LLVMValueRef ix_bin(cg *c, LLVMOpcode op, LLVMValueRef a, LLVMValueRef b)
{
	LLVMBasicBlockRef bb = LLVMGetInsertBlock(c->b);
	if (ix_memo.block != bb) {
		ix_memo.block = bb;
		ix_memo.n = 0;
	}
	for (int i = 0; i < ix_memo.n; i++)
		if (ix_memo.e[i].op == op && ix_memo.e[i].a == a && ix_memo.e[i].b == b)
			return ix_memo.e[i].r;
	LLVMValueRef r = LLVMBuildBinOp(c->b, op, a, b, "");
	if (ix_memo.n < (int)(sizeof ix_memo.e / sizeof ix_memo.e[0]))
		ix_memo.e[ix_memo.n++] = (ix_entry){op, a, b, r};
	return r;
}

static ix ix_const(int64_t k)
{
	return (ix){NULL, k, k + 1};
}

static ix ix_of(LLVMValueRef v, int64_t hi)
{
	return (ix){v, 0, ix_clamp(hi)};
}

static ix ix_tid(void)
{
	return ix_of(lg_prog->tid, lg_prog->T);
}

/* The i32 value of x. */
static LLVMValueRef ix_value(cg *c, ix x)
{
	if (!x.v)
		return cg_i32(c, x.k);
	return x.k ? ix_bin(c, LLVMAdd, x.v, cg_i32(c, x.k)) : x.v;
}

static ix ix_add(cg *c, ix a, ix b)
{
	int64_t hi = a.hi == IX_UNKNOWN || b.hi == IX_UNKNOWN ? IX_UNKNOWN : ix_clamp(a.hi + b.hi - 1);
	LLVMValueRef v = !a.v ? b.v : !b.v ? a.v : ix_bin(c, LLVMAdd, a.v, b.v);
	return (ix){v, a.k + b.k, hi};
}

static ix ix_mulk(cg *c, ix a, int64_t m)
{
	if (m == 0 || (!a.v && a.k == 0))
		return ix_const(0);
	if (m == 1)
		return a;
	if (!a.v)
		return ix_const(a.k * m);
	int64_t hi = a.hi == IX_UNKNOWN ? IX_UNKNOWN : ix_clamp((a.hi - 1) * m + 1);
	return (ix){ix_bin(c, LLVMMul, a.v, cg_i32(c, m)), a.k * m, hi};
}

/* x / m and x % m (unsigned, m > 0). (v + k) / m is v / m + k / m and (v + k) % m is v % m
 * when m divides k and v + k cannot wrap (its bound is known). */
static ix ix_udivk(cg *c, ix a, int64_t m)
{
	if (m == 1)
		return a;
	if (a.hi <= m)
		return ix_const(0);
	if (!a.v)
		return ix_const(a.k / m);
	if (a.hi != IX_UNKNOWN && a.k >= 0 && a.k % m == 0)
		return (ix){ix_bin(c, LLVMUDiv, a.v, cg_i32(c, m)), a.k / m, (a.hi - 1) / m + 1};
	return ix_of(ix_bin(c, LLVMUDiv, ix_value(c, a), cg_i32(c, m)),
		     a.hi == IX_UNKNOWN ? IX_UNKNOWN : (a.hi - 1) / m + 1);
}

static ix ix_uremk(cg *c, ix a, int64_t m)
{
	if (m == 1)
		return ix_const(0);
	if (a.hi <= m)
		return a;
	if (!a.v)
		return ix_const(a.k % m);
	LLVMValueRef v = a.hi != IX_UNKNOWN && a.k >= 0 && a.k % m == 0 ? a.v : ix_value(c, a);
	return ix_of(ix_bin(c, LLVMURem, v, cg_i32(c, m)), m);
}

static ix owned_index_ix(int64_t numel, int e)
{
	cg *c = lg_prog->c;
	if (numel < lg_prog->T)
		return ix_uremk(c, ix_tid(), numel);
	int V = group(numel);
	/* ((e / V) * T + tid) * V + e % V */
	return ix_add(c, ix_mulk(c, ix_tid(), V), ix_const(((int64_t)(e / V) * lg_prog->T) * V + e % V));
}

/* The flattened index (i32) of this thread's e-th element of a tile of numel elements. */
LLVMValueRef lg_owned_index(cg *c, int64_t numel, int e)
{
	return ix_value(c, owned_index_ix(numel, e));
}

const tlayout *lg_tile_layout(cg *c, const ir_type *t)
{
	tlayout *tl = ir_ptrmap_get(&c->layouts, t);
	if (tl)
		return tl;
	tl = ARENA_NEW(c->a, tlayout);
	gpu_layout want = gpu_layout_canonical(t, lg_prog->warp, lg_prog->T / lg_prog->warp);
	if (t->rank > GPU_MAX_RANK) {
		tl->l = want; /* no layout: the flattened distribution */
		tl->canonical = true;
		if (!ir_ptrmap_put(&c->layouts, t, tl))
			cg_fail(c, NULL, "out of memory");
		return tl;
	}
	if (!t->layout) {
		tl->l = want;
	} else if (!gpu_layout_parse(t->layout, &tl->l) ||
		   !gpu_layout_fits(&tl->l, t->shape, t->rank, lg_prog->warp, lg_prog->T / lg_prog->warp)) {
		cg_fail(c, NULL, "internal: tile layout '#%s' is not implemented", t->layout);
	}
	tl->canonical = gpu_layout_equal(&tl->l, &want);
	if (!ir_ptrmap_put(&c->layouts, t, tl))
		cg_fail(c, NULL, "out of memory");
	return tl;
}

/* Elements this thread holds of a tile of type t. */
int lg_slots(cg *c, const ir_type *t)
{
	const tlayout *tl = lg_tile_layout(c, t);
	return tl->canonical ? lg_per_thread(ir_type_numel(t)) : gpu_layout_slots(&tl->l, t->shape, t->rank);
}

/* This thread's slot e of a tile of type t: its flattened index, and for a tile of a
 * layout (not the canonical distribution), its coordinates along the tile's dims into
 * coord (when not NULL; rank entries). */
static ix owned_ix(cg *c, const ir_type *t, int e, ix *coord_out)
{
	const tlayout *tl = lg_tile_layout(c, t);
	if (tl->canonical) {
		ix i = owned_index_ix(ir_type_numel(t), e);
		if (coord_out) { /* row-major: the flattened index's digits (the first unwrapped) */
			int64_t inner = 1;
			for (int d = t->rank - 1; d >= 0; d--) {
				ix q = ix_udivk(c, i, inner);
				coord_out[d] = d ? ix_uremk(c, q, t->shape[d]) : q;
				inner *= t->shape[d];
			}
		}
		return i;
	}
	const gpu_layout *l = &tl->l;
	int rep[GPU_MAX_RANK], in[GPU_MAX_RANK];
	gpu_layout_slot(l, t->shape, t->rank, e, rep, in);
	ix lane = ix_uremk(c, ix_tid(), lg_prog->warp), wid = ix_udivk(c, ix_tid(), lg_prog->warp);
	ix flat = ix_const(0);
	int ls = 1, ws = 1;
	ix coord[GPU_MAX_RANK], lds[GPU_MAX_RANK], wds[GPU_MAX_RANK];
	for (int i = 0; i < l->rank; i++) {
		int d = l->order[i], dw = gpu_layout_warp_dim(l, i);
		lds[d] = ix_uremk(c, ix_udivk(c, lane, ls), l->tpw[d]);
		wds[dw] = ix_uremk(c, ix_udivk(c, wid, ws), l->wpc[dw]);
		ls *= l->tpw[d];
		ws *= l->wpc[dw];
	}
	for (int d = 0; d < l->rank; d++) {
		ix ld = lds[d], wd = wds[d];
		if (l->mma == 3) {
			/* the wgmma accumulator: gpu_layout_wgmma_coord, with the lane and warp
			 * parts at run time (its constant part is the coordinate of lane 0, warp 0) */
			int64_t k0 = gpu_layout_wgmma_coord(l, d, rep[d], in[d], 0, 0);
			ix lw = ix_add(c, ix_mulk(c, wd, d == 0 ? 16 : l->instr_n), ix_mulk(c, ld, d == 0 ? 1 : 2));
			coord[d] = ix_add(c, lw, ix_const(k0));
			continue;
		}
		int64_t cover = (int64_t)l->spt[d] * l->tpw[d] * l->wpc[d];
		ix x = ix_mulk(c, ix_add(c, ix_mulk(c, wd, l->tpw[d]), ld), l->spt[d]);
		coord[d] = ix_add(c, x, ix_const(rep[d] * cover + in[d]));
	}
	for (int d = 0, k = 0; d < l->rank; d++) {
		if (l->kind == GPU_SLICE && d == l->dim)
			continue;
		int64_t ext = t->shape[k];
		ix cd = ix_uremk(c, coord[d], ext);
		if (coord_out)
			coord_out[k] = cd;
		k++;
		flat = ix_add(c, ix_mulk(c, flat, ext), cd);
	}
	return flat;
}

/* The flattened index (i32) of this thread's slot e of a tile of type t. */
LLVMValueRef lg_owned(cg *c, const ir_type *t, int e)
{
	return ix_value(c, owned_ix(c, t, e, NULL));
}

/* Element e of operand v: a tile's own element, or a scalar broadcast. */
LLVMValueRef lg_opnd(cg *c, const ir_value *v, int e)
{
	if (lg_is_tile(v->type))
		return lg_tget(c, v)->v[e];
	return lg_sget(c, v);
}

/* ---- shared memory ---------------------------------------------------------------------- */

void lg_barrier(cg *c)
{
	c->isa->barrier(c);
	lg_prog->pending = false;
}

/* ---- writes by one thread, read by all ------------------------------------------------------- */

/* A scalar store, or a store of a tile smaller than the program, is made by one thread for
 * each element (owner_only): the program's other threads see it only after a barrier. So
 * a load or atomic after such a store, in program order, waits at a barrier first
 * (sync_reads). Loops: a store in the body is pending at the body's start, and one pending
 * before the loop is settled once before it. */
static bool one_thread_store(const ir_op *op)
{
	if (op->code != IR_OP_STORE)
		return false;
	const ir_type *p = op->operands[0]->type;
	if (p->kind == IR_TILE)
		return ir_type_numel(p) < lg_prog->T;
	if (p->elem->kind == IR_TILE) /* a block pointer */
		return ir_type_numel(p->elem) < lg_prog->T;
	return true;
}

static bool reads_global(const ir_op *op)
{
	return op->code == IR_OP_LOAD || op->code == IR_OP_ATOMIC_RMW || op->code == IR_OP_ATOMIC_CAS;
}

static bool block_has(const ir_block *b, bool (*pred)(const ir_op *))
{
	for (const ir_op *op = b->first; op; op = op->next) {
		if (pred(op))
			return true;
		for (int r = 0; r < op->nregions; r++)
			if (block_has(op->regions[r], pred))
				return true;
	}
	return false;
}

static void sync_reads(cg *c)
{
	if (lg_prog->pending)
		lg_barrier(c);
}

/* Before a loop whose regions are body[0..n): settles a pending store once, and makes the
 * body's own stores pending at its start. Returns what loop_exit needs. */
static bool loop_enter(cg *c, const ir_block *const *body, int n)
{
	bool reads = false, writes = false;
	for (int i = 0; i < n; i++) {
		reads |= block_has(body[i], reads_global);
		writes |= block_has(body[i], one_thread_store);
	}
	if (reads)
		sync_reads(c);
	if (reads && writes)
		lg_prog->pending = true;
	return writes || lg_prog->pending;
}

static void loop_exit(bool pending)
{
	lg_prog->pending |= pending;
}

/* The barrier before an op overwrites shared memory that others may still read: placed by
 * the insert-barriers pass when it ran, else here. */
void lg_lead_barrier(cg *c)
{
	if (!lg_prog->explicit_barriers)
		lg_barrier(c);
}

LLVMValueRef lg_smem_at(cg *c, const ir_type *e, int64_t byte_off, LLVMValueRef idx)
{
	LLVMValueRef off = cg_i64(c, byte_off);
	LLVMValueRef base = LLVMBuildGEP2(c->b, c->t_i8, lg_prog->smem, &off, 1, "");
	LLVMValueRef i64 = LLVMTypeOf(idx) == c->t_i64 ? idx : LLVMBuildZExt(c->b, idx, c->t_i64, "");
	return LLVMBuildGEP2(c->b, cg_mem_type(c, e), base, &i64, 1, "");
}

/* Writes every element of tile v to shared memory at byte offset off: row-major, or, when
 * as is a #shared tile type, where its swizzle puts each element. */
static void store_tile_pitch(cg *c, const ir_value *v, int64_t off, const ir_type *as, int64_t pitch);

static void store_tile(cg *c, const ir_value *v, int64_t off, const ir_type *as)
{
	const ir_type *t = v->type;
	store_tile_pitch(c, v, off, as, t->rank ? t->shape[t->rank - 1] : 1);
}

/* Index i (row-major, rows of n elements) in a buffer whose rows are `pitch` apart. */
static LLVMValueRef pitched(cg *c, LLVMValueRef i, int64_t n, int64_t pitch)
{
	if (pitch == n)
		return i;
	LLVMValueRef row = LLVMBuildUDiv(c->b, i, cg_i32(c, n), "");
	return LLVMBuildAdd(c->b, i, LLVMBuildMul(c->b, row, cg_i32(c, pitch - n), ""), "");
}

/* store_tile into row-major rows `pitch` elements apart (as NULL), or as store_tile. */
static void store_tile_pitch(cg *c, const ir_value *v, int64_t off, const ir_type *as, int64_t pitch)
{
	const ir_type *t = v->type;
	int64_t last = t->rank ? t->shape[t->rank - 1] : 1;
	int64_t need = off + ir_type_numel(t) / (last ? last : 1) * pitch * gpu_elem_bytes(t->elem);
	if (need > lg_prog->smem_bytes)
		lg_prog->smem_bytes = need;
	gtile *g = lg_tget(c, v);
	/* a thread's run of consecutive elements (consecutive slots, along the layout's
	 * fastest dimension) goes as one vector store (at most 16 bytes) where it stays
	 * consecutive: in the row-major buffer when it runs along the last dimension, in a
	 * #shared layout that stores its dimension contiguously and whose swizzle groups it
	 * divides (gpu_run_fits_shared); else element by element */
	int64_t eb = gpu_elem_bytes(t->elem);
	int dim = 0;
	int w = t->elem->kind == IR_I1 || t->rank < 1 ? 1 : gpu_layout_run_dim(t, lg_prog->warp, lg_prog->T / lg_prog->warp, &dim);
	if (w > 1 && (as ? t->rank != 2 || !gpu_run_fits_shared(&lg_tile_layout(c, as)->l, t->shape, dim, w)
			 : dim != t->rank - 1))
		w = 1;
	while (w > 1 && (w * eb > 16 || g->n % w || t->shape[dim] % w ||
			 (as && !gpu_run_fits_shared(&lg_tile_layout(c, as)->l, t->shape, dim, w))))
		w /= 2;
	for (int e = 0; e < g->n; e += w) {
		LLVMValueRef x = g->v[e], at;
		if (as) {
			LLVMValueRef o = cg_i64(c, off);
			at = lg_owned_shared_addr(c, LLVMBuildGEP2(c->b, c->t_i8, lg_prog->smem, &o, 1, ""), t, e, as,
						  eb);
		} else {
			at = lg_smem_at(c, t->elem, off, pitched(c, lg_owned(c, t, e), last, pitch));
		}
		if (t->elem->kind == IR_I1)
			x = LLVMBuildZExt(c->b, x, c->t_i8, "");
		if (w > 1) {
			LLVMTypeRef vt = LLVMVectorType(cg_mem_type(c, t->elem), (unsigned)w);
			x = LLVMGetPoison(vt);
			for (int j = 0; j < w; j++)
				x = LLVMBuildInsertElement(c->b, x, g->v[e + j], cg_i32(c, j), "");
		}
		LLVMValueRef st = LLVMBuildStore(c->b, x, at);
		LLVMSetAlignment(st, (unsigned)(w * eb));
	}
}

void lg_to_smem(cg *c, const ir_value *v, int64_t off)
{
	store_tile(c, v, off, NULL);
}

LLVMValueRef lg_from_smem(cg *c, const ir_type *e, int64_t off, LLVMValueRef idx)
{
	LLVMValueRef x = LLVMBuildLoad2(c->b, cg_mem_type(c, e), lg_smem_at(c, e, off, idx), "");
	return e->kind == IR_I1 ? LLVMBuildTrunc(c->b, x, c->t_i1, "") : x;
}

/* ---- ops ------------------------------------------------------------------------------------ */

/* For a comparison whose result the axis analysis finds constant over aligned blocks
 * (cols < seq_len with seq_len divisible by 16: the same answer for each 16 columns),
 * rep[e] = the first slot e' <= e of this thread that lies in the same block as slot e
 * in every thread (the layout's slots, checked at compile time), so that one comparison
 * serves them all; rep[e] = e otherwise. n slots of result type t. */
static void constant_runs(cg *c, const ir_op *op, const ir_type *t, int n, int *rep)
{
	for (int e = 0; e < n; e++)
		rep[e] = e;
	const axis_val *av = c->ai ? axis_lookup(c->ai, &op->results[0]) : NULL;
	const tlayout *tl = lg_tile_layout(c, t);
	bool runs = false;
	for (int d = 0; av && d < t->rank && d < av->rank; d++)
		runs |= av->constancy[d] > 1;
	if (!runs || t->rank > 4 || tl->l.kind != GPU_BLOCKED || n < 2 || n > 256)
		return;
	int T = lg_prog->T;
	/* sig[e * T + th]: the block of slot e of thread th, all dims packed */
	int64_t *sig = ARENA_NEWN(c->a, int64_t, (size_t)n * T);
	for (int e = 0; e < n; e++)
		for (int th = 0; th < T; th++) {
			int64_t f = gpu_layout_flat(&tl->l, t->shape, t->rank, lg_prog->warp, th, e), key = 0;
			for (int d = t->rank - 1; d >= 0; d--) {
				int64_t x = f % t->shape[d];
				f /= t->shape[d];
				int64_t k = d < av->rank && av->constancy[d] > 1 ? av->constancy[d] : 1;
				key = key * (t->shape[d] + 1) + x / k;
			}
			sig[(size_t)e * T + th] = key;
		}
	for (int e = 1; e < n; e++)
		for (int p = 0; p < e; p++)
			if (rep[p] == p && !memcmp(&sig[(size_t)e * T], &sig[(size_t)p * T], sizeof *sig * (size_t)T)) {
				rep[e] = p;
				break;
			}
}

static void lower_elementwise(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type;
	LLVMValueRef a[4];
	if (!lg_is_tile(rt)) {
		for (int k = 0; k < op->noperands; k++)
			a[k] = lg_sget(c, op->operands[k]);
		lg_put(c, &op->results[0], cg_scalar_op(c, op, a, rt));
		return;
	}
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	for (int k = 0; k < op->noperands; k++)
		if (lg_is_tile(op->operands[k]->type) && lg_tget(c, op->operands[k])->n != r->n)
			cg_fail(c, op, "internal: operand %d of %s holds %d elements per thread, its result %d "
				"(their layouts differ)", k, ir_ops[op->code].name, lg_tget(c, op->operands[k])->n, r->n);
	int e = 0;
	if (op->code == IR_OP_TRUNCF && c->isa->narrow_pair && lg_is_tile(op->operands[0]->type) &&
	    op->operands[0]->type->elem->kind == IR_F32 && (rt->elem->kind == IR_F16 || rt->elem->kind == IR_BF16)) {
		const ir_attr *rnd = ir_op_attr(op, "rounding");
		if (!rnd || (rnd->kind == IR_ATTR_STR && !strcmp(rnd->s, "rtne")))
			for (gtile *x = lg_tget(c, op->operands[0]); e + 1 < r->n; e += 2)
				c->isa->narrow_pair(c, x->v[e], x->v[e + 1], rt->elem->kind == IR_BF16, &r->v[e]);
	}
	int *rep = NULL;
	if (op->code == IR_OP_CMPI || op->code == IR_OP_CMPF) {
		rep = ARENA_NEWN(c->a, int, (size_t)r->n);
		constant_runs(c, op, rt, r->n, rep);
	}
	for (; e < r->n; e++) {
		if (rep && rep[e] != e) { /* the same answer as an earlier slot */
			r->v[e] = r->v[rep[e]];
			continue;
		}
		for (int k = 0; k < op->noperands; k++)
			a[k] = lg_opnd(c, op->operands[k], e);
		r->v[e] = cg_scalar_op(c, op, a, rt->elem);
	}
	lg_put(c, &op->results[0], r);
}

/* Moves data through shared memory: result element at flattened index i reads the source
 * element src_index(i). */
typedef LLVMValueRef (*remap_fn)(cg *c, const ir_op *op, LLVMValueRef i, int which);

static LLVMValueRef remap_broadcast(cg *c, const ir_op *op, LLVMValueRef i, int which)
{
	const ir_type *rt = op->results[0].type, *st = op->operands[0]->type;
	int64_t sst[16];
	LLVMValueRef idx[16];
	(void)which;
	cg_strides(st, sst);
	cg_unflatten(c, rt, i, idx);
	for (int d = 0; d < rt->rank; d++)
		if (st->shape[d] == 1)
			idx[d] = NULL;
	return cg_flatten(c, sst, idx, rt->rank);
}

static LLVMValueRef remap_trans(cg *c, const ir_op *op, LLVMValueRef i, int which)
{
	const ir_type *rt = op->results[0].type, *st = op->operands[0]->type;
	const ir_attr *ord = ir_op_attr(op, "order");
	int64_t sst[16];
	LLVMValueRef idx[16], sidx[16];
	(void)which;
	cg_strides(st, sst);
	cg_unflatten(c, rt, i, idx);
	for (int d = 0; d < rt->rank; d++)
		sidx[ord->ints.v[d]] = idx[d];
	return cg_flatten(c, sst, sidx, rt->rank);
}

/* Element index of element (r, c) of a #shared tile t (i32 row and column): row-major
 * within its panel, panels one after another, the row's groups swizzled; the same map as
 * gpu_layout_swizzle, the one definition every writer and reader of #shared tiles uses. */
static ix shared_index_ix(cg *c, const ir_type *t, ix r, ix col)
{
	const gpu_layout *l = &lg_tile_layout(c, t)->l;
	int64_t rows = t->shape[0], cols = t->shape[1];
	if (l->order[0] == 0) { /* stored transposed (order [0, 1]): element (col, r) of that */
		ix x = r;
		r = col, col = x;
		rows = t->shape[1], cols = t->shape[0];
	}
	int64_t w = l->panel ? l->panel : cols;
	ix phase = ix_uremk(c, ix_udivk(c, r, l->per_phase), l->max_phase);
	ix cc = l->panel ? ix_uremk(c, col, w) : col;
	ix gi = ix_udivk(c, cc, l->vec);
	/* the swizzled group: a xor, which no constant part survives */
	ix g = !gi.v && !phase.v ? ix_const(gi.k ^ phase.k)
	       : phase.v || phase.k ? ix_of(ix_bin(c, LLVMXor, ix_value(c, gi), ix_value(c, phase)), IX_UNKNOWN)
				    : gi;
	ix cs = ix_add(c, ix_mulk(c, g, l->vec), ix_uremk(c, cc, l->vec));
	ix at = ix_add(c, ix_mulk(c, r, w), cs);
	if (l->panel)
		at = ix_add(c, at, ix_mulk(c, ix_udivk(c, col, w), rows * w));
	return at;
}

LLVMValueRef lg_shared_index(cg *c, const ir_type *t, LLVMValueRef r, LLVMValueRef col)
{
	return ix_value(c, shared_index_ix(c, t, ix_of(r, IX_UNKNOWN), ix_of(col, IX_UNKNOWN)));
}

LLVMValueRef lg_owned_shared_index(cg *c, const ir_type *t, int e, const ir_type *st)
{
	ix coord[GPU_MAX_RANK];
	owned_ix(c, t, e, coord);
	return ix_value(c, shared_index_ix(c, st, coord[0], coord[1]));
}

LLVMValueRef lg_owned_shared_addr(cg *c, LLVMValueRef base, const ir_type *t, int e, const ir_type *st, int64_t eb)
{
	ix coord[GPU_MAX_RANK];
	owned_ix(c, t, e, coord);
	ix at = shared_index_ix(c, st, coord[0], coord[1]);
	LLVMValueRef p = base;
	if (at.v) {
		LLVMValueRef off = LLVMBuildMul(c->b, LLVMBuildZExt(c->b, at.v, c->t_i64, ""), cg_i64(c, eb), "");
		p = LLVMBuildGEP2(c->b, c->t_i8, p, &off, 1, "");
	}
	if (at.k) {
		LLVMValueRef k = cg_i64(c, at.k * eb);
		p = LLVMBuildInBoundsGEP2(c->b, c->t_i8, p, &k, 1, "");
	}
	return p;
}

/* convert_layout to #shared: the tile's elements written to shared memory at the offset
 * smem-alloc planned ({smem_offset}), swizzled; its reader synchronizes before reading. */
static void to_shared(cg *c, const ir_op *op)
{
	const ir_value *x = op->operands[0];
	const ir_type *rt = op->results[0].type;
	int64_t off = ir_op_int(op, "smem_offset", -1);
	if (off < 0)
		cg_fail(c, op, "internal: a #shared tile without a planned offset (run smem-alloc)");
	lg_lead_barrier(c);
	store_tile(c, x, off, rt);
	gtile *r = lg_new_tile(c, 0);
	r->smem = off;
	if (ir_op_attr(op, "ring")) {
		/* staged before a pipelined loop for its dot (attention's Q): fenced here, once,
		 * for wgmma's async proxy; the barrier after it is insert-barriers' */
		if (lg_prog->wgmma && c->isa->fence_proxy_async)
			c->isa->fence_proxy_async(c);
		r->ready = true;
	}
	lg_put(c, &op->results[0], r);
}

/* Ops that move no data between threads when their operand's layout lines up with their
 * result's: expand_dims of a slice along its dim (the parent layout, each slot taking
 * the slice's value of its row), and broadcast between tiles of the same blocked layout
 * (each slot taking the operand's slot at the same place, repetitions along the
 * broadcast dims folded). The slot mapping does not depend on the thread. */
static void regmap(cg *c, const ir_op *op)
{
	const ir_value *x = op->operands[0];
	const ir_type *rt = op->results[0].type, *xt = x->type;
	const gpu_layout *xl = &lg_tile_layout(c, xt)->l, *rl = &lg_tile_layout(c, rt)->l;
	gtile *src = lg_tget(c, x);
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	for (int e = 0; e < r->n; e++) {
		int rep[GPU_MAX_RANK], in[GPU_MAX_RANK];
		gpu_layout_slot(rl, rt->shape, rt->rank, e, rep, in);
		int k = gpu_layout_slot_index(xl, xt->shape, xt->rank, rep, in);
		if (k < 0 || k >= src->n)
			cg_fail(c, op, "internal: slot %d of %d", k, src->n);
		r->v[e] = src->v[k];
	}
	lg_put(c, &op->results[0], r);
}

/* join: result element 2i + j is operand j's element i; split: result r's element i is
 * the operand's element 2i + r. Both through shared memory, like exchange(). */
static void lower_join_split(cg *c, const ir_op *op)
{
	lg_lead_barrier(c);
	if (op->code == IR_OP_JOIN) {
		const ir_type *rt = op->results[0].type, *at = op->operands[0]->type;
		int64_t half = ir_type_numel(at), bytes = gpu_align16(half * gpu_elem_bytes(at->elem));
		lg_to_smem(c, op->operands[0], 0);
		lg_to_smem(c, op->operands[1], bytes);
		lg_barrier(c);
		gtile *r = lg_new_tile(c, lg_per_thread(ir_type_numel(rt)));
		for (int e = 0; e < r->n; e++) {
			LLVMValueRef i = lg_owned_index(c, ir_type_numel(rt), e);
			LLVMValueRef src = LLVMBuildLShr(c->b, i, cg_i32(c, 1), "");
			LLVMValueRef odd = LLVMBuildTrunc(c->b, i, c->t_i1, "");
			LLVMValueRef a = lg_from_smem(c, rt->elem, 0, src), b = lg_from_smem(c, rt->elem, bytes, src);
			r->v[e] = LLVMBuildSelect(c->b, odd, b, a, "");
		}
		lg_put(c, &op->results[0], r);
		return;
	}
	const ir_type *ht = op->results[0].type;
	lg_to_smem(c, op->operands[0], 0);
	lg_barrier(c);
	for (int k = 0; k < 2; k++) {
		if (!lg_is_tile(ht)) {
			lg_put(c, &op->results[k], lg_from_smem(c, ht, 0, cg_i32(c, k)));
			continue;
		}
		gtile *r = lg_new_tile(c, lg_per_thread(ir_type_numel(ht)));
		for (int e = 0; e < r->n; e++) {
			LLVMValueRef i = lg_owned_index(c, ir_type_numel(ht), e);
			r->v[e] = lg_from_smem(c, ht->elem, 0, LLVMBuildAdd(c->b, LLVMBuildShl(c->b, i, cg_i32(c, 1), ""), cg_i32(c, k), ""));
		}
		lg_put(c, &op->results[k], r);
	}
}

/* gather: the source and the index through shared memory (the index too, so that its
 * layout need not match the result's), then each slot reads its source element. */
static void lower_gather(cg *c, const ir_op *op)
{
	const ir_value *src = op->operands[0], *ix = op->operands[1];
	const ir_type *rt = op->results[0].type, *xt = ix->type;
	int64_t sbytes = gpu_align16(ir_type_numel(src->type) * gpu_elem_bytes(src->type->elem));
	lg_lead_barrier(c);
	lg_to_smem(c, src, 0);
	lg_to_smem(c, ix, sbytes);
	lg_barrier(c);
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	for (int e = 0; e < r->n; e++) {
		LLVMValueRef i = lg_owned(c, rt, e);
		LLVMValueRef si = cg_gather_index(c, op, i, lg_from_smem(c, xt->elem, sbytes, i));
		r->v[e] = lg_from_smem(c, rt->elem, 0, si);
	}
	lg_put(c, &op->results[0], r);
}

/* Elements of t that inline_asm passes in one register: Triton packs values narrower than
 * 32 bits, up to pack of them, into a vector of one 32-bit register. */
static int asm_per_reg(const ir_type *t, int pack)
{
	int bits = ir_type_bits(ir_type_elem(t));
	int per = t->kind == IR_PTR || bits >= 32 ? 1 : 32 / bits;
	return per < pack ? per : pack;
}

enum { MAXREG = 64 }; /* registers of one inline assembly's operands, and of its results */

/* Appends to regs the LLVM types of the registers one value of type t takes in inline
 * assembly with `pack` elements per operand (sub-32-bit elements share a register). */
static void asm_regs(cg *c, const ir_op *op, const ir_type *t, int pack, LLVMTypeRef *regs, int *n,
		     const char *what)
{
	int per = asm_per_reg(t, pack);
	LLVMTypeRef et = cg_scalar_type(c, ir_type_elem(t));
	for (int j = 0; j < pack; j += per) {
		if (*n == MAXREG)
			cg_fail(c, op, "inline assembly with more than %d %s registers is not supported",
				MAXREG, what);
		regs[(*n)++] = per > 1 ? LLVMVectorType(et, (unsigned)per) : et;
	}
}

/* inline_asm: Triton's element-wise inline assembly, one LLVM inline-asm call per `pack`
 * consecutive elements this thread holds (the operands are canonical tiles of the results'
 * shape, or scalars). As in Triton, each operand's pack elements are passed as pack / per
 * registers, each a <per x T> vector (per = 32 / bits for T narrower than 32 bits, else 1:
 * a plain T), operand after operand; the results come back the same way, result after
 * result, in a struct when there is more than one register in all. The last group of a
 * thread whose element count is not a multiple of pack is padded with undef. Not pure
 * (is_pure=False): marked with side effects, so LLVM neither drops nor merges it. */
static void lower_inline_asm(cg *c, const ir_op *op)
{
	const char *text = ir_op_attr(op, "asm")->s, *cons = ir_op_attr(op, "constraints")->s;
	bool pure = ir_op_int(op, "pure", 0) != 0;
	int pack = (int)ir_op_int(op, "pack", 1);
	int n = op->noperands, nres = op->nresults;
	LLVMTypeRef pt[MAXREG], rt[MAXREG];
	int np = 0, nr = 0;
	for (int k = 0; k < n; k++)
		asm_regs(c, op, op->operands[k]->type, pack, pt, &np, "operand");
	for (int r = 0; r < nres; r++)
		asm_regs(c, op, op->results[r].type, pack, rt, &nr, "result");
	LLVMTypeRef ret = nr > 1 ? LLVMStructTypeInContext(c->ctx, rt, (unsigned)nr, 0) : rt[0];
	LLVMTypeRef ft = LLVMFunctionType(ret, pt, (unsigned)np, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, strlen(text), (char *)cons, strlen(cons),
					   !pure, 0, LLVMInlineAsmDialectATT, 0);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(c->ctx);
	const ir_type *r0 = op->results[0].type;
	bool tile = lg_is_tile(r0);
	int total = tile ? lg_slots(c, r0) : 1;
	gtile *res[8] = {0};
	LLVMValueRef sres[8] = {0};
	if (nres > 8)
		cg_fail(c, op, "inline assembly with more than 8 results is not supported");
	for (int r = 0; tile && r < nres; r++)
		res[r] = lg_new_tile(c, total);
	for (int e0 = 0; e0 < total; e0 += pack) {
		LLVMValueRef a[MAXREG];
		int ai = 0;
		for (int k = 0; k < n; k++) {
			const ir_value *v = op->operands[k];
			int per = asm_per_reg(v->type, pack);
			LLVMTypeRef et = cg_scalar_type(c, ir_type_elem(v->type));
			for (int j = 0; j < pack; j += per) {
				LLVMValueRef reg = per > 1 ? LLVMGetUndef(pt[ai]) : NULL;
				for (int q = 0; q < per; q++) {
					int e = e0 + j + q;
					LLVMValueRef x = e >= total ? LLVMGetUndef(et)
						       : lg_is_tile(v->type) ? lg_opnd(c, v, e) : lg_sget(c, v);
					if (per == 1)
						reg = x;
					else
						reg = LLVMBuildInsertElement(c->b, reg, x,
									     LLVMConstInt(i32, (unsigned)q, 0), "");
				}
				a[ai++] = reg;
			}
		}
		LLVMValueRef out = LLVMBuildCall2(c->b, ft, fn, a, (unsigned)np, "");
		int si = 0;
		for (int r = 0; r < nres; r++) {
			int per = asm_per_reg(op->results[r].type, pack);
			for (int j = 0; j < pack; j += per) {
				LLVMValueRef reg = nr > 1 ? LLVMBuildExtractValue(c->b, out, (unsigned)si, "") : out;
				si++;
				for (int q = 0; q < per; q++) {
					int e = e0 + j + q;
					if (e >= total)
						continue;
					LLVMValueRef x = per == 1 ? reg
						       : LLVMBuildExtractElement(c->b, reg,
										 LLVMConstInt(i32, (unsigned)q, 0), "");
					if (tile)
						res[r]->v[e] = x;
					else
						sres[r] = x;
				}
			}
		}
	}
	for (int r = 0; r < nres; r++) {
		if (tile)
			lg_put(c, &op->results[r], res[r]);
		else
			lg_put(c, &op->results[r], sres[r]);
	}
}

/* Result res of op through shared memory: the source stored row-major, its rows pitch
 * elements apart, and each result slot read where f maps its row-major index. */
static void exchange(cg *c, const ir_op *op, int res, remap_fn f, int64_t pitch)
{
	const ir_type *rt = op->results[res].type;
	const ir_value *src = op->operands[0];
	int64_t n = src->type->rank ? src->type->shape[src->type->rank - 1] : 1;
	lg_lead_barrier(c); /* earlier readers of shared memory are done */
	store_tile_pitch(c, src, 0, NULL, pitch);
	lg_barrier(c);
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	for (int e = 0; e < r->n; e++)
		r->v[e] = lg_from_smem(c, rt->elem, 0, pitched(c, f(c, op, lg_owned(c, rt, e), res), n, pitch));
	lg_put(c, &op->results[res], r);
}

/* stmatrix's view of a tile type t in an #mma layout (v2 and v3 are): in slots 8 g ..
 * 8 g + 7 every thread holds four 8x8 matrices in the mma fragment layout (slots 8 g + 2 k
 * and + 1: row R + L / 4, columns C + 2 (L % 4) and + 1 of matrix k, for lane L), matrix k
 * of group g at (row, col) = (r[g] + dr[k], c[g] + dc[k]) in warp 0 and shifted alike in
 * every slot by each warp. Checked for every thread; false when t's layout is not so. */
typedef struct stm_plan {
	int64_t r[64], c[64]; /* per group (at most 64 groups: 512 slots) */
	int64_t dr[4], dc[4];
} stm_plan;

static bool stmatrix_plan(const gpu_layout *l, const ir_type *t, int warp, int T, int n, stm_plan *sp)
{
	int64_t w = t->shape[1];
	if (n % 8 || n / 8 > 64)
		return false;
	for (int e = 0; e < n; e += 2) {
		int64_t f = gpu_layout_flat(l, t->shape, 2, warp, 0, e);
		int g = e / 8, k = (e % 8) / 2;
		if (k == 0)
			sp->r[g] = f / w, sp->c[g] = f % w;
		int64_t dr = f / w - sp->r[g], dc = f % w - sp->c[g];
		if (g == 0)
			sp->dr[k] = dr, sp->dc[k] = dc;
		else if (dr != sp->dr[k] || dc != sp->dc[k])
			return false;
	}
	for (int th = 0; th < T; th++) {
		int lane = th % warp, t0 = th - lane;
		/* the warp's shift, from its lane 0's first slot */
		int64_t f00 = gpu_layout_flat(l, t->shape, 2, warp, t0, 0);
		int64_t wr = f00 / w - sp->r[0], wc = f00 % w - sp->c[0];
		for (int e = 0; e < n; e++) {
			int g = e / 8, k = (e % 8) / 2;
			int64_t want = (sp->r[g] + sp->dr[k] + wr + lane / 4) * w + sp->c[g] + sp->dc[k] + wc + 2 * (lane % 4) + e % 2;
			if (gpu_layout_flat(l, t->shape, 2, warp, th, e) != want)
				return false;
		}
	}
	return true;
}

/* The stores of convert_through_smem with stmatrix (sm_90 and later) when the source is
 * a 16-bit tile in an #mma layout: one instruction per four 8x8 matrices (a thread's 8
 * slots) instead of a store per pair. Each lane gives the address of row L % 8 of matrix
 * L / 8 in the buffer of rows `pitch` elements apart (16-byte aligned): one address per
 * lane, computed once, plus each group's constant offset. Whether it did. */
static bool store_stmatrix(cg *c, const ir_value *v, int64_t pitch)
{
	const ir_type *t = v->type;
	const gpu_layout *l = &lg_tile_layout(c, t)->l;
	gtile *g = lg_tget(c, v);
	stm_plan sp;
	if (!c->isa->stmatrix || lg_prog->cc < 90 || lg_prog->warp != 32 || t->rank != 2 || !l->mma ||
	    gpu_elem_bytes(t->elem) != 2 || t->elem->kind == IR_I1 || t->shape[1] % 8 || (pitch * 2) % 16 ||
	    !stmatrix_plan(l, t, lg_prog->warp, lg_prog->T, g->n, &sp))
		return false;
	int64_t n = t->shape[1];
	int64_t need = t->shape[0] * pitch * 2;
	if (need > lg_prog->smem_bytes)
		lg_prog->smem_bytes = need;
	LLVMBuilderRef b = c->b;
	LLVMValueRef lane = LLVMBuildURem(b, lg_prog->tid, cg_i32(c, 32), "");
	/* the warp's first element: this thread's slot 0 less its lane's place in the matrix */
	LLVMValueRef mine = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildUDiv(b, lane, cg_i32(c, 4), ""), cg_i32(c, n), ""),
					 LLVMBuildMul(b, LLVMBuildURem(b, lane, cg_i32(c, 4), ""), cg_i32(c, 2), ""), "");
	LLVMValueRef f00 = LLVMBuildSub(b, lg_owned(c, t, 0), mine, "");
	LLVMValueRef row = LLVMBuildAdd(b, LLVMBuildUDiv(b, f00, cg_i32(c, n), ""), LLVMBuildURem(b, lane, cg_i32(c, 8), ""), "");
	LLVMValueRef col = LLVMBuildURem(b, f00, cg_i32(c, n), "");
	/* matrix L / 8 of the group: its row and column shift */
	LLVMValueRef which = LLVMBuildUDiv(b, lane, cg_i32(c, 8), ""), dr = cg_i32(c, sp.dr[0]), dc = cg_i32(c, sp.dc[0]);
	for (int k = 1; k < 4; k++) {
		LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, which, cg_i32(c, k), "");
		dr = LLVMBuildSelect(b, is, cg_i32(c, sp.dr[k]), dr, "");
		dc = LLVMBuildSelect(b, is, cg_i32(c, sp.dc[k]), dc, "");
	}
	LLVMValueRef base = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildAdd(b, row, dr, ""), cg_i32(c, pitch), ""),
					 LLVMBuildAdd(b, col, dc, ""), "");
	LLVMTypeRef pair = LLVMVectorType(cg_mem_type(c, t->elem), 2);
	for (int e = 0; e < g->n; e += 8) {
		LLVMValueRef regs[4];
		for (int k = 0; k < 4; k++) {
			LLVMValueRef x = LLVMGetPoison(pair);
			x = LLVMBuildInsertElement(b, x, g->v[e + 2 * k], cg_i32(c, 0), "");
			x = LLVMBuildInsertElement(b, x, g->v[e + 2 * k + 1], cg_i32(c, 1), "");
			regs[k] = LLVMBuildBitCast(b, x, c->t_i32, "");
		}
		int64_t off = (sp.r[e / 8] - sp.r[0]) * pitch + sp.c[e / 8] - sp.c[0];
		c->isa->stmatrix(c, lg_smem_at(c, t->elem, 0, LLVMBuildAdd(b, base, cg_i32(c, off), "")), regs);
	}
	return true;
}

/* convert_layout between register layouts (GPU_EXCHANGE): through a buffer of rows
 * gpu_exchange_pitch apart (no bank conflicts for an #mma source), each run of
 * consecutive elements the result's layout gives a thread along the last dimension read
 * as one vector of up to 16 bytes. */
static void convert_through_smem(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type, *e = rt->elem;
	const ir_value *src = op->operands[0];
	/* the flattened order is the source's (reshape, expand_dims): rows are its rows */
	int64_t n = src->type->rank ? src->type->shape[src->type->rank - 1] : 1, pitch = gpu_exchange_pitch(src->type);
	int64_t nr = rt->rank ? rt->shape[rt->rank - 1] : 1, eb = gpu_elem_bytes(e);
	lg_lead_barrier(c); /* earlier readers of shared memory are done */
	if (!store_stmatrix(c, src, pitch))
		store_tile_pitch(c, src, 0, NULL, pitch);
	lg_barrier(c);
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	int dim = 0;
	int w = e->kind == IR_I1 || rt->rank < 1 ? 1 : gpu_layout_run_dim(rt, lg_prog->warp, lg_prog->T / lg_prog->warp, &dim);
	if (dim != rt->rank - 1)
		w = 1;
	while (w > 1 && (w * eb > 16 || r->n % w || n % w || nr % w || (pitch * eb) % (w * eb)))
		w /= 2;
	for (int k = 0; k < r->n; k += w) {
		LLVMValueRef i = pitched(c, lg_owned(c, rt, k), n, pitch);
		if (w == 1) {
			r->v[k] = lg_from_smem(c, e, 0, i);
			continue;
		}
		LLVMTypeRef vt = LLVMVectorType(cg_mem_type(c, e), (unsigned)w);
		LLVMValueRef x = LLVMBuildLoad2(c->b, vt, lg_smem_at(c, e, 0, i), "");
		LLVMSetAlignment(x, (unsigned)(w * eb));
		for (int j = 0; j < w; j++)
			r->v[k + j] = LLVMBuildExtractElement(c->b, x, cg_i32(c, j), "");
	}
	lg_put(c, &op->results[0], r);
}

static void lower_shape(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type;
	const ir_value *x = op->noperands ? op->operands[0] : NULL;
	switch (op->code) {
	case IR_OP_CONSTANT: {
		LLVMValueRef v = cg_const_value(c, op, ir_type_elem(rt));
		if (!lg_is_tile(rt)) {
			lg_put(c, &op->results[0], v);
			return;
		}
		gtile *r = lg_new_tile(c, lg_slots(c, rt));
		for (int e = 0; e < r->n; e++)
			r->v[e] = v;
		lg_put(c, &op->results[0], r);
		return;
	}
	case IR_OP_PROGRAM_ID:
	case IR_OP_NUM_PROGRAMS: {
		int axis = (int)ir_op_int(op, "axis", 0);
		lg_put(c, &op->results[0], op->code == IR_OP_NUM_PROGRAMS ? c->isa->num_programs(c, axis)
								       : c->isa->program_id(c, axis));
		return;
	}
	case IR_OP_MAKE_RANGE: {
		gtile *r = lg_new_tile(c, lg_slots(c, rt));
		for (int e = 0; e < r->n; e++)
			r->v[e] = LLVMBuildAdd(c->b, lg_owned(c, rt, e),
					       cg_i32(c, ir_op_int(op, "start", 0)), "");
		lg_put(c, &op->results[0], r);
		return;
	}
	case IR_OP_SPLAT: {
		gtile *r = lg_new_tile(c, lg_slots(c, rt));
		for (int e = 0; e < r->n; e++)
			r->v[e] = lg_sget(c, x);
		lg_put(c, &op->results[0], r);
		return;
	}
	case IR_OP_EXPAND_DIMS:
	case IR_OP_RESHAPE:
	case IR_OP_MULTIPLE_OF:
	case IR_OP_MAX_CONTIGUOUS:
	case IR_OP_CONVERT_LAYOUT:
		if (!lg_is_tile(rt)) { /* a hint on a scalar (tl.multiple_of(lo, BLOCK)): the value */
			lg_put(c, &op->results[0], lg_sget(c, x));
			return;
		}
		if (lg_tile_layout(c, rt)->l.kind == GPU_SHARED) {
			to_shared(c, op);
			return;
		}
		/* fall through */
	case IR_OP_BROADCAST:
		if (!lg_is_tile(x->type)) { /* broadcast of a scalar */
			gtile *r = lg_new_tile(c, lg_slots(c, rt));
			for (int e = 0; e < r->n; e++)
				r->v[e] = lg_sget(c, x);
			lg_put(c, &op->results[0], r);
			return;
		}
		switch (gpu_reshape_how(op, lg_prog->warp, lg_prog->T / lg_prog->warp)) {
		case GPU_SHARE: lg_put(c, &op->results[0], ir_ptrmap_get(&c->vals, x)); return;
		case GPU_REGMAP: regmap(c, op); return;
		case GPU_EXCHANGE:
			if (op->code == IR_OP_BROADCAST)
				exchange(c, op, 0, remap_broadcast, gpu_exchange_pitch(x->type));
			else
				convert_through_smem(c, op);
			return;
		}
		return;
	case IR_OP_TRANS:
		exchange(c, op, 0, remap_trans, x->type->shape[x->type->rank - 1]);
		return;
	default:
		cg_fail(c, op, "the GPU backends cannot lower '%s' yet", ir_ops[op->code].name);
	}
}

/* ---- memory ------------------------------------------------------------------------------- */

static LLVMValueRef pred_load(cg *c, LLVMValueRef p, LLVMTypeRef t, LLVMValueRef m, LLVMValueRef other,
			      unsigned align)
{
	if (!m) {
		LLVMValueRef v = LLVMBuildLoad2(c->b, t, p, "");
		LLVMSetAlignment(v, align);
		return v;
	}
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "ld");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "ld.join");
	LLVMBuildCondBr(c->b, m, then, join);
	LLVMPositionBuilderAtEnd(c->b, then);
	LLVMValueRef v = LLVMBuildLoad2(c->b, t, p, "");
	LLVMSetAlignment(v, align);
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, join);
	LLVMValueRef phi = LLVMBuildPhi(c->b, t, "");
	LLVMValueRef vals[2] = {v, other ? other : LLVMConstNull(t)};
	LLVMBasicBlockRef bbs[2] = {then, pre};
	LLVMAddIncoming(phi, vals, bbs, 2);
	return phi;
}

void lg_pred_store(cg *c, LLVMValueRef p, LLVMValueRef v, LLVMValueRef m, unsigned align)
{
	if (!m) {
		LLVMValueRef s = LLVMBuildStore(c->b, v, p);
		LLVMSetAlignment(s, align);
		return;
	}
	LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "st");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "st.join");
	LLVMBuildCondBr(c->b, m, then, join);
	LLVMPositionBuilderAtEnd(c->b, then);
	LLVMValueRef s = LLVMBuildStore(c->b, v, p);
	LLVMSetAlignment(s, align);
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, join);
}

/* Elements per access: what the coalesce pass recorded ({vec}), within a thread's run
 * (consecutive slots, consecutive along the layout's fastest dimension, the one coalesce
 * measured the pointers' contiguity along). */
static int access_width(const ir_op *op, const ir_type *t)
{
	int w = (int)ir_op_int(op, "vec", 1), dim;
	int v = gpu_layout_run_dim(t, lg_prog->warp, lg_prog->T / lg_prog->warp, &dim);
	return w >= 1 && w <= v ? w : 1;
}

static void load_block_ptr(cg *c, const ir_op *op);

static void lower_load(cg *c, const ir_op *op)
{
	sync_reads(c);
	const ir_value *p = op->operands[0];
	const ir_value *m = op->noperands > 1 ? op->operands[1] : NULL;
	const ir_value *o = op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *rt = op->results[0].type, *e = ir_type_elem(rt);
	LLVMTypeRef mt = cg_mem_type(c, e);
	if (!lg_is_tile(p->type) && p->type->elem->kind == IR_TILE) {
		load_block_ptr(c, op);
		return;
	}
	if (!lg_is_tile(rt)) {
		LLVMValueRef v = pred_load(c, lg_sget(c, p), mt, m ? lg_sget(c, m) : NULL, o ? lg_sget(c, o) : NULL,
					   (unsigned)gpu_elem_bytes(e));
		lg_put(c, &op->results[0], e->kind == IR_I1 ? LLVMBuildTrunc(c->b, v, c->t_i1, "") : v);
		return;
	}
	gtile *r = lg_new_tile(c, lg_slots(c, rt));
	int w = access_width(op, p->type);
	for (int k = 0; k < r->n; k += w) {
		LLVMValueRef ptr = lg_opnd(c, p, k);
		LLVMValueRef mv = m ? lg_opnd(c, m, k) : NULL;
		if (w == 1) {
			LLVMValueRef ov = o ? lg_opnd(c, o, k) : NULL;
			if (ov && e->kind == IR_I1)
				ov = LLVMBuildZExt(c->b, ov, c->t_i8, "");
			LLVMValueRef v = pred_load(c, ptr, mt, mv, ov, (unsigned)gpu_elem_bytes(e));
			r->v[k] = e->kind == IR_I1 ? LLVMBuildTrunc(c->b, v, c->t_i1, "") : v;
			continue;
		}
		/* i1 lives in memory as i8 (mt): widen `other`, narrow what was read */
		LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)w);
		LLVMValueRef ov = LLVMGetPoison(vt);
		for (int j = 0; j < w; j++) {
			LLVMValueRef oj = o ? lg_opnd(c, o, k + j) : LLVMConstNull(mt);
			if (o && e->kind == IR_I1)
				oj = LLVMBuildZExt(c->b, oj, c->t_i8, "");
			ov = LLVMBuildInsertElement(c->b, ov, oj, cg_i32(c, j), "");
		}
		int bytes = w * (int)gpu_elem_bytes(e);
		LLVMValueRef v = mv && bytes % 4 == 0 && c->isa->masked_load
					 ? c->isa->masked_load(c, ptr, vt, mv, ov, bytes)
					 : pred_load(c, ptr, vt, mv, ov, (unsigned)bytes);
		for (int j = 0; j < w; j++) {
			LLVMValueRef x = LLVMBuildExtractElement(c->b, v, cg_i32(c, j), "");
			r->v[k + j] = e->kind == IR_I1 ? LLVMBuildTrunc(c->b, x, c->t_i1, "") : x;
		}
	}
	lg_put(c, &op->results[0], r);
}

/* Block pointers are struct values {base, shape[r], strides[r], offsets[r]} in registers. */
static LLVMTypeRef bptr_type(cg *c, int rank)
{
	LLVMTypeRef f[4] = {c->t_ptr, LLVMArrayType2(c->t_i64, (uint64_t)rank),
			    LLVMArrayType2(c->t_i64, (uint64_t)rank), LLVMArrayType2(c->t_i32, (uint64_t)rank)};
	return LLVMStructTypeInContext(c->ctx, f, 4, 0);
}

static void lower_block_ptr(cg *c, const ir_op *op)
{
	const ir_type *tt = op->results[0].type->elem;
	int r = tt->rank;
	LLVMValueRef v;
	if (op->code == IR_OP_MAKE_BLOCK_PTR) {
		v = LLVMGetUndef(bptr_type(c, r));
		v = LLVMBuildInsertValue(c->b, v, lg_sget(c, op->operands[0]), 0, "");
		for (int f = 1; f <= 3; f++) {
			LLVMValueRef arr = LLVMBuildExtractValue(c->b, v, (unsigned)f, "");
			for (int d = 0; d < r; d++)
				arr = LLVMBuildInsertValue(c->b, arr, lg_sget(c, op->operands[1 + (f - 1) * r + d]), (unsigned)d, "");
			v = LLVMBuildInsertValue(c->b, v, arr, (unsigned)f, "");
		}
	} else {
		v = lg_sget(c, op->operands[0]);
		LLVMValueRef arr = LLVMBuildExtractValue(c->b, v, 3, "");
		for (int d = 0; d < r; d++) {
			LLVMValueRef o = LLVMBuildExtractValue(c->b, arr, (unsigned)d, "");
			arr = LLVMBuildInsertValue(c->b, arr, LLVMBuildAdd(c->b, o, lg_sget(c, op->operands[1 + d]), ""), (unsigned)d, "");
		}
		v = LLVMBuildInsertValue(c->b, v, arr, 3, "");
	}
	lg_put(c, &op->results[0], v);
}

static bool checks_dim(const ir_op *op, int d)
{
	const ir_attr *bc = ir_op_attr(op, "boundary_check");
	for (int i = 0; bc && i < bc->ints.n; i++)
		if (bc->ints.v[i] == d)
			return true;
	return false;
}

/* Address of element i (flattened, i32) of a block-pointer access, and whether it lies in
 * bounds along the checked dimensions (*inb NULL when nothing is checked). */
static LLVMValueRef bptr_addr(cg *c, const ir_op *op, LLVMValueRef bp, const ir_type *tt, LLVMValueRef i,
			      LLVMValueRef *inb)
{
	LLVMValueRef idx[16];
	cg_unflatten(c, tt, i, idx);
	LLVMValueRef shape = LLVMBuildExtractValue(c->b, bp, 1, "");
	LLVMValueRef stride = LLVMBuildExtractValue(c->b, bp, 2, "");
	LLVMValueRef offs = LLVMBuildExtractValue(c->b, bp, 3, "");
	LLVMValueRef off = cg_i64(c, 0);
	*inb = NULL;
	for (int d = 0; d < tt->rank; d++) {
		LLVMValueRef pos = LLVMBuildAdd(c->b, LLVMBuildSExt(c->b, LLVMBuildExtractValue(c->b, offs, (unsigned)d, ""), c->t_i64, ""),
						LLVMBuildZExt(c->b, idx[d], c->t_i64, ""), "");
		off = LLVMBuildAdd(c->b, off, LLVMBuildMul(c->b, pos, LLVMBuildExtractValue(c->b, stride, (unsigned)d, ""), ""), "");
		if (checks_dim(op, d)) {
			LLVMValueRef ok = LLVMBuildAnd(c->b, LLVMBuildICmp(c->b, LLVMIntSGE, pos, cg_i64(c, 0), ""),
						       LLVMBuildICmp(c->b, LLVMIntSLT, pos, LLVMBuildExtractValue(c->b, shape, (unsigned)d, ""), ""), "");
			*inb = *inb ? LLVMBuildAnd(c->b, *inb, ok, "") : ok;
		}
	}
	return LLVMBuildGEP2(c->b, cg_mem_type(c, tt->elem), LLVMBuildExtractValue(c->b, bp, 0, ""), &off, 1, "");
}

static void load_block_ptr(cg *c, const ir_op *op)
{
	const ir_type *rt = op->results[0].type, *e = rt->elem;
	const ir_attr *pa = ir_op_attr(op, "padding");
	bool nan = pa && pa->kind == IR_ATTR_STR && !strcmp(pa->s, "nan") && ir_type_is_float(e);
	int64_t n = ir_type_numel(rt);
	gtile *r = lg_new_tile(c, lg_per_thread(n));
	for (int k = 0; k < r->n; k++) {
		LLVMValueRef inb;
		LLVMValueRef addr = bptr_addr(c, op, lg_sget(c, op->operands[0]), rt, lg_owned_index(c, n, k), &inb);
		LLVMValueRef dflt = nan ? LLVMConstReal(cg_scalar_type(c, e), __builtin_nan("")) : NULL;
		LLVMValueRef v = pred_load(c, addr, cg_mem_type(c, e), inb, dflt, (unsigned)gpu_elem_bytes(e));
		r->v[k] = e->kind == IR_I1 ? LLVMBuildTrunc(c->b, v, c->t_i1, "") : v;
	}
	lg_put(c, &op->results[0], r);
}

/* Threads holding a replicated copy of an element must not all write it. */
static LLVMValueRef owner_only(cg *c, int64_t numel, LLVMValueRef m)
{
	if (numel >= lg_prog->T)
		return m;
	LLVMValueRef first = LLVMBuildICmp(c->b, LLVMIntULT, lg_prog->tid, cg_i32(c, numel), "");
	return m ? LLVMBuildAnd(c->b, m, first, "") : first;
}

static void lower_store(cg *c, const ir_op *op)
{
	const ir_value *p = op->operands[0], *v = op->operands[1];
	const ir_value *m = op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *e = ir_type_elem(v->type);
	if (!lg_is_tile(p->type) && p->type->elem->kind == IR_TILE) {
		const ir_type *tt = p->type->elem;
		int64_t n = ir_type_numel(tt);
		for (int k = 0; k < lg_per_thread(n); k++) {
			LLVMValueRef inb;
			LLVMValueRef addr = bptr_addr(c, op, lg_sget(c, p), tt, lg_owned_index(c, n, k), &inb);
			LLVMValueRef x = lg_opnd(c, v, k);
			if (e->kind == IR_I1)
				x = LLVMBuildZExt(c->b, x, c->t_i8, "");
			lg_pred_store(c, addr, x, owner_only(c, n, inb), (unsigned)gpu_elem_bytes(e));
		}
		return;
	}
	if (!lg_is_tile(p->type)) {
		/* a scalar store: one thread does it */
		LLVMValueRef x = lg_sget(c, v);
		if (e->kind == IR_I1)
			x = LLVMBuildZExt(c->b, x, c->t_i8, "");
		lg_pred_store(c, lg_sget(c, p), x, owner_only(c, 1, m ? lg_sget(c, m) : NULL), (unsigned)gpu_elem_bytes(e));
		return;
	}
	int64_t n = ir_type_numel(p->type);
	int E = lg_slots(c, p->type);
	int w = access_width(op, p->type);
	LLVMTypeRef mt = cg_mem_type(c, e);
	for (int k = 0; k < E; k += w) {
		LLVMValueRef mv = owner_only(c, n, m ? lg_opnd(c, m, k) : NULL);
		if (w == 1) {
			LLVMValueRef x = lg_opnd(c, v, k);
			if (e->kind == IR_I1)
				x = LLVMBuildZExt(c->b, x, c->t_i8, "");
			lg_pred_store(c, lg_opnd(c, p, k), x, mv, (unsigned)gpu_elem_bytes(e));
			continue;
		}
		LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)w);
		LLVMValueRef x = LLVMGetPoison(vt);
		for (int j = 0; j < w; j++)
			x = LLVMBuildInsertElement(c->b, x, lg_opnd(c, v, k + j), cg_i32(c, j), "");
		lg_pred_store(c, lg_opnd(c, p, k), x, mv, (unsigned)(w * gpu_elem_bytes(e)));
	}
}

static bool sem_releases(const char *sem)
{
	return !strcmp(sem, "release") || !strcmp(sem, "acq_rel");
}

static bool sem_acquires(const char *sem)
{
	return !strcmp(sem, "acquire") || !strcmp(sem, "acq_rel");
}

/* Whether value v is an operand anywhere in block b (nested regions included). */
static bool used_in(const ir_block *b, const ir_value *v)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->noperands; i++)
			if (op->operands[i] == v)
				return true;
		for (int r = 0; r < op->nregions; r++)
			if (used_in(op->regions[r], v))
				return true;
	}
	return false;
}

/* Atomics. The atomics of a tile are its elements': each thread performs those it owns,
 * each with the op's semantic for that thread's accesses, as in Triton. A scalar atomic is
 * the program's: every thread first finishes its earlier accesses (a barrier, when the
 * semantic releases, so that the release by the one thread that performs it covers them
 * all), thread 0 performs it, and the old value reaches every thread through shared memory
 * after a second barrier, which also orders every thread's later accesses after the
 * acquire. A tile smaller than the program, whose elements are replicated, is performed by
 * one owner per element and its results broadcast the same way. */
static void lower_atomic(cg *c, const ir_op *op)
{
	const ir_value *p = op->operands[0];
	bool cas = op->code == IR_OP_ATOMIC_CAS;
	const ir_value *m = !cas && op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *rt = op->results[0].type, *e = ir_type_elem(rt);
	bool tile = lg_is_tile(rt);
	int64_t n = tile ? ir_type_numel(rt) : 1;
	int E = tile ? lg_per_thread(n) : 1;
	gtile *r = tile ? lg_new_tile(c, E) : NULL;
	cg_atomic proto = cg_atomic_of(op, e);
	bool replicated = n < lg_prog->T;
	bool bcast = replicated && (used_in(c->f->body, &op->results[0]) || (!tile && sem_acquires(proto.sem)));
	bool after_barrier = op->prev && op->prev->code == IR_OP_BARRIER;
	if (lg_prog->pending || (!after_barrier && ((!tile && sem_releases(proto.sem)) || (bcast && !lg_prog->explicit_barriers))))
		lg_barrier(c);
	LLVMTypeRef mt = cg_mem_type(c, e);
	LLVMValueRef *out = r ? r->v : ARENA_NEWN(c->a, LLVMValueRef, 1);
	for (int i = 0; i < E; i++) {
		LLVMValueRef mv = m ? (tile ? lg_opnd(c, m, i) : lg_sget(c, m)) : NULL;
		mv = owner_only(c, n, mv);
		LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
		LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "atom");
		LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "atom.join");
		LLVMBuildCondBr(c->b, mv, then, join);
		LLVMPositionBuilderAtEnd(c->b, then);
		cg_atomic a = proto;
		a.ptr = tile ? lg_opnd(c, p, i) : lg_sget(c, p);
		if (cas) {
			a.cmp = tile ? lg_opnd(c, op->operands[1], i) : lg_sget(c, op->operands[1]);
			a.val = tile ? lg_opnd(c, op->operands[2], i) : lg_sget(c, op->operands[2]);
		} else {
			a.val = tile ? lg_opnd(c, op->operands[1], i) : lg_sget(c, op->operands[1]);
		}
		LLVMValueRef x = c->isa->atomic(c, &a);
		then = LLVMGetInsertBlock(c->b);
		LLVMBuildBr(c->b, join);
		LLVMPositionBuilderAtEnd(c->b, join);
		LLVMValueRef phi = LLVMBuildPhi(c->b, mt, "");
		LLVMValueRef vals[2] = {x, LLVMConstNull(mt)};
		LLVMBasicBlockRef bbs[2] = {then, pre};
		LLVMAddIncoming(phi, vals, bbs, 2);
		out[i] = phi;
	}
	if (bcast) {
		/* the owners write their elements' old values; every thread reads its copies */
		int64_t need = n * gpu_elem_bytes(e);
		if (need > lg_prog->smem_bytes)
			lg_prog->smem_bytes = need;
		LLVMValueRef owner = LLVMBuildICmp(c->b, LLVMIntULT, lg_prog->tid, cg_i32(c, n), "");
		for (int i = 0; i < E; i++)
			lg_pred_store(c, lg_smem_at(c, e, 0, lg_owned_index(c, n, i)), out[i], owner,
				   (unsigned)gpu_elem_bytes(e));
		lg_barrier(c);
		for (int i = 0; i < E; i++)
			out[i] = lg_from_smem(c, e, 0, lg_owned_index(c, n, i));
	}
	if (r)
		lg_put(c, &op->results[0], r);
	else
		lg_put(c, &op->results[0], out[0]);
}

/* ---- loops in registers ---------------------------------------------------------------- */

void lg_philoop_open(cg *c, philoop *l, const char *name, LLVMValueRef from, LLVMIntPredicate pred,
			 LLVMValueRef bound, int n, const LLVMValueRef *init)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef body;
	l->head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, name);
	body = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "body");
	l->done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "done");
	l->n = n;
	LLVMBuildBr(c->b, l->head);
	LLVMPositionBuilderAtEnd(c->b, l->head);
	l->iv = LLVMBuildPhi(c->b, c->t_i32, "k");
	LLVMAddIncoming(l->iv, &from, &pre, 1);
	for (int k = 0; k < n; k++) {
		l->vals[k] = LLVMBuildPhi(c->b, LLVMTypeOf(init[k]), "acc");
		LLVMAddIncoming(l->vals[k], (LLVMValueRef *)&init[k], &pre, 1);
	}
	LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, pred, l->iv, bound, ""), body, l->done);
	LLVMPositionBuilderAtEnd(c->b, body);
}

void lg_philoop_close(cg *c, philoop *l, const LLVMValueRef *next)
{
	LLVMValueRef inc = LLVMBuildAdd(c->b, l->iv, cg_i32(c, 1), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	LLVMAddIncoming(l->iv, &inc, &latch, 1);
	for (int k = 0; k < l->n; k++)
		LLVMAddIncoming(l->vals[k], (LLVMValueRef *)&next[k], &latch, 1);
	LLVMBuildBr(c->b, l->head);
	LLVMPositionBuilderAtEnd(c->b, l->done);
}

/* ---- control flow ------------------------------------------------------------------------- */

/* Flattens the values of n IR values (tiles expand to their elements) into out. */
static int flat_vals(cg *c, const ir_value *const *vs, int n, LLVMValueRef *out)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (lg_is_tile(vs[i]->type)) {
			gtile *t = lg_tget(c, vs[i]);
			for (int e = 0; e < t->n; e++)
				out[k++] = t->v[e];
		} else {
			out[k++] = lg_sget(c, vs[i]);
		}
	}
	return k;
}

static int flat_count(const ir_type *t)
{
	return lg_is_tile(t) ? lg_slots(lg_prog->c, t) : 1;
}

/* Binds values v[0..n) from flat LLVM values. */
static void bind_flat(cg *c, ir_value *const *vs, int n, LLVMValueRef *flat)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (lg_is_tile(vs[i]->type)) {
			gtile *t = lg_new_tile(c, flat_count(vs[i]->type));
			for (int e = 0; e < t->n; e++)
				t->v[e] = flat[k++];
			lg_put(c, vs[i], t);
		} else {
			lg_put(c, vs[i], flat[k++]);
		}
	}
}

/* op's results as an array of values (in the arena). */
static ir_value **results_of(cg *c, const ir_op *op)
{
	ir_value **r = ARENA_NEWN(c->a, ir_value *, (size_t)op->nresults + 1);
	for (int k = 0; k < op->nresults; k++)
		r[k] = &op->results[k];
	return r;
}

static int total_flat(ir_value *const *vs, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += flat_count(vs[i]->type);
	return k;
}

/* The ring slots of a pipelined loop's body (pipeline.c's {ring_slot = k} remi ops: slot
 * (i + k) % S of iteration i): a counter each, a phi of the block being built that starts
 * at k % S and steps by one, wrapping to 0 at S, instead of a division per iteration.
 * Saved and restored around the loop (loops nest). slots_open makes the phis (incoming
 * from pre), slots_close adds the next values from latch. */
typedef struct slotsave {
	int n;
	const ir_value *of[4];
	LLVMValueRef phi[4];
	int64_t S;
} slotsave;

static void slots_open(cg *c, const ir_op *op, LLVMBasicBlockRef pre, slotsave *sv)
{
	sv->n = lg_prog->nslots;
	for (int k = 0; k < sv->n; k++)
		sv->of[k] = lg_prog->slot_of[k], sv->phi[k] = lg_prog->slot_phi[k];
	sv->S = ir_op_int(op, "pipelined_stages", 0);
	lg_prog->nslots = 0;
	if (sv->S < 2)
		return;
	for (const ir_op *o = op->regions[0]->first; o && lg_prog->nslots < 4; o = o->next) {
		int64_t k = ir_op_int(o, "ring_slot", -1);
		if (o->code != IR_OP_REMI || k < 0 || o->results[0].type->kind != IR_I32)
			continue;
		LLVMValueRef phi = LLVMBuildPhi(c->b, c->t_i32, "slot");
		LLVMValueRef init = cg_i32(c, k % sv->S);
		LLVMAddIncoming(phi, &init, &pre, 1);
		lg_prog->slot_of[lg_prog->nslots] = &o->results[0];
		lg_prog->slot_phi[lg_prog->nslots++] = phi;
	}
}

static void slots_close(cg *c, LLVMBasicBlockRef latch, slotsave *sv)
{
	for (int k = 0; k < lg_prog->nslots; k++) {
		LLVMValueRef phi = lg_prog->slot_phi[k];
		LLVMValueRef n = LLVMBuildAdd(c->b, phi, cg_i32(c, 1), "");
		LLVMValueRef wrap = LLVMBuildICmp(c->b, LLVMIntEQ, n, cg_i32(c, sv->S), "");
		n = LLVMBuildSelect(c->b, wrap, cg_i32(c, 0), n, "");
		LLVMAddIncoming(phi, &n, &latch, 1);
	}
	lg_prog->nslots = sv->n;
	for (int k = 0; k < sv->n; k++)
		lg_prog->slot_of[k] = sv->of[k], lg_prog->slot_phi[k] = sv->phi[k];
}

/* The loop's phis in the block being built: the induction variable's (lb from pre) and
 * the carried values' (init from pre), and its ring-slot counters (slots_open). */
static LLVMValueRef loop_phis(cg *c, const ir_op *op, LLVMBasicBlockRef pre, LLVMValueRef lb,
			      LLVMValueRef *init, int nf, LLVMValueRef *phis, slotsave *sv)
{
	LLVMValueRef iv = LLVMBuildPhi(c->b, LLVMTypeOf(lb), "iv");
	LLVMAddIncoming(iv, &lb, &pre, 1);
	for (int k = 0; k < nf; k++) {
		phis[k] = LLVMBuildPhi(c->b, LLVMTypeOf(init[k]), "");
		LLVMAddIncoming(phis[k], &init[k], &pre, 1);
	}
	slots_open(c, op, pre, sv);
	return iv;
}

/* The loop's body, with its arguments bound to iv and the phis; the values it yields in
 * yv; the latch's next values added to the phis. Returns the next induction variable. */
static LLVMValueRef loop_body(cg *c, const ir_op *op, LLVMValueRef iv, LLVMValueRef step, LLVMValueRef *phis,
			      int nf, LLVMValueRef *yv, slotsave *sv)
{
	const ir_block *body = op->regions[0];
	lg_put(c, body->args[0], iv);
	bind_flat(c, body->args + 1, op->nresults, phis);
	lg_lower_block(c, body);
	flat_vals(c, (const ir_value *const *)cg_terminator(body)->operands, op->nresults, yv);
	LLVMValueRef next = LLVMBuildAdd(c->b, iv, step, "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	slots_close(c, latch, sv);
	LLVMAddIncoming(iv, &next, &latch, 1);
	for (int k = 0; k < nf; k++)
		LLVMAddIncoming(phis[k], &yv[k], &latch, 1);
	return next;
}

/* A loop whose result {async_result} is the accumulator of a wgmma dot still in flight at
 * its end (the pipeline pass's chained form, attention's second dot): laid out rotated,
 * the test at the bottom, and the accumulator waited for on the way out of the loop,
 * before the exit joins the path that skips the loop. Joined first, ptxas would see that
 * path's zeroed accumulator registers as written while the dot runs, and serialize every
 * wgmma of the kernel (C7515); the dot_wait after the loop then finds nothing in flight. */
static void lower_for_rotated(cg *c, const ir_op *op, int ak)
{
	int n = op->nresults;
	const ir_block *body = op->regions[0];
	int nf = total_flat(body->args + 1, n);
	LLVMValueRef *init = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *phis = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *yv = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *out = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	flat_vals(c, (const ir_value *const *)op->operands + 3, n, init);
	LLVMValueRef lb = lg_sget(c, op->operands[0]), ub = lg_sget(c, op->operands[1]), step = lg_sget(c, op->operands[2]);
	bool sgn = ir_type_is_signed(op->operands[0]->type);
	bool pending = loop_enter(c, &body, 1);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.body");
	LLVMBasicBlockRef ex = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.exit");
	LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.skip");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.done");
	LLVMBuildCondBr(c->b, cg_range_cond(c, lb, ub, step, sgn), bb, skip);
	LLVMPositionBuilderAtEnd(c->b, bb);
	slotsave sv;
	LLVMValueRef iv = loop_phis(c, op, pre, lb, init, nf, phis, &sv);
	LLVMValueRef next = loop_body(c, op, iv, step, phis, nf, yv, &sv);
	LLVMBuildCondBr(c->b, cg_range_cond(c, next, ub, step, sgn), bb, ex);
	LLVMPositionBuilderAtEnd(c->b, ex);
	for (int k = 0; k < nf; k++)
		out[k] = yv[k];
	int off = total_flat(body->args + 1, ak), cnt = flat_count(body->args[1 + ak]->type);
	c->isa->wgmma_wait(c, 0, out + off, cnt);
	LLVMBasicBlockRef ex_end = LLVMGetInsertBlock(c->b);
	LLVMBuildBr(c->b, done);
	LLVMPositionBuilderAtEnd(c->b, skip);
	LLVMBuildBr(c->b, done);
	LLVMPositionBuilderAtEnd(c->b, done);
	LLVMValueRef *res = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	for (int k = 0; k < nf; k++) {
		res[k] = LLVMBuildPhi(c->b, LLVMTypeOf(init[k]), "");
		LLVMValueRef in[2] = {out[k], init[k]};
		LLVMBasicBlockRef from[2] = {ex_end, skip};
		LLVMAddIncoming(res[k], in, from, 2);
	}
	loop_exit(pending);
	bind_flat(c, results_of(c, op), n, res);
}

static void lower_for(cg *c, const ir_op *op)
{
	int n = op->nresults;
	const ir_block *body = op->regions[0];
	int nf = total_flat(body->args + 1, n);
	for (int k = 0; k < n; k++)
		if (body->args[1 + k]->type != op->operands[3 + k]->type || op->results[k].type != body->args[1 + k]->type)
			cg_fail(c, op, "internal: the loop-carried value %d changes type (layout) across the loop", k);
	LLVMValueRef *init = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *phis = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *yv = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	flat_vals(c, (const ir_value *const *)op->operands + 3, n, init);
	LLVMValueRef lb = lg_sget(c, op->operands[0]), ub = lg_sget(c, op->operands[1]), step = lg_sget(c, op->operands[2]);
	bool sgn = ir_type_is_signed(op->operands[0]->type);
	int ak = (int)ir_op_int(op, "async_result", -1);
	if (ak >= 0 && ak < n && c->isa->wgmma_wait && lg_tile_layout(c, body->args[1 + ak]->type)->l.mma == 3) {
		lower_for_rotated(c, op, ak);
		return;
	}
	bool pending = loop_enter(c, &body, 1);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for");
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "for.done");
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, head);
	slotsave sv;
	LLVMValueRef iv = loop_phis(c, op, pre, lb, init, nf, phis, &sv);
	LLVMBuildCondBr(c->b, cg_range_cond(c, iv, ub, step, sgn), bb, done);
	LLVMPositionBuilderAtEnd(c->b, bb);
	loop_body(c, op, iv, step, phis, nf, yv, &sv);
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, done);
	loop_exit(pending);
	bind_flat(c, results_of(c, op), n, phis);
}

static void lower_if(cg *c, const ir_op *op)
{
	int n = op->nresults;
	ir_value **res = results_of(c, op);
	int nf = total_flat(res, n);
	LLVMValueRef *vals[2] = {ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1), ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1)};
	LLVMBasicBlockRef arms[2] = {LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.then"),
				     LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.else")};
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "if.join");
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < n; k++)
			if (cg_terminator(op->regions[a])->operands[k]->type != res[k]->type)
				cg_fail(c, op, "internal: result %d of the if has another type (layout) in a branch", k);
	LLVMBuildCondBr(c->b, lg_sget(c, op->operands[0]), arms[0], arms[1]);
	LLVMBasicBlockRef ends[2];
	bool pending_in = lg_prog->pending, pending_out = false;
	for (int a = 0; a < 2; a++) {
		LLVMPositionBuilderAtEnd(c->b, arms[a]);
		lg_prog->pending = pending_in;
		lg_lower_block(c, op->regions[a]);
		pending_out |= lg_prog->pending;
		flat_vals(c, (const ir_value *const *)cg_terminator(op->regions[a])->operands, n, vals[a]);
		ends[a] = LLVMGetInsertBlock(c->b);
		LLVMBuildBr(c->b, join);
	}
	LLVMPositionBuilderAtEnd(c->b, join);
	lg_prog->pending = pending_out;
	LLVMValueRef *phis = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	for (int k = 0; k < nf; k++) {
		phis[k] = LLVMBuildPhi(c->b, LLVMTypeOf(vals[0][k]), "");
		LLVMValueRef in[2] = {vals[0][k], vals[1][k]};
		LLVMAddIncoming(phis[k], in, ends, 2);
	}
	bind_flat(c, res, n, phis);
}

static void lower_while(cg *c, const ir_op *op)
{
	int n = op->nresults;
	const ir_block *before = op->regions[0], *after = op->regions[1];
	int nf = total_flat(before->args, n);
	for (int k = 0; k < n; k++)
		if (before->args[k]->type != op->operands[k]->type || after->args[k]->type != before->args[k]->type ||
		    op->results[k].type != before->args[k]->type)
			cg_fail(c, op, "internal: the loop-carried value %d changes type (layout) across the loop", k);
	LLVMValueRef *init = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *phis = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *cv = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	LLVMValueRef *yv = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nf + 1);
	flat_vals(c, (const ir_value *const *)op->operands, n, init);
	bool pending = loop_enter(c, (const ir_block *const *)op->regions, 2);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while");
	LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while.body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "while.done");
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, head);
	for (int k = 0; k < nf; k++) {
		phis[k] = LLVMBuildPhi(c->b, LLVMTypeOf(init[k]), "");
		LLVMAddIncoming(phis[k], &init[k], &pre, 1);
	}
	bind_flat(c, before->args, n, phis);
	lg_lower_block(c, before);
	const ir_op *cnd = cg_terminator(before);
	flat_vals(c, (const ir_value *const *)cnd->operands + 1, n, cv);
	LLVMBuildCondBr(c->b, lg_sget(c, cnd->operands[0]), bb, done);
	LLVMPositionBuilderAtEnd(c->b, bb);
	bind_flat(c, after->args, n, cv);
	lg_lower_block(c, after);
	flat_vals(c, (const ir_value *const *)cg_terminator(after)->operands, n, yv);
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	for (int k = 0; k < nf; k++)
		LLVMAddIncoming(phis[k], &yv[k], &latch, 1);
	LLVMBuildBr(c->b, head);
	LLVMPositionBuilderAtEnd(c->b, done);
	loop_exit(pending);
	bind_flat(c, results_of(c, op), n, cv);
}

/* tl.device_assert: when any element this thread holds is false, the target's assert
 * failure (always compiled in, as on CPUs). */
static void lower_assert(cg *c, const ir_op *op)
{
	const ir_value *cv = op->operands[0];
	int n = lg_is_tile(cv->type) ? lg_tget(c, cv)->n : 1;
	LLVMValueRef bad = NULL;
	for (int e = 0; e < n; e++) {
		LLVMValueRef no = LLVMBuildNot(c->b, lg_opnd(c, cv, e), "");
		bad = bad ? LLVMBuildOr(c->b, bad, no, "") : no;
	}
	const ir_attr *ma = ir_op_attr(op, "msg");
	const char *msg = ma && ma->kind == IR_ATTR_STR && ma->s[0] ? ma->s : "device_assert";
	const char *file = diag_file_name(c->d, op->loc.file);
	LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "assert.fail");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "assert.ok");
	LLVMBuildCondBr(c->b, bad, fail, join);
	LLVMPositionBuilderAtEnd(c->b, fail);
	c->isa->assert_fail(c, msg, file ? file : "<kernel>", (int)op->loc.line, c->f->name);
	LLVMBuildBr(c->b, join);
	LLVMPositionBuilderAtEnd(c->b, join);
}

/* Whether op reads or makes a tile in a #dot_op layout (an mma.sync operand's fragments). */
static bool has_dot_op(const ir_op *op)
{
	for (int i = 0; i < op->noperands + op->nresults; i++) {
		const ir_type *t = i < op->noperands ? op->operands[i]->type : op->results[i - op->noperands].type;
		if (t->kind == IR_TILE && t->layout && !strncmp(t->layout, "dot_op<", 7))
			return true;
	}
	return false;
}

static void lower_op(cg *c, const ir_op *op)
{
	cg_debug_loc(c, op->loc);
	for (int k = 0; k < lg_prog->nslots && op->code == IR_OP_REMI; k++)
		if (lg_prog->slot_of[k] == &op->results[0]) { /* a ring slot: its counter */
			lg_put(c, &op->results[0], lg_prog->slot_phi[k]);
			return;
		}
	if (op->code != IR_OP_LOCAL_LOAD && op->code != IR_OP_DOT && !op->nregions &&
	    op->code != IR_OP_YIELD && op->code != IR_OP_CONDITION && has_dot_op(op))
		cg_fail(c, op, "internal: a tile in a #dot_op layout is read by dots only");
	if (ir_ops[op->code].traits & T_ELEMENTWISE) {
		lower_elementwise(c, op);
		return;
	}
	switch (op->code) {
	case IR_OP_LOAD: lower_load(c, op); return;
	case IR_OP_STORE:
		lower_store(c, op);
		lg_prog->pending |= one_thread_store(op);
		return;
	case IR_OP_ATOMIC_RMW: case IR_OP_ATOMIC_CAS: lower_atomic(c, op); return;
	case IR_OP_REDUCE: lg_lower_reduce(c, op); return;
	case IR_OP_SCAN: lg_lower_scan(c, op); return;
	case IR_OP_JOIN: case IR_OP_SPLIT: lower_join_split(c, op); return;
	case IR_OP_GATHER: lower_gather(c, op); return;
	case IR_OP_INLINE_ASM: lower_inline_asm(c, op); return;
	case IR_OP_MAKE_BLOCK_PTR: case IR_OP_ADVANCE: lower_block_ptr(c, op); return;
	case IR_OP_DOT: lg_lower_dot(c, op); return;
	case IR_OP_FOR: lower_for(c, op); return;
	case IR_OP_IF: lower_if(c, op); return;
	case IR_OP_WHILE: lower_while(c, op); return;
	case IR_OP_YIELD: case IR_OP_CONDITION: return;
	case IR_OP_CONVERT_LAYOUT: lower_shape(c, op); return;
	case IR_OP_RETURN: LLVMBuildRetVoid(c->b); return;
	case IR_OP_BARRIER: lg_barrier(c); return;
	case IR_OP_LOCAL_VIEW: lg_lower_local_view(c, op); return;
	case IR_OP_LOCAL_LOAD: lg_lower_local_load(c, op); return;
	case IR_OP_ASYNC_COPY: lg_lower_async_copy(c, op); return;
	case IR_OP_ASYNC_COMMIT: case IR_OP_ASYNC_WAIT: lg_lower_async(c, op); return;
	case IR_OP_DOT_WAIT: lg_lower_dot_wait(c, op); return;
	case IR_OP_ASSERT: lower_assert(c, op); return;
	default: lower_shape(c, op); return;
	}
}

void lg_lower_block(cg *c, const ir_block *b)
{
	/* the wgmma groups in flight on entry (a loop's back edge, a branch) are not
	 * tracked, nor after control flow; a reduction's combine region changes nothing */
	int outer = lg_prog->wgmma_groups;
	lg_prog->wgmma_groups = -1;
	for (const ir_op *op = b->first; op; op = op->next) {
		lower_op(c, op);
		if (op->code == IR_OP_FOR || op->code == IR_OP_WHILE || op->code == IR_OP_IF)
			lg_prog->wgmma_groups = -1;
	}
	lg_prog->wgmma_groups = outer;
}

/* Whether the block (or a region nested in it) starts asynchronous copies. */
static bool has_async_copy(const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		if (op->code == IR_OP_ASYNC_COPY)
			return true;
		for (int r = 0; r < op->nregions; r++)
			if (has_async_copy(op->regions[r]))
				return true;
	}
	return false;
}

int lower_gpu_func(cg *c, const ir_func *f, const char *meta_params, int64_t *shared)
{
	gpu g = {.c = c};
	lg_prog = &g;
	ix_memo.block = NULL;
	ix_memo.n = 0;
	c->f = f;
	const gpu_isa *isa = c->isa;
	int warp = 32, warps = 4; /* the driver sets both on every GPU function */
	gpu_func_shape(f, &warp, &warps);
	g.T = warp * warps;
	g.warp = warp;
	int np = f->body->nargs;
	LLVMTypeRef *pt = calloc((size_t)np + 1, sizeof(LLVMTypeRef));
	LLVMTypeRef gptr = LLVMPointerTypeInContext(c->ctx, isa->param_addrspace);
	for (int i = 0; i < np; i++) {
		pt[i] = cg_abi_type(c, f->body->args[i]->type);
		if (pt[i] == c->t_ptr)
			pt[i] = gptr;
	}
	c->fn = LLVMAddFunction(c->mod, f->name, LLVMFunctionType(c->t_void, pt, (unsigned)np, 0));
	free(pt);
	g.smem = isa->smem_begin(c, c->fn);
	cg_debug_begin(c, f, c->fn);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "entry");
	LLVMPositionBuilderAtEnd(c->b, entry);
	c->entry = entry;
	g.tid = isa->thread_id(c);
	for (int i = 0; i < np; i++) {
		const ir_type *t = f->body->args[i]->type;
		LLVMValueRef p = LLVMGetParam(c->fn, (unsigned)i);
		if (LLVMTypeOf(p) == gptr && gptr != c->t_ptr)
			p = LLVMBuildAddrSpaceCast(c->b, p, c->t_ptr, "");
		lg_put(c, f->body->args[i], cg_from_abi(c, t, p));
	}
	const ir_attr *amd = ir_func_attr(f, "amd_arch");
	g.mfma_gen = amd && amd->kind == IR_ATTR_STR ? gpu_amd_mfma_gen(amd->s) : 0;
	g.amd_dot = amd && amd->kind == IR_ATTR_STR && gpu_amd_has_dot(amd->s);
	g.explicit_barriers = ir_func_attr(f, "barriers_explicit") != NULL;
	const ir_attr *arch = ir_func_attr(f, "nv_arch_specific");
	g.wgmma = arch && arch->kind == IR_ATTR_INT && arch->i;
	const ir_attr *cc = ir_func_attr(f, "nv_cc");
	g.cc = cc && cc->kind == IR_ATTR_INT ? (int)cc->i : 0;
	c->wide_offsets = isa->wide_offset && g.wgmma && has_async_copy(f->body);
	lg_lower_block(c, f->body);
	c->wide_offsets = false;
	drop_unused_warp_index(&g);
	cg_debug_end(c);
	const ir_attr *planned = ir_func_attr(f, "shared");
	if (planned && planned->kind == IR_ATTR_INT && planned->i < g.smem_bytes)
		cg_fail(c, NULL, "internal: the kernel uses %lld bytes of shared memory, smem-alloc planned %lld",
			(long long)g.smem_bytes, (long long)planned->i);
	isa->finish_kernel(c, c->fn, g.T, g.smem, g.smem_bytes);
	*shared = g.smem_bytes;

	/* NAME__meta in global memory, read by the runtime with cuModuleGetGlobal */
	strbuf meta = {0};
	/* shared= is what a launch must ask for; memory that the code object declares (AMD's
	 * LDS) is not asked for again, and shows as lds= */
	strbuf_printf(&meta, "tilecc-kernel=1\nname=%s\ntarget=%s\nparams=%s\nnum_warps=%d\nshared=%lld\n",
		      f->name, isa->family, meta_params, warps, isa->static_smem ? 0LL : (long long)g.smem_bytes);
	if (isa->static_smem)
		strbuf_printf(&meta, "lds=%lld\n", (long long)g.smem_bytes);
	strbuf_printf(&meta, "block=%d,1,1\n", g.T);
	char name[512];
	snprintf(name, sizeof name, "%s__meta", f->name);
	LLVMValueRef str = LLVMConstStringInContext(c->ctx, meta.data, (unsigned)meta.len, 0);
	LLVMValueRef gv = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(str), name, 1);
	LLVMSetInitializer(gv, str);
	LLVMSetGlobalConstant(gv, 0);
	if (c->meta_out)
		strbuf_putn(c->meta_out, meta.data, meta.len);
	strbuf_free(&meta);
	lg_prog = NULL;
	return 0;
}
