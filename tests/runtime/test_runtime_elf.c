/* test_runtime_elf.c: the CPU loader (elf_check.c, elf_load.c) on systematically
 * corrupted copies of real objects the build made (kernels.so, and kernels_libm.so with
 * DT_NEEDED, symbol versions and both hash tables): every field of the ELF header, of each
 * program header, of each dynamic entry, symbol, relocation, hash and version table word;
 * truncation at every length; random byte flips with a fixed seed. Each variant is loaded
 * through the public API in this process: it must load (and then answer the introspection
 * calls) or fail with TILERT_ERR_FORMAT and a message; a crash fails the test (run it
 * under ASan and UBSan). Also the metadata: symbols outside the segments, 100 000 keys,
 * repeated keys. The structures are found through the section headers, which the loader
 * never reads.
 *
 * usage: test_runtime_elf KERNEL_DIR */
#include <elf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/tilert_int.h"
#include "test.h"
#include "tilecc/tilert.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;

/* xorshift64*: deterministic, so that a failure reproduces. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned long variants, loaded;

/* Loads a variant; a success must answer the introspection calls, a failure leave *out
 * NULL and say why. */
static int try_load(const unsigned char *data, size_t size)
{
	tilert_module *mod = (tilert_module *)1;
	int rc = tilert_module_load_data(data, size, &mod);

	variants++;
	if (rc == TILERT_OK) {
		loaded++;
		CHECK(mod != NULL && tilert_module_format(mod) == TILERT_FORMAT_HOST);
		CHECK(tilert_module_num_kernels(mod) > 0);
		for (size_t i = 0; i < tilert_module_num_kernels(mod); i++) {
			tilert_kernel *k = NULL;
			const char *name = tilert_module_kernel_name(mod, i);

			CHECK(name && tilert_module_get_kernel(mod, name, &k) == TILERT_OK);
			CHECK(k && tilert_kernel_meta(k, "name") && strcmp(tilert_kernel_meta(k, "name"), name) == 0);
		}
		tilert_module_unload(mod);
	} else {
		if (rc != TILERT_ERR_FORMAT && rc != TILERT_ERR_OUT_OF_MEMORY && rc != TILERT_ERR_NO_DRIVER)
			fprintf(stderr, "code %d: %s\n", rc, tilert_last_error());
		/* TILERT_ERR_NO_DRIVER: e_machine turned into a GPU's. */
		CHECK(rc == TILERT_ERR_FORMAT || rc == TILERT_ERR_OUT_OF_MEMORY || rc == TILERT_ERR_NO_DRIVER);
		CHECK(mod == NULL);
		CHECK(tilert_last_error()[0] != 0);
	}
	return rc;
}

/* The object under test and where its tables are (from its section headers). */
typedef struct object {
	const char *name;
	unsigned char *data;
	size_t size;
	Elf64_Ehdr eh;
	uint64_t dynsym, ndynsym, dynamic, ndynamic, gnu_hash, gnu_hash_size, hash, hash_size;
	uint64_t versym, verneed, verneed_size, rela[2], nrela[2], strtab, strsz;
} object;

static void object_find(object *o)
{
	Elf64_Shdr sh;
	int nrela = 0;

	memcpy(&o->eh, o->data, sizeof o->eh);
	for (unsigned i = 0; i < o->eh.e_shnum; i++) {
		memcpy(&sh, o->data + o->eh.e_shoff + i * sizeof sh, sizeof sh);
		switch (sh.sh_type) {
		case SHT_DYNSYM:
			o->dynsym = sh.sh_offset;
			o->ndynsym = sh.sh_size / sizeof(Elf64_Sym);
			memcpy(&sh, o->data + o->eh.e_shoff + sh.sh_link * sizeof sh, sizeof sh);
			o->strtab = sh.sh_offset;
			o->strsz = sh.sh_size;
			break;
		case SHT_DYNAMIC: o->dynamic = sh.sh_offset; o->ndynamic = sh.sh_size / 16; break;
		case SHT_GNU_HASH: o->gnu_hash = sh.sh_offset; o->gnu_hash_size = sh.sh_size; break;
		case SHT_HASH: o->hash = sh.sh_offset; o->hash_size = sh.sh_size; break;
		case SHT_GNU_versym: o->versym = sh.sh_offset; break;
		case SHT_GNU_verneed: o->verneed = sh.sh_offset; o->verneed_size = sh.sh_size; break;
		case SHT_RELA:
			if (nrela < 2 && (sh.sh_flags & SHF_ALLOC)) {
				o->rela[nrela] = sh.sh_offset;
				o->nrela[nrela++] = sh.sh_size / sizeof(Elf64_Rela);
			}
			break;
		}
	}
	CHECK(o->dynsym && o->ndynsym > 1 && o->dynamic && o->strtab);
}

