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

bool gpu_wgmma_finish(gpu_mma *p, int instr_n)
{
	int64_t bw = nvmma_row(p->N, 2); /* B's panel row, N-major */
	/* wgmma's tf32 and s8 forms read B K-major only (B is staged N-major), and an fp16
	 * accumulator is not planned: those kinds stay on mma.sync */
	if ((p->kind != GPU_MMA_F16 && p->kind != GPU_MMA_BF16) || p->acc16)
		return false;
	if (p->w0 % 4 || p->M % (16 * p->w0) || p->K % 16 || instr_n < 8 || instr_n > 256 || instr_n % 8 ||
	    p->N % ((int64_t)instr_n * p->w1) || !bw || (instr_n % bw && bw % instr_n))
		return false;
	p->version = 3;
	p->instr_n = instr_n;
	p->mreps = (int)(p->M / (16 * p->w0));
	p->nreps = (int)(p->N / ((int64_t)instr_n * p->w1));
	p->ksteps = (int)(p->K / 16);
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
	if (warps < 4 || warps % 4 || (warps & (warps - 1)) || p->K % 16 || p->N % 16 ||
	    (p->kind != GPU_MMA_F16 && p->kind != GPU_MMA_BF16) || p->acc16)
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
	int64_t share = p->N / p->w1, bw = nvmma_row(p->N, 2);
	for (int n = 256; n >= 8; n -= 8)
		if (share % n == 0 && bw && (n % bw == 0 || bw % n == 0))
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
	return p->version == 3 && p->w1 == 1 && al->kind == GPU_BLOCKED && al->mma == 3 && al->rank == 2 &&
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
