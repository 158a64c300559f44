/* nvjitlink.c: PTX to cubin inside the process, through the CUDA toolkit's libnvJitLink
 * opened with dlopen (no link-time dependency). emit.c uses it when there is no ptxas
 * executable (or TILECC_CUBIN_VIA=nvjitlink); TILECC_NO_NVJITLINK hides it. Only backends/ and codegen
 * talk to CUDA tools. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg.h"
#include "codegen/codegen.h"

/* The few entry points used, with the C types of nvJitLink.h (int result, opaque handle). */
typedef int (*create_fn)(void **h, unsigned n, const char **opts);
typedef int (*add_fn)(void *h, int kind, const void *data, size_t size, const char *name);
typedef int (*complete_fn)(void *h);
typedef int (*size_fn)(void *h, size_t *size);
typedef int (*get_fn)(void *h, void *buf);
typedef int (*destroy_fn)(void **h);

enum { NVJITLINK_INPUT_PTX = 2 }; /* nvJitLink.h: NONE 0, CUBIN 1, PTX 2 */

/* The library stays loaded once opened: it is large, and unloading it would leave the C++
 * runtime it carries with memory nothing points to (LeakSanitizer reports it). */
static void *open_lib(void)
{
	static const char *const names[] = {"libnvJitLink.so", "libnvJitLink.so.13", "libnvJitLink.so.12",
					    "/usr/local/cuda/lib64/libnvJitLink.so", NULL};
	static void *lib;
	static int tried;
	if (tried)
		return lib;
	tried = 1;
	for (int i = 0; names[i] && !lib; i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	return lib;
}

int codegen_nvjitlink(diag_engine *d, const char *arch, const char *ptx, size_t n, char **out,
		      size_t *len)
{
	if (getenv("TILECC_NO_NVJITLINK"))
		return -1;
	void *lib = open_lib();
	if (!lib)
		return -1;
	create_fn create = (create_fn)dlsym(lib, "nvJitLinkCreate");
	add_fn add = (add_fn)dlsym(lib, "nvJitLinkAddData");
	complete_fn complete = (complete_fn)dlsym(lib, "nvJitLinkComplete");
	size_fn cubin_size = (size_fn)dlsym(lib, "nvJitLinkGetLinkedCubinSize");
	get_fn cubin = (get_fn)dlsym(lib, "nvJitLinkGetLinkedCubin");
	size_fn log_size = (size_fn)dlsym(lib, "nvJitLinkGetErrorLogSize");
	get_fn log = (get_fn)dlsym(lib, "nvJitLinkGetErrorLog");
	destroy_fn destroy = (destroy_fn)dlsym(lib, "nvJitLinkDestroy");
	if (!create || !add || !complete || !cubin_size || !cubin || !destroy)
		return -1;
	char archopt[32];
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	const char *opts[] = {archopt, "-O3"};
	void *h = NULL;
	int rc = 1;
	if (create(&h, 2, opts) != 0) {
		diag_error(d, SRCLOC_NONE, "nvJitLinkCreate failed for %s", archopt);
		goto out;
	}
	/* nvJitLink wants the PTX NUL-terminated */
	char *text = malloc(n + 1);
	if (!text)
		goto out;
	memcpy(text, ptx, n);
	text[n] = 0;
	int r = add(h, NVJITLINK_INPUT_PTX, text, n + 1, "kernel.ptx");
	if (r == 0)
		r = complete(h);
	free(text);
	if (r != 0) {
		size_t ls = 0;
		char *msg = NULL;
		if (log_size && log && log_size(h, &ls) == 0 && ls && (msg = malloc(ls + 1)) && log(h, msg) == 0)
			msg[ls] = 0;
		diag_error(d, SRCLOC_NONE, "nvJitLink failed to compile the PTX: %.600s", msg ? msg : "(no log)");
		free(msg);
		goto out;
	}
	size_t sz = 0;
	if (cubin_size(h, &sz) != 0 || !(*out = malloc(sz ? sz : 1)) || cubin(h, *out) != 0) {
		diag_error(d, SRCLOC_NONE, "nvJitLink produced no cubin");
		goto out;
	}
	*len = sz;
	rc = 0;
out:
	if (h)
		destroy(&h);
	return rc;
}
