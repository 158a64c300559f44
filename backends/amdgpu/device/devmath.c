/* devmath.c: fp64 math functions for AMD GPUs: exp, exp2, log, log2, sin, cos, tanh, erf, and
 * the rest of libdevice's (tan, asin, acos, atan, atan2, sinh, cosh, log1p, expm1, log10, exp10,
 * cbrt, erfinv, pow, fmod, hypot, ilogb).
 *
 * LLVM's AMDGPU backend cannot lower these by itself and there are no ROCm device
 * libraries to link, so tilecc carries its own: lib/CMakeLists.txt compiles this file to
 * amdgcn bitcode at build time and embeds it (lib/codegen/devmath.h); the AMD lowering
 * links it into a kernel that calls __tilecc_dm_* and internalizes it. fp32 callers
 * convert to fp64 and back. tests/unit/test_devmath.c builds the same file natively and
 * compares it with glibc.
 *
 * Freestanding C11 (though compiled as hosted: see lib/CMakeLists.txt): no libm, no
 * mutable globals, no recursion; only builtins that become LLVM intrinsics the AMDGPU
 * backend lowers inline (fma, rint, ldexp, frexp, clz, ...). Every polynomial is a
 * Taylor series whose coefficients are exact rationals, written as such and rounded by the
 * compiler; the other constants come from gen_consts.py next to this file.
 *
 * The building block is the double-double: a value as hi + lo, lo far below hi, that
 * carries the rounding error of a step into the next, so that every function rounds
 * essentially once, at its end. test_devmath.c measures errors below 0.85 ulp for all
 * eight, over their whole domains; sin and cos reduce any finite argument exactly
 * enough (Cody-Waite below 2^30, Payne-Hanek above).
 */
#include <stdbool.h>
#include <stdint.h>

#include "devmath.h"

/* Rounded to nearest from the exact values by gen_consts.py; X_HI + X_LO is X to about
 * 2^-107 relative, PIO2_1 + PIO2_2 + PIO2_3 is pi/2 to 2^-160. */
#define LN2_HI 0x1.62e42fefa39efp-1
#define LN2_LO 0x1.abc9e3b39803fp-56
#define LOG2E_HI 0x1.71547652b82fep+0
#define LOG2E_LO 0x1.777d0ffda0d24p-56
#define PIO2_1 0x1.921fb54442d18p+0
#define PIO2_2 0x1.1a62633145c07p-54
#define PIO2_3 -0x1.f1976b7ed8fbcp-110
#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define TWO_OVER_SQRTPI_HI 0x1.20dd750429b6dp+0
#define TWO_OVER_SQRTPI_LO 0x1.1ae3a914fed80p-56
#define ONE_OVER_SQRTPI 0x1.20dd750429b6dp-1
#define SQRT_HALF 0x1.6a09e667f3bcdp-1
#define INF __builtin_inf()

typedef struct {
	double hi, lo;
} dd;

/* a b + c, rounded once */
static double fmadd(double a, double b, double c) { return __builtin_fma(a, b, c); }

/* a + b as hi + lo exactly, given |a| >= |b| or a == 0 (Dekker's Fast2Sum). */
static dd fast_sum(double a, double b)
{
	double s = a + b;
	return (dd){s, (a - s) + b};
}

/* a + b as hi + lo exactly, whatever their magnitudes (Knuth's TwoSum). */
static dd two_sum(double a, double b)
{
	double s = a + b;
	double bb = s - a;
	return (dd){s, (a - (s - bb)) + (b - bb)};
}

/* c[0] + c[1] x + ... + c[n-1] x^(n-1), by Horner's rule with fused steps. */
static double horner(const double *c, int n, double x)
{
	double p = c[n - 1];
	for (int i = n - 2; i >= 0; i--)
		p = fmadd(p, x, c[i]);
	return p;
}

/* ---- exp and exp2 ---- */

/* 1/2!, 1/3!, ..., 1/13!: exp(r) - 1 - r = r^2 (...) for |r| <= 0.35; the first term
 * left out, r^14/14!, is below 2^-57. */
static const double exp_taylor[] = {
    1.0 / 2,         1.0 / 6,           1.0 / 24,           1.0 / 120,
    1.0 / 720,       1.0 / 5040,        1.0 / 40320,        1.0 / 362880,
    1.0 / 3628800,   1.0 / 39916800,    1.0 / 479001600,    1.0 / 6227020800,
};

/* x = k ln2 + r.hi + r.lo with |r| <= 0.35, for |x| < 1100; returns k. The fma is exact:
 * once k is nonzero (|x| > 0.34), x and k LN2_HI are both multiples of 2^-54, and their
 * difference is below 1/2, so it fits in 53 bits. The error left, k times LN2's own past
 * LN2_LO, is below 2^-95. */
static double exp_reduce(double x, dd *r)
{
	double k = __builtin_rint(x * LOG2E_HI);
	double a = fmadd(-k, LN2_HI, x);
	double t = k * LN2_LO;
	double h = a - t;
	r->hi = h;
	r->lo = (a - h) - t;
	return k;
}

/* e^r - 1 - r.hi for |r| <= 0.35: all of e^r but its two largest terms, which the caller
 * adds with care. e^(h+l) = e^h (1 + l) to well below an ulp, and e^h l = l + (h + q) l
 * with q = e^h - 1 - h: the q l term matters once l is more than a few ulps of h (pow's
 * and exp10's products carry l up to 2^-44). */
static double exp_tail(dd r)
{
	double p = horner(exp_taylor, sizeof exp_taylor / sizeof *exp_taylor, r.hi);
	double q = r.hi * r.hi * p;
	return q + fmadd(r.lo, r.hi + q, r.lo);
}

/* e^(hi + lo) for |hi| < 1100 and |lo| tiny beside it; ldexp takes care of overflow and
 * of results in the subnormal range. */
