/* gpu_layout.h: how the GPU lowering (NVIDIA and AMD) distributes a tile over the
 * threads of a program, shared by the GPU passes that plan around it and the lowering that
 * carries it out. A tile of N elements on T threads: each thread holds E = N / T elements
 * (N >= T), in groups of V consecutive ones; thread t holds the flattened indices
 * ((e / V) * T + t) * V + e % V. A tile smaller than the CTA is replicated. */
#ifndef TILECC_TRANSFORMS_GPU_LAYOUT_H
#define TILECC_TRANSFORMS_GPU_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ir/ir.h"
#include "support/strbuf.h"

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
/* Whether every operand of a reduction fits a 32-bit shuffle. */
static inline bool gpu_shuffle_operands(const ir_op *op)
{
	for (int k = 0; k < op->noperands; k++) {
		const ir_type *e = op->operands[k]->type->elem;
		if (ir_type_bits(e) > 32 || e->kind == IR_PTR)
			return false;
	}
	return true;
}

static inline bool gpu_reduce_shuffles(const ir_op *op, int threads)
{
	const ir_type *t = op->operands[0]->type;
	return t->rank == 1 && ir_type_numel(t) >= threads && gpu_shuffle_operands(op);
}

/* A reduction along one axis of a tile of rank 2 or more whose operands fit 32-bit
 * shuffles reduces where the data is and leaves its result in the slice of the operand's
 * layout (assign-layouts gives it that layout; the lowering follows the result's type). */
static inline bool gpu_reduce_slices(const ir_op *op)
{
	const ir_type *t = op->operands[0]->type;
	return t->kind == IR_TILE && t->rank >= 2 && t->rank <= 8 && gpu_shuffle_operands(op);
}

static inline int64_t gpu_slice_reduce_bytes(const ir_op *op);

/* Whether tile type t lives in shared memory (a #shared layout). */
static inline bool gpu_is_shared(const ir_type *t)
{
	return t->kind == IR_TILE && t->layout && !strncmp(t->layout, "shared<", 7);
}

/* How an op that changes a tile's shape or layout without computing (broadcast,
 * expand_dims, reshape, multiple_of, max_contiguous, convert_layout) gets its result:
 * each thread's elements as they are (same layout, or canonical layouts of one element
 * count), each slot from a slot of the operand in this thread (expand_dims of a slice,
 * broadcast within one layout), or through shared memory. */
typedef enum { GPU_SHARE, GPU_REGMAP, GPU_EXCHANGE } gpu_reshape;
static inline gpu_reshape gpu_reshape_how(const ir_op *op, int warp, int warps);

/* The row pitch (elements) of the buffer a convert_layout or broadcast moves a tile of
 * type t through (GPU_EXCHANGE), and its bytes: the last extent, plus 16 bytes when t is
 * in an #mma layout and a row is a multiple of 128 bytes, the period of the 32 banks.
 * Without the pad the lanes of a warp that hold one column pair of 8 consecutive rows
 * (the accumulator's fragments) all hit one bank; with it each row starts 4 banks
 * further, and rows stay 16-byte aligned for vector reads (layout.c). Not for AMD's
 * #mfma, whose lanes hold consecutive columns of a row (no conflict to avoid), and whose
 * 128 x 128 fp32 accumulators then fit the 64 KiB of LDS exactly. */
int64_t gpu_exchange_pitch(const ir_type *t);
int64_t gpu_exchange_bytes(const ir_type *t);

/* Bytes of shared memory an op moves its data through on a GPU (0: none). Each such op
 * writes, synchronizes and reads within itself, so every op can start at offset 0; the
 * exception, tiles converted to #shared for a later reader, smem_alloc.c places. */
