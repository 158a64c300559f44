/* type.c: the IR context and its hash-consed types.
 *
 * Every type is interned in the context: ir_type_ptr and ir_type_tile return the one record
 * for a given structure, so types compare with ==. Scalars are created up front; pointers
 * and tiles live in an open-addressing table keyed by their structure. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

struct ir_context {
	arena *a;
	strtab *names;
	diag_engine *diag;
	ir_type scalars[IR_PTR];
	const ir_type **slots; /* hash set of pointer and tile types, from the arena */
	size_t cap, len;
};

/* Column order follows ir_type_kind. */
static const struct {
	const char *name;
	int bits;
} scalar_info[IR_PTR] = {
	[IR_I1] = {"i1", 1},	     [IR_I8] = {"i8", 8},	[IR_I16] = {"i16", 16},
	[IR_I32] = {"i32", 32},	     [IR_I64] = {"i64", 64},	[IR_U8] = {"u8", 8},
	[IR_U16] = {"u16", 16},	     [IR_U32] = {"u32", 32},	[IR_U64] = {"u64", 64},
	[IR_F8E4NV] = {"f8e4nv", 8}, [IR_F8E5] = {"f8e5", 8},	[IR_F16] = {"f16", 16},
	[IR_BF16] = {"bf16", 16},    [IR_F32] = {"f32", 32},	[IR_F64] = {"f64", 64},
};

ir_context *ir_context_create(arena *a, strtab *names)
{
	ir_context *c = ARENA_NEW(a, ir_context);
	if (!c)
		return NULL;
	c->a = a;
	c->names = names;
	for (int k = 0; k < IR_PTR; k++)
		c->scalars[k].kind = (ir_type_kind)k;
	c->cap = 64;
	c->slots = ARENA_NEWN(a, const ir_type *, c->cap);
	return c->slots ? c : NULL;
}

arena *ir_arena(ir_context *c) { return c->a; }
strtab *ir_names(ir_context *c) { return c->names; }
void ir_context_set_diag(ir_context *c, diag_engine *d) { c->diag = d; }
diag_engine *ir_context_diag(ir_context *c) { return c->diag; }

const ir_type *ir_type_scalar(ir_context *c, ir_type_kind k)
{
	return k >= 0 && k < IR_PTR ? &c->scalars[k] : NULL;
}

static uint64_t hash_type(const ir_type *t)
{
	uint64_t h = 1469598103934665603u;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211u)
	MIX(t->kind);
	MIX((uintptr_t)t->elem);
	MIX(t->addrspace);
	MIX(t->rank);
	for (int i = 0; i < t->rank; i++)
		MIX(t->shape[i]);
	MIX((uintptr_t)t->layout);
#undef MIX
	return h ^ (h >> 29);
}

static bool same_type(const ir_type *a, const ir_type *b)
{
	if (a->kind != b->kind || a->elem != b->elem || a->addrspace != b->addrspace ||
	    a->rank != b->rank || a->layout != b->layout)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return true;
}

static bool grow(ir_context *c)
{
	size_t cap = c->cap * 2;
	const ir_type **n = ARENA_NEWN(c->a, const ir_type *, cap);
	if (!n)
		return false;
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->slots[i])
			continue;
		size_t j = hash_type(c->slots[i]) & (cap - 1);
		while (n[j])
			j = (j + 1) & (cap - 1);
		n[j] = c->slots[i];
	}
	c->slots = n;
	c->cap = cap;
	return true;
}

/* Returns the interned copy of *key, copying it (and its shape) into the arena if new. */
static const ir_type *intern(ir_context *c, const ir_type *key)
{
	if (2 * (c->len + 1) > c->cap && !grow(c))
		return NULL;
	size_t j = hash_type(key) & (c->cap - 1);
	for (; c->slots[j]; j = (j + 1) & (c->cap - 1))
		if (same_type(c->slots[j], key))
			return c->slots[j];
	ir_type *t = ARENA_NEW(c->a, ir_type);
	if (!t)
		return NULL;
	*t = *key;
	if (key->rank) {
		int64_t *s = ARENA_NEWN(c->a, int64_t, key->rank);
		if (!s)
			return NULL;
		memcpy(s, key->shape, sizeof(int64_t) * (size_t)key->rank);
		t->shape = s;
	}
	c->slots[j] = t;
	c->len++;
	return t;
}

