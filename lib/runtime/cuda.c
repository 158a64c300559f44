/* cuda.c: the NVIDIA path: cubin and PTX modules, GPU launches, streams and device memory,
 * through the CUDA driver API.
 *
 * libcuda.so.1 is opened with dlopen on first use and its entry points resolved with dlsym,
 * so that libtilert has no link-time dependency on CUDA and runs on machines without it
 * (every GPU call then answers TILERT_ERR_NO_DRIVER). cuda.h is used for its types when the
 * build found it (TILERT_HAVE_CUDA_H); otherwise the few types and values used here are
 * declared below, with the driver's numbering.
 *
 * One device and its primary context serve the whole process: device 0, or the one the
 * environment variable TILERT_CUDA_DEVICE names (read once). The context is retained for
 * the life of the process and made current on every thread that calls in, so that the
 * runtime API (cudaMalloc ...) of the same process shares memory with libtilert.
 *
 * A GPU module knows its kernels by name only: the driver cannot list the functions of a
 * module. The loader scans the image for candidates (gpu.c: `.entry NAME` in PTX text,
 * STT_FUNC symbols in a cubin's symbol table) and keeps those with a NAME__meta global; a
 * name the scan missed is still found by tilert_module_get_kernel, through the driver.
 * What the AMD path shares with this one (the scans, the kernel records, streams and the
 * choice of driver for device memory) is in gpu.c; this file is the calls to CUDA. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

#ifdef TILERT_HAVE_CUDA_H
#include <cuda.h>
#else
/* The subset of cuda.h this file uses; the values are the driver's ABI. */
typedef enum CUresult_enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_NOT_FOUND = 500
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef enum CUjit_option_enum {
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
} CUjit_option;
typedef enum CUfunction_attribute_enum {
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
} CUfunction_attribute;
typedef enum CUdevice_attribute_enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} CUdevice_attribute;
enum { CU_STREAM_DEFAULT = 0 };
#endif

/* Dynamic shared memory beyond this needs CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES. */
enum { SHARED_DEFAULT_MAX = 48 * 1024, GRID_YZ_MAX = 65535, JIT_LOG_SIZE = 2048 };

/* The driver entry points: the field of `cu` each fills, the exported symbol (the _v2
 * names are the 64-bit ones cuda.h maps the plain names to), and the parameters. */
/*      field                 symbol                       parameters */
#define CU_FUNCTIONS(X)                                                                          \
	X(init,               "cuInit",                   (unsigned flags))                      \
	X(device_get,         "cuDeviceGet",              (CUdevice *dev, int ordinal))          \
	X(device_attribute,   "cuDeviceGetAttribute",     (int *v, CUdevice_attribute a,         \
	                                                   CUdevice dev))                        \
	X(primary_ctx_retain, "cuDevicePrimaryCtxRetain", (CUcontext *ctx, CUdevice dev))        \
	X(ctx_set_current,    "cuCtxSetCurrent",          (CUcontext ctx))                       \
	X(ctx_synchronize,    "cuCtxSynchronize",         (void))                                \
	X(module_load,        "cuModuleLoadDataEx",       (CUmodule *m, const void *image,       \
	                                                   unsigned nopt, CUjit_option *opt,     \
	                                                   void **val))                          \
	X(module_unload,      "cuModuleUnload",           (CUmodule m))                          \
	X(module_function,    "cuModuleGetFunction",      (CUfunction *f, CUmodule m,            \
	                                                   const char *name))                    \
	X(module_global,      "cuModuleGetGlobal_v2",     (CUdeviceptr *p, size_t *bytes,        \
	                                                   CUmodule m, const char *name))        \
	X(func_set_attribute, "cuFuncSetAttribute",       (CUfunction f, CUfunction_attribute a, \
	                                                   int v))                               \
	X(launch_kernel,      "cuLaunchKernel",           (CUfunction f, unsigned gx,            \
	                                                   unsigned gy, unsigned gz, unsigned bx, \
	                                                   unsigned by, unsigned bz,             \
	                                                   unsigned shared, CUstream s,          \
	                                                   void **params, void **extra))         \
	X(stream_create,      "cuStreamCreate",           (CUstream *s, unsigned flags))         \
	X(stream_synchronize, "cuStreamSynchronize",      (CUstream s))                          \
	X(stream_destroy,     "cuStreamDestroy_v2",       (CUstream s))                          \
	X(mem_alloc,          "cuMemAlloc_v2",            (CUdeviceptr *p, size_t bytes))        \
	X(mem_free,           "cuMemFree_v2",             (CUdeviceptr p))                       \
	X(memcpy_htod,        "cuMemcpyHtoD_v2",          (CUdeviceptr dst, const void *src,     \
	                                                   size_t bytes))                        \
	X(memcpy_dtoh,        "cuMemcpyDtoH_v2",          (void *dst, CUdeviceptr src,           \
	                                                   size_t bytes))                        \
	X(memset_d8,          "cuMemsetD8_v2",            (CUdeviceptr p, unsigned char v,       \
	                                                   size_t n))                            \
	X(event_create,       "cuEventCreate",            (CUevent *e, unsigned flags))          \
	X(event_record,       "cuEventRecord",            (CUevent e, CUstream s))               \
	X(event_synchronize,  "cuEventSynchronize",       (CUevent e))                           \
	X(event_elapsed,      "cuEventElapsedTime",       (float *ms, CUevent start,             \
	                                                   CUevent end))                         \
	X(event_destroy,      "cuEventDestroy_v2",        (CUevent e))                           \
	X(error_name,         "cuGetErrorName",           (CUresult r, const char **s))          \
	X(error_string,       "cuGetErrorString",         (CUresult r, const char **s))

