/* parse.c: recursive-descent parser from tokens (lex.h) to the AST (ast.h): the token
 * helpers, statements, blocks and the entry point. Expressions are in parse_expr.c.
 *
 * The grammar is Python 3.12's, all of it: a kernel file is a Python file, and the host
 * code around the kernels uses classes, try, with, comprehensions, f-strings, match and
 * the rest. The rule each function implements is written above it. What the kernel
 * subset lacks is not an error here; sema reports it where a kernel reaches it. The few
 * errors kept here are Python's own SyntaxErrors ('return' outside function, 'break'
 * outside loop, a parameter without a default after one with a default). */
#include <stdarg.h>
#include <stdio.h>

#include "parse_int.h"

/* ---- shared helpers (parse_int.h) -------------------------------------------------------- */

_Noreturn void parse_error(parser *p, srcloc loc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_error(p->d, loc, "%s", buf);
	longjmp(p->fail, 1);
}

static _Noreturn void out_of_memory(parser *p)
{
	diag_error(p->d, SRCLOC_NONE, "out of memory");
	longjmp(p->fail, 1);
}

void *parse_alloc(parser *p, size_t n)
{
	void *r = arena_alloc(p->a, n);
	if (!r)
		out_of_memory(p);
	return r;
}

void *parse_grow(parser *p, void *old, int n, int *cap, size_t elem)
{
	if (n < *cap)
		return old;
	int nc = *cap ? *cap * 2 : 4;
	void *r = parse_alloc(p, (size_t)nc * elem);
	if (old)
		memcpy(r, old, (size_t)n * elem);
	*cap = nc;
	return r;
}

void parse_list_push(parser *p, list *l, void *x)
{
	PUSH(p, l->v, l->n, l->cap, x);
}

/* A lexer error is reported when it becomes the current token, so that an earlier
 * syntax error wins. */
static void check_lex_error(parser *p)
{
	if (p->tok->kind == LEX_ERROR)
		parse_error(p, p->tok->loc, "%s", p->tok->str.s ? p->tok->str.s : "invalid token");
}

lex_token *parse_next(parser *p)
{
	lex_token *t = p->tok;
	if (t->kind != LEX_EOF && t->kind != LEX_ERROR) {
		p->prev = t;
		p->tok++;
		check_lex_error(p);
	}
	return t;
}

_Noreturn void parse_syntax_error(parser *p)
{
	if (parse_peek(p) == LEX_INDENT)
		parse_error(p, p->tok->loc, "unexpected indent");
	parse_error(p, p->tok->loc, "invalid syntax");
}

lex_token *parse_expect(parser *p, lex_kind k, const char *msg)
{
	if (parse_peek(p) != k) {
		if (parse_peek(p) == LEX_INDENT)
			parse_syntax_error(p);
		parse_error(p, p->tok->loc, "%s", msg);
	}
	return parse_next(p);
}

void parse_enter(parser *p)
{
	if (++p->depth > PARSE_MAX_DEPTH)
		parse_error(p, p->tok->loc, "expression too deeply nested (more than %d levels)",
			    PARSE_MAX_DEPTH);
}

void parse_leave(parser *p)
{
	p->depth--;
}

srcloc parse_span(parser *p, srcloc start)
{
	const lex_token *t = p->prev;
	if (t && t->end_line == start.line && t->end_col > start.col)
		start.len = t->end_col - start.col;
	return start;
}

ast_expr *parse_new_expr(parser *p, ast_expr_kind k, srcloc loc)
{
	ast_expr *e = parse_alloc(p, sizeof *e);
	e->kind = k;
	e->loc = loc;
	return e;
}

/* ---- statements --------------------------------------------------------------------------- */

