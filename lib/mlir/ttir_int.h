/* ttir_int.h: what the files of the MLIR bridge share (export.c, import.c, common.c): the
 * MLIR context they both set up, MLIR's diagnostics turned into tilecc's, and the
 * translation of MLIR locations. Only lib/mlir/ includes this (it includes the mlir-c/ headers). */
#ifndef TILECC_MLIR_TTIR_INT_H
#define TILECC_MLIR_TTIR_INT_H

#include <stdbool.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>

#include "mlir/ttir.h"

/* The sign column of ttir_ops.def. */
enum { TTIR_SIGN_OPERAND = 1, TTIR_SIGN_RESULT = 2 };

typedef struct ttir_row {
	ir_opcode code;
	const char *name, *uname;
	int sign;
} ttir_row;
extern const ttir_row ttir_rows[];
extern const int ttir_nrows;
/* The row of a tile op; NULL when it is written as "tilecc.NAME". */
const ttir_row *ttir_row_of(ir_opcode code);

/* Where MLIR's diagnostics go while a bridge function runs: d, with locations in `file`
 * for positions in the text being parsed (MLIR names it `file_name`); cols maps the
 * columns of lines the pretty converter rewrote. `internal` makes every MLIR error an
 * internal one (export: what tilecc built is wrong, not the input). */
typedef struct ttir_diag {
	diag_engine *d;
	uint32_t file;
	const char *file_name;
	const uint32_t *cols;
	uint32_t nlines;
	bool internal;
	int errors;
	arena *a; /* the compilation's: file names handed to d must outlive the bridge */
	struct ttir_file {
		const char *name; /* in a */
		uint32_t id;
	} *files; /* file names of locations seen, with their diagnostics ids (malloc'd) */
	int nfiles;
} ttir_diag;
void ttir_diag_free(ttir_diag *td);

/* A context with arith, math and scf loaded and unregistered dialects (tt, tilecc) allowed,
 * its diagnostics going to td (which must outlive it). Destroy with ttir_context_destroy. */
MlirContext ttir_context_create(ttir_diag *td);
void ttir_context_destroy(MlirContext ctx);

/* An MlirStringCallback appending to the strbuf user. */
void ttir_strbuf_cb(MlirStringRef s, void *user);

/* A location, as printed by MLIR, taken apart: the innermost file position (0 line when
 * none) and the name of the outermost NameLoc (NULL when none), both pointing into a
 * buffer of lp (free with strbuf_free). */
typedef struct ttir_loc {
	strbuf text;
	const char *file; /* NUL-terminated inside text; NULL when no file position */
	uint32_t line, col;
	const char *name; /* NUL-terminated inside text */
} ttir_loc;
void ttir_loc_read(MlirLocation loc, ttir_loc *out);

/* The srcloc of a file position: `file` registered with d (cached in td by name). */
srcloc ttir_srcloc(ttir_diag *td, const ttir_loc *l);

#endif
