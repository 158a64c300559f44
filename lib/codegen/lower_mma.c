/* lower_mma.c: a dot on tensor cores, as gpu_mma.h plans it: for each 16-deep k-step,
 * every warp fetches the A fragments of its row tiles and the B fragments of its column
 * tiles from the staged (swizzled) operands with ldmatrix, then issues one mma.sync per
 * (row tile, column tile), accumulating in place in the slots of the #mma accumulator.
 * The lane-dependent parts of the fetch addresses are computed once; each fetch adds its
 * tile's constant part and applies the swizzle (gpu_mma_a_source / gpu_mma_b_source give
 * the same addresses as integers, for the unit tests). */
#include "codegen/lower_mma.h"

#include "codegen/gpu_isa.h"

/* Element index of (row, group * vec) in a #shared tile with rows of `ld` elements: the
 * group swizzled by the row's phase (gpu_layout_swizzle). */
static LLVMValueRef swizzled(cg *c, const gpu_layout *l, int64_t ld, LLVMValueRef row, LLVMValueRef grp,
			     LLVMValueRef phase)
{
	LLVMValueRef g = LLVMBuildXor(c->b, grp, phase, "");
	return LLVMBuildAdd(c->b, LLVMBuildMul(c->b, row, cg_i32(c, ld), ""),
			    LLVMBuildMul(c->b, g, cg_i32(c, l->vec), ""), "");
}

static LLVMValueRef phase_of(cg *c, const gpu_layout *l, LLVMValueRef row)
{
	return LLVMBuildURem(c->b, LLVMBuildUDiv(c->b, row, cg_i32(c, l->per_phase), ""),
			     cg_i32(c, l->max_phase), "");
}

static LLVMValueRef at(cg *c, LLVMValueRef base, LLVMValueRef idx)
{
	/* 16-bit elements: byte offset 2 idx from the tile's start */
	LLVMValueRef b = LLVMBuildShl(c->b, LLVMBuildZExt(c->b, idx, c->t_i64, ""), cg_i64(c, 1), "");
	return LLVMBuildGEP2(c->b, c->t_i8, base, &b, 1, "");
}

bool lower_mma_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs)
{
	/* ldmatrix reads 16-byte matrix rows: one swizzle group each, and the row offsets a
	 * tile adds (multiples of 8) must not change a row's phase */
	for (int k = 0; k < 2; k++) {
		const gpu_layout *l = k ? bs : as;
		if (l->kind != GPU_SHARED || l->vec != 8 || 8 % (l->per_phase * l->max_phase) || l->panel ||
		    l->order[0] != 1)
			return false;
	}
	(void)p;
	return true;
}

void lower_mma_dot(cg *c, const gpu_mma *p, LLVMValueRef a, LLVMValueRef b_, const gpu_layout *as,
		   const gpu_layout *bs, LLVMValueRef tid, LLVMValueRef *acc)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef lane = LLVMBuildURem(b, tid, cg_i32(c, 32), "");
	LLVMValueRef w = LLVMBuildUDiv(b, tid, cg_i32(c, 32), "");
	LLVMValueRef w1 = LLVMBuildURem(b, w, cg_i32(c, p->w1), "");
	LLVMValueRef w0 = LLVMBuildURem(b, LLVMBuildUDiv(b, w, cg_i32(c, p->w1), ""), cg_i32(c, p->w0), "");
	LLVMValueRef q = LLVMBuildUDiv(b, lane, cg_i32(c, 8), "");
	LLVMValueRef r = LLVMBuildURem(b, lane, cg_i32(c, 8), "");
	LLVMValueRef q1 = LLVMBuildAnd(b, q, cg_i32(c, 1), ""), q2 = LLVMBuildLShr(b, q, cg_i32(c, 1), "");

	/* A: the lane's row within tile 0 ((q & 1) * 8 W0 + w0 * 8 + r) and k group (q >> 1) */
	LLVMValueRef arow = LLVMBuildAdd(b, LLVMBuildAdd(b, LLVMBuildMul(b, q1, cg_i32(c, 8 * p->w0), ""),
							 LLVMBuildMul(b, w0, cg_i32(c, 8), ""), ""), r, "");
	LLVMValueRef aph = phase_of(c, as, arow);
	/* B: the lane's k row within the step ((q & 1) * 8 + r) and column group of tile 0
	 * ((q >> 1) W1 + w1; .x2 fetches use lane % 16, whose q >> 1 is 0) */
	LLVMValueRef brow = LLVMBuildAdd(b, LLVMBuildMul(b, q1, cg_i32(c, 8), ""), r, "");
	LLVMValueRef bph = phase_of(c, bs, brow);
	LLVMValueRef bgrp2 = LLVMBuildAdd(b, LLVMBuildMul(b, q2, cg_i32(c, p->w1), ""), w1, "");

	LLVMValueRef *af = ARENA_NEWN(c->a, LLVMValueRef, 4 * p->mtiles);
	LLVMValueRef *bf = ARENA_NEWN(c->a, LLVMValueRef, 2 * p->ntiles + 2);
	for (int kk = 0; kk < p->ksteps; kk++) {
		for (int i = 0; i < p->mtiles; i++) {
			LLVMValueRef row = LLVMBuildAdd(b, arow, cg_i32(c, (int64_t)i * 16 * p->w0), "");
			LLVMValueRef grp = LLVMBuildAdd(b, q2, cg_i32(c, 2 * kk), "");
			LLVMValueRef idx = swizzled(c, as, p->K, row, grp, aph);
			c->isa->ldmatrix(c, at(c, a, idx), 4, false, &af[4 * i]);
		}
		LLVMValueRef krow = LLVMBuildAdd(b, brow, cg_i32(c, (int64_t)kk * 16), "");
		for (int j = 0; j < p->ntiles; j += 2) {
			bool pair = j + 1 < p->ntiles;
			LLVMValueRef g = LLVMBuildAdd(b, pair ? bgrp2 : w1, cg_i32(c, (int64_t)j * p->w1), "");
			LLVMValueRef idx = swizzled(c, bs, p->N, krow, g, bph);
			c->isa->ldmatrix(c, at(c, b_, idx), pair ? 4 : 2, true, &bf[2 * j]);
		}
		for (int i = 0; i < p->mtiles; i++)
			for (int j = 0; j < p->ntiles; j++) {
				LLVMValueRef cf[4];
				int slot[4];
				for (int k = 0; k < 4; k++) {
					slot[k] = gpu_mma_c_slot(p, i, j, k);
					cf[k] = acc[slot[k]];
				}
				c->isa->mma(c, p->kind == GPU_MMA_BF16, &af[4 * i], &bf[2 * j], cf);
				for (int k = 0; k < 4; k++)
					acc[slot[k]] = cf[k];
			}
	}
}
