/* math.c: math functions (kernels/math.py) against C's double-precision libm: exp, exp2,
 * log, log2, sqrt, rsqrt, sin, cos, erf, floor, ceil, abs, sigmoid, tl.math.*, sqrt_rn in
 * fp32 (~1e-5 relative) and fp64 (~1e-13); fma, maximum, minimum, where, clamp, div_rn
 * and a runtime fp32 scalar; abs/maximum/minimum/where on int32 and umulhi on uint32. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 256, NFN = 15 };

static const char *const fn_names[NFN] = {"exp",  "exp2", "log", "log2",  "sqrt",
                                          "rsqrt", "sin", "cos", "erf",   "floor",
                                          "ceil", "abs",  "sigmoid", "math.exp2+sqrt", "sqrt_rn"};

static double ref_fn(int f, double x, double p)
{
	switch (f) {
	case 0: return exp(x);
	case 1: return exp2(x);
	case 2: return log(p);
	case 3: return log2(p);
	case 4: return sqrt(p);
	case 5: return 1 / sqrt(p);
	case 6: return sin(x);
	case 7: return cos(x);
	case 8: return erf(x);
	case 9: return floor(x);
	case 10: return ceil(x);
	case 11: return fabs(x);
	case 12: return 1 / (1 + exp(-x));
	case 13: return exp2(x) + sqrt(p);
	default: return sqrt(p);
	}
}

static void test_unary(int is64, int n, uint64_t seed)
{
	const char *variant = is64 ? "unary_fp64" : "unary_fp32";
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "unary");
	e2e_rng r = e2e_rng_new(seed);
	e2e_dtype t = is64 ? E2E_F64 : E2E_F32;
	int sz = e2e_dtype_size(t);
	void *x = e2e_alloc((size_t)n * sz), *p = e2e_alloc((size_t)n * sz);
	void *out = e2e_alloc((size_t)NFN * n * sz);
	for (int i = 0; i < n; i++) {
		double v = e2e_uniform(&r, -10, 10);
		if (i % 7 == 3)
			v = (double)(long)v; /* integers and halves for floor/ceil */
		if (i % 7 == 5)
			v = (double)(long)v + 0.5;
		e2e_setf(x, i, t, v);
		e2e_setf(p, i, t, exp(e2e_uniform(&r, -9, 9))); /* positive, wide */
	}
	double *want = malloc((size_t)NFN * n * sizeof(double));
	for (int f = 0; f < NFN; f++)
		for (int i = 0; i < n; i++)
			want[(size_t)f * n + i] = ref_fn(f, e2e_getf(x, i, t), e2e_getf(p, i, t));
	if (is64)
		e2e_poison_f64(out, (size_t)NFN * n);
	else
		e2e_poison_f32(out, (size_t)NFN * n);
	void *args[] = {&x, &p, &out, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 4)) {
		for (int f = 0; f < NFN; f++) {
			/* fp32: ~1e-5 relative (and an absolute floor near the zeros of sin, cos,
			 * erf, log); exact for floor, ceil, abs */
			e2e_tol tol = is64 ? (e2e_tol){1e-14, 1e-13} : (e2e_tol){2e-6, 1e-5};
			if (f == 9 || f == 10 || f == 11)
				tol = E2E_EXACT;
			char what[48];
			snprintf(what, sizeof what, "%s", fn_names[f]);
			if (is64)
				e2e_cmp_f64(what, (double *)out + (size_t)f * n, want + (size_t)f * n, n, tol);
			else
				e2e_cmp_f32(what, (float *)out + (size_t)f * n, want + (size_t)f * n, n, tol);
		}
	}
	free(want);
	e2e_end();
}

