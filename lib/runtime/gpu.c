/* gpu.c: what the GPU paths share (cuda.c for NVIDIA, hip.c for AMD): finding the kernel
 * names of an image (PTX text, the symbol tables of cubins and HSACOs), building kernel
 * records from their NAME__meta text, and the calls that belong to no module: stream
 * synchronization and destruction, handed to the driver that made the stream, and device
 * memory, handed to the first usable driver, CUDA then HIP.
 *
 * A process drives one GPU vendor in practice. Both drivers may still be used in one
 * process; a stream then belongs to the driver of its first GPU launch, and device memory
 * to CUDA when its driver is usable. */
#include <elf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

enum { META_MAX = 1 << 20, /* bytes of a NAME__meta: far more than any metadata needs */
       META_SUFFIX_LEN = sizeof TILERT_META_SUFFIX - 1 };

/* Guards the GPU fields of streams and each GPU module's list of kernels found by name. */
static pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;

int tilert_gpu_env_device(const char *var, int *ordinal)
{
	const char *v = getenv(var);
	char *end;
	long n;

	*ordinal = 0;
	if (!v || !*v)
		return 1;
	n = strtol(v, &end, 10);
	if (*end || n < 0 || n > 1024)
		return 0;
	*ordinal = (int)n;
	return 1;
}

/* ---- Finding kernel names in the images ---- */

void tilert_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

int tilert_is_ident(const char *s, size_t len)
{
	if (len == 0 || !is_ident_start(s[0]))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!is_ident_char(s[i]))
			return 0;
	return 1;
}

/* A list of names under construction. */
typedef struct name_list {
	char **v;
	size_t n, cap;
} name_list;

static int names_add(name_list *l, const char *name, size_t len)
{
	char **nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		if (!(nv = realloc(l->v, l->cap * sizeof *nv)))
			return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
		l->v = nv;
	}
	if (!(l->v[l->n] = strndup(name, len)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	l->n++;
	return TILERT_OK;
}

/* Sorts the list, drops repeats, and hands it over. */
static int names_finish(name_list *l, char ***names, size_t *n)
{
	size_t kept = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, name_cmp);
	for (size_t i = 0; i < l->n; i++) {
		if (kept && strcmp(l->v[kept - 1], l->v[i]) == 0)
			free(l->v[i]);
		else
			l->v[kept++] = l->v[i];
	}
	*names = l->v;
	*n = kept;
	return TILERT_OK;
}

/* `.entry NAME` outside comments and strings; NAME a C identifier (tilecc's kernel names
 * are; PTX allows '$' and '%' as well, which no tilecc kernel has). */
int tilert_scan_ptx(const char *text, size_t size, char ***names, size_t *n)
{
	name_list l = { 0 };
	size_t i = 0;
	int rc;

	*names = NULL;
	*n = 0;
	while (i < size && text[i]) {
		if (size - i >= 2 && text[i] == '/' && text[i + 1] == '/') {
			while (i < size && text[i] && text[i] != '\n')
				i++;
		} else if (size - i >= 2 && text[i] == '/' && text[i + 1] == '*') {
			for (i += 2; i < size && text[i] && !(size - i >= 2 && text[i] == '*' &&
			                                      text[i + 1] == '/'); i++)
				;
			i = i < size && text[i] ? i + 2 : i;
		} else if (text[i] == '"') {
			for (i++; i < size && text[i] && text[i] != '"' && text[i] != '\n'; i++)
				;
			i += i < size && text[i] == '"';
		} else if (size - i > 6 && memcmp(text + i, ".entry", 6) == 0 &&
		           (i == 0 || !is_ident_char(text[i - 1])) &&
		           (text[i + 6] == ' ' || text[i + 6] == '\t' || text[i + 6] == '\n' ||
		            text[i + 6] == '\r')) {
			size_t start;

			for (i += 6; i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
			                          text[i] == '\r'); i++)
				;
			start = i;
			if (i < size && is_ident_start(text[i]))
				while (i < size && is_ident_char(text[i]))
					i++;
			if (i > start && (i == size || (text[i] != '$' && text[i] != '%')) &&
			    (rc = names_add(&l, text + start, i - start)) != TILERT_OK) {
				tilert_names_free(l.v, l.n);
				return rc;
			}
		} else {
			i++;
		}
	}
	return names_finish(&l, names, n);
}

