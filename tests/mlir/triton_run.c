/* triton_run.c: Triton's own TTIR of its tutorials 01, 02, 03, 04 (_dropout) and 05, and of
 * the bench kernels (tests/mlir/triton_ttir.py writes both), compiled
 * by tilecc for the host, run against float64 references (issue 14: "TTIR that Triton 3.6
 * writes ... compiles with tilecc to x86-64 and sm_90, and the results are correct").
 *
 * The cases are those of tests/gpu/tutorials.py, at the same sizes: that script, run on the
 * GPU machine with TUTORIALS_TTIR_OUT=DIR, writes the TTIR Triton compiled for each case as
 * DIR/NAME-cI.ttir (NAME: the tutorials.tsv row, I: the case's index), specialized for that
 * case's arguments. tests/mlir/triton.cmake compiles each to NAME-cI.so and runs
 *
 *   mlir_triton_run DIR/NAME-cI.so ...
 *
 * A case whose kernels are not among the arguments is listed as skipped. Triton specialized
 * the int arguments equal to 1 away (they are not parameters of its TTIR), so the launches
 * here leave them out as its launcher does. Inputs are random, outputs poisoned first. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

static int g_argc;
static char **g_argv;

/* Whether NAME.so is among the arguments. */
static int have(const char *name)
{
	size_t n = strlen(name);
	for (int i = 1; i < g_argc; i++) {
		const char *b = strrchr(g_argv[i], '/');
		b = b ? b + 1 : g_argv[i];
		if (!strncmp(b, name, n) && !strcmp(b + n, ".so"))
			return 1;
	}
	return 0;
}

/* ---- arguments as Triton's launcher passes them ------------------------------------------- */

typedef struct arglist {
	void *slot[24];
	void *ptr[24];
	int32_t i32[24];
	float f32[24];
	size_t n;
} arglist;

static void arg_ptr(arglist *a, void *p)
{
	a->ptr[a->n] = p;
	a->slot[a->n] = &a->ptr[a->n];
	a->n++;
}

/* an i32 argument; one equal to 1 is not a parameter of Triton's TTIR */
static void arg_int(arglist *a, int32_t v)
{
	if (v == 1)
		return;
	a->i32[a->n] = v;
	a->slot[a->n] = &a->i32[a->n];
	a->n++;
}

static void arg_f32(arglist *a, float v)
{
	a->f32[a->n] = v;
	a->slot[a->n] = &a->f32[a->n];
	a->n++;
}

static tilert_kernel *kernel(const char *row, int cas, const char *name)
{
	char v[96];
	snprintf(v, sizeof v, "%s-c%d", row, cas);
	return e2e_kernel(v, name);
}

/* max |got - ref| / (1 + |ref|) over n values (NaN: infinite), checked against tol */
static void close_to(const char *what, const double *got, const double *ref, size_t n, double tol)
{
	double worst = 0.0;
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		double d = fabs(got[i] - ref[i]) / (1.0 + fabs(ref[i]));
		if (isnan(d))
			d = INFINITY;
		if (d > worst)
			worst = d, at = i;
	}
	if (!(worst <= tol))
		e2e_fail("%s: error %.3g at [%zu] (got %g, want %g), tolerance %g", what, worst, at,
			 got[at], ref[at], tol);
}

static double *doubles(size_t n)
{
	return e2e_alloc(sizeof(double) * (n ? n : 1));
}

static void f16_to_double(const uint16_t *h, double *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = e2e_h2f(h[i]);
}

static void f32_to_double(const float *f, double *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = f[i];
}

/* softmax of each of the rows of x (rows x n, fp32), in float64 */
static void softmax_ref(const float *x, int32_t rows, int32_t n, double *want)
{
	for (int32_t i = 0; i < rows; i++) {
		const float *row = x + (size_t)i * (size_t)n;
		double m = -INFINITY, sum = 0.0;
		for (int32_t j = 0; j < n; j++)
			m = fmax(m, row[j]);
		for (int32_t j = 0; j < n; j++)
			sum += exp(row[j] - m);
		for (int32_t j = 0; j < n; j++)
			want[(size_t)i * (size_t)n + (size_t)j] = exp(row[j] - m) / sum;
	}
}

