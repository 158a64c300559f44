/* bench.c: the CPU benchmark. Each bench kernel compiled by tilecc (a shared object
 * loaded through libtilert) runs side by side with the same algorithm in C, built by gcc
 * -O3 -march=native, in one process, on the same inputs; matmul also against OpenBLAS.
 * Every result is checked before it is timed. Times are the median of several runs, one
 * thread each (tilert_set_num_threads(1), openblas_set_num_threads(1)), and the table
 * reports GB/s or GFLOP/s and the ratio tilecc / reference.
 *
 *   bench DIR   (DIR holds vadd.so softmax.so layernorm.so matmul.so from bench/cpu/run.sh) */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tilecc/tilert.h>

void openblas_set_num_threads(int);

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

typedef void (*bench_fn)(void *ctx);

/* Median seconds of `runs` calls after one warm-up call. */
static double timeit(bench_fn f, void *ctx, int runs)
{
	double t[32];
	f(ctx);
	for (int i = 0; i < runs; i++) {
		double s = now();
		f(ctx);
		t[i] = now() - s;
	}
	qsort(t, (size_t)runs, sizeof t[0], cmp_d);
	return t[runs / 2];
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

static tilert_kernel *load(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.so", dir, name);
	tilert_module *m;
	tilert_kernel *k;
	if (tilert_module_load_file(path, &m) || tilert_module_get_kernel(m, name, &k)) {
		fprintf(stderr, "bench: %s: %s\n", path, tilert_last_error());
		exit(1);
	}
	return k;
}

static void check(const char *what, const float *got, const float *want, size_t n, float tol)
{
	for (size_t i = 0; i < n; i++)
		if (!(fabsf(got[i] - want[i]) <= tol * (1.0f + fabsf(want[i])))) {
			fprintf(stderr, "bench: %s: mismatch at %zu: %g vs %g\n", what, i, got[i], want[i]);
			exit(1);
		}
}

static void row(const char *kernel, const char *size, const char *unit, double ours, const char *ref,
		double theirs)
{
	printf("| %-10s | %-16s | %9.1f %-7s | %-14s | %9.1f %-7s | %5.2fx |\n", kernel, size, ours, unit,
	       ref, theirs, unit, ours / theirs);
}

/* ---- vadd ---------------------------------------------------------------------------------- */

typedef struct {
	tilert_kernel *k;
	float *x, *y, *o;
	int32_t n;
} vadd_ctx;

static void vadd_tilecc(void *p)
{
	vadd_ctx *c = p;
	void *args[4] = {&c->x, &c->y, &c->o, &c->n};
	tilert_launch(c->k, NULL, (tilert_grid){(uint32_t)((c->n + 1023) / 1024), 1, 1}, args, 4);
}

static void vadd_c(void *p)
{
	vadd_ctx *c = p;
	for (int32_t i = 0; i < c->n; i++)
		c->o[i] = c->x[i] + c->y[i];
}

/* ---- softmax (fp32 rows of 4096) ----------------------------------------------------------- */

typedef struct {
	tilert_kernel *k;
	float *in, *out;
	int32_t rows, cols;
} softmax_ctx;

static void softmax_tilecc(void *p)
{
	softmax_ctx *c = p;
	int32_t st = c->cols;
	void *args[5] = {&c->out, &c->in, &st, &st, &c->cols};
	tilert_launch(c->k, NULL, (tilert_grid){(uint32_t)c->rows, 1, 1}, args, 5);
}

static void softmax_c(void *p)
{
	softmax_ctx *c = p;
	for (int32_t r = 0; r < c->rows; r++) {
		const float *x = c->in + (size_t)r * c->cols;
		float *y = c->out + (size_t)r * c->cols;
		float m = -INFINITY, s = 0;
		for (int32_t i = 0; i < c->cols; i++)
			m = x[i] > m ? x[i] : m;
		for (int32_t i = 0; i < c->cols; i++) {
			y[i] = expf(x[i] - m);
			s += y[i];
		}
		for (int32_t i = 0; i < c->cols; i++)
			y[i] /= s;
	}
}

/* ---- layernorm (fp16 in and out, fp32 statistics) ------------------------------------------ */

typedef struct {
	tilert_kernel *k;
	_Float16 *x, *y, *w, *b;
	int32_t rows, cols;
	float eps;
} ln_ctx;

static void ln_tilecc(void *p)
{
	ln_ctx *c = p;
	int32_t st = c->cols;
	void *args[7] = {&c->x, &c->y, &c->w, &c->b, &st, &c->cols, &c->eps};
	tilert_launch(c->k, NULL, (tilert_grid){(uint32_t)c->rows, 1, 1}, args, 7);
}

static void ln_c(void *p)
{
	ln_ctx *c = p;
	for (int32_t r = 0; r < c->rows; r++) {
		const _Float16 *x = c->x + (size_t)r * c->cols;
		_Float16 *y = c->y + (size_t)r * c->cols;
		float s = 0, q = 0;
		for (int32_t i = 0; i < c->cols; i++)
			s += (float)x[i];
		float mean = s / c->cols;
		for (int32_t i = 0; i < c->cols; i++) {
			float d = (float)x[i] - mean;
			q += d * d;
		}
		float rstd = 1.0f / sqrtf(q / c->cols + c->eps);
		for (int32_t i = 0; i < c->cols; i++)
			y[i] = (_Float16)(((float)x[i] - mean) * rstd * (float)c->w[i] + (float)c->b[i]);
	}
}

/* ---- matmul (fp32) -------------------------------------------------------------------------- */

typedef struct {
	tilert_kernel *k;
	float *a, *b, *c;
	int32_t n;
	int bm, bn;
} mm_ctx;

static void mm_tilecc(void *p)
{
	mm_ctx *c = p;
	int32_t n = c->n, one = 1;
	void *args[12] = {&c->a, &c->b, &c->c, &n, &n, &n, &n, &one, &n, &one, &n, &one};
	uint32_t g = (uint32_t)(((n + c->bm - 1) / c->bm) * ((n + c->bn - 1) / c->bn));
	tilert_launch(c->k, NULL, (tilert_grid){g, 1, 1}, args, 12);
}

static void mm_c(void *p)
{
	mm_ctx *c = p;
	int n = c->n;
	memset(c->c, 0, sizeof(float) * (size_t)n * n);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			float a = c->a[(size_t)i * n + k];
			for (int j = 0; j < n; j++)
				c->c[(size_t)i * n + j] += a * c->b[(size_t)k * n + j];
		}
}

