/* wgmma_layout.c: the wgmma plan of a dot on sm_90a (warps, instruction N, repetitions),
 * the accumulator slots of its fragments and the matrix-descriptor arithmetic of its
 * operands in the NVMMA shared layouts (gpu_mma.h has the scheme). The lowering
 * (lib/codegen/lower_wgmma.c) builds the same descriptors at run time from these
 * functions' constant parts; tests/unit/test_wgmma.c checks them against a model of the
 * hardware written from the PTX ISA (fragment table, canonical layouts, swizzle). */
#include "transforms/gpu_mma.h"

/* The swizzle row (elements) of the NVMMA layout of a tile with `cols` columns of eb-byte
 * elements: what gpu_layout_shared_nvmma picks; 0 when none fits. */
static int64_t nvmma_row(int64_t cols, int eb)
{
	int64_t row = cols * eb;
	int bytes = row % 128 == 0 ? 128 : row % 64 == 0 ? 64 : row % 32 == 0 ? 32 : 0;
	return bytes / eb;
}

/* The kinds wgmma runs: fp16 and bf16 into f32 (m64nNk16), tf32 into f32 (m64nNk8, one
 * product: not tf32x3), int8 into int32 and fp8 into f32 (m64nNk32). An fp16 accumulator
 * stays on mma.sync. */
static bool wgmma_kind(const gpu_mma *p)
{
	switch (p->kind) {
	case GPU_MMA_F16: return !p->acc16;
	case GPU_MMA_BF16: return true;
	case GPU_MMA_TF32: return !p->x3;
	case GPU_MMA_S8: return true;
	case GPU_MMA_E4M3: return true;
	case GPU_MMA_E5M2: return true;
	}
	return false;
}

bool gpu_wgmma_kmajor(gpu_mma_kind k)
{
	return k == GPU_MMA_TF32 || k == GPU_MMA_S8 || gpu_mma_fp8(k);
}

/* Whether n is an N of the kind's instruction: multiples of 8 up to 256 (fp8 too); for
 * int8 the ISA lists 8, 16, 24, 32 and then multiples of 16 only. */
static bool instr_n_ok(const gpu_mma *p, int n)
{
	if (n < 8 || n > 256 || n % 8)
		return false;
	return p->kind != GPU_MMA_S8 || n <= 32 || n % 16 == 0;
}

/* The panel constraint of B: an N-major B (16-bit kinds) is read in panels of the swizzle
 * row along N, which an instruction's N must lie within or cover; a K-major B (tf32, int8, fp8)
 * has its panels along K, where every k-step (32 bytes) lies within one. */
static bool b_panels_ok(const gpu_mma *p, int n)
{
	if (gpu_wgmma_kmajor(p->kind))
		return nvmma_row(p->K, gpu_mma_elem_bytes(p->kind)) != 0;
	int64_t bw = nvmma_row(p->N, 2);
	return bw && (n % bw == 0 || bw % n == 0);
}

bool gpu_wgmma_finish(gpu_mma *p, int instr_n)
{
	int ks = gpu_mma_kstep(p->kind);
	if (!wgmma_kind(p))
		return false;
	if (p->w0 % 4 || p->M % (16 * p->w0) || p->K % ks || !instr_n_ok(p, instr_n) ||
	    p->N % ((int64_t)instr_n * p->w1) || !b_panels_ok(p, instr_n))
		return false;
	p->version = 3;
	p->instr_n = instr_n;
	p->mreps = (int)(p->M / (16 * p->w0));
	p->nreps = (int)(p->N / ((int64_t)instr_n * p->w1));
	p->ksteps = (int)(p->K / ks);
	p->mtiles = p->ntiles = 0;
	gpu_layout_wgmma_fill(&p->acc, p->w0, p->w1, instr_n);
	return true;
}

bool gpu_wgmma_plan(const ir_op *dot, int warp, int warps, gpu_mma *p)
{
	*p = (gpu_mma){0};
	if (warp != 32 || !gpu_mma_fits(dot, p))
		return false;
	return gpu_wgmma_plan_shape(p, warps);
}