int tilert_in_image(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

/* The defined STT_FUNC symbols NAME, C identifiers, of the image's symbol tables (.symtab
 * and .dynsym: a stripped HSACO keeps the latter only) that have a defined STT_OBJECT
 * NAME__meta beside them. An HSACO's kernel descriptors, the objects NAME.kd, are not
 * identifiers. The image has usually been accepted by a driver, but is checked here as if
 * it had not; what names it in messages ("cubin", "HSACO"). */
int tilert_scan_elf(const unsigned char *data, size_t size, const char *what, char ***names,
                    size_t *n)
{
	name_list funcs = { 0 }, metas = { 0 }, kernels = { 0 };
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	Elf64_Sym sym;
	int rc = TILERT_OK;

	*names = NULL;
	*n = 0;
	if (size < sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: %zu bytes", what, size);
	memcpy(&eh, data, sizeof eh);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return tilert_fail(TILERT_ERR_FORMAT, "not a 64-bit little-endian %s", what);
	if (eh.e_shnum && (eh.e_shentsize != sizeof sh ||
	                   !tilert_in_image(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof sh, size)))
		return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: section headers beyond its end",
		                   what);
	for (unsigned s = 0; s < eh.e_shnum && rc == TILERT_OK; s++) {
		memcpy(&sh, data + eh.e_shoff + (uint64_t)s * sizeof sh, sizeof sh);
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_entsize != sizeof sym || sh.sh_link >= eh.e_shnum ||
		    !tilert_in_image(sh.sh_offset, sh.sh_size, size)) {
			rc = tilert_fail(TILERT_ERR_FORMAT, "bad %s symbol table", what);
			break;
		}
		memcpy(&strsh, data + eh.e_shoff + (uint64_t)sh.sh_link * sizeof strsh, sizeof strsh);
		if (strsh.sh_type != SHT_STRTAB || !tilert_in_image(strsh.sh_offset, strsh.sh_size, size)) {
			rc = tilert_fail(TILERT_ERR_FORMAT, "bad %s string table", what);
			break;
		}
		for (uint64_t i = 1; i < sh.sh_size / sizeof sym && rc == TILERT_OK; i++) {
			const char *name;
			size_t len;
			int type;

			memcpy(&sym, data + sh.sh_offset + i * sizeof sym, sizeof sym);
			type = ELF64_ST_TYPE(sym.st_info);
			if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strsh.sh_size ||
			    (type != STT_FUNC && type != STT_OBJECT))
				continue;
			name = (const char *)data + strsh.sh_offset + sym.st_name;
			len = strnlen(name, strsh.sh_size - sym.st_name);
			if (len == strsh.sh_size - sym.st_name)
				continue; /* not terminated inside the table */
			if (type == STT_FUNC && tilert_is_ident(name, len))
				rc = names_add(&funcs, name, len);
			else if (type == STT_OBJECT && len > META_SUFFIX_LEN &&
			         memcmp(name + len - META_SUFFIX_LEN, TILERT_META_SUFFIX,
			                META_SUFFIX_LEN) == 0)
				rc = names_add(&metas, name, len - META_SUFFIX_LEN);
		}
	}
	if (rc == TILERT_OK && metas.n)
		qsort(metas.v, metas.n, sizeof *metas.v, name_cmp);
	for (size_t i = 0; i < funcs.n && rc == TILERT_OK; i++)
		if (metas.n && bsearch(&funcs.v[i], metas.v, metas.n, sizeof *metas.v, name_cmp))
			rc = names_add(&kernels, funcs.v[i], strlen(funcs.v[i]));
	tilert_names_free(funcs.v, funcs.n);
	tilert_names_free(metas.v, metas.n);
	if (rc != TILERT_OK) {
		tilert_names_free(kernels.v, kernels.n);
		return rc;
	}
	return names_finish(&kernels, names, n);
}

/* ---- Checking images before a driver sees them ---- */

enum { IMAGE_MAX = 1 << 30 }; /* bytes of a GPU image */

/* PTX: text up to the end or to a run of NULs that ends it (the driver reads up to the
 * first NUL, and gets one appended); no other control characters than white space. */
