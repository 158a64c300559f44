/* reduce.c: reductions and scans (kernels/reduce.py) on masked M x N tiles in fp32 and int32:
 * sum/max/min on both axes and overall, tl.reduce with a jit combine function, keep_dims,
 * argmax/argmin and max(return_indices) with many ties (the smaller index wins), cumsum and
 * associative_scan forward and reverse on both axes. The values are multiples of 1/4 in a
 * small range, so every fp32 sum is exact whatever the order; one case uses arbitrary
 * floats with a tolerance. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Fills x (M x N, t) with ties: quarters in [-4, 4] (fp32) or integers in [-20, 20]. */
static void fill_ties(e2e_rng *r, void *x, int n, e2e_dtype t, int smooth)
{
	for (int i = 0; i < n; i++) {
		if (t == E2E_F32)
			((float *)x)[i] = smooth ? (float)e2e_uniform(r, -5, 5) : (float)e2e_randint(r, -16, 16) * 0.25f;
		else
			((int32_t *)x)[i] = (int32_t)e2e_randint(r, -20, 20);
	}
}

static void test_reduce(const char *variant, e2e_dtype t, int BM, int BN, int M, int N,
                        int smooth, uint64_t seed)
{
	e2e_begin("%s M=%d N=%d%s", variant, M, N, smooth ? " (arbitrary floats)" : "");
	tilert_kernel *k = e2e_kernel(variant, "reduce2d");
	e2e_rng r = e2e_rng_new(seed);
	void *x = e2e_alloc((size_t)M * N * 4), *rows = e2e_alloc(5 * BM * 4), *cols = e2e_alloc(3 * BN * 4);
	int32_t *idx = e2e_alloc((3 * BM + 2 * BN) * 4);
	void *tot = e2e_alloc(2 * 4);
	fill_ties(&r, x, M * N, t, smooth);
	double *wr = malloc(5 * BM * sizeof(double)), *wc = malloc(3 * BN * sizeof(double));
	double wt[2];
	int64_t *wri = malloc(5 * BM * sizeof(int64_t)), *wci = malloc(3 * BN * sizeof(int64_t));
	int64_t wti[2], *wx = malloc((3 * BM + 2 * BN) * sizeof(int64_t));
	/* every slot that the kernel must not write keeps its poison: compare whole buffers */
	for (int i = 0; i < 3 * BM + 2 * BN; i++)
		wx[i] = (int32_t)0xCDCDCDCD;
	for (int i = 0; i < 5 * BM; i++)
		wr[i] = NAN, wri[i] = (int32_t)0xCDCDCDCD;
	for (int i = 0; i < 3 * BN; i++)
		wc[i] = NAN, wci[i] = (int32_t)0xCDCDCDCD;
#define X(i, j) e2e_getf(x, (size_t)(i) * N + (j), t)
	double all = 0, allmax = -INFINITY;
	for (int i = 0; i < M; i++) {
		double s = 0, mx = -INFINITY, mn = INFINITY, ma = 0;
		int amx = 0, amn = 0;
		for (int j = 0; j < N; j++) {
			double v = X(i, j);
			s += v;
			if (v > mx)
				mx = v, amx = j; /* strict: ties keep the smaller index */
			if (v < mn)
				mn = v, amn = j;
			ma = fmax(ma, fabs(v));
		}
		/* masked lanes hold 0 for the sum and maxabs (reduce of |0|); a reduce over one
		 * element never calls the combine function and gives the element itself */
		double row[5] = {s, mx, mn, BN == 1 ? X(i, 0) : ma, mx};
		for (int q = 0; q < 5; q++) {
			wr[q * BM + i] = t == E2E_F32 ? (float)row[q] : row[q];
			wri[q * BM + i] = (int64_t)row[q];
		}
		wx[0 * BM + i] = amx;
		wx[1 * BM + i] = amn;
		wx[2 * BM + i] = amx;
		all += s;
		allmax = fmax(allmax, mx);
	}
	for (int j = 0; j < N; j++) {
		double s = 0, mx = -INFINITY, mn = INFINITY;
		int amx = 0, amn = 0;
		for (int i = 0; i < M; i++) {
			double v = X(i, j);
			s += v;
			if (v > mx)
				mx = v, amx = i;
			if (v < mn)
				mn = v, amn = i;
		}
		double col[3] = {s, mx, mn};
		for (int q = 0; q < 3; q++) {
			wc[q * BN + j] = t == E2E_F32 ? (float)col[q] : col[q];
			wci[q * BN + j] = (int64_t)col[q];
		}
		wx[3 * BM + j] = amx;
		wx[3 * BM + BN + j] = amn;
	}
#undef X
	wt[0] = all, wt[1] = allmax;
	wti[0] = (int64_t)all, wti[1] = (int64_t)allmax;
	e2e_poison(rows, 5 * BM * 4);
	e2e_poison(cols, 3 * BN * 4);
	e2e_poison(idx, (3 * BM + 2 * BN) * 4);
	e2e_poison(tot, 2 * 4);
	if (t == E2E_F32) { /* float poison: NaN, which the NaN expectations match */
		e2e_poison_f32(rows, 5 * BM);
		e2e_poison_f32(cols, 3 * BN);
	}
	void *args[] = {&x, &rows, &cols, &idx, &tot, &M, &N};
	if (!e2e_launch(k, 1, 1, 1, args, 7)) {
		e2e_tol tol = smooth ? (e2e_tol){1e-5 * N, 1e-6} : E2E_EXACT;
		e2e_cmp("rows(sum,max,min,maxabs,keepdims)", rows, t, wr, wri, 5 * BM, tol);
		e2e_cmp("cols(sum,max,min)", cols, t, wc, wci, 3 * BN, tol);
		e2e_cmp("total(sum,max)", tot, t, wt, wti, 2, smooth ? (e2e_tol){1e-5 * M * N, 1e-6} : E2E_EXACT);
		e2e_cmp_int("indices(argmax1,argmin1,maxidx1,argmax0,argmin0)", idx, wx, 3 * BM + 2 * BN, 4, 1);
	}
	free(wr);
	free(wc);
	free(wri);
	free(wci);
	free(wx);
	e2e_end();
}