static ast_stmt *new_stmt(parser *p, ast_stmt_kind k, srcloc loc)
{
	ast_stmt *s = parse_alloc(p, sizeof *s);
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
	parse_enter(p);
	if (parse_accept(p, LEX_NEWLINE)) {
		if (parse_peek(p) != LEX_INDENT)
			parse_error(p, p->tok->loc, "expected an indented block after %s on line %u",
				    what, line);
		parse_next(p);
		while (!parse_accept(p, LEX_DEDENT))
			parse_stmt(p, &out);
	} else {
		/* simple_stmts on the same line as the colon */
		parse_simple_stmts(p, &out);
	}
	parse_leave(p);
	return to_block(&out);
}

/* The block of a compound statement: ':' block. */
static ast_block parse_colon_block(parser *p, const char *what, uint32_t line)
{
	char msg[96];
	snprintf(msg, sizeof msg, "expected ':' after %s", what);
	parse_expect(p, LEX_COLON, msg);
	return parse_block(p, what, line);
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

/* expr_stmt: star_expressions
 *          | (star_targets '=')+ (yield_expr | star_expressions)
 *          | single_target augassign (yield_expr | star_expressions)
 *          | single_target ':' expression ['=' (yield_expr | star_expressions)]
 * augassign: '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '**=' | '@=' | '&=' | '|=' | '^='
 *          | '<<=' | '>>=' */
static ast_stmt *parse_expr_stmt(parser *p)
{
	srcloc start = p->tok->loc;
	ast_expr *e = parse_testlist_or_yield(p);
	ast_binop op;
	if (parse_peek(p) == LEX_COLON) {
		if (e->kind == AST_TUPLE)
			parse_error(p, e->loc, "only single target (not tuple) can be annotated");
		if (!single_target(e))
			parse_error(p, e->loc, "illegal target for annotation");
		parse_next(p);
		ast_stmt *s = new_stmt(p, AST_ANNASSIGN, start);
		s->ann.target = e;
		s->ann.annotation = parse_test(p);
		if (parse_accept(p, LEX_ASSIGN))
			s->ann.value = parse_testlist_or_yield(p);
		return s;
	}
	if (augassign_op(parse_peek(p), &op)) {
		if (!single_target(e))
			parse_error(p, e->loc, "illegal expression for augmented assignment");
		parse_next(p);
		ast_stmt *s = new_stmt(p, AST_AUGASSIGN, start);
		s->aug.target = e;
		s->aug.op = op;
		s->aug.value = parse_testlist_or_yield(p);
		return s;
	}
	if (parse_peek(p) == LEX_ASSIGN) {
		ast_stmt *s = new_stmt(p, AST_ASSIGN, start);
		int cap = 0;
		while (parse_accept(p, LEX_ASSIGN)) {
			parse_check_target(p, e, "assign to");
			PUSH(p, s->assign.targets, s->assign.ntargets, cap, e);
			e = parse_testlist_or_yield(p);
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
		lex_token *t = parse_expect(p, LEX_NAME, "expected a module name");
		parse_list_push(p, &parts, (void *)t->name);
		n += strlen(t->name) + 1;
	} while (parse_accept(p, LEX_DOT));
	char *s = parse_alloc(p, n);
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
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_IMPORT, kw->loc);
	int cap = 0;
	do {
		ast_alias al = {0};
		al.loc = p->tok->loc;
		al.name = parse_dotted_name(p);
		if (parse_accept(p, LEX_KW_AS))
			al.asname = parse_expect(p, LEX_NAME, "expected a name after 'as'")->name;
		al.loc = parse_span(p, al.loc);
		PUSH(p, s->import.names, s->import.n, cap, al);
	} while (parse_accept(p, LEX_COMMA));
	return s;
}

/* import_from: 'from' ('.' | '...')* dotted_name 'import' import_targets
 *            | 'from' ('.' | '...')+ 'import' import_targets
 * import_targets: '(' names [','] ')' | names | '*'
 * names: NAME ['as' NAME] (',' NAME ['as' NAME])* */
static ast_stmt *parse_from_import(parser *p)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_IMPORTFROM, kw->loc);
	for (;;) {
		if (parse_accept(p, LEX_DOT))
			s->import.level++;
		else if (parse_accept(p, LEX_ELLIPSIS))
			s->import.level += 3;
		else
			break;
	}
	if (s->import.level && parse_peek(p) == LEX_KW_IMPORT)
		s->import.module = strtab_cstr(p->names, "");
	else
		s->import.module = parse_dotted_name(p);
	parse_expect(p, LEX_KW_IMPORT, "expected 'import' after module name");
	if (parse_accept(p, LEX_STAR)) {
		s->import.star = true;
		return s;
	}
	bool paren = parse_accept(p, LEX_LPAREN);
	int cap = 0;
	do {
		if (paren && parse_peek(p) == LEX_RPAREN && s->import.n)
			break;
		ast_alias al = {0};
		lex_token *t = parse_expect(p, LEX_NAME, "expected a name to import");
		al.name = t->name;
		al.loc = t->loc;
		if (parse_accept(p, LEX_KW_AS))
			al.asname = parse_expect(p, LEX_NAME, "expected a name after 'as'")->name;
		al.loc = parse_span(p, al.loc);
		PUSH(p, s->import.names, s->import.n, cap, al);
	} while (parse_accept(p, LEX_COMMA));
	if (paren)
		parse_expect(p, LEX_RPAREN, "expected ',' or ')' in import list");
	else if (p->prev->kind == LEX_COMMA)
		parse_error(p, p->prev->loc,
			    "trailing comma not allowed without surrounding parentheses");
	return s;
}

