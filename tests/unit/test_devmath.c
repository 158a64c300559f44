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
 * The functions of two arguments (pow, atan2, fmod, hypot) are measured the same way on
 * random pairs; erfinv, which glibc lacks, against Newton's method in long double on erfl
 * and erfcl; ilogb must equal glibc's (INT_MIN for NaN, as on x86-64).
 *
 * Usage: test_devmath [count [seed]]   count random inputs per function, 10^6 by default */
#define _GNU_SOURCE /* exp10, exp10l */
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

static double random_tan(void)
{
	return rnd() % 3 ? random_trig() : uniform(-10, 10);
}

static double random_asin(void)
{
	switch (rnd() % 4) {
	case 0: return uniform(-1, 1);
	case 1: return logu(-60, 0);
	case 2: return (1 - ldexp(1, -(int)(rnd() % 53))) * (rnd() & 1 ? 1 : -1);
	default: return (1 - logu(-53, -1) * (rnd() & 1 ? 1 : -1)) * (rnd() & 1 ? 1 : -1);
	}
}

static double random_atan(void)
{
	switch (rnd() % 4) {
	case 0: return logu(-60, 64);
	case 1: return uniform(-10, 10);
	case 2: return (double)(rnd() % 9) / 8 + uniform(-1.0 / 16, 1.0 / 16); /* the centres */
	default: return uniform(-1.1, 1.1);
	}
}

static double random_sinh(void)
{
	switch (rnd() % 4) {
	case 0: return logu(-40, 9.5);
	case 1: return uniform(-710.5, 710.5);
	case 2: return uniform(-40, 40);
	default: return uniform(708, 710.5) * (rnd() & 1 ? 1 : -1);
	}
}

static double random_log1p(void)
{
	switch (rnd() % 4) {
	case 0: return fabs(logu(-60, 1000));
	case 1: return uniform(-1, 1);
	case 2: return -1 + fabs(logu(-53, -1));
	default: return logu(-60, -1);
	}
}

static double random_expm1(void)
{
	switch (rnd() % 4) {
	case 0: return logu(-60, 5);
	case 1: return uniform(-40, 40);
	case 2: return uniform(700, 709.9);
	default: return uniform(-1, 1);
	}
}

static double random_exp10(void)
{
	switch (rnd() % 3) {
	case 0: return uniform(-323.7, 308.3);
	case 1: return logu(-60, 8);
	default: return uniform(-2, 2);
	}
}

static double random_cbrt(void)
{
	return rnd() & 1 ? logu(-1074, 1024) : any_positive() * (rnd() & 1 ? 1 : -1);
}

static double random_erfinv(void)
{
	switch (rnd() % 4) {
	case 0: return uniform(-1, 1);
	case 1: return logu(-60, 0);
	case 2: return (1 - logu(-53, -1) * (rnd() & 1 ? 1 : -1)) * (rnd() & 1 ? 1 : -1);
	default: return uniform(-0.55, 0.55);
	}
}

/* erfinv in long double: Newton's method on erfl (|y| <= 1/2) or erfcl from the double x0
 * (or, where x0 is no use, a crude start), to long double precision. */
static long double erfinv_exactl(long double y)
{
	long double a = fabsl(y);
	if (isnan(y) || a > 1)
		return NAN;
	if (a == 1)
		return copysignl(INFINITY, y);
	if (a == 0)
		return y;
	long double x = a < 0.9L ? a : sqrtl(-logl(1 - a));
	for (int i = 0; i < 100; i++) {
		long double d = 2 / sqrtl(3.14159265358979323846264338327950288L) * expl(-x * x);
		long double f = a <= 0.5L ? erfl(x) - a : (1 - a) - erfcl(x);
		long double nx = x - f / d;
		if (nx == x)
			break;
		x = nx;
	}
	return copysignl(x, y);
}

/* glibc's exp10l is off by tens of double ulps near 10^300; e^(x ln10) in long double is
 * good to 2^-64 x ln10 relative, a tenth of a double ulp. */
static long double exp10_exactl(long double x)
{
	return expl(x * 2.302585092994045684017991454684364208L);
}

static double erfinv_exact(double y) { return (double)erfinv_exactl(y); }