bool gpu_wgmma_plan_shape(gpu_mma *p, int warps)
{
	if (warps < 4 || warps % 4 || (warps & (warps - 1)) || p->K % gpu_mma_kstep(p->kind) || p->N % 16 ||
	    !wgmma_kind(p))
		return false;
	p->w0 = 4, p->w1 = 1;
	while (p->w0 * p->w1 < warps) {
		if (p->M > 16 * (int64_t)p->w0)
			p->w0 *= 2;
		else
			p->w1 *= 2;
	}
	if (p->M % (16 * p->w0) || p->N % (8 * p->w1))
		return false;
	int64_t share = p->N / p->w1;
	for (int n = 256; n >= 8; n -= 8)
		if (share % n == 0 && instr_n_ok(p, n) && b_panels_ok(p, n))
			return gpu_wgmma_finish(p, n);
	return false;
}

int gpu_wgmma_c_slot(const gpu_mma *p, int m, int n, int r)
{
	int64_t shape[2] = {p->M, p->N};
	/* register r: column pair r % 2, half (r / 2) % 2 (rows +8), column block r / 4 */
	int rep[2] = {2 * m + (r / 2) % 2, n * (p->instr_n / 8) + r / 4}, in[2] = {0, r % 2};
	return gpu_layout_slot_index(&p->acc, shape, 2, rep, in);
}

bool gpu_wgmma_a_regs(const gpu_mma *p, const gpu_layout *al)
{
	/* the 16-bit kinds only: tf32's and int8's register fragments of A are others */
	return p->version == 3 && !gpu_wgmma_kmajor(p->kind) && p->w1 == 1 && al->kind == GPU_BLOCKED && al->mma == 3 && al->rank == 2 &&
	       al->wpc[0] == p->w0 && al->wpc[1] == 1 && al->instr_n % 8 == 0 && al->instr_n > 0;
}

int gpu_wgmma_a_slot(const gpu_mma *p, const gpu_layout *al, int m, int kk, int r)
{
	int64_t shape[2] = {p->M, p->K};
	int rep[2] = {2 * m + (r / 2) % 2, 2 * kk + r / 4}, in[2] = {0, r % 2};
	return gpu_layout_slot_index(al, shape, 2, rep, in);
}

bool gpu_wgmma_operand_of(const gpu_layout *l, const int64_t *shape, int eb, bool mn_major,
			  gpu_wgmma_operand *o)
{
	int bytes = gpu_layout_nvmma_bytes(l, eb);
	int64_t w = l->panel ? l->panel : shape[1];
	if (!bytes || w * eb != bytes || shape[1] % w)
		return false;
	*o = (gpu_wgmma_operand){.bytes = bytes, .w = w, .rows = shape[0], .eb = eb, .mn_major = mn_major};
	o->sbo = 8 * (int64_t)bytes;          /* the next 8 rows (8 k for MN-major) */
	o->lbo = shape[0] * (int64_t)bytes;   /* the next panel (MN-major; unused K-major) */
	return o->lbo >> 4 < 1 << 14;
}

bool gpu_wgmma_operand_for(const gpu_layout *l, int64_t rows, int64_t cols, int eb, bool b,
			   gpu_wgmma_operand *o)
{
	bool swapped = l->order[0] == 0;
	int64_t st[2] = {swapped ? cols : rows, swapped ? rows : cols};
	/* A's columns are K, B's are N: row-major A is K-major, row-major B MN-major */
	if (!gpu_wgmma_operand_of(l, st, eb, b != swapped, o))
		return false;
	o->swapped = swapped;
	return true;
}

int64_t gpu_wgmma_at(const gpu_wgmma_operand *o, int64_t r, int64_t c)
{
	return o->swapped ? gpu_wgmma_start(o, c, r) : gpu_wgmma_start(o, r, c);
}

uint64_t gpu_wgmma_desc_bits(const gpu_wgmma_operand *o)
{
	uint64_t mode = o->bytes == 128 ? 1 : o->bytes == 64 ? 2 : 3;
	return ((uint64_t)(o->lbo >> 4) & 0x3fff) << 16 | ((uint64_t)(o->sbo >> 4) & 0x3fff) << 32 | mode << 62;
}

int64_t gpu_wgmma_start(const gpu_wgmma_operand *o, int64_t r, int64_t c)
{
	return ((c / o->w) * o->rows * o->w + r * o->w + c % o->w) * o->eb;
}

int64_t gpu_wgmma_a_row(const gpu_mma *p, int m, int g)
{
	return 16 * (int64_t)p->w0 * m + 64 * (int64_t)g;
}

int64_t gpu_wgmma_b_col(const gpu_mma *p, int n, int w1)
{
	return ((int64_t)n * p->w1 + w1) * p->instr_n;
}
