/* print.c: the text form of the tile IR (docs/ir.md).
 *
 * Values are named lazily, in the order the text mentions them: a value with a name hint
 * prints as %hint (%hint_1, %hint_2, ... when the name is already taken in the function),
 * others as %0, %1, ... Because definitions precede uses in valid IR, this numbers values in
 * textual order, which is what makes print -> parse -> print byte-identical. */
#include "ir.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct printer {
	strbuf *out;
	unsigned flags;
	diag_engine *diag; /* for file names in loc(...); may be NULL */
	arena *a;	   /* names of this function */
	strtab *taken;	   /* names handed out so far, interned */
	ir_ptrmap names;   /* value -> its name (without '%') */
	ir_ptrmap used;	   /* interned name -> non-NULL when taken */
	ir_ptrmap suffix;  /* interned hint -> the last k tried for hint_k (names are never
			    * given back, so the search resumes there: linear, not quadratic) */
	int next;	   /* next number for an anonymous value */
} printer;

static bool printer_begin(printer *p, strbuf *out, unsigned flags, diag_engine *d)
{
	memset(p, 0, sizeof *p);
	p->out = out;
	p->flags = flags;
	p->diag = d;
	p->a = arena_create();
	p->taken = p->a ? strtab_create(p->a) : NULL;
	return p->taken != NULL;
}

