/* test_runtime_cuda.c: libtilert's CUDA path as far as any machine can check it: GPU
 * artifacts and device memory refused with TILERT_ERR_NO_DRIVER where there is no driver
 * (or, on a machine with a usable CUDA device, loaded and run: a small portable PTX kernel);
 * the scans that list a GPU module's kernels, on PTX text and on a cubin (from ptxas, when
 * the build found one), including truncated and tricky input. The full GPU test, for a
 * machine with an sm_90 device, is tests/gpu/run.sh.
 *
 * usage: test_runtime_cuda PTX [CUBIN]
 *   PTX    tests/gpu/vadd_meta.ptx (kernels vadd and vswap_smem)
 *   CUBIN  the same compiled by ptxas -arch=sm_90 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/tilert_int.h"
#include "test.h"
#include "tilecc/tilert.h"

static const char NO_DRIVER_MESSAGE[] = "no CUDA driver (libcuda.so.1 not found)";

/* fill(out, value, n): out[i] = value for i < n, 64 threads per program. PTX ISA 6.0 for
 * sm_50, so that any driver and device of the last decade can JIT it. */
static const char fill_ptx[] =
	"// fill: a tilecc-style kernel for any NVIDIA GPU\n"
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	"\n"
	".visible .global .align 1 .b8 fill__meta[97] = {\n"
	"116, 105, 108, 101, 99, 99, 45, 107, 101, 114, 110, 101, 108, 61, 49, 10,\n"
	"110, 97, 109, 101, 61, 102, 105, 108, 108, 10, 116, 97, 114, 103, 101, 116,\n"
	"61, 110, 118, 112, 116, 120, 10, 112, 97, 114, 97, 109, 115, 61, 42, 105,\n"
	"51, 50, 58, 49, 54, 44, 105, 51, 50, 44, 105, 51, 50, 10, 110, 117,\n"
	"109, 95, 119, 97, 114, 112, 115, 61, 50, 10, 115, 104, 97, 114, 101, 100,\n"
	"61, 48, 10, 98, 108, 111, 99, 107, 61, 54, 52, 44, 49, 44, 49, 10,\n"
	"0 };\n"
	"\n"
	".visible .entry fill(.param .u64 out, .param .u32 value, .param .u32 n)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<7>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tld.param.u32 %r1, [value];\n"
	"\tld.param.u32 %r2, [n];\n"
	"\tmov.u32 %r3, %ctaid.x;\n"
	"\tmov.u32 %r4, %ntid.x;\n"
	"\tmov.u32 %r5, %tid.x;\n"
	"\tmad.lo.s32 %r6, %r3, %r4, %r5;\n"
	"\tsetp.ge.s32 %p1, %r6, %r2;\n"
	"\t@%p1 bra DONE;\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmul.wide.s32 %rd3, %r6, 4;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd2], %r1;\n"
	"DONE:\n"
	"\tret;\n"
	"}\n";

static int has_cuda;
static int has_libcuda; /* libcuda.so.1 can be opened, device or not */

/* Without a usable driver: TILERT_ERR_NO_DRIVER, saying what was refused and why. */
static void check_no_driver(int rc, const char *what)
{
	CHECK(rc == TILERT_ERR_NO_DRIVER);
	CHECK(test_contains(tilert_last_error(), what));
	if (!has_libcuda)
		CHECK(test_contains(tilert_last_error(), NO_DRIVER_MESSAGE));
}

/* A cubin-like ELF header: EM_CUDA, nothing else. */
static void cubin_header(Elf64_Ehdr *eh)
{
	memset(eh, 0, sizeof *eh);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = 190; /* EM_CUDA */
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof *eh;
}

static void test_modules(const char *ptx_path)
{
	tilert_module *mod = NULL;
	Elf64_Ehdr eh;
	int rc;

	rc = tilert_module_load_file(ptx_path, &mod);
	if (!has_cuda) {
		check_no_driver(rc, "cannot load a PTX module");
		CHECK(mod == NULL);
	} else {
		/* sm_90 PTX: loads on Hopper and newer, refused as a bad image before that. */
		CHECK(rc == TILERT_OK || rc == TILERT_ERR_FORMAT);
		if (rc == TILERT_OK)
			CHECK(tilert_module_num_kernels(mod) == 2);
		else
			CHECK(test_contains(tilert_last_error(), "cuModuleLoadDataEx: CUDA_ERROR_"));
		tilert_module_unload(mod);
		mod = NULL;
	}

	rc = tilert_module_load_data(fill_ptx, sizeof fill_ptx - 1, &mod);
	if (!has_cuda) {
		check_no_driver(rc, "cannot load a PTX module");
	} else {
		CHECK(rc == TILERT_OK);
		CHECK(tilert_module_format(mod) == TILERT_FORMAT_PTX);
		CHECK(tilert_module_num_kernels(mod) == 1);
		CHECK(test_contains(tilert_module_kernel_name(mod, 0), "fill"));
	}
	tilert_module_unload(mod);
	mod = NULL;

	cubin_header(&eh);
	rc = tilert_module_load_data(&eh, sizeof eh, &mod);
	if (!has_cuda)
		check_no_driver(rc, "cannot load a cubin");
	else
		CHECK(rc != TILERT_OK && test_contains(tilert_last_error(), "cuModuleLoadDataEx"));
	CHECK(mod == NULL);
}

