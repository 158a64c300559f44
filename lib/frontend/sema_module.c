/* sema_module.c: module level, evaluated lazily, and imports.
 *
 * A kernel file is a Python file whose module level mostly serves the host: it builds
 * tensors, queries the device, configures loggers. None of that runs here. Sema looks a
 * global up when a kernel needs it, the way Python would have computed it by the time
 * the kernel is called: from the last module-level statement that binds the name.
 * Evaluating that statement's right-hand side sees only what comes before it, so
 * `BLOCK = BLOCK * 2` reads the earlier binding. An `if` at module level takes the
 * branch its condition selects when the condition is known at compile time, otherwise
 * the first branch whose definition evaluates; a `try` takes its body's definition
 * unless that fails (an import that does not resolve, a host call), then the first
 * handler's that evaluates. What cannot be computed is an error only when a kernel uses
 * it: at the use, with a note at the definition and the reason.
 *
 * Module-level right-hand sides are evaluated speculatively: diagnostics are quiet
 * (diag_quiet_push), errors longjmp to a local jmp_buf, and any IR built goes into a
 * scratch region that is thrown away. So the cost of a compilation depends on what the
 * kernel reaches, not on the size of the host code around it (which is only parsed).
 *
 * Imports resolve like Python's on a search path: the kernel file's directory, its
 * package root (the directory above the outermost directory with an __init__.py), the
 * -I directories, then TILECC_PATH. A module is pkg/mod.py or pkg/mod/__init__.py, read
 * and parsed once per compilation. triton, triton.language and its submodules, and math
 * are tilecc's own (sema_module_id); other triton modules are host-only. */
#define _DEFAULT_SOURCE /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/sema_int.h"

/* A cached lookup of one global of one module (the whole module having run). */
enum { G_EVALUATING, G_OK, G_FAIL, G_UNBOUND };
struct sema_global_entry {
	const char *name;
	int state;
	sval v;
	srcloc def;      /* the binding statement */
	const char *why; /* G_FAIL: the reason */
};

/* Where module-level code being evaluated stands: statements blk[0..limit) precede it;
 * outer is the block around blk (NULL at module level). */
typedef struct sema_lazy {
	const ast_block *blk;
	int limit;
	const struct sema_lazy *outer;
	sema_pymod *mod;
} lazy_ctx;

struct sema_modtab {
	sema_pymod **v;
	int n, cap;
	const char **dirs; /* the search path */
	int ndirs;
	const ast_stmt *active[64]; /* statements being evaluated, for cycles */
	int nactive;
};

/* The outcome of resolving a name against some statements. */
enum { R_UNBOUND, R_OK, R_FAIL };
typedef struct resolved {
	sval v;
	srcloc def;
	const char *why;
} resolved;

static int resolve_in(sema *s, const lazy_ctx *ctx, const char *name, resolved *r);

/* ---- files and the module table -------------------------------------------------------- */

static char *path_join(sema *s, const char *dir, const char *rest)
{
	if (!dir || !*dir)
		return arena_strdup(s->a, rest);
	return arena_printf(s->a, "%s/%s", dir, rest);
}

static char *dir_of(sema *s, const char *path)
{
	const char *sl = path ? strrchr(path, '/') : NULL;
	if (!sl)
		return arena_strdup(s->a, ".");
	if (sl == path)
		return arena_strdup(s->a, "/");
	return arena_strndup(s->a, path, (size_t)(sl - path));
}

static bool file_exists(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	fclose(f);
	return true;
}

/* Reads a whole file into the arena (NUL-terminated); NULL when it cannot be read. */
static char *read_whole(sema *s, const char *path, uint32_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	strbuf b = {0};
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_putn(&b, buf, got);
	fclose(f);
	char *r = arena_strndup(s->a, b.data ? b.data : "", b.len);
	*len = (uint32_t)b.len;
	strbuf_free(&b);
	return r;
}

static sema_pymod *add_module(sema *s, const char *name)
{
	struct sema_modtab *t = s->mods;
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		sema_pymod **nv = ARENA_NEWN(s->a, sema_pymod *, cap);
		if (!nv)
			sema_fail(s, SRCLOC_NONE, "out of memory");
		if (t->n)
			memcpy(nv, t->v, sizeof *nv * (size_t)t->n);
		t->v = nv;
		t->cap = cap;
	}
	sema_pymod *m = ARENA_NEW(s->a, sema_pymod);
	m->name = arena_strdup(s->a, name);
	t->v[t->n++] = m;
	return m;
}

