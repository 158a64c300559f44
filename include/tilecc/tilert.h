/* tilert.h: the public C API of libtilert, the runtime that loads and launches the
 * artifacts tilecc produces.
 *
 * A module is one loaded artifact (a CPU shared object, a cubin or PTX for NVIDIA GPUs, an
 * HSACO for AMD GPUs); its kernels are found by name and launched over a grid of program
 * instances. The calling conventions are described in docs/abi.md. The GPU drivers are
 * opened at run time (dlopen of libcuda.so.1, of the HIP runtime libamdhip64.so) the first
 * time a GPU artifact or device memory is used; without one, those calls answer
 * TILERT_ERR_NO_DRIVER.
 *
 * Every function returns an int error code (TILERT_OK, or one of TILERT_ERR_*) and fills
 * its out-parameters only on success. The details of a failure are in tilert_last_error().
 * The runtime never prints, never aborts and never exits. */
#ifndef TILECC_TILERT_H
#define TILECC_TILERT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TILERT_API __attribute__((visibility("default")))
#else
#define TILERT_API
#endif

/* Error codes. */
enum {
	TILERT_OK = 0,
	TILERT_ERR_INVALID_ARGUMENT, /* a NULL handle or out-pointer, a bad index, a zero grid */
	TILERT_ERR_FORMAT,           /* bad, truncated or foreign artifact, bad metadata */
	TILERT_ERR_NOT_FOUND,        /* no kernel of that name in the module */
	TILERT_ERR_ARGUMENTS,        /* wrong number of launch arguments */
	TILERT_ERR_NO_DRIVER,        /* a GPU artifact, and no CUDA/HIP driver in this build or machine */
	TILERT_ERR_UNSUPPORTED,      /* a feature compiled out of this build (e.g. libffi) */
	TILERT_ERR_OUT_OF_MEMORY,
	TILERT_ERR_LAUNCH,           /* the launch itself failed (a grid too large, a driver error,
	                              * a GPU fault reported by a later synchronize) */
	TILERT_ERR_IO                /* the artifact file could not be read, or a temporary written */
};

/* What an artifact is, as detected from its first bytes. */
typedef enum tilert_format {
	TILERT_FORMAT_UNKNOWN,
	TILERT_FORMAT_HOST, /* ELF shared object for x86-64 or riscv64 */
	TILERT_FORMAT_CUBIN,
	TILERT_FORMAT_PTX,
	TILERT_FORMAT_HSACO
} tilert_format;

/* The C type a runtime parameter is passed as (docs/abi.md, "Parameters"). */
typedef enum tilert_type {
	TILERT_TYPE_PTR,  /* any pointer type (*fp32, *i8, ...): void * */
	TILERT_TYPE_I1,   /* _Bool */
	TILERT_TYPE_I8,   /* int8_t */
	TILERT_TYPE_I16,  /* int16_t */
	TILERT_TYPE_I32,  /* int32_t */
	TILERT_TYPE_I64,  /* int64_t */
	TILERT_TYPE_U8,   /* uint8_t */
	TILERT_TYPE_U16,  /* uint16_t */
	TILERT_TYPE_U32,  /* uint32_t */
	TILERT_TYPE_U64,  /* uint64_t */
	TILERT_TYPE_FP16, /* uint16_t holding the raw IEEE half bits */
	TILERT_TYPE_BF16, /* uint16_t holding the raw bfloat16 bits */
	TILERT_TYPE_FP32, /* float */
	TILERT_TYPE_FP64  /* double */
} tilert_type;

/* One runtime parameter of a kernel; the strings are owned by the kernel. */
typedef struct tilert_param_info {
	const char *type;      /* signature spelling without the hint: "*fp32", "i32" */
	tilert_type kind;      /* the C type the value is passed as */
	int is_pointer;        /* kind == TILERT_TYPE_PTR */
	size_t size;           /* bytes that args[i] points to at launch */
	unsigned divisibility; /* 16 for "i32:16", 1 for "i32:1" (the value must be 1), 0 for none */
} tilert_param_info;

