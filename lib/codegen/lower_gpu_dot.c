/* lower_gpu_dot.c: the GPU lowering of dots and of the software pipeline's ring of shared
 * buffers (lib/transforms/pipeline.c): local_view, async_copy, async_commit/async_wait and
 * dot_wait, and tl.dot itself, on tensor cores (mma.sync through lower_mma.c, wgmma
 * through lower_wgmma.c) or, where no instruction fits, as FMA loops over operands staged
 * in shared memory. The rest of the GPU lowering, and the helpers shared with it, are in
 * lower_gpu.c and lower_gpu.h. */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "codegen/lower_gpu.h"
#include "codegen/lower_mfma.h"
#include "codegen/lower_mma.h"
#include "codegen/lower_wgmma.h"

/* ---- the pipeline's ring of shared buffers (lib/transforms/pipeline.c) ---------------- */

/* local_view: the #shared tile in slot %slot of its ring, at smem_offset + slot *
 * slot_bytes. */
void lg_lower_local_view(cg *c, const ir_op *op)
{
	int64_t off = ir_op_int(op, "smem_offset", -1), sb = ir_op_int(op, "slot_bytes", 0);
	if (off < 0)
		cg_fail(c, op, "internal: a local_view without a planned offset (run smem-alloc)");
	gtile *r = lg_new_tile(c, 0);
	r->smem = off;
	LLVMValueRef slot = LLVMBuildZExt(c->b, lg_sget(c, op->operands[0]), c->t_i64, "");
	r->dyn = LLVMBuildMul(c->b, slot, cg_i64(c, sb), "");
	int64_t end = ir_op_int(op, "ring_end", 0);
	if (end > lg_prog->smem_bytes)
		lg_prog->smem_bytes = end;
	lg_put(c, &op->results[0], r);
}

/* async_copy %view, %ptrs, %mask: each run of {vec} consecutive elements a thread holds
 * (along its layout's fastest dimension, which the view's #shared layout must store
 * contiguously) is one cp.async to where that layout puts the run's first element; a
 * masked-off run copies nothing and zero-fills. */
void lg_lower_async_copy(cg *c, const ir_op *op)
{
	if (!c->isa->cp_async)
		cg_fail(c, op, "async copies are not supported on this target");
	const ir_value *dv = op->operands[0], *p = op->operands[1];
	const ir_value *m = op->noperands > 2 ? op->operands[2] : NULL;
	const ir_type *dt = dv->type, *pt = p->type, *e = dt->elem;
	gtile *d = lg_tget(c, dv);
	int64_t eb = gpu_elem_bytes(e);
	int w = (int)ir_op_int(op, "vec", 1), dim;
	int run = gpu_layout_run_dim(pt, lg_prog->warp, lg_prog->T / lg_prog->warp, &dim);
	int bytes = (int)(w * eb);
	if (w > run || (bytes != 4 && bytes != 8 && bytes != 16) || pt->rank != 2 ||
	    !gpu_run_fits_shared(&lg_tile_layout(c, dt)->l, pt->shape, dim, w))
		cg_fail(c, op, "internal: an async copy of %d elements of %d bytes per access", w, (int)eb);
	LLVMValueRef base = LLVMBuildGEP2(c->b, c->t_i8, lg_prog->smem, &(LLVMValueRef){cg_i64(c, d->smem)}, 1, "");
	if (d->dyn)
		base = LLVMBuildGEP2(c->b, c->t_i8, base, &d->dyn, 1, "");
	int n = lg_slots(c, pt);
	for (int k = 0; k < n; k += w) {
		LLVMValueRef dst = lg_owned_shared_addr(c, base, pt, k, dt, eb);
		LLVMValueRef sz = cg_i32(c, bytes);
		if (m)
			sz = LLVMBuildSelect(c->b, lg_opnd(c, m, k), sz, cg_i32(c, 0), "");
		c->isa->cp_async(c, dst, lg_opnd(c, p, k), bytes, sz);
	}
}

