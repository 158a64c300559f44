/* compile_tune.c: the two compilations of ahead-of-time autotuning (docs/abi.md,
 * "Autotuning"):
 *
 *   tilecc k.py -k NAME -s SIG --target=T --tune spec.txt [--configs FILE] -o tuner.c
 *       every config (the decorator's, or --configs / --config) compiled for T, once per
 *       combination of the heuristics' values (False and True for a boolean one; for an
 *       integer one, those it takes at the spec's problems and those the spec or
 *       --heuristic lists); a config that does not compile is skipped with a warning. The
 *       output is the tuner program (tune_emit.c).
 *   tilecc k.py -k NAME -s SIG --target=T1,T2 --tuning tuning.txt -o k.h
 *       the configs the tuning file's problems chose (and its default) compiled for every
 *       target and combination of the heuristics' values (an integer one's: the tuning
 *       file's list, --heuristic's, those at its best: lines), no device needed; the
 *       output is the tuned launcher (header_tune.c). The
 *       file must be for this kernel, signature and -D values (an error otherwise); another
 *       compiler version or kernel source gives a warning (tune again).
 * Both re-enter compile_artifacts with the config's constexprs as -D values and its
 * num_warps and num_stages. */
#include <stdlib.h>
#include <string.h>

#include "backends/target.h"
#include "driver/compile_int.h"
#include "driver/tune.h"
#include "frontend/ast.h"

/* heuristics evaluated at launch, and variants of one config (combinations of their values) */
enum { TUNE_MAX_HEURISTICS = 4, TUNE_MAX_COMBOS = 64 };

/* The kernel's function in the file's AST. */
static const ast_func *find_kernel(compilation *c, const ast_module *m, const char *name)
{
	for (int i = 0; i < m->body.n; i++) {
		const ast_stmt *st = m->body.stmts[i];
		if (st->kind == AST_FUNCDEF && !strcmp(st->func->name, name))
			return st->func;
	}
	diag_error(c->d, SRCLOC_NONE, "no function '%s' in the kernel file", name);
	return NULL;
}

