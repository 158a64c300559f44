/* convert.c: .to() conversions (kernels/convert.py), one variant per (source, destination):
 * float <-> float with round to nearest even (subnormals, overflow to inf, NaN; every fp16
 * and bf16 bit pattern as a source), float -> int truncating toward zero (in-range values),
 * int -> float rounded once, int -> int truncation and sign/zero extension, bitcasts (exact
 * bits, NaN payloads included), and a chain of casts in one kernel. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 128 };

static e2e_dtype parse_dtype(const char *s)
{
	for (e2e_dtype t = E2E_I8; t <= E2E_F64; t++)
		if (strcmp(e2e_dtype_name(t), s) == 0)
			return t;
	fprintf(stderr, "convert: bad dtype %s\n", s);
	abort();
}

/* v (exact in double) rounded once to p significant bits, nearest even, as a format with
 * minimum normal exponent emin (2^emin) does: below it the subnormals have a fixed quantum of
 * 2^(emin - p + 1); overflow past maxv (the largest finite value) goes to infinity. */
static double round_prec(double v, int p, int emin, double maxv)
{
	if (v == 0 || isnan(v) || isinf(v))
		return v;
	int e;
	double m = frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
	if (e - 1 < emin)        /* subnormal: quantum 2^(emin - p + 1) */
		return ldexp(nearbyint(ldexp(v, p - 1 - emin)), emin - p + 1);
	double r = ldexp(nearbyint(ldexp(m, p)), e - p);
	if (fabs(r) > maxv)
		return copysign(INFINITY, v);
	return r;
}

/* The exact result of converting the value v (exact in double) to the float type t. */
static double to_float(e2e_dtype t, double v)
{
	switch (t) {
	case E2E_F16: return round_prec(v, 11, -14, 65504.0);
	case E2E_BF16: return round_prec(v, 8, -126, 3.3895313892515355e38);
	case E2E_F32: return (float)v;
	default: return v;
	}
}

/* A random source value of type a suited to the destination b, stored into x[i]. */
static void make_input(e2e_rng *r, void *x, size_t i, e2e_dtype a, e2e_dtype b)
{
	int af = e2e_dtype_is_float(a), bf = e2e_dtype_is_float(b);
	if (af && bf) {
		if (a == E2E_F32 || a == E2E_F64) {
			/* wide exponents: fp16 subnormals and overflow, and some specials */
			static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 65504.0,
			                                 65519.99, 65520.0, 6.0e-8, 2.98e-8, 1e-30, -3e38};
			double v;
			if (i < E2E_ARRAY_SIZE(special))
				v = special[i];
			else
				v = (e2e_next(r) & 1 ? -1 : 1) * ldexp(e2e_uniform(r, 1, 2), (int)e2e_randint(r, -30, 20));
			if (a == E2E_F64 && b != E2E_F16)
				v *= 1 + 1e-12 * e2e_uniform(r, -1, 1); /* not float-representable */
			e2e_setf(x, i, a, a == E2E_F64 ? v : (float)v);
		} else {
			((uint16_t *)x)[i] = (uint16_t)i; /* every bit pattern, in order */
		}
	} else if (af) {
		/* in range for b, with fractions */
		double lo, hi;
		switch (b) {
		case E2E_I8: lo = -128.99, hi = 127.99; break;
		case E2E_U8: lo = 0, hi = 255.99; break;
		case E2E_I16: lo = -32768, hi = 32767; break;
		case E2E_U32: lo = 0, hi = 4294967000.0; break;
		case E2E_I32: lo = -2147483000.0, hi = 2147483000.0; break;
		case E2E_U64: lo = 0, hi = 1.8e19; break;
		default: lo = -9.2e18, hi = 9.2e18; break;
		}
		if (i % 3 == 0) /* and small values, where the fraction matters */
			lo = fmax(lo, -50), hi = fmin(hi, 50);
		double v = e2e_uniform(r, lo, hi);
		e2e_setf(x, i, a, v);
		double got = e2e_getf(x, i, a);
		if (got < lo || got > hi || (b == E2E_I16 && fabs(got) >= 32768))
			e2e_setf(x, i, a, 0.75); /* rounding to a pushed it out of range */
	} else if (b == E2E_F16 && a == E2E_I64) {
		e2e_seti(x, i, a, e2e_randint(r, -70000, 70000));
	} else {
		e2e_seti(x, i, a, (int64_t)e2e_next(r)); /* truncated to a */
	}
}

