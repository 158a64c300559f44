/* rv_icount.c: the RISC-V side of the CPU benchmark. Runs one bench kernel either as
 * compiled by tilecc (a riscv64 shared object, called through its NAME__grid entry), as
 * the same algorithm in C (this file, built by gcc -O3 -march=rv64gcv or by clang-19 -O3
 * -march=rv64gcv), or (matmul) as OpenBLAS's sgemm (scipy-openblas32's riscv64 library,
 * cblas_sgemm with the scipy_ prefix), or none of them, so that bench/cpu/rv_icount.sh can
 * count the dynamic instructions of each under qemu and subtract the set-up.
 *
 *   rv_icount KERNEL MODE [SO [load]]  KERNEL: vadd | softmax | layernorm | matmul
 *                                      MODE: none | tilecc | c | openblas
 * With "load" the shared object is loaded (dlopen, dlsym) and not called: the set-up
 * subtracted from the count of a call. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*grid_fn)(void **, int32_t, int32_t, int32_t, int64_t, int64_t);

static uint32_t seed = 12345;
static float frand(void)
{
	seed = seed * 1664525u + 1013904223u;
	return (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
}

__attribute__((noinline)) static void vadd_c(const float *x, const float *y, float *o, int n)
{
	for (int i = 0; i < n; i++)
		o[i] = x[i] + y[i];
}

__attribute__((noinline)) static void softmax_c(const float *in, float *out, int rows, int cols)
{
	for (int r = 0; r < rows; r++) {
		const float *x = in + (size_t)r * cols;
		float *y = out + (size_t)r * cols;
		float m = -INFINITY, s = 0;
		for (int i = 0; i < cols; i++)
			m = x[i] > m ? x[i] : m;
		for (int i = 0; i < cols; i++) {
			y[i] = expf(x[i] - m);
			s += y[i];
		}
		for (int i = 0; i < cols; i++)
			y[i] /= s;
	}
}

/* fp16 in software: gcc 12 has no _Float16 on riscv64, and rv64gcv has no Zfh either */
static inline float h2f(uint16_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff, u;
	if (e == 0) {
		float f = (float)m * (1.0f / 16777216.0f);
		memcpy(&u, &f, 4);
		u |= s;
	} else if (e == 31) {
		u = s | 0x7f800000 | (m << 13);
	} else {
		u = s | ((e + 112) << 23) | (m << 13);
	}
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static inline uint16_t f2h(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	uint32_t s = (u >> 16) & 0x8000, a = u & 0x7fffffff;
	if (a >= 0x7f800000)
		return (uint16_t)(s | 0x7c00 | (a > 0x7f800000 ? 0x200 : 0));
	if (a >= 0x477ff000)
		return (uint16_t)(s | 0x7c00);
	if (a < 0x38800000) { /* subnormal: round to nearest even at 2^-24 */
		float fa;
		memcpy(&fa, &a, 4);
		float r = fa * 16777216.0f;
		uint32_t m = (uint32_t)r;
		float frac = r - (float)m;
		if (frac > 0.5f || (frac == 0.5f && (m & 1)))
			m++;
		return (uint16_t)(s | m);
	}
	uint32_t e = ((a >> 23) - 112) << 10, m = (a >> 13) & 0x3ff, rest = a & 0x1fff;
	uint32_t h = e | m;
	if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(s | h);
}

__attribute__((noinline)) static void layernorm_c(const uint16_t *x, uint16_t *y, const uint16_t *w,
						  const uint16_t *b, int rows, int cols, float eps)
{
	for (int r = 0; r < rows; r++) {
		const uint16_t *xr = x + (size_t)r * cols;
		uint16_t *yr = y + (size_t)r * cols;
		float s = 0, q = 0;
		for (int i = 0; i < cols; i++)
			s += h2f(xr[i]);
		float mean = s / cols;
		for (int i = 0; i < cols; i++) {
			float d = h2f(xr[i]) - mean;
			q += d * d;
		}
		float rstd = 1.0f / sqrtf(q / cols + eps);
		for (int i = 0; i < cols; i++)
			yr[i] = f2h((h2f(xr[i]) - mean) * rstd * h2f(w[i]) + h2f(b[i]));
	}
}

__attribute__((noinline)) static void matmul_c(const float *a, const float *b, float *c, int n)
{
	memset(c, 0, sizeof(float) * (size_t)n * n);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			float av = a[(size_t)i * n + k];
			for (int j = 0; j < n; j++)
				c[(size_t)i * n + j] += av * b[(size_t)k * n + j];
		}
}