static void printer_end(printer *p)
{
	ir_ptrmap_free(&p->names);
	ir_ptrmap_free(&p->used);
	ir_ptrmap_free(&p->suffix);
	strtab_destroy(p->taken);
	arena_destroy(p->a);
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/* Claims `s` if free; returns the interned name or NULL when taken. */
static const char *claim(printer *p, const char *s)
{
	const char *n = strtab_cstr(p->taken, s);
	if (!n || ir_ptrmap_get(&p->used, n))
		return NULL;
	ir_ptrmap_put(&p->used, n, (void *)n);
	return n;
}

static const char *value_name(printer *p, const ir_value *v)
{
	const char *n = ir_ptrmap_get(&p->names, v);
	if (n)
		return n;
	bool numeric = true;
	char buf[128];
	size_t len = 0;
	if (v->name)
		for (const char *s = v->name; *s && len < 64; s++, len++) {
			buf[len] = is_name_char((unsigned char)*s) ? *s : '_';
			numeric &= isdigit((unsigned char)*s) != 0;
		}
	buf[len] = 0;
	if (len && !numeric) {
		n = claim(p, buf);
		const char *hint = n ? NULL : strtab_cstr(p->taken, buf);
		int k = hint ? (int)(intptr_t)ir_ptrmap_get(&p->suffix, hint) : 0;
		while (!n && ++k < 1000000) {
			snprintf(buf + len, sizeof buf - len, "_%d", k);
			n = claim(p, buf);
		}
		if (hint)
			ir_ptrmap_put(&p->suffix, hint, (void *)(intptr_t)k);
	}
	if (!n) {
		snprintf(buf, sizeof buf, "%d", p->next++);
		n = strtab_cstr(p->taken, buf);
	}
	if (!n)
		return "?";
	ir_ptrmap_put(&p->names, v, (void *)n);
	return n;
}

static void put_value(printer *p, const ir_value *v)
{
	strbuf_putc(p->out, '%');
	strbuf_puts(p->out, v ? value_name(p, v) : "<null>");
}

static void indent(printer *p, int depth)
{
	for (int i = 0; i < depth; i++)
		strbuf_puts(p->out, "  ");
}

static void put_string(strbuf *out, const char *s)
{
	strbuf_putc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			strbuf_printf(out, "\\%c", c);
		else if (c == '\n')
			strbuf_puts(out, "\\n");
		else if (c == '\t')
			strbuf_puts(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(out, "\\%02x", c);
		else
			strbuf_putc(out, (char)c);
	}
	strbuf_putc(out, '"');
}

static void put_attr_value(strbuf *out, const ir_attr *a)
{
	switch (a->kind) {
	case IR_ATTR_INT:
		strbuf_printf(out, "%lld", (long long)a->i);
		break;
	case IR_ATTR_FLOAT:
		strbuf_put_double(out, a->f);
		break;
	case IR_ATTR_BOOL:
		strbuf_puts(out, a->i ? "true" : "false");
		break;
	case IR_ATTR_STR:
		put_string(out, a->s ? a->s : "");
		break;
	case IR_ATTR_INTS:
		strbuf_putc(out, '[');
		for (int i = 0; i < a->ints.n; i++)
			strbuf_printf(out, "%s%lld", i ? ", " : "", (long long)a->ints.v[i]);
		strbuf_putc(out, ']');
		break;
	case IR_ATTR_TYPE:
		ir_type_print(out, a->type);
		break;
	}
}

/* attr-dict ::= '{' attr (', ' attr)* '}' ; attr ::= name | name ' = ' value
 * A true boolean prints as its bare name. */
static void put_attrs(strbuf *out, const ir_attr *attrs, int n)
{
	if (!n)
		return;
	strbuf_puts(out, " {");
	for (int i = 0; i < n; i++) {
		strbuf_puts(out, i ? ", " : "");
		strbuf_puts(out, attrs[i].name);
		if (attrs[i].kind == IR_ATTR_BOOL && attrs[i].i)
			continue;
		strbuf_puts(out, " = ");
		put_attr_value(out, &attrs[i]);
	}
	strbuf_putc(out, '}');
}

static void put_loc(printer *p, srcloc loc)
{
	if (!(p->flags & IR_PRINT_LOCS))
		return;
	if (!loc.file) {
		strbuf_puts(p->out, " loc(unknown)");
		return;
	}
	const char *name = p->diag ? diag_file_name(p->diag, loc.file) : NULL;
	strbuf_puts(p->out, " loc(");
	put_string(p->out, name ? name : "?");
	strbuf_printf(p->out, ":%u:%u)", loc.line, loc.col);
}

static void print_op(printer *p, const ir_op *op, int depth);

/* region ::= '{' NEWLINE ('^(' arg (', ' arg)* '):' NEWLINE)? op* '}' */
static void print_region(printer *p, const ir_block *b, int depth)
{
	strbuf_puts(p->out, "{\n");
	if (b->nargs) {
		indent(p, depth);
		strbuf_puts(p->out, "^(");
		for (int i = 0; i < b->nargs; i++) {
			strbuf_puts(p->out, i ? ", " : "");
			put_value(p, b->args[i]);
			strbuf_puts(p->out, ": ");
			ir_type_print(p->out, b->args[i]->type);
		}
		strbuf_puts(p->out, "):\n");
	}
	for (const ir_op *o = b->first; o; o = o->next)
		print_op(p, o, depth + 1);
	indent(p, depth);
	strbuf_putc(p->out, '}');
}

/* op ::= (value (', ' value)* ' = ')? name (' ' value (', ' value)*)? attr-dict?
 *        (' : ' type (', ' type)*)? (' ' region)* loc? */
static void print_op(printer *p, const ir_op *op, int depth)
{
	indent(p, depth);
	for (int i = 0; i < op->nresults; i++) {
		strbuf_puts(p->out, i ? ", " : "");
		put_value(p, &op->results[i]);
	}
	if (op->nresults)
		strbuf_puts(p->out, " = ");
	strbuf_puts(p->out, (unsigned)op->code < IR_NUM_OPS ? ir_ops[op->code].name : "<bad-op>");
	for (int i = 0; i < op->noperands; i++) {
		strbuf_puts(p->out, i ? ", " : " ");
		put_value(p, op->operands[i]);
	}
	put_attrs(p->out, op->attrs, op->nattrs);
	for (int i = 0; i < op->nresults; i++) {
		strbuf_puts(p->out, i ? ", " : " : ");
		ir_type_print(p->out, op->results[i].type);
	}
	for (int i = 0; i < op->nregions; i++) {
		strbuf_putc(p->out, ' ');
		print_region(p, op->regions[i], depth);
	}
	put_loc(p, op->loc);
	strbuf_putc(p->out, '\n');
}

/* func ::= 'func @' name '(' param (', ' param)* ')' (' attributes' attr-dict)? ' ' region
 * param ::= value ': ' type param-attrs? */
static void print_func(printer *p, const ir_func *f)
{
	strbuf_printf(p->out, "func @%s(", f->name);
	for (int i = 0; i < f->body->nargs; i++) {
		strbuf_puts(p->out, i ? ", " : "");
		put_value(p, f->body->args[i]);
		strbuf_puts(p->out, ": ");
		ir_type_print(p->out, f->body->args[i]->type);
		const ir_param_info *pi = &f->params[i];
		if (pi->divisibility != 1 && pi->equal_to_1)
			strbuf_printf(p->out, " {divisibility = %lld, equal_to_1}",
				      (long long)pi->divisibility);
		else if (pi->divisibility != 1)
			strbuf_printf(p->out, " {divisibility = %lld}", (long long)pi->divisibility);
		else if (pi->equal_to_1)
			strbuf_puts(p->out, " {equal_to_1}");
	}
	strbuf_putc(p->out, ')');
	if (f->nattrs) {
		strbuf_puts(p->out, " attributes");
		put_attrs(p->out, f->attrs, f->nattrs);
	}
	strbuf_puts(p->out, " {\n");
	for (const ir_op *o = f->body->first; o; o = o->next)
		print_op(p, o, 1);
	strbuf_putc(p->out, '}');
	put_loc(p, f->loc);
	strbuf_putc(p->out, '\n');
}

static diag_engine *func_diag(const ir_func *f)
{
	return f && f->module && f->module->ctx ? ir_context_diag(f->module->ctx) : NULL;
}

void ir_print_func(strbuf *out, const ir_func *f, unsigned flags)
{
	printer p;
	if (!printer_begin(&p, out, flags, func_diag(f))) {
		printer_end(&p);
		return;
	}
	print_func(&p, f);
	printer_end(&p);
}

void ir_print_module(strbuf *out, const ir_module *m, unsigned flags)
{
	for (const ir_func *f = m->funcs; f; f = f->next) {
		if (f != m->funcs)
			strbuf_putc(out, '\n');
		ir_print_func(out, f, flags);
	}
}

/* Names the values of the enclosing function first, in the order print_func would, so that
 * an op printed in a diagnostic uses the names of the whole function. */
static void name_block(printer *p, const ir_block *b)
{
	for (int i = 0; i < b->nargs; i++)
		value_name(p, b->args[i]);
	for (const ir_op *o = b->first; o; o = o->next) {
		for (int i = 0; i < o->nresults; i++)
			value_name(p, &o->results[i]);
		for (int i = 0; i < o->nregions; i++)
			name_block(p, o->regions[i]);
	}
}

void ir_print_op(strbuf *out, const ir_op *op, unsigned flags)
{
	const ir_block *b = op->parent;
	while (b && b->parent && b->parent->parent)
		b = b->parent->parent;
	const ir_func *f = b ? b->func : NULL;
	printer p;
	if (printer_begin(&p, out, flags, func_diag(f))) {
		if (f)
			name_block(&p, f->body);
		print_op(&p, op, 0);
	}
	printer_end(&p);
}
