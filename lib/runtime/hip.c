/* hip.c: the AMD path: HSACO code objects, GPU launches, streams and device memory, through
 * the module API of the HIP runtime.
 *
 * The runtime is opened with dlopen on first use (the file TILERT_HIP_LIBRARY names, else
 * libamdhip64.so, .so.6 or .so.5) and its entry points resolved with dlsym, so that
 * libtilert has no link-time dependency on ROCm and runs on machines without it (every GPU
 * call then answers TILERT_ERR_NO_DRIVER). The few HIP types and values used here are
 * declared below, with the numbering of hip_runtime_api.h, so that no HIP header is needed.
 *
 * One device serves the whole process: device 0, or the one the environment variable
 * TILERT_HIP_DEVICE names (read once). HIP's current device is per thread, so it is set
 * (hipSetDevice) on every thread that calls in; memory from hipMalloc of the same process
 * can then be passed to libtilert's kernels too.
 *
 * An HSACO's kernels are the STT_FUNC symbols of its symbol tables with a NAME__meta global
 * beside them (gpu.c). The image is checked and scanned before the runtime sees it, as the
 * runtime takes no size and trusts the headers. The metadata is read from device memory
 * (hipModuleGetGlobal, hipMemcpyDtoH) and launches go through hipModuleLaunchKernel, as
 * on NVIDIA.
 *
 * This path has not run on AMD hardware (none was available): what is tested is its
 * behaviour without a runtime or a device, and against a stand-in runtime
 * (tests/runtime/hip_mock.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tilert_int.h"

/* The subset of hip_runtime_api.h this file uses; the values are the runtime's ABI. */
typedef int hipError_t;
enum {
	hipSuccess = 0,
	hipErrorOutOfMemory = 2,
	hipErrorInvalidSymbol = 13,
	hipErrorNoDevice = 100,
	hipErrorInvalidImage = 200,
	hipErrorNoBinaryForGpu = 209,
	hipErrorInvalidKernelFile = 218,
	hipErrorSharedObjectInitFailed = 303,
	hipErrorNotFound = 500
};
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef void *hipDeviceptr_t;

/* Every AMD GPU allows 1024 threads per block; LDS, the shared memory, is 64 KiB per
 * block on gfx9 (CDNA) and RDNA and needs no opt-in. A wave is 64 threads. */
enum { MAX_THREADS = 1024, LDS_MAX = 64 * 1024, WAVE = 64 };

/* The runtime entry points: the field of `hip` each fills, its result type, the exported
 * symbol, and the parameters. */
