/* elf_load.c: maps a CPU shared object that elf_check.c accepted, without the dynamic
 * linker (elf_check.c says why): one reservation of the whole span, each PT_LOAD's file
 * bytes copied in (the rest zero), the relocations applied, then each segment given its own
 * protection and PT_GNU_RELRO made read-only. No code of the object runs: its constructors
 * and destructors are ignored.
 *
 * Symbols: a relocation against a symbol the object defines binds to that definition (as
 * with -Bsymbolic); an undefined one is looked up, with its version when it has one, in
 * the process's global scope (what dlsym(RTLD_DEFAULT) sees: the program and its
 * libraries, AddressSanitizer's interceptors included), then in the object's DT_NEEDED
 * libraries, which are opened with dlopen and closed at unload; an undefined weak symbol
 * found nowhere is 0. The exported definitions are kept sorted by name for lookups.
 *
 * A DT_NEEDED library is opened only when the process has it already (a sanitizer's
 * runtime, say) or when it is one of the C runtime's own (libc, libm, ...): the name comes
 * from the file, and some libraries abort the process when loaded late (libasan into a
 * process that did not start with it) or run constructors of their own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tilert_int.h"

typedef struct elf_export {
	const char *name;      /* in the image's copy of the string table */
	uint64_t vaddr, size;  /* st_value (an address unless abs), st_size */
	int abs;               /* SHN_ABS: vaddr is the value itself */
} elf_export;

struct tilert_elf_image {
	unsigned char *map;    /* the reservation */
	size_t map_size;
	unsigned char *base;   /* where address 0 of the object is */
	char *strtab;          /* a copy: relocations may write over the mapped one */
	elf_export *exports;   /* sorted by name, without repeats */
	size_t nexports;
	void *needed[TILERT_ELF_MAX_NEEDED];
	unsigned nneeded;
	tilert_elf_layout layout;
};

/* The libraries a module may make libtilert load: glibc's and libgcc's. */
static const char *const runtime_libs[] = {
	"libc.so.6", "libm.so.6", "libmvec.so.1", "libdl.so.2", "libpthread.so.0", "librt.so.1",
	"libgcc_s.so.1",
};

/* The handle of a DT_NEEDED library, or NULL with why set. */
static void *open_needed(const char *name, const char **why)
{
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);

	*why = "it is neither loaded in this process nor one of the C runtime's libraries";
	for (size_t i = 0; !h && i < sizeof runtime_libs / sizeof runtime_libs[0]; i++) {
		if (strcmp(name, runtime_libs[i]) == 0 && !(h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
			*why = dlerror();
			*why = *why ? *why : "dlopen failed";
		}
	}
	return h;
}

static int export_cmp(const void *a, const void *b)
{
	return strcmp(((const elf_export *)a)->name, ((const elf_export *)b)->name);
}

static const elf_export *export_find(const tilert_elf_image *img, const char *name)
{
	elf_export key = { name, 0, 0, 0 };

	return img->nexports ? bsearch(&key, img->exports, img->nexports, sizeof key, export_cmp) : NULL;
}

/* The exported definitions: global or weak, default or protected visibility, not a hidden
 * version; the first of a name is kept. */
static int collect_exports(const unsigned char *data, tilert_elf_image *img)
{
	const tilert_elf_layout *l = &img->layout;
	size_t n = 0, kept = 0;
	Elf64_Sym s;

	if (!(img->exports = malloc(l->nsyms * sizeof *img->exports)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	for (uint64_t i = 1; i < l->nsyms; i++) {
		int bind, vis, type;

		tilert_elf_sym_get(data, l, i, &s);
		bind = ELF64_ST_BIND(s.st_info);
		vis = ELF64_ST_VISIBILITY(s.st_other);
		type = ELF64_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK) ||
		    (vis != STV_DEFAULT && vis != STV_PROTECTED) ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) ||
		    (l->versym && (data[l->versym + 2 * i + 1] & 0x80)))
			continue;
		img->exports[n].name = img->strtab + s.st_name;
		img->exports[n].vaddr = s.st_value;
		img->exports[n].size = s.st_size;
		img->exports[n].abs = s.st_shndx == SHN_ABS;
		n++;
	}
	if (n)
		qsort(img->exports, n, sizeof *img->exports, export_cmp);
	for (size_t i = 0; i < n; i++)
		if (!kept || strcmp(img->exports[kept - 1].name, img->exports[i].name) != 0)
			img->exports[kept++] = img->exports[i];
	img->nexports = kept;
	return TILERT_OK;
}

