/* lex.c: Python tokenizer (see lex.h).
 *
 * One pass over the text. The lexer keeps a stack of indentation widths for INDENT and
 * DEDENT and a stack of open brackets, inside which newlines and indentation are ignored.
 * The first malformed input ends the token array with a LEX_ERROR token; internally that
 * is a longjmp back to lex_tokenize, so scanning code never checks for failure. */
#include "lex.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/vec.h"

/* More nested brackets than this is refused rather than risk the parser's stack. */
#define LEX_MAX_PARENS 200

typedef struct bracket {
	char c;
	srcloc loc;
} bracket;

/* Open f-strings and their replacement fields, innermost last. */
enum { FS_LITERAL, FS_EXPR, FS_SPEC };
typedef struct fstate {
	bool is_field; /* a {field}, else the f-string itself */
	int mode;      /* FS_LITERAL for an f-string; FS_EXPR or FS_SPEC for a field */
	char q;        /* f-string: the quote */
	bool triple, raw;
	int depth;     /* field: nparens just after its '{' */
	srcloc loc;
} fstate;

#define LEX_MAX_FSTRINGS 64

typedef struct lexer {
	arena *a;
	strtab *names;
	uint32_t file;
	const char *src, *p, *end; /* end: the first NUL byte, or the end of the text */
	bool nul;                  /* whether end stopped at a NUL byte */
	const char *bol;           /* start of the current physical line */
	uint32_t line;
	bool line_has_tokens;      /* a token since the last NEWLINE */
	VEC(lex_token) toks;
	VEC(uint32_t) indents;
	bracket parens[LEX_MAX_PARENS];
	int nparens;
	fstate fs[LEX_MAX_FSTRINGS];
	int nfs;
	const char *kw[LEX_NKINDS]; /* interned keyword spellings, by kind */
	jmp_buf fail;
	bool oom;
} lexer;

static const char *kind_names[LEX_NKINDS] = {
	[LEX_EOF] = "end of file",
	[LEX_ERROR] = "error",
	[LEX_NEWLINE] = "end of line",
	[LEX_INDENT] = "indent",
	[LEX_DEDENT] = "dedent",
	[LEX_NAME] = "name",
	[LEX_INT] = "integer literal",
	[LEX_FLOAT] = "float literal",
	[LEX_STR] = "string literal",
	[LEX_IMAG] = "imaginary literal",
	[LEX_FSTRING_START] = "f-string",
	[LEX_FSTRING_MIDDLE] = "f-string text",
	[LEX_FSTRING_END] = "end of f-string",
#define X(id, s) [LEX_KW_##id] = "'" s "'",
	LEX_KEYWORDS(X)
#undef X
#define X(id, s) [LEX_##id] = "'" s "'",
	LEX_PUNCTS(X)
#undef X
};

/* Spellings without quotes, for matching. */
static const char *spellings[LEX_NKINDS] = {
#define X(id, s) [LEX_KW_##id] = s,
	LEX_KEYWORDS(X)
#undef X
#define X(id, s) [LEX_##id] = s,
	LEX_PUNCTS(X)
#undef X
};

const char *lex_kind_str(lex_kind k)
{
	return k < LEX_NKINDS && kind_names[k] ? kind_names[k] : "token";
}

static srcloc loc_at(lexer *L, const char *at, uint32_t len)
{
	return (srcloc){L->file, L->line, (uint32_t)(at - L->bol) + 1, len};
}

static lex_token *push(lexer *L, lex_kind k, const char *start, uint32_t line,
		       const char *line_start)
{
	lex_token t = {0};
	t.kind = k;
	t.loc = (srcloc){L->file, line, (uint32_t)(start - line_start) + 1, 0};
	t.end_line = L->line;
	t.end_col = (uint32_t)(L->p - L->bol) + 1;
	if (line == L->line) {
		t.loc.len = (uint32_t)(L->p - start);
	} else {
		const char *q = start;
		while (q < L->end && *q != '\n' && *q != '\r')
			q++;
		t.loc.len = (uint32_t)(q - start);
	}
	size_t n = L->toks.len;
	vec_push(&L->toks, t);
	if (L->toks.len == n) {
		L->oom = true;
		longjmp(L->fail, 1);
	}
	if (k != LEX_NEWLINE && k != LEX_INDENT && k != LEX_DEDENT)
		L->line_has_tokens = true;
	return &L->toks.data[n];
}

