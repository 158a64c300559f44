/* random.c: Triton's random numbers (kernels/random.py) against a Philox written here from
 * the paper (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3", SC'11),
 * itself checked first on the Random123 known-answer vectors (counter and key all zeros,
 * all ones, and the digits of pi).
 *
 * What Triton 3.x computes, and so what is compared bit for bit: the key is the seed as
 * uint64 (a signed seed sign-extended), split into (low, high) 32-bit words for 32-bit
 * counters, (seed, 0) for 64-bit ones; the counter is (offset, 0, 0, 0); randint is word 0,
 * randint4x the four words; rand maps a word w to fp32 as (x < 0 ? ~x : x) * scale with x
 * the word as a signed integer, converted to fp32 and multiplied in fp32. randn (Box-Muller
 * on words 0 and 1) is compared with the same formula in double, within a bound that
 * covers the fp32 rounding of 2 pi u2 and the GPUs' approximate log, sqrt, sin and cos. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference ------------------------------------------------------------------------ */

/* Philox4x32: rounds of two 32x32->64 products, keys bumped by the Weyl constants. */
static void philox4x32(uint32_t c[4], uint32_t k0, uint32_t k1, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
		uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
		uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
		c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
}

/* Philox4x64: the same with 64x64->128 products and the 64-bit constants. */
__extension__ typedef unsigned __int128 u128;

static void philox4x64(uint64_t c[4], uint64_t k0, uint64_t k1, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		u128 p0 = (u128)0xD2E7470EE14C6C93ull * c[0];
		u128 p1 = (u128)0xCA5A826395121157ull * c[2];
		uint64_t n0 = (uint64_t)(p1 >> 64) ^ c[1] ^ k0, n1 = (uint64_t)p1;
		uint64_t n2 = (uint64_t)(p0 >> 64) ^ c[3] ^ k1, n3 = (uint64_t)p0;
		c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
		k0 += 0x9E3779B97F4A7C15ull;
		k1 += 0xBB67AE8584CAA73Bull;
	}
}

/* Triton's uint_to_uniform_float on 32- and 64-bit words. ~x is -x - 1 without overflow. */
static float uniform32(uint32_t w)
{
	int32_t x = (int32_t)w;
	if (x < 0)
		x = ~x;
	return (float)x * 4.6566127342e-10f;
}

static float uniform64(uint64_t w)
{
	int64_t x = (int64_t)w;
	if (x < 0)
		x = ~x;
	return (float)x * (float)1.0842020432385337e-19;
}

/* Box-Muller on two fp32 uniforms, in double; which = 0: r cos th, 1: r sin th. *r_out gets
 * r for the error bound. */
static double normal(float u1f, float u2f, int which, double *r_out)
{
	double u1 = fmax((double)1.0e-7f, (double)u1f);
	double r = sqrt(-2.0 * log(u1)), th = 6.283185307179586 * (double)u2f;
	*r_out = r;
	return which ? r * sin(th) : r * cos(th);
}

/* |got - want| <= 1e-7 + 2e-6 r + 3e-7 / r: the fp32 rounding of th (and sin/cos.approx on
 * NVIDIA, 2^-20.5 absolute) scaled by r, and the absolute error of an approximate log near
 * u1 = 1, which sqrt magnifies by 1 / (2 r). */
static void cmp_normal(const char *what, const float *got, const float *u1, const float *u2,
		       int which, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		double r, want = normal(u1[i], u2[i], which, &r);
		double tol = 1e-7 + 2e-6 * r + 3e-7 / r;
		if (!(fabs((double)got[i] - want) <= tol)) {
			if (bad < 5)
				e2e_fail("%s[%d] = %.9g, expected %.9g (tolerance %.3g)", what, i, got[i], want, tol);
			bad++;
		}
	}
	if (bad)
		e2e_fail("%s: %d of %d mismatches", what, bad, n);
}

/* ---- the reference checked --------------------------------------------------------------- */

