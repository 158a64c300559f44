/* lower_mfma.c: a dot on AMD matrix cores, as gpu_mma.h plans it (version 4): for each
 * k-step (the K of one instruction), every wave reads the operand registers of its
 * instruction rows of A and instruction columns of B from the tiles staged in LDS (each
 * lane its kw consecutive k of one row of A, of one column of B: gpu_mfma_a_elem,
 * gpu_mfma_b_elem give the same elements as integers, for the unit tests), then issues
 * one v_mfma per (row, column) pair, accumulating in place in the slots of the #mfma
 * accumulator (gpu_mfma_c_slot). The operands are staged once per dot (convert_layout to
 * #shared before it; no multi-stage pipeline on AMD: pipeline.c serves NVIDIA's cp.async
 * only), so a dot in a loop reads LDS that the iteration's stores just filled. */
#include "codegen/lower_mfma.h"

#include "codegen/gpu_isa.h"
#include "codegen/lower_gpu.h"

bool lower_mfma_fits(const gpu_mma *p, const ir_type *at, const ir_type *bt)
{
	(void)p;
	for (int k = 0; k < 2; k++) {
		const ir_type *t = k ? bt : at;
		if (!gpu_is_shared(t) || t->rank != 2)
			return false;
	}
	return true;
}

/* Whether the kw elements of a lane, consecutive along dim of the #shared tile t, lie
 * contiguous in LDS: one vector load moves them. */
static bool contiguous(cg *c, const ir_type *t, int dim, int kw)
{
	const gpu_layout *l = &lg_tile_layout(c, t)->l;
	return l->kind == GPU_SHARED && !l->panel && gpu_run_fits_shared(l, t->shape, dim, kw);
}

/* The address of element idx (i32) of eb bytes from base. */
static LLVMValueRef at(cg *c, LLVMValueRef base, LLVMValueRef idx, int eb)
{
	LLVMValueRef b = LLVMBuildMul(c->b, LLVMBuildZExt(c->b, idx, c->t_i64, ""), cg_i64(c, eb), "");
	return LLVMBuildGEP2(c->b, c->t_i8, base, &b, 1, "");
}

/* One lane's operand register of kind p->kind from its kw elements (raw bits, <kw x iN>):
 * the instruction's operand type (gpu_isa.h, mfma). fp8: OCP's -0 (0x80) is a NaN in
 * gfx940's FNUZ formats, so it is made +0. */
static LLVMValueRef operand(cg *c, const gpu_mma *p, LLVMValueRef v, int kw)
{
	LLVMBuilderRef b = c->b;
	switch (p->kind) {
	case GPU_MMA_F16:
		return LLVMBuildBitCast(b, v, LLVMVectorType(c->t_f16, (unsigned)kw), "");
	case GPU_MMA_BF16:
		return v;
	default: {
		if (gpu_mma_fp8(p->kind)) {
			LLVMValueRef e80[16];
			for (int e = 0; e < kw; e++)
				e80[e] = LLVMConstInt(c->t_i8, 0x80, 0);
			LLVMValueRef k80 = LLVMConstVector(e80, (unsigned)kw), z = LLVMConstNull(LLVMTypeOf(v));
			v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, v, k80, ""), z, v, "");
		}
		return LLVMBuildBitCast(b, v, LLVMIntTypeInContext(c->ctx, (unsigned)(8 * kw)), "");
	}
	}
}

/* The kw elements from (row, col0 ..) (along_cols) or (row0 .., col) of the #shared tile
 * t at base: one vector load when contiguous, else element by element. */
static LLVMValueRef fetch(cg *c, LLVMValueRef base, const ir_type *t, LLVMValueRef row, LLVMValueRef col,
			  bool along_cols, bool vec, int kw, int eb)
{
	LLVMBuilderRef b = c->b;
	LLVMTypeRef et = LLVMIntTypeInContext(c->ctx, (unsigned)(8 * eb)), vt = LLVMVectorType(et, (unsigned)kw);
	if (vec) {
		LLVMValueRef l = LLVMBuildLoad2(b, vt, at(c, base, lg_shared_index(c, t, row, col), eb), "");
		LLVMSetAlignment(l, (unsigned)(kw * eb > 16 ? 16 : kw * eb));
		return l;
	}
	LLVMValueRef v = LLVMGetPoison(vt);
	for (int e = 0; e < kw; e++) {
		LLVMValueRef r = along_cols ? row : LLVMBuildAdd(b, row, cg_i32(c, e), "");
		LLVMValueRef k = along_cols ? LLVMBuildAdd(b, col, cg_i32(c, e), "") : col;
		LLVMValueRef x = LLVMBuildLoad2(b, et, at(c, base, lg_shared_index(c, t, r, k), eb), "");
		v = LLVMBuildInsertElement(b, v, x, cg_i32(c, e), "");
	}
	return v;
}