static inline int64_t gpu_smem_bytes(const ir_op *op, int threads, int warp)
{
	const ir_value *x = op->noperands ? op->operands[0] : NULL;
	int64_t bytes = 0;
	switch (op->code) {
	case IR_OP_BROADCAST:
	case IR_OP_EXPAND_DIMS:
	case IR_OP_RESHAPE:
	case IR_OP_MULTIPLE_OF:
	case IR_OP_MAX_CONTIGUOUS:
	case IR_OP_CONVERT_LAYOUT:
		if (x->type->kind != IR_TILE || gpu_reshape_how(op, warp, threads / warp) != GPU_EXCHANGE)
			return 0;
		/* staged in a #shared layout: its own swizzle, no pad */
		if (gpu_is_shared(op->results[0].type))
			return ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem);
		return gpu_exchange_bytes(x->type);
	case IR_OP_TRANS:
	case IR_OP_SPLIT:
		if (x->type->kind != IR_TILE)
			return 0;
		return ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem);
	case IR_OP_JOIN:
		return 2 * gpu_align16(ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem));
	case IR_OP_GATHER: /* the source, then the index */
		return gpu_align16(ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem)) +
		       ir_type_numel(op->operands[1]->type) * gpu_elem_bytes(op->operands[1]->type->elem);
	case IR_OP_REDUCE:
	case IR_OP_SCAN:
		if (op->code == IR_OP_REDUCE && gpu_slice_reduce_bytes(op) >= 0)
			return gpu_slice_reduce_bytes(op);
		if (op->code == IR_OP_REDUCE && gpu_reduce_shuffles(op, threads))
			return threads / warp > 1 ? 8 * (int64_t)op->noperands * (threads / warp) : 0;
		/* the general path stores every operand */
		for (int k = 0; k < op->noperands; k++)
			bytes += gpu_align16(ir_type_numel(op->operands[k]->type) *
					     gpu_elem_bytes(op->operands[k]->type->elem));
		return bytes;
	case IR_OP_ATOMIC_RMW:
	case IR_OP_ATOMIC_CAS: {
		/* a scalar atomic, or one on a tile smaller than the program, broadcasts the old
		 * values to every thread */
		const ir_type *t = op->results[0].type;
		int64_t n = t->kind == IR_TILE ? ir_type_numel(t) : 1;
		return n < threads ? n * gpu_elem_bytes(ir_type_elem(t)) : 0;
	}
	case IR_OP_DOT:
		if (gpu_is_shared(op->operands[1]->type))
			return 0; /* its operands are staged already (convert_layout to #shared; on
				   * wgmma, A may be in registers) */
		return gpu_align16(ir_type_numel(x->type) * gpu_elem_bytes(x->type->elem)) +
		       ir_type_numel(op->operands[1]->type) * gpu_elem_bytes(op->operands[1]->type->elem);
	default:
		return 0;
	}
}

/* ---- layouts as values (layout.c) ---------------------------------------------------------- */

enum { GPU_MAX_RANK = 8 }; /* deeper tiles keep no layout */

typedef enum { GPU_BLOCKED, GPU_SLICE, GPU_SHARED, GPU_DOT_OP } gpu_layout_kind;

/* A blocked layout, or (GPU_SLICE) the blocked layout `parent` with dim removed, or
 * (GPU_SHARED) a 2-D tile in shared memory. Per dimension of the blocked layout:
 * elements per thread, lanes, warps; order[0] is the fastest dimension. A shared tile is
 * row-major (order [1, 0]; column-major with order [0, 1], rows then being columns) with
 * its rows swizzled: in row r, the vec-element group g of
 * the row is stored at group g ^ ((r / per_phase) % max_phase), so that threads reading
 * a column of groups hit different banks. */