static double exp_dd_scaled(double hi, double lo, int scale)
{
	dd r;
	double k = exp_reduce(hi, &r);
	r.lo += lo;
	dd one = fast_sum(1.0, r.hi);
	double y = one.hi + (one.lo + exp_tail(r));
	return __builtin_ldexp(y, (int)k + scale);
}

static double exp_dd(double hi, double lo) { return exp_dd_scaled(hi, lo, 0); }

double __tilecc_dm_exp(double x)
{
	if (__builtin_isnan(x))
		return x + x;
	if (x > 709.8) /* above log(DBL_MAX) = 709.78..., and +inf */
		return INF;
	if (x < -745.2) /* below log(2^-1075), and -inf */
		return 0.0;
	return exp_dd(x, 0.0);
}

double __tilecc_dm_exp2(double x)
{
	if (__builtin_isnan(x))
		return x + x;
	if (x > 1025.0) /* ldexp overflows or underflows in between */
		return INF;
	if (x < -1080.0)
		return 0.0;
	/* 2^x = 2^k e^(f ln2) with f = x - k exact, |f| <= 1/2 */
	double k = __builtin_rint(x);
	double f = x - k;
	double h = f * LN2_HI;
	double l = fmadd(f, LN2_HI, -h) + f * LN2_LO;
	dd one = fast_sum(1.0, h);
	double y = one.hi + (one.lo + exp_tail((dd){h, l}));
	return __builtin_ldexp(y, (int)k);
}

/* ---- log and log2 ---- */

/* 1/12, 1/80, ..., 1/(4^n (2n+1)): log(1+f) = 2 atanh(u/2) with u = 2f/(2+f) is
 * u + u^3/12 + u^5/80 + ...; |u| <= 0.344, so the first term left out, n = 11, is below
 * 2^-60 of u. All terms have one sign: no cancellation. */
static const double log_taylor[] = {
    1.0 / 12,      1.0 / 80,       1.0 / 448,      1.0 / 2304,      1.0 / 11264,
    1.0 / 53248,   1.0 / 245760,   1.0 / 1114112,  1.0 / 4980736,   1.0 / 22020096,
};

/* x = 2^e m with m in [sqrt(1/2), sqrt(2)); returns log(m) as hi + lo, for finite x > 0
 * (subnormals too: frexp normalizes them). */
static dd log_kernel(double x, int *e)
{
	double m = __builtin_frexp(x, e);
	if (m < SQRT_HALF) {
		m *= 2.0;
		*e -= 1;
	}
	double f = m - 1.0; /* exact */
	double u = 2.0 * f / (2.0 + f);
	/* The rounding errors of 2 + f and of the division, recovered: 2f - u(2 + f) =
	 * 2(f - u) - u f, where f - u is exact because u and f are within a factor 2. */
	double rho = fmadd(-u, f, 2.0 * (f - u));
	double ulo = rho / (2.0 + f);
	double z = u * u;
	double t = u * z * horner(log_taylor, sizeof log_taylor / sizeof *log_taylor, z);
	return (dd){u, ulo + t};
}

/* log and log2 of NaN, negative numbers, zero and +inf (C99 Annex F): true with *r set,
 * false for the finite positive x the kernel takes. */
static bool log_special(double x, double *r)
{
	if (__builtin_isnan(x))
		*r = x + x;
	else if (x < 0.0)
		*r = __builtin_nan("");
	else if (x == 0.0)
		*r = -INF;
	else if (__builtin_isinf(x))
		*r = x;
	else
		return false;
	return true;
}

double __tilecc_dm_log(double x)
{
	double r;
	if (log_special(x, &r))
		return r;
	int e;
	dd l = log_kernel(x, &e);
	/* e ln2 + l; |e ln2| >= 0.69 > |l.hi| unless e is 0 */
	double de = e;
	double h = de * LN2_HI;
	double hl = fmadd(de, LN2_HI, -h) + de * LN2_LO;
	dd s = fast_sum(h, l.hi);
	return s.hi + (s.lo + (hl + l.lo));
}

double __tilecc_dm_log2(double x)
{
	double r;
	if (log_special(x, &r))
		return r;
	int e;
	dd l = log_kernel(x, &e);
	/* e + l log2(e), the product in double-double; |l log2(e)| <= 1/2 <= |e| or e is 0 */
	double p = l.hi * LOG2E_HI;
	double pl = fmadd(l.hi, LOG2E_HI, -p) + (l.hi * LOG2E_LO + l.lo * LOG2E_HI);
	dd s = fast_sum((double)e, p);
	return s.hi + (s.lo + pl);
}

/* ---- sin and cos ---- */

/* -1/3!, 1/5!, ..., -1/15!, 1/17!: sin(h) = h + h z (...) with z = h^2; for |h| <= pi/4
 * the first term left out, h^19/19!, is below 2^-62 of sin(h). */
static const double sin_taylor[] = {
    -1.0 / 6,            1.0 / 120,             -1.0 / 5040,
    1.0 / 362880,        -1.0 / 39916800,       1.0 / 6227020800,
    -1.0 / 1307674368000, 1.0 / 355687428096000,
};

/* 1/4!, -1/6!, ..., 1/16!, -1/18!: cos(h) = 1 - z/2 + z^2 (...); the first term left out,
 * h^20/20!, is below 2^-67. */
static const double cos_taylor[] = {
    1.0 / 24,              -1.0 / 720,              1.0 / 40320,
    -1.0 / 3628800,        1.0 / 479001600,         -1.0 / 87178291200,
    1.0 / 20922789888000,  -1.0 / 6402373705728000,
};

/* sin(r.hi + r.lo) = sin(h) + l cos(h) ~ h + h z S(z) + l (1 - z/2), for |r| <~ pi/4. */
static double sin_kernel(dd r)
{
	double h = r.hi, z = h * h;
	double s = h * z * horner(sin_taylor, sizeof sin_taylor / sizeof *sin_taylor, z);
	return h + (s + fmadd(r.lo, -0.5 * z, r.lo));
}

