/* test_runtime.c: libtilert's API on the hand-written kernels of kernels.c: loading from a
 * file and from memory, introspection, both launch paths over many grids and thread
 * counts, argument marshalling of every scalar type, and the errors a caller can make.
 *
 * usage: test_runtime KERNEL_DIR [FOREIGN_SO]
 *   KERNEL_DIR  holds kernels.so and kernels_bad<N>.so for this machine
 *   FOREIGN_SO  the same kernels for another machine (riscv64 on x86-64 and back) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tilecc/tilert.h"

#if defined(__x86_64__)
#define HOST "x86-64"
#define FOREIGN_MESSAGE "this is a riscv64 object; the host is x86-64"
#else
#define HOST "riscv64"
#define FOREIGN_MESSAGE "this is an x86-64 object; the host is riscv64"
#endif

static const char *kernel_dir;

static const char *kernel_path(const char *file)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", kernel_dir, file);
	return buf;
}

typedef int (*launch_fn)(tilert_kernel *, tilert_stream *, tilert_grid, void **, size_t);
static const launch_fn launchers[2] = { tilert_launch, tilert_launch_ffi };
static const char *const launcher_names[2] = { "grid", "ffi" };

static void test_error_strings(void)
{
	CHECK(test_contains(tilert_error_string(TILERT_OK), "TILERT_OK"));
	CHECK(test_contains(tilert_error_string(TILERT_ERR_FORMAT), "TILERT_ERR_FORMAT"));
	CHECK(test_contains(tilert_error_string(TILERT_ERR_IO), "TILERT_ERR_IO"));
	CHECK(test_contains(tilert_error_string(-1), "unknown"));
	CHECK(test_contains(tilert_error_string(1000), "unknown"));
	CHECK(tilert_last_error() != NULL);
}

static void test_introspection(tilert_module *mod)
{
	static const char *const names[] = { "grid3d", "scalars", "vadd", "vscale" };
	tilert_param_info info;
	tilert_kernel *k = NULL, *k2 = NULL;

	CHECK(tilert_module_format(mod) == TILERT_FORMAT_HOST);
	CHECK(tilert_module_num_kernels(mod) == 4);
	for (size_t i = 0; i < 4; i++)
		CHECK(strcmp(tilert_module_kernel_name(mod, i), names[i]) == 0);
	CHECK(tilert_module_kernel_name(mod, 4) == NULL);

	CHECK(tilert_module_get_kernel(mod, "vadd", &k) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "vadd", &k2) == TILERT_OK && k == k2);
	CHECK(strcmp(tilert_kernel_name(k), "vadd") == 0);
	CHECK(tilert_kernel_num_params(k) == 4);
	CHECK(tilert_kernel_param(k, 0, &info) == TILERT_OK);
	CHECK(strcmp(info.type, "*fp32") == 0 && info.is_pointer && info.kind == TILERT_TYPE_PTR);
	CHECK(info.size == sizeof(void *) && info.divisibility == 16);
	CHECK(tilert_kernel_param(k, 3, &info) == TILERT_OK);
	CHECK(strcmp(info.type, "i32") == 0 && !info.is_pointer && info.kind == TILERT_TYPE_I32);
	CHECK(info.size == 4 && info.divisibility == 0);
	CHECK(tilert_kernel_param(k, 4, &info) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(test_contains(tilert_last_error(), "has 4 parameter(s)"));
	CHECK(strcmp(tilert_kernel_meta(k, "target"), HOST) == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "block"), "1,1,1") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "num_warps"), "4") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "future"), "42") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "params"), "*fp32:16,*fp32:16,*fp32:16,i32") == 0);
	CHECK(tilert_kernel_meta(k, "nope") == NULL);

	CHECK(tilert_module_get_kernel(mod, "scalars", &k) == TILERT_OK);
	CHECK(tilert_kernel_num_params(k) == 17);
	CHECK(tilert_kernel_param(k, 1, &info) == TILERT_OK && info.kind == TILERT_TYPE_I1);
	CHECK(info.size == sizeof(_Bool));
	CHECK(tilert_kernel_param(k, 11, &info) == TILERT_OK && info.kind == TILERT_TYPE_FP16);
	CHECK(info.size == 2 && strcmp(info.type, "fp16") == 0);
	CHECK(tilert_kernel_param(k, 16, &info) == TILERT_OK && info.divisibility == 1);

	/* CRLF lines, a blank line and spaces around '=' and ',' (vscale's metadata). */
	CHECK(tilert_module_get_kernel(mod, "vscale", &k) == TILERT_OK);
	CHECK(tilert_kernel_num_params(k) == 3);
	CHECK(tilert_kernel_param(k, 1, &info) == TILERT_OK && strcmp(info.type, "fp32") == 0);

	k = (tilert_kernel *)1;
	CHECK(tilert_module_get_kernel(mod, "vaddx", &k) == TILERT_ERR_NOT_FOUND && k == NULL);
	CHECK(strcmp(tilert_last_error(), "kernel 'vaddx' not found in module (it has: grid3d, "
	                                  "scalars, vadd, vscale)") == 0);
	CHECK(tilert_module_get_kernel(mod, NULL, &k) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_module_get_kernel(NULL, "vadd", &k) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_module_get_kernel(mod, "vadd", NULL) == TILERT_ERR_INVALID_ARGUMENT);
}