typedef struct gpu_layout {
	gpu_layout_kind kind;
	int rank; /* of the blocked layout (a slice's tiles have rank - 1) */
	int spt[GPU_MAX_RANK], tpw[GPU_MAX_RANK], wpc[GPU_MAX_RANK], order[GPU_MAX_RANK];
	int dim;  /* GPU_SLICE: the removed dimension */
	int vec, per_phase, max_phase; /* GPU_SHARED */
	/* GPU_BLOCKED (or a slice's parent): 2 when the layout is the accumulator of
	 * mma.sync (#mma<version = 2, warps [W0, W1]>, mma_layout.c): as a distribution it is
	 * blocked<per_thread [1, 2], lanes [8, 4], warps [W0, W1], order [1, 0]>, and every
	 * pass and lowering treats it as that; the dot lowering pairs its row repetitions into
	 * the 16 rows of one instruction. 3 for the accumulator of wgmma
	 * (#mma<version = 3, warps [W0, W1], instr [64, N, 16]>): the same fields (the
	 * blocked layout above: as many slots, the same columns pairs, the same lanes), but
	 * rows and column blocks land elsewhere (gpu_layout_coord) and the warps split dim 0
	 * first, so that the four warps of a warpgroup take the four 16-row quarters of one
	 * 64-row instruction (gpu_layout_warp_dim). 4 for the accumulator of AMD's MFMA
	 * (#mfma<warps [W0, W1], instr [S, S]>, S = 32 or 16: mfma_layout.c, gpu_mma.h):
	 * exactly the blocked layout per_thread [4, 1], lanes [64 / S, S], warps [W0, W1],
	 * order [1, 0]. 0 for every other layout. */
	int mma;
	int instr_n; /* mma 3: the N of the wgmma instruction (8..256, a multiple of 8);
		      * mma 4: the M and N of the MFMA instruction (32 or 16) */
	/* GPU_SHARED: 0, or the columns of one panel: the tile is stored as shape[1] / panel
	 * panels one after another, each shape[0] rows of `panel` elements, swizzled within
	 * (the NVMMA layouts wgmma reads: a panel's rows are the 128, 64 or 32 bytes of the
	 * swizzle mode; gpu_layout_shared_nvmma) */
	int panel;
	/* GPU_DOT_OP: an operand of mma.sync held in registers as its fragments, the layout
	 * #dot_op<opIdx = 0 | 1, parent = #mma<version = 2, warps [W0, W1]>, kWidth = 2>
	 * (wpc holds W0 and W1; only 16-bit elements, two to a register, so kWidth is 2).
	 * Lane l (g = l / 4, t = l % 4) of warp (w0, w1) holds, with KS = K / 16 k-steps:
	 *   opIdx 0, A (M x K): slot ((i KS + kk) 4 + q) 2 + e, for row tile i < M / (16 W0)
	 *     and fragment register q < 4: row (2 i + q % 2) 8 W0 + 8 w0 + g, column
	 *     16 kk + 8 (q / 2) + 2 t + e (the rows of the accumulator's repetitions 2i and
	 *     2i + 1, gpu_mma.h); the W1 warps of one w0 hold the same elements;
	 *   opIdx 1, B (K x N): slot ((j KS + kk) 2 + q) 2 + e, for column tile j < N / (8 W1)
	 *     and register q < 2: row 16 kk + 8 q + 2 t + e, column (j W1 + w1) 8 + g; the W0
	 *     warps of one w1 hold the same elements.
	 * These are the PTX ISA's fragments of mma.m16n8k16 (a0..a7, b0..b3), what ldmatrix
	 * hands each lane (gpu_dot_op_coord; tests/unit/test_mma.c checks both). A tile in it
	 * is made by local_load and read by a dot (the first k-steps of the operand, fetched
	 * ahead: transforms/mma_prefetch.c); no other op takes one. */
	int opidx, kwidth;
} gpu_layout;

/* The layout every tile of type t gets unless an op says otherwise: a thread's group of
 * V consecutive row-major elements, lanes then warps along the flattened index (the
 * distribution described at the top of this file, as a blocked layout). */
gpu_layout gpu_layout_canonical(const ir_type *t, int warp, int warps);
/* The shared layout to stage a 2-D tile of type t in: groups of 16 bytes, swizzled over
 * 128-byte lines (per_phase rows share a phase, max_phase phases) when `swizzle`, as
 * tensor-core operands want them; unswizzled (max_phase 1) for the FMA dot, whose threads
 * read rows and columns in ways swizzling does not help and whose index arithmetic it
 * would only lengthen. */
gpu_layout gpu_layout_shared_for(const ir_type *t, bool swizzle);
/* The same, swizzled, for the transpose of 2-D t, stored column-major (order [0, 1]):
 * mma.sync's B when it is loaded K-contiguous, read by ldmatrix without .trans. */
gpu_layout gpu_layout_shared_for_transposed(const ir_type *t);
/* The shared layout wgmma reads a 2-D operand tile of type t from (NVMMA): rows of the
 * widest swizzle mode (128, 64 or 32 bytes) that divides a row of the tile, in panels of
 * that width when the row is wider; its swizzle is the hardware's (16-byte group g of row
 * r at g ^ ((r / per_phase) % max_phase): 128B 1/8, 64B 2/4, 32B 4/2). Transposed: stored
 * column-major (order [0, 1]: the tile's dim 0 contiguous; wgmma's M-major A, K-major B).
 * Its kind is GPU_BLOCKED (no layout) when no swizzle mode fits (a row not a multiple of 32
 * bytes). */