/* cos(r.hi + r.lo) = cos(h) - l sin(h) ~ 1 - h^2/2 + h^4 C(h^2) - l h. The large part,
 * 1 - h^2/2, is formed exactly: h^2 = z + ze by fma, and 1 - z/2 by Fast2Sum. */
static double cos_kernel(dd r)
{
	double h = r.hi, z = h * h;
	double ze = fmadd(h, h, -z);
	dd w = fast_sum(1.0, -0.5 * z);
	double c = z * z * horner(cos_taylor, sizeof cos_taylor / sizeof *cos_taylor, z);
	return w.hi + (w.lo + (c - (0.5 * ze + r.lo * h)));
}

/* Below this, reduce_cody_waite; above, reduce_payne_hanek. */
#define CODY_WAITE_LIMIT 0x1p30

/* x = k pi/2 + r, for pi/4 < x < 2^30: Cody and Waite's reduction with pi/2 in three
 * parts. x - k PIO2_1 is exact (a multiple of 2^-53 below 1, as in exp_reduce); k PIO2_2
 * is taken exactly as b + bl by fma and subtracted by TwoSum; what remains inexact is
 * of the order of k 2^-159 <= 2^-129. No double below 2^30 lies closer than 2^-60.5 to a
 * multiple of pi/2 (continued fractions of pi/2^n tell; of all doubles, 6381956970095103
 * 2^797 comes closest, 2^-60.9), so r is right to 2^-68 of itself, however close x comes
 * to a multiple of pi/2. Returns k mod 4. */
static int reduce_cody_waite(double x, dd *r)
{
	double k = __builtin_rint(x * TWO_OVER_PI);
	double a = fmadd(-k, PIO2_1, x);
	double b = k * PIO2_2;
	double bl = fmadd(k, PIO2_2, -b);
	dd s = two_sum(a, -b);
	double lo = (s.lo - bl) - k * PIO2_3;
	*r = two_sum(s.hi, lo);
	return (int)k & 3;
}

/* 2/pi in 32-bit words, most significant first: 2/pi = sum of w[i] 2^(-32i), w[0] being
 * the integer part, 0. 1184 bits: reduce_payne_hanek reads words j .. j+6, and j is 31
 * for the largest double. */
static const uint32_t two_over_pi_words[38] = {
    0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599,
    0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea,
    0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026,
    0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff,
    0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66,
    0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
    0x1f8d5d08, 0x56033046,
};

/* x = k pi/2 + r for finite x >= 2^30 (Payne and Hanek): x 2/pi mod 4 in fixed point,
 * from the words of 2/pi that matter. x = m 2^e with m < 2^53; write it (m << t) 2^(2 +
 * 32(j-1)) with t in [0, 31]. Then x w[i] 2^(-32i) is a multiple of 4 for i < j, and
 * words j .. j+6 give x 2/pi mod 4 to 2^-138: P = (m << t) (w[j] .. w[j+6]) holds it as
 * 2 integer bits and 222 fraction bits in 32-bit digits, least significant first (digits
 * above the seventh are multiples of 4, so never formed). Returns k mod 4. */
static int reduce_payne_hanek(double x, dd *r)
{
	uint64_t ix;
	__builtin_memcpy(&ix, &x, sizeof ix);
	int e = (int)(ix >> 52) - 1075;
	uint64_t m = (ix & 0xfffffffffffffull) | 1ull << 52;
	int j = (e + 30) / 32;
	int t = e + 30 - 32 * j;
	uint64_t mlo = m << t, mhi = t ? m >> (64 - t) : 0;
	uint64_t md[3] = {mlo & 0xffffffff, mlo >> 32, mhi};
	uint64_t acc[7] = {0};
	for (int i = 0; i < 7; i++) {
		uint64_t w = two_over_pi_words[j + i];
		for (int d = 0; d < 3; d++) {
			int p = 6 - i + d; /* where md[d] w lands */
			uint64_t prod = md[d] * w;
			if (p < 7)
				acc[p] += prod & 0xffffffff;
			if (p < 6)
				acc[p + 1] += prod >> 32;
		}
	}
	for (int p = 0; p < 6; p++) {
		acc[p + 1] += acc[p] >> 32;
		acc[p] &= 0xffffffff;
	}
	int q = (int)(acc[6] >> 30 & 3);
	/* The top 128 fraction bits; the rest is below 2^-128, and the fraction itself is
	 * above 2^-62 (no double comes within 2^-60.9 of a multiple of pi/2). */
	uint64_t fh = (acc[6] & 0x3fffffff) << 34 | acc[5] << 2 | acc[4] >> 30;
	uint64_t fl = (acc[4] & 0x3fffffff) << 34 | acc[3] << 2 | acc[2] >> 30;
	bool neg = fh >> 63;
	if (neg) { /* fraction >= 1/2: next quadrant, fraction - 1 */
		q++;
		fl = -fl;
		fh = ~fh + (fl == 0);
	}
	/* |fraction| = (fh + fl 2^-64) 2^-64, shifted so that fh has its top bit set (the
	 * fraction is above 2^-62, so 66 bits or more remain), then as a + b: a the top 53
	 * bits exactly, b the rest, rounded far below them. */
	int sh = __builtin_clzll(fh | 1);
	if (sh) {
		fh = fh << sh | fl >> (64 - sh);
		fl <<= sh;
	}
	double a = __builtin_ldexp((double)(fh & ~0x7ffull), -64 - sh);
	double b = __builtin_ldexp((double)(fh & 0x7ff) + (double)fl * 0x1p-64, -64 - sh);
	/* r = fraction pi/2 */
	double h = a * PIO2_1;
	double l = fmadd(a, PIO2_1, -h) + (a * PIO2_2 + b * PIO2_1);
	dd s = fast_sum(h, l);
	*r = neg ? (dd){-s.hi, -s.lo} : s;
	return q & 3;
}

/* x = k pi/2 + r with |r| <= pi/4 (a hair more near the limits), for finite x >= 0;
 * returns k mod 4. */
