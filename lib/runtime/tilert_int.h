/* tilert_int.h: what the files of libtilert share: the module and kernel records, the
 * error setter, and the entry points of each loader path and of the pool.
 *
 * Ownership: a module owns its kernels, their metadata text and parameter tables, and its
 * mapped image (host) or driver module (GPU). Nothing here is visible outside the library (-fvisibility=hidden). */
#ifndef TILECC_RUNTIME_TILERT_INT_H
#define TILECC_RUNTIME_TILERT_INT_H

#include <elf.h>
#include <stdarg.h>
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
	uint32_t *meta_index;      /* hash set of the keys: entry index + 1, or 0 (meta.c) */
	size_t meta_index_mask;    /* its size - 1, a power of two minus one */
	char *ptext; /* copy of the params value, split into the table below */
	tilert_param_info *params;
	size_t nparams;
	tilert_program_fn program; /* NAME */
	tilert_grid_fn grid;       /* NAME__grid, or NULL: launches take the ffi path */
	void *ffi;                 /* the prepared libffi call, owned here (ffi.c), or NULL */
	/* GPU kernels (cuda.c, hip.c) */
	void *gpu_func;            /* CUfunction or hipFunction_t, owned by the module */
	unsigned block[3];         /* threads per program, from block= (or num_warps) */
	unsigned shared;           /* bytes of dynamic shared memory, from shared= */
	atomic_int shared_opted_in; /* the > 48 KiB attribute was set (CUDA) */
	tilert_kernel *next;       /* the module's list of kernels found by name only */
};

struct tilert_module {
	tilert_format format;
	struct tilert_elf_image *host; /* a host module's mapped image (elf_load.c) */
	tilert_kernel **kernels; /* sorted by name; fixed once loaded */
	size_t nkernels;
	const struct tilert_gpu *gpu; /* the driver of a GPU module, else NULL */
	void *gpu_module;        /* CUmodule of a cubin or PTX module, hipModule_t of an HSACO */
	void *gpu_image;         /* the HSACO, kept while it is loaded (hip.c) */
	tilert_kernel *extra;    /* GPU kernels found by name but not listed (gpu.c's lock) */
};

/* A stream serves CPU and GPU launches alike; the driver's stream (CUstream, hipStream_t)
 * is made on its first GPU launch, and belongs to that launch's driver. */
struct tilert_stream {
	unsigned launches; /* launches made on it, for debugging */
	const struct tilert_gpu *gpu; /* the driver that made gpu_stream (gpu.c's lock) */
	void *gpu_stream;  /* NULL before the first GPU launch (gpu.c's lock) */
};

/* error.c: records the thread's message and returns code, so that callers can
 * `return tilert_fail(TILERT_ERR_FORMAT, "...")`. */
/* A failed driver call: records "[context: ]call: err" (context a format for ap, or
 * NULL) and returns code. */
