/* common.c: the MLIR context both directions of the bridge use, MLIR's diagnostics
 * reported through tilecc's engine, and MLIR locations read back into srclocs.
 *
 * The C API of LLVM 19 has no accessors for a location's parts, so a location is printed
 * (loc("k.py":12:5), loc("offs"("k.py":12:5)), loc(unknown), loc(callsite(A at B)),
 * loc(fused[A, B])) and read back here. */
#include <stdlib.h>
#include <string.h>

#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/SCF.h>

#include "mlir/ttir_int.h"

const ttir_row ttir_rows[] = {
#define TTIR(e, name, uname, sign) {IR_OP_##e, name, uname, sign},
#include "mlir/ttir_ops.def"
};
const int ttir_nrows = (int)(sizeof ttir_rows / sizeof ttir_rows[0]);

const ttir_row *ttir_row_of(ir_opcode code)
{
	static const ttir_row *by_code[IR_NUM_OPS];
	static int filled;
	if (!filled) {
		for (int i = 0; i < ttir_nrows; i++)
			by_code[ttir_rows[i].code] = &ttir_rows[i];
		filled = 1;
	}
	return by_code[code];
}

void ttir_strbuf_cb(MlirStringRef s, void *user)
{
	strbuf_putn(user, s.data, s.length);
}

void ttir_diag_free(ttir_diag *td)
{
	free(td->files);
	td->files = NULL;
	td->nfiles = 0;
}

srcloc ttir_srcloc(ttir_diag *td, const ttir_loc *l)
{
	if (!l->file || !l->line)
		return SRCLOC_NONE;
	uint32_t id = 0;
	if (td->file_name && !strcmp(l->file, td->file_name)) {
		id = td->file;
		/* a line the pretty converter rewrote: its columns moved, point at the op */
		if (td->cols && l->line <= td->nlines && td->cols[l->line - 1])
			return (srcloc){id, l->line, td->cols[l->line - 1], 1};
	} else {
		for (int i = 0; i < td->nfiles && !id; i++)
			if (!strcmp(td->files[i].name, l->file))
				id = td->files[i].id;
		if (!id) {
			struct ttir_file *nf = realloc(td->files, sizeof *nf * (size_t)(td->nfiles + 1));
			if (nf)
				td->files = nf;
			size_t n = strlen(l->file);
			char *name = nf ? arena_alloc(td->a, n + 1) : NULL;
			if (!name)
				return SRCLOC_NONE;
			memcpy(name, l->file, n + 1);
			td->files = nf;
			id = diag_add_source(td->d, name, NULL, 0);
			td->files[td->nfiles++] = (struct ttir_file){name, id};
		}
	}
	return (srcloc){id, l->line, l->col ? l->col : 1, 1};
}

/* Reads a quoted string at *p (MLIR's escapes: \" \\ \n \t \XX) into a NUL-terminated
 * string in place; returns it, or NULL. */
static char *read_string(char **p)
{
	char *s = *p, *w;
	if (*s != '"')
		return NULL;
	char *start = w = ++s;
	while (*s && *s != '"') {
		if (*s == '\\' && s[1]) {
			s++;
			if (*s == 'n')
				*w++ = '\n', s++;
			else if (*s == 't')
				*w++ = '\t', s++;
			else if (*s == '"' || *s == '\\')
				*w++ = *s++;
			else if (s[1]) {
				char hex[3] = {s[0], s[1], 0};
				*w++ = (char)strtol(hex, NULL, 16);
				s += 2;
			} else
				break;
		} else
			*w++ = *s++;
	}
	if (*s != '"')
		return NULL;
	*p = s + 1;
	*w = 0;
	return start;
}

/* location ::= 'unknown' | string ':' INT ':' INT | string '(' location ')'
 *            | 'callsite(' location ' at ' location ')' | 'fused' ('<' ... '>')? '[' location ...
 * The first file position wins (a call site's callee, a fused location's first part). */
