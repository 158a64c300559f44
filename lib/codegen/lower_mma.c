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

/* The lane-dependent parts of the fetch addresses, computed once per dot or fetch; as or
 * bs NULL when that operand is not read from shared memory. */
typedef struct lanes {
	LLVMValueRef w1, q1, q2;
	LLVMValueRef arow, aph;              /* A: the lane's row in tile 0 and its phase */
	LLVMValueRef brow, bph, bgrp2;       /* B, N-major: k row, phase, column group */
	bool btr;                            /* B stored transposed (K contiguous) */
	LLVMValueRef tn2, tn1, tph2, tph1;   /* transposed B: row n (x4, x2) and phases */
	LLVMValueRef t4, ncol;               /* TF32, S8: k offset and column in tile 0 */
} lanes;

static void lanes_init(cg *c, const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, LLVMValueRef tid,
		       lanes *L)
{
	LLVMBuilderRef b = c->b;
	LLVMValueRef lane = LLVMBuildURem(b, tid, cg_i32(c, 32), "");
	LLVMValueRef w = LLVMBuildUDiv(b, tid, cg_i32(c, 32), "");
	L->w1 = LLVMBuildURem(b, w, cg_i32(c, p->w1), "");
	LLVMValueRef w0 = LLVMBuildURem(b, LLVMBuildUDiv(b, w, cg_i32(c, p->w1), ""), cg_i32(c, p->w0), "");
	LLVMValueRef q = LLVMBuildUDiv(b, lane, cg_i32(c, 8), "");
	LLVMValueRef r = LLVMBuildURem(b, lane, cg_i32(c, 8), "");
	L->q1 = LLVMBuildAnd(b, q, cg_i32(c, 1), "");
	L->q2 = LLVMBuildLShr(b, q, cg_i32(c, 1), "");
	/* A: the lane's row within tile 0 ((q & 1) * 8 W0 + w0 * 8 + r) and k group (q >> 1) */
	if (as) {
		L->arow = LLVMBuildAdd(b, LLVMBuildAdd(b, LLVMBuildMul(b, L->q1, cg_i32(c, 8 * p->w0), ""),
						       LLVMBuildMul(b, w0, cg_i32(c, 8), ""), ""), r, "");
		L->aph = phase_of(c, as, L->arow);
	}
	if (!bs)
		return;
	/* B: the lane's k row within the step ((q & 1) * 8 + r) and column group of tile 0
	 * ((q >> 1) W1 + w1; .x2 fetches use lane % 16, whose q >> 1 is 0) */
	L->brow = LLVMBuildAdd(b, LLVMBuildMul(b, L->q1, cg_i32(c, 8), ""), r, "");
	L->bph = phase_of(c, bs, L->brow);
	L->bgrp2 = LLVMBuildAdd(b, LLVMBuildMul(b, L->q2, cg_i32(c, p->w1), ""), L->w1, "");
	/* B stored transposed (each n a row of K): the lane's row n in tile 0 (column group
	 * (q >> 1) W1 + w1, row r of it) and its k half (q & 1); .x2 has q >> 1 = 0 */
	L->btr = bs->order[0] == 0;
	L->tn2 = LLVMBuildAdd(b, LLVMBuildMul(b, L->bgrp2, cg_i32(c, 8), ""), r, "");
	L->tn1 = LLVMBuildAdd(b, LLVMBuildMul(b, L->w1, cg_i32(c, 8), ""), r, "");
	L->tph2 = L->btr ? phase_of(c, bs, L->tn2) : NULL;
	L->tph1 = L->btr ? phase_of(c, bs, L->tn1) : NULL;
	/* TF32, S8: the lane's k offset within a half-step and its column in tile 0 */
	L->t4 = LLVMBuildURem(b, lane, cg_i32(c, 4), "");
	L->ncol = LLVMBuildAdd(b, LLVMBuildMul(b, L->w1, cg_i32(c, 8), ""), LLVMBuildUDiv(b, lane, cg_i32(c, 4), ""), "");
}

/* A's fragments at k-step kk: af[4 i + q], register q of row tile i (one ldmatrix.x4 each;
 * row tile i is 16 W0 i rows below tile 0, in the same phase). */
static void fetch_a(cg *c, const gpu_mma *p, const lanes *L, LLVMValueRef abase, const gpu_layout *as, int kk,
		    LLVMValueRef *af)
{
	int eb = gpu_mma_elem_bytes(p->kind);
	for (int i = 0; i < p->mtiles; i++) {
		LLVMValueRef grp = LLVMBuildAdd(c->b, L->q2, cg_i32(c, 2 * kk), "");
		LLVMValueRef idx = swizzled(c, as, p->K, L->arow, grp, L->aph);
		c->isa->ldmatrix(c, at_plus(c, abase, idx, (int64_t)i * 16 * p->w0 * p->K, eb), 4, false, &af[4 * i]);
	}
}

/* B's fragments at k-step kk: bf[2 j + q], register q of column tile j (k-step kk is 16 kk
 * rows below step 0 for an N-major B, in the same phase). */