/*      field               result        symbol                    parameters */
#define HIP_FUNCTIONS(X)                                                                           \
	X(init,               hipError_t,   "hipInit",                (unsigned flags))           \
	X(device_count,       hipError_t,   "hipGetDeviceCount",      (int *n))                   \
	X(set_device,         hipError_t,   "hipSetDevice",           (int ordinal))              \
	X(error_name,         const char *, "hipGetErrorName",        (hipError_t r))             \
	X(error_string,       const char *, "hipGetErrorString",      (hipError_t r))             \
	X(module_load,        hipError_t,   "hipModuleLoadData",      (hipModule_t *m,            \
	                                                               const void *image))        \
	X(module_unload,      hipError_t,   "hipModuleUnload",        (hipModule_t m))            \
	X(module_function,    hipError_t,   "hipModuleGetFunction",   (hipFunction_t *f,          \
	                                                               hipModule_t m,             \
	                                                               const char *name))         \
	X(module_global,      hipError_t,   "hipModuleGetGlobal",     (hipDeviceptr_t *p,         \
	                                                               size_t *bytes,             \
	                                                               hipModule_t m,             \
	                                                               const char *name))         \
	X(launch_kernel,      hipError_t,   "hipModuleLaunchKernel",  (hipFunction_t f,           \
	                                                               unsigned gx, unsigned gy,  \
	                                                               unsigned gz, unsigned bx,  \
	                                                               unsigned by, unsigned bz,  \
	                                                               unsigned shared,           \
	                                                               hipStream_t s,             \
	                                                               void **params,             \
	                                                               void **extra))             \
	X(stream_create,      hipError_t,   "hipStreamCreate",        (hipStream_t *s))           \
	X(stream_destroy,     hipError_t,   "hipStreamDestroy",       (hipStream_t s))            \
	X(stream_synchronize, hipError_t,   "hipStreamSynchronize",   (hipStream_t s))            \
	X(device_synchronize, hipError_t,   "hipDeviceSynchronize",   (void))                     \
	X(mem_alloc,          hipError_t,   "hipMalloc",              (void **p, size_t bytes))   \
	X(mem_free,           hipError_t,   "hipFree",                (void *p))                  \
	X(memcpy_htod,        hipError_t,   "hipMemcpyHtoD",          (hipDeviceptr_t dst,        \
	                                                               void *src, size_t bytes))  \
	X(memcpy_dtoh,        hipError_t,   "hipMemcpyDtoH",          (void *dst,                 \
	                                                               hipDeviceptr_t src,        \
	                                                               size_t bytes))             \
	X(memset_d8,          hipError_t,   "hipMemsetD8",            (hipDeviceptr_t p,          \
	                                                               unsigned char v, size_t n)) \
	X(event_create,       hipError_t,   "hipEventCreate",         (hipEvent_t *e))            \
	X(event_record,       hipError_t,   "hipEventRecord",         (hipEvent_t e,              \
	                                                               hipStream_t s))            \
	X(event_synchronize,  hipError_t,   "hipEventSynchronize",    (hipEvent_t e))             \
	X(event_elapsed,      hipError_t,   "hipEventElapsedTime",    (float *ms, hipEvent_t a,   \
	                                                               hipEvent_t b))             \
	X(event_destroy,      hipError_t,   "hipEventDestroy",        (hipEvent_t e))

static struct {
#define X(field, result, symbol, params) result (*field) params;
	HIP_FUNCTIONS(X)
#undef X
} hip;

/* The runtime, once initialized: written by driver_init only, under pthread_once. */
static struct {
	int ready;     /* the functions above and the device are usable */
	char why[400]; /* when not: the message every GPU call fails with */
	int ordinal;
	char arch[32]; /* the gfx processor, "" when it could not be read (read_arch) */
} drv;

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
/* Set by the first launch: from then on, the default stream has GPU work to wait for. */
static atomic_int hip_launched;

/* "hipErrorNoDevice: no ROCm-capable device is detected", in buf; the name alone when the
 * runtime's text is the name again (ROCm 5 answers so). */
static const char *result_text(hipError_t r, char *buf, size_t size)
{
	const char *name = hip.error_name ? hip.error_name(r) : NULL;
	const char *text = hip.error_string ? hip.error_string(r) : NULL;

	if (!name)
		snprintf(buf, size, "HIP error %d", r);
	else if (!text || strcmp(name, text) == 0)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s: %s", name, text);
	return buf;
}

/* The code a failed call maps to: out of memory, a bad image (for module loads, when
 * image_errors), or else TILERT_ERR_LAUNCH. */
static int result_code(hipError_t r, int image_errors)
{
	if (r == hipErrorOutOfMemory)
		return TILERT_ERR_OUT_OF_MEMORY;
	if (image_errors && (r == hipErrorInvalidImage || r == hipErrorNoBinaryForGpu ||
	                     r == hipErrorInvalidKernelFile || r == hipErrorSharedObjectInitFailed))
		return TILERT_ERR_FORMAT;
	return TILERT_ERR_LAUNCH;
}

