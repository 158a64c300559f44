/* tune_parse.c: the text formats of autotuning (docs/abi.md, "Autotuning"): integer
 * expressions, configs, the problem spec a user writes (tilecc --tune) and the tuning file
 * the tuner writes (tilecc --tuning). All are line-based: `keyword: value`, '#' starts a
 * comment. Every error is located (file:line:col with a caret) and stops the parse. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/tune.h"

/* ---- expressions ------------------------------------------------------------------------ */

typedef struct xparser {
	arena *a;
	diag_engine *d;
	uint32_t file, line, col0; /* the column of text[0] */
	const char *text;
	size_t len, pos;
	bool failed;
} xparser;

static srcloc xloc(const xparser *p, size_t at, size_t n)
{
	return (srcloc){p->file, p->line, p->col0 + (uint32_t)at, n ? (uint32_t)n : 1};
}

static void xskip(xparser *p)
{
	while (p->pos < p->len && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t'))
		p->pos++;
}

static bool xfail(xparser *p, size_t at, size_t n, const char *msg)
{
	if (!p->failed)
		diag_error(p->d, xloc(p, at, n), "%s", msg);
	p->failed = true;
	return false;
}

/* Takes the operator s (a word operator only when a whole word). */
static bool xeat(xparser *p, const char *s)
{
	xskip(p);
	size_t n = strlen(s);
	if (p->pos + n > p->len || memcmp(p->text + p->pos, s, n))
		return false;
	if (isalpha((unsigned char)s[0]) && p->pos + n < p->len &&
	    (isalnum((unsigned char)p->text[p->pos + n]) || p->text[p->pos + n] == '_'))
		return false;
	if (!strcmp(s, "/") && p->pos + 1 < p->len && p->text[p->pos + 1] == '/')
		return false; /* '/' is not the start of '//' */
	if ((!strcmp(s, "<") || !strcmp(s, ">")) && p->pos + 1 < p->len && p->text[p->pos + 1] == '=')
		return false;
	p->pos += n;
	return true;
}

static tune_expr *xnode(xparser *p, tune_op op, size_t at, size_t n, tune_expr *a, tune_expr *b)
{
	tune_expr *e = arena_alloc(p->a, sizeof *e);
	memset(e, 0, sizeof *e);
	e->op = op;
	e->loc = xloc(p, at, n);
	e->a = a;
	e->b = b;
	return e;
}

static tune_expr *xor_(xparser *p);

static tune_expr *xprimary(xparser *p)
{
	xskip(p);
	size_t at = p->pos;
	if (at >= p->len)
		return xfail(p, at, 1, "expected an expression"), NULL;
	char c = p->text[at];
	if (c == '(') {
		p->pos++;
		tune_expr *e = xor_(p);
		if (!e)
			return NULL;
		if (!xeat(p, ")"))
			return xfail(p, p->pos, 1, "expected ')'"), NULL;
		return e;
	}
	if (isdigit((unsigned char)c)) {
		errno = 0;
		char buf[32];
		size_t n = 0;
		while (p->pos < p->len && isdigit((unsigned char)p->text[p->pos]) && n < sizeof buf - 1)
			buf[n++] = p->text[p->pos++];
		buf[n] = 0;
		if (p->pos < p->len && (isalnum((unsigned char)p->text[p->pos]) || p->text[p->pos] == '.'))
			return xfail(p, at, p->pos - at + 1, "expected an integer"), NULL;
		long long v = strtoll(buf, NULL, 10);
		if (errno)
			return xfail(p, at, n, "integer too large"), NULL;
		tune_expr *e = xnode(p, TX_INT, at, n, NULL, NULL);
		e->ival = v;
		return e;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		while (p->pos < p->len && (isalnum((unsigned char)p->text[p->pos]) || p->text[p->pos] == '_'))
			p->pos++;
		size_t n = p->pos - at;
		const char *name = arena_strndup(p->a, p->text + at, n);
		if (!strcmp(name, "True") || !strcmp(name, "False")) {
			tune_expr *e = xnode(p, TX_INT, at, n, NULL, NULL);
			e->ival = name[0] == 'T';
			return e;
		}
		if (xeat(p, "(")) {
			static const struct {
				const char *name;
				tune_op op;
				int nargs;
			} calls[] = {{"cdiv", TX_CDIV, 2}, {"min", TX_MIN, 2}, {"max", TX_MAX, 2},
				     {"next_power_of_2", TX_NP2, 1}};
			size_t k;
			for (k = 0; k < sizeof calls / sizeof calls[0]; k++)
				if (!strcmp(calls[k].name, name))
					break;
			if (k == sizeof calls / sizeof calls[0])
				return xfail(p, at, n, "unknown function (cdiv, min, max and "
						 "next_power_of_2 are known)"), NULL;
			tune_expr *x = xor_(p), *y = NULL;
			if (!x)
				return NULL;
			if (calls[k].nargs == 2) {
				if (!xeat(p, ","))
					return xfail(p, p->pos, 1, "expected ',' (this function takes two "
						     "arguments)"), NULL;
				if (!(y = xor_(p)))
					return NULL;
			}
			if (!xeat(p, ")"))
				return xfail(p, p->pos, 1, "expected ')'"), NULL;
			return xnode(p, calls[k].op, at, n, x, y);
		}
		tune_expr *e = xnode(p, TX_NAME, at, n, NULL, NULL);
		e->name = name;
		return e;
	}
	return xfail(p, at, 1, "expected a number, a name or '('"), NULL;
}

static tune_expr *xunary(xparser *p)
{
	xskip(p);
	size_t at = p->pos;
	if (xeat(p, "-")) {
		tune_expr *e = xunary(p);
		return e ? xnode(p, TX_NEG, at, 1, e, NULL) : NULL;
	}
	if (xeat(p, "+"))
		return xunary(p);
	return xprimary(p);
}

static tune_expr *xterm(xparser *p)
{
	tune_expr *e = xunary(p);
	while (e) {
		xskip(p);
		size_t at = p->pos;
		tune_op op;
		if (xeat(p, "*"))
			op = TX_MUL;
		else if (xeat(p, "//") || xeat(p, "/"))
			op = TX_FDIV;
		else if (xeat(p, "%"))
			op = TX_MOD;
		else
			break;
		tune_expr *r = xunary(p);
		e = r ? xnode(p, op, at, 1, e, r) : NULL;
	}
	return e;
}

static tune_expr *xsum(xparser *p)
{
	tune_expr *e = xterm(p);
	while (e) {
		xskip(p);
		size_t at = p->pos;
		tune_op op;
		if (xeat(p, "+"))
			op = TX_ADD;
		else if (xeat(p, "-"))
			op = TX_SUB;
		else
			break;
		tune_expr *r = xterm(p);
		e = r ? xnode(p, op, at, 1, e, r) : NULL;
	}
	return e;
}

static tune_expr *xcmp(xparser *p)
{
	tune_expr *e = xsum(p);
	if (!e)
		return NULL;
	static const struct {
		const char *s;
		tune_op op;
	} ops[] = {{"==", TX_EQ}, {"!=", TX_NE}, {"<=", TX_LE}, {">=", TX_GE}, {"<", TX_LT}, {">", TX_GT}};
	xskip(p);
	size_t at = p->pos;
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (xeat(p, ops[k].s)) {
			tune_expr *r = xsum(p);
			return r ? xnode(p, ops[k].op, at, strlen(ops[k].s), e, r) : NULL;
		}
	return e;
}

static tune_expr *xnot(xparser *p)
{
	xskip(p);
	size_t at = p->pos;
	if (xeat(p, "not") || xeat(p, "!")) {
		tune_expr *e = xnot(p);
		return e ? xnode(p, TX_NOT, at, 1, e, NULL) : NULL;
	}
	return xcmp(p);
}

static tune_expr *xand(xparser *p)
{
	tune_expr *e = xnot(p);
	while (e) {
		xskip(p);
		size_t at = p->pos;
		if (!xeat(p, "and") && !xeat(p, "&&"))
			break;
		tune_expr *r = xnot(p);
		e = r ? xnode(p, TX_AND, at, 3, e, r) : NULL;
	}
	return e;
}

static tune_expr *xor_(xparser *p)
{
	tune_expr *e = xand(p);
	while (e) {
		xskip(p);
		size_t at = p->pos;
		if (!xeat(p, "or") && !xeat(p, "||"))
			break;
		tune_expr *r = xand(p);
		e = r ? xnode(p, TX_OR, at, 2, e, r) : NULL;
	}
	return e;
}

tune_expr *tune_parse_expr(arena *a, diag_engine *d, uint32_t file, uint32_t line, uint32_t col,
			   const char *text, size_t len)
{
	xparser p = {.a = a, .d = d, .file = file, .line = line, .col0 = col, .text = text, .len = len};
	tune_expr *e = xor_(&p);
	if (!e)
		return NULL;
	xskip(&p);
	if (p.pos < len) {
		xfail(&p, p.pos, 1, "unexpected text after the expression");
		return NULL;
	}
	return e;
}

int tune_expr_names(const tune_expr *e, const char **names, int n, int cap)
{
	if (!e)
		return n;
	if (e->op == TX_NAME) {
		for (int i = 0; i < n; i++)
			if (!strcmp(names[i], e->name))
				return n;
		if (n < cap)
			names[n++] = e->name;
		return n;
	}
	n = tune_expr_names(e->a, names, n, cap);
	return tune_expr_names(e->b, names, n, cap);
}

/* Python's floor division and modulo on int64, wrapping where C would overflow; 0 for a
 * zero divisor, as the generated C's tt_fdiv and tt_mod give (tune_emit.c). */
static int64_t eval_fdiv(int64_t a, int64_t b)
{
	if (b == 0 || (b == -1 && a == INT64_MIN))
		return b == 0 ? 0 : a;
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t eval_mod(int64_t a, int64_t b)
{
	if (b == 0 || b == -1)
		return 0;
	int64_t r = a % b;
	return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

bool tune_eval(const tune_expr *e, tune_lookup_fn look, void *user, int64_t *out,
	       const tune_expr **unknown)
{
	int64_t a = 0, b = 0;
	if (e->op == TX_INT) {
		*out = e->ival;
		return true;
	}
	if (e->op == TX_NAME) {
		if (look(user, e->name, out))
			return true;
		*unknown = e;
		return false;
	}
	if (!tune_eval(e->a, look, user, &a, unknown))
		return false;
	if (e->b && !tune_eval(e->b, look, user, &b, unknown))
		return false;
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (e->op) {
	case TX_NEG: *out = (int64_t)(0 - ua); break;
	case TX_NOT: *out = !a; break;
	case TX_ADD: *out = (int64_t)(ua + ub); break;
	case TX_SUB: *out = (int64_t)(ua - ub); break;
	case TX_MUL: *out = (int64_t)(ua * ub); break;
	case TX_FDIV: *out = eval_fdiv(a, b); break;
	case TX_MOD: *out = eval_mod(a, b); break;
	case TX_LT: *out = a < b; break;
	case TX_LE: *out = a <= b; break;
	case TX_GT: *out = a > b; break;
	case TX_GE: *out = a >= b; break;
	case TX_EQ: *out = a == b; break;
	case TX_NE: *out = a != b; break;
	case TX_AND: *out = a && b; break;
	case TX_OR: *out = a || b; break;
	case TX_CDIV: *out = (int64_t)(0 - (uint64_t)eval_fdiv((int64_t)(0 - ua), b)); break;
	case TX_MIN: *out = a < b ? a : b; break;
	case TX_MAX: *out = a > b ? a : b; break;
	case TX_NP2: {
		int64_t q = 1;
		while (q < a && q < ((int64_t)1 << 62))
			q <<= 1;
		*out = q;
		break;
	}
	default: *out = 0; break;
	}
	return true;
}

/* ---- lines ------------------------------------------------------------------------------ */

/* One line of a file, without its comment and the blanks around: text[0..len) starts at
 * column col. */
typedef struct line {
	uint32_t no, col;
	const char *text;
	size_t len;
} line;

/* The next non-blank line at or after *pos, or false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, uint32_t *no, line *out)
{
	while (*pos < len) {
		size_t s = *pos, e = s;
		while (e < len && text[e] != '\n')
			e++;
		*pos = e < len ? e + 1 : e;
		(*no)++;
		size_t c = s;
		while (c < e && text[c] != '#')
			c++;
		size_t b = s;
		while (b < c && (text[b] == ' ' || text[b] == '\t' || text[b] == '\r'))
			b++;
		while (c > b && (text[c - 1] == ' ' || text[c - 1] == '\t' || text[c - 1] == '\r'))
			c--;
		if (c == b)
			continue;
		*out = (line){*no, (uint32_t)(b - s) + 1, text + b, c - b};
		return true;
	}
	return false;
}

/* Splits "keyword: value" (keyword of letters, digits, '_' and '-'): false when the line
 * has no such keyword. */
static bool split_keyword(const line *l, const char **kw, size_t *kwlen, line *value)
{
	size_t i = 0;
	while (i < l->len && (isalnum((unsigned char)l->text[i]) || l->text[i] == '_' || l->text[i] == '-'))
		i++;
	size_t k = i;
	while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
		i++;
	if (k == 0 || i >= l->len || l->text[i] != ':')
		return false;
	*kw = l->text;
	*kwlen = k;
	i++;
	while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
		i++;
	*value = (line){l->no, l->col + (uint32_t)i, l->text + i, l->len - i};
	return true;
}

static bool kw_is(const char *kw, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(kw, s, n);
}

static srcloc lloc(uint32_t file, const line *l, size_t at, size_t n)
{
	return (srcloc){file, l->no, l->col + (uint32_t)at, n ? (uint32_t)n : 1};
}

/* A word of identifier characters at l->text[*i]; its length (0: none). */
static size_t ident_at(const line *l, size_t i)
{
	size_t j = i;
	if (j < l->len && (isalpha((unsigned char)l->text[j]) || l->text[j] == '_'))
		while (j < l->len && (isalnum((unsigned char)l->text[j]) || l->text[j] == '_'))
			j++;
	return j - i;
}

/* Space- or comma-separated NAME=VALUE pairs; VALUE is any run without blanks or commas.
 * Calls each(user, name, nlen, value, vlen, at) for each; stops at its false. */
typedef bool (*pair_fn)(void *user, const line *l, size_t name_at, size_t nlen, size_t value_at,
			size_t vlen);

static bool each_pair(arena *a, diag_engine *d, uint32_t file, const line *l, pair_fn each,
		      void *user)
{
	(void)a;
	size_t i = 0;
	while (i < l->len) {
		while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t' || l->text[i] == ','))
			i++;
		if (i >= l->len)
			break;
		size_t n = ident_at(l, i);
		if (!n || i + n >= l->len || l->text[i + n] != '=') {
			diag_error(d, lloc(file, l, i, n ? n : 1), "expected NAME=VALUE");
			return false;
		}
		size_t v = i + n + 1, e = v;
		while (e < l->len && l->text[e] != ' ' && l->text[e] != '\t' && l->text[e] != ',')
			e++;
		if (e == v) {
			diag_error(d, lloc(file, l, v > 0 ? v - 1 : 0, 1), "expected a value after '='");
			return false;
		}
		if (!each(user, l, i, n, v, e - v))
			return false;
		i = e;
	}
	return true;
}

static bool parse_i64(const char *s, size_t n, int64_t *out)
{
	char buf[32];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* "NAME = 16, 32, 64" (or NAME=16,32,64): the values to compile a heuristic for. */
static bool values_of_line(arena *a, diag_engine *d, uint32_t file, const line *l, tune_values *out)
{
	memset(out, 0, sizeof *out);
	size_t n = ident_at(l, 0), i = n;
	while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
		i++;
	if (!n || i >= l->len || l->text[i] != '=') {
		diag_error(d, lloc(file, l, 0, n ? n : 1), "expected NAME = VALUE, VALUE, ... (the "
			   "values to compile a heuristic for)");
		return false;
	}
	out->name = arena_strndup(a, l->text, n);
	out->loc = lloc(file, l, 0, n);
	out->values = arena_alloc(a, sizeof *out->values * (l->len / 2 + 1));
	i++;
	for (;;) {
		while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
			i++;
		size_t s = i;
		while (i < l->len && l->text[i] != ',' && l->text[i] != ' ' && l->text[i] != '\t')
			i++;
		int64_t v;
		if (!parse_i64(l->text + s, i - s, &v)) {
			diag_error(d, lloc(file, l, s, i > s ? i - s : 1), "expected an integer");
			return false;
		}
		out->values[out->n++] = v;
		while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
			i++;
		if (i >= l->len)
			return true;
		if (l->text[i] != ',') {
			diag_error(d, lloc(file, l, i, 1), "expected ',' between the values");
			return false;
		}
		i++;
	}
}

/* ---- configs ---------------------------------------------------------------------------- */

typedef struct config_ctx {
	arena *a;
	diag_engine *d;
	uint32_t file;
	tune_config *c;
	int cap;
} config_ctx;

static bool config_pair(void *user, const line *l, size_t na, size_t nl, size_t va, size_t vl)
{
	config_ctx *x = user;
	tune_config *c = x->c;
	const char *name = arena_strndup(x->a, l->text + na, nl);
	const char *value = arena_strndup(x->a, l->text + va, vl);
	srcloc vloc = lloc(x->file, l, va, vl);
	int64_t v;
	if (!strcmp(name, "num_warps") || !strcmp(name, "num_stages") || !strcmp(name, "num_ctas")) {
		if (!parse_i64(value, vl, &v) || v < 1 || v > 64) {
			diag_error(x->d, vloc, "%s takes a number from 1 to 64", name);
			return false;
		}
		if (name[4] == 'w' && (v & (v - 1))) {
			diag_error(x->d, vloc, "num_warps must be a power of two");
			return false;
		}
		if (name[4] == 'c') {
			if (v != 1) {
				diag_error(x->d, vloc, "num_ctas other than 1 (thread block clusters) is not "
					   "supported");
				return false;
			}
			return true;
		}
		if (name[4] == 'w')
			c->num_warps = (int)v;
		else
			c->num_stages = (int)v;
		return true;
	}
	bool ok = parse_i64(value, vl, &v) || !strcmp(value, "True") || !strcmp(value, "False");
	if (!ok) {
		diag_error(x->d, vloc, "a config value is an integer, True or False");
		return false;
	}
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name)) {
			diag_error(x->d, lloc(x->file, l, na, nl), "'%s' is given twice in this config", name);
			return false;
		}
	if (c->n == x->cap) {
		int cap = x->cap ? 2 * x->cap : 8;
		const char **nn = arena_alloc(x->a, sizeof *nn * (size_t)cap);
		const char **vv = arena_alloc(x->a, sizeof *vv * (size_t)cap);
		if (c->n) {
			memcpy(nn, c->names, sizeof *nn * (size_t)c->n);
			memcpy(vv, c->values, sizeof *vv * (size_t)c->n);
		}
		c->names = nn;
		c->values = vv;
		x->cap = cap;
	}
	c->names[c->n] = name;
	c->values[c->n++] = value;
	return true;
}

const char *tune_config_text(arena *a, const tune_config *c)
{
	strbuf b = {0};
	for (int i = 0; i < c->n; i++)
		strbuf_printf(&b, "%s%s=%s", i ? " " : "", c->names[i], c->values[i]);
	if (c->num_warps)
		strbuf_printf(&b, "%snum_warps=%d", b.len ? " " : "", c->num_warps);
	if (c->num_stages)
		strbuf_printf(&b, "%snum_stages=%d", b.len ? " " : "", c->num_stages);
	const char *s = arena_strndup(a, b.data ? b.data : "", b.len);
	strbuf_free(&b);
	return s;
}

static bool config_of_line(arena *a, diag_engine *d, uint32_t file, const line *l, tune_config *out)
{
	memset(out, 0, sizeof *out);
	out->loc = lloc(file, l, 0, l->len);
	config_ctx x = {a, d, file, out, 0};
	if (!each_pair(a, d, file, l, config_pair, &x))
		return false;
	out->text = tune_config_text(a, out);
	return true;
}

bool tune_parse_config(arena *a, diag_engine *d, uint32_t file, uint32_t lineno, uint32_t col,
		       const char *text, size_t len, tune_config *out)
{
	line l = {lineno, col, text, len};
	return config_of_line(a, d, file, &l, out);
}

/* A growable array in the arena: *n used, *cap allocated, elements of size sz. */
static void *grow(arena *a, void *p, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return p;
	int nc = *cap ? 2 * *cap : 8;
	void *q = arena_alloc(a, sz * (size_t)nc);
	if (n)
		memcpy(q, p, sz * (size_t)n);
	*cap = nc;
	return q;
}

bool tune_parse_values(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		       tune_values **out, int *n)
{
	size_t pos = 0;
	uint32_t no = 0;
	line l;
	int cap = 0;
	*out = NULL;
	*n = 0;
	while (next_line(text, len, &pos, &no, &l)) {
		*out = grow(a, *out, *n, &cap, sizeof **out);
		if (!values_of_line(a, d, file, &l, &(*out)[*n]))
			return false;
		(*n)++;
	}
	return true;
}

bool tune_parse_configs(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
			tune_config **out, int *n)
{
	size_t pos = 0;
	uint32_t no = 0;
	line l;
	int cap = 0;
	*out = NULL;
	*n = 0;
	while (next_line(text, len, &pos, &no, &l)) {
		*out = grow(a, *out, *n, &cap, sizeof **out);
		if (!config_of_line(a, d, file, &l, &(*out)[*n]))
			return false;
		(*n)++;
	}
	if (!*n) {
		diag_error(d, (srcloc){file, 1, 1, 1}, "no configs in this file (one a line: "
			   "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3)");
		return false;
	}
	return true;
}

/* ---- the problem spec ------------------------------------------------------------------- */

/* A comma-separated list of names (key:) into *names. */
static bool name_list(arena *a, diag_engine *d, uint32_t file, const line *v, const char ***names,
		      int *n)
{
	int cap = 0;
	*names = NULL;
	*n = 0;
	size_t i = 0;
	while (i < v->len) {
		while (i < v->len && (v->text[i] == ' ' || v->text[i] == ',' || v->text[i] == '\t'))
			i++;
		if (i >= v->len)
			break;
		size_t k = ident_at(v, i);
		if (!k) {
			diag_error(d, lloc(file, v, i, 1), "expected a parameter name");
			return false;
		}
		*names = grow(a, *names, *n, &cap, sizeof **names);
		(*names)[(*n)++] = arena_strndup(a, v->text + i, k);
		i += k;
	}
	if (!*n) {
		diag_error(d, lloc(file, v, 0, 1), "expected parameter names");
		return false;
	}
	return true;
}

/* A grid: one to three comma-separated expressions, optionally in parentheses. */
static bool grid_exprs(arena *a, diag_engine *d, uint32_t file, const line *v, tune_expr **grid,
		       int *n)
{
	size_t s = 0, e = v->len;
	if (e >= 2 && v->text[0] == '(' && v->text[e - 1] == ')') {
		/* (x, y): parentheses around the whole list, not around the first expression */
		int depth = 0;
		bool whole = true;
		for (size_t i = 0; i < e; i++) {
			depth += (v->text[i] == '(') - (v->text[i] == ')');
			if (depth == 0 && i < e - 1)
				whole = false;
		}
		if (whole) {
			s = 1;
			e--;
		}
	}
	*n = 0;
	size_t i = s;
	while (i <= e) {
		while (i < e && (v->text[i] == ' ' || v->text[i] == '\t'))
			i++;
		size_t j = i;
		int depth = 0;
		while (j < e && (v->text[j] != ',' || depth)) {
			depth += (v->text[j] == '(') - (v->text[j] == ')');
			j++;
		}
		if (*n == 3) {
			diag_error(d, lloc(file, v, i, j - i), "a grid has at most three dimensions");
			return false;
		}
		tune_expr *x = tune_parse_expr(a, d, file, v->no, v->col + (uint32_t)i, v->text + i, j - i);
		if (!x)
			return false;
		grid[(*n)++] = x;
		i = j + 1;
	}
	return true;
}

typedef struct problem_ctx {
	arena *a;
	diag_engine *d;
	uint32_t file;
	tune_problem *p;
	int cap;
} problem_ctx;

static bool problem_pair(void *user, const line *l, size_t na, size_t nl, size_t va, size_t vl)
{
	problem_ctx *x = user;
	tune_problem *p = x->p;
	const char *name = arena_strndup(x->a, l->text + na, nl);
	int64_t v;
	if (!parse_i64(l->text + va, vl, &v)) {
		diag_error(x->d, lloc(x->file, l, va, vl), "a problem gives integer values");
		return false;
	}
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->names[i], name)) {
			diag_error(x->d, lloc(x->file, l, na, nl), "'%s' is given twice in this problem", name);
			return false;
		}
	if (p->n == x->cap) {
		int cap = x->cap ? 2 * x->cap : 8;
		const char **nn = arena_alloc(x->a, sizeof *nn * (size_t)cap);
		int64_t *vv = arena_alloc(x->a, sizeof *vv * (size_t)cap);
		srcloc *ll = arena_alloc(x->a, sizeof *ll * (size_t)cap);
		if (p->n) {
			memcpy(nn, p->names, sizeof *nn * (size_t)p->n);
			memcpy(vv, p->values, sizeof *vv * (size_t)p->n);
			memcpy(ll, p->locs, sizeof *ll * (size_t)p->n);
		}
		p->names = nn;
		p->values = vv;
		p->locs = ll;
		x->cap = cap;
	}
	p->names[p->n] = name;
	p->locs[p->n] = lloc(x->file, l, na, nl + 1 + vl);
	p->values[p->n++] = v;
	return true;
}

