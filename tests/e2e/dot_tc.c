/* dot_tc.c: tl.dot in the dtypes that NVIDIA tensor cores take beyond fp16/bf16 into fp32
 * (kernels/dot_tc.py): fp32 inputs at the default precision (tf32: mma.sync m16n8k8 on
 * sm_80+), "tf32x3" (three m16n8k8 products on NVIDIA), "ieee" (FMA loops), int8 into
 * int32 (m16n8k32; on sm_90a the *_90a variants run tf32 and int8 on wgmma, m64nNk8 and
 * m64nNk32, both operands K-major in shared memory) and fp16 into an
 * fp16 accumulator (m16n8k16 .f16.f16), fp8 (e4m3, e5m2: wgmma m64nNk32 on sm_90a,
 * mma.sync m16n8k32 on sm_90, FMA loops on the CPUs; dot_fp8 with max_num_imprecise_acc),
 * with A and B row-major and transposed in memory,
 * C = C0 + A @ B over a K loop masked on every edge, at 1, primes and non-multiples of the
 * blocks. Inputs are integers in [-2, 2] and C0 in [-8, 8], so that every product and sum
 * is exact in tf32, fp16 (|C| <= 4 K + 8 < 2048) and int32: the results must match an int64
 * reference exactly, which tells a misplaced fragment element from rounding. One case per
 * fp32 variant also runs uniform inputs in [-1, 1], within tf32's rounding (2^-11 relative
 * per operand; truncation on wgmma, 2^-10), or for tf32x3 and "ieee" within 2e-6 K, which a single tf32 product
 * cannot meet. On the CPUs every variant is an FMA loop. */
#include "e2e.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct variant {
	const char *name;
	e2e_dtype in, acc; /* the accumulator's (C0's and C's) dtype */
	int BM, BN, BK;
	int ta, tb;        /* A stored K x M, B stored N x K */
	int fp8;           /* in is E2E_U8 holding fp8 bytes: 4 e4m3 (float8e4nv), 5 e5m2 */
	const char *kernel; /* NULL: dot_tc; else dot_fp8 (same arguments) */
} variant;

/* The fp8 byte of the integer x in [-2, 2]: e4m3 (bias 7) or e5m2 (bias 15), written out. */
static uint8_t fp8_of(int x, int fmt)
{
	static const uint8_t e4[] = {0xc0, 0xb8, 0x00, 0x38, 0x40}, e5[] = {0xc0, 0xbc, 0x00, 0x3c, 0x40};
	return (fmt == 4 ? e4 : e5)[x + 2];
}

/* Element i of operand buffer p as the kernel reads it. */
static double opnd(const variant *v, const void *p, size_t i)
{
	if (!v->fp8)
		return e2e_getf(p, i, v->in);
	uint8_t x = ((const uint8_t *)p)[i];
	for (int k = -2; k <= 2; k++)
		if (fp8_of(k, v->fp8) == x)
			return k;
	return NAN;
}

static void set_opnd(const variant *v, void *p, size_t i, double x)
{
	if (v->fp8)
		((uint8_t *)p)[i] = fp8_of((int)x, v->fp8);
	else
		e2e_setf(p, i, v->in, x);
}

