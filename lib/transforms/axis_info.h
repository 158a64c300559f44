/* axis_info.h: the axis analysis. For every SSA value of a function it computes, per tile
 * dimension, what the backends need to turn element-wise memory accesses into wide ones:
 *
 *   contiguity[d]   runs of this many consecutive elements along d increase by exactly 1
 *                   (pointer tiles: by one element, i.e. sizeof(pointee) bytes). Runs start
 *                   at indices that are multiples of the run length.
 *   divisibility[d] the largest power of two known to divide the first element of every run
 *                   of contiguity[d] elements along d (integers: the value; pointers: the
 *                   byte address). Where contiguity[d] is 1 it holds for every element.
 *   constancy[d]    runs of this many consecutive elements along d (aligned like the
 *                   contiguity runs) are all equal.
 *
 * This follows the semantics of Triton's AxisInfo analysis, so that the same kernel gets
 * the same vectorization decisions; axis_info.c lists where it deliberately differs.
 *
 * Scalars have rank 0 and keep their facts in entry 0 (contiguity and constancy are 1;
 * divisibility is the value's). The analysis is read-only: it never changes the IR. */
#ifndef TILECC_TRANSFORMS_AXIS_INFO_H
#define TILECC_TRANSFORMS_AXIS_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

enum {
	AXIS_MAX_RANK = 16, /* the parser's and the frontend's limit on tile ranks */
};
/* Divisibility saturates here; the value 0 (divisible by everything) reads as this. */
#define AXIS_MAX_DIVISIBILITY ((int64_t)1 << 30)

/* The facts about one value. Entries at index >= max(rank, 1) are unused. */
typedef struct axis_val {
	int rank;                               /* the tile's rank; 0 for scalars */
	int64_t contiguity[AXIS_MAX_RANK];
	int64_t divisibility[AXIS_MAX_RANK];    /* a power of two in 1..AXIS_MAX_DIVISIBILITY */
	int64_t constancy[AXIS_MAX_RANK];
	bool is_const;                          /* every element equals `value` (integers only) */
	int64_t value;
	int64_t run_step; /* what one step along a run adds: 1, or the pointee size in bytes */
} axis_val;

typedef struct axis_info axis_info;

/* Analyzes f; the result and every axis_val it hands out live in arena a (nothing to free).
 * Returns NULL only when the arena is out of memory. */
axis_info *axis_analyze(arena *a, const ir_func *f);

/* The facts about v; never NULL. A value the analysis did not see (another function's, one
 * created afterwards) and any value when ai is NULL get the conservative answer: all 1s.
 * The pointer stays valid as long as ai's arena. */
const axis_val *axis_lookup(const axis_info *ai, const ir_value *v);

/* How many consecutive elements along dimension dim of the pointer tile ptr can move as one
 * aligned vector access of at most max_bytes: a power of two, limited by the pointers'
 * contiguity, their byte alignment, and (when mask is a tile) the mask's constancy, so that
 * one predicate covers the whole vector. 1 for scalar pointers, block pointers, a dim out of
 * range, or a NULL ai. */
int axis_vector_width_dim(const axis_info *ai, const ir_value *ptr, const ir_value *mask,
			  int dim, int max_bytes);
/* The same along the last (fastest, in row-major order) dimension. */
int axis_vector_width(const axis_info *ai, const ir_value *ptr, const ir_value *mask,
		      int max_bytes);

/* Appends one comment line per op result of f, in program order, for tests and debugging:
 * "// %offs: contiguity=[1024] divisibility=[1024] constancy=[1]". */
void axis_print(strbuf *out, const axis_info *ai, const ir_func *f);

#endif
