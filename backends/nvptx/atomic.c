/* atomic.c: atomics on NVIDIA GPUs with Triton's memory semantics and scope. LLVM 19's
 * NVPTX backend drops an atomic's ordering and scope (every atomicrmw becomes a relaxed
 * atom of GPU scope), so the atomic is written as inline PTX, as Triton emits it:
 * `atom.acq_rel.gpu.global.add.u32 d, [a], b;` (PTX ISA: atom{.sem}{.scope}{.space}.op.type,
 * sm_70 and later). The kinds and types PTX has no atom for (fp32/fp64 max and min,
 * bf16 add, 16-bit exchange) are LLVM's atomicrmw (a relaxed atom, or a compare-and-swap
 * loop), with `fence.acq_rel.<scope>` before it when the semantic releases and after it
 * when it acquires: PTX's release and acquire patterns. */
#include <stdio.h>
#include <string.h>

#include "codegen/gpu_isa.h"
#include "backends/nvptx/nvptx.h"

/* The PTX operation and type of a, and the inline-asm constraint of its operands ('h' 16,
 * 'r' 32, 'l' 64 bits; 'f', 'd' for fp32 and fp64 adds); false when PTX has no atom. */
static bool ptx_form(const cg_atomic *a, char *opty, size_t n, char *cons)
{
	const char *k = a->kind;
	int bits = ir_type_bits(a->elem);
	bool fl = ir_type_is_float(a->elem), sgn = ir_type_is_signed(a->elem);
	char ic = bits == 16 ? 'h' : bits == 32 ? 'r' : 'l';
	*cons = ic;
	if (!strcmp(k, "fadd")) {
		if (a->elem->kind == IR_F32)
			return *cons = 'f', snprintf(opty, n, "add.f32"), true;
		if (a->elem->kind == IR_F64)
			return *cons = 'd', snprintf(opty, n, "add.f64"), true;
		if (a->elem->kind == IR_F16)
			return snprintf(opty, n, "add.noftz.f16"), true;
		return false; /* bf16: atom.add.noftz.bf16 needs sm_90; LLVM chooses */
	}
	if (bits != 32 && bits != 64 && !(bits == 16 && !strcmp(k, "cas")))
		return false;
	if (!strcmp(k, "cas") || !strcmp(k, "xchg")) {
		snprintf(opty, n, "%s.b%d", !strcmp(k, "cas") ? "cas" : "exch", bits);
		return true;
	}
	if (fl)
		return false; /* fp max/min */
	if (!strcmp(k, "add"))
		snprintf(opty, n, "add.u%d", bits);
	else if (!strcmp(k, "max") || !strcmp(k, "min"))
		snprintf(opty, n, "%s.%c%d", k, sgn ? 's' : 'u', bits);
	else if (!strcmp(k, "umax") || !strcmp(k, "umin"))
		snprintf(opty, n, "%s.u%d", k + 1, bits);
	else if (!strcmp(k, "and") || !strcmp(k, "or") || !strcmp(k, "xor"))
		snprintf(opty, n, "%s.b%d", k, bits);
	else
		return false;
	return true;
}

static bool releases(const char *sem)
{
	return !strcmp(sem, "release") || !strcmp(sem, "acq_rel");
}

static bool acquires(const char *sem)
{
	return !strcmp(sem, "acquire") || !strcmp(sem, "acq_rel");
}

static void fence(cg *c, const char *scope)
{
	char text[64];
	snprintf(text, sizeof text, "fence.acq_rel.%s;", scope);
	LLVMTypeRef ft = LLVMFunctionType(c->t_void, NULL, 0, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), (char *)"~{memory}", 9, 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(c->b, ft, fn, NULL, 0, "");
}

LLVMValueRef nvptx_atomic(cg *c, const cg_atomic *a)
{
	char opty[32], k;
	if (!ptx_form(a, opty, sizeof opty, &k)) {
		if (releases(a->sem))
			fence(c, a->scope);
		LLVMValueRef r = cg_atomic_llvm(c, a, LLVMAtomicOrderingMonotonic);
		if (acquires(a->sem))
			fence(c, a->scope);
		return r;
	}
	bool cas = !strcmp(a->kind, "cas");
	char text[128], cons[32];
	snprintf(text, sizeof text, "atom.%s.%s.global.%s $0, [$1], $2%s;", a->sem, a->scope, opty,
		 cas ? ", $3" : "");
	if (cas)
		snprintf(cons, sizeof cons, "=%c,l,%c,%c,~{memory}", k, k, k);
	else
		snprintf(cons, sizeof cons, "=%c,l,%c,~{memory}", k, k);
	/* the operands in the constraint's register type: integers of the element's width,
	 * or f32/f64 for the float adds; for cas, $2 is the compare value and $3 the new one */
	LLVMTypeRef mt = cg_mem_type(c, a->elem);
	LLVMTypeRef rt = k == 'f' ? c->t_f32 : k == 'd' ? c->t_f64
			 : LLVMIntTypeInContext(c->ctx, (unsigned)ir_type_bits(a->elem));
	int na = cas ? 3 : 2;
	LLVMValueRef args[3] = {a->ptr, LLVMBuildBitCast(c->b, cas ? a->cmp : a->val, rt, ""),
				cas ? LLVMBuildBitCast(c->b, a->val, rt, "") : NULL};
	LLVMTypeRef tys[3] = {c->t_ptr, rt, rt};
	LLVMTypeRef ft = LLVMFunctionType(rt, tys, (unsigned)na, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, ft, fn, args, (unsigned)na, "");
	return rt != mt ? LLVMBuildBitCast(c->b, r, mt, "") : r;
}