static void test_dot(const variant *v, int M, int N, int K, int uniform, uint64_t seed)
{
	e2e_begin("%s M=%d N=%d K=%d%s", v->name, M, N, K, uniform ? " uniform" : "");
	tilert_kernel *k = e2e_kernel(v->name, v->kernel ? v->kernel : "dot_tc");
	e2e_rng r = e2e_rng_new(seed);
	int isz = e2e_dtype_size(v->in), csz = e2e_dtype_size(v->acc);
	void *a = e2e_alloc((size_t)M * K * isz), *b = e2e_alloc((size_t)K * N * isz);
	void *c0 = e2e_alloc((size_t)M * N * csz), *c = e2e_alloc((size_t)M * N * csz);
	/* logical A[i][p], B[p][j]; stored at [p][i] (ta) and [j][p] (tb) */
	for (size_t i = 0; i < (size_t)M * K; i++)
		set_opnd(v, a, i, uniform ? e2e_uniform(&r, -1, 1) : (double)e2e_randint(&r, -2, 2));
	for (size_t i = 0; i < (size_t)K * N; i++)
		set_opnd(v, b, i, uniform ? e2e_uniform(&r, -1, 1) : (double)e2e_randint(&r, -2, 2));
	for (size_t i = 0; i < (size_t)M * N; i++)
		e2e_setf(c0, i, v->acc, (double)e2e_randint(&r, -8, 8));
	double *w = malloc((size_t)M * N * sizeof(double));
	int64_t *wi = malloc((size_t)M * N * sizeof(int64_t));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = e2e_getf(c0, (size_t)i * N + j, v->acc);
			for (int p = 0; p < K; p++) {
				size_t ai = v->ta ? (size_t)p * M + i : (size_t)i * K + p;
				size_t bi = v->tb ? (size_t)j * K + p : (size_t)p * N + j;
				s += opnd(v, a, ai) * opnd(v, b, bi);
			}
			w[(size_t)i * N + j] = s;
			wi[(size_t)i * N + j] = (int64_t)s; /* integer inputs: exact in double */
		}
	e2e_poison(c, (size_t)M * N * csz);
	if (v->acc == E2E_F32)
		e2e_poison_f32(c, (size_t)M * N);
	void *args[] = {&a, &b, &c0, &c, &M, &N, &K};
	/* tf32 keeps 10 mantissa bits of each operand: rounded (mma.sync), products within
	 * 2^-10 relative; truncated (wgmma reads the fp32 words as they are: sm_90a's tf32),
	 * within 2^-9; tf32x3 about 21 (its three products; a plain tf32 dot misses this by
	 * far, some 3e-3 at K = 131) and "ieee" all 23 */
	e2e_tol tol = E2E_EXACT;
	bool wgmma = strstr(v->name, "_90a") || !strcmp(v->name, "dot_tc_tf32_w8"); /* sm_90a cubins */
	if (uniform)
		tol = strstr(v->name, "tf32x3") || strstr(v->name, "ieee") ? (e2e_tol){K * 2e-6, 1e-5}
		      : wgmma                                              ? (e2e_tol){K * 2e-3, 2e-3}
									   : (e2e_tol){K * 1e-3, 1e-3};
	unsigned gx = (unsigned)((M + v->BM - 1) / v->BM), gy = (unsigned)((N + v->BN - 1) / v->BN);
	if (!e2e_launch(k, gx, gy, 1, args, 7))
		e2e_cmp("c", c, v->acc, w, wi, (size_t)M * N, tol);
	free(w);
	free(wi);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	/* the blocks and warps of tests/e2e/kernels.cmake's dot_tc variants */
	static const variant vs[] = {
	    {"dot_tc_tf32", E2E_F32, E2E_F32, 64, 64, 32, 0, 0},
	    {"dot_tc_tf32_t", E2E_F32, E2E_F32, 32, 64, 16, 1, 1},
	    {"dot_tc_tf32_w8", E2E_F32, E2E_F32, 128, 64, 32, 0, 1},
	    {"dot_tc_tf32x3", E2E_F32, E2E_F32, 32, 32, 16, 0, 0},
	    {"dot_tc_ieee", E2E_F32, E2E_F32, 32, 32, 16, 1, 0},
	    {"dot_tc_i8", E2E_I8, E2E_I32, 64, 64, 64, 0, 0},
	    {"dot_tc_i8_t", E2E_I8, E2E_I32, 32, 32, 32, 1, 1},
	    {"dot_tc_i8_90a", E2E_I8, E2E_I32, 128, 128, 64, 0, 0},
	    {"dot_tc_tf32_90a", E2E_F32, E2E_F32, 64, 64, 32, 0, 0},
	    {"dot_tc_tf32_t_90a", E2E_F32, E2E_F32, 64, 128, 32, 1, 1},
	    {"dot_tc_i8_t_90a", E2E_I8, E2E_I32, 64, 32, 128, 1, 1},
	    {"dot_tc_i8_w8_90a", E2E_I8, E2E_I32, 128, 128, 128, 0, 1},
	    {"dot_tc_f16acc", E2E_F16, E2E_F16, 64, 64, 32, 0, 0},
	    {"dot_tc_f16acc_t", E2E_F16, E2E_F16, 32, 16, 16, 1, 1},
	    {"dot_tc_fp8e4", E2E_U8, E2E_F32, 64, 64, 32, 0, 0, 4},
	    {"dot_tc_fp8e5_t", E2E_U8, E2E_F32, 64, 32, 32, 1, 1, 5},
	    {"dot_tc_fp8e4_w8", E2E_U8, E2E_F32, 64, 64, 64, 0, 0, 4},
	    {"dot_tc_fp8e5_90a", E2E_U8, E2E_F32, 128, 128, 64, 0, 0, 5},
	    {"dot_tc_fp8e4_t_90a", E2E_U8, E2E_F32, 64, 64, 64, 1, 1, 4},
	    {"dot_fp8e4_imp32_90a", E2E_U8, E2E_F32, 64, 128, 128, 0, 0, 4, "dot_fp8"},
	    {"dot_fp8e5_imp64_90a", E2E_U8, E2E_F32, 128, 64, 128, 0, 0, 5, "dot_fp8"},
	    {"dot_fp8e4_imp0", E2E_U8, E2E_F32, 64, 64, 64, 0, 0, 4, "dot_fp8"},
	};
	static const int sizes[][3] = {{1, 1, 1}, {33, 17, 45}, {64, 64, 64}, {40, 70, 100}, {150, 263, 97}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(vs); i++) {
		for (size_t j = 0; j < E2E_ARRAY_SIZE(sizes); j++)
			E2E_RUN(test_dot(&vs[i], sizes[j][0], sizes[j][1], sizes[j][2], 0, 13000 + 10 * i + j));
		if (vs[i].fp8) /* several K blocks of 128 (max_num_imprecise_acc slices across them) */
			E2E_RUN(test_dot(&vs[i], 70, 45, 300, 0, 13700 + i));
		if (vs[i].in == E2E_F32) /* not fp8: [-1, 1] is not exact in fp8 */
			E2E_RUN(test_dot(&vs[i], 70, 90, 131, 1, 13500 + i));
	}
	return e2e_finish();
}
