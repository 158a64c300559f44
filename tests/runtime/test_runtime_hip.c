/* test_runtime_hip.c: libtilert's AMD path (hip.c) as far as a machine without an AMD GPU
 * can check it: HSACO modules and device memory refused with TILERT_ERR_NO_DRIVER, with
 * the reason, when there is no HIP runtime or no device; the whole path (load, kernel
 * records, launches, streams, device memory, errors) against a stand-in runtime
 * (hip_mock.c); and the scan that lists an HSACO's kernels. The HSACOs are built here in
 * memory (an ELF64 for EM_AMDGPU with the symbols a real one has), and, when given, read
 * from a real one (fill_amdgpu.ll, built by clang).
 *
 * usage: test_runtime_hip system [HSACO]     the machine's own HIP runtime, if any
 *        test_runtime_hip nolib [HSACO]      TILERT_HIP_LIBRARY=/nonexistent/libamdhip64.so
 *        test_runtime_hip mock MOCK [HSACO]  TILERT_HIP_LIBRARY=MOCK, the stand-in runtime,
 *                                            and no CUDA (TILERT_CUDA_DEVICE=none)
 *   HSACO  a code object with one kernel, fill(*i32 out, i32 value, i32 n), 64 threads */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/tilert_int.h"
#include "test.h"
#include "tilecc/tilert.h"

static const char NOLIB[] = "/nonexistent/libamdhip64.so";

static const char FILL_META[] = "tilecc-kernel=1\nname=fill\ntarget=amdgcn\n"
                                "params=*i32:16,i32,i32\nnum_warps=1\nshared=0\nblock=64,1,1\n";
/* No block=: 4 waves of 64 threads. */
static const char PROBE_META[] = "tilecc-kernel=1\nname=probe\ntarget=amdgcn\nparams=*u32\n"
                                 "num_warps=4\nshared=4096\n";

/* ---- HSACOs built in memory ---- */

enum { IMAGE_MAX = 8192 };

typedef struct image {
	unsigned char b[IMAGE_MAX];
	size_t size;
} image;

