/* walk.h: small utilities the passes share: a set of values (pointer hash set) and walks
 * over ops in program order. */
#ifndef TILECC_TRANSFORMS_WALK_H
#define TILECC_TRANSFORMS_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"

typedef struct valset {
	const void **slots;
	size_t cap, len;
} valset;

void valset_add(valset *s, const void *v);
bool valset_has(const valset *s, const void *v);
void valset_free(valset *s);

/* Adds every value used as an operand anywhere in b (nested regions included). */
void walk_collect_uses(const ir_block *b, valset *used);
/* How many times v is an operand in b (nested regions included), from v's use list:
 * O(uses of v x region depth). */
int walk_count_uses(const ir_block *b, const ir_value *v);

#endif
