/* test_layout.c: the GPU layouts of lib/transforms/layout.c. The canonical blocked layout
 * of every power-of-two shape (rank 1 to 3, up to 2^14 elements, 1 to 8 warps of 32 or 64
 * threads) must give each thread exactly the elements of the flattened distribution the
 * lowering has always used (gpu_layout.h): thread t's slot e is ((e / V) * T + t) * V +
 * e % V, or t % N for a tile smaller than the CTA. Slice layouts must give every element
 * of the reduced tile to some thread, and slot parts must round-trip. Text forms parse back
 * to the same layout; malformed ones are refused. */
#include "test.h"

#include <stdlib.h>

#include "ir/ir.h"
#include "transforms/gpu_layout.h"

static int64_t flattened(int64_t n, int threads, int t, int e)
{
	if (n < threads)
		return t % n;
	int v = gpu_group(n, threads);
	return ((int64_t)(e / v) * threads + t) * v + e % v;
}

static void check_shape(ir_context *c, int rank, const int64_t *shape, int warp, int warps)
{
	const ir_type *t = ir_type_tile(c, ir_type_scalar(c, IR_F32), rank, shape);
	gpu_layout l = gpu_layout_canonical(t, warp, warps);
	int threads = warp * warps;
	int64_t n = ir_type_numel(t);
	int slots = gpu_layout_slots(&l, shape, rank);
	CHECK(slots == gpu_per_thread(n, threads));
	int bad = 0;
	for (int th = 0; th < threads && !bad; th++)
		for (int e = 0; e < slots && !bad; e++)
			if (gpu_layout_flat(&l, shape, rank, warp, th, e) != flattened(n, threads, th, e)) {
				fprintf(stderr, "rank %d shape %lldx%lld.. warp %d warps %d: t %d e %d\n", rank,
					(long long)shape[0], (long long)(rank > 1 ? shape[1] : 1), warp, warps, th, e);
				bad = 1;
			}
	CHECK(!bad);
	/* text round trip */
	strbuf s = {0};
	gpu_layout_print(&s, &l);
	gpu_layout back;
	CHECK(gpu_layout_parse(s.data, &back) && gpu_layout_equal(&l, &back));
	strbuf_free(&s);
	/* every slice: every element of the reduced tile has an owner; slots round-trip */
	for (int dim = 0; rank > 1 && dim < rank; dim++) {
		gpu_layout sl = l;
		sl.kind = GPU_SLICE;
		sl.dim = dim;
		int64_t rs[GPU_MAX_RANK];
		int rr = 0;
		for (int d = 0; d < rank; d++)
			if (d != dim)
				rs[rr++] = shape[d];
		int64_t rn = n / shape[dim];
		int ss = gpu_layout_slots(&sl, rs, rr);
		CHECK(ss >= 1);
		char *seen = calloc((size_t)rn, 1);
		for (int th = 0; th < threads; th++)
			for (int e = 0; e < ss; e++) {
				int64_t f = gpu_layout_flat(&sl, rs, rr, warp, th, e);
				CHECK(f >= 0 && f < rn);
				if (f >= 0 && f < rn)
					seen[f] = 1;
				int rep[GPU_MAX_RANK], in[GPU_MAX_RANK];
				gpu_layout_slot(&sl, rs, rr, e, rep, in);
				CHECK(gpu_layout_slot_index(&sl, rs, rr, rep, in) == e);
			}
		for (int64_t i = 0; i < rn; i++)
			CHECK(seen[i]);
		free(seen);
		strbuf s2 = {0};
		gpu_layout_print(&s2, &sl);
		CHECK(gpu_layout_parse(s2.data, &back) && gpu_layout_equal(&sl, &back));
		strbuf_free(&s2);
	}
}

