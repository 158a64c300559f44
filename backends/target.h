/* target.h: what a backend is. Each folder under backends/ defines one target_desc, a table
 * of facts and (as the lowering grows) function pointers; the driver picks one by the
 * --target name. Only backends/ and lib/codegen include llvm-c headers. */
#ifndef TILECC_BACKENDS_TARGET_H
#define TILECC_BACKENDS_TARGET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct target_desc {
	const char *family;      /* "nvptx", "amdgcn", "riscv64", "x86-64" */
	const char *description;
	const char *llvm_target; /* the LLVM target registered for it ("nvptx64") */
	const char *triple;      /* default triple */
	const char *const *cpus; /* accepted --target names besides the family, NULL-ended */
	int warp_size;           /* threads per warp/wave; 1 for CPUs */
	bool is_gpu;
} target_desc;

extern const target_desc nvptx_target;
extern const target_desc amdgpu_target;
extern const target_desc riscv_target;
extern const target_desc cpu_target;

/* All targets, in --version order; NULL-ended. */
extern const target_desc *const target_all[];
/* The target whose family or cpu list names `name`; NULL when unknown. */
const target_desc *target_lookup(const char *name);
/* The LLVM processor name of an AMD --target: gfx names as they are, dcu and dcu-z100 (the
 * Hygon DCU Z100) gfx906, amdgcn or NULL the default, gfx942. */
const char *amdgpu_gpu_name(const char *target);

/* The host's target (x86-64 on this machine). */
const target_desc *target_host(void);

#endif
