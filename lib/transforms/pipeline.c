/* pipeline.c: software pipelining of the loops that feed tensor-core dots (NVIDIA sm_80
 * and later). In
 *
 *   for k in range(lo, hi, step):
 *       a = tl.load(a_ptrs, mask=..., other=0.0)      # staged in shared memory
 *       b = tl.load(b_ptrs, mask=...)                 #   for the dot below
 *       acc = tl.dot(a, b, acc)
 *       a_ptrs += ...; b_ptrs += ...
 *
 * every iteration waits for its loads before the tensor cores can start. With S stages
 * the loads of iteration i + S - 1 are started (cp.async, straight into shared memory,
 * no registers) while iteration i computes, into a ring of S slots of shared buffers:
 *
 *   prologue   for j < S - 1: start the copies of iteration j into slot j; commit
 *   body i     wait until at most S - 2 groups are in flight (iteration i's has landed)
 *              barrier (every thread's copies are visible, and every thread is done
 *                       with slot (i - 1) % S, which the next copies overwrite)
 *              start the copies of iteration i + S - 1 into slot (i + S - 1) % S; commit
 *              the dot reads slot i % S
 *              (with S >= 3 and mma.sync, the copies come after the dot instead: the
 *              slot they overwrite was read before the barrier all the same)
 *   after      wait for every group (copies past the end were predicated off)
 *
 * (on mma.sync with --mma-prefetch, mma_prefetch.c then moves each wait and barrier to
 * the end of the iteration before, where it fetches the next slot's first k-step into
 * registers)
 *
 * A load qualifies when its only use is its conversion to a #shared layout for a dot in
 * the same body whose result is in an #mma layout, its `other` is absent or zero (the
 * copy zero-fills masked elements), it moves 4, 8 or 16 bytes per access ({vec}), and
 * each access lands whole in the #shared layout (gpu_run_fits_shared). A loop-invariant
 * operand of such a dot (attention's Q) is staged once, before the loop, past the slots;
 * when it is itself a load that would qualify, it is copied there with iteration 0's
 * copies instead of going through registers.
 * Stage 0, what the copies need, is the backward slice of the loads' pointers and masks
 * in the body: pure region-free ops of the induction variable, loop-invariant values and
 * carried values (the pointer tiles) whose next value stage 0 computes too. It is cloned
 * for the prologue iterations and, in the body, for iteration i + S - 1, whose pointers
 * the carried values now hold (they run S - 1 iterations ahead, so nothing else may use
 * them, in the body or after the loop). Copies past the last iteration are predicated
 * off through their mask. The step must be a positive constant.
 *
 * S is the loop's num_stages (tl.range), else the kernel's (--num-stages, autotune
 * config), else 3, Triton's default; fewer when S slots do not fit the target's shared
 * memory; a loop of 1 stage is left alone. A wgmma dot that only accumulates across
 * iterations stays in flight ({wait = 1}: Triton's async wgmma with one group pending):
 * the copies then follow it and a barrier, and a dot_wait after the loop gives the final
 * accumulator. So does the last of several such dots (attention's second) whose carried
 * accumulator other ops read first (acc * alpha): a dot_wait before the first of them
 * hands it over in the next iteration, after the first dot's own wait, which has already
 * waited for it. smem-alloc places the ring; insert-barriers
 * treats the copies as uses of shared memory. */
#include "support/arena.h"
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"
#include "transforms/loop_stage.h"
#include "transforms/walk.h"

#define MAX_STAGED 8

typedef struct piper {
	ir_context *c;
	ir_func *f;
	int rings; /* ring ids handed out in this function */
} piper;

typedef struct staged {
	ir_op *load, *cvt;
	int64_t within; /* byte offset of its tile in a slot */
} staged;

static const ir_type *i32(piper *p)
{
	return ir_type_scalar(p->c, IR_I32);
}

static bool is_zero(const ir_value *v)
{
	const ir_op *d = v->def;
	if (!d || d->code != IR_OP_CONSTANT)
		return false;
	const ir_attr *a = ir_op_attr(d, "value");
	return a && ((a->kind == IR_ATTR_INT && a->i == 0) || (a->kind == IR_ATTR_FLOAT && a->f == 0.0));
}