/* Parses m's file (m->path) and registers it with the diagnostics engine. */
static void load_file(sema *s, sema_pymod *m)
{
	uint32_t len = 0;
	char *text = read_whole(s, m->path, &len);
	if (!text) {
		m->why = arena_printf(s->a, "cannot read '%s'", m->path);
		return;
	}
	m->file = diag_add_source(s->d, m->path, text, len);
	diag_quiet_push(s->d);
	m->ast = parse_module(s->a, s->names, s->d, m->file, text, len);
	diag_quiet_pop(s->d);
	if (!m->ast)
		m->why = arena_printf(s->a, "it does not parse: %s", diag_quiet_last(s->d));
}

/* The module of dotted name `name`, found on the search path and loaded, or a module
 * with ast == NULL and a reason. Each name is looked up once per compilation. */
static sema_pymod *find_module(sema *s, const char *name)
{
	struct sema_modtab *t = s->mods;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i]->name, name))
			return t->v[i];
	sema_pymod *m = add_module(s, name);
	char *rel = arena_strdup(s->a, name);
	for (char *c = rel; *c; c++)
		if (*c == '.')
			*c = '/';
	for (int i = 0; i < t->ndirs && !m->path; i++) {
		char *f = path_join(s, t->dirs[i], arena_printf(s->a, "%s.py", rel));
		char *pk = path_join(s, t->dirs[i], arena_printf(s->a, "%s/__init__.py", rel));
		if (file_exists(f)) {
			m->path = f;
			const char *dot = strrchr(name, '.');
			m->pkg = dot ? arena_strndup(s->a, name, (size_t)(dot - name)) : "";
		} else if (file_exists(pk)) {
			m->path = pk;
			m->pkg = m->name;
		}
	}
	if (!m->path) {
		m->why = arena_printf(s->a, "no module named '%s' on the search path", name);
		return m;
	}
	load_file(s, m);
	return m;
}

sema_pymod *sema_module_of_file(sema *s, uint32_t file)
{
	for (int i = 0; i < s->mods->n; i++)
		if (s->mods->v[i]->file == file)
			return s->mods->v[i];
	return s->main;
}

void sema_modules_init(sema *s, const sema_spec *spec)
{
	struct sema_modtab *t = ARENA_NEW(s->a, struct sema_modtab);
	if (!t)
		sema_fail(s, SRCLOC_NONE, "out of memory");
	s->mods = t;
	int cap = (int)spec->nsearch_dirs + 2;
	t->dirs = ARENA_NEWN(s->a, const char *, cap);
	/* the kernel file's directory, then its package root: walk up while the directory
	 * is a package; the module name collects the package names on the way */
	const char *path = spec->main_path ? spec->main_path : "<input>";
	char *dir = dir_of(s, path);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t bl = strlen(base);
	char *modname = arena_strndup(s->a, base, bl > 3 && !strcmp(base + bl - 3, ".py") ? bl - 3 : bl);
	t->dirs[t->ndirs++] = dir;
	/* walk up an absolute path, so that "kern.py" in a package directory finds it */
	char *abs = realpath(dir, NULL);
	char *root = abs ? arena_strdup(s->a, abs) : dir;
	free(abs);
	char *pkg = arena_strdup(s->a, "");
	for (int guard = 0; guard < 64; guard++) {
		if (!file_exists(path_join(s, root, "__init__.py")))
			break;
		const char *sl = strrchr(root, '/');
		const char *comp = sl ? sl + 1 : root;
		if (!strcmp(comp, ".") || !strcmp(comp, "..") || !*comp)
			break; /* a relative path that cannot be walked up further */
		pkg = *pkg ? arena_printf(s->a, "%s.%s", comp, pkg) : arena_strdup(s->a, comp);
		root = sl ? (sl == root ? arena_strdup(s->a, "/") : arena_strndup(s->a, root, (size_t)(sl - root)))
			  : arena_strdup(s->a, ".");
	}
	if (*pkg)
		t->dirs[t->ndirs++] = root;
	for (size_t i = 0; i < spec->nsearch_dirs; i++)
		t->dirs[t->ndirs++] = spec->search_dirs[i];
	if (*pkg && strcmp(modname, "__init__"))
		modname = arena_printf(s->a, "%s.%s", pkg, modname);
	else if (*pkg)
		modname = pkg;
	sema_pymod *m = add_module(s, modname);
	m->path = path;
	m->pkg = pkg;
	m->file = s->mod->file;
	m->ast = s->mod;
	s->main = s->cur_mod = m;
}

