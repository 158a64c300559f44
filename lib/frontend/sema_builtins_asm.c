/* sema_builtins_asm.c: tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure,
 * pack), Triton's element-wise inline assembly, as the tile IR's `inline_asm` op.
 *
 * The GPU backends emit the text as LLVM inline assembly (PTX on NVIDIA, GCN/CDNA on AMD),
 * once per element, with the constraints as Triton passes them (LLVM's syntax: "=r,r,r").
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
	if (sl[3].kind == SV_TUPLE)
		sema_fail(s, sl_loc[3], "inline_asm_elementwise with several result dtypes is not "
					"supported yet: use one call per result");
	const ir_type *dt = sema_expect_dtype(s, &sl[3], sl_loc[3], "dtype");
	if (dt->kind == IR_TILE || (dt->kind == IR_PTR && dt->elem->kind == IR_TILE))
		sema_fail(s, sl_loc[3], "inline_asm_elementwise's dtype must be a scalar dtype");
	bool pure = sema_cbool(s, &sl[4], sl_loc[4], "is_pure", false);
	int64_t pack = sema_cint(s, &sl[5], sl_loc[5], "pack");
	if (pack != 1)
		sema_fail(s, sl_loc[5], "inline_asm_elementwise with pack=%lld is not supported yet "
					"(only pack=1)", (long long)pack);
	/* the arguments: a tuple or list of tensors and numbers, broadcast to one shape */
	enum { MAXA = 16 };
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
	const ir_type *rt = rank ? ir_type_tile(s->ctx, dt, rank, shape) : dt;
	sema_at(s, a->loc);
	ir_op *op = ir_build(&s->b, IR_OP_INLINE_ASM, n, in, 1, &rt);
	if (!op)
		sema_fail(s, a->loc, "out of memory");
	ir_op_set_str(s->ctx, op, "asm", sl[0].s);
	ir_op_set_str(s->ctx, op, "constraints", sl[1].s);
	if (pure)
		ir_op_set_bool(s->ctx, op, "pure", true);
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
		ir_value *rv = sema_to_ir(s, &r, dt, sl_loc[6]);
		if (rv->type->kind == IR_TILE)
			sema_fail(s, sl_loc[6], "the CPU variant must return a scalar, got %s",
				  sv_describe(s, &r));
		rv = sema_cast(s, rv, dt, false, sl_loc[6]);
		sema_at(s, a->loc);
		ir_build(&s->b, IR_OP_YIELD, 1, &rv, 0, NULL);
	} else {
		sema_at(s, a->loc);
		ir_build(&s->b, IR_OP_YIELD, 0, NULL, 0, NULL);
	}
	s->b = saved;
	return sv_ir(&op->results[0]);
}