/* A (M x K) times B (K x N), row-major fp16 (bf16 when bf16), in float64 */
static void matmul_ref(const uint16_t *A, const uint16_t *B, int32_t M, int32_t N, int32_t K, int bf16,
		       double *want)
{
	for (int32_t i = 0; i < M; i++)
		for (int32_t j = 0; j < N; j++) {
			double sum = 0.0;
			for (int32_t l = 0; l < K; l++) {
				uint16_t ea = A[(size_t)i * (size_t)K + (size_t)l], eb = B[(size_t)l * (size_t)N + (size_t)j];
				sum += (double)(bf16 ? e2e_bf2f(ea) : e2e_h2f(ea)) * (bf16 ? e2e_bf2f(eb) : e2e_h2f(eb));
			}
			want[(size_t)i * (size_t)N + (size_t)j] = sum;
		}
}

/* ---- 01: add_kernel ----------------------------------------------------------------------- */

static void vector_add(int cas, int32_t n)
{
	e2e_begin("01 add_kernel n=%d (Triton's TTIR)", n);
	tilert_kernel *k = kernel("add", cas, "add_kernel");
	e2e_rng r = e2e_rng_new((uint64_t)n);
	float *x = e2e_alloc(sizeof *x * (size_t)n), *y = e2e_alloc(sizeof *y * (size_t)n);
	float *out = e2e_alloc(sizeof *out * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, 0.0, 1.0);
	e2e_fill_f32(&r, y, (size_t)n, 0.0, 1.0);
	e2e_poison_f32(out, (size_t)n);
	arglist a = {0};
	arg_ptr(&a, x), arg_ptr(&a, y), arg_ptr(&a, out), arg_int(&a, n);
	if (k && !e2e_launch(k, (unsigned)((n + 1023) / 1024), 1, 1, a.slot, a.n)) {
		double *want = doubles((size_t)n);
		for (int32_t i = 0; i < n; i++)
			want[i] = (double)(x[i] + y[i]);
		e2e_cmp_f32("out", out, want, (size_t)n, E2E_EXACT);
	}
	e2e_end();
}

/* ---- 02: softmax_kernel (a persistent loop over rows) ------------------------------------- */

static void fused_softmax(int cas, int32_t M, int32_t N, unsigned programs)
{
	e2e_begin("02 softmax_kernel %dx%d, %u programs (Triton's TTIR)", M, N, programs);
	tilert_kernel *k = kernel("softmax", cas, "softmax_kernel");
	e2e_rng r = e2e_rng_new((uint64_t)(M + N));
	size_t mn = (size_t)M * (size_t)N;
	float *x = e2e_alloc(sizeof *x * mn), *y = e2e_alloc(sizeof *y * mn);
	e2e_fill_f32(&r, x, mn, -4.0, 4.0);
	e2e_poison_f32(y, mn);
	arglist a = {0};
	arg_ptr(&a, y), arg_ptr(&a, x), arg_int(&a, N), arg_int(&a, N), arg_int(&a, M), arg_int(&a, N);
	if (k && !e2e_launch(k, programs, 1, 1, a.slot, a.n)) {
		double *want = doubles(mn), *got = doubles(mn);
		softmax_ref(x, M, N, want);
		f32_to_double(y, got, mn);
		close_to("y", got, want, mn, 1e-6);
	}
	e2e_end();
}

/* ---- 03: matmul_kernel (fp16, row-major, grouped programs) -------------------------------- */

