/* lower_wgmma.c: a dot on the warpgroup tensor cores (wgmma.mma_async.m64nNk16 for fp16
 * and bf16, k8 for tf32, k32 for int8 and fp8; sm_90a), as transforms/gpu_mma.h plans it. Each
 * warpgroup (g along M, w1 along N) issues, for each of its instructions (m, n) and each
 * k-step kk (ks = 32 bytes of K deep), one wgmma whose operands are two 64-bit matrix
 * descriptors: A's slice starts at row 16 W0 m + 64 g, column ks kk of the K-major A
 * tile; B's at row ks kk, column (n W1 + w1) N of the B tile (N-major, or K-major for
 * tf32, int8 and fp8; the
 * start address is where that element would be without the swizzle: the hardware applies
 * the swizzle to the addresses it forms). Its accumulator is N / 2 f32 of the thread,
 * register r of instruction (m, n) in slot gpu_wgmma_c_slot(p, m, n, r) of the #mma v3
 * layout, whose coordinates are the PTX ISA's fragment table (gpu_layout_wgmma_coord):
 * warp q of the warpgroup holds rows 16 q + lane / 4 + {0, 8} of the instruction's 64 and
 * columns 8 (r / 4) + 2 (lane % 4) + r % 2 of its N.
 *
 * The descriptors' run-time part is the tile's shared address (plus the warpgroup's
 * offset) >> 4 in bits 0-13, computed once; each instruction adds its constant offset
 * >> 4 (the tiles lie below 256 KB, so the 14-bit field never carries). The accumulator
 * is f32, or i32 for int8. */
#include "codegen/lower_wgmma.h"

#include "codegen/gpu_isa.h"

/* An instruction's extent ext along a contiguous M or N lies within one panel row or
 * covers whole ones (the descriptor's LBO steps from panel to panel). */
static bool panel_ok(const gpu_wgmma_operand *o, int64_t ext)
{
	return !o->mn_major || ext % o->w == 0 || o->w % ext == 0;
}

/* B's operand: in its NVMMA layout, and K-major for the kinds that read nothing else. */
static bool b_operand(const gpu_mma *p, const gpu_layout *bs, gpu_wgmma_operand *ob)
{
	return gpu_wgmma_operand_for(bs, p->K, p->N, gpu_mma_elem_bytes(p->kind), true, ob) &&
	       panel_ok(ob, p->instr_n) && !(gpu_wgmma_kmajor(p->kind) && ob->mn_major);
}

static bool operands(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, gpu_wgmma_operand *oa,
		     gpu_wgmma_operand *ob)
{
	return gpu_wgmma_operand_for(as, p->M, p->K, gpu_mma_elem_bytes(p->kind), false, oa) && panel_ok(oa, 64) &&
	       !(gpu_wgmma_kmajor(p->kind) && oa->mn_major) && b_operand(p, bs, ob);
}

bool lower_wgmma_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs)
{
	gpu_wgmma_operand oa, ob;
	return p->version == 3 && operands(p, as, bs, &oa, &ob);
}

/* The descriptor of the shared address addr (i64) plus the constant fields bits. */
static LLVMValueRef descriptor(cg *c, LLVMValueRef addr, uint64_t bits)
{
	LLVMValueRef a = LLVMBuildLShr(c->b, LLVMBuildAnd(c->b, addr, cg_i64(c, 0x3ffff), ""), cg_i64(c, 4), "");
	return LLVMBuildOr(c->b, a, LLVMConstInt(c->t_i64, bits, 0), "");
}

/* Warp w's place: w % W0 along M (its warpgroup g = (w % W0) / 4), w / W0 along N; a
 * coordinate that can only be 0 is the constant, so that one warpgroup reads no w. */
static void warp_of(cg *c, const gpu_mma *p, LLVMValueRef w, LLVMValueRef *g, LLVMValueRef *w1)
{
	LLVMBuilderRef bl = c->b;
	*g = p->w0 <= 4 ? cg_i32(c, 0)
			: LLVMBuildUDiv(bl, LLVMBuildURem(bl, w, cg_i32(c, p->w0), ""), cg_i32(c, 4), "");
	*w1 = p->w1 == 1 ? cg_i32(c, 0)
			 : LLVMBuildURem(bl, LLVMBuildUDiv(bl, w, cg_i32(c, p->w0), ""), cg_i32(c, p->w1), "");
}

/* B's descriptor for instruction column n of warp column w1, at k-step 0: column
 * (n W1 + w1) N; N-major, its panel and its place in the panel's row; K-major, its
 * storage row. */
