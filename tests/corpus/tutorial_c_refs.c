/* tutorial_c_refs.c: references for tests/corpus/tutorials-cpu.sh computed in C (float64,
 * rounded to each output's dtype), in the manifest format of tests/gpu/tutorial_refs.py, for
 * the same cases. They check the CPU half (tilecc's tutorial kernels, the runner, the
 * script) on a machine without a GPU; the comparison the task asks for is with Triton's
 * results, which only the GPU machine can give.
 *
 *     tutorial_c_refs REFDIR
 *
 * Inputs are random (xorshift, fixed seeds; never zeros). Where the kernel's own arithmetic
 * decides a result exactly, the reference does the same arithmetic: fp32 additions (vector
 * add), the keep mask of seeded dropout (Philox4x32-10 and Triton's uint-to-float mapping,
 * as tests/e2e/random.c checks them), the fp16 partial sums of the layer-norm backward (two
 * rows meet in a partial sum at most; fp16 additions round once). Everything else is the
 * textbook formula in double: softmax, matmul (with leaky_relu), layer norm forward and
 * backward, attention forward (o and the log2-sum-exp M) and backward (the exact gradients),
 * with tolerances that cover the kernels' fp32 and fp16 rounding. */
#include "../e2e/e2e.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *refdir;
static FILE *man;
static char cname[256];
static int argno;

static void die(const char *what)
{
	fprintf(stderr, "tutorial_c_refs: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_bin(const char *file, const void *p, size_t bytes)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", refdir, file);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, bytes, f) != bytes || fclose(f))
		die(path);
}

static void begin(const char *row, const char *kernel, unsigned gx, unsigned gy, unsigned gz,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void begin(const char *row, const char *kernel, unsigned gx, unsigned gy, unsigned gz,
                  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cname, sizeof cname, fmt, ap);
	va_end(ap);
	fprintf(man, "case %s\nkernel %s %s\ngrid %u %u %u\n", cname, row, kernel, gx, gy, gz);
	argno = 0;
}

static void end(void)
{
	fprintf(man, "end\n");
	printf("wrote %s\n", cname);
}

static void in(e2e_dtype t, size_t n, const void *p)
{
	char f[300];
	snprintf(f, sizeof f, "%s.%d.in.bin", cname, argno++);
	write_bin(f, p, n * (size_t)e2e_dtype_size(t));
	fprintf(man, "in %s %zu %s\n", e2e_dtype_name(t), n, f);
}

static void out(e2e_dtype t, size_t n, const void *want, double atol, double rtol, int zeros)
{
	char f[300];
	snprintf(f, sizeof f, "%s.%d.out.bin", cname, argno++);
	write_bin(f, want, n * (size_t)e2e_dtype_size(t));
	fprintf(man, "out %s %zu %s %.17g %.17g%s\n", e2e_dtype_name(t), n, f, atol, rtol,
	        zeros ? " zeros" : "");
}

static void inout(e2e_dtype t, size_t n, const void *start, const void *want, double atol,
                  double rtol)
{
	char f[300], g[300];
	snprintf(f, sizeof f, "%s.%d.start.bin", cname, argno);
	snprintf(g, sizeof g, "%s.%d.out.bin", cname, argno++);
	write_bin(f, start, n * (size_t)e2e_dtype_size(t));
	write_bin(g, want, n * (size_t)e2e_dtype_size(t));
	fprintf(man, "inout %s %zu %s %s %.17g %.17g\n", e2e_dtype_name(t), n, f, g, atol, rtol);
}

static void i32(int32_t v)
{
	argno++;
	fprintf(man, "scalar i32 %d\n", v);
}

static void f32(float v)
{
	argno++;
	fprintf(man, "scalar fp32 %a\n", (double)v);
}

static unsigned cdiv(unsigned a, unsigned b)
{
	return (a + b - 1) / b;
}

static void *xalloc(size_t bytes)
{
	void *p = calloc(1, bytes ? bytes : 1);
	if (!p)
		die("calloc");
	return p;
}

static double h(const uint16_t *p, size_t i)
{
	return e2e_h2f(p[i]);
}

/* ---- 01 vector add, 02 softmax, 03 matmul ------------------------------------------------ */

