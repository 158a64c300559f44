/* launch.c: streams, the checks every launch makes, and the two CPU launch paths; GPU
 * kernels go on to their module's driver (cuda.c, hip.c).
 *
 * CPU launches are synchronous: they return when every program has run. GPU launches are
 * asynchronous, queued on the stream's driver stream (a CUstream or hipStream_t, made on
 * the stream's first GPU launch). A stream may carry both: a CPU launch first waits for
 * the GPU work queued before it, so that the stream keeps its order. */
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

/* Grids with more programs are refused: the pool's chunk counter must not overflow. */
#define MAX_PROGRAMS ((int64_t)1 << 62)

typedef struct launch_ctx {
	const tilert_kernel *k;
	void **args;
	int32_t nprog[3];
	void **scratch; /* nscratch pointers per thread, for the ffi path */
	size_t nscratch;
} launch_ctx;

int tilert_stream_create(tilert_stream **out)
{
	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL stream out-pointer");
	if (!(*out = calloc(1, sizeof **out)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory creating a stream");
	return TILERT_OK;
}

int tilert_stream_destroy(tilert_stream *s)
{
	int rc;

	if (!s)
		return TILERT_OK;
	rc = tilert_gpu_stream_destroy(s);
	free(s);
	return rc;
}

int tilert_stream_synchronize(tilert_stream *s)
{
	return tilert_gpu_stream_sync(s);
}

/* The value of an integer argument, widened, for the checks of specialization hints. */
static int arg_int(tilert_type t, const void *p, uint64_t *v)
{
	switch (t) {
	case TILERT_TYPE_I8: *v = (uint64_t)(int64_t)*(const int8_t *)p; return 1;
	case TILERT_TYPE_I16: *v = (uint64_t)(int64_t)*(const int16_t *)p; return 1;
	case TILERT_TYPE_I32: *v = (uint64_t)(int64_t)*(const int32_t *)p; return 1;
	case TILERT_TYPE_I64: *v = (uint64_t)*(const int64_t *)p; return 1;
	case TILERT_TYPE_U8: *v = *(const uint8_t *)p; return 1;
	case TILERT_TYPE_U16: *v = *(const uint16_t *)p; return 1;
	case TILERT_TYPE_U32: *v = *(const uint32_t *)p; return 1;
	case TILERT_TYPE_U64: *v = *(const uint64_t *)p; return 1;
	case TILERT_TYPE_PTR: *v = (uint64_t)(uintptr_t)*(void *const *)p; return 1;
	default: return 0;
	}
}

/* Checks what both paths share: the kernel, the grid, the argument count, and the values
 * the kernel was specialized on (":1" must be 1, ":16" divisible by 16, pointers
 * included). Fills c and *total. */
static int launch_check(const tilert_kernel *k, tilert_grid grid, void **args, size_t nargs,
                        launch_ctx *c, int64_t *total)
{
	uint64_t v;

	if (!k)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL kernel");
	if (nargs != k->nparams)
		return tilert_fail(TILERT_ERR_ARGUMENTS, "kernel '%s' takes %zu argument(s); got %zu",
		                   k->name, k->nparams, nargs);
	if (nargs && !args)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "kernel '%s': NULL args with nargs %zu",
		                   k->name, nargs);
	for (size_t i = 0; i < nargs; i++) {
		const tilert_param_info *p = &k->params[i];

		if (!args[i])
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "kernel '%s': args[%zu] is NULL (it must point to the value)",
			                   k->name, i);
		if (!p->divisibility || !arg_int(p->kind, args[i], &v))
			continue;
		if (p->divisibility == 1 && v != 1)
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "kernel '%s': argument %zu (%s:1) was specialized to 1, got %lld",
			                   k->name, i, p->type, (long long)v);
		if (p->divisibility > 1 && v % p->divisibility != 0)
			return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
			                   "kernel '%s': argument %zu (%s:%u) is not divisible by %u",
			                   k->name, i, p->type, p->divisibility, p->divisibility);
	}
	if (grid.x < 1 || grid.y < 1 || grid.z < 1 || grid.x > INT32_MAX || grid.y > INT32_MAX ||
	    grid.z > INT32_MAX)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "kernel '%s': bad grid %ux%ux%u (each axis 1..%d)", k->name,
		                   (unsigned)grid.x, (unsigned)grid.y, (unsigned)grid.z, INT32_MAX);
	*total = (int64_t)grid.x * grid.y; /* below 2^62: no overflow */
	if (*total > MAX_PROGRAMS / grid.z)
		return tilert_fail(TILERT_ERR_LAUNCH, "kernel '%s': grid %ux%ux%u has too many programs",
		                   k->name, (unsigned)grid.x, (unsigned)grid.y, (unsigned)grid.z);
	*total *= grid.z;
	memset(c, 0, sizeof *c);
	c->k = k;
	c->args = args;
	c->nprog[0] = (int32_t)grid.x;
	c->nprog[1] = (int32_t)grid.y;
	c->nprog[2] = (int32_t)grid.z;
	return TILERT_OK;
}