/* global_stmt: 'global' NAME (',' NAME)*      nonlocal_stmt: 'nonlocal' NAME (',' NAME)* */
static ast_stmt *parse_names_stmt(parser *p, ast_stmt_kind k)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, k, kw->loc);
	int cap = 0;
	do {
		lex_token *t = parse_expect(p, LEX_NAME, "expected a name");
		PUSH(p, s->names.names, s->names.n, cap, t->name);
	} while (parse_accept(p, LEX_COMMA));
	return s;
}

/* Whether the statement at the current token is a soft-keyword 'type' alias:
 * 'type' NAME ['[' ...] '=' ... */
static bool at_type_alias(parser *p)
{
	return parse_at_name(p, p->n_type) && parse_peek_at(p, 1) == LEX_NAME &&
	       (parse_peek_at(p, 2) == LEX_ASSIGN || parse_peek_at(p, 2) == LEX_LBRACKET);
}

/* simple_stmt: assignment | star_expressions | return_stmt | import_stmt | raise_stmt
 *            | 'pass' | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue'
 *            | global_stmt | nonlocal_stmt | type_alias
 * return_stmt: 'return' [star_expressions]
 * raise_stmt: 'raise' [expression ['from' expression]]
 * del_stmt: 'del' del_targets
 * assert_stmt: 'assert' expression [',' expression]
 * type_alias: 'type' NAME [type_params] '=' expression */
