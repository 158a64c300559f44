/* asm.c: tl.inline_asm_elementwise (kernels/asm.py): ((x << 3) + y) + 5 in int32, through
 * PTX inline assembly on NVIDIA GPUs and the kernel's cpu= variant on CPU targets. Sizes
 * 1, a prime and a non-multiple of the block; full-range int32 inputs (wrapping). */
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

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_asm(1, 900));
	E2E_RUN(test_asm(131, 901));
	E2E_RUN(test_asm(1000, 902));
	return e2e_finish();
}
