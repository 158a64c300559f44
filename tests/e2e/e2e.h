/* e2e.h: the shared helpers of the end-to-end tests. Each harness (tests/e2e/NAME.c) loads
 * kernels that tilecc compiled for this machine (x86-64, or riscv64 under qemu; or cubins
 * for an NVIDIA GPU, run by tests/gpu/e2e.sh), launches them through libtilert on random
 * inputs, and compares the outputs with a reference computed in C, in double precision where
 * it matters.
 *
 * A harness is a main() that runs cases:
 *
 *     int main(int argc, char **argv)
 *     {
 *         e2e_init(argc, argv);            // argv: the kernel .so paths
 *         e2e_begin("vadd n=%d", n);       // one line per case: PASS or FAIL
 *         tilert_kernel *k = e2e_kernel("vadd_1024", "vadd");
 *         float *x = e2e_alloc(...);       // guarded buffers, freed by e2e_end()
 *         ...
 *         e2e_launch(k, grid, args, n);
 *         e2e_cmp_f32("out", out, ref, n, E2E_TOL_F32);
 *         e2e_end();
 *         return e2e_finish();             // "N passed, M failed"; non-zero on failure
 *     }
 *
 * Every check records a failure in the current case and returns non-zero, so a case goes on
 * to report all its mismatches. Buffers come from e2e_alloc(): 64-byte aligned, filled with
 * 0xCD bytes and surrounded by red zones that e2e_end() checks, so a store that escapes its
 * mask fails the case. A crash prints the case it happened in. */
#ifndef TILECC_E2E_H
#define TILECC_E2E_H

#include <stddef.h>
#include <stdint.h>

#include <tilecc/tilert.h>

/* ---- random numbers: xorshift64*, fixed seeds --------------------------------------------- */

typedef struct e2e_rng {
	uint64_t s;
} e2e_rng;

/* A generator seeded from seed (any value, 0 included). */
e2e_rng e2e_rng_new(uint64_t seed);
uint64_t e2e_next(e2e_rng *r);
/* Uniform in [lo, hi). */
double e2e_uniform(e2e_rng *r, double lo, double hi);
/* Uniform integer in [lo, hi] (inclusive). */
int64_t e2e_randint(e2e_rng *r, int64_t lo, int64_t hi);
/* Fill with uniform floats in [lo, hi); each value is rounded through the buffer's dtype so
 * that references start from what the kernel sees. Never all zeros for lo < hi. */
void e2e_fill_f32(e2e_rng *r, float *p, size_t n, double lo, double hi);
void e2e_fill_f64(e2e_rng *r, double *p, size_t n, double lo, double hi);
void e2e_fill_f16(e2e_rng *r, uint16_t *p, size_t n, double lo, double hi);
void e2e_fill_bf16(e2e_rng *r, uint16_t *p, size_t n, double lo, double hi);

/* ---- fp16 and bf16 in C (round to nearest even, subnormals, inf and NaN) ------------------ */

float e2e_h2f(uint16_t h);
uint16_t e2e_f2h(float f);
float e2e_bf2f(uint16_t b);
uint16_t e2e_f2bf(float f);
/* float rounded to fp16 / bf16 and back. */
float e2e_round_f16(float f);
float e2e_round_bf16(float f);

/* ---- buffers ------------------------------------------------------------------------------ */

/* bytes of memory, 64-byte aligned, filled with 0xCD, with red zones on both sides; freed
 * (and the red zones checked) by e2e_end(). Never NULL (aborts when out of memory). */
void *e2e_alloc(size_t bytes);
/* Like e2e_alloc(), but the buffer ends exactly where an inaccessible page begins (a read
 * or write past its end crashes the case) and starts wherever that puts it (aligned to
 * bytes' own alignment at best); only the red zone before it is checked. */
void *e2e_alloc_guarded(size_t bytes);
/* e2e_alloc() then a copy of src. */
void *e2e_dup(const void *src, size_t bytes);
/* Poisoning before a launch: NaN for float buffers, 0xCD bytes for anything. */
void e2e_poison_f32(float *p, size_t n);
void e2e_poison_f64(double *p, size_t n);
void e2e_poison_f16(uint16_t *p, size_t n); /* fp16 NaN 0x7e00; bf16 NaN 0x7fc0 below */
void e2e_poison_bf16(uint16_t *p, size_t n);
void e2e_poison(void *p, size_t bytes);

/* ---- cases -------------------------------------------------------------------------------- */

/* Takes the kernel artifact paths from the command line (argv[1..]). */
void e2e_init(int argc, char **argv);
/* Starts a case; its name is printf-formatted. */
void e2e_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records a failure of the current case with a message (printed at once, indented). */
void e2e_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the case: checks red zones, frees its buffers, prints PASS/FAIL and its name.
 * Returns 0 when the case passed. */
int e2e_end(void);
/* Prints "N passed, M failed" (", K skipped" when some were) and returns the exit status
 * (0 only when none failed and something passed). */
int e2e_finish(void);
/* Records a case that is not run here, and why; it is listed as SKIP. */
void e2e_skip(const char *name, const char *why);
/* True on riscv64 under qemu-user 7.x (E2E_QEMU=1 from ctest), whose RVV truncating
 * float-to-int conversions (vfcvt.rtz.*) abort the emulator: a qemu bug
 * ("decode_save_opc: Assertion 'ctx->insn_start != NULL'"), not a tilecc one. The same
 * kernels run on x86-64. */
int e2e_qemu_rtz_broken(void);
/* Whether the current case has failed so far. */
int e2e_failed(void);