const ir_type *ir_type_ptr(ir_context *c, const ir_type *pointee, int addrspace)
{
	if (!pointee)
		return NULL;
	ir_type key = {.kind = IR_PTR, .elem = pointee, .addrspace = addrspace};
	return intern(c, &key);
}

const ir_type *ir_type_tile_layout(ir_context *c, const ir_type *elem, int rank,
				   const int64_t *shape, const char *layout)
{
	if (!elem || elem->kind == IR_TILE || rank < 1)
		return NULL;
	ir_type key = {.kind = IR_TILE, .elem = elem, .rank = rank, .shape = shape};
	if (layout && !(key.layout = strtab_cstr(c->names, layout)))
		return NULL;
	return intern(c, &key);
}

const ir_type *ir_type_tile(ir_context *c, const ir_type *elem, int rank, const int64_t *shape)
{
	return ir_type_tile_layout(c, elem, rank, shape, NULL);
}

const ir_type *ir_type_with_elem(ir_context *c, const ir_type *like, const ir_type *elem)
{
	if (!like || like->kind != IR_TILE)
		return elem;
	return ir_type_tile_layout(c, elem, like->rank, like->shape, like->layout);
}

bool ir_type_is_int(const ir_type *t) { return t && t->kind >= IR_I1 && t->kind <= IR_U64; }
bool ir_type_is_signed(const ir_type *t) { return t && t->kind >= IR_I8 && t->kind <= IR_I64; }
bool ir_type_is_float(const ir_type *t) { return t && t->kind >= IR_F8E4NV && t->kind <= IR_F64; }
bool ir_type_is_scalar(const ir_type *t) { return t && t->kind != IR_TILE; }

int ir_type_bits(const ir_type *t)
{
	if (!t)
		return 0;
	if (t->kind < IR_PTR)
		return scalar_info[t->kind].bits;
	return t->kind == IR_PTR ? 64 : 0;
}

const ir_type *ir_type_elem(const ir_type *t)
{
	return t && t->kind == IR_TILE ? t->elem : t;
}

int64_t ir_type_numel(const ir_type *t)
{
	int64_t n = 1;
	if (t && t->kind == IR_TILE)
		for (int i = 0; i < t->rank; i++)
			n *= t->shape[i];
	return n;
}

const char *ir_type_kind_name(ir_type_kind k)
{
	if (k >= 0 && k < IR_PTR)
		return scalar_info[k].name;
	return k == IR_PTR ? "ptr" : k == IR_TILE ? "tile" : "?";
}

/* type ::= scalar | 'ptr<' type (', ' addrspace)? '>'
 *        | 'tile<' (dim 'x')+ type (', #' layout)? '>' */
void ir_type_print(strbuf *out, const ir_type *t)
{
	if (!t) {
		strbuf_puts(out, "<null>");
		return;
	}
	switch (t->kind) {
	case IR_PTR:
		strbuf_puts(out, "ptr<");
		ir_type_print(out, t->elem);
		if (t->addrspace != 1)
			strbuf_printf(out, ", %d", t->addrspace);
		strbuf_putc(out, '>');
		return;
	case IR_TILE:
		strbuf_puts(out, "tile<");
		for (int i = 0; i < t->rank; i++)
			strbuf_printf(out, "%lldx", (long long)t->shape[i]);
		ir_type_print(out, t->elem);
		if (t->layout)
			strbuf_printf(out, ", #%s", t->layout);
		strbuf_putc(out, '>');
		return;
	default:
		strbuf_puts(out, ir_type_kind_name(t->kind));
	}
}
