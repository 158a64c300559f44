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
 * module. The loader scans the image for candidates (`.entry NAME` in PTX text, STT_FUNC
 * symbols in a cubin's symbol table) and keeps those with a NAME__meta global; a name the
 * scan missed is still found by tilert_module_get_kernel, through the driver. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
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
typedef enum CUjit_option_enum {
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
} CUjit_option;
typedef enum CUfunction_attribute_enum {
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
} CUfunction_attribute;
typedef enum CUdevice_attribute_enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} CUdevice_attribute;
enum { CU_STREAM_DEFAULT = 0 };
#endif

/* Dynamic shared memory beyond this needs CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES. */
enum { SHARED_DEFAULT_MAX = 48 * 1024, GRID_YZ_MAX = 65535, JIT_LOG_SIZE = 2048,
       META_MAX = 1 << 20 /* bytes of a NAME__meta: far more than any metadata needs */ };

static const char META_SUFFIX[] = "__meta";
enum { META_SUFFIX_LEN = sizeof META_SUFFIX - 1 };

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
} drv;

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
/* Guards the lazily made CUstreams and each module's list of kernels found by name. */
static pthread_mutex_t cuda_lock = PTHREAD_MUTEX_INITIALIZER;
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
	char where[300] = "", text[300];
	va_list ap;

	if (context) {
		va_start(ap, context);
		vsnprintf(where, sizeof where, context, ap);
		va_end(ap);
	}
	return tilert_fail(code, "%s%s%s: %s", where, *where ? ": " : "", call,
	                   result_text(r, text, sizeof text));
}

