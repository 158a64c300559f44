/* gpu_isa.h: what the GPU lowering (lower_gpu.c, written once for every GPU) asks of a
 * GPU target. Each GPU backend fills one table: backends/nvptx/isa.c (NVVM intrinsics,
 * inline PTX) and backends/amdgpu/isa.c (amdgcn intrinsics, LDS, wave64). */
#ifndef TILECC_CODEGEN_GPU_ISA_H
#define TILECC_CODEGEN_GPU_ISA_H

#include "codegen/cg.h"

typedef struct gpu_isa {
	const char *family; /* "nvptx", "amdgcn": the target= of the kernel metadata */
	/* address space of pointer kernel parameters (1: global, cast to generic on entry, so
	 * that the backend can infer global accesses), or 0 to pass generic pointers */
	unsigned param_addrspace;
	/* shared memory is declared in the code object at its size (AMD's LDS), not given at
	 * launch (NVIDIA's dynamic shared memory) */
	bool static_smem;
	LLVMValueRef (*thread_id)(cg *c);                /* i32, within the program */
	LLVMValueRef (*program_id)(cg *c, int axis);     /* i32 */
	LLVMValueRef (*num_programs)(cg *c, int axis);   /* i32 */
	/* every thread of the program waits; shared-memory accesses before it are visible
	 * to all after it */
	void (*barrier)(cg *c);
	/* x (an i32 or f32) of lane (this lane ^ mask) of the warp; lane = tid % warp */
	LLVMValueRef (*shfl_xor)(cg *c, LLVMValueRef x, int mask, int warp, LLVMValueRef tid);
	/* x (an i32 that every lane of the warp already holds alike, such as tid / 32), in a form
	 * the assembler knows to be warp-uniform, or NULL where nothing is gained. On NVIDIA
	 * lane 0's x through shfl.sync.idx: ptxas then keeps what is computed from it (wgmma's
	 * descriptors) in uniform registers, where a value derived from %tid.x goes through
	 * ordinary ones and an R2UR before every wgmma. Built once per kernel, in its entry
	 * block (lg_warp_index). */
	LLVMValueRef (*warp_uniform)(cg *c, LLVMValueRef x);
	/* a masked load of 4, 8 or 16 bytes as one instruction, with `other` where m is
	 * false; NULL: the lowering branches around an ordinary load */
	LLVMValueRef (*masked_load)(cg *c, LLVMValueRef p, LLVMTypeRef t, LLVMValueRef m,
				    LLVMValueRef other, int bytes);
	/* math op on its operands a (f32 or f64; ldexp's exponent i32) the target's own way,
	 * or NULL for the generic lowering */
	LLVMValueRef (*math)(cg *c, const ir_op *op, LLVMValueRef *a);
	/* x / y for f32 without {precise}, or NULL for LLVM's fdiv */
	LLVMValueRef (*fdiv)(cg *c, const ir_op *op, LLVMValueRef x, LLVMValueRef y);
	/* the atomic a (cg.h) with its memory semantics and scope, as one thread performs
	 * it; returns the old value */
	LLVMValueRef (*atomic)(cg *c, const cg_atomic *a);
	/* Tensor cores (gpu_mma.h); NULL on targets without them. ldmatrix: n (1, 2 or 4)
	 * 8x8 matrices of 16-bit elements from shared memory, each lane giving the address of
	 * one matrix row (p, addrspace 3), transposed when trans; out receives n i32 (two
	 * elements each). mma: the product of fragments a (4 i32) and b (2 i32) of kind k
	 * (GPU_ISA_MMA_*: the values of gpu_mma_kind, then fp16 into fp16) added to the four
	 * accumulators of acc (f32; i32 for S8; half for F16_F16), in place: m16n8k16 for the
	 * 16-bit kinds, m16n8k8 for TF32 (whose fp32 inputs it rounds to tf32 first),
	 * m16n8k32 for S8 and the fp8 kinds (f32 accumulators; sm_89 and later). */
	void (*ldmatrix)(cg *c, LLVMValueRef p, int n, bool trans, LLVMValueRef *out);
	/* stmatrix (sm_90 and later; the lowering checks the arch): four 8x8 matrices of
	 * 16-bit elements to shared memory, the inverse of ldmatrix.x4: regs (4 i32, two
	 * elements each, in the mma fragment layout: lane L holds row L / 4, columns
	 * 2 (L % 4) and + 1 of each matrix), p the address of row L % 8 of matrix L / 8. */
	void (*stmatrix)(cg *c, LLVMValueRef p, const LLVMValueRef *regs);
	void (*mma)(cg *c, int kind, LLVMValueRef *a, LLVMValueRef *b, LLVMValueRef *acc);
#define GPU_ISA_MMA_F16 0
#define GPU_ISA_MMA_BF16 1
#define GPU_ISA_MMA_TF32 2
#define GPU_ISA_MMA_S8 3
#define GPU_ISA_MMA_E4M3 4
#define GPU_ISA_MMA_E5M2 5
#define GPU_ISA_MMA_F16_F16 6
	/* Asynchronous copies to shared memory (the pipeline pass); NULL on targets without
	 * them. cp_async: `bytes` (4, 8 or 16) from global src to shared dst (addrspace 3),
	 * of which the first src_bytes (i32: bytes or 0) are read and the rest zero-filled;
	 * commit closes a group of copies; wait waits until at most `pending` groups of this
	 * thread are still in flight. */
	void (*cp_async)(cg *c, LLVMValueRef dst, LLVMValueRef src, int bytes, LLVMValueRef src_bytes);
	void (*cp_async_commit)(cg *c);
	void (*cp_async_wait)(cg *c, int pending);
	/* A signed i32 address offset widened to i64 in a form the assembler keeps as a 64-bit
	 * value (NULL: a plain sext). For the offsets a pipelined loop's copies add to their
	 * loop-carried base each iteration: ptxas rebuilds a `mul.wide.s32` offset inside the
	 * loop (IMAD.WIDE before every cp.async, which stalls the copies) to save registers;
	 * a cvt.s64.s32 it leaves alone (docs/perf.md, ninth session). */
	LLVMValueRef (*wide_offset)(cg *c, LLVMValueRef off);
	/* Warpgroup tensor cores (wgmma, sm_90a; NULL elsewhere; lower_wgmma.c). wgmma:
	 * acc (n / 2 f32, or i32 for int8, in place) += the m64nNk* (N = n) product of the
	 * shared-memory operands whose 64-bit matrix descriptors are da and db (i64), kind a
	 * gpu_mma_kind (0 fp16, 1 bf16, 2 tf32, 3 int8: m64nNk16, k16, k8, k32), A M-major when
	 * trans_a, B N-major when trans_b (16-bit kinds only); asynchronous: it belongs to the
	 * open group. fence before the first wgmma (and after other writes of its
	 * accumulators), commit closes the group, wait(pending) waits until at most `pending`
	 * groups are in flight and hands back the n accumulators it covers (tied, in place).
	 * With scale_d false the product ignores acc's values (D = A B: scale-d = 0).
	 * fence_proxy_async: this thread's shared-memory stores become visible to the async
	 * proxy that wgmma reads through (before the barrier that precedes the wgmma). */
	void (*wgmma_fence)(cg *c);
	void (*wgmma)(cg *c, int kind, int n, LLVMValueRef da, LLVMValueRef db, bool trans_a, bool trans_b,
		      bool scale_d, LLVMValueRef *acc);
	/* the same with A in registers (the "RS" form): a[0..3], i32, each two fp16/bf16 of
	 * the thread's A fragment (gpu_mma.h, gpu_wgmma_a_slot) */
	void (*wgmma_rs)(cg *c, int kind, int n, const LLVMValueRef *a, LLVMValueRef db, bool trans_b,
			 bool scale_d, LLVMValueRef *acc);
	void (*wgmma_commit)(cg *c);
	void (*wgmma_wait)(cg *c, int pending, LLVMValueRef *acc, int n);
	void (*fence_proxy_async)(cg *c);
	/* Two fp32 values rounded to nearest even into two 16-bit floats (bf16 when bf16,
	 * else fp16) by one instruction: out[0] from lo, out[1] from hi. NULL where the
	 * target has none; truncf then goes element by element. */
	void (*narrow_pair)(cg *c, LLVMValueRef lo, LLVMValueRef hi, bool bf16, LLVMValueRef *out);
	/* AMD matrix cores (MFMA, gpu_mma.h; lower_mfma.c; NULL elsewhere): acc (nonk^2 / 64
	 * values, f32 or i32 for S8, in place) += the product of one lane's operand registers
	 * a and b on the nonk x nonk instruction of generation gen for kind (a gpu_mma_kind):
	 * <4 x half> for F16, <4 x i16> for BF16, i32 (gen 1-2) or i64 (gen 3) of int8 bytes
	 * for S8, i64 of fp8 bytes for E4M3 and E5M2 (read as gfx940's FNUZ formats). */
	void (*mfma)(cg *c, int kind, int nonk, int gen, LLVMValueRef a, LLVMValueRef b, LLVMValueRef *acc);
	/* AMD's dot instructions (gfx906 and CDNA; NULL elsewhere): acc + a.x b.x + a.y b.y
	 * (a, b <2 x half>, acc f32: v_dot2_f32_f16), and acc + the products of the four
	 * signed bytes of a and b (i32: v_dot4_i32_i8). */
	LLVMValueRef (*fdot2)(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc);
	LLVMValueRef (*sdot4)(cg *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc);
	/* a failed tl.device_assert: report msg (from file:line, in func) and stop */
	void (*assert_fail)(cg *c, const char *msg, const char *file, int line, const char *func);
	/* The base of the program's shared memory (addrspace 3), made when the lowering of
	 * function fn begins; finish_kernel then knows its size in bytes and completes the
	 * kernel (calling convention, launch bounds, the memory itself). */
	LLVMValueRef (*smem_begin)(cg *c, LLVMValueRef fn);
	void (*finish_kernel)(cg *c, LLVMValueRef fn, int threads, LLVMValueRef smem, int64_t bytes);
} gpu_isa;

extern const gpu_isa nvptx_isa;
extern const gpu_isa amdgpu_isa;

/* The call of an intrinsic that takes no arguments and is not overloaded ("llvm.nvvm.
 * read.ptx.sreg.tid.x"). */
LLVMValueRef cg_call0(cg *c, const char *name);
/* The call of the external function `name` of one argument x, returning x's type (declared
 * in the module on first use): libdevice's __nv_erff, the AMD device library's functions. */
LLVMValueRef cg_call_ext1(cg *c, const char *name, LLVMValueRef x);
/* The call of the external function `name` of the n (at most 4) arguments args, returning
 * ret (declared on first use). */
LLVMValueRef cg_call_ext(cg *c, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n);

#endif
