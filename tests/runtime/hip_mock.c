/* hip_mock.c: a stand-in for the HIP runtime (libamdhip64.so), so that libtilert's AMD path
 * runs on machines without an AMD GPU: test_runtime_hip points TILERT_HIP_LIBRARY at it.
 * It has the entry points hip.c uses, with the runtime's error numbering, and one device:
 *
 *   device memory  host memory (hipMalloc is malloc; over 1 TiB is hipErrorOutOfMemory)
 *   modules        the HSACO as given (not copied: the caller must keep it while it is
 *                  loaded, which libtilert does); globals and functions are looked up in
 *                  its ELF symbol tables, addresses mapped to file offsets by section
 *   kernels        any STT_FUNC of the module; run on the host, at launch, when they
 *                  are ones this file knows (others fail with hipErrorLaunchFailure):
 *                    fill(i32 *out, i32 value, i32 n)  out[i] = value for i < n, where i
 *                                                      is block x * block size + thread x
 *                    probe(u32 *out)                   out[0..6] = grid x, y, z,
 *                                                      block x, y, z, shared bytes
 *   streams        tokens; everything is done when the launch returns
 *   events         the number of launches so far when recorded: each launch "takes" 1 ms,
 *                  so the time between two events is the launches between them
 *
 * What it saw is counted in the exported hip_mock_* variables, which the test reads. */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
	hipSuccess = 0,
	hipErrorInvalidValue = 1,
	hipErrorOutOfMemory = 2,
	hipErrorInvalidDevice = 101,
	hipErrorInvalidImage = 200,
	hipErrorInvalidHandle = 400,
	hipErrorNotFound = 500,
	hipErrorLaunchFailure = 719
};

#define EXPORT __attribute__((visibility("default")))

EXPORT int hip_mock_modules, hip_mock_streams, hip_mock_allocs, hip_mock_launches;
EXPORT void *hip_mock_last_stream;

typedef void kernel_fn(const unsigned grid[3], const unsigned block[3], unsigned shared,
                       void **args);

typedef struct module {
	const unsigned char *image;
	uint64_t magic; /* tells a module from a stale or foreign pointer */
} module;

typedef struct function {
	const char *name;
	kernel_fn *run;
} function;

static void fill(const unsigned grid[3], const unsigned block[3], unsigned shared, void **args)
{
	int32_t *out = *(int32_t **)args[0], value = *(int32_t *)args[1], n = *(int32_t *)args[2];

	for (unsigned b = 0; b < grid[0]; b++)
		for (unsigned t = 0; t < block[0]; t++)
			if ((int64_t)b * block[0] + t < n)
				out[(int64_t)b * block[0] + t] = value;
}

static void probe(const unsigned grid[3], const unsigned block[3], unsigned shared, void **args)
{
	uint32_t *out = *(uint32_t **)args[0];

	out[0] = grid[0], out[1] = grid[1], out[2] = grid[2];
	out[3] = block[0], out[4] = block[1], out[5] = block[2];
	out[6] = shared;
}

/* The kernels the mock can run; other functions of a module launch with an error. */
static function functions[] = { { "fill", fill }, { "probe", probe } };
static function unknown = { "?", NULL };

EXPORT int hipInit(unsigned flags)
{
	return flags ? hipErrorInvalidValue : hipSuccess;
}

EXPORT int hipGetDeviceCount(int *n)
{
	*n = 1;
	return hipSuccess;
}

EXPORT int hipSetDevice(int ordinal)
{
	return ordinal == 0 ? hipSuccess : hipErrorInvalidDevice;
}

/* The device properties as libtilert reads them (hip.c's read_arch): only the gcnArchName
 * matters, at an offset of neither ROCm layout, after other nonzero fields, with its
 * features; the marketing name first. */
EXPORT int hipGetDevicePropertiesR0600(void *prop, int ordinal)
{
	unsigned char *p = prop;
	if (ordinal != 0)
		return hipErrorInvalidDevice;
	strcpy((char *)p, "AMD Instinct MI210 (mock)");
	memset(p + 256, 0x7f, 140);
	strcpy((char *)p + 396, "gfx90a:sramecc+:xnack-");
	return hipSuccess;
}

EXPORT const char *hipGetErrorName(int r)
{
	switch (r) {
	case hipSuccess: return "hipSuccess";
	case hipErrorInvalidValue: return "hipErrorInvalidValue";
	case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
	case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
	case hipErrorInvalidImage: return "hipErrorInvalidImage";
	case hipErrorInvalidHandle: return "hipErrorInvalidHandle";
	case hipErrorNotFound: return "hipErrorNotFound";
	case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
	default: return "hipErrorUnknown";
	}
}

EXPORT const char *hipGetErrorString(int r)
{
	return r == hipErrorOutOfMemory ? "out of memory (mock)" : hipGetErrorName(r);
}

/* The symbol name of type type in the image's symbol tables: its address in the image and
 * size, or NULL. The image is trusted, as the real runtime trusts it. */