/* dot_wait: the accumulator of in-flight wgmma dots, tied through wait_group (unless the
 * dot before it waited for them too: lg_lower_dot). */
void lg_lower_dot_wait(cg *c, const ir_op *op)
{
	if (op == lg_prog->waited)
		return;
	if (!c->isa->wgmma_wait)
		cg_fail(c, op, "dot_wait needs warpgroup tensor cores (--target=sm_90a)");
	gtile *x = lg_tget(c, op->operands[0]);
	gtile *r = lg_new_tile(c, x->n);
	for (int e = 0; e < x->n; e++)
		r->v[e] = x->v[e];
	int pending = (int)ir_op_int(op, "pending", 0);
	c->isa->wgmma_wait(c, pending, r->v, r->n);
	if (lg_prog->wgmma_groups < 0 || lg_prog->wgmma_groups > pending)
		lg_prog->wgmma_groups = pending;
	lg_put(c, &op->results[0], r);
}

void lg_lower_async(cg *c, const ir_op *op)
{
	if (!c->isa->cp_async)
		cg_fail(c, op, "async copies are not supported on this target");
	if (op->code == IR_OP_ASYNC_COMMIT)
		c->isa->cp_async_commit(c);
	else
		c->isa->cp_async_wait(c, (int)ir_op_int(op, "pending", 0));
	/* {fence}: the copies that landed are read by wgmma (the async proxy) */
	if (op->code == IR_OP_ASYNC_WAIT && ir_op_int(op, "fence", 0) && c->isa->fence_proxy_async)
		c->isa->fence_proxy_async(c);
}

/* ---- operands fetched ahead (transforms/mma_prefetch.c) ----------------------------------- */

/* The mma.sync plan for reading operand opidx of tile type rt (#dot_op layout l) from the
 * staged tile of type vt: vt's extents are the pitch the fetch addresses with. */
static bool fetch_plan(const ir_type *vt, const ir_type *rt, const gpu_layout *l, int opidx, gpu_mma *p)
{
	memset(p, 0, sizeof *p);
	if (rt->elem->kind != IR_F16 && rt->elem->kind != IR_BF16)
		return false;
	p->kind = rt->elem->kind == IR_F16 ? GPU_MMA_F16 : GPU_MMA_BF16;
	p->version = 2;
	p->w0 = l->wpc[0];
	p->w1 = l->wpc[1];
	if (opidx == 0) {
		p->M = vt->shape[0], p->K = vt->shape[1];
		p->mtiles = (int)(p->M / (16 * p->w0));
	} else {
		p->K = vt->shape[0], p->N = vt->shape[1];
		p->ntiles = (int)(p->N / (8 * p->w1));
	}
	return rt->shape[opidx] == vt->shape[opidx];
}

/* local_load %view into a #dot_op layout: ldmatrix, each i32 register's two halves in two
 * slots (gpu_layout.h). */
void lg_lower_local_load(cg *c, const ir_op *op)
{
	const ir_value *v = op->operands[0];
	const ir_type *vt = v->type, *rt = op->results[0].type;
	const gpu_layout *l = &lg_tile_layout(c, rt)->l, *sl = &lg_tile_layout(c, vt)->l;
	gpu_mma p;
	int opidx = l->opidx;
	if (!c->isa->ldmatrix || l->kind != GPU_DOT_OP || !fetch_plan(vt, rt, l, opidx, &p) ||
	    !gpu_mma_staged_fits(&p, opidx == 0 ? sl : NULL, opidx == 1 ? sl : NULL, false))
		cg_fail(c, op, "a local_load must read an mma.sync operand's fragments (#dot_op, 16-bit "
			"elements) from a #shared layout ldmatrix reads, on an NVIDIA target");
	gtile *src = lg_tget(c, v);
	LLVMValueRef base = lg_smem_at(c, vt->elem, src->smem, cg_i32(c, 0));
	if (src->dyn)
		base = LLVMBuildGEP2(c->b, c->t_i8, base, &src->dyn, 1, "");
	int ks = (int)(rt->shape[1 - opidx] / 16), n = lg_slots(c, rt);
	LLVMValueRef *regs = ARENA_NEWN(c->a, LLVMValueRef, (size_t)n / 2);
	lower_mma_fetch(c, &p, opidx, base, sl, ks, lg_prog->tid, regs);
	gtile *r = lg_new_tile(c, n);
	for (int k = 0; k < n / 2; k++)
		lower_mma_unpack(c, p.kind, regs[k], &r->v[2 * k], &r->v[2 * k + 1]);
	lg_put(c, &op->results[0], r);
}

