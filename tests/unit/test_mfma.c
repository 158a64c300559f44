/* test_mfma.c: the MFMA plan of transforms/mfma_layout.c against AMD's register layouts of
 * the MFMA instructions (CDNA2 and CDNA3 ISA guides; AMD's matrix instruction calculator
 * states them as formulas, which isa_in and isa_out below restate independently), for
 * every instruction tilecc uses: 32x32 and 16x16 of fp16 / bf16 (k 8, 16), int8 on gfx90a
 * (k 8, 16) and on gfx942 (k 16, 32), fp8 on gfx942 (k 16, 32).
 *
 * For a range of block shapes and wave counts a whole dot is simulated wave by wave: each
 * lane's operand registers are filled from the elements gpu_mfma_a_elem / gpu_mfma_b_elem
 * name; the instruction reads them back by the ISA's operand table, multiplies, and
 * writes each result to the register and lane the ISA's output table gives; that lane's
 * register r is added into the slot gpu_mfma_c_slot names. The slots, mapped to elements
 * by the #mfma layout (gpu_layout_flat), must hold exactly A @ B, every element once.
 * Also: the text form round-trips, and the layout is the blocked layout the header
 * promises. */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>

#include "transforms/gpu_mma.h"

/* The ISA's input layout (one block): for an S-row (A) or S-column (B) operand of
 * depth kin, a lane holds kin / (64 / S) consecutive k; k of row i lives in lane
 * (k / per) S + i, as its element k % per. */
static void isa_in(int S, int kin, int i, int k, int *lane, int *elem)
{
	int per = kin / (64 / S);
	*lane = (k / per) * S + i;
	*elem = k % per;
}

/* The ISA's 32-bit output layout: rows in groups of 4 registers tall and S lanes wide;
 * 64 / S such groups side by side in one register, then the next 4 registers. */
static void isa_out(int S, int i, int j, int *reg, int *lane)
{
	int groups = 64 / S;
	*reg = (i / (4 * groups)) * 4 + i % 4;
	*lane = ((i / 4) % groups) * S + j;
}

/* A few entries as the calculator prints them (v_mfma_f32_32x32x8f16, CDNA2):
 * A[i][k] in lane 32 (k / 4) + i, element k % 4; D[i][j] in register 4 (i / 8) + i % 4 of
 * lane 32 ((i / 4) % 2) + j. */
static void spot_checks(void)
{
	int lane, e, reg;
	isa_in(32, 8, 5, 6, &lane, &e);
	CHECK(lane == 37 && e == 2);
	isa_out(32, 13, 7, &reg, &lane);
	CHECK(reg == 5 && lane == 39);
	isa_out(16, 13, 7, &reg, &lane); /* 16x16: register i % 4 of lane 16 (i / 4) + j */
	CHECK(reg == 1 && lane == 55);
	isa_in(16, 32, 3, 17, &lane, &e); /* 16x16x32 int8: 8 k a lane */
	CHECK(lane == 35 && e == 1);
}

static int64_t val(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (int64_t)((*s >> 33) % 7) - 3;
}

static int checked;

/* One plan, simulated. */
static void simulate(gpu_mma *p, int warps)
{
	int64_t M = p->M, N = p->N, K = p->K;
	int S = p->nonk, kin = gpu_mfma_kin(p), kw = gpu_mfma_kw(p), nregs = S * S / 64;
	CHECK(kw * 64 == kin * S);
	int64_t *A = malloc(sizeof *A * M * K), *B = malloc(sizeof *B * K * N), *C = calloc(M * N, sizeof *C);
	uint64_t seed = 42;
	for (int64_t x = 0; x < M * K; x++)
		A[x] = val(&seed);
	for (int64_t x = 0; x < K * N; x++)
		B[x] = val(&seed);
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++)
			for (int64_t k = 0; k < K; k++)
				C[m * N + n] += A[m * K + k] * B[k * N + n];
	int64_t shape[2] = {M, N};
	int slots = gpu_layout_slots(&p->acc, shape, 2);
	CHECK(slots == p->mtiles * p->ntiles * nregs);
	CHECK(gpu_layout_fits(&p->acc, shape, 2, 64, warps));
	int T = 64 * warps;
	int64_t *acc = calloc((size_t)T * slots, sizeof *acc);
	int64_t *aop = malloc(sizeof *aop * 64 * kw), *bop = malloc(sizeof *bop * 64 * kw);
	for (int w = 0; w < warps; w++) {
		int w1 = w % p->w1, w0 = (w / p->w1) % p->w0;
		for (int kk = 0; kk < p->ksteps; kk++)
			for (int i = 0; i < p->mtiles; i++)
				for (int j = 0; j < p->ntiles; j++) {
					for (int l = 0; l < 64; l++)
						for (int e = 0; e < kw; e++) {
							int64_t r, c;
							gpu_mfma_a_elem(p, i, kk, w0, l, e, &r, &c);
							CHECK(r >= 0 && r < M && c >= 0 && c < K);
							aop[l * kw + e] = A[r * K + c];
							gpu_mfma_b_elem(p, j, kk, w1, l, e, &r, &c);
							CHECK(r >= 0 && r < K && c >= 0 && c < N);
							bop[l * kw + e] = B[r * N + c];
						}
					for (int ii = 0; ii < S; ii++)
						for (int jj = 0; jj < S; jj++) {
							int64_t d = 0;
							for (int k = 0; k < kin; k++) {
								int la, ea, lb, eb;
								isa_in(S, kin, ii, k, &la, &ea);
								isa_in(S, kin, jj, k, &lb, &eb);
								d += aop[la * kw + ea] * bop[lb * kw + eb];
							}
							int reg, lane;
							isa_out(S, ii, jj, &reg, &lane);
							int slot = gpu_mfma_c_slot(p, i, j, reg);
							CHECK(slot >= 0 && slot < slots);
							acc[(size_t)(w * 64 + lane) * slots + slot] += d;
						}
				}
	}
	int64_t *seen = calloc(M * N, sizeof *seen);
	int bad = 0;
	for (int t = 0; t < T; t++)
		for (int e = 0; e < slots; e++) {
			int64_t f = gpu_layout_flat(&p->acc, shape, 2, 64, t, e);
			seen[f]++;
			bad += acc[(size_t)t * slots + e] != C[f];
		}
	for (int64_t x = 0; x < M * N; x++)
		bad += seen[x] != 1;
	CHECK(bad == 0);
	if (bad)
		fprintf(stderr, "  kind %d gen %d nonk %d M %lld N %lld K %lld warps %d [%d, %d]\n", p->kind, p->gen,
			S, (long long)M, (long long)N, (long long)K, warps, p->w0, p->w1);
	checked++;
	free(A), free(B), free(C), free(acc), free(aop), free(bop), free(seen);
}

