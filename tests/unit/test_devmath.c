/* test_devmath.c: the AMD GPU math library (backends/amdgpu/device/devmath.c), built
 * natively, against glibc. For each function: special values, edge cases, and 10^6
 * random inputs over its whole range, with more weight where the algorithms switch or
 * lose accuracy most easily (near 0, near overflow, near multiples of pi/2, subnormals).
 * Each result must have the class of glibc's (NaN, infinity, zero of a sign) and be within
 * `bound` ulps of it, or else nearer the exact value than glibc's is (glibc's cos, for
 * one, is 8 ulps off at 6381956970095103 2^797). The exact value is the long double
 * function's, exact enough beside a double; the error against it, the error of devmath
 * itself, is printed too.
 *
 * When the build embedded the bitcode (TILECC_HAVE_DEVMATH), the embedded bytes are also
 * checked against the devmath.bc file they came from.
 *
 * Usage: test_devmath [count [seed]]   count random inputs per function, 10^6 by default */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#if TILECC_HAVE_DEVMATH
#include "codegen/devmath.h"
#endif

#include "backends/amdgpu/device/devmath.h"

/* ---- random inputs ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* splitmix64: small, and the same sequence everywhere */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rnd01(void) { return (double)(rnd() >> 11) * 0x1p-53; }

static double uniform(double lo, double hi) { return lo + (hi - lo) * rnd01(); }

/* +-2^e with e uniform in [e0, e1): every binade equally likely */
static double logu(double e0, double e1)
{
	double x = exp2(uniform(e0, e1));
	return rnd() & 1 ? -x : x;
}