gpu_layout gpu_layout_shared_nvmma(const ir_type *t, bool transposed);
/* The same for a tile of `cols` columns of eb-byte elements. */
gpu_layout gpu_layout_nvmma(int64_t cols, int64_t eb);
/* The swizzle mode (bytes: 128, 64 or 32) of an NVMMA shared layout l of a tile whose
 * elements have eb bytes, or 0 when l is not one. */
int gpu_layout_nvmma_bytes(const gpu_layout *l, int64_t eb);
/* The byte alignment a tile of type t in shared layout l needs: the size of its swizzle
 * pattern for an NVMMA layout (the hardware swizzles address bits: 1024 for 128B), else 16. */
int64_t gpu_layout_shared_align(const gpu_layout *l, const ir_type *t);
/* The element index where element (r, c) of a tile of `shape` in shared layout l is
 * stored: row-major (within its panel, panels one after another), the row's groups
 * swizzled; with order [0, 1] the same for the transposed tile, element (c, r). The one definition of a #shared tile's storage (the lowering's shared_index
 * computes the same in LLVM IR). */
int64_t gpu_layout_swizzle(const gpu_layout *l, const int64_t *shape, int64_t r, int64_t c);
/* Text form, without the leading '#': "blocked<per_thread [1, 4], lanes [1, 32], warps
 * [4, 1], order [1, 0]>", "slice<dim = 1, parent = #blocked<...>>", "shared<vec = 8,
 * per_phase = 1, max_phase = 8, order = [1, 0]>" (", panel = 64" before the '>' when
 * paneled), "mma<version = 2, warps [2, 2]>", "mma<version = 3, warps [4, 1], instr [64,
 * 128, 16]>", "mfma<warps [2, 2], instr [32, 32]>", "dot_op<opIdx = 0, parent = #mma<version
 * = 2, warps [2, 2]>, kWidth = 2>". */
void gpu_layout_print(strbuf *s, const gpu_layout *l);
/* Tile type t (its shape and element type) in layout l; NULL when out of memory. */
const ir_type *gpu_type_in_layout(ir_context *c, const ir_type *t, const gpu_layout *l);
/* Makes l the mma.sync accumulator layout with w0 x w1 warps (its blocked fields too; not
 * its kind or dim, which a slice of it sets). */
void gpu_layout_mma_fill(gpu_layout *l, int w0, int w1);
/* Makes l the wgmma accumulator layout with w0 x w1 warps (w0 a multiple of 4) and
 * instructions m64nNk16 with N = instr_n. */
void gpu_layout_wgmma_fill(gpu_layout *l, int w0, int w1, int instr_n);
/* Makes l the MFMA accumulator layout with w0 x w1 waves and instructions of nonk x nonk
 * (32 or 16). */
void gpu_layout_mfma_fill(gpu_layout *l, int w0, int w1, int nonk);
/* Makes l #dot_op<opIdx = opidx, parent = #mma<version = 2, warps [w0, w1]>, kWidth = 2>. */
void gpu_layout_dot_op_fill(gpu_layout *l, int opidx, int w0, int w1);
/* The element (*row, *col) of a tile of `shape` in #dot_op layout l that slot e of lane
 * `lane` of warp (w0, w1) holds (the table above). */
void gpu_dot_op_coord(const gpu_layout *l, const int64_t *shape, int lane, int w0, int w1, int e, int64_t *row,
		      int64_t *col);
/* Parses the text form; false when it is not a layout tilecc implements. */
bool gpu_layout_parse(const char *text, gpu_layout *l);
bool gpu_layout_equal(const gpu_layout *a, const gpu_layout *b);
/* Whether l describes a tile of `shape` (rank) for programs of `warps` warps of `warp`
 * threads: its lanes and warps multiply to those, its rank fits. */
bool gpu_layout_fits(const gpu_layout *l, const int64_t *shape, int rank, int warp, int warps);
/* Slots (elements) per thread of a tile of `shape` (rank) in l; -1 when they do not fit. */
int gpu_layout_slots(const gpu_layout *l, const int64_t *shape, int rank);
/* Slot e as, per dimension of l, its repetition and its index within the thread's run. */
void gpu_layout_slot(const gpu_layout *l, const int64_t *shape, int rank, int e, int *rep, int *in);
/* The slot of those parts (repetitions taken modulo their count along each dimension). */
int gpu_layout_slot_index(const gpu_layout *l, const int64_t *shape, int rank, const int *rep,
			  const int *in);
