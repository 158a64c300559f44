/* vadd_run.c: runs add_kernel of vadd.ttir (TTIR written by hand as Triton 3.x prints the
 * vector add of its tutorial 01, compiled by tilecc for the host) and compares it with C,
 * for sizes that are and are not multiples of the block (1024), so the masks matter.
 * Usage: mlir_vadd_run vadd_ttir.so */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tilecc/tilert.h"

static int run(tilert_kernel *k, int32_t n)
{
	/* one guard element past the end of out must stay untouched */
	float *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
	float *out = malloc(sizeof *out * (size_t)(n + 1));
	int bad = 0;
	if (!x || !y || !out) {
		fprintf(stderr, "out of memory\n");
		bad = 1;
		goto done;
	}
	for (int32_t i = 0; i < n; i++) {
		x[i] = (float)(i % 97) * 0.5f - 3.0f;
		y[i] = 1.0f / (float)(i + 1);
		out[i] = NAN;
	}
	out[n] = 42.0f;
	void *px = x, *py = y, *po = out;
	void *args[] = {&px, &py, &po, &n};
	tilert_grid grid = {(uint32_t)((n + 1023) / 1024), 1, 1};
	if (tilert_launch(k, NULL, grid, args, 4)) {
		fprintf(stderr, "launch failed: %s\n", tilert_last_error());
		bad = 1;
		goto done;
	}
	for (int32_t i = 0; i < n && bad < 5; i++)
		if (out[i] != x[i] + y[i]) {
			fprintf(stderr, "n=%d: out[%d] = %g, expected %g\n", n, i, out[i], x[i] + y[i]);
			bad++;
		}
	if (out[n] != 42.0f) {
		fprintf(stderr, "n=%d: the store went past the mask\n", n);
		bad++;
	}
	printf("n=%d: %s\n", n, bad ? "FAIL" : "ok");
done:
	free(x);
	free(y);
	free(out);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s vadd_ttir.so\n", argv[0]);
		return 2;
	}
	tilert_module *m;
	tilert_kernel *k;
	if (tilert_module_load_file(argv[1], &m) || tilert_module_get_kernel(m, "add_kernel", &k)) {
		fprintf(stderr, "%s: %s\n", argv[1], tilert_last_error());
		return 1;
	}
	int bad = 0;
	const int32_t sizes[] = {1, 1000, 1024, 3000, 98432};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		bad += run(k, sizes[i]);
	tilert_module_unload(m);
	return bad ? 1 : 0;
}