static bool problem_of_line(arena *a, diag_engine *d, uint32_t file, const line *v, tune_problem *p)
{
	memset(p, 0, sizeof *p);
	p->loc = lloc(file, v, 0, v->len);
	problem_ctx x = {a, d, file, p, 0};
	if (!each_pair(a, d, file, v, problem_pair, &x))
		return false;
	if (!p->n) {
		diag_error(d, p->loc, "a problem gives NAME=VALUE pairs");
		return false;
	}
	return true;
}

bool tune_parse_spec(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		     tune_spec *out)
{
	memset(out, 0, sizeof *out);
	out->file = file;
	out->warmup_ms = 25;
	out->rep_ms = 100;
	out->flush_l2 = true;
	size_t pos = 0;
	uint32_t no = 0;
	line l, v;
	int bcap = 0, pcap = 0, hcap = 0;
	const char *kw;
	size_t kl;
	while (next_line(text, len, &pos, &no, &l)) {
		if (!split_keyword(&l, &kw, &kl, &v)) {
			diag_error(d, lloc(file, &l, 0, l.len), "expected 'NAME: value' (grid:, key:, "
				   "problem:, heuristic:, warmup_ms:, rep_ms:, flush_l2:, or a kernel "
				   "parameter)");
			return false;
		}
		if (!v.len) {
			diag_error(d, lloc(file, &l, kl, 1), "'%.*s:' needs a value", (int)kl, kw);
			return false;
		}
		if (kw_is(kw, kl, "grid")) {
			if (out->ngrid) {
				diag_error(d, lloc(file, &l, 0, kl), "the grid is given twice");
				return false;
			}
			out->grid_loc = lloc(file, &v, 0, v.len);
			out->grid_text = arena_strndup(a, v.text, v.len);
			if (!grid_exprs(a, d, file, &v, out->grid, &out->ngrid))
				return false;
		} else if (kw_is(kw, kl, "key")) {
			out->key_loc = lloc(file, &v, 0, v.len);
			if (!name_list(a, d, file, &v, &out->key, &out->nkey))
				return false;
		} else if (kw_is(kw, kl, "problem")) {
			out->probs = grow(a, out->probs, out->nprob, &pcap, sizeof *out->probs);
			if (!problem_of_line(a, d, file, &v, &out->probs[out->nprob]))
				return false;
			out->nprob++;
		} else if (kw_is(kw, kl, "warmup_ms") || kw_is(kw, kl, "rep_ms")) {
			int64_t x;
			if (!parse_i64(v.text, v.len, &x) || x < 0 || x > 100000) {
				diag_error(d, lloc(file, &v, 0, v.len), "expected milliseconds, 0 to 100000");
				return false;
			}
			*(kw[0] == 'w' ? &out->warmup_ms : &out->rep_ms) = x;
		} else if (kw_is(kw, kl, "heuristic")) {
			out->hvals = grow(a, out->hvals, out->nhval, &hcap, sizeof *out->hvals);
			if (!values_of_line(a, d, file, &v, &out->hvals[out->nhval]))
				return false;
			out->nhval++;
		} else if (kw_is(kw, kl, "flush_l2")) {
			bool t = v.len == 4 && !memcmp(v.text, "True", 4);
			if (!t && !(v.len == 5 && !memcmp(v.text, "False", 5))) {
				diag_error(d, lloc(file, &v, 0, v.len), "expected True or False");
				return false;
			}
			out->flush_l2 = t;
		} else {
			if (!ident_at(&l, 0) || ident_at(&l, 0) != kl) {
				diag_error(d, lloc(file, &l, 0, kl), "'%.*s' is not a parameter name", (int)kl, kw);
				return false;
			}
			const char *name = arena_strndup(a, kw, kl);
			for (int i = 0; i < out->nbind; i++)
				if (!strcmp(out->binds[i].name, name)) {
					diag_error(d, lloc(file, &l, 0, kl), "'%s' is given twice", name);
					diag_note(d, out->binds[i].loc, "first given here");
					return false;
				}
			tune_expr *e = tune_parse_expr(a, d, file, v.no, v.col, v.text, v.len);
			if (!e)
				return false;
			out->binds = grow(a, out->binds, out->nbind, &bcap, sizeof *out->binds);
			out->binds[out->nbind++] = (tune_binding){name, lloc(file, &l, 0, kl), e};
		}
	}
	if (!out->ngrid) {
		diag_error(d, (srcloc){file, no ? no : 1, 1, 1}, "the spec has no 'grid:' line (the "
			   "launch grid, e.g. grid: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N))");
		return false;
	}
	if (!out->nprob) {
		diag_error(d, (srcloc){file, no ? no : 1, 1, 1}, "the spec has no 'problem:' line (the "
			   "sizes to tune at, e.g. problem: M=512 N=512 K=512)");
		return false;
	}
	return true;
}

