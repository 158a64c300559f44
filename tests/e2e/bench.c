/* bench.c: the five benchmark kernels (bench/kernels: vadd, softmax fp32, layernorm
 * fp16, matmul fp16 with fp32 accumulation, attention fp16) at their benchmark constexprs
 * but small, awkward problem sizes, each against a float64 reference in C. The "_hint"
 * variants use the exact benchmark signature (":16" on sizes and strides) and run at sizes
 * that honour it. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned cdiv(long a, long b)
{
	return (unsigned)((a + b - 1) / b);
}

/* ---- vadd: out = x + y over n, BLOCK 1024 ------------------------------------------------- */

static void test_vadd(const char *variant, int n, uint64_t seed)
{
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "vadd");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc(n * sizeof(float)), *y = e2e_alloc(n * sizeof(float));
	float *out = e2e_alloc(n * sizeof(float));
	double *ref = malloc(n * sizeof(double));
	e2e_fill_f32(&r, x, n, -100, 100);
	e2e_fill_f32(&r, y, n, -100, 100);
	for (int i = 0; i < n; i++)
		ref[i] = (float)(x[i] + y[i]); /* one fp32 rounding, as the kernel does */
	e2e_poison_f32(out, n);
	void *args[] = {&x, &y, &out, &n};
	if (!e2e_launch(k, cdiv(n, 1024), 1, 1, args, 4))
		e2e_cmp_f32("out", out, ref, n, E2E_EXACT);
	free(ref);
	e2e_end();
}

/* ---- softmax: one row per program, BLOCK 4096 >= n_cols ------------------------------------ */

static void test_softmax(const char *variant, int rows, int cols, int in_stride, int out_stride,
                         uint64_t seed)
{
	e2e_begin("%s rows=%d cols=%d strides=%d,%d", variant, rows, cols, in_stride, out_stride);
	tilert_kernel *k = e2e_kernel(variant, "softmax");
	e2e_rng r = e2e_rng_new(seed);
	size_t nin = (size_t)rows * in_stride, nout = (size_t)rows * out_stride;
	float *in = e2e_alloc(nin * sizeof(float)), *out = e2e_alloc(nout * sizeof(float));
	float *keep = malloc(nout * sizeof(float));
	e2e_fill_f32(&r, in, nin, -8, 8);
	e2e_poison_f32(out, nout);
	for (size_t i = 0; i < nout; i++)
		keep[i] = out[i];
	/* the reference is the whole output buffer: the gaps between rows stay poisoned (NaN) */
	double *ref = malloc(nout * sizeof(double));
	for (size_t i = 0; i < nout; i++)
		ref[i] = NAN;
	for (int i = 0; i < rows; i++) {
		double m = -INFINITY, s = 0;
		for (int j = 0; j < cols; j++)
			m = fmax(m, in[(size_t)i * in_stride + j]);
		for (int j = 0; j < cols; j++)
			s += exp(in[(size_t)i * in_stride + j] - m);
		for (int j = 0; j < cols; j++)
			ref[(size_t)i * out_stride + j] = exp(in[(size_t)i * in_stride + j] - m) / s;
	}
	void *args[] = {&out, &in, &in_stride, &out_stride, &cols};
	if (!e2e_launch(k, (unsigned)rows, 1, 1, args, 5))
		e2e_cmp_f32("out", out, ref, nout, (e2e_tol){1e-9, 2e-5});
	free(keep);
	free(ref);
	e2e_end();
}

/* ---- layernorm: fp16 rows, fp32 statistics, BLOCK 1024 chunks ------------------------------ */

static void test_layernorm(const char *variant, int rows, int cols, int stride, uint64_t seed)
{
	e2e_begin("%s rows=%d n_cols=%d stride=%d", variant, rows, cols, stride);
	tilert_kernel *k = e2e_kernel(variant, "layernorm");
	e2e_rng r = e2e_rng_new(seed);
	size_t n = (size_t)rows * stride;
	uint16_t *x = e2e_alloc(n * 2), *y = e2e_alloc(n * 2);
	uint16_t *w = e2e_alloc(cols * 2), *b = e2e_alloc(cols * 2);
	e2e_fill_f16(&r, x, n, -3, 5);
	e2e_fill_f16(&r, w, cols, 0.5, 1.5);
	e2e_fill_f16(&r, b, cols, -1, 1);
	e2e_poison_f16(y, n);
	float eps = 1e-5f;
	double *ref = malloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		ref[i] = NAN;
	for (int i = 0; i < rows; i++) {
		const uint16_t *xr = x + (size_t)i * stride;
		double mean = 0, var = 0;
		for (int j = 0; j < cols; j++)
			mean += e2e_h2f(xr[j]);
		mean /= cols;
		for (int j = 0; j < cols; j++)
			var += (e2e_h2f(xr[j]) - mean) * (e2e_h2f(xr[j]) - mean);
		double rstd = 1 / sqrt(var / cols + eps);
		for (int j = 0; j < cols; j++)
			ref[(size_t)i * stride + j] =
			    (e2e_h2f(xr[j]) - mean) * rstd * e2e_h2f(w[j]) + e2e_h2f(b[j]);
	}
	void *args[] = {&x, &y, &w, &b, &stride, &cols, &eps};
	if (!e2e_launch(k, (unsigned)rows, 1, 1, args, 7))
		e2e_cmp_f16("y", y, ref, n, (e2e_tol){2e-3, 2e-3});
	free(ref);
	e2e_end();
}

