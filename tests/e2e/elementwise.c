/* elementwise.c: element-wise arithmetic in every dtype (kernels/elementwise.py).
 *
 *   int_ops_T    T in i8..i64, u8..u64: + - * // % & | ^ << >> comparisons maximum minimum
 *                unary - and ~, with wrap-around, // and % truncating toward zero (as C)
 *   float_ops_T  T in fp16, bf16, fp32, fp64: + - * / % (fmod) comparisons maximum minimum -,
 *                weak Python scalars (x * 2.0 + 1 keeps T), a runtime i32 scalar
 *   mixed_A_B    promotion of two tensor dtypes (the kernel checks the result dtype with
 *                tl.static_assert; the values are checked here)
 *   weak_int_T   int8/uint8/int16 + a Python int stays narrow and wraps
 *   number_locals  a local assigned a Python number is a scalar tensor (int32, uint32, fp32):
 *                int8 + k does not wrap in int8, // and % of two such locals truncate, int32
 *                products wrap, fp16 * s is computed in fp32
 *
 * Sizes 1, a prime and a non-multiple of BLOCK (256), masked; references in C. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 256 };

static unsigned grid_of(int n)
{
	return (unsigned)((n + BLOCK - 1) / BLOCK);
}

static int64_t type_min(e2e_dtype t)
{
	/* -(2^(bits-1) - 1) - 1: no signed overflow for 64 bits */
	uint64_t half = (uint64_t)1 << (8 * e2e_dtype_size(t) - 1);
	return e2e_dtype_is_signed(t) ? -(int64_t)(half - 1) - 1 : 0;
}

/* A random value of integer type t, sign- or zero-extended into int64. */
static int64_t rand_int(e2e_rng *r, e2e_dtype t)
{
	void *p = &(int64_t){0};
	uint64_t v = e2e_next(r);
	e2e_seti(p, 0, t, (int64_t)v);
	return e2e_geti(p, 0, t);
}

/* Compares an integer result: the low bits of want, reinterpreted in t. */
static void cmp_int(const char *what, const void *got, e2e_dtype t, const int64_t *want, int n)
{
	e2e_cmp(what, got, t, NULL, want, (size_t)n, E2E_EXACT);
}

/* ---- integers ----------------------------------------------------------------------------- */

static void test_int_ops(e2e_dtype t, int n, uint64_t seed)
{
	enum { NOUT = 15 };
	static const char *const outs[NOUT] = {"add", "sub", "mul", "div", "mod", "and", "or", "xor",
	                                       "shl", "shr", "cmp", "max", "min", "neg", "not"};
	char variant[32];
	snprintf(variant, sizeof variant, "int_ops_%s", e2e_dtype_name(t));
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "int_ops");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t), bits = 8 * sz, sgn = e2e_dtype_is_signed(t);
	void *x = e2e_alloc((size_t)n * sz), *y = e2e_alloc((size_t)n * sz), *s = e2e_alloc((size_t)n * sz);
	void *out[NOUT];
	int64_t *want[NOUT];
	for (int o = 0; o < NOUT; o++) {
		size_t esz = o == 10 ? 4 : (size_t)sz;
		out[o] = e2e_alloc((size_t)n * esz);
		want[o] = malloc((size_t)n * sizeof(int64_t));
	}
	for (int i = 0; i < n; i++) {
		int64_t a = rand_int(&r, t), b;
		switch (i % 4) {
		case 0: b = rand_int(&r, t); break;
		case 1: b = e2e_randint(&r, sgn ? -9 : 1, 9); break; /* small divisors */
		case 2: b = a; break;                                /* equal operands */
		default: b = rand_int(&r, t) >> (e2e_next(&r) % bits); break;
		}
		if (b == 0)
			b = sgn && (i & 8) ? -3 : 7;
		if (sgn && b == -1 && a == type_min(t))
			a++; /* MIN // -1 overflows */
		int64_t sh = (int64_t)(e2e_next(&r) % (uint64_t)bits);
		e2e_seti(x, i, t, a);
		e2e_seti(y, i, t, b);
		e2e_seti(s, i, t, sh);
		uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
		want[0][i] = (int64_t)(ua + ub);
		want[1][i] = (int64_t)(ua - ub);
		want[2][i] = (int64_t)(ua * ub);
		if (sgn) {
			want[3][i] = a / b; /* C truncates toward zero */
			want[4][i] = a % b;
			want[9][i] = a >> sh; /* arithmetic (gcc) on the sign-extended value */
		} else {
			want[3][i] = (int64_t)(ua / ub);
			want[4][i] = (int64_t)(ua % ub);
			want[9][i] = (int64_t)(ua >> sh);
		}
		want[5][i] = a & b;
		want[6][i] = a | b;
		want[7][i] = a ^ b;
		want[8][i] = (int64_t)(ua << sh);
		int lt = sgn ? a < b : ua < ub, eq = a == b;
		want[10][i] = lt | (lt || eq) << 1 | eq << 2 | !eq << 3 | (!lt && !eq) << 4 | !lt << 5;
		want[11][i] = lt ? b : a;
		want[12][i] = lt ? a : b;
		want[13][i] = (int64_t)(0 - ua);
		want[14][i] = ~a;
	}
	for (int o = 0; o < NOUT; o++)
		e2e_poison(out[o], (size_t)n * (o == 10 ? 4 : sz));
	void *args[22] = {&x, &y, &s};
	for (int o = 0; o < NOUT; o++)
		args[3 + o] = &out[o];
	args[18] = &n;
	if (!e2e_launch(k, grid_of(n), 1, 1, args, 19))
		for (int o = 0; o < NOUT; o++)
			cmp_int(outs[o], out[o], o == 10 ? E2E_I32 : t, want[o], n);
	for (int o = 0; o < NOUT; o++)
		free(want[o]);
	e2e_end();
}