static void matmul(int cas, const char *row, int32_t M, int32_t N, int32_t K, int bm, int bn,
		   int leaky)
{
	e2e_begin("03 matmul_kernel %s %dx%dx%d (Triton's TTIR)", leaky ? "leaky_relu" : "", M, N, K);
	tilert_kernel *k = kernel(row, cas, "matmul_kernel");
	e2e_rng r = e2e_rng_new((uint64_t)M * (uint64_t)N + (uint64_t)K);
	uint16_t *A = e2e_alloc(2 * (size_t)M * (size_t)K), *B = e2e_alloc(2 * (size_t)K * (size_t)N);
	uint16_t *C = e2e_alloc(2 * (size_t)M * (size_t)N);
	e2e_fill_f16(&r, A, (size_t)M * (size_t)K, -2.0, 2.0);
	e2e_fill_f16(&r, B, (size_t)K * (size_t)N, -2.0, 2.0);
	e2e_poison_f16(C, (size_t)M * (size_t)N);
	arglist a = {0};
	arg_ptr(&a, A), arg_ptr(&a, B), arg_ptr(&a, C);
	arg_int(&a, M), arg_int(&a, N), arg_int(&a, K);
	arg_int(&a, K), arg_int(&a, 1), arg_int(&a, N), arg_int(&a, 1), arg_int(&a, N), arg_int(&a, 1);
	unsigned grid = (unsigned)(((M + bm - 1) / bm) * ((N + bn - 1) / bn));
	if (k && !e2e_launch(k, grid, 1, 1, a.slot, a.n)) {
		size_t mn = (size_t)M * (size_t)N;
		double *want = doubles(mn), *got = doubles(mn);
		matmul_ref(A, B, M, N, K, 0, want);
		for (size_t i = 0; leaky && i < mn; i++)
			want[i] = want[i] < 0 ? 0.01 * want[i] : want[i];
		f16_to_double(C, got, mn);
		close_to("c", got, want, mn, 2e-3);
	}
	e2e_end();
}

/* ---- 04: _dropout (the mask given) -------------------------------------------------------- */

static void dropout(int cas, int32_t n, float p)
{
	e2e_begin("04 _dropout n=%d p=%g (Triton's TTIR)", n, p);
	tilert_kernel *k = kernel("dropout", cas, "_dropout");
	e2e_rng r = e2e_rng_new((uint64_t)n * 3u);
	float *x = e2e_alloc(sizeof *x * (size_t)n), *out = e2e_alloc(sizeof *out * (size_t)n);
	int32_t *keep = e2e_alloc(sizeof *keep * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, -3.0, 3.0);
	for (int32_t i = 0; i < n; i++)
		keep[i] = e2e_uniform(&r, 0.0, 1.0) > p;
	e2e_poison_f32(out, (size_t)n);
	arglist a = {0};
	arg_ptr(&a, x), arg_ptr(&a, keep), arg_ptr(&a, out), arg_int(&a, n), arg_f32(&a, p);
	if (k && !e2e_launch(k, (unsigned)((n + 1023) / 1024), 1, 1, a.slot, a.n)) {
		double *want = doubles((size_t)n), *got = doubles((size_t)n);
		for (int32_t i = 0; i < n; i++)
			want[i] = keep[i] ? (double)x[i] / (1.0 - (double)p) : 0.0;
		f32_to_double(out, got, (size_t)n);
		close_to("out", got, want, (size_t)n, 1e-6);
	}
	e2e_end();
}

/* ---- 05: layer norm, forward and backward ------------------------------------------------- */

