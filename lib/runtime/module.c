/* module.c: format detection of artifacts, loading and unloading of modules, and kernel
 * lookup and introspection. The loading itself is per format: host.c for CPU shared
 * objects, cuda.c for cubin and PTX, hip.c for HSACO (both GPU paths through gpu.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

/* ELF machine numbers, spelled here so that no <elf.h> is needed for detection. */
enum { ELF_EM_386 = 3, ELF_EM_ARM = 40, ELF_EM_X86_64 = 62, ELF_EM_AARCH64 = 183,
       ELF_EM_CUDA = 190, ELF_EM_AMDGPU = 224, ELF_EM_RISCV = 243 };

const char *tilert_machine_name(unsigned machine)
{
	switch (machine) {
	case ELF_EM_386: return "i386";
	case ELF_EM_ARM: return "arm";
	case ELF_EM_X86_64: return "x86-64";
	case ELF_EM_AARCH64: return "aarch64";
	case ELF_EM_CUDA: return "nvptx";
	case ELF_EM_AMDGPU: return "amdgcn";
	case ELF_EM_RISCV: return "riscv64";
	default: return NULL;
	}
}

unsigned tilert_host_machine(void)
{
#if defined(__x86_64__)
	return ELF_EM_X86_64;
#elif defined(__riscv) && __riscv_xlen == 64
	return ELF_EM_RISCV;
#elif defined(__aarch64__)
	return ELF_EM_AARCH64;
#else
	return 0;
#endif
}

/* PTX is text: optional whitespace and comments, then the .version directive. */
static int is_ptx(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
			i++;
		} else if (n - i >= 2 && p[i] == '/' && p[i + 1] == '/') {
			while (i < n && p[i] != '\n')
				i++;
		} else if (n - i >= 2 && p[i] == '/' && p[i + 1] == '*') {
			for (i += 2; i < n && !(n - i >= 2 && p[i] == '*' && p[i + 1] == '/'); i++)
				;
			if (i >= n)
				return 0;
			i += 2;
		} else {
			break;
		}
	}
	return n - i >= 8 && memcmp(p + i, ".version", 8) == 0;
}

tilert_format tilert_format_detect(const void *data, size_t size)
{
	const unsigned char *p = data;
	unsigned machine;

	if (!p || size == 0)
		return TILERT_FORMAT_UNKNOWN;
	if (size >= 4 && memcmp(p, "\177ELF", 4) == 0) {
		if (size < 20)
			return TILERT_FORMAT_HOST; /* too short to tell: host.c reports the truncation */
		machine = p[5] == 2 ? (unsigned)p[18] << 8 | p[19] : (unsigned)p[19] << 8 | p[18];
		if (machine == ELF_EM_CUDA)
			return TILERT_FORMAT_CUBIN;
		if (machine == ELF_EM_AMDGPU)
			return TILERT_FORMAT_HSACO;
		return TILERT_FORMAT_HOST;
	}
	if (is_ptx(p, size))
		return TILERT_FORMAT_PTX;
	return TILERT_FORMAT_UNKNOWN;
}

const char *tilert_format_name(tilert_format f)
{
	switch (f) {
	case TILERT_FORMAT_HOST: return "host";
	case TILERT_FORMAT_CUBIN: return "cubin";
	case TILERT_FORMAT_PTX: return "ptx";
	case TILERT_FORMAT_HSACO: return "hsaco";
	default: return "unknown";
	}
}

/* Loads bytes whose format is detected here. */
static int module_load(const unsigned char *data, size_t size, tilert_module **out)
{
	tilert_module *mod;
	int rc;

	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL module out-pointer");
	*out = NULL;
	if (size == 0)
		return tilert_fail(TILERT_ERR_FORMAT, "empty artifact");
	if (!(mod = calloc(1, sizeof *mod)))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory loading a module");
	mod->format = tilert_format_detect(data, size);
	switch (mod->format) {
	case TILERT_FORMAT_HOST:
		rc = tilert_host_load(data, size, mod);
		break;
	case TILERT_FORMAT_CUBIN:
	case TILERT_FORMAT_PTX:
	case TILERT_FORMAT_HSACO:
		mod->gpu = mod->format == TILERT_FORMAT_HSACO ? &tilert_gpu_hip : &tilert_gpu_cuda;
		rc = mod->gpu->load(data, size, mod->format, mod);
		break;
	default:
		rc = tilert_fail(TILERT_ERR_FORMAT,
		                 "not a tilecc artifact: neither an ELF object nor PTX text "
		                 "(first bytes %02x %02x %02x %02x)",
		                 data[0], size > 1 ? data[1] : 0, size > 2 ? data[2] : 0,
		                 size > 3 ? data[3] : 0);
		break;
	}
	if (rc != TILERT_OK) {
		tilert_module_unload(mod);
		return rc;
	}
	*out = mod;
	return TILERT_OK;
}

