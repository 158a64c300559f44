/* tune_launch_matmul.c: the tuned matmul launcher (tilecc --tuning, made from the tuning
 * file tests/gpu/tune.sh wrote on the GPU) launched on the GPU at the sizes given as
 * M:CONFIG arguments (square M x M x M; CONFIG -1: any), checking for each the config chosen
 * and sampled entries of C against a double-precision dot product on the host. The
 * launcher's kernel is KERNEL (matmul_kernel, the tutorial's, or matmul, the bench one):
 * compile with -DKERNEL=... -DHEADER="..." (tests/gpu/tune.sh does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HEADER

#define CAT(a, b) a##b
#define X(a, b) CAT(a, b)
#define LAUNCH X(KERNEL, _launch)
#define CHOOSE X(KERNEL, _choose_config)
#define LAST X(KERNEL, _last_config)
#define LAST_VARIANT X(KERNEL, _last_variant)
#define FORMAT X(KERNEL, _format)
#define VARIANT X(KERNEL, _variant)

static float half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, x;
	if (e == 0) {
		float f = (float)m / 1024.0f / 16384.0f;
		return s ? -f : f;
	}
	x = s | ((e + 112) << 23) | (m << 13);
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xff, m = x & 0x7fffffu;
	if (e < 113)
		return (uint16_t)sign;
	return (uint16_t)(sign | ((e - 112) << 10) | (m >> 13));
}

int main(int argc, char **argv)
{
	int failures = 0;
	setvbuf(stdout, NULL, _IOLBF, 0); /* each size's line as it is done */
	printf("artifact: %s\n", VARIANT());
	int gpu = FORMAT() != TILERT_FORMAT_HOST;
	for (int a = 1; a < argc; a++) {
		int n = 0, want = -1;
		if (sscanf(argv[a], "%d:%d", &n, &want) < 1 || n < 16 || n % 16) {
			fprintf(stderr, "bad argument '%s' (M:CONFIG, M a multiple of 16)\n", argv[a]);
			return 2;
		}
		size_t nn = (size_t)n * n, bytes = nn * 2;
		uint16_t *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
		if (!ha || !hb || !hc)
			return 2;
		unsigned seed = 7;
		for (size_t i = 0; i < nn; i++) {
			seed = seed * 1103515245u + 12345u;
			ha[i] = float_to_half((float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f);
			seed = seed * 1103515245u + 12345u;
			hb[i] = float_to_half((float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f);
		}
		void *da = ha, *db = hb, *dc = hc;
		memset(hc, 0xff, bytes); /* poison: NaN halves */
		if (gpu && (tilert_device_alloc(bytes, &da) || tilert_device_alloc(bytes, &db) ||
		            tilert_device_alloc(bytes, &dc) || tilert_memcpy_htod(da, ha, bytes) ||
		            tilert_memcpy_htod(db, hb, bytes) || tilert_memcpy_htod(dc, hc, bytes))) {
			printf("M=%d: device memory: %s\n", n, tilert_last_error());
			return 1;
		}
		int cfg = CHOOSE(n, n, n);
		int rc = LAUNCH(NULL, da, db, dc, n, n, n, n, 1, n, 1, n, 1);
		if (rc == TILERT_OK)
			rc = tilert_stream_synchronize(NULL);
		if (rc == TILERT_OK && gpu)
			rc = tilert_memcpy_dtoh(hc, dc, bytes);
		if (rc != TILERT_OK) {
			printf("M=%d: launch failed: %s: %s\n", n, tilert_error_string(rc), tilert_last_error());
			return 1;
		}
		int bad = 0;
		for (int s = 0; s < 512; s++) {
			seed = seed * 1103515245u + 12345u;
			int i = (int)(seed % (unsigned)n);
			seed = seed * 1103515245u + 12345u;
			int j = (int)(seed % (unsigned)n);
			if (s == 0)
				i = j = n - 1; /* the last entry too */
			double ref = 0;
			for (int k = 0; k < n; k++)
				ref += (double)half_to_float(ha[(size_t)i * n + k]) * half_to_float(hb[(size_t)k * n + j]);
			float got = half_to_float(hc[(size_t)i * n + j]);
			bad += !(fabs(got - ref) <= 0.02 * sqrt((double)n) + 0.01 * fabs(ref));
		}
		if ((want >= 0 && cfg != want) || LAST() != cfg || bad) {
			printf("M=%d: config %d (want %d, last %d), %d of 512 samples wrong\n", n, cfg, want,
			       LAST(), bad);
			failures++;
		} else {
			printf("M=%d: config %d (%s), ok\n", n, cfg, LAST_VARIANT());
		}
		if (gpu) {
			tilert_device_free(da);
			tilert_device_free(db);
			tilert_device_free(dc);
		}
		free(ha);
		free(hb);
		free(hc);
	}
	return failures != 0;
}