static double bits_to_double(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

/* a positive finite double with uniformly random bits: subnormals included */
static double any_positive(void)
{
	uint64_t u;
	do
		u = rnd() & 0x7fffffffffffffffull;
	while (u >= 0x7ff0000000000000ull);
	return bits_to_double(u);
}

/* x moved by n ulps */
static double nudge(double x, int n)
{
	for (; n > 0; n--)
		x = nextafter(x, INFINITY);
	for (; n < 0; n++)
		x = nextafter(x, -INFINITY);
	return x;
}

/* ---- measuring ---- */

/* Doubles in order as integers, -0 and +0 both 0: the difference of two is their
 * distance in ulps. */
static int64_t ordinal(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u >> 63 ? -(int64_t)(u & 0x7fffffffffffffffull) : (int64_t)u;
}

/* The error of y against the exact value ref, in ulps of the double nearest ref. */
static double ulp_error(double y, long double ref)
{
	if (isinf(y) || isnan(y))
		return 0.0;
	int e;
	frexpl(ref, &e);
	if (e < DBL_MIN_EXP)
		e = DBL_MIN_EXP;
	return (double)(fabsl((long double)y - ref) / ldexpl(1.0L, e - DBL_MANT_DIG));
}

typedef struct {
	const char *name;
	double (*dm)(double);
	double (*libm)(double);
	long double (*exact)(long double);
	int bound; /* ulps from glibc's result */
	const char *ranges;
	double (*random)(void);
	const double *edges;
	int nedges;
	/* findings */
	int64_t worst_libm; /* ulps from glibc */
	double worst_libm_x;
	double worst_exact; /* ulps from the long double result */
	double worst_exact_x;
	long libm_off; /* inputs where glibc is off by more than the bound */
	double libm_off_x;
	int bad;
} func;

/* Both NaN, or the same infinity, or both zeros of one sign, or both finite. */
static bool same_class(double y, double ref)
{
	if (isnan(y) || isnan(ref))
		return isnan(y) && isnan(ref);
	if (isinf(y) || isinf(ref))
		return y == ref;
	if (y == 0 && ref == 0)
		return signbit(y) == signbit(ref);
	return true;
}

static void measure(func *f, double x)
{
	double y = f->dm(x), ref = f->libm(x);
	if (!same_class(y, ref)) {
		if (f->bad++ < 5)
			fprintf(stderr, "%s(%a) = %a, glibc %a\n", f->name, x, y, ref);
		return;
	}
	if (isnan(ref))
		return;
	long double exact = f->exact((long double)x);
	double err = ulp_error(y, exact);
	if (err > f->worst_exact) {
		f->worst_exact = err;
		f->worst_exact_x = x;
	}
	int64_t d = ordinal(y) - ordinal(ref);
	d = d < 0 ? -d : d;
	if (d <= f->bound) {
		if (d > f->worst_libm) {
			f->worst_libm = d;
			f->worst_libm_x = x;
		}
	} else if (err < ulp_error(ref, exact)) {
		/* glibc is not exact either, and here it is the one further off */
		if (f->libm_off++ == 0)
			f->libm_off_x = x;
	} else if (f->bad++ < 5) {
		fprintf(stderr, "%s(%a) = %a, glibc %a: %lld ulp apart\n", f->name, x, y, ref,
		        (long long)d);
	}
}

/* ---- per function: random inputs and edge cases ---- */

#define PIO2 1.5707963267948966

static double random_exp(void)
{
	switch (rnd() % 5) {
	case 0: return uniform(-1, 1);
	case 1: return logu(-60, 9.5);
	case 2: return uniform(-745.2, -708); /* subnormal results */
	case 3: return uniform(700, 709.9);   /* near overflow */
	default: return uniform(-745.2, 710);
	}
}

static double random_exp2(void)
{
	switch (rnd() % 5) {
	case 0: return uniform(-1, 1);
	case 1: return logu(-60, 10);
	case 2: return uniform(-1076, -1020);
	case 3: return uniform(1020, 1024.5);
	default: return uniform(-1076, 1024.5);
	}
}

static double random_log(void)
{
	switch (rnd() % 4) {
	case 0: return 1 + logu(-60, -1); /* near 1: log is tiny */
	case 1: return uniform(0.5, 2);
	case 2: return ldexp(uniform(0.5, 1), (int)(rnd() % 60) - 1074); /* subnormal */
	default: return any_positive();
	}
}

static double random_trig(void)
{
	switch (rnd() % 6) {
	case 0: return uniform(-1e6, 1e6);
	case 1: return logu(-30, 20);
	case 2: { /* near a multiple of pi/2 below 2^20 */
		double k = (double)(rnd() % (1 << 20));
		return nudge(k * PIO2, (int)(rnd() % 9) - 4);
	}
	case 3: return uniform(0x1p29, 0x1p31); /* around the switch to Payne-Hanek */
	case 4: return logu(20, 1024);
	default: return uniform(-1e9, 1e9);
	}
}

static double random_tanh(void)
{
	switch (rnd() % 4) {
	case 0: return logu(-40, 5);
	case 1: return uniform(-20, 20);
	case 2: return uniform(-0.4, 0.4);
	default: { /* around the switch points: 2^-27, exp_reduce's k = 0 | 1, 19.1 */
		static const double at[] = {0x1p-27, 0.17328679513998632, 0.5198603854199589, 19.1};
		return at[rnd() % 4] * uniform(0.98, 1.02) * (rnd() & 1 ? 1 : -1);
	}
	}
}

static double random_erf(void)
{
	switch (rnd() % 4) {
	case 0: return logu(-40, 3);
	case 1: return uniform(-6.5, 6.5);
	case 2: return uniform(-1, 1);
	default: { /* around the switch points */
		static const double at[] = {0x1p-28, 0.5, 1, 1.5, 2, 2.5, 3, 6};
		return at[rnd() % 8] + uniform(-0.01, 0.01);
	}
	}
}

/* Everywhere: zeros, the extremes, infinities, NaN. */
#define COMMON_EDGES                                                                               \
	0.0, -0.0, 0x1p-1074, -0x1p-1074, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, INFINITY,          \
	    -INFINITY, NAN, 1.0, -1.0, 0.5, 2.0

static const double exp_edges[] = {
    COMMON_EDGES, 709.782712893384, 709.7827128933840, 0x1.62e42fefa39efp+9,
    0x1.62e42fefa39f0p+9, 709.8, 710, -708.3964185322641, -708.4, -745.1332191019411,
    -745.1332191019412, -745.2, -746, 0x1p-54, -0x1p-54, 0x1p-30, 0.34657359027997264,
    -0.34657359027997264, 1e-300,
};
static const double exp2_edges[] = {
    COMMON_EDGES, 1023.9999999999999, 1024, -1022, -1022.5, -1074, -1074.5, -1075,
    -1075.0000000000002, -1076, 0.5, -0.5, 0x1p-60, 3.0, 10.0, -10.0,
};
static const double log_edges[] = {
    COMMON_EDGES, 0x1.6a09e667f3bcdp-1, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bcdp+0,
    1.0000000000000002, 0.9999999999999999, 0x1.0000000000001p-1022, 0x1.fffffffffffffp-1023,
    10.0, 1024.0, 0x1p-1074, 2.718281828459045,
};
static const double trig_edges[] = {
    COMMON_EDGES, PIO2, -PIO2, 2 * PIO2, 3 * PIO2, 4 * PIO2, 0x1.921fb54442d18p-1,
    0x1.921fb54442d19p-1, 0x1p-26, 0x1p-27, 0x1.fffffffffffffp-27, 0x1p30,
    0x1.fffffffffffffp+29, 1e6, 1e22, 0x1p1023, 6381956970095103.0 * 0x1p797,
    5.319372648326541e+255, 1.0e300, 355.0, 103993.0, 1.0e9, 0x1p52, 0x1p53 + 2,
    /* the doubles closest to a multiple of pi/2 in their binade (continued fractions of
     * pi/2^n): below 2^30, then above */
    0x1.6c6cbc45dc8dep+5, 0x1.b951f1572eba5p+23, 0x1.b951f1572eba5p+24,
    0x1.b951f1572eba5p+27, 0x1.39c6fd67805a7p+18, 0x1.9eb7148f354d6p+20,
    0x1.6ac5b262ca1ffp+849, 0x1.6ac5b262ca1ffp+850, 0x1.504cac51f1eafp+131,
    0x1.e009c53148be1p+991, 0x1.4c96c11134d36p+577, 0x1.e7e44a78ac18cp+197,
};
static const double tanh_edges[] = {
    COMMON_EDGES, 0x1p-27, 0x1.fffffffffffffp-28, 19.1, 19.0999999999999, 19.06, 22,
    0.17328679513998632, 0.5493061443340549, 1e-300, 40,
};
static const double erf_edges[] = {
    COMMON_EDGES, 0x1p-28, 0x1.fffffffffffffp-29, 0.4999999999999999, 2.9999999999999996,
    3.0, 5.9999999999999991, 6.0, 5.92, 1e-300, 0.75, 1.25, 2.75,
};

#define FUNC(n, b, r, rand, edges)                                                                 \
	{#n, __tilecc_dm_##n, n, n##l, b, r, rand, edges, sizeof edges / sizeof *edges}

static func funcs[] = {
    FUNC(exp, 2, "[-745.2, 710], |x| from 2^-60, subnormal results", random_exp, exp_edges),
    FUNC(exp2, 2, "[-1076, 1024.5], |x| from 2^-60", random_exp2, exp2_edges),
    FUNC(log, 2, "all positive doubles, subnormals, 1 +- 2^-60..2^-1", random_log, log_edges),
    FUNC(log2, 2, "all positive doubles, subnormals, 1 +- 2^-60..2^-1", random_log, log_edges),
    FUNC(sin, 2, "|x| 2^-30..2^1024, +-1e9, near k pi/2 < 2^20", random_trig, trig_edges),
    FUNC(cos, 2, "|x| 2^-30..2^1024, +-1e9, near k pi/2 < 2^20", random_trig, trig_edges),
    FUNC(tanh, 4, "|x| 2^-40..32, switch points", random_tanh, tanh_edges),
    FUNC(erf, 4, "|x| 2^-40..8, [-6.5, 6.5], switch points", random_erf, erf_edges),
};

/* Exact values C99 Annex F requires, beyond what comparing with glibc checks. */
static void test_special(void)
{
	CHECK(__tilecc_dm_exp(-INFINITY) == 0 && !signbit(__tilecc_dm_exp(-INFINITY)));
	CHECK(__tilecc_dm_exp(INFINITY) == INFINITY && __tilecc_dm_exp(1000) == INFINITY);
	CHECK(__tilecc_dm_exp(0.0) == 1 && __tilecc_dm_exp(-0.0) == 1 && __tilecc_dm_exp2(3) == 8);
	CHECK(__tilecc_dm_exp(-746) == 0 && __tilecc_dm_exp2(-1074) == 0x1p-1074);
	CHECK(__tilecc_dm_log(0.0) == -INFINITY && __tilecc_dm_log(-0.0) == -INFINITY);
	CHECK(isnan(__tilecc_dm_log(-1)) && isnan(__tilecc_dm_log(-INFINITY)));
	CHECK(__tilecc_dm_log(INFINITY) == INFINITY && __tilecc_dm_log2(INFINITY) == INFINITY);
	CHECK(__tilecc_dm_log(1) == 0 && !signbit(__tilecc_dm_log(1)));
	CHECK(__tilecc_dm_log2(0x1p-1074) == -1074 && __tilecc_dm_log2(0x1p1023) == 1023);
	CHECK(isnan(__tilecc_dm_log2(-0x1p-1074)) && __tilecc_dm_log2(-0.0) == -INFINITY);
	CHECK(isnan(__tilecc_dm_sin(INFINITY)) && isnan(__tilecc_dm_cos(-INFINITY)));
	CHECK(__tilecc_dm_sin(-0.0) == 0 && signbit(__tilecc_dm_sin(-0.0)));
	CHECK(__tilecc_dm_cos(-0.0) == 1 && __tilecc_dm_cos(0x1p-1074) == 1);
	CHECK(__tilecc_dm_tanh(-0.0) == 0 && signbit(__tilecc_dm_tanh(-0.0)));
	CHECK(__tilecc_dm_tanh(INFINITY) == 1 && __tilecc_dm_tanh(-INFINITY) == -1);
	CHECK(__tilecc_dm_erf(-0.0) == 0 && signbit(__tilecc_dm_erf(-0.0)));
	CHECK(__tilecc_dm_erf(INFINITY) == 1 && __tilecc_dm_erf(-INFINITY) == -1);
	for (func *f = funcs; f < funcs + sizeof funcs / sizeof *funcs; f++)
		CHECK(isnan(f->dm(NAN)) && isnan(f->dm(-NAN)));
	/* sin and cos stay in [-1, 1] for any finite x */
	for (int i = 0; i < 100000; i++) {
		double x = bits_to_double(rnd() & 0x7fefffffffffffffull);
		double s = __tilecc_dm_sin(x), c = __tilecc_dm_cos(x);
		CHECK(s >= -1 && s <= 1 && c >= -1 && c <= 1);
	}
}

static void test_accuracy(long count)
{
	for (func *f = funcs; f < funcs + sizeof funcs / sizeof *funcs; f++) {
		for (int i = 0; i < f->nedges; i++) {
			measure(f, f->edges[i]);
			measure(f, -f->edges[i]);
			for (int n = -3; n <= 3; n++)
				if (isfinite(f->edges[i]))
					measure(f, nudge(f->edges[i], n));
		}
		for (long i = 0; i < count; i++)
			measure(f, f->random());
		printf("%-5s max %.3f ulp (x = %a), %lld ulp from glibc (x = %a); bound %d\n"
		       "      over %ld random inputs: %s\n",
		       f->name, f->worst_exact, f->worst_exact_x, (long long)f->worst_libm,
		       f->worst_libm_x, f->bound, count, f->ranges);
		if (f->libm_off)
			printf("      and %ld input(s) where glibc is off by more, e.g. x = %a\n",
			       f->libm_off, f->libm_off_x);
		CHECK(f->bad == 0);
		CHECK(f->worst_libm <= f->bound);
	}
}

/* The bitcode lib/ embeds is the bitcode the build made. */
static void test_embedded(void)
{
#if TILECC_HAVE_DEVMATH
	size_t n = 0;
	unsigned char *bc = test_slurp(TILECC_DEVMATH_BC, &n);
	CHECK(bc != NULL);
	CHECK(bc && n == tilecc_devmath_amdgpu_bc_len &&
	      !memcmp(bc, tilecc_devmath_amdgpu_bc, n));
	CHECK(tilecc_devmath_amdgpu_bc_len > 4 &&
	      !memcmp(tilecc_devmath_amdgpu_bc, "BC\xc0\xde", 4)); /* bitcode's magic */
	free(bc);
#else
	printf("devmath bitcode not embedded in this build (no clang 19)\n");
#endif
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 0);
	test_special();
	test_accuracy(count);
	test_embedded();
	return test_result("test_devmath");
}