static const unsigned char *symbol(const unsigned char *image, const char *name, int type,
                                   size_t *size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(image + eh->e_shoff);

	for (unsigned s = 0; s < eh->e_shnum; s++) {
		const Elf64_Sym *sym;
		const char *str;

		if (sh[s].sh_type != SHT_SYMTAB && sh[s].sh_type != SHT_DYNSYM)
			continue;
		sym = (const Elf64_Sym *)(image + sh[s].sh_offset);
		str = (const char *)image + sh[sh[s].sh_link].sh_offset;
		for (size_t i = 1; i < sh[s].sh_size / sizeof *sym; i++) {
			const Elf64_Shdr *in;

			if (ELF64_ST_TYPE(sym[i].st_info) != type || sym[i].st_shndx == SHN_UNDEF ||
			    sym[i].st_shndx >= eh->e_shnum || strcmp(str + sym[i].st_name, name) != 0)
				continue;
			in = &sh[sym[i].st_shndx];
			if (sym[i].st_value < in->sh_addr || sym[i].st_value - in->sh_addr > in->sh_size)
				return NULL;
			*size = sym[i].st_size;
			return image + in->sh_offset + (sym[i].st_value - in->sh_addr);
		}
	}
	return NULL;
}

EXPORT int hipModuleLoadData(module **m, const void *image)
{
	const Elf64_Ehdr *eh = image;

	if (!m || !image)
		return hipErrorInvalidValue;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_machine != EM_AMDGPU)
		return hipErrorInvalidImage;
	if (!(*m = malloc(sizeof **m)))
		return hipErrorOutOfMemory;
	(*m)->image = image;
	(*m)->magic = 0x6d6f64756c65;
	hip_mock_modules++;
	return hipSuccess;
}

EXPORT int hipModuleUnload(module *m)
{
	if (!m || m->magic != 0x6d6f64756c65)
		return hipErrorInvalidHandle;
	m->magic = 0;
	free(m);
	hip_mock_modules--;
	return hipSuccess;
}

EXPORT int hipModuleGetFunction(function **f, module *m, const char *name)
{
	size_t size;

	if (!m || m->magic != 0x6d6f64756c65)
		return hipErrorInvalidHandle;
	if (!symbol(m->image, name, STT_FUNC, &size))
		return hipErrorNotFound;
	for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
		if (strcmp(functions[i].name, name) == 0) {
			*f = &functions[i];
			return hipSuccess;
		}
	}
	*f = &unknown;
	return hipSuccess;
}

EXPORT int hipModuleGetGlobal(void **p, size_t *bytes, module *m, const char *name)
{
	const unsigned char *g;

	if (!m || m->magic != 0x6d6f64756c65)
		return hipErrorInvalidHandle;
	if (!(g = symbol(m->image, name, STT_OBJECT, bytes)))
		return hipErrorNotFound;
	*p = (void *)(uintptr_t)g;
	return hipSuccess;
}

EXPORT int hipModuleLaunchKernel(function *f, unsigned gx, unsigned gy, unsigned gz,
                                 unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                 void *stream, void **params, void **extra)
{
	unsigned grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };

	if (!f || !params || extra || !gx || !gy || !gz || !bx || !by || !bz ||
	    (uint64_t)bx * by * bz > 1024 || shared > 65536)
		return hipErrorInvalidValue;
	if (!f->run)
		return hipErrorLaunchFailure;
	f->run(grid, block, shared, params);
	hip_mock_launches++;
	hip_mock_last_stream = stream;
	return hipSuccess;
}

EXPORT int hipStreamCreate(void **s)
{
	if (!(*s = malloc(1)))
		return hipErrorOutOfMemory;
	hip_mock_streams++;
	return hipSuccess;
}

EXPORT int hipStreamDestroy(void *s)
{
	if (!s)
		return hipErrorInvalidHandle;
	free(s);
	hip_mock_streams--;
	return hipSuccess;
}

EXPORT int hipStreamSynchronize(void *s)
{
	return hipSuccess;
}

EXPORT int hipDeviceSynchronize(void)
{
	return hipSuccess;
}

EXPORT int hipMalloc(void **p, size_t bytes)
{
	if (bytes > (size_t)1 << 40)
		return hipErrorOutOfMemory;
	if (!(*p = malloc(bytes)))
		return hipErrorOutOfMemory;
	hip_mock_allocs++;
	return hipSuccess;
}

EXPORT int hipFree(void *p)
{
	if (p) {
		free(p);
		hip_mock_allocs--;
	}
	return hipSuccess;
}

EXPORT int hipMemcpyHtoD(void *dst, void *src, size_t bytes)
{
	memcpy(dst, src, bytes);
	return hipSuccess;
}

EXPORT int hipMemcpyDtoH(void *dst, void *src, size_t bytes)
{
	memcpy(dst, src, bytes);
	return hipSuccess;
}

EXPORT int hip_mock_events;

EXPORT int hipEventCreate(int **e)
{
	if (!e || !(*e = calloc(1, sizeof **e)))
		return hipErrorInvalidValue;
	hip_mock_events++;
	return hipSuccess;
}

EXPORT int hipEventRecord(int *e, void *s)
{
	(void)s;
	if (!e)
		return hipErrorInvalidHandle;
	*e = hip_mock_launches;
	return hipSuccess;
}

EXPORT int hipEventSynchronize(int *e)
{
	return e ? hipSuccess : hipErrorInvalidHandle;
}

EXPORT int hipEventElapsedTime(float *ms, int *start, int *end)
{
	if (!ms || !start || !end)
		return hipErrorInvalidValue;
	*ms = (float)(*end - *start);
	return hipSuccess;
}

EXPORT int hipEventDestroy(int *e)
{
	if (!e)
		return hipErrorInvalidHandle;
	free(e);
	hip_mock_events--;
	return hipSuccess;
}

EXPORT int hipMemsetD8(void *dst, unsigned char value, size_t bytes)
{
	memset(dst, value, bytes);
	return hipSuccess;
}