/* On a machine with a device: fill 1000 ints through a stream, read them back. */
static void test_fill_on_device(void)
{
	tilert_module *mod = NULL;
	tilert_kernel *k = NULL;
	tilert_stream *s = NULL;
	int32_t host[1000], value = 7, n = 1000;
	void *dev = NULL;
	int bad = 0;

	if (!has_cuda)
		return;
	CHECK(tilert_module_load_data(fill_ptx, sizeof fill_ptx - 1, &mod) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "fill", &k) == TILERT_OK);
	CHECK(tilert_device_alloc(sizeof host, &dev) == TILERT_OK);
	CHECK(tilert_stream_create(&s) == TILERT_OK);
	if (!k || !dev || !s)
		goto done;
	{
		void *args[] = { &dev, &value, &n };
		tilert_grid grid = { (uint32_t)(n + 63) / 64, 1, 1 };

		CHECK(tilert_memset_d8(dev, 0xff, sizeof host) == TILERT_OK);
		CHECK(tilert_launch(k, s, grid, args, 3) == TILERT_OK);
		CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	}
	CHECK(tilert_memcpy_dtoh(host, dev, sizeof host) == TILERT_OK);
	for (int i = 0; i < n; i++)
		bad += host[i] != value;
	CHECK(bad == 0);
done:
	tilert_stream_destroy(s);
	tilert_device_free(dev);
	tilert_module_unload(mod);
}

static void test_device_memory(void)
{
	unsigned char host[64] = { 0 };
	void *dev = (void *)&host; /* any non-NULL value: it must not be touched */
	void *out = NULL;
	tilert_stream *s = NULL;

	CHECK(tilert_device_free(NULL) == TILERT_OK);
	CHECK(tilert_device_alloc(16, NULL) == TILERT_ERR_INVALID_ARGUMENT);
	if (has_cuda) {
		CHECK(tilert_device_alloc(sizeof host, &out) == TILERT_OK && out != NULL);
		CHECK(tilert_memset_d8(out, 0x5a, sizeof host) == TILERT_OK);
		CHECK(tilert_memcpy_dtoh(host, out, sizeof host) == TILERT_OK);
		CHECK(host[0] == 0x5a && host[63] == 0x5a);
		CHECK(tilert_device_free(out) == TILERT_OK);
		return;
	}
	check_no_driver(tilert_device_alloc(16, &out), "cannot allocate device memory");
	CHECK(out == NULL);
	check_no_driver(tilert_memcpy_htod(dev, host, sizeof host), "cannot copy to the device");
	check_no_driver(tilert_memcpy_dtoh(host, dev, sizeof host), "cannot copy from the device");
	check_no_driver(tilert_memset_d8(dev, 0, sizeof host), "cannot set device memory");
	check_no_driver(tilert_device_free(dev), "cannot free device memory");
	/* Streams without GPU work never need the driver. */
	CHECK(tilert_stream_create(&s) == TILERT_OK);
	CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	CHECK(tilert_stream_destroy(s) == TILERT_OK);
}

/* Scans text; checks that it finds exactly the names in want (sorted, ','-separated). */
static void check_ptx_scan(const char *text, const char *want)
{
	char **names = NULL, got[512] = "";
	size_t n = 0;

	CHECK(tilert_scan_ptx(text, strlen(text), &names, &n) == TILERT_OK);
	for (size_t i = 0; i < n; i++) {
		strcat(got, i ? "," : "");
		strncat(got, names[i], 100);
	}
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "scan of \"%s\": got \"%s\", want \"%s\"\n", text, got, want);
		CHECK(0);
	}
	tilert_names_free(names, n);
}