static void layer_norm(int cas, int32_t M, int32_t N)
{
	const char *tag = N == 8192 ? "8192" : "1000";
	int32_t group = N > 8192 ? 64 : N > 4096 ? 96 : N > 1024 ? 128 : 256;
	char fwd[32], dx[32];
	snprintf(fwd, sizeof fwd, "ln_fwd_%s", tag);
	snprintf(dx, sizeof dx, "ln_bwd_dx_%s", tag);
	e2e_begin("05 layer norm fwd+bwd %dx%d fp16 (Triton's TTIR)", M, N);
	tilert_kernel *kf = kernel(fwd, cas, "_layer_norm_fwd_fused");
	tilert_kernel *kdx = kernel(dx, cas, "_layer_norm_bwd_dx_fused");
	tilert_kernel *kdw = kernel("ln_bwd_dwdb", cas, "_layer_norm_bwd_dwdb");
	e2e_rng r = e2e_rng_new((uint64_t)M * 7u + (uint64_t)N);
	size_t mn = (size_t)M * (size_t)N, gn = (size_t)group * (size_t)N;
	uint16_t *x = e2e_alloc(2 * mn), *y = e2e_alloc(2 * mn), *dy = e2e_alloc(2 * mn);
	uint16_t *dxo = e2e_alloc(2 * mn), *w = e2e_alloc(2 * (size_t)N), *b = e2e_alloc(2 * (size_t)N);
	uint16_t *pdw = e2e_alloc(2 * gn), *pdb = e2e_alloc(2 * gn);
	uint16_t *dw = e2e_alloc(2 * (size_t)N), *db = e2e_alloc(2 * (size_t)N);
	float *mean = e2e_alloc(sizeof(float) * (size_t)M), *rstd = e2e_alloc(sizeof(float) * (size_t)M);
	int32_t *locks = e2e_alloc(sizeof(int32_t) * 2 * (size_t)group);
	float eps = 1e-5f;
	e2e_fill_f16(&r, x, mn, -3.3, -1.3);
	e2e_fill_f16(&r, w, (size_t)N, 0.0, 1.0);
	e2e_fill_f16(&r, b, (size_t)N, 0.0, 1.0);
	e2e_fill_f16(&r, dy, mn, -0.2, 0.2);
	e2e_poison_f16(y, mn);
	e2e_poison_f32(mean, (size_t)M);
	e2e_poison_f32(rstd, (size_t)M);
	arglist a = {0};
	arg_ptr(&a, x), arg_ptr(&a, y), arg_ptr(&a, w), arg_ptr(&a, b), arg_ptr(&a, mean),
	    arg_ptr(&a, rstd), arg_int(&a, N), arg_int(&a, N), arg_f32(&a, eps);
	if (!kf || !kdx || !kdw || e2e_launch(kf, (unsigned)M, 1, 1, a.slot, a.n))
		goto out;
	/* the references: mean, rstd, y; dx, dw, db from them (float64) */
	double *mref = doubles((size_t)M), *rref = doubles((size_t)M), *yref = doubles(mn);
	double *dxref = doubles(mn), *dwref = doubles((size_t)N), *dbref = doubles((size_t)N);
	double *got = doubles(mn);
	memset(dwref, 0, sizeof(double) * (size_t)N);
	memset(dbref, 0, sizeof(double) * (size_t)N);
	for (int32_t i = 0; i < M; i++) {
		const uint16_t *xr = x + (size_t)i * (size_t)N, *dyr = dy + (size_t)i * (size_t)N;
		double s = 0.0, v = 0.0, c1 = 0.0, c2 = 0.0;
		for (int32_t j = 0; j < N; j++)
			s += e2e_h2f(xr[j]);
		double m = s / N;
		for (int32_t j = 0; j < N; j++)
			v += (e2e_h2f(xr[j]) - m) * (e2e_h2f(xr[j]) - m);
		double rs = 1.0 / sqrt(v / N + (double)eps);
		mref[i] = m, rref[i] = rs;
		for (int32_t j = 0; j < N; j++) {
			double xh = (e2e_h2f(xr[j]) - m) * rs, wdy = e2e_h2f(w[j]) * (double)e2e_h2f(dyr[j]);
			yref[(size_t)i * (size_t)N + (size_t)j] = xh * e2e_h2f(w[j]) + e2e_h2f(b[j]);
			c1 += xh * wdy, c2 += wdy;
		}
		c1 /= N, c2 /= N;
		for (int32_t j = 0; j < N; j++) {
			double xh = (e2e_h2f(xr[j]) - m) * rs, wdy = e2e_h2f(w[j]) * (double)e2e_h2f(dyr[j]);
			dxref[(size_t)i * (size_t)N + (size_t)j] = (wdy - (xh * c1 + c2)) * rs;
			dwref[j] += e2e_h2f(dyr[j]) * xh;
			dbref[j] += e2e_h2f(dyr[j]);
		}
	}
	f16_to_double(y, got, mn);
	close_to("y", got, yref, mn, 2e-3);
	f32_to_double(mean, got, (size_t)M);
	close_to("mean", got, mref, (size_t)M, 1e-4);
	f32_to_double(rstd, got, (size_t)M);
	close_to("rstd", got, rref, (size_t)M, 1e-4);
	/* backward: dx and the partial sums of each group of rows under its lock, then dw, db */
	memset(locks, 0, sizeof(int32_t) * 2 * (size_t)group);
	e2e_poison_f16(dxo, mn);
	e2e_poison_f16(pdw, gn);
	e2e_poison_f16(pdb, gn);
	e2e_poison_f16(dw, (size_t)N);
	e2e_poison_f16(db, (size_t)N);
	arglist d = {0};
	arg_ptr(&d, dxo), arg_ptr(&d, dy), arg_ptr(&d, pdw), arg_ptr(&d, pdb), arg_ptr(&d, x),
	    arg_ptr(&d, w), arg_ptr(&d, mean), arg_ptr(&d, rstd), arg_ptr(&d, locks),
	    arg_int(&d, N), arg_int(&d, N);
	if (e2e_launch(kdx, (unsigned)M, 1, 1, d.slot, d.n))
		goto out;
	arglist s = {0};
	arg_ptr(&s, pdw), arg_ptr(&s, pdb), arg_ptr(&s, dw), arg_ptr(&s, db),
	    arg_int(&s, M < group ? M : group), arg_int(&s, N);
	if (e2e_launch(kdw, (unsigned)((N + 127) / 128), 1, 1, s.slot, s.n))
		goto out;
	f16_to_double(dxo, got, mn);
	close_to("dx", got, dxref, mn, 2e-3);
	f16_to_double(dw, got, (size_t)N);
	close_to("dw", got, dwref, (size_t)N, 5e-2);
	f16_to_double(db, got, (size_t)N);
	close_to("db", got, dbref, (size_t)N, 5e-2);
out:
	e2e_end();
}