/* The dimension that the i-th fastest part of the warp index goes to: order[i], except
 * for the wgmma accumulator (dim 0 first: a warpgroup's warps along M). */
static inline int gpu_layout_warp_dim(const gpu_layout *l, int i)
{
	return l->mma == 3 ? i : l->order[i];
}
/* The coordinate along d (before wrapping) of the wgmma accumulator's element at (rep,
 * in) of the thread at (lane, wid) along d (gpu_layout_thread): the PTX ISA's fragment of
 * wgmma.m64nNk16 (warp q of a warpgroup: rows 16 q + lane / 4 + {0, 8}; columns
 * 8 j + 2 (lane % 4) + {0, 1}) with rep along M = 2 m + h (m the instruction's 64 W0 / 4
 * row block, h the +8 half) and along N = J n + j (J = N / 8 column blocks per
 * instruction, n the instruction of warpgroup column wid). */
static inline int64_t gpu_layout_wgmma_coord(const gpu_layout *l, int d, int rep, int in, int lane, int wid)
{
	if (d == 0)
		return 16 * (int64_t)l->wpc[0] * (rep / 2) + 16 * (int64_t)wid + 8 * (rep % 2) + lane;
	int J = l->instr_n / 8;
	return ((int64_t)(rep / J) * l->wpc[1] + wid) * l->instr_n + (rep % J) * 8 + 2 * lane + in;
}
/* Thread t's lane and warp index along each dimension. */
void gpu_layout_thread(const gpu_layout *l, int warp, int t, int *lane, int *wid);
/* The coordinate along dimension d of the element at (rep, in) of the thread at (lane,
 * wid): rep * C + (wid * lanes + lane) * per_thread + in, wrapped to the extent. */
int64_t gpu_layout_coord(const gpu_layout *l, const int64_t *shape, int rank, int d, int rep, int in,
			 int lane, int wid);
/* The row-major flattened index of thread t's slot e (for tests and checks). */
int64_t gpu_layout_flat(const gpu_layout *l, const int64_t *shape, int rank, int warp, int t, int e);

/* How a reduction along `axis` of a tile of `shape` in blocked layout l combines: the
 * distinct positions along the axis that lanes (*lanes) and warps (*warps) of a thread's
 * row hold; the others are copies. */
static inline void gpu_reduce_spread(const gpu_layout *l, const int64_t *shape, int axis, int *lanes,
				     int *warps)
{
	int64_t ext = shape[axis], spt = l->spt[axis];
	int64_t nl = ext / spt, nw = ext / (spt * l->tpw[axis]);
	*lanes = nl < 1 ? 1 : nl > l->tpw[axis] ? l->tpw[axis] : (int)nl;
	*warps = nw < 1 ? 1 : nw > l->wpc[axis] ? l->wpc[axis] : (int)nw;
}

/* Shared memory of a reduction into a slice layout: each warp's partial results, when
 * warps split the axis; -1 when the op does not reduce into a slice. */
static inline int64_t gpu_slice_reduce_bytes(const ir_op *op)
{
	const ir_type *t = op->operands[0]->type, *r = op->results[0].type;
	gpu_layout l;
	if (!gpu_reduce_slices(op) || r->kind != IR_TILE || !r->layout || !gpu_layout_parse(r->layout, &l) ||
	    l.kind != GPU_SLICE)
		return -1;
	int lanes, warps;
	gpu_reduce_spread(&l, t->shape, l.dim, &lanes, &warps);
	if (warps == 1)
		return 0;
	int64_t bytes = 0;
	for (int k = 0; k < op->noperands; k++)
		bytes += gpu_align16(ir_type_numel(r) * warps * gpu_elem_bytes(op->operands[k]->type->elem));
	return bytes;
}

/* The layout of tile type t: its type's, or the canonical one; false when the text is
 * not a layout (the lowering reports it). */