/* The one symbol of glibc 2.38 that scipy-openblas32's library asks for (gcc-riscv64's
 * sysroot has glibc 2.36): rv_icount.sh marks that version requirement weak and builds
 * this file with -rdynamic, so that the reference binds here. */
long __isoc23_strtol(const char *s, char **end, int base);
long __isoc23_strtol(const char *s, char **end, int base)
{
	return strtol(s, end, base);
}

/* cblas_sgemm's row-major, no-transpose call */
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
			 float *, int);

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *k = argv[1], *mode = argv[2];
	grid_fn g = NULL;
	sgemm_fn sgemm = NULL;
	bool blas = !strcmp(mode, "openblas");
	if (blas && strcmp(k, "matmul"))
		return 2;
	if (!strcmp(mode, "tilecc") || blas) {
		void *h = argc > 3 ? dlopen(argv[3], RTLD_NOW) : NULL;
		char name[64];
		snprintf(name, sizeof name, blas ? "scipy_cblas_sgemm" : "%s__grid", k);
		void *f = h ? dlsym(h, name) : NULL;
		if (!f) {
			fprintf(stderr, "rv_icount: cannot load %s from %s: %s\n", name, argc > 3 ? argv[3] : "?", dlerror());
			return 1;
		}
		memcpy(blas ? (void *)&sgemm : (void *)&g, &f, sizeof f);
	}
	int run = strcmp(mode, "none") != 0 && !(argc > 4 && !strcmp(argv[4], "load")), c = !strcmp(mode, "c");
	if (!strcmp(k, "vadd")) {
		int32_t n = 1 << 16;
		float *x = malloc(n * 4), *y = malloc(n * 4), *o = malloc(n * 4);
		for (int i = 0; i < n; i++)
			x[i] = frand(), y[i] = frand();
		void *args[4] = {&x, &y, &o, &n};
		if (run && c)
			vadd_c(x, y, o, n);
		else if (run)
			g(args, n / 1024, 1, 1, 0, n / 1024);
		printf("%g\n", o[n / 3]);
	} else if (!strcmp(k, "softmax")) {
		int32_t rows = 16, cols = 4096;
		float *x = malloc((size_t)rows * cols * 4), *y = malloc((size_t)rows * cols * 4);
		for (int i = 0; i < rows * cols; i++)
			x[i] = frand();
		void *args[5] = {&y, &x, &cols, &cols, &cols};
		if (run && c)
			softmax_c(x, y, rows, cols);
		else if (run)
			g(args, rows, 1, 1, 0, rows);
		printf("%g\n", y[77]);
	} else if (!strcmp(k, "layernorm")) {
		int32_t rows = 16, cols = 4096;
		float eps = 1e-5f;
		uint16_t *x = malloc((size_t)rows * cols * 2), *y = malloc((size_t)rows * cols * 2);
		uint16_t *w = malloc(cols * 2), *b = malloc(cols * 2);
		for (int i = 0; i < rows * cols; i++)
			x[i] = f2h(frand());
		for (int i = 0; i < cols; i++)
			w[i] = f2h(frand()), b[i] = f2h(frand());
		void *args[7] = {&x, &y, &w, &b, &cols, &cols, &eps};
		if (run && c)
			layernorm_c(x, y, w, b, rows, cols, eps);
		else if (run)
			g(args, rows, 1, 1, 0, rows);
		printf("%g\n", h2f(y[77]));
	} else if (!strcmp(k, "matmul")) {
		int32_t n = 128, one = 1;
		float *a = malloc((size_t)n * n * 4), *b = malloc((size_t)n * n * 4), *cc = malloc((size_t)n * n * 4);
		for (int i = 0; i < n * n; i++)
			a[i] = frand(), b[i] = frand();
		void *args[12] = {&a, &b, &cc, &n, &n, &n, &n, &one, &n, &one, &n, &one};
		if (run && c)
			matmul_c(a, b, cc, n);
		else if (run && blas)
			sgemm(101, 111, 111, n, n, n, 1.0f, a, n, b, n, 0.0f, cc, n);
		else if (run)
			g(args, (n / 64) * (n / 64), 1, 1, 0, (n / 64) * (n / 64));
		printf("%g\n", cc[n + 3]);
	}
	return 0;
}