/* The dot's operands past the accumulator (#dot_op tiles: the first k-steps of A or B,
 * local_load's registers), as lower_mma_dot takes them. */
static void ahead_operands(cg *c, const ir_op *op, const gpu_mma *p, mma_ahead *ah)
{
	for (int i = 3; i < op->noperands; i++) {
		const ir_value *x = op->operands[i];
		const gpu_layout *l = &lg_tile_layout(c, x->type)->l;
		int opidx = l->opidx;
		bool ok = l->kind == GPU_DOT_OP && (p->kind == GPU_MMA_F16 || p->kind == GPU_MMA_BF16) && !p->x3 &&
			  l->wpc[0] == p->w0 && l->wpc[1] == p->w1;
		if (!ok)
			cg_fail(c, op, "an operand fetched ahead whose #dot_op layout is not this dot's fragments "
				"(its #mma warps, 16-bit elements)");
		gtile *t = lg_tget(c, x);
		LLVMValueRef *regs = ARENA_NEWN(c->a, LLVMValueRef, (size_t)t->n / 2 + 1);
		for (int k = 0; k < t->n / 2; k++)
			regs[k] = lower_mma_pack(c, p->kind, t->v[2 * k], t->v[2 * k + 1]);
		int ks = (int)(x->type->shape[1 - opidx] / 16);
		if (opidx == 0)
			ah->a = regs, ah->aks = ks;
		else
			ah->b = regs, ah->bks = ks;
	}
}

/* A float operand element x of IR type e for the FMA dot, in LLVM type ct (f32 or f64):
 * fp8 (an i8 in memory) decoded through cg_convert, narrower floats extended. */
static LLVMValueRef fma_operand(cg *c, const ir_op *op, LLVMValueRef x, const ir_type *e, LLVMTypeRef ct)
{
	if (e->kind == IR_F8E4NV || e->kind == IR_F8E5) {
		ir_op ext = {.code = IR_OP_EXTF, .loc = op->loc};
		x = cg_convert(c, &ext, x, e, ir_type_scalar(c->f->module->ctx, IR_F32));
	}
	return LLVMTypeOf(x) == ct ? x : LLVMBuildFPExt(c->b, x, ct, "");
}

/* Whether v is a constant zero (tl.zeros, or the accumulator of tl.dot without one). */
static bool is_zero_const(const ir_value *v)
{
	const ir_op *d = v->def;
	const ir_attr *x = d && d->code == IR_OP_CONSTANT ? ir_op_attr(d, "value") : NULL;
	return x && ((x->kind == IR_ATTR_INT && x->i == 0) || (x->kind == IR_ATTR_FLOAT && x->f == 0.0));
}

/* Marks the loop whose back edge is br {llvm.loop.unroll.disable}. The AMD FMA path's
 * k loops, one per accumulator element, fully unrolled and interleaved by LLVM, keep
 * every element's loads in flight at once and spill to scratch on 128 x 128 blocks; kept
 * rolled, each loop needs a few registers beside its accumulator. */
static void no_unroll(cg *c, LLVMValueRef br)
{
	LLVMMetadataRef self = LLVMTemporaryMDNode(c->ctx, NULL, 0);
	LLVMMetadataRef str = LLVMMDStringInContext2(c->ctx, "llvm.loop.unroll.disable", 24);
	LLVMMetadataRef ops[2] = {self, LLVMMDNodeInContext2(c->ctx, &str, 1)};
	LLVMMetadataRef loop = LLVMMDNodeInContext2(c->ctx, ops, 2);
	LLVMMetadataReplaceAllUsesWith(self, loop);
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->ctx, "llvm.loop", 9), LLVMMetadataAsValue(c->ctx, loop));
}

