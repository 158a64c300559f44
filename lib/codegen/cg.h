/* cg.h: what the pieces of the LLVM lowering share. The lowering state, the mapping of
 * tile-IR types to LLVM types, and the scalar (per-element) emitters that the CPU tile
 * lowering and, later, the GPU lowerings call for each element they own. */
#ifndef TILECC_CODEGEN_CG_H
#define TILECC_CODEGEN_CG_H

#include <setjmp.h>
#include <stdbool.h>

#include <llvm-c/Core.h>

#include "ir/ir.h"

typedef struct cg {
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMValueRef fn;          /* the program function being built */
	LLVMBasicBlockRef entry;  /* allocas go here */
	ir_ptrmap vals;           /* ir_value -> LLVMValueRef (scalars) or struct tv * (tiles) */
	ir_ptrmap uses;           /* ir_value -> use count (+100 when used in a nested region) */
	ir_ptrmap lazy_loads;     /* CPU: tile loads that may be evaluated lazily -> non-NULL */
	ir_ptrmap layouts;        /* GPU: tile type -> its parsed layout (lower_gpu.c) */
	arena *a;                 /* the compilation's arena, for lowering records */
	diag_engine *d;
	int llvm_errors; /* errors LLVM reported through the context (inline assembly) */
	const ir_func *f;
	struct axis_info *ai;     /* contiguity facts, NULL when not computed */
	bool reassoc;             /* inside a reduction's combine: FP ops may reassociate */
	bool soft_half;           /* no hardware fp16 conversions: convert in integer ops */
	bool gpu;                 /* a GPU target: the lowering of lower_gpu.c, fma contraction */
	const struct gpu_isa *isa; /* the GPU target's table (gpu_isa.h), NULL for CPUs */
	/* GPU: a wgmma function with a pipelined loop (async copies), so its signed i32
	 * pointer offsets computed outside loops, and the splat steps of pointer tiles advanced
	 * in loops, are widened by isa->wide_offset (gpu_isa.h). Not on the mma.sync path:
	 * there the first cost 2-10 % and the second left cvt.s64.s32 in the loop
	 * (docs/perf.md, stages 7 and 8). */
	bool wide_offsets;
	strbuf *meta_out;         /* --print-metadata: each kernel's NAME__meta text is appended */
	void *dib;                /* LLVMDIBuilderRef for line tables, NULL before the first use */
	LLVMMetadataRef dsp;      /* the subprogram of the function being lowered, or NULL */
	jmp_buf *fail;
	/* LLVM types used everywhere */
	LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f16, t_bf16, t_f32, t_f64, t_ptr;
	int vec_bytes; /* preferred vector width of the target, in bytes */
} cg;

/* Reports an internal or unsupported-construct error at op (NULL: at the function being
 * lowered) and abandons the lowering. */