static unsigned char *work;

static uint64_t get(const unsigned char *p, unsigned width)
{
	uint64_t v = 0;

	memcpy(&v, p, width); /* little-endian host */
	return v;
}

/* Every interesting value in the field of width bytes at off: 0, 1, -1, the original
 * plus and minus small steps, the file size around, the sign bit, and each single bit
 * flipped. */
static void mutate_field(const object *o, uint64_t off, unsigned width)
{
	uint64_t orig = get(o->data + off, width), mask = width == 8 ? ~0ull : (1ull << 8 * width) - 1;
	uint64_t vals[16 + 64];
	unsigned n = 0;

	vals[n++] = 0;
	vals[n++] = 1;
	vals[n++] = mask;
	vals[n++] = orig + 1;
	vals[n++] = orig - 1;
	vals[n++] = orig + 8;
	vals[n++] = orig - 8;
	vals[n++] = orig + 24;
	vals[n++] = orig + 0x1000;
	vals[n++] = o->size;
	vals[n++] = o->size - 1;
	vals[n++] = mask >> 1;
	vals[n++] = (mask >> 1) + 1;
	for (unsigned b = 0; b < 8 * width; b++)
		vals[n++] = orig ^ (1ull << b);
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = vals[i] & mask;

		if (v == orig)
			continue;
		memcpy(work, o->data, o->size);
		memcpy(work + off, &v, width);
		try_load(work, o->size);
	}
}

/* A structure of fields: (offset, width) pairs, mutated one field at a time. */
typedef struct field {
	unsigned off, width;
} field;

static const field ehdr_fields[] = {
	{ 0, 4 }, { EI_CLASS, 1 }, { EI_DATA, 1 }, { EI_VERSION, 1 }, { EI_OSABI, 1 },
	{ EI_ABIVERSION, 1 }, { EI_PAD, 1 }, { 15, 1 }, { 16, 2 }, { 18, 2 }, { 20, 4 },
	{ 24, 8 }, { 32, 8 }, { 40, 8 }, { 48, 4 }, { 52, 2 }, { 54, 2 }, { 56, 2 }, { 58, 2 },
	{ 60, 2 }, { 62, 2 },
};
static const field phdr_fields[] = { { 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 },
                                     { 32, 8 }, { 40, 8 }, { 48, 8 } };
static const field dyn_fields[] = { { 0, 8 }, { 8, 8 } };
static const field sym_fields[] = { { 0, 4 }, { 4, 1 }, { 5, 1 }, { 6, 2 }, { 8, 8 }, { 16, 8 } };
static const field rela_fields[] = { { 0, 8 }, { 8, 4 }, { 12, 4 }, { 16, 8 } };

/* Entries of a long table mutated: the first and last 16, and 16 spread between (the
 * sanitizer build's objects have hundreds of relocations and symbols). */
static int sampled(uint64_t i, uint64_t count)
{
	return i < 16 || i + 16 >= count || i % (count / 16) == 0;
}

static void mutate_table(const object *o, uint64_t off, uint64_t count, uint64_t entsize,
                         const field *fields, size_t nfields)
{
	for (uint64_t i = 0; i < count; i++)
		for (size_t f = 0; f < nfields && sampled(i, count); f++)
			mutate_field(o, off + i * entsize + fields[f].off, fields[f].width);
}

