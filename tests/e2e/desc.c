/* desc.c: tensor descriptors made in the kernel (kernels/desc.py). An M x N fp32 tensor
 * (row stride sx >= N) in blocks of BM x BN (one program per block, the grid covering the
 * tensor): y = 2 x + (x shifted by one row and one column, 0 outside), through
 * desc.load/desc.store, and acc += x through desc.atomic_add. The padding of x's rows
 * (between N and sx) and y's (up to sy) must stay untouched: out-of-bounds stores are
 * dropped. */
#include "e2e.h"

#include <math.h>
#include <stdlib.h>

static void test_desc(int M, int N, int sx, int sy, uint64_t seed)
{
	enum { BM = 16, BN = 32 };
	e2e_begin("desc M=%d N=%d sx=%d sy=%d", M, N, sx, sy);
	tilert_kernel *k = e2e_kernel("desc_fp32", "desc_copy");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc((size_t)M * sx * 4), *y = e2e_alloc((size_t)M * sy * 4);
	float *acc = e2e_alloc((size_t)M * N * 4);
	double *wy = malloc((size_t)M * sy * sizeof(double)), *wa = malloc((size_t)M * N * sizeof(double));
	e2e_fill_f32(&r, x, (size_t)M * sx, -4, 4);
	e2e_fill_f32(&r, acc, (size_t)M * N, -4, 4);
	e2e_poison_f32(y, (size_t)M * sy);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < sy; j++) {
			if (j >= N) {
				wy[(size_t)i * sy + j] = NAN; /* the poison stays */
				continue;
			}
			/* the shifted block: (i - 1, j - 1) for an element inside its block's
			 * shifted origin, which is the same element one row up and left */
			double s = i >= 1 && j >= 1 ? x[(size_t)(i - 1) * sx + (j - 1)] : 0.0;
			wy[(size_t)i * sy + j] = (double)(float)(x[(size_t)i * sx + j] * 2.0f) + s;
		}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			wa[(size_t)i * N + j] = (double)(acc[(size_t)i * N + j] + x[(size_t)i * sx + j]);
	int one = 1;
	void *args[] = {&x, &y, &acc, &M, &N, &sx, &sy, &one};
	unsigned gm = (unsigned)((M + BM - 1) / BM), gn = (unsigned)((N + BN - 1) / BN);
	if (!e2e_launch(k, gm, gn, 1, args, 8)) {
		e2e_cmp_f32("y", y, wy, (size_t)M * sy, E2E_TOL_F32);
		e2e_cmp_f32("acc", acc, wa, (size_t)M * N, E2E_TOL_F32);
	}
	free(wy);
	free(wa);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_desc(1, 1, 1, 3, 800));
	E2E_RUN(test_desc(17, 45, 45, 50, 801));
	E2E_RUN(test_desc(40, 100, 103, 100, 802));
	E2E_RUN(test_desc(16, 32, 32, 32, 803));
	return e2e_finish();
}
