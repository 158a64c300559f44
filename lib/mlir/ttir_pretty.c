/* ttir_pretty.c: the tt dialect's pretty syntax, as Triton prints TTIR, rewritten into MLIR's
 * generic op form, which is the only form MLIR parses for an unregistered dialect. A text
 * pass before MLIR's parser (import.c), line by line: a line whose op is a bare tt.NAME is
 * rewritten on the same line, every other line is copied, so MLIR's line numbers stay the
 * file's. The ops it knows, with the syntax it reads (Triton 3.x's assembly formats):
 *
 *   tt.func [public|private] @f(%a: T {attrs} loc(..), ...) [attributes {...}] {  ...  }
 *   tt.return
 *   %r = tt.get_program_id x|y|z : i32            (and tt.get_num_programs)
 *   %r = tt.make_range {end = N : i32, start = M : i32} : T
 *   %r = tt.splat|broadcast|expand_dims|reshape|trans|bitcast|int_to_ptr|ptr_to_int
 *            %x [words] [{attrs}] : T1 -> T2
 *   %r = tt.join %a, %b : T1 -> T2             %r:2 = tt.split %x : T1 -> T2
 *   %r = tt.addptr %p, %o : T1, T2
 *   %r = tt.load %p[, %m[, %o]] [cacheModifier = c] [evictionPolicy = e] [{attrs}] : T
 *   tt.store %p, %v[, %m] [cacheModifier = c] [evictionPolicy = e] [{attrs}] : T
 *   %r = tt.dot %a, %b, %c[, inputPrecision = p][, maxNumImpreciseAcc = n] : Ta * Tb -> Tc
 *   tt.reduce.return %x, ... : T, ...           (tt.scan.return the same)
 *   %r = tt.mulhiui %a, %b : T
 *   tt.assert %c, "message" : T
 *   %r = tt.atomic_rmw KIND, SEM, SCOPE, %p, %v[, %m] : (T, T[, T]) -> T
 *   %r = tt.atomic_cas SEM, SCOPE, %p, %cmp, %v : (T, T, T) -> T
 *
 * and two ops of other dialects, whose dialects MLIR does not load here:
 *
 *   gpu.barrier                                 (tl.debug_barrier)
 *   llvm.intr.assume %c : i1                    (tl.assume; read and left out)
 *
 * tt.reduce and tt.scan have no pretty form (Triton prints them generic). Any other bare tt
 * op is an error at its name, never a crash: MLIR could not parse it either. Values, types
 * and locations (loc(#loc3), #loc aliases) pass through untouched. */
#include <stdlib.h>
#include <string.h>

#include "mlir/ttir.h"

typedef struct conv {
	diag_engine *d;
	uint32_t file;
	uint32_t line;      /* 1-based, of the line being rewritten */
	const char *lstart; /* its first character */
	bool failed;
} conv;

/* a span of the line */
typedef struct span {
	const char *p;
	size_t n;
} span;