/* Records "[context: ]call: hipErrorX: text" and returns code; context is a format. */
static int hip_fail(int code, hipError_t r, const char *call, const char *context, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int hip_fail(int code, hipError_t r, const char *call, const char *context, ...)
{
	char text[300];
	va_list ap;
	int rc;

	va_start(ap, context);
	rc = tilert_fail_call(code, call, result_text(r, text, sizeof text), context, ap);
	va_end(ap);
	return rc;
}

/* The device's gfx processor for tilert_variant_select: TILERT_HIP_ARCH when set, else the
 * gcnArchName of hipGetDeviceProperties ("gfx90a:sramecc+:xnack-"). The layout of
 * hipDeviceProp_t differs between ROCm releases (the R0600 struct of ROCm 6, the older one
 * before), so rather than trust an offset the properties are read into a zeroed buffer far
 * larger than either and the first "gfx<hex digits>" string in it is taken: gcnArchName is
 * the only field that holds one (the marketing name, "AMD Instinct MI300X", does not).
 * Not run on AMD hardware yet (docs/amdgpu.md). */
static void read_arch(void *h)
{
	typedef hipError_t (*props_fn)(void *prop, int ordinal);
	static unsigned char buf[16384];
	const char *env = getenv("TILERT_HIP_ARCH");
	props_fn f;

	if (env && *env) {
		snprintf(drv.arch, sizeof drv.arch, "%.31s", env);
	} else {
		if (!(*(void **)&f = dlsym(h, "hipGetDevicePropertiesR0600")))
			*(void **)&f = dlsym(h, "hipGetDeviceProperties");
		memset(buf, 0, sizeof buf);
		if (!f || f(buf, drv.ordinal) != hipSuccess)
			return;
		for (size_t i = 0; i + 4 < sizeof buf; i++) {
			size_t n = 3;
			if (memcmp(buf + i, "gfx", 3) != 0)
				continue;
			while (i + n < sizeof buf && strchr("0123456789abcdef", buf[i + n]) && buf[i + n])
				n++;
			if (n > 3 && n < sizeof drv.arch && (buf[i + n] == 0 || buf[i + n] == ':')) {
				memcpy(drv.arch, buf + i, n);
				drv.arch[n] = 0;
				break;
			}
		}
	}
	char *colon = strchr(drv.arch, ':');
	if (colon)
		*colon = 0;
}

/* Opens the runtime, resolves every entry point, initializes it and picks the device.
 * Runs once; on failure drv.why says what is missing. */
static void driver_init(void)
{
	static const char *const names[] = { "libamdhip64.so", "libamdhip64.so.6",
	                                     "libamdhip64.so.5" };
	const char *lib = getenv("TILERT_HIP_LIBRARY"), *missing = NULL, *e;
	char text[300], first[300] = "";
	void *h = NULL;
	hipError_t r;
	int n = 0;

	if (lib && *lib) {
		if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) {
			e = dlerror();
			snprintf(drv.why, sizeof drv.why, "no HIP runtime: cannot load %.100s, named by "
			         "TILERT_HIP_LIBRARY (%.200s)", lib, e ? e : "dlopen failed");
			return;
		}
	} else {
		for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) {
			lib = names[i];
			if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL)) && !*first)
				snprintf(first, sizeof first, "%s", (e = dlerror()) ? e : "dlopen failed");
		}
		if (!h) {
			snprintf(drv.why, sizeof drv.why, "no HIP runtime: cannot load %s (%.200s)",
			         names[0], first);
			return;
		}
	}
	/* POSIX allows converting dlsym's void * to a function pointer; C11 does not say so. */
#define X(field, result, symbol, params)                                                         \
	if (!(*(void **)&hip.field = dlsym(h, symbol)) && !missing)                                \
		missing = symbol;
	HIP_FUNCTIONS(X)
