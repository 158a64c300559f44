/* ast.c: the AST printer (--emit=ast, parser tests) and the operator names.
 *
 * Statements print one per line, two spaces of indentation per block level:
 *
 *   import triton.language as tl
 *   from triton import jit
 *   @(attr (name triton) jit)
 *   def f(x, BLOCK: (attr (name tl) constexpr) = (int 4)) -> (name int)
 *     assign (name a) = (name b) = (int 1)
 *     augassign (name a) += (int 1)
 *     annassign (name X) : (name int) = (int 3)
 *     if (name c)
 *       pass
 *     else
 *       expr (call (name g))
 *     for (name i) in (call (name range) (int 4))
 *     while (name c)
 *     return (name a)
 *     assert (name c) (str "msg")
 *
 * Expressions are parenthesised prefix forms: (name x) (int 1) (float 0.5) (str "s")
 * (bool True) (none) (+ a b) (- a) (not a) (and a b) (compare a < b <= c)
 * (ifexp cond then else) (call f args... (kw name value)) (attr v name) (subscript v i)
 * (slice lo hi step) with nil for a missing part, (tuple ...) (list ...)
 * (dict (k v) ...) (lambda (x y=default) body), and for host code (ellipsis) (imag 2)
 * (bytes "b") (fstring "a" (fvalue x !r spec)) (star x) (dstar x) (set ...)
 * (listcomp elt (for target iter (if c)...)...) and setcomp, dictcomp, genexp, (yield x)
 * (yieldfrom x) (await x) (named x value). Compound host statements print their header
 * and nested blocks (class, try/except/else/finally, with, match/case, raise, del,
 * global, nonlocal, type). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

const char *ast_binop_str(ast_binop op)
{
	static const char *names[] = {
		[AST_ADD] = "+",       [AST_SUB] = "-",     [AST_MUL] = "*",     [AST_DIV] = "/",
		[AST_FLOORDIV] = "//", [AST_MOD] = "%",     [AST_POW] = "**",    [AST_MATMUL] = "@",
		[AST_LSHIFT] = "<<",   [AST_RSHIFT] = ">>", [AST_BITAND] = "&",  [AST_BITOR] = "|",
		[AST_BITXOR] = "^",
	};
	return (unsigned)op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

const char *ast_unop_str(ast_unop op)
{
	static const char *names[] = {
		[AST_UPLUS] = "+", [AST_UNEG] = "-", [AST_UINVERT] = "~", [AST_UNOT] = "not",
	};
	return (unsigned)op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

const char *ast_cmpop_str(ast_cmpop op)
{
	static const char *names[] = {
		[AST_EQ] = "==", [AST_NE] = "!=",     [AST_LT] = "<", [AST_LE] = "<=",
		[AST_GT] = ">",  [AST_GE] = ">=",     [AST_IS] = "is", [AST_ISNOT] = "is not",
		[AST_IN] = "in", [AST_NOTIN] = "not in",
	};
	return (unsigned)op < sizeof names / sizeof names[0] && names[op] ? names[op] : "?";
}

static void dump_str(strbuf *out, const char *s, uint32_t n)
{
	strbuf_putc(out, '"');
	for (uint32_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': strbuf_puts(out, "\\\""); break;
		case '\\': strbuf_puts(out, "\\\\"); break;
		case '\n': strbuf_puts(out, "\\n"); break;
		case '\t': strbuf_puts(out, "\\t"); break;
		case '\r': strbuf_puts(out, "\\r"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_printf(out, "\\x%02x", c);
			else
				strbuf_putc(out, (char)c);
		}
	}
	strbuf_putc(out, '"');
}

static void dump_params(strbuf *out, const ast_param *ps, int n, bool lisp)
{
	bool star = false;
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_puts(out, lisp ? " " : ", ");
		if (ps[i].kind == AST_PARAM_KWONLY && !star) {
			strbuf_puts(out, lisp ? "* " : "*, ");
			star = true;
		}
		if (ps[i].kind == AST_PARAM_VARARGS) {
			strbuf_putc(out, '*');
			star = true;
		}
		if (ps[i].kind == AST_PARAM_KWARGS)
			strbuf_puts(out, "**");
		strbuf_puts(out, ps[i].name);
		if (ps[i].annotation) {
			strbuf_puts(out, ": ");
			ast_dump_expr(out, ps[i].annotation);
		}
		if (ps[i].def) {
			strbuf_puts(out, lisp ? "=" : " = ");
			ast_dump_expr(out, ps[i].def);
		}
		if (ps[i].kind == AST_PARAM_POSONLY && (i + 1 == n || ps[i + 1].kind != AST_PARAM_POSONLY))
			strbuf_puts(out, lisp ? " /" : ", /");
	}
}

static void dump_comp(strbuf *out, const ast_expr *e)
{
	static const char *const heads[] = {[AST_LIST] = "listcomp", [AST_SET] = "setcomp",
					    [AST_DICT] = "dictcomp", [AST_TUPLE] = "genexp"};
	strbuf_printf(out, "(%s ", heads[e->comp.of]);
	ast_dump_expr(out, e->comp.elt);
	if (e->comp.value) {
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->comp.value);
	}
	for (int i = 0; i < e->comp.ngens; i++) {
		const ast_comp_for *g = &e->comp.gens[i];
		strbuf_puts(out, g->is_async ? " (async-for " : " (for ");
		ast_dump_expr(out, g->target);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, g->iter);
		for (int k = 0; k < g->nifs; k++) {
			strbuf_puts(out, " (if ");
			ast_dump_expr(out, g->ifs[k]);
			strbuf_putc(out, ')');
		}
		strbuf_putc(out, ')');
	}
	strbuf_putc(out, ')');
}

static void dump_wrap(strbuf *out, const char *head, const ast_expr *v)
{
	strbuf_printf(out, "(%s", head);
	if (v) {
		strbuf_putc(out, ' ');
		ast_dump_expr(out, v);
	}
	strbuf_putc(out, ')');
}

static void dump_list(strbuf *out, const char *head, ast_expr *const *v, int n)
{
	strbuf_printf(out, "(%s", head);
	for (int i = 0; i < n; i++) {
		strbuf_putc(out, ' ');
		ast_dump_expr(out, v[i]);
	}
	strbuf_putc(out, ')');
}

static void dump_opt(strbuf *out, const ast_expr *e)
{
	if (e)
		ast_dump_expr(out, e);
	else
		strbuf_puts(out, "nil");
}

void ast_dump_expr(strbuf *out, const ast_expr *e)
{
	if (!e) {
		strbuf_puts(out, "nil");
		return;
	}
	switch (e->kind) {
	case AST_NAME:
		strbuf_printf(out, "(name %s)", e->name);
		break;
	case AST_INT:
		if (e->int_big)
			strbuf_puts(out, "(int big)");
		else
			strbuf_printf(out, "(int %lld)", (long long)e->ival);
		break;
	case AST_FLOAT:
		strbuf_puts(out, "(float ");
		strbuf_put_double(out, e->fval);
		strbuf_putc(out, ')');
		break;
	case AST_STR:
		strbuf_puts(out, "(str ");
		dump_str(out, e->str.s, e->str.len);
		strbuf_putc(out, ')');
		break;
	case AST_BOOL:
		strbuf_puts(out, e->bval ? "(bool True)" : "(bool False)");
		break;
	case AST_NONE:
		strbuf_puts(out, "(none)");
		break;
	case AST_BINOP:
		strbuf_printf(out, "(%s ", ast_binop_str(e->bin.op));
		ast_dump_expr(out, e->bin.lhs);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->bin.rhs);
		strbuf_putc(out, ')');
		break;
	case AST_UNARY:
		strbuf_printf(out, "(%s ", ast_unop_str(e->un.op));
		ast_dump_expr(out, e->un.operand);
		strbuf_putc(out, ')');
		break;
	case AST_BOOLOP:
		dump_list(out, e->boolop.op == AST_AND ? "and" : "or", e->boolop.values, e->boolop.n);
		break;
	case AST_COMPARE:
		strbuf_puts(out, "(compare ");
		ast_dump_expr(out, e->cmp.first);
		for (int i = 0; i < e->cmp.n; i++) {
			strbuf_printf(out, " %s ", ast_cmpop_str(e->cmp.ops[i]));
			ast_dump_expr(out, e->cmp.rest[i]);
		}
		strbuf_putc(out, ')');
		break;
	case AST_IFEXP:
		strbuf_puts(out, "(ifexp ");
		ast_dump_expr(out, e->ifexp.cond);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->ifexp.then);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->ifexp.els);
		strbuf_putc(out, ')');
		break;
	case AST_CALL:
		strbuf_puts(out, "(call ");
		dump_opt(out, e->call.func);
		for (int i = 0; i < e->call.nargs; i++) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, e->call.args[i]);
		}
		for (int i = 0; i < e->call.nkws; i++) {
			if (e->call.kws[i].name)
				strbuf_printf(out, " (kw %s ", e->call.kws[i].name);
			else
				strbuf_puts(out, " (dstar ");
			ast_dump_expr(out, e->call.kws[i].value);
			strbuf_putc(out, ')');
		}
		strbuf_putc(out, ')');
		break;
	case AST_ATTR:
		strbuf_puts(out, "(attr ");
		ast_dump_expr(out, e->attr.value);
		strbuf_printf(out, " %s)", e->attr.name);
		break;
	case AST_SUBSCRIPT:
		strbuf_puts(out, "(subscript ");
		ast_dump_expr(out, e->sub.value);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->sub.index);
		strbuf_putc(out, ')');
		break;
	case AST_TUPLE:
		dump_list(out, "tuple", e->seq.items, e->seq.n);
		break;
	case AST_LIST:
		dump_list(out, "list", e->seq.items, e->seq.n);
		break;
	case AST_DICT:
		strbuf_puts(out, "(dict");
		for (int i = 0; i < e->dict.n; i++) {
			if (!e->dict.keys[i]) {
				strbuf_putc(out, ' ');
				dump_wrap(out, "dstar", e->dict.values[i]);
				continue;
			}
			strbuf_puts(out, " (");
			ast_dump_expr(out, e->dict.keys[i]);
			strbuf_putc(out, ' ');
			ast_dump_expr(out, e->dict.values[i]);
			strbuf_putc(out, ')');
		}
		strbuf_putc(out, ')');
		break;
	case AST_SLICE:
		strbuf_puts(out, "(slice ");
		dump_opt(out, e->slice.lo);
		strbuf_putc(out, ' ');
		dump_opt(out, e->slice.hi);
		strbuf_putc(out, ' ');
		dump_opt(out, e->slice.step);
		strbuf_putc(out, ')');
		break;
	case AST_LAMBDA:
		strbuf_puts(out, "(lambda (");
		dump_params(out, e->lambda.params, e->lambda.nparams, true);
		strbuf_puts(out, ") ");
		ast_dump_expr(out, e->lambda.body);
		strbuf_putc(out, ')');
		break;
	case AST_ELLIPSIS:
		strbuf_puts(out, "(ellipsis)");
		break;
	case AST_IMAG:
		strbuf_puts(out, "(imag ");
		strbuf_put_double(out, e->fval);
		strbuf_putc(out, ')');
		break;
	case AST_BYTES:
		strbuf_puts(out, "(bytes ");
		dump_str(out, e->str.s, e->str.len);
		strbuf_putc(out, ')');
		break;
	case AST_FSTRING:
		strbuf_puts(out, "(fstring");
		for (int i = 0; i < e->seq.n; i++) {
			strbuf_putc(out, ' ');
			if (e->seq.items[i]->kind == AST_STR)
				dump_str(out, e->seq.items[i]->str.s, e->seq.items[i]->str.len);
			else
				ast_dump_expr(out, e->seq.items[i]);
		}
		strbuf_putc(out, ')');
		break;
	case AST_FVALUE:
		strbuf_puts(out, "(fvalue ");
		ast_dump_expr(out, e->fvalue.value);
		if (e->fvalue.debug)
			strbuf_puts(out, " =");
		if (e->fvalue.conv)
			strbuf_printf(out, " !%c", e->fvalue.conv);
		if (e->fvalue.spec) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, e->fvalue.spec);
		}
		strbuf_putc(out, ')');
		break;
	case AST_STARRED:
		dump_wrap(out, e->wrap.flag ? "dstar" : "star", e->wrap.value);
		break;
	case AST_SET:
		dump_list(out, "set", e->seq.items, e->seq.n);
		break;
	case AST_COMP:
		dump_comp(out, e);
		break;
	case AST_YIELD:
		dump_wrap(out, e->wrap.flag ? "yieldfrom" : "yield", e->wrap.value);
		break;
	case AST_AWAIT:
		dump_wrap(out, "await", e->wrap.value);
		break;
	case AST_NAMED:
		strbuf_puts(out, "(named ");
		ast_dump_expr(out, e->named.target);
		strbuf_putc(out, ' ');
		ast_dump_expr(out, e->named.value);
		strbuf_putc(out, ')');
		break;
	default:
		strbuf_puts(out, "(?)");
	}
}

static void dump_block(strbuf *out, const ast_block *b, int level);

static void indent(strbuf *out, int level)
{
	for (int i = 0; i < level; i++)
		strbuf_puts(out, "  ");
}

static void dump_aliases(strbuf *out, const ast_alias *v, int n)
{
	for (int i = 0; i < n; i++) {
		strbuf_puts(out, i ? ", " : " ");
		strbuf_puts(out, v[i].name);
		if (v[i].asname)
			strbuf_printf(out, " as %s", v[i].asname);
	}
}

static void dump_else(strbuf *out, const ast_block *b, int level)
{
	if (!b->n)
		return;
	indent(out, level);
	strbuf_puts(out, "else\n");
	dump_block(out, b, level + 1);
}

static void dump_stmt(strbuf *out, const ast_stmt *s, int level)
{
	indent(out, level);
	switch (s->kind) {
	case AST_EXPR_STMT:
		strbuf_puts(out, "expr ");
		ast_dump_expr(out, s->expr);
		break;
	case AST_ASSIGN:
		strbuf_puts(out, "assign");
		for (int i = 0; i < s->assign.ntargets; i++) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, s->assign.targets[i]);
			strbuf_puts(out, " =");
		}
		strbuf_putc(out, ' ');
		ast_dump_expr(out, s->assign.value);
		break;
	case AST_AUGASSIGN:
		strbuf_puts(out, "augassign ");
		ast_dump_expr(out, s->aug.target);
		strbuf_printf(out, " %s= ", ast_binop_str(s->aug.op));
		ast_dump_expr(out, s->aug.value);
		break;
	case AST_ANNASSIGN:
		strbuf_puts(out, "annassign ");
		ast_dump_expr(out, s->ann.target);
		strbuf_puts(out, " : ");
		ast_dump_expr(out, s->ann.annotation);
		if (s->ann.value) {
			strbuf_puts(out, " = ");
			ast_dump_expr(out, s->ann.value);
		}
		break;
	case AST_IF:
		strbuf_puts(out, "if ");
		ast_dump_expr(out, s->if_.cond);
		strbuf_putc(out, '\n');
		dump_block(out, &s->if_.then, level + 1);
		if (s->if_.els.n) {
			indent(out, level);
			strbuf_puts(out, "else\n");
			dump_block(out, &s->if_.els, level + 1);
		}
		return;
	case AST_FOR:
		strbuf_puts(out, s->for_.is_async ? "async for " : "for ");
		ast_dump_expr(out, s->for_.target);
		strbuf_puts(out, " in ");
		ast_dump_expr(out, s->for_.iter);
		strbuf_putc(out, '\n');
		dump_block(out, &s->for_.body, level + 1);
		dump_else(out, &s->for_.els, level);
		return;
	case AST_WHILE:
		strbuf_puts(out, "while ");
		ast_dump_expr(out, s->while_.cond);
		strbuf_putc(out, '\n');
		dump_block(out, &s->while_.body, level + 1);
		dump_else(out, &s->while_.els, level);
		return;
	case AST_RETURN:
		strbuf_puts(out, "return");
		if (s->expr) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, s->expr);
		}
		break;
	case AST_PASS:
		strbuf_puts(out, "pass");
		break;
	case AST_BREAK:
		strbuf_puts(out, "break");
		break;
	case AST_CONTINUE:
		strbuf_puts(out, "continue");
		break;
	case AST_ASSERT:
		strbuf_puts(out, "assert ");
		ast_dump_expr(out, s->assert_.test);
		if (s->assert_.msg) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, s->assert_.msg);
		}
		break;
	case AST_FUNCDEF: {
		const ast_func *f = s->func;
		for (int i = 0; i < f->ndecorators; i++) {
			if (i)
				indent(out, level);
			strbuf_putc(out, '@');
			ast_dump_expr(out, f->decorators[i]);
			strbuf_putc(out, '\n');
		}
		if (f->ndecorators)
			indent(out, level);
		strbuf_printf(out, "%sdef %s(", f->is_async ? "async " : "", f->name);
		dump_params(out, f->params, f->nparams, false);
		strbuf_putc(out, ')');
		if (f->returns) {
			strbuf_puts(out, " -> ");
			ast_dump_expr(out, f->returns);
		}
		strbuf_putc(out, '\n');
		dump_block(out, &f->body, level + 1);
		return;
	}
	case AST_IMPORT:
		strbuf_puts(out, "import");
		dump_aliases(out, s->import.names, s->import.n);
		break;
	case AST_IMPORTFROM:
		strbuf_puts(out, "from ");
		for (int i = 0; i < s->import.level; i++)
			strbuf_putc(out, '.');
		strbuf_printf(out, "%s import", s->import.module);
		if (s->import.star)
			strbuf_puts(out, " *");
		dump_aliases(out, s->import.names, s->import.n);
		break;
	case AST_CLASS: {
		const ast_class *c = s->cls;
		for (int i = 0; i < c->ndecorators; i++) {
			if (i)
				indent(out, level);
			strbuf_putc(out, '@');
			ast_dump_expr(out, c->decorators[i]);
			strbuf_putc(out, '\n');
		}
		if (c->ndecorators)
			indent(out, level);
		strbuf_printf(out, "class %s", c->name);
		if (c->bases) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, c->bases);
		}
		strbuf_putc(out, '\n');
		dump_block(out, &c->body, level + 1);
		return;
	}
	case AST_TRY:
		strbuf_puts(out, "try\n");
		dump_block(out, &s->try_.body, level + 1);
		for (int i = 0; i < s->try_.nhandlers; i++) {
			const ast_handler *h = &s->try_.handlers[i];
			indent(out, level);
			strbuf_puts(out, s->try_.star ? "except*" : "except");
			if (h->type) {
				strbuf_putc(out, ' ');
				ast_dump_expr(out, h->type);
			}
			if (h->name)
				strbuf_printf(out, " as %s", h->name);
			strbuf_putc(out, '\n');
			dump_block(out, &h->body, level + 1);
		}
		dump_else(out, &s->try_.orelse, level);
		if (s->try_.finalbody.n) {
			indent(out, level);
			strbuf_puts(out, "finally\n");
			dump_block(out, &s->try_.finalbody, level + 1);
		}
		return;
	case AST_WITH:
		strbuf_puts(out, s->with_.is_async ? "async with" : "with");
		for (int i = 0; i < s->with_.nitems; i++) {
			strbuf_puts(out, i ? ", " : " ");
			ast_dump_expr(out, s->with_.items[i].expr);
			if (s->with_.items[i].target) {
				strbuf_puts(out, " as ");
				ast_dump_expr(out, s->with_.items[i].target);
			}
		}
		strbuf_putc(out, '\n');
		dump_block(out, &s->with_.body, level + 1);
		return;
	case AST_RAISE:
		strbuf_puts(out, "raise");
		if (s->raise.exc) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, s->raise.exc);
		}
		if (s->raise.cause) {
			strbuf_puts(out, " from ");
			ast_dump_expr(out, s->raise.cause);
		}
		break;
	case AST_DEL:
		strbuf_puts(out, "del");
		for (int i = 0; i < s->del.n; i++) {
			strbuf_putc(out, ' ');
			ast_dump_expr(out, s->del.targets[i]);
		}
		break;
	case AST_GLOBAL:
	case AST_NONLOCAL:
		strbuf_puts(out, s->kind == AST_GLOBAL ? "global" : "nonlocal");
		for (int i = 0; i < s->names.n; i++)
			strbuf_printf(out, "%s%s", i ? ", " : " ", s->names.names[i]);
		break;
	case AST_MATCH:
		strbuf_puts(out, "match ");
		ast_dump_expr(out, s->match.subject);
		strbuf_putc(out, '\n');
		for (int i = 0; i < s->match.ncases; i++) {
			const ast_case *c = &s->match.cases[i];
			indent(out, level + 1);
			strbuf_puts(out, "case ");
			ast_dump_expr(out, c->pattern);
			if (c->guard) {
				strbuf_puts(out, " if ");
				ast_dump_expr(out, c->guard);
			}
			strbuf_putc(out, '\n');
			dump_block(out, &c->body, level + 2);
		}
		return;
	case AST_TYPEALIAS:
		strbuf_puts(out, "type ");
		ast_dump_expr(out, s->alias.name);
		strbuf_puts(out, " = ");
		ast_dump_expr(out, s->alias.value);
		break;
	default:
		strbuf_puts(out, "?");
	}
	strbuf_putc(out, '\n');
}

static void dump_block(strbuf *out, const ast_block *b, int level)
{
	for (int i = 0; i < b->n; i++)
		dump_stmt(out, b->stmts[i], level);
}

void ast_dump(strbuf *out, const ast_module *m)
{
	if (m)
		dump_block(out, &m->body, 0);
}
