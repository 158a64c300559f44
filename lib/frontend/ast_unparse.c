/* ast_unparse.c: expressions written back as Python source (for --list-kernels, which
 * shows parameter defaults and annotations as a reader would write them), and the names
 * of constructs for sema's messages about the kernel subset. */
#include <stdio.h>
#include <string.h>

#include "ast.h"

static void unparse_str(strbuf *out, const char *s, uint32_t n)
{
	strbuf_putc(out, '\'');
	for (uint32_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\'' || c == '\\')
			strbuf_printf(out, "\\%c", c);
		else if (c == '\n')
			strbuf_puts(out, "\\n");
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(out, "\\x%02x", c);
		else
			strbuf_putc(out, (char)c);
	}
	strbuf_putc(out, '\'');
}

static void unparse_seq(strbuf *out, ast_expr *const *v, int n, const char *open,
			const char *close)
{
	strbuf_puts(out, open);
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_puts(out, ", ");
		ast_unparse_expr(out, v[i]);
	}
	strbuf_puts(out, close);
}

/* Operands that bind less tightly than their context are parenthesised; to stay simple,
 * every compound operand of an operator is. */
static void unparse_operand(strbuf *out, const ast_expr *e)
{
	bool paren = e->kind == AST_BINOP || e->kind == AST_BOOLOP || e->kind == AST_COMPARE ||
		     e->kind == AST_IFEXP || e->kind == AST_LAMBDA || e->kind == AST_UNARY;
	if (paren)
		strbuf_putc(out, '(');
	ast_unparse_expr(out, e);
	if (paren)
		strbuf_putc(out, ')');
}

void ast_unparse_expr(strbuf *out, const ast_expr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case AST_NAME: strbuf_puts(out, e->name); break;
	case AST_INT: strbuf_printf(out, "%lld", (long long)e->ival); break;
	case AST_FLOAT: strbuf_put_double(out, e->fval); break;
	case AST_IMAG: strbuf_put_double(out, e->fval); strbuf_putc(out, 'j'); break;
	case AST_STR: unparse_str(out, e->str.s, e->str.len); break;
	case AST_BYTES: strbuf_putc(out, 'b'); unparse_str(out, e->str.s, e->str.len); break;
	case AST_BOOL: strbuf_puts(out, e->bval ? "True" : "False"); break;
	case AST_NONE: strbuf_puts(out, "None"); break;
	case AST_ELLIPSIS: strbuf_puts(out, "..."); break;
	case AST_BINOP:
		unparse_operand(out, e->bin.lhs);
		strbuf_printf(out, " %s ", ast_binop_str(e->bin.op));
		unparse_operand(out, e->bin.rhs);
		break;
	case AST_UNARY:
		strbuf_puts(out, ast_unop_str(e->un.op));
		if (e->un.op == AST_UNOT)
			strbuf_putc(out, ' ');
		unparse_operand(out, e->un.operand);
		break;
	case AST_BOOLOP:
		for (int i = 0; i < e->boolop.n; i++) {
			if (i)
				strbuf_puts(out, e->boolop.op == AST_AND ? " and " : " or ");
			unparse_operand(out, e->boolop.values[i]);
		}
		break;
	case AST_COMPARE:
		unparse_operand(out, e->cmp.first);
		for (int i = 0; i < e->cmp.n; i++) {
			strbuf_printf(out, " %s ", ast_cmpop_str(e->cmp.ops[i]));
			unparse_operand(out, e->cmp.rest[i]);
		}
		break;
	case AST_IFEXP:
		unparse_operand(out, e->ifexp.then);
		strbuf_puts(out, " if ");
		unparse_operand(out, e->ifexp.cond);
		strbuf_puts(out, " else ");
		unparse_operand(out, e->ifexp.els);
		break;
	case AST_CALL:
		ast_unparse_expr(out, e->call.func);
		strbuf_putc(out, '(');
		for (int i = 0; i < e->call.nargs; i++) {
			if (i)
				strbuf_puts(out, ", ");
			ast_unparse_expr(out, e->call.args[i]);
		}
		for (int i = 0; i < e->call.nkws; i++) {
			if (i || e->call.nargs)
				strbuf_puts(out, ", ");
			if (e->call.kws[i].name)
				strbuf_printf(out, "%s=", e->call.kws[i].name);
			else
				strbuf_puts(out, "**");
			ast_unparse_expr(out, e->call.kws[i].value);
		}
		strbuf_putc(out, ')');
		break;
	case AST_ATTR:
		unparse_operand(out, e->attr.value);
		strbuf_printf(out, ".%s", e->attr.name);
		break;
	case AST_SUBSCRIPT:
		unparse_operand(out, e->sub.value);
		strbuf_putc(out, '[');
		if (e->sub.index->kind == AST_TUPLE)
			unparse_seq(out, e->sub.index->seq.items, e->sub.index->seq.n, "", "");
		else
			ast_unparse_expr(out, e->sub.index);
		strbuf_putc(out, ']');
		break;
	case AST_SLICE:
		ast_unparse_expr(out, e->slice.lo);
		strbuf_putc(out, ':');
		ast_unparse_expr(out, e->slice.hi);
		if (e->slice.step) {
			strbuf_putc(out, ':');
			ast_unparse_expr(out, e->slice.step);
		}
		break;
	case AST_TUPLE:
		unparse_seq(out, e->seq.items, e->seq.n, "(", e->seq.n == 1 ? ",)" : ")");
		break;
	case AST_LIST: unparse_seq(out, e->seq.items, e->seq.n, "[", "]"); break;
	case AST_SET: unparse_seq(out, e->seq.items, e->seq.n, "{", "}"); break;
	case AST_DICT:
		strbuf_putc(out, '{');
		for (int i = 0; i < e->dict.n; i++) {
			if (i)
				strbuf_puts(out, ", ");
			if (e->dict.keys[i]) {
				ast_unparse_expr(out, e->dict.keys[i]);
				strbuf_puts(out, ": ");
			} else {
				strbuf_puts(out, "**");
			}
			ast_unparse_expr(out, e->dict.values[i]);
		}
		strbuf_putc(out, '}');
		break;
	case AST_STARRED:
		strbuf_puts(out, e->wrap.flag ? "**" : "*");
		unparse_operand(out, e->wrap.value);
		break;
	case AST_LAMBDA:
		strbuf_puts(out, "lambda");
		for (int i = 0; i < e->lambda.nparams; i++)
			strbuf_printf(out, "%s%s", i ? ", " : " ", e->lambda.params[i].name);
		strbuf_puts(out, ": ");
		ast_unparse_expr(out, e->lambda.body);
		break;
	default:
		/* comprehensions, f-strings, yield, await, named: rare in signatures */
		strbuf_printf(out, "<%s>", ast_expr_what(e));
		break;
	}
}

