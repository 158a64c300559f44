/* tune_source.c: what a kernel's decorators say for autotuning, read from the AST without
 * running anything:
 *
 *   @triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=4), ...], key=['n'])
 *   @triton.heuristics({'EVEN_K': lambda args: args['K'] % args['BLOCK_K'] == 0})
 *
 * Configs are read when they are literal (a list of triton.Config calls with literal
 * values); otherwise (configs=get_configs()) the user gives them with --configs or
 * --config. A heuristic is read as an expression (tune.h) of args['NAME'] when its lambda
 * body is one: the generated launcher evaluates it at launch, choosing between variants
 * compiled for each value: False and True for a boolean one (a comparison, and/or/not),
 * a finite set of integers for an integer one (compile_tune.c says which). */
#include <stdlib.h>
#include <string.h>

#include "driver/tune.h"
#include "frontend/sema.h"

static const ast_expr *keyword(const ast_expr *call, const char *name)
{
	for (int k = 0; k < call->call.nkws; k++)
		if (call->call.kws[k].name && !strcmp(call->call.kws[k].name, name))
			return call->call.kws[k].value;
	return NULL;
}

/* A literal value as -D takes it: an integer (maybe negative), True or False. */
static const char *literal_text(arena *a, const ast_expr *e)
{
	if (e->kind == AST_INT && !e->int_big)
		return arena_printf(a, "%lld", (long long)e->ival);
	if (e->kind == AST_UNARY && e->un.op == AST_UNEG && e->un.operand->kind == AST_INT &&
	    !e->un.operand->int_big)
		return arena_printf(a, "%lld", -(long long)e->un.operand->ival);
	if (e->kind == AST_BOOL)
		return e->bval ? "True" : "False";
	return NULL;
}

/* One triton.Config({...}, num_warps=, num_stages=) call; false when it is not literal. */
static bool read_config(arena *a, diag_engine *d, const ast_expr *e, tune_config *c)
{
	memset(c, 0, sizeof *c);
	c->loc = e->loc;
	const char *fn = e->kind == AST_CALL ? sema_decorator_name(e) : NULL;
	if (!fn || strcmp(fn, "Config") || e->call.nargs < 1 || e->call.args[0]->kind != AST_DICT) {
		diag_error(d, e->loc, "this config is not a literal triton.Config({...}, num_warps=N, "
			   "num_stages=N): give the configs with --configs FILE or --config");
		return false;
	}
	const ast_expr *dict = e->call.args[0];
	c->names = arena_alloc(a, sizeof *c->names * (size_t)(dict->dict.n + 1));
	c->values = arena_alloc(a, sizeof *c->values * (size_t)(dict->dict.n + 1));
	for (int j = 0; j < dict->dict.n; j++) {
		const ast_expr *k = dict->dict.keys[j], *v = dict->dict.values[j];
		const char *val = v ? literal_text(a, v) : NULL;
		if (!k || k->kind != AST_STR || !val) {
			diag_error(d, k ? k->loc : e->loc, "config entries are 'NAME': integer, True or "
				   "False: give the configs with --configs FILE or --config");
			return false;
		}
		c->names[c->n] = k->str.s;
		c->values[c->n++] = val;
	}
	for (int k = 0; k < e->call.nkws; k++) {
		const ast_keyword *kw = &e->call.kws[k];
		const char *val = kw->name ? literal_text(a, kw->value) : NULL;
		if (!val || (strcmp(kw->name, "num_warps") && strcmp(kw->name, "num_stages") &&
			     strcmp(kw->name, "num_ctas"))) {
			diag_error(d, kw->loc, "tilecc reads num_warps=, num_stages= and num_ctas=1 of a "
				   "config, as literal integers");
			return false;
		}
		int v = (int)strtol(val, NULL, 10);
		if (!strcmp(kw->name, "num_warps"))
			c->num_warps = v;
		else if (!strcmp(kw->name, "num_stages"))
			c->num_stages = v;
		else if (v != 1) {
			diag_error(d, kw->loc, "num_ctas other than 1 (thread block clusters) is not supported");
			return false;
		}
	}
	c->text = tune_config_text(a, c);
	return true;
}