static void test_ternary(int n, uint64_t seed)
{
	enum { NOUT = 8 };
	static const char *const names[NOUT] = {"fma", "maximum", "minimum", "where", "clamp",
	                                        "where_scalar", "div_rn", "chain"};
	e2e_begin("ternary_fp32 n=%d", n);
	tilert_kernel *k = e2e_kernel("ternary_fp32", "ternary");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc(n * 4), *y = e2e_alloc(n * 4), *z = e2e_alloc(n * 4);
	float *out = e2e_alloc((size_t)NOUT * n * 4);
	e2e_fill_f32(&r, x, n, -2, 2);
	e2e_fill_f32(&r, y, n, -2, 2);
	e2e_fill_f32(&r, z, n, -2, 2);
	float alpha = 1.75f;
	double *want = malloc((size_t)NOUT * n * sizeof(double));
	for (int i = 0; i < n; i++) {
		double a = x[i], b = y[i], c = z[i];
		want[0 * n + i] = (float)(a * b + c); /* exact product, one rounding */
		want[1 * n + i] = fmax(a, b);
		want[2 * n + i] = fmin(a, c);
		want[3 * n + i] = a > b ? a : c;
		want[4 * n + i] = fmin(fmax(a, -0.5), 0.5);
		want[5 * n + i] = a > 0 ? (float)(a * alpha) : 0.0;
		want[6 * n + i] = (float)(a / b);
		want[7 * n + i] = (float)((float)(fmax(fmin(a, c), b) * alpha) + c);
	}
	e2e_poison_f32(out, (size_t)NOUT * n);
	void *args[] = {&x, &y, &z, &out, &alpha, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 6))
		for (int o = 0; o < NOUT; o++)
			e2e_cmp_f32(names[o], out + (size_t)o * n, want + (size_t)o * n, n,
			            o == 7 ? E2E_TOL_F32 : E2E_EXACT);
	free(want);
	e2e_end();
}

static void test_int_math(int n, uint64_t seed)
{
	e2e_begin("int_math n=%d", n);
	tilert_kernel *k = e2e_kernel("int_math", "int_math");
	e2e_rng r = e2e_rng_new(seed);
	int32_t *iv = e2e_alloc(n * 4), *oi = e2e_alloc(3 * n * 4);
	uint32_t *uv = e2e_alloc(n * 4), *ou = e2e_alloc(2 * n * 4);
	int64_t *wi = malloc(3 * n * sizeof(int64_t)), *wu = malloc(2 * n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		int32_t a = (int32_t)e2e_randint(&r, -2147483647, 2147483647);
		if (i % 4 == 1)
			a = (int32_t)e2e_randint(&r, -50, 50);
		uint32_t u = (uint32_t)e2e_next(&r);
		iv[i] = a;
		uv[i] = u;
		wi[i] = a < 0 ? -(int64_t)a : a;
		wi[n + i] = (int64_t)(a > 0 ? a : 0) + (a < -5 ? a : -5);
		wi[2 * n + i] = a % 3 == 0 ? a / 7 : -(int64_t)a;
		wu[i] = (int64_t)(((uint64_t)u * (uint32_t)(u + 12345u)) >> 32);
		wu[n + i] = u >> 3;
	}
	e2e_poison(oi, 3 * n * 4);
	e2e_poison(ou, 2 * n * 4);
	void *args[] = {&iv, &uv, &oi, &ou, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 5)) {
		e2e_cmp_int("abs", oi, wi, n, 4, 1);
		e2e_cmp_int("max+min", oi + n, wi + n, n, 4, 1);
		e2e_cmp_int("where", oi + 2 * n, wi + 2 * n, n, 4, 1);
		e2e_cmp_int("umulhi", ou, wu, n, 4, 0);
		e2e_cmp_int("abs_u>>3", ou + n, wu + n, n, 4, 0);
	}
	free(wi);
	free(wu);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_unary(0, 1, 6000));
	E2E_RUN(test_unary(0, 1009, 6001));
	E2E_RUN(test_unary(1, 1, 6002));
	E2E_RUN(test_unary(1, 1009, 6003));
	E2E_RUN(test_ternary(1, 6100));
	E2E_RUN(test_ternary(777, 6101));
	E2E_RUN(test_int_math(1, 6200));
	E2E_RUN(test_int_math(531, 6201));
	return e2e_finish();
}