int main(void)
{
	gpu_layout back;
	arena *ar = arena_create();
	strtab *names = strtab_create(ar);
	ir_context *c = ir_context_create(ar, names);
	int shapes = 0;
	for (int warp = 32; warp <= 64; warp *= 2)
		for (int warps = 1; warps <= 8; warps *= 2)
			for (int rank = 1; rank <= 3; rank++)
				for (int bits = 0; bits <= 14; bits++) {
					/* every split of 2^bits over the dims */
					for (int a = 0; a <= bits; a++)
						for (int b = 0; b <= bits - a; b++) {
							if (rank == 1 && (a || b))
								continue;
							if (rank == 2 && b)
								continue;
							int64_t shape[3] = {1, 1, 1};
							if (rank == 1)
								shape[0] = (int64_t)1 << bits;
							else if (rank == 2) {
								shape[0] = (int64_t)1 << a;
								shape[1] = (int64_t)1 << (bits - a);
							} else {
								shape[0] = (int64_t)1 << a;
								shape[1] = (int64_t)1 << b;
								shape[2] = (int64_t)1 << (bits - a - b);
							}
							check_shape(c, rank, shape, warp, warps);
							shapes++;
						}
				}
	printf("test_layout: %d shapes\n", shapes);
	/* #shared layouts: the swizzle permutes each row (a bijection of its columns) */
	for (int rows = 1; rows <= 64; rows *= 4)
		for (int cols = 8; cols <= 256; cols *= 2)
			for (int eb = 1; eb <= 4; eb *= 2) {
				int64_t shape[2] = {rows, cols};
				const ir_type *t = ir_type_tile(c, ir_type_scalar(c, eb == 1 ? IR_I8 : eb == 2 ? IR_F16 : IR_F32), 2, shape);
				for (int sw = 0; sw < 2; sw++) {
					gpu_layout sl = gpu_layout_shared_for(t, sw);
					CHECK(gpu_layout_fits(&sl, shape, 2, 32, 4));
					CHECK(sw || sl.max_phase == 1);
					char *hit = calloc((size_t)(rows * cols), 1);
					for (int64_t r = 0; r < rows; r++)
						for (int64_t col = 0; col < cols; col++) {
							int64_t at = gpu_layout_swizzle(&sl, shape, r, col);
							CHECK(at / cols == r);
							if (at >= 0 && at < rows * cols)
								hit[at]++;
						}
					for (int64_t i = 0; i < rows * cols; i++)
						CHECK(hit[i] == 1);
					free(hit);
					strbuf s3 = {0};
					gpu_layout_print(&s3, &sl);
					CHECK(gpu_layout_parse(s3.data, &back) && gpu_layout_equal(&sl, &back));
					strbuf_free(&s3);
				}
			}
	{
		int64_t shape[2] = {128, 64};
		const ir_type *t = ir_type_tile(c, ir_type_scalar(c, IR_F16), 2, shape);
		gpu_layout sl = gpu_layout_shared_for(t, true);
		CHECK(sl.vec == 8 && sl.per_phase == 1 && sl.max_phase == 8); /* 128-byte rows */
		CHECK(gpu_layout_swizzle(&sl, shape, 1, 0) == 64 + 8); /* row 1: group 0 -> 1 */
	}
	gpu_layout l;
	CHECK(!gpu_layout_parse("shared<vec = 3, per_phase = 1, max_phase = 8, order = [1, 0]>", &l));
	/* column-major shared tiles (order [0, 1]: wgmma's transposed operands) are element
	 * (c, r) of the row-major layout of the transposed tile */
	CHECK(gpu_layout_parse("shared<vec = 8, per_phase = 1, max_phase = 8, order = [0, 1]>", &l));
	{
		int64_t sh[2] = {64, 128}, tsh[2] = {128, 64};
		gpu_layout rm = l;
		rm.order[0] = 1, rm.order[1] = 0;
		CHECK(gpu_layout_swizzle(&l, sh, 5, 9) == gpu_layout_swizzle(&rm, tsh, 9, 5));
		CHECK(gpu_layout_swizzle(&l, sh, 1, 0) == 1 && gpu_layout_swizzle(&l, sh, 0, 1) == 64 + 8);
	}
	CHECK(!gpu_layout_parse("shared<vec = 8, per_phase = 1, max_phase = 8, order = [1, 1]>", &l));
	CHECK(!gpu_layout_parse("blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1]>", &l));
	CHECK(!gpu_layout_parse("blocked<per_thread [1, 3], lanes [1, 32], warps [4, 1], order [1, 0]>", &l));
	CHECK(!gpu_layout_parse("blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1], order [1, 1]>", &l));
	CHECK(!gpu_layout_parse("slice<dim = 2, parent = #blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1], order [1, 0]>>", &l));
	CHECK(!gpu_layout_parse("blocked<per_thread [4], lanes [32], warps [4], order [0]> x", &l));
	CHECK(gpu_layout_parse("slice<dim = 1, parent = #blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1], order [1, 0]>>", &l) &&
	      l.kind == GPU_SLICE && l.dim == 1 && l.rank == 2 && l.spt[1] == 4);
	strtab_destroy(names);
	arena_destroy(ar);
	return test_result("test_layout");
}