/* Parses TILERT_CUDA_DEVICE: a device number, 0 when unset. */
static int device_ordinal(int *ordinal)
{
	const char *v = getenv("TILERT_CUDA_DEVICE");
	char *end;
	long n;

	*ordinal = 0;
	if (!v || !*v)
		return 1;
	n = strtol(v, &end, 10);
	if (*end || n < 0 || n > 1024)
		return 0;
	*ordinal = (int)n;
	return 1;
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
	if (!device_ordinal(&drv.ordinal)) {
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

int tilert_has_cuda(void)
{
	pthread_once(&drv_once, driver_init);
	return drv.ready;
}

/* ---- Finding kernel names in the images ---- */

void tilert_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A list of names under construction. */
typedef struct name_list {
	char **v;
	size_t n, cap;
} name_list;

static int names_add(name_list *l, const char *name, size_t len)
{
	char **nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		if (!(nv = realloc(l->v, l->cap * sizeof *nv)))
			return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
		l->v = nv;
	}
	if (!(l->v[l->n] = strndup(name, len)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	l->n++;
	return TILERT_OK;
}

/* Sorts the list, drops repeats, and hands it over. */
static int names_finish(name_list *l, char ***names, size_t *n)
{
	size_t kept = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, name_cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (kept && strcmp(l->v[kept - 1], l->v[i]) == 0)
			free(l->v[i]);
		else
			l->v[kept++] = l->v[i];
	}
	*names = l->v;
	*n = kept;
	return TILERT_OK;
}

/* `.entry NAME` outside comments and strings; NAME a C identifier (tilecc's kernel names
 * are; PTX allows '$' and '%' as well, which no tilecc kernel has). */
int tilert_cuda_scan_ptx(const char *text, size_t size, char ***names, size_t *n)
{
	name_list l = { 0 };
	size_t i = 0;
	int rc;

	*names = NULL;
	*n = 0;
	while (i < size && text[i]) {
		if (size - i >= 2 && text[i] == '/' && text[i + 1] == '/') {
			while (i < size && text[i] && text[i] != '\n')
				i++;
		} else if (size - i >= 2 && text[i] == '/' && text[i + 1] == '*') {
			for (i += 2; i < size && text[i] && !(size - i >= 2 && text[i] == '*' &&
			                                      text[i + 1] == '/'); i++)
				;
			i = i < size && text[i] ? i + 2 : i;
		} else if (text[i] == '"') {
			for (i++; i < size && text[i] && text[i] != '"' && text[i] != '\n'; i++)
				;
			i += i < size && text[i] == '"';
		} else if (size - i > 6 && memcmp(text + i, ".entry", 6) == 0 &&
		           (i == 0 || !is_ident_char(text[i - 1])) &&
		           (text[i + 6] == ' ' || text[i + 6] == '\t' || text[i + 6] == '\n' ||
		            text[i + 6] == '\r')) {
			size_t start;

			for (i += 6; i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
			                          text[i] == '\r'); i++)
				;
			start = i;
			if (i < size && is_ident_start(text[i]))
				while (i < size && is_ident_char(text[i]))
					i++;
			if (i > start && (i == size || (text[i] != '$' && text[i] != '%')) &&
			    (rc = names_add(&l, text + start, i - start)) != TILERT_OK) {
				tilert_names_free(l.v, l.n);
				return rc;
			}
		} else {
			i++;
		}
	}
	return names_finish(&l, names, n);
}

/* Does [off, off+len) lie inside size bytes? Overflow-safe. */
static int in_image(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* The defined STT_FUNC symbols NAME of the cubin's symbol tables that have a defined
 * STT_OBJECT NAME__meta beside them. The image has been accepted by the driver, but is
 * checked here as if it had not. */
int tilert_cuda_scan_cubin(const unsigned char *data, size_t size, char ***names, size_t *n)
{
	name_list funcs = { 0 }, metas = { 0 }, kernels = { 0 };
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	Elf64_Sym sym;
	int rc = TILERT_OK;

	*names = NULL;
	*n = 0;
	if (size < sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT, "truncated cubin: %zu bytes", size);
	memcpy(&eh, data, sizeof eh);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return tilert_fail(TILERT_ERR_FORMAT, "not a 64-bit little-endian cubin");
	if (eh.e_shnum && (eh.e_shentsize != sizeof sh ||
	                   !in_image(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof sh, size)))
		return tilert_fail(TILERT_ERR_FORMAT, "truncated cubin: section headers beyond its end");
	for (unsigned s = 0; s < eh.e_shnum && rc == TILERT_OK; s++) {
		memcpy(&sh, data + eh.e_shoff + (uint64_t)s * sizeof sh, sizeof sh);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_entsize != sizeof sym || sh.sh_link >= eh.e_shnum ||
		    !in_image(sh.sh_offset, sh.sh_size, size)) {
			rc = tilert_fail(TILERT_ERR_FORMAT, "bad cubin symbol table");
			break;
		}
		memcpy(&strsh, data + eh.e_shoff + (uint64_t)sh.sh_link * sizeof strsh, sizeof strsh);
		if (strsh.sh_type != SHT_STRTAB || !in_image(strsh.sh_offset, strsh.sh_size, size)) {
			rc = tilert_fail(TILERT_ERR_FORMAT, "bad cubin string table");
			break;
		}
		for (uint64_t i = 1; i < sh.sh_size / sizeof sym && rc == TILERT_OK; i++) {
			const char *name;
			size_t len;
			int type;

			memcpy(&sym, data + sh.sh_offset + i * sizeof sym, sizeof sym);
			type = ELF64_ST_TYPE(sym.st_info);
			if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strsh.sh_size ||
			    (type != STT_FUNC && type != STT_OBJECT))
				continue;
			name = (const char *)data + strsh.sh_offset + sym.st_name;
			len = strnlen(name, strsh.sh_size - sym.st_name);
			if (len == strsh.sh_size - sym.st_name)
				continue; /* not terminated inside the table */
			if (type == STT_FUNC && len > 0 && is_ident_start(name[0]))
				rc = names_add(&funcs, name, len);
			else if (type == STT_OBJECT && len > META_SUFFIX_LEN &&
			         memcmp(name + len - META_SUFFIX_LEN, META_SUFFIX, META_SUFFIX_LEN) == 0)
				rc = names_add(&metas, name, len - META_SUFFIX_LEN);
		}
	}
	if (rc == TILERT_OK && metas.n)
		qsort(metas.v, metas.n, sizeof *metas.v, name_cmp);
	for (size_t i = 0; i < funcs.n && rc == TILERT_OK; i++)
		if (metas.n && bsearch(&funcs.v[i], metas.v, metas.n, sizeof *metas.v, name_cmp))
			rc = names_add(&kernels, funcs.v[i], strlen(funcs.v[i]));
	tilert_names_free(funcs.v, funcs.n);
	tilert_names_free(metas.v, metas.n);
	if (rc != TILERT_OK) {
		tilert_names_free(kernels.v, kernels.n);
		return rc;
	}
	return names_finish(&kernels, names, n);
}