/* Ends the token array with an error token at loc. A scan that ran into a NUL byte
 * reports the NUL instead of whatever it was looking for. */
static _Noreturn void fail_at(lexer *L, srcloc loc, const char *fmt, ...)
{
	char buf[256];
	if (L->nul && L->p >= L->end) {
		const char *q = L->end, *b = q;
		uint32_t line = 1;
		for (const char *s = L->src; s < q; s++)
			if (*s == '\n') {
				line++;
				b = s + 1;
			}
		if (line == 1)
			b = L->src;
		loc = (srcloc){L->file, line, (uint32_t)(q - b) + 1, 1};
		snprintf(buf, sizeof buf, "source code cannot contain null bytes");
	} else {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
	}
	lex_token t = {0};
	t.kind = LEX_ERROR;
	t.loc = loc;
	t.end_line = loc.line;
	t.end_col = loc.col;
	t.str.s = arena_strdup(L->a, buf);
	t.str.len = t.str.s ? (uint32_t)strlen(t.str.s) : 0;
	size_t n = L->toks.len;
	vec_push(&L->toks, t);
	if (!t.str.s || L->toks.len == n)
		L->oom = true;
	longjmp(L->fail, 1);
}

/* The byte i places after q, or 0 past the end. */
static char at(lexer *L, const char *q, size_t i)
{
	return (size_t)(L->end - q) > i ? q[i] : 0;
}

static bool is_newline(lexer *L, const char *q)
{
	return q < L->end && (*q == '\n' || (*q == '\r' && at(L, q, 1) == '\n'));
}

/* Steps over the newline at L->p and starts the next physical line. */
static void newline(lexer *L)
{
	L->p += *L->p == '\r' ? 2 : 1;
	L->line++;
	L->bol = L->p;
}

static bool ident_start(int c)
{
	return isalpha(c) || c == '_' || c >= 0x80;
}

