/* center_launch.c: launches center (kernels/center.py) through a tuned launcher whose
 * heuristics are integer-valued (docs/abi.md, "Heuristics") at the sizes given as M:N
 * arguments, and checks for each: the variant the launch ran (BLOCK_N, ROWS and EVEN_M as
 * computed here from M and N), the result against C (random inputs, a row stride with gaps,
 * outputs poisoned, gaps and the rows past M kept). An argument M:N:x is a size whose
 * heuristic values were not compiled: the launch must fail with TILERT_ERR_NOT_FOUND, say
 * so, and write nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "center.h"

static unsigned seed = 2024;
static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static int np2(int n)
{
	int p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	int failures = 0;
	for (int a = 1; a < argc; a++) {
		int m = 0, n = 0;
		char x = 0;
		if (sscanf(argv[a], "%d:%d:%c", &m, &n, &x) < 2 || m < 1 || n < 1) {
			fprintf(stderr, "bad argument '%s'\n", argv[a]);
			return 2;
		}
		int stride = n + 3, extra = 2; /* gaps after each row, two rows past m */
		size_t total = (size_t)(m + extra) * (size_t)stride;
		float *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
		if (!in || !out)
			return 2;
		for (size_t i = 0; i < total; i++) {
			in[i] = rnd();
			out[i] = NAN; /* poison */
		}
		int rc = center_launch(NULL, in, out, m, n, stride);
		int bad = 0;
		if (x) {
			for (size_t i = 0; i < total; i++)
				bad += !isnan(out[i]);
			const char *e = tilert_last_error();
			char want[64];
			snprintf(want, sizeof want, "heuristic BLOCK_N = %d was not compiled", np2(n));
			if (rc != TILERT_ERR_NOT_FOUND || !strstr(e, want) || bad) {
				printf("m=%d n=%d: want TILERT_ERR_NOT_FOUND '%s' and nothing written, got %s: "
				       "%s (%d written)\n", m, n, want, tilert_error_string(rc), e, bad);
				failures++;
			} else {
				printf("m=%d n=%d: not compiled, as expected: %s\n", m, n, e);
			}
			free(in);
			free(out);
			continue;
		}
		if (rc != TILERT_OK) {
			printf("m=%d n=%d: launch failed: %s: %s\n", m, n, tilert_error_string(rc),
			       tilert_last_error());
			return 1;
		}
		for (int r = 0; r < m + extra; r++) {
			double s = 0;
			for (int j = 0; j < n; j++)
				s += in[(size_t)r * stride + j];
			float mean = (float)(s / n);
			for (int j = 0; j < stride; j++) {
				float got = out[(size_t)r * stride + j];
				if (r >= m || j >= n)
					bad += !isnan(got); /* past the rows or in a gap: untouched */
				else
					bad += !(fabsf(got - (in[(size_t)r * stride + j] - mean)) <= 1e-5f);
			}
		}
		int block_n = np2(n);
		int rows = imax(1, imin(imin(4, 512 / block_n), (m + 1) / 2));
		char want[96];
		snprintf(want, sizeof want, " BLOCK_N=%d ROWS=%d EVEN_M=%s", block_n, rows,
			 m % rows == 0 ? "True" : "False");
		const char *v = center_last_variant();
		if (!v || !strstr(v, want)) {
			printf("m=%d n=%d: ran '%s', want '%s'\n", m, n, v ? v : "(none)", want);
			failures++;
		}
		if (bad) {
			printf("m=%d n=%d: %d wrong elements\n", m, n, bad);
			failures++;
		}
		printf("m=%d n=%d: config %d, %s, %s\n", m, n, center_last_config(), v, bad ? "WRONG" : "ok");
		free(in);
		free(out);
	}
	printf("artifact: %s\n", center_variant());
	center_unload();
	return failures != 0;
}
