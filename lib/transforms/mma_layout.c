/* mma_layout.c: the mma.sync plan of a dot and the lane-to-element maps of its operand
 * fetches and accumulator fragments (gpu_mma.h has the scheme; the PTX ISA's tables for
 * mma.m16n8k16, m16n8k8 .tf32, m16n8k32 .s8 and ldmatrix are what the unit tests check
 * these against). */
#include "transforms/gpu_mma.h"

#include <string.h>

int gpu_mma_elem_bytes(gpu_mma_kind k)
{
	return k == GPU_MMA_TF32 ? 4 : k == GPU_MMA_S8 || gpu_mma_fp8(k) ? 1 : 2;
}

int gpu_mma_kstep(gpu_mma_kind k)
{
	return 32 / gpu_mma_elem_bytes(k);
}

/* The kind of a dot with operand elements e, accumulator (and result) elements acc: fp16
 * and bf16 into f32 (fp16 into f16 too), fp32 into f32 when the dot asks for tf32 (or
 * tf32x3), int8 into int32, fp8 into f32; false for the rest (fp32 "ieee", fp64), which
 * stay on FMA. */
static bool operand_kind(const ir_op *dot, const ir_type *e, const ir_type *acc, gpu_mma *p)
{
	const ir_attr *prec = ir_op_attr(dot, "input_precision");
	p->acc16 = p->x3 = false;
	switch (e->kind) {
	case IR_F16:
		p->kind = GPU_MMA_F16;
		p->acc16 = acc->kind == IR_F16;
		return acc->kind == IR_F32 || acc->kind == IR_F16;
	case IR_BF16:
		p->kind = GPU_MMA_BF16;
		return acc->kind == IR_F32;
	case IR_F32:
		p->kind = GPU_MMA_TF32;
		p->x3 = prec && prec->kind == IR_ATTR_STR && !strcmp(prec->s, "tf32x3");
		return acc->kind == IR_F32 && prec && prec->kind == IR_ATTR_STR && (p->x3 || !strcmp(prec->s, "tf32"));
	case IR_I8:
		p->kind = GPU_MMA_S8;
		return acc->kind == IR_I32;
	case IR_F8E4NV:
	case IR_F8E5:
		p->kind = e->kind == IR_F8E4NV ? GPU_MMA_E4M3 : GPU_MMA_E5M2;
		return acc->kind == IR_F32;
	default:
		return false;
	}
}

/* The shapes and types every mma.sync dot needs, whatever its warps. */
bool gpu_mma_fits(const ir_op *dot, gpu_mma *p)
{
	if (dot->code != IR_OP_DOT || dot->noperands < 3)
		return false;
	const ir_type *a = dot->operands[0]->type, *b = dot->operands[1]->type;
	const ir_type *acc = dot->operands[2]->type, *r = dot->results[0].type;
	if (a->kind != IR_TILE || b->kind != IR_TILE || r->kind != IR_TILE || a->rank != 2 || b->rank != 2 ||
	    r->rank != 2 || acc->kind != IR_TILE || acc->elem->kind != r->elem->kind ||
	    a->elem->kind != b->elem->kind)
		return false;
	if (!operand_kind(dot, a->elem, r->elem, p))
		return false;
	p->M = r->shape[0], p->N = r->shape[1], p->K = a->shape[1];
	/* max_num_imprecise_acc = m (fp8 only, as Triton's): at most m k are summed at wgmma's
	 * precision before an fp32 add, so m <= K splits the dot's K (0: every k-step); absent
	 * (Triton's default on sm_90 is 2^30) nothing is split */
	const ir_attr *imp = ir_op_attr(dot, "max_num_imprecise_acc");
	if (gpu_mma_fp8(p->kind) && imp && imp->kind == IR_ATTR_INT && imp->i >= 0 && imp->i <= p->K) {
		int ks = gpu_mma_kstep(p->kind);
		p->imprecise = imp->i < ks ? ks : (int)((imp->i + ks - 1) / ks * ks);
	}
	return p->M % 16 == 0 && p->N % 8 == 0 && p->K % gpu_mma_kstep(p->kind) == 0 && b->shape[0] == p->K;
}

static bool finish(gpu_mma *p)
{
	if (p->M % (16 * p->w0) || p->N % (8 * p->w1))
		return false;
	p->mtiles = (int)(p->M / (16 * p->w0));
	p->ntiles = (int)(p->N / (8 * p->w1));
	p->ksteps = (int)(p->K / gpu_mma_kstep(p->kind));
	p->version = 2;
	gpu_layout_mma_fill(&p->acc, p->w0, p->w1);
	return true;
}

/* Whether another dot shares dot's block (attention's two). */
static bool chained(const ir_op *dot)
{
	if (!dot->parent)
		return false;
	for (const ir_op *o = dot->parent->first; o; o = o->next)
		if (o != dot && o->code == IR_OP_DOT)
			return true;
	return false;
}

bool gpu_mma_plan(const ir_op *dot, int cc, int warp, int warps, gpu_mma *p)
{
	*p = (gpu_mma){0};
	if (cc < 80 || warp != 32 || !gpu_mma_fits(dot, p) || (gpu_mma_fp8(p->kind) && cc < 89))
		return false;
	/* dots that feed each other (attention: QK^T, a softmax along its rows, then P V) put
	 * every warp along M, as Triton does: the row reductions stay within a warp, and the
	 * first dot's accumulator is the second's A fragment where it is (gpu_mma_a_regs) */
	if (chained(dot) && (warps & (warps - 1)) == 0 && p->M % (16 * (int64_t)warps) == 0) {
		p->w0 = warps, p->w1 = 1;
		if (finish(p))
			return true;
	}
	return gpu_mma_plan_shape(p, warps);
}