static size_t align(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

static size_t put(image *im, size_t off, const void *p, size_t n)
{
	if (off + n > IMAGE_MAX) {
		fprintf(stderr, "test image too large\n");
		exit(2);
	}
	memcpy(im->b + off, p, n);
	return off + n;
}

/* The strtab offset of s, added at *end. */
static Elf64_Word str_add(image *im, size_t strtab, size_t *end, const char *s)
{
	size_t at = *end;

	*end = put(im, at, s, strlen(s) + 1);
	return (Elf64_Word)(at - strtab);
}

/* An HSACO as the AMDGPU linker lays one out, reduced to what loaders read: for each
 * kernel names[i], a STT_FUNC NAME in .text and its kernel descriptor, the STT_OBJECT
 * NAME.kd, in .rodata; and, when metas[i] is not NULL, the STT_OBJECT NAME__meta there
 * too. Sections are at addresses equal to their offsets. */
static void image_build(image *im, const char *const *names, const char *const *metas, size_t n)
{
	static const char shstr[] = "\0.text\0.rodata\0.symtab\0.strtab\0.shstrtab";
	static const unsigned char endpgm[4] = { 0x00, 0x00, 0x81, 0xbf }; /* s_endpgm */
	size_t text = sizeof(Elf64_Ehdr), rodata, strtab, shstrtab, symtab, shoff, end;
	size_t kd[16], meta[16];
	Elf64_Sym syms[1 + 3 * 16];
	Elf64_Shdr sh[6];
	Elf64_Ehdr eh;
	size_t nsym = 1;

	memset(im, 0, sizeof *im);
	if (n > 16)
		exit(2);
	for (size_t i = 0; i < n; i++)
		put(im, text + 16 * i, endpgm, sizeof endpgm);
	rodata = align(text + 16 * n, 64);
	end = rodata;
	for (size_t i = 0; i < n; i++) {
		kd[i] = end;
		end += 64;
		meta[i] = end;
		if (metas[i])
			end = put(im, end, metas[i], strlen(metas[i]) + 1);
		end = align(end, 64);
	}
	strtab = end;
	end = put(im, end, "", 1);
	memset(syms, 0, sizeof syms);
	for (size_t i = 0; i < n; i++) {
		char name[64];

		syms[nsym].st_name = str_add(im, strtab, &end, names[i]);
		syms[nsym].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		syms[nsym].st_other = STV_PROTECTED;
		syms[nsym].st_shndx = 1;
		syms[nsym].st_value = text + 16 * i;
		syms[nsym++].st_size = 16;
		snprintf(name, sizeof name, "%s.kd", names[i]);
		syms[nsym].st_name = str_add(im, strtab, &end, name);
		syms[nsym].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
		syms[nsym].st_shndx = 2;
		syms[nsym].st_value = kd[i];
		syms[nsym++].st_size = 64;
		if (!metas[i])
			continue;
		snprintf(name, sizeof name, "%s__meta", names[i]);
		syms[nsym].st_name = str_add(im, strtab, &end, name);
		syms[nsym].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
		syms[nsym].st_shndx = 2;
		syms[nsym].st_value = meta[i];
		syms[nsym++].st_size = strlen(metas[i]) + 1;
	}
	shstrtab = end;
	end = put(im, end, shstr, sizeof shstr);
	symtab = align(end, 8);
	end = put(im, symtab, syms, nsym * sizeof *syms);
	shoff = align(end, 8);

	memset(sh, 0, sizeof sh);
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS,
	                      .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = text,
	                      .sh_offset = text, .sh_size = 16 * n, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
	                      .sh_addr = rodata, .sh_offset = rodata, .sh_size = strtab - rodata,
	                      .sh_addralign = 64 };
	sh[3] = (Elf64_Shdr){ .sh_name = 15, .sh_type = SHT_SYMTAB, .sh_offset = symtab,
	                      .sh_size = nsym * sizeof *syms, .sh_link = 4, .sh_info = 1,
	                      .sh_addralign = 8, .sh_entsize = sizeof *syms };
	sh[4] = (Elf64_Shdr){ .sh_name = 23, .sh_type = SHT_STRTAB, .sh_offset = strtab,
	                      .sh_size = shstrtab - strtab, .sh_addralign = 1 };
	sh[5] = (Elf64_Shdr){ .sh_name = 31, .sh_type = SHT_STRTAB, .sh_offset = shstrtab,
	                      .sh_size = sizeof shstr, .sh_addralign = 1 };
	im->size = put(im, shoff, sh, sizeof sh);

	memset(&eh, 0, sizeof eh);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = 64; /* ELFOSABI_AMDGPU_HSA */
	eh.e_ident[EI_ABIVERSION] = 2;
	eh.e_type = ET_DYN;
	eh.e_machine = 224; /* EM_AMDGPU */
	eh.e_version = EV_CURRENT;
	eh.e_flags = 0x3f; /* gfx90a */
	eh.e_ehsize = sizeof eh;
	eh.e_shoff = shoff;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 6;
	eh.e_shstrndx = 5;
	put(im, 0, &eh, sizeof eh);
}

/* fill and probe, and helper: a function without metadata, not a kernel. */
static void image_good(image *im)
{
	static const char *const names[] = { "fill", "probe", "helper" };
	static const char *const metas[] = { FILL_META, PROBE_META, NULL };

	image_build(im, names, metas, 3);
}

/* ---- The scan ---- */

/* Scans data; checks that it finds exactly the names in want (sorted, ','-separated). */
static void check_scan(const unsigned char *data, size_t size, const char *want)
{
	char **names = NULL, got[256] = "";
	size_t n = 0;

	CHECK(tilert_scan_elf(data, size, "HSACO", &names, &n) == TILERT_OK);
	for (size_t i = 0; i < n; i++) {
		strcat(got, i ? "," : "");
		strncat(got, names[i], 60);
	}
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "HSACO scan: got \"%s\", want \"%s\"\n", got, want);
		CHECK(0);
	}
	tilert_names_free(names, n);
}

