/* main.c: launches vadd, softmax and matmul through their multi-target launchers on random
 * inputs of awkward sizes and checks them against plain C. Each launcher picks its artifact
 * for this machine (an sm_90a cubin on an H200, the x86-64 shared object where there is no
 * GPU, or with TILERT_FORCE_CPU=1); the program allocates device memory or host memory to
 * match (NAME_format()). Prints "<kernel>: <variant>" and "<kernel>: OK ..." lines; exits
 * non-zero on any mismatch or failure. With EXPECT_VARIANT=<variant> ("sm_90a cubin",
 * "x86-64", ...) it also fails when a kernel chose another artifact. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"
#include "softmax.h"
#include "vadd.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

/* Uniform in [lo, hi), from xorshift64*: the same numbers on every machine. */
static float uniform(float lo, float hi)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	uint64_t r = rng_state * 0x2545f4914f6cdd1du;
	return lo + (hi - lo) * (float)((r >> 40) / 16777216.0);
}

/* IEEE half <-> float, round to nearest even (normal and subnormal halves; no NaN inputs). */
static uint16_t to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
	if (mag >= 0x477ff000u) /* rounds to infinity or is one */
		return (uint16_t)(sign | 0x7c00u);
	if (mag < 0x38800000u) { /* a half subnormal: scale so that one ulp is 1.0 */
		float a;
		memcpy(&a, &mag, 4);
		return (uint16_t)(sign | (uint32_t)lrintf(a * 16777216.0f));
	}
	uint32_t h = (mag - 0x38000000u) >> 13, rest = mag & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

static float from_half(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
	float f;
	if (e == 0) {
		f = (float)m / 16777216.0f;
		return sign ? -f : f;
	}
	uint32_t x = sign | (e == 31 ? 0x7f800000u | (m << 13) : ((e + 112) << 23) | (m << 13));
	memcpy(&f, &x, 4);
	return f;
}

/* A buffer the kernel sees: host memory for a CPU artifact, device memory for a GPU one,
 * with a host copy either way. */
typedef struct buf {
	void *host, *dev;
	size_t bytes;
	int gpu;
} buf;

static int buf_make(buf *b, size_t bytes, int gpu)
{
	b->bytes = (bytes + 63) / 64 * 64;
	b->gpu = gpu;
	b->dev = NULL;
	b->host = aligned_alloc(64, b->bytes);
	if (!b->host)
		return TILERT_ERR_OUT_OF_MEMORY;
	memset(b->host, 0, b->bytes);
	return gpu ? tilert_device_alloc(b->bytes, &b->dev) : TILERT_OK;
}

static void *buf_ptr(const buf *b)
{
	return b->gpu ? b->dev : b->host;
}

static int buf_to_device(buf *b)
{
	return b->gpu ? tilert_memcpy_htod(b->dev, b->host, b->bytes) : TILERT_OK;
}

static int buf_to_host(buf *b)
{
	return b->gpu ? tilert_memcpy_dtoh(b->host, b->dev, b->bytes) : TILERT_OK;
}

static void buf_free(buf *b)
{
	if (b->gpu)
		tilert_device_free(b->dev);
	free(b->host);
	b->host = b->dev = NULL;
}

static int failed(const char *what, int rc)
{
	fprintf(stderr, "%s: %s (%s)\n", what, tilert_error_string(rc), tilert_last_error());
	return 1;
}

/* The variant a launcher chose, printed and checked against EXPECT_VARIANT; *gpu says
 * which memory its pointers are. */
static int variant(const char *kernel, const char *v, tilert_format f, int *gpu)
{
	if (!v)
		return failed(kernel, TILERT_ERR_NOT_FOUND);
	printf("%s: %s\n", kernel, v);
	const char *want = getenv("EXPECT_VARIANT");
	if (want && *want && strcmp(want, v)) {
		fprintf(stderr, "%s: chose '%s', expected '%s'\n", kernel, v, want);
		return 1;
	}
	*gpu = f != TILERT_FORMAT_HOST;
	return 0;
}