/* ---- floats ------------------------------------------------------------------------------- */

static void test_float_ops(e2e_dtype t, int n, uint64_t seed)
{
	enum { NOUT = 11 };
	static const char *const outs[NOUT] = {"add", "sub", "mul", "div", "mod", "cmp",
	                                       "max", "min", "neg", "weak", "scal"};
	char variant[32];
	snprintf(variant, sizeof variant, "float_ops_%s", e2e_dtype_name(t));
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "float_ops");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	/* fp16 and bf16 divide (and %) in fp32 */
	e2e_dtype dt = t == E2E_F16 || t == E2E_BF16 ? E2E_F32 : t;
	/* bf16 with an i32 scalar meets in fp32 */
	e2e_dtype st = t == E2E_BF16 ? E2E_F32 : t;
	e2e_dtype types[NOUT] = {t, t, t, dt, dt, E2E_I32, t, t, t, t, st};
	void *x = e2e_alloc((size_t)n * sz), *y = e2e_alloc((size_t)n * sz);
	void *out[NOUT];
	double *want[NOUT];
	int64_t *wantc = malloc((size_t)n * sizeof(int64_t));
	for (int o = 0; o < NOUT; o++) {
		out[o] = e2e_alloc((size_t)n * e2e_dtype_size(types[o]));
		want[o] = malloc((size_t)n * sizeof(double));
	}
	int kk = 3;
	for (int i = 0; i < n; i++) {
		double a = e2e_uniform(&r, -20, 20), b = e2e_uniform(&r, -20, 20);
		if (i % 5 == 2)
			b = a;
		if (fabs(b) < 0.01)
			b = 0.5;
		e2e_setf(x, i, t, a);
		e2e_setf(y, i, t, b);
		a = e2e_getf(x, i, t); /* what the kernel sees */
		b = e2e_getf(y, i, t);
		/* one operation on representable values: rounding the exact double result to t is
		 * what one rounding in t gives (double has enough bits for fp16/bf16/fp32) */
		want[0][i] = e2e_round(t, a + b);
		want[1][i] = e2e_round(t, a - b);
		want[2][i] = e2e_round(t, a * b);
		want[3][i] = e2e_round(dt, a / b);
		want[4][i] = e2e_round(dt, fmod(a, b));
		int lt = a < b, eq = a == b;
		wantc[i] = lt | (lt || eq) << 1 | eq << 2 | !eq << 3 | (!lt && !eq) << 4 | !lt << 5;
		want[5][i] = 0;
		want[6][i] = fmax(a, b);
		want[7][i] = fmin(a, b);
		want[8][i] = -a;
		want[9][i] = e2e_round(t, e2e_round(t, a * 2.0) + 1);
		want[10][i] = e2e_round(st, a * kk);
	}
	for (int o = 0; o < NOUT; o++)
		e2e_poison(out[o], (size_t)n * e2e_dtype_size(types[o]));
	void *args[16] = {&x, &y};
	for (int o = 0; o < NOUT; o++)
		args[2 + o] = &out[o];
	args[13] = &n;
	args[14] = &kk;
	if (!e2e_launch(k, grid_of(n), 1, 1, args, 15)) {
		for (int o = 0; o < NOUT; o++) {
			/* / may be computed with a reciprocal on some targets (Triton's GPU default
			 * is not IEEE either): allow an ulp; everything else is exact */
			e2e_tol tol = o == 3 ? (e2e_tol){0, dt == E2E_F64 ? 1e-15 : 2e-7} : E2E_EXACT;
			if (o == 5)
				cmp_int("cmp", out[o], E2E_I32, wantc, n);
			else
				e2e_cmp(outs[o], out[o], types[o], want[o], NULL, (size_t)n, tol);
		}
	}
	for (int o = 0; o < NOUT; o++)
		free(want[o]);
	free(wantc);
	e2e_end();
}

