/* sema_signature.c: specialization of a kernel from its -s signature, -D definitions and
 * parameter defaults (the Triton AOT signature grammar: pointer and scalar types with
 * :16 / :1 hints, constexpr values by position or NAME=VALUE, None, tensor descriptors),
 * split out of sema.c. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/sema_int.h"

/* ---- specialization: the signature, -D and defaults -------------------------------------------- */

typedef struct sig_entry {
	const char *text; /* trimmed */
	uint32_t col;     /* 1-based column in the signature string */
	uint32_t len;
} sig_entry;

static int split_signature(sema *s, const char *sig, sig_entry *out, int max)
{
	int n = 0;
	const char *p = sig;
	while (1) {
		while (*p == ' ' || *p == '\t')
			p++;
		/* commas inside brackets belong to the entry: tensordesc<fp16[64, 64]> */
		const char *q = p;
		int depth = 0;
		for (; *q && (*q != ',' || depth > 0); q++)
			depth += (*q == '<' || *q == '[' || *q == '(') - (*q == '>' || *q == ']' || *q == ')');
		const char *e = q;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (n == max)
			return n + 1;
		out[n].text = arena_strndup(s->a, p, (size_t)(e - p));
		out[n].col = (uint32_t)(p - sig) + 1;
		out[n].len = (uint32_t)(e - p);
		n++;
		if (!*q)
			break;
		p = q + 1;
	}
	if (n == 1 && out[0].len == 0)
		return 0;
	return n;
}

static const struct {
	const char *name;
	ir_type_kind kind;
} sig_types[] = {
    {"i1", IR_I1},   {"i8", IR_I8},   {"i16", IR_I16},   {"i32", IR_I32},   {"i64", IR_I64},
    {"u1", IR_I1},   {"u8", IR_U8},   {"u16", IR_U16},   {"u32", IR_U32},   {"u64", IR_U64},
    {"fp16", IR_F16}, {"bf16", IR_BF16}, {"fp32", IR_F32}, {"f32", IR_F32}, {"fp64", IR_F64},
    {"fp8e4nv", IR_F8E4NV}, {"fp8e5", IR_F8E5}, {"B", IR_I1},
};

static const ir_type *sig_scalar(sema *s, const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof sig_types / sizeof sig_types[0]; i++)
		if (strlen(sig_types[i].name) == n && !strncmp(sig_types[i].name, name, n))
			return ir_type_scalar(s->ctx, sig_types[i].kind);
	return NULL;
}

/* Parses a constexpr value given as text (-D or a bare signature entry). */
static bool parse_const_text(sema *s, const char *t, sval *out)
{
	char *end;
	if (!strcmp(t, "True") || !strcmp(t, "true")) {
		*out = sv_bool(true);
		return true;
	}
	if (!strcmp(t, "False") || !strcmp(t, "false")) {
		*out = sv_bool(false);
		return true;
	}
	if (!strcmp(t, "None")) {
		*out = sv_none();
		return true;
	}
	long long v = strtoll(t, &end, 0);
	if (*t && !*end) {
		*out = sv_int(v);
		return true;
	}
	double d = strtod(t, &end);
	if (*t && !*end) {
		*out = sv_float(d);
		return true;
	}
	const char *dn = !strncmp(t, "tl.", 3) ? t + 3 : t;
	const ir_type *dt = sema_dtype_by_name(s, dn);
	if (!dt)
		dt = sig_scalar(s, dn, strlen(dn));
	if (dt) {
		*out = sv_dtype(dt);
		return true;
	}
	if (t[0] == '"' || t[0] == '\'') {
		size_t n = strlen(t);
		if (n >= 2 && t[n - 1] == t[0]) {
			*out = (sval){.kind = SV_STR, .s = arena_strndup(s->a, t + 1, n - 2)};
			return true;
		}
	}
	return false;
}


/* Reads a host tensor descriptor's type, Triton's spelling of it:
 *   tensordesc<DTYPE[B0, B1, ...]>      (DTYPE as in pointer types: fp16, fp32, i8, ...)
 * Returns false when t does not start with "tensordesc"; fails (located at loc, in the
 * signature or the annotation) when it does but is malformed. */