#define POISON (-12345.0f)

static int check_vadd(int gpu, int32_t n)
{
	buf x, y, out;
	int rc, bad = 0;
	if ((rc = buf_make(&x, (size_t)n * 4, gpu)) || (rc = buf_make(&y, (size_t)n * 4, gpu)) ||
	    (rc = buf_make(&out, (size_t)n * 4 + 64, gpu)))
		return failed("vadd: alloc", rc);
	float *xh = x.host, *yh = y.host, *oh = out.host;
	for (int32_t i = 0; i < n; i++) {
		xh[i] = uniform(-1000, 1000);
		yh[i] = uniform(-1000, 1000);
	}
	for (size_t i = 0; i < out.bytes / 4; i++)
		oh[i] = POISON;
	tilert_grid grid = {(uint32_t)(n + 1023) / 1024, 1, 1};
	if ((rc = buf_to_device(&x)) || (rc = buf_to_device(&y)) || (rc = buf_to_device(&out)) ||
	    (rc = vadd_launch(NULL, grid, buf_ptr(&x), buf_ptr(&y), buf_ptr(&out), n)) ||
	    (rc = tilert_stream_synchronize(NULL)) || (rc = buf_to_host(&out)))
		return failed("vadd", rc);
	for (int32_t i = 0; i < n + 16; i++) {
		float want = i < n ? xh[i] + yh[i] : POISON;
		if (oh[i] != want && bad++ < 5)
			fprintf(stderr, "vadd: n=%d: out[%d] = %g, want %g\n", n, i, oh[i], want);
	}
	buf_free(&x);
	buf_free(&y);
	buf_free(&out);
	if (bad)
		return 1;
	printf("vadd: OK (n = %d)\n", n);
	return 0;
}

/* rows x cols, read with stride in_stride and written with out_stride (> cols: the gaps
 * must keep their poison) */
static int check_softmax(int gpu, int32_t rows, int32_t cols, int32_t in_stride, int32_t out_stride)
{
	buf in, out;
	int rc, bad = 0;
	if ((rc = buf_make(&in, (size_t)rows * in_stride * 4, gpu)) ||
	    (rc = buf_make(&out, (size_t)rows * out_stride * 4, gpu)))
		return failed("softmax: alloc", rc);
	float *ih = in.host, *oh = out.host;
	for (size_t i = 0; i < in.bytes / 4; i++)
		ih[i] = uniform(-20, 20);
	for (size_t i = 0; i < out.bytes / 4; i++)
		oh[i] = POISON;
	tilert_grid grid = {(uint32_t)rows, 1, 1};
	if ((rc = buf_to_device(&in)) || (rc = buf_to_device(&out)) ||
	    (rc = softmax_launch(NULL, grid, buf_ptr(&out), buf_ptr(&in), in_stride, out_stride, cols)) ||
	    (rc = tilert_stream_synchronize(NULL)) || (rc = buf_to_host(&out)))
		return failed("softmax", rc);
	for (int32_t r = 0; r < rows; r++) {
		const float *x = ih + (size_t)r * in_stride;
		double mx = -INFINITY, sum = 0;
		for (int32_t c = 0; c < cols; c++)
			mx = x[c] > mx ? x[c] : mx;
		for (int32_t c = 0; c < cols; c++)
			sum += exp(x[c] - mx);
		for (int32_t c = 0; c < out_stride; c++) {
			float got = oh[(size_t)r * out_stride + c];
			double want = c < cols ? exp(x[c] - mx) / sum : POISON;
			if (fabs(got - want) > 1e-5 + 1e-4 * fabs(want) && bad++ < 5)
				fprintf(stderr, "softmax: %dx%d: out[%d][%d] = %g, want %g\n", rows, cols, r,
					c, got, want);
		}
	}
	buf_free(&in);
	buf_free(&out);
	if (bad)
		return 1;
	printf("softmax: OK (%d x %d)\n", rows, cols);
	return 0;
}