int tilert_fail_call(int code, const char *call, const char *err, const char *context, va_list ap);
int tilert_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* select.c: tilert_variant_load for the device dev with the loader load_data (which
 * tilert_variant_load passes as tilert_module_load_data, and tests fake): the candidates for
 * dev in order (tilert_variant_select's rules), each loaded in turn while the loader refuses
 * the image (TILERT_ERR_FORMAT); the error of the last when none loads, naming each. */
typedef int (*tilert_load_fn)(const void *data, size_t size, tilert_module **out);
int tilert_variant_load_on(const tilert_variant *v, size_t n, const char *name,
                           const tilert_device_info *dev, tilert_load_fn load_data,
                           tilert_module **mod, tilert_kernel **k, size_t *chosen);

/* meta.c: parses k->text (NUL-terminated, owned by k) into k->meta and k->params; checks
 * that the name matches k->name and the target matches want_target. */
int tilert_meta_parse(tilert_kernel *k, const char *want_target);
/* module.c: the name of a target family for an ELF e_machine ("x86-64", "riscv64", ...). */
const char *tilert_machine_name(unsigned machine);
/* The e_machine this build runs on. */
unsigned tilert_host_machine(void);

/* host.c: validates the ELF image, maps it (elf_load.c) into mod and fills its kernels. */
int tilert_host_load(const unsigned char *data, size_t size, tilert_module *mod);
void tilert_host_unload(tilert_module *mod);

/* elf_check.c: what the validation of a CPU shared object found, for elf_load.c: the
 * loadable segments and the tables, as file offsets into the checked bytes. */
enum { TILERT_ELF_MAX_LOADS = 16, TILERT_ELF_MAX_NEEDED = 16, TILERT_ELF_MAX_VERSIONS = 64 };
typedef struct tilert_elf_segment {
	uint64_t vaddr, memsz, offset, filesz;
	unsigned flags; /* PF_R, PF_W, PF_X */
} tilert_elf_segment;
typedef struct tilert_elf_layout {
	unsigned machine;
	tilert_elf_segment load[TILERT_ELF_MAX_LOADS]; /* sorted, not sharing pages */
	unsigned nload;
	uint64_t lo, hi;           /* the page-rounded span of the segments' addresses */
	uint64_t align;            /* the largest segment alignment */
	uint64_t relro, relro_size; /* PT_GNU_RELRO, or 0 */
	uint64_t dynamic, ndynamic; /* file offset and entry count of PT_DYNAMIC */
	uint64_t strtab, strsz;    /* every offset below strsz names a NUL-terminated string */
	uint64_t symtab, nsyms;
	uint64_t rela[2], nrela[2]; /* DT_RELA and DT_JMPREL */
	uint64_t relr, nrelr;
	uint64_t versym;           /* 0 when none */
	uint32_t needed[TILERT_ELF_MAX_NEEDED]; /* DT_NEEDED names, string table offsets */
	unsigned nneeded;
	uint32_t version[TILERT_ELF_MAX_VERSIONS]; /* an import version's name, by index (0: none) */
	unsigned char version_lib[TILERT_ELF_MAX_VERSIONS]; /* its DT_NEEDED, by index */
} tilert_elf_layout;
/* Checks the bytes of a CPU shared object (the accepted subset is in elf_check.c). */
int tilert_elf_check(const unsigned char *data, size_t size, tilert_elf_layout *l);
/* Dynamic symbol i (< l->nsyms) of checked bytes. */
void tilert_elf_sym_get(const unsigned char *data, const tilert_elf_layout *l, uint64_t i, Elf64_Sym *s);
/* Is [vaddr, vaddr+len) inside the memory of one PT_LOAD with all of flags (PF_*)? */
int tilert_elf_inside(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len, unsigned flags);
int tilert_elf_writable(const tilert_elf_layout *l, uint64_t vaddr, uint64_t len);
/* What a relocation type of machine does, or -1 when it is not accepted. */
enum { TILERT_RELOC_NONE, TILERT_RELOC_RELATIVE, TILERT_RELOC_SYM_ADDEND, TILERT_RELOC_SLOT };
int tilert_elf_reloc_kind(unsigned machine, uint32_t type);

/* elf_load.c: a checked object mapped into memory and relocated, none of its code run. */
typedef struct tilert_elf_image tilert_elf_image;
int tilert_elf_map(const unsigned char *data, size_t size, const tilert_elf_layout *l,
                   tilert_elf_image **out);
void tilert_elf_unmap(tilert_elf_image *img);
/* A defined, exported symbol of the image by name, and where its st_size bytes lie; NULL
 * when there is none or when they are not inside one segment with all of flags (PF_*).
 * *size, when size is not NULL, gets st_size; *found is set when the symbol exists. */
void *tilert_elf_symbol(const tilert_elf_image *img, const char *name, unsigned flags,
                        uint64_t *size, int *found);
/* The names of its defined, exported symbols, in name order: i < count. */
size_t tilert_elf_num_exports(const tilert_elf_image *img);
const char *tilert_elf_export_name(const tilert_elf_image *img, size_t i);

/* The name of the symbol that holds kernel NAME's metadata is NAME TILERT_META_SUFFIX. */
#define TILERT_META_SUFFIX "__meta"

/* A GPU driver path: cuda.c (cubin, PTX) and hip.c (HSACO) each fill one, and module.c,
 * launch.c and gpu.c call through it. Every function fails with TILERT_ERR_NO_DRIVER, and
 * a message, when the driver is not usable. A device pointer or stream is the driver's
 * own (CUdeviceptr, hipStream_t ...) as void *. */
typedef struct tilert_gpu {
	const char *name; /* "CUDA", "HIP" */
	/* Initializes the driver once: NULL when usable, else why not (a static string). */
	const char *(*unusable)(void);
	/* Makes the driver usable on the calling thread, or fails with "what: why". */
	int (*enter)(const char *what);
	/* Loads the image into mod->gpu_module and fills mod->kernels; unloads it. */
	int (*load)(const unsigned char *data, size_t size, tilert_format f, tilert_module *mod);
	void (*unload)(tilert_module *mod);
	/* The record of kernel name of a loaded module (TILERT_ERR_NOT_FOUND, with no message,
	 * when it has no NAME__meta); the caller owns it. */
	int (*kernel_make)(tilert_module *mod, const char *name, tilert_kernel **out);
	/* Queues a checked launch on s (NULL: the default stream). */
	int (*launch)(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args);
	/* Makes a stream; waits for one (NULL: every launch of the driver; a no-op that starts
	 * nothing when there has been none); frees one. */
	int (*stream_create)(void **out);
	int (*stream_sync)(void *stream);
	void (*stream_free)(void *stream);
	/* Events (event.c): makes one; records it on a stream (NULL: the default stream); the
	 * milliseconds from start to end, after waiting for end; frees one. */
	int (*event_create)(void **out);
	int (*event_record)(void *ev, void *stream);
	int (*event_elapsed)(void *start, void *end, float *ms);
	void (*event_free)(void *ev);
	/* The device memory calls of tilert.h, past the checks gpu.c makes (a driver, a size
	 * that is not 0, pointers that are not NULL). */
	int (*mem_alloc)(size_t bytes, void **out);
	int (*mem_free)(void *dev);
	int (*memcpy_htod)(void *dst_dev, const void *src, size_t bytes);
	int (*memcpy_dtoh)(void *dst, const void *src_dev, size_t bytes);
	int (*memset_d8)(void *dev, int value, size_t bytes);
} tilert_gpu;

extern const tilert_gpu tilert_gpu_cuda; /* cuda.c */
/* cuda.c: the CUDA device's compute capability, major * 10 + minor; 0 when the driver or
 * the device is not usable. */
int tilert_cuda_compute_capability(void);
/* hip.c: the AMD GPU's processor name ("gfx942", its ":feature" suffixes dropped) in buf
 * ("" when the runtime or the GPU is not usable, or the name cannot be read). */
void tilert_hip_arch(char *buf, size_t size);
extern const tilert_gpu tilert_gpu_hip;  /* hip.c */

/* What launch geometry is checked against. */
typedef struct tilert_gpu_limits {
	unsigned warp;        /* threads per warp: 32, or 64 on AMD (wave64) */
	unsigned max_threads; /* per block */
	unsigned max_shared;  /* bytes of dynamic shared memory per block */
	int ordinal;          /* the device, for messages */
} tilert_gpu_limits;

/* gpu.c: the device number in the environment variable var (0 when unset); 0 when the
 * value is not a device number. */
int tilert_gpu_env_device(const char *var, int *ordinal);
/* The kernel names a PTX text (.entry NAME) or an ELF image, cubin or HSACO
 * (STT_FUNC NAME with an object NAME__meta; what names the format in messages), holds:
 * sorted, without repeats, malloc'ed; freed with tilert_names_free. */
int tilert_scan_ptx(const char *text, size_t size, char ***names, size_t *n);
int tilert_scan_elf(const unsigned char *data, size_t size, const char *what, char ***names,
                    size_t *n);
void tilert_names_free(char **names, size_t n);
/* Checks a GPU image of format f before a driver gets it: PTX is text (up to trailing
 * NULs); a cubin or HSACO is an ELF object of its machine whose headers, segments and
 * sections lie inside it, section links in range, string tables NUL-terminated. */
int tilert_gpu_check_image(const unsigned char *data, size_t size, tilert_format f);
/* Are the len bytes at s a C identifier? */
int tilert_is_ident(const char *s, size_t len);
/* A kernel's record in three steps, between the driver's own calls: a new record of name
 * with room for the bytes of its metadata (the global sym) in k->text; the metadata,
 * copied there, checked and parsed for target; the launch geometry (block=, shared=). */
int tilert_gpu_kernel_alloc(tilert_module *mod, const char *name, const char *sym, size_t bytes,
                            tilert_kernel **out);
int tilert_gpu_kernel_meta(tilert_kernel *k, const char *sym, size_t bytes, const char *target);
int tilert_gpu_kernel_geometry(tilert_kernel *k, const tilert_gpu_limits *lim);
/* Fills mod->kernels with the records of the names that are kernels (mod->gpu's
 * kernel_make); frees names; fails when there are none. what names the format. */
int tilert_gpu_add_kernels(tilert_module *mod, char **names, size_t nnames, const char *what);
/* Finds a kernel of a GPU module that its load did not list, through the driver
 * (TILERT_ERR_NOT_FOUND, with no message, when there is none); kept in mod->extra. */
int tilert_gpu_find_kernel(tilert_module *mod, const char *name, tilert_kernel **out);
/* The stream of driver d for a launch on s, made on first use (*out NULL for the default
 * stream); fails when s already carries the other driver's launches. */
int tilert_gpu_stream_get(tilert_stream *s, const tilert_gpu *d, void **out);
/* Waits for the GPU work queued on s (NULL: the default stream: all GPU work); the same,
 * then frees the GPU stream of s. */
int tilert_gpu_stream_sync(tilert_stream *s);
/* The driver and driver stream of s's GPU launches (both NULL before its first one). */
void tilert_gpu_stream_peek(tilert_stream *s, const tilert_gpu **d, void **gs);
int tilert_gpu_stream_destroy(tilert_stream *s);

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

/* Does [off, off+len) lie inside an image of size bytes? Overflow-safe (gpu.c). */
int tilert_in_image(uint64_t off, uint64_t len, size_t size);

#endif
