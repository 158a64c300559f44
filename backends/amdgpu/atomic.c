/* atomic.c: atomics on AMD GPUs with Triton's memory semantics and scope. The ordering
 * maps to LLVM's (relaxed is monotonic) and the scope to an AMDGPU sync scope ("cta" is
 * "workgroup", "gpu" "agent", "sys" the system's). LLVM 19's C API cannot give an atomic
 * a sync scope, so each kind of atomic is a small function from IR text, linked once and
 * inlined (as the barrier is, isa.c). */
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "backends/amdgpu/amdgpu.h"

static const char *ordering_name(LLVMAtomicOrdering o)
{
	switch (o) {
	case LLVMAtomicOrderingAcquire: return "acquire";
	case LLVMAtomicOrderingRelease: return "release";
	case LLVMAtomicOrderingAcquireRelease: return "acq_rel";
	default: return "monotonic";
	}
}

static const char *syncscope(const char *scope)
{
	if (!strcmp(scope, "cta"))
		return " syncscope(\"workgroup\")";
	if (!strcmp(scope, "gpu"))
		return " syncscope(\"agent\")";
	return "";
}

static const char *rmw_name(const cg_atomic *a)
{
	bool fl = ir_type_is_float(a->elem);
	const char *k = a->kind;
	if (fl && !strcmp(k, "max"))
		return "fmax";
	if (fl && !strcmp(k, "min"))
		return "fmin";
	return k; /* add fadd max min umax umin and or xor xchg: LLVM's own words */
}

LLVMValueRef amdgpu_atomic(cg *c, const cg_atomic *a)
{
	bool cas = !strcmp(a->kind, "cas");
	LLVMTypeRef mt = cg_mem_type(c, a->elem);
	/* cmpxchg takes integers: a float's bits */
	LLVMTypeRef vt = cas && ir_type_is_float(a->elem)
			     ? LLVMIntTypeInContext(c->ctx, (unsigned)ir_type_bits(a->elem)) : mt;
	char *ty = LLVMPrintTypeToString(vt);
	char name[128], ir[1024];
	snprintf(name, sizeof name, "__tilecc_atomic.%s.%s.%s.%s", a->kind, ty, a->sem, a->scope);
	LLVMAtomicOrdering ord = cg_atomic_ordering(a->sem);
	const char *ss = syncscope(a->scope);
	if (cas)
		snprintf(ir, sizeof ir,
			 "define hidden %s @\"%s\"(ptr addrspace(1) %%p, %s %%c, %s %%v) #0 {\n"
			 "  %%x = cmpxchg ptr addrspace(1) %%p, %s %%c, %s %%v%s %s %s\n"
			 "  %%r = extractvalue { %s, i1 } %%x, 0\n"
			 "  ret %s %%r\n}\n"
			 "attributes #0 = { alwaysinline nounwind }\n",
			 ty, name, ty, ty, ty, ty, ss, ordering_name(ord),
			 ordering_name(cg_atomic_failure_ordering(a->sem)), ty, ty);
	else
		snprintf(ir, sizeof ir,
			 "define hidden %s @\"%s\"(ptr addrspace(1) %%p, %s %%v) #0 {\n"
			 "  %%r = atomicrmw %s ptr addrspace(1) %%p, %s %%v%s %s\n"
			 "  ret %s %%r\n}\n"
			 "attributes #0 = { alwaysinline nounwind }\n",
			 ty, name, ty, rmw_name(a), ty, ss, ordering_name(ord), ty);
	LLVMDisposeMessage(ty);
	LLVMValueRef f = amdgpu_ir_function(c, name, ir, "atomic");
	LLVMValueRef args[3] = {LLVMBuildAddrSpaceCast(c->b, a->ptr, LLVMPointerTypeInContext(c->ctx, 1), "")};
	if (cas) {
		args[1] = LLVMBuildBitCast(c->b, a->cmp, vt, "");
		args[2] = LLVMBuildBitCast(c->b, a->val, vt, "");
	} else {
		args[1] = a->val;
	}
	LLVMValueRef r = LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, args, cas ? 3 : 2, "");
	return vt != mt ? LLVMBuildBitCast(c->b, r, mt, "") : r;
}
