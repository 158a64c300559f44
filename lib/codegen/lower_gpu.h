/* lower_gpu.h: what the two halves of the GPU lowering share, internal to lib/codegen.
 * lower_gpu.c lowers a function and most ops; lower_gpu_dot.c lowers dots and the
 * pipeline's ring ops. A tile is, while lowering, the SSA values of the slots this thread
 * holds (gtile); the helpers below are lower_gpu.c's, prefixed lg_. */
#ifndef TILECC_CODEGEN_LOWER_GPU_H
#define TILECC_CODEGEN_LOWER_GPU_H

#include "codegen/cg.h"
#include "codegen/gpu_isa.h"
#include "codegen/lower.h"
#include "transforms/gpu_layout.h"

typedef struct gtile {
	int n;             /* elements this thread holds (E) */
	LLVMValueRef *v;   /* their values */
	int64_t smem;      /* a #shared tile: its byte offset in shared memory (n is 0) */
	LLVMValueRef dyn;  /* a ring slot's #shared tile (local_view): bytes added at run time
			    * (i64), or NULL */
	bool ready;        /* a #shared tile the pipeline staged once before its loop ({ring}):
			    * fenced for the async proxy, behind the barrier that follows it */
} gtile;

typedef struct gpu {
	cg *c;
	int T;                  /* threads per program */
	int warp;               /* threads per warp */
	LLVMValueRef tid;       /* thread index (i32) */
	LLVMValueRef warp_id;   /* tid / warp, warp-uniform: lg_warp_index; NULL until asked */
	LLVMValueRef warp_div;  /* the division tid / warp that warp_id was made from */
	LLVMValueRef smem;      /* dynamic shared memory (addrspace 3) */
	int64_t smem_bytes;     /* the most any op needs */
	bool explicit_barriers; /* insert-barriers placed them: none before shared-memory ops */
	bool pending;           /* a one-thread store since the last barrier (sync_reads) */
	bool wgmma;             /* {nv_arch_specific}: sm_90a, whose PTX may hold wgmma */
	int cc;                 /* {nv_cc}: NVIDIA compute capability (90 for sm_90); 0 else */
	int mfma_gen;           /* {amd_arch}: its MFMA generation (gpu_amd_mfma_gen); 0 else */
	bool amd_dot;           /* {amd_arch} has v_dot2_f32_f16 and v_dot4_i32_i8 */
	const ir_op *waited;    /* a dot_wait whose wait the dot before it made (lg_lower_dot) */
	int wgmma_groups;       /* wgmma groups that may be in flight here, counted from the
				 * last wait in this block; -1: not known (lg_lower_dot) */
	/* the ring slots of the pipelined loop being lowered ({ring_slot} remi ops of its
	 * body): their counters (phis) and the values they replace */
	int nslots;
	const ir_value *slot_of[4];
	LLVMValueRef slot_phi[4];
} gpu;

/* A tile type's layout (layout.c), and whether it is the canonical one, whose slots the
 * lowering indexes with the direct formula of owned_index. */
typedef struct tlayout {
	gpu_layout l;
	bool canonical;
} tlayout;

extern gpu *lg_prog; /* the program being lowered; lower_gpu_func is not reentrant */

/* The thread's warp index, tid / warp, made warp-uniform where the target can say so
 * (gpu_isa.warp_uniform), built once, in the entry block beside tid. */
LLVMValueRef lg_warp_index(cg *c);

/* ---- values (ir_value to LLVM value or gtile; cg_fail when not lowered yet) ---- */
static inline bool lg_is_tile(const ir_type *t)
{
	return t->kind == IR_TILE;
}

LLVMValueRef lg_sget(cg *c, const ir_value *v);
gtile *lg_tget(cg *c, const ir_value *v);
void lg_put(cg *c, const ir_value *v, void *x);
/* A tile of n slots (none for a #shared tile), not placed in shared memory. */
gtile *lg_new_tile(cg *c, int n);
/* Element e of operand v: a tile's own element, or a scalar broadcast. */
LLVMValueRef lg_opnd(cg *c, const ir_value *v, int e);