/* Whether load op, whose tile cv converts to a #shared layout, can be an async copy into
 * cv's shared memory instead: a 2-D tile of pointers, `other` absent or zero (the copy
 * zero-fills), 4, 8 or 16 bytes per access, each landing whole in the #shared layout. */
static bool copyable(piper *p, const ir_op *op, const ir_op *cv)
{
	if (op->code != IR_OP_LOAD || cv->code != IR_OP_CONVERT_LAYOUT || !gpu_is_shared(cv->results[0].type))
		return false;
	const ir_type *pt = op->operands[0]->type;
	if (pt->kind != IR_TILE || pt->rank != 2 || pt->elem->kind != IR_PTR)
		return false;
	if (op->noperands > 2 && !is_zero(op->operands[2]))
		return false;
	int64_t bytes = ir_op_int(op, "vec", 1) * gpu_elem_bytes(op->results[0].type->elem);
	if (bytes != 4 && bytes != 8 && bytes != 16)
		return false;
	/* each access a thread makes lands whole in the slot: the #shared layout stores the
	 * run's dimension contiguously (a run down the columns needs order [0, 1]) */
	gpu_layout sl;
	int warp, warps, dim;
	if (!gpu_func_shape(p->f, &warp, &warps) || !gpu_layout_parse(cv->results[0].type->layout, &sl))
		return false;
	gpu_layout_run_dim(pt, warp, warps, &dim);
	return gpu_run_fits_shared(&sl, pt->shape, dim, (int)ir_op_int(op, "vec", 1));
}

/* Whether load op (in body) can be issued ahead as an async copy for a dot. */
static bool candidate(piper *p, ir_block *body, ir_op *op, staged *st)
{
	if (op->code != IR_OP_LOAD || op->parent != body)
		return false;
	ir_op *cv = loop_only_user(p->f, body, &op->results[0]);
	if (!cv || !copyable(p, op, cv))
		return false;
	ir_op *dot = loop_only_user(p->f, body, &cv->results[0]);
	if (!dot || dot->code != IR_OP_DOT || dot->operands[2] == &cv->results[0])
		return false;
	gpu_layout l;
	if (!dot->results[0].type->layout || !gpu_layout_parse(dot->results[0].type->layout, &l) || !l.mma)
		return false;
	st->load = op;
	st->cvt = cv;
	return true;
}

/* The tile of type vt at `within` in slot `slot` of the ring (slots slot_bytes apart). */
static ir_value *ring_view(piper *p, ir_builder *b, ir_value *slot, const ir_type *vt, int ring, int64_t within,
			   int64_t slot_bytes)
{
	ir_op *view = ir_build(b, IR_OP_LOCAL_VIEW, 1, &slot, 1, &vt);
	ir_op_set_int(p->c, view, "ring", ring);
	ir_op_set_int(p->c, view, "within", within);
	ir_op_set_int(p->c, view, "slot_bytes", slot_bytes);
	return &view->results[0];
}

/* The async copies of one iteration (whose stage-0 values map holds) into slot `slot`,
 * predicated on `live`, and their commit, before `before`. */
static void issue(piper *p, ir_builder *b, staged *st, int n, ir_ptrmap *map, ir_value *slot,
		  ir_value *live, int ring, int64_t slot_bytes)
{
	for (int q = 0; q < n; q++) {
		ir_op *ld = st[q].load;
		ir_value *view = ring_view(p, b, slot, st[q].cvt->results[0].type, ring, st[q].within, slot_bytes);
		ir_value *m = loop_ahead_mask(p->c, b, ld, map, live);
		ir_value *ops[3] = {view, loop_mapped(map, ld->operands[0]), m};
		ir_op *cp = ir_build(b, IR_OP_ASYNC_COPY, 3, ops, 0, NULL);
		ir_op_set_int(p->c, cp, "vec", ir_op_int(ld, "vec", 1));
	}
	ir_build(b, IR_OP_ASYNC_COMMIT, 0, NULL, 0, NULL);
}

/* Whether op is a wgmma dot (#mma version 3) that waits for every group in flight
 * (no {wait}). */