/* ---- matmul: C[M,N] = A[M,K] B[K,N], fp16 in and out, fp32 accumulation -------------------- */

static void test_matmul(const char *variant, int M, int N, int K, int lda, int ldb, int ldc,
                        uint64_t seed)
{
	e2e_begin("%s M=%d N=%d K=%d lda=%d ldb=%d ldc=%d", variant, M, N, K, lda, ldb, ldc);
	tilert_kernel *k = e2e_kernel(variant, "matmul");
	e2e_rng r = e2e_rng_new(seed);
	uint16_t *a = e2e_alloc((size_t)M * lda * 2), *b = e2e_alloc((size_t)K * ldb * 2);
	uint16_t *c = e2e_alloc((size_t)M * ldc * 2);
	e2e_fill_f16(&r, a, (size_t)M * lda, -1, 1);
	e2e_fill_f16(&r, b, (size_t)K * ldb, -1, 1);
	e2e_poison_f16(c, (size_t)M * ldc);
	double *ref = malloc((size_t)M * ldc * sizeof(double));
	for (size_t i = 0; i < (size_t)M * ldc; i++)
		ref[i] = NAN;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int p = 0; p < K; p++)
				s += (double)e2e_h2f(a[(size_t)i * lda + p]) * e2e_h2f(b[(size_t)p * ldb + j]);
			ref[(size_t)i * ldc + j] = s;
		}
	int one = 1;
	void *args[] = {&a, &b, &c, &M, &N, &K, &lda, &one, &ldb, &one, &ldc, &one};
	unsigned grid = cdiv(M, 128) * cdiv(N, 128);
	if (!e2e_launch(k, grid, 1, 1, args, 12))
		e2e_cmp_f16("c", c, ref, (size_t)M * ldc, (e2e_tol){K * 2e-5, 1.5e-3});
	free(ref);
	e2e_end();
}

/* ---- attention: q, k, v, o [BH, S, 64] fp16, online softmax over 64-key blocks ------------- */

