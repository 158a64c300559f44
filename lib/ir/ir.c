/* ir.c: the op table, construction of ops, blocks, functions and modules, attributes and
 * the builder.
 *
 * Everything is allocated from the context's arena. Arrays that grow (block arguments,
 * attributes) are reallocated in the arena: the old copy is abandoned, which costs at most
 * the size of the final array again. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

const ir_opinfo ir_ops[IR_NUM_OPS] = {
#define OP(e, s, no, nr, ng, tr, rule) [IR_OP_##e] = {s, no, nr, ng, tr, rule},
#include "tile/ops.def"
#define OP(e, s, no, nr, ng, tr, rule) [IR_OP_##e] = {s, no, nr, ng, tr, rule},
#include "gpu/ops.def"
};

int ir_opcode_from_name(const char *name)
{
	for (int i = 0; i < IR_NUM_OPS; i++)
		if (strcmp(ir_ops[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- pointer map ------------------------------------------------------------------------ */

struct ir_ptrmap_slot {
	const void *key;
	void *val;
};

/* The splitmix64 finaliser: every bit of the address reaches the low bits the table
 * uses. (A multiply alone leaves the low bits of arena addresses, which share their
 * stride, to the low bits of the address: long probe runs in big functions.) */
static size_t ptr_hash(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;
	h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9u;
	h = (h ^ (h >> 27)) * 0x94D049BB133111EBu;
	return (size_t)(h ^ (h >> 31));
}

void *ir_ptrmap_get(const ir_ptrmap *m, const void *key)
{
	if (!m->cap)
		return NULL;
	for (size_t j = ptr_hash(key) & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
		if (!m->slots[j].key)
			return NULL;
		if (m->slots[j].key == key)
			return m->slots[j].val;
	}
}

/* Erased entries keep their key with a NULL value, so probing chains stay intact. */
bool ir_ptrmap_put(ir_ptrmap *m, const void *key, void *val)
{
	if (2 * (m->len + 1) > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		struct ir_ptrmap_slot *n = calloc(cap, sizeof *n);
		if (!n)
			return false;
		size_t len = 0;
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->slots[i].key || !m->slots[i].val)
				continue;
			size_t j = ptr_hash(m->slots[i].key) & (cap - 1);
			while (n[j].key)
				j = (j + 1) & (cap - 1);
			n[j] = m->slots[i];
			len++;
		}
		free(m->slots);
		m->slots = n;
		m->cap = cap;
		m->len = len;
	}
	size_t j = ptr_hash(key) & (m->cap - 1);
	while (m->slots[j].key && m->slots[j].key != key)
		j = (j + 1) & (m->cap - 1);
	if (!m->slots[j].key) {
		m->slots[j].key = key;
		m->len++;
	}
	m->slots[j].val = val;
	return true;
}

void ir_ptrmap_free(ir_ptrmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->len = 0;
}

/* ---- construction ----------------------------------------------------------------------- */

ir_module *ir_module_create(ir_context *c)
{
	ir_module *m = ARENA_NEW(ir_arena(c), ir_module);
	if (m)
		m->ctx = c;
	return m;
}

static ir_block *block_create(ir_context *c)
{
	return ARENA_NEW(ir_arena(c), ir_block);
}

ir_func *ir_func_create(ir_module *m, const char *name, int nparams, const ir_type *const *types,
			const char *const *names, srcloc loc)
{
	ir_context *c = m->ctx;
	arena *a = ir_arena(c);
	ir_func *f = ARENA_NEW(a, ir_func);
	if (!f || !(f->body = block_create(c)))
		return NULL;
	f->name = strtab_cstr(ir_names(c), name);
	f->loc = loc;
	f->module = m;
	f->body->func = f;
	f->params = ARENA_NEWN(a, ir_param_info, nparams > 0 ? nparams : 1);
	if (!f->params)
		return NULL;
	for (int i = 0; i < nparams; i++) {
		const char *n = names && names[i] ? names[i] : NULL;
		ir_value *v = ir_block_add_arg(c, f->body, types[i], n);
		if (!v)
			return NULL;
		f->params[i].divisibility = 1;
		f->params[i].name = v->name;
	}
	if (m->last)
		m->last->next = f;
	else
		m->funcs = f;
	m->last = f;
	return f;
}