static inline bool gpu_type_layout(const ir_type *t, int warp, int warps, gpu_layout *l)
{
	if (!t->layout) {
		*l = gpu_layout_canonical(t, warp, warps);
		return true;
	}
	return gpu_layout_parse(t->layout, l);
}

/* How many consecutive elements a thread holds in consecutive slots of a tile of type t
 * (the widest run one vector access can move), and along which dimension (*dim): a
 * canonical tile's group, along the last dimension; a blocked layout's per_thread along
 * its fastest dimension (order[0]: consecutive slots step along it first,
 * gpu_layout_slot), which is dim 0 for the runs access-layouts gives accesses whose
 * pointers are contiguous along dim 0; else 1. */
static inline int gpu_layout_run_dim(const ir_type *t, int warp, int warps, int *dim)
{
	gpu_layout l, canon;
	*dim = t->kind == IR_TILE && t->rank > 0 ? t->rank - 1 : 0;
	if (t->kind != IR_TILE || !gpu_type_layout(t, warp, warps, &l))
		return 1;
	int64_t n = ir_type_numel(t);
	canon = gpu_layout_canonical(t, warp, warps);
	if (gpu_layout_equal(&l, &canon))
		return n >= (int64_t)warp * warps ? gpu_group(n, warp * warps) : 1;
	if (l.kind != GPU_BLOCKED || l.rank != t->rank)
		return 1;
	*dim = l.order[0];
	return l.spt[l.order[0]];
}

/* The run along the last dimension only (1 when the fastest dimension is another). */
static inline int gpu_layout_run(const ir_type *t, int warp, int warps)
{
	int dim, run = gpu_layout_run_dim(t, warp, warps, &dim);
	return t->kind == IR_TILE && dim == t->rank - 1 ? run : 1;
}

/* Whether runs of w consecutive elements that a thread holds along dim (of a 2-D tile of
 * `shape`) stay consecutive when written to shared layout s, so that one vector store or
 * one cp.async moves each: s stores that dimension contiguously (order[0]), and w divides
 * its swizzle groups and the rows they lie in (the run then starts at a multiple of w
 * within a group, which the swizzle moves whole). */
static inline bool gpu_run_fits_shared(const gpu_layout *s, const int64_t *shape, int dim, int w)
{
	if (w <= 1)
		return true;
	if (s->kind != GPU_SHARED || s->order[0] != dim)
		return false;
	int64_t row = s->panel ? s->panel : shape[dim];
	return s->vec % w == 0 && row % w == 0 && shape[dim] % w == 0;
}

static inline gpu_reshape gpu_reshape_how(const ir_op *op, int warp, int warps)
{
	const ir_type *xt = op->operands[0]->type, *rt = op->results[0].type;
	gpu_layout xl, rl;
	if (xt->rank > GPU_MAX_RANK || rt->rank > GPU_MAX_RANK) /* no layouts: the flattened distribution */
		return op->code == IR_OP_BROADCAST ? GPU_EXCHANGE : GPU_SHARE;
	if (!gpu_type_layout(xt, warp, warps, &xl) || !gpu_type_layout(rt, warp, warps, &rl))
		return GPU_EXCHANGE;
	gpu_layout xc = gpu_layout_canonical(xt, warp, warps), rc = gpu_layout_canonical(rt, warp, warps);
	bool canon = gpu_layout_equal(&xl, &xc) && gpu_layout_equal(&rl, &rc);
	switch (op->code) {
	case IR_OP_BROADCAST:
		return gpu_layout_equal(&xl, &rl) ? GPU_REGMAP : GPU_EXCHANGE;
	case IR_OP_EXPAND_DIMS:
		if (xl.kind == GPU_SLICE && xl.dim == ir_op_int(op, "axis", -1)) {
			xl.kind = GPU_BLOCKED;
			return gpu_layout_equal(&xl, &rl) ? GPU_REGMAP : GPU_EXCHANGE;
		}
		return canon ? GPU_SHARE : GPU_EXCHANGE;
	case IR_OP_CONVERT_LAYOUT:
	case IR_OP_MULTIPLE_OF:
	case IR_OP_MAX_CONTIGUOUS:
		return gpu_layout_equal(&xl, &rl) || canon ? GPU_SHARE : GPU_EXCHANGE;
	default:
		return canon ? GPU_SHARE : GPU_EXCHANGE;
	}
}

#endif
