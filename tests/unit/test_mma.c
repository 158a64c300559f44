/* test_mma.c: the mma.sync plan of transforms/mma_layout.c against the PTX ISA's fragment
 * tables, for fp16 (m16n8k16; bf16 shares its maps), tf32 (m16n8k8) and int8 (m16n8k32).
 * For every plan of a range of block shapes and warp counts, a whole dot is
 * simulated warp by warp the way the hardware does it: each ldmatrix gathers the 8x8
 * matrices whose rows the lanes address (gpu_mma_a_source, gpu_mma_b_source) and hands
 * each lane its elements as the PTX ISA describes ldmatrix (and .trans; for tf32 and int8
 * B, each lane's single loads, gpu_mma_b_elem); the fragments are then read back as the
 * A and B of one instruction by the ISA's tables for its operands, multiplied, and each lane's c0..c3 (by the accumulator table) added into the
 * slots gpu_mma_c_slot names. The slots, mapped to elements by the #mma layout
 * (gpu_layout_flat), must hold exactly A @ B, every element once. Integer-valued inputs
 * keep the sums exact. */
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transforms/gpu_mma.h"

/* ldmatrix: thread T receives, of 8x8 matrix m of 16-bit elements (rows as the lanes
 * addressed them), the elements (T / 4, 2 (T % 4) + e), or (2 (T % 4) + e, T / 4) with
 * .trans. */
static double ldm(const double m[8][16], int T, int e, int trans)
{
	return trans ? m[2 * (T % 4) + e][T / 4] : m[T / 4][2 * (T % 4) + e];
}

/* The same matrix rows seen as 16 bytes of `per` = 4 / eb elements per 32-bit word
 * (ldmatrix moves b16 pairs: word T % 4 of row T / 4 to thread T, whatever is in it):
 * element e of that word. */
static double ldm_word(const double m[8][16], int T, int e, int per)
{
	return m[T / 4][per * (T % 4) + e];
}

/* The PTX ISA's fragment tables (mma.m16n8k16 .f16/.bf16, m16n8k8 .tf32, m16n8k32 .s8 and
 * .e4m3/.e5m2),
 * thread T = 4 g + t: element e of A register q and of B register q. */
static void isa_a(gpu_mma_kind k, int T, int q, int e, int *row, int *col)
{
	int g = T / 4, t = T % 4;
	switch (k) {
	case GPU_MMA_TF32: /* a0..a3: rows g, g + 8, g, g + 8; cols t, t, t + 4, t + 4 */
		*row = g + 8 * (q % 2), *col = t + 4 * (q / 2);
		break;
	case GPU_MMA_S8: /* (and e4m3, e5m2: the same table) */
	case GPU_MMA_E4M3:
	case GPU_MMA_E5M2: /* a0..a15 (4 a register): rows g for i < 4 or 8 <= i < 12, cols 4t + (i & 3) (+16 for i >= 8) */
		*row = g + 8 * (q % 2), *col = 4 * t + e + 16 * (q / 2);
		break;
	default: /* a0..a7 (2 a register): rows g (a0a1, a4a5) or g + 8; cols 2t + (i & 1) (+8 for i >= 4) */
		*row = g + 8 * (q & 1), *col = 2 * t + e + 8 * (q >> 1);
		break;
	}
}

static void isa_b(gpu_mma_kind k, int T, int q, int e, int *row, int *col)
{
	int g = T / 4, t = T % 4;
	*col = g;
	switch (k) {
	case GPU_MMA_TF32: /* b0, b1: rows t, t + 4 */
		*row = t + 4 * q;
		break;
	case GPU_MMA_S8:
	case GPU_MMA_E4M3:
	case GPU_MMA_E5M2: /* b0..b7: rows 4t + (i & 3) (+16 for i >= 4) */
		*row = 4 * t + e + 16 * q;
		break;
	default: /* b0..b3: rows 2t + (i & 1) (+8 for i >= 2) */
		*row = 2 * t + e + 8 * q;
		break;
	}
}

/* The #dot_op layouts (gpu_layout.h: what local_load fetches ahead for a dot) against what
 * the ldmatrix of row tile i (A) and column tile j (B) at k-step kk hand each lane: the
 * element of register q, half e, that lane T of warp (w0, w1) receives (ai, bi: the
 * matrices' elements as indices into A and B) is the one the layout puts in slot
 * ((i KS + kk) 4 + q) 2 + e of A's, ((j KS + kk) 2 + q) 2 + e of B's, for A and B whole
 * (KS = K / 16); the layout's text reads back as itself and its slots are all the
 * fragments. */
