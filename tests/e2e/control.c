/* control.c: control flow (kernels/control.py) on a 2-D grid larger than the data: every
 * program records its ids and tl.num_programs; programs past n return early (their outputs
 * must stay poisoned); runtime if/elif/else, the conditional expression, for loops with
 * positive and negative steps carrying a tile and a scalar, static_range, while with a
 * carried tile, and helpers returning tuples, for k on both sides of every branch. */
#include "e2e.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 64 };

static void test_control(int n, int k, unsigned gx, unsigned gy, uint64_t seed)
{
	e2e_begin("control n=%d k=%d grid=(%u,%u)", n, k, gx, gy);
	tilert_kernel *kern = e2e_kernel("control", "control");
	e2e_rng r = e2e_rng_new(seed);
	size_t np = (size_t)gx * gy;
	float *x = e2e_alloc(n * 4), *out = e2e_alloc(gy * n * 4), *cnt = e2e_alloc(np * 5 * 4);
	int32_t *grid = e2e_alloc(np * 4);
	e2e_fill_f32(&r, x, n, -3, 3);
	double *wout = malloc(gy * n * sizeof(double)), *wcnt = malloc(np * 5 * sizeof(double));
	int64_t *wgrid = malloc(np * sizeof(int64_t));
	for (size_t i = 0; i < np * 5; i++)
		wcnt[i] = NAN; /* programs that return early write nothing there */
	for (unsigned py = 0; py < gy; py++)
		for (unsigned px = 0; px < gx; px++) {
			size_t p = (size_t)py * gx + px;
			wgrid[p] = px + 100 * py + 10000 * gx + 1000000 * gy;
			if ((int)px * BLOCK >= n)
				continue;
			float scale = k > 3 ? 2.0f : k < -3 ? 0.5f : 1.0f;
			int c = 0;
			for (int i = 0; i < k; i += 2)
				c++;
			for (int j = k; j > 0; j--)
				c += 10;
			int t = 0;
			while (t < k)
				t += 3;
			double sum = 0, mx = -INFINITY;
			for (int l = 0; l < BLOCK; l++) {
				int o = (int)px * BLOCK + l;
				if (o >= n)
					break;
				float xv = x[o] * (float)(py + 1) * scale;
				float y = k > 0 ? xv : -xv;
				float acc = 0;
				for (int i = 0; i < k; i += 2)
					acc += y * (float)i;
				for (int j = k; j > 0; j--)
					acc -= 1.0f;
				for (int s = 0; s < 3; s++)
					acc = acc + y * (float)s;
				float w = y;
				for (int tt = 0; tt < k; tt += 3)
					w = w * 0.5f + 1.0f;
				acc = acc + w;
				acc = acc + acc;
				wout[(size_t)py * n + o] = acc + (float)t;
				sum += y;
				mx = fmax(mx, y);
			}
			wcnt[p * 5 + 0] = c;
			wcnt[p * 5 + 1] = sum;
			wcnt[p * 5 + 2] = mx;
			wcnt[p * 5 + 3] = sum * sum;
			wcnt[p * 5 + 4] = mx;
		}
	e2e_poison_f32(out, gy * n);
	e2e_poison_f32(cnt, np * 5);
	e2e_poison(grid, np * 4);
	void *args[] = {&x, &out, &cnt, &grid, &n, &k};
	if (!e2e_launch(kern, gx, gy, 1, args, 6)) {
		e2e_cmp_int("grid ids", grid, wgrid, np, 4, 1);
		e2e_cmp_f32("out", out, wout, gy * n, (e2e_tol){1e-5, 1e-6});
		e2e_cmp_f32("cnt,sum,max,sum^2,max", cnt, wcnt, np * 5, (e2e_tol){1e-4, 1e-5});
	}
	free(wout);
	free(wcnt);
	free(wgrid);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const int ks[] = {-5, 0, 1, 4, 7};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(ks); i++)
		E2E_RUN(test_control(150, ks[i], 5, 2, 8000 + i));
	E2E_RUN(test_control(1, 3, 1, 1, 8100));
	E2E_RUN(test_control(64, 2, 1, 3, 8101));
	E2E_RUN(test_control(200, 9, 4, 1, 8102));
	return e2e_finish();
}