/* Each 4-byte word of a table (hash tables, verneed). */
static void mutate_words(const object *o, uint64_t off, uint64_t size)
{
	for (uint64_t i = 0; i + 4 <= size; i += 4)
		mutate_field(o, off + i, 4);
}

/* The dynamic entry with tag, or -1. */
static long dyn_find(const object *o, int64_t tag)
{
	for (uint64_t i = 0; i < o->ndynamic; i++)
		if ((int64_t)get(o->data + o->dynamic + 16 * i, 8) == tag)
			return (long)i;
	return -1;
}

/* Every dynamic entry's tag replaced by each tag the loader knows (and some it does not). */
static void mutate_dyn_tags(const object *o)
{
	static const int64_t tags[] = { DT_NULL, DT_NEEDED, DT_PLTRELSZ, DT_PLTGOT, DT_HASH, DT_STRTAB,
	                                DT_SYMTAB, DT_RELA, DT_RELASZ, DT_RELAENT, DT_STRSZ, DT_SYMENT,
	                                DT_INIT, DT_FINI, DT_SONAME, DT_RPATH, DT_SYMBOLIC, DT_REL,
	                                DT_RELSZ, DT_PLTREL, DT_DEBUG, DT_TEXTREL, DT_JMPREL,
	                                DT_BIND_NOW, DT_RUNPATH, DT_FLAGS, DT_FLAGS_1, DT_GNU_HASH,
	                                DT_VERSYM, DT_VERNEED, DT_VERNEEDNUM, DT_VERDEF, DT_VERDEFNUM,
	                                DT_RELACOUNT, 35, 36, 37, DT_AUXILIARY, DT_FILTER };

	for (uint64_t i = 0; i < o->ndynamic; i++) {
		for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
			memcpy(work, o->data, o->size);
			memcpy(work + o->dynamic + 16 * i, &tags[t], 8);
			try_load(work, o->size);
		}
	}
}

static void random_flips(const object *o, int count)
{
	for (int iter = 0; iter < count; iter++) {
		memcpy(work, o->data, o->size);
		for (int k = 0; k < 1 + iter % 8; k++)
			work[rng() % o->size] ^= (unsigned char)(1 + rng() % 255);
		try_load(work, o->size);
	}
}

/* Specific corruptions and the message each must give. */
static void expect(const object *o, uint64_t off, uint64_t value, unsigned width, const char *message)
{
	memcpy(work, o->data, o->size);
	memcpy(work + off, &value, width);
	CHECK(try_load(work, o->size) == TILERT_ERR_FORMAT);
	if (!test_contains(tilert_last_error(), message))
		fprintf(stderr, "%s: expected '%s', got '%s'\n", o->name, message, tilert_last_error());
	CHECK(test_contains(tilert_last_error(), message));
}

static uint64_t sym_find(const object *o, const char *name)
{
	for (uint64_t i = 1; i < o->ndynsym; i++) {
		uint32_t st_name = (uint32_t)get(o->data + o->dynsym + i * sizeof(Elf64_Sym), 4);

		if (st_name < o->strsz && strcmp((const char *)o->data + o->strtab + st_name, name) == 0)
			return i;
	}
	return 0;
}

