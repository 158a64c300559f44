/* asm.c: tl.inline_asm_elementwise (kernels/asm.py), through PTX inline assembly on NVIDIA
 * GPUs and the kernels' cpu= variants on CPU targets: ((x << 3) + y) + 5 in int32;
 * several results (x - y in int32 and x / 2 in float32 from one call); and pack > 1 (four
 * uint8 in one register: (x & 0x1F) << 3 as int8; two fp16 in one register: 2 h in fp16
 * and each half's bits as int32). Sizes 1, primes and non-multiples of the block (so that
 * a thread's last pack group is partly padding); full-range inputs. */
#include "e2e.h"

#include <stdlib.h>

static void test_asm(int n, uint64_t seed)
{
	e2e_begin("asm n=%d", n);
	tilert_kernel *k = e2e_kernel("asm_shift_add", "asm_shift_add");
	e2e_rng r = e2e_rng_new(seed);
	int32_t *x = e2e_alloc((size_t)n * 4), *y = e2e_alloc((size_t)n * 4), *out = e2e_alloc((size_t)n * 4);
	int64_t *want = malloc((size_t)n * sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		x[i] = (int32_t)e2e_next(&r);
		y[i] = (int32_t)e2e_next(&r);
		want[i] = (int32_t)(((uint32_t)x[i] << 3) + (uint32_t)y[i] + 5u);
	}
	e2e_poison(out, (size_t)n * 4);
	void *args[] = {&x, &y, &out, &n};
	if (!e2e_launch(k, (unsigned)((n + 127) / 128), 1, 1, args, 4))
		e2e_cmp_int("out", out, want, (size_t)n, 4, 1);
	free(want);
	e2e_end();
}

static void test_asm_multi(int n, uint64_t seed)
{
	e2e_begin("asm multi n=%d", n);
	tilert_kernel *k = e2e_kernel("asm_multi", "asm_multi");
	e2e_rng r = e2e_rng_new(seed);
	int32_t *x = e2e_alloc((size_t)n * 4), *y = e2e_alloc((size_t)n * 4), *d = e2e_alloc((size_t)n * 4);
	float *h = e2e_alloc((size_t)n * 4);
	int64_t *wd = malloc((size_t)n * sizeof(int64_t));
	double *wh = malloc((size_t)n * sizeof(double));
	for (int i = 0; i < n; i++) {
		x[i] = (int32_t)e2e_next(&r);
		y[i] = (int32_t)e2e_next(&r);
		wd[i] = (int32_t)((uint32_t)x[i] - (uint32_t)y[i]);
		wh[i] = (double)((float)x[i] * 0.5f); /* rounded to float, then halved exactly */
	}
	e2e_poison(d, (size_t)n * 4);
	e2e_poison_f32(h, (size_t)n);
	void *args[] = {&x, &y, &d, &h, &n};
	if (!e2e_launch(k, (unsigned)((n + 127) / 128), 1, 1, args, 5)) {
		e2e_cmp_int("x - y", d, wd, (size_t)n, 4, 1);
		e2e_cmp_f32("x / 2", h, wh, (size_t)n, E2E_EXACT);
	}
	free(wd);
	free(wh);
	e2e_end();
}

static void test_asm_pack(int n, uint64_t seed)
{
	e2e_begin("asm pack n=%d", n);
	tilert_kernel *k = e2e_kernel("asm_pack", "asm_pack");
	e2e_rng r = e2e_rng_new(seed);
	uint8_t *x = e2e_alloc((size_t)n);
	int8_t *y = e2e_alloc((size_t)n);
	uint16_t *h = e2e_alloc((size_t)n * 2), *g = e2e_alloc((size_t)n * 2);
	int32_t *b = e2e_alloc((size_t)n * 4);
	int64_t *wy = malloc((size_t)n * sizeof(int64_t)), *wb = malloc((size_t)n * sizeof(int64_t));
	double *wg = malloc((size_t)n * sizeof(double));
	e2e_fill_f16(&r, h, (size_t)n, -1000, 1000);
	for (int i = 0; i < n; i++) {
		x[i] = (uint8_t)e2e_next(&r);
		wy[i] = (int8_t)(uint8_t)((x[i] & 0x1F) << 3);
		wg[i] = (double)e2e_round_f16(e2e_h2f(h[i]) * 2.0f);
		wb[i] = h[i];
	}
	e2e_poison(y, (size_t)n);
	e2e_poison_f16(g, (size_t)n);
	e2e_poison(b, (size_t)n * 4);
	void *args[] = {&x, &y, &h, &g, &b, &n};
	if (!e2e_launch(k, (unsigned)((n + 511) / 512), 1, 1, args, 6)) {
		e2e_cmp_int("(x & 0x1F) << 3", y, wy, (size_t)n, 1, 1);
		e2e_cmp_f16("2 h", g, wg, (size_t)n, E2E_EXACT);
		e2e_cmp_int("bits of h", b, wb, (size_t)n, 4, 1);
	}
	free(wy);
	free(wb);
	free(wg);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_asm(1, 900));
	E2E_RUN(test_asm(131, 901));
	E2E_RUN(test_asm(1000, 902));
	E2E_RUN(test_asm_multi(1, 910));
	E2E_RUN(test_asm_multi(131, 911));
	E2E_RUN(test_asm_multi(1000, 912));
	E2E_RUN(test_asm_pack(1, 920));
	E2E_RUN(test_asm_pack(7, 921));
	E2E_RUN(test_asm_pack(521, 922));
	E2E_RUN(test_asm_pack(1500, 923));
	return e2e_finish();
}