static ast_stmt *parse_simple_stmt(parser *p)
{
	lex_token *t = p->tok;
	ast_stmt *s;
	switch (t->kind) {
	case LEX_KW_PASS:
		parse_next(p);
		return new_stmt(p, AST_PASS, t->loc);
	case LEX_KW_BREAK:
		if (!p->loop_depth)
			parse_error(p, t->loc, "'break' outside loop");
		parse_next(p);
		return new_stmt(p, AST_BREAK, t->loc);
	case LEX_KW_CONTINUE:
		if (!p->loop_depth)
			parse_error(p, t->loc, "'continue' not properly in loop");
		parse_next(p);
		return new_stmt(p, AST_CONTINUE, t->loc);
	case LEX_KW_RETURN:
		if (!p->func_depth)
			parse_error(p, t->loc, "'return' outside function");
		parse_next(p);
		s = new_stmt(p, AST_RETURN, t->loc);
		if (parse_peek(p) != LEX_NEWLINE && parse_peek(p) != LEX_SEMI)
			s->expr = parse_testlist(p);
		return s;
	case LEX_KW_RAISE:
		parse_next(p);
		s = new_stmt(p, AST_RAISE, t->loc);
		if (parse_peek(p) != LEX_NEWLINE && parse_peek(p) != LEX_SEMI) {
			s->raise.exc = parse_test(p);
			if (parse_accept(p, LEX_KW_FROM))
				s->raise.cause = parse_test(p);
		}
		s->loc = parse_span(p, t->loc);
		return s;
	case LEX_KW_DEL: {
		parse_next(p);
		s = new_stmt(p, AST_DEL, t->loc);
		ast_expr *e = parse_exprlist(p);
		if (e->kind == AST_TUPLE && (p->prev->kind == LEX_COMMA || e->seq.n > 1)) {
			s->del.targets = e->seq.items;
			s->del.n = e->seq.n;
		} else {
			s->del.targets = parse_alloc(p, sizeof *s->del.targets);
			s->del.targets[0] = e;
			s->del.n = 1;
		}
		for (int i = 0; i < s->del.n; i++)
			if (s->del.targets[i]->kind == AST_STARRED)
				parse_error(p, s->del.targets[i]->loc, "cannot delete starred");
			else
				parse_check_target(p, s->del.targets[i], "delete");
		s->loc = parse_span(p, t->loc);
		return s;
	}
	case LEX_KW_ASSERT:
		parse_next(p);
		s = new_stmt(p, AST_ASSERT, t->loc);
		s->assert_.test = parse_test(p);
		if (parse_accept(p, LEX_COMMA))
			s->assert_.msg = parse_test(p);
		return s;
	case LEX_KW_IMPORT:
		return parse_import(p);
	case LEX_KW_FROM:
		return parse_from_import(p);
	case LEX_KW_GLOBAL:
		return parse_names_stmt(p, AST_GLOBAL);
	case LEX_KW_NONLOCAL:
		return parse_names_stmt(p, AST_NONLOCAL);
	case LEX_KW_ELSE: case LEX_KW_ELIF: case LEX_KW_EXCEPT: case LEX_KW_FINALLY:
	case LEX_KW_AS: case LEX_KW_IN: case LEX_KW_IS: case LEX_KW_AND: case LEX_KW_OR:
	case LEX_INDENT: case LEX_DEDENT:
	case LEX_KW_IF: case LEX_KW_FOR: case LEX_KW_WHILE: case LEX_KW_DEF: case LEX_AT:
	case LEX_KW_CLASS: case LEX_KW_TRY: case LEX_KW_WITH: case LEX_KW_ASYNC:
		parse_syntax_error(p); /* a compound statement after "if x:" on the same line */
	default:
		if (at_type_alias(p)) {
			parse_next(p);
			s = new_stmt(p, AST_TYPEALIAS, t->loc);
			s->alias.name = parse_new_expr(p, AST_NAME, p->tok->loc);
			s->alias.name->name = parse_next(p)->name;
			if (parse_peek(p) == LEX_LBRACKET)
				parse_type_params(p);
			parse_expect(p, LEX_ASSIGN, "expected '=' in type alias");
			s->alias.value = parse_test(p);
			return s;
		}
		return parse_expr_stmt(p);
	}
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void parse_simple_stmts(parser *p, list *out)
{
	for (;;) {
		parse_list_push(p, out, parse_simple_stmt(p));
		if (!parse_accept(p, LEX_SEMI) || parse_peek(p) == LEX_NEWLINE)
			break;
	}
	if (!parse_accept(p, LEX_NEWLINE))
		parse_syntax_error(p);
}

/* if_stmt: 'if' named_expression ':' block ('elif' named_expression ':' block)*
 *          ['else' ':' block]
 * An elif becomes an else block holding one AST_IF; the chain is built without recursion. */
static ast_stmt *parse_if(parser *p)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_IF, kw->loc);
	s->if_.cond = parse_test(p);
	parse_expect(p, LEX_COLON, "expected ':' after 'if' condition");
	s->if_.then = parse_block(p, "'if' statement", kw->loc.line);
	ast_stmt *cur = s;
	while (parse_peek(p) == LEX_KW_ELIF) {
		lex_token *ekw = parse_next(p);
		ast_stmt *e = new_stmt(p, AST_IF, ekw->loc);
		e->if_.cond = parse_test(p);
		parse_expect(p, LEX_COLON, "expected ':' after 'elif' condition");
		e->if_.then = parse_block(p, "'elif' statement", ekw->loc.line);
		ast_stmt **one = parse_alloc(p, sizeof *one);
		one[0] = e;
		cur->if_.els = (ast_block){one, 1};
		cur = e;
	}
	if (parse_peek(p) == LEX_KW_ELSE) {
		lex_token *ekw = parse_next(p);
		cur->if_.els = parse_colon_block(p, "'else'", ekw->loc.line);
	}
	return s;
}

