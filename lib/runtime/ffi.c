/* ffi.c: the libffi launch path: one call of the per-program entry NAME per program, with
 * a call interface built from the kernel's parameter table plus the six int32 grid
 * arguments. Built only with TILERT_WITH_FFI; without it the functions below say so. */
#include <stdlib.h>

#include "tilert_int.h"

#ifdef TILERT_WITH_FFI
#include <ffi.h>

enum { GRID_ARGS = 6 }; /* pid_x, pid_y, pid_z, nprog_x, nprog_y, nprog_z */

typedef struct ffi_call_info {
	ffi_cif cif;
	ffi_type *types[]; /* nparams + GRID_ARGS */
} ffi_call_info;

static ffi_type *ffi_type_of(tilert_type t)
{
	switch (t) {
	case TILERT_TYPE_PTR: return &ffi_type_pointer;
	case TILERT_TYPE_I1: return &ffi_type_uint8; /* _Bool: one byte, zero-extended */
	case TILERT_TYPE_I8: return &ffi_type_sint8;
	case TILERT_TYPE_I16: return &ffi_type_sint16;
	case TILERT_TYPE_I32: return &ffi_type_sint32;
	case TILERT_TYPE_I64: return &ffi_type_sint64;
	case TILERT_TYPE_U8: return &ffi_type_uint8;
	case TILERT_TYPE_U16: return &ffi_type_uint16;
	case TILERT_TYPE_U32: return &ffi_type_uint32;
	case TILERT_TYPE_U64: return &ffi_type_uint64;
	case TILERT_TYPE_FP16: return &ffi_type_uint16;
	case TILERT_TYPE_BF16: return &ffi_type_uint16;
	case TILERT_TYPE_FP32: return &ffi_type_float;
	case TILERT_TYPE_FP64: return &ffi_type_double;
	}
	return NULL;
}

int tilert_ffi_prepare(tilert_kernel *k)
{
	size_t n = k->nparams + GRID_ARGS;
	ffi_call_info *c = malloc(sizeof *c + n * sizeof c->types[0]);

	if (!c)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading kernel '%s'", k->name);
	for (size_t i = 0; i < k->nparams; i++)
		c->types[i] = ffi_type_of(k->params[i].kind);
	for (size_t i = k->nparams; i < n; i++)
		c->types[i] = &ffi_type_sint32;
	if (ffi_prep_cif(&c->cif, FFI_DEFAULT_ABI, (unsigned)n, &ffi_type_void, c->types) != FFI_OK) {
		free(c);
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': libffi cannot build its call",
		                   k->name);
	}
	k->ffi = c;
	return TILERT_OK;
}

void tilert_ffi_free(tilert_kernel *k)
{
	free(k->ffi);
	k->ffi = NULL;
}

size_t tilert_ffi_scratch(const tilert_kernel *k)
{
	return k->nparams + GRID_ARGS;
}

/* scratch: tilert_ffi_scratch(k) value pointers, private to the calling thread. */
void tilert_ffi_run(const tilert_kernel *k, void **args, void **scratch, const int32_t nprog[3],
                    int64_t first, int64_t last)
{
	ffi_call_info *c = k->ffi;
	int32_t grid[GRID_ARGS] = { 0, 0, 0, nprog[0], nprog[1], nprog[2] };
	size_t n = k->nparams;

	for (size_t i = 0; i < n; i++)
		scratch[i] = args[i];
	for (size_t i = 0; i < GRID_ARGS; i++)
		scratch[n + i] = &grid[i];
	for (int64_t id = first; id < last; id++) {
		grid[0] = (int32_t)(id % nprog[0]);
		grid[1] = (int32_t)(id / nprog[0] % nprog[1]);
		grid[2] = (int32_t)(id / nprog[0] / nprog[1]);
		ffi_call(&c->cif, k->program, NULL, scratch);
	}
}

int tilert_has_ffi(void)
{
	return 1;
}

#else /* !TILERT_WITH_FFI */

int tilert_ffi_prepare(tilert_kernel *k)
{
	return TILERT_OK;
}

void tilert_ffi_free(tilert_kernel *k)
{
}

size_t tilert_ffi_scratch(const tilert_kernel *k)
{
	return 0;
}

void tilert_ffi_run(const tilert_kernel *k, void **args, void **scratch, const int32_t nprog[3],
                    int64_t first, int64_t last)
{
}

int tilert_has_ffi(void)
{
	return 0;
}

#endif