static bool wgmma_sync_dot(const ir_op *op)
{
	gpu_layout l;
	return op->code == IR_OP_DOT && op->results[0].type->layout &&
	       gpu_layout_parse(op->results[0].type->layout, &l) && l.mma == 3 && !ir_op_int(op, "wait", 0);
}

/* Of two ops of one block (a may be NULL), the one that comes later. */
static ir_op *later(ir_op *a, ir_op *b)
{
	for (ir_op *o = a ? a->next : NULL; o; o = o->next)
		if (o == b)
			return b;
	return a ? a : b;
}

/* The top-level op of body that holds op (op itself, or the op whose region nests it). */
static ir_op *top_level(ir_block *body, ir_op *op)
{
	while (op && op->parent != body)
		op = op->parent ? op->parent->parent : NULL;
	return op;
}

/* The dot of the staged loads that can stay in flight across iterations (wgmma, #mma
 * version 3), or NULL; *k is the index of the carried value it computes. Every staged
 * tile goes to a wgmma dot of the body; the last of those dots writes a carried value
 * whose only use is the yield. In the matmul form it is the only dot and reads the carried
 * value as its accumulator, nothing else does: *use is NULL. In the chained form
 * (attention: a first dot, a softmax, then the dot that accumulates), others read the
 * carried value before it (acc * alpha): *use is the first of them, before which the next
 * iteration waits for the dot (a dot_wait; by then the first dot's own wait has covered
 * it, as Triton's single wait covers both). */
static ir_op *async_dot(piper *p, ir_block *body, staged *st, int n, int *k, ir_op **use)
{
	ir_op *dot = NULL;
	*use = NULL;
	for (int q = 0; q < n; q++) {
		ir_op *d = loop_only_user(p->f, body, &st[q].cvt->results[0]);
		gpu_layout l;
		if (!d || d->code != IR_OP_DOT || !d->results[0].type->layout ||
		    !gpu_layout_parse(d->results[0].type->layout, &l) || l.mma != 3)
			return NULL;
		dot = later(dot, d);
	}
	if (!dot)
		return NULL;
	ir_op *y = body->last;
	for (int a = 1; a < body->nargs; a++) {
		if (walk_count_uses(p->f->body, &dot->results[0]) != 1 || y->operands[a - 1] != &dot->results[0])
			continue;
		ir_value *arg = body->args[a];
		int uses = walk_count_uses(p->f->body, arg);
		if (dot->operands[2] == arg && uses == 1) {
			*k = a - 1;
			return dot;
		}
		/* every other reader of the carried value comes before the dot */
		ir_op *first = NULL;
		int seen = 0;
		for (ir_op *o = body->first; o && o != dot; o = o->next) {
			int u = 0;
			for (int i = 0; i < o->noperands; i++)
				u += o->operands[i] == arg;
			for (int r = 0; r < o->nregions; r++)
				u += walk_count_uses(o->regions[r], arg);
			if (u && !first)
				first = o;
			seen += u;
		}
		for (int i = 0; i < dot->noperands; i++)
			seen += dot->operands[i] == arg;
		if (!first || seen != uses || top_level(body, first) != first)
			return NULL;
		*k = a - 1;
		*use = first;
		return dot;
	}
	return NULL;
}

/* The top-level op of body holding the last dot that reads a staged tile. */
static ir_op *last_staged_dot(piper *p, ir_block *body, staged *st, int n)
{
	ir_op *last = NULL;
	for (int q = 0; q < n; q++) {
		ir_op *d = top_level(body, loop_only_user(p->f, body, &st[q].cvt->results[0]));
		if (!d)
			return NULL;
		last = later(last, d);
	}
	return last;
}

/* Whether v is computed outside body (not in it, not in a region nested in it). */
static bool outside(const ir_block *body, const ir_value *v)
{
	for (int a = 0; a < body->nargs; a++)
		if (body->args[a] == v)
			return false;
	for (const ir_op *d = v->def; d; d = d->parent ? d->parent->parent : NULL)
		if (d->parent == body)
			return false;
	return true;
}

/* The conversions to #shared in body, of values computed before the loop, that stage an
 * operand of a tensor-core dot of the body (only it reads them): at most 2, in keep;
 * their count. */
