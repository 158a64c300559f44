/* lower.h: the LLVM lowering's entry points (used by emit.c). */
#ifndef TILECC_CODEGEN_LOWER_H
#define TILECC_CODEGEN_LOWER_H

#include "codegen/cg.h"

/* Adds NAME, NAME__grid and NAME__meta for f to c->mod (CPU ABI, docs/abi.md).
 * Errors are reported through c->d and longjmp to c->fail. */
int lower_cpu_func(cg *c, const ir_func *f, const char *target_family);

#endif