/* Programs per axis; each must be at least 1 and at most INT32_MAX. */
typedef struct tilert_grid {
	uint32_t x, y, z;
} tilert_grid;

typedef struct tilert_module tilert_module;
typedef struct tilert_kernel tilert_kernel;
typedef struct tilert_stream tilert_stream;

/* "TILERT_ERR_FORMAT: bad or truncated artifact"; a static string, never NULL. */
TILERT_API const char *tilert_error_string(int code);
/* The details of the latest failure on the calling thread ("" before any); thread-local
 * storage owned by the runtime, valid until the thread's next failing call. Successful
 * calls leave it unchanged. */
TILERT_API const char *tilert_last_error(void);

/* The format of the bytes, by their header only (no validation beyond it). */
TILERT_API tilert_format tilert_format_detect(const void *data, size_t size);
/* "host", "cubin", "ptx", "hsaco" or "unknown"; a static string. */
TILERT_API const char *tilert_format_name(tilert_format f);

/* Loads the artifact in the file at path; *out is freed with tilert_module_unload(). */
TILERT_API int tilert_module_load_file(const char *path, tilert_module **out);
/* Loads an artifact from memory; data is copied (the caller keeps it); *out is freed with
 * tilert_module_unload(). */
TILERT_API int tilert_module_load_data(const void *data, size_t size, tilert_module **out);
/* Frees the module and every kernel handle obtained from it. NULL is accepted. */
TILERT_API int tilert_module_unload(tilert_module *mod);
/* The detected format of a loaded module. */
TILERT_API tilert_format tilert_module_format(const tilert_module *mod);
/* The number of kernels in the module, and the i-th kernel's name (owned by the module). */
TILERT_API size_t tilert_module_num_kernels(const tilert_module *mod);
TILERT_API const char *tilert_module_kernel_name(const tilert_module *mod, size_t i);

/* Finds a kernel by name; *out is owned by mod and lives until tilert_module_unload(). */
TILERT_API int tilert_module_get_kernel(tilert_module *mod, const char *name, tilert_kernel **out);
/* The kernel's name, owned by the kernel. */
TILERT_API const char *tilert_kernel_name(const tilert_kernel *k);
/* The number of runtime parameters, i.e. the nargs a launch takes. */
TILERT_API size_t tilert_kernel_num_params(const tilert_kernel *k);
/* Fills *info with parameter i (0-based); the strings in it are owned by the kernel. */
TILERT_API int tilert_kernel_param(const tilert_kernel *k, size_t i, tilert_param_info *info);
/* The value of a metadata key ("target", "num_warps", "block", ...) or NULL when absent;
 * owned by the kernel. Unknown keys of newer compilers are kept and can be read here. */
TILERT_API const char *tilert_kernel_meta(const tilert_kernel *k, const char *key);

/* Creates a stream; freed with tilert_stream_destroy(). A NULL stream is the default stream.
 * One stream serves CPU and GPU kernels: its CUstream (hipStream_t for an HSACO's kernels)
 * is created on its first GPU launch, and the stream then serves that driver only.
 * CPU launches are synchronous: they return when every program has run (after waiting for
 * the GPU work queued before them on the same stream). GPU launches are asynchronous. */
TILERT_API int tilert_stream_create(tilert_stream **out);
/* Frees the stream (after synchronizing it; a GPU fault found then is returned, and the
 * stream is freed all the same). NULL is accepted. */
TILERT_API int tilert_stream_destroy(tilert_stream *s);
/* Waits for every launch on s to finish. NULL, the default stream, waits for every GPU
 * launch of the process, on any stream. Faults of GPU kernels are reported here, as
 * TILERT_ERR_LAUNCH. */
TILERT_API int tilert_stream_synchronize(tilert_stream *s);

/* Runs grid.x * grid.y * grid.z programs of k. args[i] points to the value of runtime
 * parameter i (CUDA style); nargs must equal tilert_kernel_num_params(k). The args array
 * and the values are read during the call only, GPU launches included.
 * A CPU kernel runs through its NAME__grid entry, spread over the thread pool (through
 * libffi when the artifact has no NAME__grid entry), and is done when this returns.
 * A GPU kernel is queued on s with one thread block per program (block= and shared= of
 * its metadata) and may still be running when this returns: pointer arguments are device
 * addresses (tilert_device_alloc), and the results are there after
 * tilert_stream_synchronize(s) or a tilert_memcpy_dtoh. */
