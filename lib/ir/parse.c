/* parse.c: the parser of the tile IR's text form (docs/ir.md).
 *
 * A hand-written lexer and recursive-descent parser. The text is line-aware only where the
 * grammar needs it: an op's operands, attribute dict, result types and the '{' of its first
 * region start on the op's line, and a '{' followed by the end of the line opens a region
 * rather than an attribute dict. Values are resolved while parsing (definitions dominate
 * uses), so every value name maps to the record it denotes; names leave scope when the
 * region that defined them closes. The first error stops the parse. */
#include "ir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 128, MAX_RANK = 16 };

typedef enum tok_kind {
	TK_EOF,
	TK_VALUE,  /* %name: s/n exclude the '%' */
	TK_FUNC,   /* @name: s/n exclude the '@' */
	TK_IDENT,
	TK_INT,
	TK_FLOAT,
	TK_STRING, /* s/n include the quotes */
	TK_PUNCT,  /* one of ( ) { } [ ] < > , : = ^ # */
} tok_kind;

typedef struct token {
	tok_kind kind;
	const char *s;
	uint32_t n;
	uint32_t line, col;
	bool nl; /* first token on its line */
} token;

/* A growable array of pointers in the scratch arena. */
typedef struct plist {
	void **v;
	int n, cap;
} plist;

typedef struct parser {
	ir_context *c;
	diag_engine *d;
	uint32_t file;
	const char *text;
	uint32_t len, pos;
	uint32_t line, lstart; /* line of pos, offset where that line starts */
	token tok;
	bool failed;
	int depth;
	arena *scratch;
	ir_ptrmap values; /* interned name -> ir_value, for the names now in scope */
	plist scope;	  /* names defined, innermost last */
	ir_ptrmap files;  /* interned file name -> file index */
} parser;

/* ---- errors and lexing -------------------------------------------------------------------- */

static srcloc tok_loc(const parser *p, const token *t)
{
	uint32_t n = t->n + (t->kind == TK_VALUE || t->kind == TK_FUNC);
	return (srcloc){p->file, t->line, t->col, n ? n : 1};
}

