/* mfma_layout.c: the MFMA plan of a dot on AMD matrix cores and the lane-to-element maps
 * of its operand fetches and accumulator registers (gpu_mma.h has the scheme; the CDNA2
 * and CDNA3 ISA guides' MFMA register layouts, as AMD's matrix instruction calculator
 * states them, are what tests/unit/test_mfma.c checks these against). */
#include "transforms/gpu_mma.h"

#include <string.h>

int gpu_amd_mfma_gen(const char *gfx)
{
	if (!gfx)
		return 0;
	if (!strcmp(gfx, "gfx908"))
		return 1;
	if (!strcmp(gfx, "gfx90a"))
		return 2;
	if (!strcmp(gfx, "gfx940") || !strcmp(gfx, "gfx941") || !strcmp(gfx, "gfx942"))
		return 3;
	return 0;
}

bool gpu_amd_has_dot(const char *gfx)
{
	return gfx && (!strcmp(gfx, "gfx906") || gpu_amd_mfma_gen(gfx) > 0);
}

int gpu_mfma_kin(const gpu_mma *p)
{
	/* 16-bit kinds: 8 (32x32) or 16 (16x16) k; int8 and fp8 on CDNA3 twice that (an i64
	 * of eight per lane), int8 before CDNA3 the same (an i32 of four) */
	bool wide = p->kind == GPU_MMA_S8 ? p->gen >= 3 : gpu_mma_fp8(p->kind);
	int k = p->nonk == 32 ? 8 : 16;
	return wide ? 2 * k : k;
}

int gpu_mfma_kw(const gpu_mma *p)
{
	return gpu_mfma_kin(p) * p->nonk / 64;
}

/* Whether generation gen has an instruction for the operand kind of p. */
static bool has_kind(const gpu_mma *p, int gen)
{
	if (p->acc16 || p->x3)
		return false;
	switch (p->kind) {
	case GPU_MMA_F16:
	case GPU_MMA_S8:
		return gen >= 1;
	case GPU_MMA_BF16:
		return gen >= 2;
	case GPU_MMA_E4M3:
	case GPU_MMA_E5M2:
		return gen >= 3;
	default:
		return false; /* tf32: CDNA3's xf32 is not used */
	}
}

static bool finish(gpu_mma *p)
{
	int64_t s = p->nonk;
	if (p->M % (s * p->w0) || p->N % (s * p->w1) || p->K % gpu_mfma_kin(p))
		return false;
	p->mtiles = (int)(p->M / (s * p->w0));
	p->ntiles = (int)(p->N / (s * p->w1));
	p->ksteps = (int)(p->K / gpu_mfma_kin(p));
	p->version = 4;
	gpu_layout_mfma_fill(&p->acc, p->w0, p->w1, p->nonk);
	return true;
}

/* Whether another dot shares dot's block (attention's two). */
static bool chained(const ir_op *dot)
{
	for (const ir_op *o = dot->parent ? dot->parent->first : NULL; o; o = o->next)
		if (o != dot && o->code == IR_OP_DOT)
			return true;
	return false;
}