static void error_at(conv *c, const char *at, size_t n, const char *msg, span name)
{
	if (c->failed)
		return;
	c->failed = true;
	diag_error(c->d, (srcloc){c->file, c->line, (uint32_t)(at - c->lstart) + 1, (uint32_t)(n ? n : 1)},
		   msg, (int)name.n, name.p);
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The end of a balanced run from p that stops at a top-level character of `stops` (or at
 * e): brackets (), <>, [], {} nest, strings are skipped, '->' is no bracket. */
static const char *balanced(const char *p, const char *e, const char *stops)
{
	int depth = 0;
	char prev = 0;
	for (; p < e; prev = *p, p++) {
		char ch = *p;
		if (!depth && strchr(stops, ch))
			return p;
		if (ch == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\')
					p++;
		} else if (ch == '(' || ch == '[' || ch == '{' || ch == '<') {
			depth++;
		} else if (ch == '>' && prev == '-') {
			/* '->' */
		} else if (ch == ')' || ch == ']' || ch == '}' || ch == '>') {
			if (!depth)
				return p;
			depth--;
		}
	}
	return p;
}

static span trim(const char *p, const char *e)
{
	p = skip_ws(p, e);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return (span){p, (size_t)(e - p)};
}

/* Splits p..e at top-level commas into at most max spans; returns how many. */
static int split(const char *p, const char *e, span *out, int max)
{
	int n = 0;
	while (p < e && n < max) {
		const char *q = balanced(p, e, ",");
		out[n++] = trim(p, q);
		p = q < e ? q + 1 : q;
	}
	return n;
}

static bool starts(span s, const char *w)
{
	size_t n = strlen(w);
	return s.n >= n && !memcmp(s.p, w, n);
}

/* The pointee of a pointer type or of a tensor of pointers: !tt.ptr<E> -> E,
 * tensor<4x!tt.ptr<E>> -> tensor<4xE>. */
static bool pointee(strbuf *b, span t)
{
	const char *p = t.p, *e = t.p + t.n;
	const char *q = strstr(p, "!tt.ptr<");
	if (!q || q >= e)
		return false;
	strbuf_putn(b, p, (size_t)(q - p));
	const char *in = q + 8;
	const char *end = balanced(in, e, ",>");
	strbuf_putn(b, in, (size_t)(end - in));
	const char *close = balanced(in, e, ">");
	if (close >= e)
		return false;
	strbuf_putn(b, close + 1, (size_t)(e - close - 1));
	return true;
}

/* i1 in the shape of t: tensor<4x8x...> -> tensor<4x8xi1>, a scalar -> i1. */
static void mask_of(strbuf *b, span t)
{
	if (!starts(t, "tensor<")) {
		strbuf_puts(b, "i1");
		return;
	}
	const char *p = t.p + 7, *e = t.p + t.n;
	while (p < e && ((*p >= '0' && *p <= '9') || *p == 'x')) {
		const char *q = p;
		while (q < e && *q >= '0' && *q <= '9')
			q++;
		if (q >= e || *q != 'x' || q == p)
			break;
		p = q + 1;
	}
	strbuf_putn(b, t.p, (size_t)(p - t.p));
	strbuf_puts(b, "i1>");
}

static void put(strbuf *b, span s)
{
	strbuf_putn(b, s.p, s.n);
}

/* '"NAME"(ops) {attrs} : (types) -> results' */
static void emit_generic(strbuf *b, span name, const span *ops, int nops, const char *attrs,
			 const strbuf *optypes, const char *results)
{
	strbuf_putc(b, '"');
	put(b, name);
	strbuf_puts(b, "\"(");
	for (int i = 0; i < nops; i++) {
		strbuf_puts(b, i ? ", " : "");
		put(b, ops[i]);
	}
	strbuf_putc(b, ')');
	if (attrs && *attrs)
		strbuf_printf(b, " {%s}", attrs);
	strbuf_puts(b, " : (");
	if (optypes->data)
		strbuf_putn(b, optypes->data, optypes->len);
	strbuf_printf(b, ") -> %s", results);
}

/* Reads 'word = value' options (cacheModifier = ca) and bare words (allow_reorder) and an
 * attribute dict from s, appending them to attrs in generic spelling. */
static void options(strbuf *attrs, span s)
{
	static const char *const caches[] = {"", "none", "ca", "cg", "wb", "cs", "wt", "cv"};
	static const char *const evicts[] = {"", "evict_normal", "evict_first", "evict_last"};
	static const char *const precs[] = {"tf32", "tf32x3", "ieee"};
	span parts[16];
	int n = split(s.p, s.p + s.n, parts, 16);
	for (int i = 0; i < n; i++) {
		span w = parts[i];
		if (!w.n)
			continue;
		if (w.p[0] == '{') {
			span in = trim(w.p + 1, w.p + w.n - 1);
			if (in.n) {
				strbuf_puts(attrs, attrs->len ? ", " : "");
				put(attrs, in);
			}
			continue;
		}
		const char *eq = memchr(w.p, '=', w.n);
		strbuf_puts(attrs, attrs->len ? ", " : "");
		if (!eq) {
			put(attrs, w);
			continue;
		}
		span key = trim(w.p, eq), val = trim(eq + 1, w.p + w.n);
		const char *const *tab = NULL;
		int ntab = 0;
		const char *gname = NULL;
		if (starts(key, "cacheModifier"))
			tab = caches, ntab = 8, gname = "cache";
		else if (starts(key, "evictionPolicy"))
			tab = evicts, ntab = 4, gname = "evict";
		else if (starts(key, "inputPrecision"))
			tab = precs, ntab = 3, gname = "inputPrecision";
		int k = -1;
		for (int j = 0; j < ntab; j++)
			if (strlen(tab[j]) == val.n && !memcmp(tab[j], val.p, val.n))
				k = j;
		if (gname && k >= 0)
			strbuf_printf(attrs, "%s = %d : i32", gname, k);
		else if (val.n && val.p[0] >= '0' && val.p[0] <= '9' && !memchr(val.p, ':', val.n))
			strbuf_printf(attrs, "%.*s = %.*s : i32", (int)key.n, key.p, (int)val.n, val.p);
		else
			put(attrs, w);
	}
}

/* Reads the operands at the start of s (%a, %b, ...); returns how many; *rest: after them. */
static int operands(span s, span *ops, int max, span *rest)
{
	const char *p = s.p, *e = s.p + s.n;
	int n = 0;
	for (;;) {
		p = skip_ws(p, e);
		if (p >= e || *p != '%' || n == max)
			break;
		const char *q = p + 1;
		while (q < e && *q != ',' && *q != ' ' && *q != ':' && *q != '{')
			q++;
		ops[n++] = (span){p, (size_t)(q - p)};
		p = skip_ws(q, e);
		if (p < e && *p == ',' && skip_ws(p + 1, e) < e && *skip_ws(p + 1, e) == '%')
			p++;
		else
			break;
	}
	*rest = trim(p, e);
	return n;
}

/* The index of word w in the NULL-ended names, or -1. */
static int word_in(span w, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == w.n && !memcmp(names[i], w.p, w.n))
			return i;
	return -1;
}