static bool parse_desc_entry(sema *s, const char *t, param_spec *ps, srcloc loc)
{
	if (strncmp(t, "tensordesc", 10))
		return false;
	const char *p = t + 10;
	if (*p != '<')
		sema_fail(s, loc, "bad tensor descriptor type '%s' (expected tensordesc<DTYPE[BLOCK, "
				  "...]>, such as tensordesc<fp16[64, 64]>)", t);
	p++;
	const char *lb = strchr(p, '[');
	const ir_type *elem = lb ? sig_scalar(s, p, (size_t)(lb - p)) : NULL;
	if (!elem)
		sema_fail(s, loc, "bad tensor descriptor type '%s': expected a dtype such as fp16 or "
				  "i32 after '<', then the block shape in brackets", t);
	p = lb + 1;
	int rank = 0;
	while (1) {
		while (*p == ' ')
			p++;
		char *end;
		long long v = strtoll(p, &end, 10);
		if (end == p)
			sema_fail(s, loc, "bad tensor descriptor type '%s': the block shape must be "
					  "integers, such as [64, 64]", t);
		if (rank == 5)
			sema_fail(s, loc, "tensor descriptors have 1 to 5 dimensions, '%s' has more", t);
		ps->desc_block[rank++] = v;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ']')
			break;
		if (*p != ',')
			sema_fail(s, loc, "bad tensor descriptor type '%s': expected ',' or ']' in the "
					  "block shape", t);
		p++;
	}
	p++;
	if (*p == ',')
		sema_fail(s, loc, "'%s': descriptors with a shared-memory layout (Gluon's "
				  "tensordesc<..., layout>) are not supported", t);
	if (strcmp(p, ">"))
		sema_fail(s, loc, "bad tensor descriptor type '%s': expected '>' after the block shape", t);
	sema_desc_check_block(s, elem, rank, ps->desc_block, loc);
	ps->desc_rank = rank;
	/* Triton's TensorDescriptor asserts a 16-byte aligned base: the launch checks it too */
	ps->type = ir_type_ptr(s->ctx, elem, 1);
	ps->div = 16;
	ps->eq1 = false;
	return true;
}

/* Reads one type entry like "*fp16:16", "i32:1" or "fp32". Returns false on a syntax error. */
static bool parse_type_entry(sema *s, const char *t, const ir_type **ty, int64_t *div, bool *eq1)
{
	int ptr = 0;
	while (*t == '*') {
		ptr++;
		t++;
	}
	const char *colon = strchr(t, ':');
	size_t n = colon ? (size_t)(colon - t) : strlen(t);
	const ir_type *base = sig_scalar(s, t, n);
	if (!base)
		return false;
	for (int i = 0; i < ptr; i++)
		base = ir_type_ptr(s->ctx, base, 1);
	*ty = base;
	*div = 1;
	*eq1 = false;
	if (colon && !strcmp(colon + 1, "?"))
		return true; /* i32:? / *fp32:?: the unhinted one of a header's variants (compile.c) */
	if (colon) {
		char *end;
		long long h = strtoll(colon + 1, &end, 10);
		if (*end || (h != 1 && h != 16))
			return false;
		if (h == 16)
			*div = 16;
		else if (ptr)
			return false;
		else
			*eq1 = true;
	}
	return true;
}

/* A parameter whose default is the literal None (bias_ptr=None). */
static bool default_is_none(const ast_param *p)
{
	return p->def && p->def->kind == AST_NONE;
}