static void fetch_b(cg *c, const gpu_mma *p, const lanes *L, LLVMValueRef bbase, const gpu_layout *bs, int kk,
		    LLVMValueRef *bf)
{
	bool b16 = p->kind == GPU_MMA_F16 || p->kind == GPU_MMA_BF16;
	int eb = gpu_mma_elem_bytes(p->kind);
	int64_t krow_off = (int64_t)kk * 16 * p->N;
	for (int j = 0; j < p->ntiles && !b16; j++)
		fetch_b_elems(c, p, bbase, bs, j, kk, L->t4, L->ncol, &bf[2 * j]);
	for (int j = 0; j < p->ntiles && b16; j += 2) {
		bool pair = j + 1 < p->ntiles;
		LLVMValueRef idx;
		int64_t off;
		if (L->btr) { /* rows n of tiles j (and j + 1), 8 W1 j below tile 0's; k groups 2 kk + (q & 1) */
			LLVMValueRef g = LLVMBuildAdd(c->b, L->q1, cg_i32(c, 2 * kk), "");
			idx = swizzled(c, bs, p->K, pair ? L->tn2 : L->tn1, g, pair ? L->tph2 : L->tph1);
			off = (int64_t)j * 8 * p->w1 * p->K;
		} else {
			LLVMValueRef g = LLVMBuildAdd(c->b, pair ? L->bgrp2 : L->w1, cg_i32(c, (int64_t)j * p->w1), "");
			idx = swizzled(c, bs, p->N, L->brow, g, L->bph);
			off = krow_off;
		}
		c->isa->ldmatrix(c, at_plus(c, bbase, idx, off, eb), pair ? 4 : 2, !L->btr, &bf[2 * j]);
	}
}

void lower_mma_fetch(cg *c, const gpu_mma *p, int opidx, LLVMValueRef base, const gpu_layout *sl, int ksteps,
		     LLVMValueRef tid, LLVMValueRef *regs)
{
	lanes L;
	lanes_init(c, p, opidx == 0 ? sl : NULL, opidx == 1 ? sl : NULL, tid, &L);
	int per = opidx == 0 ? 4 : 2, tiles = opidx == 0 ? p->mtiles : p->ntiles;
	LLVMValueRef *f = ARENA_NEWN(c->a, LLVMValueRef, (size_t)per * tiles + 2);
	for (int kk = 0; kk < ksteps; kk++) {
		if (opidx == 0)
			fetch_a(c, p, &L, base, sl, kk, f);
		else
			fetch_b(c, p, &L, base, sl, kk, f);
		for (int t = 0; t < tiles; t++)
			for (int q = 0; q < per; q++)
				regs[(t * ksteps + kk) * per + q] = f[per * t + q];
	}
}

LLVMValueRef lower_mma_pack(cg *c, gpu_mma_kind k, LLVMValueRef lo, LLVMValueRef hi)
{
	LLVMValueRef v = LLVMGetPoison(LLVMVectorType(k == GPU_MMA_BF16 ? c->t_bf16 : c->t_f16, 2));
	v = LLVMBuildInsertElement(c->b, v, lo, cg_i32(c, 0), "");
	v = LLVMBuildInsertElement(c->b, v, hi, cg_i32(c, 1), "");
	return LLVMBuildBitCast(c->b, v, c->t_i32, "");
}

void lower_mma_unpack(cg *c, gpu_mma_kind k, LLVMValueRef r, LLVMValueRef *lo, LLVMValueRef *hi)
{
	LLVMValueRef v = LLVMBuildBitCast(c->b, r, LLVMVectorType(k == GPU_MMA_BF16 ? c->t_bf16 : c->t_f16, 2), "");
	*lo = LLVMBuildExtractElement(c->b, v, cg_i32(c, 0), "");
	*hi = LLVMBuildExtractElement(c->b, v, cg_i32(c, 1), "");
}

void lower_mma_dot(cg *c, const gpu_mma *p, LLVMValueRef abase, LLVMValueRef bbase,
		   const gpu_layout *as, const gpu_layout *bs, const LLVMValueRef *aregs, const mma_ahead *ahead,
		   LLVMValueRef tid, LLVMValueRef *acc)
{
	lanes L;
	lanes_init(c, p, aregs ? NULL : as, bs, tid, &L);
	LLVMValueRef *af = ARENA_NEWN(c->a, LLVMValueRef, 4 * p->mtiles);
	LLVMValueRef *bf = ARENA_NEWN(c->a, LLVMValueRef, 2 * p->ntiles + 2);
	for (int kk = 0; kk < p->ksteps; kk++) {
		bool a_ahead = ahead && kk < ahead->aks, b_ahead = ahead && kk < ahead->bks;
		for (int i = 0; i < p->mtiles && a_ahead; i++) /* fetched ahead (local_load) */
			for (int q = 0; q < 4; q++)
				af[4 * i + q] = ahead->a[(i * ahead->aks + kk) * 4 + q];
		for (int i = 0; i < p->mtiles && aregs && !a_ahead; i++) /* A's fragment from its own slots */
			for (int j = 0; j < 4; j++)
				af[4 * i + j] = lower_mma_pack(c, p->kind, aregs[gpu_mma_a_slot(p, as, i, kk, 2 * j)],
							       aregs[gpu_mma_a_slot(p, as, i, kk, 2 * j + 1)]);
		if (!aregs && !a_ahead)
			fetch_a(c, p, &L, abase, as, kk, af);
		if (b_ahead) {
			for (int j = 0; j < p->ntiles; j++)
				for (int q = 0; q < 2; q++)
					bf[2 * j + q] = ahead->b[(j * ahead->bks + kk) * 2 + q];
		} else {
			fetch_b(c, p, &L, bbase, bs, kk, bf);
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