static int reduce(double x, dd *r)
{
	if (x <= 0x1.921fb54442d18p-1) {
		*r = (dd){x, 0.0};
		return 0;
	}
	if (x < CODY_WAITE_LIMIT)
		return reduce_cody_waite(x, r);
	return reduce_payne_hanek(x, r);
}

double __tilecc_dm_sin(double x)
{
	double ax = __builtin_fabs(x);
	if (!(ax <= 0x1.fffffffffffffp+1023)) /* NaN, or +-inf */
		return x - x;
	if (ax < 0x1p-26) /* sin x = x (1 - x^2/6) rounds to x, +-0 included */
		return x;
	dd r;
	int q = reduce(ax, &r);
	double y = q & 1 ? cos_kernel(r) : sin_kernel(r);
	if (q & 2)
		y = -y;
	return x < 0.0 ? -y : y;
}

double __tilecc_dm_cos(double x)
{
	double ax = __builtin_fabs(x);
	if (!(ax <= 0x1.fffffffffffffp+1023))
		return x - x;
	if (ax < 0x1p-27) /* cos x = 1 - x^2/2 rounds to 1 */
		return 1.0;
	dd r;
	int q = reduce(ax, &r);
	double y = q & 1 ? sin_kernel(r) : cos_kernel(r);
	return (q + 1) & 2 ? -y : y;
}

/* ---- tanh ---- */

/* e^y - 1 as hi + lo, for 2^-27 <= y < 39, without cancellation: with y = k ln2 + r,
 * e^y - 1 = (2^k - 1) + 2^k (r + tail), and r + tail is formed apart from the 1. */
static dd expm1_dd(double y)
{
	dd r;
	double k = exp_reduce(y, &r);
	double tail = exp_tail(r);
	if (k == 0.0)
		return fast_sum(r.hi, tail);
	/* 2^k - 1 is exact up to k = 53; above, its error is below 2^-53 of e^y - 1, which
	 * tanh = em/(em + 2) divides down to nothing. */
	double s = __builtin_ldexp(1.0, (int)k);
	dd a = two_sum(s - 1.0, s * r.hi);
	return fast_sum(a.hi, a.lo + s * tail);
}

double __tilecc_dm_tanh(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax < 0x1p-27) /* tanh x = x (1 - x^2/3) rounds to x, +-0 included */
		return x;
	if (ax > 19.1) /* 1 - tanh x < 2e^-2x < 2^-54 rounds to 1; +-inf included */
		return __builtin_copysign(1.0, x);
	/* tanh |x| = em / (em + 2), em = e^2|x| - 1: a double-double division */
	dd em = expm1_dd(2.0 * ax);
	dd d = two_sum(em.hi, 2.0);
	d.lo += em.lo;
	double q = em.hi / d.hi;
	double rem = fmadd(-q, d.hi, em.hi) + (em.lo - q * d.lo);
	return __builtin_copysign(q + rem / d.hi, x);
}

/* ---- erf ---- */

/* (-1)^n / (n! (2n+1)) for n = 1 .. 12: erf x = 2/sqrt(pi) (x + x z (...)), z = x^2.
 * For |x| < 1/2 the terms fall by z/n < 1/4 at each step, so the alternating signs
 * cost nothing; the first term left out is below 2^-66 of x. */
static const double erf_taylor[] = {
    -1.0 / 3,            1.0 / 10,              -1.0 / 42,
    1.0 / 216,           -1.0 / 1320,           1.0 / 9360,
    -1.0 / 75600,        1.0 / 685440,          -1.0 / 6894720,
    1.0 / 76204800,      -1.0 / 918086400,      1.0 / 11975040000,
};

/* Centres a = 0.75, 1.25, ..., 2.75 for erf(a + h), |h| <= 1/4: {a, erf(a) as hi + lo,
 * erf'(a) = 2/sqrt(pi) e^(-a^2) as hi + lo}, from gen_consts.py. */
static const double erf_centres[][5] = {
    {0.75, 0x1.6c1c9759d0e5fp-1, 0x1.b1432f2cbc455p-55, 0x1.492e42d78d2c5p-1, -0x1.8bd386a7ba3f6p-55},
    {1.25, 0x1.d8865d98abe01p-1, -0x1.fcec4afb974d9p-55, 0x1.e4652fadcb6b2p-3, -0x1.e950836901024p-61},
    {1.75, 0x1.f92d077f8d56dp-1, 0x1.8b55ef493fce7p-56, 0x1.b055303221015p-5, 0x1.cba9ea60ed019p-59},
    {2.25, 0x1.ff404760319b4p-1, 0x1.f142071432025p-56, 0x1.d4143a9dfe965p-8, -0x1.6eec3c35c7ed7p-63},
    {2.75, 0x1.fff2cfb0453d9p-1, 0x1.9a913686042a3p-55, 0x1.3360ccd23db3ap-11, 0x1.39e15444e9dddp-69},
};

/* 1/1, 1/2, ..., 1/21, for the series in erf_centre without divisions. */
static const double recip[] = {
    1.0 / 1,  1.0 / 2,  1.0 / 3,  1.0 / 4,  1.0 / 5,  1.0 / 6,  1.0 / 7,
    1.0 / 8,  1.0 / 9,  1.0 / 10, 1.0 / 11, 1.0 / 12, 1.0 / 13, 1.0 / 14,
    1.0 / 15, 1.0 / 16, 1.0 / 17, 1.0 / 18, 1.0 / 19, 1.0 / 20, 1.0 / 21,
};

/* erf x for |x| < 1/2, from the Taylor series at 0. The leading 2/sqrt(pi) x is a
 * double-double product. */
static double erf_small(double x)
{
	double z = x * x;
	double s = x * z * horner(erf_taylor, sizeof erf_taylor / sizeof *erf_taylor, z);
	double p = x * TWO_OVER_SQRTPI_HI;
	double pl = fmadd(x, TWO_OVER_SQRTPI_HI, -p);
	return p + (pl + (x * TWO_OVER_SQRTPI_LO + s * TWO_OVER_SQRTPI_HI));
}