static struct {
#define X(field, symbol, params) CUresult (*field) params;
	CU_FUNCTIONS(X)
#undef X
} cu;

/* The driver, once initialized: written by driver_init only, under pthread_once. */
static struct {
	int ready;          /* the functions above, the device and its context are usable */
	char why[400];      /* when not: the message every GPU call fails with */
	CUdevice dev;
	int ordinal;
	CUcontext ctx;
	int max_threads;    /* per block */
	int max_shared;     /* dynamic shared memory per block, with the opt-in */
	int cc_major, cc_minor; /* compute capability (tilert_variant_select) */
} drv;

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
/* Set by the first GPU launch: from then on, the default stream has GPU work to wait for. */
static atomic_int gpu_launched;

/* "CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed", in buf. */
static const char *result_text(CUresult r, char *buf, size_t size)
{
	const char *name = NULL, *text = NULL;

	if (cu.error_name && cu.error_name(r, &name) != CUDA_SUCCESS)
		name = NULL;
	if (cu.error_string && cu.error_string(r, &text) != CUDA_SUCCESS)
		text = NULL;
	if (name)
		snprintf(buf, size, "%s: %s", name, text ? text : "unknown error");
	else
		snprintf(buf, size, "CUDA error %d", (int)r);
	return buf;
}

/* The code a failed driver call maps to: out of memory, a bad image (for module loads,
 * when image_errors), or else TILERT_ERR_LAUNCH. */
static int result_code(CUresult r, int image_errors)
{
	if (r == CUDA_ERROR_OUT_OF_MEMORY)
		return TILERT_ERR_OUT_OF_MEMORY;
	if (image_errors && (r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
	                     r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION))
		return TILERT_ERR_FORMAT;
	return TILERT_ERR_LAUNCH;
}

