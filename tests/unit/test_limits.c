/* test_limits.c: the tile limits through the C API (tilecc_options.max_tile_elems and
 * max_elems_per_thread): the default refuses a tile of 2^21 elements and a GPU tile of too
 * many elements per thread, at the expression that makes it; a field raises its limit; a
 * negative or too large field is a usage error (2). */
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "tilecc/tilecc.h"

static const char kernel[] = "import triton\n"
			     "import triton.language as tl\n"
			     "\n"
			     "@triton.jit\n"
			     "def k(out_ptr, BLOCK: tl.constexpr):\n"
			     "    x = tl.arange(0, BLOCK)\n"
			     "    tl.store(out_ptr + x, x)\n";

static char last[1024];

static void keep(void *user, const tilecc_diagnostic *d)
{
	(void)user;
	snprintf(last, sizeof last, "%s", d->rendered ? d->rendered : "");
}

/* Compiles kernel k with BLOCK = block to tile IR; returns tilecc_compile's status. */
static int compile(const char *block, const char *target, int64_t tile, int64_t per_thread)
{
	char sig[64];
	snprintf(sig, sizeof sig, "*i32, %s", block);
	tilecc_options o = {.input_name = "k.py", .source = kernel, .source_len = strlen(kernel),
			    .signature = sig, .target = target, .emit = TILECC_EMIT_TIR,
			    .opt_level = -1, .max_tile_elems = tile, .max_elems_per_thread = per_thread};
	tilecc_compiler *c = tilecc_compiler_create();
	if (!c)
		return -1;
	tilecc_set_diag_handler(c, keep, NULL);
	tilecc_output out = {0};
	last[0] = 0;
	int rc = tilecc_compile(c, &o, &out);
	tilecc_output_free(&out);
	tilecc_compiler_destroy(c);
	return rc;
}

int main(void)
{
	/* the tile limit: 2^20 by default, the field's otherwise */
	CHECK(compile("1048576", NULL, 0, 0) == 0);
	CHECK(compile("2097152", NULL, 0, 0) == 1);
	CHECK(strstr(last, "k.py:6:9: error: a tile may hold at most 1048576 elements"));
	CHECK(strstr(last, "--max-tile-elems"));
	CHECK(compile("2097152", NULL, 2097152, 0) == 0);
	CHECK(compile("1024", NULL, 512, 0) == 1);
	CHECK(strstr(last, "at most 512 elements"));
	/* per thread on a GPU: 4 warps of 32, 2048 each by default */
	CHECK(compile("262144", "sm_90", 0, 0) == 0);
	CHECK(compile("524288", "sm_90", 0, 0) == 1);
	CHECK(strstr(last, "k.py:6:9: error: 'make_range' makes a tile<524288xi32>: 4096 elements "
			   "for each of the program's 128 threads, more than the limit of 2048"));
	CHECK(compile("524288", "sm_90", 0, 4096) == 0);
	CHECK(compile("256", "gfx942", 0, 1) == 0); /* 4 waves of 64 threads: 1 each */
	CHECK(compile("512", "gfx942", 0, 1) == 1);
	CHECK(strstr(last, "2 elements for each of the program's 256 threads"));
	/* CPUs: no per-thread limit */
	CHECK(compile("524288", NULL, 0, 1) == 0);
	/* bad fields */
	CHECK(compile("16", NULL, -1, 0) == 2);
	CHECK(compile("16", NULL, 0, -5) == 2);
	CHECK(compile("16", NULL, ((int64_t)1 << 31) + 1, 0) == 2);
	return test_result("test_limits");
}
