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
 * kernel reaches, not on the size of the host code around it (which is only parsed, and
 * indexed once: the binding index below makes each lookup visit only the statements that
 * bind its name).
 *
 * Imports resolve like Python's on a search path: the kernel file's directory, its
 * package root (the directory above the outermost directory with an __init__.py), the
 * -I directories, then TILECC_PATH. A module is pkg/mod.py or pkg/mod/__init__.py, read
 * and parsed once per compilation. triton, triton.language and its submodules, math and
 * a compile-time torch (dtypes, finfo, iinfo) are tilecc's own (sema_module_id); other
 * triton modules are host-only. */
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

/* a hash map of pointer pairs to ints (pairmap_find/pairmap_put, below) */
typedef struct pairmap {
	struct pairmap_slot *slots;
	int n, cap;
} pairmap;

struct sema_modtab {
	sema_pymod **v;
	int n, cap;
	const char **dirs; /* the search path */
	int ndirs;
	const ast_stmt *active[64]; /* statements being evaluated, for cycles */
	int nactive;
	pairmap index;  /* (block, name) -> its binding statements, lists[v] ("the binding
			 * index", below) */
	struct bind_list **lists;
	int nlists, caplists;
	pairmap cached; /* (module, name) -> index in the module's cache */
};

/* A hash map from a pair of pointers (a block or module, an interned name) to an int:
 * open addressing, linear probing, grown at half full, in the compilation's arena. */
typedef struct pairmap_slot {
	const void *a;
	const void *b;
	int v;
} pairmap_slot;

static uint64_t pair_hash(const void *a, const void *b)
{
	uint64_t h = (uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)(uintptr_t)b + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
	return h ^ (h >> 29);
}

static int *pairmap_find(pairmap *m, const void *a, const void *b)
{
	if (!m->cap)
		return NULL;
	for (size_t i = pair_hash(a, b) & (size_t)(m->cap - 1);; i = (i + 1) & (size_t)(m->cap - 1)) {
		pairmap_slot *sl = &m->slots[i];
		if (!sl->a)
			return NULL;
		if (sl->a == a && sl->b == b)
			return &sl->v;
	}
}

static void pairmap_put(sema *s, pairmap *m, const void *a, const void *b, int v)
{
	if (2 * (m->n + 1) > m->cap) {
		int cap = m->cap ? 2 * m->cap : 64;
		pairmap_slot *old = m->slots;
		int oldcap = m->cap;
		m->slots = ARENA_NEWN(s->a, pairmap_slot, cap);
		if (!m->slots)
			sema_fail(s, s->b.loc, "out of memory");
		memset(m->slots, 0, sizeof *m->slots * (size_t)cap);
		m->cap = cap;
		m->n = 0;
		for (int i = 0; i < oldcap; i++)
			if (old[i].a)
				pairmap_put(s, m, old[i].a, old[i].b, old[i].v);
	}
	size_t i = pair_hash(a, b) & (size_t)(m->cap - 1);
	while (m->slots[i].a && !(m->slots[i].a == a && m->slots[i].b == b))
		i = (i + 1) & (size_t)(m->cap - 1);
	if (!m->slots[i].a)
		m->n++;
	m->slots[i] = (pairmap_slot){a, b, v};
}

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
	return sema_find_decorator(fn, "jit") != NULL;
}