static LLVMValueRef b_descriptor(cg *c, const gpu_mma *p, const gpu_wgmma_operand *ob, LLVMValueRef bbase,
				 LLVMValueRef w1, int n)
{
	LLVMBuilderRef bl = c->b;
	LLVMValueRef col = LLVMBuildAdd(bl, LLVMBuildMul(bl, w1, cg_i32(c, p->instr_n), ""),
					cg_i32(c, gpu_wgmma_b_col(p, n, 0)), "");
	LLVMValueRef boff;
	if (ob->mn_major) {
		LLVMValueRef pan = LLVMBuildUDiv(bl, col, cg_i32(c, ob->w), "");
		LLVMValueRef in = LLVMBuildURem(bl, col, cg_i32(c, ob->w), "");
		boff = LLVMBuildAdd(bl, LLVMBuildMul(bl, pan, cg_i32(c, ob->rows * ob->w * ob->eb), ""),
				    LLVMBuildMul(bl, in, cg_i32(c, ob->eb), ""), "");
	} else {
		boff = LLVMBuildMul(bl, col, cg_i32(c, gpu_wgmma_at(ob, 0, 1)), "");
	}
	return descriptor(c, LLVMBuildAdd(bl, bbase, LLVMBuildZExt(bl, boff, c->t_i64, ""), ""),
			  gpu_wgmma_desc_bits(ob));
}

/* wgmma.fence, every instruction (m, n) of the warpgroup at k-steps k0 .. k1 - 1,
 * commit_group: A through descriptors from da0 (oa) or, with oa NULL, from the packed
 * registers regs (four per (m, k-step)); acc (the accumulator's slots) receives the tied
 * results. fresh: the first k-step ignores acc (scale-d 0). */
static void issue_steps(cg *c, const gpu_mma *p, const gpu_wgmma_operand *oa, LLVMValueRef da0,
			const LLVMValueRef *regs, const gpu_wgmma_operand *ob, LLVMValueRef bbase, LLVMValueRef w1,
			int k0s, int k1s, bool fresh, LLVMValueRef *acc)
{
	LLVMBuilderRef bl = c->b;
	int na = p->instr_n / 2;
	LLVMValueRef *frag = ARENA_NEWN(c->a, LLVMValueRef, (size_t)na);
	c->isa->wgmma_fence(c);
	for (int n = 0; n < p->nreps; n++) {
		LLVMValueRef db0 = b_descriptor(c, p, ob, bbase, w1, n);
		for (int m = 0; m < p->mreps; m++) {
			int slot0[256];
			for (int r = 0; r < na; r++) {
				slot0[r] = gpu_wgmma_c_slot(p, m, n, r);
				/* an accumulator that is not read: undefined registers */
				frag[r] = fresh ? LLVMGetUndef(LLVMTypeOf(acc[slot0[r]])) : acc[slot0[r]];
			}
			for (int kk = k0s; kk < k1s; kk++) {
				bool sd = kk > k0s || !fresh;
				int64_t k0 = (int64_t)kk * gpu_mma_kstep(p->kind);
				int64_t bo = gpu_wgmma_at(ob, k0, 0);
				LLVMValueRef db = LLVMBuildAdd(bl, db0, cg_i64(c, bo >> 4), "");
				if (!oa) {
					c->isa->wgmma_rs(c, (int)p->kind, p->instr_n, &regs[(m * p->ksteps + kk) * 4], db,
							 ob->mn_major, sd, frag);
					continue;
				}
				int64_t ao = gpu_wgmma_at(oa, gpu_wgmma_a_row(p, m, 0), k0);
				LLVMValueRef da = LLVMBuildAdd(bl, da0, cg_i64(c, ao >> 4), "");
				c->isa->wgmma(c, (int)p->kind, p->instr_n, da, db, oa->mn_major, ob->mn_major, sd, frag);
			}
			for (int r = 0; r < na; r++)
				acc[slot0[r]] = frag[r];
		}
	}
	c->isa->wgmma_commit(c);
}

/* Every instruction of the dot (issue_steps over all k-steps). With max_num_imprecise_acc
 * (p->imprecise, fp8: gpu_mma.h), each slice of that many k is summed into registers of
 * its own, waited for and added to acc in fp32, so the dot is complete on return. */
static void issue_all(cg *c, const gpu_mma *p, const gpu_wgmma_operand *oa, LLVMValueRef da0,
		      const LLVMValueRef *regs, const gpu_wgmma_operand *ob, LLVMValueRef bbase, LLVMValueRef w1,
		      LLVMValueRef *acc)
{
	if (!p->imprecise) {
		issue_steps(c, p, oa, da0, regs, ob, bbase, w1, 0, p->ksteps, p->acc_zero, acc);
		return;
	}
	int nslots = p->mreps * p->nreps * p->instr_n / 2, per = p->imprecise / gpu_mma_kstep(p->kind);
	LLVMValueRef *part = ARENA_NEWN(c->a, LLVMValueRef, (size_t)nslots);
	for (int k0 = 0; k0 < p->ksteps; k0 += per) {
		for (int i = 0; i < nslots; i++)
			part[i] = acc[i];
		int k1 = k0 + per < p->ksteps ? k0 + per : p->ksteps;
		issue_steps(c, p, oa, da0, regs, ob, bbase, w1, k0, k1, true, part);
		c->isa->wgmma_wait(c, 0, part, nslots);
		for (int i = 0; i < nslots; i++)
			acc[i] = k0 == 0 && p->acc_zero ? part[i] : LLVMBuildFAdd(c->b, acc[i], part[i], "");
	}
}

