/* lower_mma.c: a dot on tensor cores, as gpu_mma.h plans it: for each k-step (32 bytes of
 * K), every warp fetches the A fragments of its row tiles and the B fragments of its column
 * tiles from the staged (swizzled) operands with ldmatrix (B of TF32 and S8 with single
 * loads: ldmatrix.trans moves 16-bit units), then issues one mma.sync per
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

/* The address of element idx (of eb bytes) from base. */
static LLVMValueRef at(cg *c, LLVMValueRef base, LLVMValueRef idx, int eb)
{
	LLVMValueRef b = LLVMBuildMul(c->b, LLVMBuildZExt(c->b, idx, c->t_i64, ""), cg_i64(c, eb), "");
	return LLVMBuildGEP2(c->b, c->t_i8, base, &b, 1, "");
}

/* The address of element idx + off: the lane's part idx, the same for every tile that
 * differs from it by whole swizzle periods of rows, and the tile's constant part off
 * added last, so that the fetches of those tiles share one register and the assembler
 * folds off into each ldmatrix as an immediate ([r + imm], as Triton's code has it). */
static LLVMValueRef at_plus(cg *c, LLVMValueRef base, LLVMValueRef idx, int64_t off, int eb)
{
	LLVMValueRef o = cg_i64(c, off * eb);
	return LLVMBuildGEP2(c->b, c->t_i8, at(c, base, idx, eb), &o, 1, "");
}

/* TF32 and S8: B's fragment registers b0, b1 of column tile j at k-step kk, each lane
 * loading its elements (gpu_mma_b_elem) one by one from the swizzled row-major tile and
 * packing S8's four into one i32 (the lowest k in the low byte). t4 = lane % 4 and ncol =
 * the lane's column in tile 0 (w1 * 8 + lane / 4). */
static void fetch_b_elems(cg *c, const gpu_mma *p, LLVMValueRef bbase, const gpu_layout *bs, int j, int kk,
			  LLVMValueRef t4, LLVMValueRef ncol, LLVMValueRef *out)
{
	LLVMBuilderRef b = c->b;
	int eb = gpu_mma_elem_bytes(p->kind), per = 4 / eb, ks = gpu_mma_kstep(p->kind);
	LLVMValueRef n = LLVMBuildAdd(b, ncol, cg_i32(c, (int64_t)j * 8 * p->w1), "");
	LLVMValueRef grp = LLVMBuildUDiv(b, n, cg_i32(c, bs->vec), "");
	LLVMValueRef in = LLVMBuildURem(b, n, cg_i32(c, bs->vec), "");
	LLVMTypeRef et = eb == 4 ? c->t_i32 : c->t_i8;
	for (int reg = 0; reg < 2; reg++) {
		LLVMValueRef word = NULL;
		for (int e = 0; e < per; e++) {
			LLVMValueRef k = LLVMBuildAdd(b, LLVMBuildMul(b, t4, cg_i32(c, per), ""),
						      cg_i32(c, (int64_t)kk * ks + reg * (ks / 2) + e), "");
			LLVMValueRef idx = LLVMBuildAdd(b, swizzled(c, bs, p->N, k, grp, phase_of(c, bs, k)), in, "");
			LLVMValueRef x = LLVMBuildLoad2(b, et, at(c, bbase, idx, eb), "");
			if (eb == 1) {
				x = LLVMBuildShl(b, LLVMBuildZExt(b, x, c->t_i32, ""), cg_i32(c, 8 * e), "");
				x = word ? LLVMBuildOr(b, word, x, "") : x;
			}
			word = x;
		}
		out[reg] = word;
	}
}

/* tf32x3 (Triton's): x = hi + lo with hi = x's fp32 bits with the 13 mantissa bits tf32
 * drops cleared (exactly representable in tf32) and lo = x - hi (exact in fp32; the mma
 * rounds it to tf32), and acc += lo_a hi_b + hi_a lo_b + hi_a hi_b, smallest first: the
 * product keeps about 21 mantissa bits of each operand instead of 10. */
static void split_tf32(cg *c, LLVMValueRef x, LLVMValueRef *hi, LLVMValueRef *lo)
{
	LLVMBuilderRef b = c->b;
	*hi = LLVMBuildAnd(b, x, cg_i32(c, (int64_t)0xffffe000u), "");
	LLVMValueRef d = LLVMBuildFSub(b, LLVMBuildBitCast(b, x, c->t_f32, ""), LLVMBuildBitCast(b, *hi, c->t_f32, ""), "");
	*lo = LLVMBuildBitCast(b, d, c->t_i32, "");
}

static void mma_x3(cg *c, const LLVMValueRef *a, const LLVMValueRef *bf, LLVMValueRef *acc)
{
	LLVMValueRef ah[4], al[4], bh[2], bl[2];
	for (int i = 0; i < 4; i++)
		split_tf32(c, a[i], &ah[i], &al[i]);
	for (int i = 0; i < 2; i++)
		split_tf32(c, bf[i], &bh[i], &bl[i]);
	c->isa->mma(c, GPU_ISA_MMA_TF32, al, bh, acc);
	c->isa->mma(c, GPU_ISA_MMA_TF32, ah, bl, acc);
	c->isa->mma(c, GPU_ISA_MMA_TF32, ah, bh, acc);
}