bool sema_is_jit(const ast_func *fn)
{
	for (int k = 0; k < fn->ndecorators; k++) {
		const ast_expr *d = fn->decorators[k];
		if (d->kind == AST_CALL && d->call.func)
			d = d->call.func;
		const char *n = d->kind == AST_NAME ? d->name : d->kind == AST_ATTR ? d->attr.name : NULL;
		if (n && !strcmp(n, "jit"))
			return true;
	}
	return false;
}

/* A Python function decorated with @tl.constexpr (triton.language.constexpr): Triton wraps it
 * as a constexpr, and a kernel that calls it runs it as Python at compile time, on
 * compile-time arguments (dtypes, numbers, strings). sema runs its body the way it inlines a
 * helper, and sema_call_jit requires compile-time arguments and result. */
bool sema_is_constexpr_fn(const ast_func *fn)
{
	for (int k = 0; k < fn->ndecorators; k++) {
		const ast_expr *d = fn->decorators[k];
		const char *n = d->kind == AST_NAME ? d->name : d->kind == AST_ATTR ? d->attr.name : NULL;
		if (n && !strcmp(n, "constexpr"))
			return true;
	}
	return false;
}

/* ---- speculative evaluation -------------------------------------------------------------- */

/* Evaluates e as module-level code at ctx: quietly, with IR going to a scratch region.
 * Returns false with *why set when it fails. */
static bool try_eval(sema *s, const lazy_ctx *ctx, const ast_expr *e, sval *out,
		     const char **why)
{
	sema saved = *s;
	jmp_buf jb;
	ir_op *scratch = ir_op_create(s->ctx, IR_OP_IF, 0, NULL, 0, NULL, e->loc);
	s->b.block = scratch->regions[0];
	s->b.before = NULL;
	s->locals = NULL;
	s->lazy = ctx;
	s->cur_mod = ctx->mod;
	s->fail = &jb;
	diag_quiet_push(s->d);
	volatile bool ok = false;
	if (setjmp(jb) == 0) {
		*out = sema_eval_expr(s, e);
		if (out->kind == SV_IR) {
			*why = "its value is only known at run time";
		} else {
			ok = true;
		}
	} else {
		*why = arena_strdup(s->a, diag_quiet_last(s->d));
	}
	diag_quiet_pop(s->d);
	struct sema_modtab *mods = s->mods;
	*s = saved;
	s->mods = mods;
	return ok;
}

/* ---- which statements bind a name ---------------------------------------------------------- */

static bool target_binds(const ast_expr *t, const char *name)
{
	switch (t->kind) {
	case AST_NAME: return t->name == name;
	case AST_STARRED: return target_binds(t->wrap.value, name);
	case AST_TUPLE:
	case AST_LIST:
		for (int i = 0; i < t->seq.n; i++)
			if (target_binds(t->seq.items[i], name))
				return true;
		return false;
	default: return false;
	}
}

/* The name an import alias binds: 'import a.b' binds 'a', 'import a.b as c' binds 'c',
 * 'from m import x' binds 'x'. */
static const char *alias_binds(sema *s, const ast_stmt *st, const ast_alias *al)
{
	if (al->asname)
		return al->asname;
	if (st->kind == AST_IMPORTFROM)
		return al->name;
	const char *dot = strchr(al->name, '.');
	return dot ? strtab_intern(s->names, al->name, (size_t)(dot - al->name)) : al->name;
}

static bool block_binds(sema *s, const ast_block *b, const char *name);

