/* dot.c: tl.dot (kernels/dot.py): C = C0 + A @ B over a K loop with every edge masked, on a
 * 2-D grid, for fp32 with input_precision="ieee" and with the default precision, fp16 and
 * bf16 inputs with fp32 accumulation (on NVIDIA, block shapes that take the tensor-core
 * path with several warp splits, and wgmma variants compiled for sm_90a), fp16 out_dtype, and int8 inputs with exact int32
 * accumulation; batched (3-D) dots; and the bench matmul's loop (test_mm). References in
 * double (int64 for int8); tolerances scale with K. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct variant {
	const char *name;
	e2e_dtype in, acc;
	int BM, BN, BK;
	int out16;
} variant;

static void test_dot(const variant *v, int M, int N, int K, uint64_t seed)
{
	e2e_begin("%s M=%d N=%d K=%d", v->name, M, N, K);
	tilert_kernel *k = e2e_kernel(v->name, "dot");
	e2e_rng r = e2e_rng_new(seed);
	int isz = e2e_dtype_size(v->in);
	void *a = e2e_alloc((size_t)M * K * isz), *b = e2e_alloc((size_t)K * N * isz);
	void *c0 = e2e_alloc((size_t)M * N * 4), *c = e2e_alloc((size_t)M * N * 4);
	for (size_t i = 0; i < (size_t)M * K; i++)
		e2e_setf(a, i, v->in, v->in == E2E_I8 ? (double)e2e_randint(&r, -128, 127) : e2e_uniform(&r, -1, 1));
	for (size_t i = 0; i < (size_t)K * N; i++)
		e2e_setf(b, i, v->in, v->in == E2E_I8 ? (double)e2e_randint(&r, -128, 127) : e2e_uniform(&r, -1, 1));
	for (size_t i = 0; i < (size_t)M * N; i++)
		e2e_setf(c0, i, v->acc, v->acc == E2E_I32 ? (double)e2e_randint(&r, -100000, 100000) : e2e_uniform(&r, -1, 1));
	double *w = malloc((size_t)M * N * sizeof(double));
	int64_t *wi = malloc((size_t)M * N * sizeof(int64_t));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = e2e_getf(c0, (size_t)i * N + j, v->acc);
			int64_t si = v->acc == E2E_I32 ? e2e_geti(c0, (size_t)i * N + j, v->acc) : 0;
			for (int p = 0; p < K; p++) {
				s += e2e_getf(a, (size_t)i * K + p, v->in) * e2e_getf(b, (size_t)p * N + j, v->in);
				if (v->in == E2E_I8)
					si += e2e_geti(a, (size_t)i * K + p, v->in) * e2e_geti(b, (size_t)p * N + j, v->in);
			}
			w[(size_t)i * N + j] = s;
			wi[(size_t)i * N + j] = si;
		}
	e2e_poison(c, (size_t)M * N * 4);
	if (v->acc == E2E_F32)
		e2e_poison_f32(c, (size_t)M * N);
	void *args[] = {&a, &b, &c0, &c, &M, &N, &K};
	e2e_tol tol = (e2e_tol){K * 2e-6, 1e-5};
	if (v->out16) /* each BK block of products rounded to fp16 */
		tol = (e2e_tol){0.01 * ((K + v->BK - 1) / v->BK), 1e-3};
	else if (v->in == E2E_F32 && strcmp(v->name, "dot_fp32_default") == 0)
		tol = (e2e_tol){K * 1e-3, 1e-3}; /* the default precision may be tf32 */
	unsigned gx = (unsigned)((M + v->BM - 1) / v->BM), gy = (unsigned)((N + v->BN - 1) / v->BN);
	if (!e2e_launch(k, gx, gy, 1, args, 7))
		e2e_cmp("c", c, v->acc, w, wi, (size_t)M * N, tol);
	free(w);
	free(wi);
	e2e_end();
}

/* Batched (3-D) tl.dot: NB independent products of M x K and K x N fp16 matrices in fp32,
 * two per program (kernels/dot.py, bdot), every edge masked. */
static void test_bdot(int NB, int M, int N, int K, uint64_t seed)
{
	e2e_begin("bdot_fp16 NB=%d M=%d N=%d K=%d", NB, M, N, K);
	tilert_kernel *k = e2e_kernel("bdot_fp16", "bdot");
	e2e_rng r = e2e_rng_new(seed);
	size_t na = (size_t)NB * M * K, nb = (size_t)NB * K * N, nc = (size_t)NB * M * N;
	void *a = e2e_alloc(na * 2), *b = e2e_alloc(nb * 2), *c = e2e_alloc(nc * 4);
	for (size_t i = 0; i < na; i++)
		e2e_setf(a, i, E2E_F16, e2e_uniform(&r, -1, 1));
	for (size_t i = 0; i < nb; i++)
		e2e_setf(b, i, E2E_F16, e2e_uniform(&r, -1, 1));
	double *w = malloc(nc * sizeof(double));
	for (int z = 0; z < NB; z++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double s = 0;
				for (int p = 0; p < K; p++)
					s += e2e_getf(a, ((size_t)z * M + i) * K + p, E2E_F16) *
					     e2e_getf(b, ((size_t)z * K + p) * N + j, E2E_F16);
				w[((size_t)z * M + i) * N + j] = s;
			}
	e2e_poison_f32(c, nc);
	void *args[] = {&a, &b, &c, &NB, &M, &N, &K};
	if (!e2e_launch(k, (unsigned)((NB + 1) / 2), 1, 1, args, 7))
		e2e_cmp("c", c, E2E_F32, w, NULL, nc, (e2e_tol){K * 2e-6, 1e-5});
	free(w);
	e2e_end();
}

