/* host.c: CPU artifacts: ELF shared objects for the machine the runtime runs on.
 *
 * The bytes are validated (elf_check.c) and mapped by libtilert itself (elf_load.c), not
 * by dlopen: elf_check.c says why. The kernels are the exported symbols named NAME__meta;
 * each must lie inside a readable segment, its NAME entry (and its optional NAME__grid)
 * inside an executable one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

static const char META_SUFFIX[] = "__meta";
enum { META_SUFFIX_LEN = sizeof META_SUFFIX - 1 };

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The kernel names NAME of the exported symbols NAME__meta, sorted. Kernel names are C
 * identifiers; this skips symbols that tools add around the real ones, such as
 * AddressSanitizer's "__odr_asan.NAME__meta". */
static int find_kernels(const tilert_elf_image *img, char ***out, size_t *nout)
{
	size_t n = 0, count = tilert_elf_num_exports(img);
	char **names = NULL;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < count; i++) {
		const char *name = tilert_elf_export_name(img, i);
		size_t len = strlen(name);

		if (len <= META_SUFFIX_LEN || memcmp(name + len - META_SUFFIX_LEN, META_SUFFIX, META_SUFFIX_LEN) != 0 ||
		    !tilert_is_ident(name, len - META_SUFFIX_LEN))
			continue;
		if (!names && !(names = calloc(count, sizeof *names)))
			return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
		if (!(names[n] = strndup(name, len - META_SUFFIX_LEN))) {
			names_free(names, n);
			return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof *names, name_cmp);
	*out = names;
	*nout = n;
	return TILERT_OK;
}

/* Builds the kernel record of one NAME__meta symbol of the loaded object: the metadata,
 * the entry NAME and the optional NAME__grid, each inside the segments it must lie in. */
static int kernel_make(tilert_module *mod, const char *name, tilert_kernel **out)
{
	tilert_kernel *k = calloc(1, sizeof *k);
	size_t len = strlen(name);
	char *sym = NULL;
	const char *meta;
	uint64_t meta_size = 0;
	int found, rc = TILERT_ERR_OUT_OF_MEMORY;

	*out = NULL;
	if (!k || !(sym = malloc(len + sizeof "__grid" + sizeof META_SUFFIX)))
		goto oom;
	k->mod = mod;
	if (!(k->name = strdup(name)))
		goto oom;
	sprintf(sym, "%s%s", name, META_SUFFIX);
	meta = tilert_elf_symbol(mod->host, sym, PF_R, &meta_size, &found);
	if (!meta) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s lies outside the module's loaded "
		                 "segments", name, sym);
		goto fail;
	}
	if (meta_size == 0 || strnlen(meta, meta_size) == meta_size) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s is not a NUL-terminated string",
		                 name, sym);
		goto fail;
	}
	if (!(k->text = strdup(meta)))
		goto oom;
	if ((rc = tilert_meta_parse(k, tilert_machine_name(tilert_host_machine()))) != TILERT_OK)
		goto fail;
	/* POSIX allows converting a void * to a function pointer; C11 does not say so. */
	*(void **)&k->program = tilert_elf_symbol(mod->host, name, PF_X, NULL, &found);
	if (!k->program) {
		rc = found ? tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': its entry point lies outside "
		                         "the module's executable segments", name)
		           : tilert_fail(TILERT_ERR_FORMAT, "kernel '%s' has metadata but no entry point '%s'",
		                         name, name);
		goto fail;
	}
	sprintf(sym, "%s__grid", name);
	*(void **)&k->grid = tilert_elf_symbol(mod->host, sym, PF_X, NULL, &found);
	if (!k->grid && found) {
		rc = tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': %s lies outside the module's "
		                 "executable segments", name, sym);
		goto fail;
	}
	if ((rc = tilert_ffi_prepare(k)) != TILERT_OK)
		goto fail;
	free(sym);
	*out = k;
	return TILERT_OK;
oom:
	rc = tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading kernel '%s'", name);
fail:
	free(sym);
	tilert_kernel_free(k);
	return rc;
}

int tilert_host_load(const unsigned char *data, size_t size, tilert_module *mod)
{
	tilert_elf_layout layout;
	char **names = NULL;
	size_t nnames = 0;
	int rc;

	if ((rc = tilert_elf_check(data, size, &layout)) != TILERT_OK ||
	    (rc = tilert_elf_map(data, size, &layout, &mod->host)) != TILERT_OK ||
	    (rc = find_kernels(mod->host, &names, &nnames)) != TILERT_OK)
		return rc;
	if (nnames == 0)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "no tilecc kernels in this shared object (no exported NAME__meta)");
	if (!(mod->kernels = calloc(nnames, sizeof *mod->kernels))) {
		names_free(names, nnames);
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	}
	for (size_t i = 0; i < nnames; i++) {
		if ((rc = kernel_make(mod, names[i], &mod->kernels[i])) != TILERT_OK)
			break;
		mod->nkernels++;
	}
	names_free(names, nnames);
	return rc;
}

void tilert_host_unload(tilert_module *mod)
{
	tilert_elf_unmap(mod->host);
	mod->host = NULL;
}