/* ---- the tuning file -------------------------------------------------------------------- */

/* "M=512 N=512 K=512 -> 3 0.0123": the key's values, the config, its milliseconds. */
static bool best_of_line(arena *a, diag_engine *d, uint32_t file, const line *v, const tune_file *t,
			 tune_best *b)
{
	memset(b, 0, sizeof *b);
	b->loc = lloc(file, v, 0, v->len);
	const char *arrow = NULL;
	for (size_t i = 0; i + 1 < v->len; i++)
		if (v->text[i] == '-' && v->text[i + 1] == '>') {
			arrow = v->text + i;
			break;
		}
	if (!arrow) {
		diag_error(d, b->loc, "expected 'KEY=VALUE ... -> CONFIG MILLISECONDS'");
		return false;
	}
	size_t at = (size_t)(arrow - v->text);
	line lhs = {v->no, v->col, v->text, at};
	while (lhs.len && lhs.text[lhs.len - 1] == ' ')
		lhs.len--;
	tune_problem p;
	if (!problem_of_line(a, d, file, &lhs, &p))
		return false;
	if (!t->nkey) {
		diag_error(d, b->loc, "a 'best:' line before the 'key:' line");
		return false;
	}
	b->values = arena_alloc(a, sizeof *b->values * (size_t)t->nkey);
	for (int k = 0; k < t->nkey; k++) {
		int j;
		for (j = 0; j < p.n; j++)
			if (!strcmp(p.names[j], t->key[k]))
				break;
		if (j == p.n) {
			diag_error(d, lloc(file, &lhs, 0, lhs.len), "no value for the key '%s'", t->key[k]);
			return false;
		}
		b->values[k] = p.values[j];
	}
	for (int j = 0; j < p.n; j++) {
		int k;
		for (k = 0; k < t->nkey; k++)
			if (!strcmp(p.names[j], t->key[k]))
				break;
		if (k == t->nkey) {
			diag_error(d, p.locs[j], "'%s' is not in the key", p.names[j]);
			return false;
		}
	}
	/* the config and the time */
	size_t i = at + 2;
	while (i < v->len && v->text[i] == ' ')
		i++;
	size_t s = i;
	while (i < v->len && v->text[i] != ' ')
		i++;
	int64_t c;
	if (!parse_i64(v->text + s, i - s, &c) || c < 0 || c >= t->nconfig) {
		diag_error(d, lloc(file, v, s, i > s ? i - s : 1),
			   "expected the index of a config (0 to %d) given by a 'config:' line above",
			   t->nconfig - 1);
		return false;
	}
	b->config = (int)c;
	while (i < v->len && v->text[i] == ' ')
		i++;
	s = i;
	while (i < v->len && v->text[i] != ' ')
		i++;
	char buf[40];
	char *end = NULL;
	if (i - s > 0 && i - s < sizeof buf) {
		memcpy(buf, v->text + s, i - s);
		buf[i - s] = 0;
		b->ms = strtod(buf, &end);
	}
	if (!end || *end || i == s || b->ms < 0) {
		diag_error(d, lloc(file, v, s, i > s ? i - s : 1), "expected the winner's time in "
			   "milliseconds");
		return false;
	}
	if (i < v->len) {
		diag_error(d, lloc(file, v, i, v->len - i), "unexpected text after the time");
		return false;
	}
	return true;
}