/* ---- Modules and kernels ---- */

/* A positive integer metadata value, at most max; *v is left alone when the key is absent. */
static int meta_uint(const tilert_kernel *k, const char *key, unsigned long max, unsigned *v)
{
	const char *s = tilert_kernel_meta(k, key);
	unsigned long n;
	char *end;

	if (!s)
		return TILERT_OK;
	n = strtoul(s, &end, 10);
	if (end == s || *end || *s == '-' || n > max)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad %s=%s", k->name, key, s);
	*v = (unsigned)n;
	return TILERT_OK;
}

/* The launch geometry from the metadata: block= ("x,y,z"; when absent, 32 * num_warps
 * threads, num_warps 4 by default) and shared= (0 by default), checked against the
 * device's limits. */
static int kernel_geometry(tilert_kernel *k)
{
	const char *b = tilert_kernel_meta(k, "block");
	unsigned warps = 4;
	int rc;

	k->block[0] = k->block[1] = k->block[2] = 1;
	if ((rc = meta_uint(k, "shared", INT32_MAX, &k->shared)) != TILERT_OK)
		return rc;
	if (!b) {
		if ((rc = meta_uint(k, "num_warps", 32, &warps)) != TILERT_OK)
			return rc;
		k->block[0] = 32 * (warps ? warps : 1);
	} else {
		const char *s = b;

		for (int axis = 0; axis < 3 && *s; axis++) {
			unsigned long n;
			char *end;

			n = strtoul(s, &end, 10);
			if (end == s || *s == '-' || n == 0 || n > 1024 || (*end && *end != ','))
				return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad block=%s", k->name, b);
			k->block[axis] = (unsigned)n;
			s = *end ? end + 1 : end;
			if (axis == 2 && *s)
				return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad block=%s", k->name, b);
		}
	}
	if ((unsigned long)k->block[0] * k->block[1] * k->block[2] > (unsigned long)drv.max_threads)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s': block=%u,%u,%u is more threads than device %d allows "
		                   "(%d)", k->name, k->block[0], k->block[1], k->block[2], drv.ordinal,
		                   drv.max_threads);
	if (k->shared > (unsigned)drv.max_shared)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s' needs %u bytes of shared memory; device %d allows %d",
		                   k->name, k->shared, drv.ordinal, drv.max_shared);
	return TILERT_OK;
}

/* Builds the record of kernel name of a loaded GPU module: NAME__meta read from device
 * memory and parsed, the function NAME, the geometry. TILERT_ERR_NOT_FOUND, without a
 * message, when there is no NAME__meta (not a tilecc kernel). */
static int kernel_make(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_kernel *k;
	char sym[300];
	CUfunction f;
	CUdeviceptr p;
	size_t bytes;
	CUresult r;
	int rc;

	*out = NULL;
	if (snprintf(sym, sizeof sym, "%s%s", name, META_SUFFIX) >= (int)sizeof sym)
		return TILERT_ERR_NOT_FOUND;
	r = cu.module_global(&p, &bytes, mod->gpu_module, sym);
	if (r == CUDA_ERROR_NOT_FOUND)
		return TILERT_ERR_NOT_FOUND;
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuModuleGetGlobal", "kernel '%s'", name);
	if (bytes > META_MAX)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is %zu bytes (at most %d)", name,
		                   sym, bytes, META_MAX);
	if (!(k = calloc(1, sizeof *k)) || !(k->name = strdup(name)) ||
	    (bytes && !(k->text = malloc(bytes)))) {
		tilert_kernel_free(k);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading kernel '%s'", name);
	}
	k->mod = mod;
	if (bytes && (r = cu.memcpy_dtoh(k->text, p, bytes)) != CUDA_SUCCESS) {
		rc = cu_fail(result_code(r, 0), r, "cuMemcpyDtoH", "kernel '%s': reading %s", name, sym);
		goto fail;
	}
	if (!bytes || !memchr(k->text, 0, bytes)) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is not a NUL-terminated string",
		                 name, sym);
		goto fail;
	}
	if ((rc = tilert_meta_parse(k, "nvptx")) != TILERT_OK)
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
	if ((rc = kernel_geometry(k)) != TILERT_OK)
		goto fail;
	*out = k;
	return TILERT_OK;