/* C = A B for row-major fp16 A (M x K) and B (K x N), fp32 accumulation, fp16 C */
static int check_matmul(int gpu, int32_t M, int32_t N, int32_t K)
{
	buf a, b, c;
	int rc, bad = 0;
	if ((rc = buf_make(&a, (size_t)M * K * 2, gpu)) || (rc = buf_make(&b, (size_t)K * N * 2, gpu)) ||
	    (rc = buf_make(&c, (size_t)M * N * 2 + 64, gpu)))
		return failed("matmul: alloc", rc);
	uint16_t *ah = a.host, *bh = b.host, *ch = c.host;
	for (size_t i = 0; i < (size_t)M * K; i++)
		ah[i] = to_half(uniform(-1, 1));
	for (size_t i = 0; i < (size_t)K * N; i++)
		bh[i] = to_half(uniform(-1, 1));
	uint16_t poison = to_half(POISON);
	for (size_t i = 0; i < c.bytes / 2; i++)
		ch[i] = poison;
	uint32_t programs = (uint32_t)(((M + 127) / 128) * ((N + 127) / 128));
	tilert_grid grid = {programs, 1, 1};
	if ((rc = buf_to_device(&a)) || (rc = buf_to_device(&b)) || (rc = buf_to_device(&c)) ||
	    (rc = matmul_launch(NULL, grid, buf_ptr(&a), buf_ptr(&b), buf_ptr(&c), M, N, K, K, 1, N,
				1, N, 1)) ||
	    (rc = tilert_stream_synchronize(NULL)) || (rc = buf_to_host(&c)))
		return failed("matmul", rc);
	for (int32_t i = 0; i < M; i++)
		for (int32_t j = 0; j < N; j++) {
			double want = 0;
			for (int32_t k = 0; k < K; k++)
				want += (double)from_half(ah[(size_t)i * K + k]) * from_half(bh[(size_t)k * N + j]);
			float got = from_half(ch[(size_t)i * N + j]);
			if (fabs(got - want) > 1e-2 + 2e-3 * fabs(want) && bad++ < 5)
				fprintf(stderr, "matmul: %dx%dx%d: c[%d][%d] = %g, want %g\n", M, N, K, i, j,
					got, want);
		}
	for (size_t i = (size_t)M * N; i < (size_t)M * N + 32; i++)
		if (ch[i] != poison && bad++ < 5)
			fprintf(stderr, "matmul: %dx%dx%d: written past C, at %zu\n", M, N, K, i);
	buf_free(&a);
	buf_free(&b);
	buf_free(&c);
	if (bad)
		return 1;
	printf("matmul: OK (%d x %d x %d)\n", M, N, K);
	return 0;
}

int main(void)
{
	int gv, gs, gm, bad = 0;
	if (variant("vadd", vadd_variant(), vadd_format(), &gv) ||
	    variant("softmax", softmax_variant(), softmax_format(), &gs) ||
	    variant("matmul", matmul_variant(), matmul_format(), &gm))
		return 1;
	bad |= check_vadd(gv, 1);
	bad |= check_vadd(gv, 97);
	bad |= check_vadd(gv, 100003);
	bad |= check_softmax(gs, 1, 1, 1, 3);
	bad |= check_softmax(gs, 37, 1000, 1003, 1001);
	bad |= check_softmax(gs, 5, 1024, 1024, 1029);
	bad |= check_matmul(gm, 1, 1, 1);
	bad |= check_matmul(gm, 197, 131, 77);
	bad |= check_matmul(gm, 129, 257, 200);
	vadd_unload();
	softmax_unload();
	matmul_unload();
	if (bad) {
		fprintf(stderr, "tilecc_gpu_example: FAILED\n");
		return 1;
	}
	printf("tilecc_gpu_example: all OK\n");
	return 0;
}