/* ---- layouts ---- */
/* Elements per thread of a canonical tile of numel elements. */
int lg_per_thread(int64_t numel);
/* The flattened index (i32) of this thread's e-th element of a canonical tile. */
LLVMValueRef lg_owned_index(cg *c, int64_t numel, int e);
const tlayout *lg_tile_layout(cg *c, const ir_type *t);
/* Elements this thread holds of a tile of type t, and the flattened index (i32) of
 * slot e. */
int lg_slots(cg *c, const ir_type *t);
LLVMValueRef lg_owned(cg *c, const ir_type *t, int e);

/* ---- shared memory ---- */
void lg_barrier(cg *c);
/* The barrier before an op overwrites shared memory others may still read, unless
 * insert-barriers placed the barriers. */
void lg_lead_barrier(cg *c);
/* A pointer to element idx (of type e) of the buffer at byte offset byte_off. */
LLVMValueRef lg_smem_at(cg *c, const ir_type *e, int64_t byte_off, LLVMValueRef idx);
/* The element index (i32) of (r, col) in a 2-D tile of #shared type t (its swizzle). */
LLVMValueRef lg_shared_index(cg *c, const ir_type *t, LLVMValueRef r, LLVMValueRef col);
/* The element index (i32), in #shared tile st, of this thread's slot e of a 2-D tile of
 * type t: lg_shared_index of its coordinates, with their constant parts folded. */
LLVMValueRef lg_owned_shared_index(cg *c, const ir_type *t, int e, const ir_type *st);
/* The address (from base, a pointer to st's first byte, elements of eb bytes) of the
 * same element: the run-time part of its index first, the constant part last, so that
 * the constant part of each slot's address folds into its access's immediate offset (a
 * thread's slots differ by constants where the swizzle repeats) and one register serves
 * every slot. */
LLVMValueRef lg_owned_shared_addr(cg *c, LLVMValueRef base, const ir_type *t, int e, const ir_type *st, int64_t eb);
/* Tile v to shared memory at byte offset off, row-major; element idx of a row-major
 * buffer back. */
void lg_to_smem(cg *c, const ir_value *v, int64_t off);
/* A store of v to p, only where m (NULL: always) holds. */
void lg_pred_store(cg *c, LLVMValueRef p, LLVMValueRef v, LLVMValueRef m, unsigned align);
LLVMValueRef lg_from_smem(cg *c, const ir_type *e, int64_t off, LLVMValueRef idx);

/* ---- loops in registers ---- */
/* A counted loop: for (iv = from; iv <= or < bound; iv++), carrying n values that start at
 * init[]. lg_philoop_open leaves the builder in the body with l->iv and l->vals[]
 * current; lg_philoop_close takes the values for the next iteration and leaves the
 * builder after the loop, where l->vals[] hold the final values. */
typedef struct philoop {
	LLVMBasicBlockRef head, done;
	LLVMValueRef iv, vals[8];
	int n;
} philoop;
void lg_philoop_open(cg *c, philoop *l, const char *name, LLVMValueRef from, LLVMIntPredicate pred,
		     LLVMValueRef bound, int n, const LLVMValueRef *init);
void lg_philoop_close(cg *c, philoop *l, const LLVMValueRef *next);

/* Lowers every op of block b in order. */
void lg_lower_block(cg *c, const ir_block *b);

/* ---- lower_gpu_reduce.c ---- */
void lg_lower_reduce(cg *c, const ir_op *op);
void lg_lower_scan(cg *c, const ir_op *op);

/* ---- lower_gpu_dot.c ---- */
void lg_lower_local_view(cg *c, const ir_op *op);
void lg_lower_local_load(cg *c, const ir_op *op);
void lg_lower_async_copy(cg *c, const ir_op *op);
void lg_lower_async(cg *c, const ir_op *op);
void lg_lower_dot_wait(cg *c, const ir_op *op);
void lg_lower_dot(cg *c, const ir_op *op);

#endif