TILERT_API int tilert_launch(tilert_kernel *k, tilert_stream *s, tilert_grid grid, void **args,
                             size_t nargs);
/* Same as tilert_launch(), but calls the per-program NAME entry through libffi, one call per
 * program, spread over the thread pool. Returns TILERT_ERR_UNSUPPORTED when libtilert was
 * built without libffi (TILERT_WITH_FFI=OFF, as in cross builds without a target libffi). */
TILERT_API int tilert_launch_ffi(tilert_kernel *k, tilert_stream *s, tilert_grid grid,
                                 void **args, size_t nargs);

/* Threads that run CPU programs, the calling thread included; 0 means one per core. The
 * default is the environment variable TILERT_NUM_THREADS, read once, or else 0. */
TILERT_API int tilert_set_num_threads(unsigned n);
/* The number of threads the next CPU launch will use (at least 1). */
TILERT_API unsigned tilert_get_num_threads(void);
/* 1 when this build can take the libffi path, 0 otherwise. */
TILERT_API int tilert_has_ffi(void);

/* Device memory of the GPU libtilert uses: the CUDA device when the CUDA driver is usable
 * (device 0, or the environment variable TILERT_CUDA_DEVICE, read once, through its
 * primary context, so that memory from cudaMalloc of the same process can be passed too),
 * else the AMD device of the HIP runtime (device 0, or TILERT_HIP_DEVICE). Device pointers
 * are CUdeviceptr values or HIP device pointers cast to void *; never dereference them on
 * the host. Copies and memset are synchronous, and ordered after the GPU launches queued
 * before them on any tilert stream. All return TILERT_ERR_NO_DRIVER, saying why neither
 * driver is usable, on machines without one. */

/* 1 when the CUDA driver loads and its device is usable, 0 otherwise (the reason is then
 * in the TILERT_ERR_NO_DRIVER message of the GPU calls). Initializes the driver once. */
TILERT_API int tilert_has_cuda(void);
/* The same for the HIP runtime (the library TILERT_HIP_LIBRARY names, else libamdhip64.so)
 * and an AMD GPU. */
TILERT_API int tilert_has_hip(void);
/* Allocates bytes of device memory; *out is freed with tilert_device_free(). 0 bytes gives
 * NULL. */
TILERT_API int tilert_device_alloc(size_t bytes, void **out);
/* Frees memory from tilert_device_alloc(), after the work using it is done (synchronize
 * first). NULL is accepted. */
TILERT_API int tilert_device_free(void *dev);
/* Copies bytes from host memory src to device memory dst_dev; both stay the caller's. */
TILERT_API int tilert_memcpy_htod(void *dst_dev, const void *src, size_t bytes);
/* Copies bytes from device memory src_dev to host memory dst. */
TILERT_API int tilert_memcpy_dtoh(void *dst, const void *src_dev, size_t bytes);
/* Sets bytes of device memory at dev to (unsigned char)value. */
TILERT_API int tilert_memset_d8(void *dev, int value, size_t bytes);

/* ---- timing events (docs/abi.md, "Autotuning") ------------------------------------------
 * An event is recorded on a stream and two of them give the time between: on a stream that
 * carries GPU launches, on the GPU's clock (a CUDA or HIP event queued behind the work);
 * otherwise (CPU launches, which are synchronous; the default stream NULL) on the host's
 * monotonic clock, read once the stream's work is done. */
typedef struct tilert_event tilert_event;

/* Creates an event; freed with tilert_event_destroy(). */
TILERT_API int tilert_event_create(tilert_event **out);
/* Frees the event. NULL is accepted. */
TILERT_API int tilert_event_destroy(tilert_event *e);
/* Records e on s (NULL: the host clock after every GPU launch of the process is done). */
TILERT_API int tilert_event_record(tilert_event *e, tilert_stream *s);
/* The milliseconds from start to end, waiting for end first; both must have been recorded
 * on the same clock (TILERT_ERR_INVALID_ARGUMENT otherwise). */