bool gpu_mma_plan_shape(gpu_mma *p, int warps)
{
	if (warps < 1 || (warps & (warps - 1)) || p->M % 16 || p->N % 8 || p->K % gpu_mma_kstep(p->kind))
		return false;
	return gpu_mma_split_warps(p, warps, 16, 8) && finish(p);
}

bool gpu_mma_split_warps(gpu_mma *p, int warps, int64_t tm, int64_t tn)
{
	p->w0 = p->w1 = 1;
	while (p->w0 * p->w1 < warps) {
		bool m_ok = p->M % (tm * p->w0 * 2) == 0, n_ok = p->N % (tn * p->w1 * 2) == 0;
		/* split the dimension of the larger per-warp share (M first on ties) */
		bool m_first = p->M / p->w0 >= p->N / p->w1;
		if (m_ok && (m_first || !n_ok))
			p->w0 *= 2;
		else if (n_ok)
			p->w1 *= 2;
		else
			return false;
	}
	return true;
}

bool gpu_mma_plan_layout(const ir_op *dot, const gpu_layout *l, gpu_mma *p)
{
	*p = (gpu_mma){0};
	if (l->kind != GPU_BLOCKED || (l->mma != 2 && l->mma != 3) || !gpu_mma_fits(dot, p))
		return false;
	p->w0 = l->wpc[0], p->w1 = l->wpc[1];
	if (l->mma == 3)
		return gpu_wgmma_finish(p, l->instr_n);
	return finish(p);
}

/* ldmatrix.x4 for A: lane L gives row L % 8 of matrix L / 8; the matrices are, in the
 * order of the fragment registers (a0a1, a2a3, a4a5, a6a7 for the 16-bit kinds; a0 .. a3
 * for TF32 and S8, whose registers hold one or four elements): rows g (repetition 2i),
 * rows g + 8 (2i + 1), each at k low then k high. A matrix row is 16 bytes: 8 fp16, 4 fp32
 * or 16 int8 elements, half a k-step of every kind, so that lane T receives in each
 * register the 32-bit word T % 4 of row T / 4, which is what the ISA's tables give the
 * thread of group T / 4 for all three (2 (T % 4) + {0, 1}; T % 4; 4 (T % 4) + {0 .. 3}). */
void gpu_mma_a_source(const gpu_mma *p, int i, int kk, int w0, int lane, int64_t *row, int64_t *col)
{
	int q = lane / 8, r = lane % 8;
	int half = q & 1, khalf = q >> 1, ks = gpu_mma_kstep(p->kind);
	*row = (int64_t)(2 * i + half) * 8 * p->w0 + w0 * 8 + r;
	*col = (int64_t)kk * ks + khalf * (ks / 2);
}

/* TF32: b0 holds B[k + T % 4][n + T / 4], b1 4 rows lower; S8: b0 the four k 4 (T % 4) +
 * {0 .. 3} of column T / 4 (the PTX ISA's B fragment tables for m16n8k8 .tf32 and
 * m16n8k32 .s8), b1 16 rows lower. */
void gpu_mma_b_elem(const gpu_mma *p, int j, int kk, int w1, int lane, int reg, int e, int64_t *row,
		    int64_t *col)
{
	int ks = gpu_mma_kstep(p->kind), per = 4 / gpu_mma_elem_bytes(p->kind);
	*row = (int64_t)kk * ks + reg * (ks / 2) + (lane % 4) * per + e;
	*col = (int64_t)j * 8 * p->w1 + w1 * 8 + lane / 4;
}

/* ldmatrix.x4.trans for B (k-major rows of N): matrices k low and k high of tile j, then
 * of tile j + 1; with .trans each lane receives the two k of its column that b0b1 (b2b3)
 * want. */
void gpu_mma_b_source(const gpu_mma *p, int j, int kk, int w1, int lane, bool pair, int64_t *row,
		      int64_t *col)
{
	int q = (pair ? lane : lane % 16) / 8, r = lane % 8;
	int khalf = q & 1, tile = j + (q >> 1);
	*row = (int64_t)kk * 16 + khalf * 8 + r;
	*col = (int64_t)tile * 8 * p->w1 + w1 * 8;
}

bool gpu_mma_a_regs(const gpu_mma *p, const gpu_layout *al)
{
	return p->version == 2 && (p->kind == GPU_MMA_F16 || p->kind == GPU_MMA_BF16) && !p->acc16 && !p->x3 &&
	       p->w1 == 1 && al->kind == GPU_BLOCKED && al->mma == 2 && al->rank == 2 && al->wpc[0] == p->w0 &&
	       al->wpc[1] == 1;
}

int gpu_mma_a_slot(const gpu_mma *p, const gpu_layout *al, int i, int kk, int r)
{
	int64_t shape[2] = {p->M, p->K};
	int rep[2] = {2 * i + (r / 2) % 2, 2 * kk + r / 4}, in[2] = {0, r % 2};
	return gpu_layout_slot_index(al, shape, 2, rep, in);
}

int gpu_mma_c_slot(const gpu_mma *p, int i, int j, int r)
{
	int64_t shape[2] = {p->M, p->N};
	int rep[2] = {2 * i + (r >> 1), j}, in[2] = {0, r & 1};
	return gpu_layout_slot_index(&p->acc, shape, 2, rep, in);
}

bool gpu_mma_staged_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, bool a_regs)
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
		if (!l) /* not read from shared memory here (lower_mma_fetch of the other) */
			continue;
		if (l->kind != GPU_SHARED || (l->order[0] != 1 && !(k == 1 && b16)) || l->panel)
			return false;
		if ((k == 0 || b16) &&
		    (l->vec * gpu_mma_elem_bytes(p->kind) != 16 || 8 % (l->per_phase * l->max_phase)))
			return false;
	}
	return true;
}