/* out = x + y over n elements, the programs of BLOCK = 4 each, with a guard after n. */
static void check_vadd(tilert_module *mod, int path, int32_t n)
{
	tilert_kernel *k;
	size_t cap = ((size_t)n + 16 + 3) / 4 * 4; /* aligned_alloc wants a multiple of 16 bytes */
	float *x = aligned_alloc(16, cap * 4), *y = aligned_alloc(16, cap * 4);
	float *out = aligned_alloc(16, cap * 4);
	void *px = x, *py = y, *po = out;
	void *args[4] = { &px, &py, &po, &n };
	tilert_grid grid = { (uint32_t)(n + 3) / 4, 1, 1 };
	int bad = 0;

	CHECK(tilert_module_get_kernel(mod, "vadd", &k) == TILERT_OK);
	for (size_t i = 0; i < cap; i++) {
		x[i] = (float)i;
		y[i] = (float)(1000 * i);
		out[i] = -1;
	}
	CHECK(launchers[path](k, NULL, grid, args, 4) == TILERT_OK);
	for (size_t i = 0; i < cap; i++)
		bad += out[i] != (i < (size_t)n ? (float)(1001 * i) : -1.0f);
	if (bad)
		fprintf(stderr, "vadd n=%d path=%s: %d wrong element(s)\n", n, launcher_names[path], bad);
	CHECK(bad == 0);
	free(x);
	free(y);
	free(out);
}

/* Every program of the grid ran exactly once and saw its own ids and the grid's size. */
static void check_grid3d(tilert_module *mod, int path, uint32_t gx, uint32_t gy, uint32_t gz)
{
	size_t total = (size_t)gx * gy * gz;
	int32_t *seen = calloc(total, sizeof *seen), *ids = calloc(total * 6, sizeof *ids);
	void *args[2] = { &seen, &ids };
	tilert_grid grid = { gx, gy, gz };
	tilert_kernel *k;
	size_t bad = 0;

	CHECK(tilert_module_get_kernel(mod, "grid3d", &k) == TILERT_OK);
	CHECK(launchers[path](k, NULL, grid, args, 2) == TILERT_OK);
	for (size_t id = 0; id < total; id++) {
		const int32_t *r = ids + 6 * id;

		bad += seen[id] != 1;
		bad += r[0] != (int32_t)(id % gx) || r[1] != (int32_t)(id / gx % gy) ||
		       r[2] != (int32_t)(id / gx / gy);
		bad += r[3] != (int32_t)gx || r[4] != (int32_t)gy || r[5] != (int32_t)gz;
	}
	if (bad)
		fprintf(stderr, "grid3d %ux%ux%u path=%s: %zu bad program(s)\n", gx, gy, gz,
		        launcher_names[path], bad);
	CHECK(bad == 0);
	free(seen);
	free(ids);
}

/* Every scalar type through both paths; values chosen so that a wrong extension, a
 * swapped register or a misplaced stack slot shows. */