/* The bench matmul's loop (kernels/dot.py, mm): C = C0 + A @ B with pointer tiles advanced
 * by the loop, rows and columns wrapped with %, only K masked (on CPUs: B packed from runs of
 * 16 addresses, the masked K block through a buffer), leading dimensions padded by 3 so that
 * no row starts aligned. Output in fp32 or (mm_fp16) fp16. */
static void test_mm_at(const char *name, e2e_dtype in, e2e_dtype out, int M, int N, int K, int pad, int guard,
		       uint64_t seed)
{
	e2e_begin("%s M=%d N=%d K=%d%s", name, M, N, K, guard ? " (exact, guarded buffers)" : "");
	tilert_kernel *k = e2e_kernel(name, "mm");
	e2e_rng r = e2e_rng_new(seed);
	int lda = K + pad, ldb = N + pad, ldc = N + pad, isz = e2e_dtype_size(in), osz = e2e_dtype_size(out);
	void *(*alloc)(size_t) = guard ? e2e_alloc_guarded : e2e_alloc;
	void *a = alloc((size_t)M * lda * isz), *b = alloc((size_t)K * ldb * isz);
	float *c0 = alloc((size_t)M * ldc * 4);
	void *c = alloc((size_t)M * ldc * osz);
	for (size_t i = 0; i < (size_t)M * lda; i++)
		e2e_setf(a, i, in, e2e_uniform(&r, -1, 1));
	for (size_t i = 0; i < (size_t)K * ldb; i++)
		e2e_setf(b, i, in, e2e_uniform(&r, -1, 1));
	for (size_t i = 0; i < (size_t)M * ldc; i++)
		c0[i] = (float)e2e_uniform(&r, -1, 1);
	/* the reference at every element of c, the padding included (kept poisoned there) */
	double *w = malloc((size_t)M * ldc * sizeof(double));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < ldc; j++) {
			double s = c0[(size_t)i * ldc + j];
			for (int p = 0; p < K && j < N; p++)
				s += e2e_getf(a, (size_t)i * lda + p, in) * e2e_getf(b, (size_t)p * ldb + j, in);
			w[(size_t)i * ldc + j] = j < N ? s : NAN;
		}
	if (out == E2E_F16)
		e2e_poison_f16(c, (size_t)M * ldc);
	else
		e2e_poison_f32(c, (size_t)M * ldc);
	void *args[] = {&a, &b, &c0, &c, &M, &N, &K, &lda, &ldb, &ldc};
	int bm = !strcmp(name, "mm_fp32_b128") ? 128 : !strcmp(name, "mm_fp32_m32") ? 32
		 : !strncmp(name, "mm_fp32", 7) ? 64 : !strcmp(name, "mm_fp16") ? 32 : 16;
	int bn = !strcmp(name, "mm_fp32_b128") ? 128 : !strcmp(name, "mm_fp32_m32") ? 16
		 : !strcmp(name, "mm_bf16") ? 32 : 64;
	e2e_tol tol = out == E2E_F16 ? (e2e_tol){K * 2e-6 + 2e-3, 1e-3} : (e2e_tol){K * 2e-6, 1e-5};
	const char *target = tilert_kernel_meta(k, "target");
	if (in == E2E_F32 && target && !strcmp(target, "nvptx"))
		tol = (e2e_tol){K * 1e-3, 1e-3}; /* fp32 inputs: the default precision is tf32 there */
	if (!e2e_launch(k, (unsigned)((M + bm - 1) / bm), (unsigned)((N + bn - 1) / bn), 1, args, 10))
		e2e_cmp("c", c, out, w, NULL, (size_t)M * ldc, tol);
	free(w);
	e2e_end();
}