fail:
	tilert_kernel_free(k);
	return rc;
}

int tilert_cuda_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod)
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
	if ((rc = driver_enter(why)) != TILERT_OK)
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
		rc = tilert_cuda_scan_ptx((const char *)image, size, &names, &nnames);
	else
		rc = tilert_cuda_scan_cubin(image, size, &names, &nnames);
	free(image);
	if (rc != TILERT_OK)
		return rc;
	if (nnames && !(mod->kernels = calloc(nnames, sizeof *mod->kernels))) {
		tilert_names_free(names, nnames);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a %s", what);
	}
	for (size_t i = 0; i < nnames; i++) {
		rc = kernel_make(mod, names[i], &mod->kernels[mod->nkernels]);
		if (rc == TILERT_ERR_NOT_FOUND)
			continue; /* a function of the module, not a tilecc kernel */
		if (rc != TILERT_OK)
			break;
		mod->nkernels++;
	}
	tilert_names_free(names, nnames);
	if (rc != TILERT_OK && rc != TILERT_ERR_NOT_FOUND)
		return rc;
	if (mod->nkernels == 0)
		return tilert_fail(TILERT_ERR_FORMAT, "no tilecc kernels in this %s (no kernel NAME "
		                   "with a global NAME__meta)", what);
	return TILERT_OK;
}

void tilert_cuda_unload(tilert_module *mod)
{
	tilert_kernel *k, *next;

	for (k = mod->extra; k; k = next) {
		next = k->next;
		tilert_kernel_free(k);
	}
	mod->extra = NULL;
	if (mod->gpu_module && driver_enter("cannot unload a GPU module") == TILERT_OK)
		cu.module_unload(mod->gpu_module);
	mod->gpu_module = NULL;
}

int tilert_cuda_find_kernel(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_kernel *k;
	int rc;

	if (!mod->gpu_module || !is_ident_start(name[0]))
		return TILERT_ERR_NOT_FOUND;
	for (const char *c = name; *c; c++)
		if (!is_ident_char(*c))
			return TILERT_ERR_NOT_FOUND;
	if ((rc = driver_enter("cannot look up a GPU kernel")) != TILERT_OK)
		return rc;
	pthread_mutex_lock(&cuda_lock);
	for (k = mod->extra; k && strcmp(k->name, name) != 0; k = k->next)
		;
	rc = TILERT_OK;
	if (!k && (rc = kernel_make(mod, name, &k)) == TILERT_OK) {
		k->next = mod->extra;
		mod->extra = k;
	}
	pthread_mutex_unlock(&cuda_lock);
	if (rc == TILERT_OK)
		*out = k;
	return rc;
}

/* ---- Launches and streams ---- */

/* The CUstream of s, made on first use; NULL for the default stream. */
static int stream_get(tilert_stream *s, CUstream *out)
{
	CUresult r = CUDA_SUCCESS;

	*out = NULL;
	if (!s)
		return TILERT_OK;
	pthread_mutex_lock(&cuda_lock);
	if (!s->gpu_stream) {
		CUstream cs;

		if ((r = cu.stream_create(&cs, CU_STREAM_DEFAULT)) == CUDA_SUCCESS)
			s->gpu_stream = cs;
	}
	*out = s->gpu_stream;
	pthread_mutex_unlock(&cuda_lock);
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuStreamCreate", NULL);
	return TILERT_OK;
}

int tilert_cuda_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args)
{
	CUstream cs;
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
		atomic_store(&k->shared_opted_in, 1);
	}
	if ((rc = stream_get(s, &cs)) != TILERT_OK)
		return rc;
	r = cu.launch_kernel(k->gpu_func, grid.x, grid.y, grid.z, k->block[0], k->block[1],
	                     k->block[2], k->shared, cs, args, NULL);
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuLaunchKernel", "kernel '%s' (grid %ux%ux%u)",
		               k->name, (unsigned)grid.x, (unsigned)grid.y, (unsigned)grid.z);
	atomic_store(&gpu_launched, 1);
	return TILERT_OK;
}

