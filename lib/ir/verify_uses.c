/* verify_uses.c: checks that the use lists of a function match its operands.
 *
 * Three facts, each reported at the op concerned: every operand slot of an op in the
 * function is linked into the use list of the value it names (and only there); every use in
 * the list of a value defined in the function belongs to an op that is in the function
 * (an op dropped with ir_op_remove instead of ir_op_erase leaves such a use behind); and the
 * lists hold exactly as many uses as the function has operands naming those values. Linear
 * in the function's size. */
#include "ir.h"

#include <stdint.h>

typedef struct use_checker {
	diag_engine *d;
	ir_ptrmap ops;       /* ops of the function */
	ir_ptrmap values;    /* values defined in the function */
	int64_t slots;       /* operand slots naming a value of `values` */
	int64_t nops;
	int errors;
	bool oom;
} use_checker;

static void problem(use_checker *k, const ir_op *op, const char *what, int i)
{
	k->errors++;
	diag_error(k->d, op->loc, "'%s' op operand %d: %s", ir_ops[op->code].name, i, what);
}

static void collect(use_checker *k, const ir_block *b)
{
	for (int i = 0; i < b->nargs; i++)
		k->oom |= !ir_ptrmap_put(&k->values, b->args[i], (void *)b->args[i]);
	for (const ir_op *op = b->first; op; op = op->next) {
		k->nops++;
		k->oom |= !ir_ptrmap_put(&k->ops, op, (void *)op);
		for (int i = 0; i < op->nresults; i++)
			k->oom |= !ir_ptrmap_put(&k->values, &op->results[i], (void *)&op->results[i]);
		for (int r = 0; r < op->nregions; r++)
			collect(k, op->regions[r]);
	}
}

/* The operand slots of the ops in b. */
static void check_slots(use_checker *k, const ir_block *b)
{
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->noperands; i++) {
			const ir_use *u = &op->uses[i];
			const ir_value *v = op->operands[i];
			if (u->user != op || u->index != i || u->value != v) {
				problem(k, op, "its use does not name this operand", i);
				continue;
			}
			if (!v)
				continue;
			if ((u->prev ? u->prev->next != u : v->uses != u) ||
			    (u->next && u->next->prev != u)) {
				problem(k, op, "its use is not linked into the value's use list", i);
				continue;
			}
			if (ir_ptrmap_get(&k->values, v))
				k->slots++;
		}
		for (int r = 0; r < op->nregions; r++)
			check_slots(k, op->regions[r]);
	}
}

/* The use list of v (defined by op, or a block argument when op is NULL). */
static int64_t check_list(use_checker *k, const ir_value *v, const ir_op *where)
{
	int64_t n = 0;
	for (const ir_use *u = v->uses; u; u = u->next) {
		/* a cycle in the list would never end: no list is longer than all slots */
		if (++n > 8 * (k->nops + 1) + k->slots) {
			problem(k, where, "a use list does not end", 0);
			return n;
		}
		const ir_op *user = u->user;
		if (!user || u->value != v || u->index < 0 || u->index >= user->noperands ||
		    &user->uses[u->index] != u) {
			problem(k, where, "a result's use list holds a foreign entry", 0);
			return n;
		}
		if (!ir_ptrmap_get(&k->ops, user)) {
			k->errors++;
			diag_error(k->d, user->loc,
				   "'%s' op is not in the function but still uses a value of it "
				   "(removed instead of erased)",
				   ir_ops[user->code].name);
			continue;
		}
		if (user->operands[u->index] != v)
			problem(k, user, "the use list names a value this operand is not", u->index);
	}
	return n;
}

static int64_t check_lists(use_checker *k, const ir_block *b, const ir_op *owner)
{
	int64_t n = 0;
	for (int i = 0; i < b->nargs; i++)
		if (owner || b->first)
			n += check_list(k, b->args[i], owner ? owner : b->first);
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->nresults; i++)
			n += check_list(k, &op->results[i], op);
		for (int r = 0; r < op->nregions; r++)
			n += check_lists(k, op->regions[r], op);
	}
	return n;
}

int ir_verify_uses(const ir_func *f, diag_engine *d)
{
	use_checker k = {.d = d};
	collect(&k, f->body);
	if (!k.oom) {
		check_slots(&k, f->body);
		int64_t listed = check_lists(&k, f->body, NULL);
		if (!k.errors && listed != k.slots) {
			k.errors++;
			diag_error(d, f->loc,
				   "function '@%s': its use lists hold %lld uses, its operands %lld",
				   f->name, (long long)listed, (long long)k.slots);
		}
	}
	ir_ptrmap_free(&k.ops);
	ir_ptrmap_free(&k.values);
	return k.errors;
}