/* ---- the bench kernels (tests/mlir/triton_ttir.py bench: NAME.ttir) ---------------------- *
 * At signatures.tsv's specializations, so every integer argument is a multiple of 16 (and the
 * strides marked :1 are 1); the sizes are small ones that are not multiples of the blocks. */

static void bench_vadd(int32_t n)
{
	e2e_begin("bench vadd n=%d (Triton's TTIR)", n);
	tilert_kernel *k = e2e_kernel("vadd", "vadd");
	e2e_rng r = e2e_rng_new(11);
	float *x = e2e_alloc(sizeof *x * (size_t)n), *y = e2e_alloc(sizeof *y * (size_t)n);
	float *out = e2e_alloc(sizeof *out * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, -10.0, 10.0);
	e2e_fill_f32(&r, y, (size_t)n, -10.0, 10.0);
	e2e_poison_f32(out, (size_t)n);
	arglist a = {0};
	arg_ptr(&a, x), arg_ptr(&a, y), arg_ptr(&a, out), arg_int(&a, n);
	if (k && !e2e_launch(k, (unsigned)((n + 1023) / 1024), 1, 1, a.slot, a.n)) {
		double *want = doubles((size_t)n);
		for (int32_t i = 0; i < n; i++)
			want[i] = (double)(x[i] + y[i]);
		e2e_cmp_f32("out", out, want, (size_t)n, E2E_EXACT);
	}
	e2e_end();
}

