/* desc.c: tensor descriptors made in the kernel (kernels/desc.py). An M x N fp32 tensor
 * (row stride sx >= N) in blocks of BM x BN (one program per block, the grid covering the
 * tensor): y = 2 x + (x shifted by one row and one column, 0 outside), through
 * desc.load/desc.store, and acc += x through desc.atomic_add. The padding of x's rows
 * (between N and sx) and y's (up to sy) must stay untouched: out-of-bounds stores are
 * dropped.
 *
 * The same through host-made descriptors (kernels/desc.py desc_host: tensordesc<...>
 * parameters), built with tilert_tensor_desc_init and passed with
 * tilert_tensor_desc_append, with both paddings: y = 2 x + x[i - 1][j + 1], where a read
 * outside the tensor gives 0 (padding "zero") or NaN ("nan", which the kernel writes as
 * -7); and the shape and strides the kernel sees. */
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

static void test_desc_host(int M, int N, int sx, int sy, int nan, uint64_t seed)
{
	enum { BM = 16, BN = 32 };
	e2e_begin("desc_host M=%d N=%d sx=%d sy=%d padding=%s", M, N, sx, sy, nan ? "nan" : "zero");
	tilert_kernel *k = e2e_kernel("desc_host_fp32", "desc_host");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc((size_t)M * sx * 4), *y = e2e_alloc((size_t)M * sy * 4);
	int32_t *info = e2e_alloc(5 * 4);
	double *wy = malloc((size_t)M * sy * sizeof(double));
	e2e_fill_f32(&r, x, (size_t)M * sx, -4, 4);
	e2e_poison_f32(y, (size_t)M * sy);
	e2e_poison(info, 5 * 4);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < sy; j++) {
			double *w = &wy[(size_t)i * sy + j];
			if (j >= N) {
				*w = NAN; /* the row padding: no store reaches it */
				continue;
			}
			int in = i >= 1 && j + 1 < N; /* x[i - 1][j + 1] inside the tensor */
			double xs = in ? x[(size_t)(i - 1) * sx + j + 1] : 0.0;
			*w = !in && nan ? -7.0 : (double)(float)(x[(size_t)i * sx + j] * 2.0f + (float)xs);
		}
	tilert_tensor_desc xd, yd;
	int64_t shape[2] = {M, N}, xst[2] = {sx, 1}, yst[2] = {sy, 1};
	const char *pad = nan ? "nan" : "zero";
	if (tilert_tensor_desc_init(&xd, x, 4, 2, shape, xst, pad) ||
	    tilert_tensor_desc_init(&yd, y, 4, 2, shape, yst, "zero"))
		e2e_fail("tilert_tensor_desc_init: %s", tilert_last_error());
	void *args[13];
	size_t n = 0;
	if (tilert_tensor_desc_append(&xd, args, 13, &n) || tilert_tensor_desc_append(&yd, args, 13, &n))
		e2e_fail("tilert_tensor_desc_append: %s", tilert_last_error());
	args[n++] = &info;
	unsigned gm = (unsigned)((M + BM - 1) / BM), gn = (unsigned)((N + BN - 1) / BN);
	if (!e2e_failed() && n == 13 && !e2e_launch(k, gm, gn, 1, args, n)) {
		e2e_cmp_f32("y", y, wy, (size_t)M * sy, E2E_TOL_F32);
		int64_t winfo[5] = {M, N, sx, sy, 1};
		e2e_cmp_int("shape and strides", info, winfo, 5, 4, 1);
	}
	free(wy);
	e2e_end();
}

/* The checks of tilert_tensor_desc_init and _append, which the kernel relies on. */
static void test_desc_host_checks(void)
{
	e2e_begin("desc_host checks");
	float *x = e2e_alloc(64 * 4);
	tilert_tensor_desc d;
	int64_t sh[2] = {4, 8}, ok[2] = {8, 1}, last[2] = {8, 2}, odd[2] = {6, 1}, big[2] = {1LL << 31, 8};
	if (tilert_tensor_desc_init(&d, x, 4, 2, sh, ok, NULL) != TILERT_OK)
		e2e_fail("a good descriptor is refused: %s", tilert_last_error());
	if (tilert_tensor_desc_init(&d, x, 4, 2, sh, last, NULL) != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("a last stride of 2 is accepted");
	if (tilert_tensor_desc_init(&d, x, 4, 2, sh, odd, NULL) != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("a row stride of 24 bytes is accepted");
	if (tilert_tensor_desc_init(&d, (char *)x + 4, 4, 2, sh, ok, NULL) != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("a base not 16-byte aligned is accepted");
	if (tilert_tensor_desc_init(&d, x, 4, 2, big, ok, NULL) != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("a shape of 2^31 is accepted");
	if (tilert_tensor_desc_init(&d, x, 4, 6, sh, ok, NULL) != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("rank 6 is accepted");
	if (tilert_tensor_desc_init(&d, x, 4, 2, sh, ok, "inf") != TILERT_ERR_INVALID_ARGUMENT)
		e2e_fail("padding \"inf\" is accepted");
	tilert_tensor_desc_init(&d, x, 4, 2, sh, ok, "nan");
	void *args[8];
	size_t n = 3;
	if (tilert_tensor_desc_append(&d, args, 8, &n) != TILERT_ERR_ARGUMENTS || n != 3)
		e2e_fail("6 arguments appended after 3 in 8 slots");
	n = 1;
	if (tilert_tensor_desc_append(&d, args, 8, &n) != TILERT_OK || n != 7 || args[1] != &d.base ||
	    args[2] != &d.shape[0] || args[3] != &d.shape[1] || args[4] != &d.strides[0] ||
	    args[5] != &d.strides[1] || args[6] != &d.padding_nan || d.padding_nan != 1)
		e2e_fail("the appended arguments are not base, shape, strides, padding");
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_desc(1, 1, 1, 3, 800));
	E2E_RUN(test_desc(17, 45, 45, 50, 801));
	E2E_RUN(test_desc(40, 100, 103, 100, 802));
	E2E_RUN(test_desc(16, 32, 32, 32, 803));
	E2E_RUN(test_desc_host(1, 1, 4, 8, 0, 810));
	E2E_RUN(test_desc_host(1, 1, 4, 8, 1, 811));
	E2E_RUN(test_desc_host(17, 45, 48, 52, 0, 812));
	E2E_RUN(test_desc_host(17, 45, 48, 52, 1, 813));
	E2E_RUN(test_desc_host(40, 100, 104, 100, 1, 814));
	E2E_RUN(test_desc_host(32, 64, 64, 64, 0, 815));
	E2E_RUN(test_desc_host_checks());
	return e2e_finish();
}