/* tt.atomic_rmw KIND, SEM, SCOPE, %p, %v[, %m] [{attrs}] : (T...) -> T
 * tt.atomic_cas SEM, SCOPE, %p, %cmp, %v [{attrs}] : (T...) -> T
 * Triton's enum words become the tile IR's strings (kind, sem, scope; exch is xchg). */
static bool rewrite_atomic(conv *c, strbuf *b, span name, span body, bool rmw)
{
	static const char *const kinds[] = {"and", "or",   "xor",  "add",  "fadd",
					    "max", "min", "umax", "umin", "exch", NULL};
	static const char *const sems[] = {"relaxed", "acquire", "release", "acq_rel", NULL};
	static const char *const scopes[] = {"gpu", "cta", "sys", NULL};
	const char *e = body.p + body.n;
	const char *colon = balanced(body.p, e, ":");
	span parts[8];
	int np = split(body.p, colon, parts, 8);
	int nw = rmw ? 3 : 2, nops = np - nw;
	span dict = {NULL, 0};
	if (nops > 0) {
		/* an attribute dict after the last operand: '%m {a = 1}' */
		span *last = &parts[np - 1];
		const char *br = memchr(last->p, '{', last->n);
		if (br) {
			dict = trim(br, last->p + last->n);
			*last = trim(last->p, br);
		}
	}
	if (colon >= e || nops < (rmw ? 2 : 3) || nops > 3) {
		error_at(c, name.p, name.n, "malformed '%.*s' (docs/ir.md, \"TTIR\", gives the syntax "
			 "tilecc reads)", name);
		return false;
	}
	int k = rmw ? word_in(parts[0], kinds) : 0;
	int sem = word_in(parts[nw - 2], sems), scope = word_in(parts[nw - 1], scopes);
	span bad = k < 0 ? parts[0] : sem < 0 ? parts[nw - 2] : parts[nw - 1];
	if (k < 0 || sem < 0 || scope < 0) {
		error_at(c, bad.p, bad.n, "unknown word '%.*s' in an atomic (docs/ir.md, \"TTIR\")",
			 bad);
		return false;
	}
	for (int i = nw; i < np; i++)
		if (!parts[i].n || parts[i].p[0] != '%') {
			error_at(c, parts[i].p, parts[i].n, "expected an operand, found '%.*s'",
				 parts[i]);
			return false;
		}
	/* the functional type: (T, T, T) -> T */
	span ty = trim(colon + 1, e);
	const char *arrow = strstr(ty.p, "->");
	if (!ty.n || ty.p[0] != '(' || !arrow || arrow >= e) {
		error_at(c, name.p, name.n, "malformed '%.*s' (docs/ir.md, \"TTIR\", gives the syntax "
			 "tilecc reads)", name);
		return false;
	}
	const char *tclose = balanced(ty.p + 1, arrow, ")");
	strbuf attrs = {0}, types = {0};
	if (rmw)
		strbuf_printf(&attrs, "kind = \"%s\", ", k == 9 ? "xchg" : kinds[k]);
	strbuf_printf(&attrs, "sem = \"%s\", scope = \"%s\"", sems[sem], scopes[scope]);
	if (dict.n > 2) {
		span in = trim(dict.p + 1, dict.p + dict.n - 1);
		if (in.n) {
			strbuf_puts(&attrs, ", ");
			put(&attrs, in);
		}
	}
	strbuf_putn(&types, ty.p + 1, (size_t)(tclose - ty.p - 1));
	span res = trim(arrow + 2, e);
	strbuf r = {0};
	put(&r, res);
	emit_generic(b, name, parts + nw, nops, attrs.data, &types, r.data ? r.data : "()");
	strbuf_free(&attrs);
	strbuf_free(&types);
	strbuf_free(&r);
	return true;
}