/* Records "[context: ]call: CUDA_ERROR_X: text" and returns code; context is a format. */
static int cu_fail(int code, CUresult r, const char *call, const char *context, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int cu_fail(int code, CUresult r, const char *call, const char *context, ...)
{
	char text[300];
	va_list ap;
	int rc;

	va_start(ap, context);
	rc = tilert_fail_call(code, call, result_text(r, text, sizeof text), context, ap);
	va_end(ap);
	return rc;
}

/* Opens the driver, resolves every entry point, initializes it and retains the primary
 * context of the chosen device. Runs once; on failure drv.why says what is missing. */
static void driver_init(void)
{
	char text[300];
	const char *missing = NULL;
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	CUresult r;

	if (!h) {
		snprintf(drv.why, sizeof drv.why, "no CUDA driver (libcuda.so.1 not found)");
		return;
	}
	/* POSIX allows converting dlsym's void * to a function pointer; C11 does not say so. */
#define X(field, symbol, params)                                                                 \
	if (!(*(void **)&cu.field = dlsym(h, symbol)) && !missing)                                 \
		missing = symbol;
	CU_FUNCTIONS(X)
#undef X
	if (missing) {
		memset(&cu, 0, sizeof cu);
		snprintf(drv.why, sizeof drv.why, "no usable CUDA driver (libcuda.so.1 has no %s)",
		         missing);
		return; /* the handle stays open: harmless, and the driver dislikes dlclose */
	}
	if ((r = cu.init(0)) != CUDA_SUCCESS) {
		snprintf(drv.why, sizeof drv.why, "no usable CUDA driver: cuInit: %s",
		         result_text(r, text, sizeof text));
		return;
	}
	if (!tilert_gpu_env_device("TILERT_CUDA_DEVICE", &drv.ordinal)) {
		snprintf(drv.why, sizeof drv.why,
		         "TILERT_CUDA_DEVICE='%.40s' is not a device number", getenv("TILERT_CUDA_DEVICE"));
		return;
	}
	if ((r = cu.device_get(&drv.dev, drv.ordinal)) != CUDA_SUCCESS ||
	    (r = cu.device_attribute(&drv.max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
	                             drv.dev)) != CUDA_SUCCESS ||
	    (r = cu.device_attribute(&drv.max_shared,
	                             CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
	                             drv.dev)) != CUDA_SUCCESS ||
	    (r = cu.device_attribute(&drv.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
	                             drv.dev)) != CUDA_SUCCESS ||
	    (r = cu.device_attribute(&drv.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
	                             drv.dev)) != CUDA_SUCCESS ||
	    (r = cu.primary_ctx_retain(&drv.ctx, drv.dev)) != CUDA_SUCCESS) {
		snprintf(drv.why, sizeof drv.why, "no usable CUDA device %d: %s", drv.ordinal,
		         result_text(r, text, sizeof text));
		return;
	}
	drv.ready = 1;
}

/* Makes the driver usable on the calling thread, or fails with "what: why". */
static int driver_enter(const char *what)
{
	CUresult r;

	pthread_once(&drv_once, driver_init);
	if (!drv.ready)
		return tilert_fail(TILERT_ERR_NO_DRIVER, "%s: %s", what, drv.why);
	if ((r = cu.ctx_set_current(drv.ctx)) != CUDA_SUCCESS)
		return cu_fail(TILERT_ERR_LAUNCH, r, "cuCtxSetCurrent", "%s", what);
	return TILERT_OK;
}

static const char *cuda_unusable(void)
{
	pthread_once(&drv_once, driver_init);
	return drv.ready ? NULL : drv.why;
}

int tilert_has_cuda(void)
{
	return cuda_unusable() == NULL;
}

int tilert_cuda_compute_capability(void)
{
	return cuda_unusable() == NULL ? drv.cc_major * 10 + drv.cc_minor : 0;
}

/* ---- Modules and kernels ---- */

/* Builds the record of kernel name of a loaded GPU module: NAME__meta read from device
 * memory and parsed, the function NAME, the geometry. TILERT_ERR_NOT_FOUND, without a
 * message, when there is no NAME__meta (not a tilecc kernel). */
static int kernel_make(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_gpu_limits lim = { 32, (unsigned)drv.max_threads, (unsigned)drv.max_shared,
	                          drv.ordinal };
	tilert_kernel *k;
	char sym[300];
	CUfunction f;
	CUdeviceptr p;
	size_t bytes;
	CUresult r;
	int rc;

	*out = NULL;
	if (snprintf(sym, sizeof sym, "%s%s", name, TILERT_META_SUFFIX) >= (int)sizeof sym)
		return TILERT_ERR_NOT_FOUND;
	r = cu.module_global(&p, &bytes, mod->gpu_module, sym);
	if (r == CUDA_ERROR_NOT_FOUND)
		return TILERT_ERR_NOT_FOUND;
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuModuleGetGlobal", "kernel '%s'", name);
	if ((rc = tilert_gpu_kernel_alloc(mod, name, sym, bytes, &k)) != TILERT_OK)
		return rc;
	if (bytes && (r = cu.memcpy_dtoh(k->text, p, bytes)) != CUDA_SUCCESS) {
		rc = cu_fail(result_code(r, 0), r, "cuMemcpyDtoH", "kernel '%s': reading %s", name, sym);
		goto fail;
	}
	if ((rc = tilert_gpu_kernel_meta(k, sym, bytes, "nvptx")) != TILERT_OK)
		goto fail;
	r = cu.module_function(&f, mod->gpu_module, name);
	if (r == CUDA_ERROR_NOT_FOUND) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s' has metadata but no entry point '%s'",
		                 name, name);
		goto fail;
	}
	if (r != CUDA_SUCCESS) {
		rc = cu_fail(result_code(r, 0), r, "cuModuleGetFunction", "kernel '%s'", name);
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

static int cuda_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod)
{
	const char *what = f == TILERT_FORMAT_PTX ? "PTX module" : "cubin";
	CUjit_option opt[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	char log[JIT_LOG_SIZE] = "", why[64], **names = NULL;
	void *val[2] = { log, (void *)(uintptr_t)sizeof log };
	unsigned char *image;
	size_t nnames = 0;
	CUmodule m;
	CUresult r;
	int rc;

	snprintf(why, sizeof why, "cannot load a %s", what);
	if ((rc = driver_enter(why)) != TILERT_OK || (rc = tilert_gpu_check_image(data, size, f)) != TILERT_OK)
		return rc;
	/* PTX must end in a NUL the file need not have; a cubin is copied too, so that the
	 * driver gets an aligned image whatever the caller's buffer. */
	if (!(image = malloc(size + 1)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a %s", what);
	memcpy(image, data, size);
	image[size] = 0;
	r = cu.module_load(&m, image, 2, opt, val);
	if (r != CUDA_SUCCESS) {
		char text[300];
		size_t len;

		free(image);
		log[sizeof log - 1] = 0;
		for (len = strlen(log); len && (log[len - 1] == '\n' || log[len - 1] == '\r'); len--)
			log[len - 1] = 0;
		/* The JIT's log, when it wrote one, goes on the next line(s). */
		return tilert_fail(result_code(r, 1), "cuModuleLoadDataEx: %s%s%.700s",
		                   result_text(r, text, sizeof text), *log ? "\n" : "", log);
	}
	mod->gpu_module = m;
	if (f == TILERT_FORMAT_PTX)
		rc = tilert_scan_ptx((const char *)image, size, &names, &nnames);
	else
		rc = tilert_scan_elf(image, size, "cubin", &names, &nnames);
	free(image);
	if (rc != TILERT_OK)
		return rc;
	return tilert_gpu_add_kernels(mod, names, nnames, what);
}

static void cuda_unload(tilert_module *mod)
{
	if (mod->gpu_module && driver_enter("cannot unload a GPU module") == TILERT_OK)
		cu.module_unload(mod->gpu_module);
	mod->gpu_module = NULL;
}

/* ---- Launches and streams ---- */

static int cuda_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args)
{
	void *cs;
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot launch a GPU kernel")) != TILERT_OK)
		return rc;
	if (grid.y > GRID_YZ_MAX || grid.z > GRID_YZ_MAX)
		return tilert_fail(TILERT_ERR_LAUNCH,
		                   "kernel '%s': grid %ux%ux%u: CUDA allows at most %d programs on the "
		                   "y and z axes", k->name, (unsigned)grid.x, (unsigned)grid.y,
		                   (unsigned)grid.z, GRID_YZ_MAX);
	/* Idempotent, so two threads racing here both setting it is harmless. */
	if (k->shared > SHARED_DEFAULT_MAX && !atomic_load(&k->shared_opted_in)) {
		r = cu.func_set_attribute(k->gpu_func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		                          (int)k->shared);
		if (r != CUDA_SUCCESS)
			return cu_fail(result_code(r, 0), r, "cuFuncSetAttribute",
			               "kernel '%s': %u bytes of shared memory", k->name, k->shared);
		/* The driver's carveout is kept: cuFuncSetCacheConfig(PREFER_SHARED), which
		 * Triton's launcher calls, made the matmul 16 % slower on the H200. */
		atomic_store(&k->shared_opted_in, 1);
	}
	if ((rc = tilert_gpu_stream_get(s, &tilert_gpu_cuda, &cs)) != TILERT_OK)
		return rc;
	r = cu.launch_kernel(k->gpu_func, grid.x, grid.y, grid.z, k->block[0], k->block[1],
	                     k->block[2], k->shared, cs, args, NULL);
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuLaunchKernel", "kernel '%s' (grid %ux%ux%u)",
		               k->name, (unsigned)grid.x, (unsigned)grid.y, (unsigned)grid.z);
	atomic_store(&gpu_launched, 1);
	return TILERT_OK;
}

static int cuda_stream_create(void **out)
{
	CUstream cs;
	CUresult r;

	if ((r = cu.stream_create(&cs, CU_STREAM_DEFAULT)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuStreamCreate", NULL);
	*out = cs;
	return TILERT_OK;
}

/* Waits for the work of a CUstream; for the default stream (NULL), for every launch of the
 * context (the legacy default stream orders after all of them anyway). */
static int cuda_stream_sync(void *stream)
{
	CUresult r;
	int rc;

	if (!stream && !atomic_load(&gpu_launched))
		return TILERT_OK;
	if ((rc = driver_enter("cannot synchronize a stream")) != TILERT_OK)
		return rc;
	r = stream ? cu.stream_synchronize(stream) : cu.ctx_synchronize();
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r,
		               stream ? "cuStreamSynchronize" : "cuCtxSynchronize", NULL);
	return TILERT_OK;
}

static void cuda_stream_free(void *stream)
{
	if (driver_enter("cannot destroy a stream") == TILERT_OK)
		cu.stream_destroy(stream);
}

/* ---- Events (tilert_event_record, tilert_event_elapsed_ms) ---- */

static int cuda_event_create(void **out)
{
	CUevent e;
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot create an event")) != TILERT_OK)
		return rc;
	if ((r = cu.event_create(&e, 0)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuEventCreate", NULL);
	*out = e;
	return TILERT_OK;
}

static int cuda_event_record(void *ev, void *stream)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot record an event")) != TILERT_OK)
		return rc;
	if ((r = cu.event_record(ev, stream)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuEventRecord", NULL);
	return TILERT_OK;
}

static int cuda_event_elapsed(void *start, void *end, float *ms)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot time events")) != TILERT_OK)
		return rc;
	if ((r = cu.event_synchronize(end)) != CUDA_SUCCESS)
		return cu_fail(TILERT_ERR_LAUNCH, r, "cuEventSynchronize", NULL);
	if ((r = cu.event_elapsed(ms, start, end)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuEventElapsedTime", NULL);
	return TILERT_OK;
}

static void cuda_event_free(void *ev)
{
	if (driver_enter("cannot destroy an event") == TILERT_OK)
		cu.event_destroy(ev);
}

/* ---- Device memory ---- */

static CUdeviceptr dptr(const void *p)
{
	return (CUdeviceptr)(uintptr_t)p;
}

static int cuda_mem_alloc(size_t bytes, void **out)
{
	CUdeviceptr p;
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot allocate device memory")) != TILERT_OK)
		return rc;
	if ((r = cu.mem_alloc(&p, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemAlloc", "allocating %zu bytes", bytes);
	*out = (void *)(uintptr_t)p;
	return TILERT_OK;
}

static int cuda_mem_free(void *dev)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot free device memory")) != TILERT_OK)
		return rc;
	if ((r = cu.mem_free(dptr(dev))) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemFree", "freeing %p", dev);
	return TILERT_OK;
}

static int cuda_memcpy_htod(void *dst_dev, const void *src, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot copy to the device")) != TILERT_OK)
		return rc;
	if ((r = cu.memcpy_htod(dptr(dst_dev), src, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemcpyHtoD", "copying %zu bytes to %p", bytes,
		               dst_dev);
	return TILERT_OK;
}

static int cuda_memcpy_dtoh(void *dst, const void *src_dev, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot copy from the device")) != TILERT_OK)
		return rc;
	if ((r = cu.memcpy_dtoh(dst, dptr(src_dev), bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemcpyDtoH", "copying %zu bytes from %p",
		               bytes, src_dev);
	return TILERT_OK;
}

static int cuda_memset_d8(void *dev, int value, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot set device memory")) != TILERT_OK)
		return rc;
	if ((r = cu.memset_d8(dptr(dev), (unsigned char)value, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemsetD8", "setting %zu bytes at %p", bytes, dev);
	return TILERT_OK;
}

const tilert_gpu tilert_gpu_cuda = {
	.name = "CUDA",
	.unusable = cuda_unusable,
	.enter = driver_enter,
	.load = cuda_load,
	.unload = cuda_unload,
	.kernel_make = kernel_make,
	.launch = cuda_launch,
	.stream_create = cuda_stream_create,
	.stream_sync = cuda_stream_sync,
	.stream_free = cuda_stream_free,
	.event_create = cuda_event_create,
	.event_record = cuda_event_record,
	.event_elapsed = cuda_event_elapsed,
	.event_free = cuda_event_free,
	.mem_alloc = cuda_mem_alloc,
	.mem_free = cuda_mem_free,
	.memcpy_htod = cuda_memcpy_htod,
	.memcpy_dtoh = cuda_memcpy_dtoh,
	.memset_d8 = cuda_memset_d8,
};
