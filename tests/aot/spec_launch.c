/* spec_launch.c: launches the specialization-variant launchers that spec.sh generated (vadd
 * over *fp32:?, *fp32:?, *fp32:?, i32:?; affine2d over two pointers, N and the row stride)
 * at aligned and odd sizes and with pointers one element off 16-byte alignment. Each launch
 * must run the variant whose assumptions are the strongest the arguments meet (checked
 * against NAME_last_variant(), predicted here from the values), the results must match a C
 * reference on random inputs, and the poisoned elements around them must stay untouched.
 * At the end every variant must have run, except the ones no valid argument reaches.
 * With headers for a GPU target it runs on the GPU (tests/gpu/spec.sh), in device memory. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine2d.h"
#include "vadd.h"

static uint32_t seed = 12345;

static float rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return (float)(seed >> 8) / 16777216.0f * 8.0f - 4.0f;
}

static const uint32_t poison_bits = 0x7fc0dead;

static float poison(void)
{
	float f;
	memcpy(&f, &poison_bits, sizeof f);
	return f;
}

static int is_poison(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b == poison_bits;
}

/* The index of a signature among the launcher's variants; -1 when not there. */
static int spec_index(const char *const *sigs, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(sigs[i], s))
			return (int)i;
	return -1;
}

static const char *ptr_hint(const void *p)
{
	return (uintptr_t)p % 16 == 0 ? "*fp32:16" : "*fp32";
}

static const char *int_hint(int v)
{
	return v == 1 ? "i32:1" : v % 16 == 0 ? "i32:16" : "i32";
}

static int failures;

static void check_variant(const char *what, const char *got, const char *want)
{
	if (!got || strcmp(got, want)) {
		fprintf(stderr, "%s: ran variant \"%s\", want \"%s\"\n", what, got ? got : "(none)", want);
		failures++;
	}
}