/* erf x for 1/2 <= x < 3, from the Taylor series at the nearest centre a:
 * erf(a + h) = erf(a) + erf'(a) h (1 + sum over n >= 1 of g_n h^n/(n+1)), where the sum of
 * g_n h^n is e^(-2ah - h^2) = erf'(a+h)/erf'(a). From (e^(-2ah-h^2))' = -2(a+h) e^(-2ah-h^2):
 * g_0 = 1, g_1 = -2a, (n+1) g_(n+1) = -2 (a g_n + g_(n-1)). With d_n = g_n h^n and
 * |h| <= 1/4, the terms after n = 20 are below 2^-60 of the result at every centre.
 * erf(a) and erf'(a) h are exact to 2^-100; the sum, below a fifth of 1, adds its
 * rounding errors at a fifth of their weight, and erf'(a) h below a third of erf(a). */
/* The Taylor series of erf about the nearest centre a of x in [0.5, 3): erf(a) is
 * c[1] + c[2], and erf(x) - erf(a) = p + *tail, with p = erf'(a) h rounded (h = x - a) and
 * *tail the rest. erf and erfc both build on it. */
static const double *erf_series(double x, double *p, double *tail)
{
	const double *c = erf_centres[(int)((x - 0.5) * 2.0)];
	double a = c[0];
	double h = x - a; /* exact: x and a are within a factor 2 */
	double d0 = 1.0, d1 = -2.0 * a * h;
	double sum = d1 * recip[1];
	for (int n = 1; n < 20; n++) {
		double d2 = -2.0 * h * fmadd(a, d1, h * d0) * recip[n];
		sum = fmadd(d2, recip[n + 1], sum);
		d0 = d1;
		d1 = d2;
	}
	*p = c[3] * h;
	double pl = fmadd(c[3], h, -*p) + c[4] * h;
	*tail = c[2] + pl + *p * sum;
	return c;
}

static double erf_centre(double x)
{
	/* erf(a) + erf'(a) h + erf'(a) h sum, the first two exactly as hi + lo */
	double p, tail;
	const double *c = erf_series(x, &p, &tail);
	dd s = two_sum(c[1], p);
	return s.hi + (s.lo + tail);
}

/* erfc x for 3 <= x < 6: x e^(-x^2)/sqrt(pi) / (x^2 + 1/2 - (1*2/4)/(x^2 + 5/2 -
 * (3*4/4)/(x^2 + 9/2 - ...))), the even part of Laplace's continued fraction, evaluated
 * from the bottom. Ten levels are good to 1e-13 of erfc at x = 3, where erfc is
 * 2.2e-5 of erf, so to 2^-60 of erf. e^(-x^2) gets x^2 exactly, as z + zl. */
static double erfc_cf(double x, int levels)
{
	double z = x * x;
	double zl = fmadd(x, x, -z);
	double t = z + (2 * levels + 0.5);
	for (int n = levels; n >= 1; n--)
		t = (z + (2 * n - 1.5)) - n * (2 * n - 1) * 0.5 / t;
	return x * ONE_OVER_SQRTPI * exp_dd(-z, -zl) / t;
}

static double erfc_large(double x)
{
	return erfc_cf(x, 10);
}

double __tilecc_dm_erf(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax < 0x1p-28) /* erf x = 2/sqrt(pi) (x - x^3/3): the cube is below 2^-57 */
		return fmadd(x, TWO_OVER_SQRTPI_HI, x * TWO_OVER_SQRTPI_LO);
	if (ax >= 6.0) /* erfc 6 = 2e-17 < 2^-54: rounds to 1; +-inf included */
		return __builtin_copysign(1.0, x);
	double y;
	if (ax < 0.5)
		y = erf_small(ax);
	else if (ax < 3.0)
		y = erf_centre(ax);
	else
		y = 1.0 - erfc_large(ax);
	return __builtin_copysign(y, x);
}

/* ==== the rest of libdevice's functions ==================================================
 * Built on the kernels above: exp_dd, log_kernel, expm1_dd, the sin/cos reduction and the
 * erf pieces. tests/unit/test_devmath.c measures each against glibc (errors in its table). */

#define LN10_HI 0x1.26bb1bbb55516p+1
#define LN10_LO -0x1.f48ad494ea3e9p-53
#define LOG10E_HI 0x1.bcb7b1526e50ep-2
#define LOG10E_LO 0x1.95355baaafad3p-57

/* log_kernel to about 2^-100 rather than 2^-58 of log(m), for pow, whose result magnifies
 * the error of log x by up to |y log x| ~ 745: the series' first term u^3/12 (up to a
 * hundredth of u) as a double-double, with what ulo adds to it; the rest, below 2e-4 of u,
 * in double; and u + u^3/12 summed exactly. */
static dd log_kernel_dd(double x, int *e)
{
	double m = __builtin_frexp(x, e);
	if (m < SQRT_HALF) {
		m *= 2.0;
		*e -= 1;
	}
	double f = m - 1.0;
	double u = 2.0 * f / (2.0 + f);
	double rho = fmadd(-u, f, 2.0 * (f - u));
	double ulo = rho / (2.0 + f);
	double z = u * u;
	double zl = fmadd(u, u, -z);
	double c = u * z; /* u^3 = c + cl */
	double cl = fmadd(u, z, -c) + u * zl;
	double q = c * (1.0 / 12); /* u^3/12 = q + ql; 1/12 is not exact, its error recovered */
	double ql = (fmadd(-q, 12.0, c) + cl) * (1.0 / 12);
	double rest = c * z * horner(log_taylor + 1, sizeof log_taylor / sizeof *log_taylor - 1, z);
	dd s = fast_sum(u, q);
	return fast_sum(s.hi, s.lo + (ulo + (ql + (z * ulo * 0.25 + rest))));
}

/* log x as hi + lo for finite x > 0: e ln2 + log(m) */
static dd log_dd(double x)
{
	int e;
	dd l = log_kernel_dd(x, &e);
	double de = e;
	double h = de * LN2_HI;
	double hl = fmadd(de, LN2_HI, -h) + de * LN2_LO;
	dd s = fast_sum(h, l.hi);
	return fast_sum(s.hi, s.lo + (hl + l.lo));
}

