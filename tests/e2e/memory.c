/* memory.c: atomics, block pointers and masked memory access (kernels/memory.py).
 *
 *   atomics     many programs (4 threads) on shared words: atomic_add of a sum into one
 *               counter (the exact integer sum), a masked tensor atomic_add histogram,
 *               bucketed atomic_max/atomic_min, an fp32 atomic_add, atomic_xchg (olds and
 *               final value are a permutation), an atomic_cas increment loop, and a cas
 *               that must fail
 *   block_ptrs  make_block_ptr/advance over a matrix whose sizes are not multiples of the
 *               block: loads with boundary_check and padding_option="zero", stores with
 *               boundary_check (nothing written outside, checked by the red zones)
 *   masked      masked loads with an `other` value, a scalar load, a scalar store, and a
 *               store under a mask with holes
 *   bool_masks  a store under a mask loaded from a bool tensor, and a masked bool load whose
 *               `other` is a bool tile (vectorized bool loads on the GPUs)
 *   transposed  an fp16 tile loaded transposed (pointers contiguous along dim 0: 16-byte
 *               runs down the columns on the GPUs) under a column mask, stored row-major
 *               with `other` showing, and stored back transposed under the mask
 *   ptr_walk    two loop-carried pointer tiles, advanced by a scalar and by a constant, a
 *               masked load and a store through them each iteration (the loops that
 *               rebase-pointers rewrites; e2e.x86rebase.memory runs them rewritten) */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

static void test_atomics(int n, uint64_t seed)
{
	enum { BLOCK = 64 };
	e2e_begin("atomics n=%d programs=%d", n, (n + BLOCK - 1) / BLOCK);
	tilert_kernel *k = e2e_kernel("atomics", "atomics");
	e2e_rng r = e2e_rng_new(seed);
	int P = (n + BLOCK - 1) / BLOCK;
	int32_t *x = e2e_alloc(n * 4), *cnt = e2e_alloc(4), *hist = e2e_alloc(16 * 4);
	int32_t *mx = e2e_alloc(8 * 4), *mn = e2e_alloc(8 * 4), *slot = e2e_alloc(4);
	int32_t *old = e2e_alloc(2 * P * 4), *cas = e2e_alloc((1 + P) * 4);
	float *f = e2e_alloc(n * 4), *fsum = e2e_alloc(4);
	for (int i = 0; i < n; i++)
		x[i] = (int32_t)e2e_randint(&r, -1000, 1000);
	e2e_fill_f32(&r, f, n, -1, 1);
	*cnt = 0;
	memset(hist, 0, 16 * 4);
	for (int i = 0; i < 8; i++)
		mx[i] = INT32_MIN, mn[i] = INT32_MAX;
	*fsum = 0;
	*slot = 0;
	memset(cas, 0, (1 + P) * 4);
	e2e_poison(old, 2 * P * 4);
	int64_t wcnt = 0, whist[16] = {0}, wmx[8], wmn[8], wcas[1 + 256];
	double wf = 0, fabs_sum = 0;
	for (int i = 0; i < 8; i++)
		wmx[i] = INT32_MIN, wmn[i] = INT32_MAX;
	for (int i = 0; i < n; i++) {
		wcnt += x[i];
		whist[x[i] & 15]++;
		if (x[i] > wmx[i % 8])
			wmx[i % 8] = x[i];
		if (x[i] < wmn[i % 8])
			wmn[i % 8] = x[i];
		wf += f[i];
		fabs_sum += fabs(f[i]);
	}
	wcas[0] = P;
	for (int p = 0; p < P; p++)
		wcas[1 + p] = p + 7;
	void *args[] = {&x, &f, &cnt, &hist, &mx, &mn, &fsum, &slot, &old, &cas, &n};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 11)) {
		e2e_cmp_int("atomic_add counter", cnt, &wcnt, 1, 4, 1);
		e2e_cmp_int("atomic_add histogram", hist, whist, 16, 4, 1);
		e2e_cmp_int("atomic_max", mx, wmx, 8, 4, 1);
		e2e_cmp_int("atomic_min", mn, wmn, 8, 4, 1);
		double wfs = wf;
		e2e_cmp_f32("atomic_add fp32", fsum, &wfs, 1, (e2e_tol){1e-6 * fabs_sum, 0});
		/* xchg: {olds} + {final} = {0, 1, ..., P} */
		int32_t *perm = malloc((P + 1) * 4);
		memcpy(perm, old, P * 4);
		perm[P] = *slot;
		qsort(perm, P + 1, 4, cmp_i32);
		int64_t *wperm = malloc((P + 1) * sizeof(int64_t));
		for (int p = 0; p <= P; p++)
			wperm[p] = p;
		e2e_cmp_int("atomic_xchg olds+final (sorted)", perm, wperm, P + 1, 4, 1);
		int64_t *wcasold = malloc(P * sizeof(int64_t));
		for (int p = 0; p < P; p++)
			wcasold[p] = p + 7; /* got = 0 (the swap happened), again = p + 7 (it failed) */
		e2e_cmp_int("atomic_cas results", old + P, wcasold, P, 4, 1);
		e2e_cmp_int("atomic_cas memory", cas, wcas, 1 + P, 4, 1);
		free(perm);
		free(wperm);
		free(wcasold);
	}
	e2e_end();
}

