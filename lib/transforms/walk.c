/* walk.c: the value set (open addressing over pointers) and use collection. */
#include <stdint.h>
#include <stdlib.h>

#include "transforms/walk.h"

static size_t hash_ptr(const void *p, size_t cap)
{
	uintptr_t x = (uintptr_t)p;
	x ^= x >> 17;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 7) & (cap - 1);
}

static void grow(valset *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	const void **ns = calloc(cap, sizeof(void *));
	if (!ns)
		return; /* the set stays as it was; callers see a miss, never a crash */
	for (size_t i = 0; i < s->cap; i++) {
		if (!s->slots[i])
			continue;
		size_t j = hash_ptr(s->slots[i], cap);
		while (ns[j])
			j = (j + 1) & (cap - 1);
		ns[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = ns;
	s->cap = cap;
}

void valset_add(valset *s, const void *v)
{
	if (2 * (s->len + 1) > s->cap)
		grow(s);
	if (!s->slots || s->len + 1 >= s->cap)
		return; /* out of memory: the set stays as it was */
	size_t j = hash_ptr(v, s->cap);
	while (s->slots[j]) {
		if (s->slots[j] == v)
			return;
		j = (j + 1) & (s->cap - 1);
	}
	s->slots[j] = v;
	s->len++;
}

bool valset_has(const valset *s, const void *v)
{
	if (!s->cap)
		return false;
	size_t j = hash_ptr(v, s->cap);
	while (s->slots[j]) {
		if (s->slots[j] == v)
			return true;
		j = (j + 1) & (s->cap - 1);
	}
	return false;
}

void valset_free(valset *s)
{
	free(s->slots);
	s->slots = NULL;
	s->cap = s->len = 0;
}

void walk_collect_uses(const ir_block *b, valset *used)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->noperands; i++)
			valset_add(used, op->operands[i]);
		for (int r = 0; r < op->nregions; r++)
			walk_collect_uses(op->regions[r], used);
	}
}

int walk_count_uses(const ir_block *b, const ir_value *v)
{
	int n = 0;
	for (const ir_use *u = v->uses; u; u = u->next)
		n += ir_op_is_inside(u->user, b);
	return n;
}