static bool stmt_binds(sema *s, const ast_stmt *st, const char *name)
{
	switch (st->kind) {
	case AST_ASSIGN:
		for (int k = 0; k < st->assign.ntargets; k++)
			if (target_binds(st->assign.targets[k], name))
				return true;
		return false;
	case AST_ANNASSIGN: return st->ann.value && target_binds(st->ann.target, name);
	case AST_AUGASSIGN: return target_binds(st->aug.target, name);
	case AST_FUNCDEF: return st->func->name == name;
	case AST_CLASS: return st->cls->name == name;
	case AST_IMPORT:
	case AST_IMPORTFROM:
		if (st->import.star)
			return true; /* maybe: resolved against the module */
		for (int i = 0; i < st->import.n; i++)
			if (alias_binds(s, st, &st->import.names[i]) == name)
				return true;
		return false;
	case AST_IF: return block_binds(s, &st->if_.then, name) || block_binds(s, &st->if_.els, name);
	case AST_TRY:
		if (block_binds(s, &st->try_.body, name) || block_binds(s, &st->try_.orelse, name) ||
		    block_binds(s, &st->try_.finalbody, name))
			return true;
		for (int i = 0; i < st->try_.nhandlers; i++)
			if (st->try_.handlers[i].name == name || block_binds(s, &st->try_.handlers[i].body, name))
				return true;
		return false;
	case AST_WITH:
		for (int i = 0; i < st->with_.nitems; i++)
			if (st->with_.items[i].target && target_binds(st->with_.items[i].target, name))
				return true;
		return block_binds(s, &st->with_.body, name);
	case AST_FOR:
		return target_binds(st->for_.target, name) || block_binds(s, &st->for_.body, name) ||
		       block_binds(s, &st->for_.els, name);
	case AST_WHILE:
		return block_binds(s, &st->while_.body, name) || block_binds(s, &st->while_.els, name);
	case AST_MATCH:
		for (int i = 0; i < st->match.ncases; i++)
			if (block_binds(s, &st->match.cases[i].body, name))
				return true;
		return false;
	case AST_DEL:
		for (int i = 0; i < st->del.n; i++)
			if (target_binds(st->del.targets[i], name))
				return true;
		return false;
	case AST_TYPEALIAS: return st->alias.name->name == name;
	default: return false;
	}
}

static bool block_binds(sema *s, const ast_block *b, const char *name)
{
	for (int i = 0; i < b->n; i++)
		if (stmt_binds(s, b->stmts[i], name))
			return true;
	return false;
}

/* ---- imports ------------------------------------------------------------------------------- */

/* tilecc's own modules by full dotted name; false for any other. */
static bool builtin_module(const char *full, sema_module_id *id)
{
	static const struct {
		const char *name;
		sema_module_id id;
	} table[] = {
	    {"triton", MOD_TRITON},
	    {"triton.language", MOD_TL},
	    {"triton.language.core", MOD_TL},
	    {"triton.language.math", MOD_TL_MATH},
	    {"triton.language.extra", MOD_TL_EXTRA},
	    {"triton.language.extra.libdevice", MOD_TL_MATH},
	    {"triton.language.extra.cuda", MOD_TL_EXTRA_VENDOR},
	    {"triton.language.extra.hip", MOD_TL_EXTRA_VENDOR},
	    {"triton.language.extra.cuda.libdevice", MOD_TL_MATH},
	    {"triton.language.extra.hip.libdevice", MOD_TL_MATH},
	    {"math", MOD_MATH},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(full, table[i].name)) {
			*id = table[i].id;
			return true;
		}
	return false;
}

/* Modules no kernel can use, found or not: Triton's host side, torch and friends. Their
 * names are not looked up on the search path (a checkout of triton itself may be on it). */
static bool host_module(const char *full)
{
	return !strncmp(full, "triton.", 7) || !strcmp(full, "triton");
}

static sval module_value(sema_module_id id)
{
	return (sval){.kind = SV_MODULE, .module = id};
}