TILERT_API int tilert_event_elapsed_ms(tilert_event *start, tilert_event *end, float *ms);

/* ---- host tensor descriptors (docs/abi.md, "Tensor descriptor parameters") ---------------
 * A kernel parameter of type tensordesc<DTYPE[BLOCK...]> (Triton's TensorDescriptor) takes
 * 2 * rank + 2 launch arguments, in this order: the base pointer, shape[0..rank) as
 * int32_t, strides[0..rank) as int64_t (in elements), and the padding as _Bool (1:
 * out-of-bounds reads give NaN, 0: zeros; the tilert_tensor_desc field is a uint8_t, 0
 * or 1, the same byte). The block shape is the kernel's (compile time).
 *
 *     tilert_tensor_desc a;
 *     int64_t shape[2] = {M, K}, strides[2] = {K, 1};
 *     tilert_tensor_desc_init(&a, a_dev, 2, 2, shape, strides, "zero");
 *     void *args[16];
 *     size_t n = 0;
 *     tilert_tensor_desc_append(&a, args, 16, &n);   // args[0..6): a's fields
 *     args[n++] = &M;
 *     tilert_launch(k, stream, grid, args, n);
 *
 * The appended pointers point into the struct: it must live until the launch returns. */
enum { TILERT_DESC_MAX_RANK = 5 };

typedef struct tilert_tensor_desc {
	void *base;                             /* the element at index 0; 16-byte aligned */
	int rank;                               /* 1 to TILERT_DESC_MAX_RANK */
	int32_t shape[TILERT_DESC_MAX_RANK];    /* elements along each dimension */
	int64_t strides[TILERT_DESC_MAX_RANK];  /* in elements; strides[rank - 1] is 1 */
	uint8_t padding_nan;                    /* 1: padding "nan" (floating-point tensors) */
} tilert_tensor_desc;

/* Fills *d, with the checks Triton's TensorDescriptor makes: rank 1 to 5, a 16-byte aligned
 * base, a last stride of 1, the other strides multiples of 16 bytes (elem_size bytes an
 * element), shapes from 0 to INT32_MAX, padding "zero" or "nan" (NULL: "zero"). base may be
 * a device address. Fails with TILERT_ERR_INVALID_ARGUMENT (*d untouched). */
TILERT_API int tilert_tensor_desc_init(tilert_tensor_desc *d, void *base, size_t elem_size,
                                       int rank, const int64_t *shape, const int64_t *strides,
                                       const char *padding);
/* Appends d's 2 * d->rank + 2 launch arguments (pointers into *d) at args[*nargs], and
 * advances *nargs; fails with TILERT_ERR_ARGUMENTS, appending nothing, when they do not fit
 * in cap entries. */
TILERT_API int tilert_tensor_desc_append(const tilert_tensor_desc *d, void **args, size_t cap,
                                         size_t *nargs);

/* ---- launchers for several targets (docs/abi.md, "Several targets in one launcher") -------
 * A header that tilecc made for several targets (--target=sm_80,sm_90a,gfx942,x86-64) embeds
 * one artifact per target (an NVIDIA target also embeds its PTX) and lets libtilert pick one
 * at run time, on the first launch, for the device in use:
 *   the CUDA device (when the CUDA driver is usable): the cubin of its exact SM (sm_90a
 *     before sm_90 on a 9.0 device), else a cubin of the same major and a lower minor (never
 *     an arch-specific "a" cubin), else the PTX of the highest SM at or below it (an "a" PTX
 *     only on its own SM), which the driver compiles (JIT);
 *   else the AMD GPU of the HIP runtime: the HSACO of its gfx processor;
 *   else, or when nothing above fits, or when the CPU is forced (tilert_set_force_cpu(1) or
 *     the environment variable TILERT_FORCE_CPU=1): the CPU artifact of this machine.
 * A CPU variant takes host pointers, a GPU one device pointers (tilert_device_alloc): the
 * caller asks which one was picked (NAME_variant(), NAME_format() of the generated code). */
