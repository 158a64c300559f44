/* diag.h: the diagnostics engine. Every token, AST node and IR op carries a srcloc;
 * messages are rendered like clang's, with the source line and a caret, and passed to the
 * handler the library's user installed. Nothing here prints or exits. */
#ifndef TILECC_SUPPORT_DIAG_H
#define TILECC_SUPPORT_DIAG_H

#include <stdint.h>

#include "arena.h"
#include "tilecc/tilecc.h"

/* A place in a source file: file is an index from diag_add_source (0: no location);
 * line and col are 1-based; len is how many columns the caret underlines (0 or 1: one). */
typedef struct srcloc {
	uint32_t file, line, col, len;
} srcloc;

static const srcloc SRCLOC_NONE = {0, 0, 0, 0};

typedef struct diag_engine diag_engine;

/* The engine lives in arena a; handler may be NULL (messages are counted, not shown). */
diag_engine *diag_create(arena *a, tilecc_diag_handler handler, void *user);
/* Registers a source text (borrowed; it must outlive the engine); returns its file index. */
uint32_t diag_add_source(diag_engine *d, const char *name, const char *text, uint32_t len);
const char *diag_file_name(const diag_engine *d, uint32_t file);
const char *diag_file_text(const diag_engine *d, uint32_t file, uint32_t *len);

void diag_error(diag_engine *d, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void diag_warning(diag_engine *d, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void diag_note(diag_engine *d, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A failure inside tilecc rather than in the input: names the tilecc source place. */
void diag_internal_(diag_engine *d, const char *where, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#define diag_internal(d, ...) diag_internal_((d), __FILE__, __LINE__, __VA_ARGS__)

unsigned diag_error_count(const diag_engine *d);

/* Quiet mode, for speculative evaluation (sema tries a definition and falls back to
 * another when it fails): while the depth is > 0, diagnostics are neither counted nor
 * passed to the handler; the last error is kept, as "file:line:col: message", for the
 * message that explains the failure later. Nested calls nest. */
void diag_quiet_push(diag_engine *d);
void diag_quiet_pop(diag_engine *d);
/* The last error suppressed in quiet mode ("" when none). */
const char *diag_quiet_last(const diag_engine *d);

/* Renders "file:line:col: <sev>: msg" plus source line and caret into the arena. */
char *diag_render(diag_engine *d, tilecc_severity sev, srcloc loc, const char *msg);

#endif