static void test_convert(const char *pair, int n, uint64_t seed)
{
	char sa[8], sb[8];
	if (sscanf(pair, "%7[^_]_%7s", sa, sb) != 2)
		abort();
	e2e_dtype a = parse_dtype(sa), b = parse_dtype(sb);
	char variant[48];
	snprintf(variant, sizeof variant, "conv_%s", pair);
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "convert");
	e2e_rng r = e2e_rng_new(seed);
	void *x = e2e_alloc((size_t)n * e2e_dtype_size(a)), *out = e2e_alloc((size_t)n * e2e_dtype_size(b));
	double *wf = malloc(n * sizeof(double));
	int64_t *wi = malloc(n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		make_input(&r, x, i, a, b);
		if (e2e_dtype_is_float(b)) {
			if (a == E2E_U64)
				wf[i] = to_float(b, (float)(uint64_t)e2e_geti(x, i, a)); /* C rounds once */
			else if (a == E2E_I64 && b == E2E_F32)
				wf[i] = (float)e2e_geti(x, i, a);
			else if (a == E2E_I64 && b == E2E_F64)
				wf[i] = (double)e2e_geti(x, i, a);
			else
				wf[i] = to_float(b, e2e_getf(x, i, a));
		} else if (e2e_dtype_is_float(a)) {
			double v = trunc(e2e_getf(x, i, a));
			wi[i] = b == E2E_U64 ? (int64_t)(uint64_t)v : (int64_t)v;
		} else {
			wi[i] = e2e_geti(x, i, a); /* the low bits, sign- or zero-extended from a */
		}
	}
	e2e_poison(out, (size_t)n * e2e_dtype_size(b));
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 3))
		e2e_cmp("out", out, b, wf, wi, (size_t)n, E2E_EXACT);
	free(wf);
	free(wi);
	e2e_end();
}

static void test_bitcast(const char *pair, int n, uint64_t seed)
{
	char sa[8], sb[8];
	if (sscanf(pair, "%7[^_]_%7s", sa, sb) != 2)
		abort();
	e2e_dtype a = parse_dtype(sa);
	char variant[48];
	snprintf(variant, sizeof variant, "bitcast_%s", pair);
	e2e_begin("%s n=%d", variant, n);
	tilert_kernel *k = e2e_kernel(variant, "bitcast");
	e2e_rng r = e2e_rng_new(seed);
	size_t bytes = (size_t)n * e2e_dtype_size(a);
	unsigned char *x = e2e_alloc(bytes), *out = e2e_alloc(bytes);
	for (size_t i = 0; i < bytes; i++)
		x[i] = (unsigned char)e2e_next(&r); /* NaNs with payloads too */
	e2e_poison(out, bytes);
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 3))
		e2e_cmp_bytes("out", out, x, bytes);
	e2e_end();
}

static void test_cast_chain(int n, uint64_t seed)
{
	e2e_begin("cast_chain n=%d", n);
	tilert_kernel *k = e2e_kernel("cast_chain", "cast_chain");
	e2e_rng r = e2e_rng_new(seed);
	float *x = e2e_alloc(n * sizeof(float)), *out = e2e_alloc(2 * n * sizeof(float));
	double *want = malloc(2 * n * sizeof(double));
	e2e_fill_f32(&r, x, n, -127.9, 127.9);
	for (int i = 0; i < n; i++) {
		want[2 * i] = e2e_round_f16(e2e_round_bf16(x[i]));
		want[2 * i + 1] = trunc(x[i]);
	}
	e2e_poison_f32(out, 2 * n);
	void *args[] = {&x, &out, &n};
	if (!e2e_launch(k, (unsigned)((n + BLOCK - 1) / BLOCK), 1, 1, args, 3))
		e2e_cmp_f32("out", out, want, 2 * n, E2E_EXACT);
	free(want);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const char *const pairs[] = {
	    "fp32_fp16", "fp16_fp32", "fp32_bf16", "bf16_fp32", "fp16_bf16", "bf16_fp16",
	    "fp64_fp32", "fp32_fp64", "fp64_fp16", "fp32_i32",  "fp32_u8",   "fp32_i8",
	    "fp16_i16",  "fp64_i64",  "bf16_i32",  "fp32_u32",  "fp64_u64",  "i32_fp32",
	    "i64_fp64",  "u32_fp32",  "u64_fp32",  "i8_fp16",   "u16_fp16",  "i32_bf16",
	    "i64_fp16",  "i32_i8",    "i8_i64",    "u8_i32",    "u32_i64",   "i64_u16",
	    "i16_u64",   "u64_i8"};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(pairs); i++) {
		int from16 = strncmp(pairs[i], "fp16_fp", 7) == 0 || strncmp(pairs[i], "fp16_bf", 7) == 0 ||
		             strncmp(pairs[i], "bf16_fp", 7) == 0;
		/* float to 8-bit integers vectorize into vfcvt.rtz on RVV, which qemu 7.2 aborts on */
		if (e2e_qemu_rtz_broken() && (!strcmp(pairs[i], "fp32_u8") || !strcmp(pairs[i], "fp32_i8"))) {
			e2e_skip(pairs[i], "qemu 7.2 aborts on RVV vfcvt.rtz (a qemu bug; covered on x86-64)");
			continue;
		}
		E2E_RUN(test_convert(pairs[i], from16 ? 65536 : 1001, 5000 + i));
	}
	E2E_RUN(test_convert("fp32_fp16", 1, 5100));
	static const char *const bitcasts[] = {"fp32_i32", "i32_fp32", "fp16_i16", "u64_fp64", "bf16_u16"};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(bitcasts); i++)
		E2E_RUN(test_bitcast(bitcasts[i], 777, 5200 + i));
	if (e2e_qemu_rtz_broken())
		e2e_skip("cast_chain", "qemu 7.2 aborts on RVV vfcvt.rtz (a qemu bug; covered on x86-64)");
	else
		E2E_RUN(test_cast_chain(300, 5300));
	return e2e_finish();
}