typedef struct tilert_variant {
	const char *target;   /* "sm_90a", "gfx942", "x86-64", "riscv64" */
	tilert_format format; /* CUBIN, PTX, HSACO or HOST */
	const void *data;     /* the artifact's bytes, borrowed */
	size_t size;
} tilert_variant;

/* What the selection looks at; tilert_device_query() fills it from the drivers, a test from
 * anything it likes. */
typedef struct tilert_device_info {
	int cuda_cc;         /* the CUDA device's compute capability, major * 10 + minor (90 for
	                      * an H100/H200); 0 when there is no usable CUDA device */
	char amd_arch[32];   /* the AMD GPU's processor ("gfx942", features stripped); "" none */
	const char *cpu;     /* this machine's CPU target ("x86-64"; NULL: none tilecc has) */
	int force_cpu;       /* choose the CPU artifact whatever the GPUs */
} tilert_device_info;

/* Fills *out for the device libtilert launches on (initializing the CUDA driver, and the HIP
 * runtime when CUDA is not usable, once) and the CPU forcing in effect. Never fails on a
 * machine without GPUs: that is cuda_cc 0 and amd_arch "". */
TILERT_API int tilert_device_query(tilert_device_info *out);
/* Forces (on != 0) or stops forcing the CPU variants of later selections; the default is
 * the environment variable TILERT_FORCE_CPU (set, not "" and not "0"), read once. A launcher
 * that already chose keeps its choice until its NAME_unload(). */
TILERT_API int tilert_set_force_cpu(int on);
/* The index in v[0..n) of the best artifact for dev (rules above) in *out; fails with
 * TILERT_ERR_NOT_FOUND, saying what the device is and what there was, when none fits. */
TILERT_API int tilert_variant_select(const tilert_variant *v, size_t n,
                                     const tilert_device_info *dev, size_t *out);
/* "sm_90a cubin", "sm_80 ptx", "gfx942 hsaco", "x86-64": a static string or one in buf. */
TILERT_API const char *tilert_variant_describe(const tilert_variant *v, char *buf, size_t size);
/* Selects for the device in use (tilert_device_query), loads the chosen artifact and finds
 * kernel name in it: *mod (freed with tilert_module_unload) and *k (owned by *mod), and the
 * chosen index in *chosen. When the driver refuses the image (TILERT_ERR_FORMAT: no binary
 * for this GPU, an invalid image), the next candidate of the same device is loaded instead
 * (an exact cubin, then a same-major cubin, then the PTX); when all are refused, the error
 * names each. */
TILERT_API int tilert_variant_load(const tilert_variant *v, size_t n, const char *name,
                                   tilert_module **mod, tilert_kernel **k, size_t *chosen);

/* Specialization variants of one kernel (tilecc -s "*fp32:?, i32:?" -o k.h; docs/abi.md,
 * "Specialization variants"). conds[0..nspec) each hold nvals characters, one per runtime
 * parameter: '-' no condition, 'D' the value (a pointer's address) is divisible by 16, '1'
 * the value is 1. Returns the index of the first entry whose conditions all hold for
 * vals[0..nvals), nspec when none does (the generated table ends with an unconditional one). */
TILERT_API size_t tilert_spec_choose(const char *const *conds, size_t nspec, const int64_t *vals,
                                     size_t nvals);

/* An integer-valued heuristic of a tuned launcher (tilecc --tuning; docs/abi.md,
 * "Heuristics"), evaluated at launch to value: the index of value in values[0..n), the
 * values it was compiled for, in *index. Fails with TILERT_ERR_NOT_FOUND when value is not
 * one of them ("kernel 'k': heuristic BLOCK_N = 2048 was not compiled (BLOCK_N = 128, 1024):
 * ..."); kernel and heuristic name it in the message. */
TILERT_API int tilert_heuristic_index(const char *kernel, const char *heuristic, int64_t value,
                                      const int64_t *values, size_t n, size_t *index);

#ifdef __cplusplus
}
#endif
#endif
