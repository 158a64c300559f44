/* parse_expr.c: the expression half of the parser (see parse_int.h): Python 3.12's
 * expression grammar with its displays, comprehensions, f-strings, lambdas, star and
 * double-star unpacking, named expressions, yield and await, plus parameter lists and the
 * case patterns of match statements (parsed as expressions, see parse_test).
 *
 * The grammar rule each function implements is written above it. Nothing here knows the
 * kernel subset: sema reports what kernels may not use where a kernel reaches it. */
#include <stdio.h>

#include "parse_int.h"

static ast_expr *parse_factor(parser *p);
static ast_expr *parse_atom(parser *p);

static bool starts_expr(lex_kind k)
{
	switch (k) {
	case LEX_NAME: case LEX_INT: case LEX_FLOAT: case LEX_IMAG: case LEX_STR:
	case LEX_FSTRING_START: case LEX_KW_TRUE: case LEX_KW_FALSE: case LEX_KW_NONE:
	case LEX_LPAREN: case LEX_LBRACKET: case LEX_LBRACE: case LEX_MINUS: case LEX_PLUS:
	case LEX_TILDE: case LEX_KW_NOT: case LEX_KW_LAMBDA: case LEX_KW_AWAIT: case LEX_KW_YIELD:
	case LEX_ELLIPSIS: case LEX_STAR:
		return true;
	default:
		return false;
	}
}

/* ---- comprehensions ------------------------------------------------------------------- */

/* for_if_clauses: (['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*)+ */
static void parse_comp_fors(parser *p, ast_expr *c)
{
	int cap = 0;
	while (parse_peek(p) == LEX_KW_FOR || parse_peek(p) == LEX_KW_ASYNC) {
		ast_comp_for g = {0};
		g.is_async = parse_accept(p, LEX_KW_ASYNC);
		parse_expect(p, LEX_KW_FOR, "expected 'for' after 'async'");
		g.target = parse_exprlist(p);
		parse_check_target(p, g.target, "assign to");
		parse_expect(p, LEX_KW_IN, "expected 'in' in comprehension");
		g.iter = parse_or(p);
		int icap = 0;
		while (parse_accept(p, LEX_KW_IF)) {
			ast_expr *cond = parse_or(p);
			PUSH(p, g.ifs, g.nifs, icap, cond);
		}
		PUSH(p, c->comp.gens, c->comp.ngens, cap, g);
	}
}

static bool at_comp(parser *p)
{
	return parse_peek(p) == LEX_KW_FOR ||
	       (parse_peek(p) == LEX_KW_ASYNC && parse_peek_at(p, 1) == LEX_KW_FOR);
}

/* A comprehension of kind `of` whose element (and value, for dicts) was just parsed. */
static ast_expr *parse_comp(parser *p, ast_expr_kind of, srcloc loc, ast_expr *elt,
			    ast_expr *value)
{
	if (elt->kind == AST_STARRED)
		parse_error(p, elt->loc, "iterable unpacking cannot be used in comprehension");
	ast_expr *c = parse_new_expr(p, AST_COMP, loc);
	c->comp.of = of;
	c->comp.elt = elt;
	c->comp.value = value;
	parse_comp_fors(p, c);
	return c;
}

/* ---- displays -------------------------------------------------------------------------- */

