/* ast.h: the abstract syntax tree of the Python subset that Triton kernels are written in.
 *
 * The parser builds it; sema walks it. Every node lives in the compilation's arena and
 * carries the srcloc of its first token. Names are interned (compare with ==). Lists are
 * arena arrays with a count. The tree keeps some constructs that kernels may not use
 * (lambda, dict literals: needed in decorators) so that sema can report them in place. */
#ifndef TILECC_FRONTEND_AST_H
#define TILECC_FRONTEND_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "support/arena.h"
#include "support/diag.h"
#include "support/intern.h"
#include "support/strbuf.h"

typedef struct ast_expr ast_expr;
typedef struct ast_stmt ast_stmt;
typedef struct ast_func ast_func;

typedef enum ast_expr_kind {
	AST_NAME,      /* name */
	AST_INT,       /* ival */
	AST_FLOAT,     /* fval */
	AST_STR,       /* str */
	AST_BOOL,      /* bval */
	AST_NONE,      /* None */
	AST_BINOP,     /* bin */
	AST_UNARY,     /* un */
	AST_BOOLOP,    /* boolop: a and b and c */
	AST_COMPARE,   /* cmp: a < b <= c */
	AST_IFEXP,     /* ifexp: a if c else b */
	AST_CALL,      /* call */
	AST_ATTR,      /* attr: value.name */
	AST_SUBSCRIPT, /* sub: value[index]; several indices make index an AST_TUPLE */
	AST_TUPLE,     /* seq */
	AST_LIST,      /* seq */
	AST_DICT,      /* dict */
	AST_SLICE,     /* slice: lo:hi:step, each may be NULL; only inside subscripts */
	AST_LAMBDA,    /* lambda: parsed for decorators, rejected in kernels */
} ast_expr_kind;

typedef enum ast_binop {
	AST_ADD, AST_SUB, AST_MUL, AST_DIV, AST_FLOORDIV, AST_MOD, AST_POW, AST_MATMUL,
	AST_LSHIFT, AST_RSHIFT, AST_BITAND, AST_BITOR, AST_BITXOR,
} ast_binop;

typedef enum ast_unop { AST_UPLUS, AST_UNEG, AST_UINVERT, AST_UNOT } ast_unop;
typedef enum ast_boolop_kind { AST_AND, AST_OR } ast_boolop_kind;
typedef enum ast_cmpop {
	AST_EQ, AST_NE, AST_LT, AST_LE, AST_GT, AST_GE, AST_IS, AST_ISNOT, AST_IN, AST_NOTIN,
} ast_cmpop;

typedef struct ast_keyword {
	const char *name; /* interned */
	srcloc loc;
	ast_expr *value;
} ast_keyword;

typedef struct ast_param {
	const char *name; /* interned */
	srcloc loc;
	ast_expr *annotation; /* NULL when absent */
	ast_expr *def;        /* default value, NULL when absent */
} ast_param;

struct ast_expr {
	ast_expr_kind kind;
	srcloc loc;
	union {
		const char *name;
		int64_t ival; /* literals above INT64_MAX are rejected by the parser */
		double fval;
		struct {
			const char *s; /* escapes resolved, NUL-terminated */
			uint32_t len;
		} str;
		bool bval;
		struct {
			ast_binop op;
			ast_expr *lhs, *rhs;
		} bin;
		struct {
			ast_unop op;
			ast_expr *operand;
		} un;
		struct {
			ast_boolop_kind op;
			ast_expr **values;
			int n;
		} boolop;
		struct {
			ast_expr *first;
			ast_cmpop *ops;   /* n operators */
			ast_expr **rest;  /* n right-hand operands */
			int n;
		} cmp;
		struct {
			ast_expr *cond, *then, *els;
		} ifexp;
		struct {
			ast_expr *func;
			ast_expr **args;
			int nargs;
			ast_keyword *kws;
			int nkws;
		} call;
		struct {
			ast_expr *value;
			const char *name; /* interned */
			srcloc name_loc;
		} attr;
		struct {
			ast_expr *value;
			ast_expr *index;
		} sub;
		struct {
			ast_expr **items;
			int n;
		} seq;
		struct {
			ast_expr **keys, **values;
			int n;
		} dict;
		struct {
			ast_expr *lo, *hi, *step;
		} slice;
		struct {
			ast_param *params;
			int nparams;
			ast_expr *body;
		} lambda;
	};
};