static void test_mm(const char *name, e2e_dtype in, e2e_dtype out, int M, int N, int K, uint64_t seed)
{
	test_mm_at(name, in, out, M, N, K, 3, 0, seed);
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const variant vs[] = {
	    {"dot_fp32", E2E_F32, E2E_F32, 32, 32, 16, 0},
	    {"dot_fp32_default", E2E_F32, E2E_F32, 16, 32, 32, 0},
	    {"dot_fp16", E2E_F16, E2E_F32, 32, 64, 32, 0},
	    {"dot_bf16", E2E_BF16, E2E_F32, 32, 32, 32, 0},
	    {"dot_fp16_out16", E2E_F16, E2E_F32, 32, 32, 16, 1},
	    {"dot_i8", E2E_I8, E2E_I32, 32, 32, 32, 0},
	    {"dot_fp16_mma", E2E_F16, E2E_F32, 64, 64, 32, 0},
	    {"dot_bf16_mma_w8", E2E_BF16, E2E_F32, 128, 64, 64, 0},
	    {"dot_fp16_mma_x2", E2E_F16, E2E_F32, 16, 32, 16, 0},
	    {"dot_fp16_mma_big", E2E_F16, E2E_F32, 128, 128, 64, 0},
	    /* wgmma (compiled for sm_90a on NVIDIA) */
	    {"dot_fp16_wgmma", E2E_F16, E2E_F32, 128, 128, 64, 0},
	    {"dot_bf16_wgmma", E2E_BF16, E2E_F32, 64, 64, 32, 0},
	    {"dot_fp16_wgmma_w8", E2E_F16, E2E_F32, 128, 64, 32, 0},
	    {"dot_bf16_wgmma_w8n", E2E_BF16, E2E_F32, 64, 128, 16, 0},
	    {"dot_fp16_wgmma_n32", E2E_F16, E2E_F32, 64, 32, 64, 0},
	};
	/* 1, primes, non-multiples of the blocks; the last spans several programs each way */
	static const int sizes[][3] = {{1, 1, 1}, {33, 17, 45}, {64, 64, 64}, {40, 70, 100}, {150, 263, 97}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(vs); i++)
		for (size_t j = 0; j < E2E_ARRAY_SIZE(sizes); j++)
			E2E_RUN(test_dot(&vs[i], sizes[j][0], sizes[j][1], sizes[j][2], 11000 + 10 * i + j));
	static const int bsizes[][4] = {{1, 16, 16, 16}, {3, 13, 7, 11}, {5, 1, 16, 5}, {2, 16, 1, 1}};
	for (size_t j = 0; j < E2E_ARRAY_SIZE(bsizes); j++)
		E2E_RUN(test_bdot(bsizes[j][0], bsizes[j][1], bsizes[j][2], bsizes[j][3], 12000 + j));
	static const struct {
		const char *name;
		e2e_dtype in, out;
	} mms[] = {{"mm_fp32", E2E_F32, E2E_F32}, {"mm_fp16", E2E_F16, E2E_F16}, {"mm_bf16", E2E_BF16, E2E_F32}};
	static const int msizes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 45}, {128, 128, 128}, {150, 263, 97}, {61, 67, 200}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(mms); i++)
		for (size_t j = 0; j < E2E_ARRAY_SIZE(msizes); j++)
			E2E_RUN(test_mm(mms[i].name, mms[i].in, mms[i].out, msizes[j][0], msizes[j][1], msizes[j][2],
					13000 + 10 * i + j));
	/* B's columns wrapped by % N read straight from memory (on CPUs, the dot packs B from
	 * runs of consecutive addresses when the mask holds everywhere): every buffer exactly
	 * its size, ending where an inaccessible page begins, so that a read past the end of B
	 * (a run taken longer than the wrap allows) crashes the case, and a wrong (wrapped)
	 * element reaches the stored output. N prime and unhinted (runs of 1); and N and the
	 * leading dimensions ":16" (mm_fp32_h16: runs of 16) at N below, at and not a multiple
	 * of the block (64); K a multiple of the block (32: the unmasked path) and not. */
	static const int gsizes[][3] = {{67, 61, 64}, {130, 263, 96}, {5, 17, 45}, {1, 1, 32}};
	for (size_t j = 0; j < E2E_ARRAY_SIZE(gsizes); j++)
		E2E_RUN(test_mm_at("mm_fp32", E2E_F32, E2E_F32, gsizes[j][0], gsizes[j][1], gsizes[j][2], 0, 1, 14000 + j));
	static const int hsizes[][3] = {{67, 16, 64}, {70, 48, 96}, {129, 80, 64}, {61, 64, 45}, {7, 144, 32}};
	for (size_t j = 0; j < E2E_ARRAY_SIZE(hsizes); j++)
		E2E_RUN(test_mm_at("mm_fp32_h16", E2E_F32, E2E_F32, hsizes[j][0], hsizes[j][1], hsizes[j][2], 0, 1,
				   14100 + j));
	/* the CPU micro-kernel's blocks of rows (kernels.cmake says which): 1, primes, sizes
	 * below, at and past the blocks, K loops of one to four blocks, one masked */
	static const char *const bnames[] = {"mm_fp32_b128", "mm_fp32_m32"};
	static const int bsz[][3] = {{1, 1, 1}, {7, 5, 3}, {131, 127, 67}, {128, 128, 128}, {263, 61, 256}, {17, 300, 64}};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(bnames); i++)
		for (size_t j = 0; j < E2E_ARRAY_SIZE(bsz); j++)
			E2E_RUN(test_mm(bnames[i], E2E_F32, E2E_F32, bsz[j][0], bsz[j][1], bsz[j][2], 15000 + 10 * i + j));
	return e2e_finish();
}