/* Signatures compare without their blanks. */
static bool same_signature(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t')
			a++;
		while (*b == ' ' || *b == '\t')
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

/* Heuristic i's value in combination combo, as -D takes it: "True", "False", "1024". */
static const char *heur_value(compilation *c, const tune_program *p, int i, int combo)
{
	int stride = 1;
	for (int j = 0; j < i; j++)
		stride *= p->heurs[j].nvalues;
	const tune_heuristic *h = &p->heurs[i];
	int digit = combo / stride % h->nvalues;
	if (!h->integer)
		return digit ? "True" : "False";
	return arena_printf(c->a, "%lld", (long long)h->values[digit]);
}

static const char *heur_label(compilation *c, const tune_program *p, int k, int combo)
{
	strbuf b = {0};
	strbuf_puts(&b, p->configs[k].text);
	for (int i = 0; i < p->nheur; i++)
		strbuf_printf(&b, " %s=%s", p->heurs[i].name, heur_value(c, p, i, combo));
	const char *s = arena_strndup(c->a, b.data ? b.data : "", b.len);
	strbuf_free(&b);
	return s;
}

/* Compiles config k with the heuristics' values of combination h for the target list into
 * *v; quiet: a failure is returned with its message in *why instead of reported. */
static int compile_variant(compilation *c, const tilecc_options *base, tune_program *p, int k,
			   int h, const char *list, bool quiet, tune_variant *v, const char **why)
{
	const tune_config *cf = &p->configs[k];
	size_t nd = base->num_defines + (size_t)cf->n + (size_t)p->nheur;
	tilecc_define *defs = arena_alloc(c->a, sizeof *defs * (nd ? nd : 1));
	size_t n = 0;
	for (size_t i = 0; i < base->num_defines; i++)
		defs[n++] = base->defines[i];
	for (int i = 0; i < cf->n; i++)
		defs[n++] = (tilecc_define){cf->names[i], cf->values[i]};
	for (int i = 0; i < p->nheur; i++)
		defs[n++] = (tilecc_define){p->heurs[i].name, heur_value(c, p, i, h)};
	tilecc_options sub = *base;
	sub.defines = defs;
	sub.num_defines = n;
	if (cf->num_warps)
		sub.num_warps = cf->num_warps;
	if (cf->num_stages)
		sub.num_stages = cf->num_stages;
	header_artifact *arts;
	size_t na;
	if (quiet)
		diag_quiet_push(c->d);
	int rc = compile_artifacts(c, &sub, list, &arts, &na, NULL);
	c->o = base;
	if (quiet) {
		if (rc)
			*why = arena_printf(c->a, "does not compile: %s", diag_quiet_last(c->d));
		diag_quiet_pop(c->d);
	} else if (rc) {
		diag_note(c->d, cf->loc, "while compiling this config (%s)", heur_label(c, p, k, h));
		for (int i = 0; i < p->nheur; i++)
			if (p->heurs[i].integer)
				diag_note(c->d, p->heurs[i].loc, "%s = %s, one of the values compiled for "
					  "this heuristic", p->heurs[i].name, heur_value(c, p, i, h));
	}
	if (rc)
		return rc;
	if (!p->f)
		p->f = c->kernel;
	*v = (tune_variant){.config = k, .combo = h, .label = heur_label(c, p, k, h), .arts = arts,
			    .n = na};
	return 0;
}

/* ---- the values of integer heuristics -------------------------------------------------- */

/* What a name means while the compiler evaluates a heuristic: the known parameters' values,
 * the config's constexprs, the heuristics before this one (Triton passes each heuristic the
 * values of those before it). */
typedef struct eval_ctx {
	const tune_program *p;
	const tune_config *config;
	int nheur;
	int n;
	const char **names;
	int64_t *values;
} eval_ctx;

static bool eval_name(void *user, const char *name, int64_t *v)
{
	const eval_ctx *x = user;
	for (int i = 0; i < x->n; i++)
		if (!strcmp(x->names[i], name)) {
			*v = x->values[i];
			return true;
		}
	for (int i = 0; x->config && i < x->config->n; i++)
		if (!strcmp(x->config->names[i], name)) {
			const char *t = x->config->values[i];
			*v = !strcmp(t, "True") ? 1 : !strcmp(t, "False") ? 0 : strtoll(t, NULL, 10);
			return true;
		}
	for (int i = 0; i < x->nheur; i++)
		if (!strcmp(x->p->heurs[i].name, name)) {
			eval_ctx y = *x;
			y.nheur = i;
			const tune_expr *unknown;
			return tune_eval(x->p->heurs[i].e, eval_name, &y, v, &unknown);
		}
	return false;
}

/* Adds v to heuristic h's values, once. */
static void add_value(compilation *c, tune_heuristic *h, int *cap, int64_t v)
{
	for (int i = 0; i < h->nvalues; i++)
		if (h->values[i] == v)
			return;
	if (h->nvalues == *cap) {
		int64_t *nv = arena_alloc(c->a, sizeof *nv * (size_t)(*cap ? 2 * *cap : 8));
		if (h->nvalues)
			memcpy(nv, h->values, sizeof *nv * (size_t)h->nvalues);
		h->values = nv;
		*cap = *cap ? 2 * *cap : 8;
	}
	h->values[h->nvalues++] = v;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The problem pi's values of the spec, by name: its own, then the spec's NAME: lines in
 * order (those whose expression has a value by then; a pointer's line is its element
 * count, which no integer heuristic may use: check_heuristic_names). */
static void problem_env(compilation *c, const tune_spec *sp, int pi, eval_ctx *x)
{
	const tune_problem *pr = &sp->probs[pi];
	int cap = pr->n + sp->nbind;
	x->names = arena_alloc(c->a, sizeof *x->names * (size_t)(cap ? cap : 1));
	x->values = arena_alloc(c->a, sizeof *x->values * (size_t)(cap ? cap : 1));
	x->n = 0;
	for (int i = 0; i < pr->n; i++) {
		x->names[x->n] = pr->names[i];
		x->values[x->n++] = pr->values[i];
	}
	for (int b = 0; b < sp->nbind; b++) {
		int64_t v;
		const tune_expr *unknown;
		if (eval_name(x, sp->binds[b].name, &v))
			continue; /* the problem gives it */
		eval_ctx y = *x;
		y.config = NULL;
		y.nheur = 0;
		if (tune_eval(sp->binds[b].e, eval_name, &y, &v, &unknown)) {
			x->names[x->n] = sp->binds[b].name;
			x->values[x->n++] = v;
		}
	}
}

/* Heuristic i of p, or the error for a list of values that names none. */
static tune_heuristic *listed_heuristic(compilation *c, tune_program *p, const tune_values *l,
					const tune_decorators *dec)
{
	for (int i = 0; i < p->nheur; i++)
		if (!strcmp(p->heurs[i].name, l->name)) {
			if (p->heurs[i].integer)
				return &p->heurs[i];
			diag_error(c->d, l->loc, "'%s' is a boolean heuristic: it is compiled for False "
				   "and True, without a list", l->name);
			diag_note(c->d, p->heurs[i].loc, "the heuristic");
			return NULL;
		}
	for (int i = 0; i < dec->nheur; i++)
		if (!strcmp(dec->heurs[i].name, l->name)) {
			diag_error(c->d, l->loc, "the heuristic '%s' is given with -D: it is not "
				   "evaluated at launch", l->name);
			return NULL;
		}
	diag_error(c->d, l->loc, "kernel '%s' has no heuristic '%s' (@triton.heuristics) to "
		   "compile values for", p->kernel, l->name);
	return NULL;
}

/* The values each integer heuristic is compiled for: those the user lists (the spec's or
 * the tuning file's heuristic: lines, --heuristic), and those it takes at the problems: the
 * spec's (the tuner), the tuning file's best: lines (the launcher: key values and the
 * winning config; a heuristic of other parameters needs a list). Then the number of
 * combinations: at most TUNE_MAX_COMBOS. */
static bool heuristic_values(compilation *c, tune_program *p, const tune_decorators *dec,
			     const tune_spec *sp, const tune_file *tf, const tune_values *cl, int ncl)
{
	tune_heuristic *hs = p->heurs;
	int *cap = arena_alloc(c->a, sizeof *cap * (size_t)(p->nheur + 1));
	bool *listed = arena_alloc(c->a, sizeof *listed * (size_t)(p->nheur + 1));
	for (int i = 0; i < p->nheur; i++) {
		cap[i] = 0;
		listed[i] = false;
		hs[i].nvalues = hs[i].integer ? 0 : 2;
		hs[i].values = NULL;
	}
	const tune_values *lists[] = {sp ? sp->hvals : tf->hvals, cl};
	int nlists[] = {sp ? sp->nhval : tf->nhval, ncl};
	for (int l = 0; l < 2; l++)
		for (int j = 0; j < nlists[l]; j++) {
			tune_heuristic *h = listed_heuristic(c, p, &lists[l][j], dec);
			if (!h)
				return false;
			listed[h - hs] = true;
			for (int k = 0; k < lists[l][j].n; k++)
				add_value(c, h, &cap[h - hs], lists[l][j].values[k]);
		}
	int nprob = sp ? sp->nprob : tf->nbest;
	for (int pi = 0; pi < nprob; pi++) {
		eval_ctx x = {.p = p};
		if (sp) {
			problem_env(c, sp, pi, &x);
		} else {
			x.n = tf->nkey;
			x.names = (const char **)tf->key;
			x.values = tf->best[pi].values;
		}
		for (int k = 0; k < p->nconfig; k++) {
			if (!sp && k != tf->best[pi].config)
				continue;
			x.config = &p->configs[k];
			for (int i = 0; i < p->nheur; i++) {
				if (!hs[i].integer)
					continue;
				x.nheur = i;
				int64_t v;
				const tune_expr *unknown = NULL;
				if (tune_eval(hs[i].e, eval_name, &x, &v, &unknown)) {
					add_value(c, &hs[i], &cap[i], v);
					continue;
				}
				if (!sp && listed[i])
					continue; /* not a function of the key: the list says */
				if (sp) {
					diag_error(c->d, unknown->loc, "'%s' has no value at this problem, so "
						   "the heuristic '%s' cannot be evaluated for it", unknown->name,
						   hs[i].name);
					diag_note(c->d, sp->probs[pi].loc, "in this problem");
				} else {
					diag_error(c->d, unknown->loc, "the heuristic '%s' uses '%s', which is "
						   "not in the key, so its values at the tuned problems are not "
						   "known: list the values to compile with --heuristic %s=V1,V2,... "
						   "or a 'heuristic: %s = V1, V2, ...' line in the tuning file",
						   hs[i].name, unknown->name, hs[i].name, hs[i].name);
					diag_note(c->d, tf->key_loc, "the key");
				}
				return false;
			}
		}
	}
	long long combos = 1;
	int most = 0;
	strbuf counts = {0};
	for (int i = 0; i < p->nheur; i++) {
		if (hs[i].integer && !hs[i].nvalues) {
			diag_error(c->d, hs[i].loc, "no values to compile the heuristic '%s' for: the "
				   "tuning file has no problems; list them with --heuristic %s=V1,V2,...",
				   hs[i].name, hs[i].name);
			return false;
		}
		if (hs[i].integer)
			qsort(hs[i].values, (size_t)hs[i].nvalues, sizeof *hs[i].values, cmp_i64);
		combos *= hs[i].nvalues; /* at most 4 heuristics of fewer than 2^31 values */
		most = hs[i].nvalues > hs[most].nvalues ? i : most;
		strbuf_printf(&counts, "%s%s %d", i ? ", " : "", hs[i].name, hs[i].nvalues);
	}
	if (combos > TUNE_MAX_COMBOS) {
		diag_error(c->d, hs[most].loc, "the heuristics' values make %lld variants of each "
			   "config (%s), more than %d: list fewer values, or give some heuristics "
			   "with -D", combos, counts.data, TUNE_MAX_COMBOS);
		strbuf_free(&counts);
		return false;
	}
	strbuf_free(&counts);
	p->ncombo = (int)combos;
	return true;
}

/* An integer heuristic may use integer runtime parameters, the config's constexprs and the
 * heuristics before it; a pointer's address or a float is an error at the name. */
static bool check_heuristic_names(compilation *c, const tune_program *p, const tune_expr *e,
				  const tune_heuristic *h)
{
	if (!e)
		return true;
	if (e->op == TX_NAME) {
		int i = tune_param_index(p->f, e->name);
		if (i >= 0 && !ir_type_is_int(p->f->body->args[i]->type)) {
			diag_error(c->d, e->loc, "the integer heuristic '%s' uses '%s', which is not an "
				   "integer parameter", h->name, e->name);
			return false;
		}
		return true;
	}
	return check_heuristic_names(c, p, e->a, h) && check_heuristic_names(c, p, e->b, h);
}

/* The key's runtime parameters (integers). */
static bool resolve_key(compilation *c, tune_program *p, srcloc loc)
{
	p->key_param = arena_alloc(c->a, sizeof *p->key_param * (size_t)(p->nkey ? p->nkey : 1));
	for (int i = 0; i < p->nkey; i++) {
		int j = tune_param_index(p->f, p->key[i]);
		if (j < 0 || !ir_type_is_int(p->f->body->args[j]->type)) {
			diag_error(c->d, loc, "the key '%s' is not an integer runtime parameter of kernel "
				   "'%s'", p->key[i], p->kernel);
			return false;
		}
		p->key_param[i] = j;
	}
	return true;
}

int compile_tune(compilation *c, tilecc_output *out)
{
	const tilecc_options *o = c->o;
	bool tuner = o->tune_spec != NULL;
	if (o->tune_spec && o->tuning) {
		diag_error(c->d, SRCLOC_NONE, "--tune makes a tuning file and --tuning reads one: give "
			   "one of them");
		return 2;
	}
	if (!o->kernel) {
		diag_error(c->d, SRCLOC_NONE, "autotuning needs the kernel's name: -k NAME");
		return 2;
	}
	if (o->signature && compile_wants_spec(o->signature)) {
		diag_error(c->d, SRCLOC_NONE, "a tuned launcher has no specialization variants (':?'): "
			   "give the hints (:16, :1) the tuned sizes have");
		return 2;
	}
	if (tuner && o->target && strchr(o->target, ',')) {
		diag_error(c->d, SRCLOC_NONE, "--tune times one target: give one (--target=%s has "
			   "several)", o->target);
		return 2;
	}
	uint32_t file = diag_add_source(c->d, o->input_name ? o->input_name : "<input>", o->source,
					(uint32_t)o->source_len);
	ast_module *ast = parse_module(c->a, c->names, c->d, file, o->source, (uint32_t)o->source_len);
	if (!ast)
		return 1;
	const ast_func *fn = find_kernel(c, ast, o->kernel);
	if (!fn)
		return 1;

	tune_program p = {.kernel = o->kernel, .signature = o->signature ? o->signature : "",
			  .source_hash = tune_source_hash(c->a, o->source, o->source_len),
			  .default_config = 0};
	p.target = o->target ? o->target : target_host()->family; /* "x86-64", as the file says it */
	p.targets = p.target;
	p.ndefine = (int)o->num_defines;
	p.defines = arena_alloc(c->a, sizeof *p.defines * (o->num_defines + 1));
	for (size_t i = 0; i < o->num_defines; i++)
		p.defines[i] = arena_printf(c->a, "%s=%s", o->defines[i].name, o->defines[i].value);

	tune_decorators dec;
	bool need_configs = tuner && !o->configs;
	if (!tune_read_decorators(c->a, c->d, fn, need_configs, &dec))
		return 1;
	/* the heuristics the user did not set with -D */
	tune_heuristic *heurs = arena_alloc(c->a, sizeof *heurs * (size_t)(dec.nheur + 1));
	for (int i = 0; i < dec.nheur; i++) {
		bool given = false;
		for (size_t k = 0; k < o->num_defines; k++)
			given |= !strcmp(o->defines[k].name, dec.heurs[i].name);
		if (given)
			continue;
		if (p.nheur == TUNE_MAX_HEURISTICS) {
			diag_error(c->d, dec.heurs[i].loc, "more than %d heuristics to evaluate at launch: "
				   "give some with -D", TUNE_MAX_HEURISTICS);
			return 1;
		}
		heurs[p.nheur++] = dec.heurs[i];
	}
	p.heurs = heurs;

	tune_spec spec;
	tune_file tf;
	srcloc key_loc = SRCLOC_NONE;
	if (tuner) {
		uint32_t sf = diag_add_source(c->d, o->tune_spec_name ? o->tune_spec_name : "<spec>",
					      o->tune_spec, (uint32_t)o->tune_spec_len);
		if (!tune_parse_spec(c->a, c->d, sf, o->tune_spec, o->tune_spec_len, &spec))
			return 1;
		p.spec = &spec;
		p.ngrid = spec.ngrid;
		p.grid = spec.grid;
		p.grid_text = spec.grid_text;
		if (o->configs) {
			uint32_t cf = diag_add_source(c->d, o->configs_name ? o->configs_name : "<configs>",
						      o->configs, (uint32_t)o->configs_len);
			tune_config *cs;
			if (!tune_parse_configs(c->a, c->d, cf, o->configs, o->configs_len, &cs, &p.nconfig))
				return 1;
			p.configs = cs;
		} else {
			p.configs = dec.configs;
			p.nconfig = dec.nconfig;
			if (p.nconfig <= 0) {
				diag_error(c->d, dec.autotune ? dec.configs_loc : fn->loc, "no configs to "
					   "tune: kernel '%s' has no @triton.autotune(configs=[...]); give "
					   "them with --configs FILE or --config", o->kernel);
				return 1;
			}
		}
		if (spec.nkey) {
			p.nkey = spec.nkey;
			p.key = spec.key;
			key_loc = spec.key_loc;
		} else if (dec.nkey) {
			p.nkey = dec.nkey;
			p.key = dec.key;
			key_loc = dec.autotune->loc;
		} else {
			diag_error(c->d, (srcloc){sf, 1, 1, 1}, "no key to tune by: add a line 'key: M, N' "
				   "to the spec, or key=[...] to @triton.autotune");
			return 1;
		}
	} else {
		uint32_t tfile = diag_add_source(c->d, o->tuning_name ? o->tuning_name : "<tuning>",
						 o->tuning, (uint32_t)o->tuning_len);
		if (!tune_parse_file(c->a, c->d, tfile, o->tuning, o->tuning_len, &tf))
			return 1;
		if (strcmp(tf.kernel, o->kernel)) {
			diag_error(c->d, tf.kernel_loc, "this tuning file is for kernel '%s', not '%s'",
				   tf.kernel, o->kernel);
			return 1;
		}
		if (!same_signature(tf.signature, p.signature)) {
			diag_error(c->d, tf.signature_loc, "this tuning file was made for the signature "
				   "\"%s\", not \"%s\": tune again", tf.signature, p.signature);
			return 1;
		}
		bool same_defs = tf.ndefine == p.ndefine;
		for (int i = 0; same_defs && i < p.ndefine; i++)
			same_defs = !strcmp(tf.defines[i], p.defines[i]);
		if (!same_defs) {
			strbuf b = {0};
			for (int i = 0; i < p.ndefine; i++)
				strbuf_printf(&b, " -D %s", p.defines[i]);
			diag_error(c->d, tf.ndefine ? tf.define_loc : tf.signature_loc, "this tuning file "
				   "was made with other -D values than this compilation's (%s): tune again",
				   b.len ? b.data + 1 : "none");
			strbuf_free(&b);
			return 1;
		}
		if (strcmp(tf.compiler, "tilecc " TILECC_VERSION_STRING))
			diag_warning(c->d, tf.compiler_loc, "this tuning file was made by %s, not tilecc "
				     TILECC_VERSION_STRING ": its times may no longer hold (tune again)",
				     tf.compiler);
		if (tf.source_hash && strcmp(tf.source_hash, p.source_hash))
			diag_warning(c->d, tf.source_loc, "the kernel file has changed since it was tuned "
				     "(its hash is %s now): tune again", p.source_hash);
		const char *list = o->target ? o->target : "host";
		bool found = !o->target && !strcmp(tf.target, target_host()->family);
		for (const char *q = list; q && *q;) {
			const char *e = strchr(q, ',');
			size_t n = e ? (size_t)(e - q) : strlen(q);
			found |= n == strlen(tf.target) && !strncmp(q, tf.target, n);
			q = e ? e + 1 : NULL;
		}
		if (!found)
			diag_warning(c->d, tf.target_loc, "the configs were tuned on %s, which is not a "
				     "target of this launcher (%s)", tf.target, list);
		p.target = tf.target;
		p.targets = o->target ? list : target_host()->family;
		p.ngrid = tf.ngrid;
		p.grid = tf.grid;
		p.grid_text = tf.grid_text;
		p.configs = tf.configs;
		p.nconfig = tf.nconfig;
		p.nkey = tf.nkey;
		p.key = tf.key;
		key_loc = tf.key_loc;
		p.nbest = tf.nbest;
		p.best = tf.best;
		p.default_config = tf.default_config >= 0 ? tf.default_config
				   : tf.nbest		  ? tf.best[0].config
							  : 0;
	}
	for (int k = 0; k < p.nconfig; k++)
		for (int i = 0; i < p.nheur; i++)
			for (int j = 0; j < p.configs[k].n; j++)
				if (!strcmp(p.configs[k].names[j], p.heurs[i].name)) {
					diag_error(c->d, p.configs[k].loc, "this config sets '%s', which "
						   "@triton.heuristics computes", p.heurs[i].name);
					diag_note(c->d, p.heurs[i].loc, "the heuristic");
					return 1;
				}
	tune_values *cl = NULL;
	int ncl = 0;
	if (o->heuristics) {
		uint32_t hf = diag_add_source(c->d, o->heuristics_name ? o->heuristics_name
								       : "<--heuristic>",
					      o->heuristics, (uint32_t)o->heuristics_len);
		if (!tune_parse_values(c->a, c->d, hf, o->heuristics, o->heuristics_len, &cl, &ncl))
			return 1;
	}
	if (!heuristic_values(c, &p, &dec, tuner ? &spec : NULL, tuner ? NULL : &tf, cl, ncl))
		return 1;

	/* compile the variants */
	tilecc_options base = *o;
	base.tune_spec = base.tuning = base.configs = NULL;
	base.emit = TILECC_EMIT_DEFAULT;
	int nh = p.ncombo;
	int *variant_of = arena_alloc(c->a, sizeof *variant_of * (size_t)(p.nconfig * nh));
	tune_variant *vars = arena_alloc(c->a, sizeof *vars * (size_t)(p.nconfig * nh));
	const char **cerr = arena_alloc(c->a, sizeof *cerr * (size_t)p.nconfig);
	bool *used = arena_alloc(c->a, sizeof *used * (size_t)p.nconfig);
	memset(used, 0, sizeof *used * (size_t)p.nconfig);
	if (tuner)
		for (int k = 0; k < p.nconfig; k++)
			used[k] = true;
	else {
		used[p.default_config] = true;
		for (int b = 0; b < p.nbest; b++)
			used[p.best[b].config] = true;
	}
	int nv = 0, ncompiled = 0;
	const char *list = o->target ? o->target : "host";
	for (int k = 0; k < p.nconfig; k++) {
		cerr[k] = NULL;
		int ok = 0;
		const char *why = NULL;
		for (int h = 0; h < nh; h++) {
			variant_of[k * nh + h] = -1;
			if (!used[k])
				continue;
			int rc = compile_variant(c, &base, &p, k, h, list, tuner, &vars[nv], &why);
			if (rc && !tuner)
				return rc;
			if (rc)
				continue;
			variant_of[k * nh + h] = nv++;
			ok++;
		}
		if (used[k] && !ok) {
			cerr[k] = why;
			diag_warning(c->d, p.configs[k].loc, "config %d (%s) is skipped: it %s", k,
				     p.configs[k].text, why ? why : "does not compile");
		}
		ncompiled += ok > 0;
	}
	if (!ncompiled) {
		diag_error(c->d, SRCLOC_NONE, "no config of kernel '%s' compiles", o->kernel);
		return 1;
	}
	p.variants = vars;
	p.nvariant = nv;
	p.variant_of = variant_of;
	p.config_error = cerr;
	for (int i = 0; i < p.f->body->nargs; i++)
		if (p.f->params[i].desc_rank) {
			diag_error(c->d, fn->loc, "autotuning does not take tensor descriptor parameters yet");
			return 1;
		}
	if (!resolve_key(c, &p, key_loc))
		return 1;
	for (int i = 0; i < p.nheur; i++)
		if (p.heurs[i].integer && !check_heuristic_names(c, &p, p.heurs[i].e, &p.heurs[i]))
			return 1;

	strbuf h = {0}, src = {0};
	if (tuner) {
		if (!tune_write_tuner(c->d, &src, &p)) {
			strbuf_free(&src);
			return 1;
		}
		if (src.oom) {
			strbuf_free(&src);
			diag_internal(c->d, "out of memory while writing the tuner");
			return 3;
		}
		out->data = strbuf_take(&src, &out->size);
		return 0;
	}
	if (!tune_write_header(c->d, &h, &src, compile_header_name(o), &p)) {
		strbuf_free(&h);
		strbuf_free(&src);
		return 1;
	}
	return compile_take_header(c, out, &h, &src);
}