double __tilecc_dm_log10(double x)
{
	double r;
	if (log_special(x, &r))
		return r;
	dd l = log_dd(x);
	double p = l.hi * LOG10E_HI;
	double pl = fmadd(l.hi, LOG10E_HI, -p) + (l.hi * LOG10E_LO + l.lo * LOG10E_HI);
	return p + pl;
}

double __tilecc_dm_exp10(double x)
{
	if (__builtin_isnan(x))
		return x + x;
	if (x > 308.26) /* above log10(DBL_MAX) = 308.25..., and +inf */
		return INF;
	if (x < -323.7) /* below log10(2^-1075), and -inf */
		return 0.0;
	double h = x * LN10_HI;
	return exp_dd(h, fmadd(x, LN10_HI, -h) + x * LN10_LO);
}

double __tilecc_dm_expm1(double x)
{
	if (__builtin_isnan(x))
		return x + x;
	if (x > 38.0) /* e^x > 2^54: the 1 is below a quarter of an ulp */
		return __tilecc_dm_exp(x);
	if (x < -38.0) /* e^x < 2^-54: rounds to -1; -inf included */
		return -1.0;
	if (__builtin_fabs(x) < 0x1p-54)
		return x;
	dd em = expm1_dd(x);
	return em.hi + em.lo;
}

/* log(1 + x): 1 + x as hi + lo exactly, then log(hi) + lo/hi */
double __tilecc_dm_log1p(double x)
{
	if (__builtin_isnan(x))
		return x + x;
	if (x < -1.0)
		return __builtin_nan("");
	if (x == -1.0)
		return -INF;
	if (__builtin_isinf(x))
		return x;
	if (__builtin_fabs(x) < 0x1p-54)
		return x;
	dd u = two_sum(1.0, x); /* u.hi >= 2^-53: x > -1 is at most -1 + 2^-53 */
	dd l = log_dd(u.hi);
	return l.hi + (l.lo + u.lo / u.hi);
}

double __tilecc_dm_sinh(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax < 0x1p-26) /* sinh x = x (1 + x^2/6) rounds to x */
		return x;
	if (ax > 710.5) /* beyond the overflow threshold 710.4758..., and inf */
		return __builtin_copysign(INF, x);
	double y;
	if (ax > 36.0) {
		y = exp_dd_scaled(ax, 0.0, -1); /* e^x / 2; e^-x is below 2^-100 of it */
	} else {
		/* (em + em / (em + 1)) / 2 with em = e^|x| - 1: no cancellation */
		dd em = expm1_dd(ax);
		dd d = two_sum(em.hi, 1.0);
		d.lo += em.lo;
		double q = em.hi / d.hi;
		double rem = fmadd(-q, d.hi, em.hi) + (em.lo - q * d.lo);
		dd s = fast_sum(em.hi, q);
		y = 0.5 * (s.hi + (s.lo + (em.lo + rem / d.hi)));
	}
	return __builtin_copysign(y, x);
}

double __tilecc_dm_cosh(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax < 0x1p-27)
		return 1.0;
	if (ax > 710.5)
		return INF;
	if (ax > 36.0)
		return exp_dd_scaled(ax, 0.0, -1);
	/* (1 + em) / 2 + 1 / (2 (1 + em)), em = e^|x| - 1, all positive */
	dd em = expm1_dd(ax);
	dd e = two_sum(1.0, em.hi);
	e.lo += em.lo;
	double r = 1.0 / e.hi;
	double rl = (fmadd(-r, e.hi, 1.0) - r * e.lo) * r;
	dd s = fast_sum(e.hi, r);
	return 0.5 * (s.hi + (s.lo + (e.lo + rl)));
}

double __tilecc_dm_tan(double x)
{
	double ax = __builtin_fabs(x);
	if (!(ax <= 0x1.fffffffffffffp+1023))
		return x - x;
	if (ax < 0x1p-27) /* tan x = x (1 + x^2/3) rounds to x */
		return x;
	dd r;
	int q = reduce(ax, &r);
	double s = sin_kernel(r), c = cos_kernel(r);
	double y = q & 1 ? -c / s : s / c;
	return x < 0.0 ? -y : y;
}

