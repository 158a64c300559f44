/* parse_int.h: what the two halves of the parser share (parse.c: statements, blocks and
 * the entry point; parse_expr.c: expressions, displays, comprehensions, f-strings, call
 * arguments, parameter lists and case patterns). Not a public header.
 *
 * The parser stops at the first error: parse_error() reports it and longjmps back to
 * parse_module, which returns NULL. Every allocation is in the arena, so nothing leaks on
 * that path. Recursion is bounded by PARSE_MAX_DEPTH so that no input can overflow the C
 * stack. */
#ifndef TILECC_FRONTEND_PARSE_INT_H
#define TILECC_FRONTEND_PARSE_INT_H

#include <setjmp.h>
#include <stdbool.h>
#include <string.h>

#include "ast.h"
#include "lex.h"

/* Nesting of expressions and blocks beyond this is "too deeply nested". */
#define PARSE_MAX_DEPTH 200
/* A chain built by a loop rather than by recursion (a + b + ..., x[0][0]..., a.b.c...,
 * f()()...) nests its terms too: longer than this is refused, so that the AST's walkers
 * (the dump, sema, which stops at 1000) never recurse without bound. */
#define PARSE_MAX_CHAIN 100000

typedef struct parser {
	arena *a;
	strtab *names;
	diag_engine *d;
	lex_token *tok;  /* the current token; the array ends with EOF or ERROR */
	lex_token *prev; /* the last token consumed */
	int depth;
	int func_depth;  /* > 0 inside a def body (not counting class bodies inside it) */
	int loop_depth;  /* > 0 inside a for or while body of the current function */
	bool in_pattern; /* parsing a case pattern: 'as' binds, 'if' is the guard */
	const char *n_match, *n_case, *n_type, *n_r, *n_s, *n_a; /* soft keywords, names */
	jmp_buf fail;
} parser;

/* A growable arena array of pointers. */
typedef struct list {
	void **v;
	int n, cap;
} list;

_Noreturn void parse_error(parser *p, srcloc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The generic complaint about the current token ("invalid syntax", "unexpected indent"). */
_Noreturn void parse_syntax_error(parser *p);
void *parse_alloc(parser *p, size_t n);
/* Makes room for one more element of size elem in an arena array of *cap elements. */
void *parse_grow(parser *p, void *old, int n, int *cap, size_t elem);
void parse_list_push(parser *p, list *l, void *x);
lex_token *parse_next(parser *p);
lex_token *parse_expect(parser *p, lex_kind k, const char *msg);
void parse_enter(parser *p);
void parse_leave(parser *p);
/* A location from start to the end of the last token consumed, when that is on the same
 * line; otherwise start as it is. */
srcloc parse_span(parser *p, srcloc start);
ast_expr *parse_new_expr(parser *p, ast_expr_kind k, srcloc loc);

#define PUSH(p, arr, n, cap, x)                                                                    \
	do {                                                                                       \
		(arr) = parse_grow((p), (arr), (n), &(cap), sizeof *(arr));                        \
		(arr)[(n)++] = (x);                                                                \
	} while (0)

static inline lex_kind parse_peek(parser *p)
{
	return p->tok->kind;
}

/* The kind of the token i places after the current one (EOF past the end). */
static inline lex_kind parse_peek_at(parser *p, int i)
{
	for (int k = 0; k < i; k++)
		if (p->tok[k].kind == LEX_EOF || p->tok[k].kind == LEX_ERROR)
			return p->tok[k].kind;
	return p->tok[i].kind;
}

static inline bool parse_accept(parser *p, lex_kind k)
{
	if (p->tok->kind != k)
		return false;
	parse_next(p);
	return true;
}

/* Whether the current token is the soft keyword (a name) kw. */
static inline bool parse_at_name(parser *p, const char *kw)
{
	return p->tok->kind == LEX_NAME && p->tok->name == kw;
}

/* ---- parse_expr.c ------------------------------------------------------------------------ */
ast_expr *parse_test(parser *p);           /* expression (named expressions allowed) */
ast_expr *parse_or(parser *p);             /* disjunction */
ast_expr *parse_binary(parser *p, int minprec); /* bitwise_or and tighter */
ast_expr *parse_star_test(parser *p);      /* '*' bitwise_or | expression */
ast_expr *parse_testlist(parser *p);       /* star_expressions: a tuple when there is a comma */
ast_expr *parse_testlist_or_yield(parser *p);
ast_expr *parse_exprlist(parser *p);       /* star_targets of for, del, comprehensions */
ast_expr *parse_yield(parser *p);
/* '(' arguments ')' after the '(' was consumed: fills call->call. */
void parse_call_args(parser *p, ast_expr *call);
/* Parameters up to close; annotations only in def (not in lambda). */
void parse_params(parser *p, lex_kind close, bool annotations, ast_param **params,
		  int *nparams);
/* Checks that e can be assigned to (or deleted, per verb). */
void parse_check_target(parser *p, ast_expr *e, const char *verb);
/* '[' type_param (',' type_param)* [','] ']' of PEP 695; parsed and dropped. */
void parse_type_params(parser *p);

#endif
