/* sema_builtins_asm.c: tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure,
 * pack), Triton's element-wise inline assembly, as the tile IR's `inline_asm` op.
 *
 * The GPU backends emit the text as LLVM inline assembly (PTX on NVIDIA, GCN/CDNA on AMD),
 * once per `pack` elements, with the constraints as Triton passes them (LLVM's syntax:
 * "=r,r,r"); a tuple dtype gives several results, a tuple of tiles.
 * CPUs cannot run GPU assembly, so the op carries an optional CPU variant in its region:
 * tilecc's keyword cpu=FN names a @triton.jit function called element by element on the
 * scalar arguments (a tilecc extension; Triton ignores nothing here because Triton has no
 * such keyword, so a file that must also run under Triton keeps it out of the call on
 * that path). Without one, compiling the kernel for a CPU target is a located error. */
#include <string.h>

#include "frontend/sema_int.h"

SEMA_HANDLER(sema_bi_inline_asm)
{
	(void)id;
	if (sl[0].kind != SV_STR)
		sema_fail(s, sl_loc[0], "inline_asm_elementwise's asm must be a string, got %s",
			  sv_describe(s, &sl[0]));
	if (sl[1].kind != SV_STR)
		sema_fail(s, sl_loc[1], "inline_asm_elementwise's constraints must be a string, got %s",
			  sv_describe(s, &sl[1]));
	/* dtype: one dtype, or a tuple of them for several results (a tuple of tiles back) */
	enum { MAXA = 16, MAXR = 8 };
	const ir_type *dts[MAXR];
	bool multi = sl[3].kind == SV_TUPLE;
	int nres = multi ? sl[3].tup.n : 1;
	if (nres < 1 || nres > MAXR)
		sema_fail(s, sl_loc[3], "inline_asm_elementwise takes 1 to %d result dtypes, got %d",
			  MAXR, nres);
	for (int r = 0; r < nres; r++) {
		const sval *dv = multi ? &sl[3].tup.items[r] : &sl[3];
		dts[r] = sema_expect_dtype(s, dv, sl_loc[3], "dtype");
		if (dts[r]->kind == IR_TILE || (dts[r]->kind == IR_PTR && dts[r]->elem->kind == IR_TILE))
			sema_fail(s, sl_loc[3], "inline_asm_elementwise's dtype must be a scalar dtype");
	}
	bool pure = sema_cbool(s, &sl[4], sl_loc[4], "is_pure", false);
	int64_t pack = sema_cint(s, &sl[5], sl_loc[5], "pack");
	if (pack < 1)
		sema_fail(s, sl_loc[5], "inline_asm_elementwise's pack must be at least 1, got %lld",
			  (long long)pack);
	/* Triton packs results narrower than 32 bits pack-wise into 32-bit registers, which
	 * needs pack to be a multiple of the elements per register */
	for (int r = 0; r < nres; r++) {
		int bits = ir_type_bits(dts[r]);
		int64_t per = bits < 32 ? 32 / bits : 1;
		if (per > pack)
			per = pack;
		if (pack % per)
			sema_fail(s, sl_loc[5], "inline_asm_elementwise: pack=%lld is not a multiple of the "
						"%lld %s results a 32-bit register holds", (long long)pack,
				  (long long)per, sema_type_name(s, dts[r]));
	}
	/* the arguments: a tuple or list of tensors and numbers, broadcast to one shape */
	ir_value *in[MAXA];
	int n = 0;
	if (sl[2].kind == SV_TUPLE) {
		if (sl[2].tup.n > MAXA)
			sema_fail(s, sl_loc[2], "inline_asm_elementwise takes at most %d arguments", MAXA);
		for (int i = 0; i < sl[2].tup.n; i++)
			in[n++] = sema_to_tensor(s, &sl[2].tup.items[i], sl_loc[2]);
	} else {
		in[n++] = sema_to_tensor(s, &sl[2], sl_loc[2]);
	}
	for (int i = 0; i < n; i++) {
		int bits = ir_type_bits(ir_type_elem(in[i]->type));
		int64_t per = in[i]->type->kind == IR_PTR || bits >= 32 ? 1 : 32 / bits;
		if (per > pack)
			per = pack;
		if (pack % per)
			sema_fail(s, sl_loc[5], "inline_asm_elementwise: pack=%lld is not a multiple of the "
						"%lld %s arguments a 32-bit register holds", (long long)pack,
				  (long long)per, sema_type_name(s, ir_type_elem(in[i]->type)));
	}
	/* Triton broadcasts every argument to one shape */
	ir_value *rep = NULL;
	for (int i = 0; i < n; i++) {
		if (in[i]->type->kind != IR_TILE)
			continue;
		ir_value *x = in[i];
		if (!rep)
			rep = x;
		else
			sema_broadcast_pair(s, &rep, &x, sl_loc[2], "inline_asm_elementwise");
	}
	int rank = rep ? rep->type->rank : 0;
	const int64_t *shape = rep ? rep->type->shape : NULL;
	for (int i = 0; rank && i < n; i++)
		in[i] = sema_broadcast_to(s, in[i], rank, shape, sl_loc[2]);
	const ir_type *rts[MAXR];
	for (int r = 0; r < nres; r++)
		rts[r] = rank ? ir_type_tile(s->ctx, dts[r], rank, shape) : dts[r];
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_INLINE_ASM, n, in, nres, rts);
	if (!op)
		sema_fail(s, a->loc, "out of memory");
	ir_op_set_str(s->ctx, op, "asm", sl[0].s);
	ir_op_set_str(s->ctx, op, "constraints", sl[1].s);
	if (pure)
		ir_op_set_bool(s->ctx, op, "pure", true);
	if (pack != 1)
		ir_op_set_int(s->ctx, op, "pack", pack);
	/* the region: the CPU variant, or only a yield */
	ir_block *blk = op->regions[0];
	ir_builder saved = s->b;
	s->b.block = blk;
	s->b.before = NULL;
	const sval *cpu = &sl[6];
	if (!sv_absent(cpu)) {
		if (cpu->kind != SV_JITFN)
			sema_fail(s, sl_loc[6], "cpu= must name a @triton.jit function, got %s",
				  sv_describe(s, cpu));
		sval argv[MAXA];
		srcloc locs[MAXA];
		for (int k = 0; k < n; k++) {
			argv[k] = sv_ir(ir_block_add_arg(s->ctx, blk, ir_type_elem(in[k]->type), NULL));
			locs[k] = sl_loc[6];
		}
		sema_args ca = {.pos = argv, .pos_loc = locs, .npos = n, .loc = sl_loc[6]};
		sval r = sema_call_jit(s, cpu->fn, &ca);
		/* one scalar per result dtype: a tuple of them for a tuple of dtypes */
		if (multi && (r.kind != SV_TUPLE || r.tup.n != nres))
			sema_fail(s, sl_loc[6], "the CPU variant must return a tuple of %d scalars (one per "
						"result dtype), got %s", nres, sv_describe(s, &r));
		ir_value *rv[MAXR];
		for (int k = 0; k < nres; k++) {
			sval *rk = multi ? &r.tup.items[k] : &r;
			rv[k] = sema_to_ir(s, rk, dts[k], sl_loc[6]);
			if (rv[k]->type->kind == IR_TILE)
				sema_fail(s, sl_loc[6], "the CPU variant must return scalars, got %s",
					  sv_describe(s, rk));
			rv[k] = sema_cast(s, rv[k], dts[k], false, sl_loc[6]);
		}
		sema_at(s, a->loc);
		ir_build(&s->b, IR_OP_YIELD, nres, rv, 0, NULL);
	} else {
		sema_at(s, a->loc);
		ir_build(&s->b, IR_OP_YIELD, 0, NULL, 0, NULL);
	}
	s->b = saved;
	if (!multi)
		return sv_ir(&op->results[0]);
	sval outs[MAXR];
	for (int k = 0; k < nres; k++)
		outs[k] = sv_ir(&op->results[k]);
	return sv_tuple(s, nres, outs);
}
