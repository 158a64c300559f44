/* sort.c: moving elements by index (kernels/sort.py).
 *
 *   sort_T     each row of an M x N block (M, N awkward, the tile 8 x 64 or 4 x 32)
 *              sorted ascending, or descending with its top K (K <= N), against qsort
 *   gather     tl.gather along both axes (random in-range indices, int32 and int64), and
 *              tl.flip along both dimensions, on an exact 8 x 16 tile
 *   hist_T     tl.histogram of n values (some outside the bins, masked tail) into 64 bins
 *
 * Sorted outputs are compared exactly: a sort only moves values. */
#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static e2e_dtype g_t;
static int g_desc;

static int cmp_vals(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	int r = a < b ? -1 : a > b ? 1 : 0;
	return g_desc ? -r : r;
}

static void test_sort(const char *variant, e2e_dtype t, int desc, int M, int N, int K,
                      uint64_t seed)
{
	e2e_begin("%s M=%d N=%d", variant, M, N);
	tilert_kernel *k = e2e_kernel(variant, "sort_rows");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	size_t mn = (size_t)M * N;
	void *x = e2e_alloc(mn * sz), *out = e2e_alloc(mn * sz), *top = e2e_alloc((size_t)M * K * sz);
	double *want = malloc(mn * sizeof(double)), *wtop = malloc((size_t)M * K * sizeof(double));
	int64_t *wi = malloc(mn * sizeof(int64_t)), *wti = malloc((size_t)M * K * sizeof(int64_t));
	for (size_t i = 0; i < mn; i++) {
		if (e2e_dtype_is_float(t))
			e2e_setf(x, i, t, e2e_uniform(&r, -100, 100));
		else /* duplicates on purpose */
			e2e_seti(x, i, t, e2e_randint(&r, -50, 50));
		want[i] = e2e_getf(x, i, t);
	}
	g_t = t;
	g_desc = desc;
	for (int i = 0; i < M; i++)
		qsort(want + (size_t)i * N, (size_t)N, sizeof(double), cmp_vals);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < K; j++)
			wtop[(size_t)i * K + j] = j < N ? want[(size_t)i * N + j] : 0;
	for (size_t i = 0; i < mn; i++)
		wi[i] = (int64_t)want[i];
	for (size_t i = 0; i < (size_t)M * K; i++)
		wti[i] = (int64_t)wtop[i];
	e2e_poison(out, mn * sz);
	e2e_poison(top, (size_t)M * K * sz);
	void *args[] = {&x, &out, &top, &M, &N};
	if (!e2e_launch(k, 1, 1, 1, args, 5)) {
		e2e_cmp("sorted", out, t, want, wi, mn, E2E_EXACT);
		if (desc)
			e2e_cmp("topk", top, t, wtop, wti, (size_t)M * K, E2E_EXACT);
	}
	free(want);
	free(wtop);
	free(wi);
	free(wti);
	e2e_end();
}

static void test_gather(uint64_t seed)
{
	enum { BM = 8, BN = 16, BJ = 32 };
	e2e_begin("gather_flip %dx%d", BM, BN);
	tilert_kernel *k = e2e_kernel("gather_flip", "gather_flip");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc(BM * BN * 4), *g1 = e2e_alloc(BM * BJ * 4), *g0 = e2e_alloc(BJ * BN * 4);
	float *f0 = e2e_alloc(BM * BN * 4), *f1 = e2e_alloc(BM * BN * 4);
	int32_t *i1 = e2e_alloc(BM * BJ * 4);
	int64_t *i0 = e2e_alloc(BJ * BN * 8);
	double w1[BM * BJ], w0[BJ * BN], wf0[BM * BN], wf1[BM * BN];
	e2e_fill_f32(&r, x, BM * BN, -10, 10);
	for (int i = 0; i < BM; i++)
		for (int j = 0; j < BJ; j++) {
			i1[i * BJ + j] = (int32_t)e2e_randint(&r, 0, BN - 1);
			w1[i * BJ + j] = x[i * BN + i1[i * BJ + j]];
		}
	for (int i = 0; i < BJ; i++)
		for (int j = 0; j < BN; j++) {
			i0[i * BN + j] = e2e_randint(&r, 0, BM - 1);
			w0[i * BN + j] = x[i0[i * BN + j] * BN + j];
		}
	for (int i = 0; i < BM; i++)
		for (int j = 0; j < BN; j++) {
			wf0[i * BN + j] = x[(BM - 1 - i) * BN + j];
			wf1[i * BN + j] = x[i * BN + (BN - 1 - j)];
		}
	e2e_poison_f32(g1, BM * BJ);
	e2e_poison_f32(g0, BJ * BN);
	e2e_poison_f32(f0, BM * BN);
	e2e_poison_f32(f1, BM * BN);
	void *args[] = {&x, &i1, &i0, &g1, &g0, &f0, &f1};
	if (!e2e_launch(k, 1, 1, 1, args, 7)) {
		e2e_cmp_f32("gather axis 1", g1, w1, BM * BJ, E2E_EXACT);
		e2e_cmp_f32("gather axis 0", g0, w0, BJ * BN, E2E_EXACT);
		e2e_cmp_f32("flip dim 0", f0, wf0, BM * BN, E2E_EXACT);
		e2e_cmp_f32("flip dim 1", f1, wf1, BM * BN, E2E_EXACT);
	}
	e2e_end();
}

static void test_hist(const char *variant, e2e_dtype t, int n, uint64_t seed)
{
	enum { NB = 64 };
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "hist");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	void *x = e2e_alloc((size_t)256 * sz);
	int32_t *out = e2e_alloc(NB * 4);
	int64_t want[NB] = {0};
	/* the whole buffer holds values; only the first n count */
	for (int i = 0; i < 256; i++) {
		int64_t v = e2e_dtype_is_signed(t) ? e2e_randint(&r, -5, NB + 5) : e2e_randint(&r, 0, NB + 5);
		e2e_seti(x, i, t, v);
		if (i < n && v >= 0 && v < NB)
			want[v]++;
	}
	e2e_poison(out, NB * 4);
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, 1, 1, 1, args, 3))
		e2e_cmp_int("counts", out, want, NB, 4, 1);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int mn[][2] = {{1, 1}, {3, 17}, {8, 64}, {5, 50}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(mn); i++) {
		int M = mn[i][0], N = mn[i][1];
		E2E_RUN(test_sort("sort_fp32", E2E_F32, 0, M, N, 16, 500 + i));
		E2E_RUN(test_sort("sort_fp32_desc", E2E_F32, 1, M, N, N >= 16 ? 16 : 1, 510 + i));
		E2E_RUN(test_sort("sort_fp16_desc", E2E_F16, 1, M, N, 1, 520 + i));
		E2E_RUN(test_sort("sort_bf16", E2E_BF16, 0, M, N, 1, 525 + i));
		if (M <= 4 && N <= 32) {
			E2E_RUN(test_sort("sort_i32_desc", E2E_I32, 1, M, N, N >= 8 ? 8 : 1, 530 + i));
			E2E_RUN(test_sort("sort_u8", E2E_U8, 0, M, N, 8, 540 + i));
		}
	}
	E2E_RUN(test_gather(600));
	static const int hn[] = {1, 97, 256};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(hn); i++) {
		E2E_RUN(test_hist("hist_i32", E2E_I32, hn[i], 700 + i));
		E2E_RUN(test_hist("hist_u8", E2E_U8, hn[i], 710 + i));
		E2E_RUN(test_hist("hist_i64", E2E_I64, hn[i], 720 + i));
	}
	return e2e_finish();
}
