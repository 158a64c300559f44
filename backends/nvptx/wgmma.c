/* wgmma.c: the warpgroup tensor-core instructions of the NVIDIA backend (sm_90a), used by
 * lib/codegen/lower_wgmma.c. LLVM 19 has no NVVM intrinsics for them, so each is inline
 * PTX:
 *   wgmma.fence.sync.aligned                      before the first wgmma of a group
 *   wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}
 *       {d0 .. d(N/2-1)}, a-desc, b-desc, scale-d, 1, 1, trans-a, trans-b
 *       {d0 .. d(N/2-1)}, {a0, a1, a2, a3}, b-desc, scale-d, 1, 1, trans-b   (A in registers)
 *   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32  {d..}, a-desc, b-desc, scale-d, 1, 1
 *   wgmma.mma_async.sync.aligned.m64nNk32.s32.s8.s8     {d..}, a-desc, b-desc, scale-d
 *   wgmma.mma_async.sync.aligned.m64nNk32.f32.T.T (T e4m3 or e5m2)
 *                                                 {d..}, a-desc, b-desc, scale-d, 1, 1
 *       (both operands K-major: these types have no transpose bits; int8 no scales)
 *   wgmma.commit_group.sync.aligned               closes the group
 *   wgmma.wait_group.sync.aligned P               waits until P groups are pending
 *   fence.proxy.async.shared::cta                 generic-proxy stores -> async proxy
 * The accumulators are tied operands ("=f" outputs, "=r" for int8's s32, inputs "0", "1",
 * ...), so that every
 * wgmma of a chain reads the registers the previous one wrote; the wait takes and returns
 * them too, which tells ptxas where the asynchronous results become readable: without it
 * ptxas cannot prove that no instruction touches them in flight and serializes the
 * wgmmas (warning C7515). */
#include <stdio.h>
#include <string.h>

#include "backends/nvptx/nvptx.h"