static void test_block_ptrs(int M, int N, uint64_t seed)
{
	enum { BM = 16, BN = 32 };
	int stride = N + 3;
	e2e_begin("block_ptrs M=%d N=%d stride=%d", M, N, stride);
	tilert_kernel *k = e2e_kernel("block_ptrs", "block_ptrs");
	e2e_rng r = e2e_rng_new(seed);
	int P = (M + BM - 1) / BM;
	float *a = e2e_alloc((size_t)M * stride * 4), *pad = e2e_alloc((size_t)P * BM * BN * 4);
	float *sum = e2e_alloc((size_t)M * 4), *out = e2e_alloc((size_t)M * N * 4);
	e2e_fill_f32(&r, a, (size_t)M * stride, -1, 1);
	double *wpad = malloc((size_t)P * BM * BN * sizeof(double)), *wsum = malloc(M * sizeof(double));
	double *wout = malloc((size_t)M * N * sizeof(double));
	for (int i = 0; i < P * BM; i++)
		for (int j = 0; j < BN; j++)
			wpad[(size_t)i * BN + j] = i < M && j < N ? a[(size_t)i * stride + j] : 0.0;
	for (int i = 0; i < M; i++) {
		double s = 0;
		for (int j = 0; j < N; j++) {
			s += a[(size_t)i * stride + j];
			wout[(size_t)i * N + j] = 2.0 * a[(size_t)i * stride + j];
		}
		wsum[i] = s;
	}
	e2e_poison_f32(pad, (size_t)P * BM * BN);
	e2e_poison_f32(sum, M);
	e2e_poison_f32(out, (size_t)M * N);
	void *args[] = {&a, &pad, &sum, &out, &M, &N, &stride};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 7)) {
		e2e_cmp_f32("padded first block", pad, wpad, (size_t)P * BM * BN, E2E_EXACT);
		e2e_cmp_f32("row sums over advance", sum, wsum, M, (e2e_tol){1e-5, 1e-5});
		e2e_cmp_f32("block-pointer store", out, wout, (size_t)M * N, E2E_EXACT);
	}
	free(wpad);
	free(wsum);
	free(wout);
	e2e_end();
}

static void test_masked(int n, uint64_t seed)
{
	enum { BLOCK = 128 };
	e2e_begin("masked n=%d", n);
	tilert_kernel *k = e2e_kernel("masked", "masked");
	e2e_rng r = e2e_rng_new(seed);
	int P = (n + BLOCK - 1) / BLOCK;
	size_t tot = (size_t)P * BLOCK;
	float *x = e2e_alloc(n * 4), *out = e2e_alloc(2 * tot * 4), *s = e2e_alloc(2 * 4);
	e2e_fill_f32(&r, x, n, -4, 4);
	s[0] = 0.375f;
	s[1] = NAN;
	double *w = malloc(2 * tot * sizeof(double)), ws[2] = {0.375, 0.75};
	for (size_t i = 0; i < tot; i++) {
		w[i] = (float)((i < (size_t)n ? x[i] : -7.5f) + 0.375f);
		w[tot + i] = i < (size_t)n && i % 2 == 1 ? x[i] : NAN;
	}
	e2e_poison_f32(out, 2 * tot);
	void *args[] = {&x, &out, &s, &n};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 4)) {
		e2e_cmp_f32("load other", out, w, tot, E2E_EXACT);
		e2e_cmp_f32("store odd lanes", out + tot, w + tot, tot, E2E_EXACT);
		e2e_cmp_f32("scalar load/store", s, ws, 2, E2E_EXACT);
	}
	free(w);
	e2e_end();
}

static void test_bool_masks(int n, uint64_t seed)
{
	enum { BLOCK = 128 };
	e2e_begin("bool_masks n=%d", n);
	tilert_kernel *k = e2e_kernel("bool_masks", "bool_masks");
	e2e_rng r = e2e_rng_new(seed);
	int P = (n + BLOCK - 1) / BLOCK;
	size_t tot = (size_t)P * BLOCK;
	float *x = e2e_alloc(tot * 4), *out = e2e_alloc(tot * 4);
	uint8_t *m = e2e_alloc(tot), *keep = e2e_alloc(tot);
	e2e_fill_f32(&r, x, tot, -4, 4);
	for (size_t i = 0; i < tot; i++)
		m[i] = (uint8_t)e2e_randint(&r, 0, 1);
	e2e_poison_f32(out, tot);
	e2e_poison(keep, tot);
	double *w = malloc(tot * sizeof(double));
	int64_t *wk = malloc(tot * sizeof(int64_t));
	for (size_t i = 0; i < tot; i++) {
		/* e2e_poison_f32 fills with NaN: unselected lanes keep it */
		w[i] = m[i] ? x[i] : NAN;
		wk[i] = i < (size_t)n ? m[i] : i % 3 == 0;
	}
	void *args[] = {&x, &m, &out, &keep, &n};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 5)) {
		e2e_cmp_f32("store under a loaded bool mask", out, w, tot, E2E_EXACT);
		e2e_cmp_int("bool load with a bool other", keep, wk, tot, 1, 0);
	}
	free(w);
	free(wk);
	e2e_end();
}