static bool error_at(parser *p, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool error_at(parser *p, srcloc loc, const char *fmt, ...)
{
	if (p->failed)
		return false;
	p->failed = true;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_error(p->d, loc, "%s", buf);
	return false;
}

#define error(p, ...) error_at((p), tok_loc((p), &(p)->tok), __VA_ARGS__)

static int at(const parser *p, uint32_t i)
{
	return i < p->len ? (unsigned char)p->text[i] : -1;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_name(int c) { return is_alpha(c) || is_digit(c) || c == '.'; }

/* Skips blanks and // comments; true when a newline was crossed. */
static bool skip_space(parser *p)
{
	bool nl = false;
	for (;;) {
		int c = at(p, p->pos);
		if (c == '\n') {
			p->pos++;
			p->line++;
			p->lstart = p->pos;
			nl = true;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			p->pos++;
		} else if (c == '/' && at(p, p->pos + 1) == '/') {
			while (p->pos < p->len && p->text[p->pos] != '\n')
				p->pos++;
		} else {
			return nl;
		}
	}
}

static uint32_t col_of(const parser *p, uint32_t pos)
{
	return pos - p->lstart + 1;
}

/* Lexes the next token into p->tok. */
static void next(parser *p)
{
	bool nl = p->pos == 0;
	nl |= skip_space(p);
	uint32_t start = p->pos;
	token *t = &p->tok;
	*t = (token){TK_EOF, p->text + start, 0, p->line, col_of(p, start), nl};
	int c = at(p, start);
	if (c < 0)
		return;
	uint32_t i = start;
	if (c == '%' || c == '@') {
		for (i++; is_name(at(p, i)); i++)
			;
		t->kind = c == '%' ? TK_VALUE : TK_FUNC;
		t->s++;
		t->n = i - start - 1;
		p->pos = i;
		if (!t->n) {
			/* the token is the sigil alone, which may be the last byte of the text:
			 * nothing may read a name past it */
			t->kind = TK_EOF;
			t->s = p->text + start;
			error(p, "expected a name after '%c'", c);
		}
		return;
	}
	if (is_alpha(c)) {
		for (i++; is_alpha(at(p, i)) || is_digit(at(p, i)); i++)
			;
		t->kind = TK_IDENT;
	} else if (is_digit(c) || (c == '-' && (is_digit(at(p, i + 1)) || at(p, i + 1) == 'i'))) {
		t->kind = TK_INT;
		if (c == '-')
			i++;
		if (at(p, i) == 'i') {
			if (at(p, i + 1) != 'n' || at(p, i + 2) != 'f' || is_name(at(p, i + 3))) {
				t->n = 1;
				p->pos = start + 1;
				error(p, "expected a number");
				return;
			}
			i += 3;
			t->kind = TK_FLOAT;
		}
		while (is_digit(at(p, i)))
			i++;
		if (at(p, i) == '.' && is_digit(at(p, i + 1))) {
			t->kind = TK_FLOAT;
			for (i++; is_digit(at(p, i)); i++)
				;
		}
		if ((at(p, i) == 'e' || at(p, i) == 'E') &&
		    (is_digit(at(p, i + 1)) ||
		     ((at(p, i + 1) == '+' || at(p, i + 1) == '-') && is_digit(at(p, i + 2))))) {
			t->kind = TK_FLOAT;
			for (i += 2; is_digit(at(p, i)); i++)
				;
		}
	} else if (c == '"') {
		for (i++; at(p, i) != '"'; i++) {
			int ch = at(p, i);
			if (ch < 0 || ch == '\n') {
				t->n = 1;
				p->pos = i;
				error(p, "unterminated string");
				return;
			}
			if (ch == '\\' && at(p, i + 1) >= 0 && at(p, i + 1) != '\n')
				i++;
		}
		i++;
		t->kind = TK_STRING;
	} else if (strchr("(){}[]<>,:=^#", c) && c) {
		i++;
		t->kind = TK_PUNCT;
	} else {
		t->n = 1;
		p->pos = start + 1;
		if (c >= 0x20 && c < 0x7f)
			error(p, "unexpected character '%c'", c);
		else
			error(p, "unexpected character 0x%02x", c);
		return;
	}
	t->n = i - start;
	p->pos = i;
}

static bool is_punct(const parser *p, char c)
{
	return p->tok.kind == TK_PUNCT && p->tok.s[0] == c;
}

static bool is_word(const parser *p, const char *w)
{
	return p->tok.kind == TK_IDENT && strlen(w) == p->tok.n && !memcmp(p->tok.s, w, p->tok.n);
}

static bool expect(parser *p, char c)
{
	if (!is_punct(p, c))
		return error(p, "expected '%c'", c);
	next(p);
	return !p->failed;
}

static bool accept(parser *p, char c)
{
	if (!is_punct(p, c))
		return false;
	next(p);
	return true;
}

static const char *intern_tok(parser *p, const token *t)
{
	const char *s = strtab_intern(ir_names(p->c), t->s, t->n);
	if (!s)
		error_at(p, tok_loc(p, t), "out of memory");
	return s;
}

static bool plist_push(parser *p, plist *l, void *x)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		void **v = ARENA_NEWN(p->scratch, void *, cap);
		if (!v)
			return error(p, "out of memory");
		if (l->n)
			memcpy(v, l->v, sizeof(void *) * (size_t)l->n);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return true;
}

static token *save_tok(parser *p)
{
	token *t = ARENA_NEW(p->scratch, token);
	if (!t) {
		error(p, "out of memory");
		return NULL;
	}
	*t = p->tok;
	return t;
}

/* ---- literals ------------------------------------------------------------------------------ */

static bool parse_int(parser *p, int64_t *out)
{
	if (p->tok.kind != TK_INT)
		return error(p, "expected an integer");
	char buf[64];
	if (p->tok.n >= sizeof buf)
		return error(p, "integer out of range");
	memcpy(buf, p->tok.s, p->tok.n);
	buf[p->tok.n] = 0;
	errno = 0;
	long long v = strtoll(buf, NULL, 10);
	if (errno == ERANGE)
		return error(p, "integer out of range");
	*out = v;
	next(p);
	return !p->failed;
}

static bool parse_float(parser *p, double *out)
{
	char buf[512];
	if (p->tok.n >= sizeof buf)
		return error(p, "number too long");
	memcpy(buf, p->tok.s, p->tok.n);
	buf[p->tok.n] = 0;
	*out = strtod(buf, NULL);
	next(p);
	return !p->failed;
}

static int hexval(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes the current string token into an interned string. */
static const char *parse_string(parser *p)
{
	if (p->tok.kind != TK_STRING) {
		error(p, "expected a string");
		return NULL;
	}
	char *buf = arena_alloc(p->scratch, p->tok.n);
	if (!buf) {
		error(p, "out of memory");
		return NULL;
	}
	size_t n = 0;
	for (uint32_t i = 1; i + 1 < p->tok.n; i++) {
		char c = p->tok.s[i];
		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		c = p->tok.s[++i];
		if (c == 'n' || c == 't' || c == '"' || c == '\\') {
			buf[n++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			continue;
		}
		int h = i + 2 < p->tok.n ? hexval(c) : -1;
		int l = h >= 0 ? hexval(p->tok.s[i + 1]) : -1;
		if (l < 0 || (h == 0 && l == 0)) {
			error_at(p, (srcloc){p->file, p->tok.line, p->tok.col + i - 1, 2},
				 "invalid escape in string");
			return NULL;
		}
		buf[n++] = (char)(h * 16 + l);
		i++;
	}
	const char *s = strtab_intern(ir_names(p->c), buf, n);
	if (!s)
		error(p, "out of memory");
	next(p);
	return s;
}

/* ---- types --------------------------------------------------------------------------------- */

static const ir_type *parse_type_depth(parser *p, int depth);

/* Reads "64x32x" directly from the text after 'tile<' (the lexer would see "x32xf32"). */
static int parse_dims(parser *p, int64_t *shape)
{
	int rank = 0;
	while (is_digit(at(p, p->pos))) {
		uint32_t start = p->pos;
		int64_t v = 0;
		while (is_digit(at(p, p->pos))) {
			int dgt = at(p, p->pos) - '0';
			if (v > (INT64_MAX - dgt) / 10) {
				error_at(p, (srcloc){p->file, p->line, col_of(p, start), 1},
					 "tile dimension out of range");
				return -1;
			}
			v = v * 10 + dgt;
			p->pos++;
		}
		srcloc loc = {p->file, p->line, col_of(p, start), p->pos - start};
		if (v < 1) {
			error_at(p, loc, "tile dimension must be positive");
			return -1;
		}
		if (rank == MAX_RANK) {
			error_at(p, loc, "tile rank exceeds %d", MAX_RANK);
			return -1;
		}
		if (at(p, p->pos) != 'x') {
			error_at(p, (srcloc){p->file, p->line, col_of(p, p->pos), 1}, "expected 'x'");
			return -1;
		}
		p->pos++;
		shape[rank++] = v;
	}
	if (!rank)
		error_at(p, (srcloc){p->file, p->line, col_of(p, p->pos), 1},
			 "expected a tile dimension");
	return rank ? rank : -1;
}

/* Reads a layout: balanced text after '#' up to the '>' that closes the tile type. */
static const char *parse_layout(parser *p)
{
	uint32_t start = p->pos;
	int depth = 0;
	for (;; p->pos++) {
		int c = at(p, p->pos);
		if (c < 0 || c == '\n') {
			error_at(p, (srcloc){p->file, p->line, col_of(p, p->pos), 1},
				 "unterminated layout");
			return NULL;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth)
			depth--;
		else if (c == '>')
			break;
	}
	uint32_t b = start, e = p->pos;
	while (b < e && (p->text[b] == ' ' || p->text[b] == '\t'))
		b++;
	while (e > b && (p->text[e - 1] == ' ' || p->text[e - 1] == '\t'))
		e--;
	if (b == e) {
		error_at(p, (srcloc){p->file, p->line, col_of(p, start), 1}, "expected a layout");
		return NULL;
	}
	const char *s = strtab_intern(ir_names(p->c), p->text + b, e - b);
	if (!s)
		error(p, "out of memory");
	return s;
}

static bool is_type_word(const parser *p)
{
	if (p->tok.kind != TK_IDENT)
		return false;
	for (int k = 0; k < IR_PTR; k++)
		if (is_word(p, ir_type_kind_name((ir_type_kind)k)))
			return true;
	return is_word(p, "ptr") || is_word(p, "tile");
}

/* type ::= scalar | 'ptr' '<' type (',' int)? '>' | 'tile' '<' (dim 'x')+ type (',' '#' layout)? '>' */
static const ir_type *parse_type_depth(parser *p, int depth)
{
	if (depth > 32) {
		error(p, "type nested too deeply");
		return NULL;
	}
	token t = p->tok;
	if (t.kind != TK_IDENT) {
		error(p, "expected a type");
		return NULL;
	}
	for (int k = 0; k < IR_PTR; k++)
		if (is_word(p, ir_type_kind_name((ir_type_kind)k))) {
			next(p);
			return ir_type_scalar(p->c, (ir_type_kind)k);
		}
	if (is_word(p, "ptr")) {
		next(p);
		if (!expect(p, '<'))
			return NULL;
		const ir_type *pointee = parse_type_depth(p, depth + 1);
		if (!pointee)
			return NULL;
		int64_t as = 1;
		if (accept(p, ',')) {
			token at_tok = p->tok;
			if (!parse_int(p, &as))
				return NULL;
			if (as < 0 || as > 255) {
				error_at(p, tok_loc(p, &at_tok), "invalid address space %lld", (long long)as);
				return NULL;
			}
		}
		if (!expect(p, '>'))
			return NULL;
		return ir_type_ptr(p->c, pointee, (int)as);
	}
	if (is_word(p, "tile")) {
		next(p);
		if (!is_punct(p, '<')) {
			error(p, "expected '<'");
			return NULL;
		}
		int64_t shape[MAX_RANK];
		int rank = parse_dims(p, shape);
		if (rank < 0)
			return NULL;
		next(p);
		token et = p->tok;
		const ir_type *elem = parse_type_depth(p, depth + 1);
		if (!elem)
			return NULL;
		if (elem->kind == IR_TILE || (elem->kind == IR_PTR && elem->elem->kind == IR_TILE)) {
			error_at(p, tok_loc(p, &et), "a tile element must be a scalar or a pointer");
			return NULL;
		}
		const char *layout = NULL;
		if (is_punct(p, ',')) {
			next(p);
			if (!is_punct(p, '#')) {
				error(p, "expected '#'");
				return NULL;
			}
			if (!(layout = parse_layout(p)))
				return NULL;
			next(p);
		}
		if (!expect(p, '>'))
			return NULL;
		const ir_type *ty = ir_type_tile_layout(p->c, elem, rank, shape, layout);
		if (!ty)
			error_at(p, tok_loc(p, &t), "out of memory");
		return ty;
	}
	error(p, "unknown type '%.*s'", (int)t.n, t.s);
	return NULL;
}

static const ir_type *parse_type(parser *p)
{
	return parse_type_depth(p, 0);
}

/* ---- attributes ---------------------------------------------------------------------------- */

typedef struct parsed_attr {
	ir_attr a;
	token name;
} parsed_attr;

/* value ::= int | float | 'true' | 'false' | string | '[' (int (',' int)*)? ']' | type */
static bool parse_attr_value(parser *p, ir_attr *a)
{
	if (p->tok.kind == TK_INT) {
		a->kind = IR_ATTR_INT;
		return parse_int(p, &a->i);
	}
	if (p->tok.kind == TK_FLOAT || is_word(p, "inf") || is_word(p, "nan")) {
		a->kind = IR_ATTR_FLOAT;
		return parse_float(p, &a->f);
	}
	if (is_word(p, "true") || is_word(p, "false")) {
		a->kind = IR_ATTR_BOOL;
		a->i = is_word(p, "true");
		next(p);
		return !p->failed;
	}
	if (p->tok.kind == TK_STRING) {
		a->kind = IR_ATTR_STR;
		return (a->s = parse_string(p)) != NULL;
	}
	if (is_punct(p, '[')) {
		next(p);
		plist l = {0};
		while (!is_punct(p, ']')) {
			int64_t *v = ARENA_NEW(p->scratch, int64_t);
			if (!v)
				return error(p, "out of memory");
			if (!parse_int(p, v) || !plist_push(p, &l, v))
				return false;
			if (!is_punct(p, ']') && !expect(p, ','))
				return false;
		}
		next(p);
		int64_t *vals = ARENA_NEWN(p->scratch, int64_t, l.n ? l.n : 1);
		if (!vals)
			return error(p, "out of memory");
		for (int i = 0; i < l.n; i++)
			vals[i] = *(int64_t *)l.v[i];
		a->kind = IR_ATTR_INTS;
		a->ints.v = vals;
		a->ints.n = l.n;
		return !p->failed;
	}
	if (is_type_word(p)) {
		a->kind = IR_ATTR_TYPE;
		return (a->type = parse_type(p)) != NULL;
	}
	return error(p, "expected an attribute value");
}

/* attr-dict ::= '{' (attr (',' attr)*)? '}' ; attr ::= name ('=' value)?
 * Collects parsed_attr records into *out. */
static bool parse_attr_dict(parser *p, plist *out)
{
	if (!expect(p, '{'))
		return false;
	while (!is_punct(p, '}')) {
		if (p->tok.kind != TK_IDENT)
			return error(p, "expected an attribute name");
		parsed_attr *pa = ARENA_NEW(p->scratch, parsed_attr);
		if (!pa)
			return error(p, "out of memory");
		pa->name = p->tok;
		if (!(pa->a.name = intern_tok(p, &p->tok)))
			return false;
		for (int i = 0; i < out->n; i++)
			if (((parsed_attr *)out->v[i])->a.name == pa->a.name)
				return error(p, "duplicate attribute '%s'", pa->a.name);
		next(p);
		if (accept(p, '=')) {
			if (!parse_attr_value(p, &pa->a))
				return false;
		} else {
			pa->a.kind = IR_ATTR_BOOL;
			pa->a.i = 1;
		}
		if (p->failed || !plist_push(p, out, pa))
			return false;
		if (!is_punct(p, '}') && !expect(p, ','))
			return false;
	}
	next(p);
	return !p->failed;
}

/* Checks the parsed attributes of a function (is_func) or an op against the limits of
 * ir_check_attr, at the attribute's name. */
static bool check_attrs(parser *p, const plist *attrs, bool is_func)
{
	char buf[256];
	for (int i = 0; i < attrs->n; i++) {
		const parsed_attr *pa = attrs->v[i];
		const char *bad = ir_check_attr(&pa->a, is_func, buf, sizeof buf);
		if (bad)
			return error_at(p, tok_loc(p, &pa->name), "%s", bad);
	}
	return true;
}

/* True when the '{' just lexed ends its line: it opens a region, not an attribute dict. */
static bool brace_ends_line(const parser *p)
{
	for (uint32_t i = p->pos;; i++) {
		int c = at(p, i);
		if (c == ' ' || c == '\t' || c == '\r')
			continue;
		return c < 0 || c == '\n' || (c == '/' && at(p, i + 1) == '/');
	}
}

/* ---- values and locations ----------------------------------------------------------------- */

static bool is_numeric(const token *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (!is_digit((unsigned char)t->s[i]))
			return false;
	return true;
}

/* Puts value v in scope under the name in token t. */
static bool define(parser *p, const token *t, ir_value *v)
{
	const char *name = intern_tok(p, t);
	if (!name)
		return false;
	if (ir_ptrmap_get(&p->values, name))
		return error_at(p, tok_loc(p, t), "redefinition of '%%%s'", name);
	if (!ir_ptrmap_put(&p->values, name, v) || !plist_push(p, &p->scope, (void *)name))
		return error_at(p, tok_loc(p, t), "out of memory");
	v->name = is_numeric(t) ? NULL : name;
	return true;
}

static void close_scope(parser *p, int mark)
{
	while (p->scope.n > mark)
		ir_ptrmap_put(&p->values, p->scope.v[--p->scope.n], NULL);
}

static ir_value *use_value(parser *p)
{
	if (p->tok.kind != TK_VALUE) {
		error(p, "expected a value");
		return NULL;
	}
	const char *name = intern_tok(p, &p->tok);
	ir_value *v = name ? ir_ptrmap_get(&p->values, name) : NULL;
	if (!v) {
		error(p, "use of undefined value '%%%.*s'", (int)p->tok.n, p->tok.s);
		return NULL;
	}
	next(p);
	return v;
}

/* loc ::= 'loc' '(' (string ':' int ':' int | 'unknown') ')' */
static bool parse_loc(parser *p, srcloc *loc)
{
	next(p);
	if (!expect(p, '('))
		return false;
	if (is_word(p, "unknown")) {
		next(p);
		*loc = SRCLOC_NONE;
		return expect(p, ')');
	}
	const char *file = parse_string(p);
	int64_t line, col;
	if (!file || !expect(p, ':'))
		return false;
	token lt = p->tok;
	if (!parse_int(p, &line) || !expect(p, ':'))
		return false;
	token ct = p->tok;
	if (!parse_int(p, &col))
		return false;
	if (line < 0 || line > UINT32_MAX)
		return error_at(p, tok_loc(p, &lt), "line out of range");
	if (col < 0 || col > UINT32_MAX)
		return error_at(p, tok_loc(p, &ct), "column out of range");
	uintptr_t idx = (uintptr_t)ir_ptrmap_get(&p->files, file);
	if (!idx) {
		idx = diag_add_source(p->d, file, NULL, 0);
		if (!idx || !ir_ptrmap_put(&p->files, file, (void *)idx))
			return error(p, "out of memory");
	}
	*loc = (srcloc){(uint32_t)idx, (uint32_t)line, (uint32_t)col, 0};
	return expect(p, ')');
}

/* ---- ops and regions ----------------------------------------------------------------------- */

static bool parse_op(parser *p, ir_block *b);

/* Parses ops up to the closing '}' (consumed) into b. */
static bool parse_block_body(parser *p, ir_block *b)
{
	while (!is_punct(p, '}')) {
		if (p->tok.kind == TK_EOF)
			return error(p, "expected '}'");
		if (!parse_op(p, b))
			return false;
	}
	next(p);
	return !p->failed;
}

/* region ::= '{' NEWLINE ('^' '(' arg (',' arg)* ')' ':')? op* '}' ; arg ::= value ':' type */
static bool parse_region(parser *p, ir_block *b)
{
	if (++p->depth > MAX_DEPTH)
		return error(p, "regions nested too deeply");
	int mark = p->scope.n;
	next(p);
	if (accept(p, '^')) {
		if (!expect(p, '('))
			return false;
		while (!is_punct(p, ')')) {
			token name = p->tok;
			if (name.kind != TK_VALUE)
				return error(p, "expected a block argument");
			next(p);
			if (!expect(p, ':'))
				return false;
			const ir_type *t = parse_type(p);
			if (!t)
				return false;
			ir_value *v = ir_block_add_arg(p->c, b, t, NULL);
			if (!v)
				return error(p, "out of memory");
			if (!define(p, &name, v))
				return false;
			if (!is_punct(p, ')') && !expect(p, ','))
				return false;
		}
		next(p);
		if (!expect(p, ':'))
			return false;
	}
	if (!parse_block_body(p, b))
		return false;
	close_scope(p, mark);
	p->depth--;
	return true;
}

/* op ::= (value (',' value)* '=')? name (value (',' value)*)? attr-dict?
 *        (':' type (',' type)*)? region* loc? */
static bool parse_op(parser *p, ir_block *b)
{
	plist results = {0}, operands = {0}, types = {0}, attrs = {0};
	if (p->tok.kind == TK_VALUE) {
		for (;;) {
			if (p->tok.kind != TK_VALUE)
				return error(p, "expected a value name");
			token *t = save_tok(p);
			if (!t || !plist_push(p, &results, t))
				return false;
			next(p);
			if (!accept(p, ','))
				break;
		}
		if (!expect(p, '='))
			return false;
	}
	token name = p->tok;
	if (name.kind != TK_IDENT)
		return error(p, "expected an op name");
	char buf[32];
	int code = -1;
	if (name.n < sizeof buf) {
		memcpy(buf, name.s, name.n);
		buf[name.n] = 0;
		code = ir_opcode_from_name(buf);
	}
	if (code < 0)
		return error(p, "unknown op '%.*s'", (int)name.n, name.s);
	const ir_opinfo *info = &ir_ops[code];
	next(p);
	if (p->tok.kind == TK_VALUE && !p->tok.nl) {
		for (;;) {
			ir_value *v = use_value(p);
			if (!v || !plist_push(p, &operands, v))
				return false;
			if (!accept(p, ','))
				break;
		}
	}
	if (is_punct(p, '{') && !p->tok.nl && !brace_ends_line(p) &&
	    (!parse_attr_dict(p, &attrs) || !check_attrs(p, &attrs, false)))
		return false;
	token colon = p->tok;
	if (is_punct(p, ':') && !p->tok.nl) {
		next(p);
		for (;;) {
			const ir_type *t = parse_type(p);
			if (!t || !plist_push(p, &types, (void *)t))
				return false;
			if (!accept(p, ','))
				break;
		}
	}
	if (info->nresults != VARIADIC && results.n != info->nresults)
		return error_at(p, tok_loc(p, results.n ? (token *)results.v[0] : &name),
				"expected %d result%s, op '%s' has %d", results.n,
				results.n == 1 ? "" : "s", info->name, info->nresults);
	if (types.n != results.n) {
		if (!types.n)
			return error(p, "expected ':'");
		return error_at(p, tok_loc(p, &colon), "expected %d result type%s, got %d",
				results.n, results.n == 1 ? "" : "s", types.n);
	}
	ir_op *op = ir_op_create(p->c, (ir_opcode)code, operands.n, (ir_value **)operands.v,
				 results.n, (const ir_type **)types.v, tok_loc(p, &name));
	if (!op)
		return error(p, "out of memory");
	for (int i = 0; i < attrs.n; i++)
		ir_op_set_attr(p->c, op, &((parsed_attr *)attrs.v[i])->a);
	for (int i = 0; i < op->nregions; i++) {
		if (!is_punct(p, '{') || (i == 0 && p->tok.nl))
			return error(p, "expected '{' to begin region %d of '%s' (it has %d)", i + 1,
				     info->name, op->nregions);
		if (!brace_ends_line(p))
			return error(p, "expected a newline after '{'");
		if (!parse_region(p, op->regions[i]))
			return false;
	}
	if (is_punct(p, '{') && !p->tok.nl)
		return error(p, "op '%s' has %d region%s", info->name, op->nregions,
			     op->nregions == 1 ? "" : "s");
	if (is_word(p, "loc") && !p->tok.nl && !parse_loc(p, &op->loc))
		return false;
	for (int i = 0; i < results.n; i++)
		if (!define(p, (token *)results.v[i], &op->results[i]))
			return false;
	ir_block_append(b, op);
	return !p->failed;
}

/* ---- functions ----------------------------------------------------------------------------- */

/* func ::= 'func' '@'name '(' (param (',' param)*)? ')' ('attributes' attr-dict)? region loc?
 * param ::= value ':' type attr-dict? */
static bool parse_func(parser *p, ir_module *m)
{
	token kw = p->tok;
	if (!is_word(p, "func"))
		return error(p, "expected 'func'");
	next(p);
	if (p->tok.kind != TK_FUNC)
		return error(p, "expected a function name");
	const char *fname = intern_tok(p, &p->tok);
	if (!fname)
		return false;
	for (ir_func *f = m->funcs; f; f = f->next)
		if (f->name == fname)
			return error(p, "redefinition of function '@%s'", fname);
	next(p);
	if (!expect(p, '('))
		return false;
	plist names = {0}, types = {0}, pattrs = {0};
	while (!is_punct(p, ')')) {
		token *t = save_tok(p);
		if (!t)
			return false;
		if (t->kind != TK_VALUE)
			return error(p, "expected a parameter");
		next(p);
		if (!expect(p, ':'))
			return false;
		const ir_type *ty = parse_type(p);
		if (!ty)
			return false;
		plist *pa = ARENA_NEW(p->scratch, plist);
		if (!pa)
			return error(p, "out of memory");
		if (is_punct(p, '{') && !parse_attr_dict(p, pa))
			return false;
		if (!plist_push(p, &names, t) || !plist_push(p, &types, (void *)ty) ||
		    !plist_push(p, &pattrs, pa))
			return false;
		if (!is_punct(p, ')') && !expect(p, ','))
			return false;
	}
	next(p);
	plist fattrs = {0};
	if (is_word(p, "attributes")) {
		next(p);
		if (!parse_attr_dict(p, &fattrs) || !check_attrs(p, &fattrs, true))
			return false;
	}
	if (!is_punct(p, '{'))
		return error(p, "expected '{'");
	ir_func *f = ir_func_create(m, fname, names.n, (const ir_type **)types.v, NULL,
				    tok_loc(p, &kw));
	if (!f)
		return error(p, "out of memory");
	for (int i = 0; i < fattrs.n; i++)
		ir_func_set_attr(p->c, f, &((parsed_attr *)fattrs.v[i])->a);
	ir_ptrmap_free(&p->values);
	p->scope.n = 0;
	for (int i = 0; i < names.n; i++) {
		if (!define(p, names.v[i], f->body->args[i]))
			return false;
		f->params[i].name = f->body->args[i]->name;
		plist *pa = pattrs.v[i];
		for (int j = 0; j < pa->n; j++) {
			parsed_attr *a = pa->v[j];
			if (a->a.name == strtab_cstr(ir_names(p->c), "divisibility") &&
			    a->a.kind == IR_ATTR_INT && a->a.i >= 1)
				f->params[i].divisibility = a->a.i;
			else if (a->a.name == strtab_cstr(ir_names(p->c), "equal_to_1") &&
				 a->a.kind == IR_ATTR_BOOL)
				f->params[i].equal_to_1 = a->a.i != 0;
			else
				return error_at(p, tok_loc(p, &a->name),
						"invalid parameter attribute '%s'", a->a.name);
		}
	}
	if (!brace_ends_line(p))
		return error(p, "expected a newline after '{'");
	next(p);
	if (!parse_block_body(p, f->body))
		return false;
	if (is_word(p, "loc") && !p->tok.nl && !parse_loc(p, &f->loc))
		return false;
	return true;
}

ir_module *ir_parse_module(ir_context *c, diag_engine *d, uint32_t file, const char *text,
			   uint32_t len)
{
	parser p = {.c = c, .d = d, .file = file, .text = text ? text : "", .len = text ? len : 0,
		    .line = 1};
	ir_context_set_diag(c, d);
	p.scratch = arena_create();
	ir_module *m = ir_module_create(c);
	if (!p.scratch || !m) {
		diag_error(d, SRCLOC_NONE, "out of memory");
		arena_destroy(p.scratch);
		return NULL;
	}
	next(&p);
	while (!p.failed && p.tok.kind != TK_EOF)
		parse_func(&p, m);
	ir_ptrmap_free(&p.values);
	ir_ptrmap_free(&p.files);
	arena_destroy(p.scratch);
	return p.failed ? NULL : m;
}