/* The module `full` as a value: builtin, loaded from the search path, or a failure. */
static int import_module(sema *s, const char *full, resolved *r)
{
	sema_module_id id;
	if (builtin_module(full, &id)) {
		r->v = module_value(id);
		return R_OK;
	}
	if (host_module(full)) {
		r->why = arena_printf(s->a, "module '%s' is host-side Triton, not available to kernels",
				      full);
		return R_FAIL;
	}
	sema_pymod *m = find_module(s, full);
	if (!m->ast) {
		r->why = m->why;
		return R_FAIL;
	}
	r->v = (sval){.kind = SV_PYMOD, .pymod = m};
	return R_OK;
}

/* Attribute `name` of a module value, quietly: R_OK, R_UNBOUND (no such attribute) or
 * R_FAIL (it exists but cannot be computed). */
static int module_member(sema *s, sval mod, const char *name, resolved *r)
{
	if (mod.kind == SV_PYMOD) {
		sema_pymod *m = mod.pymod;
		lazy_ctx top = {&m->ast->body, m->ast->body.n, NULL, m};
		int k = resolve_in(s, &top, name, r);
		if (k != R_UNBOUND)
			return k;
		char *sub = arena_printf(s->a, "%s.%s", m->name, name);
		sema_pymod *sm = find_module(s, sub);
		if (!sm->ast)
			return R_UNBOUND;
		r->v = (sval){.kind = SV_PYMOD, .pymod = sm};
		return R_OK;
	}
	/* a builtin module: its attributes as sema knows them */
	if (!strcmp(name, "jit") || !strcmp(name, "constexpr") || !strcmp(name, "autotune") ||
	    !strcmp(name, "heuristics") || !strcmp(name, "Config")) {
		r->why = arena_printf(s->a, "'%s' is recognised by name in decorators and "
					    "annotations, not a value", name);
		return R_FAIL;
	}
	sema saved = *s;
	jmp_buf jb;
	s->fail = &jb;
	diag_quiet_push(s->d);
	volatile int k = R_UNBOUND;
	if (setjmp(jb) == 0) {
		r->v = sema_module_attr(s, mod.module, name, SRCLOC_NONE);
		k = R_OK;
	}
	diag_quiet_pop(s->d);
	struct sema_modtab *mods = s->mods;
	*s = saved;
	s->mods = mods;
	return k;
}

/* The dotted name a relative import of module m refers to; NULL (and *why) when it goes
 * above the top-level package. */
static const char *relative_base(sema *s, sema_pymod *m, const ast_stmt *st, const char **why)
{
	const char *pkg = m->pkg ? m->pkg : "";
	char *base = arena_strdup(s->a, pkg);
	for (int i = 1; i < st->import.level; i++) {
		char *dot = strrchr(base, '.');
		if (!dot && !*base)
			break;
		if (dot)
			*dot = 0;
		else
			base[0] = 0;
	}
	if (!*base) {
		*why = "attempted relative import beyond top-level package";
		return NULL;
	}
	if (*st->import.module)
		return arena_printf(s->a, "%s.%s", base, st->import.module);
	return base;
}

/* What alias al of import statement st binds. */
static int resolve_import(sema *s, sema_pymod *m, const ast_stmt *st, const ast_alias *al,
			  resolved *r)
{
	r->def = al->loc;
	if (st->kind == AST_IMPORT) {
		const char *full = al->name;
		if (!al->asname && strchr(full, '.')) {
			/* import a.b binds a; a.b is then an attribute of a */
			const char *dot = strchr(full, '.');
			full = arena_strndup(s->a, full, (size_t)(dot - full));
		}
		return import_module(s, full, r);
	}
	const char *base = st->import.module;
	if (st->import.level) {
		const char *why = NULL;
		base = relative_base(s, m, st, &why);
		if (!base) {
			r->why = why;
			return R_FAIL;
		}
	}
	resolved mr = {0};
	int k = import_module(s, base, &mr);
	if (k != R_OK) {
		/* from a import b, where a.b is a module of its own */
		sema_module_id id;
		char *sub = arena_printf(s->a, "%s.%s", base, al->name);
		if (builtin_module(sub, &id)) {
			r->v = module_value(id);
			return R_OK;
		}
		r->why = mr.why;
		return R_FAIL;
	}
	resolved ar = {0};
	k = module_member(s, mr.v, al->name, &ar);
	if (k == R_OK) {
		r->v = ar.v;
		return R_OK;
	}
	if (k == R_FAIL) {
		r->why = arena_printf(s->a, "'%s' of '%s' %s", al->name, base,
				      ar.why ? ar.why : "cannot be evaluated");
		return R_FAIL;
	}
	r->why = arena_printf(s->a, "cannot import name '%s' from '%s'", al->name, base);
	return R_FAIL;
}