#undef X
	if (missing) {
		memset(&hip, 0, sizeof hip);
		snprintf(drv.why, sizeof drv.why, "no usable HIP runtime (%.200s has no %s)", lib,
		         missing);
		return; /* the handle stays open: the runtime's destructors run at exit anyway */
	}
	/* Without a GPU, ROCm 5.2 answers hipErrorInvalidDevice here, quietly; /dev/kfd is
	 * the kernel driver's node, named because it says why. */
	if ((r = hip.init(0)) != hipSuccess) {
		snprintf(drv.why, sizeof drv.why, "no AMD GPU: hipInit: %s%s",
		         result_text(r, text, sizeof text),
		         access("/dev/kfd", F_OK) != 0 ? " (no /dev/kfd)" : "");
		return;
	}
	if ((r = hip.device_count(&n)) != hipSuccess || n <= 0) {
		snprintf(drv.why, sizeof drv.why, "no AMD GPU: hipGetDeviceCount: %s",
		         r != hipSuccess ? result_text(r, text, sizeof text) : "no devices");
		return;
	}
	if (!tilert_gpu_env_device("TILERT_HIP_DEVICE", &drv.ordinal)) {
		snprintf(drv.why, sizeof drv.why,
		         "TILERT_HIP_DEVICE='%.40s' is not a device number", getenv("TILERT_HIP_DEVICE"));
		return;
	}
	if (drv.ordinal >= n) {
		snprintf(drv.why, sizeof drv.why, "no AMD GPU %d (TILERT_HIP_DEVICE): there are %d",
		         drv.ordinal, n);
		return;
	}
	if ((r = hip.set_device(drv.ordinal)) != hipSuccess) {
		snprintf(drv.why, sizeof drv.why, "no usable AMD GPU %d: hipSetDevice: %s", drv.ordinal,
		         result_text(r, text, sizeof text));
		return;
	}
	read_arch(h);
	drv.ready = 1;
}

/* Makes the runtime usable on the calling thread, or fails with "what: why". */
static int driver_enter(const char *what)
{
	hipError_t r;

	pthread_once(&drv_once, driver_init);
	if (!drv.ready)
		return tilert_fail(TILERT_ERR_NO_DRIVER, "%s: %s", what, drv.why);
	if ((r = hip.set_device(drv.ordinal)) != hipSuccess)
		return hip_fail(TILERT_ERR_LAUNCH, r, "hipSetDevice", "%s", what);
	return TILERT_OK;
}

static const char *hip_unusable(void)
{
	pthread_once(&drv_once, driver_init);
	return drv.ready ? NULL : drv.why;
}

int tilert_has_hip(void)
{
	return hip_unusable() == NULL;
}

void tilert_hip_arch(char *buf, size_t size)
{
	snprintf(buf, size, "%s", hip_unusable() == NULL ? drv.arch : "");
}

/* ---- Modules and kernels ---- */


/* Builds the record of kernel name of a loaded HSACO: NAME__meta read from device memory
 * and parsed, the function NAME, the geometry. TILERT_ERR_NOT_FOUND, without a message,
 * when there is no NAME__meta (not a tilecc kernel). */
static int kernel_make(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_gpu_limits lim = { WAVE, MAX_THREADS, LDS_MAX, drv.ordinal };
	tilert_kernel *k;
	char sym[300];
	hipFunction_t f;
	hipDeviceptr_t p;
	size_t bytes;
	hipError_t r;
	int rc;

	*out = NULL;
	if (snprintf(sym, sizeof sym, "%s%s", name, TILERT_META_SUFFIX) >= (int)sizeof sym)
		return TILERT_ERR_NOT_FOUND;
	r = hip.module_global(&p, &bytes, mod->gpu_module, sym);
	if (r == hipErrorNotFound || r == hipErrorInvalidSymbol)
		return TILERT_ERR_NOT_FOUND;
	if (r != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipModuleGetGlobal", "kernel '%s'", name);
	if ((rc = tilert_gpu_kernel_alloc(mod, name, sym, bytes, &k)) != TILERT_OK)
		return rc;
	if (bytes && (r = hip.memcpy_dtoh(k->text, p, bytes)) != hipSuccess) {
		rc = hip_fail(result_code(r, 0), r, "hipMemcpyDtoH", "kernel '%s': reading %s", name,
		              sym);
		goto fail;
	}
	if ((rc = tilert_gpu_kernel_meta(k, sym, bytes, "amdgcn")) != TILERT_OK)
		goto fail;
	r = hip.module_function(&f, mod->gpu_module, name);
	if (r == hipErrorNotFound) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s' has metadata but no entry point '%s'",
		                 name, name);
		goto fail;
	}
	if (r != hipSuccess) {
		rc = hip_fail(result_code(r, 0), r, "hipModuleGetFunction", "kernel '%s'", name);
		goto fail;
	}
	k->gpu_func = f;
	if ((rc = tilert_gpu_kernel_geometry(k, &lim)) != TILERT_OK)
		goto fail;
	*out = k;
	return TILERT_OK;