/* n floats, 64-byte aligned (aligned_alloc wants a multiple of the alignment). */
static float *alloc_floats(size_t n)
{
	float *p = aligned_alloc(64, (sizeof(float) * n + 63) / 64 * 64);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

/* A buffer on the host and, when the launchers chose a GPU artifact, its copy on the device
 * (allocations there are at least 256-byte aligned). */
static int on_gpu;

typedef struct buf {
	float *host;
	void *dev;
	size_t n;
} buf;

static void must(int rc, const char *what)
{
	if (rc != TILERT_OK) {
		fprintf(stderr, "%s: %s (%s)\n", what, tilert_error_string(rc), tilert_last_error());
		exit(1);
	}
}

static buf buf_new(size_t n)
{
	buf b = {alloc_floats(n), NULL, n};
	if (on_gpu)
		must(tilert_device_alloc(sizeof(float) * n, &b.dev), "tilert_device_alloc");
	return b;
}

/* What the kernel gets: element off of the buffer where the kernel runs. */
static float *buf_arg(const buf *b, int off)
{
	return on_gpu ? (float *)b->dev + off : b->host + off;
}

static void buf_upload(const buf *b)
{
	if (on_gpu)
		must(tilert_memcpy_htod(b->dev, b->host, sizeof(float) * b->n), "tilert_memcpy_htod");
}

static void buf_download(buf *b)
{
	if (on_gpu)
		must(tilert_memcpy_dtoh(b->host, b->dev, sizeof(float) * b->n), "tilert_memcpy_dtoh");
}

static void buf_free(buf *b)
{
	free(b->host);
	if (b->dev)
		must(tilert_device_free(b->dev), "tilert_device_free");
}

static void run_vadd(int n, int offx, int offy, int offo, int *hit)
{
	/* offN shifts a pointer one element off 16-byte alignment */
	buf bx = buf_new((size_t)n + 8), by = buf_new((size_t)n + 8), bo = buf_new((size_t)n + 8);
	for (int i = 0; i < n + 8; i++) {
		bx.host[i] = rnd();
		by.host[i] = rnd();
		bo.host[i] = poison();
	}
	buf_upload(&bx);
	buf_upload(&by);
	buf_upload(&bo);
	float *dx = buf_arg(&bx, offx), *dy = buf_arg(&by, offy), *dout = buf_arg(&bo, offo);
	tilert_grid g = {(uint32_t)(n + 1023) / 1024, 1, 1};
	char what[128], want[128];
	snprintf(what, sizeof what, "vadd n=%d offsets %d,%d,%d", n, offx, offy, offo);
	must(vadd_launch(NULL, g, dx, dy, dout, n), what);
	buf_download(&bo);
	snprintf(want, sizeof want, "%s, %s, %s, %s, 1024", ptr_hint(dx), ptr_hint(dy),
		 ptr_hint(dout), int_hint(n));
	check_variant(what, vadd_last_variant(), want);
	int s = spec_index(vadd_spec_signatures, vadd_num_specs, vadd_last_variant());
	if (s >= 0)
		hit[s] = 1;
	const float *x = bx.host + offx, *y = by.host + offy, *out = bo.host + offo;
	int bad = 0;
	for (int i = 0; i < n + 8 - offo; i++) {
		int ok = i < n ? out[i] == x[i] + y[i] : is_poison(out[i]);
		if (!ok && bad++ < 3)
			fprintf(stderr, "%s: out[%d] = %g, want %g\n", what, i, out[i],
				i < n ? x[i] + y[i] : poison());
	}
	if (offo && !is_poison(bo.host[0])) {
		fprintf(stderr, "%s: wrote before out\n", what);
		bad++;
	}
	failures += bad != 0;
	buf_free(&bx);
	buf_free(&by);
	buf_free(&bo);
}

static void run_affine(int m, int n, int stride, int offx, int offo, int *hit)
{
	size_t size = (size_t)m * (size_t)stride + 8;
	buf bx = buf_new(size), bo = buf_new(size);
	for (size_t i = 0; i < size; i++) {
		bx.host[i] = rnd();
		bo.host[i] = poison();
	}
	buf_upload(&bx);
	buf_upload(&bo);
	float *dx = buf_arg(&bx, offx), *dout = buf_arg(&bo, offo);
	tilert_grid g = {(uint32_t)(m + 15) / 16, (uint32_t)(n + 31) / 32, 1};
	char what[128], want[128];
	snprintf(what, sizeof what, "affine2d M=%d N=%d stride=%d offsets %d,%d", m, n, stride, offx,
		 offo);
	must(affine2d_launch(NULL, g, dx, dout, m, n, stride), what);
	buf_download(&bo);
	snprintf(want, sizeof want, "%s, %s, i32, %s, %s, 16, 32", ptr_hint(dx), ptr_hint(dout),
		 int_hint(n), int_hint(stride));
	check_variant(what, affine2d_last_variant(), want);
	int s = spec_index(affine2d_spec_signatures, affine2d_num_specs, affine2d_last_variant());
	if (s >= 0)
		hit[s] = 1;
	const float *x = bx.host + offx, *out = bo.host + offo;
	int bad = 0;
	for (size_t i = 0; i + (size_t)offo < size; i++) {
		size_t r = i / (size_t)stride, c = i % (size_t)stride;
		int inside = r < (size_t)m && c < (size_t)n;
		float want_v = inside ? x[i] * 2.0f + 1.0f : 0.0f;
		int ok = inside ? out[i] == want_v : is_poison(out[i]);
		if (!ok && bad++ < 3)
			fprintf(stderr, "%s: out[%zu] (row %zu, column %zu) = %g, want %g\n", what, i, r, c,
				out[i], inside ? want_v : poison());
	}
	failures += bad != 0;
	buf_free(&bx);
	buf_free(&bo);
}

/* Counts the variants hit, saying which were not. */
static int count_hits(const char *k, const int *hit, const char *const *sigs, size_t n)
{
	int h = 0;
	for (size_t i = 0; i < n; i++) {
		h += hit[i];
		if (!hit[i])
			printf("%s: not run: %s\n", k, sigs[i]);
	}
	return h;
}

int main(void)
{
	static const int sizes[] = {1, 2, 13, 16, 97, 1021, 1024, 4099, 16384, 16385};
	int vhit[64] = {0}, ahit[64] = {0};
	if (vadd_num_specs != 24 || affine2d_num_specs != 36) {
		fprintf(stderr, "%zu and %zu variants, want 24 and 36\n", vadd_num_specs,
			affine2d_num_specs);
		return 1;
	}
	/* the unhinted variants' artifacts say where the kernels run (both launchers have the
	 * same targets) */
	if (!vadd_variant() || !affine2d_variant()) {
		fprintf(stderr, "no artifact loads: %s\n", tilert_last_error());
		return 1;
	}
	on_gpu = vadd_format() != TILERT_FORMAT_HOST;
	if (on_gpu != (affine2d_format() != TILERT_FORMAT_HOST)) {
		fprintf(stderr, "the launchers chose %s and %s\n", vadd_variant(), affine2d_variant());
		return 1;
	}
	printf("artifacts: vadd %s, affine2d %s\n", vadd_variant(), affine2d_variant());
	if (vadd_last_variant() != NULL) {
		fprintf(stderr, "a variant before the first launch\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int o = 0; o < 8; o++)
			run_vadd(sizes[i], o & 1, (o >> 1) & 1, (o >> 2) & 1, vhit);
	static const int ns[] = {1, 5, 16, 37, 64};
	static const int ms[] = {1, 3, 29};
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		int n = ns[i], up = (n + 15) / 16 * 16;
		const int strides[] = {n, up + 16, up + 3};
		for (int s = 0; s < 3; s++)
			for (int o = 0; o < 4; o++)
				run_affine(ms[(i + (size_t)s + (size_t)o) % 3], n, strides[s], o & 1, (o >> 1) & 1,
					   ahit);
	}
	int hv = count_hits("vadd", vhit, vadd_spec_signatures, vadd_num_specs);
	int ha = count_hits("affine2d", ahit, affine2d_spec_signatures, affine2d_num_specs);
	printf("vadd: %d of %zu variants run; affine2d: %d of %zu\n", hv, vadd_num_specs, ha,
	       affine2d_num_specs);
	/* affine2d: stride == 1 (i32:1) only goes with N == 1 (the rows would overlap): the 8
	 * variants with stride:1 and N:16 or N unhinted have no valid arguments */
	if (hv != 24 || ha != 28)
		failures++;
	vadd_unload();
	affine2d_unload();
	printf("%s\n", failures ? "FAILED" : "all launches correct");
	return failures != 0;
}