void lower_mfma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase, const ir_type *at_,
		    const ir_type *bt, LLVMValueRef tid, LLVMValueRef *acc)
{
	LLVMBuilderRef b = c->b;
	gpu_mfma_map mp = gpu_mfma_map_of(p);
	int S = p->nonk, kin = mp.kin, kw = mp.kw, eb = gpu_mma_elem_bytes(p->kind), nregs = S * S / 64;
	LLVMValueRef lane = LLVMBuildURem(b, tid, cg_i32(c, 64), "");
	LLVMValueRef w = LLVMBuildUDiv(b, tid, cg_i32(c, 64), "");
	LLVMValueRef w1 = LLVMBuildURem(b, w, cg_i32(c, p->w1), "");
	LLVMValueRef w0 = LLVMBuildURem(b, LLVMBuildUDiv(b, w, cg_i32(c, p->w1), ""), cg_i32(c, p->w0), "");
	LLVMValueRef li = LLVMBuildURem(b, lane, cg_i32(c, S), "");
	LLVMValueRef kg = LLVMBuildMul(b, LLVMBuildUDiv(b, lane, cg_i32(c, S), ""), cg_i32(c, kw), "");
	/* gpu_mfma_map: A's row in instruction row 0 (where the accumulator keeps instruction
	 * row li: register block li / blk of the wave's rows, row li % blk of it), B's column
	 * in instruction column 0 */
	LLVMValueRef arow = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildUDiv(b, li, cg_i32(c, mp.blk), ""), cg_i32(c, mp.blk_stride), ""),
					 LLVMBuildAdd(b, LLVMBuildMul(b, w0, cg_i32(c, mp.blk), ""),
						      LLVMBuildURem(b, li, cg_i32(c, mp.blk), ""), ""), "");
	LLVMValueRef bcol = LLVMBuildAdd(b, LLVMBuildMul(b, w1, cg_i32(c, S), ""), li, "");
	bool avec = contiguous(c, at_, 1, kw), bvec = contiguous(c, bt, 0, kw);

	/* OCP fp8 read as FNUZ: each product is a quarter of the true one, so the dot runs
	 * on a quarter of the accumulator and scales back (exact: powers of two) */
	bool fp8 = gpu_mma_fp8(p->kind);
	int nslots = p->mtiles * p->ntiles * nregs;
	for (int s = 0; fp8 && s < nslots; s++)
		acc[s] = LLVMBuildFMul(b, acc[s], LLVMConstReal(c->t_f32, 0.25), "");

	LLVMValueRef *af = ARENA_NEWN(c->a, LLVMValueRef, p->mtiles);
	LLVMValueRef *bf = ARENA_NEWN(c->a, LLVMValueRef, p->ntiles);
	LLVMValueRef cf[16];
	for (int kk = 0; kk < p->ksteps; kk++) {
		LLVMValueRef k0 = LLVMBuildAdd(b, kg, cg_i32(c, (int64_t)kk * kin), "");
		for (int i = 0; i < p->mtiles; i++) {
			LLVMValueRef row = LLVMBuildAdd(b, arow, cg_i32(c, i * mp.row_tile), "");
			af[i] = operand(c, p, fetch(c, abase, at_, row, k0, true, avec, kw, eb), kw);
		}
		for (int j = 0; j < p->ntiles; j++) {
			LLVMValueRef col = LLVMBuildAdd(b, bcol, cg_i32(c, j * mp.col_tile), "");
			bf[j] = operand(c, p, fetch(c, bbase, bt, k0, col, false, bvec, kw, eb), kw);
		}
		for (int i = 0; i < p->mtiles; i++)
			for (int j = 0; j < p->ntiles; j++) {
				for (int r = 0; r < nregs; r++)
					cf[r] = acc[gpu_mfma_c_slot(p, i, j, r)];
				c->isa->mfma(c, (int)p->kind, S, p->gen, af[i], bf[j], cf);
				for (int r = 0; r < nregs; r++)
					acc[gpu_mfma_c_slot(p, i, j, r)] = cf[r];
			}
	}
	for (int s = 0; fp8 && s < nslots; s++)
		acc[s] = LLVMBuildFMul(b, acc[s], LLVMConstReal(c->t_f32, 4.0), "");
}