fail:
	tilert_kernel_free(k);
	return rc;
}

static int hip_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod)
{
	char **names = NULL;
	size_t nnames = 0;
	hipModule_t m;
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot load an HSACO")) != TILERT_OK ||
	    (rc = tilert_gpu_check_image(data, size, f)) != TILERT_OK ||
	    (rc = tilert_scan_elf(data, size, "HSACO", &names, &nnames)) != TILERT_OK)
		return rc;
	/* Refused before the runtime sees it: an image without kernels (add_kernels says so). */
	if (!nnames)
		return tilert_gpu_add_kernels(mod, names, nnames, "HSACO");
	/* A copy of the module's own, aligned, kept while it is loaded: the runtime may refer
	 * to the image after hipModuleLoadData returns. */
	if (!(mod->gpu_image = malloc(size))) {
		tilert_names_free(names, nnames);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading an HSACO");
	}
	memcpy(mod->gpu_image, data, size);
	if ((r = hip.module_load(&m, mod->gpu_image)) != hipSuccess) {
		tilert_names_free(names, nnames);
		return hip_fail(result_code(r, 1), r, "hipModuleLoadData", NULL);
	}
	mod->gpu_module = m;
	return tilert_gpu_add_kernels(mod, names, nnames, "HSACO");
}

static void hip_unload(tilert_module *mod)
{
	if (mod->gpu_module && driver_enter("cannot unload a GPU module") == TILERT_OK)
		hip.module_unload(mod->gpu_module);
	mod->gpu_module = NULL;
	free(mod->gpu_image);
	mod->gpu_image = NULL;
}

/* ---- Launches and streams ---- */

static int hip_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args)
{
	void *hs;
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot launch a GPU kernel")) != TILERT_OK)
		return rc;
	/* HIP counts the grid in threads, in 32 bits, on each axis. */
	if ((uint64_t)grid.x * k->block[0] > UINT32_MAX || (uint64_t)grid.y * k->block[1] > UINT32_MAX ||
	    (uint64_t)grid.z * k->block[2] > UINT32_MAX)
		return tilert_fail(TILERT_ERR_LAUNCH,
		                   "kernel '%s': grid %ux%ux%u of blocks %ux%ux%u: HIP allows at most "
		                   "2^32-1 threads on each axis", k->name, (unsigned)grid.x,
		                   (unsigned)grid.y, (unsigned)grid.z, k->block[0], k->block[1],
		                   k->block[2]);
	if ((rc = tilert_gpu_stream_get(s, &tilert_gpu_hip, &hs)) != TILERT_OK)
		return rc;
	r = hip.launch_kernel(k->gpu_func, grid.x, grid.y, grid.z, k->block[0], k->block[1],
	                      k->block[2], k->shared, hs, args, NULL);
	if (r != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipModuleLaunchKernel",
		                "kernel '%s' (grid %ux%ux%u)", k->name, (unsigned)grid.x,
		                (unsigned)grid.y, (unsigned)grid.z);
	atomic_store(&hip_launched, 1);
	return TILERT_OK;
}

