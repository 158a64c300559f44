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

/* The operand types of a tensor-core dot (accumulator: f32 unless acc16, s32 for S8):
 *   F16, BF16  mma.sync m16n8k16 (F16 with acc16: the .f16.f16 form, fp16 accumulator),
 *              wgmma m64nNk16 (f32 accumulator only)
 *   TF32       fp32 operands with input_precision "tf32": mma.sync m16n8k8.tf32, each
 *              element rounded to tf32 (cvt.rna) before it is multiplied; with x3
 *              ("tf32x3"), three such products per tile, as Triton's: each operand split
 *              into a high part (its low 13 mantissa bits cleared) and the rest, and
 *              rest x high, high x rest, high x high accumulated in that order
 *   S8         int8 operands, int32 accumulator: mma.sync m16n8k32.s8.s8.s32
 *   E4M3, E5M2 fp8 operands (float8e4nv, float8e5; both the same), f32 accumulator:
 *              mma.sync m16n8k32.f32.e4m3.e4m3.f32 on sm_89 and later (the fragments of
 *              S8: four elements per register), wgmma m64nNk32 on sm_90a
 * On sm_90a, F16 and BF16 into f32, TF32 (not x3), S8 and the fp8 kinds run on wgmma
 * (below), the rest on mma.sync.
 * One k-step is 32 bytes of K (16, 8, 32 elements); A's fragments come through the same
 * ldmatrix.x4 for every kind (an 8x8 matrix of b16 is 8 rows of 16 bytes: 16 / eb
 * elements), B's through ldmatrix.x4.trans for the 16-bit kinds and through single loads
 * of the lane's elements for TF32, S8 and fp8 (ldmatrix transposes 16-bit units only). */
typedef enum { GPU_MMA_F16, GPU_MMA_BF16, GPU_MMA_TF32, GPU_MMA_S8, GPU_MMA_E4M3, GPU_MMA_E5M2 } gpu_mma_kind;

/* Whether kind k is one of the fp8 kinds. */
static inline bool gpu_mma_fp8(gpu_mma_kind k)
{
	return k == GPU_MMA_E4M3 || k == GPU_MMA_E5M2;
}

/* Bytes per operand element of kind k, and the K of one mma.sync (32 bytes of K). */
int gpu_mma_elem_bytes(gpu_mma_kind k);
int gpu_mma_kstep(gpu_mma_kind k);

typedef struct gpu_mma {
	gpu_mma_kind kind;
	bool acc16;                 /* F16 operands into an fp16 accumulator (out_dtype=float16) */
	bool x3;                    /* TF32: input_precision "tf32x3" (three products) */
	int version;                /* 2: mma.sync m16n8k16; 3: wgmma m64nNk16; 4: AMD MFMA
				     * (below) */
	int64_t M, N, K;
	int w0, w1;                 /* warps along M and along N */
	int mtiles, ntiles, ksteps; /* 2, per warp: 16-row tiles, 8-column tiles; both: k-steps
				     * (gpu_mma_kstep deep, wgmma too) */
	int instr_n;                /* 3: the N of one instruction */
	int mreps, nreps;           /* 3, per warpgroup: 64-row instructions, N-column ones */
	gpu_layout acc;             /* the accumulator's (and the result's) layout */
	bool acc_zero;              /* 3: the accumulator is a constant zero (set by the
				     * lowering): the first k-step ignores it (scale-d = 0),
				     * so no instruction zeroes the registers of a wgmma */
	int imprecise;              /* 3, fp8: max_num_imprecise_acc when it is less than K
				     * (0: none): wgmma accumulates that many k at a time into
				     * fresh registers, each group then added to the
				     * accumulator in fp32, as Triton's (below) */
	int nonk;                   /* 4: the M and N of one MFMA instruction (32 or 16) */
	int gen;                    /* 4: the MFMA generation (gpu_amd_mfma_gen) */
} gpu_mma;

