/* lower_cpu.h: what the CPU lowering (lower_cpu.c) shares with the op families that live in
 * files of their own (lower_cpu_dot.c): counted loops over i64, buffers in the entry block,
 * and the entry points of those families. */
#ifndef TILECC_CODEGEN_LOWER_CPU_H
#define TILECC_CODEGEN_LOWER_CPU_H

#include <llvm-c/DebugInfo.h>

#include "codegen/cg.h"

/* ---- loops ------------------------------------------------------------------------------ */

typedef struct cgloop {
	LLVMBasicBlockRef head, body, done;
	LLVMValueRef iv;
} cgloop;

/* Opens `for (iv = lo; iv < hi; iv += 1)` over i64 and positions the builder in the body. */
static inline LLVMValueRef loop_open_range(cg *c, cgloop *l, LLVMValueRef lo, LLVMValueRef hi)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	l->head = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "loop");
	l->body = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "body");
	l->done = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "done");
	LLVMBuildBr(c->b, l->head);
	LLVMPositionBuilderAtEnd(c->b, l->head);
	l->iv = LLVMBuildPhi(c->b, c->t_i64, "i");
	LLVMAddIncoming(l->iv, &lo, &pre, 1);
	LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSLT, l->iv, hi, ""), l->body, l->done);
	LLVMPositionBuilderAtEnd(c->b, l->body);
	return l->iv;
}

static inline LLVMValueRef loop_open(cg *c, cgloop *l, int64_t n)
{
	return loop_open_range(c, l, cg_i64(c, 0), cg_i64(c, n));
}

static inline LLVMValueRef loop_latch(cg *c, cgloop *l)
{
	LLVMValueRef next = LLVMBuildNSWAdd(c->b, l->iv, cg_i64(c, 1), "");
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	LLVMValueRef br = LLVMBuildBr(c->b, l->head);
	LLVMAddIncoming(l->iv, &next, &latch, 1);
	LLVMPositionBuilderAtEnd(c->b, l->done);
	return br;
}

static inline void loop_close(cg *c, cgloop *l)
{
	loop_latch(c, l);
}

/* Closes a loop that must stay a loop (llvm.loop.unroll.disable), so that the vectorizer
 * works on it instead of on the loop around it after a full unroll. */
static inline void loop_close_rolled(cg *c, cgloop *l)
{
	LLVMValueRef br = loop_latch(c, l);
	LLVMMetadataRef tmp = LLVMTemporaryMDNode(c->ctx, NULL, 0);
	LLVMMetadataRef dis = LLVMMDStringInContext2(c->ctx, "llvm.loop.unroll.disable", 24);
	LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(c->ctx, &dis, 1)};
	LLVMMetadataRef loop = LLVMMDNodeInContext2(c->ctx, ops, 2);
	LLVMMetadataReplaceAllUsesWith(tmp, loop);
	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->ctx, "llvm.loop", 9), LLVMMetadataAsValue(c->ctx, loop));
}

/* A buffer of LLVM type t (an array), 64-byte aligned, allocated in the entry block so that
 * it is one stack slot however often the code around it runs. */
static inline LLVMValueRef cpu_alloca(cg *c, LLVMTypeRef t, const char *name)
{
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(c->b);
	LLVMValueRef term = LLVMGetBasicBlockTerminator(c->entry);
	if (term)
		LLVMPositionBuilderBefore(c->b, term);
	else
		LLVMPositionBuilderAtEnd(c->b, c->entry);
	LLVMValueRef a = LLVMBuildAlloca(c->b, t, name);
	LLVMSetAlignment(a, 64);
	LLVMPositionBuilderAtEnd(c->b, cur);
	return a;
}

/* Prefetches the cache line at p (llvm.prefetch): for reading, or for writing (write: a
 * store to it then does not wait for the line at the head of the store queue; prefetchw on
 * x86-64); locality 3 keeps it in L1, 2 in L2, 1 for a use a while later (prefetcht2). */
static inline void cpu_prefetch(cg *c, LLVMValueRef p, bool write, int locality)
{
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, "llvm.prefetch", &c->t_ptr, 1, &fty);
	LLVMValueRef args[4] = {p, cg_i32(c, write), cg_i32(c, locality), cg_i32(c, 1)};
	LLVMBuildCall2(c->b, fty, f, args, 4, "");
}

/* ---- tl.dot (lower_cpu_dot.c) -------------------------------------------------------------- */

/* One tl.dot, `batch` products one after another: out[M x N] = acc[M x N] + A[M x K] @ B[K x N].
 * acc and out are row-major buffers in the compute type ct (f32, f64 or i32); acc may be out
 * itself (accumulation in place), or NULL for zeros. A and B are given by arrays of the
 * addresses of their rows (batch * M rows of K elements of ct; batch * K rows of N elements
 * of b_elem in runs, which may also be f16 or bf16, converted to ct while B is packed), so that the
 * rows may be in a buffer or where a load would read them. */
typedef struct cpu_dot {
	LLVMValueRef a_rows, b_rows, acc, out;
	/* i64 byte offsets added to every address of a_rows / b_rows, or NULL */
	LLVMValueRef a_shift, b_shift;
	const ir_type *ct, *b_elem;
	int64_t batch, m, n, k;
	/* b_rows holds the addresses of runs of b_run consecutive elements (N / b_run per row,
	 * b_run a multiple of the vector width, or N) */
	int64_t b_run;
	/* B's rows are in memory (not a buffer), in a K loop that goes on below them at the
	 * same stride: while packing, prefetch the rows K further down */
	bool b_prefetch;
	/* A's rows are in memory, in such a K loop: the last block of rows prefetches the
	 * first one's next K elements */
	bool a_next;
} cpu_dot;

/* Whether cpu_dot_lower converts B's elements of type e to ct itself while packing. */
bool cpu_dot_packs_from(cg *c, const ir_type *e, const ir_type *ct);

/* Emits d at the builder's position: a register-blocked micro-kernel over packed panels of
 * B (lower_cpu_dot.c says how the blocks are chosen). */
void cpu_dot_lower(cg *c, const cpu_dot *d);

#endif