static int hoistable(piper *p, ir_block *body, staged *st, int n, ir_op **keep)
{
	int k = 0;
	for (ir_op *dot = body->first; dot && k < 2; dot = dot->next) {
		gpu_layout dl;
		if (dot->code != IR_OP_DOT || !dot->results[0].type->layout ||
		    !gpu_layout_parse(dot->results[0].type->layout, &dl) || !dl.mma)
			continue;
		for (int i = 0; i < 2 && k < 2; i++) {
			ir_value *x = dot->operands[i];
			ir_op *cv = x->def;
			if (!cv || cv->code != IR_OP_CONVERT_LAYOUT || cv->parent != body || !gpu_is_shared(x->type) ||
			    !outside(body, cv->operands[0]) || loop_only_user(p->f, body, x) != dot)
				continue;
			bool dup = false;
			for (int j = 0; j < k; j++)
				dup |= keep[j] == cv;
			for (int j = 0; j < n; j++)
				dup |= st[j].cvt == cv;
			if (!dup)
				keep[k++] = cv;
		}
	}
	return k;
}

/* The shared memory the target's programs may use. */
static int64_t smem_budget(int cc)
{
	return cc >= 90 ? 227 * 1024 : cc == 80 || cc == 87 ? 163 * 1024 : 99 * 1024;
}

/* Pure ops of b (not nested) left without uses, removed; the pipelined body's originals. */
static void sweep(piper *p, ir_block *b)
{
	for (bool again = true; again;) {
		again = false;
		for (ir_op *op = b->last, *prev; op; op = prev) {
			prev = op->prev;
			if (!(ir_ops[op->code].traits & T_PURE) || op->nregions || op->nresults != 1)
				continue;
			if (!walk_count_uses(p->f->body, &op->results[0])) {
				ir_op_erase(op);
				again = true;
			}
		}
	}
}