/* ---- promotion ---------------------------------------------------------------------------- */

static double rand_in(e2e_rng *r, e2e_dtype t)
{
	switch (t) {
	case E2E_I8: return (double)e2e_randint(r, -128, 127);
	case E2E_U8: return (double)e2e_randint(r, 0, 255);
	case E2E_I16: return (double)e2e_randint(r, -30000, 30000);
	case E2E_U16: return (double)e2e_randint(r, 0, 65535);
	case E2E_I32: return (double)e2e_randint(r, -100, 100); /* exact in fp16 */
	case E2E_U32: return (double)e2e_randint(r, 0, 4000000000ll);
	case E2E_I64: return (double)e2e_randint(r, -((int64_t)1 << 40), (int64_t)1 << 40);
	case E2E_U64: return (double)e2e_randint(r, 0, (int64_t)1 << 50);
	default: return e2e_uniform(r, -4, 4);
	}
}

/* out = x + y and x * y in the promoted type c: both operands converted to c first. */
static void test_mixed(e2e_dtype a, e2e_dtype b, e2e_dtype c, int n, uint64_t seed)
{
	char variant[48];
	snprintf(variant, sizeof variant, "mixed_%s_%s", e2e_dtype_name(a), e2e_dtype_name(b));
	e2e_begin("%s -> %s n=%d", variant, e2e_dtype_name(c), n);
	tilert_kernel *k = e2e_kernel(variant, "mixed");
	e2e_rng r = e2e_rng_new(seed);
	void *x = e2e_alloc((size_t)n * e2e_dtype_size(a)), *y = e2e_alloc((size_t)n * e2e_dtype_size(b));
	void *add = e2e_alloc((size_t)n * e2e_dtype_size(c)), *mul = e2e_alloc((size_t)n * e2e_dtype_size(c));
	double *wf_add = malloc(n * sizeof(double)), *wf_mul = malloc(n * sizeof(double));
	int64_t *wi_add = malloc(n * sizeof(int64_t)), *wi_mul = malloc(n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		e2e_setf(x, i, a, rand_in(&r, a));
		e2e_setf(y, i, b, rand_in(&r, b));
		if (e2e_dtype_is_float(c)) {
			double xa = e2e_round(c, e2e_getf(x, i, a)), yb = e2e_round(c, e2e_getf(y, i, b));
			wf_add[i] = e2e_round(c, xa + yb);
			wf_mul[i] = e2e_round(c, xa * yb);
		} else {
			/* integer conversions then wrap-around in c */
			uint64_t xa = (uint64_t)e2e_geti(x, i, a), yb = (uint64_t)e2e_geti(y, i, b);
			wi_add[i] = (int64_t)(xa + yb);
			wi_mul[i] = (int64_t)(xa * yb);
		}
	}
	e2e_poison(add, (size_t)n * e2e_dtype_size(c));
	e2e_poison(mul, (size_t)n * e2e_dtype_size(c));
	void *args[] = {&x, &y, &add, &mul, &n};
	if (!e2e_launch(k, grid_of(n), 1, 1, args, 5)) {
		e2e_cmp("add", add, c, wf_add, wi_add, (size_t)n, E2E_EXACT);
		e2e_cmp("mul", mul, c, wf_mul, wi_mul, (size_t)n, E2E_EXACT);
	}
	free(wf_add);
	free(wf_mul);
	free(wi_add);
	free(wi_mul);
	e2e_end();
}

/* (x + 1) * 3 - 2 in type rt (t itself: the Python ints are weak, see the kernel). */
static void test_weak_int(e2e_dtype t, e2e_dtype rt, int n, uint64_t seed)
{
	char variant[32];
	snprintf(variant, sizeof variant, "weak_int_%s", e2e_dtype_name(t));
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "weak_int");
	e2e_rng r = e2e_rng_new(seed);
	int sz = e2e_dtype_size(t);
	int rsz = e2e_dtype_size(rt);
	void *x = e2e_alloc((size_t)n * sz), *out = e2e_alloc((size_t)n * rsz);
	int64_t *want = malloc(n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		e2e_seti(x, i, t, rand_int(&r, t));
		/* (x + 1) wraps in rt before the multiplication */
		void *tmp = &(int64_t){0};
		e2e_seti(tmp, 0, rt, (int64_t)((uint64_t)e2e_geti(x, i, t) + 1));
		want[i] = (int64_t)((uint64_t)e2e_geti(tmp, 0, rt) * 3 - 2);
	}
	e2e_poison(out, (size_t)n * rsz);
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, grid_of(n), 1, 1, args, 3))
		cmp_int("out", out, rt, want, n);
	free(want);
	e2e_end();
}