/* Whether dot op (2-D, A M x K and B K x N of a kind above and its accumulator) runs on
 * mma.sync on a GPU of compute capability cc (80 for sm_80; 0 when not NVIDIA) in programs
 * of `warps` warps of `warp` lanes, and its plan. The warps split M and N so that each
 * warp's share is as square as the shape allows, except for a dot that shares its block
 * with another (attention), whose warps all go along M where M allows; a shape they
 * cannot split exactly (M a multiple of 16 W0, N of 8 W1, K of the k-step) stays on the
 * FMA path. */
bool gpu_mma_plan(const ir_op *dot, int cc, int warp, int warps, gpu_mma *p);

/* The warps and tiles of a plan whose kind, M, N and K are set (gpu_mma_plan's second
 * half, for the unit tests): false when `warps` cannot split the shape exactly. */
bool gpu_mma_plan_shape(gpu_mma *p, int warps);

/* Splits `warps` (a power of two) between M and N (p->w0, p->w1) for instructions of tm x tn,
 * halving the larger per-warp share each time (M first on ties) while it stays a multiple
 * of the instruction: false when no split fits. Shared by the mma and mfma plans. */
bool gpu_mma_split_warps(gpu_mma *p, int warps, int64_t tm, int64_t tn);

/* The plan of a dot whose result already has the #mma layout l (the lowering, or IR read
 * from text); false when the shapes or types do not fit it. */
bool gpu_mma_plan_layout(const ir_op *dot, const gpu_layout *l, gpu_mma *p);

/* The element (row, column) of A whose 16-byte matrix row lane `lane` of warp row w0
 * addresses in the ldmatrix.x4 of tile i at k-step kk (the row's first element). */
void gpu_mma_a_source(const gpu_mma *p, int i, int kk, int w0, int lane, int64_t *row, int64_t *col);
/* The same for B's ldmatrix.x4.trans of column tiles j and j + 1 (.x2 of tile j when
 * pair is false: lanes 16..31 then repeat lanes 0..15) at k-step kk, by warp column w1. */
void gpu_mma_b_source(const gpu_mma *p, int j, int kk, int w1, int lane, bool pair, int64_t *row,
		      int64_t *col);
/* TF32 and S8: the element (row, column) of B that element e (0 .. 4 / eb - 1, from the
 * low bits up) of B fragment register reg (0, 1: b0, b1) of lane `lane` of warp column w1
 * holds, for column tile j at k-step kk: each lane loads these one by one. */
void gpu_mma_b_elem(const gpu_mma *p, int j, int kk, int w1, int lane, int reg, int e, int64_t *row,
		    int64_t *col);
/* A in registers (the 16-bit kinds; attention's P on mma.sync, as in FlashAttention-2):
 * element r = 0..7 of A's m16n8k16 fragment of tile i at k-step kk (register r / 2, from
 * the low half) is row 8 ((r / 2) % 2) + lane / 4 of the tile and column 16 kk + 8 (r / 4) +
 * 2 (lane % 4) + r % 2, which is where an #mma v2 layout with warps [W0, 1] keeps element
 * (rep 2 i + (r / 2) % 2, 2 kk + r / 4; r % 2): the accumulator of a dot whose N is this
 * one's K. gpu_mma_a_regs: whether al is such a layout for plan p (W1 = 1, the same W0);
 * gpu_mma_a_slot: the slot of element r. */
bool gpu_mma_a_regs(const gpu_mma *p, const gpu_layout *al);
int gpu_mma_a_slot(const gpu_mma *p, const gpu_layout *al, int i, int kk, int r);

/* Whether the staged operands' #shared layouts as and bs are ones ldmatrix can read as the
 * mma.sync lowering (lib/codegen/lower_mma.c) does (16-byte swizzle groups, phases within
 * 8 rows; B of TF32 and S8 is read element by element, through the same swizzle); with
 * a_regs, as is A's register layout, which must be its fragments' (gpu_mma_a_regs). A NULL
 * layout is not checked. */
