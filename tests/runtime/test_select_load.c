/* test_select_load.c: tilert_variant_load_on() over fake devices and a fake loader (no GPU
 * needed): a cubin the driver refuses (CUDA_ERROR_NO_BINARY_FOR_GPU, _INVALID_IMAGE) gives
 * way to the next candidate, the same-major cubin or the PTX; other failures (no driver, out
 * of memory) do not; when every candidate is refused, the error names each. The fake loader
 * answers for the "GPU" images by their bytes and "loads" an accepted one as the real CPU
 * module kernels.so (whose kernel vadd the chosen index must then give), so the module and
 * kernel handed back are real ones, unloaded at the end.
 *
 *   test_select_load KERNEL_DIR */
#include <stdio.h>
#include <string.h>

#include "runtime/tilert_int.h"
#include "test.h"

static unsigned char *host_so;
static size_t host_size;

/* What the fake driver does with an image: its first byte. */
enum { OK = 'k', NO_BINARY = 'n', INVALID_IMAGE = 'i', NO_DRIVER = 'd', OOM = 'm' };
static const unsigned char ok[1] = {OK}, no_binary[1] = {NO_BINARY},
			   invalid_image[1] = {INVALID_IMAGE}, no_driver[1] = {NO_DRIVER}, oom[1] = {OOM};

static int calls; /* loader calls, in order, as their first bytes */
static char seen[16];

static int fake_load(const void *data, size_t size, tilert_module **out)
{
	unsigned char what = size ? *(const unsigned char *)data : 0;
	if (calls < (int)sizeof seen - 1)
		seen[calls] = (char)what;
	calls++;
	switch (what) {
	case NO_BINARY:
		return tilert_fail(TILERT_ERR_FORMAT, "cuModuleLoadDataEx: CUDA_ERROR_NO_BINARY_FOR_GPU: "
		                   "no kernel image is available for execution on the device");
	case INVALID_IMAGE:
		return tilert_fail(TILERT_ERR_FORMAT, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_IMAGE: "
		                   "device kernel image is invalid");
	case NO_DRIVER:
		return tilert_fail(TILERT_ERR_NO_DRIVER, "no CUDA driver");
	case OOM:
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "cuModuleLoadDataEx: CUDA_ERROR_OUT_OF_MEMORY");
	default:
		return tilert_module_load_data(host_so, host_size, out);
	}
}

#define V(t, f, img) {t, TILERT_FORMAT_##f, img, sizeof img}

/* Loads kernel "vadd" from v[0..n) for dev; the description of the chosen variant, or the
 * error's name. Checks that a success hands back a real module and kernel, and a failure
 * nothing. */
static const char *load(const tilert_variant *v, size_t n, tilert_device_info dev, int *rc_out)
{
	static char buf[64];
	tilert_module *m = NULL;
	tilert_kernel *k = NULL;
	size_t i = (size_t)-1;
	calls = 0;
	memset(seen, 0, sizeof seen);
	int rc = tilert_variant_load_on(v, n, "vadd", &dev, fake_load, &m, &k, &i);
	if (rc_out)
		*rc_out = rc;
	if (rc != TILERT_OK) {
		CHECK(m == NULL && k == NULL && i == (size_t)-1);
		return tilert_error_string(rc);
	}
	CHECK(m && k && i < n && !strcmp(tilert_kernel_name(k), "vadd"));
	CHECK(v[i].data == ok);
	tilert_module_unload(m);
	return tilert_variant_describe(&v[i], buf, sizeof buf);
}