static bool ident_char(int c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

/* Measures the indentation of a logical line and emits INDENT or DEDENTs. Blank and
 * comment-only lines are skipped first and do not count. Returns false at end of text. */
static bool indentation(lexer *L)
{
	for (;;) {
		uint32_t col = 0;
		const char *q = L->p;
		for (; q < L->end; q++) {
			if (*q == ' ')
				col++;
			else if (*q == '\t')
				col = (col / 8 + 1) * 8;
			else if (*q == '\f')
				col = 0;
			else
				break;
		}
		L->p = q;
		if (q >= L->end)
			return false;
		if (*q == '#') {
			while (L->p < L->end && *L->p != '\n' && *L->p != '\r')
				L->p++;
			if (L->p >= L->end)
				return false;
		}
		if (is_newline(L, L->p)) {
			newline(L);
			continue;
		}
		if (*L->p == '\r') { /* a lone CR: whitespace */
			L->p++;
			continue;
		}
		uint32_t top = vec_last(&L->indents);
		if (col > top) {
			size_t n = L->indents.len;
			vec_push(&L->indents, col);
			if (L->indents.len == n) {
				L->oom = true;
				longjmp(L->fail, 1);
			}
			push(L, LEX_INDENT, q, L->line, L->bol)->loc.len = 1;
		} else {
			while (col < vec_last(&L->indents)) {
				L->indents.len--;
				push(L, LEX_DEDENT, q, L->line, L->bol)->loc.len = 1;
			}
			if (col != vec_last(&L->indents))
				fail_at(L, loc_at(L, q, 1),
					"unindent does not match any outer indentation level");
		}
		return true;
	}
}

/* Reads the digits of one part of a number: digits with single underscores between them.
 * Returns how many digits there were. */
static int digits(lexer *L, const char *start, int (*isdig)(int), const char *what)
{
	int n = 0;
	for (;;) {
		if (L->p < L->end && isdig((unsigned char)*L->p)) {
			L->p++;
			n++;
		} else if (L->p < L->end && *L->p == '_' && n > 0 && L->p + 1 < L->end &&
			   isdig((unsigned char)L->p[1])) {
			L->p++;
		} else {
			break;
		}
	}
	if (L->p < L->end && *L->p == '_')
		fail_at(L, loc_at(L, start, (uint32_t)(L->p - start) + 1), "invalid %s literal", what);
	return n;
}

static int isodigit_(int c)
{
	return c >= '0' && c <= '7';
}

static int isbdigit_(int c)
{
	return c == '0' || c == '1';
}

static int isdigit_(int c)
{
	return isdigit(c);
}

static int isxdigit_(int c)
{
	return isxdigit(c);
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return (tolower((unsigned char)c) - 'a') + 10;
}

/* number: decimal, 0x/0o/0b integers and floats (1.0 .5 5. 1e-5), underscores between
 * digits. Integers must fit in int64; imaginary literals are refused. */
static void lex_number(lexer *L)
{
	const char *start = L->p;
	int base = 10;
	const char *what = "decimal";
	bool is_float = false;
	if (*start == '0' && strchr("xXoObB", at(L, start, 1)) && at(L, start, 1)) {
		char b = (char)tolower((unsigned char)start[1]);
		base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
		what = b == 'x' ? "hexadecimal" : b == 'o' ? "octal" : "binary";
		L->p += 2;
		if (L->p < L->end && *L->p == '_')
			L->p++;
		if (!digits(L, start, base == 16 ? isxdigit_ : base == 8 ? isodigit_ : isbdigit_,
			    what))
			fail_at(L, loc_at(L, start, (uint32_t)(L->p - start)), "invalid %s literal",
				what);
	} else {
		if (*start != '.')
			digits(L, start, isdigit_, what);
		if (L->p < L->end && *L->p == '.') {
			is_float = true;
			L->p++;
			if (L->p < L->end && isdigit((unsigned char)*L->p))
				digits(L, start, isdigit_, what);
		}
		if (L->p < L->end && (*L->p == 'e' || *L->p == 'E')) {
			const char *e = L->p++;
			if (L->p < L->end && (*L->p == '+' || *L->p == '-'))
				L->p++;
			if (L->p < L->end && isdigit((unsigned char)*L->p)) {
				digits(L, start, isdigit_, what);
				is_float = true;
			} else {
				L->p = e; /* "1else": reported below as a letter after a number */
			}
		}
	}
	bool imag = false;
	if (base == 10 && L->p < L->end && (*L->p == 'j' || *L->p == 'J')) {
		imag = is_float = true;
		L->p++;
	}
	uint32_t len = (uint32_t)(L->p - start);
	if (L->p < L->end && ident_char((unsigned char)*L->p))
		fail_at(L, loc_at(L, start, len + 1), "invalid %s literal", what);

	if (is_float) {
		char buf[128], *b = buf;
		char *heap = NULL;
		if (len >= sizeof buf) {
			heap = malloc(len + 1);
			if (!heap) {
				L->oom = true;
				longjmp(L->fail, 1);
			}
			b = heap;
		}
		size_t k = 0;
		for (const char *q = start; q < L->p - (imag ? 1 : 0); q++)
			if (*q != '_')
				b[k++] = *q;
		b[k] = 0;
		double v = strtod(b, NULL);
		free(heap);
		push(L, imag ? LEX_IMAG : LEX_FLOAT, start, L->line, L->bol)->fval = v;
		return;
	}
	const char *q = start + (base == 10 ? 0 : 2);
	if (base == 10 && *q == '0') {
		for (const char *r = q; r < L->p; r++)
			if (*r != '0' && *r != '_')
				fail_at(L, loc_at(L, start, len),
					"leading zeros in decimal integer literals are not permitted; "
					"use an 0o prefix for octal integers");
	}
	/* Python's integers are unbounded: a literal beyond int64 is kept, marked, and
	 * refused by sema only if a kernel uses it (host code may hold any integer). */
	uint64_t v = 0;
	bool big = false;
	for (; q < L->p; q++) {
		if (*q == '_')
			continue;
		int d = digit_value(*q);
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			big = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	lex_token *t = push(L, LEX_INT, start, L->line, L->bol);
	t->ival = (int64_t)v;
	t->int_big = big || v > (uint64_t)INT64_MAX;
}

static void put_utf8(char **o, uint32_t c)
{
	char *w = *o;
	if (c < 0x80) {
		*w++ = (char)c;
	} else if (c < 0x800) {
		*w++ = (char)(0xc0 | c >> 6);
		*w++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*w++ = (char)(0xe0 | c >> 12);
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	} else {
		*w++ = (char)(0xf0 | c >> 18);
		*w++ = (char)(0x80 | (c >> 12 & 0x3f));
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	}
	*o = w;
}

/* Resolves the escapes of body[0..n) into out (which has room for n+1 bytes: no escape
 * is longer than what it stands for). line/bol locate body for error messages. */
static uint32_t unescape(lexer *L, const char *body, size_t n, bool raw, bool bytes, char *out,
			 uint32_t line, const char *bol)
{
	char *o = out;
	const char *q = body, *e = body + n;
	while (q < e) {
		if (*q == '\r' && q + 1 < e && q[1] == '\n') {
			*o++ = '\n';
			q += 2;
			line++;
			bol = q;
			continue;
		}
		if (*q == '\n') {
			*o++ = *q++;
			line++;
			bol = q;
			continue;
		}
		if (*q != '\\' || q + 1 >= e) {
			*o++ = *q++;
			continue;
		}
		if (raw) {
			*o++ = *q++;
			if (*q != '\r' && *q != '\n') /* keep the escaped quote or backslash */
				*o++ = *q++;
			continue;
		}
		const char *esc = q++;
		char c = *q++;
		srcloc eloc = {L->file, line, (uint32_t)(esc - bol) + 1, 2};
		switch (c) {
		case '\n': line++; bol = q; break;
		case '\r':
			if (q < e && *q == '\n')
				q++;
			line++;
			bol = q;
			break;
		case '\\': *o++ = '\\'; break;
		case '\'': *o++ = '\''; break;
		case '"': *o++ = '"'; break;
		case 'a': *o++ = '\a'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'v': *o++ = '\v'; break;
		case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
			unsigned v = (unsigned)(c - '0');
			for (int i = 0; i < 2 && q < e && isodigit_((unsigned char)*q); i++)
				v = v * 8 + (unsigned)(*q++ - '0');
			*o++ = (char)(v & 0xff);
			break;
		}
		case 'x': case 'u': case 'U': {
			int nd = c == 'x' ? 2 : c == 'u' ? 4 : 8;
			if (c != 'x' && bytes) {
				*o++ = '\\';
				*o++ = c;
				break;
			}
			uint32_t v = 0;
			for (int i = 0; i < nd; i++) {
				if (q >= e || !isxdigit((unsigned char)*q)) {
					L->line = line;
					L->bol = bol;
					fail_at(L, eloc, "truncated \\%c escape in string literal", c);
				}
				v = v * 16 + (uint32_t)digit_value(*q++);
			}
			if (c == 'x' || v < 0x80) {
				*o++ = (char)v;
			} else {
				if (v > 0x10ffff) {
					L->line = line;
					L->bol = bol;
					eloc.len = 10;
					fail_at(L, eloc, "illegal Unicode character in string literal");
				}
				put_utf8(&o, v);
			}
			break;
		}
		case 'N':
			if (!bytes) {
				L->line = line;
				L->bol = bol;
				fail_at(L, eloc, "unsupported escape '\\N{...}' in string literal");
			}
			/* fallthrough */
		default: /* Python keeps unknown escapes as they are */
			*o++ = '\\';
			*o++ = c;
			break;
		}
	}
	*o = 0;
	return (uint32_t)(o - out);
}

/* string: [prefix] ('...' | "..." | '''...''' | """...""") with prefixes r b u f in their
 * valid combinations. f-strings are kept as text: no interpolation. */
static void lex_string(lexer *L, const char *start, const char *quote, bool raw, bool bytes)
{
	uint32_t line = L->line;
	const char *bol = L->bol;
	char qc = *quote;
	bool triple = at(L, quote, 1) == qc && at(L, quote, 2) == qc;
	L->p = quote + (triple ? 3 : 1);
	const char *body = L->p;
	for (;;) {
		if (L->p >= L->end) {
			srcloc sl = {L->file, line, (uint32_t)(start - bol) + 1, 1};
			fail_at(L, sl, triple ? "unterminated triple-quoted string literal"
					      : "unterminated string literal");
		}
		char c = *L->p;
		if (c == '\\') {
			L->p++;
			if (is_newline(L, L->p))
				newline(L);
			else if (L->p < L->end)
				L->p++;
			continue;
		}
		if (is_newline(L, L->p)) {
			if (!triple) {
				srcloc sl = {L->file, line, (uint32_t)(start - bol) + 1, 1};
				fail_at(L, sl, "unterminated string literal");
			}
			newline(L);
			continue;
		}
		if (c == qc && (!triple || (at(L, L->p, 1) == qc && at(L, L->p, 2) == qc)))
			break;
		L->p++;
	}
	size_t n = (size_t)(L->p - body);
	L->p += triple ? 3 : 1;
	char *out = arena_alloc(L->a, n + 1);
	if (!out) {
		L->oom = true;
		longjmp(L->fail, 1);
	}
	uint32_t end_line = L->line;
	const char *end_bol = L->bol, *end_p = L->p;
	uint32_t len = unescape(L, body, n, raw, bytes, out, line, bol);
	L->line = end_line;
	L->bol = end_bol;
	L->p = end_p;
	lex_token *t = push(L, LEX_STR, start, line, bol);
	t->str.s = out;
	t->str.len = len;
	t->is_bytes = bytes;
}

static void open_bracket(lexer *L, const char *q);
static void close_bracket(lexer *L, const char *q);

static fstate *fs_push(lexer *L, fstate f)
{
	if (L->nfs == LEX_MAX_FSTRINGS)
		fail_at(L, f.loc, "too deeply nested f-strings");
	L->fs[L->nfs] = f;
	return &L->fs[L->nfs++];
}

/* The field whose expression is being tokenized, when the current token sits directly in
 * it (not inside brackets of the expression); NULL otherwise. */
static fstate *fs_field_here(lexer *L)
{
	if (!L->nfs)
		return NULL;
	fstate *f = &L->fs[L->nfs - 1];
	return f->is_field && f->mode == FS_EXPR && L->nparens == f->depth ? f : NULL;
}

/* Emits the literal text body[0..n) of an f-string (escapes resolved unless raw). */
static void fs_middle(lexer *L, const char *body, size_t n, bool raw, uint32_t line,
		      const char *bol)
{
	if (!n)
		return;
	char *out = arena_alloc(L->a, n + 1);
	if (!out) {
		L->oom = true;
		longjmp(L->fail, 1);
	}
	/* "{{" and "}}" stand for one brace; unescape() never sees a lone brace here */
	char *tmp = arena_alloc(L->a, n + 1);
	if (!tmp) {
		L->oom = true;
		longjmp(L->fail, 1);
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		tmp[k++] = body[i];
		if ((body[i] == '{' || body[i] == '}') && i + 1 < n && body[i + 1] == body[i])
			i++;
	}
	uint32_t end_line = L->line;
	const char *end_bol = L->bol, *end_p = L->p;
	uint32_t len = unescape(L, tmp, k, raw, false, out, line, bol);
	L->line = end_line;
	L->bol = end_bol;
	L->p = end_p;
	lex_token *t = push(L, LEX_FSTRING_MIDDLE, body, line, bol);
	t->str.s = out;
	t->str.len = len;
}

/* Scans literal text of the innermost f-string (or of a field's format spec) up to the
 * next field, the end of the spec or the closing quote, and emits what it found. */
static void fs_scan(lexer *L)
{
	fstate *top = &L->fs[L->nfs - 1];
	fstate *str = top;
	for (int i = L->nfs - 1; i >= 0 && str->is_field; i--)
		str = &L->fs[i];
	bool spec = top->is_field;
	const char *body = L->p;
	uint32_t line = L->line;
	const char *bol = L->bol;
	for (;;) {
		if (L->p >= L->end)
			fail_at(L, str->loc, str->triple ? "unterminated triple-quoted f-string literal"
							 : "unterminated f-string literal");
		char c = *L->p;
		if (c == '\\') {
			/* an escaped character (in raw f-strings too: r"\"" is a quote) */
			L->p++;
			if (is_newline(L, L->p))
				newline(L);
			else if (L->p < L->end && *L->p != '{' && *L->p != '}')
				L->p++;
			continue;
		}
		if (is_newline(L, L->p)) {
			if (!str->triple)
				fail_at(L, str->loc, "unterminated f-string literal");
			newline(L);
			continue;
		}
		if (!spec && c == str->q &&
		    (!str->triple || (at(L, L->p, 1) == c && at(L, L->p, 2) == c))) {
			fs_middle(L, body, (size_t)(L->p - body), str->raw, line, bol);
			const char *q = L->p;
			L->p += str->triple ? 3 : 1;
			push(L, LEX_FSTRING_END, q, L->line, L->bol);
			L->nfs--;
			return;
		}
		if ((c == '{' || c == '}') && !spec && at(L, L->p, 1) == c) {
			L->p += 2;
			continue;
		}
		if (c == '{') {
			fs_middle(L, body, (size_t)(L->p - body), str->raw, line, bol);
			open_bracket(L, L->p);
			srcloc fl = loc_at(L, L->p, 1);
			L->p++;
			push(L, LEX_LBRACE, L->p - 1, L->line, L->bol);
			fs_push(L, (fstate){.is_field = true, .mode = FS_EXPR, .depth = L->nparens,
					    .loc = fl});
			return;
		}
		if (c == '}') {
			if (!spec)
				fail_at(L, loc_at(L, L->p, 1), "f-string: single '}' is not allowed");
			/* the end of the field whose format spec this was */
			fs_middle(L, body, (size_t)(L->p - body), str->raw, line, bol);
			close_bracket(L, L->p);
			L->p++;
			push(L, LEX_RBRACE, L->p - 1, L->line, L->bol);
			L->nfs--;
			return;
		}
		L->p++;
	}
}

/* Whether name[0..n) is a string prefix: r u b f, rb br fr rf in any case. */
static bool string_prefix(const char *s, size_t n, bool *raw, bool *bytes, bool *fstr)
{
	bool r = false, b = false, u = false, f = false;
	for (size_t i = 0; i < n; i++) {
		switch (tolower((unsigned char)s[i])) {
		case 'r': if (r) return false; r = true; break;
		case 'b': if (b) return false; b = true; break;
		case 'u': if (u) return false; u = true; break;
		case 'f': if (f) return false; f = true; break;
		default: return false;
		}
	}
	if (n > 2 || (u && n > 1) || (b && f))
		return false;
	*raw = r;
	*bytes = b;
	*fstr = f;
	return true;
}

static void lex_name(lexer *L)
{
	const char *start = L->p;
	while (L->p < L->end && ident_char((unsigned char)*L->p))
		L->p++;
	size_t n = (size_t)(L->p - start);
	bool raw, bytes, fstr;
	if (L->p < L->end && (*L->p == '\'' || *L->p == '"') &&
	    string_prefix(start, n, &raw, &bytes, &fstr)) {
		if (!fstr) {
			lex_string(L, start, L->p, raw, bytes);
			return;
		}
		char q = *L->p;
		bool triple = at(L, L->p, 1) == q && at(L, L->p, 2) == q;
		L->p += triple ? 3 : 1;
		lex_token *t = push(L, LEX_FSTRING_START, start, L->line, L->bol);
		fs_push(L, (fstate){.mode = FS_LITERAL, .q = q, .triple = triple, .raw = raw,
				    .loc = t->loc});
		return;
	}
	const char *name = strtab_intern(L->names, start, n);
	if (!name) {
		L->oom = true;
		longjmp(L->fail, 1);
	}
	for (int k = LEX_KW_FALSE; k <= LEX_KW_YIELD; k++)
		if (L->kw[k] == name) {
			push(L, (lex_kind)k, start, L->line, L->bol);
			return;
		}
	push(L, LEX_NAME, start, L->line, L->bol)->name = name;
}

static void open_bracket(lexer *L, const char *q)
{
	if (L->nparens == LEX_MAX_PARENS)
		fail_at(L, loc_at(L, q, 1), "expression too deeply nested (more than %d open brackets)",
			LEX_MAX_PARENS);
	L->parens[L->nparens++] = (bracket){*q, loc_at(L, q, 1)};
}

static void close_bracket(lexer *L, const char *q)
{
	if (!L->nparens)
		fail_at(L, loc_at(L, q, 1), "unmatched '%c'", *q);
	bracket b = L->parens[--L->nparens];
	char want = b.c == '(' ? ')' : b.c == '[' ? ']' : '}';
	if (*q == want)
		return;
	if (b.loc.line != L->line)
		fail_at(L, loc_at(L, q, 1),
			"closing parenthesis '%c' does not match opening parenthesis '%c' on line %u",
			*q, b.c, b.loc.line);
	fail_at(L, loc_at(L, q, 1), "closing parenthesis '%c' does not match opening parenthesis '%c'",
		*q, b.c);
}

/* Operators, longest match first. */
static void lex_punct(lexer *L)
{
	const char *q = L->p;
	lex_kind best = LEX_EOF;
	size_t bestn = 0;
	for (int k = LEX_LPAREN; k < LEX_NKINDS; k++) {
		size_t n = strlen(spellings[k]);
		if (n > bestn && (size_t)(L->end - q) >= n && !memcmp(q, spellings[k], n)) {
			best = (lex_kind)k;
			bestn = n;
		}
	}
	fstate *field = fs_field_here(L);
	if (best == LEX_EXCLAIM && !field)
		bestn = 0; /* '!' is an operator only before a conversion in an f-string */
	if (!bestn) {
		unsigned char c = (unsigned char)*q;
		if (c == '!')
			fail_at(L, loc_at(L, q, 1), "invalid syntax: '!' is not an operator");
		if (isprint(c))
			fail_at(L, loc_at(L, q, 1), "invalid character '%c'", c);
		fail_at(L, loc_at(L, q, 1), "invalid character (byte 0x%02x)", c);
	}
	if (field && (best == LEX_COLON || best == LEX_WALRUS)) {
		/* ':' directly in a field starts its format spec ('{x:=5}' too, as in Python) */
		best = LEX_COLON;
		bestn = 1;
		field->mode = FS_SPEC;
	}
	if (best == LEX_LPAREN || best == LEX_LBRACKET || best == LEX_LBRACE)
		open_bracket(L, q);
	else if (best == LEX_RPAREN || best == LEX_RBRACKET || best == LEX_RBRACE)
		close_bracket(L, q);
	L->p += bestn;
	push(L, best, q, L->line, L->bol);
	if (field && best == LEX_RBRACE)
		L->nfs--; /* the end of a field without a format spec */
}

static void run(lexer *L)
{
	bool bol = true;
	for (;;) {
		if (L->nfs && L->fs[L->nfs - 1].mode != FS_EXPR) {
			fs_scan(L);
			continue;
		}
		if (bol && L->nparens == 0) {
			bol = false;
			if (!indentation(L))
				break;
		}
		while (L->p < L->end && (*L->p == ' ' || *L->p == '\t' || *L->p == '\f' ||
					 (*L->p == '\r' && !is_newline(L, L->p))))
			L->p++;
		if (L->p >= L->end)
			break;
		char c = *L->p;
		if (c == '#') {
			while (L->p < L->end && *L->p != '\n' && *L->p != '\r')
				L->p++;
			continue;
		}
		if (is_newline(L, L->p)) {
			if (L->nparens == 0) {
				if (L->line_has_tokens) {
					push(L, LEX_NEWLINE, L->p, L->line, L->bol)->loc.len = 1;
					L->line_has_tokens = false;
				}
				bol = true;
			}
			newline(L);
			continue;
		}
		if (c == '\\') {
			const char *q = L->p++;
			if (is_newline(L, L->p)) {
				newline(L);
				continue;
			}
			if (L->p >= L->end && !L->nul)
				fail_at(L, loc_at(L, q, 1), "unexpected end of file after line continuation character");
			fail_at(L, loc_at(L, q, 1), "unexpected character after line continuation character");
		}
		if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)at(L, L->p, 1))))
			lex_number(L);
		else if (ident_start((unsigned char)c))
			lex_name(L);
		else if (c == '\'' || c == '"')
			lex_string(L, L->p, L->p, false, false);
		else
			lex_punct(L);
	}
	if (L->nul)
		fail_at(L, SRCLOC_NONE, "null byte");
	for (int i = L->nfs - 1; i >= 0; i--)
		if (!L->fs[i].is_field)
			fail_at(L, L->fs[i].loc, "unterminated f-string literal");
	if (L->nparens) {
		bracket b = L->parens[L->nparens - 1];
		fail_at(L, b.loc, "'%c' was never closed", b.c);
	}
	if (L->line_has_tokens) {
		push(L, LEX_NEWLINE, L->p, L->line, L->bol)->loc.len = 1;
		L->line_has_tokens = false;
	}
	while (L->indents.len > 1) {
		L->indents.len--;
		push(L, LEX_DEDENT, L->p, L->line, L->bol)->loc.len = 1;
	}
	push(L, LEX_EOF, L->p, L->line, L->bol)->loc.len = 1;
}