static void test_scan(const char *variant, e2e_dtype t, int M, int N, uint64_t seed)
{
	e2e_begin("%s M=%d N=%d", variant, M, N);
	tilert_kernel *k = e2e_kernel(variant, "scan2d");
	e2e_rng r = e2e_rng_new(seed);
	size_t mn = (size_t)M * N;
	void *x = e2e_alloc(mn * 4), *out = e2e_alloc(5 * mn * 4);
	fill_ties(&r, x, (int)mn, t, 0);
	double *w = malloc(5 * mn * sizeof(double));
	int64_t *wi = malloc(5 * mn * sizeof(int64_t));
#define X(i, j) e2e_getf(x, (size_t)(i) * N + (j), t)
	for (int i = 0; i < M; i++) {
		double s = 0, m = -INFINITY;
		for (int j = 0; j < N; j++) {
			s += X(i, j);
			m = fmax(m, X(i, j));
			w[0 * mn + (size_t)i * N + j] = s;
			w[3 * mn + (size_t)i * N + j] = m;
		}
		s = 0;
		for (int j = N - 1; j >= 0; j--)
			w[1 * mn + (size_t)i * N + j] = s += X(i, j);
	}
	for (int j = 0; j < N; j++) {
		double s = 0;
		for (int i = 0; i < M; i++)
			w[2 * mn + (size_t)i * N + j] = s += X(i, j);
		s = 0;
		for (int i = M - 1; i >= 0; i--)
			w[4 * mn + (size_t)i * N + j] = s += X(i, j);
	}
#undef X
	for (size_t i = 0; i < 5 * mn; i++)
		wi[i] = (int64_t)w[i];
	if (t == E2E_F32)
		e2e_poison_f32(out, 5 * mn);
	else
		e2e_poison(out, 5 * mn * 4);
	void *args[] = {&x, &out, &M, &N};
	static const char *const names[5] = {"cumsum(axis=1)", "associative_scan(add, axis=1, reverse)",
	                                     "cumsum(axis=0)", "associative_scan(max, axis=1)",
	                                     "cumsum(axis=0, reverse)"};
	if (!e2e_launch(k, 1, 1, 1, args, 4))
		for (int q = 0; q < 5; q++)
			e2e_cmp(names[q], (char *)out + q * mn * 4, t, w + q * mn, wi + q * mn, mn, E2E_EXACT);
	free(w);
	free(wi);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int shapes[][2] = {{1, 1}, {32, 64}, {17, 45}, {5, 64}, {32, 3}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(shapes); i++) {
		E2E_RUN(test_reduce("reduce_fp32", E2E_F32, 32, 64, shapes[i][0], shapes[i][1], 0, 7000 + i));
		E2E_RUN(test_reduce("reduce_i32", E2E_I32, 32, 64, shapes[i][0], shapes[i][1], 0, 7100 + i));
	}
	E2E_RUN(test_reduce("reduce_fp32", E2E_F32, 32, 64, 29, 61, 1, 7200));
	E2E_RUN(test_reduce("reduce_one", E2E_F32, 1, 1, 1, 1, 0, 7201));
	static const int sshapes[][2] = {{1, 1}, {16, 64}, {13, 50}, {16, 7}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(sshapes); i++) {
		E2E_RUN(test_scan("scan_fp32", E2E_F32, sshapes[i][0], sshapes[i][1], 7300 + i));
		E2E_RUN(test_scan("scan_i32", E2E_I32, sshapes[i][0], sshapes[i][1], 7400 + i));
	}
	return e2e_finish();
}
