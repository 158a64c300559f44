/* host.c: CPU artifacts: ELF shared objects for the machine the runtime runs on.
 *
 * The bytes are validated before the dynamic loader sees them: header, program headers,
 * section headers and every segment and section must lie inside the file, so that a
 * truncated or foreign file is reported here rather than found by dlopen. The kernels are
 * the defined dynamic symbols named NAME__meta; each is checked for its NAME entry (and
 * its optional NAME__grid) after dlopen. From memory, the bytes go to a memfd (or, where
 * that fails, an unlinked temporary file) which is dlopened through /proc/self/fd/N. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tilert_int.h"

static const char META_SUFFIX[] = "__meta";
enum { META_SUFFIX_LEN = sizeof META_SUFFIX - 1 };

/* A kernel found in .dynsym: its name (malloc'ed) and the size of its NAME__meta object. */
typedef struct found_kernel {
	char *name;
	uint64_t meta_size;
} found_kernel;

/* Does [off, off+len) lie inside a file of size bytes? Overflow-safe. */
static int in_file(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

static int check_header(const Elf64_Ehdr *eh, size_t size)
{
	unsigned host = tilert_host_machine();
	const char *name, *host_name;

	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return tilert_fail(TILERT_ERR_FORMAT, "%s ELF objects are not tilecc CPU artifacts",
		                   eh->e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "unknown-class");
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return tilert_fail(TILERT_ERR_FORMAT, "big-endian ELF objects are not tilecc CPU artifacts");
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF version %u", (unsigned)eh->e_version);
	if (eh->e_machine != host) {
		name = tilert_machine_name(eh->e_machine);
		host_name = tilert_machine_name(host);
		if (name)
			return tilert_fail(TILERT_ERR_FORMAT, "this is a%s %s object; the host is %s",
			                   strchr("aeiounx", name[0]) ? "n" : "", name,
			                   host_name ? host_name : "not a tilecc CPU target");
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object for machine %u; the host is %s",
		                   (unsigned)eh->e_machine, host_name ? host_name : "unknown");
	}
	if (eh->e_type != ET_DYN)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "not a shared object (ELF type %s); tilecc CPU artifacts are ET_DYN",
		                   eh->e_type == ET_REL ? "ET_REL" : eh->e_type == ET_EXEC ? "ET_EXEC" : "other");
	if (eh->e_ehsize < sizeof(Elf64_Ehdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF header size %u", (unsigned)eh->e_ehsize);
	if (eh->e_phnum == 0 || eh->e_phnum == PN_XNUM)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF shared object without program headers");
	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF program header size %u",
		                   (unsigned)eh->e_phentsize);
	if (!in_file(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), size))
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: program headers beyond end of file (%zu bytes)", size);
	if (eh->e_shnum == 0)
		return TILERT_OK;
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF section header size %u",
		                   (unsigned)eh->e_shentsize);
	if (!in_file(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size))
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: section headers beyond end of file (%zu bytes)", size);
	if (eh->e_shstrndx != SHN_UNDEF && eh->e_shstrndx >= eh->e_shnum)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF section name table index %u",
		                   (unsigned)eh->e_shstrndx);
	return TILERT_OK;
}

/* Every segment inside the file; a PT_DYNAMIC inside a PT_LOAD. */
static int check_segments(const unsigned char *data, size_t size, const Elf64_Ehdr *eh)
{
	uint64_t dyn_off = 0, dyn_size = 0;
	int nload = 0, ndyn = 0, dyn_loaded = 0;
	Elf64_Phdr ph;

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		memcpy(&ph, data + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type == PT_NULL)
			continue;
		if (!in_file(ph.p_offset, ph.p_filesz, size))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "truncated ELF: segment %u (offset %llu, %llu bytes) beyond end "
			                   "of file (%zu bytes)", i, (unsigned long long)ph.p_offset,
			                   (unsigned long long)ph.p_filesz, size);
		if (ph.p_type == PT_LOAD) {
			if (ph.p_filesz > ph.p_memsz)
				return tilert_fail(TILERT_ERR_FORMAT,
				                   "bad ELF: segment %u has more file bytes than memory", i);
			nload++;
		} else if (ph.p_type == PT_DYNAMIC) {
			dyn_off = ph.p_offset;
			dyn_size = ph.p_filesz;
			ndyn++;
		}
	}
	if (nload == 0 || ndyn != 1)
		return tilert_fail(TILERT_ERR_FORMAT, "ELF object with %d loadable segment(s) and %d "
		                   "dynamic segment(s) is not a shared object", nload, ndyn);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		memcpy(&ph, data + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type == PT_LOAD && dyn_off >= ph.p_offset &&
		    dyn_off - ph.p_offset <= ph.p_filesz && dyn_size <= ph.p_filesz - (dyn_off - ph.p_offset))
			dyn_loaded = 1;
	}
	if (!dyn_loaded)
		return tilert_fail(TILERT_ERR_FORMAT, "bad ELF: the dynamic segment is not loaded");
	return TILERT_OK;
}