static void vector_add(int n)
{
	e2e_rng r = e2e_rng_new(1000 + (uint64_t)n);
	float *x = xalloc(4 * (size_t)n), *y = xalloc(4 * (size_t)n), *o = xalloc(4 * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, 0.01, 1);
	e2e_fill_f32(&r, y, (size_t)n, 0.01, 1);
	for (int i = 0; i < n; i++)
		o[i] = x[i] + y[i]; /* one fp32 rounding, as the kernel's */
	begin("add", "add_kernel", cdiv((unsigned)n, 1024), 1, 1, "01-add-n%d", n);
	in(E2E_F32, (size_t)n, x);
	in(E2E_F32, (size_t)n, y);
	out(E2E_F32, (size_t)n, o, 0, 0, 0);
	i32(n);
	end();
	free(x), free(y), free(o);
}

static void softmax(int M, int N, unsigned programs)
{
	e2e_rng r = e2e_rng_new(2000 + (uint64_t)(M * N));
	size_t n = (size_t)M * (size_t)N;
	float *x = xalloc(4 * n), *y = xalloc(4 * n);
	e2e_fill_f32(&r, x, n, -4, 4);
	for (int i = 0; i < M; i++) {
		double mx = -INFINITY, s = 0;
		for (int j = 0; j < N; j++)
			mx = fmax(mx, x[(size_t)i * N + j]);
		for (int j = 0; j < N; j++)
			s += exp(x[(size_t)i * N + j] - mx);
		for (int j = 0; j < N; j++)
			y[(size_t)i * N + j] = (float)(exp(x[(size_t)i * N + j] - mx) / s);
	}
	begin("softmax", "softmax_kernel", programs, 1, 1, "02-softmax-%dx%d-p%u", M, N, programs);
	out(E2E_F32, n, y, 1e-8, 1e-5, 0);
	in(E2E_F32, n, x);
	i32(N), i32(N), i32(M), i32(N);
	end();
	free(x), free(y);
}

static void matmul(int M, int N, int K, const char *row, unsigned bm, unsigned bn, int leaky)
{
	e2e_rng r = e2e_rng_new(3000 + (uint64_t)(M * N + K));
	uint16_t *a = xalloc(2 * (size_t)M * K), *b = xalloc(2 * (size_t)K * N),
	         *c = xalloc(2 * (size_t)M * N);
	e2e_fill_f16(&r, a, (size_t)M * K, -1, 1);
	e2e_fill_f16(&r, b, (size_t)K * N, -1, 1);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < K; k++)
				s += h(a, (size_t)i * K + k) * h(b, (size_t)k * N + j);
			if (leaky && s < 0)
				s *= 0.01;
			c[(size_t)i * N + j] = e2e_f2h((float)s);
		}
	begin(row, "matmul_kernel", cdiv((unsigned)M, bm) * cdiv((unsigned)N, bn), 1, 1,
	      "03-%s-%dx%dx%d", row, M, N, K);
	in(E2E_F16, (size_t)M * K, a);
	in(E2E_F16, (size_t)K * N, b);
	out(E2E_F16, (size_t)M * N, c, 1e-3, 2e-3, 0);
	i32(M), i32(N), i32(K), i32(K), i32(1), i32(N), i32(1), i32(N), i32(1);
	end();
	free(a), free(b), free(c);
}

/* ---- 04 dropout ----------------------------------------------------------------------------- */

static void dropout(int n, float p)
{
	e2e_rng r = e2e_rng_new(4000 + (uint64_t)n);
	float *x = xalloc(4 * (size_t)n), *o = xalloc(4 * (size_t)n);
	int32_t *keep = xalloc(4 * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, 0.1, 2);
	for (int i = 0; i < n; i++) {
		if (e2e_next(&r) & 1)
			x[i] = -x[i];
		keep[i] = (int32_t)(e2e_next(&r) >> 63);
		o[i] = keep[i] ? (float)((double)x[i] / (double)(1.0f - p)) : 0.0f;
	}
	keep[0] = 1; /* n = 1: kept */
	o[0] = (float)((double)x[0] / (double)(1.0f - p));
	begin("dropout", "_dropout", cdiv((unsigned)n, 1024), 1, 1, "04-dropout-n%d-p%g", n, p);
	in(E2E_F32, (size_t)n, x);
	in(E2E_I32, (size_t)n, keep);
	out(E2E_F32, (size_t)n, o, 0, 1e-6, 1);
	i32(n);
	f32(p);
	end();
	free(x), free(o), free(keep);
}