/* Every cut, in a buffer of exactly that size: refused or scanned, never read past. */
static void check_scan_cuts(const unsigned char *data, size_t size)
{
	char **names;
	size_t n;
	int rc;

	for (size_t cut = 0; cut < size; cut++) {
		unsigned char *p = malloc(cut ? cut : 1);

		memcpy(p, data, cut);
		rc = tilert_scan_elf(p, cut, "HSACO", &names, &n);
		CHECK(rc == TILERT_OK || rc == TILERT_ERR_FORMAT);
		if (rc == TILERT_OK)
			tilert_names_free(names, n);
		else
			CHECK(test_contains(tilert_last_error(), "HSACO"));
		free(p);
	}
}

static void test_scan(const unsigned char *real, size_t real_size)
{
	static const char *const names[] = { "b", "a", "c" };
	static const char *const metas[] = { PROBE_META, FILL_META, NULL };
	image im;

	image_good(&im);
	check_scan(im.b, im.size, "fill,probe");
	check_scan_cuts(im.b, im.size);
	image_build(&im, names, metas, 3);
	check_scan(im.b, im.size, "a,b");
	image_build(&im, names, metas, 0);
	check_scan(im.b, im.size, "");
	if (real) {
		check_scan(real, real_size, "fill");
		check_scan_cuts(real, real_size);
	}
}

/* ---- Without a runtime or a device ---- */

/* The loads and device memory calls all fail with TILERT_ERR_NO_DRIVER; why is the reason
 * the HIP path gives (after "cannot load an HSACO: "). */
static void check_no_device(const char *why, const char *real_path)
{
	char load_msg[1024], *reason;
	tilert_module *mod = (tilert_module *)1;
	tilert_stream *s = NULL;
	Elf64_Ehdr eh;
	void *dev = NULL;
	image im;

	/* A bare header is an HSACO to the format detector, and goes no further. */
	memset(&eh, 0, sizeof eh);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_machine = 224; /* EM_AMDGPU */
	CHECK(tilert_format_detect(&eh, sizeof eh) == TILERT_FORMAT_HSACO);
	CHECK(tilert_module_load_data(&eh, sizeof eh, &mod) == TILERT_ERR_NO_DRIVER);
	CHECK(mod == NULL);
	snprintf(load_msg, sizeof load_msg, "%s", tilert_last_error());
	printf("test_runtime_hip: %s\n", load_msg);
	CHECK(strncmp(load_msg, "cannot load an HSACO: ", 22) == 0);
	CHECK(test_contains(load_msg, why));
	reason = load_msg + (strncmp(load_msg, "cannot load an HSACO: ", 22) == 0 ? 22 : 0);

	image_good(&im);
	CHECK(tilert_module_load_data(im.b, im.size, &mod) == TILERT_ERR_NO_DRIVER);
	CHECK(strcmp(tilert_last_error(), load_msg) == 0);
	if (real_path) {
		CHECK(tilert_module_load_file(real_path, &mod) == TILERT_ERR_NO_DRIVER);
		CHECK(strcmp(tilert_last_error(), load_msg) == 0);
	}
	CHECK(tilert_has_hip() == 0);

	/* Device memory: neither driver, both named. */
	if (!tilert_has_cuda()) {
		CHECK(tilert_device_alloc(16, &dev) == TILERT_ERR_NO_DRIVER);
		CHECK(dev == NULL);
		CHECK(strncmp(tilert_last_error(), "cannot allocate device memory: ", 31) == 0);
		CHECK(test_contains(tilert_last_error(), "CUDA"));
		CHECK(test_contains(tilert_last_error(), reason));
		CHECK(tilert_memset_d8(&eh, 0, 4) == TILERT_ERR_NO_DRIVER);
		CHECK(test_contains(tilert_last_error(), "cannot set device memory: "));
		CHECK(test_contains(tilert_last_error(), reason));
		CHECK(tilert_device_free(NULL) == TILERT_OK);
	}
	/* Streams without GPU work need no driver. */
	CHECK(tilert_stream_create(&s) == TILERT_OK);
	CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	CHECK(tilert_stream_destroy(s) == TILERT_OK);
}