ir_op *ir_op_create(ir_context *c, ir_opcode code, int noperands, ir_value *const *operands,
		    int nresults, const ir_type *const *result_types, srcloc loc)
{
	arena *a = ir_arena(c);
	ir_op *op = ARENA_NEW(a, ir_op);
	if (!op)
		return NULL;
	op->code = code;
	op->loc = loc;
	op->noperands = noperands > 0 ? noperands : 0;
	op->nresults = nresults > 0 ? nresults : 0;
	op->nregions = ir_ops[code].nregions;
	if (op->noperands && (!(op->operands = ARENA_NEWN(a, ir_value *, op->noperands)) ||
			      !(op->uses = ARENA_NEWN(a, ir_use, op->noperands))))
		return NULL;
	for (int i = 0; i < op->noperands; i++) {
		op->uses[i].user = op;
		op->uses[i].index = i;
		if (operands)
			ir_op_set_operand(op, i, operands[i]);
	}
	if (op->nresults && !(op->results = ARENA_NEWN(a, ir_value, op->nresults)))
		return NULL;
	for (int i = 0; i < op->nresults; i++) {
		op->results[i].def = op;
		op->results[i].index = i;
		op->results[i].type = result_types ? result_types[i] : NULL;
	}
	if (op->nregions && !(op->regions = ARENA_NEWN(a, ir_block *, op->nregions)))
		return NULL;
	for (int i = 0; i < op->nregions; i++) {
		if (!(op->regions[i] = block_create(c)))
			return NULL;
		op->regions[i]->parent = op;
	}
	return op;
}

void ir_block_insert_before(ir_block *b, ir_op *before, ir_op *op)
{
	op->parent = b;
	op->next = before;
	op->prev = before ? before->prev : b->last;
	if (op->prev)
		op->prev->next = op;
	else
		b->first = op;
	if (before)
		before->prev = op;
	else
		b->last = op;
}

void ir_block_append(ir_block *b, ir_op *op)
{
	ir_block_insert_before(b, NULL, op);
}

void ir_op_remove(ir_op *op)
{
	ir_block *b = op->parent;
	if (!b)
		return;
	if (op->prev)
		op->prev->next = op->next;
	else
		b->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		b->last = op->prev;
	op->prev = op->next = NULL;
	op->parent = NULL;
}

ir_value *ir_block_add_arg(ir_context *c, ir_block *b, const ir_type *t, const char *name)
{
	arena *a = ir_arena(c);
	if (b->nargs == b->capargs) {
		int cap = b->capargs ? b->capargs * 2 : 4;
		ir_value **n = ARENA_NEWN(a, ir_value *, cap);
		if (!n)
			return NULL;
		if (b->nargs)
			memcpy(n, b->args, sizeof(ir_value *) * (size_t)b->nargs);
		b->args = n;
		b->capargs = cap;
	}
	ir_value *v = ARENA_NEW(a, ir_value);
	if (!v)
		return NULL;
	v->type = t;
	v->block = b;
	v->index = b->nargs;
	v->name = name && *name ? strtab_cstr(ir_names(c), name) : NULL;
	b->args[b->nargs++] = v;
	return v;
}

static void use_unlink(ir_use *u)
{
	if (!u->value)
		return;
	if (u->prev)
		u->prev->next = u->next;
	else
		u->value->uses = u->next;
	if (u->next)
		u->next->prev = u->prev;
	u->prev = u->next = NULL;
	u->value = NULL;
}

static void use_link(ir_use *u, ir_value *v)
{
	u->value = v;
	u->prev = NULL;
	u->next = v ? v->uses : NULL;
	if (!v)
		return;
	if (v->uses)
		v->uses->prev = u;
	v->uses = u;
}