static void check_scalars(tilert_module *mod, int path)
{
	enum { SLOTS = 18, NPROG = 6 };
	_Alignas(16) uint64_t out[SLOTS * NPROG];
	_Bool b = 1;
	float f0 = 1.5f, f1 = -2.25f;
	int8_t i8 = -5;
	double d0 = 3.14159, d1 = -1e300;
	int16_t i16 = -1234;
	int32_t i32 = -123456789, one = 1;
	int64_t i64 = -1234567890123LL;
	uint8_t u8 = 250;
	uint16_t u16 = 65000, h = 0x3c00, bf = 0x3f80;
	uint32_t u32 = 4000000000u;
	uint64_t u64 = 0xfedcba9876543210ull;
	void *po = out;
	void *args[17] = { &po, &b, &f0, &i8, &d0, &i16, &i32, &f1, &i64, &u8, &u16, &h, &u32,
		           &u64, &bf, &d1, &one };
	tilert_grid grid = { 3, 2, 1 };
	tilert_kernel *k;
	uint32_t fb0, fb1;
	uint64_t db0, db1;

	memcpy(&fb0, &f0, 4);
	memcpy(&fb1, &f1, 4);
	memcpy(&db0, &d0, 8);
	memcpy(&db1, &d1, 8);
	memset(out, 0xab, sizeof out);
	CHECK(tilert_module_get_kernel(mod, "scalars", &k) == TILERT_OK);
	CHECK(launchers[path](k, NULL, grid, args, 17) == TILERT_OK);
	for (int p = 0; p < NPROG; p++) {
		const uint64_t *o = out + p * SLOTS;
		const uint64_t want[SLOTS] = {
			1, fb0, (uint64_t)(int64_t)i8, db0, (uint64_t)(int64_t)i16,
			(uint64_t)(int64_t)i32, fb1, (uint64_t)i64, u8, u16, h, u32, u64, bf, db1, 1,
			(uint64_t)(p % 3) | (uint64_t)(p / 3) << 21, 3 | 2ull << 21 | 1ull << 42,
		};

		for (int s = 0; s < SLOTS; s++) {
			if (o[s] != want[s])
				fprintf(stderr, "scalars path=%s program %d slot %d: %#llx, want %#llx\n",
				        launcher_names[path], p, s, (unsigned long long)o[s],
				        (unsigned long long)want[s]);
			CHECK(o[s] == want[s]);
		}
	}
}

/* vscale has no NAME__grid: tilert_launch takes the ffi path. */
static void check_vscale(tilert_module *mod, int path)
{
	_Alignas(16) float v[13];
	void *pv = v;
	float a = 2.0f;
	int32_t n = 13;
	void *args[3] = { &pv, &a, &n };
	tilert_grid grid = { 4, 1, 1 };
	tilert_kernel *k;
	int rc;

	for (int i = 0; i < 13; i++)
		v[i] = (float)i;
	CHECK(tilert_module_get_kernel(mod, "vscale", &k) == TILERT_OK);
	rc = launchers[path](k, NULL, grid, args, 3);
	if (!tilert_has_ffi()) {
		CHECK(rc == TILERT_ERR_UNSUPPORTED);
		CHECK(test_contains(tilert_last_error(), "without libffi"));
		return;
	}
	CHECK(rc == TILERT_OK);
	for (int i = 0; i < 13; i++)
		CHECK(v[i] == 2.0f * (float)i);
}

static void test_launches(tilert_module *mod)
{
	static const int32_t sizes[] = { 1, 4, 5, 7, 13, 64, 1021, 4096, 100003 };
	static const uint32_t grids[][3] = {
		{ 1, 1, 1 }, { 2, 1, 1 }, { 7, 1, 1 }, { 13, 11, 1 }, { 3, 5, 7 }, { 1, 1, 97 },
		{ 31, 1, 17 }, { 1, 29, 1 }, { 1000, 3, 2 }, { 65537, 1, 1 },
	};
	static const unsigned threads[] = { 1, 2, 3, 8, 33 };

	for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
		CHECK(tilert_set_num_threads(threads[t]) == TILERT_OK);
		CHECK(tilert_get_num_threads() == threads[t]);
		for (int path = 0; path < 2; path++) {
			if (path == 1 && !tilert_has_ffi()) {
				tilert_kernel *k;
				void *args[2] = { NULL, NULL };
				tilert_grid one = { 1, 1, 1 };
				int32_t dummy[6];
				void *pd = dummy;

				args[0] = args[1] = &pd;
				CHECK(tilert_module_get_kernel(mod, "grid3d", &k) == TILERT_OK);
				CHECK(tilert_launch_ffi(k, NULL, one, args, 2) == TILERT_ERR_UNSUPPORTED);
				continue;
			}
			for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
				check_vadd(mod, path, sizes[i]);
			for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
				check_grid3d(mod, path, grids[i][0], grids[i][1], grids[i][2]);
			check_scalars(mod, path);
			check_vscale(mod, path);
		}
	}
	CHECK(tilert_set_num_threads(0) == TILERT_OK);
	CHECK(tilert_get_num_threads() >= 1);
	check_grid3d(mod, 0, 37, 3, 3);
}