static int check_ptx(const unsigned char *p, size_t size)
{
	size_t end = size;

	while (end && p[end - 1] == 0)
		end--;
	for (size_t i = 0; i < end; i++) {
		unsigned char c = p[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f')
			return tilert_fail(TILERT_ERR_FORMAT, "bad PTX: byte %u at offset %zu is not text%s",
			                   c, i, c ? "" : " (a NUL inside the text)");
	}
	return TILERT_OK;
}

/* A cubin or an HSACO: an ELF object of machine whose headers, segments and sections lie
 * inside the image, whose links name sections, and whose string tables end in a NUL. */
static int check_gpu_elf(const unsigned char *data, size_t size, unsigned machine, const char *what)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Shdr sh;

	if (size < sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: %zu bytes", what, size);
	memcpy(&eh, data, sizeof eh);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_ident[EI_VERSION] != EV_CURRENT || eh.e_version != EV_CURRENT ||
	    eh.e_machine != machine || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_ehsize != sizeof eh)
		return tilert_fail(TILERT_ERR_FORMAT, "bad %s: not a 64-bit little-endian ELF "
		                   "executable or shared object for machine %u", what, machine);
	if (eh.e_phnum && (eh.e_phentsize != sizeof ph ||
	                   !tilert_in_image(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof ph, size)))
		return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: program headers beyond its end", what);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, data + eh.e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_NULL && !tilert_in_image(ph.p_offset, ph.p_filesz, size))
			return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: segment %u beyond its end "
			                   "(%zu bytes)", what, i, size);
		if (ph.p_type == PT_LOAD && ph.p_filesz > ph.p_memsz)
			return tilert_fail(TILERT_ERR_FORMAT, "bad %s: segment %u has more file bytes than "
			                   "memory", what, i);
	}
	if (eh.e_shnum == 0 || eh.e_shentsize != sizeof sh ||
	    !tilert_in_image(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof sh, size) ||
	    eh.e_shstrndx >= eh.e_shnum)
		return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: no section headers inside it", what);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		memcpy(&sh, data + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
		if (sh.sh_type == SHT_NULL || sh.sh_type == SHT_NOBITS)
			continue;
		if (!tilert_in_image(sh.sh_offset, sh.sh_size, size))
			return tilert_fail(TILERT_ERR_FORMAT, "truncated %s: section %u beyond its end "
			                   "(%zu bytes)", what, i, size);
		if (sh.sh_link >= eh.e_shnum)
			return tilert_fail(TILERT_ERR_FORMAT, "bad %s: section %u links to section %u of %u",
			                   what, i, (unsigned)sh.sh_link, (unsigned)eh.e_shnum);
		if (sh.sh_type == SHT_STRTAB && sh.sh_size && data[sh.sh_offset + sh.sh_size - 1] != 0)
			return tilert_fail(TILERT_ERR_FORMAT, "bad %s: string table %u does not end in a NUL",
			                   what, i);
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
		    (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_size % sizeof(Elf64_Sym)))
			return tilert_fail(TILERT_ERR_FORMAT, "bad %s: symbol table %u has entries of %llu "
			                   "bytes", what, i, (unsigned long long)sh.sh_entsize);
		if ((sh.sh_type == SHT_RELA && sh.sh_entsize != sizeof(Elf64_Rela)) ||
		    (sh.sh_type == SHT_REL && sh.sh_entsize != sizeof(Elf64_Rel)))
			return tilert_fail(TILERT_ERR_FORMAT, "bad %s: relocation section %u has entries of "
			                   "%llu bytes", what, i, (unsigned long long)sh.sh_entsize);
	}
	return TILERT_OK;
}

int tilert_gpu_check_image(const unsigned char *data, size_t size, tilert_format f)
{
	if (size > IMAGE_MAX)
		return tilert_fail(TILERT_ERR_FORMAT, "GPU image of %zu bytes (at most %d)", size, IMAGE_MAX);
	switch (f) {
	case TILERT_FORMAT_PTX: return check_ptx(data, size);
	case TILERT_FORMAT_CUBIN: return check_gpu_elf(data, size, EM_CUDA, "cubin");
	case TILERT_FORMAT_HSACO: return check_gpu_elf(data, size, EM_AMDGPU, "HSACO");
	default: return tilert_fail(TILERT_ERR_FORMAT, "not a GPU image");
	}
}

/* ---- Kernel records ---- */

int tilert_gpu_kernel_alloc(tilert_module *mod, const char *name, const char *sym, size_t bytes,
                            tilert_kernel **out)
{
	tilert_kernel *k;

	*out = NULL;
	if (bytes > META_MAX)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is %zu bytes (at most %d)", name,
		                   sym, bytes, META_MAX);
	if (!(k = calloc(1, sizeof *k)) || !(k->name = strdup(name)) ||
	    (bytes && !(k->text = malloc(bytes)))) {
		tilert_kernel_free(k);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading kernel '%s'", name);
	}
	k->mod = mod;
	*out = k;
	return TILERT_OK;
}

int tilert_gpu_kernel_meta(tilert_kernel *k, const char *sym, size_t bytes, const char *target)
{
	if (!bytes || !memchr(k->text, 0, bytes))
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is not a NUL-terminated string",
		                   k->name, sym);
	return tilert_meta_parse(k, target);
}