/* How many k one step of the FMA path's loop takes: 2 for fp16 into fp32 and 4 for int8
 * into int32 where the AMD target has v_dot2_f32_f16 and v_dot4_i32_i8 (gfx906, the
 * Hygon DCU, and CDNA where a dot stays off the matrix cores) and K allows; else 1. */
static int amd_dot_step(cg *c, const ir_type *ae, const ir_type *be, const ir_type *re, int64_t K)
{
	if (!c->isa->fdot2 || !c->isa->sdot4 || !lg_prog->amd_dot || ae->kind != be->kind)
		return 1;
	if (ae->kind == IR_F16 && re->kind == IR_F32 && K % 2 == 0)
		return 2;
	if (ae->kind == IR_I8 && re->kind == IR_I32 && K % 4 == 0)
		return 4;
	return 1;
}

/* C[z, m, n] = acc[z, m, n] + sum_k A[z, m, k] B[z, k, n] (z only for batched 3-D dots)
 * with A and B in shared memory: on tensor cores when assign-layouts gave the result the #mma
 * layout, else each thread computing the C elements it owns with FMA loops. */
void lg_lower_dot(cg *c, const ir_op *op)
{
	const ir_value *a = op->operands[0], *b = op->operands[1], *ac = op->operands[2];
	const ir_type *rt = op->results[0].type, *re = rt->elem;
	/* batched (3-D): each of the Z products staged one after another */
	int r0 = rt->rank - 2;
	int64_t Z = r0 ? rt->shape[0] : 1, M = rt->shape[r0], N = rt->shape[r0 + 1], K = a->type->shape[r0 + 1];
	int64_t aoff = 0, boff = gpu_align16(ir_type_numel(a->type) * gpu_elem_bytes(a->type->elem));
	const gpu_layout *al = &lg_tile_layout(c, a->type)->l, *rl = &lg_tile_layout(c, rt)->l;
	bool a_shared = al->kind == GPU_SHARED, b_shared = lg_tile_layout(c, b->type)->l.kind == GPU_SHARED;
	/* tensor cores: assign-layouts gave the result the #mma layout (gpu_mma.h), version 2
	 * (mma.sync) or 3 (wgmma, whose reads go through the async proxy: the stores that
	 * staged its operands are fenced for it before a barrier; the pipeline's cp.async
	 * copies need only its wait and barrier); on either, A may be in registers, in the
	 * layout of its fragments (a_regs: attention's P) */
	gpu_mma mp;
	bool plan = c->isa->mma && gpu_mma_plan_layout(op, rl, &mp);
	/* AMD matrix cores: the #mfma layout (version 4), A and B staged in LDS */
	bool mfma = !plan && c->isa->mfma && gpu_mfma_plan_layout(op, rl, lg_prog->mfma_gen, &mp);
	bool a_regs = plan && !a_shared && b_shared &&
		      (mp.version == 3 ? gpu_wgmma_a_regs(&mp, al) : gpu_mma_a_regs(&mp, al));
	bool staged = (a_shared || a_regs) && b_shared;
	if (staged) {
		/* convert_layout put A and B in shared memory (swizzled) */
		aoff = a_regs ? 0 : lg_tget(c, a)->smem;
		boff = lg_tget(c, b)->smem;
		if (aoff < 0 || boff < 0)
			cg_fail(c, op, "internal: a dot operand in a #shared layout was never staged");
	} else {
		lg_lead_barrier(c);
		lg_to_smem(c, a, aoff);
		lg_to_smem(c, b, boff);
	}
	/* an operand in a ring slot (local_view) was waited for by the pipeline, behind its
	 * own barrier; its address depends on the slot */
	LLVMValueRef adyn = staged && !a_regs ? lg_tget(c, a)->dyn : NULL, bdyn = staged ? lg_tget(c, b)->dyn : NULL;
	bool tc = staged && plan;
	/* an operand is ready when it is in a ring slot (the pipeline's wait and barrier made
	 * the copies visible), staged before the loop (fenced there, a barrier after it), or
	 * in registers. One staged just now, by this thread's stores, is not: the stores are
	 * fenced for wgmma's async proxy and a barrier makes every thread's visible (insert-
	 * barriers' barrier before the staging only protects the earlier readers) */
	bool a_ready = a_regs || adyn || (staged && lg_tget(c, a)->ready);
	bool b_ready = bdyn || (staged && lg_tget(c, b)->ready);
	if (!a_ready || !b_ready) {
		if (tc && mp.version == 3 && c->isa->fence_proxy_async)
			c->isa->fence_proxy_async(c);
		lg_barrier(c);
	}
	if (mfma || rl->mma == 4) {
		gtile *acc = lg_tget(c, ac);
		if (!mfma || !staged || !lower_mfma_fits(&mp, a->type, b->type) || acc->n != lg_slots(c, rt) ||
		    lg_tile_layout(c, ac->type)->l.mma != 4)
			cg_fail(c, op, "internal: a dot in the #mfma layout whose operands are not staged for "
				"it, or on a target without its instructions");
		gtile *r = lg_new_tile(c, acc->n);
		for (int e = 0; e < acc->n; e++)
			r->v[e] = acc->v[e];
		LLVMValueRef ap = lg_smem_at(c, a->type->elem, aoff, cg_i32(c, 0));
		LLVMValueRef bp = lg_smem_at(c, b->type->elem, boff, cg_i32(c, 0));
		if (adyn)
			ap = LLVMBuildGEP2(c->b, c->t_i8, ap, &adyn, 1, "");
		if (bdyn)
			bp = LLVMBuildGEP2(c->b, c->t_i8, bp, &bdyn, 1, "");
		lower_mfma_dot(c, &mp, ap, bp, a->type, b->type, lg_prog->tid, r->v);
		lg_put(c, &op->results[0], r);
		return;
	}
	if (tc) {
		const gpu_layout *as = &lg_tile_layout(c, a->type)->l, *bs = &lg_tile_layout(c, b->type)->l;
		gtile *acc = lg_tget(c, ac);
		bool v3 = mp.version == 3;
		if (v3 && !lg_prog->wgmma)
			cg_fail(c, op, "a dot in the wgmma layout (#mma version 3) needs an arch-specific "
				"target (--target=sm_90a)");
		bool fits = v3 ? (a_regs ? c->isa->wgmma_rs && lower_wgmma_fits_rs(&mp, as, bs)
				    : c->isa->wgmma && lower_wgmma_fits(&mp, as, bs))
			       : gpu_mma_staged_fits(&mp, as, bs, a_regs);
		if (!fits ||
		    lg_tile_layout(c, ac->type)->l.mma != mp.version || acc->n != lg_slots(c, rt))
			cg_fail(c, op, "internal: a dot in the #mma layout whose operands are not staged "
				"for %s", v3 ? "wgmma" : "ldmatrix");
		gtile *r = lg_new_tile(c, acc->n);
		for (int e = 0; e < acc->n; e++)
			r->v[e] = acc->v[e];
		mp.acc_zero = v3 && is_zero_const(ac);
		LLVMValueRef ap = a_regs ? NULL : lg_smem_at(c, a->type->elem, aoff, cg_i32(c, 0));
		LLVMValueRef bp = lg_smem_at(c, b->type->elem, boff, cg_i32(c, 0));
		if (adyn)
			ap = LLVMBuildGEP2(c->b, c->t_i8, ap, &adyn, 1, "");
		if (bdyn)
			bp = LLVMBuildGEP2(c->b, c->t_i8, bp, &bdyn, 1, "");
		if (v3) { /* in a pipelined loop, {wait = N} leaves N groups in flight */
			if (a_regs)
				lower_wgmma_issue_rs(c, &mp, as, lg_tget(c, a)->v, bp, bs, lg_warp_index(c), r->v);
			else
				lower_wgmma_issue(c, &mp, ap, bp, as, bs, lg_warp_index(c), r->v);
			int pending = (int)ir_op_int(op, "wait", 0);
			int groups = lg_prog->wgmma_groups < 0 ? -1 : lg_prog->wgmma_groups + (mp.imprecise ? 0 : 1);
			if (mp.imprecise) /* its slices were waited for: none of its own in flight */
				groups = lg_prog->wgmma_groups < 0 ? -1 : 0;
			const ir_op *dw = op->next;
			if (pending == 0 && dw && dw->code == IR_OP_DOT_WAIT && ir_op_int(dw, "pending", 0) == 0) {
				/* a dot_wait right after a dot that waits for everything (attention's
				 * first dot, then the second's accumulator of the iteration before):
				 * one wait_group 0 ties both accumulators, as Triton's one wait */
				gtile *x = lg_tget(c, dw->operands[0]), *w = lg_new_tile(c, x->n);
				LLVMValueRef *all = ARENA_NEWN(c->a, LLVMValueRef, (size_t)(r->n + x->n));
				memcpy(all, r->v, sizeof *all * (size_t)r->n);
				memcpy(all + r->n, x->v, sizeof *all * (size_t)x->n);
				c->isa->wgmma_wait(c, 0, all, r->n + x->n);
				memcpy(r->v, all, sizeof *all * (size_t)r->n);
				memcpy(w->v, all + r->n, sizeof *all * (size_t)x->n);
				lg_put(c, &dw->results[0], w);
				lg_prog->waited = dw;
				lg_prog->wgmma_groups = 0;
			} else if (groups >= 0 && groups <= pending) {
				/* no more groups than the wait leaves in flight (attention's second
				 * dot, {wait = 1}, after the first dot's wait for everything):
				 * nothing to wait for */
				lg_prog->wgmma_groups = groups;
			} else {
				lower_wgmma_wait(c, &mp, pending, r->v);
				lg_prog->wgmma_groups = pending;
			}
		} else {
			mma_ahead ah = {0};
			ahead_operands(c, op, &mp, &ah);
			lower_mma_dot(c, &mp, ap, bp, as, bs, a_regs ? lg_tget(c, a)->v : NULL, &ah, lg_prog->tid, r->v);
		}
		lg_put(c, &op->results[0], r);
		return;
	}
	if (adyn || bdyn)
		cg_fail(c, op, "internal: a dot on the FMA path with operands in a ring slot");
	bool fl = ir_type_is_float(re);
	LLVMTypeRef ct = fl ? (re->kind == IR_F64 ? c->t_f64 : c->t_f32) : c->t_i32;
	int step = amd_dot_step(c, a->type->elem, b->type->elem, re, K);
	int E = lg_per_thread(Z * M * N);
	gtile *r = lg_new_tile(c, E);
	gtile *acc = lg_tget(c, ac);
	for (int e = 0; e < E; e++) {
		LLVMValueRef oi = lg_owned_index(c, Z * M * N, e);
		LLVMValueRef zi = LLVMBuildUDiv(c->b, oi, cg_i32(c, M * N), "");
		LLVMValueRef mn = LLVMBuildURem(c->b, oi, cg_i32(c, M * N), "");
		LLVMValueRef m = LLVMBuildUDiv(c->b, mn, cg_i32(c, N), "");
		LLVMValueRef nn = LLVMBuildURem(c->b, mn, cg_i32(c, N), "");
		/* the z-th A (M x K) and B (K x N) in the staged row-major tiles */
		LLVMValueRef abase = LLVMBuildMul(c->b, zi, cg_i32(c, M * K), "");
		LLVMValueRef bbase = LLVMBuildMul(c->b, zi, cg_i32(c, K * N), "");
		LLVMValueRef init = acc->v[e];
		if (fl && LLVMTypeOf(init) != ct)
			init = LLVMBuildFPExt(c->b, init, ct, "");
		philoop l;
		lg_philoop_open(c, &l, "dot", cg_i32(c, 0), LLVMIntULT, cg_i32(c, K / step), 1, &init);
		LLVMValueRef kk = l.iv, sum = l.vals[0];
		if (step > 1) { /* AMD's dot instructions: step consecutive k at once */
			LLVMTypeRef vt = LLVMVectorType(step == 2 ? c->t_f16 : c->t_i8, (unsigned)step);
			LLVMValueRef av = LLVMGetPoison(vt), bv = av;
			for (int s = 0; s < step; s++) {
				LLVMValueRef k = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, kk, cg_i32(c, step), ""), cg_i32(c, s), "");
				LLVMValueRef ai = staged ? lg_shared_index(c, a->type, m, k)
							 : LLVMBuildAdd(c->b, abase, LLVMBuildAdd(c->b, LLVMBuildMul(c->b, m, cg_i32(c, K), ""), k, ""), "");
				LLVMValueRef bi = staged ? lg_shared_index(c, b->type, k, nn)
							 : LLVMBuildAdd(c->b, bbase, LLVMBuildAdd(c->b, LLVMBuildMul(c->b, k, cg_i32(c, N), ""), nn, ""), "");
				av = LLVMBuildInsertElement(c->b, av, lg_from_smem(c, a->type->elem, aoff, ai), cg_i32(c, s), "");
				bv = LLVMBuildInsertElement(c->b, bv, lg_from_smem(c, b->type->elem, boff, bi), cg_i32(c, s), "");
			}
			LLVMValueRef next = step == 2 ? c->isa->fdot2(c, av, bv, sum)
						      : c->isa->sdot4(c, LLVMBuildBitCast(c->b, av, c->t_i32, ""),
								      LLVMBuildBitCast(c->b, bv, c->t_i32, ""), sum);
			LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
			lg_philoop_close(c, &l, &next);
			no_unroll(c, LLVMGetBasicBlockTerminator(latch));
			r->v[e] = l.vals[0];
			continue;
		}
		LLVMValueRef ai = staged ? lg_shared_index(c, a->type, m, kk)
					 : LLVMBuildAdd(c->b, abase, LLVMBuildAdd(c->b, LLVMBuildMul(c->b, m, cg_i32(c, K), ""), kk, ""), "");
		LLVMValueRef bi = staged ? lg_shared_index(c, b->type, kk, nn)
					 : LLVMBuildAdd(c->b, bbase, LLVMBuildAdd(c->b, LLVMBuildMul(c->b, kk, cg_i32(c, N), ""), nn, ""), "");
		LLVMValueRef av = lg_from_smem(c, a->type->elem, aoff, ai);
		LLVMValueRef bv = lg_from_smem(c, b->type->elem, boff, bi);
		LLVMValueRef next;
		if (fl) {
			av = fma_operand(c, op, av, a->type->elem, ct);
			bv = fma_operand(c, op, bv, b->type->elem, ct);
			LLVMTypeRef fty;
			LLVMValueRef f = cg_intrinsic(c, "llvm.fma", &ct, 1, &fty);
			LLVMValueRef args[3] = {av, bv, sum};
			next = LLVMBuildCall2(c->b, fty, f, args, 3, "");
		} else {
			av = LLVMBuildSExt(c->b, av, ct, "");
			bv = LLVMBuildSExt(c->b, bv, ct, "");
			next = LLVMBuildAdd(c->b, sum, LLVMBuildMul(c->b, av, bv, ""), "");
		}
		LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
		lg_philoop_close(c, &l, &next);
		if (c->isa == &amdgpu_isa)
			no_unroll(c, LLVMGetBasicBlockTerminator(latch));
		sum = l.vals[0];
		LLVMValueRef v = sum;
		if (fl && ct != cg_scalar_type(c, re))
			v = LLVMBuildFPTrunc(c->b, v, cg_scalar_type(c, re), "");
		r->v[e] = v;
	}
	lg_put(c, &op->results[0], r);
}
