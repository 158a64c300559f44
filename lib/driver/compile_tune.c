/* compile_tune.c: the two compilations of ahead-of-time autotuning (docs/abi.md,
 * "Autotuning"):
 *
 *   tilecc k.py -k NAME -s SIG --target=T --tune spec.txt [--configs FILE] -o tuner.c
 *       every config (the decorator's, or --configs / --config) compiled for T, once per
 *       value of each boolean heuristic; a config that does not compile is skipped with a
 *       warning. The output is the tuner program (tune_emit.c).
 *   tilecc k.py -k NAME -s SIG --target=T1,T2 --tuning tuning.txt -o k.h
 *       the configs the tuning file's problems chose (and its default) compiled for every
 *       target, no device needed; the output is the tuned launcher (header_tune.c). The
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

enum { TUNE_MAX_HEURISTICS = 4 };

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

static const char *heur_label(compilation *c, const tune_program *p, int k, unsigned h)
{
	strbuf b = {0};
	strbuf_puts(&b, p->configs[k].text);
	for (int i = 0; i < p->nheur; i++)
		strbuf_printf(&b, " %s=%s", p->heurs[i].name, h >> i & 1 ? "True" : "False");
	const char *s = arena_strndup(c->a, b.data ? b.data : "", b.len);
	strbuf_free(&b);
	return s;
}

/* Compiles config k with heuristic values h for the target list into *v; quiet: a failure
 * is returned with its message in *why instead of reported. */
static int compile_variant(compilation *c, const tilecc_options *base, tune_program *p, int k,
			   unsigned h, const char *list, bool quiet, tune_variant *v, const char **why)
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
		defs[n++] = (tilecc_define){p->heurs[i].name, h >> i & 1 ? "True" : "False"};
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
	}
	if (rc)
		return rc;
	if (!p->f)
		p->f = c->kernel;
	*v = (tune_variant){.config = k, .hbits = h, .label = heur_label(c, p, k, h), .arts = arts,
			    .n = na};
	return 0;
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

	/* compile the variants */
	tilecc_options base = *o;
	base.tune_spec = base.tuning = base.configs = NULL;
	base.emit = TILECC_EMIT_DEFAULT;
	int nh = 1 << p.nheur;
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
			int rc = compile_variant(c, &base, &p, k, (unsigned)h, list, tuner, &vars[nv], &why);
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
