/* loop_stage.h: the stage-0 slice of loads in a loop body, which a software pipeliner
 * starts iterations ahead: shared by pipeline.c (NVIDIA's cp.async ring) and prefetch.c
 * (loads one iteration ahead into registers); and loop_add_carried, which they and
 * mma_prefetch.c use to give a loop more carried values. Stage 0 of a set of loads is the backward
 * slice of their pointers and masks in the body: pure region-free ops of the induction
 * variable, loop-invariant values and carried values (the pointer tiles) whose next value
 * stage 0 computes too. A pipeliner clones it for the iterations it starts ahead; the
 * carried values it reads then run that many iterations ahead, so nothing else may read
 * them, in the body or after the loop. */
#ifndef TILECC_TRANSFORMS_LOOP_STAGE_H
#define TILECC_TRANSFORMS_LOOP_STAGE_H

#include "transforms/walk.h"

/* The single op of block b using v (not counting nested regions): NULL unless there is
 * exactly one use in function f and it is there. */
ir_op *loop_only_user(const ir_func *f, ir_block *b, const ir_value *v);

/* Marks the ops of body that the loads' first nopnds operands (pointers, masks, other) need, in
 * `ops`, and the carried values they read, carried[k] for body argument k + 1; false when
 * they need anything a clone could not compute ahead. */
bool loop_stage0(ir_block *body, ir_op *const *loads, int n, int nopnds, valset *ops, bool *carried);

/* Whether the carried values stage 0 reads may run ahead: no op of the loop `fo` outside
 * stage 0 and the `skip` ops reads them (or anything stage 0 computes from them), and
 * the loop's results for them are unused. */
bool loop_ahead_private(const ir_func *f, ir_op *fo, ir_op *const *skip, int nskip, const valset *ops,
			const bool *carried);

/* Clones the stage-0 ops of body, in order, before `before` in `into`, reading map's
 * values for the ones it has (the induction variable, carried values) and filling it
 * with the clones. */
void loop_clone_stage0(ir_context *c, ir_block *body, const valset *ops, ir_ptrmap *map, ir_block *into,
		       ir_op *before);

/* Whether for op fo is a loop a pipeliner can start iterations of ahead: its body ends in
 * a yield, its induction variable is an i32 or i64 and its step a positive constant
 * (*step). */
bool loop_pipelinable(const ir_op *fo, int64_t *step);

/* The mask of load ld (operand 1, if any) for the iteration whose stage-0 values map holds,
 * and-ed with the scalar `live` (whether that iteration runs), built at b: the mask of a
 * load or copy issued ahead. */
ir_value *loop_ahead_mask(ir_context *c, ir_builder *b, const ir_op *ld, ir_ptrmap *map, ir_value *live);

/* The loop fo again with n more carried values (initial values init, types of init): a
 * new for op in its place that takes over its body and fo's attributes; the body's new
 * arguments are returned in args. The yield is not touched: the caller gives it the n
 * values. fo is erased. */
ir_op *loop_add_carried(ir_context *c, ir_op *fo, int n, ir_value *const *init, ir_value **args);

/* map's value for v, or v. */
ir_value *loop_mapped(ir_ptrmap *map, ir_value *v);

#endif