static void test_attention(const char *variant, int bh, int S, uint64_t seed)
{
	enum { D = 64 };
	e2e_begin("%s BH=%d seq_len=%d D=%d", variant, bh, S, D);
	tilert_kernel *k = e2e_kernel(variant, "attention");
	e2e_rng r = e2e_rng_new(seed);
	size_t n = (size_t)bh * S * D;
	uint16_t *q = e2e_alloc(n * 2), *kk = e2e_alloc(n * 2), *v = e2e_alloc(n * 2);
	uint16_t *o = e2e_alloc(n * 2);
	e2e_fill_f16(&r, q, n, -1, 1);
	e2e_fill_f16(&r, kk, n, -1, 1);
	e2e_fill_f16(&r, v, n, -1, 1);
	e2e_poison_f16(o, n);
	float sm_scale = 0.125f * 2; /* larger than 1/sqrt(D), for a peakier softmax */
	int stride_h = S * D, stride_s = D;
	double *ref = malloc(n * sizeof(double)), *p = malloc(S * sizeof(double));
	for (int h = 0; h < bh; h++)
		for (int i = 0; i < S; i++) {
			const uint16_t *qi = q + (size_t)h * stride_h + (size_t)i * D;
			double m = -INFINITY, l = 0;
			for (int j = 0; j < S; j++) {
				const uint16_t *kj = kk + (size_t)h * stride_h + (size_t)j * D;
				double s = 0;
				for (int d = 0; d < D; d++)
					s += (double)e2e_h2f(qi[d]) * e2e_h2f(kj[d]);
				p[j] = s * sm_scale;
				m = fmax(m, p[j]);
			}
			for (int j = 0; j < S; j++)
				l += p[j] = exp(p[j] - m);
			for (int d = 0; d < D; d++) {
				double acc = 0;
				for (int j = 0; j < S; j++)
					acc += p[j] * e2e_h2f(v[(size_t)h * stride_h + (size_t)j * D + d]);
				ref[(size_t)h * stride_h + (size_t)i * D + d] = acc / l;
			}
		}
	void *args[] = {&q, &kk, &v, &o, &S, &sm_scale, &stride_h, &stride_s};
	if (!e2e_launch(k, cdiv(S, 128), (unsigned)bh, 1, args, 8))
		e2e_cmp_f16("o", o, ref, n, (e2e_tol){2e-3, 4e-3});
	free(ref);
	free(p);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int vadd_n[] = {1, 17, 1023, 1024, 1025, 100003};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(vadd_n); i++)
		E2E_RUN(test_vadd("vadd", vadd_n[i], 100 + i));
	E2E_RUN(test_vadd("vadd_hint", 16, 110));
	E2E_RUN(test_vadd("vadd_hint", 4112, 111));

	E2E_RUN(test_softmax("softmax", 3, 1, 1, 2, 200));
	E2E_RUN(test_softmax("softmax", 5, 3, 7, 3, 201));
	E2E_RUN(test_softmax("softmax", 4, 1000, 1003, 1000, 202));
	E2E_RUN(test_softmax("softmax", 2, 4096, 4096, 4099, 203));
	E2E_RUN(test_softmax("softmax_hint", 3, 1008, 1024, 1008, 204));
	E2E_RUN(test_softmax("softmax_hint", 2, 4096, 4096, 4096, 205));

	static const int ln_cols[] = {1, 7, 1000, 1024, 3001};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(ln_cols); i++)
		E2E_RUN(test_layernorm("layernorm", 3, ln_cols[i], ln_cols[i] + 3, 300 + i));
	E2E_RUN(test_layernorm("layernorm_hint", 2, 2064, 2080, 310));

	E2E_RUN(test_matmul("matmul", 1, 1, 1, 1, 1, 1, 400));
	E2E_RUN(test_matmul("matmul", 17, 33, 65, 65, 33, 33, 401));
	E2E_RUN(test_matmul("matmul", 128, 128, 64, 64, 128, 128, 402));
	E2E_RUN(test_matmul("matmul", 130, 255, 97, 99, 257, 256, 403));
	E2E_RUN(test_matmul("matmul_hint", 128, 128, 64, 64, 128, 128, 404));
	E2E_RUN(test_matmul("matmul_hint", 144, 160, 80, 96, 176, 160, 405));
	/* many K steps: the pipeline's ring of 3 slots wraps around, and the last copies
	 * (past the end, predicated off) land in slots nobody reads */
	E2E_RUN(test_matmul("matmul", 70, 140, 1000, 1003, 141, 140, 410));
	E2E_RUN(test_matmul("matmul_hint", 128, 256, 704, 704, 256, 256, 411));
	E2E_RUN(test_matmul("matmul_hint_w8", 144, 160, 80, 96, 176, 160, 414));
	E2E_RUN(test_matmul("matmul_hint_w8", 128, 256, 704, 704, 256, 256, 415));

	E2E_RUN(test_attention("attention", 2, 1, 500));
	E2E_RUN(test_attention("attention", 2, 65, 501));
	E2E_RUN(test_attention("attention", 1, 200, 502));
	E2E_RUN(test_attention("attention_hint", 2, 144, 503));

	/* the sm_90a cubins (wgmma); elsewhere the same kernels again */
	E2E_RUN(test_matmul("matmul_wgmma", 128, 128, 64, 64, 128, 128, 406));
	E2E_RUN(test_matmul("matmul_wgmma", 144, 160, 80, 96, 176, 160, 407));
	E2E_RUN(test_matmul("matmul_wgmma_w8", 256, 128, 192, 192, 128, 128, 408));
	E2E_RUN(test_matmul("matmul_wgmma_w8", 144, 160, 80, 96, 176, 160, 409));
	E2E_RUN(test_matmul("matmul_wgmma", 128, 256, 704, 704, 256, 256, 412));
	E2E_RUN(test_matmul("matmul_wgmma", 80, 144, 1008, 1008, 144, 144, 413));
	E2E_RUN(test_attention("attention_wgmma", 2, 144, 504));
	E2E_RUN(test_attention("attention_wgmma", 1, 208, 505));
	E2E_RUN(test_attention("attention_wgmma_w4", 2, 144, 506));
	return e2e_finish();
}