/* An optional 'else' ':' block after a loop; the loop's break/continue do not reach it. */
static ast_block parse_loop_else(parser *p)
{
	if (parse_peek(p) != LEX_KW_ELSE)
		return (ast_block){0};
	lex_token *kw = parse_next(p);
	return parse_colon_block(p, "'else'", kw->loc.line);
}

/* for_stmt: ['async'] 'for' star_targets 'in' star_expressions ':' block ['else' ':' block] */
static ast_stmt *parse_for(parser *p, bool is_async, srcloc loc)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_FOR, is_async ? loc : kw->loc);
	s->for_.is_async = is_async;
	s->for_.target = parse_exprlist(p);
	parse_check_target(p, s->for_.target, "assign to");
	parse_expect(p, LEX_KW_IN, "expected 'in' after 'for' target");
	s->for_.iter = parse_testlist(p);
	parse_expect(p, LEX_COLON, "expected ':' after 'for' clause");
	p->loop_depth++;
	s->for_.body = parse_block(p, "'for' statement", kw->loc.line);
	p->loop_depth--;
	s->for_.els = parse_loop_else(p);
	return s;
}

/* while_stmt: 'while' named_expression ':' block ['else' ':' block] */
static ast_stmt *parse_while(parser *p)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_WHILE, kw->loc);
	s->while_.cond = parse_test(p);
	parse_expect(p, LEX_COLON, "expected ':' after 'while' condition");
	p->loop_depth++;
	s->while_.body = parse_block(p, "'while' statement", kw->loc.line);
	p->loop_depth--;
	s->while_.els = parse_loop_else(p);
	return s;
}

/* try_stmt: 'try' ':' block 'finally' ':' block
 *         | 'try' ':' block except_block+ ['else' ':' block] ['finally' ':' block]
 *         | 'try' ':' block except_star_block+ ['else' ':' block] ['finally' ':' block]
 * except_block: 'except' [expression ['as' NAME]] ':' block
 * except_star_block: 'except' '*' expression ['as' NAME] ':' block */
static ast_stmt *parse_try(parser *p)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_TRY, kw->loc);
	s->try_.body = parse_colon_block(p, "'try'", kw->loc.line);
	int cap = 0;
	while (parse_peek(p) == LEX_KW_EXCEPT) {
		lex_token *ekw = parse_next(p);
		ast_handler h = {0};
		h.loc = ekw->loc;
		if (parse_accept(p, LEX_STAR))
			s->try_.star = true;
		if (parse_peek(p) != LEX_COLON) {
			h.type = parse_test(p);
			if (parse_peek(p) == LEX_COMMA) {
				/* except A, B: (Python 3.14 only); keep it one tuple */
				ast_expr *t = parse_new_expr(p, AST_TUPLE, h.type->loc);
				int tcap = 0;
				PUSH(p, t->seq.items, t->seq.n, tcap, h.type);
				while (parse_accept(p, LEX_COMMA)) {
					ast_expr *x = parse_test(p);
					PUSH(p, t->seq.items, t->seq.n, tcap, x);
				}
				h.type = t;
			}
			if (parse_accept(p, LEX_KW_AS))
				h.name = parse_expect(p, LEX_NAME, "expected a name after 'as'")->name;
		}
		h.body = parse_colon_block(p, "'except'", ekw->loc.line);
		PUSH(p, s->try_.handlers, s->try_.nhandlers, cap, h);
	}
	if (s->try_.nhandlers && parse_peek(p) == LEX_KW_ELSE) {
		lex_token *ekw = parse_next(p);
		s->try_.orelse = parse_colon_block(p, "'else'", ekw->loc.line);
	}
	if (parse_peek(p) == LEX_KW_FINALLY) {
		lex_token *fkw = parse_next(p);
		s->try_.finalbody = parse_colon_block(p, "'finally'", fkw->loc.line);
	} else if (!s->try_.nhandlers) {
		parse_error(p, p->tok->loc, "expected 'except' or 'finally' block");
	}
	return s;
}