lex_token *lex_tokenize(arena *a, strtab *names, uint32_t file, const char *src, uint32_t len,
			uint32_t *ntokens)
{
	lexer *L = calloc(1, sizeof *L);
	if (!L)
		return NULL;
	L->a = a;
	L->names = names;
	L->file = file;
	L->src = L->p = L->bol = src ? src : "";
	if (!src)
		len = 0;
	const char *z = memchr(L->src, 0, len);
	L->end = z ? z : L->src + len;
	L->nul = z != NULL;
	L->line = 1;
	/* A UTF-8 byte order mark is not part of the first line. */
	if (L->end - L->p >= 3 && !memcmp(L->p, "\xef\xbb\xbf", 3))
		L->p += 3;
	for (int k = LEX_KW_FALSE; k <= LEX_KW_YIELD; k++) {
		L->kw[k] = strtab_cstr(names, spellings[k]);
		if (!L->kw[k])
			L->oom = true;
	}
	lex_token *out = NULL;
	if (!L->oom) {
		vec_push(&L->indents, 0);
		if (!L->indents.len)
			L->oom = true;
	}
	if (!L->oom && !setjmp(L->fail))
		run(L);
	if (!L->oom) {
		out = ARENA_NEWN(a, lex_token, L->toks.len);
		if (out) {
			memcpy(out, L->toks.data, sizeof(lex_token) * L->toks.len);
			*ntokens = (uint32_t)L->toks.len;
		}
	}
	vec_free(&L->toks);
	vec_free(&L->indents);
	free(L);
	return out;
}