static void mm_blas(void *p)
{
	mm_ctx *c = p;
	int n = c->n;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, c->a, n, c->b, n, 0.0f, c->c, n);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	tilert_set_num_threads(1);
	openblas_set_num_threads(1);
	printf("| kernel     | size             | tilecc            | reference      | reference         | ratio  |\n");
	printf("|------------|------------------|-------------------|----------------|-------------------|--------|\n");

	{ /* vadd: 2^24 fp32, 3 arrays = 192 MiB moved */
		vadd_ctx c = {load(dir, "vadd"), NULL, NULL, NULL, 1 << 24};
		size_t n = (size_t)c.n;
		c.x = malloc(n * 4), c.y = malloc(n * 4), c.o = malloc(n * 4);
		float *ref = malloc(n * 4);
		for (size_t i = 0; i < n; i++)
			c.x[i] = frand(), c.y[i] = frand();
		vadd_c(&c);
		memcpy(ref, c.o, n * 4);
		memset(c.o, 0xff, n * 4);
		vadd_tilecc(&c);
		check("vadd", c.o, ref, n, 0);
		double bytes = 12.0 * n;
		double t1 = timeit(vadd_tilecc, &c, 9), t2 = timeit(vadd_c, &c, 9);
		row("vadd", "2^24 fp32", "GB/s", bytes / t1 / 1e9, "gcc -O3", bytes / t2 / 1e9);
		free(c.x), free(c.y), free(c.o), free(ref);
	}
	{ /* softmax: 4096 x 4096 fp32 */
		softmax_ctx c = {load(dir, "softmax"), NULL, NULL, 4096, 4096};
		size_t n = (size_t)c.rows * c.cols;
		c.in = malloc(n * 4), c.out = malloc(n * 4);
		float *ref = malloc(n * 4);
		for (size_t i = 0; i < n; i++)
			c.in[i] = 4 * frand();
		softmax_c(&c);
		memcpy(ref, c.out, n * 4);
		memset(c.out, 0xff, n * 4);
		softmax_tilecc(&c);
		check("softmax", c.out, ref, n, 1e-5f);
		double bytes = 8.0 * n;
		double t1 = timeit(softmax_tilecc, &c, 7), t2 = timeit(softmax_c, &c, 7);
		row("softmax", "4096x4096 fp32", "GB/s", bytes / t1 / 1e9, "gcc -O3", bytes / t2 / 1e9);
		free(c.in), free(c.out), free(ref);
	}
	{ /* layernorm: 4096 x 4096 fp16 */
		ln_ctx c = {load(dir, "layernorm"), NULL, NULL, NULL, NULL, 4096, 4096, 1e-5f};
		size_t n = (size_t)c.rows * c.cols;
		c.x = malloc(n * 2), c.y = malloc(n * 2), c.w = malloc((size_t)c.cols * 2), c.b = malloc((size_t)c.cols * 2);
		_Float16 *ref = malloc(n * 2);
		for (size_t i = 0; i < n; i++)
			c.x[i] = (_Float16)(2 * frand());
		for (int i = 0; i < c.cols; i++)
			c.w[i] = (_Float16)(1 + frand() / 4), c.b[i] = (_Float16)frand();
		ln_c(&c);
		memcpy(ref, c.y, n * 2);
		memset(c.y, 0xff, n * 2);
		ln_tilecc(&c);
		for (size_t i = 0; i < n; i++)
			if (fabsf((float)c.y[i] - (float)ref[i]) > 1e-2f * (1 + fabsf((float)ref[i]))) {
				fprintf(stderr, "bench: layernorm mismatch at %zu: %g vs %g\n", i, (float)c.y[i], (float)ref[i]);
				return 1;
			}
		/* the kernel reads x three times and w, b once per row; count what moves: x, y */
		double bytes = 4.0 * n;
		double t1 = timeit(ln_tilecc, &c, 7), t2 = timeit(ln_c, &c, 7);
		row("layernorm", "4096x4096 fp16", "GB/s", bytes / t1 / 1e9, "gcc -O3", bytes / t2 / 1e9);
		free(c.x), free(c.y), free(c.w), free(c.b), free(ref);
	}
	{ /* matmul: 1024^3 fp32 */
		/* the blocks matmul.so was compiled with (run.sh exports them) */
		mm_ctx c = {load(dir, "matmul"), NULL, NULL, NULL, 1024, getenv("BM") ? atoi(getenv("BM")) : 128,
			    getenv("BN") ? atoi(getenv("BN")) : 128};
		if (c.bm < 1 || c.bn < 1) {
			fprintf(stderr, "bench: BM and BN must be positive\n");
			return 1;
		}
		size_t n = (size_t)c.n * c.n;
		c.a = malloc(n * 4), c.b = malloc(n * 4), c.c = malloc(n * 4);
		float *ref = malloc(n * 4);
		for (size_t i = 0; i < n; i++)
			c.a[i] = frand(), c.b[i] = frand();
		mm_blas(&c);
		memcpy(ref, c.c, n * 4);
		memset(c.c, 0xff, n * 4);
		mm_tilecc(&c);
		check("matmul", c.c, ref, n, 1e-3f);
		double flops = 2.0 * c.n * c.n * c.n;
		double t1 = timeit(mm_tilecc, &c, 5), t2 = timeit(mm_c, &c, 3), t3 = timeit(mm_blas, &c, 5);
		row("matmul", "1024^3 fp32", "GFLOP/s", flops / t1 / 1e9, "gcc -O3 (ikj)", flops / t2 / 1e9);
		row("matmul", "1024^3 fp32", "GFLOP/s", flops / t1 / 1e9, "OpenBLAS", flops / t3 / 1e9);
		free(c.a), free(c.b), free(c.c), free(ref);
	}
	return 0;
}