/* Philox4x32-10 on the counter (offset, 0, 0, 0) and the key (seed, seed >> 32), word 0,
 * mapped to [0, 1) as Triton's uint_to_uniform_float: tl.rand(seed, offset). */
static float triton_rand(int32_t seed, uint32_t offset)
{
	uint32_t c[4] = {offset, 0, 0, 0};
	uint64_t key = (uint64_t)(int64_t)seed;
	uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
	for (int i = 0; i < 10; i++) {
		uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
		uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
		uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
		c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	int32_t v = (int32_t)c[0];
	if (v < 0)
		v = ~v;
	return (float)v * 4.6566127342e-10f;
}

static void seeded_dropout(int n, float p, int32_t seed)
{
	e2e_rng r = e2e_rng_new(5000 + (uint64_t)n);
	float *x = xalloc(4 * (size_t)n), *o = xalloc(4 * (size_t)n);
	e2e_fill_f32(&r, x, (size_t)n, 0.1, 2);
	for (int i = 0; i < n; i++) {
		if (e2e_next(&r) & 1)
			x[i] = -x[i];
		int keep = triton_rand(seed, (uint32_t)i) > p;
		o[i] = keep ? (float)((double)x[i] / (double)(1.0f - p)) : 0.0f;
	}
	begin("seeded_dropout", "_seeded_dropout", cdiv((unsigned)n, 1024), 1, 1,
	      "04-seeded-dropout-n%d-p%g-seed%d", n, p, seed);
	in(E2E_F32, (size_t)n, x);
	out(E2E_F32, (size_t)n, o, 0, 1e-6, 1);
	i32(n);
	f32(p);
	i32(seed);
	end();
	free(x), free(o);
}

/* ---- 05 layer norm: forward, backward dx with the partial sums, backward dw db ------------ */

enum { LN_GROUP = 256 };

static void layer_norm(int M, int N)
{
	e2e_rng r = e2e_rng_new(6000 + (uint64_t)(M * 7 + N));
	size_t n = (size_t)M * N;
	uint16_t *x = xalloc(2 * n), *y = xalloc(2 * n), *w = xalloc(2 * (size_t)N),
	         *b = xalloc(2 * (size_t)N), *dy = xalloc(2 * n), *dx = xalloc(2 * n);
	float *mean = xalloc(4 * (size_t)M), *rstd = xalloc(4 * (size_t)M);
	e2e_fill_f16(&r, x, n, -3.2, -1.4);
	e2e_fill_f16(&r, w, (size_t)N, 0.05, 1);
	e2e_fill_f16(&r, b, (size_t)N, 0.05, 1);
	e2e_fill_f16(&r, dy, n, -0.17, 0.17);
	const float eps = 1e-5f;
	for (int i = 0; i < M; i++) {
		double m = 0, v = 0;
		for (int j = 0; j < N; j++)
			m += h(x, (size_t)i * N + j);
		m /= N;
		for (int j = 0; j < N; j++)
			v += (h(x, (size_t)i * N + j) - m) * (h(x, (size_t)i * N + j) - m);
		v /= N;
		double rs = 1 / sqrt(v + eps);
		mean[i] = (float)m;
		rstd[i] = (float)rs;
		for (int j = 0; j < N; j++)
			y[(size_t)i * N + j] = e2e_f2h((float)((h(x, (size_t)i * N + j) - m) * rs * h(w, j) + h(b, j)));
	}
	begin("ln_fwd", "_layer_norm_fwd_fused", (unsigned)M, 1, 1, "05-ln-fwd-%dx%d", M, N);
	in(E2E_F16, n, x);
	out(E2E_F16, n, y, 2e-3, 2e-3, 0);
	in(E2E_F16, (size_t)N, w);
	in(E2E_F16, (size_t)N, b);
	out(E2E_F32, (size_t)M, mean, 1e-5, 1e-5, 0);
	out(E2E_F32, (size_t)M, rstd, 1e-5, 1e-5, 0);
	i32(N), i32(N);
	f32(eps);
	end();

	/* backward dx, from the fp32 mean and rstd (the forward's, as the tutorial passes them);
	 * the partial sums of row g of _dw/_db: the rows i = g, g + 256 in fp16 */
	size_t gn = (size_t)LN_GROUP * N;
	uint16_t *pdw0 = xalloc(2 * gn), *pdb0 = xalloc(2 * gn), *pdw = xalloc(2 * gn),
	         *pdb = xalloc(2 * gn);
	int32_t *locks0 = xalloc(4 * 2 * LN_GROUP), *locks = xalloc(4 * 2 * LN_GROUP);
	for (int i = 0; i < M; i++) {
		double c1 = 0, c2 = 0;
		for (int j = 0; j < N; j++) {
			double xh = (h(x, (size_t)i * N + j) - mean[i]) * rstd[i];
			double wdy = h(w, j) * h(dy, (size_t)i * N + j);
			c1 += xh * wdy;
			c2 += wdy;
		}
		c1 /= N;
		c2 /= N;
		int g = i % LN_GROUP;
		for (int j = 0; j < N; j++) {
			double xh = (h(x, (size_t)i * N + j) - mean[i]) * rstd[i];
			double wdy = h(w, j) * h(dy, (size_t)i * N + j);
			dx[(size_t)i * N + j] = e2e_f2h((float)((wdy - (xh * c1 + c2)) * rstd[i]));
			float pw = e2e_round_f16((float)(h(dy, (size_t)i * N + j) * xh));
			float pb = (float)h(dy, (size_t)i * N + j);
			size_t k = (size_t)g * N + j;
			if (i >= LN_GROUP) { /* fp16 + fp16, one rounding */
				pw += e2e_h2f(pdw[k]);
				pb += e2e_h2f(pdb[k]);
			}
			pdw[k] = e2e_f2h(pw);
			pdb[k] = e2e_f2h(pb);
		}
		locks[LN_GROUP + g] = 1; /* the count; the lock itself ends released */
	}
	begin("ln_bwd_dx", "_layer_norm_bwd_dx_fused", (unsigned)M, 1, 1, "05-ln-bwd-dx-%dx%d", M, N);
	out(E2E_F16, n, dx, 2e-3, 2e-3, 0);
	in(E2E_F16, n, dy);
	inout(E2E_F16, gn, pdw0, pdw, 2e-3, 2e-3);
	inout(E2E_F16, gn, pdb0, pdb, 2e-3, 2e-3);
	in(E2E_F16, n, x);
	in(E2E_F16, (size_t)N, w);
	in(E2E_F32, (size_t)M, mean);
	in(E2E_F32, (size_t)M, rstd);
	inout(E2E_I32, 2 * LN_GROUP, locks0, locks, 0, 0);
	i32(N), i32(N);
	end();

	int rows = M < LN_GROUP ? M : LN_GROUP;
	uint16_t *dw = xalloc(2 * (size_t)N), *db = xalloc(2 * (size_t)N);
	for (int j = 0; j < N; j++) {
		double sw = 0, sb = 0;
		for (int g = 0; g < rows; g++) {
			sw += e2e_h2f(pdw[(size_t)g * N + j]);
			sb += e2e_h2f(pdb[(size_t)g * N + j]);
		}
		dw[j] = e2e_f2h((float)sw);
		db[j] = e2e_f2h((float)sb);
	}
	begin("ln_bwd_dwdb", "_layer_norm_bwd_dwdb", cdiv((unsigned)N, 128), 1, 1,
	      "05-ln-bwd-dwdb-%dx%d", M, N);
	in(E2E_F16, gn, pdw);
	in(E2E_F16, gn, pdb);
	out(E2E_F16, (size_t)N, dw, 2e-3, 2e-3, 0);
	out(E2E_F16, (size_t)N, db, 2e-3, 2e-3, 0);
	i32(rows), i32(N);
	end();
	free(x), free(y), free(w), free(b), free(dy), free(dx), free(mean), free(rstd);
	free(pdw0), free(pdb0), free(pdw), free(pdb), free(locks0), free(locks), free(dw), free(db);
}

/* ---- 06 attention: forward, backward preprocess, backward --------------------------------- */

static void attention(int Z, int H, int N, int D, int causal)
{
	e2e_rng r = e2e_rng_new(7000 + (uint64_t)(Z * 100 + H * 10 + N + causal));
	size_t n = (size_t)Z * H * N * D, nm = (size_t)Z * H * N;
	uint16_t *q = xalloc(2 * n), *k = xalloc(2 * n), *v = xalloc(2 * n), *o = xalloc(2 * n),
	         *dO = xalloc(2 * n), *ak = xalloc(2 * n), *dq = xalloc(2 * n), *dk = xalloc(2 * n),
	         *dv = xalloc(2 * n);
	float *Mv = xalloc(4 * nm), *delta = xalloc(4 * nm);
	double *P = xalloc(8 * (size_t)N * N), *dS = xalloc(8 * (size_t)N * N);
	e2e_fill_f16(&r, q, n, -1, 1);
	e2e_fill_f16(&r, k, n, -1, 1);
	e2e_fill_f16(&r, v, n, -1, 1);
	e2e_fill_f16(&r, dO, n, -1, 1);
	const float sm_scale = 0.5f;
	for (size_t i = 0; i < n; i++) /* arg_k = k * (sm_scale / ln 2): fp32 product, in fp16 */
		ak[i] = e2e_f2h((float)(e2e_h2f(k[i]) * (float)(0.5 * 1.4426950408889634)));
	for (int zh = 0; zh < Z * H; zh++) {
		size_t base = (size_t)zh * N * D;
		const uint16_t *Q = q + base, *K = k + base, *V = v + base, *DO = dO + base;
		for (int i = 0; i < N; i++) {
			double mx = -INFINITY, s = 0;
			for (int j = 0; j < N; j++) {
				double t = 0;
				for (int d = 0; d < D; d++)
					t += h(Q, (size_t)i * D + d) * h(K, (size_t)j * D + d);
				t *= sm_scale;
				if (causal && j > i)
					t = -INFINITY;
				P[(size_t)i * N + j] = t;
				mx = fmax(mx, t);
			}
			for (int j = 0; j < N; j++)
				s += exp(P[(size_t)i * N + j] - mx);
			for (int j = 0; j < N; j++)
				P[(size_t)i * N + j] = exp(P[(size_t)i * N + j] - mx) / s;
			Mv[(size_t)zh * N + i] = (float)((mx + log(s)) / 0.6931471805599453);
			double dl = 0;
			for (int d = 0; d < D; d++) {
				double t = 0;
				for (int j = 0; j < N; j++)
					t += P[(size_t)i * N + j] * h(V, (size_t)j * D + d);
				o[base + (size_t)i * D + d] = e2e_f2h((float)t);
			}
			for (int d = 0; d < D; d++) /* delta from the fp16 o, as the kernel's */
				dl += h(o, base + (size_t)i * D + d) * h(DO, (size_t)i * D + d);
			delta[(size_t)zh * N + i] = (float)dl;
		}
		/* exact gradients: dS = P (dP - rowsum(P dP)), dP = dO V^T */
		for (int i = 0; i < N; i++) {
			double rs = 0;
			for (int j = 0; j < N; j++) {
				double t = 0;
				for (int d = 0; d < D; d++)
					t += h(DO, (size_t)i * D + d) * h(V, (size_t)j * D + d);
				dS[(size_t)i * N + j] = t;
				rs += P[(size_t)i * N + j] * t;
			}
			for (int j = 0; j < N; j++)
				dS[(size_t)i * N + j] = P[(size_t)i * N + j] * (dS[(size_t)i * N + j] - rs);
		}
		for (int i = 0; i < N; i++)
			for (int d = 0; d < D; d++) {
				double tq = 0, tk = 0, tv = 0;
				for (int j = 0; j < N; j++) {
					tq += dS[(size_t)i * N + j] * h(K, (size_t)j * D + d);
					tk += dS[(size_t)j * N + i] * h(Q, (size_t)j * D + d);
					tv += P[(size_t)j * N + i] * h(DO, (size_t)j * D + d);
				}
				dq[base + (size_t)i * D + d] = e2e_f2h((float)(tq * sm_scale));
				dk[base + (size_t)i * D + d] = e2e_f2h((float)(tk * sm_scale));
				dv[base + (size_t)i * D + d] = e2e_f2h((float)tv);
			}
	}
	const char *tag = causal ? "causal-" : "";
	const char *sfx = causal ? "_causal" : "";
	char row[64];
	snprintf(row, sizeof row, "attn_fwd%s", sfx);
	begin(row, "_attn_fwd", (unsigned)N / 64, (unsigned)(Z * H), 1, "06-attn-fwd-%sZ%dH%dN%dD%d",
	      tag, Z, H, N, D);
	f32(sm_scale);
	out(E2E_F32, nm, Mv, 1e-4, 1e-4, 0);
	i32(Z), i32(H);
	in(E2E_F16, n, q);
	in(E2E_F16, n, k);
	in(E2E_F16, n, v);
	out(E2E_F16, n, o, 2e-3, 2e-3, 0);
	i32(N);
	end();
	begin("attn_bwd_pre", "_attn_bwd_preprocess", (unsigned)N / 128, (unsigned)(Z * H), 1,
	      "06-attn-bwd-pre-%sZ%dH%dN%dD%d", tag, Z, H, N, D);
	in(E2E_F16, n, o);
	in(E2E_F16, n, dO);
	out(E2E_F32, nm, delta, 1e-5, 1e-5, 0);
	i32(Z), i32(H), i32(N);
	end();
	snprintf(row, sizeof row, "attn_bwd%s", sfx);
	begin(row, "_attn_bwd", (unsigned)N / 128, 1, (unsigned)(Z * H),
	      "06-attn-bwd-%sZ%dH%dN%dD%d", tag, Z, H, N, D);
	in(E2E_F16, n, q);
	in(E2E_F16, n, ak);
	in(E2E_F16, n, v);
	f32(sm_scale);
	in(E2E_F16, n, dO);
	out(E2E_F16, n, dq, 5e-3, 5e-3, 0);
	out(E2E_F16, n, dk, 5e-3, 5e-3, 0);
	out(E2E_F16, n, dv, 5e-3, 5e-3, 0);
	in(E2E_F32, nm, Mv);
	in(E2E_F32, nm, delta);
	i32(H * N * D), i32(N * D), i32(D), i32(1), i32(H), i32(N);
	end();
	free(q), free(k), free(v), free(o), free(dO), free(ak), free(dq), free(dk), free(dv);
	free(Mv), free(delta), free(P), free(dS);
}

/* --selftest: the runner's own test (ctest corpus.tutorial_run), on bench/kernels/vadd.py
 * compiled as the row "vadd": a case that must pass, then the same with one element of the
 * reference one unit in the last place off, which must fail. */
static void selftest(void)
{
	enum { N = 4099 };
	e2e_rng r = e2e_rng_new(42);
	static float x[N], y[N], o[N];
	e2e_fill_f32(&r, x, N, -1, 1);
	e2e_fill_f32(&r, y, N, -1, 1);
	for (int i = 0; i < N; i++)
		o[i] = x[i] + y[i];
	for (int wrong = 0; wrong < 2; wrong++) {
		begin("vadd", "vadd", cdiv(N, 1024), 1, 1, "selftest-vadd-n%d%s", N,
		      wrong ? "-one-ulp-off" : "");
		in(E2E_F32, N, x);
		in(E2E_F32, N, y);
		if (wrong)
			o[1234] = nextafterf(o[1234], INFINITY);
		out(E2E_F32, N, o, 0, 0, 0);
		i32(N);
		end();
	}
}

int main(int argc, char **argv)
{
	int self = argc == 3 && strcmp(argv[1], "--selftest") == 0;
	if (argc != 2 && !self) {
		fprintf(stderr, "usage: %s [--selftest] REFDIR\n", argv[0]);
		return 2;
	}
	refdir = argv[argc - 1];
	char path[4096];
	snprintf(path, sizeof path, "%s/manifest.txt", refdir);
	man = fopen(path, "w");
	if (!man)
		die(path);
	fprintf(man, "# tests/corpus/tutorial_c_refs.c: C references (float64), not Triton's\n");
	if (self) {
		selftest();
		return fclose(man) != 0;
	}
	vector_add(98317);
	vector_add(1);
	softmax(37, 1000, 16);
	softmax(3, 517, 2);
	matmul(129, 97, 80, "matmul_leaky", 64, 64, 1);
	matmul(129, 97, 80, "matmul_plain", 32, 64, 0);
	matmul(1, 1, 1, "matmul_plain", 32, 64, 0);
	dropout(98427, 0.5f);
	dropout(1, 0.25f);
	seeded_dropout(98427, 0.5f, 123);
	seeded_dropout(262147, 0.25f, 7);
	seeded_dropout(1, 0.5f, 0);
	layer_norm(37, 512);
	layer_norm(300, 509);
	attention(1, 2, 128, 64, 0);
	attention(1, 2, 128, 64, 1);
	if (fclose(man))
		die(path);
	printf("manifest: %s\n", path);
	return 0;
}
