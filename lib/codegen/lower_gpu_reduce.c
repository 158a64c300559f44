/* lower_gpu_reduce.c: the GPU lowering of reductions and scans (tl.max, tl.sum,
 * tl.reduce, tl.cumsum, tl.associative_scan): within each thread over its slots, then
 * warp shuffles (butterflies) over the lanes that split the axis, then, when warps split
 * it too, through shared memory. A reduction along an axis of a 2-D+ tile leaves its
 * result in the slice of the operand's layout; the combine function is the op's region,
 * lowered once per step. The rest of the GPU lowering is in lower_gpu.c. */
#include "codegen/lower_gpu.h"

static void combine(cg *c, const ir_block *region, LLVMValueRef *in, int n2, LLVMValueRef *out)
{
	for (int k = 0; k < n2; k++)
		lg_put(c, region->args[k], in[k]);
	lg_lower_block(c, region);
	const ir_op *y = cg_terminator(region);
	for (int k = 0; y && k < y->noperands; k++)
		out[k] = lg_sget(c, y->operands[k]);
}

static LLVMValueRef shfl_xor(cg *c, LLVMValueRef v, int lane_mask)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef x = t == c->t_f32 || t == c->t_i32 ? v : NULL;
	if (!x) {
		/* widen narrow types to 32 bits for the shuffle */
		if (t == c->t_f16 || t == c->t_bf16)
			x = LLVMBuildZExt(c->b, LLVMBuildBitCast(c->b, v, c->t_i16, ""), c->t_i32, "");
		else
			x = LLVMBuildZExt(c->b, v, c->t_i32, "");
	}
	LLVMValueRef r = c->isa->shfl_xor(c, x, lane_mask, lg_prog->warp, lg_prog->tid);
	if (t == c->t_f32 || t == c->t_i32)
		return r;
	if (t == c->t_f16 || t == c->t_bf16)
		return LLVMBuildBitCast(c->b, LLVMBuildTrunc(c->b, r, c->t_i16, ""), t, "");
	return LLVMBuildTrunc(c->b, r, t, "");
}


/* A reduction along one axis into the slice of the operand's blocked layout: in each
 * thread over its slots of a row, then a butterfly over the lanes that split the axis,
 * then, when warps split it too, each warp's partials through shared memory; every
 * thread ends with the results of the rows it holds (no copy of the whole tile). Copies
 * (lanes and warps that wrap around a short axis, repeated slots) are left out so that
 * nothing is combined twice. */