/* One tt op in pretty form (name, then body up to the location) into generic form. */
static bool rewrite_op(conv *c, strbuf *b, span name, span body)
{
	span ops[8], rest;
	int nops = operands(body, ops, 8, &rest);
	strbuf attrs = {0}, types = {0}, res = {0};
	bool ok = true;
	/* the options and attributes end at the top-level ':' */
	const char *colon = balanced(rest.p, rest.p + rest.n, ":");
	span opts = trim(rest.p, colon);
	span ty = colon < rest.p + rest.n ? trim(colon + 1, rest.p + rest.n) : (span){NULL, 0};
	const char *n = name.p + 3;
	size_t nn = name.n - 3;
#define IS(w) (nn == strlen(w) && !memcmp(n, w, nn))
	if (IS("get_program_id") || IS("get_num_programs")) {
		if (opts.n == 1 && (opts.p[0] == 'x' || opts.p[0] == 'y' || opts.p[0] == 'z'))
			strbuf_printf(&attrs, "axis = %d : i32", opts.p[0] - 'x');
		else
			options(&attrs, opts);
		strbuf_printf(&res, "%.*s", (int)ty.n, ty.p);
	} else if (IS("make_range")) {
		options(&attrs, opts);
		strbuf_printf(&res, "%.*s", (int)ty.n, ty.p);
	} else if (IS("splat") || IS("broadcast") || IS("expand_dims") || IS("reshape") ||
		   IS("trans") || IS("bitcast") || IS("int_to_ptr") || IS("ptr_to_int") ||
		   IS("join") || IS("split")) {
		const char *arrow = strstr(ty.p ? ty.p : "", "->");
		if (!ty.p || !arrow || arrow >= ty.p + ty.n || nops < 1) {
			ok = false;
		} else {
			span t1 = trim(ty.p, arrow), t2 = trim(arrow + 2, ty.p + ty.n);
			options(&attrs, opts);
			for (int i = 0; i < nops; i++) {
				strbuf_puts(&types, i ? ", " : "");
				put(&types, t1);
			}
			if (IS("split"))
				strbuf_printf(&res, "(%.*s, %.*s)", (int)t2.n, t2.p, (int)t2.n, t2.p);
			else
				put(&res, t2);
		}
	} else if (IS("addptr") || IS("mulhiui")) {
		span ts[2];
		int nt = ty.p ? split(ty.p, ty.p + ty.n, ts, 2) : 0;
		if (nops != 2 || nt < 1) {
			ok = false;
		} else {
			options(&attrs, opts);
			strbuf_printf(&types, "%.*s, %.*s", (int)ts[0].n, ts[0].p,
				      (int)ts[nt - 1].n, ts[nt - 1].p);
			put(&res, ts[0]);
		}
	} else if (IS("load") || IS("store")) {
		bool load = IS("load");
		if (!ty.p || nops < (load ? 1 : 2) || nops > 3) {
			ok = false;
		} else {
			options(&attrs, opts);
			strbuf pt = {0};
			ok = pointee(&pt, ty);
			put(&types, ty);
			for (int i = 1; ok && i < nops; i++) {
				strbuf_puts(&types, ", ");
				if (load ? i == 1 : i == 2)
					mask_of(&types, ty);
				else
					strbuf_putn(&types, pt.data, pt.len);
			}
			if (ok && load)
				strbuf_putn(&res, pt.data, pt.len);
			else
				strbuf_puts(&res, "()");
			strbuf_free(&pt);
		}
	} else if (IS("dot")) {
		const char *star = ty.p ? balanced(ty.p, ty.p + ty.n, "*") : NULL;
		const char *arrow = star ? strstr(star, "->") : NULL;
		if (nops != 3 || !star || star >= ty.p + ty.n || !arrow || arrow >= ty.p + ty.n) {
			ok = false;
		} else {
			span ta = trim(ty.p, star), tb = trim(star + 1, arrow),
			     tc = trim(arrow + 2, ty.p + ty.n);
			/* the options follow the operands after a comma: ", inputPrecision = tf32" */
			if (opts.n && opts.p[0] == ',')
				opts = trim(opts.p + 1, opts.p + opts.n);
			options(&attrs, opts);
			strbuf_printf(&types, "%.*s, %.*s, %.*s", (int)ta.n, ta.p, (int)tb.n, tb.p,
				      (int)tc.n, tc.p);
			put(&res, tc);
		}
	} else if (IS("reduce.return") || IS("scan.return") || IS("return")) {
		span ts[8];
		int nt = ty.p ? split(ty.p, ty.p + ty.n, ts, 8) : 0;
		if (nt != nops || opts.n) {
			ok = false;
		} else {
			for (int i = 0; i < nt; i++) {
				strbuf_puts(&types, i ? ", " : "");
				put(&types, ts[i]);
			}
			strbuf_puts(&res, "()");
		}
	} else if (IS("atomic_rmw") || IS("atomic_cas")) {
		ok = rewrite_atomic(c, b, name, body, IS("atomic_rmw"));
		goto out;
	} else if (IS("assert")) {
		/* tt.assert %c, "message" : T */
		span parts[2];
		int np = split(body.p, body.p + body.n, parts, 2);
		const char *tcolon = np == 2 ? balanced(parts[1].p, parts[1].p + parts[1].n, ":") : NULL;
		if (np != 2 || nops != 1 || !tcolon || tcolon >= parts[1].p + parts[1].n) {
			ok = false;
		} else {
			span msg = trim(parts[1].p, tcolon);
			ty = trim(tcolon + 1, parts[1].p + parts[1].n);
			strbuf_printf(&attrs, "message = %.*s", (int)msg.n, msg.p);
			put(&types, ty);
			strbuf_puts(&res, "()");
		}
	} else {
		error_at(c, name.p, name.n, "tilecc does not read '%.*s' in pretty form (write it in "
			 "MLIR's generic form, or see docs/ir.md, \"TTIR\", for the ops it reads)", name);
		ok = false;
		goto out;
	}
#undef IS
	if (!ok) {
		error_at(c, name.p, name.n, "malformed '%.*s' (docs/ir.md, \"TTIR\", gives the syntax "
			 "tilecc reads)", name);
		goto out;
	}
	emit_generic(b, name, ops, nops, attrs.data, &types, res.data ? res.data : "()");
out:
	strbuf_free(&attrs);
	strbuf_free(&types);
	strbuf_free(&res);
	return ok;
}