/* ---- resolving a name at module level ---------------------------------------------------- */

static int resolve_block(sema *s, const lazy_ctx *ctx, const char *name, resolved *r);

/* Evaluates the right-hand side of a binding at ctx into r. */
static int eval_binding(sema *s, const lazy_ctx *ctx, const ast_expr *e, srcloc def,
			resolved *r)
{
	r->def = def;
	const char *why = NULL;
	if (try_eval(s, ctx, e, &r->v, &why))
		return R_OK;
	r->why = why;
	return R_FAIL;
}

/* Element `name` of a tuple-unpacking target t given value v. */
static bool unpack(const ast_expr *t, sval v, const char *name, sval *out)
{
	if (t->kind == AST_NAME) {
		if (t->name != name)
			return false;
		*out = v;
		return true;
	}
	if ((t->kind != AST_TUPLE && t->kind != AST_LIST) || v.kind != SV_TUPLE ||
	    v.tup.n != t->seq.n)
		return false;
	for (int i = 0; i < t->seq.n; i++)
		if (unpack(t->seq.items[i], v.tup.items[i], name, out))
			return true;
	return false;
}

/* Statement i of ctx->blk, as far as `name` is concerned. */
static int resolve_stmt(sema *s, const lazy_ctx *ctx, int i, const char *name, resolved *r)
{
	const ast_stmt *st = ctx->blk->stmts[i];
	if (!stmt_binds(s, st, name))
		return R_UNBOUND;
	lazy_ctx here = {ctx->blk, i, ctx->outer, ctx->mod};
	struct sema_modtab *t = s->mods;
	for (int k = 0; k < t->nactive; k++)
		if (t->active[k] == st) {
			r->def = st->loc;
			r->why = arena_printf(s->a, "the definition of '%s' depends on itself", name);
			return R_FAIL;
		}
	if (t->nactive == 64) {
		r->def = st->loc;
		r->why = "module-level definitions nested too deeply";
		return R_FAIL;
	}
	t->active[t->nactive++] = st;
	int k = R_UNBOUND;
	r->def = st->loc;
	switch (st->kind) {
	case AST_ASSIGN: {
		for (int j = st->assign.ntargets - 1; j >= 0; j--) {
			const ast_expr *tg = st->assign.targets[j];
			if (!target_binds(tg, name))
				continue;
			resolved v = {0};
			k = eval_binding(s, &here, st->assign.value, st->loc, &v);
			if (k == R_OK && !unpack(tg, v.v, name, &r->v)) {
				k = R_FAIL;
				r->why = "it is unpacked from a value tilecc cannot split";
			} else if (k == R_FAIL) {
				r->why = v.why;
			}
			break;
		}
		break;
	}
	case AST_ANNASSIGN:
		k = eval_binding(s, &here, st->ann.value, st->loc, r);
		break;
	case AST_AUGASSIGN: {
		resolved prev = {0};
		int pk = resolve_in(s, &here, name, &prev);
		resolved rhs = {0};
		if (pk != R_OK) {
			k = R_FAIL;
			r->why = pk == R_FAIL ? prev.why : "it is updated before it is defined";
			break;
		}
		k = eval_binding(s, &here, st->aug.value, st->loc, &rhs);
		if (k != R_OK) {
			r->why = rhs.why;
			break;
		}
		sema saved = *s;
		jmp_buf jb;
		s->fail = &jb;
		diag_quiet_push(s->d);
		volatile int ok = 0;
		if (setjmp(jb) == 0) {
			r->v = sema_binary(s, st->aug.op, prev.v, rhs.v, st->loc);
			ok = 1;
		}
		diag_quiet_pop(s->d);
		struct sema_modtab *mods = s->mods;
		*s = saved;
		s->mods = mods;
		k = ok ? R_OK : R_FAIL;
		if (!ok)
			r->why = arena_strdup(s->a, diag_quiet_last(s->d));
		break;
	}
	case AST_FUNCDEF:
		r->def = st->func->loc;
		if (sema_is_jit(st->func) || sema_is_constexpr_fn(st->func)) {
			r->v = (sval){.kind = SV_JITFN, .fn = st->func};
			k = R_OK;
		} else {
			r->why = arena_printf(s->a, "'%s' is a Python function, not a @triton.jit "
						    "function (nor a @tl.constexpr one)", name);
			k = R_FAIL;
		}
		break;
	case AST_CLASS:
		r->def = st->cls->loc;
		r->why = arena_printf(s->a, "'%s' is a class", name);
		k = R_FAIL;
		break;
	case AST_TYPEALIAS:
		r->why = "it is a type alias";
		k = R_FAIL;
		break;
	case AST_IMPORT:
	case AST_IMPORTFROM:
		if (st->import.star) {
			resolved mr = {0};
			const char *base = st->import.module;
			const char *why = NULL;
			if (st->import.level)
				base = relative_base(s, ctx->mod, st, &why);
			if (base && import_module(s, base, &mr) == R_OK)
				k = module_member(s, mr.v, name, r);
			break;
		}
		for (int j = st->import.n - 1; j >= 0; j--)
			if (alias_binds(s, st, &st->import.names[j]) == name) {
				k = resolve_import(s, ctx->mod, st, &st->import.names[j], r);
				break;
			}
		break;
	case AST_IF: {
		lazy_ctx then = {&st->if_.then, st->if_.then.n, &here, ctx->mod};
		lazy_ctx els = {&st->if_.els, st->if_.els.n, &here, ctx->mod};
		sval c;
		const char *why;
		if (try_eval(s, &here, st->if_.cond, &c, &why) &&
		    (c.kind == SV_BOOL || c.kind == SV_INT || c.kind == SV_NONE)) {
			bool taken = c.kind == SV_BOOL ? c.b : c.kind == SV_INT ? c.i != 0 : false;
			k = resolve_block(s, taken ? &then : &els, name, r);
			break;
		}
		/* the condition is host code: the first branch whose definition evaluates */
		k = resolve_block(s, &then, name, r);
		if (k == R_OK)
			break;
		resolved r2 = {0};
		int k2 = resolve_block(s, &els, name, &r2);
		if (k2 == R_OK || k == R_UNBOUND) {
			*r = r2;
			k = k2;
		}
		break;
	}
	case AST_TRY: {
		lazy_ctx fin = {&st->try_.finalbody, st->try_.finalbody.n, &here, ctx->mod};
		k = resolve_block(s, &fin, name, r);
		if (k != R_UNBOUND)
			break;
		lazy_ctx body = {&st->try_.body, st->try_.body.n, &here, ctx->mod};
		lazy_ctx orelse = {&st->try_.orelse, st->try_.orelse.n, &here, ctx->mod};
		k = resolve_block(s, &body, name, r);
		if (k != R_FAIL) {
			resolved ro = {0};
			int ko = resolve_block(s, &orelse, name, &ro);
			if (ko != R_UNBOUND) {
				*r = ro;
				k = ko;
			}
			if (k != R_UNBOUND)
				break;
		}
		for (int h = 0; h < st->try_.nhandlers; h++) {
			const ast_handler *hd = &st->try_.handlers[h];
			lazy_ctx hb = {&hd->body, hd->body.n, &here, ctx->mod};
			resolved rh = {0};
			int kh = resolve_block(s, &hb, name, &rh);
			if (kh == R_OK) {
				*r = rh;
				k = R_OK;
				break;
			}
			if (kh == R_FAIL && k == R_UNBOUND) {
				*r = rh;
				k = R_FAIL;
			}
		}
		break;
	}
	case AST_WITH: {
		bool item = false;
		for (int j = 0; j < st->with_.nitems; j++)
			if (st->with_.items[j].target && target_binds(st->with_.items[j].target, name))
				item = true;
		if (!item) {
			lazy_ctx body = {&st->with_.body, st->with_.body.n, &here, ctx->mod};
			k = resolve_block(s, &body, name, r);
			break;
		}
		r->why = "it is bound by a with statement";
		k = R_FAIL;
		break;
	}
	case AST_DEL:
		r->why = arena_printf(s->a, "'%s' is deleted here", name);
		k = R_FAIL;
		break;
	default:
		r->why = arena_printf(s->a, "'%s' is assigned by host code (%s)", name,
				      ast_stmt_what(st));
		k = R_FAIL;
		break;
	}
	t->nactive--;
	return k;
}

