/* cuda.c: the NVIDIA path (cubin and PTX through the CUDA driver API, loaded with dlopen).
 *
 * Not written yet: a cubin or PTX is recognized and refused with TILERT_ERR_NO_DRIVER, so
 * that callers can already tell "wrong file" from "no GPU support here". */
#include "tilert_int.h"

int tilert_cuda_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod)
{
	return tilert_fail(TILERT_ERR_NO_DRIVER,
	                   "this is %s for NVIDIA GPUs; this build of libtilert has no CUDA driver "
	                   "support yet", f == TILERT_FORMAT_PTX ? "a PTX module" : "a cubin");
}