/* The index of the token that closes the bracket at the current token (which opens it),
 * counted from the current token; 0 when it is not found. */
static int matching_close(parser *p)
{
	int depth = 0;
	for (int i = 0;; i++) {
		lex_kind k = p->tok[i].kind;
		if (k == LEX_EOF || k == LEX_ERROR)
			return 0;
		if (k == LEX_LPAREN || k == LEX_LBRACKET || k == LEX_LBRACE)
			depth++;
		else if (k == LEX_RPAREN || k == LEX_RBRACKET || k == LEX_RBRACE)
			if (--depth == 0)
				return i;
	}
}

/* with_item: expression ['as' star_target] */
static ast_withitem parse_with_item(parser *p)
{
	ast_withitem it = {0};
	it.expr = parse_test(p);
	if (parse_accept(p, LEX_KW_AS)) {
		it.target = parse_peek(p) == LEX_STAR ? parse_star_test(p) : parse_binary(p, 1);
		parse_check_target(p, it.target, "assign to");
	}
	return it;
}

/* with_stmt: ['async'] 'with' '(' with_item (',' with_item)* [','] ')' ':' block
 *          | ['async'] 'with' with_item (',' with_item)* ':' block
 * A parenthesised list is told from a parenthesised expression by the ':' after it. */
static ast_stmt *parse_with(parser *p, bool is_async, srcloc loc)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_WITH, is_async ? loc : kw->loc);
	s->with_.is_async = is_async;
	int cap = 0;
	int close = parse_peek(p) == LEX_LPAREN ? matching_close(p) : 0;
	bool paren = close && p->tok[close + 1].kind == LEX_COLON;
	if (paren)
		parse_next(p);
	do {
		if (paren && parse_peek(p) == LEX_RPAREN)
			break;
		ast_withitem it = parse_with_item(p);
		PUSH(p, s->with_.items, s->with_.nitems, cap, it);
	} while (parse_accept(p, LEX_COMMA));
	if (paren)
		parse_expect(p, LEX_RPAREN, "expected ',' or ')' in with statement");
	s->with_.body = parse_colon_block(p, "'with' statement", kw->loc.line);
	return s;
}

/* funcdef: ['async'] 'def' NAME [type_params] '(' [params] ')' ['->' expression] ':' block */
static ast_stmt *parse_funcdef(parser *p, list *decorators, bool is_async, srcloc loc)
{
	lex_token *kw = parse_next(p);
	lex_token *name = parse_expect(p, LEX_NAME, "expected a function name after 'def'");
	ast_func *f = parse_alloc(p, sizeof *f);
	f->name = name->name;
	f->loc = name->loc;
	f->is_async = is_async;
	f->def_line = kw->loc.line;
	f->decorators = (ast_expr **)decorators->v;
	f->ndecorators = decorators->n;
	if (parse_peek(p) == LEX_LBRACKET)
		parse_type_params(p);
	parse_expect(p, LEX_LPAREN, "expected '(' after the function name");
	parse_params(p, LEX_RPAREN, true, &f->params, &f->nparams);
	parse_expect(p, LEX_RPAREN, "expected ',' or ')' after parameter");
	if (parse_accept(p, LEX_ARROW))
		f->returns = parse_test(p);
	parse_expect(p, LEX_COLON, "expected ':' after the function signature");
	int saved_loops = p->loop_depth;
	p->func_depth++;
	p->loop_depth = 0;
	f->body = parse_block(p, "function definition", kw->loc.line);
	f->end_line = p->prev ? p->prev->end_line : kw->loc.line;
	p->func_depth--;
	p->loop_depth = saved_loops;
	ast_stmt *s = new_stmt(p, AST_FUNCDEF, is_async ? loc : kw->loc);
	s->func = f;
	return s;
}

