/* shapes.c: shape operations (kernels/shapes.py) on an M x N tile in fp32 (8 x 16) and int32
 * (16 x 4): trans, permute, .T, reshape (2-D and 1-D), join (interleaved), split, expand_dims,
 * broadcast_to, broadcasting of [M, 1] with [1, N], and a row reduction broadcast back. Values
 * are quarters (fp32) or small integers, so everything is exact. */
#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>

static void test_shapes(const char *variant, e2e_dtype t, int M, int N, uint64_t seed)
{
	e2e_begin("%s M=%d N=%d", variant, M, N);
	tilert_kernel *k = e2e_kernel(variant, "shapes");
	e2e_rng r = e2e_rng_new(seed);
	size_t mn = (size_t)M * N;
	void *x = e2e_alloc(mn * 4), *out = e2e_alloc(11 * mn * 4);
	for (size_t i = 0; i < mn; i++)
		e2e_setf(x, i, t, t == E2E_F32 ? (double)e2e_randint(&r, -40, 40) * 0.25
		                               : (double)e2e_randint(&r, -1000, 1000));
	double *w = malloc(11 * mn * sizeof(double));
	int64_t *wi = malloc(11 * mn * sizeof(int64_t));
	for (int i = 0; i < M; i++) {
		double rs = 0;
		for (int j = 0; j < N; j++)
			rs += e2e_getf(x, (size_t)i * N + j, t);
		for (int j = 0; j < N; j++) {
			size_t ij = (size_t)i * N + j;
			double v = e2e_getf(x, ij, t);
			for (int q = 0; q < 3; q++)
				w[q * mn + (size_t)j * M + i] = v; /* transposes */
			w[3 * mn + ij] = v;                    /* reshape (N, M): same memory order */
			w[4 * mn + ij] = v;                    /* reshape (M * N,) */
			w[5 * mn + 2 * ij] = v;                /* join(x, 10 x) */
			w[5 * mn + 2 * ij + 1] = 10 * v;
			w[7 * mn + ij] = v - 3 * v * 2;        /* split(join(x, 3 x)) */
			w[8 * mn + ij] = i * 100 + j + v;      /* expand_dims/broadcast_to/broadcasting */
			w[9 * mn + ij] = v - rs;               /* trans(trans(x)) - row sums */
			/* the transpose of a masked load (other = -5), which the load itself does */
			w[10 * mn + (size_t)j * M + i] = i < M - 1 && j > 0 ? v : -5;
		}
	}
	for (size_t i = 0; i < 11 * mn; i++)
		wi[i] = (int64_t)w[i];
	e2e_poison(out, 11 * mn * 4);
	void *args[] = {&x, &out};
	static const char *const names[11] = {"trans", "permute", ".T", "reshape(N,M)", "reshape(M*N)",
	                                       "join", "join(hi)", "split", "broadcast", "trans(trans)-rowsum",
	                                       "load(masked).T"};
	if (!e2e_launch(k, 1, 1, 1, args, 2))
		for (int q = 0; q < 11; q++) {
			if (q == 6)
				continue; /* the second half of join's output, compared with q == 5 */
			size_t cnt = q == 5 ? 2 * mn : mn;
			e2e_cmp(names[q], (char *)out + q * mn * 4, t, w + q * mn, wi + q * mn, cnt, E2E_EXACT);
		}
	free(w);
	free(wi);
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	E2E_RUN(test_shapes("shapes_fp32", E2E_F32, 8, 16, 10000));
	E2E_RUN(test_shapes("shapes_i32", E2E_I32, 16, 4, 10001));
	return e2e_finish();
}