/* tt.func [public|private] @NAME(ARGS) [-> ...] [attributes {...}] {
 * -> "tt.func"() ({^bb0(ARGS without their attributes):    and the attribute dict for the
 * closing line in *fattrs. */
static bool rewrite_func(conv *c, strbuf *b, span name, span body, strbuf *fattrs)
{
	const char *p = body.p, *e = body.p + body.n;
	span vis = {"public", 6};
	if (!strncmp(p, "public", 6) || !strncmp(p, "private", 7)) {
		vis = (span){p, (size_t)(p[1] == 'u' ? 6 : 7)};
		p = skip_ws(p + vis.n, e);
	}
	if (p >= e || *p != '@')
		goto bad;
	const char *nm = ++p;
	while (p < e && *p != '(')
		p++;
	span fname = {nm, (size_t)(p - nm)};
	if (p >= e)
		goto bad;
	const char *close = balanced(p + 1, e, ")");
	if (close >= e)
		goto bad;
	span args[256];
	int na = split(p + 1, close, args, 256);
	if (na == 256)
		goto bad;
	const char *q = skip_ws(close + 1, e);
	if (q + 1 < e && q[0] == '-' && q[1] == '>')
		goto bad; /* a function with results: not a kernel */
	strbuf types = {0}, argattrs = {0};
	strbuf_puts(b, "\"tt.func\"() ({^bb0(");
	for (int i = 0; i < na; i++) {
		/* %a: T {attrs} loc(...) */
		span a = args[i];
		const char *col = memchr(a.p, ':', a.n);
		if (!col)
			goto bad_free;
		const char *ts = skip_ws(col + 1, a.p + a.n);
		const char *te = balanced(ts, a.p + a.n, " {");
		span t = trim(ts, te);
		const char *rest = skip_ws(te, a.p + a.n);
		span dict = {"{}", 2};
		if (rest < a.p + a.n && *rest == '{') {
			const char *de = balanced(rest + 1, a.p + a.n, "}");
			dict = (span){rest, (size_t)(de - rest + 1)};
			rest = skip_ws(de + 1, a.p + a.n);
		}
		strbuf_puts(b, i ? ", " : "");
		strbuf_putn(b, a.p, (size_t)(te - a.p));
		if (rest < a.p + a.n) {
			strbuf_putc(b, ' ');
			strbuf_putn(b, rest, (size_t)(a.p + a.n - rest));
		}
		strbuf_puts(&types, i ? ", " : "");
		put(&types, t);
		strbuf_puts(&argattrs, i ? ", " : "");
		put(&argattrs, dict);
	}
	strbuf_puts(b, "):");
	strbuf_printf(fattrs, "sym_name = \"%.*s\", sym_visibility = \"%.*s\", function_type = (%s) -> (), "
		      "arg_attrs = [%s]", (int)fname.n, fname.p, (int)vis.n, vis.p,
		      types.data ? types.data : "", argattrs.data ? argattrs.data : "");
	if (!strncmp(q, "attributes", 10)) {
		q = skip_ws(q + 10, e);
		if (q < e && *q == '{') {
			const char *de = balanced(q + 1, e, "}");
			span in = trim(q + 1, de);
			if (in.n) {
				strbuf_puts(fattrs, ", ");
				put(fattrs, in);
			}
		}
	}
	strbuf_free(&types);
	strbuf_free(&argattrs);
	return true;
bad_free:
	strbuf_free(&types);
	strbuf_free(&argattrs);
bad:
	error_at(c, name.p, name.n, "malformed '%.*s' (docs/ir.md, \"TTIR\", gives the syntax "
		 "tilecc reads)", name);
	return false;
}

