/* diag.c: rendering and dispatch of diagnostics. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

typedef struct {
	const char *name, *text;
	uint32_t len;
} source;

struct diag_engine {
	arena *a;
	tilecc_diag_handler handler;
	void *user;
	source *files; /* index 0 unused: "no location" */
	uint32_t nfiles, capfiles;
	unsigned errors;
	int quiet;
	char last[1024]; /* the last error suppressed in quiet mode */
};

diag_engine *diag_create(arena *a, tilecc_diag_handler handler, void *user)
{
	diag_engine *d = ARENA_NEW(a, diag_engine);
	if (!d)
		return NULL;
	d->a = a;
	d->handler = handler;
	d->user = user;
	d->nfiles = 1;
	return d;
}

uint32_t diag_add_source(diag_engine *d, const char *name, const char *text, uint32_t len)
{
	if (d->nfiles >= d->capfiles) {
		uint32_t cap = d->capfiles ? d->capfiles * 2 : 8;
		source *n = ARENA_NEWN(d->a, source, cap);
		if (!n)
			return 0;
		if (d->files)
			memcpy(n, d->files, sizeof(source) * d->nfiles);
		d->files = n;
		d->capfiles = cap;
	}
	d->files[d->nfiles] = (source){name, text, len};
	return d->nfiles++;
}

const char *diag_file_name(const diag_engine *d, uint32_t file)
{
	return file && file < d->nfiles ? d->files[file].name : NULL;
}

const char *diag_file_text(const diag_engine *d, uint32_t file, uint32_t *len)
{
	if (!file || file >= d->nfiles)
		return NULL;
	if (len)
		*len = d->files[file].len;
	return d->files[file].text;
}

static const char *sev_name(tilecc_severity s)
{
	switch (s) {
	case TILECC_NOTE: return "note";
	case TILECC_WARNING: return "warning";
	case TILECC_ERROR: return "error";
	case TILECC_INTERNAL: return "internal error";
	}
	return "error";
}

/* Finds line `line` (1-based) of a source; returns its start and sets *n to its length. */
static const char *find_line(const source *s, uint32_t line, uint32_t *n)
{
	const char *p = s->text, *end = s->text + s->len;
	for (uint32_t l = 1; l < line && p < end; p++)
		if (*p == '\n')
			l++;
	if (p >= end && line > 1)
		return NULL;
	const char *q = p;
	while (q < end && *q != '\n' && *q != '\r')
		q++;
	*n = (uint32_t)(q - p);
	return p;
}

char *diag_render(diag_engine *d, tilecc_severity sev, srcloc loc, const char *msg)
{
	const source *s = loc.file && loc.file < d->nfiles ? &d->files[loc.file] : NULL;
	if (!s)
		return arena_printf(d->a, "tilecc: %s: %s\n", sev_name(sev), msg);
	if (!loc.line)
		return arena_printf(d->a, "%s: %s: %s\n", s->name, sev_name(sev), msg);
	uint32_t n = 0;
	const char *ln = s->text ? find_line(s, loc.line, &n) : NULL;
	if (!ln)
		return arena_printf(d->a, "%s:%u:%u: %s: %s\n", s->name, loc.line, loc.col,
				    sev_name(sev), msg);
	/* The caret line copies tabs from the source so that it lines up in any terminal. */
	uint32_t col = loc.col ? loc.col - 1 : 0;
	if (col > n)
		col = n;
	uint32_t len = loc.len > 1 ? loc.len : 1;
	if (col + len > n && n > col)
		len = n - col;
	char *caret = arena_alloc(d->a, col + len + 1);
	if (!caret)
		return NULL;
	for (uint32_t i = 0; i < col; i++)
		caret[i] = ln[i] == '\t' ? '\t' : ' ';
	caret[col] = '^';
	for (uint32_t i = 1; i < len; i++)
		caret[col + i] = '~';
	return arena_printf(d->a, "%s:%u:%u: %s: %s\n%.*s\n%s\n", s->name, loc.line, loc.col,
			    sev_name(sev), msg, (int)n, ln, caret);
}

static void emit(diag_engine *d, tilecc_severity sev, srcloc loc, const char *fmt, va_list ap)
{
	if (d->quiet) {
		if (sev >= TILECC_ERROR) {
			char buf[900];
			vsnprintf(buf, sizeof buf, fmt, ap);
			const char *fn = diag_file_name(d, loc.file);
			if (fn && loc.line)
				snprintf(d->last, sizeof d->last, "%s:%u:%u: %s", fn, loc.line, loc.col, buf);
			else
				snprintf(d->last, sizeof d->last, "%s", buf);
		}
		return;
	}
	if (sev >= TILECC_ERROR)
		d->errors++;
	if (!d->handler)
		return;
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	const char *r = diag_render(d, sev, loc, buf);
	tilecc_diagnostic dg = {
	    .severity = sev,
	    .file = diag_file_name(d, loc.file),
	    .line = loc.line,
	    .col = loc.col,
	    .message = buf,
	    .rendered = r ? r : buf,
	};
	d->handler(d->user, &dg);
}

#define DEFINE_REPORT(fn, sev)                                                                     \
	void fn(diag_engine *d, srcloc loc, const char *fmt, ...)                                  \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, fmt);                                                                 \
		emit(d, sev, loc, fmt, ap);                                                        \
		va_end(ap);                                                                        \
	}
DEFINE_REPORT(diag_error, TILECC_ERROR)
DEFINE_REPORT(diag_warning, TILECC_WARNING)
DEFINE_REPORT(diag_note, TILECC_NOTE)

void diag_internal_(diag_engine *d, const char *where, int line, const char *fmt, ...)
{
	char buf[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (d->quiet) {
		snprintf(d->last, sizeof d->last, "internal error: %s", buf);
		return;
	}
	d->errors++;
	if (!d->handler)
		return;
	const char *base = strrchr(where, '/');
	char *msg = arena_printf(d->a, "%s (in tilecc %s:%d)", buf, base ? base + 1 : where, line);
	char *r = arena_printf(d->a, "tilecc: internal error: %s\n", msg ? msg : buf);
	tilecc_diagnostic dg = {.severity = TILECC_INTERNAL,
				.message = msg ? msg : buf,
				.rendered = r ? r : buf};
	d->handler(d->user, &dg);
}

unsigned diag_error_count(const diag_engine *d)
{
	return d->errors;
}

void diag_quiet_push(diag_engine *d)
{
	if (!d->quiet++)
		d->last[0] = 0;
}

void diag_quiet_pop(diag_engine *d)
{
	if (d->quiet)
		d->quiet--;
}

const char *diag_quiet_last(const diag_engine *d)
{
	return d->last;
}