static void test_expected(const object *o)
{
	uint64_t meta = sym_find(o, "vadd__meta"), entry = sym_find(o, "vadd");
	uint64_t ms = o->dynsym + meta * sizeof(Elf64_Sym), es = o->dynsym + entry * sizeof(Elf64_Sym);
	uint64_t ph = o->eh.e_phoff, hi = 0;
	long d;

	CHECK(meta && entry);
	for (unsigned i = 0; i < o->eh.e_phnum; i++) {
		Elf64_Phdr p;

		memcpy(&p, o->data + ph + i * sizeof p, sizeof p);
		if (p.p_type == PT_LOAD && p.p_vaddr + p.p_memsz > hi)
			hi = p.p_vaddr + p.p_memsz;
	}
	expect(o, 52, 60, 2, "bad ELF header size");
	expect(o, 54, 55, 2, "bad ELF program header size");
	expect(o, ph + 8, o->size, 8, "beyond end of file");
	/* The metadata object beyond every segment, then too long for its segment. */
	expect(o, ms + 8, hi + 4096, 8, "symbol 'vadd__meta' lies outside");
	expect(o, ms + 16, 1u << 30, 8, "symbol 'vadd__meta' lies outside");
	/* The metadata as an untyped symbol past the end of the last segment: only the loader's
	 * own check of the kernel's symbols stops it. */
	{
		unsigned char info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
		uint64_t v = hi;

		memcpy(work, o->data, o->size);
		memcpy(work + ms + 4, &info, 1);
		memcpy(work + ms + 8, &v, 8);
		CHECK(try_load(work, o->size) == TILERT_ERR_FORMAT);
		CHECK(test_contains(tilert_last_error(), "vadd__meta lies outside the module's loaded segments"));
		info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE);
		memcpy(work, o->data, o->size);
		memcpy(work + es + 4, &info, 1);
		v = get(o->data + ms + 8, 8); /* the entry at the metadata: not executable */
		memcpy(work + es + 8, &v, 8);
		CHECK(try_load(work, o->size) == TILERT_ERR_FORMAT);
		CHECK(test_contains(tilert_last_error(), "its entry point lies outside the module's "
		                                         "executable segments"));
	}
	expect(o, es + 8, get(o->data + ms + 8, 8), 8, "symbol 'vadd' lies outside");
	if ((d = dyn_find(o, DT_STRSZ)) >= 0)
		expect(o, o->dynamic + 16 * (uint64_t)d + 8, o->size * 4, 8, "string table");
	if ((d = dyn_find(o, DT_PLTREL)) >= 0)
		expect(o, o->dynamic + 16 * (uint64_t)d + 8, DT_REL, 8, "bad DT_JMPREL table");
	if ((d = dyn_find(o, DT_NULL)) >= 0)
		expect(o, o->dynamic + 16 * (uint64_t)d, DT_TEXTREL, 8, "unsupported dynamic tag");
	if (o->nrela[0]) {
		expect(o, o->rela[0], 0, 8, "is not inside a writable segment");
		expect(o, o->rela[0] + 8, 0x7f, 4, "unsupported type 127");
	}
	if (o->gnu_hash)
		expect(o, o->gnu_hash, 0, 4, "bad DT_GNU_HASH header");
	if (o->hash)
		expect(o, o->hash, 0, 4, "DT_HASH table");
	if (o->verneed) {
		expect(o, o->verneed, 2, 2, "bad verneed entry");               /* vn_version */
		expect(o, o->verneed + 12, 0x10000, 4, "verneed entry"); /* vn_next */
		expect(o, o->verneed + 4, 0, 4, "names a library that is not DT_NEEDED"); /* vn_file */
	}
	if (o->versym)
		expect(o, o->versym + 2, 60, 2, "which no verneed or verdef entry defines");
	/* A needed library that the process has not loaded and is not the C runtime's. */
	for (uint64_t i = 0; i + 10 <= o->strsz; i++) {
		if (memcmp(o->data + o->strtab + i, "libm.so.6", 10) == 0) {
			memcpy(work, o->data, o->size);
			work[o->strtab + i + 3] = 'q';
			CHECK(try_load(work, o->size) == TILERT_ERR_FORMAT);
			CHECK(test_contains(tilert_last_error(), "libq.so.6, is not opened: it is neither "
			                                         "loaded in this process"));
			break;
		}
	}
}

