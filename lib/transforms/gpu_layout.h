/* gpu_layout.h: how the NVIDIA (and, later, AMD) lowering distributes a tile over the
 * threads of a program, shared by the GPU passes that plan around it and the lowering that
 * carries it out. A tile of N elements on T threads: each thread holds E = N / T elements
 * (N >= T), in groups of V consecutive ones; thread t holds the flattened indices
 * ((e / V) * T + t) * V + e % V. A tile smaller than the CTA is replicated. */
#ifndef TILECC_TRANSFORMS_GPU_LAYOUT_H
#define TILECC_TRANSFORMS_GPU_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* A GPU kernel's warp size and number of warps: its threads_per_warp attribute (set by the
 * driver for GPU targets) and num_warps (4 when absent). False, leaving both alone, for a
 * function not compiled for a GPU. */
static inline bool gpu_func_shape(const ir_func *f, int *warp, int *warps)
{
	const ir_attr *tw = ir_func_attr(f, "threads_per_warp");
	const ir_attr *nw = ir_func_attr(f, "num_warps");
	if (!tw || tw->kind != IR_ATTR_INT)
		return false;
	*warp = (int)tw->i;
	*warps = nw && nw->kind == IR_ATTR_INT ? (int)nw->i : 4;
	return true;
}

/* Elements each thread holds. */
static inline int gpu_per_thread(int64_t numel, int threads)
{
	return numel >= threads ? (int)(numel / threads) : 1;
}

/* Consecutive elements a thread holds together (at most 4: one 16-byte access of fp32). */
static inline int gpu_group(int64_t numel, int threads)
{
	int e = gpu_per_thread(numel, threads);
	return e >= 4 ? 4 : e;
}

static inline int64_t gpu_elem_bytes(const ir_type *e)
{
	return e->kind == IR_I1 ? 1 : e->kind == IR_PTR ? 8 : ir_type_bits(e) / 8;
}

static inline int64_t gpu_align16(int64_t n)
{
	return (n + 15) & ~(int64_t)15;
}

/* A reduction of a whole 1-D tile whose operands fit 32-bit shuffles reduces within warps
 * with shuffles and needs shared memory only across warps. */
static inline bool gpu_reduce_shuffles(const ir_op *op, int threads)
{
	const ir_type *t = op->operands[0]->type;
	if (t->rank != 1 || ir_type_numel(t) < threads)
		return false;
	for (int k = 0; k < op->noperands; k++) {
		const ir_type *e = op->operands[k]->type->elem;
		if (ir_type_bits(e) > 32 || e->kind == IR_PTR)
			return false;
	}
	return true;
}

/* Bytes of shared memory an op moves its data through on a GPU (0: none). Each such op
 * writes, synchronizes and reads within itself, so every op can start at offset 0. */
static inline int64_t gpu_smem_bytes(const ir_op *op, int threads, int warp)
{
	const ir_value *x = op->noperands ? op->operands[0] : NULL;
	int64_t bytes = 0;
	switch (op->code) {
	case IR_OP_BROADCAST:
	case IR_OP_TRANS:
	case IR_OP_SPLIT:
		if (x->type->kind != IR_TILE)
			return 0;
		return ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem);
	case IR_OP_JOIN:
		return 2 * gpu_align16(ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem));
	case IR_OP_REDUCE:
	case IR_OP_SCAN:
		if (op->code == IR_OP_REDUCE && gpu_reduce_shuffles(op, threads))
			return threads / warp > 1 ? 8 * (int64_t)op->noperands * (threads / warp) : 0;
		/* the general path stores every operand */
		for (int k = 0; k < op->noperands; k++)
			bytes += gpu_align16(ir_type_numel(op->operands[k]->type) *
					     gpu_elem_bytes(op->operands[k]->type->elem));
		return bytes;
	case IR_OP_DOT:
		return gpu_align16(ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem)) +
		       ir_type_numel(op->operands[1]->type) * gpu_elem_bytes(op->operands[1]->type->elem);
	default:
		return 0;
	}
}

#endif