static void grid_range(void *ctx, unsigned worker, int64_t first, int64_t last)
{
	launch_ctx *c = ctx;

	c->k->grid(c->args, c->nprog[0], c->nprog[1], c->nprog[2], first, last);
}

static void ffi_range(void *ctx, unsigned worker, int64_t first, int64_t last)
{
	launch_ctx *c = ctx;

	tilert_ffi_run(c->k, c->args, c->scratch + worker * c->nscratch, c->nprog, first, last);
}

static int launch_ffi(const tilert_kernel *k, launch_ctx *c, int64_t total)
{
	unsigned nthreads = tilert_get_num_threads();

	if (!tilert_has_ffi())
		return tilert_fail(TILERT_ERR_UNSUPPORTED,
		                   "kernel '%s': libtilert was built without libffi (TILERT_WITH_FFI=OFF)%s",
		                   k->name, k->grid ? "; use tilert_launch" :
		                   ", and the artifact has no grid entry");
	c->nscratch = tilert_ffi_scratch(k);
	if (!(c->scratch = calloc((size_t)nthreads * c->nscratch, sizeof *c->scratch)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "kernel '%s': out of memory launching",
		                   k->name);
	tilert_pool_run(total, nthreads, ffi_range, c);
	free(c->scratch);
	return TILERT_OK;
}

int tilert_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args, size_t nargs)
{
	launch_ctx c;
	int64_t total;
	int rc;

	if ((rc = launch_check(k, grid, args, nargs, &c, &total)) != TILERT_OK)
		return rc;
	if (k->mod->gpu) {
		if ((rc = k->mod->gpu->launch(k, s, grid, args)) == TILERT_OK && s)
			s->launches++;
		return rc;
	}
	if ((rc = tilert_gpu_stream_sync(s)) != TILERT_OK)
		return rc;
	if (s)
		s->launches++;
	if (!k->grid)
		return launch_ffi(k, &c, total);
	tilert_pool_run(total, tilert_get_num_threads(), grid_range, &c);
	return TILERT_OK;
}

int tilert_launch_ffi(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args,
                      size_t nargs)
{
	launch_ctx c;
	int64_t total;
	int rc;

	if ((rc = launch_check(k, grid, args, nargs, &c, &total)) != TILERT_OK)
		return rc;
	if (k->mod->format != TILERT_FORMAT_HOST)
		return tilert_fail(TILERT_ERR_UNSUPPORTED,
		                   "kernel '%s': the ffi path is for CPU kernels only", k->name);
	if ((rc = tilert_gpu_stream_sync(s)) != TILERT_OK)
		return rc;
	if (s)
		s->launches++;
	return launch_ffi(k, &c, total);
}
