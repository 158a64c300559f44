/* lower.h: the LLVM lowering's entry points (used by emit.c). */
#ifndef TILECC_CODEGEN_LOWER_H
#define TILECC_CODEGEN_LOWER_H

#include "codegen/cg.h"

/* Adds NAME, NAME__grid and NAME__meta for f to c->mod (CPU ABI, docs/abi.md).
 * Errors are reported through c->d and longjmp to c->fail. */
int lower_cpu_func(cg *c, const ir_func *f, const char *target_family);

/* Adds the GPU kernel NAME (in the form c->isa gives it) and its NAME__meta global for f
 * to c->mod; meta_params is the signature text for the metadata. *shared receives the
 * bytes of shared memory the kernel uses. */
int lower_gpu_func(cg *c, const ir_func *f, const char *meta_params, int64_t *shared);

#endif
