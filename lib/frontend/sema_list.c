/* sema_list.c: what a kernel file offers, for a person about to compile it:
 * `tilecc FILE.py --list-kernels` and the signature template that the error for a
 * missing -s shows. Nothing is evaluated; everything comes from the AST and the source. */
#include <ctype.h>
#include <string.h>

#include "frontend/sema_int.h"

static bool param_is_constexpr(const ast_param *p)
{
	const ast_expr *a = p->annotation;
	if (!a)
		return false;
	if (a->kind == AST_ATTR || a->kind == AST_NAME)
		return !strcmp(a->kind == AST_ATTR ? a->attr.name : a->name, "constexpr");
	if (a->kind == AST_STR)
		return !strcmp(a->str.s, "tl.constexpr") || !strcmp(a->str.s, "constexpr");
	return false;
}

/* Whether a parameter name reads like a pointer (x_ptr, in_ptr, Ptr). */
static bool looks_like_pointer(const char *n)
{
	size_t k = strlen(n);
	return k >= 3 && tolower((unsigned char)n[k - 3]) == 'p' &&
	       tolower((unsigned char)n[k - 2]) == 't' && tolower((unsigned char)n[k - 1]) == 'r';
}

void sema_signature_template(strbuf *out, const ast_func *fn)
{
	for (int i = 0; i < fn->nparams; i++) {
		const ast_param *p = &fn->params[i];
		if (i)
			strbuf_puts(out, ", ");
		if (param_is_constexpr(p)) {
			strbuf_printf(out, "%s=", p->name);
			if (p->def)
				ast_unparse_expr(out, p->def);
			else
				strbuf_puts(out, "<constexpr>");
		} else if (p->annotation && p->annotation->kind == AST_STR) {
			strbuf_puts(out, p->annotation->str.s);
		} else {
			strbuf_puts(out, looks_like_pointer(p->name) ? "*<dtype>" : "<type>");
		}
	}
}

/* Writes source lines first..last of file, each indented. */
static void put_lines(strbuf *out, diag_engine *d, uint32_t file, uint32_t first, uint32_t last)
{
	uint32_t len = 0;
	const char *t = diag_file_text(d, file, &len);
	if (!t)
		return;
	uint32_t line = 1;
	const char *p = t, *end = t + len;
	while (p < end && line < first) {
		if (*p++ == '\n')
			line++;
	}
	while (p < end && line <= last) {
		const char *q = p;
		while (q < end && *q != '\n')
			q++;
		size_t n = (size_t)(q - p);
		if (n && p[n - 1] == '\r')
			n--;
		strbuf_puts(out, "  ");
		strbuf_putn(out, p, n);
		strbuf_putc(out, '\n');
		p = q < end ? q + 1 : q;
		line++;
	}
}

void sema_list_kernels(strbuf *out, diag_engine *d, const ast_module *m)
{
	const char *fname = diag_file_name(d, m->file);
	const char *base = fname && strrchr(fname, '/') ? strrchr(fname, '/') + 1 : fname;
	for (int i = 0; i < m->body.n; i++) {
		const ast_stmt *st = m->body.stmts[i];
		if (st->kind != AST_FUNCDEF || !sema_is_jit(st->func))
			continue;
		const ast_func *fn = st->func;
		strbuf_printf(out, "%s  (%s:%u)\n", fn->name, base ? base : "<input>", fn->loc.line);
		strbuf_puts(out, "  params:");
		if (!fn->nparams)
			strbuf_puts(out, " (none)");
		for (int k = 0; k < fn->nparams; k++) {
			const ast_param *p = &fn->params[k];
			strbuf_printf(out, "%s %s", k ? "," : "", p->name);
			if (param_is_constexpr(p))
				strbuf_puts(out, ": constexpr");
			else if (p->annotation) {
				strbuf_puts(out, ": ");
				ast_unparse_expr(out, p->annotation);
			}
			if (p->def) {
				strbuf_puts(out, " = ");
				ast_unparse_expr(out, p->def);
			}
		}
		strbuf_puts(out, "\n  signature: -s \"");
		sema_signature_template(out, fn);
		strbuf_puts(out, "\"\n");
		/* autotune and heuristics, as written: from each decorator's line to the line
		 * before the next decorator (or the def) */
		for (int k = 0; k < fn->ndecorators; k++) {
			const ast_expr *dc = fn->decorators[k];
			const char *n = sema_decorator_name(dc);
			if (!n || (strcmp(n, "autotune") && strcmp(n, "heuristics")))
				continue;
			uint32_t last = k + 1 < fn->ndecorators ? fn->decorators[k + 1]->loc.line - 1
								: fn->def_line - 1;
			if (last < dc->loc.line)
				last = dc->loc.line;
			put_lines(out, d, m->file, dc->loc.line, last);
		}
	}
}
