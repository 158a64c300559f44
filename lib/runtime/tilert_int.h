/* tilert_int.h: what the files of libtilert share: the module and kernel records, the
 * error setter, and the entry points of each loader path and of the pool.
 *
 * Ownership: a module owns its kernels, their metadata text and parameter tables, and the
 * dlopen handle. Nothing here is visible outside the library (-fvisibility=hidden). */
#ifndef TILECC_RUNTIME_TILERT_INT_H
#define TILECC_RUNTIME_TILERT_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "tilecc/tilert.h"

/* The per-program entry and the grid entry of a CPU kernel (docs/abi.md). */
typedef void (*tilert_program_fn)(void);
typedef void (*tilert_grid_fn)(void **args, int32_t nx, int32_t ny, int32_t nz, int64_t first,
                               int64_t last);

/* One metadata line, split in place in the kernel's copy of the text. */
typedef struct tilert_meta_entry {
	const char *key, *value;
} tilert_meta_entry;

struct tilert_kernel {
	tilert_module *mod;
	char *name;
	char *text; /* copy of NAME__meta, split into the entries below */
	tilert_meta_entry *meta;
	size_t nmeta;
	char *ptext; /* copy of the params value, split into the table below */
	tilert_param_info *params;
	size_t nparams;
	tilert_program_fn program; /* NAME */
	tilert_grid_fn grid;       /* NAME__grid, or NULL: launches take the ffi path */
	void *ffi;                 /* the prepared libffi call, owned here (ffi.c), or NULL */
	/* GPU kernels (cuda.c) */
	void *gpu_func;            /* CUfunction, owned by the module's CUmodule */
	unsigned block[3];         /* threads per program, from block= (or num_warps) */
	unsigned shared;           /* bytes of dynamic shared memory, from shared= */
	atomic_int shared_opted_in; /* the > 48 KiB attribute was set */
	tilert_kernel *next;       /* the module's list of kernels found by name only */
};

struct tilert_module {
	tilert_format format;
	void *handle; /* dlopen handle of a host module */
	int memfd;    /* the memfd a host module was loaded from memory through, or -1 */
	tilert_kernel **kernels; /* sorted by name; fixed once loaded */
	size_t nkernels;
	void *gpu_module;        /* CUmodule of a cubin or PTX module */
	tilert_kernel *extra;    /* GPU kernels found by name but not listed (cuda.c's lock) */
};

/* A stream serves CPU and GPU launches alike; the CUstream is made on its first GPU launch. */
struct tilert_stream {
	unsigned launches; /* launches made on it, for debugging */
	void *gpu_stream;  /* CUstream, or NULL before the first GPU launch (cuda.c's lock) */
};

/* error.c: records the thread's message and returns code, so that callers can
 * `return tilert_fail(TILERT_ERR_FORMAT, "...")`. */
int tilert_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* meta.c: parses k->text (NUL-terminated, owned by k) into k->meta and k->params; checks
 * that the name matches k->name and the target matches want_target. */
int tilert_meta_parse(tilert_kernel *k, const char *want_target);
/* module.c: the name of a target family for an ELF e_machine ("x86-64", "riscv64", ...). */
const char *tilert_machine_name(unsigned machine);
/* The e_machine this build runs on. */
unsigned tilert_host_machine(void);

/* host.c: validates the ELF image and loads it (from path when non-NULL, else from the
 * bytes through a memfd) into mod, filling its kernels. */
int tilert_host_load(const unsigned char *data, size_t size, const char *path, tilert_module *mod);
void tilert_host_unload(tilert_module *mod);

/* cuda.c: the NVIDIA path. Loads a cubin or PTX into mod (TILERT_ERR_NO_DRIVER without a
 * usable driver) and unloads it; finds a kernel the load did not list (TILERT_ERR_NOT_FOUND,
 * with no message, when there is none); launches a checked GPU kernel; waits for the GPU
 * work queued on s (NULL: the default stream); synchronizes and frees the CUstream of s. */
int tilert_cuda_load(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod);
void tilert_cuda_unload(tilert_module *mod);
int tilert_cuda_find_kernel(tilert_module *mod, const char *name, tilert_kernel **out);
int tilert_cuda_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args);
int tilert_cuda_stream_sync(tilert_stream *s);
int tilert_cuda_stream_destroy(tilert_stream *s);
/* The kernel names a PTX text (.entry NAME) or a cubin (STT_FUNC NAME with an object
 * NAME__meta) holds: sorted, without repeats, malloc'ed; freed with tilert_names_free. */
int tilert_cuda_scan_ptx(const char *text, size_t size, char ***names, size_t *n);
int tilert_cuda_scan_cubin(const unsigned char *data, size_t size, char ***names, size_t *n);
void tilert_names_free(char **names, size_t n);

/* hip.c: the AMD path (no driver yet). */
int tilert_hip_load(const unsigned char *data, size_t size, tilert_module *mod);

/* module.c: frees one kernel record and what it owns. */
void tilert_kernel_free(tilert_kernel *k);

/* ffi.c: prepares the per-program call of k (a no-op without libffi), frees it, and runs
 * programs first..last-1 through it. */
int tilert_ffi_prepare(tilert_kernel *k);
void tilert_ffi_free(tilert_kernel *k);
size_t tilert_ffi_scratch(const tilert_kernel *k);
void tilert_ffi_run(const tilert_kernel *k, void **args, void **scratch, const int32_t nprog[3],
                    int64_t first, int64_t last);

/* pool.c: calls fn(ctx, worker, first, last) over disjoint chunks covering 0..total-1, on at
 * most tilert_get_num_threads() threads (worker < that count), the caller included; returns
 * when every chunk has run. */
typedef void (*tilert_range_fn)(void *ctx, unsigned worker, int64_t first, int64_t last);
void tilert_pool_run(int64_t total, unsigned nthreads, tilert_range_fn fn, void *ctx);

#endif