/* Finishes a sequence display after its first item: (',' star_named)* [','] up to close. */
static ast_expr *parse_seq_rest(parser *p, ast_expr_kind k, srcloc loc, ast_expr *first,
				lex_kind close)
{
	ast_expr *e = parse_new_expr(p, k, loc);
	int cap = 0;
	if (first)
		PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (first && parse_accept(p, LEX_COMMA)) {
		if (parse_peek(p) == close)
			break;
		ast_expr *x = parse_star_test(p);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	return e;
}

/* dict_or_set: '{' '}' | '{' kvpair (',' kvpair)* [','] '}' | '{' kvpair for_if_clauses '}'
 *            | '{' star_named (',' star_named)* [','] '}' | '{' named for_if_clauses '}'
 * kvpair: expression ':' expression | '**' bitwise_or */
static ast_expr *parse_brace(parser *p)
{
	lex_token *t = parse_next(p);
	ast_expr *e;
	if (parse_accept(p, LEX_RBRACE)) {
		e = parse_new_expr(p, AST_DICT, parse_span(p, t->loc));
		return e;
	}
	bool is_dict;
	ast_expr *k = NULL, *v = NULL;
	if (parse_accept(p, LEX_DSTAR)) {
		is_dict = true;
		v = parse_binary(p, 1);
	} else {
		k = parse_star_test(p);
		is_dict = k->kind != AST_STARRED && parse_peek(p) == LEX_COLON;
		if (is_dict) {
			parse_next(p);
			v = parse_test(p);
		}
	}
	if (at_comp(p) && k) {
		e = parse_comp(p, is_dict ? AST_DICT : AST_SET, t->loc, k, v);
		parse_expect(p, LEX_RBRACE, "expected '}' after comprehension");
		e->loc = parse_span(p, t->loc);
		return e;
	}
	if (!is_dict) {
		e = parse_seq_rest(p, AST_SET, t->loc, k, LEX_RBRACE);
		parse_expect(p, LEX_RBRACE, "expected ',' or '}' in set");
		e->loc = parse_span(p, t->loc);
		return e;
	}
	e = parse_new_expr(p, AST_DICT, t->loc);
	int kcap = 0, vcap = 0, n = 0;
	for (;;) {
		n = e->dict.n;
		PUSH(p, e->dict.keys, n, kcap, k);
		n = e->dict.n;
		PUSH(p, e->dict.values, n, vcap, v);
		e->dict.n = n;
		if (!parse_accept(p, LEX_COMMA) || parse_peek(p) == LEX_RBRACE)
			break;
		if (parse_accept(p, LEX_DSTAR)) {
			k = NULL;
			v = parse_binary(p, 1);
			continue;
		}
		k = parse_test(p);
		parse_expect(p, LEX_COLON, "expected ':' after dict key");
		v = parse_test(p);
	}
	parse_expect(p, LEX_RBRACE, "expected ',' or '}' in dict");
	e->loc = parse_span(p, t->loc);
	return e;
}

/* ---- strings ----------------------------------------------------------------------------- */

static ast_expr *parse_fstring_body(parser *p, srcloc loc, lex_kind end);

/* fstring_replacement_field: '{' (yield_expr | star_expressions) ['='] ['!' NAME]
 *                            [':' fstring_format_spec*] '}' */
static ast_expr *parse_fstring_field(parser *p)
{
	lex_token *open = parse_next(p);
	ast_expr *f = parse_new_expr(p, AST_FVALUE, open->loc);
	f->fvalue.value = parse_testlist_or_yield(p);
	if (parse_accept(p, LEX_ASSIGN))
		f->fvalue.debug = true;
	if (parse_accept(p, LEX_EXCLAIM)) {
		lex_token *c = parse_expect(p, LEX_NAME, "f-string: expected a conversion after '!'");
		if (c->name != p->n_r && c->name != p->n_s && c->name != p->n_a)
			parse_error(p, c->loc, "f-string: invalid conversion character '%s': expected "
					       "'s', 'r', or 'a'", c->name);
		f->fvalue.conv = c->name[0];
	}
	if (parse_accept(p, LEX_COLON))
		f->fvalue.spec = parse_fstring_body(p, p->prev->loc, LEX_RBRACE);
	parse_expect(p, LEX_RBRACE, "f-string: expecting '}'");
	f->loc = parse_span(p, open->loc);
	return f;
}

/* The pieces of an f-string (or of a format spec) up to `end`, which is not consumed. */
static ast_expr *parse_fstring_body(parser *p, srcloc loc, lex_kind end)
{
	ast_expr *e = parse_new_expr(p, AST_FSTRING, loc);
	int cap = 0;
	parse_enter(p);
	while (parse_peek(p) != end) {
		ast_expr *piece;
		if (parse_peek(p) == LEX_FSTRING_MIDDLE) {
			lex_token *t = parse_next(p);
			piece = parse_new_expr(p, AST_STR, t->loc);
			piece->str.s = t->str.s;
			piece->str.len = t->str.len;
		} else if (parse_peek(p) == LEX_LBRACE) {
			piece = parse_fstring_field(p);
		} else {
			parse_syntax_error(p);
		}
		PUSH(p, e->seq.items, e->seq.n, cap, piece);
	}
	parse_leave(p);
	return e;
}

/* strings: (STRING | fstring)+ ; adjacent literals concatenate. Plain strings stay one
 * AST_STR (AST_BYTES for bytes); with an f-string among them the result is an AST_FSTRING. */
static ast_expr *parse_strings(parser *p)
{
	lex_token *t = p->tok;
	bool has_f = false;
	size_t n = 0;
	for (lex_token *q = t; q->kind == LEX_STR || q->kind == LEX_FSTRING_START; q++) {
		if (q->kind == LEX_FSTRING_START) {
			has_f = true;
			break;
		}
		n += q->str.len;
	}
	if (!has_f) {
		char *s = parse_alloc(p, n + 1);
		size_t k = 0;
		bool bytes = t->is_bytes;
		while (parse_peek(p) == LEX_STR) {
			lex_token *u = parse_next(p);
			if (u->is_bytes != bytes)
				parse_error(p, u->loc, "cannot mix bytes and nonbytes literals");
			memcpy(s + k, u->str.s, u->str.len);
			k += u->str.len;
		}
		s[k] = 0;
		ast_expr *e = parse_new_expr(p, bytes ? AST_BYTES : AST_STR, parse_span(p, t->loc));
		e->str.s = s;
		e->str.len = (uint32_t)k;
		return e;
	}
	ast_expr *e = parse_new_expr(p, AST_FSTRING, t->loc);
	int cap = 0;
	for (;;) {
		if (parse_peek(p) == LEX_STR) {
			lex_token *u = parse_next(p);
			if (u->is_bytes)
				parse_error(p, u->loc, "cannot mix bytes and nonbytes literals");
			ast_expr *piece = parse_new_expr(p, AST_STR, u->loc);
			piece->str.s = u->str.s;
			piece->str.len = u->str.len;
			PUSH(p, e->seq.items, e->seq.n, cap, piece);
		} else if (parse_peek(p) == LEX_FSTRING_START) {
			lex_token *u = parse_next(p);
			ast_expr *body = parse_fstring_body(p, u->loc, LEX_FSTRING_END);
			parse_next(p);
			for (int i = 0; i < body->seq.n; i++)
				PUSH(p, e->seq.items, e->seq.n, cap, body->seq.items[i]);
		} else {
			break;
		}
	}
	e->loc = parse_span(p, t->loc);
	return e;
}

/* ---- atoms and primaries ----------------------------------------------------------------- */

/* '(' ')' | '(' yield_expr ')' | '(' named ')' | '(' named for_if_clauses ')'
 * | '(' star_named ',' [star_named (',' star_named)* [',']] ')' */
static ast_expr *parse_paren(parser *p)
{
	lex_token *t = parse_next(p);
	ast_expr *e;
	if (parse_accept(p, LEX_RPAREN))
		return parse_new_expr(p, AST_TUPLE, parse_span(p, t->loc));
	if (parse_peek(p) == LEX_KW_YIELD) {
		e = parse_yield(p);
		parse_expect(p, LEX_RPAREN, "expected ')'");
		return e;
	}
	ast_expr *first = parse_star_test(p);
	if (at_comp(p)) {
		e = parse_comp(p, AST_TUPLE, t->loc, first, NULL);
		parse_expect(p, LEX_RPAREN, "expected ')' after generator expression");
		e->loc = parse_span(p, t->loc);
		return e;
	}
	if (parse_peek(p) == LEX_COMMA || first->kind == AST_STARRED) {
		e = parse_seq_rest(p, AST_TUPLE, t->loc, first, LEX_RPAREN);
		parse_expect(p, LEX_RPAREN, "expected ',' or ')' in tuple");
		e->loc = parse_span(p, t->loc);
		return e;
	}
	parse_expect(p, LEX_RPAREN, "expected ')'");
	return first;
}

/* atom: NAME | NUMBER | strings | 'True' | 'False' | 'None' | '...'
 *     | tuple | group | genexp | list | listcomp | dict | set | dictcomp | setcomp */
static ast_expr *parse_atom(parser *p)
{
	lex_token *t = p->tok;
	ast_expr *e;
	switch (t->kind) {
	case LEX_NAME:
		parse_next(p);
		e = parse_new_expr(p, AST_NAME, t->loc);
		e->name = t->name;
		return e;
	case LEX_INT:
		parse_next(p);
		e = parse_new_expr(p, AST_INT, t->loc);
		e->ival = t->ival;
		e->int_big = t->int_big;
		return e;
	case LEX_FLOAT:
	case LEX_IMAG:
		parse_next(p);
		e = parse_new_expr(p, t->kind == LEX_FLOAT ? AST_FLOAT : AST_IMAG, t->loc);
		e->fval = t->fval;
		return e;
	case LEX_STR:
	case LEX_FSTRING_START:
		return parse_strings(p);
	case LEX_KW_TRUE:
	case LEX_KW_FALSE:
		parse_next(p);
		e = parse_new_expr(p, AST_BOOL, t->loc);
		e->bval = t->kind == LEX_KW_TRUE;
		return e;
	case LEX_KW_NONE:
		parse_next(p);
		return parse_new_expr(p, AST_NONE, t->loc);
	case LEX_ELLIPSIS:
		parse_next(p);
		return parse_new_expr(p, AST_ELLIPSIS, t->loc);
	case LEX_LPAREN:
		return parse_paren(p);
	case LEX_LBRACKET: {
		parse_next(p);
		ast_expr *first = NULL;
		if (parse_peek(p) != LEX_RBRACKET) {
			first = parse_star_test(p);
			if (at_comp(p)) {
				e = parse_comp(p, AST_LIST, t->loc, first, NULL);
				parse_expect(p, LEX_RBRACKET, "expected ']' after list comprehension");
				e->loc = parse_span(p, t->loc);
				return e;
			}
		}
		e = parse_seq_rest(p, AST_LIST, t->loc, first, LEX_RBRACKET);
		parse_expect(p, LEX_RBRACKET, "expected ',' or ']' in list");
		e->loc = parse_span(p, t->loc);
		return e;
	}
	case LEX_LBRACE:
		return parse_brace(p);
	case LEX_INDENT:
		parse_syntax_error(p);
	default:
		parse_error(p, t->loc, "expected an expression");
	}
}

/* arguments: arg (',' arg)* [','] ')'
 * arg: '*' expression | '**' expression | NAME '=' expression | named [for_if_clauses]
 * A generator expression must be the only argument when it is not parenthesised. */
void parse_call_args(parser *p, ast_expr *call)
{
	int acap = 0, kcap = 0;
	bool kwunpack = false;
	while (parse_peek(p) != LEX_RPAREN) {
		if (parse_peek(p) == LEX_STAR) {
			lex_token *st = parse_next(p);
			ast_expr *a = parse_new_expr(p, AST_STARRED, st->loc);
			a->wrap.value = parse_test(p);
			a->loc = parse_span(p, st->loc);
			PUSH(p, call->call.args, call->call.nargs, acap, a);
		} else if (parse_peek(p) == LEX_DSTAR) {
			lex_token *st = parse_next(p);
			ast_keyword kw = {NULL, st->loc, parse_test(p)};
			PUSH(p, call->call.kws, call->call.nkws, kcap, kw);
			kwunpack = true;
		} else if (parse_peek(p) == LEX_NAME && parse_peek_at(p, 1) == LEX_ASSIGN) {
			lex_token *name = parse_next(p);
			parse_next(p);
			for (int i = 0; i < call->call.nkws; i++)
				if (call->call.kws[i].name == name->name)
					parse_error(p, name->loc, "keyword argument repeated: %s",
						    name->name);
			ast_keyword kw = {name->name, name->loc, parse_test(p)};
			PUSH(p, call->call.kws, call->call.nkws, kcap, kw);
		} else {
			ast_expr *a = parse_test(p);
			if (at_comp(p)) {
				a = parse_comp(p, AST_TUPLE, a->loc, a, NULL);
				a->loc = parse_span(p, a->loc);
				bool more = parse_peek(p) == LEX_COMMA && parse_peek_at(p, 1) != LEX_RPAREN;
				if (call->call.nargs || call->call.nkws || more)
					parse_error(p, a->loc, "Generator expression must be parenthesized");
			}
			if (parse_peek(p) == LEX_ASSIGN)
				parse_error(p, a->loc, "expression cannot contain assignment, perhaps "
						       "you meant \"==\"?");
			if (call->call.nkws)
				parse_error(p, a->loc, kwunpack ? "positional argument follows keyword "
								  "argument unpacking"
								: "positional argument follows keyword "
								  "argument");
			PUSH(p, call->call.args, call->call.nargs, acap, a);
		}
		if (!parse_accept(p, LEX_COMMA))
			break;
	}
	parse_expect(p, LEX_RPAREN, "expected ',' or ')' after call argument");
}

/* slice: [expression] ':' [expression] [':' [expression]] | named | '*' bitwise_or */
static ast_expr *parse_slice(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *lo = NULL;
	if (parse_peek(p) != LEX_COLON) {
		if (parse_peek(p) == LEX_STAR)
			return parse_star_test(p);
		lo = parse_test(p);
		if (parse_peek(p) != LEX_COLON)
			return lo;
	}
	parse_next(p);
	ast_expr *e = parse_new_expr(p, AST_SLICE, start);
	e->slice.lo = lo;
	lex_kind k = parse_peek(p);
	if (k != LEX_COLON && k != LEX_COMMA && k != LEX_RBRACKET)
		e->slice.hi = parse_test(p);
	if (parse_accept(p, LEX_COLON)) {
		k = parse_peek(p);
		if (k != LEX_COMMA && k != LEX_RBRACKET)
			e->slice.step = parse_test(p);
	}
	e->loc = parse_span(p, start);
	return e;
}

/* primary: atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')*
 * slices: slice (',' slice)* [',']      (several make a tuple) */
static ast_expr *parse_primary(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *e = parse_atom(p);
	for (int terms = 1;; terms++) { /* the terms so far */
		lex_kind k = parse_peek(p);
		if (terms == PARSE_MAX_CHAIN && (k == LEX_DOT || k == LEX_LPAREN || k == LEX_LBRACKET))
			parse_error(p, start, "expression too deeply nested (a chain of more than %d "
				    "terms)", PARSE_MAX_CHAIN);
		if (parse_accept(p, LEX_DOT)) {
			lex_token *name = parse_expect(p, LEX_NAME, "expected attribute name after '.'");
			ast_expr *a = parse_new_expr(p, AST_ATTR, parse_span(p, start));
			a->attr.value = e;
			a->attr.name = name->name;
			a->attr.name_loc = name->loc;
			e = a;
		} else if (parse_peek(p) == LEX_LPAREN) {
			parse_next(p);
			ast_expr *c = parse_new_expr(p, AST_CALL, start);
			c->call.func = e;
			parse_enter(p);
			parse_call_args(p, c);
			parse_leave(p);
			c->loc = parse_span(p, start);
			e = c;
		} else if (parse_peek(p) == LEX_LBRACKET) {
			parse_next(p);
			parse_enter(p);
			ast_expr *idx = parse_slice(p);
			if (parse_peek(p) == LEX_COMMA || idx->kind == AST_STARRED) {
				ast_expr *t = parse_new_expr(p, AST_TUPLE, idx->loc);
				int cap = 0;
				PUSH(p, t->seq.items, t->seq.n, cap, idx);
				while (parse_accept(p, LEX_COMMA) && parse_peek(p) != LEX_RBRACKET) {
					ast_expr *x = parse_slice(p);
					PUSH(p, t->seq.items, t->seq.n, cap, x);
				}
				t->loc = parse_span(p, idx->loc);
				idx = t;
			}
			parse_leave(p);
			parse_expect(p, LEX_RBRACKET, "expected ',' or ']' in subscript");
			ast_expr *s = parse_new_expr(p, AST_SUBSCRIPT, parse_span(p, start));
			s->sub.value = e;
			s->sub.index = idx;
			e = s;
		} else {
			return e;
		}
	}
}

/* await_primary: 'await' primary | primary
 * power: await_primary ['**' factor]       (right-associative through factor) */
static ast_expr *parse_power(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *base;
	if (parse_accept(p, LEX_KW_AWAIT)) {
		parse_enter(p);
		base = parse_new_expr(p, AST_AWAIT, start);
		base->wrap.value = parse_primary(p);
		base->loc = parse_span(p, start);
		parse_leave(p);
	} else {
		base = parse_primary(p);
	}
	if (!parse_accept(p, LEX_DSTAR))
		return base;
	parse_enter(p);
	ast_expr *exp = parse_factor(p);
	parse_leave(p);
	ast_expr *e = parse_new_expr(p, AST_BINOP, parse_span(p, start));
	e->bin.op = AST_POW;
	e->bin.lhs = base;
	e->bin.rhs = exp;
	return e;
}

/* factor: ('+' | '-' | '~') factor | power */
static ast_expr *parse_factor(parser *p)
{
	lex_kind k = parse_peek(p);
	if (k != LEX_PLUS && k != LEX_MINUS && k != LEX_TILDE)
		return parse_power(p);
	lex_token *t = parse_next(p);
	parse_enter(p);
	ast_expr *operand = parse_factor(p);
	parse_leave(p);
	ast_expr *e = parse_new_expr(p, AST_UNARY, parse_span(p, t->loc));
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

/* bitwise_or:  bitwise_xor ('|' bitwise_xor)*
 * bitwise_xor: bitwise_and ('^' bitwise_and)*
 * bitwise_and: shift_expr ('&' shift_expr)*
 * shift_expr:  sum (('<<' | '>>') sum)*
 * sum:         term (('+' | '-') term)*
 * term:        factor (('*' | '/' | '//' | '%' | '@') factor)*
 * All left-associative; one loop climbs the precedence levels. */
ast_expr *parse_binary(parser *p, int minprec)
{
	srcloc start = p->tok->loc;
	ast_expr *lhs = parse_factor(p);
	for (int terms = 1;; terms++) { /* the terms so far */
		int i, n = (int)(sizeof binops / sizeof binops[0]);
		for (i = 0; i < n; i++)
			if (binops[i].tok == parse_peek(p))
				break;
		if (i == n || binops[i].prec < minprec)
			return lhs;
		if (terms == PARSE_MAX_CHAIN)
			parse_error(p, start, "expression too deeply nested (a chain of more than %d "
				    "terms)", PARSE_MAX_CHAIN);
		parse_next(p);
		ast_expr *rhs = parse_binary(p, binops[i].prec + 1);
		ast_expr *e = parse_new_expr(p, AST_BINOP, parse_span(p, start));
		e->bin.op = binops[i].op;
		e->bin.lhs = lhs;
		e->bin.rhs = rhs;
		lhs = e;
	}
}

/* comparison: bitwise_or (comp_op bitwise_or)*
 * comp_op: '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' */
static ast_expr *parse_comparison(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *first = parse_binary(p, 1);
	ast_expr *e = NULL;
	int ocap = 0, rcap = 0, n = 0;
	for (;;) {
		ast_cmpop op;
		switch (parse_peek(p)) {
		case LEX_LT: op = AST_LT; break;
		case LEX_GT: op = AST_GT; break;
		case LEX_EQ: op = AST_EQ; break;
		case LEX_GE: op = AST_GE; break;
		case LEX_LE: op = AST_LE; break;
		case LEX_NE: op = AST_NE; break;
		case LEX_KW_IN: op = AST_IN; break;
		case LEX_KW_IS: op = AST_IS; break;
		case LEX_KW_NOT:
			if (parse_peek_at(p, 1) != LEX_KW_IN)
				goto done;
			parse_next(p);
			op = AST_NOTIN;
			break;
		default:
			goto done;
		}
		parse_next(p);
		if (op == AST_IS && parse_accept(p, LEX_KW_NOT))
			op = AST_ISNOT;
		if (!e) {
			e = parse_new_expr(p, AST_COMPARE, start);
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
	e->loc = parse_span(p, start);
	return e;
}

/* inversion: 'not' inversion | comparison */
static ast_expr *parse_not(parser *p)
{
	if (parse_peek(p) != LEX_KW_NOT)
		return parse_comparison(p);
	lex_token *t = parse_next(p);
	parse_enter(p);
	ast_expr *operand = parse_not(p);
	parse_leave(p);
	ast_expr *e = parse_new_expr(p, AST_UNARY, parse_span(p, t->loc));
	e->un.op = AST_UNOT;
	e->un.operand = operand;
	return e;
}

/* conjunction: inversion ('and' inversion)*
 * disjunction: conjunction ('or' conjunction)*      (one flat node per run of an operator) */
static ast_expr *parse_boolop(parser *p, ast_boolop_kind op)
{
	lex_kind k = op == AST_OR ? LEX_KW_OR : LEX_KW_AND;
	srcloc start = p->tok->loc;
	ast_expr *first = op == AST_OR ? parse_boolop(p, AST_AND) : parse_not(p);
	if (parse_peek(p) != k)
		return first;
	ast_expr *e = parse_new_expr(p, AST_BOOLOP, start);
	e->boolop.op = op;
	int cap = 0;
	PUSH(p, e->boolop.values, e->boolop.n, cap, first);
	while (parse_accept(p, k)) {
		ast_expr *x = op == AST_OR ? parse_boolop(p, AST_AND) : parse_not(p);
		PUSH(p, e->boolop.values, e->boolop.n, cap, x);
	}
	e->loc = parse_span(p, start);
	return e;
}

ast_expr *parse_or(parser *p)
{
	return parse_boolop(p, AST_OR);
}

/* lambdef: 'lambda' [lambda_params] ':' expression */
static ast_expr *parse_lambda(parser *p)
{
	lex_token *t = parse_next(p);
	ast_expr *e = parse_new_expr(p, AST_LAMBDA, t->loc);
	parse_params(p, LEX_COLON, false, &e->lambda.params, &e->lambda.nparams);
	parse_expect(p, LEX_COLON, "expected ':' after lambda parameters");
	e->lambda.body = parse_test(p);
	e->loc = parse_span(p, t->loc);
	return e;
}

/* named_expression: NAME ':=' expression | expression
 * expression: disjunction ['if' disjunction 'else' expression] | lambdef
 * In a case pattern (p->in_pattern) the same function reads
 *   as_pattern: or_pattern ['as' NAME]
 * since patterns are a subset of expressions ('|' is the bitwise or, class patterns are
 * calls, sequence and mapping patterns are displays); there 'if' starts the guard. */
ast_expr *parse_test(parser *p)
{
	parse_enter(p);
	ast_expr *e;
	srcloc start = p->tok->loc;
	if (parse_peek(p) == LEX_NAME && parse_peek_at(p, 1) == LEX_WALRUS) {
		lex_token *name = parse_next(p);
		parse_next(p);
		e = parse_new_expr(p, AST_NAMED, start);
		e->named.target = parse_new_expr(p, AST_NAME, name->loc);
		e->named.target->name = name->name;
		e->named.value = parse_test(p);
		e->loc = parse_span(p, start);
	} else if (parse_peek(p) == LEX_KW_LAMBDA) {
		e = parse_lambda(p);
	} else if (p->in_pattern) {
		e = parse_or(p);
		if (parse_accept(p, LEX_KW_AS)) {
			lex_token *name = parse_expect(p, LEX_NAME, "expected a name after 'as'");
			ast_expr *x = parse_new_expr(p, AST_NAMED, start);
			x->named.target = parse_new_expr(p, AST_NAME, name->loc);
			x->named.target->name = name->name;
			x->named.value = e;
			x->loc = parse_span(p, start);
			e = x;
		}
	} else {
		e = parse_or(p);
		if (parse_accept(p, LEX_KW_IF)) {
			ast_expr *cond = parse_or(p);
			parse_expect(p, LEX_KW_ELSE, "expected 'else' after 'if' expression");
			ast_expr *els = parse_test(p);
			ast_expr *x = parse_new_expr(p, AST_IFEXP, parse_span(p, start));
			x->ifexp.cond = cond;
			x->ifexp.then = e;
			x->ifexp.els = els;
			e = x;
		}
	}
	parse_leave(p);
	return e;
}

/* star_named_expression: '*' bitwise_or | named_expression */
ast_expr *parse_star_test(parser *p)
{
	if (parse_peek(p) != LEX_STAR)
		return parse_test(p);
	lex_token *t = parse_next(p);
	parse_enter(p);
	ast_expr *e = parse_new_expr(p, AST_STARRED, t->loc);
	e->wrap.value = parse_binary(p, 1);
	e->loc = parse_span(p, t->loc);
	parse_leave(p);
	return e;
}

/* star_expressions: star_expression (',' star_expression)* [',']   (a tuple with a comma) */
ast_expr *parse_testlist(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *first = parse_star_test(p);
	if (parse_peek(p) != LEX_COMMA)
		return first;
	ast_expr *e = parse_new_expr(p, AST_TUPLE, start);
	int cap = 0;
	PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (parse_accept(p, LEX_COMMA) && starts_expr(parse_peek(p))) {
		ast_expr *x = parse_star_test(p);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	e->loc = parse_span(p, start);
	return e;
}

/* yield_expr: 'yield' 'from' expression | 'yield' [star_expressions] */
ast_expr *parse_yield(parser *p)
{
	lex_token *t = parse_expect(p, LEX_KW_YIELD, "expected 'yield'");
	ast_expr *e = parse_new_expr(p, AST_YIELD, t->loc);
	if (parse_accept(p, LEX_KW_FROM)) {
		e->wrap.flag = true;
		e->wrap.value = parse_test(p);
	} else if (starts_expr(parse_peek(p))) {
		e->wrap.value = parse_testlist(p);
	}
	e->loc = parse_span(p, t->loc);
	return e;
}

ast_expr *parse_testlist_or_yield(parser *p)
{
	return parse_peek(p) == LEX_KW_YIELD ? parse_yield(p) : parse_testlist(p);
}

/* star_targets: star_target (',' star_target)* [',']
 * star_target: '*' bitwise_or | bitwise_or    (no comparisons, so 'in' ends it) */
ast_expr *parse_exprlist(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *first = parse_peek(p) == LEX_STAR ? parse_star_test(p) : parse_binary(p, 1);
	if (parse_peek(p) != LEX_COMMA)
		return first;
	ast_expr *e = parse_new_expr(p, AST_TUPLE, start);
	int cap = 0;
	PUSH(p, e->seq.items, e->seq.n, cap, first);
	while (parse_accept(p, LEX_COMMA) && starts_expr(parse_peek(p))) {
		ast_expr *x = parse_peek(p) == LEX_STAR ? parse_star_test(p) : parse_binary(p, 1);
		PUSH(p, e->seq.items, e->seq.n, cap, x);
	}
	e->loc = parse_span(p, start);
	return e;
}

/* Checks that e can be assigned to: a name, attribute, subscript, a starred target, or a
 * tuple or list of those. */
void parse_check_target(parser *p, ast_expr *e, const char *verb)
{
	const char *what;
	switch (e->kind) {
	case AST_NAME:
	case AST_ATTR:
	case AST_SUBSCRIPT:
		return;
	case AST_STARRED:
		if (!e->wrap.flag) {
			parse_check_target(p, e->wrap.value, verb);
			return;
		}
		what = "expression";
		break;
	case AST_TUPLE:
	case AST_LIST:
		for (int i = 0; i < e->seq.n; i++)
			parse_check_target(p, e->seq.items[i], verb);
		return;
	case AST_INT: case AST_FLOAT: case AST_STR: case AST_BYTES: case AST_IMAG:
	case AST_FSTRING: case AST_ELLIPSIS:
		what = "literal"; break;
	case AST_BOOL: what = e->bval ? "True" : "False"; break;
	case AST_NONE: what = "None"; break;
	case AST_CALL: what = "function call"; break;
	case AST_COMPARE: what = "comparison"; break;
	case AST_IFEXP: what = "conditional expression"; break;
	case AST_LAMBDA: what = "lambda"; break;
	case AST_DICT: what = "dict literal"; break;
	case AST_SET: what = "set display"; break;
	case AST_COMP: what = "comprehension"; break;
	case AST_YIELD: what = "yield expression"; break;
	case AST_AWAIT: what = "await expression"; break;
	case AST_NAMED: what = "named expression"; break;
	default: what = "expression"; break;
	}
	parse_error(p, e->loc, "cannot %s %s", verb, what);
}

/* ---- parameters --------------------------------------------------------------------------- */

/* parameters: param (',' param)* [',']  with, in order, positional-only ones ending in '/',
 * normal ones, then '*' [NAME] or '*' NAME and keyword-only ones, then '**' NAME.
 * param: NAME [':' expression] ['=' expression]    (annotations only in def) */
void parse_params(parser *p, lex_kind close, bool annotations, ast_param **params,
		  int *nparams)
{
	int cap = 0;
	bool seen_default = false, seen_star = false, seen_slash = false, seen_kwargs = false;
	while (parse_peek(p) != close) {
		if (seen_kwargs)
			parse_error(p, p->tok->loc, "arguments cannot follow var-keyword argument");
		if (parse_peek(p) == LEX_SLASH) {
			lex_token *t = parse_next(p);
			if (seen_slash)
				parse_error(p, t->loc, "/ may appear only once");
			if (seen_star || !*nparams)
				parse_error(p, t->loc, "/ must be ahead of *");
			seen_slash = true;
			for (int i = 0; i < *nparams; i++)
				(*params)[i].kind = AST_PARAM_POSONLY;
			if (!parse_accept(p, LEX_COMMA))
				break;
			continue;
		}
		ast_param_kind kind = seen_star ? AST_PARAM_KWONLY : AST_PARAM_NORMAL;
		if (parse_peek(p) == LEX_STAR) {
			lex_token *t = parse_next(p);
			if (seen_star)
				parse_error(p, t->loc, "* argument may appear only once");
			seen_star = true;
			if (parse_peek(p) == LEX_COMMA || parse_peek(p) == close) {
				/* a bare '*': keyword-only parameters must follow */
				if (parse_peek(p) == close || parse_peek_at(p, 1) == close ||
				    parse_peek_at(p, 1) == LEX_DSTAR)
					parse_error(p, t->loc, "named arguments must follow bare *");
				parse_next(p);
				continue;
			}
			kind = AST_PARAM_VARARGS;
		} else if (parse_peek(p) == LEX_DSTAR) {
			parse_next(p);
			kind = AST_PARAM_KWARGS;
			seen_kwargs = true;
		}
		lex_token *name = parse_expect(p, LEX_NAME, "expected a parameter name");
		for (int i = 0; i < *nparams; i++)
			if ((*params)[i].name == name->name)
				parse_error(p, name->loc, "duplicate argument '%s' in function definition",
					    name->name);
		ast_param prm = {name->name, name->loc, kind, NULL, NULL};
		if (annotations && parse_accept(p, LEX_COLON))
			prm.annotation = kind == AST_PARAM_VARARGS ? parse_star_test(p) : parse_test(p);
		if (parse_peek(p) == LEX_ASSIGN) {
			if (kind == AST_PARAM_VARARGS || kind == AST_PARAM_KWARGS)
				parse_error(p, p->tok->loc, "var-positional and var-keyword arguments "
							    "cannot have default values");
			parse_next(p);
			prm.def = parse_test(p);
			if (kind != AST_PARAM_KWONLY)
				seen_default = true;
		} else if (seen_default && kind == AST_PARAM_NORMAL) {
			parse_error(p, name->loc,
				    "parameter without a default follows parameter with a default");
		}
		PUSH(p, *params, *nparams, cap, prm);
		if (!parse_accept(p, LEX_COMMA))
			break;
	}
}

/* type_params: '[' type_param (',' type_param)* [','] ']'
 * type_param: NAME [':' expression] ['=' expression] | '*' NAME | '**' NAME */
void parse_type_params(parser *p)
{
	parse_expect(p, LEX_LBRACKET, "expected '['");
	while (parse_peek(p) != LEX_RBRACKET) {
		if (!parse_accept(p, LEX_STAR))
			parse_accept(p, LEX_DSTAR);
		parse_expect(p, LEX_NAME, "expected a type parameter name");
		if (parse_accept(p, LEX_COLON))
			parse_test(p);
		if (parse_accept(p, LEX_ASSIGN))
			parse_test(p);
		if (!parse_accept(p, LEX_COMMA))
			break;
	}
	parse_expect(p, LEX_RBRACKET, "expected ',' or ']' after type parameter");
}