bool gpu_mma_staged_fits(const gpu_mma *p, const gpu_layout *as, const gpu_layout *bs, bool a_regs);

/* The accumulator slot (gpu_layout_slot_index) of fragment register r (0..3: c0..c3) of
 * tile (i, j). */
int gpu_mma_c_slot(const gpu_mma *p, int i, int j, int r);

/* ---- wgmma (wgmma_layout.c) ---------------------------------------------------------------
 *
 * On sm_90a a dot runs as wgmma.mma_async.m64nNk16 (fp16 or bf16 into f32), both operands
 * read by the tensor cores from shared memory through 64-bit matrix descriptors (the "SS"
 * form). A warpgroup is 4 consecutive warps; the warps split W0 along M (whole warpgroups:
 * W0 a multiple of 4) and W1 along N, dim 0 first (warp w: w % W0 along M, w / W0 along
 * N). Warpgroup (g, w1), g = (w % W0) / 4, issues per 16-deep k-step the instructions
 * (m, n), m < mreps, n < nreps: rows 16 W0 m + 64 g .. + 64 of A, columns
 * (n W1 + w1) N .. + N of B (N = instr_n), accumulating into N / 2 f32 per thread whose
 * places the PTX ISA's fragment table gives (gpu_layout_wgmma_coord): the accumulator is
 * #mma<version = 3, warps [W0, W1], instr [64, N, 16]>.
 *
 * The operands are staged in the NVMMA shared layouts (gpu_layout_shared_nvmma): A (M x K,
 * K contiguous) is K-major, B (K x N, N contiguous) is N-major ("transposed" for wgmma:
 * imm-trans-b = 1); stored column-major (order [0, 1]) A is M-major (imm-trans-a = 1) and
 * B K-major (imm-trans-b = 0). A descriptor holds the start address of the instruction's slice >> 4,
 * the leading dimension byte offset (LBO, bits 16-29: the distance between panels, for the
 * N-major B the next 64 columns of the 128B mode) >> 4, the stride dimension byte offset
 * (SBO, bits 32-45: between 8-row groups, 8 rows of the swizzle width) >> 4 and the swizzle
 * mode (bits 62-63: 1 = 128B, 2 = 64B, 3 = 32B); the base offset (bits 49-51) stays 0, so
 * the tiles start on their swizzle pattern (gpu_layout_shared_align).
 *
 * tf32 and int8 (wgmma.mma_async.m64nNk8.f32.tf32.tf32, m64nNk32.s32.s8.s8): one
 * k-step is 32 bytes of K as on mma.sync (8 or 32 elements); the ISA reads both operands
 * of these types K-major only (no transpose bits), so A is staged row-major and B (K x N)
 * column-major (order [0, 1]: storage rows are B's columns, swizzled along K), whatever
 * the loads' contiguity; their RS form is not used. fp8 (m64nNk32.f32.e4m3.e4m3,
 * .e5m2.e5m2) is read K-major only too, as int8; its products are exact but wgmma keeps
 * fewer bits than fp32 while it accumulates them, so a dot with max_num_imprecise_acc =
 * m < K (Triton's option; its default on sm_90 never splits) sums each m-deep slice of K
 * into registers of their own (scale-d 0 on the slice's first k-step), waits for them, and
 * adds them to the accumulator with fp32 adds. The fp32 operands of tf32 are not
 * rounded: they reach the tensor cores straight from shared memory (often from the
 * pipeline's cp.async ring), which read the tf32 part of each word and ignore its low 13
 * mantissa bits (truncation, as Triton's wgmma path; mma.sync rounds with cvt.rna). The
 * s32 accumulator has the f32 one's fragment layout. */