static void lower_reduce_slice(cg *c, const ir_op *op)
{
	int n = op->noperands;
	const ir_type *t = op->operands[0]->type, *rt = op->results[0].type;
	const gpu_layout *pl = &lg_tile_layout(c, t)->l, *sl = &lg_tile_layout(c, rt)->l;
	int axis = sl->dim;
	const ir_block *region = op->regions[0];
	if (n > 8)
		cg_fail(c, op, "reductions of more than 8 operands are not supported");
	int E = lg_slots(c, t), R = lg_slots(c, rt);
	LLVMValueRef *acc = ARENA_NEWN(c->a, LLVMValueRef, (size_t)R * 8);
	for (int i = 0; i < R * 8; i++)
		acc[i] = NULL;
	for (int e = 0; e < E; e++) {
		int rep[GPU_MAX_RANK], in[GPU_MAX_RANK];
		gpu_layout_slot(pl, t->shape, t->rank, e, rep, in);
		if (in[axis] >= t->shape[axis])
			continue; /* a copy: the axis is shorter than a thread's run */
		int g = gpu_layout_slot_index(sl, rt->shape, rt->rank, rep, in);
		LLVMValueRef x[16], out[8];
		if (!acc[g * 8]) {
			for (int k = 0; k < n; k++)
				acc[g * 8 + k] = lg_tget(c, op->operands[k])->v[e];
			continue;
		}
		for (int k = 0; k < n; k++) {
			x[k] = acc[g * 8 + k];
			x[n + k] = lg_tget(c, op->operands[k])->v[e];
		}
		combine(c, region, x, 2 * n, out);
		for (int k = 0; k < n; k++)
			acc[g * 8 + k] = out[k];
	}
	int lanes, warps;
	gpu_reduce_spread(pl, t->shape, axis, &lanes, &warps);
	int lstride = 1, wstride = 1;
	for (int i = 0; pl->order[i] != axis; i++)
		lstride *= pl->tpw[pl->order[i]];
	for (int i = 0; gpu_layout_warp_dim(pl, i) != axis; i++) /* the wgmma layout's warps: dim 0 first */
		wstride *= pl->wpc[gpu_layout_warp_dim(pl, i)];
	for (int m = 1; m < lanes; m *= 2)
		for (int g = 0; g < R; g++) {
			LLVMValueRef x[16], out[8];
			for (int k = 0; k < n; k++) {
				x[k] = acc[g * 8 + k];
				x[n + k] = shfl_xor(c, acc[g * 8 + k], m * lstride);
			}
			combine(c, region, x, 2 * n, out);
			for (int k = 0; k < n; k++)
				acc[g * 8 + k] = out[k];
		}
	if (warps > 1) {
		/* partial p of warp w (along the axis) at [row * warps + w]; copies write the same
		 * values to the same places */
		lg_lead_barrier(c);
		LLVMValueRef wid = LLVMBuildUDiv(c->b, lg_prog->tid, cg_i32(c, lg_prog->warp), "");
		LLVMValueRef wa = LLVMBuildURem(c->b, LLVMBuildUDiv(c->b, wid, cg_i32(c, wstride), ""), cg_i32(c, warps), "");
		int64_t offs[8], off = 0;
		for (int k = 0; k < n; k++) {
			offs[k] = off;
			off += gpu_align16(ir_type_numel(rt) * warps * gpu_elem_bytes(op->operands[k]->type->elem));
		}
		if (off > lg_prog->smem_bytes)
			lg_prog->smem_bytes = off;
		LLVMValueRef *row = ARENA_NEWN(c->a, LLVMValueRef, (size_t)R);
		for (int g = 0; g < R; g++) {
			row[g] = LLVMBuildMul(c->b, lg_owned(c, rt, g), cg_i32(c, warps), "");
			for (int k = 0; k < n; k++) {
				const ir_type *ek = op->operands[k]->type->elem;
				LLVMValueRef v = acc[g * 8 + k];
				if (ek->kind == IR_I1)
					v = LLVMBuildZExt(c->b, v, c->t_i8, "");
				LLVMBuildStore(c->b, v, lg_smem_at(c, ek, offs[k], LLVMBuildAdd(c->b, row[g], wa, "")));
			}
		}
		lg_barrier(c);
		for (int g = 0; g < R; g++) {
			for (int k = 0; k < n; k++)
				acc[g * 8 + k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], row[g]);
			for (int w = 1; w < warps; w++) {
				LLVMValueRef x[16], out[8];
				for (int k = 0; k < n; k++) {
					x[k] = acc[g * 8 + k];
					x[n + k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k],
							     LLVMBuildAdd(c->b, row[g], cg_i32(c, w), ""));
				}
				combine(c, region, x, 2 * n, out);
				for (int k = 0; k < n; k++)
					acc[g * 8 + k] = out[k];
			}
		}
	}
	for (int k = 0; k < n; k++) {
		gtile *r = lg_new_tile(c, R);
		for (int g = 0; g < R; g++)
			r->v[g] = acc[g * 8 + k];
		lg_put(c, &op->results[k], r);
	}
}