void ir_op_set_operand(ir_op *op, int i, ir_value *v)
{
	if (i < 0 || i >= op->noperands || op->operands[i] == v)
		return;
	use_unlink(&op->uses[i]);
	op->operands[i] = v;
	use_link(&op->uses[i], v);
}

bool ir_op_is_inside(const ir_op *op, const ir_block *b)
{
	for (const ir_block *p = op->parent; p; p = p->parent ? p->parent->parent : NULL)
		if (p == b)
			return true;
	return false;
}

void ir_replace_uses_in(ir_block *b, ir_value *from, ir_value *to)
{
	if (from == to)
		return;
	for (ir_use *u = from->uses, *next; u; u = next) {
		next = u->next;
		if (ir_op_is_inside(u->user, b))
			ir_op_set_operand(u->user, u->index, to);
	}
}

void ir_replace_all_uses(ir_value *from, ir_value *to)
{
	if (from == to)
		return;
	while (from->uses)
		ir_op_set_operand(from->uses->user, from->uses->index, to);
}

int ir_value_num_uses(const ir_value *v)
{
	int n = 0;
	for (const ir_use *u = v->uses; u; u = u->next)
		n++;
	return n;
}

bool ir_op_has_uses(const ir_op *op)
{
	for (int i = 0; i < op->nresults; i++)
		if (op->results[i].uses)
			return true;
	return false;
}

/* Drops the operand uses of op and of everything nested in it. */
static void drop_uses(ir_op *op)
{
	for (int i = 0; i < op->noperands; i++)
		use_unlink(&op->uses[i]); /* operands[] stays readable for the caller */
	for (int r = 0; r < op->nregions; r++)
		for (ir_op *o = op->regions[r]->first; o; o = o->next)
			drop_uses(o);
}

void ir_op_erase(ir_op *op)
{
	ir_op_remove(op);
	drop_uses(op);
}

/* ---- attributes ------------------------------------------------------------------------- */

/* Inserts or replaces *a in the sorted array (*attrs, *n, *cap). */
static void attrs_set(ir_context *c, ir_attr **attrs, int *n, int *cap, const ir_attr *a)
{
	ir_attr copy = *a;
	copy.name = strtab_cstr(ir_names(c), a->name);
	if (!copy.name)
		return;
	if (copy.kind == IR_ATTR_INTS) {
		int64_t *v = ARENA_NEWN(ir_arena(c), int64_t, a->ints.n > 0 ? a->ints.n : 1);
		if (!v)
			return;
		if (a->ints.n > 0)
			memcpy(v, a->ints.v, sizeof(int64_t) * (size_t)a->ints.n);
		copy.ints.v = v;
		copy.ints.n = a->ints.n > 0 ? a->ints.n : 0;
	} else if (copy.kind == IR_ATTR_STR) {
		copy.s = strtab_cstr(ir_names(c), a->s ? a->s : "");
	}
	int i = 0;
	while (i < *n && strcmp((*attrs)[i].name, copy.name) < 0)
		i++;
	if (i < *n && (*attrs)[i].name == copy.name) {
		(*attrs)[i] = copy;
		return;
	}
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 4;
		ir_attr *na = ARENA_NEWN(ir_arena(c), ir_attr, nc);
		if (!na)
			return;
		if (*n)
			memcpy(na, *attrs, sizeof(ir_attr) * (size_t)*n);
		*attrs = na;
		*cap = nc;
	}
	memmove(*attrs + i + 1, *attrs + i, sizeof(ir_attr) * (size_t)(*n - i));
	(*attrs)[i] = copy;
	(*n)++;
}

static const ir_attr *attrs_find(const ir_attr *attrs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(attrs[i].name, name) == 0)
			return &attrs[i];
	return NULL;
}

void ir_op_set_attr(ir_context *c, ir_op *op, const ir_attr *a)
{
	attrs_set(c, &op->attrs, &op->nattrs, &op->capattrs, a);
}

void ir_func_set_attr(ir_context *c, ir_func *f, const ir_attr *a)
{
	attrs_set(c, &f->attrs, &f->nattrs, &f->capattrs, a);
}

