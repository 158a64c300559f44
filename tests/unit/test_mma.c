/* test_mma.c: the mma.sync plan of transforms/mma_layout.c against the PTX ISA's fragment
 * tables. For every plan of a range of block shapes and warp counts, a whole dot is
 * simulated warp by warp the way the hardware does it: each ldmatrix gathers the 8x8
 * matrices whose rows the lanes address (gpu_mma_a_source, gpu_mma_b_source) and hands
 * each lane its elements as the PTX ISA describes ldmatrix (and .trans); the fragments are
 * then read back as the 16x16 A and 16x8 B of one mma.m16n8k16 by the ISA's tables for its
 * operands, multiplied, and each lane's c0..c3 (by the accumulator table) added into the
 * slots gpu_mma_c_slot names. The slots, mapped to elements by the #mma layout
 * (gpu_layout_flat), must hold exactly A @ B, every element once. Integer-valued inputs
 * keep the sums exact. */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>

#include "transforms/gpu_mma.h"

/* ldmatrix: thread T receives, of 8x8 matrix m (rows as the lanes addressed them), the
 * elements (T / 4, 2 (T % 4) + e), or (2 (T % 4) + e, T / 4) with .trans. */
static double ldm(const double m[8][8], int T, int e, int trans)
{
	return trans ? m[2 * (T % 4) + e][T / 4] : m[T / 4][2 * (T % 4) + e];
}

static int simulate(const gpu_mma *p, const double *A, const double *B, const double *C)
{
	int warps = p->w0 * p->w1, threads = 32 * warps;
	int64_t shape[2] = {p->M, p->N};
	int slots = gpu_layout_slots(&p->acc, shape, 2);
	if (slots != 2 * 4 * p->mtiles * p->ntiles / 2)
		return 0;
	double *acc = calloc((size_t)threads * slots, sizeof *acc);
	for (int w = 0; w < warps; w++) {
		int w1 = w % p->w1, w0 = w / p->w1;
		for (int kk = 0; kk < p->ksteps; kk++)
			for (int i = 0; i < p->mtiles; i++)
				for (int j = 0; j < p->ntiles; j++) {
					/* the four A matrices of tile i */
					double am[4][8][8], bm[4][8][8];
					for (int L = 0; L < 32; L++) {
						int64_t r, c;
						gpu_mma_a_source(p, i, kk, w0, L, &r, &c);
						for (int x = 0; x < 8; x++)
							am[L / 8][L % 8][x] = A[r * p->K + c + x];
					}
					/* B: the pair fetch when j is even and j + 1 exists, else .x2 of j */
					int jb = j & ~1;
					int pair = jb + 1 < p->ntiles;
					for (int L = 0; L < 32; L++) {
						int64_t r, c;
						gpu_mma_b_source(p, jb, kk, w1, L, pair, &r, &c);
						int mat = (pair ? L : L % 16) / 8;
						for (int x = 0; x < 8; x++)
							bm[mat][L % 8][x] = B[r * p->N + c + x];
					}
					int bq = pair ? 2 * (j - jb) : 0; /* tile j's registers in the fetch */
					/* the fragments, read back as the instruction's operands */
					double a[16][16], b[16][8];
					for (int T = 0; T < 32; T++) {
						int g = T / 4, t4 = T % 4;
						for (int q = 0; q < 4; q++)
							for (int e = 0; e < 2; e++) {
								/* a(2q + e): rows g (q even) or g + 8, k low (q < 2) or high */
								int row = g + 8 * (q & 1), col = 2 * t4 + e + 8 * (q >> 1);
								a[row][col] = ldm(am[q], T, e, 0);
							}
						for (int q = 0; q < 2; q++)
							for (int e = 0; e < 2; e++)
								b[2 * t4 + e + 8 * q][g] = ldm(bm[bq + q], T, e, 1);
					}
					for (int T = 0; T < 32; T++)
						for (int r = 0; r < 4; r++) {
							int row = T / 4 + 8 * (r >> 1), col = 2 * (T % 4) + (r & 1);
							double s = 0;
							for (int k = 0; k < 16; k++)
								s += a[row][k] * b[k][col];
							acc[(size_t)(w * 32 + T) * slots + gpu_mma_c_slot(p, i, j, r)] += s;
						}
				}
	}
	int ok = 1;
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

int main(void)
{
	int plans = 0;
	uint64_t x = 88172645463325252ull;
	for (int M = 16; M <= 256; M *= 2)
		for (int N = 8; N <= 256; N *= 2)
			for (int K = 16; K <= 64; K *= 2)
				for (int warps = 1; warps <= 8; warps *= 2) {
					gpu_mma p = {.kind = GPU_MMA_F16, .M = M, .N = N, .K = K};
					if (!gpu_mma_plan_shape(&p, warps))
						continue;
					CHECK(p.w0 * p.w1 == warps && p.mtiles * 16 * p.w0 == M && p.ntiles * 8 * p.w1 == N);
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