const char *ast_expr_what(const ast_expr *e)
{
	switch (e->kind) {
	case AST_LAMBDA: return "lambda";
	case AST_DICT: return "dict literal";
	case AST_SET: return "set literal";
	case AST_ELLIPSIS: return "Ellipsis (...)";
	case AST_IMAG: return "imaginary literal";
	case AST_BYTES: return "bytes literal";
	case AST_FSTRING: return "f-string";
	case AST_FVALUE: return "f-string field";
	case AST_STARRED: return e->wrap.flag ? "dict unpacking (**)" : "starred expression";
	case AST_YIELD: return "yield expression";
	case AST_AWAIT: return "await expression";
	case AST_NAMED: return "assignment expression (:=)";
	case AST_COMP:
		switch (e->comp.of) {
		case AST_LIST: return "list comprehension";
		case AST_SET: return "set comprehension";
		case AST_DICT: return "dict comprehension";
		default: return "generator expression";
		}
	case AST_SLICE: return "slice";
	default: return "expression";
	}
}

const char *ast_stmt_what(const ast_stmt *s)
{
	switch (s->kind) {
	case AST_CLASS: return "class definition";
	case AST_TRY: return "try statement";
	case AST_WITH: return s->with_.is_async ? "async with" : "with statement";
	case AST_RAISE: return "raise statement";
	case AST_DEL: return "del statement";
	case AST_GLOBAL: return "global statement";
	case AST_NONLOCAL: return "nonlocal statement";
	case AST_MATCH: return "match statement";
	case AST_TYPEALIAS: return "type alias";
	case AST_FUNCDEF: return s->func->is_async ? "async function" : "nested function definition";
	case AST_FOR: return s->for_.is_async ? "async for" : "for ... else";
	case AST_WHILE: return "while ... else";
	case AST_BREAK: return "break";
	case AST_CONTINUE: return "continue";
	case AST_IMPORT: case AST_IMPORTFROM: return "import inside a function";
	default: return "statement";
	}
}