static void test_object(object *o, int flips)
{
	unsigned long before = variants;

	object_find(o);
	CHECK(try_load(o->data, o->size) == TILERT_OK);
	work = malloc(o->size);
	test_expected(o);
	/* Truncation at every length up to 4 KiB, then at every 29th and around the end. */
	for (size_t cut = 0; cut < o->size; cut += cut < 4096 || cut + 256 > o->size ? 1 : 29)
		CHECK(try_load(o->data, cut) == TILERT_ERR_FORMAT);
	mutate_table(o, 0, 1, sizeof(Elf64_Ehdr), ehdr_fields, sizeof ehdr_fields / sizeof ehdr_fields[0]);
	mutate_table(o, o->eh.e_phoff, o->eh.e_phnum, sizeof(Elf64_Phdr), phdr_fields,
	             sizeof phdr_fields / sizeof phdr_fields[0]);
	mutate_table(o, o->dynamic, o->ndynamic, 16, dyn_fields, 2);
	mutate_dyn_tags(o);
	mutate_table(o, o->dynsym, o->ndynsym, sizeof(Elf64_Sym), sym_fields,
	             sizeof sym_fields / sizeof sym_fields[0]);
	for (int t = 0; t < 2; t++)
		mutate_table(o, o->rela[t], o->nrela[t], sizeof(Elf64_Rela), rela_fields,
		             sizeof rela_fields / sizeof rela_fields[0]);
	mutate_words(o, o->gnu_hash, o->gnu_hash_size);
	mutate_words(o, o->hash, o->hash_size);
	mutate_words(o, o->verneed, o->verneed_size);
	for (uint64_t i = 0; o->versym && i < o->ndynsym; i++)
		mutate_field(o, o->versym + 2 * i, 2);
	random_flips(o, flips);
	printf("test_runtime_elf: %s: %lu variants\n", o->name, variants - before);
	free(work);
}

/* vexp through libm: the symbol versions resolved to the right expf. */
static void test_libm_kernel(const object *o)
{
	tilert_module *mod;
	tilert_kernel *k;
	float v[37], want[37];
	int32_t n = 37;
	void *x = v, *args[2] = { &x, &n };

	if (tilert_module_load_data(o->data, o->size, &mod) != TILERT_OK) {
		CHECK(!"kernels_libm.so loads");
		return;
	}
	CHECK(tilert_module_get_kernel(mod, "vexp", &k) == TILERT_OK);
	for (int i = 0; i < n; i++) {
		v[i] = (float)(i - 18) * 0.37f;
		want[i] = (float)exp((double)v[i]);
	}
	CHECK(tilert_launch(k, NULL, (tilert_grid){ 10, 1, 1 }, args, 2) == TILERT_OK);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	for (int i = 0; i < n; i++)
		CHECK(fabsf(v[i] - want[i]) <= 1e-6f * fabsf(want[i]));
	tilert_module_unload(mod);
}

/* Metadata straight into the parser: 100 000 keys, then the same with a repeat. */
static void test_big_meta(void)
{
	enum { KEYS = 100000 };
	size_t cap = 64 + (size_t)KEYS * 24;
	char *text = malloc(cap), key[32];
	size_t len = (size_t)snprintf(text, cap, "tilecc-kernel=1\nname=big\ntarget=x86-64\nparams=i32\n");
	tilert_kernel k;

	for (int i = 0; i < KEYS; i++)
		len += (size_t)snprintf(text + len, cap - len, "key%d=%d\n", i, i * 7);
	memset(&k, 0, sizeof k);
	k.name = "big";
	k.text = strdup(text);
	CHECK(tilert_meta_parse(&k, "x86-64") == TILERT_OK);
	CHECK(k.nmeta == 4 + KEYS);
	for (int i = 0; i < KEYS; i += 997) {
		char want[16];

		snprintf(key, sizeof key, "key%d", i);
		snprintf(want, sizeof want, "%d", i * 7);
		CHECK(tilert_kernel_meta(&k, key) && strcmp(tilert_kernel_meta(&k, key), want) == 0);
	}
	CHECK(tilert_kernel_meta(&k, "key100000") == NULL);
	CHECK(k.nparams == 1);
	free(k.text);
	free(k.meta);
	free(k.meta_index);
	free(k.ptext);
	free(k.params);
	/* A repeat at the end, of the first key. */
	snprintf(text + len, cap - len, "key0=again\n");
	memset(&k, 0, sizeof k);
	k.name = "big";
	k.text = strdup(text);
	CHECK(tilert_meta_parse(&k, "x86-64") == TILERT_ERR_FORMAT);
	CHECK(test_contains(tilert_last_error(), "metadata key 'key0' given twice"));
	free(k.text);
	free(k.meta);
	free(k.meta_index);
	free(k.ptext);
	free(k.params);
	free(text);
}