/* The value of symbol index sym for a relocation. */
static int resolve(const unsigned char *data, const tilert_elf_image *img, uint64_t sym,
                   uint64_t *value)
{
	const tilert_elf_layout *l = &img->layout;
	const char *name, *version = NULL;
	unsigned ndx = 0;
	void *p = NULL;
	Elf64_Sym s;

	tilert_elf_sym_get(data, l, sym, &s);
	if (s.st_shndx != SHN_UNDEF) {
		*value = s.st_shndx == SHN_ABS ? s.st_value : (uint64_t)(uintptr_t)img->base + s.st_value;
		return TILERT_OK;
	}
	name = img->strtab + s.st_name;
	if (l->versym) {
		ndx = (data[l->versym + 2 * sym] | (unsigned)data[l->versym + 2 * sym + 1] << 8) & 0x7fff;
		if (ndx >= 2 && l->version[ndx])
			version = img->strtab + l->version[ndx];
	}
	if (*name) {
		dlerror();
		p = version ? dlvsym(RTLD_DEFAULT, name, version) : dlsym(RTLD_DEFAULT, name);
		for (unsigned i = 0; !p && i < img->nneeded; i++)
			p = version ? dlvsym(img->needed[i], name, version) : dlsym(img->needed[i], name);
	}
	if (!p && ELF64_ST_BIND(s.st_info) != STB_WEAK)
		return tilert_fail(TILERT_ERR_FORMAT, "cannot load the shared object: undefined symbol "
		                   "'%.200s%s%.64s'", name, version ? "@" : "", version ? version : "");
	*value = (uint64_t)(uintptr_t)p;
	return TILERT_OK;
}

static void put64(unsigned char *where, uint64_t v)
{
	memcpy(where, &v, sizeof v);
}

static int relocate(const unsigned char *data, tilert_elf_image *img)
{
	const tilert_elf_layout *l = &img->layout;
	uint64_t base = (uint64_t)(uintptr_t)img->base;
	int rc;

	for (uint64_t i = 0, where = 0; i < l->nrelr; i++) {
		uint64_t e, v;

		memcpy(&e, data + l->relr + 8 * i, sizeof e);
		if (!(e & 1)) {
			memcpy(&v, img->base + e, sizeof v);
			put64(img->base + e, v + base);
			where = e + 8;
			continue;
		}
		for (int b = 1; b < 64; b++) {
			if (e >> b & 1) {
				unsigned char *w = img->base + where + 8 * (uint64_t)(b - 1);

				memcpy(&v, w, sizeof v);
				put64(w, v + base);
			}
		}
		where += 63 * 8;
	}
	for (int t = 0; t < 2; t++) {
		for (uint64_t i = 0; i < l->nrela[t]; i++) {
			Elf64_Rela r;
			uint64_t s = 0;
			int kind;

			memcpy(&r, data + l->rela[t] + i * sizeof r, sizeof r);
			kind = tilert_elf_reloc_kind(l->machine, (uint32_t)ELF64_R_TYPE(r.r_info));
			if (kind == TILERT_RELOC_NONE)
				continue;
			if (kind == TILERT_RELOC_RELATIVE) {
				put64(img->base + r.r_offset, base + (uint64_t)r.r_addend);
				continue;
			}
			if (ELF64_R_SYM(r.r_info) &&
			    (rc = resolve(data, img, ELF64_R_SYM(r.r_info), &s)) != TILERT_OK)
				return rc;
			put64(img->base + r.r_offset, kind == TILERT_RELOC_SLOT ? s : s + (uint64_t)r.r_addend);
		}
	}
	return TILERT_OK;
}

static int prot_of(unsigned flags)
{
	return PROT_READ | (flags & PF_W ? PROT_WRITE : 0) | (flags & PF_X ? PROT_EXEC : 0);
}

static int fail_errno(const char *what)
{
	return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "cannot load the shared object: %s: %s", what,
	                   strerror(errno));
}

