/* sema.h: from the AST of a kernel file plus a specialization (signature, constexpr values)
 * to tile IR. Sema evaluates everything known at compile time (constexpr parameters,
 * `if` on constexprs, static_range, helper calls, shapes and dtypes) and emits ops for the
 * rest; jit helpers are inlined. */
#ifndef TILECC_FRONTEND_SEMA_H
#define TILECC_FRONTEND_SEMA_H

#include "frontend/ast.h"
#include "ir/ir.h"
#include "tilecc/tilecc.h"

typedef struct sema_spec {
	const char *kernel;    /* NULL: the file's only kernel */
	const char *signature; /* NULL: every parameter must be given by -D or annotation */
	const tilecc_define *defines;
	size_t ndefines;
	int num_warps;  /* 0: from autotune config or 4 */
	int num_stages; /* 0: from autotune config or default */
	int64_t max_tile_elems; /* largest tile, in elements; 0: 2^20 (--max-tile-elems) */
	/* imports: the kernel file's path (its directory and package root are searched first),
	 * then these directories in order (-I, then TILECC_PATH) */
	const char *main_path;
	const char *const *search_dirs;
	size_t nsearch_dirs;
} sema_spec;

/* Writes the @triton.jit functions of m (--list-kernels): for each, its name and
 * location, its parameters (constexprs marked, defaults shown), the signature template
 * -s takes, and its @triton.autotune / @triton.heuristics decorators as written. */
void sema_list_kernels(strbuf *out, diag_engine *d, const ast_module *m);

/* The name a decorator (or a call) ends in: "jit" for @triton.jit, "autotune" for
 * @triton.autotune(...), "Config" for triton.Config(...); NULL for any other form. */
const char *sema_decorator_name(const ast_expr *d);
/* The last of fn's decorators with that name (sema_decorator_name), NULL when none has it. */
const ast_expr *sema_find_decorator(const ast_func *fn, const char *name);

/* Lowers the chosen kernel of m into a new module of c. Errors go to d; NULL if any. */
ir_module *sema_lower(ir_context *c, diag_engine *d, const ast_module *m, const sema_spec *spec);

#endif