static void shdr_get(const unsigned char *data, const Elf64_Ehdr *eh, unsigned i, Elf64_Shdr *sh)
{
	memcpy(sh, data + eh->e_shoff + (uint64_t)i * sizeof *sh, sizeof *sh);
}

/* Every section inside the file. */
static int check_sections(const unsigned char *data, size_t size, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh;

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		shdr_get(data, eh, i, &sh);
		if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
		    !in_file(sh.sh_offset, sh.sh_size, size))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "truncated ELF: section %u (offset %llu, %llu bytes) beyond end "
			                   "of file (%zu bytes)", i, (unsigned long long)sh.sh_offset,
			                   (unsigned long long)sh.sh_size, size);
	}
	return TILERT_OK;
}

static void found_free(found_kernel *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].name);
	free(f);
}

static int found_cmp(const void *a, const void *b)
{
	return strcmp(((const found_kernel *)a)->name, ((const found_kernel *)b)->name);
}

/* Kernel names are C identifiers; this skips symbols that tools add around the real ones,
 * such as AddressSanitizer's "__odr_asan.NAME__meta". */
static int is_identifier(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (i > 0 && c >= '0' && c <= '9')))
			return 0;
	}
	return len > 0;
}

/* Collects the defined dynamic symbols NAME__meta, sorted by NAME. */
static int scan_dynsym(const unsigned char *data, const Elf64_Ehdr *eh, found_kernel **out,
                       size_t *nout)
{
	found_kernel *f = NULL, *nf;
	size_t n = 0, cap = 0;
	Elf64_Shdr sh, strsh;
	Elf64_Sym sym;

	*out = NULL;
	*nout = 0;
	for (unsigned s = 0; s < eh->e_shnum; s++) {
		const char *strtab;

		shdr_get(data, eh, s, &sh);
		if (sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh->e_shnum) {
			found_free(f, n);
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF dynamic symbol table");
		}
		shdr_get(data, eh, sh.sh_link, &strsh);
		if (strsh.sh_type != SHT_STRTAB) {
			found_free(f, n);
			return tilert_fail(TILERT_ERR_FORMAT, "bad ELF dynamic string table");
		}
		strtab = (const char *)data + strsh.sh_offset;
		for (uint64_t i = 1; i < sh.sh_size / sizeof sym; i++) {
			const char *name;
			size_t len;

			memcpy(&sym, data + sh.sh_offset + i * sizeof sym, sizeof sym);
			if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strsh.sh_size)
				continue;
			name = strtab + sym.st_name;
			len = strnlen(name, strsh.sh_size - sym.st_name);
			if (len == strsh.sh_size - sym.st_name || len <= META_SUFFIX_LEN ||
			    memcmp(name + len - META_SUFFIX_LEN, META_SUFFIX, META_SUFFIX_LEN) != 0 ||
			    !is_identifier(name, len - META_SUFFIX_LEN))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				if (!(nf = realloc(f, cap * sizeof *f))) {
					found_free(f, n);
					return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
				}
				f = nf;
			}
			if (!(f[n].name = strndup(name, len - META_SUFFIX_LEN))) {
				found_free(f, n);
				return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
			}
			f[n++].meta_size = sym.st_size;
		}
	}
	if (n)
		qsort(f, n, sizeof *f, found_cmp);
	*out = f;
	*nout = n;
	return TILERT_OK;
}