typedef struct ast_block {
	ast_stmt **stmts;
	int n;
} ast_block;

typedef enum ast_stmt_kind {
	AST_EXPR_STMT,  /* expr */
	AST_ASSIGN,     /* assign: t1 = t2 = value */
	AST_AUGASSIGN,  /* aug: target op= value */
	AST_ANNASSIGN,  /* ann: target: annotation [= value] */
	AST_IF,         /* if_: elif chains nest an AST_IF as the only statement of els */
	AST_FOR,        /* for_ */
	AST_WHILE,      /* while_ */
	AST_RETURN,     /* expr, NULL for a bare return */
	AST_PASS,
	AST_BREAK,
	AST_CONTINUE,
	AST_ASSERT,     /* assert_ */
	AST_FUNCDEF,    /* func */
	AST_IMPORT,     /* import: import a.b as c, d */
	AST_IMPORTFROM, /* import: from module import a as b */
} ast_stmt_kind;

typedef struct ast_alias {
	const char *name;   /* interned; dotted for plain imports ("triton.language") */
	const char *asname; /* interned; NULL when absent */
	srcloc loc;
} ast_alias;

struct ast_stmt {
	ast_stmt_kind kind;
	srcloc loc;
	union {
		ast_expr *expr;
		struct {
			ast_expr **targets;
			int ntargets;
			ast_expr *value;
		} assign;
		struct {
			ast_expr *target;
			ast_binop op;
			ast_expr *value;
		} aug;
		struct {
			ast_expr *target, *annotation, *value;
		} ann;
		struct {
			ast_expr *cond;
			ast_block then, els; /* els.n == 0 when there is no else */
		} if_;
		struct {
			ast_expr *target, *iter;
			ast_block body;
		} for_;
		struct {
			ast_expr *cond;
			ast_block body;
		} while_;
		struct {
			ast_expr *test, *msg; /* msg may be NULL */
		} assert_;
		ast_func *func;
		struct {
			const char *module; /* AST_IMPORTFROM only, interned and dotted */
			ast_alias *names;
			int n;
		} import;
	};
};

struct ast_func {
	const char *name; /* interned */
	srcloc loc;       /* of the name */
	ast_param *params;
	int nparams;
	ast_expr **decorators;
	int ndecorators;
	ast_expr *returns; /* -> annotation, NULL when absent */
	ast_block body;    /* a leading docstring is kept as an AST_EXPR_STMT of AST_STR */
};

typedef struct ast_module {
	uint32_t file;
	ast_block body;
} ast_module;

/* Parses a whole file. Reports every error through d (stopping at the first syntax error)
 * and returns NULL if there was any. Nodes come from a, names from names. */
ast_module *parse_module(arena *a, strtab *names, diag_engine *d, uint32_t file,
			 const char *src, uint32_t len);

/* Writes an indented, parenthesised dump of the tree (for --emit=ast and the parser's
 * tests); one line per statement, expressions in a Lisp-like form such as
 * (call (attr (name tl) arange) (int 0) (name BLOCK)). */
void ast_dump(strbuf *out, const ast_module *m);
void ast_dump_expr(strbuf *out, const ast_expr *e);

/* Names for printing and diagnostics: "+", "//", "<=", "not in", "and". */
const char *ast_binop_str(ast_binop op);
const char *ast_unop_str(ast_unop op);
const char *ast_cmpop_str(ast_cmpop op);

#endif