/* The machine's own runtime: none (no libamdhip64.so), one without a device (this is what
 * CI machines have), or one with a device, where the real HSACO runs if its gfx9 fits. */
static void test_system(const char *real_path)
{
	static const char *const libs[] = { "libamdhip64.so", "libamdhip64.so.6",
	                                    "libamdhip64.so.5" };
	int has_hip = tilert_has_hip(), has_lib = 0;
	tilert_module *mod = NULL;
	image im;

	for (size_t i = 0; i < sizeof libs / sizeof libs[0] && !has_lib; i++) {
		void *h = dlopen(libs[i], RTLD_LAZY | RTLD_LOCAL);

		if (h) {
			has_lib = 1;
			dlclose(h);
		}
	}
	printf("test_runtime_hip: HIP runtime %s, usable AMD GPU: %s, /dev/kfd %s\n",
	       has_lib ? "found" : "absent", has_hip ? "yes" : "no",
	       access("/dev/kfd", F_OK) == 0 ? "present" : "absent");
	CHECK(has_hip == 0 || has_lib);
	if (!has_lib) {
		check_no_device("no HIP runtime: cannot load libamdhip64.so (", real_path);
		return;
	}
	if (!has_hip) {
		/* "no AMD GPU: hipInit: ...", or past hipInit, hipGetDeviceCount's answer */
		check_no_device("no AMD GPU", real_path);
		if (access("/dev/kfd", F_OK) != 0 && test_contains(tilert_last_error(), "hipInit"))
			CHECK(test_contains(tilert_last_error(), "(no /dev/kfd)"));
		return;
	}
	/* A device: the image without code is refused by the runtime; the real one runs when
	 * the device is a gfx90a (tests/gpu has no AMD counterpart yet). */
	image_good(&im);
	CHECK(tilert_module_load_data(im.b, im.size, &mod) == TILERT_ERR_FORMAT);
	if (real_path) {
		int rc = tilert_module_load_file(real_path, &mod);

		printf("test_runtime_hip: %s: %s\n", real_path, rc ? tilert_last_error() : "loaded");
		CHECK(rc == TILERT_OK || rc == TILERT_ERR_FORMAT);
		tilert_module_unload(mod);
	}
}

/* ---- Against the stand-in runtime ---- */

static int *mock_int(void *h, const char *name)
{
	static int zero;
	int *p = h ? dlsym(h, name) : NULL;

	CHECK(p != NULL);
	return p ? p : &zero;
}

/* A module of one kernel whose metadata is meta; its load must fail with code and a
 * message containing want. */
static void check_bad_kernel(const char *meta, int code, const char *want)
{
	static const char *const names[] = { "k" };
	const char *metas[] = { meta };
	tilert_module *mod = (tilert_module *)1;
	image im;

	image_build(&im, names, metas, 1);
	CHECK(tilert_module_load_data(im.b, im.size, &mod) == code);
	CHECK(mod == NULL);
	if (!test_contains(tilert_last_error(), want)) {
		fprintf(stderr, "got \"%s\", want \"%s\"\n", tilert_last_error(), want);
		CHECK(0);
	}
}

/* Launches fill over n of the ints at dev (which has room for more), on s; checks that
 * exactly the first n are value. */
static void check_fill(tilert_kernel *fill, tilert_stream *s, int32_t n)
{
	int32_t host[1024], value = 7;
	void *dev = NULL;
	int bad = 0;

	CHECK(n <= 1024);
	CHECK(tilert_device_alloc(sizeof host, &dev) == TILERT_OK);
	if (!dev)
		return;
	{
		void *args[] = { &dev, &value, &n };
		tilert_grid grid = { (uint32_t)(n + 63) / 64, 1, 1 };

		CHECK(tilert_memset_d8(dev, 0xff, sizeof host) == TILERT_OK);
		CHECK(tilert_launch(fill, s, grid, args, 3) == TILERT_OK);
		CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	}
	CHECK(tilert_memcpy_dtoh(host, dev, sizeof host) == TILERT_OK);
	for (int i = 0; i < 1024; i++)
		bad += host[i] != (i < n ? value : -1);
	CHECK(bad == 0);
	CHECK(tilert_device_free(dev) == TILERT_OK);
}