/* The start of a trailing ' loc(...)' of the line (or e). */
static const char *loc_start(const char *p, const char *e)
{
	const char *best = e;
	for (const char *q = p; q + 4 <= e; q++) {
		if (*q == '"') {
			for (q++; q < e && *q != '"'; q++)
				if (*q == '\\')
					q++;
			continue;
		}
		const char *close;
		if (!memcmp(q, "loc(", 4) && (q == p || q[-1] == ' ') &&
		    (close = balanced(q + 4, e, ")")) < e && trim(close + 1, e).n == 0) {
			best = q;
			break;
		}
	}
	return best;
}

char *ttir_pretty_to_generic(diag_engine *d, uint32_t file, const char *text, uint32_t len,
			     uint32_t **cols_out, uint32_t *nlines_out)
{
	conv c = {.d = d, .file = file};
	strbuf out = {0};
	uint32_t nlines = 1;
	for (uint32_t i = 0; i < len; i++)
		nlines += text[i] == '\n';
	uint32_t *cols = calloc(nlines, sizeof *cols);
	/* the brace depth at which each open tt.func's region closes, and its attributes */
	struct open_func {
		int depth;
		strbuf attrs;
	} funcs[16];
	int nfuncs = 0, depth = 0;
	const char *p = text, *end = text + len;
	if (!cols) {
		diag_error(d, SRCLOC_NONE, "out of memory");
		return NULL;
	}
	while (p < end && !c.failed) {
		const char *le = memchr(p, '\n', (size_t)(end - p));
		if (!le)
			le = end;
		c.line++;
		c.lstart = p;
		strbuf line = {0};
		/* [results '='] op */
		const char *q = skip_ws(p, le);
		const char *op = q;
		if (q < le && *q == '%') {
			const char *eq = balanced(q, le, "=\"");
			if (eq < le && *eq == '=' && eq + 1 < le && eq[1] != '=')
				op = skip_ws(eq + 1, le);
		}
		const char *ne = op;
		while (ne < le && *ne != ' ' && *ne != '\r' && *ne != '(' && *ne != '{' && *ne != '"')
			ne++;
		span name = {op, (size_t)(ne - op)};
		if ((starts(name, "gpu.barrier") && name.n == 11) ||
		    (starts(name, "llvm.intr.assume") && name.n == 16)) {
			/* two ops of other dialects in Triton's TTIR (tl.debug_barrier, tl.assume),
			 * whose dialects MLIR does not load here: gpu.barrier and
			 * llvm.intr.assume %c : i1 */
			const char *ls = loc_start(ne, le);
			span body = trim(ne, ls);
			span ops[2], rest;
			int nops = operands(body, ops, 2, &rest);
			strbuf_putn(&line, p, (size_t)(op - p));
			cols[c.line - 1] = (uint32_t)(op - p) + 1;
			if (name.n == 11 ? body.n != 0
					 : nops != 1 || rest.n < 2 || rest.p[0] != ':' ||
						   !starts(trim(rest.p + 1, rest.p + rest.n), "i1")) {
				error_at(&c, name.p, name.n, "malformed '%.*s' (docs/ir.md, \"TTIR\", gives "
					 "the syntax tilecc reads)", name);
			} else {
				strbuf_printf(&line, "\"%.*s\"(%.*s) : (%s) -> ()", (int)name.n, name.p,
					      nops ? (int)ops[0].n : 0, nops ? ops[0].p : "", nops ? "i1" : "");
			}
			if (ls < le) {
				strbuf_putc(&line, ' ');
				strbuf_putn(&line, ls, (size_t)(le - ls));
			}
			goto counted;
		}
		if (starts(name, "tt.") && name.n > 3) {
			const char *ls = loc_start(ne, le);
			span body = trim(ne, ls);
			strbuf_putn(&line, p, (size_t)(op - p));
			cols[c.line - 1] = (uint32_t)(op - p) + 1;
			if (name.n == 7 && !memcmp(name.p, "tt.func", 7)) {
				if (nfuncs == 16) {
					error_at(&c, name.p, name.n, "'%.*s' nested too deeply", name);
				} else {
					struct open_func *f = &funcs[nfuncs];
					f->attrs = (strbuf){0};
					/* the header's '{' opens the region: drop it, "({" was written */
					span hb = body;
					if (hb.n && hb.p[hb.n - 1] == '{')
						hb.n--;
					hb = trim(hb.p, hb.p + hb.n);
					if (rewrite_func(&c, &line, name, hb, &f->attrs)) {
						f->depth = depth;
						nfuncs++;
						depth++;
					} else {
						strbuf_free(&f->attrs);
					}
				}
			} else {
				rewrite_op(&c, &line, name, body);
			}
			if (ls < le) {
				strbuf_putc(&line, ' ');
				strbuf_putn(&line, ls, (size_t)(le - ls));
			}
			goto counted; /* a rewritten line's braces are balanced, or tt.func's counted */
		}
		/* any other line: copied, its braces counted, a tt.func's closing one rewritten */
		for (const char *r = p; r < le; r++) {
			char ch = *r;
			if (ch == '"') {
				const char *s = r;
				for (r++; r < le && *r != '"'; r++)
					if (*r == '\\')
						r++;
				strbuf_putn(&line, s, (size_t)(r - s + (r < le)));
				continue;
			}
			if (ch == '/' && r + 1 < le && r[1] == '/') {
				strbuf_putn(&line, r, (size_t)(le - r));
				break;
			}
			if (ch == '{')
				depth++;
			if (ch == '}') {
				depth--;
				if (nfuncs && funcs[nfuncs - 1].depth == depth) {
					struct open_func *f = &funcs[--nfuncs];
					strbuf_printf(&line, "}) {%s} : () -> ()", f->attrs.data ? f->attrs.data : "");
					strbuf_free(&f->attrs);
					cols[c.line - 1] = (uint32_t)(r - p) + 1;
					continue;
				}
			}
			strbuf_putc(&line, ch);
		}
	counted:
		strbuf_putn(&out, line.data ? line.data : "", line.len);
		strbuf_free(&line);
		if (le < end)
			strbuf_putc(&out, '\n');
		p = le + 1;
	}
	while (nfuncs)
		strbuf_free(&funcs[--nfuncs].attrs);
	if (!c.failed && out.oom) {
		diag_error(d, SRCLOC_NONE, "out of memory");
		c.failed = true;
	}
	if (c.failed) {
		strbuf_free(&out);
		free(cols);
		return NULL;
	}
	strbuf_putc(&out, 0);
	char *r = strbuf_take(&out, NULL);
	*cols_out = cols;
	*nlines_out = nlines;
	return r;
}