static int check_dot_op(const gpu_mma *p, int w0, int w1, int i, int j, int kk, double ai[4][8][16],
			double bi[4][8][16], int bq)
{
	gpu_layout la, lb, back;
	gpu_layout_dot_op_fill(&la, 0, p->w0, p->w1);
	gpu_layout_dot_op_fill(&lb, 1, p->w0, p->w1);
	int64_t ash[2] = {p->M, p->K}, bsh[2] = {p->K, p->N};
	int ks = (int)(p->K / 16);
	if (gpu_layout_slots(&la, ash, 2) != p->mtiles * ks * 8 || gpu_layout_slots(&lb, bsh, 2) != p->ntiles * ks * 4 ||
	    !gpu_layout_fits(&la, ash, 2, 32, p->w0 * p->w1) || !gpu_layout_fits(&lb, bsh, 2, 32, p->w0 * p->w1))
		return 0;
	for (int k = 0; k < 2; k++) {
		strbuf sb = {0};
		gpu_layout_print(&sb, k ? &lb : &la);
		bool same = sb.data && gpu_layout_parse(sb.data, &back) && gpu_layout_equal(&back, k ? &lb : &la);
		strbuf_free(&sb);
		if (!same)
			return 0;
	}
	for (int T = 0; T < 32; T++) {
		for (int q = 0; q < 4; q++)
			for (int e = 0; e < 2; e++) {
				int64_t r, c;
				gpu_dot_op_coord(&la, ash, T, w0, w1, ((i * ks + kk) * 4 + q) * 2 + e, &r, &c);
				if (ldm(ai[q], T, e, 0) != (double)(r * p->K + c)) {
					fprintf(stderr, "dot_op A: M=%lld K=%lld warps %dx%d: lane %d (%d, %d, %d, %d)\n",
						(long long)p->M, (long long)p->K, p->w0, p->w1, T, i, kk, q, e);
					return 0;
				}
			}
		for (int q = 0; q < 2; q++)
			for (int e = 0; e < 2; e++) {
				int64_t r, c;
				gpu_dot_op_coord(&lb, bsh, T, w0, w1, ((j * ks + kk) * 2 + q) * 2 + e, &r, &c);
				if (ldm(bi[bq + q], T, e, 1) != (double)(r * p->N + c)) {
					fprintf(stderr, "dot_op B: K=%lld N=%lld warps %dx%d: lane %d (%d, %d, %d, %d)\n",
						(long long)p->K, (long long)p->N, p->w0, p->w1, T, j, kk, q, e);
					return 0;
				}
			}
	}
	return 1;
}