/* The wgmma plan of dot on sm_90a (fp16 or bf16 into fp32, tf32 into fp32, int8 into
 * int32): false when the kind is another (tf32x3, an fp16 accumulator: they stay on
 * mma.sync) or the shape does not fit (M a multiple of 16 W0, N of 8 W1 and of 16, K of
 * the k-step, warps a multiple of 4), and the dot stays on mma.sync. Warps go along M
 * while M / W0 > 16, as Triton's; N = the largest N of the kind's instruction up to 256
 * dividing N / W1 that B's panels allow. */
bool gpu_wgmma_plan(const ir_op *dot, int warp, int warps, gpu_mma *p);
/* Whether wgmma reads both operands of kind k K-major only (TF32, S8). */
bool gpu_wgmma_kmajor(gpu_mma_kind k);
/* Its second half, for a plan whose kind, M, N and K are set (the unit tests). */
bool gpu_wgmma_plan_shape(gpu_mma *p, int warps);
/* The operand types and shapes every tensor-core dot needs (sets kind, acc16, M, N, K). */
bool gpu_mma_fits(const ir_op *dot, gpu_mma *p);
/* The rest of a wgmma plan whose shape and warps are set, with instructions m64nNk* of
 * N = instr_n: false when they do not tile the shape (or B's panels). */
bool gpu_wgmma_finish(gpu_mma *p, int instr_n);
/* The accumulator slot of register r (0 .. N / 2 - 1: d0, d1, ...) of instruction (m, n). */
int gpu_wgmma_c_slot(const gpu_mma *p, int m, int n, int r);

/* A in registers (wgmma's "RS" form, attention's P): A's fragment of instruction m at
 * k-step kk is four .b32 registers, each two consecutive k of one row; its elements
 * r = 0..7 are, in the PTX ISA's table, row 16 q + lane / 4 + 8 ((r / 2) % 2) of the 64
 * (warp q of the warpgroup) and column 16 kk + 8 (r / 4) + 2 (lane % 4) + r % 2: exactly
 * where an #mma v3 layout with warps [W0, 1] keeps them, whatever its instruction N (the
 * accumulator of a dot whose N is this one's K, such as the first dot of attention). So
 * a dot whose A is in such a layout, with W0 the plan's and the plan's W1 = 1, reads A
 * from the thread's own slots: gpu_wgmma_a_regs says whether al is such a layout,
 * gpu_wgmma_a_slot gives the slot of element r. */
bool gpu_wgmma_a_regs(const gpu_mma *p, const gpu_layout *al);
int gpu_wgmma_a_slot(const gpu_mma *p, const gpu_layout *al, int m, int kk, int r);

/* An operand tile in an NVMMA shared layout as a descriptor sees it. */
typedef struct gpu_wgmma_operand {
	int bytes;      /* swizzle mode: 128, 64 or 32 (a row of a panel) */
	int64_t w;      /* elements in a row of a panel (bytes / eb) */
	int64_t rows;   /* the tile's rows (a panel's) */
	int eb;         /* bytes per element */
	bool mn_major;  /* the contiguous dim is M or N, not K: the instruction's imm-trans bit */
	bool swapped;   /* stored transposed (order [0, 1]): storage rows are the tile's columns */
	int64_t lbo, sbo;
} gpu_wgmma_operand;

/* o for an operand tile of `shape` (rows x columns, columns contiguous) with eb-byte
 * elements in shared layout l, read K-major (A) or MN-major (B); false when l is not the
 * NVMMA layout of that tile. */
bool gpu_wgmma_operand_of(const gpu_layout *l, const int64_t *shape, int eb, bool mn_major,
			  gpu_wgmma_operand *o);
/* o for operand A (b false: rows x cols = M x K) or B (b true: K x N) in shared layout l:
 * K-major or MN-major as l stores it (A row-major is K-major, B row-major N-major; order
 * [0, 1] the other way); false when l is not the NVMMA layout of the tile. */
