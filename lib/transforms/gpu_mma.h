/* gpu_mma.h: dots on NVIDIA tensor cores with mma.sync (sm_80 and later), shared by
 * assign-layouts, which chooses the plan and gives the dot its layouts, and the lowering
 * (lib/codegen/lower_mma.c), which carries it out.
 *
 * One mma.sync.m16n8k16 multiplies a 16x16 slice of A by a 16x8 slice of B into a 16x8
 * accumulator held by a warp, four f32 per lane. The accumulator of the whole dot is laid
 * out as #mma<version = 2, warps [W0, W1]>, which as a distribution is the blocked layout
 * per_thread [1, 2], lanes [8, 4], warps [W0, W1], order [1, 0] (gpu_layout.h): lane l of
 * warp (w0, w1) holds, in repetition (r0, r1), row r0 * 8 W0 + w0 * 8 + l / 4 and the two
 * columns r1 * 8 W1 + w1 * 8 + 2 (l % 4) + {0, 1}. An instruction's 16 rows are two such
 * row repetitions, 2i and 2i + 1 (its rows g and g + 8 in the PTX ISA's fragment tables);
 * its 8 columns are one column repetition j. Any rows may make up an instruction's 16 as
 * long as A's fragment comes from the same rows, and ldmatrix takes a row address per lane,
 * so the pairing costs nothing and keeps the accumulator an ordinary blocked layout: the
 * element-wise ops, reductions, broadcasts and stores that follow a dot need nothing new.
 *
 * A and B are staged in shared memory (#shared, 16-byte groups swizzled over 128-byte
 * lines: gpu_layout_shared_for with swizzle) and read with ldmatrix: A's fragment of tile i
 * at k-step kk is one ldmatrix.x4 (8x8 matrices: rows 2i | 2i+1, k low | k high); B's of
 * tiles j and j+1 one ldmatrix.x4.trans (k low | k high of each), or .x2 for a last odd
 * tile. */
#ifndef TILECC_TRANSFORMS_GPU_MMA_H
#define TILECC_TRANSFORMS_GPU_MMA_H

#include <stdbool.h>
#include <stdint.h>

#include "transforms/gpu_layout.h"

typedef enum { GPU_MMA_F16, GPU_MMA_BF16 } gpu_mma_kind;

typedef struct gpu_mma {
	gpu_mma_kind kind;
	int64_t M, N, K;
	int w0, w1;                 /* warps along M and along N */
	int mtiles, ntiles, ksteps; /* per warp: 16-row tiles, 8-column tiles; 16-deep steps */
	gpu_layout acc;             /* the accumulator's (and the result's) layout */
} gpu_mma;

/* Whether dot op (2-D, A M x K and B K x N of fp16 or bf16, an fp32 accumulator) runs on
 * mma.sync on a GPU of compute capability cc (80 for sm_80; 0 when not NVIDIA) in programs
 * of `warps` warps of `warp` lanes, and its plan. The warps split M and N so that each
 * warp's share is as square as the shape allows; a shape they cannot split exactly (M a
 * multiple of 16 W0, N of 8 W1, K of 16) stays on the FMA path. */
bool gpu_mma_plan(const ir_op *dot, int cc, int warp, int warps, gpu_mma *p);

/* The warps and tiles of a plan whose kind, M, N and K are set (gpu_mma_plan's second
 * half, for the unit tests): false when `warps` cannot split the shape exactly. */
bool gpu_mma_plan_shape(gpu_mma *p, int warps);

/* The plan of a dot whose result already has the #mma layout l (the lowering, or IR read
 * from text); false when the shapes or types do not fit it. */
bool gpu_mma_plan_layout(const ir_op *dot, const gpu_layout *l, gpu_mma *p);

/* The element (row, column) of A whose 8-element matrix row lane `lane` of warp row w0
 * addresses in the ldmatrix.x4 of tile i at k-step kk. */
void gpu_mma_a_source(const gpu_mma *p, int i, int kk, int w0, int lane, int64_t *row, int64_t *col);
/* The same for B's ldmatrix.x4.trans of column tiles j and j + 1 (.x2 of tile j when
 * pair is false: lanes 16..31 then repeat lanes 0..15) at k-step kk, by warp column w1. */
void gpu_mma_b_source(const gpu_mma *p, int j, int kk, int w1, int lane, bool pair, int64_t *row,
		      int64_t *col);
/* The accumulator slot (gpu_layout_slot_index) of fragment register r (0..3: c0..c3) of
 * tile (i, j). */
int gpu_mma_c_slot(const gpu_mma *p, int i, int j, int r);

#endif