void lower_wgmma_issue(cg *c, const gpu_mma *p, LLVMValueRef a, LLVMValueRef b, const gpu_layout *as,
		       const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc)
{
	LLVMBuilderRef bl = c->b;
	gpu_wgmma_operand oa, ob;
	if (!operands(p, as, bs, &oa, &ob))
		cg_fail(c, NULL, "internal: wgmma operands not in their NVMMA shared layouts");
	LLVMValueRef g, w1;
	warp_of(c, p, warp, &g, &w1);
	LLVMValueRef abase = LLVMBuildPtrToInt(bl, a, c->t_i64, "");
	LLVMValueRef bbase = LLVMBuildPtrToInt(bl, b, c->t_i64, "");
	/* A: the warpgroup's 64 rows start g * 64 rows in (the start offsets are additive in
	 * rows and columns: gpu_wgmma_at) */
	LLVMValueRef ag = LLVMBuildMul(bl, LLVMBuildZExt(bl, g, c->t_i64, ""), cg_i64(c, gpu_wgmma_at(&oa, 64, 0)), "");
	LLVMValueRef da0 = descriptor(c, LLVMBuildAdd(bl, abase, ag, ""), gpu_wgmma_desc_bits(&oa));
	issue_all(c, p, &oa, da0, NULL, &ob, bbase, w1, acc);
}

bool lower_wgmma_fits_rs(const gpu_mma *p, const gpu_layout *al, const gpu_layout *bs)
{
	gpu_wgmma_operand ob;
	return p->version == 3 && gpu_wgmma_a_regs(p, al) && b_operand(p, bs, &ob);
}

void lower_wgmma_issue_rs(cg *c, const gpu_mma *p, const gpu_layout *al, const LLVMValueRef *a, LLVMValueRef b,
			  const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc)
{
	LLVMBuilderRef bl = c->b;
	gpu_wgmma_operand ob;
	if (!lower_wgmma_fits_rs(p, al, bs) || !b_operand(p, bs, &ob))
		cg_fail(c, NULL, "internal: a wgmma A operand in registers not in its fragment layout");
	LLVMValueRef g, w1;
	warp_of(c, p, warp, &g, &w1);
	LLVMValueRef bbase = LLVMBuildPtrToInt(bl, b, c->t_i64, "");
	/* A's fragments, packed once: per (m, kk) four i32 of two elements each */
	LLVMTypeRef et = p->kind == GPU_MMA_BF16 ? c->t_bf16 : c->t_f16, pair = LLVMVectorType(et, 2);
	LLVMValueRef *regs = ARENA_NEWN(c->a, LLVMValueRef, (size_t)p->mreps * p->ksteps * 4);
	for (int m = 0; m < p->mreps; m++)
		for (int kk = 0; kk < p->ksteps; kk++)
			for (int j = 0; j < 4; j++) {
				LLVMValueRef v = LLVMGetPoison(pair);
				for (int h = 0; h < 2; h++)
					v = LLVMBuildInsertElement(bl, v, a[gpu_wgmma_a_slot(p, al, m, kk, 2 * j + h)],
								   cg_i32(c, h), "");
				regs[(m * p->ksteps + kk) * 4 + j] = LLVMBuildBitCast(bl, v, c->t_i32, "");
			}
	issue_all(c, p, NULL, NULL, regs, &ob, bbase, w1, acc);
}

void lower_wgmma_wait(cg *c, const gpu_mma *p, int pending, LLVMValueRef *acc)
{
	/* every accumulator slot, tied through the wait (the C7515 note at backends/nvptx/wgmma.c) */
	c->isa->wgmma_wait(c, pending, acc, p->mreps * p->nreps * p->instr_n / 2);
}

void lower_wgmma_dot(cg *c, const gpu_mma *p, LLVMValueRef a, LLVMValueRef b, const gpu_layout *as,
		     const gpu_layout *bs, LLVMValueRef warp, LLVMValueRef *acc)
{
	lower_wgmma_issue(c, p, a, b, as, bs, warp, acc);
	lower_wgmma_wait(c, p, 0, acc);
}