bool gpu_wgmma_operand_for(const gpu_layout *l, int64_t rows, int64_t cols, int eb, bool b,
			   gpu_wgmma_operand *o);
/* The descriptor's constant fields: LBO, SBO, swizzle mode (start address 0). */
uint64_t gpu_wgmma_desc_bits(const gpu_wgmma_operand *o);
/* The byte offset, from the tile's start, of the descriptor start address of a slice
 * whose first element is (r, c): where that element would be unswizzled. */
int64_t gpu_wgmma_start(const gpu_wgmma_operand *o, int64_t r, int64_t c);
/* The same for element (r, c) of the operand tile (its storage transposed when swapped);
 * additive: at(r, c) = at(r, 0) + at(0, c) for the slices' starts (rows and columns that
 * are multiples of 8 and of a panel's row, or inside one panel). */
int64_t gpu_wgmma_at(const gpu_wgmma_operand *o, int64_t r, int64_t c);
/* The first row of A and first column of B of instruction (m, n) of warpgroup (g, w1). */
int64_t gpu_wgmma_a_row(const gpu_mma *p, int m, int g);
int64_t gpu_wgmma_b_col(const gpu_mma *p, int n, int w1);

/* ---- MFMA (mfma_layout.c) -------------------------------------------------------------------
 *
 * On AMD CDNA GPUs (gfx908, gfx90a, gfx940-gfx942) a dot runs on the matrix cores, one
 * wave (64 lanes) per v_mfma instruction of nonk x nonk x kin (nonk 32 or 16, as Triton's
 * AMD backend picks: matrix_instr_nonkdim when the kernel sets it, else 32 when M and N are
 * both at least 32, else 16; and 16 where 32 would leave waves without a whole
 * instruction: a 32 x 32 block on 4 waves, attention's 128 rows on 8). Every operand register of a lane holds kw = kin nonk / 64
 * consecutive k of one row of A (or one column of B): lane l holds row (column) l % nonk
 * and k = kw (l / nonk) + 0 .. kw - 1 of the instruction (the CDNA2/CDNA3 ISA guides'
 * MFMA operand tables, one block). The accumulator: register r of lane l is row
 * 4 G (r / 4) + 4 (l / nonk) + r % 4, column l % nonk, G = 64 / nonk lane groups (for 32:
 * rows 8 (r / 4) + 4 (l / 32) + r % 4; for 16: 4 (l / 16) + r).
 *
 * As a distribution that accumulator is the blocked layout per_thread [4, 1], lanes
 * [G, nonk], warps [W0, W1], order [1, 0] (#mfma<warps [W0, W1], instr [nonk, nonk]>):
 * for nonk 16 one repetition along M is one instruction's rows; for nonk 32 an
 * instruction's 32 rows are four repetitions 4 i + q (rows 8 q + 4 (l / 32) + r % 4 of it,
 * r / 4 = q), which any rows may make up as long as A's fragment comes from the same rows
 * (gpu_mfma_a_elem), as mma.sync's pairing does. So the element-wise ops, reductions and
 * stores after a dot see an ordinary blocked layout.
 *
 * Instructions (kin; the operand register of a lane):
 *   F16   v_mfma_f32_32x32x8f16, _16x16x16f16 (8, 16; <4 x half>)        gen 1-3
 *   BF16  v_mfma_f32_32x32x8bf16_1k, _16x16x16bf16_1k (8, 16; <4 x i16>)  gen 2-3
 *   S8    v_mfma_i32_32x32x8i8, _16x16x16i8 (8, 16; i32)                  gen 1-2
 *         v_mfma_i32_32x32x16_i8, _16x16x32_i8 (16, 32; i64)              gen 3
 *   E4M3, E5M2  v_mfma_f32_32x32x16_fp8_fp8 / _bf8_bf8, _16x16x32_* (16, 32; i64)  gen 3
 * The rest (tf32, fp32, an fp16 accumulator, fp8 before gfx940) stays on the FMA path.
 * gfx940's fp8 formats are the FNUZ ones (bias 8 and 16, 0x80 the only NaN); Triton's
 * float8e4nv and float8e5 (OCP: bias 7 and 15) have each finite value twice the FNUZ
 * value of the same byte, so the lowering feeds the bytes as they are (0x80, OCP's -0,
 * made +0), runs the dot on a quarter of the accumulator and multiplies it by 4 after:
 * exact, but OCP's infinities and NaNs read as large finite numbers. */