/* atan(k/8), k = 0 .. 8, as hi + lo (gen_consts.py) */
static const double atan_eighths[9][2] = {
    {0.0, 0.0},
    {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
    {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
    {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
    {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
};

/* -1/3, 1/5, ..., 1/17: atan t = t + t z (...), z = t^2; for |t| <= 1/15 the first term
 * left out, t^19/19, is below 2^-64 of t. */
static const double atan_taylor[] = {
    -1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11, 1.0 / 13, -1.0 / 15, 1.0 / 17,
};

/* atan(a + al) as hi + lo for 0 <= a <= 1 (al a correction far below a, such as a
 * quotient's rounding error): atan(c) + atan((a - c) / (1 + a c)) with c the nearest
 * multiple of 1/8, so |t| <= 1/15. a - c is exact (Sterbenz), the division's error is
 * recovered, and al enters through the derivative 1 / (1 + a^2). */
static dd atan_dd(double a, double al)
{
	int k = (int)__builtin_rint(a * 8.0);
	double c = k * 0.125;
	double num = a - c, den = fmadd(a, c, 1.0);
	double t = num / den;
	double tl = (fmadd(-t, den, num) - t * fmadd(a, c, 1.0 - den)) / den;
	tl += al / fmadd(a, a, 1.0);
	double z = t * t;
	double p = t * z * horner(atan_taylor, sizeof atan_taylor / sizeof *atan_taylor, z);
	dd s = fast_sum(atan_eighths[k][0], t);
	return fast_sum(s.hi, s.lo + (atan_eighths[k][1] + tl + p));
}

/* atan2 of y >= 0, x >= 0 finite, not both zero, as hi + lo in [0, pi/2] */
static dd atan2_quadrant(double y, double x)
{
	if (y <= x) {
		double q = y / x;
		double ql = fmadd(-q, x, y) / x;
		return atan_dd(q, ql);
	}
	double q = x / y;
	double ql = fmadd(-q, y, x) / y;
	dd a = atan_dd(q, ql);
	dd s = fast_sum(PIO2_1, -a.hi);
	return fast_sum(s.hi, s.lo + (PIO2_2 - a.lo));
}

double __tilecc_dm_atan(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax < 0x1p-27) /* atan x = x (1 - x^2/3) rounds to x */
		return x;
	if (ax > 0x1p60) /* pi/2 - 1/x rounds to pi/2; inf included */
		return __builtin_copysign(PIO2_1, x);
	dd a = ax <= 1.0 ? atan_dd(ax, 0.0) : atan2_quadrant(ax, 1.0);
	return __builtin_copysign(a.hi + a.lo, x);
}

double __tilecc_dm_atan2(double y, double x)
{
	if (__builtin_isnan(x) || __builtin_isnan(y))
		return x + y;
	double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
	bool xneg = __builtin_signbit(x);
	double a;
	if (ay == 0.0) {
		a = xneg ? 2.0 * PIO2_1 : 0.0;
	} else if (__builtin_isinf(ax) && __builtin_isinf(ay)) {
		a = xneg ? 3.0 * 0.5 * PIO2_1 : 0.5 * PIO2_1;
	} else if (__builtin_isinf(ax)) {
		a = xneg ? 2.0 * PIO2_1 : 0.0;
	} else if (__builtin_isinf(ay) || ax == 0.0) {
		a = PIO2_1;
	} else {
		/* scale both alike so that the quotient neither overflows nor is lost */
		if (ax > 0x1p1000 || ay > 0x1p1000) {
			ax *= 0x1p-60;
			ay *= 0x1p-60;
		} else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
			ax *= 0x1p60;
			ay *= 0x1p60;
		}
		dd q = atan2_quadrant(ay, ax);
		if (xneg) { /* pi - q */
			dd s = fast_sum(2.0 * PIO2_1, -q.hi);
			a = s.hi + (s.lo + (2.0 * PIO2_2 - q.lo));
		} else {
			a = q.hi + q.lo;
		}
	}
	return __builtin_copysign(a, y);
}

/* 1 - x^2 for |x| <= 1, with x^2 exact as hi + lo */
static double one_minus_square(double x)
{
	double p = x * x;
	double pl = fmadd(x, x, -p);
	return (1.0 - p) - pl;
}

double __tilecc_dm_asin(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax > 1.0)
		return __builtin_nan("");
	if (ax < 0x1p-26) /* asin x = x (1 + x^2/6) rounds to x */
		return x;
	double c = __builtin_sqrt(one_minus_square(ax));
	dd a = atan2_quadrant(ax, c);
	return __builtin_copysign(a.hi + a.lo, x);
}

double __tilecc_dm_acos(double x)
{
	double ax = __builtin_fabs(x);
	if (__builtin_isnan(x))
		return x + x;
	if (ax > 1.0)
		return __builtin_nan("");
	double s = __builtin_sqrt(one_minus_square(ax));
	if (ax == 0.0)
		return PIO2_1;
	dd a = atan2_quadrant(s, ax);
	if (x < 0.0) {
		dd d = fast_sum(2.0 * PIO2_1, -a.hi);
		return d.hi + (d.lo + (2.0 * PIO2_2 - a.lo));
	}
	return a.hi + a.lo;
}

double __tilecc_dm_cbrt(double x)
{
	if (!(__builtin_fabs(x) <= 0x1.fffffffffffffp+1023) || x == 0.0)
		return x + x; /* NaN, +-inf, +-0 */
	int e;
	double m = __builtin_frexp(__builtin_fabs(x), &e); /* |x| = m 2^e, m in [1/2, 1) */
	int q = e >= 0 ? e / 3 : -((-e + 2) / 3);
	double mm = __builtin_ldexp(m, e - 3 * q); /* in [1/2, 4) */
	/* exp(log(mm)/3) is within a few ulps; one Newton step with y^3 as a double-double
	 * takes it below an ulp */
	dd l = log_dd(mm);
	double y = exp_dd(l.hi / 3.0, 0.0);
	double p = y * y;
	double pl = fmadd(y, y, -p);
	double c = p * y;
	double cl = fmadd(p, y, -c) + pl * y;
	y -= ((c - mm) + cl) / (3.0 * p);
	return __builtin_copysign(__builtin_ldexp(y, q), x);
}

double __tilecc_dm_hypot(double x, double y)
{
	double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
	if (__builtin_isinf(ax) || __builtin_isinf(ay))
		return INF;
	if (__builtin_isnan(ax) || __builtin_isnan(ay))
		return x + y;
	double a = ax > ay ? ax : ay, b = ax > ay ? ay : ax;
	if (b == 0.0)
		return a;
	int scale = 0;
	if (a > 0x1p500) {
		a *= 0x1p-600;
		b *= 0x1p-600;
		scale = 600;
	} else if (a < 0x1p-500) {
		a *= 0x1p600;
		b *= 0x1p600;
		scale = -600;
	}
	/* a^2 + b^2 as hi + lo, its square root, one correction step */
	double a2 = a * a, a2l = fmadd(a, a, -a2), b2 = b * b, b2l = fmadd(b, b, -b2);
	dd s = two_sum(a2, b2);
	double sl = s.lo + (a2l + b2l);
	double h = __builtin_sqrt(s.hi);
	double rem = fmadd(-h, h, s.hi) + sl;
	h += rem / (2.0 * h);
	return __builtin_ldexp(h, scale);
}

/* x - trunc(x / y) y, exactly: subtract |y| 2^k for the k that keeps |y| 2^k <= r <
 * 2 |y| 2^k, which makes each subtraction exact (Sterbenz), until r < |y|. */
double __tilecc_dm_fmod(double x, double y)
{
	double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
	if (__builtin_isnan(x) || __builtin_isnan(y) || __builtin_isinf(ax) || ay == 0.0)
		return __builtin_nan("");
	if (ax < ay)
		return x;
	int ey;
	__builtin_frexp(ay, &ey);
	double r = ax;
	while (r >= ay) {
		int er;
		__builtin_frexp(r, &er);
		double t = __builtin_ldexp(ay, er - ey);
		if (t > r)
			t *= 0.5;
		r -= t;
	}
	return __builtin_copysign(r, x);
}

int __tilecc_dm_ilogb(double x)
{
	if (__builtin_isnan(x) || x == 0.0)
		return -2147483647 - 1; /* FP_ILOGB0 and FP_ILOGBNAN, as glibc on x86-64 and CUDA */
	if (__builtin_isinf(x))
		return 2147483647;
	int e;
	__builtin_frexp(x, &e);
	return e - 1;
}

/* pow(x, y) = e^(y log|x|), the product in double-double; C99 Annex F's special cases */
static bool is_odd_integer(double y)
{
	if (__builtin_fabs(y) >= 0x1p53 || __builtin_trunc(y) != y)
		return false;
	double h = y * 0.5;
	return __builtin_trunc(h) != h;
}

double __tilecc_dm_pow(double x, double y)
{
	if (y == 0.0 || x == 1.0)
		return 1.0;
	if (__builtin_isnan(x) || __builtin_isnan(y))
		return x + y;
	double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
	bool odd = x < 0.0 || (x == 0.0 && __builtin_signbit(x)) ? is_odd_integer(y) : false;
	if (__builtin_isinf(ay)) {
		if (ax == 1.0)
			return 1.0;
		return (ax < 1.0) == (y < 0.0) ? INF : 0.0;
	}
	if (ax == 0.0 || __builtin_isinf(ax)) {
		bool big = (ax == 0.0) == (y < 0.0);
		return __builtin_copysign(big ? INF : 0.0, odd ? -1.0 : 1.0);
	}
	if (x < 0.0 && __builtin_trunc(y) != y)
		return __builtin_nan("");
	dd l = log_dd(ax);
	double p = y * l.hi;
	double pl = fmadd(y, l.hi, -p) + y * l.lo;
	double r;
	if (p > 709.8)
		r = INF;
	else if (p < -745.2)
		r = 0.0;
	else
		r = exp_dd(p, pl);
	return odd ? -r : r;
}

/* erfc x for x >= 0 with its relative accuracy (erfinv's Newton steps need it where erf
 * rounds to 1). For 1/2 <= x < 3, 1 - erf(a + h) from the centre's series: 1 - erf(a) is
 * exact, and the rest is at most comparable to it. */
static double erfc_pos(double x)
{
	if (x < 0.5)
		return 1.0 - erf_small(x);
	if (x < 3.0) {
		double p, tail;
		const double *c = erf_series(x, &p, &tail);
		dd s = two_sum(1.0 - c[1], -p);
		return s.hi + (s.lo - tail);
	}
	if (x >= 27.0)
		return 0.0;
	/* erfc_large's continued fraction, 60 levels deep rather than 10: its relative error
	 * at x = 3 is then below 2^-60 where erfc_large's is 1e-13 (plenty beside 1 for erf,
	 * not for erfc itself) */
	return erfc_cf(x, 60);
}

/* erfinv y: Giles' single-precision approximation ("Approximating the erfinv function",
 * GPU Computing Gems, 2011) to start, then Newton steps on erf (|y| <= 1/2) or on
 * log erfc with 1 - |y| exact (the tail, where erf rounds to 1 but erfc keeps its
 * precision). */
double __tilecc_dm_erfinv(double y)
{
	double a = __builtin_fabs(y);
	if (__builtin_isnan(y) || a > 1.0)
		return __builtin_nan("");
	if (a == 1.0)
		return __builtin_copysign(INF, y);
	if (a < 0x1p-54) /* erfinv y = sqrt(pi)/2 y (1 + ...) */
		return y * (0.5 / ONE_OVER_SQRTPI);
	double t = 1.0 - a; /* exact for a >= 1/2 */
	double w = -__tilecc_dm_log1p(-a * a);
	double p;
	if (w < 5.0) {
		w -= 2.5;
		p = 2.81022636e-08;
		p = fmadd(p, w, 3.43273939e-07);
		p = fmadd(p, w, -3.5233877e-06);
		p = fmadd(p, w, -4.39150654e-06);
		p = fmadd(p, w, 0.00021858087);
		p = fmadd(p, w, -0.00125372503);
		p = fmadd(p, w, -0.00417768164);
		p = fmadd(p, w, 0.246640727);
		p = fmadd(p, w, 1.50140941);
	} else {
		w = __builtin_sqrt(w) - 3.0;
		p = -0.000200214257;
		p = fmadd(p, w, 0.000100950558);
		p = fmadd(p, w, 0.00134934322);
		p = fmadd(p, w, -0.00367342844);
		p = fmadd(p, w, 0.00573950773);
		p = fmadd(p, w, -0.0076224613);
		p = fmadd(p, w, 0.00943887047);
		p = fmadd(p, w, 1.00167406);
		p = fmadd(p, w, 2.83297682);
	}
	/* Newton on erf(x) - a, or in the tail on log(erfc(x) / t), which is nearly a
	 * quadratic in x (erfc falls like e^-x^2, which Newton on erfc itself follows slowly) */
	double x = p * a;
	for (int i = 0; i < 4; i++) {
		double z = x * x;
		double d = TWO_OVER_SQRTPI_HI * exp_dd(-z, -fmadd(x, x, -z)); /* erf'(x) */
		if (a <= 0.5) {
			x -= (__tilecc_dm_erf(x) - a) / d;
		} else {
			double c = erfc_pos(x);
			x += __tilecc_dm_log(c / t) * c / d;
		}
	}
	return __builtin_copysign(x, y);
}