static void bench_softmax(int32_t rows, int32_t n)
{
	e2e_begin("bench softmax %dx%d (Triton's TTIR)", rows, n);
	tilert_kernel *k = e2e_kernel("softmax", "softmax");
	e2e_rng r = e2e_rng_new(12);
	size_t mn = (size_t)rows * (size_t)n;
	float *x = e2e_alloc(sizeof *x * mn), *y = e2e_alloc(sizeof *y * mn);
	e2e_fill_f32(&r, x, mn, -6.0, 6.0);
	e2e_poison_f32(y, mn);
	arglist a = {0};
	arg_ptr(&a, y), arg_ptr(&a, x), arg_int(&a, n), arg_int(&a, n), arg_int(&a, n);
	if (k && !e2e_launch(k, (unsigned)rows, 1, 1, a.slot, a.n)) {
		double *want = doubles(mn), *got = doubles(mn);
		softmax_ref(x, rows, n, want);
		f32_to_double(y, got, mn);
		close_to("y", got, want, mn, 1e-6);
	}
	e2e_end();
}

static void bench_layernorm(int32_t rows, int32_t n)
{
	e2e_begin("bench layernorm %dx%d fp16 (Triton's TTIR)", rows, n);
	tilert_kernel *k = e2e_kernel("layernorm", "layernorm");
	e2e_rng r = e2e_rng_new(13);
	size_t mn = (size_t)rows * (size_t)n;
	uint16_t *x = e2e_alloc(2 * mn), *y = e2e_alloc(2 * mn);
	uint16_t *w = e2e_alloc(2 * (size_t)n), *b = e2e_alloc(2 * (size_t)n);
	e2e_fill_f16(&r, x, mn, -3.0, 3.0);
	e2e_fill_f16(&r, w, (size_t)n, 0.5, 1.5);
	e2e_fill_f16(&r, b, (size_t)n, -1.0, 1.0);
	e2e_poison_f16(y, mn);
	arglist a = {0};
	arg_ptr(&a, x), arg_ptr(&a, y), arg_ptr(&a, w), arg_ptr(&a, b), arg_int(&a, n), arg_int(&a, n),
	    arg_f32(&a, 1e-5f);
	if (k && !e2e_launch(k, (unsigned)rows, 1, 1, a.slot, a.n)) {
		double *want = doubles(mn), *got = doubles(mn);
		for (int32_t i = 0; i < rows; i++) {
			const uint16_t *xr = x + (size_t)i * (size_t)n;
			double m = 0.0, v = 0.0;
			for (int32_t j = 0; j < n; j++)
				m += e2e_h2f(xr[j]);
			m /= n;
			for (int32_t j = 0; j < n; j++)
				v += (e2e_h2f(xr[j]) - m) * (e2e_h2f(xr[j]) - m);
			double rs = 1.0 / sqrt(v / n + 1e-5);
			for (int32_t j = 0; j < n; j++)
				want[(size_t)i * (size_t)n + (size_t)j] =
				    (e2e_h2f(xr[j]) - m) * rs * e2e_h2f(w[j]) + e2e_h2f(b[j]);
		}
		f16_to_double(y, got, mn);
		close_to("y", got, want, mn, 2e-3);
	}
	e2e_end();
}