static void test_mock(const char *mock_path, const char *real_path)
{
	static const char *const only_helper[] = { "helper" };
	static const char *const no_meta[] = { NULL };
	int *modules, *streams, *allocs, *launches;
	tilert_module *mod = NULL;
	tilert_kernel *fill = NULL, *probe = NULL, *k = NULL;
	tilert_stream *s = NULL;
	uint32_t got[7] = { 0 };
	void *h, **last_stream, *dev = NULL, *big = NULL;
	image im;

	CHECK(tilert_has_hip() == 1);
	CHECK(tilert_has_cuda() == 0);
	h = dlopen(mock_path, RTLD_NOW | RTLD_NOLOAD); /* the copy libtilert opened */
	CHECK(h != NULL);
	modules = mock_int(h, "hip_mock_modules");
	streams = mock_int(h, "hip_mock_streams");
	allocs = mock_int(h, "hip_mock_allocs");
	launches = mock_int(h, "hip_mock_launches");
	last_stream = h ? dlsym(h, "hip_mock_last_stream") : NULL;
	CHECK(last_stream != NULL);
	if (!last_stream)
		return;

	/* The device as multi-target launchers see it: the mock's gfx90a, and its HSACO chosen
	 * from a launcher's list (the image's own target is not checked by the mock). */
	tilert_device_info info;
	CHECK(tilert_device_query(&info) == TILERT_OK);
	CHECK(info.cuda_cc == 0 && strcmp(info.amd_arch, "gfx90a") == 0);
	image_good(&im);
	{
		tilert_variant v[3] = { { "gfx942", TILERT_FORMAT_HSACO, im.b, im.size },
		                        { "gfx90a", TILERT_FORMAT_HSACO, im.b, im.size },
		                        { "x86-64", TILERT_FORMAT_HOST, im.b, 1 } };
		size_t chosen = 9;
		CHECK(tilert_variant_load(v, 3, "fill", &mod, &k, &chosen) == TILERT_OK);
		CHECK(chosen == 1 && k != NULL && tilert_module_format(mod) == TILERT_FORMAT_HSACO);
		tilert_module_unload(mod);
		mod = NULL;
		k = NULL;
	}

	/* The module: two kernels, in order; helper has no metadata. */
	CHECK(tilert_module_load_data(im.b, im.size, &mod) == TILERT_OK);
	if (!mod)
		return;
	memset(im.b, 0, sizeof im.b); /* libtilert keeps its own copy for the runtime */
	CHECK(*modules == 1);
	CHECK(tilert_module_format(mod) == TILERT_FORMAT_HSACO);
	CHECK(tilert_module_num_kernels(mod) == 2);
	CHECK(test_contains(tilert_module_kernel_name(mod, 0), "fill"));
	CHECK(test_contains(tilert_module_kernel_name(mod, 1), "probe"));
	CHECK(tilert_module_get_kernel(mod, "fill", &fill) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "probe", &probe) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "helper", &k) == TILERT_ERR_NOT_FOUND);
	CHECK(test_contains(tilert_last_error(), "(it has: fill, probe)"));
	CHECK(tilert_module_get_kernel(mod, "fill.kd", &k) == TILERT_ERR_NOT_FOUND);
	if (!fill || !probe)
		goto done;
	CHECK(tilert_kernel_num_params(fill) == 3);
	CHECK(test_contains(tilert_kernel_meta(probe, "target"), "amdgcn"));

	/* The geometry the runtime is given: block= (or 64 * num_warps), shared=, the grid as
	 * it is; y and z are not limited to 65535 as on CUDA. */
	CHECK(tilert_device_alloc(sizeof got, &dev) == TILERT_OK);
	CHECK(tilert_stream_create(&s) == TILERT_OK);
	if (dev && s) {
		void *args[] = { &dev };
		tilert_grid grid = { 3, 2, 1 }, tall = { 1, 70000, 1 }, huge = { INT32_MAX, 1, 1 };

		CHECK(tilert_launch(probe, s, grid, args, 1) == TILERT_OK);
		CHECK(*last_stream != NULL);
		CHECK(*streams == 1);
		CHECK(tilert_stream_synchronize(s) == TILERT_OK);
		CHECK(tilert_memcpy_dtoh(got, dev, sizeof got) == TILERT_OK);
		CHECK(got[0] == 3 && got[1] == 2 && got[2] == 1);
		CHECK(got[3] == 256 && got[4] == 1 && got[5] == 1 && got[6] == 4096);
		CHECK(tilert_launch(probe, NULL, tall, args, 1) == TILERT_OK);
		CHECK(*last_stream == NULL);
		CHECK(tilert_memcpy_dtoh(got, dev, sizeof got) == TILERT_OK);
		CHECK(got[1] == 70000);
		CHECK(tilert_launch(probe, s, huge, args, 1) == TILERT_ERR_LAUNCH);
		CHECK(test_contains(tilert_last_error(), "HIP allows at most 2^32-1 threads"));
		CHECK(*launches == 2);
	}
	/* Events: the mock's clock is its launch count (1 ms a launch); on a stream without
	 * GPU launches (and the default one), the host clock; the two do not mix. */
	{
		tilert_event *e0 = NULL, *e1 = NULL, *h0 = NULL;
		int *events = mock_int(h, "hip_mock_events");
		float ms = -1;
		void *args[] = { &dev };
		tilert_grid one = { 1, 1, 1 };
		CHECK(tilert_event_create(&e0) == TILERT_OK && tilert_event_create(&e1) == TILERT_OK);
		CHECK(tilert_event_create(&h0) == TILERT_OK);
		CHECK(tilert_event_elapsed_ms(e0, e1, &ms) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "never recorded"));
		CHECK(tilert_event_record(e0, s) == TILERT_OK);
		CHECK(events && *events == 1);
		CHECK(tilert_launch(probe, s, one, args, 1) == TILERT_OK);
		CHECK(tilert_launch(probe, s, one, args, 1) == TILERT_OK);
		CHECK(tilert_event_record(e1, s) == TILERT_OK);
		CHECK(tilert_event_elapsed_ms(e0, e1, &ms) == TILERT_OK && ms == 2.0f);
		CHECK(tilert_event_record(h0, NULL) == TILERT_OK);
		CHECK(events && *events == 2);
		CHECK(tilert_event_elapsed_ms(e0, h0, &ms) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(test_contains(tilert_last_error(), "different clocks"));
		CHECK(tilert_event_record(e1, NULL) == TILERT_OK);
		CHECK(tilert_event_elapsed_ms(h0, e1, &ms) == TILERT_OK && ms >= 0);
		CHECK(tilert_event_destroy(e0) == TILERT_OK && tilert_event_destroy(e1) == TILERT_OK);
		CHECK(tilert_event_destroy(h0) == TILERT_OK && tilert_event_destroy(NULL) == TILERT_OK);
		CHECK(events && *events == 0);
	}
	check_fill(fill, s, 1000);
	check_fill(fill, NULL, 64);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	CHECK(tilert_stream_destroy(s) == TILERT_OK);
	s = NULL;
	CHECK(*streams == 0);

	/* Device memory errors. */
	CHECK(tilert_device_alloc((size_t)1 << 41, &big) == TILERT_ERR_OUT_OF_MEMORY);
	CHECK(big == NULL);
	CHECK(test_contains(tilert_last_error(), "hipMalloc: hipErrorOutOfMemory: out of memory (mock)"));
	CHECK(tilert_memcpy_htod(NULL, got, 4) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_memcpy_dtoh(got, NULL, 4) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_memset_d8(NULL, 0, 4) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_device_alloc(0, &big) == TILERT_OK && big == NULL);
