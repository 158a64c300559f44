/* cse.c: common subexpression elimination. A pure op without regions that repeats an
 * earlier op (same opcode, operands, attributes and result types) in the same block or an
 * enclosing one is replaced by the earlier op's results. Scopes follow the region tree, so
 * a value computed inside a loop body is never reused outside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/vec.h"
#include "transforms/pass.h"

typedef struct avail {
	uint64_t hash;
	ir_op *op;
} avail;

typedef VEC(avail) availvec;

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
		if (a->kind == IR_ATTR_INT || a->kind == IR_ATTR_BOOL)
			h = mix(h, (uint64_t)a->i);
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

static int cse_block(ir_func *f, ir_block *b, availvec *av)
{
	int n = 0;
	size_t mark = av->len;
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next;
		for (int r = 0; r < op->nregions; r++)
			n += cse_block(f, op->regions[r], av);
		unsigned tr = ir_ops[op->code].traits;
		if (!(tr & T_PURE) || op->nregions || (tr & T_TERMINATOR))
			continue;
		uint64_t h = op_hash(op);
		ir_op *same = NULL;
		for (size_t i = av->len; i-- > 0;)
			if (av->data[i].hash == h && op_equal(av->data[i].op, op)) {
				same = av->data[i].op;
				break;
			}
		if (same) {
			for (int i = 0; i < op->nresults; i++) {
				ir_replace_uses_in(f->body, &op->results[i], &same->results[i]);
				if (!same->results[i].name)
					same->results[i].name = op->results[i].name;
			}
			ir_op_remove(op);
			n++;
		} else {
			vec_push(av, ((avail){h, op}));
		}
	}
	av->len = mark;
	return n;
}

int pass_cse(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		availvec av = {0};
		cse_block(f, f->body, &av);
		vec_free(&av);
	}
	return 0;
}