static int simulate(const gpu_mma *p, const double *A, const double *B, const double *C)
{
	int warps = p->w0 * p->w1, threads = 32 * warps;
	int64_t shape[2] = {p->M, p->N};
	int slots = gpu_layout_slots(&p->acc, shape, 2);
	int eb = gpu_mma_elem_bytes(p->kind), per = 4 / eb, ks = gpu_mma_kstep(p->kind), row16 = 16 / eb;
	bool b16 = eb == 2;
	if (slots != 2 * 4 * p->mtiles * p->ntiles / 2 || ks * eb != 32 || p->ksteps * ks != p->K)
		return 0;
	double *acc = calloc((size_t)threads * slots, sizeof *acc);
	int ok_ops = 1;
	for (int w = 0; w < warps; w++) {
		int w1 = w % p->w1, w0 = w / p->w1;
		for (int kk = 0; kk < p->ksteps; kk++)
			for (int i = 0; i < p->mtiles; i++)
				for (int j = 0; j < p->ntiles; j++) {
					/* the four A matrices of tile i: 8 rows of 16 bytes each (and
					 * the index in A of each element, for the #dot_op check) */
					double am[4][8][16], bm[4][8][16], ai[4][8][16], bi[4][8][16];
					for (int L = 0; L < 32; L++) {
						int64_t r, c;
						gpu_mma_a_source(p, i, kk, w0, L, &r, &c);
						for (int x = 0; x < row16; x++) {
							am[L / 8][L % 8][x] = A[r * p->K + c + x];
							ai[L / 8][L % 8][x] = (double)(r * p->K + c + x);
						}
					}
					/* B, 16-bit: the pair fetch when j is even and j + 1 exists, else .x2 of j */
					int jb = j & ~1;
					int pair = jb + 1 < p->ntiles;
					for (int L = 0; L < 32 && b16; L++) {
						int64_t r, c;
						gpu_mma_b_source(p, jb, kk, w1, L, pair, &r, &c);
						int mat = (pair ? L : L % 16) / 8;
						for (int x = 0; x < 8; x++) {
							bm[mat][L % 8][x] = B[r * p->N + c + x];
							bi[mat][L % 8][x] = (double)(r * p->N + c + x);
						}
					}
					int bq = pair ? 2 * (j - jb) : 0; /* tile j's registers in the fetch */
					if (b16 && !check_dot_op(p, w0, w1, i, j, kk, ai, bi, bq))
						ok_ops = 0;
					/* the fragments, read back as the instruction's operands */
					double a[16][32], b[32][8];
					for (int x = 0; x < 16 * 32; x++)
						a[x / 32][x % 32] = NAN;
					for (int x = 0; x < 32 * 8; x++)
						b[x / 8][x % 8] = NAN;
					for (int T = 0; T < 32; T++) {
						for (int q = 0; q < 4; q++)
							for (int e = 0; e < per; e++) {
								int row, col;
								isa_a(p->kind, T, q, e, &row, &col);
								a[row][col] = b16 ? ldm(am[q], T, e, 0) : ldm_word(am[q], T, e, per);
							}
						for (int q = 0; q < 2; q++)
							for (int e = 0; e < per; e++) {
								int row, col;
								isa_b(p->kind, T, q, e, &row, &col);
								if (b16) {
									b[row][col] = ldm(bm[bq + q], T, e, 1);
								} else {
									int64_t r, c;
									gpu_mma_b_elem(p, j, kk, w1, T, q, e, &r, &c);
									b[row][col] = B[r * p->N + c];
								}
							}
					}
					for (int T = 0; T < 32; T++)
						for (int r = 0; r < 4; r++) {
							int row = T / 4 + 8 * (r >> 1), col = 2 * (T % 4) + (r & 1);
							double s = 0;
							for (int k = 0; k < ks; k++)
								s += a[row][k] * b[k][col]; /* a NaN: a fragment element never fetched */
							acc[(size_t)(w * 32 + T) * slots + gpu_mma_c_slot(p, i, j, r)] += s;
						}
				}
	}
	int ok = ok_ops;
	char *seen = calloc((size_t)(p->M * p->N), 1);
	for (int t = 0; t < threads && ok; t++)
		for (int e = 0; e < slots && ok; e++) {
			int64_t f = gpu_layout_flat(&p->acc, shape, 2, 32, t, e);
			if (f < 0 || f >= p->M * p->N || seen[f] || acc[(size_t)t * slots + e] != C[f]) {
				fprintf(stderr, "M=%lld N=%lld K=%lld warps %dx%d: thread %d slot %d (element %lld)\n",
					(long long)p->M, (long long)p->N, (long long)p->K, p->w0, p->w1, t, e, (long long)f);
				ok = 0;
			} else {
				seen[f] = 1;
			}
		}
	free(seen);
	free(acc);
	return ok;
}

/* A in registers (gpu_mma_a_regs, gpu_mma_a_slot): in an #mma v2 layout of warps [W0, 1]
 * over M x K, every element of every A fragment (the ISA's table) is the thread's own slot
 * gpu_mma_a_slot says, each slot once. Tile i's rows: 8 W0 apart for its two halves, as
 * gpu_mma_a_source fetches them. */
static int check_a_regs(const gpu_mma *p)
{
	gpu_layout al = {.kind = GPU_BLOCKED};
	gpu_layout_mma_fill(&al, p->w0, 1);
	int64_t ash[2] = {p->M, p->K};
	if (!gpu_mma_a_regs(p, &al) || !gpu_layout_fits(&al, ash, 2, 32, p->w0))
		return 0;
	int slots = gpu_layout_slots(&al, ash, 2);
	if (slots != p->mtiles * p->ksteps * 8)
		return 0;
	char *used = malloc((size_t)slots);
	for (int t = 0; t < 32 * p->w0; t++) {
		int w0 = t / 32, l = t % 32;
		memset(used, 0, (size_t)slots);
		for (int i = 0; i < p->mtiles; i++)
			for (int kk = 0; kk < p->ksteps; kk++)
				for (int r = 0; r < 8; r++) {
					int e = gpu_mma_a_slot(p, &al, i, kk, r), fr, fc;
					isa_a(p->kind, l, r / 2, r % 2, &fr, &fc);
					int64_t row = (int64_t)(2 * i + fr / 8) * 8 * p->w0 + w0 * 8 + fr % 8;
					int64_t col = 16 * (int64_t)kk + fc;
					if (e < 0 || e >= slots || used[e] ||
					    gpu_layout_flat(&al, ash, 2, 32, t, e) != row * p->K + col) {
						fprintf(stderr, "A regs: M=%lld K=%lld W0 %d: thread %d (%d, %d, %d) slot %d\n",
							(long long)p->M, (long long)p->K, p->w0, t, i, kk, r, e);
						free(used);
						return 0;
					}
					used[e] = 1;
				}
	}
	free(used);
	return 1;
}