int tilert_module_load_data(const void *data, size_t size, tilert_module **out)
{
	if (!data && size)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL data with size %zu", size);
	return module_load(data, size, out);
}

/* Reads a whole file; works for pipes and /proc files too, whose size is not known ahead. */
static int read_file(const char *path, unsigned char **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *nbuf;
	size_t n = 0, cap = 0, got;

	if (!f)
		return tilert_fail(TILERT_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64 * 1024;
			if (!(nbuf = realloc(buf, cap))) {
				free(buf);
				fclose(f);
				return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory reading '%s'", path);
			}
			buf = nbuf;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(buf);
		fclose(f);
		return tilert_fail(TILERT_ERR_IO, "cannot read '%s': %s", path, strerror(e));
	}
	fclose(f);
	*data = buf;
	*size = n;
	return TILERT_OK;
}

int tilert_module_load_file(const char *path, tilert_module **out)
{
	unsigned char *data = NULL;
	size_t size = 0;
	int rc;

	if (!path || !out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL %s", path ? "module out-pointer" : "path");
	*out = NULL;
	if ((rc = read_file(path, &data, &size)) != TILERT_OK)
		return rc;
	rc = module_load(data, size, out);
	free(data);
	return rc;
}

void tilert_kernel_free(tilert_kernel *k)
{
	if (!k)
		return;
	tilert_ffi_free(k);
	free(k->name);
	free(k->text);
	free(k->ptext);
	free(k->meta);
	free(k->meta_index);
	free(k->params);
	free(k);
}

int tilert_module_unload(tilert_module *mod)
{
	if (!mod)
		return TILERT_OK;
	if (mod->format == TILERT_FORMAT_HOST)
		tilert_host_unload(mod);
	else if (mod->gpu)
		mod->gpu->unload(mod);
	for (tilert_kernel *k = mod->extra, *next; k; k = next) {
		next = k->next;
		tilert_kernel_free(k);
	}
	for (size_t i = 0; i < mod->nkernels; i++)
		tilert_kernel_free(mod->kernels[i]);
	free(mod->kernels);
	free(mod);
	return TILERT_OK;
}

tilert_format tilert_module_format(const tilert_module *mod)
{
	return mod ? mod->format : TILERT_FORMAT_UNKNOWN;
}

size_t tilert_module_num_kernels(const tilert_module *mod)
{
	return mod ? mod->nkernels : 0;
}

const char *tilert_module_kernel_name(const tilert_module *mod, size_t i)
{
	return mod && i < mod->nkernels ? mod->kernels[i]->name : NULL;
}

int tilert_module_get_kernel(tilert_module *mod, const char *name, tilert_kernel **out)
{
	char list[640];
	size_t len = 0;
	int rc;

	if (!mod || !name || !out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL %s",
		                   !mod ? "module" : !name ? "kernel name" : "kernel out-pointer");
	*out = NULL;
	for (size_t i = 0; i < mod->nkernels; i++) {
		if (strcmp(mod->kernels[i]->name, name) == 0) {
			*out = mod->kernels[i];
			return TILERT_OK;
		}
	}
	/* The driver cannot list a GPU module's kernels; ask it for one the load's scan missed. */
	if (mod->gpu && (rc = tilert_gpu_find_kernel(mod, name, out)) != TILERT_ERR_NOT_FOUND)
		return rc;
	list[0] = 0;
	for (size_t i = 0; i < mod->nkernels && len < sizeof list; i++) {
		int n = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
		                 mod->kernels[i]->name);
		len = n < 0 ? sizeof list : len + (size_t)n;
	}
	if (len >= sizeof list)
		strcpy(list + sizeof list - 6, ", ...");
	return tilert_fail(TILERT_ERR_NOT_FOUND, "kernel '%.200s' not found in module (it has: %s)",
	                   name, mod->nkernels ? list : "no kernels");
}

const char *tilert_kernel_name(const tilert_kernel *k)
{
	return k ? k->name : NULL;
}

size_t tilert_kernel_num_params(const tilert_kernel *k)
{
	return k ? k->nparams : 0;
}

int tilert_kernel_param(const tilert_kernel *k, size_t i, tilert_param_info *info)
{
	if (!k || !info)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL %s", k ? "info" : "kernel");
	if (i >= k->nparams)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "kernel '%s' has %zu parameter(s); there is no parameter %zu", k->name,
		                   k->nparams, i);
	*info = k->params[i];
	return TILERT_OK;
}
