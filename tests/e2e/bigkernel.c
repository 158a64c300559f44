/* bigkernel.c: a kernel of tens of thousands of ops (kernels/bigkernel.py: tl.static_range
 * unrolls N bodies) against the same computation in C. "bigkernel" (N = 2000) is far over the
 * size at which a function takes the reduced LLVM pipeline (lib/codegen/emit.c, "huge
 * functions"; tilecc takes it without being told), "bigkernel_small" (N = 40) stays on
 * default<O3>: both must give exactly what C gives. Every operation of a body is exact in
 * fp32 (a * 0.5 + t rounds once, fused or not; negation, min, max) or wraps in int32, and the
 * reductions are max and a wrapping sum, which no order changes, so the comparisons are
 * exact. Programs of BLOCK lanes over n elements, the last one partial (masked lanes must
 * stay out of the reductions and unwritten). */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 256, ROWS = 61 }; /* the kernel's BLOCK and its table of ROWS rows */

/* one program's lanes [lo, hi) through the N bodies of the kernel, as C */
static void reference(const float *x, const float *tab, int lo, int hi, int n_bodies, double *out,
		      int64_t *kout, double *best_out, int64_t *ksum_out)
{
	float best = -1e30f;
	uint32_t ksum = 0;
	int len = hi - lo;
	float *a = malloc(BLOCK * sizeof(float));
	int32_t *k = malloc(BLOCK * sizeof(int32_t));
	for (int l = 0; l < len; l++) {
		a[l] = x[lo + l];
		k[l] = lo + l;
	}
	for (int i = 0; i < n_bodies; i++) {
		const float *t = tab + (size_t)(i % ROWS) * BLOCK;
		int shift = i % 7 + 1;
		for (int l = 0; l < len; l++) {
			a[l] = a[l] * 0.5f + t[l];
			/* (k * c) ^ (k >> s): the multiply wraps, the shift is arithmetic */
			int32_t kk = (int32_t)((uint32_t)k[l] * (uint32_t)(2 * i + 3)) ^ (k[l] >> shift);
			k[l] = kk;
			if (kk & 4)
				a[l] = -a[l];
			if (i % 5 == 0)
				a[l] = fminf(fmaxf(a[l], -1.5f), 1.5f);
		}
		if (i % 16 == 0) {
			float m = -1e30f;
			for (int l = 0; l < len; l++) {
				m = fmaxf(m, a[l]);
				ksum += (uint32_t)k[l];
			}
			best = fmaxf(best, m);
		}
	}
	for (int l = 0; l < len; l++) {
		out[lo + l] = a[l];
		kout[lo + l] = k[l];
	}
	*best_out = best;
	*ksum_out = (int32_t)ksum;
	free(a);
	free(k);
}

static void test_bigkernel(const char *variant, int n_bodies, int n, uint64_t seed)
{
	e2e_begin("%s N=%d n=%d", variant, n_bodies, n);
	tilert_kernel *kern = e2e_kernel(variant, "bigkernel");
	e2e_rng r = e2e_rng_new(seed);
	unsigned programs = (unsigned)((n + BLOCK - 1) / BLOCK);
	float *x = e2e_alloc(n * sizeof(float)), *tab = e2e_alloc(ROWS * BLOCK * sizeof(float));
	float *out = e2e_alloc(n * sizeof(float)), *best = e2e_alloc(programs * sizeof(float));
	int32_t *kout = e2e_alloc(n * sizeof(int32_t)), *ksum = e2e_alloc(programs * sizeof(int32_t));
	e2e_fill_f32(&r, x, n, -2, 2);
	e2e_fill_f32(&r, tab, ROWS * BLOCK, -1, 1);
	double *wout = malloc(n * sizeof(double)), *wbest = malloc(programs * sizeof(double));
	int64_t *wkout = malloc(n * sizeof(int64_t)), *wksum = malloc(programs * sizeof(int64_t));
	for (unsigned p = 0; p < programs; p++) {
		int lo = (int)p * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n;
		reference(x, tab, lo, hi, n_bodies, wout, wkout, &wbest[p], &wksum[p]);
	}
	e2e_poison_f32(out, n);
	e2e_poison_f32(best, programs);
	e2e_poison(kout, n * sizeof(int32_t));
	e2e_poison(ksum, programs * sizeof(int32_t));
	void *args[] = {&x, &tab, &out, &kout, &best, &ksum, &n};
	if (!e2e_launch(kern, programs, 1, 1, args, 7)) {
		e2e_cmp_f32("out", out, wout, n, E2E_EXACT);
		e2e_cmp_int("kout", kout, wkout, n, 4, 1);
		e2e_cmp_f32("best", best, wbest, programs, E2E_EXACT);
		e2e_cmp_int("ksum", ksum, wksum, programs, 4, 1);
	}
	free(wout);
	free(wbest);
	free(wkout);
	free(wksum);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_bigkernel("bigkernel", 2000, 1000, 9100));
	E2E_RUN(test_bigkernel("bigkernel", 2000, 512, 9101));
	E2E_RUN(test_bigkernel("bigkernel", 2000, 1, 9102));
	E2E_RUN(test_bigkernel("bigkernel_small", 40, 1000, 9103));
	E2E_RUN(test_bigkernel("bigkernel_small", 40, 300, 9104));
	return e2e_finish();
}