static void pipeline_loop(piper *p, ir_op *fo, int stages, int cc)
{
	ir_block *body = fo->regions[0];
	ir_op *y = body->last;
	int64_t step;
	if (!loop_pipelinable(fo, &step))
		return;
	ir_value *iv = body->args[0];
	staged st[MAX_STAGED];
	int n = 0;
	for (ir_op *op = body->first; op && n < MAX_STAGED; op = op->next)
		if (candidate(p, body, op, &st[n]))
			n++;
	if (n == 0)
		return;
	int nc = body->nargs - 1;
	bool *carried = ARENA_NEWN(ir_arena(p->c), bool, nc > 0 ? nc : 1);
	valset ops = {0};
	ir_op *loads[MAX_STAGED], *skip[2 * MAX_STAGED];
	for (int q = 0; q < n; q++) {
		loads[q] = skip[2 * q] = st[q].load;
		skip[2 * q + 1] = st[q].cvt;
	}
	if (!loop_stage0(body, loads, n, 2, &ops, carried) ||
	    !loop_ahead_private(p->f, fo, skip, 2 * n, &ops, carried))
		goto out;
	/* the ring: S slots, each the staged tiles one after the other */
	int64_t slot_bytes = 0;
	for (int q = 0; q < n; q++) {
		/* each tile on its swizzle pattern (1 KiB for wgmma's 128-byte swizzle), and so
		 * is every slot: the ring's base is aligned as its most aligned tile */
		const ir_type *vt = st[q].cvt->results[0].type;
		gpu_layout sl;
		int64_t al = gpu_layout_parse(vt->layout, &sl) ? gpu_layout_shared_align(&sl, vt) : 16;
		slot_bytes = (slot_bytes + al - 1) / al * al;
		st[q].within = slot_bytes;
		slot_bytes += ir_type_numel(vt) * gpu_elem_bytes(vt->elem);
	}
	slot_bytes = (slot_bytes + 1023) / 1024 * 1024;
	/* a loop-invariant operand staged for the same dot (attention's Q) is staged once,
	 * before the loop, above the slots: it stays there through the loop */
	ir_op *keep[2];
	int nkeep = hoistable(p, body, st, n, keep);
	int64_t kept = 0;
	for (int h = 0; h < nkeep; h++) {
		const ir_type *t = keep[h]->results[0].type;
		kept = (kept + 1023) / 1024 * 1024 + ir_type_numel(t) * gpu_elem_bytes(t->elem);
	}
	while (stages > 1 && stages * slot_bytes + kept > smem_budget(cc))
		stages--;
	if (stages < 2)
		goto out;
	int ring = p->rings++;
	for (int h = 0, at = 0; h < nkeep; h++) {
		const ir_type *t = keep[h]->results[0].type;
		at = (int)((at + 1023) / 1024 * 1024);
		ir_op_remove(keep[h]);
		ir_block_insert_before(fo->parent, fo, keep[h]);
		ir_op_set_int(p->c, keep[h], "ring", ring);
		ir_op_set_int(p->c, keep[h], "within", stages * slot_bytes + at);
		at += (int)(ir_type_numel(t) * gpu_elem_bytes(t->elem));
	}
	const ir_type *it = iv->type;
	ir_value *lo = fo->operands[0], *hi = fo->operands[1];

	/* prologue: iterations 0 .. S - 2 */
	ir_builder b = {p->c, fo->parent, fo, fo->loc};
	ir_build(&b, IR_OP_BARRIER, 0, NULL, 0, NULL);
	/* A kept operand that is a load of its own (attention's Q) is copied straight into its
	 * place too, with iteration 0's copies (their wait is its wait), instead of through
	 * registers: a 128x128 fp16 Q is 64 registers a thread, live where the zeroed
	 * accumulators are, which made ptxas spill them at 4 warps and D128. The load itself
	 * goes once no other conversion (a second loop's) reads it. */
	for (int h = 0; h < nkeep; h++) {
		ir_op *ld = keep[h]->operands[0]->def;
		if (!ld || !copyable(p, ld, keep[h]))
			continue;
		ir_value *view = ring_view(p, &b, ir_const_int(&b, i32(p), 0), keep[h]->results[0].type, ring,
					   ir_op_int(keep[h], "within", 0), 0);
		ir_value *ops[3] = {view, ld->operands[0], ld->noperands > 1 ? ld->operands[1] : NULL};
		ir_op *cp = ir_build(&b, IR_OP_ASYNC_COPY, ops[2] ? 3 : 2, ops, 0, NULL);
		ir_op_set_int(p->c, cp, "vec", ir_op_int(ld, "vec", 1));
		ir_replace_uses_in(body, &keep[h]->results[0], view);
		ir_op_erase(keep[h]);
		if (!walk_count_uses(p->f->body, &ld->results[0]))
			ir_op_erase(ld);
	}
	ir_value **cur = ARENA_NEWN(ir_arena(p->c), ir_value *, nc > 0 ? nc : 1);
	for (int a = 0; a < nc; a++)
		cur[a] = fo->operands[3 + a];
	for (int j = 0; j < stages - 1; j++) {
		ir_ptrmap map = {0};
		ir_value *ivj = ir_build2(&b, IR_OP_ADDI, it, lo, ir_const_int(&b, it, j * step));
		ir_ptrmap_put(&map, iv, ivj);
		for (int a = 0; a < nc; a++)
			if (carried[a])
				ir_ptrmap_put(&map, body->args[1 + a], cur[a]);
		loop_clone_stage0(p->c, body, &ops, &map, fo->parent, fo);
		ir_value *live = ir_build2(&b, IR_OP_CMPI, ir_type_scalar(p->c, IR_I1), ivj, hi);
		ir_op_set_str(p->c, live->def, "pred", "lt");
		issue(p, &b, st, n, &map, ir_const_int(&b, i32(p), j), live, ring, slot_bytes);
		for (int a = 0; a < nc; a++)
			if (carried[a])
				cur[a] = loop_mapped(&map, y->operands[a]);
		ir_ptrmap_free(&map);
	}
	for (int a = 0; a < nc; a++)
		if (carried[a])
			ir_op_set_operand(fo, 3 + a, cur[a]);

	/* the body: wait for this iteration's slot, start iteration i + S - 1's copies; with
	 * the dot in flight (wgmma), after it, once the previous iteration's dot is done
	 * reading the slot they overwrite (dot {wait = 1}, then a barrier) */
	int acc_k = -1;
	ir_op *acc_use;
	ir_op *adot = async_dot(p, body, st, n, &acc_k, &acc_use);
	ir_op *early = NULL;
	if (adot && acc_use) {
		/* the chained form: the carried accumulator waited for before its first reader,
		 * or right after an earlier wgmma dot that waits for everything (attention's
		 * first dot): the lowering makes one wait of the two */
		ir_value *arg = body->args[1 + acc_k];
		ir_op *at = acc_use, *first_dot = NULL;
		for (ir_op *o = body->first; o && o != acc_use; o = o->next)
			if (o != adot && wgmma_sync_dot(o)) {
				at = o->next;
				first_dot = o;
				break;
			}
		ir_builder wb = {p->c, body, at, acc_use->loc};
		ir_op *dw = ir_build(&wb, IR_OP_DOT_WAIT, 1, &arg, 1, &arg->type);
		ir_op_set_int(p->c, dw, "pending", 0);
		ir_replace_uses_in(body, arg, &dw->results[0]);
		ir_op_set_operand(dw, 0, arg);
		/* The copies then need a barrier once every warpgroup's last dot is done with
		 * the slot they overwrite: after that dot's wgmma (below), or as early as the
		 * wait above. With several warpgroups, early makes them meet where they all wait
		 * for the first dot, which a short first dot (K <= 64: attention at head dim 64)
		 * makes cheap; with a longer one (D128) each warpgroup's softmax no longer
		 * overlaps the other's first dot. H100, the bench attention (8 warps) against
		 * Triton: D64 0.979x -> 0.996x early, D128 1.020x -> 0.95x (docs/perf.md, stage
		 * 11). One warpgroup (4 warps) keeps the copies after the last dot: not measured. */
		int warp, warps;
		if (first_dot && gpu_func_shape(p->f, &warp, &warps) && warps >= 8) {
			const ir_type *at0 = first_dot->operands[0]->type;
			if (at0->kind == IR_TILE && at0->shape[at0->rank - 1] <= 64)
				early = dw;
		}
	}
	ir_op *first = body->first;
	ir_builder bb = {p->c, body, first, fo->loc};
	ir_op *w = ir_build(&bb, IR_OP_ASYNC_WAIT, 0, NULL, 0, NULL);
	ir_op_set_int(p->c, w, "pending", stages - 2);
	/* No proxy fence for wgmma, which reads the slots through the async proxy: as in
	 * Triton's and CUTLASS's cp.async mainloops, the wait and the barrier are what make
	 * the landed copies visible to it. fence.proxy.async (a MEMBAR.ALL.CTA in SASS) would
	 * also wait for the copies still in flight for later slots, draining the pipeline
	 * every iteration (0.85x Triton on the bench matmul). {fence} stays for IR that asks. */
	ir_build(&bb, IR_OP_BARRIER, 0, NULL, 0, NULL);
	ir_value *idx = ir_build2(&bb, IR_OP_DIVI, it, ir_build2(&bb, IR_OP_SUBI, it, iv, lo),
				  ir_const_int(&bb, it, step));
	if (it->kind != IR_I32)
		idx = ir_build1(&bb, IR_OP_TRUNCI, i32(p), idx);
	ir_value *rslot = ir_build2(&bb, IR_OP_REMI, i32(p), idx, ir_const_int(&bb, i32(p), stages));
	ir_value *wslot = ir_build2(&bb, IR_OP_REMI, i32(p),
				    ir_build2(&bb, IR_OP_ADDI, i32(p), idx, ir_const_int(&bb, i32(p), stages - 1)),
				    ir_const_int(&bb, i32(p), stages));
	/* {ring_slot = k}: (iteration index + k) % S, which the GPU lowering carries as a
	 * counter that wraps (no division per iteration) */
	ir_op_set_int(p->c, rslot->def, "ring_slot", 0);
	ir_op_set_int(p->c, wslot->def, "ring_slot", stages - 1);
	/* mma.sync with 3 or more slots: the copies after the last dot that reads a slot, as
	 * Triton's (ptxas interleaves them with the dot's last mma.sync instead of issuing them
	 * all between the barrier and the first ldmatrix). Slot (i + S - 1) % S was last read
	 * in iteration i - 1, before this iteration's barrier; they still run S - 2 dots ahead. */
	ir_op *late = !adot && stages >= 3 ? last_staged_dot(p, body, st, n) : NULL;
	ir_op *anchor = late ? late->next : first;
	ir_builder cb = {p->c, body, anchor, fo->loc};
	ir_value *iva = ir_build2(&cb, IR_OP_ADDI, it, iv, ir_const_int(&cb, it, (stages - 1) * step));
	ir_ptrmap map = {0};
	ir_ptrmap_put(&map, iv, iva);
	loop_clone_stage0(p->c, body, &ops, &map, body, anchor);
	ir_value *live = ir_build2(&cb, IR_OP_CMPI, ir_type_scalar(p->c, IR_I1), iva, hi);
	ir_op_set_str(p->c, live->def, "pred", "lt");
	if (adot) {
		ir_builder ib = {p->c, body, early ? early->next : adot->next, fo->loc};
		ir_op_set_int(p->c, adot, "wait", 1);
		ir_build(&ib, IR_OP_BARRIER, 0, NULL, 0, NULL);
		issue(p, &ib, st, n, &map, wslot, live, ring, slot_bytes);
	} else {
		issue(p, &cb, st, n, &map, wslot, live, ring, slot_bytes);
	}
	for (int a = 0; a < nc; a++)
		if (carried[a])
			ir_op_set_operand(y, a, loop_mapped(&map, y->operands[a]));
	ir_ptrmap_free(&map);
	/* the dot reads this iteration's slot */
	for (int q = 0; q < n; q++) {
		ir_builder vb = {p->c, body, st[q].cvt, st[q].cvt->loc};
		ir_value *view = ring_view(p, &vb, rslot, st[q].cvt->results[0].type, ring, st[q].within, slot_bytes);
		ir_replace_uses_in(body, &st[q].cvt->results[0], view);
		ir_op_erase(st[q].cvt);
		ir_op_erase(st[q].load);
	}
	sweep(p, body);
	/* after the loop: no dot and no copy left in flight */
	ir_builder ab = {p->c, fo->parent, fo->next, fo->loc};
	if (adot) {
		ir_value *res = &fo->results[acc_k];
		ir_op *dw = ir_build(&ab, IR_OP_DOT_WAIT, 1, &res, 1, &res->type);
		ir_op_set_int(p->c, dw, "pending", 0);
		ir_replace_uses_in(fo->parent, res, &dw->results[0]);
		ir_op_set_operand(dw, 0, res);
	}
	ir_op *drain = ir_build(&ab, IR_OP_ASYNC_WAIT, 0, NULL, 0, NULL);
	ir_op_set_int(p->c, drain, "pending", 0);
	ir_op_set_int(p->c, fo, "ring", ring);
	ir_op_set_int(p->c, fo, "ring_bytes", stages * slot_bytes + kept);
	ir_op_set_int(p->c, fo, "pipelined_stages", stages);
	if (adot) /* in flight at the loop's end: the lowering waits on the way out */
		ir_op_set_int(p->c, fo, "async_result", acc_k);
out:
	valset_free(&ops);
}

static void walk(piper *p, ir_block *b, int stages, int cc)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			walk(p, op->regions[r], stages, cc);
		if (op->code == IR_OP_FOR && !ir_op_attr(op, "ring")) {
			int s = (int)ir_op_int(op, "num_stages", stages);
			if (s > 1)
				pipeline_loop(p, op, s > 8 ? 8 : s, cc);
		}
	}
}

int pass_pipeline(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		int warp, warps;
		const ir_attr *cc = ir_func_attr(f, "nv_cc");
		if (!gpu_func_shape(f, &warp, &warps) || !cc || cc->kind != IR_ATTR_INT || cc->i < 80)
			continue;
		piper p = {.c = m->ctx, .f = f};
		const ir_attr *ns = ir_func_attr(f, "num_stages");
		walk(&p, f->body, ns && ns->kind == IR_ATTR_INT ? (int)ns->i : 3, (int)cc->i);
	}
	return 0;
}
