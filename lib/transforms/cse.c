/* cse.c: common subexpression elimination. A pure op without regions that repeats an
 * earlier op (same opcode, operands, attributes and result types) in the same block or an
 * enclosing one is replaced by the earlier op's results. Scopes follow the region tree, so
 * a value computed inside a loop body is never reused outside it.
 *
 * The ops available at a point sit in a hash table (chained, keyed by a hash of the opcode,
 * operands, attributes and result types); leaving a block takes its entries out again, and
 * since equal ops are never both entered, those are always the heads of their chains. With
 * use lists for the replacement the pass is linear in the function's size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/vec.h"
#include "transforms/pass.h"

typedef struct avail {
	uint64_t hash;
	ir_op *op;
	size_t next; /* the chain's next entry + 1; 0 ends it */
} avail;

/* The scoped table: entries in the order entered, chains through them from buckets. */
typedef struct availtab {
	VEC(avail) entries;
	size_t *buckets; /* entry + 1; 0: empty */
	size_t nbuckets; /* a power of two */
} availtab;

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static bool attr_equal(const ir_attr *a, const ir_attr *b)
{
	if (a->name != b->name || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case IR_ATTR_INT:
	case IR_ATTR_BOOL: return a->i == b->i;
	case IR_ATTR_FLOAT: return memcmp(&a->f, &b->f, sizeof a->f) == 0;
	case IR_ATTR_STR: return a->s == b->s || !strcmp(a->s, b->s);
	case IR_ATTR_TYPE: return a->type == b->type;
	case IR_ATTR_INTS:
		return a->ints.n == b->ints.n &&
		       !memcmp(a->ints.v, b->ints.v, sizeof(int64_t) * (size_t)a->ints.n);
	}
	return false;
}

static uint64_t op_hash(const ir_op *op)
{
	uint64_t h = mix(0, (uint64_t)op->code);
	for (int i = 0; i < op->noperands; i++)
		h = mix(h, (uint64_t)(uintptr_t)op->operands[i]);
	for (int i = 0; i < op->nresults; i++)
		h = mix(h, (uint64_t)(uintptr_t)op->results[i].type);
	for (int i = 0; i < op->nattrs; i++) {
		const ir_attr *a = &op->attrs[i];
		h = mix(h, (uint64_t)(uintptr_t)a->name);
		switch (a->kind) {
		case IR_ATTR_INT:
		case IR_ATTR_BOOL: h = mix(h, (uint64_t)a->i); break;
		case IR_ATTR_FLOAT: {
			uint64_t bits;
			memcpy(&bits, &a->f, sizeof bits);
			h = mix(h, bits);
			break;
		}
		case IR_ATTR_STR:
			for (const char *c = a->s; c && *c; c++)
				h = mix(h, (uint64_t)(unsigned char)*c);
			break;
		case IR_ATTR_INTS:
			for (int k = 0; k < a->ints.n; k++)
				h = mix(h, (uint64_t)a->ints.v[k]);
			break;
		case IR_ATTR_TYPE: h = mix(h, (uint64_t)(uintptr_t)a->type); break;
		}
	}
	return h;
}

static bool op_equal(const ir_op *a, const ir_op *b)
{
	if (a->code != b->code || a->noperands != b->noperands || a->nresults != b->nresults ||
	    a->nattrs != b->nattrs)
		return false;
	for (int i = 0; i < a->noperands; i++)
		if (a->operands[i] != b->operands[i])
			return false;
	for (int i = 0; i < a->nresults; i++)
		if (a->results[i].type != b->results[i].type)
			return false;
	for (int i = 0; i < a->nattrs; i++)
		if (!attr_equal(&a->attrs[i], &b->attrs[i]))
			return false;
	return true;
}

static ir_op *tab_find(const availtab *t, uint64_t h, const ir_op *op)
{
	if (!t->nbuckets)
		return NULL;
	for (size_t e = t->buckets[h & (t->nbuckets - 1)]; e; e = t->entries.data[e - 1].next)
		if (t->entries.data[e - 1].hash == h && op_equal(t->entries.data[e - 1].op, op))
			return t->entries.data[e - 1].op;
	return NULL;
}

/* Rebuilds the chains over nb buckets, entries in order (so later ones head them). */
static bool tab_rehash(availtab *t, size_t nb)
{
	size_t *b = calloc(nb, sizeof *b);
	if (!b)
		return false;
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = nb;
	for (size_t i = 0; i < t->entries.len; i++) {
		avail *a = &t->entries.data[i];
		a->next = b[a->hash & (nb - 1)];
		b[a->hash & (nb - 1)] = i + 1;
	}
	return true;
}

static void tab_add(availtab *t, uint64_t h, ir_op *op)
{
	if (2 * (t->entries.len + 1) > t->nbuckets &&
	    !tab_rehash(t, t->nbuckets ? 2 * t->nbuckets : 256))
		return; /* out of memory: op is not offered for reuse */
	size_t before = t->entries.len;
	vec_push(&t->entries, ((avail){h, op, t->buckets[h & (t->nbuckets - 1)]}));
	if (t->entries.len > before)
		t->buckets[h & (t->nbuckets - 1)] = t->entries.len;
}

/* Takes out the entries entered after the first `mark`, latest first. */
static void tab_truncate(availtab *t, size_t mark)
{
	while (t->entries.len > mark) {
		avail *a = &t->entries.data[t->entries.len - 1];
		t->buckets[a->hash & (t->nbuckets - 1)] = a->next;
		t->entries.len--;
	}
}

static int cse_block(ir_block *b, availtab *av)
{
	int n = 0;
	size_t mark = av->entries.len;
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			n += cse_block(op->regions[r], av);
		unsigned tr = ir_ops[op->code].traits;
		if (!(tr & T_PURE) || op->nregions || (tr & T_TERMINATOR))
			continue;
		uint64_t h = op_hash(op);
		ir_op *same = tab_find(av, h, op);
		if (same) {
			for (int i = 0; i < op->nresults; i++) {
				ir_replace_all_uses(&op->results[i], &same->results[i]);
				if (!same->results[i].name)
					same->results[i].name = op->results[i].name;
			}
			ir_op_erase(op);
			n++;
		} else {
			tab_add(av, h, op);
		}
	}
	tab_truncate(av, mark);
	return n;
}

int pass_cse(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		availtab av = {0};
		cse_block(f->body, &av);
		vec_free(&av.entries);
		free(av.buckets);
	}
	return 0;
}