static void test_transposed(int C, uint64_t seed)
{
	enum { BR = 64, BC = 32, STRIDE = 80 };
	e2e_begin("transposed C=%d", C);
	tilert_kernel *k = e2e_kernel("transposed", "transposed");
	e2e_rng r = e2e_rng_new(seed);
	int P = (C + BC - 1) / BC, ldo = P * BC, stride = STRIDE;
	size_t nx = (size_t)C * STRIDE, no = (size_t)BR * ldo;
	uint16_t *x = e2e_alloc(nx * 2), *out = e2e_alloc(no * 2), *back = e2e_alloc(nx * 2);
	e2e_fill_f16(&r, x, nx, -8, 8);
	e2e_poison_f16(out, no);
	e2e_poison_f16(back, nx);
	double *wo = malloc(no * sizeof(double)), *wb = malloc(nx * sizeof(double));
	for (int i = 0; i < BR; i++)
		for (int j = 0; j < ldo; j++)
			wo[(size_t)i * ldo + j] = 2.0 * (j < C ? e2e_h2f(x[(size_t)j * STRIDE + i]) : 1.5);
	for (size_t i = 0; i < nx; i++) /* columns past BR of each row stay poisoned */
		wb[i] = i % STRIDE < BR ? e2e_round_f16(e2e_h2f(x[i]) + 1.0f) : NAN;
	void *args[] = {&x, &out, &back, &C, &stride, &ldo};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 6)) {
		e2e_cmp_f16("x^T row-major, other where masked", out, wo, no, E2E_EXACT);
		e2e_cmp_f16("stored back transposed under the mask", back, wb, nx, E2E_EXACT);
	}
	free(wo);
	free(wb);
	e2e_end();
}

static void test_ptr_walk(int n, int rows, uint64_t seed)
{
	enum { BLOCK = 64 };
	e2e_begin("ptr_walk n=%d rows=%d", n, rows);
	tilert_kernel *k = e2e_kernel("ptr_walk", "ptr_walk");
	e2e_rng r = e2e_rng_new(seed);
	int P = (n + BLOCK - 1) / BLOCK;
	size_t nx = (size_t)rows * n, no = (size_t)P * rows * BLOCK;
	float *x = e2e_alloc((nx ? nx : 1) * 4), *out = e2e_alloc(no * 4);
	e2e_fill_f32(&r, x, nx, -4, 4);
	e2e_poison_f32(out, no);
	double *w = malloc(no * sizeof(double));
	for (int p = 0; p < P; p++)
		for (int j = 0; j < BLOCK; j++) {
			int c = p * BLOCK + j;
			float acc = 0; /* the kernel's order: one row after the other */
			for (int i = 0; i < rows; i++) {
				acc += c < n ? x[(size_t)i * n + c] : 0.0f;
				w[((size_t)p * rows + i) * BLOCK + j] = acc;
			}
		}
	void *args[] = {&x, &out, &n, &rows};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 4))
		e2e_cmp_f32("running column sums", out, w, no, E2E_EXACT);
	free(w);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	tilert_set_num_threads(4); /* contention even on a 2-core machine */
	E2E_RUN(test_atomics(1, 9000));
	E2E_RUN(test_atomics(64 * 40 - 13, 9001));
	E2E_RUN(test_atomics(64 * 200, 9002));
	static const int bp[][2] = {{1, 1}, {37, 45}, {16, 32}, {20, 100}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(bp); i++)
		E2E_RUN(test_block_ptrs(bp[i][0], bp[i][1], 9100 + i));
	static const int ns[] = {1, 127, 128, 129, 1000};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(ns); i++)
		E2E_RUN(test_masked(ns[i], 9200 + i));
	for (size_t i = 0; i < E2E_ARRAY_SIZE(ns); i++)
		E2E_RUN(test_bool_masks(ns[i], 9300 + i));
	static const int cs[] = {1, 31, 32, 97};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(cs); i++)
		E2E_RUN(test_transposed(cs[i], 9400 + i));
	static const int pw[][2] = {{1, 1}, {64, 3}, {100, 17}, {200, 40}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(pw); i++)
		E2E_RUN(test_ptr_walk(pw[i][0], pw[i][1], 9500 + i));
	return e2e_finish();
}