/* Searches ctx->blk[0..limit) backward for the statement that last binds name. */
static int resolve_block(sema *s, const lazy_ctx *ctx, const char *name, resolved *r)
{
	for (int i = ctx->limit - 1; i >= 0; i--) {
		int k = resolve_stmt(s, ctx, i, name, r);
		if (k != R_UNBOUND)
			return k;
	}
	return R_UNBOUND;
}

/* Resolves name at ctx: the enclosing blocks from the innermost out. */
static int resolve_in(sema *s, const lazy_ctx *ctx, const char *name, resolved *r)
{
	for (const lazy_ctx *c = ctx; c; c = c->outer) {
		int k = resolve_block(s, c, name, r);
		if (k != R_UNBOUND)
			return k;
	}
	return R_UNBOUND;
}

/* ---- the entry points -------------------------------------------------------------------- */

static _Noreturn void fail_global(sema *s, const char *name, srcloc use, const resolved *r)
{
	diag_error(s->d, use, "'%s' cannot be evaluated at compile time: %s", name,
		   r->why ? r->why : "unknown reason");
	diag_note(s->d, r->def, "'%s' is defined here", name);
	longjmp(*s->fail, 1);
}

bool sema_module_global(sema *s, sema_pymod *m, const char *name, srcloc use, sval *out)
{
	if (!m || !m->ast)
		return false;
	sema_global_entry *e = NULL;
	for (int i = 0; i < m->ncache; i++)
		if (m->cache[i].name == name)
			e = &m->cache[i];
	if (!e) {
		if (m->ncache == m->capcache) {
			int cap = m->capcache ? m->capcache * 2 : 16;
			sema_global_entry *nc = ARENA_NEWN(s->a, sema_global_entry, cap);
			if (!nc)
				sema_fail(s, use, "out of memory");
			if (m->ncache)
				memcpy(nc, m->cache, sizeof *nc * (size_t)m->ncache);
			m->cache = nc;
			m->capcache = cap;
		}
		e = &m->cache[m->ncache++];
		*e = (sema_global_entry){.name = name, .state = G_EVALUATING};
		lazy_ctx top = {&m->ast->body, m->ast->body.n, NULL, m};
		resolved r = {0};
		int k = resolve_in(s, &top, name, &r);
		/* the cache may have moved while resolving */
		for (int i = 0; i < m->ncache; i++)
			if (m->cache[i].name == name)
				e = &m->cache[i];
		e->state = k == R_OK ? G_OK : k == R_FAIL ? G_FAIL : G_UNBOUND;
		e->v = r.v;
		e->def = r.def;
		e->why = r.why;
	}
	switch (e->state) {
	case G_OK:
		*out = e->v;
		return true;
	case G_UNBOUND:
		return false;
	case G_EVALUATING: {
		resolved r = {.def = use, .why = "its definition depends on itself"};
		fail_global(s, name, use, &r);
	}
	default: {
		resolved r = {.def = e->def, .why = e->why};
		fail_global(s, name, use, &r);
	}
	}
}

bool sema_lazy_lookup(sema *s, const char *name, srcloc use, sval *out)
{
	resolved r = {0};
	int k = resolve_in(s, s->lazy, name, &r);
	if (k == R_OK) {
		*out = r.v;
		return true;
	}
	if (k == R_FAIL)
		sema_fail(s, use, "'%s' cannot be evaluated at compile time: %s", name, r.why);
	return false;
}

sval sema_pymod_attr(sema *s, sema_pymod *m, const char *name, srcloc loc)
{
	sval v;
	if (sema_module_global(s, m, name, loc, &v))
		return v;
	sema_pymod *sm = find_module(s, arena_printf(s->a, "%s.%s", m->name, name));
	if (sm->ast)
		return (sval){.kind = SV_PYMOD, .pymod = sm};
	sema_fail(s, loc, "module '%s' has no attribute '%s'", m->name, name);
}