static const double asin_edges[] = {
    COMMON_EDGES, 0x1p-26, 0x1p-27, 0.9999999999999999, 0.5000000000000001, 0.7071067811865476,
    0x1p-1022, 0.1, 0.9,
};
static const double atan_edges[] = {
    COMMON_EDGES, 0x1p-27, 0x1p60, 0x1p61, 0.0625, 0.1875, 0.3125, 0.4375, 0.5625, 0.9375,
    1.0000000000000002, 0.9999999999999999, 1e300,
};
static const double sinh_edges[] = {
    COMMON_EDGES, 0x1p-26, 0x1p-27, 36, 36.000000000000007, 710.4758600739439, 710.475860073944,
    710.5, 709.78, 0.17328679513998632, 1e-300, 20,
};
static const double log1p_edges[] = {
    COMMON_EDGES, -0.9999999999999999, 0x1p-54, -0x1p-54, 0x1p-53, 1e-300, 0x1p53, 0x1p1000,
    -0.5, 1.7182818284590453,
};
static const double expm1_edges[] = {
    COMMON_EDGES, 36, 36.000000000000007, -38, -38.000000000000007, 709.78, 709.8, 0x1p-54,
    0x1p-53, 0.34657359027997264, 1e-300,
};
static const double exp10_edges[] = {
    COMMON_EDGES, 308.25, 308.2547155599167, 308.26, -307.6, -323.3, -323.6, -323.7, 3, -3,
    22, 0x1p-60, 1e-300,
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
    FUNC(tan, 3, "as sin and cos, and [-10, 10]", random_tan, trig_edges),
    FUNC(asin, 2, "[-1, 1], |x| from 2^-60, 1 - 2^-k", random_asin, asin_edges),
    FUNC(acos, 2, "[-1, 1], |x| from 2^-60, 1 - 2^-k", random_asin, asin_edges),
    FUNC(atan, 2, "|x| 2^-60..2^64, [-10, 10], around k/8", random_atan, atan_edges),
    FUNC(sinh, 3, "|x| 2^-40..710.5, switch points", random_sinh, sinh_edges),
    FUNC(cosh, 3, "|x| 2^-40..710.5, switch points", random_sinh, sinh_edges),
    FUNC(log1p, 2, "(-1, 2^1000], near -1, |x| from 2^-60", random_log1p, log1p_edges),
    FUNC(expm1, 2, "[-40, 709.9], |x| from 2^-60", random_expm1, expm1_edges),
    FUNC(log10, 2, "all positive doubles, subnormals, near 1", random_log, log_edges),
    {"exp10", __tilecc_dm_exp10, exp10, exp10_exactl, 2, "[-323.7, 308.3], |x| from 2^-60",
     random_exp10, exp10_edges, sizeof exp10_edges / sizeof *exp10_edges},
    FUNC(cbrt, 1, "all finite doubles, subnormals", random_cbrt, log_edges),
    {"erfinv", __tilecc_dm_erfinv, erfinv_exact, erfinv_exactl, 2,
     "[-1, 1], |y| from 2^-60, 1 - 2^-k", random_erfinv, asin_edges,
     sizeof asin_edges / sizeof *asin_edges},
};

/* ---- functions of two arguments ---- */

typedef struct {
	const char *name;
	double (*dm)(double, double);
	double (*libm)(double, double);
	long double (*exact)(long double, long double);
	int bound;
	const char *ranges;
	void (*random)(double *x, double *y);
	double worst_exact, worst_exact_x, worst_exact_y;
	int64_t worst_libm;
	long libm_off;
	int bad;
} func2;

static void random_pow(double *x, double *y)
{
	switch (rnd() % 5) {
	case 0: *x = fabs(logu(-20, 20)), *y = uniform(-30, 30); break;
	case 1: *x = 1 + logu(-40, -8), *y = uniform(-1e6, 1e6); break; /* near 1, large y */
	case 2: *x = -fabs(logu(-10, 10)), *y = (double)((int64_t)(rnd() % 201) - 100); break;
	case 3: *x = fabs(logu(-1074, 1024)), *y = uniform(-1.5, 1.5); break;
	default: *x = uniform(0, 4), *y = uniform(-400, 400); break;
	}
}

static void random_atan2(double *x, double *y)
{
	*x = rnd() % 4 ? logu(-60, 60) : logu(-1074, 1024);
	*y = rnd() % 4 ? logu(-60, 60) : logu(-1074, 1024);
}

static void random_fmod(double *x, double *y)
{
	*x = logu(-1074, 1024);
	*y = rnd() % 2 ? logu(-1074, 1024) : *x * logu(-30, 0);
}