bool gpu_mfma_plan(const ir_op *dot, int gen, int nonk, int warp, int warps, gpu_mma *p)
{
	*p = (gpu_mma){0};
	if (gen < 1 || warp != 64 || !gpu_mma_fits(dot, p) || !has_kind(p, gen))
		return false;
	p->imprecise = 0; /* an NVIDIA wgmma matter */
	p->gen = gen;
	/* Triton's AMD backend: matrix_instr_nonkdim when set, else 32 x 32 instructions
	 * when both M and N reach 32, else 16 x 16 */
	p->nonk = nonk == 16 || nonk == 32 ? nonk : p->M >= 32 && p->N >= 32 ? 32 : 16;
	/* chained dots (attention) put every wave along M, keeping the row reductions
	 * between them within a wave: on 16 x 16 instructions when M is too short for
	 * 32-row ones on every wave and the kernel did not ask for 32 */
	if (chained(dot) && (warps & (warps - 1)) == 0) {
		if (nonk != 32 && p->nonk == 32 && p->M % (32 * (int64_t)warps))
			p->nonk = 16;
		p->w0 = warps, p->w1 = 1;
		if (p->M % ((int64_t)p->nonk * warps) == 0 && finish(p))
			return true;
		p->nonk = nonk == 16 || nonk == 32 ? nonk : p->M >= 32 && p->N >= 32 ? 32 : 16;
	}
	if (gpu_mfma_plan_shape(p, warps))
		return true;
	/* a block too small for 32 x 32 instructions on every wave (32 x 32 on 4 waves)
	 * takes 16 x 16 ones, unless the kernel asked for 32 */
	if (nonk != 32 && p->nonk == 32) {
		p->nonk = 16;
		return gpu_mfma_plan_shape(p, warps);
	}
	return false;
}

bool gpu_mfma_plan_shape(gpu_mma *p, int warps)
{
	int64_t s = p->nonk;
	if (warps < 1 || (warps & (warps - 1)) || (s != 16 && s != 32) || p->M % s || p->N % s)
		return false;
	return gpu_mma_split_warps(p, warps, s, s) && finish(p);
}

bool gpu_mfma_plan_layout(const ir_op *dot, const gpu_layout *l, int gen, gpu_mma *p)
{
	*p = (gpu_mma){0};
	if (l->kind != GPU_BLOCKED || l->mma != 4 || !gpu_mma_fits(dot, p) || !has_kind(p, gen))
		return false;
	p->imprecise = 0;
	p->gen = gen;
	p->nonk = l->instr_n;
	p->w0 = l->wpc[0], p->w1 = l->wpc[1];
	return finish(p);
}

/* The accumulator keeps instruction row ir = 4 G q + 4 g + t (register 4 q + t of lane
 * group g, G = 64 / nonk) in repetition Q i + q of the blocked layout (Q = nonk / 4 G
 * register blocks of blk = 4 G rows), at wave row w0's blk rows, row 4 g + t of them: A's
 * fragment of instruction row i comes from the same rows. */
gpu_mfma_map gpu_mfma_map_of(const gpu_mma *p)
{
	gpu_mfma_map m;
	m.blk = 256 / p->nonk;
	m.blk_stride = (int64_t)m.blk * p->w0;
	m.row_tile = (int64_t)(p->nonk / m.blk) * m.blk_stride;
	m.col_tile = (int64_t)p->nonk * p->w1;
	m.kin = gpu_mfma_kin(p);
	m.kw = gpu_mfma_kw(p);
	return m;
}

void gpu_mfma_a_elem(const gpu_mma *p, int i, int kk, int w0, int lane, int e, int64_t *row, int64_t *col)
{
	gpu_mfma_map m = gpu_mfma_map_of(p);
	int li = lane % p->nonk, lg = lane / p->nonk;
	*row = (li / m.blk) * m.blk_stride + (int64_t)w0 * m.blk + li % m.blk + i * m.row_tile;
	*col = (int64_t)kk * m.kin + (int64_t)lg * m.kw + e;
}

void gpu_mfma_b_elem(const gpu_mma *p, int j, int kk, int w1, int lane, int e, int64_t *row, int64_t *col)
{
	gpu_mfma_map m = gpu_mfma_map_of(p);
	int li = lane % p->nonk, lg = lane / p->nonk;
	*row = (int64_t)kk * m.kin + (int64_t)lg * m.kw + e;
	*col = (int64_t)w1 * p->nonk + li + j * m.col_tile;
}

int gpu_mfma_c_slot(const gpu_mma *p, int i, int j, int r)
{
	int64_t shape[2] = {p->M, p->N};
	int Q = p->nonk * p->nonk / 256;
	int rep[2] = {Q * i + r / 4, j}, in[2] = {r % 4, 0};
	return gpu_layout_slot_index(&p->acc, shape, 2, rep, in);
}