static void text_form(const gpu_mma *p)
{
	strbuf s = {0};
	gpu_layout_print(&s, &p->acc);
	gpu_layout l;
	CHECK(gpu_layout_parse(s.data, &l));
	CHECK(gpu_layout_equal(&l, &p->acc) && l.mma == 4 && l.instr_n == p->nonk);
	/* the blocked layout it stands for */
	CHECK(l.spt[0] == 4 && l.spt[1] == 1 && l.tpw[0] == 64 / p->nonk && l.tpw[1] == p->nonk &&
	      l.order[0] == 1 && l.order[1] == 0 && l.wpc[0] == p->w0 && l.wpc[1] == p->w1);
	strbuf_free(&s);
}

int main(void)
{
	spot_checks();
	static const struct {
		gpu_mma_kind kind;
		int gen;
	} kinds[] = {{GPU_MMA_F16, 2}, {GPU_MMA_BF16, 2}, {GPU_MMA_S8, 2}, {GPU_MMA_F16, 3},
		     {GPU_MMA_BF16, 3}, {GPU_MMA_S8, 3}, {GPU_MMA_E4M3, 3}, {GPU_MMA_E5M2, 3}};
	static const int64_t dims[] = {16, 32, 64, 128};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (int nonk = 16; nonk <= 32; nonk *= 2)
			for (size_t mi = 0; mi < 4; mi++)
				for (size_t ni = 0; ni < 4; ni++)
					for (int warps = 1; warps <= 8; warps *= 2) {
						gpu_mma p = {.kind = kinds[k].kind, .gen = kinds[k].gen, .nonk = nonk};
						p.M = dims[mi], p.N = dims[ni];
						p.K = 64;
						if (!gpu_mfma_plan_shape(&p, warps))
							continue;
						CHECK(p.version == 4 && p.w0 * p.w1 == warps);
						simulate(&p, warps);
						text_form(&p);
					}
	/* the instruction depths of the header's table */
	gpu_mma q = {.kind = GPU_MMA_S8, .gen = 2, .nonk = 32};
	CHECK(gpu_mfma_kin(&q) == 8 && gpu_mfma_kw(&q) == 4);
	q.gen = 3;
	CHECK(gpu_mfma_kin(&q) == 16 && gpu_mfma_kw(&q) == 8);
	q.nonk = 16;
	CHECK(gpu_mfma_kin(&q) == 32 && gpu_mfma_kw(&q) == 8);
	q.kind = GPU_MMA_F16;
	CHECK(gpu_mfma_kin(&q) == 16 && gpu_mfma_kw(&q) == 4);
	q.nonk = 32;
	CHECK(gpu_mfma_kin(&q) == 8 && gpu_mfma_kw(&q) == 4);
	/* processors */
	CHECK(gpu_amd_mfma_gen("gfx906") == 0 && gpu_amd_mfma_gen("gfx90a") == 2 && gpu_amd_mfma_gen("gfx942") == 3);
	CHECK(gpu_amd_has_dot("gfx906") && !gpu_amd_has_dot("gfx900"));
	/* text the parser refuses */
	gpu_layout l;
	CHECK(!gpu_layout_parse("mfma<warps [2, 2], instr [8, 8]>", &l));
	CHECK(!gpu_layout_parse("mfma<warps [2, 2], instr [32, 16]>", &l));
	CHECK(gpu_layout_parse("slice<dim = 1, parent = #mfma<warps [4, 1], instr [16, 16]>>", &l) &&
	      l.kind == GPU_SLICE && l.mma == 4);
	CHECK(checked > 100);
	printf("test_mfma: %d plans simulated\n", checked);
	return test_result("test_mfma");
}
