/* vadd_main.c: the README's main command runs this. It launches the vadd kernel that
 * `tilecc examples/vadd.py -o vadd.h` compiled for this machine (the header's C source
 * embeds the shared object), on random inputs of an awkward size, and checks every
 * element against C. */
#include <stdio.h>
#include <stdlib.h>

#include "vadd.h"

int main(void)
{
	const int32_t n = 1000003; /* a prime: the last program is partly masked off */
	float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
	float *out = malloc(sizeof(float) * n);
	if (!x || !y || !out)
		return 1;
	srand(42);
	for (int32_t i = 0; i < n; i++) {
		x[i] = (float)rand() / RAND_MAX - 0.5f;
		y[i] = (float)rand() / RAND_MAX * 4.0f;
		out[i] = -1e30f; /* poison */
	}
	tilert_grid grid = {(uint32_t)((n + 1023) / 1024), 1, 1};
	int rc = vadd_launch(NULL, grid, x, y, out, n);
	if (rc != TILERT_OK) {
		fprintf(stderr, "vadd_launch: %s: %s\n", tilert_error_string(rc), tilert_last_error());
		return 1;
	}
	int32_t bad = 0;
	for (int32_t i = 0; i < n; i++)
		if (out[i] != x[i] + y[i])
			bad++;
	printf("check: vadd of %d elements on the host (%d programs): %s (%d mismatches)\n", n,
	       grid.x, bad ? "FAILED" : "OK", bad);
	free(x), free(y), free(out);
	return bad != 0;
}