/* matmul: Triton's TTIR has 9 parameters (the strides equal to 1 are constants) */
static void bench_matmul(const char *variant, int bf16, int32_t M, int32_t N, int32_t K)
{
	e2e_begin("bench matmul %s %dx%dx%d (Triton's TTIR)", bf16 ? "bf16" : "fp16", M, N, K);
	tilert_kernel *k = e2e_kernel(variant, "matmul");
	e2e_rng r = e2e_rng_new(14);
	size_t mk = (size_t)M * (size_t)K, kn = (size_t)K * (size_t)N, mn = (size_t)M * (size_t)N;
	uint16_t *A = e2e_alloc(2 * mk), *B = e2e_alloc(2 * kn), *C = e2e_alloc(2 * mn);
	/* integer values in [-2, 2]: the fp32 sums are exact */
	for (size_t i = 0; i < mk; i++)
		A[i] = bf16 ? e2e_f2bf((float)e2e_randint(&r, -2, 2)) : e2e_f2h((float)e2e_randint(&r, -2, 2));
	for (size_t i = 0; i < kn; i++)
		B[i] = bf16 ? e2e_f2bf((float)e2e_randint(&r, -2, 2)) : e2e_f2h((float)e2e_randint(&r, -2, 2));
	bf16 ? e2e_poison_bf16(C, mn) : e2e_poison_f16(C, mn);
	arglist a = {0};
	arg_ptr(&a, A), arg_ptr(&a, B), arg_ptr(&a, C), arg_int(&a, M), arg_int(&a, N), arg_int(&a, K);
	arg_int(&a, K), arg_int(&a, 1), arg_int(&a, N), arg_int(&a, 1), arg_int(&a, N), arg_int(&a, 1);
	unsigned grid = (unsigned)(((M + 127) / 128) * ((N + 127) / 128));
	if (k && !e2e_launch(k, grid, 1, 1, a.slot, a.n)) {
		double *want = doubles(mn), *got = doubles(mn);
		matmul_ref(A, B, M, N, K, bf16, want);
		for (size_t i = 0; i < mn; i++)
			got[i] = bf16 ? e2e_bf2f(C[i]) : e2e_h2f(C[i]);
		close_to("c", got, want, mn, bf16 ? 8e-3 : 1e-3);
	}
	e2e_end();
}

static void bench_attention(const char *variant, int32_t D, int32_t bh, int32_t S)
{
	e2e_begin("bench attention D%d %dx%d (Triton's TTIR)", D, bh, S);
	tilert_kernel *k = e2e_kernel(variant, "attention");
	e2e_rng r = e2e_rng_new(15);
	size_t n = (size_t)bh * (size_t)S * (size_t)D;
	uint16_t *q = e2e_alloc(2 * n), *kk = e2e_alloc(2 * n), *v = e2e_alloc(2 * n), *o = e2e_alloc(2 * n);
	e2e_fill_f16(&r, q, n, -1.0, 1.0);
	e2e_fill_f16(&r, kk, n, -1.0, 1.0);
	e2e_fill_f16(&r, v, n, -1.0, 1.0);
	e2e_poison_f16(o, n);
	float scale = 1.0f / sqrtf((float)D);
	arglist a = {0};
	arg_ptr(&a, q), arg_ptr(&a, kk), arg_ptr(&a, v), arg_ptr(&a, o), arg_int(&a, S), arg_f32(&a, scale),
	    arg_int(&a, S * D), arg_int(&a, D);
	if (k && !e2e_launch(k, (unsigned)((S + 127) / 128), (unsigned)bh, 1, a.slot, a.n)) {
		double *want = doubles(n), *got = doubles(n), *p = doubles((size_t)S);
		for (int32_t h = 0; h < bh; h++)
			for (int32_t i = 0; i < S; i++) {
				const uint16_t *qi = q + ((size_t)h * (size_t)S + (size_t)i) * (size_t)D;
				double m = -INFINITY, l = 0.0;
				for (int32_t j = 0; j < S; j++) {
					const uint16_t *kj = kk + ((size_t)h * (size_t)S + (size_t)j) * (size_t)D;
					double dot = 0.0;
					for (int32_t d = 0; d < D; d++)
						dot += (double)e2e_h2f(qi[d]) * e2e_h2f(kj[d]);
					p[j] = dot * scale;
					m = fmax(m, p[j]);
				}
				for (int32_t j = 0; j < S; j++)
					l += (p[j] = exp(p[j] - m));
				for (int32_t d = 0; d < D; d++) {
					double acc = 0.0;
					for (int32_t j = 0; j < S; j++)
						acc += p[j] * e2e_h2f(v[((size_t)h * (size_t)S + (size_t)j) * (size_t)D + (size_t)d]);
					want[((size_t)h * (size_t)S + (size_t)i) * (size_t)D + (size_t)d] = acc / l;
				}
			}
		f16_to_double(o, got, n);
		close_to("o", got, want, n, 1e-2);
	}
	e2e_end();
}