void lg_lower_reduce(cg *c, const ir_op *op)
{
	if (lg_is_tile(op->results[0].type) && lg_tile_layout(c, op->results[0].type)->l.kind == GPU_SLICE) {
		if (!gpu_reduce_slices(op))
			cg_fail(c, op, "internal: a reduction of these operands cannot give a slice layout");
		lower_reduce_slice(c, op);
		return;
	}
	int n = op->noperands;
	int64_t axis = ir_op_int(op, "axis", 0);
	const ir_type *t = op->operands[0]->type;
	const ir_block *region = op->regions[0];
	LLVMValueRef x[16], r[8], acc[8];
	if (n > 8)
		cg_fail(c, op, "reductions of more than 8 operands are not supported");
	bool shuffles = gpu_reduce_shuffles(op, lg_prog->T); /* the predicate smem-alloc planned with */
	if (shuffles) {
		/* whole tile to a scalar: this thread's elements, then the warp, then the warps */
		for (int k = 0; k < n; k++)
			acc[k] = lg_tget(c, op->operands[k])->v[0];
		int E = lg_per_thread(ir_type_numel(t));
		for (int e = 1; e < E; e++) {
			for (int k = 0; k < n; k++) {
				x[k] = acc[k];
				x[n + k] = lg_tget(c, op->operands[k])->v[e];
			}
			combine(c, region, x, 2 * n, acc);
		}
		for (int lm = lg_prog->warp / 2; lm >= 1; lm /= 2) {
			for (int k = 0; k < n; k++) {
				x[k] = acc[k];
				x[n + k] = shfl_xor(c, acc[k], lm);
			}
			combine(c, region, x, 2 * n, acc);
		}
		int W = lg_prog->T / lg_prog->warp;
		if (W > 1) {
			lg_lead_barrier(c);
			LLVMValueRef warp = LLVMBuildUDiv(c->b, lg_prog->tid, cg_i32(c, lg_prog->warp), "");
			LLVMValueRef lane0 = LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildURem(c->b, lg_prog->tid, cg_i32(c, lg_prog->warp), ""),
							   cg_i32(c, 0), "");
			int64_t off = 0;
			int64_t offs[8];
			for (int k = 0; k < n; k++) {
				const ir_type *ek = op->operands[k]->type->elem;
				offs[k] = off;
				LLVMValueRef v = acc[k];
				if (ek->kind == IR_I1)
					v = LLVMBuildZExt(c->b, v, c->t_i8, "");
				lg_pred_store(c, lg_smem_at(c, ek, off, warp), v, lane0, 1);
				off += 8 * W;
			}
			if (off > lg_prog->smem_bytes)
				lg_prog->smem_bytes = off;
			lg_barrier(c);
			for (int k = 0; k < n; k++)
				acc[k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], cg_i32(c, 0));
			for (int w = 1; w < W; w++) {
				for (int k = 0; k < n; k++) {
					x[k] = acc[k];
					x[n + k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], cg_i32(c, w));
				}
				combine(c, region, x, 2 * n, acc);
			}
		}
		for (int k = 0; k < n; k++)
			lg_put(c, &op->results[k], acc[k]);
		return;
	}
	/* general case: through shared memory, each thread computing the outputs it owns */
	int64_t outer = 1, inner = 1, K = t->shape[axis];
	for (int d = 0; d < axis; d++)
		outer *= t->shape[d];
	for (int d = (int)axis + 1; d < t->rank; d++)
		inner *= t->shape[d];
	int64_t offs[8], off = 0;
	lg_lead_barrier(c);
	for (int k = 0; k < n; k++) {
		offs[k] = off;
		lg_to_smem(c, op->operands[k], off);
		off = gpu_align16(off + ir_type_numel(t) * gpu_elem_bytes(op->operands[k]->type->elem));
	}
	lg_barrier(c);
	int64_t nout = outer * inner;
	int E = lg_per_thread(nout);
	gtile *res[8] = {0};
	for (int k = 0; k < n; k++)
		res[k] = lg_is_tile(op->results[k].type) ? lg_new_tile(c, E) : NULL;
	for (int e = 0; e < (res[0] ? E : 1); e++) {
		LLVMValueRef oi = res[0] ? lg_owned_index(c, nout, e) : cg_i32(c, 0);
		LLVMValueRef o = LLVMBuildUDiv(c->b, oi, cg_i32(c, inner), "");
		LLVMValueRef in = LLVMBuildURem(c->b, oi, cg_i32(c, inner), "");
		LLVMValueRef base = LLVMBuildAdd(c->b, LLVMBuildMul(c->b, o, cg_i32(c, K * inner), ""), in, "");
		for (int k = 0; k < n; k++)
			acc[k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], base);
		/* a loop over the reduced axis, with the accumulators as phis */
		philoop l;
		lg_philoop_open(c, &l, "red", cg_i32(c, 1), LLVMIntULT, cg_i32(c, K), n, acc);
		LLVMValueRef at = LLVMBuildAdd(c->b, base, LLVMBuildMul(c->b, l.iv, cg_i32(c, inner), ""), "");
		for (int k = 0; k < n; k++) {
			x[k] = l.vals[k];
			x[n + k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], at);
		}
		combine(c, region, x, 2 * n, r);
		lg_philoop_close(c, &l, r);
		LLVMValueRef *phis = l.vals;
		for (int k = 0; k < n; k++) {
			if (res[k])
				res[k]->v[e] = phis[k];
			else
				lg_put(c, &op->results[k], phis[k]);
		}
	}
	for (int k = 0; k < n; k++)
		if (res[k])
			lg_put(c, &op->results[k], res[k]);
}