static void test_known_answers(void)
{
	static const struct {
		uint32_t c[4], k[2], want[4];
	} v32[] = {
		{{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
		 {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
		 {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	};
	static const struct {
		uint64_t c[4], k[2], want[4];
	} v64[] = {
		{{0, 0, 0, 0}, {0, 0},
		 {0x16554d9eca36314cull, 0xdb20fe9d672d0fdcull, 0xd7e772cee186176bull, 0x7e68b68aec7ba23bull}},
		{{~0ull, ~0ull, ~0ull, ~0ull}, {~0ull, ~0ull},
		 {0x87b092c3013fe90bull, 0x438c3c67be8d0224ull, 0x9cc7d7c69cd777b6ull, 0xa09caebf594f0ba0ull}},
		{{0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull},
		 {0x452821e638d01377ull, 0xbe5466cf34e90c6cull},
		 {0xa528f45403e61d95ull, 0x38c72dbd566e9788ull, 0xa5a1610e72fd18b5ull, 0x57bd43b5e52b7fe6ull}},
	};
	e2e_begin("reference Philox4x32-10 and Philox4x64-10: Random123 known answers");
	for (size_t t = 0; t < E2E_ARRAY_SIZE(v32); t++) {
		uint32_t c[4];
		memcpy(c, v32[t].c, sizeof c);
		philox4x32(c, v32[t].k[0], v32[t].k[1], 10);
		for (int j = 0; j < 4; j++)
			if (c[j] != v32[t].want[j])
				e2e_fail("philox4x32 vector %zu word %d: %08x, expected %08x", t, j, c[j],
					 v32[t].want[j]);
	}
	for (size_t t = 0; t < E2E_ARRAY_SIZE(v64); t++) {
		uint64_t c[4];
		memcpy(c, v64[t].c, sizeof c);
		philox4x64(c, v64[t].k[0], v64[t].k[1], 10);
		for (int j = 0; j < 4; j++)
			if (c[j] != v64[t].want[j])
				e2e_fail("philox4x64 vector %zu word %d: %016llx, expected %016llx", t, j,
					 (unsigned long long)c[j], (unsigned long long)v64[t].want[j]);
	}
	/* the uniform conversion's ends: 0 and ~0 give 0, 0x7fffffff and 0x80000000 the
	 * largest value, below 1 */
	if (uniform32(0) != 0.0f || uniform32(0xffffffffu) != 0.0f)
		e2e_fail("uniform32 of 0 / ~0 is not 0");
	if (!(uniform32(0x7fffffffu) < 1.0f) || uniform32(0x7fffffffu) != uniform32(0x80000000u))
		e2e_fail("uniform32(0x7fffffff) = %.9g", uniform32(0x7fffffffu));
	if (!(uniform64(0x7fffffffffffffffull) < 1.0f))
		e2e_fail("uniform64(max) = %.9g", uniform64(0x7fffffffffffffffull));
	e2e_end();
}

/* ---- kernels ------------------------------------------------------------------------------ */

/* rng32 (variant: seed of signature type i32 or i64, BLOCK, N_ROUNDS) */
static void test_rng32(const char *variant, int block, int rounds, int64_t seed, int32_t base, int n)
{
	e2e_begin("%s seed=%lld base=%d n=%d", variant, (long long)seed, base, n);
	tilert_kernel *k = e2e_kernel(variant, "rng32");
	uint32_t *ou = e2e_alloc((size_t)5 * n * 4);
	float *of = e2e_alloc((size_t)10 * n * 4);
	int64_t *wu = malloc((size_t)5 * n * sizeof(int64_t));
	double *wf = malloc((size_t)5 * n * sizeof(double));
	float *uf = malloc((size_t)4 * n * sizeof(float));
	uint64_t key = (uint64_t)seed; /* an i32 seed arrives sign-extended: the same value */
	for (int i = 0; i < n; i++) {
		uint32_t c[4] = {(uint32_t)base + (uint32_t)i, 0, 0, 0};
		philox4x32(c, (uint32_t)key, (uint32_t)(key >> 32), rounds);
		wu[i] = c[0];
		for (int j = 0; j < 4; j++) {
			wu[(size_t)(1 + j) * n + i] = c[j];
			uf[(size_t)j * n + i] = uniform32(c[j]);
			wf[(size_t)(1 + j) * n + i] = uf[(size_t)j * n + i];
		}
		wf[i] = uf[i];
	}
	e2e_poison(ou, (size_t)5 * n * 4);
	e2e_poison_f32(of, (size_t)10 * n);
	int32_t seed32 = (int32_t)seed;
	void *seedp = strstr(variant, "s32") ? (void *)&seed32 : (void *)&seed;
	void *args[] = {&ou, &of, seedp, &base, &n};
	if (!e2e_launch(k, (unsigned)((n + block - 1) / block), 1, 1, args, 5)) {
		e2e_cmp_int("randint", ou, wu, n, 4, 0);
		static const char *const w[4] = {"randint4x[0]", "randint4x[1]", "randint4x[2]", "randint4x[3]"};
		static const char *const uw[4] = {"rand4x[0]", "rand4x[1]", "rand4x[2]", "rand4x[3]"};
		for (int j = 0; j < 4; j++) {
			e2e_cmp_int(w[j], ou + (size_t)(1 + j) * n, wu + (size_t)(1 + j) * n, n, 4, 0);
			e2e_cmp_f32(uw[j], of + (size_t)(1 + j) * n, wf + (size_t)(1 + j) * n, n, E2E_EXACT);
		}
		e2e_cmp_f32("rand", of, wf, n, E2E_EXACT);
		cmp_normal("randn", of + (size_t)5 * n, uf, uf + n, 0, n);
		cmp_normal("randn4x[0]", of + (size_t)6 * n, uf, uf + n, 0, n);
		cmp_normal("randn4x[1]", of + (size_t)7 * n, uf, uf + n, 1, n);
		cmp_normal("randn4x[2]", of + (size_t)8 * n, uf + 2 * n, uf + 3 * n, 0, n);
		cmp_normal("randn4x[3]", of + (size_t)9 * n, uf + 2 * n, uf + 3 * n, 1, n);
	}
	free(wu);
	free(wf);
	free(uf);
	e2e_end();
}

/* rng64: int64 offsets base + i */
static void test_rng64(int64_t seed, int64_t base, int n)
{
	enum { BLOCK = 128 };
	e2e_begin("rng64 seed=%lld base=%lld n=%d", (long long)seed, (long long)base, n);
	tilert_kernel *k = e2e_kernel("rng64", "rng64");
	uint64_t *ou = e2e_alloc((size_t)5 * n * 8);
	float *of = e2e_alloc((size_t)2 * n * 4);
	int64_t *wu = malloc((size_t)5 * n * sizeof(int64_t));
	double *wf = malloc((size_t)n * sizeof(double));
	float *u1 = malloc((size_t)n * sizeof(float)), *u2 = malloc((size_t)n * sizeof(float));
	for (int i = 0; i < n; i++) {
		uint64_t c[4] = {(uint64_t)base + (uint64_t)i, 0, 0, 0};
		philox4x64(c, (uint64_t)seed, 0, 10);
		for (int j = 0; j < 4; j++)
			wu[(size_t)j * n + i] = (int64_t)c[j];
		wu[(size_t)4 * n + i] = (int64_t)c[0];
		u1[i] = uniform64(c[0]);
		u2[i] = uniform64(c[1]);
		wf[i] = u1[i];
	}
	e2e_poison(ou, (size_t)5 * n * 8);
	e2e_poison_f32(of, (size_t)2 * n);
	void *args[] = {&ou, &of, &seed, &base, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 5)) {
		static const char *const w[4] = {"randint4x[0]", "randint4x[1]", "randint4x[2]", "randint4x[3]"};
		for (int j = 0; j < 4; j++)
			e2e_cmp_int(w[j], ou + (size_t)j * n, wu + (size_t)j * n, n, 8, 0);
		e2e_cmp_int("randint", ou + (size_t)4 * n, wu + (size_t)4 * n, n, 8, 0);
		e2e_cmp_f32("rand", of, wf, n, E2E_EXACT);
		cmp_normal("randn", of + n, u1, u2, 0, n);
	}
	free(wu);
	free(wf);
	free(u1);
	free(u2);
	e2e_end();
}

/* philox: counters from memory (random words and the awkward ones), uniform conversions of
 * uint32 and int64 words, pair_uniform_to_normal */
static void test_philox(int64_t seed, int n, uint64_t rseed)
{
	enum { BLOCK = 128 };
	static const uint32_t special[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x80000001, 0xfffffffe};
	static const uint64_t special64[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull,
					     0x00000000ffffffffull, 0xffffffff00000000ull};
	e2e_begin("philox seed=%lld n=%d", (long long)seed, n);
	tilert_kernel *k = e2e_kernel("philox", "philox");
	e2e_rng r = e2e_rng_new(rseed);
	uint32_t *c = e2e_alloc((size_t)4 * n * 4), *ou = e2e_alloc((size_t)4 * n * 4);
	int64_t *wv = e2e_alloc((size_t)n * 8);
	float *of = e2e_alloc((size_t)4 * n * 4);
	int64_t *wu = malloc((size_t)4 * n * sizeof(int64_t));
	double *wf = malloc((size_t)2 * n * sizeof(double));
	float *u1 = malloc((size_t)n * sizeof(float)), *u2 = malloc((size_t)n * sizeof(float));
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < 4; j++) {
			uint64_t x = e2e_next(&r);
			c[(size_t)j * n + i] = (i + j) % 5 == 0 ? special[(size_t)(i + 3 * j) % E2E_ARRAY_SIZE(special)]
							      : (uint32_t)(x >> 16);
		}
		uint64_t x = e2e_next(&r);
		wv[i] = (int64_t)(i % 4 == 1 ? special64[(size_t)i % E2E_ARRAY_SIZE(special64)] : x);
	}
	uint64_t key = (uint64_t)seed;
	for (int i = 0; i < n; i++) {
		uint32_t w[4];
		for (int j = 0; j < 4; j++)
			w[j] = c[(size_t)j * n + i];
		u1[i] = uniform32(w[1]);
		u2[i] = uniform32(w[2]);
		wf[i] = uniform32(w[0]);
		wf[(size_t)n + i] = uniform64((uint64_t)wv[i]);
		philox4x32(w, (uint32_t)key, (uint32_t)(key >> 32), 10);
		for (int j = 0; j < 4; j++)
			wu[(size_t)j * n + i] = w[j];
	}
	e2e_poison(ou, (size_t)4 * n * 4);
	e2e_poison_f32(of, (size_t)4 * n);
	void *args[] = {&c, &wv, &ou, &of, &seed, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 6)) {
		static const char *const w[4] = {"philox[0]", "philox[1]", "philox[2]", "philox[3]"};
		for (int j = 0; j < 4; j++)
			e2e_cmp_int(w[j], ou + (size_t)j * n, wu + (size_t)j * n, n, 4, 0);
		e2e_cmp_f32("uint_to_uniform_float(u32)", of, wf, n, E2E_EXACT);
		e2e_cmp_f32("uint_to_uniform_float(i64)", of + n, wf + n, n, E2E_EXACT);
		cmp_normal("pair_uniform_to_normal[0]", of + (size_t)2 * n, u1, u2, 0, n);
		cmp_normal("pair_uniform_to_normal[1]", of + (size_t)3 * n, u1, u2, 1, n);
	}
	free(wu);
	free(wf);
	free(u1);
	free(u2);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_known_answers());
	/* 64-bit seeds (below and above 2^32), offsets that cross int32's maximum and wrap */
	E2E_RUN(test_rng32("rng32_s64", 256, 10, 0x12345678, 0, 1));
	E2E_RUN(test_rng32("rng32_s64", 256, 10, 0x123456789abcdefLL, 7, 1009));
	E2E_RUN(test_rng32("rng32_s64", 256, 10, -2, 2147483000, 1500));
	E2E_RUN(test_rng32("rng32_s64", 256, 10, 0x7fffffffffffffffLL, -4099, 4099));
	/* a 32-bit seed, negative: sign-extended to 64 bits as in Triton */
	E2E_RUN(test_rng32("rng32_s32", 128, 10, 42, 0, 777));
	E2E_RUN(test_rng32("rng32_s32", 128, 10, -123456789, 1000, 333));
	/* n_rounds */
	E2E_RUN(test_rng32("rng32_r7", 64, 7, 0xdeadbeefcafeLL, 5, 131));
	/* 64-bit offsets across 2^32 and near the top */
	E2E_RUN(test_rng64(0x1234567890LL, 0xffffffffLL - 50, 1));
	E2E_RUN(test_rng64(0x1234567890LL, 0xffffffffLL - 50, 389));
	E2E_RUN(test_rng64(-7, 0x7fffffffffffff00LL, 1000));
	E2E_RUN(test_philox(0x5eed0000beefLL, 1, 7100));
	E2E_RUN(test_philox(-1, 997, 7101));
	return e2e_finish();
}