/* class_def: 'class' NAME [type_params] ['(' [arguments] ')'] ':' block */
static ast_stmt *parse_class(parser *p, list *decorators)
{
	lex_token *kw = parse_next(p);
	lex_token *name = parse_expect(p, LEX_NAME, "expected a class name after 'class'");
	ast_class *c = parse_alloc(p, sizeof *c);
	c->name = name->name;
	c->loc = name->loc;
	c->decorators = (ast_expr **)decorators->v;
	c->ndecorators = decorators->n;
	if (parse_peek(p) == LEX_LBRACKET)
		parse_type_params(p);
	if (parse_peek(p) == LEX_LPAREN) {
		lex_token *lp = parse_next(p);
		c->bases = parse_new_expr(p, AST_CALL, lp->loc);
		parse_call_args(p, c->bases);
	}
	int saved_loops = p->loop_depth, saved_funcs = p->func_depth;
	p->loop_depth = p->func_depth = 0;
	c->body = parse_colon_block(p, "class definition", kw->loc.line);
	p->loop_depth = saved_loops;
	p->func_depth = saved_funcs;
	ast_stmt *s = new_stmt(p, AST_CLASS, kw->loc);
	s->cls = c;
	return s;
}

/* decorators: ('@' named_expression NEWLINE)+ ;  then a class or (async) function */
static ast_stmt *parse_decorated(parser *p)
{
	list decs = {0};
	while (parse_peek(p) == LEX_AT) {
		parse_next(p);
		parse_list_push(p, &decs, parse_test(p));
		parse_expect(p, LEX_NEWLINE, "expected end of line after decorator");
	}
	switch (parse_peek(p)) {
	case LEX_KW_DEF:
		return parse_funcdef(p, &decs, false, p->tok->loc);
	case LEX_KW_CLASS:
		return parse_class(p, &decs);
	case LEX_KW_ASYNC: {
		srcloc loc = parse_next(p)->loc;
		if (parse_peek(p) != LEX_KW_DEF)
			parse_syntax_error(p);
		return parse_funcdef(p, &decs, true, loc);
	}
	default:
		parse_syntax_error(p);
	}
}

/* Whether the line starting at the current token (a name 'match') is a match statement:
 * 'match' subject ':' NEWLINE INDENT 'case'. Anything else is an expression statement
 * using 'match' as a name. */
static bool at_match(parser *p)
{
	if (!parse_at_name(p, p->n_match))
		return false;
	lex_kind k1 = parse_peek_at(p, 1);
	if (k1 == LEX_ASSIGN || k1 == LEX_DOT || k1 == LEX_COLON || k1 == LEX_NEWLINE ||
	    k1 == LEX_COMMA || k1 == LEX_RPAREN)
		return false;
	int depth = 0;
	for (int i = 1;; i++) {
		const lex_token *t = &p->tok[i];
		if (t->kind == LEX_EOF || t->kind == LEX_ERROR)
			return false;
		if (t->kind == LEX_LPAREN || t->kind == LEX_LBRACKET || t->kind == LEX_LBRACE)
			depth++;
		else if (t->kind == LEX_RPAREN || t->kind == LEX_RBRACKET || t->kind == LEX_RBRACE)
			depth--;
		else if (t->kind == LEX_NEWLINE && depth == 0)
			return p->tok[i - 1].kind == LEX_COLON && p->tok[i + 1].kind == LEX_INDENT &&
			       p->tok[i + 2].kind == LEX_NAME && p->tok[i + 2].name == p->n_case;
	}
}