void ir_op_set_int(ir_context *c, ir_op *op, const char *name, int64_t v)
{
	ir_op_set_attr(c, op, &(ir_attr){.name = name, .kind = IR_ATTR_INT, .i = v});
}

void ir_op_set_float(ir_context *c, ir_op *op, const char *name, double v)
{
	ir_op_set_attr(c, op, &(ir_attr){.name = name, .kind = IR_ATTR_FLOAT, .f = v});
}

void ir_op_set_bool(ir_context *c, ir_op *op, const char *name, bool v)
{
	ir_op_set_attr(c, op, &(ir_attr){.name = name, .kind = IR_ATTR_BOOL, .i = v});
}

void ir_op_set_str(ir_context *c, ir_op *op, const char *name, const char *v)
{
	ir_op_set_attr(c, op, &(ir_attr){.name = name, .kind = IR_ATTR_STR, .s = v});
}

void ir_op_set_ints(ir_context *c, ir_op *op, const char *name, const int64_t *v, int n)
{
	ir_attr a = {.name = name, .kind = IR_ATTR_INTS};
	a.ints.v = v;
	a.ints.n = n;
	ir_op_set_attr(c, op, &a);
}

void ir_op_set_type(ir_context *c, ir_op *op, const char *name, const ir_type *t)
{
	ir_op_set_attr(c, op, &(ir_attr){.name = name, .kind = IR_ATTR_TYPE, .type = t});
}

const ir_attr *ir_op_attr(const ir_op *op, const char *name)
{
	return attrs_find(op->attrs, op->nattrs, name);
}

int64_t ir_op_int(const ir_op *op, const char *name, int64_t dflt)
{
	const ir_attr *a = ir_op_attr(op, name);
	return a && (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL) ? a->i : dflt;
}

void ir_func_set_int(ir_context *c, ir_func *f, const char *name, int64_t v)
{
	ir_func_set_attr(c, f, &(ir_attr){.name = name, .kind = IR_ATTR_INT, .i = v});
}

const ir_attr *ir_func_attr(const ir_func *f, const char *name)
{
	return attrs_find(f->attrs, f->nattrs, name);
}

/* ---- builder ---------------------------------------------------------------------------- */

ir_op *ir_build(ir_builder *b, ir_opcode code, int noperands, ir_value *const *operands,
		int nresults, const ir_type *const *result_types)
{
	ir_op *op = ir_op_create(b->ctx, code, noperands, operands, nresults, result_types, b->loc);
	if (op && b->block)
		ir_block_insert_before(b->block, b->before, op);
	return op;
}

static ir_value *build_one(ir_builder *b, ir_opcode code, const ir_type *t, int n,
			   ir_value *const *ops)
{
	ir_op *op = ir_build(b, code, n, ops, 1, &t);
	return op ? &op->results[0] : NULL;
}

ir_value *ir_build0(ir_builder *b, ir_opcode code, const ir_type *t)
{
	return build_one(b, code, t, 0, NULL);
}

ir_value *ir_build1(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a)
{
	return build_one(b, code, t, 1, &a);
}

ir_value *ir_build2(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a, ir_value *c)
{
	ir_value *ops[2] = {a, c};
	return build_one(b, code, t, 2, ops);
}

ir_value *ir_build3(ir_builder *b, ir_opcode code, const ir_type *t, ir_value *a, ir_value *c,
		    ir_value *d)
{
	ir_value *ops[3] = {a, c, d};
	return build_one(b, code, t, 3, ops);
}

ir_value *ir_const_int(ir_builder *b, const ir_type *t, int64_t v)
{
	ir_value *r = ir_build0(b, IR_OP_CONSTANT, t);
	if (r)
		ir_op_set_int(b->ctx, r->def, "value", v);
	return r;
}

ir_value *ir_const_float(ir_builder *b, const ir_type *t, double v)
{
	ir_value *r = ir_build0(b, IR_OP_CONSTANT, t);
	if (r)
		ir_op_set_float(b->ctx, r->def, "value", v);
	return r;
}