/* E2E_RUN(test_foo(args)): runs one test function (one or more cases) in a child process,
 * so that a crash (of the kernel, or of qemu) fails those cases and the harness goes on
 * with the next; its results are added to the parent's. E2E_NO_FORK=1 in the environment
 * runs everything in one process (for a debugger). */
#define E2E_RUN(...)                                                                         \
	do {                                                                                     \
		if (e2e_fork_case()) {                                                               \
			__VA_ARGS__;                                                                     \
			e2e_exit_case();                                                                 \
		}                                                                                    \
	} while (0)
/* 1 in the process that is to run the case (the child, or the only process), 0 in the
 * parent once the child has finished. */
int e2e_fork_case(void);
/* Ends the child of e2e_fork_case(), passing its counts to the parent. */
void e2e_exit_case(void);

/* The kernel `name` of the artifact whose file name (without .so, .rv.so, .cubin or .ptx) is
 * `variant`, among the paths given to e2e_init(); modules stay loaded until e2e_finish().
 * Records a failure and returns NULL when it cannot be loaded. */
tilert_kernel *e2e_kernel(const char *variant, const char *name);
/* tilert_launch() on the default stream; records a failure (and returns non-zero) when it
 * does not return TILERT_OK or k is NULL. A GPU kernel (metadata target=nvptx) runs on
 * copies: every e2e_alloc() buffer that a pointer argument points into is copied whole, red
 * zones included, to device memory, the kernel gets the device addresses (at the same
 * offsets), and after tilert_stream_synchronize() the copies come back over the buffers, so
 * the checks that follow are those of a CPU kernel. A pointer argument outside every
 * e2e_alloc() buffer fails the case. The CUDA driver does not survive fork(): the parent of
 * E2E_RUN must not touch the GPU (load kernels in the test functions only). */
int e2e_launch(tilert_kernel *k, unsigned gx, unsigned gy, unsigned gz, void **args,
               size_t nargs);

/* ---- comparisons -------------------------------------------------------------------------- */

/* |got - want| <= atol + rtol * |want|; NaN matches only NaN, infinities match exactly.
 * Each reports the first mismatches (index, got, expected) and the count; returns the
 * number of mismatches (0: equal). `want` is always double. */
typedef struct e2e_tol {
	double atol, rtol;
} e2e_tol;

#define E2E_EXACT ((e2e_tol){0.0, 0.0})
#define E2E_TOL_F32 ((e2e_tol){1e-6, 1e-6})
#define E2E_TOL_MATH ((e2e_tol){1e-6, 1e-5})
#define E2E_TOL_F16 ((e2e_tol){1e-3, 1e-3})
#define E2E_TOL_BF16 ((e2e_tol){1e-2, 8e-3})

size_t e2e_cmp_f32(const char *what, const float *got, const double *want, size_t n, e2e_tol t);
size_t e2e_cmp_f64(const char *what, const double *got, const double *want, size_t n, e2e_tol t);
size_t e2e_cmp_f16(const char *what, const uint16_t *got, const double *want, size_t n,
                   e2e_tol t);
size_t e2e_cmp_bf16(const char *what, const uint16_t *got, const double *want, size_t n,
                    e2e_tol t);

/* Integers compare exactly. elem is the element size in bytes (1, 2, 4, 8), is_signed
 * whether got is read as a signed type; want holds the values as int64 (uint64 values
 * bit-cast for unsigned 64-bit). */
size_t e2e_cmp_int(const char *what, const void *got, const int64_t *want, size_t n, int elem,
                   int is_signed);
/* Bytes compare exactly (stored copies, untouched memory). */
size_t e2e_cmp_bytes(const char *what, const void *got, const void *want, size_t bytes);

/* Reads element i of an integer buffer of elem bytes as int64 (sign- or zero-extended). */
int64_t e2e_get_int(const void *p, size_t i, int elem, int is_signed);
void e2e_set_int(void *p, size_t i, int elem, int64_t v);


/* ---- dtypes ------------------------------------------------------------------------------- */

typedef enum e2e_dtype {
	E2E_I8, E2E_I16, E2E_I32, E2E_I64, E2E_U8, E2E_U16, E2E_U32, E2E_U64,
	E2E_F16, E2E_BF16, E2E_F32, E2E_F64
} e2e_dtype;

/* Signature spelling ("i8", "u64", "fp16", "bf16"), size in bytes, kind. */
const char *e2e_dtype_name(e2e_dtype t);
int e2e_dtype_size(e2e_dtype t);
int e2e_dtype_is_float(e2e_dtype t);
int e2e_dtype_is_signed(e2e_dtype t); /* floats count as signed */
/* Element i as a double (integers converted) / as int64 (integers only; u64 bit-cast). */
double e2e_getf(const void *p, size_t i, e2e_dtype t);
int64_t e2e_geti(const void *p, size_t i, e2e_dtype t);
/* Stores v into element i, rounded to nearest even for floats (through float for fp16 and
 * bf16), truncated to the width for integers. */
void e2e_setf(void *p, size_t i, e2e_dtype t, double v);
void e2e_seti(void *p, size_t i, e2e_dtype t, int64_t v);
/* v rounded to t's precision (floats only). */
double e2e_round(e2e_dtype t, double v);
/* Compares n elements of t: floats against wantf with tol, integers exactly against wanti. */
size_t e2e_cmp(const char *what, const void *got, e2e_dtype t, const double *wantf,
               const int64_t *wanti, size_t n, e2e_tol tol);

#define E2E_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