/* The lambda body as an expression: args['NAME'] is the name NAME. */
static tune_expr *read_heuristic(arena *a, diag_engine *d, const char *argname, const ast_expr *e)
{
	tune_expr *x = arena_alloc(a, sizeof *x);
	memset(x, 0, sizeof *x);
	x->loc = e->loc;
	switch (e->kind) {
	case AST_INT:
		if (e->int_big)
			break;
		x->op = TX_INT;
		x->ival = e->ival;
		return x;
	case AST_BOOL:
		x->op = TX_INT;
		x->ival = e->bval;
		return x;
	case AST_SUBSCRIPT:
		if (e->sub.value->kind == AST_NAME && e->sub.value->name == argname &&
		    e->sub.index->kind == AST_STR) {
			x->op = TX_NAME;
			x->name = e->sub.index->str.s;
			return x;
		}
		break;
	case AST_UNARY:
		if (e->un.op == AST_UNEG || e->un.op == AST_UNOT) {
			x->op = e->un.op == AST_UNEG ? TX_NEG : TX_NOT;
			return (x->a = read_heuristic(a, d, argname, e->un.operand)) ? x : NULL;
		}
		break;
	case AST_BINOP: {
		static const struct {
			ast_binop from;
			tune_op to;
		} ops[] = {{AST_ADD, TX_ADD}, {AST_SUB, TX_SUB}, {AST_MUL, TX_MUL},
			   {AST_FLOORDIV, TX_FDIV}, {AST_MOD, TX_MOD}};
		for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
			if (ops[k].from == e->bin.op) {
				x->op = ops[k].to;
				if (!(x->a = read_heuristic(a, d, argname, e->bin.lhs)) ||
				    !(x->b = read_heuristic(a, d, argname, e->bin.rhs)))
					return NULL;
				return x;
			}
		break;
	}
	case AST_COMPARE: {
		/* a < b <= c: (a < b) and (b <= c) */
		static const struct {
			ast_cmpop from;
			tune_op to;
		} ops[] = {{AST_EQ, TX_EQ}, {AST_NE, TX_NE}, {AST_LT, TX_LT},
			   {AST_LE, TX_LE}, {AST_GT, TX_GT}, {AST_GE, TX_GE}};
		tune_expr *all = NULL, *lhs = read_heuristic(a, d, argname, e->cmp.first);
		if (!lhs)
			return NULL;
		for (int i = 0; i < e->cmp.n; i++) {
			tune_expr *rhs = read_heuristic(a, d, argname, e->cmp.rest[i]);
			if (!rhs)
				return NULL;
			size_t k;
			for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
				if (ops[k].from == e->cmp.ops[i])
					break;
			if (k == sizeof ops / sizeof ops[0])
				goto bad;
			tune_expr *c = arena_alloc(a, sizeof *c);
			*c = (tune_expr){.op = ops[k].to, .loc = e->loc, .a = lhs, .b = rhs};
			if (all) {
				tune_expr *and = arena_alloc(a, sizeof *and);
				*and = (tune_expr){.op = TX_AND, .loc = e->loc, .a = all, .b = c};
				all = and;
			} else {
				all = c;
			}
			lhs = rhs;
		}
		return all;
	}
	case AST_BOOLOP: {
		tune_expr *all = NULL;
		for (int i = 0; i < e->boolop.n; i++) {
			tune_expr *v = read_heuristic(a, d, argname, e->boolop.values[i]);
			if (!v)
				return NULL;
			if (all) {
				tune_expr *n = arena_alloc(a, sizeof *n);
				*n = (tune_expr){.op = e->boolop.op == AST_AND ? TX_AND : TX_OR, .loc = e->loc,
						 .a = all, .b = v};
				all = n;
			} else {
				all = v;
			}
		}
		return all;
	}
	case AST_CALL: {
		const char *fn = sema_decorator_name(e);
		static const struct {
			const char *name;
			tune_op op;
			int nargs;
		} calls[] = {{"cdiv", TX_CDIV, 2}, {"min", TX_MIN, 2}, {"max", TX_MAX, 2},
			     {"next_power_of_2", TX_NP2, 1}};
		/* min(a, b, c, ...) and max(...): min(min(a, b), c) */
		if (fn && (!strcmp(fn, "min") || !strcmp(fn, "max")) && e->call.nargs > 2 &&
		    !e->call.nkws) {
			tune_expr *all = read_heuristic(a, d, argname, e->call.args[0]);
			for (int i = 1; all && i < e->call.nargs; i++) {
				tune_expr *n = arena_alloc(a, sizeof *n);
				*n = (tune_expr){.op = fn[1] == 'i' ? TX_MIN : TX_MAX, .loc = e->loc, .a = all};
				if (!(n->b = read_heuristic(a, d, argname, e->call.args[i])))
					return NULL;
				all = n;
			}
			return all;
		}
		for (size_t k = 0; fn && k < sizeof calls / sizeof calls[0]; k++)
			if (!strcmp(calls[k].name, fn) && e->call.nargs == calls[k].nargs && !e->call.nkws) {
				x->op = calls[k].op;
				if (!(x->a = read_heuristic(a, d, argname, e->call.args[0])))
					return NULL;
				if (calls[k].nargs == 2 &&
				    !(x->b = read_heuristic(a, d, argname, e->call.args[1])))
					return NULL;
				return x;
			}
		break;
	}
	default:
		break;
	}
bad:
	diag_error(d, e->loc, "tilecc evaluates heuristics of integers, args['NAME'], + - * // %%, "
		   "comparisons, and/or/not, triton.cdiv, min, max and triton.next_power_of_2 at "
		   "launch: give this one's value with -D");
	return NULL;
}

