/* targets.c: the table of targets and lookup by --target name. */
#include <string.h>

#include "backends/target.h"

const target_desc *const target_all[] = {&nvptx_target, &amdgpu_target, &riscv_target,
					 &cpu_target, NULL};

const target_desc *target_lookup(const char *name)
{
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
