/* kernels.c: test kernels for libtilert, written by hand to the CPU ABI of docs/abi.md
 * (tilecc has no CPU code generator yet). Built into a shared object for the host and,
 * where a cross compiler exists, for riscv64.
 *
 *   vadd    *fp32:16, *fp32:16, *fp32:16, i32   out[i] = x[i] + y[i], BLOCK = 4 (constexpr)
 *   scalars *u64, then every scalar type      each program stores its arguments
 *   grid3d  *i32, *i32                         each program counts itself and its ids
 *   vscale  *fp32:16, fp32, i32                 no NAME__grid: launches take the ffi path
 *
 * With -DWITH_LIBM it also has
 *   vexp    *fp32, i32                          v[i] = expf(v[i]), through libm
 * (linked with -lm and both hash styles: DT_NEEDED, symbol versions, DT_HASH; for
 * test_runtime_elf). With -DBAD=n it builds one of the malformed modules instead (see the
 * end). */
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#define TARGET "x86-64"
#else
#define TARGET "riscv64"
#endif

#define EXPORT __attribute__((visibility("default")))
#define PROGRAM_ARGS int32_t pid_x, int32_t pid_y, int32_t pid_z, int32_t nx, int32_t ny, int32_t nz

/* The loop every NAME__grid has: linear id -> (x, y, z), then one program. */
#define GRID_LOOP(CALL)                                                                            \
	for (int64_t id = first; id < last; id++) {                                                \
		int32_t x = (int32_t)(id % nx), y = (int32_t)(id / nx % ny),                       \
		        z = (int32_t)(id / nx / ny);                                               \
		CALL;                                                                              \
	}

#if !defined(BAD)

enum { BLOCK = 4 };

EXPORT void vadd(void *x, void *y, void *out, int32_t n, PROGRAM_ARGS)
{
	const float *a = x, *b = y;
	float *c = out;

	for (int32_t i = pid_x * BLOCK; i < pid_x * BLOCK + BLOCK && i < n; i++)
		c[i] = a[i] + b[i];
}

EXPORT void vadd__grid(void **args, int32_t nx, int32_t ny, int32_t nz, int64_t first,
                       int64_t last)
{
	GRID_LOOP(vadd(*(void **)args[0], *(void **)args[1], *(void **)args[2],
	               *(int32_t *)args[3], x, y, z, nx, ny, nz))
}

EXPORT const char vadd__meta[] = "tilecc-kernel=1\n"
                                 "name=vadd\n"
                                 "target=" TARGET "\n"
                                 "params=*fp32:16,*fp32:16,*fp32:16,i32\n"
                                 "num_warps=4\n"
                                 "shared=0\n"
                                 "block=1,1,1\n"
                                 "future=42\n";

/* Floats and integers interleaved, more than fit in registers: both launch paths must place
 * every one of them where the C calling convention wants it. */
enum { SLOTS = 18 };

EXPORT void scalars(void *out, _Bool b, float f0, int8_t i8, double d0, int16_t i16, int32_t i32,
                    float f1, int64_t i64, uint8_t u8, uint16_t u16, uint16_t h, uint32_t u32,
                    uint64_t u64, uint16_t bf, double d1, int32_t one, PROGRAM_ARGS)
{
	uint64_t *o = (uint64_t *)out + (pid_x + (int64_t)nx * (pid_y + (int64_t)ny * pid_z)) * SLOTS;
	uint32_t fb;
	uint64_t db;

	o[0] = b;
	memcpy(&fb, &f0, 4);
	o[1] = fb;
	o[2] = (uint64_t)(int64_t)i8;
	memcpy(&db, &d0, 8);
	o[3] = db;
	o[4] = (uint64_t)(int64_t)i16;
	o[5] = (uint64_t)(int64_t)i32;
	memcpy(&fb, &f1, 4);
	o[6] = fb;
	o[7] = (uint64_t)i64;
	o[8] = u8;
	o[9] = u16;
	o[10] = h;
	o[11] = u32;
	o[12] = u64;
	o[13] = bf;
	memcpy(&db, &d1, 8);
	o[14] = db;
	o[15] = (uint64_t)(int64_t)one;
	o[16] = (uint64_t)pid_x | (uint64_t)pid_y << 21 | (uint64_t)pid_z << 42;
	o[17] = (uint64_t)nx | (uint64_t)ny << 21 | (uint64_t)nz << 42;
}