static int map_segments(const unsigned char *data, tilert_elf_image *img, uintptr_t page)
{
	const tilert_elf_layout *l = &img->layout;
	uintptr_t align = l->align > page ? (uintptr_t)l->align : page, span = (uintptr_t)(l->hi - l->lo);
	uintptr_t raw, start, r = (uintptr_t)l->lo % align;
	void *m;

	img->map_size = span + align;
	m = mmap(NULL, img->map_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return fail_errno("reserving its address space");
	img->map = m;
	/* The first page at an address congruent to lo modulo the largest alignment. */
	raw = (uintptr_t)m;
	start = ((raw + align - 1) & ~(align - 1)) + r;
	if (start >= raw + align)
		start -= align;
	img->base = (unsigned char *)(start - (uintptr_t)l->lo);
	for (unsigned i = 0; i < l->nload; i++) {
		const tilert_elf_segment *s = &l->load[i];
		uintptr_t a = ((uintptr_t)img->base + s->vaddr) & ~(page - 1);
		uintptr_t b = ((uintptr_t)img->base + s->vaddr + s->memsz + page - 1) & ~(page - 1);

		if (b > a && mprotect((void *)a, b - a, PROT_READ | PROT_WRITE) != 0)
			return fail_errno("mprotect");
		memcpy(img->base + s->vaddr, data + s->offset, s->filesz);
	}
	return TILERT_OK;
}

static int protect_segments(tilert_elf_image *img, uintptr_t page)
{
	const tilert_elf_layout *l = &img->layout;

	for (unsigned i = 0; i < l->nload; i++) {
		const tilert_elf_segment *s = &l->load[i];
		uintptr_t a = ((uintptr_t)img->base + s->vaddr) & ~(page - 1);
		uintptr_t b = ((uintptr_t)img->base + s->vaddr + s->memsz + page - 1) & ~(page - 1);

		if (s->flags & PF_X)
			__builtin___clear_cache((char *)img->base + s->vaddr,
			                        (char *)img->base + s->vaddr + s->memsz);
		if (b > a && mprotect((void *)a, b - a, prot_of(s->flags)) != 0)
			return fail_errno(s->flags & PF_X ? "making its code executable" : "mprotect");
	}
	if (l->relro_size) {
		uintptr_t a = ((uintptr_t)img->base + l->relro) & ~(page - 1);
		uintptr_t b = ((uintptr_t)img->base + l->relro + l->relro_size) & ~(page - 1);

		if (b > a && mprotect((void *)a, b - a, PROT_READ) != 0)
			return fail_errno("mprotect");
	}
	return TILERT_OK;
}

int tilert_elf_map(const unsigned char *data, size_t size, const tilert_elf_layout *l,
                   tilert_elf_image **out)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	tilert_elf_image *img;
	int rc;

	(void)size;
	*out = NULL;
	if (!(img = calloc(1, sizeof *img)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	img->layout = *l;
	if (!(img->strtab = malloc(l->strsz))) {
		rc = tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
		goto fail;
	}
	memcpy(img->strtab, data + l->strtab, l->strsz);
	for (unsigned i = 0; i < l->nneeded; i++) {
		const char *name = img->strtab + l->needed[i], *why;

		if (!(img->needed[i] = open_needed(name, &why))) {
			rc = tilert_fail(TILERT_ERR_FORMAT, "cannot load the shared object: the library it "
			                 "needs, %s, is not opened: %.300s", name, why);
			goto fail;
		}
		img->nneeded++;
	}
	if ((rc = collect_exports(data, img)) != TILERT_OK || (rc = map_segments(data, img, page)) != TILERT_OK ||
	    (rc = relocate(data, img)) != TILERT_OK || (rc = protect_segments(img, page)) != TILERT_OK)
		goto fail;
	*out = img;
	return TILERT_OK;
fail:
	tilert_elf_unmap(img);
	return rc;
}

void tilert_elf_unmap(tilert_elf_image *img)
{
	if (!img)
		return;
	if (img->map)
		munmap(img->map, img->map_size);
	for (unsigned i = 0; i < img->nneeded; i++)
		dlclose(img->needed[i]);
	free(img->exports);
	free(img->strtab);
	free(img);
}

void *tilert_elf_symbol(const tilert_elf_image *img, const char *name, unsigned flags,
                        uint64_t *size, int *found)
{
	const elf_export *e = export_find(img, name);

	if (found)
		*found = e != NULL;
	if (!e)
		return NULL;
	if (size)
		*size = e->size;
	/* A symbol without a size still has its first byte there. */
	if (e->abs || !tilert_elf_inside(&img->layout, e->vaddr, e->size ? e->size : 1, flags))
		return NULL;
	return img->base + e->vaddr;
}

size_t tilert_elf_num_exports(const tilert_elf_image *img)
{
	return img->nexports;
}

const char *tilert_elf_export_name(const tilert_elf_image *img, size_t i)
{
	return i < img->nexports ? img->exports[i].name : NULL;
}