static void read_loc(char **p, ttir_loc *out, int depth)
{
	char *s = *p;
	if (depth > 64)
		return;
	if (*s == '"') {
		char *str = read_string(&s);
		if (!str)
			return;
		if (*s == ':') {
			char *end;
			unsigned long line = strtoul(s + 1, &end, 10);
			unsigned long col = *end == ':' ? strtoul(end + 1, &end, 10) : 0;
			if (!out->file) {
				out->file = str;
				out->line = (uint32_t)line;
				out->col = (uint32_t)col;
			}
			*p = end;
			return;
		}
		if (*s == '(') {
			if (!out->name)
				out->name = str;
			s++;
			read_loc(&s, out, depth + 1);
			*p = s;
		}
		return;
	}
	if (!strncmp(s, "callsite(", 9)) {
		s += 9;
		read_loc(&s, out, depth + 1);
		*p = s;
		return;
	}
	if (!strncmp(s, "fused", 5)) {
		s = strchr(s, '[');
		if (s) {
			s++;
			read_loc(&s, out, depth + 1);
			*p = s;
		}
	}
}

void ttir_loc_read(MlirLocation loc, ttir_loc *out)
{
	memset(out, 0, sizeof *out);
	mlirLocationPrint(loc, ttir_strbuf_cb, &out->text);
	if (out->text.oom || !out->text.data)
		return;
	char *s = out->text.data;
	if (!strncmp(s, "loc(", 4)) {
		s += 4;
		read_loc(&s, out, 0);
	}
}

static MlirLogicalResult on_diag(MlirDiagnostic diag, void *user)
{
	ttir_diag *td = user;
	MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(diag);
	strbuf msg = {0};
	mlirDiagnosticPrint(diag, ttir_strbuf_cb, &msg);
	ttir_loc l;
	ttir_loc_read(mlirDiagnosticGetLocation(diag), &l);
	srcloc at = ttir_srcloc(td, &l);
	const char *text = msg.data ? msg.data : "(no message)";
	if (sev == MlirDiagnosticError) {
		td->errors++;
		if (td->internal)
			diag_internal(td->d, "MLIR rejects the TTIR tilecc built: %s", text);
		else
			diag_error(td->d, at, "%s", text);
	} else if (sev == MlirDiagnosticWarning) {
		diag_warning(td->d, at, "%s", text);
	} else {
		diag_note(td->d, at, "%s", text);
	}
	for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(diag); i++) {
		MlirDiagnostic note = mlirDiagnosticGetNote(diag, i);
		strbuf nm = {0};
		mlirDiagnosticPrint(note, ttir_strbuf_cb, &nm);
		ttir_loc nl;
		ttir_loc_read(mlirDiagnosticGetLocation(note), &nl);
		diag_note(td->d, ttir_srcloc(td, &nl), "%s", nm.data ? nm.data : "");
		strbuf_free(&nm);
		strbuf_free(&nl.text);
	}
	strbuf_free(&l.text);
	strbuf_free(&msg);
	return mlirLogicalResultSuccess();
}

MlirContext ttir_context_create(ttir_diag *td)
{
	MlirContext ctx = mlirContextCreateWithThreading(false);
	mlirContextSetAllowUnregisteredDialects(ctx, true);
	MlirDialectRegistry r = mlirDialectRegistryCreate();
	mlirDialectHandleInsertDialect(mlirGetDialectHandle__arith__(), r);
	mlirDialectHandleInsertDialect(mlirGetDialectHandle__math__(), r);
	mlirDialectHandleInsertDialect(mlirGetDialectHandle__scf__(), r);
	mlirContextAppendDialectRegistry(ctx, r);
	mlirDialectRegistryDestroy(r);
	mlirContextLoadAllAvailableDialects(ctx);
	mlirContextAttachDiagnosticHandler(ctx, on_diag, td, NULL);
	return ctx;
}

void ttir_context_destroy(MlirContext ctx)
{
	mlirContextDestroy(ctx);
}

const char *ttir_mlir_version(void)
{
	return TILECC_MLIR_VERSION;
}