/* An inline PTX statement with no operands. */
static void stmt(cg *c, const char *text)
{
	LLVMTypeRef ft = LLVMFunctionType(c->t_void, NULL, 0, 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, strlen(text), (char *)"~{memory}", 9, 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMBuildCall2(c->b, ft, fn, NULL, 0, "");
}

void nvptx_wgmma_fence(cg *c)
{
	stmt(c, "wgmma.fence.sync.aligned;");
}

void nvptx_wgmma_commit(cg *c)
{
	stmt(c, "wgmma.commit_group.sync.aligned;");
}

void nvptx_fence_proxy_async(cg *c)
{
	stmt(c, "fence.proxy.async.shared::cta;");
}

/* Appends ",0,1,...,n-1" style tied-input constraints for n outputs. */
static void tied(strbuf *s, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_printf(s, ",%d", i);
}

/* The constraint of an accumulator register: f32, or i32 (int8's s32). */
static const char *acc_cons(cg *c, LLVMValueRef v)
{
	return LLVMTypeOf(v) == c->t_f32 ? "=f" : "=r";
}

/* The call of an asm of text `text` with constraints `cons` whose n outputs (of acc's
 * types) are tied to inputs acc (after the `extra` other inputs); acc receives the
 * outputs. */
static void call_tied(cg *c, const char *text, const char *cons, LLVMValueRef *extra, int nextra,
		      LLVMTypeRef *extra_t, LLVMValueRef *acc, int n)
{
	LLVMTypeRef *ft_in = ARENA_NEWN(c->a, LLVMTypeRef, (size_t)(nextra + n));
	LLVMTypeRef *ft_out = ARENA_NEWN(c->a, LLVMTypeRef, (size_t)n);
	LLVMValueRef *args = ARENA_NEWN(c->a, LLVMValueRef, (size_t)(nextra + n));
	for (int i = 0; i < nextra; i++) {
		ft_in[i] = extra_t[i];
		args[i] = extra[i];
	}
	for (int i = 0; i < n; i++) {
		ft_in[nextra + i] = LLVMTypeOf(acc[i]);
		ft_out[i] = LLVMTypeOf(acc[i]);
		args[nextra + i] = acc[i];
	}
	LLVMTypeRef ret = LLVMStructTypeInContext(c->ctx, ft_out, (unsigned)n, 0);
	LLVMTypeRef ft = LLVMFunctionType(ret, ft_in, (unsigned)(nextra + n), 0);
	LLVMValueRef fn = LLVMGetInlineAsm(ft, (char *)text, strlen(text), (char *)cons, strlen(cons), 1, 0,
					   LLVMInlineAsmDialectATT, 0);
	LLVMValueRef r = LLVMBuildCall2(c->b, ft, fn, args, (unsigned)(nextra + n), "");
	for (int i = 0; i < n; i++)
		acc[i] = LLVMBuildExtractValue(c->b, r, (unsigned)i, "");
}

void nvptx_wgmma(cg *c, int kind, int n, LLVMValueRef da, LLVMValueRef db, bool trans_a, bool trans_b,
		 bool scale_d, LLVMValueRef *acc)
{
	int nacc = n / 2;
	/* kind: gpu_mma_kind (0 f16, 1 bf16, 2 tf32, 3 s8, 4 e4m3, 5 e5m2) */
	static const char *const types[] = {"f16", "bf16", "tf32", "s8", "e4m3", "e5m2"};
	const char *ty = kind >= 0 && kind < 6 ? types[kind] : "f16";
	int kd = kind == 2 ? 8 : kind >= 3 ? 32 : 16;
	strbuf t = {0}, k = {0};
	/* $0 .. $(nacc-1): d; $nacc, $nacc+1: the descriptors; then the tied inputs */
	strbuf_printf(&t, "wgmma.mma_async.sync.aligned.m64n%dk%d.%s.%s.%s {", n, kd, kind == 3 ? "s32" : "f32", ty,
		      ty);
	for (int i = 0; i < nacc; i++)
		strbuf_printf(&t, "%s$%d", i ? ", " : "", i);
	/* scale-d (0: D = A B), then for the float kinds imm-scale-a/b and the transposes */
	int sd = scale_d ? 1 : 0;
	if (kind == 3)
		strbuf_printf(&t, "}, $%d, $%d, %d;", nacc, nacc + 1, sd);
	else if (kind == 2 || kind == 4 || kind == 5)
		strbuf_printf(&t, "}, $%d, $%d, %d, 1, 1;", nacc, nacc + 1, sd);
	else
		strbuf_printf(&t, "}, $%d, $%d, %d, 1, 1, %d, %d;", nacc, nacc + 1, sd, trans_a ? 1 : 0,
			      trans_b ? 1 : 0);
	for (int i = 0; i < nacc; i++)
		strbuf_printf(&k, "%s%s", i ? "," : "", acc_cons(c, acc[i]));
	strbuf_printf(&k, ",l,l");
	tied(&k, nacc);
	strbuf_printf(&k, ",~{memory}");
	LLVMValueRef ex[2] = {da, db};
	LLVMTypeRef et[2] = {c->t_i64, c->t_i64};
	call_tied(c, t.data, k.data, ex, 2, et, acc, nacc);
	strbuf_free(&t);
	strbuf_free(&k);
}

void nvptx_wgmma_rs(cg *c, int kind, int n, const LLVMValueRef *a, LLVMValueRef db, bool trans_b,
		    bool scale_d, LLVMValueRef *acc)
{
	int nacc = n / 2;
	const char *ty = kind == 1 ? "bf16" : "f16";
	strbuf t = {0}, k = {0};
	/* $0 .. $(nacc-1): d; then A's four registers, B's descriptor, the tied inputs */
	strbuf_printf(&t, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", n, ty, ty);
	for (int i = 0; i < nacc; i++)
		strbuf_printf(&t, "%s$%d", i ? ", " : "", i);
	strbuf_printf(&t, "}, {$%d, $%d, $%d, $%d}, $%d, %d, 1, 1, %d;", nacc, nacc + 1, nacc + 2, nacc + 3, nacc + 4,
		      scale_d ? 1 : 0, trans_b ? 1 : 0);
	for (int i = 0; i < nacc; i++)
		strbuf_printf(&k, "%s=f", i ? "," : "");
	strbuf_printf(&k, ",r,r,r,r,l");
	tied(&k, nacc);
	strbuf_printf(&k, ",~{memory}");
	LLVMValueRef ex[5] = {a[0], a[1], a[2], a[3], db};
	LLVMTypeRef et[5] = {c->t_i32, c->t_i32, c->t_i32, c->t_i32, c->t_i64};
	call_tied(c, t.data, k.data, ex, 5, et, acc, nacc);
	strbuf_free(&t);
	strbuf_free(&k);
}

void nvptx_wgmma_wait(cg *c, int pending, LLVMValueRef *acc, int n)
{
	char text[64];
	snprintf(text, sizeof text, "wgmma.wait_group.sync.aligned %d;", pending);
	strbuf k = {0};
	for (int i = 0; i < n; i++)
		strbuf_printf(&k, "%s%s", i ? "," : "", acc_cons(c, acc[i]));
	tied(&k, n);
	strbuf_printf(&k, ",~{memory}");
	call_tied(c, text, k.data, NULL, 0, NULL, acc, n);
	strbuf_free(&k);
}
