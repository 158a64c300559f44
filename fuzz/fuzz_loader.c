/* fuzz_loader.c: libtilert's module loader: the bytes as a module image through
 * tilert_module_load_data() (a host shared object is checked, then dlopened from a memfd;
 * a cubin, PTX or HSACO goes to the GPU paths, which check what they can without a
 * device). Every kernel found is looked up and its parameters and metadata are read. */
#include "fuzz.h"

#include "tilecc/tilert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tilert_module *mod = NULL;
	(void)tilert_format_detect(data, size);
	if (tilert_module_load_data(data, size, &mod) != TILERT_OK || !mod)
		return 0;
	size_t nk = tilert_module_num_kernels(mod);
	for (size_t i = 0; i < nk; i++) {
		const char *name = tilert_module_kernel_name(mod, i);
		tilert_kernel *k = NULL;
		if (!name || tilert_module_get_kernel(mod, name, &k) != TILERT_OK || !k)
			continue;
		size_t np = tilert_kernel_num_params(k);
		for (size_t p = 0; p < np; p++) {
			tilert_param_info info;
			(void)tilert_kernel_param(k, p, &info);
		}
		(void)tilert_kernel_meta(k, "target");
		(void)tilert_kernel_meta(k, "num_warps");
		(void)tilert_kernel_meta(k, "block");
	}
	tilert_module_unload(mod);
	return 0;
}