int main(void)
{
	int plans = 0;
	uint64_t x = 88172645463325252ull;
	static const gpu_mma_kind kinds[] = {GPU_MMA_F16, GPU_MMA_TF32, GPU_MMA_S8, GPU_MMA_E5M2};
	for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++)
	for (int M = 16; M <= 256; M *= 2)
		for (int N = 8; N <= 256; N *= 2)
			for (int K = 8; K <= 128; K *= 2)
				for (int warps = 1; warps <= 8; warps *= 2) {
					gpu_mma p = {.kind = kinds[ki], .M = M, .N = N, .K = K};
					if (!gpu_mma_plan_shape(&p, warps)) {
						/* only K below the kind's k-step, or warps that do not split */
						CHECK(K % gpu_mma_kstep(kinds[ki]) || M < 16 * warps || (M / 16) * (N / 8) < warps);
						continue;
					}
					CHECK(p.w0 * p.w1 == warps && p.mtiles * 16 * p.w0 == M && p.ntiles * 8 * p.w1 == N);
					CHECK(p.ksteps * gpu_mma_kstep(p.kind) == K);
					double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
					double *C = calloc((size_t)M * N, sizeof(double));
					for (int i = 0; i < M * K; i++)
						A[i] = (double)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 60) - 7;
					for (int i = 0; i < K * N; i++)
						B[i] = (double)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 60) - 7;
					for (int i = 0; i < M; i++)
						for (int k = 0; k < K; k++)
							for (int j = 0; j < N; j++)
								C[i * N + j] += A[i * K + k] * B[k * N + j];
					CHECK(simulate(&p, A, B, C));
					free(A);
					free(B);
					free(C);
					plans++;
				}
	/* A from registers: every plan of the 16-bit kinds with W1 = 1 (N = 8 forces it) */
	int regs = 0;
	for (int M = 16; M <= 256; M *= 2)
		for (int K = 16; K <= 128; K *= 2)
			for (int warps = 1; warps <= 8 && 16 * warps <= M; warps *= 2) {
				gpu_mma p = {.kind = GPU_MMA_BF16, .M = M, .N = 8, .K = K};
				CHECK(gpu_mma_plan_shape(&p, warps) && p.w1 == 1 && p.w0 == warps);
				CHECK(check_a_regs(&p));
				regs++;
			}
	CHECK(regs > 20);
	{ /* not for a layout whose warps differ from the plan's, nor for tf32 */
		gpu_mma p = {.kind = GPU_MMA_F16, .M = 128, .N = 8, .K = 64};
		gpu_layout al = {.kind = GPU_BLOCKED};
		CHECK(gpu_mma_plan_shape(&p, 8) && p.w0 == 8);
		gpu_layout_mma_fill(&al, 4, 2);
		CHECK(!gpu_mma_a_regs(&p, &al));
		gpu_layout_mma_fill(&al, 8, 1);
		CHECK(gpu_mma_a_regs(&p, &al));
		p.kind = GPU_MMA_TF32;
		CHECK(!gpu_mma_a_regs(&p, &al));
	}
	/* the k-steps: 32 bytes of K */
	CHECK(gpu_mma_kstep(GPU_MMA_F16) == 16 && gpu_mma_kstep(GPU_MMA_BF16) == 16 &&
	      gpu_mma_kstep(GPU_MMA_TF32) == 8 && gpu_mma_kstep(GPU_MMA_S8) == 32);
	/* a shape that cannot split over the warps stays on the FMA path */
	gpu_mma small = {.kind = GPU_MMA_F16, .M = 16, .N = 8, .K = 16};
	CHECK(!gpu_mma_plan_shape(&small, 4));
	/* the layout's text form */
	gpu_layout l = {.kind = GPU_BLOCKED}, back; /* the fill sets the distribution, not the kind */
	gpu_layout_mma_fill(&l, 2, 4);
	strbuf s = {0};
	gpu_layout_print(&s, &l);
	CHECK(s.data && !strcmp(s.data, "mma<version = 2, warps [2, 4]>"));
	CHECK(gpu_layout_parse(s.data, &back) && gpu_layout_equal(&l, &back) && back.tpw[0] == 8);
	strbuf_free(&s);
	l.kind = GPU_SLICE;
	l.dim = 1;
	gpu_layout_print(&s, &l);
	CHECK(s.data && !strcmp(s.data, "slice<dim = 1, parent = #mma<version = 2, warps [2, 4]>>"));
	CHECK(gpu_layout_parse(s.data, &back) && gpu_layout_equal(&l, &back));
	strbuf_free(&s);
	CHECK(!gpu_layout_parse("mma<version = 3, warps [2, 2]>", &back));
	CHECK(!gpu_layout_parse("mma<version = 2, warps [3, 2]>", &back));
	printf("test_mma: %d plans\n", plans);
	return test_result("test_mma");
}