static int write_all(int fd, const unsigned char *data, size_t size)
{
	while (size) {
		ssize_t w = write(fd, data, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		data += w;
		size -= (size_t)w;
	}
	return 0;
}

/* dlopen of bytes in memory: a memfd first, then an unlinked temporary file (for kernels
 * without memfd_create, or mounts that refuse to map a memfd executable). The memfd stays
 * open while the module is loaded (*keep_fd; closed at unload): glibc knows loaded objects
 * by name, and a closed descriptor's number, reused for the next module, would make
 * /proc/self/fd/N name the first module again. */
static void *dlopen_memory(const unsigned char *data, size_t size, char *why, size_t whylen,
			   int *keep_fd)
{
	char path[4096];
	const char *tmp, *e;
	void *h = NULL;
	int fd;

	snprintf(why, whylen, "cannot write a temporary copy");
#ifdef MFD_CLOEXEC
	if ((fd = memfd_create("tilert-module", MFD_CLOEXEC)) >= 0) {
		if (write_all(fd, data, size) == 0) {
			snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
			if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
				snprintf(why, whylen, "%s", (e = dlerror()) ? e : "dlopen failed");
		}
		if (h) {
			*keep_fd = fd;
			return h;
		}
		close(fd);
	}
#endif
	tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/tilert-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		return NULL;
	if (write_all(fd, data, size) == 0 && !(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		snprintf(why, whylen, "%s", (e = dlerror()) ? e : "dlopen failed");
	unlink(path);
	close(fd);
	return h;
}

/* Builds the kernel record of one NAME__meta symbol of the loaded object. */
static int kernel_make(tilert_module *mod, const found_kernel *f, tilert_kernel **out)
{
	tilert_kernel *k = calloc(1, sizeof *k);
	size_t len = strlen(f->name);
	char *sym = NULL;
	const char *meta;
	int rc = TILERT_ERR_OUT_OF_MEMORY;

	*out = NULL;
	if (!k || !(sym = malloc(len + sizeof "__grid" + sizeof META_SUFFIX)))
		goto oom;
	k->mod = mod;
	if (!(k->name = strdup(f->name)))
		goto oom;
	sprintf(sym, "%s%s", f->name, META_SUFFIX);
	meta = dlsym(mod->handle, sym);
	if (!meta || f->meta_size == 0 || strnlen(meta, f->meta_size) == f->meta_size) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is not a NUL-terminated string",
		                 f->name, sym);
		goto fail;
	}
	if (!(k->text = strdup(meta)))
		goto oom;
	if ((rc = tilert_meta_parse(k, tilert_machine_name(tilert_host_machine()))) != TILERT_OK)
		goto fail;
	/* POSIX allows converting dlsym's void * to a function pointer; C11 does not say so. */
	*(void **)&k->program = dlsym(mod->handle, f->name);
	if (!k->program) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s' has metadata but no entry point '%s'",
		                 f->name, f->name);
		goto fail;
	}
	sprintf(sym, "%s__grid", f->name);
	*(void **)&k->grid = dlsym(mod->handle, sym);
	if ((rc = tilert_ffi_prepare(k)) != TILERT_OK)
		goto fail;
	free(sym);
	*out = k;
	return TILERT_OK;
oom:
	rc = tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading kernel '%s'", f->name);
fail:
	free(sym);
	tilert_kernel_free(k);
	return rc;
}

int tilert_host_load(const unsigned char *data, size_t size, const char *path, tilert_module *mod)
{
	found_kernel *found = NULL;
	size_t nfound = 0;
	char why[512];
	Elf64_Ehdr eh;
	int rc;

	if (size < sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "truncated ELF: %zu bytes, the ELF header alone is %zu", size, sizeof eh);
	memcpy(&eh, data, sizeof eh);
	if ((rc = check_header(&eh, size)) != TILERT_OK ||
	    (rc = check_segments(data, size, &eh)) != TILERT_OK ||
	    (rc = check_sections(data, size, &eh)) != TILERT_OK ||
	    (rc = scan_dynsym(data, &eh, &found, &nfound)) != TILERT_OK)
		return rc;
	if (nfound == 0) {
		free(found);
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "no tilecc kernels in this shared object (no exported NAME__meta)");
	}
	if (path) {
		if (!(mod->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
			const char *e = dlerror();

			snprintf(why, sizeof why, "%s", e ? e : "dlopen failed");
		}
	} else {
		mod->handle = dlopen_memory(data, size, why, sizeof why, &mod->memfd);
	}
	if (!mod->handle) {
		found_free(found, nfound);
		return tilert_fail(TILERT_ERR_FORMAT, "cannot load the shared object: %s", why);
	}
	if (!(mod->kernels = calloc(nfound, sizeof *mod->kernels))) {
		found_free(found, nfound);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	}
	for (size_t i = 0; i < nfound; i++) {
		if ((rc = kernel_make(mod, &found[i], &mod->kernels[i])) != TILERT_OK)
			break;
		mod->nkernels++;
	}
	found_free(found, nfound);
	return rc;
}

void tilert_host_unload(tilert_module *mod)
{
	if (mod->handle)
		dlclose(mod->handle);
	if (mod->memfd >= 0)
		close(mod->memfd);
	mod->memfd = -1;
	mod->handle = NULL;
}