static bool is_boolean(const tune_expr *e)
{
	return (e->op >= TX_LT && e->op <= TX_OR) || e->op == TX_NOT ||
	       (e->op == TX_INT && (e->ival == 0 || e->ival == 1));
}

bool tune_read_decorators(arena *a, diag_engine *d, const ast_func *fn, bool need_configs,
			  tune_decorators *out)
{
	memset(out, 0, sizeof *out);
	/* the decorators sema reads (sema.h), when they are calls */
	out->autotune = sema_find_decorator(fn, "autotune");
	out->heuristics = sema_find_decorator(fn, "heuristics");
	if (out->autotune && out->autotune->kind != AST_CALL)
		out->autotune = NULL;
	if (out->heuristics && out->heuristics->kind != AST_CALL)
		out->heuristics = NULL;
	if (out->autotune) {
		const ast_expr *cl = keyword(out->autotune, "configs");
		if (!cl && out->autotune->call.nargs > 0)
			cl = out->autotune->call.args[0];
		out->configs_loc = cl ? cl->loc : out->autotune->loc;
		out->nconfig = -1;
		if (cl && (cl->kind == AST_LIST || cl->kind == AST_TUPLE)) {
			out->configs = arena_alloc(a, sizeof *out->configs * (size_t)(cl->seq.n + 1));
			out->nconfig = 0;
			for (int i = 0; i < cl->seq.n; i++) {
				if (!read_config(a, d, cl->seq.items[i], &out->configs[i])) {
					if (need_configs)
						return false;
					out->nconfig = -1;
					break;
				}
				out->nconfig++;
			}
		} else if (need_configs) {
			diag_error(d, out->configs_loc, "these configs are not a literal list of "
				   "triton.Config: give them with --configs FILE or --config");
			return false;
		}
		const ast_expr *key = keyword(out->autotune, "key");
		if (key && (key->kind == AST_LIST || key->kind == AST_TUPLE)) {
			out->key = arena_alloc(a, sizeof *out->key * (size_t)(key->seq.n + 1));
			for (int i = 0; i < key->seq.n; i++) {
				if (key->seq.items[i]->kind != AST_STR) {
					diag_error(d, key->seq.items[i]->loc, "a key entry is a parameter name "
						   "in quotes");
					return false;
				}
				out->key[out->nkey++] = key->seq.items[i]->str.s;
			}
		}
	}
	if (out->heuristics) {
		const ast_expr *hd = out->heuristics->call.nargs ? out->heuristics->call.args[0] : NULL;
		if (!hd || hd->kind != AST_DICT) {
			diag_error(d, out->heuristics->loc, "@triton.heuristics takes a dict of "
				   "'NAME': lambda args: ...");
			return false;
		}
		out->heurs = arena_alloc(a, sizeof *out->heurs * (size_t)(hd->dict.n + 1));
		for (int i = 0; i < hd->dict.n; i++) {
			const ast_expr *k = hd->dict.keys[i], *v = hd->dict.values[i];
			if (!k || k->kind != AST_STR || !v || v->kind != AST_LAMBDA || v->lambda.nparams != 1) {
				diag_error(d, k ? k->loc : hd->loc, "a heuristic is 'NAME': lambda args: "
					   "EXPRESSION");
				return false;
			}
			tune_heuristic *h = &out->heurs[out->nheur];
			h->name = k->str.s;
			h->loc = v->loc;
			h->e = read_heuristic(a, d, v->lambda.params[0].name, v->lambda.body);
			if (!h->e)
				return false;
			h->integer = !is_boolean(h->e);
			out->nheur++;
		}
	}
	return true;
}
