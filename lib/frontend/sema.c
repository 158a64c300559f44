/* sema.c: AST plus specialization to tile IR.
 *
 * Sema is an abstract interpreter of the kernel's body: every expression evaluates to an
 * sval, either a compile-time value (Triton's constexprs, dtypes, modules, functions) or an
 * SSA value in the IR being built. Compile-time `if`, `tl.static_range` and helper calls are
 * resolved here, so the IR only holds what must happen at run time. Runtime control flow
 * becomes structured ops: `if` with results for the variables both branches may change,
 * `for`/`while` with the loop-carried variables as iteration arguments.
 *
 * Errors are reported once, then sema_fail() unwinds to sema_lower() with longjmp; all
 * memory is in the compilation's arena, so nothing leaks on that path. The specialization
 * from the signature (-s, -D, defaults) is in sema_signature.c. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/sema_int.h"

_Noreturn void sema_fail(sema *s, srcloc loc, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	diag_error(s->d, loc, "%s", buf);
	longjmp(*s->fail, 1);
}

/* ---- scopes --------------------------------------------------------------------------------- */

static sval *scope_find(scope *sc, const char *name)
{
	for (int i = sc->n - 1; i >= 0; i--)
		if (sc->b[i].name == name)
			return &sc->b[i].v;
	return NULL;
}

static void scope_set(sema *s, scope *sc, const char *name, sval v)
{
	sval *p = scope_find(sc, name);
	if (p) {
		*p = v;
		return;
	}
	if (sc->n == sc->cap) {
		int cap = sc->cap ? sc->cap * 2 : 32;
		binding *nb = ARENA_NEWN(s->a, binding, cap);
		if (!nb)
			sema_fail(s, SRCLOC_NONE, "out of memory");
		if (sc->n)
			memcpy(nb, sc->b, sizeof(binding) * (size_t)sc->n);
		sc->b = nb;
		sc->cap = cap;
	}
	sc->b[sc->n++] = (binding){name, v};
}

static scope scope_copy(sema *s, const scope *sc)
{
	scope c = {0};
	c.cap = sc->n > 0 ? sc->n + 8 : 8;
	c.b = ARENA_NEWN(s->a, binding, c.cap);
	c.n = sc->n;
	if (sc->n)
		memcpy(c.b, sc->b, sizeof(binding) * (size_t)sc->n);
	return c;
}

/* ---- names assigned by statements (for loop-carried and branch-merged variables) ----------- */

typedef struct nameset {
	const char **v;
	int n, cap;
} nameset;

static void nameset_add(sema *s, nameset *ns, const char *name)
{
	for (int i = 0; i < ns->n; i++)
		if (ns->v[i] == name)
			return;
	if (ns->n == ns->cap) {
		int cap = ns->cap ? ns->cap * 2 : 16;
		const char **nv = ARENA_NEWN(s->a, const char *, cap);
		if (ns->n)
			memcpy(nv, ns->v, sizeof(char *) * (size_t)ns->n);
		ns->v = nv;
		ns->cap = cap;
	}
	ns->v[ns->n++] = name;
}

static void target_names(sema *s, const ast_expr *t, nameset *ns)
{
	if (t->kind == AST_NAME)
		nameset_add(s, ns, t->name);
	else if (t->kind == AST_TUPLE || t->kind == AST_LIST)
		for (int i = 0; i < t->seq.n; i++)
			target_names(s, t->seq.items[i], ns);
}

static void assigned_names(sema *s, const ast_block *b, nameset *ns)
{
	for (int i = 0; i < b->n; i++) {
		const ast_stmt *st = b->stmts[i];
		switch (st->kind) {
		case AST_ASSIGN:
			for (int j = 0; j < st->assign.ntargets; j++)
				target_names(s, st->assign.targets[j], ns);
			break;
		case AST_AUGASSIGN: target_names(s, st->aug.target, ns); break;
		case AST_ANNASSIGN: if (st->ann.value) target_names(s, st->ann.target, ns); break;
		case AST_IF:
			assigned_names(s, &st->if_.then, ns);
			assigned_names(s, &st->if_.els, ns);
			break;
		case AST_FOR:
			target_names(s, st->for_.target, ns);
			assigned_names(s, &st->for_.body, ns);
			break;
		case AST_WHILE: assigned_names(s, &st->while_.body, ns); break;
		default: break;
		}
	}
}

/* True when the block ends with a return on every path that sema can see statically. */
static bool block_returns(const ast_block *b)
{
	if (b->n == 0)
		return false;
	const ast_stmt *last = b->stmts[b->n - 1];
	if (last->kind == AST_RETURN)
		return true;
	if (last->kind == AST_IF)
		return block_returns(&last->if_.then) && block_returns(&last->if_.els);
	return false;
}

static bool block_has_return(const ast_block *b)
{
	for (int i = 0; i < b->n; i++) {
		const ast_stmt *st = b->stmts[i];
		if (st->kind == AST_RETURN)
			return true;
		if (st->kind == AST_IF &&
		    (block_has_return(&st->if_.then) || block_has_return(&st->if_.els)))
			return true;
		if (st->kind == AST_FOR && block_has_return(&st->for_.body))
			return true;
		if (st->kind == AST_WHILE && block_has_return(&st->while_.body))
			return true;
	}
	return false;
}

/* ---- expressions ---------------------------------------------------------------------------- */

static sval eval(sema *s, const ast_expr *e);

static sval lookup_name(sema *s, const char *name, srcloc loc)
{
	sval *v = s->locals ? scope_find(s->locals, name) : NULL;
	if (v)
		return *v;
	sval g;
	if (s->lazy ? sema_lazy_lookup(s, name, loc, &g)
		    : sema_module_global(s, s->cur_mod, name, loc, &g))
		return g;
	int b = sema_find_builtin(name, SEMA_NS_PY);
	if (b >= 0)
		return (sval){.kind = SV_BUILTIN, .builtin = b};
	sema_fail(s, loc, "name '%s' is not defined", name);
}