/* Scans through shared memory: each thread computes the outputs it owns by combining the
 * elements from the start (or, reversed, the end) of its line along the axis. */
void lg_lower_scan(cg *c, const ir_op *op)
{
	int n = op->noperands;
	int64_t axis = ir_op_int(op, "axis", 0);
	bool reverse = ir_op_int(op, "reverse", 0) != 0;
	const ir_type *t = op->operands[0]->type;
	const ir_block *region = op->regions[0];
	LLVMValueRef x[16], r[8], acc[8];
	if (n > 8)
		cg_fail(c, op, "scans of more than 8 operands are not supported");
	int64_t inner = 1, K = t->shape[axis];
	for (int d = (int)axis + 1; d < t->rank; d++)
		inner *= t->shape[d];
	int64_t offs[8], off = 0;
	lg_lead_barrier(c);
	for (int k = 0; k < n; k++) {
		offs[k] = off;
		lg_to_smem(c, op->operands[k], off);
		off = gpu_align16(off + ir_type_numel(t) * gpu_elem_bytes(op->operands[k]->type->elem));
	}
	lg_barrier(c);
	int64_t numel = ir_type_numel(t);
	int E = lg_per_thread(numel);
	gtile *res[8];
	for (int k = 0; k < n; k++)
		res[k] = lg_new_tile(c, E);
	for (int e = 0; e < E; e++) {
		LLVMValueRef i = lg_owned_index(c, numel, e);
		/* position along the axis and the line's first element */
		LLVMValueRef pos = LLVMBuildURem(c->b, LLVMBuildUDiv(c->b, i, cg_i32(c, inner), ""), cg_i32(c, K), "");
		LLVMValueRef line = LLVMBuildSub(c->b, i, LLVMBuildMul(c->b, pos, cg_i32(c, inner), ""), "");
		LLVMValueRef first = reverse ? cg_i32(c, K - 1) : cg_i32(c, 0);
		for (int k = 0; k < n; k++)
			acc[k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k],
					   LLVMBuildAdd(c->b, line, LLVMBuildMul(c->b, first, cg_i32(c, inner), ""), ""));
		/* j runs over the steps after the first, up to pos (forward) or down to it */
		LLVMValueRef steps = reverse ? LLVMBuildSub(c->b, cg_i32(c, K - 1), pos, "") : pos;
		philoop l;
		lg_philoop_open(c, &l, "scan", cg_i32(c, 1), LLVMIntULE, steps, n, acc);
		LLVMValueRef at = reverse ? LLVMBuildSub(c->b, cg_i32(c, K - 1), l.iv, "") : l.iv;
		at = LLVMBuildAdd(c->b, line, LLVMBuildMul(c->b, at, cg_i32(c, inner), ""), "");
		for (int k = 0; k < n; k++) {
			x[k] = l.vals[k];
			x[n + k] = lg_from_smem(c, op->operands[k]->type->elem, offs[k], at);
		}
		combine(c, region, x, 2 * n, r);
		lg_philoop_close(c, &l, r);
		LLVMValueRef *phis = l.vals;
		for (int k = 0; k < n; k++)
			res[k]->v[e] = phis[k];
	}
	for (int k = 0; k < n; k++)
		lg_put(c, &op->results[k], res[k]);
}