static void test_launch_errors(tilert_module *mod)
{
	tilert_kernel *k;
	_Alignas(16) float buf[8] = { 0 };
	void *p = buf, *mis = buf + 1;
	int32_t n = 8, two = 2;
	void *args[4] = { &p, &p, &p, &n };
	tilert_grid one = { 1, 1, 1 }, zero = { 0, 1, 1 }, huge = { INT32_MAX, INT32_MAX, INT32_MAX };
	tilert_grid wide = { (uint32_t)INT32_MAX + 1, 1, 1 };

	CHECK(tilert_module_get_kernel(mod, "vadd", &k) == TILERT_OK);
	for (int path = 0; path < 2; path++) {
		launch_fn launch = launchers[path];

		CHECK(launch(k, NULL, one, args, 3) == TILERT_ERR_ARGUMENTS);
		CHECK(strcmp(tilert_last_error(), "kernel 'vadd' takes 4 argument(s); got 3") == 0);
		CHECK(launch(k, NULL, one, args, 5) == TILERT_ERR_ARGUMENTS);
		CHECK(launch(k, NULL, one, NULL, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(launch(NULL, NULL, one, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(launch(k, NULL, zero, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "bad grid 0x1x1"));
		CHECK(launch(k, NULL, wide, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(launch(k, NULL, huge, args, 4) == TILERT_ERR_LAUNCH);
		CHECK(test_contains(tilert_last_error(), "too many programs"));
		args[1] = NULL;
		CHECK(launch(k, NULL, one, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "args[1] is NULL"));
		args[1] = &mis; /* *fp32:16 that is not 16-byte aligned */
		CHECK(launch(k, NULL, one, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "argument 1 (*fp32:16) is not divisible by 16"));
		args[1] = &p;
	}
	/* i32:1 given 2 */
	{
		void *sargs[17];
		uint64_t zero64 = 0;

		for (int i = 0; i < 17; i++)
			sargs[i] = &zero64;
		sargs[0] = &p;
		sargs[16] = &two;
		CHECK(tilert_module_get_kernel(mod, "scalars", &k) == TILERT_OK);
		CHECK(tilert_launch(k, NULL, one, sargs, 17) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "(i32:1) was specialized to 1, got 2"));
	}
}

static void test_streams(tilert_module *mod)
{
	tilert_stream *s = NULL;

	CHECK(tilert_stream_create(&s) == TILERT_OK && s);
	CHECK(tilert_stream_create(NULL) == TILERT_ERR_INVALID_ARGUMENT);
	{
		tilert_kernel *k;
		int32_t seen[6] = { 0 }, ids[36];
		void *ps = seen, *pi = ids;
		void *args[2] = { &ps, &pi };
		tilert_grid grid = { 2, 3, 1 };

		CHECK(tilert_module_get_kernel(mod, "grid3d", &k) == TILERT_OK);
		CHECK(tilert_launch(k, s, grid, args, 2) == TILERT_OK);
		CHECK(tilert_stream_synchronize(s) == TILERT_OK);
		for (int i = 0; i < 6; i++)
			CHECK(seen[i] == 1);
	}
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	CHECK(tilert_stream_destroy(s) == TILERT_OK);
	CHECK(tilert_stream_destroy(NULL) == TILERT_OK);
}

/* Several threads launching at once share the pool; each sees its own programs. */
static void *concurrent_main(void *arg)
{
	tilert_module *mod = arg;

	for (int i = 0; i < 20; i++)
		check_grid3d(mod, i & (tilert_has_ffi() ? 1 : 0), 17, 3, (uint32_t)(1 + i % 4));
	return NULL;
}

static void test_concurrent(tilert_module *mod)
{
	pthread_t t[4];

	tilert_set_num_threads(4);
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&t[i], NULL, concurrent_main, mod) == 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

static void test_load_data(void)
{
	tilert_module *a = NULL, *b = NULL;
	unsigned char *data;
	size_t size;

	data = test_slurp(kernel_path("kernels.so"), &size);
	CHECK(data != NULL);
	if (!data)
		return;
	CHECK(tilert_module_load_data(data, size, &a) == TILERT_OK);
	CHECK(tilert_module_load_data(data, size, &b) == TILERT_OK);
	free(data); /* the modules keep no reference to the bytes */
	if (a && b) {
		CHECK(tilert_module_num_kernels(a) == 4);
		tilert_set_num_threads(3);
		for (int path = 0; path < 1 + tilert_has_ffi(); path++) {
			check_vadd(a, path, 1021);
			check_grid3d(b, path, 5, 7, 3);
			check_scalars(b, path);
		}
	}
	CHECK(tilert_module_unload(a) == TILERT_OK);
	CHECK(tilert_module_unload(b) == TILERT_OK);
	CHECK(tilert_module_unload(NULL) == TILERT_OK);
}

static void test_bad_modules(const char *foreign)
{
	static const struct {
		const char *file;
		const char *message;
	} cases[] = {
		{ "kernels_bad1.so", "kernel 'bad': metadata has no 'params' key" },
		{ "kernels_bad2.so", "kernel 'bad' was compiled for target 'nvptx', but the module is " HOST },
		{ "kernels_bad3.so", "kernel 'nothere' has metadata but no entry point 'nothere'" },
		{ "kernels_bad4.so", "kernel 'bad': parameter 0: unknown type 'f33'" },
		{ "kernels_bad5.so", "no tilecc kernels in this shared object" },
		{ "kernels_bad6.so", "metadata version 2 is newer than this runtime's (1)" },
		{ "kernels_bad7.so", "bad__meta is not a NUL-terminated string" },
	};
	tilert_module *mod;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		mod = (tilert_module *)1;
		CHECK(tilert_module_load_file(kernel_path(cases[i].file), &mod) == TILERT_ERR_FORMAT);
		CHECK(mod == NULL);
		if (!test_contains(tilert_last_error(), cases[i].message))
			fprintf(stderr, "%s: got '%s'\n", cases[i].file, tilert_last_error());
		CHECK(test_contains(tilert_last_error(), cases[i].message));
	}
	CHECK(tilert_module_load_file(kernel_path("missing.so"), &mod) == TILERT_ERR_IO);
	CHECK(test_contains(tilert_last_error(), "missing.so"));
	CHECK(tilert_module_load_file(kernel_dir, &mod) != TILERT_OK); /* a directory */
	CHECK(tilert_module_load_file(NULL, &mod) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_module_load_file(kernel_path("kernels.so"), NULL) == TILERT_ERR_INVALID_ARGUMENT);
	if (foreign) {
		CHECK(tilert_module_load_file(foreign, &mod) == TILERT_ERR_FORMAT);
		if (strcmp(tilert_last_error(), FOREIGN_MESSAGE) != 0)
			fprintf(stderr, "foreign: got '%s'\n", tilert_last_error());
		CHECK(strcmp(tilert_last_error(), FOREIGN_MESSAGE) == 0);
	} else {
		printf("test_runtime: no foreign-machine object given; that check is skipped\n");
	}
}

int main(int argc, char **argv)
{
	tilert_module *mod = NULL;
	const char *env = getenv("TILERT_NUM_THREADS");
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: test_runtime KERNEL_DIR [FOREIGN_SO]\n");
		return 2;
	}
	kernel_dir = argv[1];
	if (env && *env)
		CHECK(tilert_get_num_threads() == (unsigned)atoi(env));
	test_error_strings();
	rc = tilert_module_load_file(kernel_path("kernels.so"), &mod);
	if (rc != TILERT_OK)
		fprintf(stderr, "cannot load kernels.so: %s\n", tilert_last_error());
	CHECK(rc == TILERT_OK);
	if (mod) {
		test_introspection(mod);
		test_launches(mod);
		test_launch_errors(mod);
		test_streams(mod);
		test_concurrent(mod);
		CHECK(tilert_module_unload(mod) == TILERT_OK);
	}
	test_load_data();
	test_bad_modules(argc > 2 && *argv[2] ? argv[2] : NULL);
	printf("test_runtime: libffi path %s\n", tilert_has_ffi() ? "tested" : "compiled out");
	return test_result("test_runtime");
}