bool sema_is_constexpr_fn(const ast_func *fn)
{
	for (int k = 0; k < fn->ndecorators; k++) {
		const ast_expr *d = fn->decorators[k];
		const char *n = d->kind == AST_NAME ? d->name : d->kind == AST_ATTR ? d->attr.name : NULL;
		if (n && (!strcmp(n, "constexpr") || !strcmp(n, "constexpr_function")))
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

/* ---- the binding index ----------------------------------------------------------------
 *
 * A lookup must not cost time in proportion to the host code around a kernel (20 000 lines
 * of it are common). So each block that lookups reach (the module's top level, and the
 * bodies of module-level if/try/with/... they descend into) is indexed once, on first use:
 * for every name, the ascending indices of the statements that bind it (stmt_binds), and
 * apart, those of star imports, which may bind any name. A lookup then visits only the
 * statements that bind its name, and block_binds is a constant-time question. */

typedef struct bind_list {
	int *v;
	int n, cap;
} bind_list;

/* the keys of a block's own entries beside its names */
static const char index_star[] = "*", index_done[] = "indexed";

static void list_add(sema *s, bind_list *l, int i)
{
	if (l->n && l->v[l->n - 1] == i)
		return; /* a statement binding the name twice */
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 4;
		int *v = ARENA_NEWN(s->a, int, cap);
		if (!v)
			sema_fail(s, s->b.loc, "out of memory");
		if (l->n)
			memcpy(v, l->v, sizeof *v * (size_t)l->n);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = i;
}

typedef struct index_builder {
	sema *s;
	const ast_block *blk;
	int stmt; /* the top statement of blk being indexed */
} index_builder;

static bind_list *index_list(index_builder *ib, const void *key, bool make)
{
	struct sema_modtab *t = ib->s->mods;
	int *slot = pairmap_find(&t->index, ib->blk, key);
	if (slot)
		return t->lists[*slot];
	if (!make)
		return NULL;
	if (t->nlists == t->caplists) {
		int cap = t->caplists ? 2 * t->caplists : 64;
		bind_list **v = ARENA_NEWN(ib->s->a, bind_list *, cap);
		if (!v)
			sema_fail(ib->s, ib->s->b.loc, "out of memory");
		if (t->nlists)
			memcpy(v, t->lists, sizeof *v * (size_t)t->nlists);
		t->lists = v;
		t->caplists = cap;
	}
	bind_list *l = ARENA_NEW(ib->s->a, bind_list);
	if (!l)
		sema_fail(ib->s, ib->s->b.loc, "out of memory");
	*l = (bind_list){0};
	t->lists[t->nlists] = l;
	pairmap_put(ib->s, &t->index, ib->blk, key, t->nlists++);
	return l;
}

static void index_name(index_builder *ib, const char *name)
{
	list_add(ib->s, index_list(ib, name, true), ib->stmt);
}

static void index_target(index_builder *ib, const ast_expr *t)
{
	switch (t->kind) {
	case AST_NAME: index_name(ib, t->name); return;
	case AST_STARRED: index_target(ib, t->wrap.value); return;
	case AST_TUPLE:
	case AST_LIST:
		for (int i = 0; i < t->seq.n; i++)
			index_target(ib, t->seq.items[i]);
		return;
	default: return;
	}
}

static void index_block(index_builder *ib, const ast_block *b);

/* The names st binds, exactly those for which stmt_binds(st, name) holds (keep the two in
 * step), with a star import as the key index_star. */
static void index_stmt(index_builder *ib, const ast_stmt *st)
{
	switch (st->kind) {
	case AST_ASSIGN:
		for (int k = 0; k < st->assign.ntargets; k++)
			index_target(ib, st->assign.targets[k]);
		return;
	case AST_ANNASSIGN:
		if (st->ann.value)
			index_target(ib, st->ann.target);
		return;
	case AST_AUGASSIGN: index_target(ib, st->aug.target); return;
	case AST_FUNCDEF: index_name(ib, st->func->name); return;
	case AST_CLASS: index_name(ib, st->cls->name); return;
	case AST_IMPORT:
	case AST_IMPORTFROM:
		if (st->import.star) {
			list_add(ib->s, index_list(ib, index_star, true), ib->stmt);
			return;
		}
		for (int i = 0; i < st->import.n; i++)
			index_name(ib, alias_binds(ib->s, st, &st->import.names[i]));
		return;
	case AST_IF:
		index_block(ib, &st->if_.then);
		index_block(ib, &st->if_.els);
		return;
	case AST_TRY:
		index_block(ib, &st->try_.body);
		index_block(ib, &st->try_.orelse);
		index_block(ib, &st->try_.finalbody);
		for (int i = 0; i < st->try_.nhandlers; i++) {
			if (st->try_.handlers[i].name)
				index_name(ib, st->try_.handlers[i].name);
			index_block(ib, &st->try_.handlers[i].body);
		}
		return;
	case AST_WITH:
		for (int i = 0; i < st->with_.nitems; i++)
			if (st->with_.items[i].target)
				index_target(ib, st->with_.items[i].target);
		index_block(ib, &st->with_.body);
		return;
	case AST_FOR:
		index_target(ib, st->for_.target);
		index_block(ib, &st->for_.body);
		index_block(ib, &st->for_.els);
		return;
	case AST_WHILE:
		index_block(ib, &st->while_.body);
		index_block(ib, &st->while_.els);
		return;
	case AST_MATCH:
		for (int i = 0; i < st->match.ncases; i++)
			index_block(ib, &st->match.cases[i].body);
		return;
	case AST_DEL:
		for (int i = 0; i < st->del.n; i++)
			index_target(ib, st->del.targets[i]);
		return;
	case AST_TYPEALIAS: index_name(ib, st->alias.name->name); return;
	default: return;
	}
}

static void index_block(index_builder *ib, const ast_block *b)
{
	for (int i = 0; i < b->n; i++)
		index_stmt(ib, b->stmts[i]);
}

/* The index of b, built on first use: the statements of b binding name (NULL: none), and
 * b's star imports (NULL: none). */
static void block_index(sema *s, const ast_block *b, const char *name, const bind_list **named,
			const bind_list **star)
{
	struct sema_modtab *t = s->mods;
	index_builder ib = {.s = s, .blk = b};
	if (!pairmap_find(&t->index, b, index_done)) {
		pairmap_put(s, &t->index, b, index_done, -1);
		for (int i = 0; i < b->n; i++) {
			ib.stmt = i;
			index_stmt(&ib, b->stmts[i]);
		}
	}
	*named = NULL;
	*star = NULL;
	int *k = pairmap_find(&t->index, b, name);
	if (k)
		*named = t->lists[*k];
	k = pairmap_find(&t->index, b, index_star);
	if (k)
		*star = t->lists[*k];
}

static bool block_binds(sema *s, const ast_block *b, const char *name)
{
	const bind_list *named, *star;
	block_index(s, b, name, &named, &star);
	return named || star;
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
	    {"triton.language.standard", MOD_TL_STANDARD},
	    {"triton.language.math", MOD_TL_MATH},
	    {"triton.language.extra", MOD_TL_EXTRA},
	    {"triton.language.extra.libdevice", MOD_TL_MATH},
	    {"triton.language.extra.cuda", MOD_TL_EXTRA_VENDOR},
	    {"triton.language.extra.hip", MOD_TL_EXTRA_VENDOR},
	    {"triton.language.extra.cuda.libdevice", MOD_TL_MATH},
	    {"triton.language.extra.hip.libdevice", MOD_TL_MATH},
	    {"math", MOD_MATH},
	    {"torch", MOD_TORCH}, /* only its dtypes, finfo and iinfo (sema_torch.c) */
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
		/* a plain Python function is kept in the failure too: compile-time Python
		 * functions may call it (sema_module_global) */
		r->v = (sval){.kind = SV_JITFN, .fn = st->func};
		if (sema_is_jit(st->func) || sema_is_constexpr_fn(st->func)) {
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

/* The position in l (ascending) of the last entry below limit, or -1. */
static int last_below(const bind_list *l, int limit)
{
	int lo = 0, hi = l ? l->n : 0; /* the first entry >= limit is in [lo, hi] */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (l->v[mid] < limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* Searches ctx->blk[0..limit) backward for the statement that last binds name: only the
 * statements the block's index lists for name, and its star imports, in descending order. */
static int resolve_block(sema *s, const lazy_ctx *ctx, const char *name, resolved *r)
{
	const bind_list *named, *star;
	block_index(s, ctx->blk, name, &named, &star);
	int a = last_below(named, ctx->limit), b = last_below(star, ctx->limit);
	while (a >= 0 || b >= 0) {
		int i;
		if (b < 0 || (a >= 0 && named->v[a] > star->v[b]))
			i = named->v[a--];
		else
			i = star->v[b--];
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
	struct sema_modtab *t = s->mods;
	int *ci = pairmap_find(&t->cached, m, name);
	if (ci)
		e = &m->cache[*ci];
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
		int at = m->ncache++;
		pairmap_put(s, &t->cached, m, name, at);
		e = &m->cache[at];
		*e = (sema_global_entry){.name = name, .state = G_EVALUATING};
		lazy_ctx top = {&m->ast->body, m->ast->body.n, NULL, m};
		resolved r = {0};
		int k = resolve_in(s, &top, name, &r);
		/* the cache may have moved while resolving */
		e = &m->cache[at];
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
		/* inside a compile-time Python function, plain Python functions are callable (a
		 * @tl.constexpr function calling its module's unwrap_if_constexpr) */
		if (s->pyfn_depth > 0 && e->v.kind == SV_JITFN) {
			*out = e->v;
			return true;
		}
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