done:
	tilert_stream_destroy(s);
	CHECK(tilert_device_free(dev) == TILERT_OK);
	CHECK(*allocs == 0);
	CHECK(tilert_module_unload(mod) == TILERT_OK);
	CHECK(*modules == 0);

	/* Bad kernels fail the load as a whole, and the runtime's module is unloaded. */
	check_bad_kernel("tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=\n", TILERT_ERR_FORMAT,
	                 "kernel 'k' was compiled for target 'nvptx', but the module is amdgcn");
	check_bad_kernel("tilecc-kernel=1\nname=k\ntarget=amdgcn\nparams=\nshared=65537\n",
	                 TILERT_ERR_FORMAT,
	                 "kernel 'k' needs 65537 bytes of shared memory; device 0 allows 65536");
	check_bad_kernel("tilecc-kernel=1\nname=k\ntarget=amdgcn\nparams=\nnum_warps=32\n",
	                 TILERT_ERR_FORMAT, "block=2048,1,1 is more threads than device 0 allows "
	                 "(1024)");
	check_bad_kernel("tilecc-kernel=1\nname=k\ntarget=amdgcn\nparams=\nblock=1025\n",
	                 TILERT_ERR_FORMAT, "kernel 'k': bad block=1025");
	check_bad_kernel("tilecc-kernel=1\nname=other\ntarget=amdgcn\nparams=\n", TILERT_ERR_FORMAT,
	                 "kernel 'k': metadata names it 'other'");
	image_build(&im, only_helper, no_meta, 1);
	CHECK(tilert_module_load_data(im.b, im.size, &mod) == TILERT_ERR_FORMAT);
	CHECK(test_contains(tilert_last_error(), "no tilecc kernels in this HSACO"));
	CHECK(*modules == 0);

	/* Cut anywhere, the image is refused before the runtime sees it, or loads. */
	image_good(&im);
	for (size_t cut = 1; cut < im.size; cut++) {
		unsigned char *p = malloc(cut);
		int rc;

		memcpy(p, im.b, cut);
		rc = tilert_module_load_data(p, cut, &mod);
		CHECK(rc == TILERT_ERR_FORMAT);
		free(p);
	}
	CHECK(*modules == 0);

	/* The real HSACO: its symbols where clang and lld put them. */
	if (real_path) {
		CHECK(tilert_module_load_file(real_path, &mod) == TILERT_OK);
		CHECK(tilert_module_num_kernels(mod) == 1);
		if (tilert_module_get_kernel(mod, "fill", &fill) == TILERT_OK)
			check_fill(fill, NULL, 1000);
		else
			CHECK(0);
		CHECK(tilert_module_unload(mod) == TILERT_OK);
		CHECK(*modules == 0 && *allocs == 0);
	}
	if (h)
		dlclose(h);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "", *real_path = NULL;
	unsigned char *real = NULL;
	size_t real_size = 0;

	if (strcmp(mode, "system") == 0 || strcmp(mode, "nolib") == 0) {
		real_path = argc > 2 ? argv[2] : NULL;
	} else if (strcmp(mode, "mock") == 0 && argc > 2) {
		real_path = argc > 3 ? argv[3] : NULL;
	} else {
		fprintf(stderr, "usage: test_runtime_hip system|nolib [HSACO]\n"
		                "       test_runtime_hip mock MOCK [HSACO]\n");
		return 2;
	}
	/* Before the first call: the runtime reads these once. */
	if (strcmp(mode, "system") == 0) {
		unsetenv("TILERT_HIP_LIBRARY");
	} else if (strcmp(mode, "nolib") == 0) {
		setenv("TILERT_HIP_LIBRARY", NOLIB, 1);
	} else {
		setenv("TILERT_HIP_LIBRARY", argv[2], 1);
		setenv("TILERT_CUDA_DEVICE", "none", 1); /* device memory goes to HIP */
	}
	if (real_path)
		CHECK((real = test_slurp(real_path, &real_size)) != NULL);

	test_scan(real, real_size);
	if (strcmp(mode, "system") == 0) {
		test_system(real_path);
	} else if (strcmp(mode, "nolib") == 0) {
		check_no_device("no HIP runtime: cannot load /nonexistent/libamdhip64.so, named by "
		                "TILERT_HIP_LIBRARY (/nonexistent/libamdhip64.so: cannot open shared "
		                "object file", real_path);
	} else {
		test_mock(argv[2], real_path);
	}
	free(real);
	return test_result("test_runtime_hip");
}
