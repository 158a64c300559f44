/* targets.c: the table of targets and lookup by --target name. */
#include <string.h>

#include "backends/target.h"

const target_desc *const target_all[] = {&nvptx_target, &amdgpu_target, &riscv_target,
					 &cpu_target, NULL};

const target_desc *target_lookup(const char *name)
{
	/* any gfx processor goes to LLVM's AMDGPU backend, which tells whether it knows it
	 * (Hygon's gfx926/gfx928/gfx936 need the DTK's LLVM) */
	if (!strncmp(name, "gfx", 3) && name[3] && strspn(name + 3, "0123456789abcdef") == strlen(name + 3))
		return &amdgpu_target;
	for (int i = 0; target_all[i]; i++) {
		const target_desc *t = target_all[i];
		if (!strcmp(t->family, name))
			return t;
		for (int j = 0; t->cpus && t->cpus[j]; j++)
			if (!strcmp(t->cpus[j], name))
				return t;
	}
	return NULL;
}

const target_desc *target_host(void)
{
	return &cpu_target;
}

const char *amdgpu_gpu_name(const char *target)
{
	if (!target || !strcmp(target, "amdgcn"))
		return "gfx942";
	if (!strcmp(target, "dcu") || !strcmp(target, "dcu-z100"))
		return "gfx906";
	return target;
}
