/* main.c: runs the two kernels of this example, vadd and softmax, on random inputs of
 * awkward sizes and checks them against plain C. Prints "vadd: OK" and "softmax: OK";
 * exits non-zero on any mismatch or launch failure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "softmax.h"
#include "vadd.h"

/* A value no kernel writes: the outputs start as this, so a store that is skipped shows. */
#define POISON (-12345.0f)

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

/* n floats, 64-byte aligned (the signatures promise pointers divisible by 16). */
static float *alloc_floats(size_t n)
{
	size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
	float *p = aligned_alloc(64, bytes);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static int launch_failed(const char *what, int rc)
{
	fprintf(stderr, "%s: launch failed: %s (%s)\n", what, tilert_error_string(rc),
		tilert_last_error());
	return 1;
}

static int check_vadd(void)
{
	const int32_t n = 100003; /* not a multiple of BLOCK (1024), nor of 16 */
	float *x = alloc_floats(n), *y = alloc_floats(n), *out = alloc_floats(n);
	for (int32_t i = 0; i < n; i++) {
		x[i] = uniform(-1000, 1000);
		y[i] = uniform(-1000, 1000);
		out[i] = POISON;
	}
	tilert_grid grid = {(uint32_t)(n + 1023) / 1024, 1, 1};
	int rc = vadd_launch(NULL, grid, x, y, out, n);
	if (rc != TILERT_OK)
		return launch_failed("vadd", rc);

	int bad = 0;
	for (int32_t i = 0; i < n; i++) {
		float want = x[i] + y[i];
		if (out[i] != want && bad++ < 5)
			fprintf(stderr, "vadd: out[%d] = %g, want %g\n", i, out[i], want);
	}
	free(x);
	free(y);
	free(out);
	if (bad) {
		fprintf(stderr, "vadd: %d of %d elements wrong\n", bad, n);
		return 1;
	}
	printf("vadd: OK (n = %d)\n", n);
	return 0;
}

static int check_softmax(void)
{
	/* 37 rows of 1000 columns (BLOCK is 1024), read with a stride of 1003 and written with
	 * one of 1008: the 8 columns past each output row must keep their poison. */
	const int32_t rows = 37, cols = 1000, in_stride = 1003, out_stride = 1008;
	float *in = alloc_floats((size_t)rows * in_stride);
	float *out = alloc_floats((size_t)rows * out_stride);
	for (int32_t i = 0; i < rows * in_stride; i++)
		in[i] = uniform(-8, 8);
	for (int32_t i = 0; i < rows * out_stride; i++)
		out[i] = POISON;
	tilert_grid grid = {(uint32_t)rows, 1, 1};
	int rc = softmax_launch(NULL, grid, out, in, in_stride, out_stride, cols);
	if (rc != TILERT_OK)
		return launch_failed("softmax", rc);

	int bad = 0;
	for (int32_t r = 0; r < rows; r++) {
		const float *a = in + (size_t)r * in_stride;
		const float *b = out + (size_t)r * out_stride;
		double max = a[0], sum = 0;
		for (int32_t c = 1; c < cols; c++)
			max = a[c] > max ? a[c] : max;
		for (int32_t c = 0; c < cols; c++)
			sum += exp(a[c] - max);
		for (int32_t c = 0; c < out_stride; c++) {
			double want = c < cols ? exp(a[c] - max) / sum : POISON;
			if (fabs(b[c] - want) > 1e-7 + 1e-5 * fabs(want) && bad++ < 5)
				fprintf(stderr, "softmax: out[%d][%d] = %g, want %g\n", r, c, b[c], want);
		}
	}
	free(in);
	free(out);
	if (bad) {
		fprintf(stderr, "softmax: %d elements wrong\n", bad);
		return 1;
	}
	printf("softmax: OK (%d rows of %d)\n", rows, cols);
	return 0;
}

int main(void)
{
	int failed = check_vadd();
	failed |= check_softmax();
	return failed;
}