bool lower_mma_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, bool a_regs)
{
	/* ldmatrix reads 16-byte matrix rows: one swizzle group each, and the row offsets a
	 * tile adds (multiples of 8) must not change a row's phase; B of TF32 and S8 is read
	 * element by element, each through its own row's phase. A 16-bit B may be stored
	 * transposed (K contiguous: ldmatrix without .trans); A may be in registers. */
	bool b16 = p->kind == GPU_MMA_F16 || p->kind == GPU_MMA_BF16;
	if (a_regs && !gpu_mma_a_regs(p, as))
		return false;
	for (int k = a_regs ? 1 : 0; k < 2; k++) {
		const gpu_layout *l = k ? bs : as;
		if (l->kind != GPU_SHARED || (l->order[0] != 1 && !(k == 1 && b16)) || l->panel)
			return false;
		if ((k == 0 || b16) &&
		    (l->vec * gpu_mma_elem_bytes(p->kind) != 16 || 8 % (l->per_phase * l->max_phase)))
			return false;
	}
	return true;
}

void lower_mma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase,
		   const gpu_layout *as, const gpu_layout *bs, const LLVMValueRef *aregs, LLVMValueRef tid,
		   LLVMValueRef *acc)
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
	/* B stored transposed (each n a row of K): the lane's row n in tile 0 (column group
	 * (q >> 1) W1 + w1, row r of it) and its k half (q & 1); .x2 has q >> 1 = 0 */
	bool btr = bs->order[0] == 0;
	LLVMValueRef tn2 = LLVMBuildAdd(b, LLVMBuildMul(b, bgrp2, cg_i32(c, 8), ""), r, "");
	LLVMValueRef tn1 = LLVMBuildAdd(b, LLVMBuildMul(b, w1, cg_i32(c, 8), ""), r, "");
	LLVMValueRef tph2 = btr ? phase_of(c, bs, tn2) : NULL, tph1 = btr ? phase_of(c, bs, tn1) : NULL;
	LLVMTypeRef pair_t = LLVMVectorType(p->kind == GPU_MMA_BF16 ? c->t_bf16 : c->t_f16, 2);

	/* TF32, S8: the lane's k offset within a half-step and its column in tile 0 */
	bool b16 = p->kind == GPU_MMA_F16 || p->kind == GPU_MMA_BF16;
	int eb = gpu_mma_elem_bytes(p->kind);
	LLVMValueRef t4 = LLVMBuildURem(b, lane, cg_i32(c, 4), "");
	LLVMValueRef ncol = LLVMBuildAdd(b, LLVMBuildMul(b, w1, cg_i32(c, 8), ""), LLVMBuildUDiv(b, lane, cg_i32(c, 4), ""), "");

	LLVMValueRef *af = ARENA_NEWN(c->a, LLVMValueRef, 4 * p->mtiles);
	LLVMValueRef *bf = ARENA_NEWN(c->a, LLVMValueRef, 2 * p->ntiles + 2);
	for (int kk = 0; kk < p->ksteps; kk++) {
		for (int i = 0; i < p->mtiles && aregs; i++) /* A's fragment from its own slots */
			for (int j = 0; j < 4; j++) {
				LLVMValueRef v = LLVMGetPoison(pair_t);
				for (int h = 0; h < 2; h++)
					v = LLVMBuildInsertElement(b, v, aregs[gpu_mma_a_slot(p, as, i, kk, 2 * j + h)],
								   cg_i32(c, h), "");
				af[4 * i + j] = LLVMBuildBitCast(b, v, c->t_i32, "");
			}
		for (int i = 0; i < p->mtiles && !aregs; i++) {
			/* row tile i is 16 W0 i rows below tile 0, in the same phase */
			LLVMValueRef grp = LLVMBuildAdd(b, q2, cg_i32(c, 2 * kk), "");
			LLVMValueRef idx = swizzled(c, as, p->K, arow, grp, aph);
			c->isa->ldmatrix(c, at_plus(c, abase, idx, (int64_t)i * 16 * p->w0 * p->K, eb), 4, false,
					 &af[4 * i]);
		}
		/* k-step kk is 16 kk rows below step 0 (N-major B), in the same phase */
		int64_t krow_off = (int64_t)kk * 16 * p->N;
		for (int j = 0; j < p->ntiles && !b16; j++)
			fetch_b_elems(c, p, bbase, bs, j, kk, t4, ncol, &bf[2 * j]);
		for (int j = 0; j < p->ntiles && b16; j += 2) {
			bool pair = j + 1 < p->ntiles;
			LLVMValueRef idx;
			int64_t off;
			if (btr) { /* rows n of tiles j (and j + 1), 8 W1 j below tile 0's; k groups 2 kk + (q & 1) */
				LLVMValueRef g = LLVMBuildAdd(b, q1, cg_i32(c, 2 * kk), "");
				idx = swizzled(c, bs, p->K, pair ? tn2 : tn1, g, pair ? tph2 : tph1);
				off = (int64_t)j * 8 * p->w1 * p->K;
			} else {
				LLVMValueRef g = LLVMBuildAdd(b, pair ? bgrp2 : w1, cg_i32(c, (int64_t)j * p->w1), "");
				idx = swizzled(c, bs, p->N, brow, g, bph);
				off = krow_off;
			}
			c->isa->ldmatrix(c, at_plus(c, bbase, idx, off, eb), pair ? 4 : 2, !btr, &bf[2 * j]);
		}
		for (int i = 0; i < p->mtiles; i++)
			for (int j = 0; j < p->ntiles; j++) {
				LLVMValueRef cf[4];
				int slot[4];
				for (int k = 0; k < 4; k++) {
					slot[k] = gpu_mma_c_slot(p, i, j, k);
					cf[k] = acc[slot[k]];
				}
				if (p->x3)
					mma_x3(c, &af[4 * i], &bf[2 * j], cf);
				else
					c->isa->mma(c, p->acc16 ? GPU_ISA_MMA_F16_F16 : (int)p->kind, &af[4 * i], &bf[2 * j], cf);
				for (int k = 0; k < 4; k++)
					acc[slot[k]] = cf[k];
			}
	}
}
