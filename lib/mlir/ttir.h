/* ttir.h: the MLIR bridge (lib/mlir/): tile IR to and from TTIR, the MLIR text of Triton's
 * tt dialect with arith, math and scf, through the MLIR C API. The only files of tilecc that
 * include the mlir-c/ headers are those of lib/mlir/; this header does not, so the driver can call the
 * bridge without knowing MLIR. Built only when CMake finds MLIR 19 (TILECC_WITH_MLIR); the
 * driver tests TILECC_HAVE_MLIR before calling anything here.
 *
 * The prefix is ttir_, not mlir_: MLIR's own C API owns mlir* names. docs/ir.md ("TTIR")
 * describes the mapping op by op. */
#ifndef TILECC_MLIR_TTIR_H
#define TILECC_MLIR_TTIR_H

#include <stdint.h>

#include "ir/ir.h"
#include "support/diag.h"
#include "support/strbuf.h"

/* Writes m as TTIR text into out: a builtin module of tt.func ops, built with
 * mlirOperationCreate, verified by MLIR, printed by its printer with locations (value names
 * are NameLocs). Returns 0; 1 when m cannot be written (layouts: it is for IR before the GPU
 * passes) or MLIR rejects what was built (an internal error), reported through d. */
int ttir_export(const ir_module *m, diag_engine *d, strbuf *out);

/* Parses TTIR text (file: its diagnostics id, registered with d) and translates it to tile
 * IR in c. The tt dialect's pretty syntax of the ops ttir_pretty_to_generic knows is
 * rewritten to MLIR's generic form first; arith, math and scf parse as they are. Errors are
 * located in the file (file:line:col); NULL on error. */
ir_module *ttir_import(ir_context *c, diag_engine *d, uint32_t file, const char *text,
		       uint32_t len);

/* Rewrites the tt ops in pretty form (tt.func, tt.get_program_id, tt.make_range, tt.splat,
 * tt.load, ...) of text into MLIR's generic form, line for line (a rewritten line stays on
 * its line, so MLIR's line numbers are the file's). Returns the new text (malloc'd, NUL
 * terminated; the caller frees it) and fills *cols with a malloc'd array of one entry a
 * line: 0 when the line is unchanged, else the 1-based column of the rewritten op in the
 * original (what an error inside the line points at). NULL on error, reported through d. */
char *ttir_pretty_to_generic(diag_engine *d, uint32_t file, const char *text, uint32_t len,
			     uint32_t **cols, uint32_t *nlines);

/* "19.1.7": the MLIR the bridge links. */
const char *ttir_mlir_version(void);

#endif