/* A blocking stream, which HIP's default (null) stream orders work against. */
static int hip_stream_create(void **out)
{
	hipStream_t hs;
	hipError_t r;

	if ((r = hip.stream_create(&hs)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipStreamCreate", NULL);
	*out = hs;
	return TILERT_OK;
}

/* Waits for the work of a hipStream_t; for the default stream (NULL), for every launch on
 * the device. */
static int hip_stream_sync(void *stream)
{
	hipError_t r;
	int rc;

	if (!stream && !atomic_load(&hip_launched))
		return TILERT_OK;
	if ((rc = driver_enter("cannot synchronize a stream")) != TILERT_OK)
		return rc;
	r = stream ? hip.stream_synchronize(stream) : hip.device_synchronize();
	if (r != hipSuccess)
		return hip_fail(result_code(r, 0), r,
		                stream ? "hipStreamSynchronize" : "hipDeviceSynchronize", NULL);
	return TILERT_OK;
}

static void hip_stream_free(void *stream)
{
	if (driver_enter("cannot destroy a stream") == TILERT_OK)
		hip.stream_destroy(stream);
}

/* ---- Device memory ---- */

static int hip_mem_alloc(size_t bytes, void **out)
{
	void *p;
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot allocate device memory")) != TILERT_OK)
		return rc;
	if ((r = hip.mem_alloc(&p, bytes)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipMalloc", "allocating %zu bytes", bytes);
	*out = p;
	return TILERT_OK;
}

static int hip_mem_free(void *dev)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot free device memory")) != TILERT_OK)
		return rc;
	if ((r = hip.mem_free(dev)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipFree", "freeing %p", dev);
	return TILERT_OK;
}

static int hip_memcpy_htod(void *dst_dev, const void *src, size_t bytes)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot copy to the device")) != TILERT_OK)
		return rc;
	/* hipMemcpyHtoD takes a void * source but only reads it. */
	if ((r = hip.memcpy_htod(dst_dev, (void *)(uintptr_t)src, bytes)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipMemcpyHtoD", "copying %zu bytes to %p", bytes,
		                dst_dev);
	return TILERT_OK;
}

static int hip_memcpy_dtoh(void *dst, const void *src_dev, size_t bytes)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot copy from the device")) != TILERT_OK)
		return rc;
	if ((r = hip.memcpy_dtoh(dst, (void *)(uintptr_t)src_dev, bytes)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipMemcpyDtoH", "copying %zu bytes from %p",
		                bytes, src_dev);
	return TILERT_OK;
}

static int hip_memset_d8(void *dev, int value, size_t bytes)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot set device memory")) != TILERT_OK)
		return rc;
	if ((r = hip.memset_d8(dev, (unsigned char)value, bytes)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipMemsetD8", "setting %zu bytes at %p", bytes,
		                dev);
	return TILERT_OK;
}

/* ---- Events (tilert_event_record, tilert_event_elapsed_ms) ---- */

static int hip_event_create(void **out)
{
	hipEvent_t e;
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot create an event")) != TILERT_OK)
		return rc;
	if ((r = hip.event_create(&e)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipEventCreate", NULL);
	*out = e;
	return TILERT_OK;
}

static int hip_event_record(void *ev, void *stream)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot record an event")) != TILERT_OK)
		return rc;
	if ((r = hip.event_record(ev, stream)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipEventRecord", NULL);
	return TILERT_OK;
}

static int hip_event_elapsed(void *start, void *end, float *ms)
{
	hipError_t r;
	int rc;

	if ((rc = driver_enter("cannot time events")) != TILERT_OK)
		return rc;
	if ((r = hip.event_synchronize(end)) != hipSuccess)
		return hip_fail(TILERT_ERR_LAUNCH, r, "hipEventSynchronize", NULL);
	if ((r = hip.event_elapsed(ms, start, end)) != hipSuccess)
		return hip_fail(result_code(r, 0), r, "hipEventElapsedTime", NULL);
	return TILERT_OK;
}

static void hip_event_free(void *ev)
{
	if (driver_enter("cannot destroy an event") == TILERT_OK)
		hip.event_destroy(ev);
}

const tilert_gpu tilert_gpu_hip = {
	.name = "HIP",
	.unusable = hip_unusable,
	.enter = driver_enter,
	.load = hip_load,
	.unload = hip_unload,
	.kernel_make = kernel_make,
	.launch = hip_launch,
	.stream_create = hip_stream_create,
	.stream_sync = hip_stream_sync,
	.stream_free = hip_stream_free,
	.event_create = hip_event_create,
	.event_record = hip_event_record,
	.event_elapsed = hip_event_elapsed,
	.event_free = hip_event_free,
	.mem_alloc = hip_mem_alloc,
	.mem_free = hip_mem_free,
	.memcpy_htod = hip_memcpy_htod,
	.memcpy_dtoh = hip_memcpy_dtoh,
	.memset_d8 = hip_memset_d8,
};
