/* surface.c: the language surface of real kernels (kernels/surface.py).
 *
 *   opt_bias   optional pointers: the bias and the scale are given or None (from the
 *              signature, or from the parameter's default); the dtype picks the code at
 *              compile time (fp16 doubles, fp32 negates); a helper whose tl.constexpr
 *              parameter receives the offsets tensor adds offs % 5; a tl.range loop with
 *              every scheduling keyword sums three times
 *   weak_ints  weak Python ints against every integer dtype: ((x % 7) + (x & 0x70) +
 *              (x >> 3)) * 3 + 1, ^ (x | 5), minus 1 where x >= 100, all in x's dtype
 *
 * Sizes 1, a prime and a non-multiple of the block; references in C. */
#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned grid_of(int n, int block)
{
	return (unsigned)((n + block - 1) / block);
}

/* x (+ b) (* s), then doubled (fp16) or negated (fp32), + i % 5, summed three times. */
static void test_opt_bias(const char *variant, e2e_dtype t, int has_b, int has_s, int block,
                          int n, uint64_t seed)
{
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "opt_bias");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	void *x = e2e_alloc((size_t)n * sz), *b = e2e_alloc((size_t)n * sz);
	void *out = e2e_alloc((size_t)n * sz);
	float *sc = e2e_alloc(sizeof(float));
	double *want = malloc((size_t)n * sizeof(double));
	sc[0] = (float)e2e_uniform(&r, 0.5, 2.0);
	for (int i = 0; i < n; i++) {
		e2e_setf(x, i, t, e2e_uniform(&r, -8, 8));
		e2e_setf(b, i, t, e2e_uniform(&r, -8, 8));
		double v = e2e_getf(x, i, t);
		if (has_b)
			v = e2e_round(t, v + e2e_getf(b, i, t));
		if (has_s)
			v = e2e_round(t, v * sc[0]);
		v = t == E2E_F16 ? e2e_round(t, v * 2) : -v;
		double y = e2e_round(t, v + i % 5);
		float acc = 0; /* the loop adds in fp32 */
		for (int j = 0; j < 3; j++)
			acc += (float)y;
		want[i] = e2e_round(t, acc);
	}
	e2e_poison(out, (size_t)n * sz);
	void *args[5] = {&x, &b, &out, &n, &sc};
	size_t nargs = 4;
	if (!has_b) { /* b_ptr is specialized away: x, out, n */
		args[1] = &out;
		args[2] = &n;
		nargs = 3;
	}
	if (has_s)
		args[nargs++] = &sc;
	if (!e2e_launch(k, grid_of(n, block), 1, 1, args, nargs))
		e2e_cmp("out", out, t, want, NULL, (size_t)n,
		        t == E2E_F16 ? E2E_TOL_F16 : E2E_TOL_F32);
	free(want);
	e2e_end();
}

/* The reference of weak_ints, in t's width (wrapping). */
static int64_t weak_ref(int64_t x, e2e_dtype t)
{
	int sgn = e2e_dtype_is_signed(t);
	uint64_t ux = (uint64_t)x;
	uint64_t mod = sgn ? (uint64_t)(x % 7) : ux % 7;      /* C truncates toward zero */
	uint64_t shr = sgn ? (uint64_t)(x >> 3) : ux >> 3;    /* arithmetic for signed */
	uint64_t v = mod + (ux & 0x70) + shr;
	v = v * 3 + 1;
	v ^= ux | 5;
	int lt = sgn ? x < 100 : ux < 100;
	if (!lt)
		v -= 1;
	void *tmp = &(int64_t){0};
	e2e_seti(tmp, 0, t, (int64_t)v);
	return e2e_geti(tmp, 0, t);
}

static void test_weak(e2e_dtype t, int n, uint64_t seed)
{
	char variant[32];
	snprintf(variant, sizeof variant, "weak_%s", e2e_dtype_name(t));
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "weak_ints");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	void *x = e2e_alloc((size_t)n * sz), *out = e2e_alloc((size_t)n * sz);
	int64_t *want = malloc((size_t)n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		/* full-range values, and small ones around the x < 100 edge */
		int64_t v = i % 3 == 0 ? e2e_randint(&r, 90, 110) : (int64_t)e2e_next(&r);
		if (i % 7 == 1 && e2e_dtype_is_signed(t))
			v = -e2e_randint(&r, 1, 50);
		e2e_seti(x, i, t, v);
		want[i] = weak_ref(e2e_geti(x, i, t), t);
	}
	e2e_poison(out, (size_t)n * sz);
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, grid_of(n, 128), 1, 1, args, 3))
		e2e_cmp("out", out, t, NULL, want, (size_t)n, E2E_EXACT);
	free(want);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int sizes[] = {1, 131, 1000};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(sizes); i++) {
		int n = sizes[i];
		E2E_RUN(test_opt_bias("bias_fp32", E2E_F32, 1, 0, 128, n, 100 + i));
		E2E_RUN(test_opt_bias("nobias_fp32", E2E_F32, 0, 0, 128, n, 110 + i));
		E2E_RUN(test_opt_bias("scaled_fp32", E2E_F32, 0, 1, 64, n, 120 + i));
		E2E_RUN(test_opt_bias("bias_fp16", E2E_F16, 1, 0, 128, n, 130 + i));
		static const e2e_dtype ints[] = {E2E_U8, E2E_U16, E2E_U32, E2E_U64,
		                                 E2E_I8, E2E_I16, E2E_I32};
		for (size_t j = 0; j < E2E_ARRAY_SIZE(ints); j++)
			E2E_RUN(test_weak(ints[j], n, 200 + 10 * i + j));
	}
	return e2e_finish();
}