/* ---- the cases of tests/gpu/tutorials.py, by index ---------------------------------------- */

int main(int argc, char **argv)
{
	g_argc = argc, g_argv = argv;
	e2e_init(argc, argv);
	static const struct {
		int cas;
		const char *need[3];
	} cases[] = {
	    {0, {"add-c0"}},          {1, {"add-c1"}},          {2, {"add-c2"}},
	    {3, {"softmax-c3"}},      {4, {"softmax-c4"}},      {5, {"matmul_leaky-c5"}},
	    {6, {"matmul_plain-c6"}}, {7, {"dropout-c7"}},      {8, {"dropout-c8"}},
	    {9, {"ln_fwd_8192-c9", "ln_bwd_dx_8192-c9", "ln_bwd_dwdb-c9"}},
	    {10, {"ln_fwd_1000-c10", "ln_bwd_dx_1000-c10", "ln_bwd_dwdb-c10"}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int c = cases[i].cas, ok = 1;
		for (int j = 0; j < 3 && cases[i].need[j]; j++)
			ok &= have(cases[i].need[j]);
		if (!ok) {
			char what[32];
			snprintf(what, sizeof what, "case %d", c);
			e2e_skip(what, "no kernel compiled from Triton's TTIR for it");
			continue;
		}
		switch (c) {
		case 0: E2E_RUN(vector_add(c, 98432)); break;
		case 1: E2E_RUN(vector_add(c, 1)); break;
		case 2: E2E_RUN(vector_add(c, 1000003)); break;
		case 3: E2E_RUN(fused_softmax(c, 1823, 781, 264)); break;
		case 4: E2E_RUN(fused_softmax(c, 7, 1000, 132)); break;
		case 5: E2E_RUN(matmul(c, "matmul_leaky", 333, 517, 259, 64, 64, 1)); break;
		case 6: E2E_RUN(matmul(c, "matmul_plain", 512, 512, 512, 128, 128, 0)); break;
		case 7: E2E_RUN(dropout(c, 98427, 0.5f)); break;
		case 8: E2E_RUN(dropout(c, 1, 0.25f)); break;
		case 9: E2E_RUN(layer_norm(c, 1151, 8192)); break;
		case 10: E2E_RUN(layer_norm(c, 1151, 1000)); break;
		}
	}
	static const char *const bench[] = {"vadd", "softmax", "layernorm", "matmul", "matmul_bf16",
					    "attention", "attention_d128"};
	for (size_t i = 0; i < sizeof bench / sizeof bench[0]; i++) {
		if (!have(bench[i])) {
			e2e_skip(bench[i], "no kernel compiled from Triton's TTIR for it");
			continue;
		}
		switch (i) {
		case 0: E2E_RUN(bench_vadd(16 * 1637)); break;
		case 1: E2E_RUN(bench_softmax(37, 4096 - 16 * 7)); break;
		case 2: E2E_RUN(bench_layernorm(29, 16 * 131)); break;
		case 3: E2E_RUN(bench_matmul("matmul", 0, 16 * 17, 16 * 13, 16 * 11)); break;
		case 4: E2E_RUN(bench_matmul("matmul_bf16", 1, 16 * 9, 16 * 19, 16 * 7)); break;
		case 5: E2E_RUN(bench_attention("attention", 64, 3, 16 * 13)); break;
		case 6: E2E_RUN(bench_attention("attention_d128", 128, 2, 16 * 11)); break;
		}
	}
	return e2e_finish();
}
