/* tune_launch.c: launches axpy through a tuned launcher (tilecc --tuning; docs/abi.md,
 * "Autotuning") at the sizes given as N:CONFIG arguments (CONFIG -1: any config) and checks
 * for each: the config chosen (axpy_choose_config and axpy_last_config), the heuristic's
 * value in the variant (EVEN=True exactly when N is a multiple of the config's BLOCK), and
 * the result against C (random inputs, outputs poisoned beyond N). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axpy.h"

static unsigned seed = 12345;
static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

int main(int argc, char **argv)
{
	int failures = 0;
	for (int a = 1; a < argc; a++) {
		int n = 0, want = -1;
		if (sscanf(argv[a], "%d:%d", &n, &want) < 1) {
			fprintf(stderr, "bad argument '%s'\n", argv[a]);
			return 2;
		}
		int cfg = axpy_choose_config(n);
		if (want >= 0 && cfg != want) {
			printf("n=%d: chose config %d, want %d\n", n, cfg, want);
			failures++;
		}
		if (n < 1) {
			printf("n=%d: config %d (%s)\n", n, cfg, axpy_configs[cfg]);
			continue;
		}
		size_t pad = 300;
		float *x = NULL, *y = NULL, *out = NULL;
		if (posix_memalign((void **)&x, 64, (n + pad) * sizeof *x) ||
		    posix_memalign((void **)&y, 64, (n + pad) * sizeof *y) ||
		    posix_memalign((void **)&out, 64, (n + pad) * sizeof *out))
			return 2;
		for (int i = 0; i < n; i++) {
			x[i] = rnd();
			y[i] = rnd();
		}
		for (size_t i = 0; i < n + pad; i++)
			out[i] = NAN; /* poison */
		int rc = axpy_launch(NULL, x, y, out, n, 1.5f);
		if (rc != TILERT_OK) {
			printf("n=%d: launch failed: %s: %s\n", n, tilert_error_string(rc), tilert_last_error());
			return 1;
		}
		int bad = 0;
		for (int i = 0; i < n; i++)
			bad += fabsf(out[i] - (1.5f * x[i] + y[i])) > 1e-6f;
		for (size_t i = n; i < n + pad; i++)
			bad += !isnan(out[i]);
		const char *v = axpy_last_variant();
		int block = 0;
		sscanf(axpy_configs[cfg], "BLOCK=%d", &block);
		int even = strstr(v, "EVEN=True") != NULL;
		if (axpy_last_config() != cfg || block < 1 || even != (n % block == 0)) {
			printf("n=%d: last config %d, variant '%s' (chose %d)\n", n, axpy_last_config(), v, cfg);
			failures++;
		}
		if (bad) {
			printf("n=%d: %d wrong elements\n", n, bad);
			failures++;
		}
		printf("n=%d: config %d, %s, %s\n", n, cfg, v, bad ? "WRONG" : "ok");
		free(x);
		free(y);
		free(out);
	}
	printf("artifact: %s\n", axpy_variant());
	axpy_unload();
	return failures != 0;
}