/* The MFMA generation of AMD processor gfx ("gfx90a"): 1 gfx908 (CDNA1), 2 gfx90a
 * (CDNA2), 3 gfx940-gfx942 (CDNA3); 0 when it has no matrix cores (gfx906, Hygon's
 * Z100) or is not known. */
int gpu_amd_mfma_gen(const char *gfx);
/* Whether gfx has v_dot2_f32_f16 and v_dot4_i32_i8 (gfx906 and the CDNA processors). */
bool gpu_amd_has_dot(const char *gfx);

/* The MFMA plan of dot on generation gen (0: none) in programs of `warps` waves of `warp`
 * (64) lanes; nonk 32 or 16 from the kernel's matrix_instr_nonkdim, 0 for Triton's
 * choice. The waves split M and N as for mma.sync (all along M for a dot sharing its
 * block with another, attention); false when the kind has no instruction on gen or the
 * shape does not tile (M a multiple of nonk W0, N of nonk W1, K of kin). */
bool gpu_mfma_plan(const ir_op *dot, int gen, int nonk, int warp, int warps, gpu_mma *p);
/* Its second half, for a plan whose kind, gen, nonk, M, N and K are set (the tests). */
bool gpu_mfma_plan_shape(gpu_mma *p, int warps);
/* The plan of a dot whose result is in the #mfma layout l, on generation gen. */
bool gpu_mfma_plan_layout(const ir_op *dot, const gpu_layout *l, int gen, gpu_mma *p);
/* kin, the K of one instruction, and kw, the operand elements of one lane. */
int gpu_mfma_kin(const gpu_mma *p);
int gpu_mfma_kw(const gpu_mma *p);
/* The element (row, column) of A that element e (0 .. kw - 1) of lane `lane`'s operand
 * holds in instruction row i (of the wave's mtiles) at k-step kk, for wave row w0; the
 * same for B's column j (of ntiles), wave column w1: rows kw (l / nonk) + e of the
 * step, column l % nonk of the instruction. */
void gpu_mfma_a_elem(const gpu_mma *p, int i, int kk, int w0, int lane, int e, int64_t *row, int64_t *col);
void gpu_mfma_b_elem(const gpu_mma *p, int j, int kk, int w1, int lane, int e, int64_t *row, int64_t *col);
/* The accumulator slot of result register r (0 .. nonk^2 / 64 - 1) of instruction (i, j). */
int gpu_mfma_c_slot(const gpu_mma *p, int i, int j, int r);
/* Those maps as the lowering evaluates them at run time, with li = lane % nonk and
 * lg = lane / nonk: A's row = (li / blk) blk_stride + w0 blk + li % blk + i row_tile, B's
 * column = w1 nonk + li + j col_tile, the k of both kk kin + lg kw + e (gpu_mfma_a_elem and
 * gpu_mfma_b_elem are these, so the unit tests check the lowering's arithmetic too). */
typedef struct gpu_mfma_map {
	int blk;              /* 256 / nonk: the rows of one register block of the accumulator */
	int64_t blk_stride;   /* blk W0: between a wave's register blocks */
	int64_t row_tile;     /* (nonk / blk) blk W0: between a wave's instruction rows */
	int64_t col_tile;     /* nonk W1: between a wave's instruction columns */
	int kin, kw;
} gpu_mfma_map;
gpu_mfma_map gpu_mfma_map_of(const gpu_mma *p);

#endif