void sema_specialize(sema *s, const jit_info *ji, const sema_spec *spec, param_spec *ps,
		       int *num_warps, int *num_stages)
{
	const ast_func *fn = ji->fn;
	int np = fn->nparams;
	uint32_t sigfile = 0;
	for (int i = 0; i < np; i++) {
		ps[i].is_constexpr = sema_is_constexpr_annotation(s, fn->params[i].annotation);
		ps[i].loc = fn->params[i].loc;
		ps[i].div = 1;
	}
	/* 1. the signature */
	if (spec->signature) {
		sig_entry e[256];
		int n = split_signature(s, spec->signature, e, 256);
		sigfile = diag_add_source(s->d, "<signature>", spec->signature,
					  (uint32_t)strlen(spec->signature));
		for (int k = 0; k < n && k < 256; k++) {
			int depth = 0;
			for (const char *q = e[k].text; *q; q++)
				depth += (*q == '<' || *q == '[' || *q == '(') -
					 (*q == '>' || *q == ']' || *q == ')');
			if (depth)
				sema_fail(s, (srcloc){sigfile, 1, e[k].col, e[k].len ? e[k].len : 1},
					  "unbalanced brackets in the signature entry '%s'", e[k].text);
		}
		/* NAME=VALUE entries (as the template that --list-kernels prints has them) set a
		 * constexpr by name and do not count as positions */
		int npos_e = 0;
		for (int k = 0; k < n && k < 256; k++) {
			const char *t = e[k].text, *q = t;
			while (*q == '_' || isalnum((unsigned char)*q))
				q++;
			const char *eq = q;
			while (*eq == ' ')
				eq++;
			if (q == t || *eq != '=' || isdigit((unsigned char)*t)) {
				e[npos_e++] = e[k];
				continue;
			}
			srcloc el = {sigfile, 1, e[k].col, e[k].len ? e[k].len : 1};
			const char *nm = strtab_intern(s->names, t, (size_t)(q - t));
			int j;
			for (j = 0; j < np; j++)
				if (fn->params[j].name == nm)
					break;
			if (j == np || !ps[j].is_constexpr)
				sema_fail(s, el, "'%s' is not a constexpr parameter of kernel '%s'", nm,
					  fn->name);
			const char *val = eq + 1;
			while (*val == ' ')
				val++;
			if (!parse_const_text(s, val, &ps[j].value))
				sema_fail(s, el, "cannot read the value of '%s' in the signature", nm);
			ps[j].has_value = true;
			ps[j].loc = el;
		}
		if (n <= 256)
			n = npos_e;
		int nruntime = 0, nrequired = 0;
		for (int i = 0; i < np; i++) {
			nruntime += !ps[i].is_constexpr;
			nrequired += !ps[i].is_constexpr && !default_is_none(&fn->params[i]);
		}
		int nnamed = 0;
		for (int i = 0; i < np; i++)
			nnamed += ps[i].is_constexpr && ps[i].has_value;
		/* positions: every parameter not given by name, or only the runtime ones */
		bool all = n == np - nnamed, runtime_only = n == nruntime && !all;
		/* the runtime parameters without the ones that default to None (those stay None) */
		bool required_only = !all && !runtime_only && n == nrequired;
		runtime_only |= required_only;
		if (!all && !runtime_only) {
			diag_error(s->d, (srcloc){sigfile, 1, 1, (uint32_t)strlen(spec->signature)},
				   "the signature has %d entr%s but kernel '%s' has %d parameter%s "
				   "(%d not constexpr)",
				   n, n == 1 ? "y" : "ies", fn->name, np, np == 1 ? "" : "s", nruntime);
			diag_note(s->d, fn->loc, "kernel '%s' is defined here", fn->name);
			longjmp(*s->fail, 1);
		}
		for (int i = 0, k = 0; i < np; i++) {
			if (runtime_only && ps[i].is_constexpr)
				continue;
			if (ps[i].is_constexpr && ps[i].has_value)
				continue; /* given by name */
			if (required_only && default_is_none(&fn->params[i]))
				continue; /* step 5 makes it None */
			sig_entry *en = &e[k++];
			srcloc el = {sigfile, 1, en->col, en->len ? en->len : 1};
			if (!ps[i].is_constexpr && !strcmp(en->text, "None")) {
				/* None for any parameter: Triton specializes it as a constexpr None */
				ps[i].is_constexpr = true;
				ps[i].has_value = true;
				ps[i].value = sv_none();
				ps[i].loc = el;
				continue;
			}
			if (ps[i].is_constexpr) {
				if (!parse_const_text(s, en->text, &ps[i].value))
					sema_fail(s, el, "parameter '%s' is a tl.constexpr: the signature "
							 "must give its value, got '%s'",
						  fn->params[i].name, en->text);
				ps[i].has_value = true;
				ps[i].loc = el;
			} else {
				if (!parse_desc_entry(s, en->text, &ps[i], el) &&
				    !parse_type_entry(s, en->text, &ps[i].type, &ps[i].div, &ps[i].eq1)) {
					sval dummy;
					if (parse_const_text(s, en->text, &dummy) && dummy.kind != SV_DTYPE)
						sema_fail(s, el, "parameter '%s' is not a tl.constexpr, so "
								 "the signature must give its type (such "
								 "as i32 or *fp32:16), got the value '%s'",
							  fn->params[i].name, en->text);
					sema_fail(s, el, "bad signature entry '%s' for parameter '%s' "
							 "(expected a type such as *fp16:16, i32:16, i32:1, "
							 "fp32, tensordesc<fp16[64, 64]>)",
						  en->text, fn->params[i].name);
				}
				ps[i].loc = el;
			}
		}
	}
	/* 2. -D NAME=VALUE */
	for (size_t k = 0; k < spec->ndefines; k++) {
		const char *nm = strtab_cstr(s->names, spec->defines[k].name);
		int i;
		for (i = 0; i < np; i++)
			if (fn->params[i].name == nm)
				break;
		if (i == np)
			sema_fail(s, fn->loc, "-D %s: kernel '%s' has no parameter named '%s'", nm,
				  fn->name, nm);
		if (!ps[i].is_constexpr && !strcmp(spec->defines[k].value, "None")) {
			ps[i].is_constexpr = true; /* -D BIAS=None: specialized away, as in the signature */
			ps[i].type = NULL;
		} else if (!ps[i].is_constexpr)
			sema_fail(s, fn->params[i].loc, "-D %s: parameter '%s' is not a tl.constexpr", nm,
				  nm);
		if (!parse_const_text(s, spec->defines[k].value, &ps[i].value))
			sema_fail(s, fn->params[i].loc, "-D %s=%s: cannot read the value", nm,
				  spec->defines[k].value);
		ps[i].has_value = true;
	}
	/* 3. annotations in the source: n: "i32:16", x_ptr: "*fp32" */
	for (int i = 0; i < np; i++) {
		const ast_expr *an = fn->params[i].annotation;
		if (!ps[i].is_constexpr && !ps[i].type && an && an->kind == AST_STR &&
		    !parse_desc_entry(s, an->str.s, &ps[i], an->loc)) {
			if (!parse_type_entry(s, an->str.s, &ps[i].type, &ps[i].div, &ps[i].eq1))
				sema_fail(s, an->loc, "bad type annotation '%s' (expected a type such as "
						      "*fp16:16 or i32)", an->str.s);
		}
	}
	/* 4. autotune: the first config supplies what is still missing */
	if (ji->autotune && ji->autotune->kind == AST_CALL) {
		const ast_expr *at = ji->autotune;
		for (int k = 0; k < at->call.nkws; k++) {
			if (strcmp(at->call.kws[k].name, "configs"))
				continue;
			const ast_expr *cl = at->call.kws[k].value;
			if ((cl->kind != AST_LIST && cl->kind != AST_TUPLE) || cl->seq.n == 0)
				break;
			const ast_expr *cfg = cl->seq.items[0];
			if (cfg->kind != AST_CALL || cfg->call.nargs < 1 || cfg->call.args[0]->kind != AST_DICT)
				break;
			const ast_expr *d = cfg->call.args[0];
			for (int j = 0; j < d->dict.n; j++) {
				if (d->dict.keys[j]->kind != AST_STR)
					continue;
				const char *nm = strtab_cstr(s->names, d->dict.keys[j]->str.s);
				for (int i = 0; i < np; i++)
					if (fn->params[i].name == nm && ps[i].is_constexpr && !ps[i].has_value) {
						ps[i].value = sema_eval_expr(s, d->dict.values[j]);
						ps[i].has_value = true;
					}
			}
			for (int j = 0; j < cfg->call.nkws; j++) {
				sval v = sema_eval_expr(s, cfg->call.kws[j].value);
				srcloc kl = cfg->call.kws[j].loc;
				if (!strcmp(cfg->call.kws[j].name, "num_warps") && !*num_warps) {
					int64_t w = sema_expect_int(s, &v, kl, "num_warps");
					if (w < 1 || w > IR_MAX_NUM_WARPS || (w & (w - 1)))
						sema_fail(s, kl, "num_warps must be a power of two from 1 to %d, "
							  "got %lld", IR_MAX_NUM_WARPS, (long long)w);
					*num_warps = (int)w;
				}
				if (!strcmp(cfg->call.kws[j].name, "num_stages") && !*num_stages) {
					int64_t st = sema_expect_int(s, &v, kl, "num_stages");
					if (st < 0 || st > IR_MAX_NUM_STAGES)
						sema_fail(s, kl, "num_stages must be from 0 to %d, got %lld",
							  IR_MAX_NUM_STAGES, (long long)st);
					*num_stages = (int)st;
				}
				if (!strcmp(cfg->call.kws[j].name, "num_ctas")) {
					int64_t nc = sema_expect_int(s, &v, kl, "num_ctas");
					if (nc < 1 || nc > IR_MAX_NUM_CTAS)
						sema_fail(s, kl, "num_ctas must be from 1 to %d, got %lld",
							  IR_MAX_NUM_CTAS, (long long)nc);
				}
			}
		}
	}
	/* 5. defaults, then complain about what is still missing */
	for (int i = 0; i < np; i++) {
		const ast_param *p = &fn->params[i];
		if (!ps[i].is_constexpr && !ps[i].type && default_is_none(p)) {
			/* bias_ptr=None with no type given: the constexpr None */
			ps[i].is_constexpr = true;
			ps[i].has_value = true;
			ps[i].value = sv_none();
		}
		if (ps[i].is_constexpr && !ps[i].has_value && p->def) {
			ps[i].value = sema_eval_expr(s, p->def);
			ps[i].has_value = true;
		}
		if (ps[i].is_constexpr && !ps[i].has_value)
			sema_fail(s, p->loc, "no value for constexpr parameter '%s': give it in the "
					     "signature (-s) or with -D %s=VALUE",
				  p->name, p->name);
		if (!ps[i].is_constexpr && !ps[i].type) {
			strbuf t = {0};
			sema_signature_template(&t, fn);
			const char *tmpl = arena_strdup(s->a, t.data ? t.data : "");
			strbuf_free(&t);
			if (!spec->signature)
				sema_fail(s, fn->loc, "kernel '%s' needs a signature: -s \"%s\" (fill in "
						      "the types, such as *fp32:16 or i32, and the "
						      "constexpr values)", fn->name, tmpl);
			sema_fail(s, p->loc, "no type for parameter '%s': give the kernel's signature "
					     "with -s, whose template is \"%s\"", p->name, tmpl);
		}
	}
}