/* Locals holding Python numbers (see the kernel): i = (x + 100) * 16 + (-3) * 1000 + (-1) * 100000
 * + 0 + x * 7 in int32, u = x + 3000000000 in uint32, f = h * 1e-6 in fp32. */
static void test_number_locals(int n, uint64_t seed)
{
	e2e_begin("number_locals n=%d", n);
	tilert_kernel *k = e2e_kernel("number_locals", "number_locals");
	e2e_rng r = e2e_rng_new(seed);
	void *x = e2e_alloc((size_t)n), *h = e2e_alloc((size_t)n * 2);
	void *oi = e2e_alloc((size_t)n * 4), *ou = e2e_alloc((size_t)n * 4), *of = e2e_alloc((size_t)n * 4);
	int64_t *wi = malloc(n * sizeof(int64_t)), *wu = malloc(n * sizeof(int64_t));
	double *wf = malloc(n * sizeof(double));
	for (int i = 0; i < n; i++) {
		int64_t xv = rand_int(&r, E2E_I8);
		e2e_seti(x, i, E2E_I8, xv);
		/* fp16 values in [-60000, 60000]: their fp16 product with 1e-6 would be subnormal */
		e2e_setf(h, i, E2E_F16, e2e_uniform(&r, -60000.0, 60000.0));
		double hv = e2e_getf(h, i, E2E_F16);
		wi[i] = (xv + 100) * 16 - 3000 - 100000 + xv * 7;
		wu[i] = (int64_t)(uint32_t)(xv + 3000000000LL);
		wf[i] = (double)((float)hv * 1e-6f);
	}
	e2e_poison(oi, (size_t)n * 4);
	e2e_poison(ou, (size_t)n * 4);
	e2e_poison(of, (size_t)n * 4);
	void *args[] = {&x, &h, &oi, &ou, &of, &n};
	if (!e2e_launch(k, grid_of(n), 1, 1, args, 6)) {
		cmp_int("i", oi, E2E_I32, wi, n);
		cmp_int("u", ou, E2E_U32, wu, n);
		e2e_cmp("f", of, E2E_F32, wf, NULL, (size_t)n, E2E_TOL_F32);
	}
	free(wi);
	free(wu);
	free(wf);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int sizes[] = {1, 257, 1000};
	for (e2e_dtype t = E2E_I8; t <= E2E_U64; t++)
		for (size_t i = 0; i < E2E_ARRAY_SIZE(sizes); i++)
			E2E_RUN(test_int_ops(t, sizes[i], 1000 + 10 * t + i));
	for (e2e_dtype t = E2E_F16; t <= E2E_F64; t++)
		for (size_t i = 0; i < E2E_ARRAY_SIZE(sizes); i++)
			E2E_RUN(test_float_ops(t, sizes[i], 2000 + 10 * t + i));

	static const struct {
		e2e_dtype a, b, c;
	} pairs[] = {
	    {E2E_I8, E2E_I32, E2E_I32},    {E2E_I32, E2E_U32, E2E_U32},   {E2E_I32, E2E_I64, E2E_I64},
	    {E2E_U8, E2E_I16, E2E_I16},    {E2E_I8, E2E_U8, E2E_U8},      {E2E_U16, E2E_I64, E2E_I64},
	    {E2E_U32, E2E_U64, E2E_U64},   {E2E_F16, E2E_BF16, E2E_F16},  {E2E_F32, E2E_F64, E2E_F64},
	    {E2E_BF16, E2E_F32, E2E_F32},  {E2E_F16, E2E_I32, E2E_F16},   {E2E_I64, E2E_F32, E2E_F32},
	    {E2E_U8, E2E_F16, E2E_F16},    {E2E_BF16, E2E_I8, E2E_F32},  {E2E_I16, E2E_F64, E2E_F64},
	};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(pairs); i++)
		E2E_RUN(test_mixed(pairs[i].a, pairs[i].b, pairs[i].c, 300, 3000 + i));
	E2E_RUN(test_weak_int(E2E_I8, E2E_I8, 300, 4000));
	E2E_RUN(test_weak_int(E2E_U8, E2E_U8, 300, 4001));
	E2E_RUN(test_weak_int(E2E_I16, E2E_I16, 300, 4002));
	E2E_RUN(test_number_locals(1, 4100));
	E2E_RUN(test_number_locals(263, 4101));
	return e2e_finish();
}