/* A positive integer metadata value, at most max; *v is left alone when the key is absent. */
static int meta_uint(const tilert_kernel *k, const char *key, unsigned long max, unsigned *v)
{
	const char *s = tilert_kernel_meta(k, key);
	unsigned long n;
	char *end;

	if (!s)
		return TILERT_OK;
	n = strtoul(s, &end, 10);
	if (end == s || *end || *s == '-' || n > max)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad %s=%s", k->name, key, s);
	*v = (unsigned)n;
	return TILERT_OK;
}

/* block= ("x,y,z"; when absent, lim->warp * num_warps threads, num_warps 4 by default) and
 * shared= (0 by default), checked against the device's limits. */
int tilert_gpu_kernel_geometry(tilert_kernel *k, const tilert_gpu_limits *lim)
{
	const char *b = tilert_kernel_meta(k, "block");
	unsigned warps = 4;
	int rc;

	k->block[0] = k->block[1] = k->block[2] = 1;
	if ((rc = meta_uint(k, "shared", INT32_MAX, &k->shared)) != TILERT_OK)
		return rc;
	if (!b) {
		if ((rc = meta_uint(k, "num_warps", 32, &warps)) != TILERT_OK)
			return rc;
		k->block[0] = lim->warp * (warps ? warps : 1);
	} else {
		const char *s = b;

		for (int axis = 0; axis < 3 && *s; axis++) {
			unsigned long n;
			char *end;

			n = strtoul(s, &end, 10);
			if (end == s || *s == '-' || n == 0 || n > 1024 || (*end && *end != ','))
				return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad block=%s", k->name, b);
			k->block[axis] = (unsigned)n;
			s = *end ? end + 1 : end;
			if (axis == 2 && *s)
				return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad block=%s", k->name, b);
		}
	}
	if ((unsigned long)k->block[0] * k->block[1] * k->block[2] > lim->max_threads)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s': block=%u,%u,%u is more threads than device %d allows "
		                   "(%u)", k->name, k->block[0], k->block[1], k->block[2], lim->ordinal,
		                   lim->max_threads);
	if (k->shared > lim->max_shared)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s' needs %u bytes of shared memory; device %d allows %u",
		                   k->name, k->shared, lim->ordinal, lim->max_shared);
	return TILERT_OK;
}

int tilert_gpu_add_kernels(tilert_module *mod, char **names, size_t nnames, const char *what)
{
	int rc = TILERT_OK;

	if (nnames && !(mod->kernels = calloc(nnames, sizeof *mod->kernels))) {
		tilert_names_free(names, nnames);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a %s", what);
	}
	for (size_t i = 0; i < nnames; i++) {
		rc = mod->gpu->kernel_make(mod, names[i], &mod->kernels[mod->nkernels]);
		if (rc == TILERT_ERR_NOT_FOUND)
			continue; /* a function of the module, not a tilecc kernel */
		if (rc != TILERT_OK)
			break;
		mod->nkernels++;
	}
	tilert_names_free(names, nnames);
	if (rc != TILERT_OK && rc != TILERT_ERR_NOT_FOUND)
		return rc;
	if (mod->nkernels == 0)
		return tilert_fail(TILERT_ERR_FORMAT, "no tilecc kernels in this %s (no kernel NAME "
		                   "with a global NAME__meta)", what);
	return TILERT_OK;
}

int tilert_gpu_find_kernel(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_kernel *k;
	int rc;

	if (!mod->gpu_module || !tilert_is_ident(name, strlen(name)))
		return TILERT_ERR_NOT_FOUND;
	if ((rc = mod->gpu->enter("cannot look up a GPU kernel")) != TILERT_OK)
		return rc;
	pthread_mutex_lock(&gpu_lock);
	for (k = mod->extra; k && strcmp(k->name, name) != 0; k = k->next)
		;
	rc = TILERT_OK;
	if (!k && (rc = mod->gpu->kernel_make(mod, name, &k)) == TILERT_OK) {
		k->next = mod->extra;
		mod->extra = k;
	}
	pthread_mutex_unlock(&gpu_lock);
	if (rc == TILERT_OK)
		*out = k;
	return rc;
}

/* ---- Streams ---- */