#define EXPECT(got, want)                                                                          \
	do {                                                                                       \
		const char *g_ = (got);                                                            \
		if (strncmp(g_, want, strlen(want))) {                                             \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__, g_, want); \
			test_failures++;                                                           \
		}                                                                                  \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_select_load KERNEL_DIR\n");
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/kernels.so", argv[1]);
	host_so = test_slurp(path, &host_size);
	if (!host_so) {
		fprintf(stderr, "cannot read %s\n", path);
		return 2;
	}
	tilert_device_info h90 = {.cuda_cc = 90, .cpu = "x86-64"};
	tilert_device_info h89 = {.cuda_cc = 89, .cpu = "x86-64"};
	int rc;

	/* everything loads: the exact cubin, once */
	const tilert_variant good[] = {V("sm_90a", CUBIN, ok), V("sm_90a", PTX, ok), V("x86-64", HOST, ok)};
	EXPECT(load(good, 3, h90, NULL), "sm_90a cubin");
	CHECK(calls == 1);

	/* the cubin is refused (no binary for this GPU: a driver or GPU the cubin's SASS does not
	 * suit): its PTX, which the driver compiles */
	const tilert_variant nobin[] = {V("sm_90a", CUBIN, no_binary), V("sm_90a", PTX, ok),
	                                V("x86-64", HOST, ok)};
	EXPECT(load(nobin, 3, h90, NULL), "sm_90a ptx");
	CHECK(calls == 2 && !strcmp(seen, "nk"));

	/* the order of the candidates: exact cubin, same-major cubin, PTX by SM; each refusal
	 * moves to the next, whatever the order of the table */
	const tilert_variant chain[] = {V("sm_80", PTX, ok), V("sm_86", PTX, invalid_image),
	                                V("sm_80", CUBIN, no_binary), V("sm_89", CUBIN, invalid_image),
	                                V("x86-64", HOST, ok)};
	EXPECT(load(chain, 5, h89, NULL), "sm_80 ptx");
	CHECK(calls == 4 && !strcmp(seen, "inik")); /* sm_89 cubin, sm_80 cubin, sm_86 ptx, sm_80 ptx */

	/* every GPU candidate refused: an error naming each, not the CPU artifact (whose host
	 * pointers the program did not allocate for a GPU launcher) */
	const tilert_variant bad[] = {V("sm_90", CUBIN, no_binary), V("sm_90", PTX, invalid_image),
	                              V("x86-64", HOST, ok)};
	EXPECT(load(bad, 3, h90, &rc), "TILERT_ERR_FORMAT");
	CHECK(rc == TILERT_ERR_FORMAT && calls == 2);
	const char *e = tilert_last_error();
	CHECK(strstr(e, "no embedded artifact loads on this device") != NULL);
	CHECK(strstr(e, "sm_90 cubin: cuModuleLoadDataEx: CUDA_ERROR_NO_BINARY_FOR_GPU") != NULL);
	CHECK(strstr(e, "sm_90 ptx: cuModuleLoadDataEx: CUDA_ERROR_INVALID_IMAGE") != NULL);
	/* one candidate: its own error, as it was */
	EXPECT(load(bad, 1, h90, &rc), "TILERT_ERR_FORMAT");
	CHECK(calls == 1 && strstr(tilert_last_error(), "CUDA_ERROR_NO_BINARY_FOR_GPU") != NULL &&
	      strstr(tilert_last_error(), "no embedded artifact") == NULL);

	/* not a refusal of the image: no fallback */
	const tilert_variant nodrv[] = {V("sm_90", CUBIN, no_driver), V("sm_90", PTX, ok)};
	EXPECT(load(nodrv, 2, h90, &rc), "TILERT_ERR_NO_DRIVER");
	CHECK(calls == 1);
	const tilert_variant noram[] = {V("sm_90", CUBIN, oom), V("sm_90", PTX, ok)};
	EXPECT(load(noram, 2, h90, &rc), "TILERT_ERR_OUT_OF_MEMORY");
	CHECK(calls == 1);

	/* a loaded module without the kernel: that error, and the module unloaded */
	tilert_module *m = NULL;
	tilert_kernel *k = NULL;
	size_t i = 7;
	calls = 0;
	CHECK(tilert_variant_load_on(good, 3, "nosuch", &h90, fake_load, &m, &k, &i) ==
	      TILERT_ERR_NOT_FOUND);
	CHECK(calls == 1 && m == NULL && k == NULL && i == 7);

	/* nothing fits: the selection's error, no load */
	tilert_device_info h75 = {.cuda_cc = 75, .cpu = NULL};
	EXPECT(load(good, 2, h75, &rc), "TILERT_ERR_NOT_FOUND");
	CHECK(calls == 0 && strstr(tilert_last_error(), "sm_75") != NULL);

	/* no GPU: the CPU artifact; AMD: the HSACO, refused: no other candidate */
	tilert_device_info cpu = {.cpu = "x86-64"};
	EXPECT(load(good, 3, cpu, NULL), "x86-64");
	const tilert_variant amd[] = {V("gfx942", HSACO, invalid_image), V("x86-64", HOST, ok)};
	tilert_device_info mi300 = {.cpu = "x86-64", .amd_arch = "gfx942"};
	EXPECT(load(amd, 2, mi300, &rc), "TILERT_ERR_FORMAT");
	CHECK(calls == 1);

	/* NULL arguments */
	CHECK(tilert_variant_load_on(good, 3, "vadd", &h90, NULL, &m, &k, &i) ==
	      TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_variant_load_on(good, 3, "vadd", NULL, fake_load, &m, &k, &i) ==
	      TILERT_ERR_INVALID_ARGUMENT);
	free(host_so);
	return test_result("test_select_load");
}
