/* parse.c: recursive-descent parser from tokens (lex.h) to the AST (ast.h).
 *
 * The grammar is Python's, cut down to what kernels and the code around them use; the
 * rule each function implements is written above it. Constructs that Python has and
 * tilecc does not are recognised where they start and reported as "unsupported Python
 * construct: <what>". The parser stops at the first error: error_at() reports it and
 * longjmps back to parse_module, which returns NULL. Every allocation is in the arena,
 * so nothing leaks on that path. Recursion is bounded by PARSE_MAX_DEPTH so that no
 * input can overflow the C stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "lex.h"

/* Nesting of expressions and blocks beyond this is "too deeply nested". */
#define PARSE_MAX_DEPTH 200

typedef struct parser {
	arena *a;
	strtab *names;
	diag_engine *d;
	lex_token *tok;  /* the current token; the array ends with EOF or ERROR */
	lex_token *prev; /* the last token consumed */
	int depth;
	int func_depth;  /* > 0 inside a def body */
	int loop_depth;  /* > 0 inside a for or while body of the current function */
	jmp_buf fail;
} parser;

/* A growable arena array of pointers. */
typedef struct list {
	void **v;
	int n, cap;
} list;

static _Noreturn void error_at(parser *p, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static _Noreturn void error_at(parser *p, srcloc loc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_error(p->d, loc, "%s", buf);
	longjmp(p->fail, 1);
}

static _Noreturn void unsupported(parser *p, srcloc loc, const char *what)
{
	error_at(p, loc, "unsupported Python construct: %s", what);
}

static _Noreturn void out_of_memory(parser *p)
{
	diag_error(p->d, SRCLOC_NONE, "out of memory");
	longjmp(p->fail, 1);
}

static void *alloc(parser *p, size_t n)
{
	void *r = arena_alloc(p->a, n);
	if (!r)
		out_of_memory(p);
	return r;
}

/* Makes room for one more element of size elem in an arena array of *cap elements. */
static void *grow(parser *p, void *old, int n, int *cap, size_t elem)
{
	if (n < *cap)
		return old;
	int nc = *cap ? *cap * 2 : 4;
	void *r = alloc(p, (size_t)nc * elem);
	if (old)
		memcpy(r, old, (size_t)n * elem);
	*cap = nc;
	return r;
}

#define PUSH(p, arr, n, cap, x)                                                                    \
	do {                                                                                       \
		(arr) = grow((p), (arr), (n), &(cap), sizeof *(arr));                              \
		(arr)[(n)++] = (x);                                                                \
	} while (0)

static void list_push(parser *p, list *l, void *x)
{
	PUSH(p, l->v, l->n, l->cap, x);
}

/* --- tokens ------------------------------------------------------------------------- */

static lex_kind peek(parser *p)
{
	return p->tok->kind;
}

/* The kind of the token after the current one. */
static lex_kind peek2(parser *p)
{
	lex_kind k = p->tok->kind;
	return k == LEX_EOF || k == LEX_ERROR ? k : p->tok[1].kind;
}

/* A lexer error is reported when it becomes the current token, so that an earlier
 * syntax error wins. */
static void check_lex_error(parser *p)
{
	if (p->tok->kind == LEX_ERROR)
		error_at(p, p->tok->loc, "%s", p->tok->str.s ? p->tok->str.s : "invalid token");
}

static lex_token *next(parser *p)
{
	lex_token *t = p->tok;
	if (t->kind != LEX_EOF && t->kind != LEX_ERROR) {
		p->prev = t;
		p->tok++;
		check_lex_error(p);
	}
	return t;
}

static bool accept(parser *p, lex_kind k)
{
	if (peek(p) != k)
		return false;
	next(p);
	return true;
}

/* The generic complaint about the current token. */
static _Noreturn void syntax_error(parser *p)
{
	if (peek(p) == LEX_INDENT)
		error_at(p, p->tok->loc, "unexpected indent");
	error_at(p, p->tok->loc, "invalid syntax");
}

static lex_token *expect(parser *p, lex_kind k, const char *msg)
{
	if (peek(p) != k) {
		if (peek(p) == LEX_INDENT)
			syntax_error(p);
		error_at(p, p->tok->loc, "%s", msg);
	}
	return next(p);
}

static void enter(parser *p)
{
	if (++p->depth > PARSE_MAX_DEPTH)
		error_at(p, p->tok->loc, "too deeply nested");
}

static void leave(parser *p)
{
	p->depth--;
}

/* A location from start to the end of the last token consumed, when that is on the same
 * line; otherwise start as it is. */
static srcloc span(parser *p, srcloc start)
{
	const lex_token *t = p->prev;
	if (t && t->end_line == start.line && t->end_col > start.col)
		start.len = t->end_col - start.col;
	return start;
}

/* --- expressions -------------------------------------------------------------------- */

static ast_expr *new_expr(parser *p, ast_expr_kind k, srcloc loc)
{
	ast_expr *e = alloc(p, sizeof *e);
	e->kind = k;
	e->loc = loc;
	return e;
}

static ast_expr *parse_test(parser *p);
static ast_expr *parse_or(parser *p);
static ast_expr *parse_factor(parser *p);
static ast_expr *parse_binary(parser *p, int minprec);

static bool starts_expr(lex_kind k)
{
	switch (k) {
	case LEX_NAME: case LEX_INT: case LEX_FLOAT: case LEX_STR: case LEX_KW_TRUE:
	case LEX_KW_FALSE: case LEX_KW_NONE: case LEX_LPAREN: case LEX_LBRACKET: case LEX_LBRACE:
	case LEX_MINUS: case LEX_PLUS: case LEX_TILDE: case LEX_KW_NOT: case LEX_KW_LAMBDA:
	case LEX_KW_AWAIT: case LEX_KW_YIELD: case LEX_ELLIPSIS: case LEX_STAR:
		return true;
	default:
		return false;
	}
}

/* Rejects a comprehension right after the first element of a display or call. */
static void no_comprehension(parser *p, const char *what)
{
	if (peek(p) == LEX_KW_FOR || peek(p) == LEX_KW_ASYNC)
		unsupported(p, p->tok->loc, what);
}

/* star_test: '*' expr (unsupported) | test */
static ast_expr *parse_star_test(parser *p)
{
	if (peek(p) == LEX_STAR)
		unsupported(p, p->tok->loc, "starred expression");
	return parse_test(p);
}

/* Finishes a sequence display after its first item: (',' star_test)* [','] up to close. */
static ast_expr *parse_seq_rest(parser *p, ast_expr_kind k, srcloc loc, ast_expr *first,
				lex_kind close)
{
	ast_expr *e = new_expr(p, k, loc);
	int cap = 0;
	if (first)
		PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (first && accept(p, LEX_COMMA)) {
		if (peek(p) == close)
			break;
		ast_expr *x = parse_star_test(p);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	return e;
}

/* atom: NAME | NUMBER | STRING+ | 'True' | 'False' | 'None'
 *     | '(' [star_test (',' star_test)* [',']] ')'
 *     | '[' [star_test (',' star_test)* [',']] ']'
 *     | '{' [test ':' test (',' test ':' test)* [',']] '}' */
static ast_expr *parse_atom(parser *p)
{
	lex_token *t = p->tok;
	ast_expr *e;
	switch (t->kind) {
	case LEX_NAME:
		next(p);
		e = new_expr(p, AST_NAME, t->loc);
		e->name = t->name;
		return e;
	case LEX_INT:
		next(p);
		e = new_expr(p, AST_INT, t->loc);
		e->ival = t->ival;
		return e;
	case LEX_FLOAT:
		next(p);
		e = new_expr(p, AST_FLOAT, t->loc);
		e->fval = t->fval;
		return e;
	case LEX_STR: {
		/* Adjacent literals concatenate. */
		size_t n = 0;
		lex_token *q = t;
		for (; q->kind == LEX_STR; q++)
			n += q->str.len;
		char *s = alloc(p, n + 1);
		size_t k = 0;
		while (peek(p) == LEX_STR) {
			lex_token *u = next(p);
			memcpy(s + k, u->str.s, u->str.len);
			k += u->str.len;
		}
		s[k] = 0;
		e = new_expr(p, AST_STR, span(p, t->loc));
		e->str.s = s;
		e->str.len = (uint32_t)k;
		return e;
	}
	case LEX_KW_TRUE:
	case LEX_KW_FALSE:
		next(p);
		e = new_expr(p, AST_BOOL, t->loc);
		e->bval = t->kind == LEX_KW_TRUE;
		return e;
	case LEX_KW_NONE:
		next(p);
		return new_expr(p, AST_NONE, t->loc);
	case LEX_LPAREN: {
		next(p);
		if (accept(p, LEX_RPAREN))
			return new_expr(p, AST_TUPLE, span(p, t->loc));
		if (peek(p) == LEX_KW_YIELD)
			unsupported(p, p->tok->loc, "yield expression");
		ast_expr *first = parse_star_test(p);
		no_comprehension(p, "generator expression");
		if (peek(p) == LEX_COMMA) {
			e = parse_seq_rest(p, AST_TUPLE, t->loc, first, LEX_RPAREN);
			expect(p, LEX_RPAREN, "expected ',' or ')' in tuple");
			e->loc = span(p, t->loc);
			return e;
		}
		expect(p, LEX_RPAREN, "expected ')'");
		return first;
	}
	case LEX_LBRACKET: {
		next(p);
		ast_expr *first = NULL;
		if (peek(p) != LEX_RBRACKET) {
			first = parse_star_test(p);
			no_comprehension(p, "list comprehension");
		}
		e = parse_seq_rest(p, AST_LIST, t->loc, first, LEX_RBRACKET);
		expect(p, LEX_RBRACKET, "expected ',' or ']' in list");
		e->loc = span(p, t->loc);
		return e;
	}
	case LEX_LBRACE: {
		next(p);
		e = new_expr(p, AST_DICT, t->loc);
		int kcap = 0, vcap = 0, n = 0;
		while (peek(p) != LEX_RBRACE) {
			if (peek(p) == LEX_DSTAR)
				unsupported(p, p->tok->loc, "dict unpacking (**)");
			if (peek(p) == LEX_STAR)
				unsupported(p, p->tok->loc, "starred expression");
			ast_expr *k = parse_test(p);
			if (peek(p) != LEX_COLON) {
				if (e->dict.n == 0) {
					no_comprehension(p, "set comprehension");
					unsupported(p, t->loc, "set literal");
				}
				error_at(p, p->tok->loc, "expected ':' after dict key");
			}
			next(p);
			ast_expr *v = parse_test(p);
			if (e->dict.n == 0)
				no_comprehension(p, "dict comprehension");
			n = e->dict.n;
			PUSH(p, e->dict.keys, n, kcap, k);
			n = e->dict.n;
			PUSH(p, e->dict.values, n, vcap, v);
			e->dict.n = n;
			if (!accept(p, LEX_COMMA))
				break;
		}
		expect(p, LEX_RBRACE, "expected ',' or '}' in dict");
		e->loc = span(p, t->loc);
		return e;
	}
	case LEX_ELLIPSIS:
		unsupported(p, t->loc, "Ellipsis (...)");
	case LEX_KW_YIELD:
		unsupported(p, t->loc, "yield expression");
	case LEX_KW_AWAIT:
		unsupported(p, t->loc, "await expression");
	case LEX_INDENT:
		syntax_error(p);
	default:
		error_at(p, t->loc, "expected an expression");
	}
}

/* arguments: arg (',' arg)* [',']
 * arg: test | NAME '=' test      (keywords after positionals; *args, **kw unsupported) */
static void parse_call_args(parser *p, ast_expr *call)
{
	int acap = 0, kcap = 0;
	while (peek(p) != LEX_RPAREN) {
		if (peek(p) == LEX_STAR)
			unsupported(p, p->tok->loc, "star-args (*args)");
		if (peek(p) == LEX_DSTAR)
			unsupported(p, p->tok->loc, "star-args (**kwargs)");
		if (peek(p) == LEX_NAME && peek2(p) == LEX_ASSIGN) {
			lex_token *name = next(p);
			next(p);
			for (int i = 0; i < call->call.nkws; i++)
				if (call->call.kws[i].name == name->name)
					error_at(p, name->loc, "keyword argument repeated: %s", name->name);
			ast_keyword kw = {name->name, name->loc, parse_test(p)};
			PUSH(p, call->call.kws, call->call.nkws, kcap, kw);
		} else {
			ast_expr *a = parse_test(p);
			no_comprehension(p, "generator expression");
			if (peek(p) == LEX_ASSIGN)
				error_at(p, a->loc, "expression cannot contain assignment, perhaps you "
						    "meant \"==\"?");
			if (call->call.nkws)
				error_at(p, a->loc, "positional argument follows keyword argument");
			PUSH(p, call->call.args, call->call.nargs, acap, a);
		}
		if (!accept(p, LEX_COMMA))
			break;
	}
	expect(p, LEX_RPAREN, "expected ',' or ')' after call argument");
}

/* slice: [test] ':' [test] [':' [test]] | test */
static ast_expr *parse_slice(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *lo = NULL;
	if (peek(p) != LEX_COLON) {
		if (peek(p) == LEX_STAR)
			unsupported(p, p->tok->loc, "starred expression");
		lo = parse_test(p);
		if (peek(p) != LEX_COLON)
			return lo;
	}
	next(p);
	ast_expr *e = new_expr(p, AST_SLICE, start);
	e->slice.lo = lo;
	lex_kind k = peek(p);
	if (k != LEX_COLON && k != LEX_COMMA && k != LEX_RBRACKET)
		e->slice.hi = parse_test(p);
	if (accept(p, LEX_COLON)) {
		k = peek(p);
		if (k != LEX_COMMA && k != LEX_RBRACKET)
			e->slice.step = parse_test(p);
	}
	e->loc = span(p, start);
	return e;
}

/* primary: atom ('.' NAME | '(' [arguments] ')' | '[' slice (',' slice)* [','] ']')* */
static ast_expr *parse_primary(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *e = parse_atom(p);
	for (;;) {
		if (accept(p, LEX_DOT)) {
			lex_token *name = expect(p, LEX_NAME, "expected attribute name after '.'");
			ast_expr *a = new_expr(p, AST_ATTR, span(p, start));
			a->attr.value = e;
			a->attr.name = name->name;
			a->attr.name_loc = name->loc;
			e = a;
		} else if (peek(p) == LEX_LPAREN) {
			next(p);
			ast_expr *c = new_expr(p, AST_CALL, start);
			c->call.func = e;
			parse_call_args(p, c);
			c->loc = span(p, start);
			e = c;
		} else if (peek(p) == LEX_LBRACKET) {
			next(p);
			ast_expr *idx = parse_slice(p);
			if (peek(p) == LEX_COMMA) {
				ast_expr *t = new_expr(p, AST_TUPLE, idx->loc);
				int cap = 0;
				PUSH(p, t->seq.items, t->seq.n, cap, idx);
				while (accept(p, LEX_COMMA) && peek(p) != LEX_RBRACKET) {
					ast_expr *x = parse_slice(p);
					PUSH(p, t->seq.items, t->seq.n, cap, x);
				}
				t->loc = span(p, idx->loc);
				idx = t;
			}
			expect(p, LEX_RBRACKET, "expected ',' or ']' in subscript");
			ast_expr *s = new_expr(p, AST_SUBSCRIPT, span(p, start));
			s->sub.value = e;
			s->sub.index = idx;
			e = s;
		} else {
			return e;
		}
	}
}

/* power: primary ['**' factor]       (right-associative through factor) */
static ast_expr *parse_power(parser *p)
{
	if (peek(p) == LEX_KW_AWAIT)
		unsupported(p, p->tok->loc, "await expression");
	srcloc start = p->tok->loc;
	ast_expr *base = parse_primary(p);
	if (!accept(p, LEX_DSTAR))
		return base;
	enter(p);
	ast_expr *exp = parse_factor(p);
	leave(p);
	ast_expr *e = new_expr(p, AST_BINOP, span(p, start));
	e->bin.op = AST_POW;
	e->bin.lhs = base;
	e->bin.rhs = exp;
	return e;
}

/* factor: ('+' | '-' | '~') factor | power */
static ast_expr *parse_factor(parser *p)
{
	lex_kind k = peek(p);
	if (k != LEX_PLUS && k != LEX_MINUS && k != LEX_TILDE)
		return parse_power(p);
	lex_token *t = next(p);
	enter(p);
	ast_expr *operand = parse_factor(p);
	leave(p);
	ast_expr *e = new_expr(p, AST_UNARY, span(p, t->loc));
	e->un.op = k == LEX_PLUS ? AST_UPLUS : k == LEX_MINUS ? AST_UNEG : AST_UINVERT;
	e->un.operand = operand;
	return e;
}

/* Binary operators from '|' up to '*', by precedence (higher binds tighter). */
static const struct {
	lex_kind tok;
	ast_binop op;
	int prec;
} binops[] = {
	{LEX_PIPE, AST_BITOR, 1},     {LEX_CARET, AST_BITXOR, 2},  {LEX_AMP, AST_BITAND, 3},
	{LEX_LSHIFT, AST_LSHIFT, 4},  {LEX_RSHIFT, AST_RSHIFT, 4}, {LEX_PLUS, AST_ADD, 5},
	{LEX_MINUS, AST_SUB, 5},      {LEX_STAR, AST_MUL, 6},      {LEX_SLASH, AST_DIV, 6},
	{LEX_DSLASH, AST_FLOORDIV, 6}, {LEX_PERCENT, AST_MOD, 6},  {LEX_AT, AST_MATMUL, 6},
};

/* expr:       xor_expr ('|' xor_expr)*
 * xor_expr:   and_expr ('^' and_expr)*
 * and_expr:   shift_expr ('&' shift_expr)*
 * shift_expr: arith_expr (('<<' | '>>') arith_expr)*
 * arith_expr: term (('+' | '-') term)*
 * term:       factor (('*' | '/' | '//' | '%' | '@') factor)*
 * All left-associative; one loop climbs the precedence levels. */
static ast_expr *parse_binary(parser *p, int minprec)
{
	srcloc start = p->tok->loc;
	ast_expr *lhs = parse_factor(p);
	for (;;) {
		int i, n = (int)(sizeof binops / sizeof binops[0]);
		for (i = 0; i < n; i++)
			if (binops[i].tok == peek(p))
				break;
		if (i == n || binops[i].prec < minprec)
			return lhs;
		next(p);
		ast_expr *rhs = parse_binary(p, binops[i].prec + 1);
		ast_expr *e = new_expr(p, AST_BINOP, span(p, start));
		e->bin.op = binops[i].op;
		e->bin.lhs = lhs;
		e->bin.rhs = rhs;
		lhs = e;
	}
}

/* comparison: expr (comp_op expr)*
 * comp_op: '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' */
static ast_expr *parse_comparison(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *first = parse_binary(p, 1);
	ast_expr *e = NULL;
	int ocap = 0, rcap = 0, n = 0;
	for (;;) {
		ast_cmpop op;
		switch (peek(p)) {
		case LEX_LT: op = AST_LT; break;
		case LEX_GT: op = AST_GT; break;
		case LEX_EQ: op = AST_EQ; break;
		case LEX_GE: op = AST_GE; break;
		case LEX_LE: op = AST_LE; break;
		case LEX_NE: op = AST_NE; break;
		case LEX_KW_IN: op = AST_IN; break;
		case LEX_KW_IS: op = AST_IS; break;
		case LEX_KW_NOT:
			if (peek2(p) != LEX_KW_IN)
				goto done;
			next(p);
			op = AST_NOTIN;
			break;
		default:
			goto done;
		}
		next(p);
		if (op == AST_IS && accept(p, LEX_KW_NOT))
			op = AST_ISNOT;
		if (!e) {
			e = new_expr(p, AST_COMPARE, start);
			e->cmp.first = first;
		}
		ast_expr *rhs = parse_binary(p, 1);
		n = e->cmp.n;
		PUSH(p, e->cmp.ops, n, ocap, op);
		n = e->cmp.n;
		PUSH(p, e->cmp.rest, n, rcap, rhs);
		e->cmp.n = n;
	}
done:
	if (!e)
		return first;
	e->loc = span(p, start);
	return e;
}

/* not_test: 'not' not_test | comparison */
static ast_expr *parse_not(parser *p)
{
	if (peek(p) != LEX_KW_NOT)
		return parse_comparison(p);
	lex_token *t = next(p);
	enter(p);
	ast_expr *operand = parse_not(p);
	leave(p);
	ast_expr *e = new_expr(p, AST_UNARY, span(p, t->loc));
	e->un.op = AST_UNOT;
	e->un.operand = operand;
	return e;
}

/* and_test: not_test ('and' not_test)*
 * or_test:  and_test ('or' and_test)*      (one flat node per run of the same operator) */
static ast_expr *parse_boolop(parser *p, ast_boolop_kind op)
{
	lex_kind k = op == AST_OR ? LEX_KW_OR : LEX_KW_AND;
	srcloc start = p->tok->loc;
	ast_expr *first = op == AST_OR ? parse_boolop(p, AST_AND) : parse_not(p);
	if (peek(p) != k)
		return first;
	ast_expr *e = new_expr(p, AST_BOOLOP, start);
	e->boolop.op = op;
	int cap = 0;
	PUSH(p, e->boolop.values, e->boolop.n, cap, first);
	while (accept(p, k)) {
		ast_expr *x = op == AST_OR ? parse_boolop(p, AST_AND) : parse_not(p);
		PUSH(p, e->boolop.values, e->boolop.n, cap, x);
	}
	e->loc = span(p, start);
	return e;
}

static ast_expr *parse_or(parser *p)
{
	return parse_boolop(p, AST_OR);
}

static void parse_params(parser *p, lex_kind close, bool annotations, ast_param **params,
			 int *nparams);

/* lambdef: 'lambda' [NAME ['=' test] (',' NAME ['=' test])*] ':' test */
static ast_expr *parse_lambda(parser *p)
{
	lex_token *t = next(p);
	ast_expr *e = new_expr(p, AST_LAMBDA, t->loc);
	parse_params(p, LEX_COLON, false, &e->lambda.params, &e->lambda.nparams);
	expect(p, LEX_COLON, "expected ':' after lambda parameters");
	e->lambda.body = parse_test(p);
	e->loc = span(p, t->loc);
	return e;
}

/* test: or_test ['if' or_test 'else' test] | lambdef */
static ast_expr *parse_test(parser *p)
{
	enter(p);
	ast_expr *e;
	if (peek(p) == LEX_KW_LAMBDA) {
		e = parse_lambda(p);
	} else {
		srcloc start = p->tok->loc;
		e = parse_or(p);
		if (accept(p, LEX_KW_IF)) {
			ast_expr *cond = parse_or(p);
			expect(p, LEX_KW_ELSE, "expected 'else' after 'if' expression");
			ast_expr *els = parse_test(p);
			ast_expr *x = new_expr(p, AST_IFEXP, span(p, start));
			x->ifexp.cond = cond;
			x->ifexp.then = e;
			x->ifexp.els = els;
			e = x;
		}
	}
	if (peek(p) == LEX_WALRUS)
		unsupported(p, p->tok->loc, "assignment expression (:=)");
	leave(p);
	return e;
}

/* testlist: star_test (',' star_test)* [',']      (a tuple when there is a comma) */
static ast_expr *parse_testlist(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *first = parse_star_test(p);
	if (peek(p) != LEX_COMMA)
		return first;
	ast_expr *e = new_expr(p, AST_TUPLE, start);
	int cap = 0;
	PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (accept(p, LEX_COMMA) && starts_expr(peek(p))) {
		ast_expr *x = parse_star_test(p);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	e->loc = span(p, start);
	return e;
}

/* exprlist: expr (',' expr)* [',']      (for targets: no comparisons, so 'in' ends it) */
static ast_expr *parse_exprlist(parser *p)
{
	srcloc start = p->tok->loc;
	if (peek(p) == LEX_STAR)
		unsupported(p, p->tok->loc, "starred expression");
	ast_expr *first = parse_binary(p, 1);
	if (peek(p) != LEX_COMMA)
		return first;
	ast_expr *e = new_expr(p, AST_TUPLE, start);
	int cap = 0;
	PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (accept(p, LEX_COMMA) && starts_expr(peek(p))) {
		if (peek(p) == LEX_STAR)
			unsupported(p, p->tok->loc, "starred expression");
		ast_expr *x = parse_binary(p, 1);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	e->loc = span(p, start);
	return e;
}

/* --- statements --------------------------------------------------------------------- */

static ast_stmt *new_stmt(parser *p, ast_stmt_kind k, srcloc loc)
{
	ast_stmt *s = alloc(p, sizeof *s);
	s->kind = k;
	s->loc = loc;
	return s;
}

static void parse_stmt(parser *p, list *out);
static void parse_simple_stmts(parser *p, list *out);

static ast_block to_block(list *l)
{
	return (ast_block){(ast_stmt **)l->v, l->n};
}

/* block: simple_stmts | NEWLINE INDENT stmt+ DEDENT
 * what and line name the statement that owns the block, for the message. */
static ast_block parse_block(parser *p, const char *what, uint32_t line)
{
	list out = {0};
	enter(p);
	if (accept(p, LEX_NEWLINE)) {
		if (peek(p) != LEX_INDENT)
			error_at(p, p->tok->loc, "expected an indented block after %s on line %u", what,
				 line);
		next(p);
		while (!accept(p, LEX_DEDENT))
			parse_stmt(p, &out);
	} else {
		/* simple_stmts on the same line as the colon */
		parse_simple_stmts(p, &out);
	}
	leave(p);
	return to_block(&out);
}

/* Checks that e can be assigned to: a name, attribute, subscript, or a tuple or list of
 * those. */
static void check_target(parser *p, ast_expr *e, const char *verb)
{
	const char *what;
	switch (e->kind) {
	case AST_NAME:
	case AST_ATTR:
	case AST_SUBSCRIPT:
		return;
	case AST_TUPLE:
	case AST_LIST:
		for (int i = 0; i < e->seq.n; i++)
			check_target(p, e->seq.items[i], verb);
		return;
	case AST_INT: case AST_FLOAT: case AST_STR: what = "literal"; break;
	case AST_BOOL: what = e->bval ? "True" : "False"; break;
	case AST_NONE: what = "None"; break;
	case AST_CALL: what = "function call"; break;
	case AST_COMPARE: what = "comparison"; break;
	case AST_IFEXP: what = "conditional expression"; break;
	case AST_LAMBDA: what = "lambda"; break;
	case AST_DICT: what = "dict literal"; break;
	default: what = "expression"; break;
	}
	error_at(p, e->loc, "cannot %s %s", verb, what);
}

static bool single_target(const ast_expr *e)
{
	return e->kind == AST_NAME || e->kind == AST_ATTR || e->kind == AST_SUBSCRIPT;
}

static bool augassign_op(lex_kind k, ast_binop *op)
{
	switch (k) {
	case LEX_PLUSEQ: *op = AST_ADD; return true;
	case LEX_MINUSEQ: *op = AST_SUB; return true;
	case LEX_STAREQ: *op = AST_MUL; return true;
	case LEX_SLASHEQ: *op = AST_DIV; return true;
	case LEX_DSLASHEQ: *op = AST_FLOORDIV; return true;
	case LEX_PERCENTEQ: *op = AST_MOD; return true;
	case LEX_DSTAREQ: *op = AST_POW; return true;
	case LEX_ATEQ: *op = AST_MATMUL; return true;
	case LEX_AMPEQ: *op = AST_BITAND; return true;
	case LEX_PIPEEQ: *op = AST_BITOR; return true;
	case LEX_CARETEQ: *op = AST_BITXOR; return true;
	case LEX_LSHIFTEQ: *op = AST_LSHIFT; return true;
	case LEX_RSHIFTEQ: *op = AST_RSHIFT; return true;
	default: return false;
	}
}

/* expr_stmt: testlist (('=' testlist)+ | augassign testlist | ':' test ['=' testlist])?
 * augassign: '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '**=' | '@=' | '&=' | '|=' | '^='
 *          | '<<=' | '>>=' */
static ast_stmt *parse_expr_stmt(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *e = parse_testlist(p);
	ast_binop op;
	if (peek(p) == LEX_COLON) {
		if (e->kind == AST_TUPLE)
			error_at(p, e->loc, "only single target (not tuple) can be annotated");
		if (!single_target(e))
			error_at(p, e->loc, "illegal target for annotation");
		next(p);
		ast_stmt *s = new_stmt(p, AST_ANNASSIGN, start);
		s->ann.target = e;
		s->ann.annotation = parse_test(p);
		if (accept(p, LEX_ASSIGN))
			s->ann.value = parse_testlist(p);
		return s;
	}
	if (augassign_op(peek(p), &op)) {
		if (!single_target(e))
			error_at(p, e->loc, "illegal expression for augmented assignment");
		next(p);
		ast_stmt *s = new_stmt(p, AST_AUGASSIGN, start);
		s->aug.target = e;
		s->aug.op = op;
		s->aug.value = parse_testlist(p);
		return s;
	}
	if (peek(p) == LEX_ASSIGN) {
		ast_stmt *s = new_stmt(p, AST_ASSIGN, start);
		int cap = 0;
		while (accept(p, LEX_ASSIGN)) {
			check_target(p, e, "assign to");
			PUSH(p, s->assign.targets, s->assign.ntargets, cap, e);
			if (peek(p) == LEX_KW_YIELD)
				unsupported(p, p->tok->loc, "yield expression");
			e = parse_testlist(p);
		}
		s->assign.value = e;
		return s;
	}
	ast_stmt *s = new_stmt(p, AST_EXPR_STMT, start);
	s->expr = e;
	return s;
}

/* dotted_name: NAME ('.' NAME)* */
static const char *parse_dotted_name(parser *p)
{
	list parts = {0};
	size_t n = 0;
	do {
		lex_token *t = expect(p, LEX_NAME, "expected a module name");
		list_push(p, &parts, (void *)t->name);
		n += strlen(t->name) + 1;
	} while (accept(p, LEX_DOT));
	char *s = alloc(p, n);
	char *w = s;
	for (int i = 0; i < parts.n; i++) {
		if (i)
			*w++ = '.';
		size_t k = strlen(parts.v[i]);
		memcpy(w, parts.v[i], k);
		w += k;
	}
	*w = 0;
	const char *r = strtab_intern(p->names, s, (size_t)(w - s));
	if (!r)
		out_of_memory(p);
	return r;
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])* */
static ast_stmt *parse_import(parser *p)
{
	lex_token *kw = next(p);
	ast_stmt *s = new_stmt(p, AST_IMPORT, kw->loc);
	int cap = 0;
	do {
		ast_alias al = {0};
		al.loc = p->tok->loc;
		al.name = parse_dotted_name(p);
		if (accept(p, LEX_KW_AS))
			al.asname = expect(p, LEX_NAME, "expected a name after 'as'")->name;
		al.loc = span(p, al.loc);
		PUSH(p, s->import.names, s->import.n, cap, al);
	} while (accept(p, LEX_COMMA));
	return s;
}

/* import_from: 'from' dotted_name 'import' ('(' names [','] ')' | names)
 * names: NAME ['as' NAME] (',' NAME ['as' NAME])*
 * Relative imports ('from .') and 'import *' are unsupported. */
static ast_stmt *parse_from_import(parser *p)
{
	lex_token *kw = next(p);
	if (peek(p) == LEX_DOT || peek(p) == LEX_ELLIPSIS)
		unsupported(p, p->tok->loc, "relative import");
	ast_stmt *s = new_stmt(p, AST_IMPORTFROM, kw->loc);
	s->import.module = parse_dotted_name(p);
	expect(p, LEX_KW_IMPORT, "expected 'import' after module name");
	if (peek(p) == LEX_STAR)
		unsupported(p, p->tok->loc, "wildcard import (import *)");
	bool paren = accept(p, LEX_LPAREN);
	int cap = 0;
	do {
		if (paren && peek(p) == LEX_RPAREN && s->import.n)
			break;
		ast_alias al = {0};
		lex_token *t = expect(p, LEX_NAME, "expected a name to import");
		al.name = t->name;
		al.loc = t->loc;
		if (accept(p, LEX_KW_AS))
			al.asname = expect(p, LEX_NAME, "expected a name after 'as'")->name;
		al.loc = span(p, al.loc);
		PUSH(p, s->import.names, s->import.n, cap, al);
	} while (accept(p, LEX_COMMA));
	if (paren)
		expect(p, LEX_RPAREN, "expected ',' or ')' in import list");
	else if (p->prev->kind == LEX_COMMA)
		error_at(p, p->prev->loc, "trailing comma not allowed without surrounding parentheses");
	return s;
}

/* Reports the compound statement that starts at the current token and that tilecc does
 * not support. */
static _Noreturn void unsupported_stmt(parser *p)
{
	srcloc loc = p->tok->loc;
	switch (peek(p)) {
	case LEX_KW_CLASS: unsupported(p, loc, "class definition");
	case LEX_KW_TRY: unsupported(p, loc, "try statement");
	case LEX_KW_WITH: unsupported(p, loc, "with statement");
	case LEX_KW_ASYNC: unsupported(p, loc, "async");
	default: syntax_error(p);
	}
}

/* simple_stmt: expr_stmt | 'pass' | 'break' | 'continue' | 'return' [testlist]
 *            | 'assert' test [',' test] | import_name | import_from */
static ast_stmt *parse_simple_stmt(parser *p)
{
	lex_token *t = p->tok;
	ast_stmt *s;
	switch (t->kind) {
	case LEX_KW_PASS:
		next(p);
		return new_stmt(p, AST_PASS, t->loc);
	case LEX_KW_BREAK:
		if (!p->loop_depth)
			error_at(p, t->loc, "'break' outside loop");
		next(p);
		return new_stmt(p, AST_BREAK, t->loc);
	case LEX_KW_CONTINUE:
		if (!p->loop_depth)
			error_at(p, t->loc, "'continue' not properly in loop");
		next(p);
		return new_stmt(p, AST_CONTINUE, t->loc);
	case LEX_KW_RETURN:
		if (!p->func_depth)
			error_at(p, t->loc, "'return' outside function");
		next(p);
		s = new_stmt(p, AST_RETURN, t->loc);
		if (peek(p) != LEX_NEWLINE && peek(p) != LEX_SEMI)
			s->expr = parse_testlist(p);
		return s;
	case LEX_KW_ASSERT:
		next(p);
		s = new_stmt(p, AST_ASSERT, t->loc);
		s->assert_.test = parse_test(p);
		if (accept(p, LEX_COMMA))
			s->assert_.msg = parse_test(p);
		return s;
	case LEX_KW_IMPORT:
		return parse_import(p);
	case LEX_KW_FROM:
		return parse_from_import(p);
	case LEX_KW_DEL:
		unsupported(p, t->loc, "del statement");
	case LEX_KW_GLOBAL:
		unsupported(p, t->loc, "global statement");
	case LEX_KW_NONLOCAL:
		unsupported(p, t->loc, "nonlocal statement");
	case LEX_KW_RAISE:
		unsupported(p, t->loc, "raise statement");
	case LEX_KW_YIELD:
		unsupported(p, t->loc, "yield expression");
	case LEX_KW_ELSE: case LEX_KW_ELIF: case LEX_KW_EXCEPT: case LEX_KW_FINALLY:
	case LEX_KW_AS: case LEX_KW_IN: case LEX_KW_IS: case LEX_KW_AND: case LEX_KW_OR:
	case LEX_INDENT: case LEX_DEDENT:
	case LEX_KW_IF: case LEX_KW_FOR: case LEX_KW_WHILE: case LEX_KW_DEF: case LEX_AT:
		syntax_error(p); /* a compound statement after "if x:" on the same line */
	case LEX_KW_CLASS: case LEX_KW_TRY: case LEX_KW_WITH: case LEX_KW_ASYNC:
		unsupported_stmt(p);
	default:
		return parse_expr_stmt(p);
	}
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void parse_simple_stmts(parser *p, list *out)
{
	for (;;) {
		list_push(p, out, parse_simple_stmt(p));
		if (!accept(p, LEX_SEMI) || peek(p) == LEX_NEWLINE)
			break;
	}
	if (!accept(p, LEX_NEWLINE))
		syntax_error(p);
}

/* if_stmt: 'if' test ':' block ('elif' test ':' block)* ['else' ':' block]
 * An elif becomes an else block holding one AST_IF; the chain is built without recursion. */
static ast_stmt *parse_if(parser *p)
{
	lex_token *kw = next(p);
	ast_stmt *s = new_stmt(p, AST_IF, kw->loc);
	s->if_.cond = parse_test(p);
	expect(p, LEX_COLON, "expected ':' after 'if' condition");
	s->if_.then = parse_block(p, "'if' statement", kw->loc.line);
	ast_stmt *cur = s;
	while (peek(p) == LEX_KW_ELIF) {
		lex_token *ekw = next(p);
		ast_stmt *e = new_stmt(p, AST_IF, ekw->loc);
		e->if_.cond = parse_test(p);
		expect(p, LEX_COLON, "expected ':' after 'elif' condition");
		e->if_.then = parse_block(p, "'elif' statement", ekw->loc.line);
		ast_stmt **one = alloc(p, sizeof *one);
		one[0] = e;
		cur->if_.els = (ast_block){one, 1};
		cur = e;
	}
	if (peek(p) == LEX_KW_ELSE) {
		lex_token *ekw = next(p);
		expect(p, LEX_COLON, "expected ':' after 'else'");
		cur->if_.els = parse_block(p, "'else' statement", ekw->loc.line);
	}
	return s;
}

/* for_stmt: 'for' exprlist 'in' testlist ':' block       ('else' is unsupported) */
static ast_stmt *parse_for(parser *p)
{
	lex_token *kw = next(p);
	ast_stmt *s = new_stmt(p, AST_FOR, kw->loc);
	s->for_.target = parse_exprlist(p);
	check_target(p, s->for_.target, "assign to");
	expect(p, LEX_KW_IN, "expected 'in' after 'for' target");
	s->for_.iter = parse_testlist(p);
	expect(p, LEX_COLON, "expected ':' after 'for' clause");
	p->loop_depth++;
	s->for_.body = parse_block(p, "'for' statement", kw->loc.line);
	p->loop_depth--;
	if (peek(p) == LEX_KW_ELSE)
		unsupported(p, p->tok->loc, "for ... else");
	return s;
}

/* while_stmt: 'while' test ':' block                      ('else' is unsupported) */
static ast_stmt *parse_while(parser *p)
{
	lex_token *kw = next(p);
	ast_stmt *s = new_stmt(p, AST_WHILE, kw->loc);
	s->while_.cond = parse_test(p);
	expect(p, LEX_COLON, "expected ':' after 'while' condition");
	p->loop_depth++;
	s->while_.body = parse_block(p, "'while' statement", kw->loc.line);
	p->loop_depth--;
	if (peek(p) == LEX_KW_ELSE)
		unsupported(p, p->tok->loc, "while ... else");
	return s;
}

/* params: param (',' param)* [',']
 * param: NAME [':' test] ['=' test]          (annotations only in def, not in lambda)
 * '*', '**' and '/' parameters are unsupported. */
static void parse_params(parser *p, lex_kind close, bool annotations, ast_param **params,
			 int *nparams)
{
	int cap = 0;
	bool seen_default = false;
	while (peek(p) != close) {
		if (peek(p) == LEX_STAR)
			unsupported(p, p->tok->loc, peek2(p) == LEX_NAME
							    ? "star parameters (*args)"
							    : "keyword-only parameters (bare '*')");
		if (peek(p) == LEX_DSTAR)
			unsupported(p, p->tok->loc, "keyword parameters (**kwargs)");
		if (peek(p) == LEX_SLASH)
			unsupported(p, p->tok->loc, "positional-only parameters ('/')");
		lex_token *name = expect(p, LEX_NAME, "expected a parameter name");
		for (int i = 0; i < *nparams; i++)
			if ((*params)[i].name == name->name)
				error_at(p, name->loc, "duplicate argument '%s' in function definition",
					 name->name);
		ast_param prm = {name->name, name->loc, NULL, NULL};
		if (annotations && accept(p, LEX_COLON))
			prm.annotation = parse_test(p);
		if (accept(p, LEX_ASSIGN)) {
			prm.def = parse_test(p);
			seen_default = true;
		} else if (seen_default) {
			error_at(p, name->loc,
				 "parameter without a default follows parameter with a default");
		}
		PUSH(p, *params, *nparams, cap, prm);
		if (!accept(p, LEX_COMMA))
			break;
	}
}

/* funcdef: 'def' NAME '(' [params] ')' ['->' test] ':' block */
static ast_stmt *parse_funcdef(parser *p, list *decorators)
{
	lex_token *kw = next(p);
	if (p->func_depth)
		unsupported(p, kw->loc, "nested function definition");
	lex_token *name = expect(p, LEX_NAME, "expected a function name after 'def'");
	ast_func *f = alloc(p, sizeof *f);
	f->name = name->name;
	f->loc = name->loc;
	f->decorators = (ast_expr **)decorators->v;
	f->ndecorators = decorators->n;
	expect(p, LEX_LPAREN, "expected '(' after the function name");
	parse_params(p, LEX_RPAREN, true, &f->params, &f->nparams);
	expect(p, LEX_RPAREN, "expected ',' or ')' after parameter");
	if (accept(p, LEX_ARROW))
		f->returns = parse_test(p);
	expect(p, LEX_COLON, "expected ':' after the function signature");
	int saved_loops = p->loop_depth;
	p->func_depth++;
	p->loop_depth = 0;
	f->body = parse_block(p, "function definition", kw->loc.line);
	p->func_depth--;
	p->loop_depth = saved_loops;
	ast_stmt *s = new_stmt(p, AST_FUNCDEF, kw->loc);
	s->func = f;
	return s;
}

/* decorated: ('@' test NEWLINE)+ funcdef */
static ast_stmt *parse_decorated(parser *p)
{
	list decs = {0};
	while (peek(p) == LEX_AT) {
		next(p);
		list_push(p, &decs, parse_test(p));
		expect(p, LEX_NEWLINE, "expected end of line after decorator");
	}
	switch (peek(p)) {
	case LEX_KW_DEF:
		return parse_funcdef(p, &decs);
	case LEX_KW_CLASS:
		unsupported(p, p->tok->loc, "class definition");
	case LEX_KW_ASYNC:
		unsupported(p, p->tok->loc, "async function");
	case LEX_INDENT:
		syntax_error(p);
	default:
		unsupported(p, p->tok->loc, "decorator on a non-function");
	}
}

/* stmt: if_stmt | for_stmt | while_stmt | funcdef | decorated | simple_stmts
 * (class, try, with and async are recognised and reported) */
static void parse_stmt(parser *p, list *out)
{
	lex_token *t = p->tok;
	switch (t->kind) {
	case LEX_KW_IF:
		list_push(p, out, parse_if(p));
		return;
	case LEX_KW_FOR:
		list_push(p, out, parse_for(p));
		return;
	case LEX_KW_WHILE:
		list_push(p, out, parse_while(p));
		return;
	case LEX_KW_DEF: {
		list none = {0};
		list_push(p, out, parse_funcdef(p, &none));
		return;
	}
	case LEX_AT:
		list_push(p, out, parse_decorated(p));
		return;
	case LEX_KW_CLASS: case LEX_KW_TRY: case LEX_KW_WITH: case LEX_KW_ASYNC:
		unsupported_stmt(p);
	default:
		parse_simple_stmts(p, out);
	}
}

ast_module *parse_module(arena *a, strtab *names, diag_engine *d, uint32_t file,
			 const char *src, uint32_t len)
{
	uint32_t ntoks = 0;
	lex_token *toks = lex_tokenize(a, names, file, src, len, &ntoks);
	if (!toks || !ntoks) {
		diag_error(d, SRCLOC_NONE, "out of memory");
		return NULL;
	}
	parser P = {.a = a, .names = names, .d = d, .tok = toks};
	parser *p = &P;
	if (setjmp(p->fail))
		return NULL;
	check_lex_error(p);
	ast_module *m = alloc(p, sizeof *m);
	m->file = file;
	list body = {0};
	while (!accept(p, LEX_EOF)) {
		if (peek(p) == LEX_DEDENT) /* cannot happen: the lexer balances them */
			syntax_error(p);
		parse_stmt(p, &body);
	}
	m->body = to_block(&body);
	return m;
}
