/* hip.c: the AMD path (HSACO code objects through the HIP runtime, loaded with dlopen).
 *
 * Not written yet: an HSACO is recognized and refused with TILERT_ERR_NO_DRIVER. */
#include "tilert_int.h"

int tilert_hip_load(const unsigned char *data, size_t size, tilert_module *mod)
{
	return tilert_fail(TILERT_ERR_NO_DRIVER,
	                   "this is an HSACO (AMD GPU code object): this build of libtilert has no "
	                   "HIP driver support yet");
}