/* match_stmt: "match" subject_expr ':' NEWLINE INDENT case_block+ DEDENT
 * case_block: "case" patterns [guard] ':' block
 * patterns: open_sequence_pattern | pattern ;  guard: 'if' named_expression
 * Patterns are parsed as expressions in pattern mode (see parse_test): class patterns are
 * calls, or-patterns '|' operations, 'p as x' an AST_NAMED, sequences and mappings
 * displays, '*rest' and '**rest' starred. */
static ast_stmt *parse_match(parser *p)
{
	lex_token *kw = parse_next(p);
	ast_stmt *s = new_stmt(p, AST_MATCH, kw->loc);
	s->match.subject = parse_testlist(p);
	parse_expect(p, LEX_COLON, "expected ':' after match subject");
	parse_expect(p, LEX_NEWLINE, "expected a new line after 'match ...:'");
	parse_expect(p, LEX_INDENT, "expected an indented block of 'case' clauses");
	int cap = 0;
	parse_enter(p);
	while (!parse_accept(p, LEX_DEDENT)) {
		if (!parse_at_name(p, p->n_case))
			parse_error(p, p->tok->loc, "expected 'case' in match statement");
		lex_token *ckw = parse_next(p);
		ast_case c = {0};
		c.loc = ckw->loc;
		p->in_pattern = true;
		c.pattern = parse_testlist(p);
		p->in_pattern = false;
		if (parse_accept(p, LEX_KW_IF))
			c.guard = parse_test(p);
		c.body = parse_colon_block(p, "'case' statement", ckw->loc.line);
		PUSH(p, s->match.cases, s->match.ncases, cap, c);
	}
	parse_leave(p);
	return s;
}

/* compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt | try_stmt
 *              | while_stmt | match_stmt
 * stmt: compound_stmt | simple_stmts */
static void parse_stmt(parser *p, list *out)
{
	lex_token *t = p->tok;
	list none = {0};
	switch (t->kind) {
	case LEX_KW_IF:
		parse_list_push(p, out, parse_if(p));
		return;
	case LEX_KW_FOR:
		parse_list_push(p, out, parse_for(p, false, t->loc));
		return;
	case LEX_KW_WHILE:
		parse_list_push(p, out, parse_while(p));
		return;
	case LEX_KW_DEF:
		parse_list_push(p, out, parse_funcdef(p, &none, false, t->loc));
		return;
	case LEX_KW_CLASS:
		parse_list_push(p, out, parse_class(p, &none));
		return;
	case LEX_KW_TRY:
		parse_list_push(p, out, parse_try(p));
		return;
	case LEX_KW_WITH:
		parse_list_push(p, out, parse_with(p, false, t->loc));
		return;
	case LEX_AT:
		parse_list_push(p, out, parse_decorated(p));
		return;
	case LEX_KW_ASYNC:
		parse_next(p);
		switch (parse_peek(p)) {
		case LEX_KW_DEF:
			parse_list_push(p, out, parse_funcdef(p, &none, true, t->loc));
			return;
		case LEX_KW_FOR:
			parse_list_push(p, out, parse_for(p, true, t->loc));
			return;
		case LEX_KW_WITH:
			parse_list_push(p, out, parse_with(p, true, t->loc));
			return;
		default:
			parse_syntax_error(p);
		}
	default:
		if (at_match(p)) {
			parse_list_push(p, out, parse_match(p));
			return;
		}
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
	p->n_match = strtab_cstr(names, "match");
	p->n_case = strtab_cstr(names, "case");
	p->n_type = strtab_cstr(names, "type");
	p->n_r = strtab_cstr(names, "r");
	p->n_s = strtab_cstr(names, "s");
	p->n_a = strtab_cstr(names, "a");
	if (setjmp(p->fail))
		return NULL;
	check_lex_error(p);
	ast_module *m = parse_alloc(p, sizeof *m);
	m->file = file;
	list body = {0};
	while (!parse_accept(p, LEX_EOF)) {
		if (parse_peek(p) == LEX_DEDENT) /* cannot happen: the lexer balances them */
			parse_syntax_error(p);
		parse_stmt(p, &body);
	}
	m->body = to_block(&body);
	return m;
}