static sval module_attr(sema *s, sema_module_id m, const char *name, srcloc loc)
{
	int b;
	switch (m) {
	case MOD_TL:
		if (!strcmp(name, "math"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL_MATH};
		if (!strcmp(name, "extra"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL_EXTRA};
		if (!strcmp(name, "core"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL};
		if (sema_dtype_by_name(s, name))
			return sv_dtype(sema_dtype_by_name(s, name));
		if ((b = sema_find_builtin(name, SEMA_NS_TL)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		break;
	case MOD_TL_MATH:
		if ((b = sema_find_builtin(name, SEMA_NS_MATH)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		break;
	case MOD_TRITON:
		if (!strcmp(name, "language"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL};
		if ((b = sema_find_builtin(name, SEMA_NS_TRITON)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		break;
	case MOD_TL_EXTRA:
		if (!strcmp(name, "cuda") || !strcmp(name, "hip"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL_EXTRA_VENDOR};
		/* fallthrough */
	case MOD_TL_EXTRA_VENDOR:
		if (!strcmp(name, "libdevice"))
			return (sval){.kind = SV_MODULE, .module = MOD_TL_MATH};
		break;
	case MOD_MATH:
		if (!strcmp(name, "pi"))
			return sv_float(3.14159265358979323846);
		if (!strcmp(name, "e"))
			return sv_float(2.71828182845904523536);
		if (!strcmp(name, "inf"))
			return sv_float(INFINITY);
		if (!strcmp(name, "nan"))
			return sv_float(NAN);
		if ((b = sema_find_builtin(name, SEMA_NS_PYMATH)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		break;
	case MOD_TORCH:
		return sema_torch_attr(s, name, loc);
	case MOD_TL_STANDARD:
		/* standard.py defines most of tl's reductions and helpers (tl re-exports them);
		 * kernels also import its private _log2 */
		if ((b = sema_find_builtin(name, SEMA_NS_TLSTD)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		if ((b = sema_find_builtin(name, SEMA_NS_TL)) >= 0)
			return (sval){.kind = SV_BUILTIN, .builtin = b};
		break;
	}
	static const char *const mname[] = {"triton.language", "triton.language.math", "triton",
					    "math", "triton.language.extra",
					    "triton.language.extra.cuda", "torch",
					    "triton.language.standard"};
	sema_fail(s, loc, "module '%s' has no attribute '%s' (or tilecc does not support it)",
		  mname[m], name);
}

sval sema_module_attr(sema *s, sema_module_id m, const char *name, srcloc loc)
{
	return module_attr(s, m, name, loc);
}

static sval value_attr(sema *s, sval v, const char *name, srcloc loc)
{
	/* tl.constexpr(x).value is x: compile-time values are not boxed here (FlagGems'
	 * get_dtype_max reads dtype.value) */
	if (!strcmp(name, "value") && v.kind != SV_IR && v.kind != SV_DESC && v.kind != SV_MODULE &&
	    v.kind != SV_PYMOD)
		return v;
	if (v.kind == SV_MODULE)
		return module_attr(s, v.module, name, loc);
	if (v.kind == SV_PYMOD)
		return sema_pymod_attr(s, v.pymod, name, loc);
	if (v.kind == SV_IR) {
		const ir_type *t = v.ir->type;
		if (!strcmp(name, "dtype"))
			return sv_dtype(ir_type_elem(t));
		if (!strcmp(name, "type")) /* a block type for a tile, the dtype for a scalar */
			return sv_dtype(t);
		if (!strcmp(name, "shape")) {
			sval items[16];
			int n = t->kind == IR_TILE ? t->rank : 0;
			for (int i = 0; i < n; i++)
				items[i] = sv_int(t->shape[i]);
			return sv_tuple(s, n, items);
		}
		if (!strcmp(name, "numel"))
			return sv_int(ir_type_numel(t));
		if (!strcmp(name, "T")) {
			int b = sema_find_builtin("trans", SEMA_NS_TL);
			sema_args a = {.loc = loc, .self = &v};
			return sema_call_builtin(s, b, &a);
		}
		int b = sema_find_builtin(name, SEMA_NS_TL | SEMA_NS_MATH);
		if (b >= 0 && sema_builtins[b].method) {
			sval *self = ARENA_NEW(s->a, sval);
			*self = v;
			return (sval){.kind = SV_METHOD, .method = {b, self}};
		}
		sema_fail(s, loc, "%s has no attribute '%s'", sv_describe(s, &v), name);
	}
	if (v.kind == SV_DTYPE)
		return sema_dtype_attr(s, v.dtype, name, loc);
	if (v.kind == SV_DESC)
		return sema_desc_attr(s, &v, name, loc);
	if (v.kind == SV_TYPEINFO)
		return sema_typeinfo_attr(s, &v, name, loc);
	if (v.kind == SV_INT || v.kind == SV_FLOAT || v.kind == SV_BOOL) {
		if (!strcmp(name, "value"))
			return v; /* tl.constexpr(...).value */
		/* a tensor method on a compile-time number (a local assigned one is already a
		 * scalar tensor, assigned_value): the number is materialized as Triton's
		 * to_tensor would, then the method runs */
		int b = sema_find_builtin(name, SEMA_NS_TL | SEMA_NS_MATH);
		if (b >= 0 && sema_builtins[b].method) {
			sval *self = ARENA_NEW(s->a, sval);
			*self = sv_ir(sema_to_ir(s, &v, NULL, loc));
			return (sval){.kind = SV_METHOD, .method = {b, self}};
		}
	}
	sema_fail(s, loc, "%s has no attribute '%s'", sv_describe(s, &v), name);
}

static int norm_index(sema *s, int64_t i, int n, srcloc loc)
{
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		sema_fail(s, loc, "index %lld out of range for a tuple of %d", (long long)i, n);
	return (int)i;
}

static sval subscript(sema *s, const ast_expr *e)
{
	sval v = eval(s, e->sub.value);
	const ast_expr *ix = e->sub.index;
	if (v.kind == SV_TUPLE) {
		if (ix->kind == AST_SLICE) {
			int64_t n = v.tup.n, lo = 0, hi = n, st = 1;
			if (ix->slice.step) {
				sval t = eval(s, ix->slice.step);
				st = sema_expect_int(s, &t, ix->slice.step->loc, "a slice step");
			}
			if (ix->slice.lo) {
				sval t = eval(s, ix->slice.lo);
				lo = sema_expect_int(s, &t, ix->slice.lo->loc, "a slice bound");
			}
			if (ix->slice.hi) {
				sval t = eval(s, ix->slice.hi);
				hi = sema_expect_int(s, &t, ix->slice.hi->loc, "a slice bound");
			}
			if (lo < 0) lo += n;
			if (hi < 0) hi += n;
			if (lo < 0) lo = 0;
			if (hi > n) hi = n;
			if (st != 1)
				sema_fail(s, ix->loc, "tuple slices with a step are not supported");
			return sv_tuple(s, hi > lo ? (int)(hi - lo) : 0, v.tup.items + (hi > lo ? lo : 0));
		}
		sval i = eval(s, ix);
		int64_t k = sema_expect_int(s, &i, ix->loc, "a tuple index");
		return v.tup.items[norm_index(s, k, v.tup.n, ix->loc)];
	}
	if (v.kind != SV_IR)
		sema_fail(s, e->loc, "%s cannot be indexed", sv_describe(s, &v));
	/* tensor[None, :, ...]: None inserts a dimension of 1, ':' keeps one */
	const ast_expr *const *items = &ix;
	int n = 1;
	if (ix->kind == AST_TUPLE) {
		items = (const ast_expr *const *)ix->seq.items;
		n = ix->seq.n;
	}
	ir_value *x = v.ir;
	const ir_type *t = x->type;
	int rank = t->kind == IR_TILE ? t->rank : 0, dim = 0, nfull = 0;
	for (int i = 0; i < n; i++)
		if (items[i]->kind == AST_SLICE)
			nfull++;
	if (nfull > rank)
		sema_fail(s, ix->loc, "too many ':' for %s", sv_describe(s, &v));
	sema_at(s, e->loc);
	for (int i = 0; i < n; i++) {
		const ast_expr *it = items[i];
		if (it->kind == AST_NONE) {
			const ir_type *ct = x->type;
			int r = ct->kind == IR_TILE ? ct->rank : 0;
			int64_t sh[16];
			if (r >= 15)
				sema_fail(s, it->loc, "too many dimensions");
			for (int k = 0, j = 0; k <= r; k++)
				sh[k] = k == dim ? 1 : ct->shape[j++];
			const ir_type *nt = ir_type_tile(s->ctx, ir_type_elem(ct), r + 1, sh);
			if (ct->kind != IR_TILE)
				x = ir_build1(&s->b, IR_OP_SPLAT, nt, x);
			else {
				x = ir_build1(&s->b, IR_OP_EXPAND_DIMS, nt, x);
				ir_op_set_int(s->ctx, x->def, "axis", dim);
			}
			dim++;
		} else if (it->kind == AST_SLICE && !it->slice.lo && !it->slice.hi && !it->slice.step) {
			dim++;
		} else {
			sema_fail(s, it->loc,
				  "only None and ':' can index a tensor (tensors cannot be sliced or "
				  "indexed by position)");
		}
	}
	return sv_ir(x);
}

/* Whether class expression c (a name, a dotted name or a tuple of them) names a class that
 * value v is an instance of, as Triton sees kernel values: tl.tensor for run-time values,
 * tl.tensor_descriptor for descriptors, tl.constexpr for everything known at compile time,
 * and Python's own classes for those values. */
static bool instance_of(sema *s, const sval *v, const ast_expr *c)
{
	if (c->kind == AST_TUPLE) {
		for (int i = 0; i < c->seq.n; i++)
			if (instance_of(s, v, c->seq.items[i]))
				return true;
		return false;
	}
	const char *n = c->kind == AST_NAME ? c->name : c->kind == AST_ATTR ? c->attr.name : NULL;
	static const struct {
		const char *name;
		unsigned kinds; /* 1 << sval_kind */
	} classes[] = {
	    {"tensor", 1u << SV_IR},
	    {"tensor_descriptor", 1u << SV_DESC},
	    {"tensor_descriptor_base", 1u << SV_DESC},
	    {"constexpr", ~((1u << SV_IR) | (1u << SV_DESC))},
	    {"int", (1u << SV_INT) | (1u << SV_BOOL)},
	    {"float", 1u << SV_FLOAT},
	    {"bool", 1u << SV_BOOL},
	    {"str", 1u << SV_STR},
	    {"tuple", 1u << SV_TUPLE},
	    {"list", 1u << SV_TUPLE},
	    {"dtype", 1u << SV_DTYPE},
	};
	for (size_t i = 0; n && i < sizeof classes / sizeof classes[0]; i++)
		if (!strcmp(n, classes[i].name))
			return (classes[i].kinds >> v->kind) & 1u;
	sema_fail(s, c->loc, "isinstance: tilecc does not know the class '%s' in kernels", n ? n : "?");
}

/* isinstance(x, cls), decided at compile time (Triton's frontend decides it while tracing). */
static bool is_isinstance_call(sema *s, const ast_expr *e)
{
	const ast_expr *f = e->call.func;
	if (f->kind != AST_NAME || strcmp(f->name, "isinstance") || e->call.nargs != 2 || e->call.nkws)
		return false;
	return !(s->locals && scope_find(s->locals, f->name));
}

static sval eval_call(sema *s, const ast_expr *e)
{
	if (is_isinstance_call(s, e)) {
		sval x = eval(s, e->call.args[0]);
		return sv_bool(instance_of(s, &x, e->call.args[1]));
	}
	sval f = eval(s, e->call.func);
	int np = e->call.nargs, nk = e->call.nkws;
	sval *pos = ARENA_NEWN(s->a, sval, np + 1);
	srcloc *ploc = ARENA_NEWN(s->a, srcloc, np + 1);
	sval *kw = ARENA_NEWN(s->a, sval, nk + 1);
	for (int i = 0; i < np; i++) {
		pos[i] = eval(s, e->call.args[i]);
		ploc[i] = e->call.args[i]->loc;
	}
	for (int i = 0; i < nk; i++) {
		if (!e->call.kws[i].name)
			sema_fail(s, e->call.kws[i].loc, "unsupported Python construct in a kernel: "
							 "keyword argument unpacking (**)");
		kw[i] = eval(s, e->call.kws[i].value);
	}
	sema_args a = {.pos = pos, .pos_loc = ploc, .npos = np, .kws = e->call.kws, .kw = kw,
		       .nkw = nk, .loc = e->loc};
	switch (f.kind) {
	case SV_BUILTIN:
		return sema_call_builtin(s, f.builtin, &a);
	case SV_METHOD:
		a.self = f.method.self;
		return sema_call_builtin(s, f.method.builtin, &a);
	case SV_JITFN:
		return sema_call_jit(s, f.fn, &a);
	default:
		sema_fail(s, e->call.func->loc, "%s is not callable", sv_describe(s, &f));
	}
}

/* Evaluates both arms of a runtime conditional expression into an `if` with one result. */
static sval runtime_ifexp(sema *s, const ast_expr *e, ir_value *cond)
{
	ir_builder saved = s->b;
	ir_op *tmp = ir_op_create(s->ctx, IR_OP_IF, 1, &cond, 0, NULL, e->loc);
	ir_value *vals[2];
	const ast_expr *arms[2] = {e->ifexp.then, e->ifexp.els};
	sval sv[2];
	for (int i = 0; i < 2; i++) {
		s->b.block = tmp->regions[i];
		s->b.before = NULL;
		sv[i] = eval(s, arms[i]);
		s->b = saved;
	}
	/* numbers take their default types, as Triton's to_tensor gives them */
	for (int i = 0; i < 2; i++) {
		s->b.block = tmp->regions[i];
		s->b.before = NULL;
		vals[i] = sema_to_ir(s, &sv[i], NULL, arms[i]->loc);
		s->b = saved;
	}
	if (vals[0]->type != vals[1]->type)
		sema_fail(s, e->loc, "the arms of a conditional expression with a runtime condition "
				     "have different types: %s and %s",
			  sema_type_name(s, vals[0]->type), sema_type_name(s, vals[1]->type));
	for (int i = 0; i < 2; i++) {
		ir_builder yb = {s->ctx, tmp->regions[i], NULL, e->loc};
		ir_build(&yb, IR_OP_YIELD, 1, &vals[i], 0, NULL);
	}
	sema_at(s, e->loc);
	ir_op *op = ir_build(&s->b, IR_OP_IF, 1, &cond, 1, &vals[0]->type);
	for (int i = 0; i < 2; i++) {
		op->regions[i] = tmp->regions[i];
		op->regions[i]->parent = op;
	}
	ir_op_set_operand(tmp, 0, NULL); /* tmp goes: its use of cond with it */
	return sv_ir(&op->results[0]);
}

/* An f-string whose fields are all known at compile time (tl.static_assert messages):
 * numbers, strings, bools, None and dtypes, without format specs. */
static sval eval_fstring(sema *s, const ast_expr *e)
{
	/* every field first: an error in one leaves through sema_fail, so nothing may be on
	 * the heap until they are all known */
	sval *vals = arena_alloc(s->a, sizeof *vals * (size_t)(e->seq.n ? e->seq.n : 1));
	for (int i = 0; i < e->seq.n; i++) {
		const ast_expr *it = e->seq.items[i];
		if (it->kind == AST_STR)
			continue;
		if (it->fvalue.spec && it->fvalue.spec->seq.n)
			sema_fail(s, it->loc, "unsupported in a kernel: a format spec in an f-string");
		vals[i] = eval(s, it->fvalue.value);
		switch (vals[i].kind) {
		case SV_INT: case SV_FLOAT: case SV_BOOL: case SV_NONE: case SV_STR: case SV_DTYPE:
			break;
		default:
			sema_fail(s, it->loc, "an f-string in a kernel can only show values known at "
					      "compile time, got %s", sv_describe(s, &vals[i]));
		}
	}
	strbuf b = {0};
	for (int i = 0; i < e->seq.n; i++) {
		const ast_expr *it = e->seq.items[i];
		const sval *v = &vals[i];
		if (it->kind == AST_STR) {
			strbuf_putn(&b, it->str.s, it->str.len);
			continue;
		}
		switch (v->kind) {
		case SV_INT: strbuf_printf(&b, "%lld", (long long)v->i); break;
		case SV_FLOAT: strbuf_put_double(&b, v->f); break;
		case SV_BOOL: strbuf_puts(&b, v->b ? "True" : "False"); break;
		case SV_NONE: strbuf_puts(&b, "None"); break;
		case SV_STR: strbuf_puts(&b, v->s); break;
		default: strbuf_puts(&b, sema_type_name(s, v->dtype)); break;
		}
	}
	sval r = {.kind = SV_STR, .s = arena_strndup(s->a, b.data ? b.data : "", b.len)};
	strbuf_free(&b);
	return r;
}

static ir_value *runtime_cond(sema *s, sval c, srcloc loc)
{
	int64_t k;
	if (c.kind != SV_IR || sema_ir_const_int(c.ir, &k))
		return NULL; /* a constant (`DEBUG = False; if DEBUG:`) is decided here */
	if (c.ir->type->kind == IR_TILE)
		sema_fail(s, loc, "a condition must be a scalar, got %s", sv_describe(s, &c));
	return sema_to_i1(s, c.ir, loc);
}

static sval eval_node(sema *s, const ast_expr *e);

/* Every expression is evaluated through here: the nesting is counted, so that a chain of
 * thousands of terms is an error, not a stack overflow. */
static sval eval(sema *s, const ast_expr *e)
{
	if (s->expr_depth >= SEMA_MAX_EXPR_DEPTH)
		sema_fail(s, e->loc, "expression too deeply nested (more than %d levels)",
			  SEMA_MAX_EXPR_DEPTH);
	s->expr_depth++;
	sval v = eval_node(s, e);
	s->expr_depth--;
	return v;
}

static sval eval_node(sema *s, const ast_expr *e)
{
	sema_at(s, e->loc);
	switch (e->kind) {
	case AST_NAME:
		return lookup_name(s, e->name, e->loc);
	case AST_INT:
		if (e->int_big)
			sema_fail(s, e->loc, "integer literal too large (tilecc's compile-time integers "
					     "are 64-bit)");
		return sv_int(e->ival);
	case AST_FLOAT:
		return sv_float(e->fval);
	case AST_BOOL:
		return sv_bool(e->bval);
	case AST_NONE:
		return sv_none();
	case AST_STR:
		return (sval){.kind = SV_STR, .s = e->str.s};
	case AST_BINOP: {
		sval l = eval(s, e->bin.lhs), r = eval(s, e->bin.rhs);
		if (e->bin.op == AST_MATMUL)
			sema_fail(s, e->loc, "'@' is not supported; use tl.dot");
		return sema_binary(s, e->bin.op, l, r, e->loc);
	}
	case AST_UNARY:
		return sema_unary(s, e->un.op, eval(s, e->un.operand), e->loc);
	case AST_BOOLOP: {
		if (e->boolop.n != 2) {
			/* chains of constexprs are fine; Triton rejects runtime chains */
		}
		sval acc = eval(s, e->boolop.values[0]);
		for (int i = 1; i < e->boolop.n; i++) {
			if (acc.kind != SV_IR) {
				bool t = sema_truth(s, &acc, e->boolop.values[i - 1]->loc);
				if ((e->boolop.op == AST_AND) != t)
					return acc; /* short circuit, Python semantics */
				acc = eval(s, e->boolop.values[i]);
				continue;
			}
			if (e->boolop.n != 2)
				sema_fail(s, e->loc, "chained boolean operators (A or B or C) on tensors "
						     "are not supported; use parentheses to split the chain");
			sval r = eval(s, e->boolop.values[i]);
			ir_value *x = sema_to_i1(s, acc.ir, e->loc);
			ir_value *y = sema_to_i1(s, sema_to_ir(s, &r, NULL, e->boolop.values[i]->loc),
						 e->loc);
			sema_broadcast_pair(s, &x, &y, e->loc, e->boolop.op == AST_AND ? "and" : "or");
			sema_at(s, e->loc);
			acc = sv_ir(ir_build2(&s->b, e->boolop.op == AST_AND ? IR_OP_ANDI : IR_OP_ORI,
					      x->type, x, y));
		}
		return acc;
	}
	case AST_COMPARE: {
		if (e->cmp.n != 1)
			sema_fail(s, e->loc, "chained comparisons (a < b < c) are not supported; write "
					     "(a < b) & (b < c)");
		sval l = eval(s, e->cmp.first), r = eval(s, e->cmp.rest[0]);
		return sema_compare(s, e->cmp.ops[0], l, r, e->loc);
	}
	case AST_IFEXP: {
		sval c = eval(s, e->ifexp.cond);
		ir_value *rc = runtime_cond(s, c, e->ifexp.cond->loc);
		if (!rc)
			return eval(s, sema_truth(s, &c, e->ifexp.cond->loc) ? e->ifexp.then : e->ifexp.els);
		return runtime_ifexp(s, e, rc);
	}
	case AST_CALL:
		return eval_call(s, e);
	case AST_ATTR:
		return value_attr(s, eval(s, e->attr.value), e->attr.name, e->attr.name_loc);
	case AST_SUBSCRIPT:
		return subscript(s, e);
	case AST_TUPLE:
	case AST_LIST: {
		sval *items = ARENA_NEWN(s->a, sval, e->seq.n + 1);
		for (int i = 0; i < e->seq.n; i++)
			items[i] = eval(s, e->seq.items[i]);
		return sv_tuple(s, e->seq.n, items);
	}
	case AST_SLICE:
		return (sval){.kind = SV_SLICE};
	case AST_FSTRING:
		return eval_fstring(s, e);
	case AST_IMAG:
		sema_fail(s, e->loc, "imaginary literals are not supported in a kernel");
	case AST_DICT: case AST_LAMBDA: case AST_ELLIPSIS: case AST_BYTES: case AST_FVALUE:
	case AST_STARRED: case AST_SET: case AST_COMP: case AST_YIELD: case AST_AWAIT:
	case AST_NAMED:
		sema_fail(s, e->loc, "unsupported Python construct in a kernel: %s", ast_expr_what(e));
	}
	sema_fail(s, e->loc, "unsupported expression");
}

sval sema_eval_expr(sema *s, const ast_expr *e)
{
	return eval(s, e);
}

/* ---- statements ----------------------------------------------------------------------------- */

enum { FLOW_NORMAL, FLOW_RETURN };

struct sema_frame {
	sval ret;          /* the helper's return value */
	bool has_ret;
	int runtime_cf;    /* depth of runtime control flow (if/for/while ops) we are inside */
	bool is_kernel;
};
typedef struct sema_frame frame;

static int exec_block(sema *s, const ast_block *b, int start);

static void name_value(sema *s, sval *v, const char *name)
{
	if (v->kind == SV_IR && !v->ir->name && name[0] != '_')
		v->ir->name = name;
	(void)s;
}

/* What a plain assignment binds (Triton's code generator sanitizes every assigned value):
 * a Python number becomes a scalar tensor of to_tensor's type (int32, uint32, int64 or
 * uint64 by value; fp32, or fp64 out of fp32's range; int1), tuples element by element;
 * anything else (tensors, None, dtypes, functions) as it is. So `s = 0.5; x_fp16 * s` is
 * fp32, as in Triton, where the literal `x_fp16 * 0.5` stays fp16. `X: tl.constexpr = v`
 * binds v itself, and so does any assignment in a compile-time Python function. */
static sval assigned_value(sema *s, sval v, srcloc loc)
{
	if (s->pyfn_depth)
		return v; /* a compile-time Python function (@tl.constexpr) is Python */
	if (sv_is_number(&v))
		return sv_ir(sema_to_ir(s, &v, NULL, loc));
	if (v.kind == SV_TUPLE) {
		sval *items = ARENA_NEWN(s->a, sval, v.tup.n > 0 ? v.tup.n : 1);
		for (int i = 0; i < v.tup.n; i++)
			items[i] = assigned_value(s, v.tup.items[i], loc);
		return sv_tuple(s, v.tup.n, items);
	}
	return v;
}

static void assign(sema *s, const ast_expr *t, sval v, srcloc loc)
{
	switch (t->kind) {
	case AST_NAME:
		if (v.kind == SV_UNDEF)
			sema_fail(s, loc, "the right-hand side returns no value");
		name_value(s, &v, t->name);
		scope_set(s, s->locals, t->name, v);
		return;
	case AST_TUPLE:
	case AST_LIST:
		for (int i = 0; i < t->seq.n; i++)
			if (t->seq.items[i]->kind == AST_STARRED)
				sema_fail(s, t->seq.items[i]->loc, "unsupported Python construct in a "
								   "kernel: starred assignment target");
		if (v.kind != SV_TUPLE)
			sema_fail(s, loc, "cannot unpack %s into %d names", sv_describe(s, &v), t->seq.n);
		if (v.tup.n != t->seq.n)
			sema_fail(s, loc, "cannot unpack a tuple of %d into %d names", v.tup.n, t->seq.n);
		for (int i = 0; i < t->seq.n; i++)
			assign(s, t->seq.items[i], v.tup.items[i], loc);
		return;
	case AST_SUBSCRIPT:
		sema_fail(s, t->loc, "cannot assign to a subscript: tensors are immutable values");
	case AST_ATTR:
		sema_fail(s, t->loc, "cannot assign to an attribute");
	default:
		sema_fail(s, t->loc, "cannot assign to this expression");
	}
}

/* The value a variable has as a loop-carried or branch result: IR, with numbers made
 * constants of their default type (Triton's to_tensor), or of `as` when given. */
static ir_value *carried_ir(sema *s, const char *name, sval v, const ir_type *as, srcloc loc)
{
	if (v.kind == SV_IR)
		return v.ir;
	if (sv_is_number(&v)) {
		sema_at(s, loc);
		return sema_const(s, as ? as : sema_number_type(s, &v), &v);
	}
	sema_fail(s, loc, "variable '%s' holds %s, which cannot change at run time (inside a loop "
			  "or a branch on a runtime condition)", name, sv_describe(s, &v));
}

/* if on a runtime condition. `rest` (may be NULL) are the statements after the if in the
 * same block, moved into the branch that does not return (early-exit kernels). */
static int exec_runtime_if(sema *s, const ast_stmt *st, ir_value *cond, const ast_block *outer,
			   int next)
{
	bool tr = block_returns(&st->if_.then), er = block_returns(&st->if_.els);
	bool moves_rest = (tr || er) && !(tr && er && next >= outer->n);
	if (block_has_return(&st->if_.then) || block_has_return(&st->if_.els) || moves_rest) {
		if (s->frame->runtime_cf || !s->frame->is_kernel)
			sema_fail(s, st->loc, "return under a runtime condition is only supported at "
					      "the top level of a kernel");
		if (!(tr || er))
			sema_fail(s, st->loc, "a branch on a runtime condition that returns must end "
					      "with the return");
	}
	scope before = scope_copy(s, s->locals);
	ir_builder saved = s->b;
	ir_op *tmp = ir_op_create(s->ctx, IR_OP_IF, 1, &cond, 0, NULL, st->loc);
	scope env[2];
	const ast_block *arm[2] = {&st->if_.then, &st->if_.els};
	bool rets[2] = {tr, er};
	s->frame->runtime_cf++;
	for (int i = 0; i < 2; i++) {
		*s->locals = scope_copy(s, &before);
		s->b.block = tmp->regions[i];
		s->b.before = NULL;
		int flow = exec_block(s, arm[i], 0);
		if (flow == FLOW_NORMAL && (tr || er) && !rets[i]) {
			/* the other arm returned: the rest of the kernel runs here */
			s->frame->runtime_cf--;
			flow = exec_block(s, outer, next);
			s->frame->runtime_cf++;
		}
		env[i] = *s->locals;
		s->b = saved;
	}
	s->frame->runtime_cf--;

	/* merge: variables that either arm changed and that exist after the if */
	nameset names = {0};
	if (!(tr || er)) {
		assigned_names(s, &st->if_.then, &names);
		assigned_names(s, &st->if_.els, &names);
	}
	const char *rn[256];
	ir_value *rv[2][256];
	const ir_type *rt[256];
	int nres = 0;
	*s->locals = before;
	for (int k = 0; k < names.n; k++) {
		const char *nm = names.v[k];
		sval *a = scope_find(&env[0], nm), *b = scope_find(&env[1], nm);
		if (!a || !b)
			continue; /* defined on one path only: not visible afterwards */
		if (sema_sv_equal(a, b)) {
			scope_set(s, s->locals, nm, *a);
			continue;
		}
		if (nres == 256)
			sema_fail(s, st->loc, "too many variables change in this if");
		for (int i = 0; i < 2; i++) {
			s->b.block = tmp->regions[i];
			s->b.before = NULL;
			rv[i][nres] = carried_ir(s, nm, i ? *b : *a, NULL, st->loc);
			s->b = saved;
		}
		if (rv[0][nres]->type != rv[1][nres]->type)
			sema_fail(s, st->loc, "variable '%s' has type %s in one branch and %s in the "
					      "other; both branches must give it the same type",
				  nm, sema_type_name(s, rv[0][nres]->type),
				  sema_type_name(s, rv[1][nres]->type));
		rt[nres] = rv[0][nres]->type;
		rn[nres++] = nm;
	}
	for (int i = 0; i < 2; i++) {
		ir_builder yb = {s->ctx, tmp->regions[i], NULL, st->loc};
		ir_build(&yb, IR_OP_YIELD, nres, rv[i], 0, NULL);
	}
	sema_at(s, st->loc);
	ir_op *op = ir_build(&s->b, IR_OP_IF, 1, &cond, nres, rt);
	for (int i = 0; i < 2; i++) {
		op->regions[i] = tmp->regions[i];
		op->regions[i]->parent = op;
	}
	ir_op_set_operand(tmp, 0, NULL); /* tmp goes: its use of cond with it */
	for (int k = 0; k < nres; k++) {
		op->results[k].name = rn[k];
		scope_set(s, s->locals, rn[k], sv_ir(&op->results[k]));
	}
	return (tr || er) ? FLOW_RETURN : FLOW_NORMAL;
}

/* Arguments of range / tl.range / tl.static_range in a for statement. */
typedef struct range_args {
	sval start, end, step;
	srcloc loc[3];
	int64_t num_stages; /* -1: unset */
	int64_t unroll;     /* loop_unroll_factor, -1 unset */
	/* tl.range's scheduling flags, recorded on the for op (docs/language.md says what
	 * each does in tilecc) */
	bool flatten, warp_specialize, disallow_acc_multi_buffer, disable_licm;
	bool is_static;
} range_args;

static bool parse_range(sema *s, const ast_expr *it, range_args *r)
{
	if (it->kind != AST_CALL)
		return false;
	sval f = eval(s, it->call.func);
	if (f.kind != SV_BUILTIN)
		return false;
	const char *name = sema_builtins[f.builtin].name;
	unsigned ns = sema_builtins[f.builtin].ns;
	if (strcmp(name, "range") && strcmp(name, "static_range"))
		return false;
	r->is_static = !strcmp(name, "static_range");
	bool tl_range = (ns & SEMA_NS_TL) && !strcmp(name, "range");
	r->num_stages = r->unroll = -1;
	r->flatten = r->warp_specialize = r->disallow_acc_multi_buffer = r->disable_licm = false;
	/* tl.range and tl.static_range take (arg1, arg2=None, step=None), also as keywords
	 * (FlagGems writes tl.range(0, n, step=BLOCK_N)); Python's range takes positions only */
	int n = it->call.nargs;
	if (n > 3 || (n < 1 && !(tl_range || r->is_static)))
		sema_fail(s, it->loc, "%s expects 1 to 3 positional arguments, got %d", name, n);
	sval v[3];
	bool have[3] = {false, false, false};
	for (int i = 0; i < n; i++) {
		v[i] = eval(s, it->call.args[i]);
		r->loc[i] = it->call.args[i]->loc;
		have[i] = !((tl_range || r->is_static) && v[i].kind == SV_NONE);
	}
	static const char *const slot_names[3] = {"arg1", "arg2", "step"};
	for (int i = 0; i < it->call.nkws; i++) {
		const ast_keyword *k = &it->call.kws[i];
		if (!(tl_range || r->is_static))
			break;
		for (int j = 0; j < 3; j++) {
			if (!k->name || strcmp(k->name, slot_names[j]))
				continue;
			if (have[j])
				sema_fail(s, k->loc, "%s got multiple values for argument '%s'", name,
					  k->name);
			v[j] = eval(s, k->value);
			r->loc[j] = k->value->loc;
			/* None is the default */
			have[j] = v[j].kind != SV_NONE;
		}
	}
	if (!have[0])
		sema_fail(s, it->loc, "%s missing required argument 'arg1'", name);
	if (!have[1]) {
		r->start = sv_int(0);
		r->end = v[0];
		r->loc[1] = r->loc[0];
	} else {
		r->start = v[0];
		r->end = v[1];
	}
	r->step = have[2] ? v[2] : sv_int(1);
	if (!have[2])
		r->loc[2] = have[1] ? it->loc : r->loc[0];
	for (int i = 0; i < it->call.nkws; i++) {
		const ast_keyword *k = &it->call.kws[i];
		if ((tl_range || r->is_static) && k->name &&
		    (!strcmp(k->name, "arg1") || !strcmp(k->name, "arg2") || !strcmp(k->name, "step")))
			continue; /* taken above */
		sval kv = eval(s, k->value);
		if (kv.kind == SV_NONE && tl_range &&
		    (!strcmp(k->name, "num_stages") || !strcmp(k->name, "loop_unroll_factor")))
			continue; /* the defaults, spelled out */
		if (!strcmp(k->name, "num_stages") && (tl_range || r->is_static)) {
			r->num_stages = sema_expect_int(s, &kv, k->loc, "num_stages");
			if (r->num_stages < 0 || r->num_stages > IR_MAX_NUM_STAGES)
				sema_fail(s, k->loc, "num_stages must be from 0 to %d, got %lld",
					  IR_MAX_NUM_STAGES, (long long)r->num_stages);
		} else if (!strcmp(k->name, "loop_unroll_factor") && tl_range) {
			r->unroll = sema_expect_int(s, &kv, k->loc, "loop_unroll_factor");
			if (r->unroll < 0 || r->unroll > IR_MAX_UNROLL)
				sema_fail(s, k->loc, "loop_unroll_factor must be from 0 to %d, got %lld",
					  IR_MAX_UNROLL, (long long)r->unroll);
		} else if (!strcmp(k->name, "flatten") && tl_range)
			r->flatten = sema_truth(s, &kv, k->loc);
		else if (!strcmp(k->name, "warp_specialize") && tl_range)
			r->warp_specialize = sema_truth(s, &kv, k->loc);
		else if (!strcmp(k->name, "disallow_acc_multi_buffer") && tl_range)
			r->disallow_acc_multi_buffer = sema_truth(s, &kv, k->loc);
		else if (!strcmp(k->name, "disable_licm") && tl_range)
			r->disable_licm = sema_truth(s, &kv, k->loc);
		else
			sema_fail(s, k->loc, "'%s' got an unexpected keyword argument '%s'", name, k->name);
	}
	return true;
}

static int exec_static_for(sema *s, const ast_stmt *st, range_args *r)
{
	int64_t a = sema_expect_int(s, &r->start, r->loc[0], "tl.static_range's start");
	int64_t b = sema_expect_int(s, &r->end, r->loc[1], "tl.static_range's end");
	int64_t c = sema_expect_int(s, &r->step, r->loc[2], "tl.static_range's step");
	if (c == 0)
		sema_fail(s, r->loc[2], "range step must not be zero");
	int64_t trips = c > 0 ? (b > a ? (b - a + c - 1) / c : 0) : (a > b ? (a - b - c - 1) / -c : 0);
	if (trips > 4096)
		sema_fail(s, st->loc, "tl.static_range unrolls %lld iterations; at most 4096 are "
				      "supported", (long long)trips);
	if (block_has_return(&st->for_.body))
		sema_fail(s, st->loc, "return inside a loop is not supported");
	for (int64_t i = 0, x = a; i < trips; i++, x += c) {
		assign(s, st->for_.target, sv_int(x), st->for_.target->loc);
		exec_block(s, &st->for_.body, 0);
	}
	return FLOW_NORMAL;
}

/* Compile-time values that a loop body may re-bind, but only to themselves. */
typedef struct {
	const char *names[256];
	sval vals[256];
	int n;
} fixed_vars;

/* After a loop body: a name of `f` that now holds another value (or a runtime one) would have
 * to change at run time, which a compile-time value cannot. */
static void check_fixed(sema *s, const fixed_vars *f, srcloc loc)
{
	for (int i = 0; i < f->n; i++) {
		sval *v = scope_find(s->locals, f->names[i]);
		if (v && !sema_sv_equal(v, &f->vals[i]))
			sema_fail(s, loc, "variable '%s' holds %s before the loop, which cannot change "
					  "at run time (inside a loop or a branch on a runtime condition)",
				  f->names[i], sv_describe(s, &f->vals[i]));
	}
}

/* Loop-carried variables: names the body assigns that are bound before the loop. A name
 * bound to a compile-time value that is not a number (None, a string, a dtype, a function, a
 * tuple of them) is not carried but kept in `fixed`: Triton only carries the names the body
 * really re-binds, and a branch on a constexpr the body does not take (`if HAS_MASK: p += 1`
 * with p None) re-binds nothing. check_fixed() verifies after the body that each still holds
 * the same value. */
static int carried_vars(sema *s, const ast_block *body, const ast_expr *iv, const char **names,
			srcloc loc, fixed_vars *fixed)
{
	nameset ns = {0};
	assigned_names(s, body, &ns);
	nameset ivs = {0};
	if (iv)
		target_names(s, iv, &ivs);
	int n = 0;
	for (int i = 0; i < ns.n; i++) {
		bool is_iv = false;
		for (int j = 0; j < ivs.n; j++)
			is_iv |= ivs.v[j] == ns.v[i];
		sval *v = scope_find(s->locals, ns.v[i]);
		if (is_iv || !v)
			continue;
		if (v->kind != SV_IR && !sv_is_number(v)) {
			if (fixed->n == 256)
				sema_fail(s, loc, "too many loop-carried variables");
			fixed->names[fixed->n] = ns.v[i];
			fixed->vals[fixed->n++] = *v;
			continue;
		}
		if (n == 256)
			sema_fail(s, loc, "too many loop-carried variables");
		names[n++] = ns.v[i];
	}
	return n;
}

static int exec_for(sema *s, const ast_stmt *st)
{
	range_args r;
	if (!parse_range(s, st->for_.iter, &r))
		sema_fail(s, st->for_.iter->loc, "a for loop must iterate over range(), tl.range() or "
						 "tl.static_range()");
	if (r.is_static)
		return exec_static_for(s, st, &r);
	if (st->for_.target->kind != AST_NAME)
		sema_fail(s, st->for_.target->loc, "the loop variable must be a single name");
	if (block_has_return(&st->for_.body))
		sema_fail(s, st->loc, "return inside a loop is not supported");
	/* bounds: one integer type for all three, Triton's promotion */
	ir_value *bnd[3];
	sval bv[3] = {r.start, r.end, r.step};
	const ir_type *it = NULL;
	for (int i = 0; i < 3; i++) {
		if (bv[i].kind != SV_IR && bv[i].kind != SV_INT && bv[i].kind != SV_BOOL)
			sema_fail(s, r.loc[i], "range bounds must be integers, got %s",
				  sv_describe(s, &bv[i]));
		const ir_type *t = bv[i].kind == SV_IR ? bv[i].ir->type : sema_number_type(s, &bv[i]);
		if (t->kind == IR_TILE || !ir_type_is_int(t))
			sema_fail(s, r.loc[i], "range bounds must be integer scalars, got %s",
				  sv_describe(s, &bv[i]));
		if (t->kind == IR_I1 || t->kind == IR_I8 || t->kind == IR_I16)
			t = ir_type_scalar(s->ctx, IR_I32);
		if (!it || ir_type_bits(t) > ir_type_bits(it))
			it = t;
	}
	if (r.step.kind == SV_INT && r.step.i == 0)
		sema_fail(s, r.loc[2], "range step must not be zero");
	for (int i = 0; i < 3; i++)
		bnd[i] = bv[i].kind == SV_IR ? sema_cast(s, bv[i].ir, it, false, r.loc[i])
					     : sema_to_ir(s, &bv[i], it, r.loc[i]);

	const char *names[256];
	fixed_vars *fixed = ARENA_NEW(s->a, fixed_vars);
	int n = carried_vars(s, &st->for_.body, st->for_.target, names, st->loc, fixed);
	ir_value *ops[259];
	const ir_type *types[256];
	memcpy(ops, bnd, sizeof bnd);
	for (int i = 0; i < n; i++) {
		sval *v = scope_find(s->locals, names[i]);
		ops[3 + i] = carried_ir(s, names[i], *v, NULL, st->loc);
		types[i] = ops[3 + i]->type;
	}
	sema_at(s, st->loc);
	ir_op *op = ir_build(&s->b, IR_OP_FOR, 3 + n, ops, n, types);
	if (r.num_stages >= 0)
		ir_op_set_int(s->ctx, op, "num_stages", r.num_stages);
	if (r.unroll >= 0)
		ir_op_set_int(s->ctx, op, "unroll", r.unroll);
	if (r.flatten)
		ir_op_set_bool(s->ctx, op, "flatten", true);
	if (r.warp_specialize)
		ir_op_set_bool(s->ctx, op, "warp_specialize", true);
	if (r.disallow_acc_multi_buffer)
		ir_op_set_bool(s->ctx, op, "disallow_acc_multi_buffer", true);
	if (r.disable_licm)
		ir_op_set_bool(s->ctx, op, "disable_licm", true);
	ir_block *body = op->regions[0];
	ir_value *iv = ir_block_add_arg(s->ctx, body, it, st->for_.target->name);
	scope before = scope_copy(s, s->locals);
	ir_builder saved = s->b;
	s->b.block = body;
	s->b.before = NULL;
	scope_set(s, s->locals, st->for_.target->name, sv_ir(iv));
	for (int i = 0; i < n; i++)
		scope_set(s, s->locals, names[i],
			  sv_ir(ir_block_add_arg(s->ctx, body, types[i], names[i])));
	s->frame->runtime_cf++;
	exec_block(s, &st->for_.body, 0);
	s->frame->runtime_cf--;
	check_fixed(s, fixed, st->loc);
	ir_value *ys[256];
	for (int i = 0; i < n; i++) {
		sval v = *scope_find(s->locals, names[i]);
		ys[i] = carried_ir(s, names[i], v, NULL, st->loc);
		if (ys[i]->type != types[i])
			sema_fail(s, st->loc, "loop-carried variable '%s' has type %s before the loop but "
					      "%s at the end of an iteration",
				  names[i], sema_type_name(s, types[i]), sema_type_name(s, ys[i]->type));
	}
	sema_at(s, st->loc);
	ir_build(&s->b, IR_OP_YIELD, n, ys, 0, NULL);
	s->b = saved;
	*s->locals = before;
	for (int i = 0; i < n; i++) {
		op->results[i].name = names[i];
		scope_set(s, s->locals, names[i], sv_ir(&op->results[i]));
	}
	return FLOW_NORMAL;
}

static int exec_while(sema *s, const ast_stmt *st)
{
	if (block_has_return(&st->while_.body))
		sema_fail(s, st->loc, "return inside a loop is not supported");
	const char *names[256];
	fixed_vars *fixed = ARENA_NEW(s->a, fixed_vars);
	int n = carried_vars(s, &st->while_.body, NULL, names, st->loc, fixed);
	ir_value *inits[256];
	const ir_type *types[256];
	for (int i = 0; i < n; i++) {
		inits[i] = carried_ir(s, names[i], *scope_find(s->locals, names[i]), NULL, st->loc);
		types[i] = inits[i]->type;
	}
	sema_at(s, st->loc);
	ir_op *op = ir_build(&s->b, IR_OP_WHILE, n, inits, n, types);
	scope before = scope_copy(s, s->locals);
	ir_builder saved = s->b;
	s->frame->runtime_cf++;

	/* before-region: the condition, over the carried values */
	ir_block *cb = op->regions[0];
	s->b.block = cb;
	s->b.before = NULL;
	ir_value *cargs[257];
	for (int i = 0; i < n; i++) {
		cargs[1 + i] = ir_block_add_arg(s->ctx, cb, types[i], names[i]);
		scope_set(s, s->locals, names[i], sv_ir(cargs[1 + i]));
	}
	sval c = eval(s, st->while_.cond);
	if (c.kind != SV_IR && !sv_is_number(&c))
		sema_fail(s, st->while_.cond->loc, "a while condition must be a boolean, got %s",
			  sv_describe(s, &c));
	ir_value *cv = sema_to_ir(s, &c, NULL, st->while_.cond->loc);
	if (cv->type->kind == IR_TILE)
		sema_fail(s, st->while_.cond->loc, "a while condition must be a scalar, got %s",
			  sv_describe(s, &c));
	cargs[0] = sema_to_i1(s, cv, st->while_.cond->loc);
	sema_at(s, st->while_.cond->loc);
	ir_build(&s->b, IR_OP_CONDITION, n + 1, cargs, 0, NULL);

	/* after-region: the body */
	*s->locals = scope_copy(s, &before);
	ir_block *bb = op->regions[1];
	s->b.block = bb;
	s->b.before = NULL;
	for (int i = 0; i < n; i++)
		scope_set(s, s->locals, names[i],
			  sv_ir(ir_block_add_arg(s->ctx, bb, types[i], names[i])));
	exec_block(s, &st->while_.body, 0);
	check_fixed(s, fixed, st->loc);
	ir_value *ys[256];
	for (int i = 0; i < n; i++) {
		ys[i] = carried_ir(s, names[i], *scope_find(s->locals, names[i]), NULL, st->loc);
		if (ys[i]->type != types[i])
			sema_fail(s, st->loc, "loop-carried variable '%s' has type %s before the loop but "
					      "%s at the end of an iteration",
				  names[i], sema_type_name(s, types[i]), sema_type_name(s, ys[i]->type));
	}
	sema_at(s, st->loc);
	ir_build(&s->b, IR_OP_YIELD, n, ys, 0, NULL);
	s->frame->runtime_cf--;
	s->b = saved;
	*s->locals = before;
	for (int i = 0; i < n; i++) {
		op->results[i].name = names[i];
		scope_set(s, s->locals, names[i], sv_ir(&op->results[i]));
	}
	return FLOW_NORMAL;
}

bool sema_is_constexpr_annotation(sema *s, const ast_expr *a)
{
	if (!a)
		return false;
	if (a->kind == AST_ATTR)
		return a->attr.name == s->n_constexpr;
	if (a->kind == AST_NAME)
		return a->name == s->n_constexpr;
	if (a->kind == AST_STR)
		return !strcmp(a->str.s, "tl.constexpr") || !strcmp(a->str.s, "constexpr");
	return false;
}

/* A raise that compilation reaches (one in a branch removed at compile time is never
 * seen): an error at the raise, with the exception and its message when it is a string. */
static _Noreturn void exec_raise(sema *s, const ast_stmt *st)
{
	const ast_expr *x = st->raise.exc;
	if (!x)
		sema_fail(s, st->loc, "raise reached at compile time");
	const ast_expr *f = x->kind == AST_CALL ? x->call.func : x;
	const char *what = f->kind == AST_NAME ? f->name : f->kind == AST_ATTR ? f->attr.name
										: "exception";
	if (x->kind == AST_CALL && x->call.nargs >= 1) {
		const ast_expr *m = x->call.args[0];
		if (m->kind == AST_STR)
			sema_fail(s, st->loc, "raise reached at compile time: %s: %s", what, m->str.s);
		if (m->kind == AST_FSTRING) {
			jmp_buf jb, *saved = s->fail;
			int saved_depth = s->expr_depth;
			s->fail = &jb;
			diag_quiet_push(s->d);
			sval v = {.kind = SV_UNDEF};
			if (setjmp(jb) == 0)
				v = eval(s, m);
			diag_quiet_pop(s->d);
			s->fail = saved;
			s->expr_depth = saved_depth;
			if (v.kind == SV_STR)
				sema_fail(s, st->loc, "raise reached at compile time: %s: %s", what, v.s);
		}
	}
	sema_fail(s, st->loc, "raise reached at compile time: %s", what);
}

static int exec_stmt(sema *s, const ast_block *blk, int i)
{
	const ast_stmt *st = blk->stmts[i];
	sema_at(s, st->loc);
	switch (st->kind) {
	case AST_EXPR_STMT:
		if (st->expr->kind == AST_STR)
			return FLOW_NORMAL; /* docstring */
		eval(s, st->expr);
		return FLOW_NORMAL;
	case AST_ASSIGN: {
		sval v = assigned_value(s, eval(s, st->assign.value), st->assign.value->loc);
		for (int k = 0; k < st->assign.ntargets; k++)
			assign(s, st->assign.targets[k], v, st->assign.value->loc);
		return FLOW_NORMAL;
	}
	case AST_AUGASSIGN: {
		if (st->aug.target->kind != AST_NAME)
			sema_fail(s, st->aug.target->loc, "augmented assignment needs a plain name");
		sval cur = lookup_name(s, st->aug.target->name, st->aug.target->loc);
		sval r = eval(s, st->aug.value);
		sval v = assigned_value(s, sema_binary(s, st->aug.op, cur, r, st->loc), st->loc);
		assign(s, st->aug.target, v, st->loc);
		return FLOW_NORMAL;
	}
	case AST_ANNASSIGN:
		if (st->ann.value) {
			/* `X: tl.constexpr = v` binds v whatever it is: Triton wraps a runtime value in
			 * a constexpr without complaint and every use unwraps it again (FlagGems'
			 * sort.py: `CTA_TILE_N: tl.constexpr = TILE_N * tiles_n_per_cta` with a
			 * runtime tiles_n_per_cta), so X is then simply that runtime value */
			sval v = eval(s, st->ann.value);
			if (!sema_is_constexpr_annotation(s, st->ann.annotation))
				v = assigned_value(s, v, st->ann.value->loc);
			assign(s, st->ann.target, v, st->ann.value->loc);
		}
		return FLOW_NORMAL;
	case AST_IF: {
		sval c = eval(s, st->if_.cond);
		ir_value *rc = runtime_cond(s, c, st->if_.cond->loc);
		if (rc)
			return exec_runtime_if(s, st, rc, blk, i + 1);
		const ast_block *arm = sema_truth(s, &c, st->if_.cond->loc) ? &st->if_.then : &st->if_.els;
		return exec_block(s, arm, 0);
	}
	case AST_FOR:
		if (st->for_.is_async || st->for_.els.n)
			sema_fail(s, st->loc, "unsupported Python construct in a kernel: %s",
				  ast_stmt_what(st));
		return exec_for(s, st);
	case AST_WHILE:
		if (st->while_.els.n)
			sema_fail(s, st->loc, "unsupported Python construct in a kernel: %s",
				  ast_stmt_what(st));
		return exec_while(s, st);
	case AST_RETURN:
		if (s->frame->runtime_cf && !s->frame->is_kernel)
			sema_fail(s, st->loc, "return under a runtime condition is not supported in "
					      "helpers");
		s->frame->ret = st->expr ? eval(s, st->expr) : (sval){.kind = SV_UNDEF};
		s->frame->has_ret = true;
		if (s->frame->is_kernel && s->frame->ret.kind != SV_UNDEF &&
		    s->frame->ret.kind != SV_NONE)
			sema_fail(s, st->loc, "a kernel cannot return a value");
		return FLOW_RETURN;
	case AST_PASS:
		return FLOW_NORMAL;
	case AST_BREAK:
		sema_fail(s, st->loc, "unsupported Python construct: break (Triton has no break)");
	case AST_CONTINUE:
		sema_fail(s, st->loc, "unsupported Python construct: continue (Triton has no continue)");
	case AST_ASSERT: {
		sval c = eval(s, st->assert_.test);
		sval msg = st->assert_.msg ? eval(s, st->assert_.msg) : (sval){.kind = SV_STR, .s = ""};
		if (c.kind == SV_IR) {
			ir_value *cv = sema_to_i1(s, c.ir, st->assert_.test->loc);
			sema_at(s, st->loc);
			ir_op *op = ir_build(&s->b, IR_OP_ASSERT, 1, &cv, 0, NULL);
			ir_op_set_str(s->ctx, op, "msg", msg.kind == SV_STR ? msg.s : "");
		} else if (!sema_truth(s, &c, st->assert_.test->loc)) {
			sema_fail(s, st->assert_.test->loc, "static assertion failed%s%s",
				  msg.kind == SV_STR && msg.s[0] ? ": " : "",
				  msg.kind == SV_STR ? msg.s : "");
		}
		return FLOW_NORMAL;
	}
	case AST_RAISE:
		exec_raise(s, st);
	case AST_IMPORT:
	case AST_IMPORTFROM:
		sema_fail(s, st->loc, "imports are only allowed at module level");
	case AST_FUNCDEF: case AST_CLASS: case AST_TRY: case AST_WITH: case AST_DEL:
	case AST_GLOBAL: case AST_NONLOCAL: case AST_MATCH: case AST_TYPEALIAS:
		sema_fail(s, st->loc, "unsupported Python construct in a kernel: %s", ast_stmt_what(st));
	}
	return FLOW_NORMAL;
}

static int exec_block(sema *s, const ast_block *b, int start)
{
	for (int i = start; i < b->n; i++) {
		int f = exec_stmt(s, b, i);
		if (f == FLOW_RETURN)
			return FLOW_RETURN;
	}
	return FLOW_NORMAL;
}

/* ---- helper calls ---------------------------------------------------------------------------- */

sval sema_call_jit(sema *s, const ast_func *fn, const sema_args *a)
{
	if (s->depth >= 64)
		sema_fail(s, a->loc, "helper calls nested too deeply (recursion is not supported)");
	int np = fn->nparams, npositional = 0;
	for (int j = 0; j < np; j++) {
		ast_param_kind k = fn->params[j].kind;
		if (k == AST_PARAM_VARARGS || k == AST_PARAM_KWARGS)
			sema_fail(s, fn->params[j].loc, "unsupported in a @triton.jit function: %s "
							"parameters", k == AST_PARAM_VARARGS ? "*args" : "**kwargs");
		if (k == AST_PARAM_NORMAL || k == AST_PARAM_POSONLY)
			npositional++;
	}
	sval *vals = ARENA_NEWN(s->a, sval, np + 1);
	bool *set = ARENA_NEWN(s->a, bool, np + 1);
	int npos = a->npos + (a->self ? 1 : 0);
	bool ctfn = sema_is_constexpr_fn(fn);
	if (ctfn) {
		for (int i = 0; i < a->npos; i++)
			if (!sv_is_compile_time(&a->pos[i]))
				sema_fail(s, a->pos_loc[i], "the @tl.constexpr function '%s' runs at compile "
							    "time, but this argument is %s", fn->name,
					  sv_describe(s, &a->pos[i]));
		for (int k = 0; k < a->nkw; k++)
			if (!sv_is_compile_time(&a->kw[k]))
				sema_fail(s, a->kws[k].loc, "the @tl.constexpr function '%s' runs at "
							    "compile time, but this argument is %s",
					  fn->name, sv_describe(s, &a->kw[k]));
	}
	if (npos > npositional)
		sema_fail(s, a->loc, "'%s' takes %d %sargument%s but %d were given", fn->name,
			  npositional, npositional == np ? "" : "positional ",
			  npositional == 1 ? "" : "s", npos);
	for (int i = 0; i < npos; i++) {
		vals[i] = a->self ? (i == 0 ? *a->self : a->pos[i - 1]) : a->pos[i];
		set[i] = true;
	}
	for (int k = 0; k < a->nkw; k++) {
		int j;
		for (j = 0; j < np; j++)
			if (fn->params[j].name == a->kws[k].name)
				break;
		if (j == np)
			sema_fail(s, a->kws[k].loc, "'%s' got an unexpected keyword argument '%s'",
				  fn->name, a->kws[k].name);
		if (fn->params[j].kind == AST_PARAM_POSONLY)
			sema_fail(s, a->kws[k].loc, "'%s' got a positional-only argument passed as a "
						    "keyword argument: '%s'", fn->name, a->kws[k].name);
		if (set[j])
			sema_fail(s, a->kws[k].loc, "'%s' got multiple values for argument '%s'",
				  fn->name, a->kws[k].name);
		vals[j] = a->kw[k];
		set[j] = true;
	}
	scope callee = {0};
	scope *saved_locals = s->locals;
	sema_pymod *saved_mod = s->cur_mod;
	const struct sema_lazy *saved_lazy = s->lazy;
	s->locals = &callee;
	s->lazy = NULL;
	s->cur_mod = sema_module_of_file(s, fn->loc.file); /* its globals are its module's */
	for (int j = 0; j < np; j++) {
		const ast_param *p = &fn->params[j];
		if (!set[j]) {
			if (!p->def)
				sema_fail(s, a->loc, "'%s' missing required argument '%s'", fn->name, p->name);
			scope *l = s->locals;
			s->locals = NULL; /* defaults see module globals only */
			vals[j] = eval(s, p->def);
			s->locals = l;
		}
		/* a helper's tl.constexpr annotation does not force the argument: as in Triton, a
		 * runtime value passed there is an ordinary value inside the helper (tutorial 06
		 * passes tensors to `offs_m: tl.constexpr`); only uses that need a constant fail */
		scope_set(s, &callee, p->name, vals[j]);
	}
	/* a compile-time Python function (@tl.constexpr, @triton.constexpr_function, or a plain
	 * function one of them calls) runs on compile-time values only, as Triton calls it
	 * with the constexprs unwrapped */
	bool pyfn = !sema_is_jit(fn);
	if (pyfn)
		for (int j = 0; j < np; j++)
			if (vals[j].kind == SV_IR)
				sema_fail(s, a->loc, "'%s' is a compile-time Python function; its argument "
						     "'%s' is %s", fn->name, fn->params[j].name,
					  sv_describe(s, &vals[j]));
	frame f = {.ret = {.kind = SV_UNDEF}};
	frame *saved_frame = s->frame;
	s->frame = &f;
	s->depth++;
	s->pyfn_depth += pyfn;
	exec_block(s, &fn->body, 0);
	s->pyfn_depth -= pyfn;
	s->depth--;
	s->frame = saved_frame;
	s->locals = saved_locals;
	s->cur_mod = saved_mod;
	s->lazy = saved_lazy;
	if (ctfn && f.ret.kind != SV_UNDEF && !sv_is_compile_time(&f.ret))
		sema_fail(s, a->loc, "the @tl.constexpr function '%s' returned %s, not a compile-time "
				     "value", fn->name, sv_describe(s, &f.ret));
	return f.ret;
}

/* ---- module level ------------------------------------------------------------------------------ */


/* A dotted decorator name like triton.jit or triton.autotune(...): its last part. */
const char *sema_decorator_name(const ast_expr *d)
{
	if (d->kind == AST_CALL && d->call.func)
		d = d->call.func;
	if (d->kind == AST_NAME)
		return d->name;
	if (d->kind == AST_ATTR)
		return d->attr.name;
	return NULL;
}

const ast_expr *sema_find_decorator(const ast_func *fn, const char *name)
{
	const ast_expr *found = NULL;
	for (int k = 0; k < fn->ndecorators; k++) {
		const char *dn = sema_decorator_name(fn->decorators[k]);
		if (dn && !strcmp(dn, name))
			found = fn->decorators[k];
	}
	return found;
}

/* The @triton.jit functions at the top level of the kernel file, with their autotune and
 * heuristics decorators. Nothing is evaluated: globals are computed when a kernel needs
 * them (sema_module.c). */
static int collect_module(sema *s, jit_info *fns, int max)
{
	int n = 0;
	for (int i = 0; i < s->mod->body.n; i++) {
		const ast_stmt *st = s->mod->body.stmts[i];
		if (st->kind != AST_FUNCDEF || !sema_is_jit(st->func))
			continue;
		const ast_func *fn = st->func;
		jit_info ji = {.fn = fn, .is_jit = true};
		ji.autotune = sema_find_decorator(fn, "autotune");
		ji.heuristics = sema_find_decorator(fn, "heuristics");
		if (n == max)
			sema_fail(s, fn->loc, "too many @triton.jit functions in one file");
		fns[n++] = ji;
	}
	return n;
}

/* ---- entry -------------------------------------------------------------------------------------- */

/* Chooses the kernel, specializes it and evaluates its body; errors longjmp out. */
static ir_module *lower_kernel(sema *sp, const sema_spec *spec)
{
	sema *s = sp;
	ir_context *c = s->ctx;
	diag_engine *d = s->d;
	const ast_module *m = s->mod;
	frame top = {.is_kernel = true};
	s->frame = &top;
	s->max_tile_elems = spec->max_tile_elems > 0 ? spec->max_tile_elems : (int64_t)1 << 20;
	sema_modules_init(s, spec);
	jit_info fns[256];
	int nfns = collect_module(s, fns, 256);
	const jit_info *k = NULL;
	if (spec->kernel) {
		for (int i = 0; i < nfns; i++)
			if (!strcmp(fns[i].fn->name, spec->kernel))
				k = &fns[i];
		if (!k) {
			strbuf names = {0};
			for (int i = 0; i < nfns; i++)
				strbuf_printf(&names, "%s'%s'", i ? ", " : "", fns[i].fn->name);
			diag_error(d, (srcloc){m->file, 0, 0, 0},
				   "no @triton.jit function named '%s' in this file%s%s", spec->kernel,
				   nfns ? "; it defines " : " (it defines none)", nfns ? names.data : "");
			strbuf_free(&names);
				return NULL;
		}
	} else if (nfns == 1) {
		k = &fns[0];
	} else {
		strbuf names = {0};
		for (int i = 0; i < nfns; i++)
			strbuf_printf(&names, "%s'%s'", i ? ", " : "", fns[i].fn->name);
		if (nfns == 0)
			diag_error(d, (srcloc){m->file, 0, 0, 0}, "no @triton.jit function in this file");
		else
			diag_error(d, (srcloc){m->file, 0, 0, 0},
				   "this file defines %d @triton.jit functions (%s): choose the kernel "
				   "with -k NAME", nfns, names.data);
		strbuf_free(&names);
		return NULL;
	}
	const ast_func *fn = k->fn;
	s->kernel = fn;
	int np = fn->nparams;
	param_spec *ps = ARENA_NEWN(s->a, param_spec, np + 1);
	int num_warps = spec->num_warps, num_stages = spec->num_stages;
	sema_specialize(s, k, spec, ps, &num_warps, &num_stages);

	/* the function: runtime parameters become block arguments; a host tensor descriptor
	 * becomes 2 * rank + 2 of them (docs/abi.md): NAME (the base), NAME_shape0.. (i32),
	 * NAME_stride0.. (i64), NAME_padding (i1) */
	int nslots = 0;
	for (int i = 0; i < np; i++)
		if (!ps[i].is_constexpr)
			nslots += ps[i].desc_rank ? 2 * ps[i].desc_rank + 2 : 1;
	const ir_type **types = ARENA_NEWN(s->a, const ir_type *, nslots + 1);
	const char **pnames = ARENA_NEWN(s->a, const char *, nslots + 1);
	int nrt = 0;
	for (int i = 0; i < np; i++) {
		if (ps[i].is_constexpr)
			continue;
		types[nrt] = ps[i].type;
		pnames[nrt++] = fn->params[i].name;
		for (int k = 0; ps[i].desc_rank && k < 2 * ps[i].desc_rank + 1; k++) {
			int r = ps[i].desc_rank;
			const char *what = k < r ? "shape" : k < 2 * r ? "stride" : "padding";
			char nm[300];
			if (k < 2 * r)
				snprintf(nm, sizeof nm, "%s_%s%d", fn->params[i].name, what, k % r);
			else
				snprintf(nm, sizeof nm, "%s_%s", fn->params[i].name, what);
			types[nrt] = ir_type_scalar(c, k < r ? IR_I32 : k < 2 * r ? IR_I64 : IR_I1);
			pnames[nrt++] = strtab_cstr(s->names, nm);
		}
	}
	ir_module *mod = ir_module_create(c);
	ir_func *f = ir_func_create(mod, fn->name, nrt, types, pnames, fn->loc);
	ir_func_set_int(c, f, "num_warps", num_warps ? num_warps : 4);
	if (num_stages)
		ir_func_set_int(c, f, "num_stages", num_stages);
	scope locals = {0};
	s->locals = &locals;
	s->b = (ir_builder){c, f->body, NULL, fn->loc};
	for (int i = 0, j = 0; i < np; i++) {
		if (ps[i].is_constexpr) {
			scope_set(s, &locals, fn->params[i].name, ps[i].value);
			continue;
		}
		int n = ps[i].desc_rank ? 2 * ps[i].desc_rank + 2 : 1;
		for (int k = 0; k < n; k++) {
			f->params[j + k].divisibility = k ? 1 : ps[i].div;
			f->params[j + k].equal_to_1 = !k && ps[i].eq1;
			f->params[j + k].name = pnames[j + k];
		}
		f->params[j].desc_rank = ps[i].desc_rank;
		if (ps[i].desc_rank)
			scope_set(s, &locals, fn->params[i].name,
				  sema_host_desc(s, ps[i].desc_rank, ps[i].desc_block, &f->body->args[j]));
		else
			/* a parameter known to equal 1 is the constant 1 inside the kernel, as in
			 * Triton */
			scope_set(s, &locals, fn->params[i].name,
				  ps[i].eq1 ? sv_int(1) : sv_ir(f->body->args[j]));
		j += n;
	}
	exec_block(s, &fn->body, 0);
	s->b.loc = fn->loc;
	ir_build(&s->b, IR_OP_RETURN, 0, NULL, 0, NULL);
	return mod;
}

ir_module *sema_lower(ir_context *c, diag_engine *d, const ast_module *m, const sema_spec *spec)
{
	sema s = {.ctx = c, .a = ir_arena(c), .names = ir_names(c), .d = d, .mod = m};
	jmp_buf jb;
	ir_module *volatile result = NULL;
	s.fail = &jb;
	s.n_constexpr = strtab_cstr(s.names, "constexpr");
	if (setjmp(jb) == 0)
		result = lower_kernel(&s, spec);
	return diag_error_count(d) ? NULL : result;
}