int tilert_gpu_stream_get(tilert_stream *s, const tilert_gpu *d, void **out)
{
	int rc = TILERT_OK;

	*out = NULL;
	if (!s)
		return TILERT_OK;
	pthread_mutex_lock(&gpu_lock);
	if (!s->gpu_stream) {
		if ((rc = d->stream_create(&s->gpu_stream)) == TILERT_OK)
			s->gpu = d;
	} else if (s->gpu != d) {
		/* Neither driver can order its work after the other's. */
		rc = tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                 "this stream carries %s launches; a %s kernel needs another stream",
		                 s->gpu->name, d->name);
	}
	*out = s->gpu_stream;
	pthread_mutex_unlock(&gpu_lock);
	return rc;
}

/* Waits for the GPU work of s: on its driver's stream if it has one; for the default
 * stream, every launch of each driver. A no-op, that starts no driver, when no GPU work
 * can be pending. */
int tilert_gpu_stream_sync(tilert_stream *s)
{
	const tilert_gpu *d;
	void *gs;
	int rc;

	if (s) {
		pthread_mutex_lock(&gpu_lock);
		d = s->gpu;
		gs = s->gpu_stream;
		pthread_mutex_unlock(&gpu_lock);
		return d ? d->stream_sync(gs) : TILERT_OK;
	}
	if ((rc = tilert_gpu_cuda.stream_sync(NULL)) != TILERT_OK)
		return rc;
	return tilert_gpu_hip.stream_sync(NULL);
}

void tilert_gpu_stream_peek(tilert_stream *s, const tilert_gpu **d, void **gs)
{
	pthread_mutex_lock(&gpu_lock);
	*d = s->gpu;
	*gs = s->gpu_stream;
	pthread_mutex_unlock(&gpu_lock);
}

int tilert_gpu_stream_destroy(tilert_stream *s)
{
	int rc = tilert_gpu_stream_sync(s);
	const tilert_gpu *d;
	void *gs;

	pthread_mutex_lock(&gpu_lock);
	d = s->gpu;
	gs = s->gpu_stream;
	s->gpu = NULL;
	s->gpu_stream = NULL;
	pthread_mutex_unlock(&gpu_lock);
	if (gs)
		d->stream_free(gs);
	return rc;
}

/* ---- Device memory ---- */

/* The driver device memory goes to: CUDA when usable, else HIP; NULL, after failing with
 * "what: why CUDA is not usable; why HIP is not", when neither is. */
static const tilert_gpu *memory_driver(const char *what)
{
	const char *cuda_why, *hip_why;

	if (!(cuda_why = tilert_gpu_cuda.unusable()))
		return &tilert_gpu_cuda;
	if (!(hip_why = tilert_gpu_hip.unusable()))
		return &tilert_gpu_hip;
	tilert_fail(TILERT_ERR_NO_DRIVER, "%s: %s; %s", what, cuda_why, hip_why);
	return NULL;
}

int tilert_device_alloc(size_t bytes, void **out)
{
	const tilert_gpu *d;

	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL device pointer out-pointer");
	if (!(d = memory_driver("cannot allocate device memory")))
		return TILERT_ERR_NO_DRIVER;
	if (bytes == 0) {
		*out = NULL;
		return TILERT_OK;
	}
	return d->mem_alloc(bytes, out);
}

int tilert_device_free(void *dev)
{
	const tilert_gpu *d;

	if (!dev)
		return TILERT_OK;
	if (!(d = memory_driver("cannot free device memory")))
		return TILERT_ERR_NO_DRIVER;
	return d->mem_free(dev);
}

int tilert_memcpy_htod(void *dst_dev, const void *src, size_t bytes)
{
	const tilert_gpu *d;

	if (!(d = memory_driver("cannot copy to the device")))
		return TILERT_ERR_NO_DRIVER;
	if (!bytes)
		return TILERT_OK;
	if (!dst_dev || !src)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL %s copying %zu bytes to the device",
		                   src ? "destination" : "source", bytes);
	return d->memcpy_htod(dst_dev, src, bytes);
}

int tilert_memcpy_dtoh(void *dst, const void *src_dev, size_t bytes)
{
	const tilert_gpu *d;

	if (!(d = memory_driver("cannot copy from the device")))
		return TILERT_ERR_NO_DRIVER;
	if (!bytes)
		return TILERT_OK;
	if (!dst || !src_dev)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "NULL %s copying %zu bytes from the device",
		                   dst ? "source" : "destination", bytes);
	return d->memcpy_dtoh(dst, src_dev, bytes);
}

int tilert_memset_d8(void *dev, int value, size_t bytes)
{
	const tilert_gpu *d;

	if (!(d = memory_driver("cannot set device memory")))
		return TILERT_ERR_NO_DRIVER;
	if (!bytes)
		return TILERT_OK;
	if (!dev)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL device pointer setting %zu bytes",
		                   bytes);
	return d->memset_d8(dev, value, bytes);
}
