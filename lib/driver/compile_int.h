/* compile_int.h: what the files of the compilation driver share (compile.c, compile_tune.c):
 * the state of one tilecc_compile() and the steps the header writers build on. */
#ifndef TILECC_DRIVER_COMPILE_INT_H
#define TILECC_DRIVER_COMPILE_INT_H

#include <stdbool.h>
#include <time.h>

#include "driver/header.h"
#include "ir/ir.h"
#include "support/arena.h"
#include "support/diag.h"
#include "support/intern.h"
#include "support/strbuf.h"
#include "tilecc/tilecc.h"

typedef struct compilation {
	const tilecc_options *o;
	arena *a;
	strtab *names;
	diag_engine *d;
	ir_context *ir;
	strbuf report;
	struct timespec t0;
	/* multi-target headers (compile_multi): keep the PTX of a cubin, and the kernel */
	bool want_ptx;
	char *ptx;
	size_t ptx_size;
	const ir_func *kernel;
	bool in_spec; /* compiling one of compile_spec's variants */
} compilation;

/* The artifacts of kernel o for each target of the comma-separated list (compile.c). */
int compile_artifacts(compilation *c, const tilecc_options *o, const char *list,
		      header_artifact **arts_out, size_t *na_out, strbuf *names);
/* The header's name as the source includes it: the base name of -o. */
const char *compile_header_name(const tilecc_options *o);
/* Moves the header and the source into out (3 when out of memory). */
int compile_take_header(compilation *c, tilecc_output *out, strbuf *h, strbuf *src);
/* Whether the signature asks for specialization variants (an entry TYPE:?). */
bool compile_wants_spec(const char *sig);
/* compile_tune.c: tilecc --tune SPEC (the tuner program) and --tuning FILE (the launcher). */
int compile_tune(compilation *c, tilecc_output *out);

#endif