/* Waits for the GPU work of s: its CUstream if it has one; for the default stream, every
 * launch of the context (the legacy default stream orders after all of them anyway). A
 * no-op, that never starts the driver, when no GPU work can be pending. */
int tilert_cuda_stream_sync(tilert_stream *s)
{
	CUstream cs = NULL;
	CUresult r;
	int rc;

	if (s) {
		pthread_mutex_lock(&cuda_lock);
		cs = s->gpu_stream;
		pthread_mutex_unlock(&cuda_lock);
		if (!cs)
			return TILERT_OK;
	} else if (!atomic_load(&gpu_launched)) {
		return TILERT_OK;
	}
	if ((rc = driver_enter("cannot synchronize a stream")) != TILERT_OK)
		return rc;
	r = cs ? cu.stream_synchronize(cs) : cu.ctx_synchronize();
	if (r != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, cs ? "cuStreamSynchronize" : "cuCtxSynchronize",
		               NULL);
	return TILERT_OK;
}

int tilert_cuda_stream_destroy(tilert_stream *s)
{
	int rc = tilert_cuda_stream_sync(s);

	if (s->gpu_stream && driver_enter("cannot destroy a stream") == TILERT_OK)
		cu.stream_destroy(s->gpu_stream);
	s->gpu_stream = NULL;
	return rc;
}

/* ---- Device memory ---- */

static CUdeviceptr dptr(const void *p)
{
	return (CUdeviceptr)(uintptr_t)p;
}

int tilert_device_alloc(size_t bytes, void **out)
{
	CUdeviceptr p;
	CUresult r;
	int rc;

	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL device pointer out-pointer");
	if ((rc = driver_enter("cannot allocate device memory")) != TILERT_OK)
		return rc;
	if (bytes == 0) {
		*out = NULL;
		return TILERT_OK;
	}
	if ((r = cu.mem_alloc(&p, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemAlloc", "allocating %zu bytes", bytes);
	*out = (void *)(uintptr_t)p;
	return TILERT_OK;
}

int tilert_device_free(void *dev)
{
	CUresult r;
	int rc;

	if (!dev)
		return TILERT_OK;
	if ((rc = driver_enter("cannot free device memory")) != TILERT_OK)
		return rc;
	if ((r = cu.mem_free(dptr(dev))) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemFree", "freeing %p", dev);
	return TILERT_OK;
}

int tilert_memcpy_htod(void *dst_dev, const void *src, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot copy to the device")) != TILERT_OK)
		return rc;
	if (!bytes)
		return TILERT_OK;
	if (!dst_dev || !src)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL %s copying %zu bytes to the device",
		                   src ? "destination" : "source", bytes);
	if ((r = cu.memcpy_htod(dptr(dst_dev), src, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemcpyHtoD", "copying %zu bytes to %p", bytes,
		               dst_dev);
	return TILERT_OK;
}

int tilert_memcpy_dtoh(void *dst, const void *src_dev, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot copy from the device")) != TILERT_OK)
		return rc;
	if (!bytes)
		return TILERT_OK;
	if (!dst || !src_dev)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "NULL %s copying %zu bytes from the device",
		                   dst ? "source" : "destination", bytes);
	if ((r = cu.memcpy_dtoh(dst, dptr(src_dev), bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemcpyDtoH", "copying %zu bytes from %p",
		               bytes, src_dev);
	return TILERT_OK;
}

int tilert_memset_d8(void *dev, int value, size_t bytes)
{
	CUresult r;
	int rc;

	if ((rc = driver_enter("cannot set device memory")) != TILERT_OK)
		return rc;
	if (!bytes)
		return TILERT_OK;
	if (!dev)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL device pointer setting %zu bytes",
		                   bytes);
	if ((r = cu.memset_d8(dptr(dev), (unsigned char)value, bytes)) != CUDA_SUCCESS)
		return cu_fail(result_code(r, 0), r, "cuMemsetD8", "setting %zu bytes at %p", bytes, dev);
	return TILERT_OK;
}
