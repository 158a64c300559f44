/* dump_variants.c: linked with a multi-target vadd header's vadd.c (tests/aot/header.sh).
 * Writes each embedded artifact to DIR/<target>.<format> for the script to compare with
 * the separately emitted files, then launches vadd through the launcher on this machine
 * (which has no GPU: the x86-64 artifact, host memory) at awkward sizes and checks it
 * against C. Prints the chosen variant. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vadd.h"

static uint64_t rng = 0x243f6a8885a308d3u;

static float uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (float)((rng * 0x2545f4914f6cdd1du) >> 40) / 16777216.0f * 200.0f - 100.0f;
}

static const char *ext(tilert_format f)
{
	switch (f) {
	case TILERT_FORMAT_CUBIN: return "cubin";
	case TILERT_FORMAT_PTX: return "ptx";
	case TILERT_FORMAT_HSACO: return "hsaco";
	case TILERT_FORMAT_HOST: return "so";
	default: return "unknown";
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < vadd_num_variants; i++) {
		const tilert_variant *v = &vadd_variants[i];
		char path[4096];
		snprintf(path, sizeof path, "%s/%s.%s", argv[1], v->target, ext(v->format));
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(v->data, 1, v->size, f) != v->size || fclose(f)) {
			fprintf(stderr, "cannot write %s\n", path);
			return 1;
		}
		/* the format the table says is the one the bytes have */
		if (tilert_format_detect(v->data, v->size) != v->format) {
			fprintf(stderr, "%s: the bytes are %s\n", path,
				tilert_format_name(tilert_format_detect(v->data, v->size)));
			return 1;
		}
	}
	const char *chosen = vadd_variant();
	if (!chosen) {
		fprintf(stderr, "no variant: %s\n", tilert_last_error());
		return 1;
	}
	printf("variant: %s\n", chosen);
	if (vadd_format() != TILERT_FORMAT_HOST) {
		fprintf(stderr, "a GPU variant on this machine; this test runs host memory only\n");
		return 1;
	}
	static const int32_t sizes[] = {1, 7, 1023, 1025, 4099};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int32_t n = sizes[s];
		size_t bytes = ((size_t)n * 4 + 63) / 64 * 64;
		float *x = aligned_alloc(64, bytes), *y = aligned_alloc(64, bytes);
		float *out = aligned_alloc(64, bytes + 64);
		for (int32_t i = 0; i < n; i++) {
			x[i] = uniform();
			y[i] = uniform();
		}
		for (int32_t i = 0; i < n + 16; i++)
			out[i] = -777.0f;
		tilert_grid g = {(uint32_t)(n + 1023) / 1024, 1, 1};
		int rc = vadd_launch(NULL, g, x, y, out, n);
		int bad = rc != TILERT_OK;
		if (bad)
			fprintf(stderr, "n=%d: %s (%s)\n", n, tilert_error_string(rc), tilert_last_error());
		for (int32_t i = 0; i < n && !bad; i++)
			if (out[i] != x[i] + y[i]) {
				fprintf(stderr, "n=%d: out[%d] = %g, want %g\n", n, i, out[i], x[i] + y[i]);
				bad = 1;
			}
		for (int32_t i = n; i < n + 16 && !bad; i++)
			if (out[i] != -777.0f) {
				fprintf(stderr, "n=%d: out[%d] written past the end\n", n, i);
				bad = 1;
			}
		free(x);
		free(y);
		free(out);
		if (bad)
			return 1;
	}
	vadd_unload();
	printf("vadd: OK\n");
	return 0;
}