/* The GPU images' check (the drivers are not here: tilert_gpu_check_image directly): the
 * real cubin and HSACO pass; every truncation, and each section header field mutated,
 * gives an answer; PTX is text up to trailing NULs. */
static void test_gpu_image(const char *dir, const char *file, tilert_format f)
{
	char path[4096];
	size_t size;
	unsigned char *data, *buf;
	Elf64_Ehdr eh;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (!(data = test_slurp(path, &size))) {
		printf("test_runtime_elf: no %s; its checks are skipped\n", file);
		return;
	}
	CHECK(tilert_gpu_check_image(data, size, f) == TILERT_OK);
	for (size_t cut = 0; cut < size; cut++)
		CHECK(tilert_gpu_check_image(data, cut, f) == TILERT_ERR_FORMAT);
	memcpy(&eh, data, sizeof eh);
	buf = malloc(size);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		for (unsigned b = 0; b < 8 * sizeof(Elf64_Shdr); b++) {
			int rc;

			memcpy(buf, data, size);
			buf[eh.e_shoff + i * sizeof(Elf64_Shdr) + b / 8] ^= (unsigned char)(1u << b % 8);
			rc = tilert_gpu_check_image(buf, size, f);
			CHECK(rc == TILERT_OK || (rc == TILERT_ERR_FORMAT && tilert_last_error()[0]));
		}
	}
	memcpy(buf, data, size);
	buf[18] ^= 1; /* e_machine */
	CHECK(tilert_gpu_check_image(buf, size, f) == TILERT_ERR_FORMAT);
	CHECK(test_contains(tilert_last_error(), "for machine"));
	free(buf);
	free(data);
}

static void test_ptx_text(void)
{
	static const char good[] = "//\n.version 8.0\n.target sm_90\n";
	static const char nul[] = ".version 8.0\n\0.entry x\n";
	static const char ctrl[] = ".version 8.0\n\x01\n";

	CHECK(tilert_gpu_check_image((const unsigned char *)good, sizeof good - 1, TILERT_FORMAT_PTX) == TILERT_OK);
	CHECK(tilert_gpu_check_image((const unsigned char *)good, sizeof good, TILERT_FORMAT_PTX) == TILERT_OK);
	CHECK(tilert_gpu_check_image((const unsigned char *)nul, sizeof nul - 1, TILERT_FORMAT_PTX) == TILERT_ERR_FORMAT);
	CHECK(test_contains(tilert_last_error(), "a NUL inside the text"));
	CHECK(tilert_gpu_check_image((const unsigned char *)ctrl, sizeof ctrl - 1, TILERT_FORMAT_PTX) == TILERT_ERR_FORMAT);
	CHECK(test_contains(tilert_last_error(), "byte 1 at offset 13"));
}

static int read_object(object *o, const char *dir, const char *file)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	memset(o, 0, sizeof *o);
	o->name = file;
	o->data = test_slurp(path, &o->size);
	if (!o->data)
		fprintf(stderr, "test_runtime_elf: cannot read %s\n", path);
	return o->data != NULL;
}

int main(int argc, char **argv)
{
	object so, libm;

	if (argc < 2) {
		fprintf(stderr, "usage: test_runtime_elf KERNEL_DIR\n");
		return 2;
	}
	CHECK(read_object(&so, argv[1], "kernels.so"));
	CHECK(read_object(&libm, argv[1], "kernels_libm.so"));
	if (so.data)
		test_object(&so, 10000);
	if (libm.data) {
		test_object(&libm, 10000);
		CHECK(libm.verneed && libm.versym && libm.hash && libm.gnu_hash);
		test_libm_kernel(&libm);
	}
	test_big_meta();
	test_gpu_image(argv[1], "vadd_meta.cubin", TILERT_FORMAT_CUBIN);
	test_gpu_image(argv[1], "fill_amdgpu.hsaco", TILERT_FORMAT_HSACO);
	test_ptx_text();
	printf("test_runtime_elf: %lu variants, %lu loaded\n", variants, loaded);
	CHECK(variants > 30000 && loaded > 0 && loaded < variants);
	free(so.data);
	free(libm.data);
	return test_result("test_runtime_elf");
}