EXPORT void scalars__grid(void **a, int32_t nx, int32_t ny, int32_t nz, int64_t first,
                          int64_t last)
{
	GRID_LOOP(scalars(*(void **)a[0], *(_Bool *)a[1], *(float *)a[2], *(int8_t *)a[3],
	                  *(double *)a[4], *(int16_t *)a[5], *(int32_t *)a[6], *(float *)a[7],
	                  *(int64_t *)a[8], *(uint8_t *)a[9], *(uint16_t *)a[10],
	                  *(uint16_t *)a[11], *(uint32_t *)a[12], *(uint64_t *)a[13],
	                  *(uint16_t *)a[14], *(double *)a[15], *(int32_t *)a[16], x, y, z, nx, ny,
	                  nz))
}

EXPORT const char scalars__meta[] =
	"tilecc-kernel=1\nname=scalars\ntarget=" TARGET "\n"
	"params=*u64:16, i1, fp32, i8, fp64, i16, i32, fp32, i64, u8, u16, fp16, u32, u64, bf16, "
	"fp64, i32:1\n"
	"num_warps=1\nshared=0\nblock=1,1,1\n";

/* seen[id] counts the runs of program id; ids[6 * id ...] are its pid and nprog values. */
EXPORT void grid3d(void *seen, void *ids, PROGRAM_ARGS)
{
	int64_t id = pid_x + (int64_t)nx * (pid_y + (int64_t)ny * pid_z);
	int32_t *r = (int32_t *)ids + 6 * id;

	__atomic_fetch_add((int32_t *)seen + id, 1, __ATOMIC_RELAXED);
	r[0] = pid_x;
	r[1] = pid_y;
	r[2] = pid_z;
	r[3] = nx;
	r[4] = ny;
	r[5] = nz;
}

EXPORT void grid3d__grid(void **a, int32_t nx, int32_t ny, int32_t nz, int64_t first,
                         int64_t last)
{
	GRID_LOOP(grid3d(*(void **)a[0], *(void **)a[1], x, y, z, nx, ny, nz))
}

EXPORT const char grid3d__meta[] =
	"tilecc-kernel=1\nname=grid3d\ntarget=" TARGET "\nparams=*i32,*i32\nnum_warps=4\n"
	"shared=0\nblock=1,1,1\n";

EXPORT void vscale(void *x, float a, int32_t n, PROGRAM_ARGS)
{
	float *v = x;

	for (int32_t i = pid_x * 4; i < pid_x * 4 + 4 && i < n; i++)
		v[i] *= a;
}

EXPORT const char vscale__meta[] =
	"tilecc-kernel=1\r\nname=vscale\r\ntarget=" TARGET "\r\n\r\nparams = *fp32:16, fp32, i32\r\n";

#if defined(WITH_LIBM)
#include <math.h>

EXPORT void vexp(void *x, int32_t n, PROGRAM_ARGS)
{
	float *v = x;

	for (int32_t i = pid_x * 4; i < pid_x * 4 + 4 && i < n; i++)
		v[i] = expf(v[i]);
}

EXPORT void vexp__grid(void **args, int32_t nx, int32_t ny, int32_t nz, int64_t first,
                       int64_t last)
{
	GRID_LOOP(vexp(*(void **)args[0], *(int32_t *)args[1], x, y, z, nx, ny, nz))
}

EXPORT const char vexp__meta[] =
	"tilecc-kernel=1\nname=vexp\ntarget=" TARGET "\nparams=*fp32,i32\n";
#endif

#else /* malformed modules, one per BAD value */

EXPORT void bad(void *x, PROGRAM_ARGS)
{
}

#if BAD == 1
EXPORT const char bad__meta[] = "tilecc-kernel=1\nname=bad\ntarget=" TARGET "\n";
#elif BAD == 2
EXPORT const char bad__meta[] = "tilecc-kernel=1\nname=bad\ntarget=nvptx\nparams=*fp32\n";
#elif BAD == 3
EXPORT const char nothere__meta[] = "tilecc-kernel=1\nname=nothere\ntarget=" TARGET "\nparams=\n";
#elif BAD == 4
EXPORT const char bad__meta[] = "tilecc-kernel=1\nname=bad\ntarget=" TARGET "\nparams=f33\n";
#elif BAD == 5
EXPORT const char not_a_kernel[] = "hello";
#elif BAD == 6
EXPORT const char bad__meta[] = "tilecc-kernel=2\nname=bad\ntarget=" TARGET "\nparams=*fp32\n";
#elif BAD == 7
EXPORT const char bad__meta[4] = { 'a', '=', 'b', 'c' }; /* no NUL */
#endif

#endif