bool tune_parse_file(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		     tune_file *out)
{
	memset(out, 0, sizeof *out);
	out->file = file;
	out->default_config = -1;
	size_t pos = 0;
	uint32_t no = 0;
	line l, v;
	int ccap = 0, bcap = 0, dcap = 0, hcap = 0;
	bool format = false;
	const char *kw;
	size_t kl;
	while (next_line(text, len, &pos, &no, &l)) {
		if (!split_keyword(&l, &kw, &kl, &v)) {
			diag_error(d, lloc(file, &l, 0, l.len), "expected 'keyword: value' (a tuning file "
				   "is written by the tuner of tilecc --tune; docs/abi.md, \"Autotuning\")");
			return false;
		}
		srcloc vl = lloc(file, &v, 0, v.len);
		const char *val = arena_strndup(a, v.text, v.len);
		if (!format && !kw_is(kw, kl, "format")) {
			diag_error(d, lloc(file, &l, 0, kl), "a tuning file starts with 'format: %d'",
				   TUNE_FORMAT_VERSION);
			return false;
		}
		const char **field = NULL;
		srcloc *floc = NULL;
		if (kw_is(kw, kl, "format")) {
			int64_t x;
			if (format || !parse_i64(v.text, v.len, &x) || x != TUNE_FORMAT_VERSION) {
				diag_error(d, format ? lloc(file, &l, 0, kl) : vl, format ? "'format:' is given twice"
					   : "unknown tuning file format (this tilecc reads format %d)",
					   TUNE_FORMAT_VERSION);
				return false;
			}
			format = true;
			continue;
		} else if (kw_is(kw, kl, "compiler")) {
			field = &out->compiler, floc = &out->compiler_loc;
		} else if (kw_is(kw, kl, "kernel")) {
			field = &out->kernel, floc = &out->kernel_loc;
		} else if (kw_is(kw, kl, "target")) {
			field = &out->target, floc = &out->target_loc;
		} else if (kw_is(kw, kl, "signature")) {
			field = &out->signature, floc = &out->signature_loc;
		} else if (kw_is(kw, kl, "source")) {
			field = &out->source_hash, floc = &out->source_loc;
		} else if (kw_is(kw, kl, "define")) {
			out->defines = grow(a, out->defines, out->ndefine, &dcap, sizeof *out->defines);
			out->defines[out->ndefine++] = val;
			out->define_loc = vl;
			continue;
		} else if (kw_is(kw, kl, "key")) {
			if (out->nkey) {
				diag_error(d, lloc(file, &l, 0, kl), "'key:' is given twice");
				return false;
			}
			out->key_loc = vl;
			if (!name_list(a, d, file, &v, &out->key, &out->nkey))
				return false;
			continue;
		} else if (kw_is(kw, kl, "grid")) {
			if (out->ngrid) {
				diag_error(d, lloc(file, &l, 0, kl), "'grid:' is given twice");
				return false;
			}
			out->grid_text = val;
			out->grid_loc = vl;
			if (!grid_exprs(a, d, file, &v, out->grid, &out->ngrid))
				return false;
			continue;
		} else if (kw_is(kw, kl, "config")) {
			out->configs = grow(a, out->configs, out->nconfig, &ccap, sizeof *out->configs);
			if (!config_of_line(a, d, file, &v, &out->configs[out->nconfig]))
				return false;
			out->nconfig++;
			continue;
		} else if (kw_is(kw, kl, "best")) {
			out->best = grow(a, out->best, out->nbest, &bcap, sizeof *out->best);
			if (!best_of_line(a, d, file, &v, out, &out->best[out->nbest]))
				return false;
			out->nbest++;
			continue;
		} else if (kw_is(kw, kl, "heuristic")) {
			out->hvals = grow(a, out->hvals, out->nhval, &hcap, sizeof *out->hvals);
			if (!values_of_line(a, d, file, &v, &out->hvals[out->nhval]))
				return false;
			out->nhval++;
			continue;
		} else if (kw_is(kw, kl, "default")) {
			int64_t x;
			if (!parse_i64(v.text, v.len, &x) || x < 0 || x >= out->nconfig) {
				diag_error(d, vl, "expected the index of a config (0 to %d) given by a "
					   "'config:' line above", out->nconfig - 1);
				return false;
			}
			out->default_config = (int)x;
			out->default_loc = vl;
			continue;
		} else {
			diag_error(d, lloc(file, &l, 0, kl), "unknown keyword '%.*s' in a tuning file",
				   (int)kl, kw);
			return false;
		}
		if (*field) {
			diag_error(d, lloc(file, &l, 0, kl), "'%.*s:' is given twice", (int)kl, kw);
			return false;
		}
		*field = val;
		*floc = vl;
	}
	srcloc end = {file, no ? no : 1, 1, 1};
	if (!format) {
		diag_error(d, end, "empty tuning file (it starts with 'format: %d')", TUNE_FORMAT_VERSION);
		return false;
	}
	static const char *const need[] = {"compiler", "kernel", "target", "signature", "key", "grid",
					   "config"};
	bool have[] = {out->compiler, out->kernel, out->target, out->signature, out->nkey, out->ngrid,
		       out->nconfig};
	for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
		if (!have[k]) {
			diag_error(d, end, "the tuning file has no '%s:' line", need[k]);
			return false;
		}
	return true;
}

const char *tune_source_hash(arena *a, const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 0x100000001b3ull;
	}
	return arena_printf(a, "%016llx", (unsigned long long)h);
}
