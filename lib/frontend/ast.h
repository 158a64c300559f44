/* ast.h: the abstract syntax tree of the Python subset that Triton kernels are written in.
 *
 * The parser builds it; sema walks it. Every node lives in the compilation's arena and
 * carries the srcloc of its first token. Names are interned (compare with ==). Lists are
 * arena arrays with a count. The tree covers the whole Python 3.12 grammar, because a
 * kernel file is a Python file: host code around the kernels (classes, try, with,
 * comprehensions, f-strings, match, async) is parsed like the rest. The kernel subset is
 * enforced by sema, and only on code a kernel reaches, so each construct a kernel may not
 * use is kept with its location and reported there. */
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
	AST_LAMBDA,    /* lambda */
	AST_ELLIPSIS,  /* ... */
	AST_IMAG,      /* fval: the imaginary part of 2.5j */
	AST_BYTES,     /* str: b"..." */
	AST_FSTRING,   /* seq: AST_STR pieces and AST_FVALUE fields, in order */
	AST_FVALUE,    /* fvalue: one {value!r:spec} field of an f-string */
	AST_STARRED,   /* wrap: *value, or **value when wrap.flag (dict displays keep NULL keys) */
	AST_SET,       /* seq */
	AST_COMP,      /* comp: list, set, dict comprehensions and generator expressions */
	AST_YIELD,     /* wrap: yield [value]; yield from value when wrap.flag */
	AST_AWAIT,     /* wrap: await value */
	AST_NAMED,     /* named: target := value; in case patterns also 'pattern as name' */
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
	const char *name; /* interned; NULL for **value */
	srcloc loc;
	ast_expr *value;
} ast_keyword;

typedef enum ast_param_kind {
	AST_PARAM_NORMAL,  /* positional or keyword */
	AST_PARAM_POSONLY, /* before a '/' */
	AST_PARAM_KWONLY,  /* after '*' or '*args' */
	AST_PARAM_VARARGS, /* *args */
	AST_PARAM_KWARGS,  /* **kwargs */
} ast_param_kind;

typedef struct ast_param {
	const char *name; /* interned */
	srcloc loc;
	ast_param_kind kind;
	ast_expr *annotation; /* NULL when absent */
	ast_expr *def;        /* default value, NULL when absent */
} ast_param;

/* One 'for target in iter if cond...' clause of a comprehension. */
typedef struct ast_comp_for {
	ast_expr *target, *iter;
	ast_expr **ifs;
	int nifs;
	bool is_async;
} ast_comp_for;

struct ast_expr {
	ast_expr_kind kind;
	srcloc loc;
	bool int_big; /* AST_INT: the literal does not fit in int64 (ival is meaningless) */
	union {
		const char *name;
		int64_t ival;
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
		struct {
			ast_expr *value;
			bool flag;
		} wrap;
		struct {
			ast_expr *value;
			char conv;      /* 'r', 's', 'a' or 0 */
			bool debug;     /* {x=} */
			ast_expr *spec; /* an AST_FSTRING, or NULL */
		} fvalue;
		struct {
			ast_expr_kind of; /* AST_LIST, AST_SET, AST_DICT, or AST_TUPLE (generator) */
			ast_expr *elt, *value; /* value: dict comprehensions only */
			ast_comp_for *gens;
			int ngens;
		} comp;
		struct {
			ast_expr *target, *value;
		} named;
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
	AST_CLASS,      /* cls */
	AST_TRY,        /* try_ */
	AST_WITH,       /* with_ */
	AST_RAISE,      /* raise */
	AST_DEL,        /* del */
	AST_GLOBAL,     /* names */
	AST_NONLOCAL,   /* names */
	AST_MATCH,      /* match */
	AST_TYPEALIAS,  /* alias: type name[params] = value */
} ast_stmt_kind;

typedef struct ast_handler {
	ast_expr *type;   /* NULL for a bare except */
	const char *name; /* except E as name; NULL when absent */
	srcloc loc;
	ast_block body;
} ast_handler;

typedef struct ast_withitem {
	ast_expr *expr, *target; /* target NULL when absent */
} ast_withitem;

typedef struct ast_case {
	ast_expr *pattern; /* patterns are parsed as expressions; see parse_case */
	ast_expr *guard;   /* NULL when absent */
	srcloc loc;
	ast_block body;
} ast_case;

typedef struct ast_class {
	const char *name; /* interned */
	srcloc loc;       /* of the name */
	ast_expr **decorators;
	int ndecorators;
	ast_expr *bases; /* an AST_CALL with a NULL func holding the bases and keywords, or NULL */
	ast_block body;
} ast_class;

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
			ast_block body, els; /* els.n == 0 when there is no else */
			bool is_async;
		} for_;
		struct {
			ast_expr *cond;
			ast_block body, els;
		} while_;
		struct {
			ast_expr *test, *msg; /* msg may be NULL */
		} assert_;
		ast_func *func;
		struct {
			const char *module; /* AST_IMPORTFROM only, interned and dotted; "" for 'from .' */
			ast_alias *names;
			int n;
			int level; /* AST_IMPORTFROM: leading dots of a relative import */
			bool star; /* from m import * (names is empty) */
		} import;
		ast_class *cls;
		struct {
			ast_block body, orelse, finalbody;
			ast_handler *handlers;
			int nhandlers;
			bool star; /* except* */
		} try_;
		struct {
			ast_withitem *items;
			int nitems;
			ast_block body;
			bool is_async;
		} with_;
		struct {
			ast_expr *exc, *cause; /* both may be NULL */
		} raise;
		struct {
			ast_expr **targets;
			int n;
		} del;
		struct {
			const char **names;
			int n;
		} names;
		struct {
			ast_expr *subject;
			ast_case *cases;
			int ncases;
		} match;
		struct {
			ast_expr *name, *value;
		} alias;
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
	bool is_async;
	uint32_t def_line; /* the line of 'def' (the decorators come before it) */
	uint32_t end_line; /* the last line of the body */
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

/* Writes e as Python source (for --list-kernels: defaults, annotations). */
void ast_unparse_expr(strbuf *out, const ast_expr *e);

/* What a statement or expression is called in a message about the kernel subset:
 * "class definition", "try statement", "list comprehension". */
const char *ast_stmt_what(const ast_stmt *s);
const char *ast_expr_what(const ast_expr *e);

/* Names for printing and diagnostics: "+", "//", "<=", "not in", "and". */
const char *ast_binop_str(ast_binop op);
const char *ast_unop_str(ast_unop op);
const char *ast_cmpop_str(ast_cmpop op);

#endif