_Noreturn void cg_fail(cg *c, const ir_op *op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The LLVM type of a scalar IR type as an SSA value (i1 stays i1). */
LLVMTypeRef cg_scalar_type(cg *c, const ir_type *t);
/* The LLVM type an element occupies in memory (i1 is a byte; fp8 is an i8). */
LLVMTypeRef cg_mem_type(cg *c, const ir_type *t);

LLVMValueRef cg_const_int(cg *c, LLVMTypeRef t, int64_t v);
LLVMValueRef cg_i64(cg *c, int64_t v);
LLVMValueRef cg_i32(cg *c, int64_t v);

/* Emits the scalar computation of one element of an element-wise op: args are the
 * operands' element values, elem the result's element type. */
LLVMValueRef cg_scalar_op(cg *c, const ir_op *op, LLVMValueRef *args, const ir_type *elem);
/* Converts a scalar from IR type `from` to `to` following the op's semantics. */
LLVMValueRef cg_convert(cg *c, const ir_op *op, LLVMValueRef v, const ir_type *from,
			const ir_type *to);

/* Defines, in the module (hidden), the libcalls LLVM emits for 16-bit float conversions
 * that the C runtime may lack (gcc 12's libgcc has none of them): __extendhfsf2 and
 * __truncsfhf2 when half (no hardware fp16 conversions: riscv64, x86-64 without F16C),
 * __truncsfbf2 when bf16 (LLVM 19 calls it on x86-64 with or without AVX512-BF16). */
void cg_define_half_libcalls(cg *c, bool half, bool bf16);

/* The kernel's runtime parameters in signature syntax, for NAME__meta: "*fp32:16,i32". */
void cg_signature_text(strbuf *b, const ir_func *f);

/* common.c: shared lowering helpers. The value of a `constant` op's element; the ABI
 * type of a kernel parameter (i1 as a byte, fp16/bf16 as raw bits) and its conversion
 * back; row-major strides; a flattened index split into per-dimension indices and
 * joined again (NULL entries contribute nothing; the index type is the input's); the
 * terminator of a region's block, or NULL. */
LLVMValueRef cg_const_value(cg *c, const ir_op *op, const ir_type *e);
LLVMTypeRef cg_abi_type(cg *c, const ir_type *t);
LLVMValueRef cg_from_abi(cg *c, const ir_type *t, LLVMValueRef v);
void cg_strides(const ir_type *t, int64_t *st);
void cg_unflatten(cg *c, const ir_type *t, LLVMValueRef i, LLVMValueRef *idx);
LLVMValueRef cg_flatten(cg *c, const int64_t *st, LLVMValueRef *idx, int rank);
const ir_op *cg_terminator(const ir_block *b);
/* A gather's source index: the result's flattened index i (of any integer type) with the
 * coordinate along the op's axis replaced by the index tile's element ix, clamped into the
 * source's extent (negative to 0, too large to the last), flattened in the source's
 * row-major order; of i's type. */
LLVMValueRef cg_gather_index(cg *c, const ir_op *op, LLVMValueRef i, LLVMValueRef ix);
/* Whether a `for` over Python's range(lb, ub, step) runs another iteration at iv: up while
 * step > 0, down while step < 0 (a signed induction variable); unsigned ones only go up. */
LLVMValueRef cg_range_cond(cg *c, LLVMValueRef iv, LLVMValueRef ub, LLVMValueRef step, bool sgn);

/* Line tables: debug_begin gives fn a subprogram at f's source line (nothing when f has
 * no location, as from .tir input); debug_loc makes the next instructions carry loc;
 * debug_end stops (for the wrappers); debug_finish completes the module's debug info. */
void cg_debug_begin(cg *c, const ir_func *f, LLVMValueRef fn);
void cg_debug_loc(cg *c, srcloc loc);
void cg_debug_end(cg *c);
void cg_debug_finish(cg *c);

/* Links module lib (bitcode or IR of device functions) into c->mod, with c->mod's triple
 * and data layout; lib is consumed. Non-zero when the link fails. */
int cg_link_module(cg *c, LLVMModuleRef lib);

/* atomic.c: one atomic read-modify-write or compare-and-swap of one element. kind is the
 * tile IR's {kind} ("add", "fadd", "max", "min", "umax", "umin", "and", "or", "xor",
 * "xchg") or "cas"; sem and scope are Triton's words ("relaxed", "acquire", "release",
 * "acq_rel"; "cta", "gpu", "sys"); val (and cmp, for "cas") have elem's memory type. */
typedef struct cg_atomic {
	const char *kind, *sem, *scope;
	const ir_type *elem;
	LLVMValueRef ptr, val, cmp;
} cg_atomic;

/* The atomic of op (atomic_rmw or atomic_cas) on one element: kind, sem and scope from its
 * attributes; ptr, val and cmp left for the caller. */
cg_atomic cg_atomic_of(const ir_op *op, const ir_type *elem);
/* The LLVM ordering of a Triton memory semantic (NULL: acq_rel), and the ordering of a
 * failed compare-and-swap under it (which reads but does not write, so does not release). */
LLVMAtomicOrdering cg_atomic_ordering(const char *sem);
LLVMAtomicOrdering cg_atomic_failure_ordering(const char *sem);
/* The atomic with LLVM's atomicrmw or cmpxchg (on the element's bits) at ordering ord and
 * system scope; returns the old value. */
LLVMValueRef cg_atomic_llvm(cg *c, const cg_atomic *a, LLVMAtomicOrdering ord);

/* Declares (once) and returns an LLVM intrinsic for the overloaded type t. */
LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef *tys, int ntys,
			  LLVMTypeRef *fnty);

#endif