static void test_ptx_scan(const unsigned char *ptx, size_t size)
{
	char **names = NULL;
	size_t n = 0;

	CHECK(tilert_scan_ptx((const char *)ptx, size, &names, &n) == TILERT_OK);
	CHECK(n == 2 && strcmp(names[0], "vadd") == 0 && strcmp(names[1], "vswap_smem") == 0);
	tilert_names_free(names, n);
	/* every prefix: no reads past the end (ASan) */
	for (size_t cut = 0; cut <= size; cut++) {
		CHECK(tilert_scan_ptx((const char *)ptx, cut, &names, &n) == TILERT_OK);
		tilert_names_free(names, n);
	}
	check_ptx_scan("", "");
	check_ptx_scan(".visible .entry b(\n) {}\n.entry a (.param .u64 p) {}", "a,b");
	check_ptx_scan(".entry\n\tk\n(", "k");
	check_ptx_scan(".entry k {} .entry k {}", "k");
	check_ptx_scan("// .entry c(\n/* .entry d( */ .entry e(", "e");
	check_ptx_scan(".file 1 \".entry f(\"\n.entry g(", "g");
	check_ptx_scan(".entryx h( x.entry i( .func j( .entry $k( .entry l$m(", "");
	check_ptx_scan("/* unterminated .entry n(", "");
	check_ptx_scan(".entry", "");
	check_ptx_scan(".entry ", "");
	check_ptx_scan(".entry o", "o");
}

static void test_cubin_scan(const unsigned char *cubin, size_t size)
{
	unsigned char *copy = malloc(size);
	char **names = NULL;
	size_t n = 0;
	Elf64_Ehdr eh;
	int rc;

	CHECK(tilert_scan_elf(cubin, size, "cubin", &names, &n) == TILERT_OK);
	CHECK(n == 2 && strcmp(names[0], "vadd") == 0 && strcmp(names[1], "vswap_smem") == 0);
	tilert_names_free(names, n);
	/* every cut, in a buffer of exactly that size: refused or scanned, never read past */
	for (size_t cut = 0; cut < size; cut++) {
		unsigned char *p = malloc(cut ? cut : 1);

		memcpy(p, cubin, cut);
		rc = tilert_scan_elf(p, cut, "cubin", &names, &n);
		CHECK(rc == TILERT_OK || rc == TILERT_ERR_FORMAT);
		if (rc == TILERT_OK)
			tilert_names_free(names, n);
		free(p);
	}
	/* random bytes over the section headers and symbols */
	memcpy(&eh, cubin, sizeof eh);
	for (unsigned iter = 0; iter < 300 && copy; iter++) {
		memcpy(copy, cubin, size);
		for (unsigned j = 0; j < 8; j++)
			copy[(iter * 7919u + j * 104729u) % size] ^= (unsigned char)(iter * 31 + j);
		rc = tilert_scan_elf(copy, size, "cubin", &names, &n);
		CHECK(rc == TILERT_OK || rc == TILERT_ERR_FORMAT);
		if (rc == TILERT_OK)
			tilert_names_free(names, n);
	}
	free(copy);
	cubin_header(&eh);
	CHECK(tilert_scan_elf((const unsigned char *)&eh, sizeof eh, "cubin", &names, &n) == TILERT_OK);
	CHECK(n == 0);
	tilert_names_free(names, n);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	CHECK(tilert_scan_elf((const unsigned char *)&eh, sizeof eh, "cubin", &names, &n) ==
	      TILERT_ERR_FORMAT);
}

int main(int argc, char **argv)
{
	unsigned char *ptx, *cubin = NULL;
	size_t ptx_size = 0, cubin_size = 0;
	void *h;

	if (argc < 2) {
		fprintf(stderr, "usage: test_runtime_cuda PTX [CUBIN]\n");
		return 2;
	}
	if ((h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) != NULL) {
		has_libcuda = 1;
		dlclose(h);
	}
	has_cuda = tilert_has_cuda();
	CHECK(has_cuda == 0 || has_libcuda);
	printf("test_runtime_cuda: libcuda.so.1 %s, usable CUDA device: %s\n",
	       has_libcuda ? "found" : "absent", has_cuda ? "yes" : "no");

	test_modules(argv[1]);
	test_fill_on_device();
	test_device_memory();
	CHECK((ptx = test_slurp(argv[1], &ptx_size)) != NULL);
	if (ptx)
		test_ptx_scan(ptx, ptx_size);
	if (argc > 2) {
		CHECK((cubin = test_slurp(argv[2], &cubin_size)) != NULL);
		if (cubin)
			test_cubin_scan(cubin, cubin_size);
	}
	free(ptx);
	free(cubin);
	return test_result("test_runtime_cuda");
}