static void random_hypot(double *x, double *y)
{
	*x = logu(-1074, 1024);
	*y = rnd() % 2 ? logu(-1074, 1024) : *x * logu(-30, 30);
}

#define FUNC2(n, b, r, rand) {#n, __tilecc_dm_##n, n, n##l, b, r, rand}

static func2 funcs2[] = {
    FUNC2(pow, 2, "x^y: |x| 2^-20..2^20 and |y| < 30, x near 1 with |y| < 10^6, x < 0 with "
                  "integer y, subnormal x", random_pow),
    FUNC2(atan2, 2, "|x|, |y| 2^-60..2^60 and 2^-1074..2^1024, all signs", random_atan2),
    FUNC2(fmod, 0, "|x|, |y| 2^-1074..2^1024, all signs", random_fmod),
    FUNC2(hypot, 1, "|x|, |y| 2^-1074..2^1024, all signs", random_hypot),
};

static void measure2(func2 *f, double x, double y)
{
	double r = f->dm(x, y), ref = f->libm(x, y);
	if (!same_class(r, ref)) {
		if (f->bad++ < 5)
			fprintf(stderr, "%s(%a, %a) = %a, glibc %a\n", f->name, x, y, r, ref);
		return;
	}
	if (isnan(ref))
		return;
	long double exact = f->exact((long double)x, (long double)y);
	double err = ulp_error(r, exact);
	if (err > f->worst_exact) {
		f->worst_exact = err;
		f->worst_exact_x = x;
		f->worst_exact_y = y;
	}
	int64_t d = ordinal(r) - ordinal(ref);
	d = d < 0 ? -d : d;
	if (d <= f->bound) {
		if (d > f->worst_libm)
			f->worst_libm = d;
	} else if (err < ulp_error(ref, exact)) {
		f->libm_off++;
	} else if (f->bad++ < 5) {
		fprintf(stderr, "%s(%a, %a) = %a, glibc %a: %lld ulp apart\n", f->name, x, y, r, ref,
		        (long long)d);
	}
}

static void test_accuracy2(long count)
{
	static const double edges[] = {COMMON_EDGES, 3.0, -3.0, 0.1, 1e300, 1e-300, 0x1p-1022};
	for (func2 *f = funcs2; f < funcs2 + sizeof funcs2 / sizeof *funcs2; f++) {
		for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
			for (size_t j = 0; j < sizeof edges / sizeof *edges; j++) {
				measure2(f, edges[i], edges[j]);
				measure2(f, -edges[i], edges[j]);
			}
		for (long i = 0; i < count; i++) {
			double x, y;
			f->random(&x, &y);
			measure2(f, x, y);
		}
		printf("%-6s max %.3f ulp (x = %a, y = %a), %lld ulp from glibc; bound %d\n"
		       "       over %ld random pairs: %s\n",
		       f->name, f->worst_exact, f->worst_exact_x, f->worst_exact_y,
		       (long long)f->worst_libm, f->bound, count, f->ranges);
		if (f->libm_off)
			printf("       and %ld pair(s) where glibc is off by more\n", f->libm_off);
		CHECK(f->bad == 0);
		CHECK(f->worst_libm <= f->bound);
	}
	/* ilogb: glibc's value (INT_MIN for NaN as for 0, as on x86-64) */
	int bad = 0;
	for (long i = 0; i < count; i++) {
		double x = bits_to_double(rnd());
		int want = isnan(x) ? INT32_MIN : ilogb(x);
		if (__tilecc_dm_ilogb(x) != want && bad++ < 5)
			fprintf(stderr, "ilogb(%a) = %d, glibc %d\n", x, __tilecc_dm_ilogb(x), want);
	}
	static const double ie[] = {COMMON_EDGES, 0x1p-1074, 0x1.8p-1070, 3.0};
	for (size_t i = 0; i < sizeof ie / sizeof *ie; i++) {
		int want = isnan(ie[i]) ? INT32_MIN : ilogb(ie[i]);
		if (__tilecc_dm_ilogb(ie[i]) != want && bad++ < 5)
			fprintf(stderr, "ilogb(%a) = %d, glibc %d\n", ie[i], __tilecc_dm_ilogb(ie[i]), want);
	}
	printf("ilogb  equal to glibc's on %ld random doubles and the edges\n", count);
	CHECK(bad == 0);
}

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
	test_accuracy2(count);
	test_embedded();
	return test_result("test_devmath");
}
