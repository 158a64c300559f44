/* hip.c: the AMD path (HSACO code objects through the HIP runtime, loaded with dlopen).
 *
 * Not written yet: an HSACO is recognized and refused with TILERT_ERR_NO_DRIVER, and device
 * memory never comes here. */
#include "tilert_int.h"

static const char WHY[] = "this build of libtilert has no HIP driver support yet";

static const char *hip_unusable(void)
{
	return WHY;
}

static int hip_enter(const char *what)
{
	return tilert_fail(TILERT_ERR_NO_DRIVER, "%s: %s", what, WHY);
}

static int hip_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod)
{
	return hip_enter("cannot load an HSACO (AMD GPU code object)");
}

static void hip_unload(tilert_module *mod)
{
}

/* No HIP launch is ever made: the default stream has nothing to wait for. */
static int hip_stream_sync(void *stream)
{
	return stream ? hip_enter("cannot synchronize a stream") : TILERT_OK;
}

const tilert_gpu tilert_gpu_hip = {
	.name = "HIP",
	.unusable = hip_unusable,
	.enter = hip_enter,
	.load = hip_load,
	.unload = hip_unload,
	.stream_sync = hip_stream_sync,
};
