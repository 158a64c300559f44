/* layouts.c: assigns every tile of a GPU kernel its layout, written into its type as
 *
 *   tile<64x128xf32, #blocked<per_thread [1, 4], lanes [1, 32], warps [4, 1], order [1, 0]>>
 *   tile<64xf32, #slice<dim = 1, parent = #blocked<...>>>
 *
 * A blocked layout says how one CTA covers the tile: each thread holds per_thread
 * consecutive elements per dimension, the 32 (or 64) lanes of a warp and the warps of the
 * CTA are laid out over the dimensions as the lists say, fastest dimension first in order,
 * and the pattern repeats to cover a larger tile; where the CTA covers more than the
 * tile, threads wrap around and hold copies (layout.c).
 *
 * Most tiles get the canonical blocked layout of their shape (gpu_layout_canonical: a
 * thread's group of V consecutive row-major elements, lanes then warps along the flattened
 * index), which depends on the element count alone, so element-wise ops, expand_dims and
 * reshape move nothing between canonical tiles. Reductions along one axis of a tile of
 * rank 2 or more (32-bit operands) leave their result where the threads computed it: in
 * the slice of the operand's layout. expand_dims of a slice along its dim gives the
 * parent layout back, broadcast keeps a non-canonical blocked layout, and element-wise
 * ops keep their operands' common layout: rowmax = max(x, 1); x - rowmax[:, None] stays
 * in registers. Any other use of a tile in a layout its op does not take gets an
 * explicit convert_layout (dialects/gpu/ops.def) to the canonical layout, which the
 * lowering moves through shared memory and remove-layout-conversions trims. Data-moving
 * ops between canonical tiles (broadcast, trans, join, split, scans) still convert inside
 * their own lowering. A dot's A and B operands are converted to a #shared layout, staged
 * in shared memory for it (unswizzled for the FMA dot; the lowering honours any swizzle a
 * #shared layout gives, gpu_layout_shared_for). On NVIDIA sm_80+, a dot that fits mma.sync
 * (gpu_mma.h) gets its operands staged swizzled and its accumulator and result in the
 * #mma layout, which the element-wise ops, reductions and loops after it keep. On wgmma,
 * an A already in an #mma v3 layout the instruction's register operand matches (the
 * result of an earlier dot, computed on: attention's P) stays in registers (the "RS"
 * form; gpu_mma.h). On AMD CDNA ({amd_arch}: gfx908, gfx90a, gfx940-gfx942) a dot that
 * fits the matrix cores gets the #mfma layout (mfma_layout.c), its operands staged
 * swizzled, B column-major.
 *
 * Runs only on functions with a threads_per_warp attribute. A layout already in the
 * input (IR read from text) is kept when tilecc implements it. */
#include <stdio.h>

#include "support/strbuf.h"
#include "transforms/gpu_layout.h"
#include "transforms/gpu_mma.h"
#include "transforms/pass.h"

typedef struct assigner {
	ir_context *c;
	diag_engine *d;
	int warp, warps;
	int errors;
	int converts; /* convert_layout ops inserted */
	int cc;       /* NVIDIA compute capability (nv_cc), 0 for other GPUs */
	bool wgmma;   /* sm_90a: nv_cc 90 and {nv_arch_specific} */
	int mfma;     /* AMD: the MFMA generation of {amd_arch} (gpu_amd_mfma_gen), 0: none */
	int nonk;     /* AMD: {matrix_instr_nonkdim}, 0: Triton's choice */
} assigner;

static const ir_type *typed(assigner *s, const ir_type *t, const gpu_layout *l)
{
	const ir_type *r = gpu_type_in_layout(s->c, t, l);
	return r ? r : t;
}

static bool has_layout(const ir_type *t)
{
	return t->kind == IR_TILE && t->rank <= GPU_MAX_RANK;
}

/* The layout of a tile type that has one; false for the others. */
static bool layout(const ir_type *t, gpu_layout *l)
{
	return has_layout(t) && t->layout && gpu_layout_parse(t->layout, l);
}

static bool is_canonical(assigner *s, const ir_type *t)
{
	gpu_layout l, want = gpu_layout_canonical(t, s->warp, s->warps);
	return layout(t, &l) && gpu_layout_equal(&l, &want);
}

static const ir_type *canonical(assigner *s, const ir_type *t)
{
	gpu_layout l = gpu_layout_canonical(t, s->warp, s->warps);
	return typed(s, t, &l);
}

/* Gives v the layout l, or the canonical one (l NULL). A layout already there (IR read
 * from text) stays when tilecc implements it: for a conversion's result or a value that
 * flows between regions (loose), any blocked, slice or shared layout that fits the tile;
 * for another op's result, only the one the lowering of that op produces. */
static void assign_as(assigner *s, ir_value *v, const gpu_layout *l, srcloc loc, bool loose)
{
	const ir_type *t = v->type;
	if (!has_layout(t) || s->errors)
		return; /* one error says it; the rest would repeat it */
	gpu_layout want = l ? *l : gpu_layout_canonical(t, s->warp, s->warps);
	if (t->layout) {
		gpu_layout have;
		if (!gpu_layout_parse(t->layout, &have) ||
		    !gpu_layout_fits(&have, t->shape, t->rank, s->warp, s->warps)) {
			diag_error(s->d, loc, "layout '#%s' is not one tilecc implements for this tile: "
				   "blocked, slice, shared or dot_op, lanes multiplying to %d and warps to %d",
				   t->layout, s->warp, s->warps);
			s->errors++;
		} else if (!loose && !gpu_layout_equal(&have, &want)) {
			strbuf b = {0};
			gpu_layout_print(&b, &want);
			diag_error(s->d, loc, "layout '#%s' is not what this op gives; it gives '#%s' (use "
				   "convert_layout for another)", t->layout, b.data ? b.data : "");
			strbuf_free(&b);
			s->errors++;
		}
		return;
	}
	v->type = typed(s, t, &want);
}

static void assign(assigner *s, ir_value *v, const gpu_layout *l, srcloc loc)
{
	assign_as(s, v, l, loc, false);
}

/* A convert_layout of operand i of op to type t, inserted before op. */
static void insert_convert(assigner *s, ir_op *op, int i, const ir_type *t)
{
	ir_value *x = op->operands[i];
	ir_op *cv = ir_op_create(s->c, IR_OP_CONVERT_LAYOUT, 1, &x, 1, &t, op->loc);
	ir_block_insert_before(op->parent, op, cv);
	ir_op_set_operand(op, i, &cv->results[0]);
	s->converts++;
}

/* Operand i of op in the canonical layout: a convert_layout before op when it is not. */
static void need_canonical(assigner *s, ir_op *op, int i)
{
	ir_value *x = op->operands[i];
	if (!has_layout(x->type) || is_canonical(s, x->type))
		return;
	insert_convert(s, op, i, canonical(s, x->type));
}

/* Operand i of a dot staged in shared memory: a convert_layout to the #shared layout of
 * its type before op. */
static void need_shared(assigner *s, ir_op *op, int i, int mma, bool kmajor)
{
	ir_value *x = op->operands[i];
	if (!has_layout(x->type) || x->type->rank != 2) {
		need_canonical(s, op, i);
		return;
	}
	/* the NVMMA layout for wgmma (mma 3), swizzled for ldmatrix (mma 2), plain for the
	 * FMA dot (0): see gpu_layout.h. wgmma reads either major-ness: a tile whose threads
	 * hold runs along dim 0 (loaded from memory contiguous that way: attention's K^T) is
	 * stored transposed, so that those runs stay contiguous in shared memory too. Its
	 * tf32 and int8 forms (kmajor) read K-major only: A row-major, B (K x N) transposed,
	 * swizzled along K, whatever the loads' runs. */
	gpu_layout l, cur;
	bool dim0 = layout(x->type, &cur) && cur.kind == GPU_BLOCKED && !cur.mma && cur.rank == 2 &&
		    cur.order[0] == 0 && cur.spt[0] > 1;
	if (mma == 3 && kmajor) {
		l = gpu_layout_shared_nvmma(x->type, i == 1);
	} else if (mma == 3) {
		l = gpu_layout_shared_nvmma(x->type, dim0);
		if (l.kind != GPU_SHARED)
			l = gpu_layout_shared_nvmma(x->type, false);
	} else if ((mma == 2 && i == 1 && dim0 && ir_type_bits(x->type->elem) == 16) || (mma == 4 && i == 1)) {
		/* mma.sync's B loaded K-contiguous (attention's K^T): stored transposed, each n
		 * a swizzled row of K, which ldmatrix reads without .trans. MFMA's B always: a
		 * lane's operand is 4 or 8 consecutive k of one column, one LDS read when K is
		 * contiguous (the element-wise reads of a row-major B cost more registers and
		 * instructions than the scattered writes of staging it transposed) */
		l = gpu_layout_shared_for_transposed(x->type);
	} else {
		l = gpu_layout_shared_for(x->type, mma != 0);
	}
	const ir_type *t = typed(s, x->type, &l);
	if (x->type != t)
		insert_convert(s, op, i, t);
}

/* Operand i of op in the type want (a tile type of the same shape, with its layout): a
 * convert_layout before op when it is not. */
static void need_type(assigner *s, ir_op *op, int i, const ir_type *want)
{
	ir_value *x = op->operands[i];
	if (has_layout(x->type) && has_layout(want) && want->layout && x->type != want)
		insert_convert(s, op, i, want);
}

static void walk(assigner *s, ir_block *b, srcloc loc);

/* The registers an A fragment layout may take per thread, in 32-bit words, for an A kept
 * in registers through a loop: attention's Q at head dim 128 on 8 warps is 32. */
enum { A_REGS_MAX_WORDS = 32 };

/* mma.sync with an A that a loop reads but does not compute (attention's Q, made before
 * the loop over K and V): A is converted once, before the outermost loop that leaves it
 * invariant, into the layout of its fragments (gpu_mma_a_regs), so that each iteration
 * takes it from registers instead of reading it again from shared memory with ldmatrix,
 * as Triton keeps Q. Whether it did (the dot's A is then in registers). */
static bool invariant_a_in_regs(assigner *s, ir_op *dot, const gpu_mma *p)
{
	ir_value *x = dot->operands[0];
	const ir_type *t = x->type;
	if (!has_layout(t) || t->rank != 2 || !x->def)
		return false;
	/* the outermost loop around the dot that x comes from outside of */
	ir_op *loop = NULL;
	for (ir_block *b = dot->parent; b && b->parent; b = b->parent->parent) {
		ir_op *o = b->parent;
		bool inside = false;
		for (ir_block *d = x->def->parent; d; d = d->parent ? d->parent->parent : NULL)
			inside |= d == b;
		if (inside)
			break;
		if (o->code == IR_OP_FOR || o->code == IR_OP_WHILE)
			loop = o;
	}
	gpu_layout al = {.kind = GPU_BLOCKED}; /* the fill sets the rest it needs */
	gpu_layout_mma_fill(&al, p->w0, 1);
	int64_t words = ir_type_numel(t) * gpu_elem_bytes(t->elem) / (4 * (int64_t)s->warp * s->warps);
	if (!loop || !gpu_mma_a_regs(p, &al) || words > A_REGS_MAX_WORDS)
		return false;
	const ir_type *want = typed(s, t, &al);
	if (t != want) {
		ir_op *cv = ir_op_create(s->c, IR_OP_CONVERT_LAYOUT, 1, &x, 1, &want, dot->loc);
		ir_block_insert_before(loop->parent, loop, cv);
		ir_op_set_operand(dot, 0, &cv->results[0]);
		s->converts++;
	}
	return true;
}

/* Values that flow into each other (loop-carried values, yields, branch results) keep
 * one type: the block argument's or the result's, canonical unless the input had a
 * layout there already. */
static void assign_flow(assigner *s, ir_op *op)
{
	ir_block *owner = op->parent;
	ir_op *o = owner ? owner->parent : NULL;
	switch (op->code) {
	case IR_OP_FOR:
	case IR_OP_WHILE: {
		ir_block *body = op->regions[0];
		int first = op->code == IR_OP_FOR ? 1 : 0, ops = op->code == IR_OP_FOR ? 3 : 0;
		for (int i = 0; i < body->nargs; i++)
			assign_as(s, body->args[i], NULL, op->loc, true);
		for (int k = 0; k < op->nresults; k++) {
			const ir_type *t = body->args[first + k]->type;
			need_type(s, op, ops + k, t);
			if (!op->results[k].type->layout && has_layout(t))
				op->results[k].type = t;
			if (op->code == IR_OP_WHILE && !op->regions[1]->args[k]->type->layout && has_layout(t))
				op->regions[1]->args[k]->type = t;
			assign_as(s, &op->results[k], NULL, op->loc, true);
		}
		break;
	}
	case IR_OP_IF:
		for (int k = 0; k < op->nresults; k++)
			assign_as(s, &op->results[k], NULL, op->loc, true);
		break;
	case IR_OP_YIELD:
		for (int k = 0; o && k < op->noperands; k++) {
			const ir_type *want = o->code == IR_OP_FOR ? o->regions[0]->args[1 + k]->type
					      : o->code == IR_OP_IF  ? o->results[k].type
					      : o->code == IR_OP_WHILE ? o->regions[0]->args[k]->type
								     : NULL;
			if (want)
				need_type(s, op, k, want);
			else
				need_canonical(s, op, k);
		}
		break;
	case IR_OP_CONDITION:
		for (int k = 1; o && k < op->noperands; k++)
			need_type(s, op, k, o->regions[1]->args[k - 1]->type);
		break;
	default:
		break;
	}
	for (int g = 0; g < op->nregions; g++)
		walk(s, op->regions[g], op->loc);
}

/* The common layout of op's tile operands, when they have one. */
static bool common_layout(const ir_op *op, gpu_layout *l)
{
	bool any = false;
	for (int i = 0; i < op->noperands; i++) {
		gpu_layout x;
		if (op->operands[i]->type->kind != IR_TILE)
			continue;
		if (!layout(op->operands[i]->type, &x) || (any && !gpu_layout_equal(&x, l)))
			return false;
		*l = x;
		any = true;
	}
	return any;
}


/* The layout of op's first tile operand in a dot's #mma layout or a slice of it. */
static bool mma_operand(const ir_op *op, gpu_layout *l)
{
	for (int i = 0; i < op->noperands; i++)
		if (layout(op->operands[i]->type, l) && l->mma && l->kind != GPU_SHARED)
			return true;
	return false;
}

/* The layouts of op's results, converting operands where op needs it. */
static void assign_op(assigner *s, ir_op *op)
{
	gpu_layout l;
	const ir_type *t0 = op->noperands ? op->operands[0]->type : NULL;
	switch (op->code) {
	case IR_OP_CONVERT_LAYOUT:
		if (gpu_is_shared(op->operands[0]->type) && !gpu_is_shared(op->results[0].type)) {
			diag_error(s->d, op->loc, "converting a tile out of a #shared layout is not supported");
			s->errors++;
		}
		assign_as(s, &op->results[0], NULL, op->loc, true);
		return;
	case IR_OP_EXPAND_DIMS:
		/* a slice along the expanded axis is its parent layout again */
		if (layout(t0, &l) && l.kind == GPU_SLICE && l.dim == ir_op_int(op, "axis", -1)) {
			l.kind = GPU_BLOCKED;
			assign(s, &op->results[0], &l, op->loc);
			return;
		}
		break;
	case IR_OP_BROADCAST:
		/* a blocked layout broadcasts in registers to the same layout */
		if (t0->kind == IR_TILE && layout(t0, &l) && l.kind == GPU_BLOCKED && !is_canonical(s, t0)) {
			assign(s, &op->results[0], &l, op->loc);
			return;
		}
		break;
	case IR_OP_REDUCE:
		if (gpu_reduce_slices(op) && common_layout(op, &l) && l.kind == GPU_BLOCKED) {
			l.kind = GPU_SLICE;
			l.dim = (int)ir_op_int(op, "axis", 0);
			for (int r = 0; r < op->nresults; r++)
				assign(s, &op->results[r], &l, op->loc);
			for (int g = 0; g < op->nregions; g++)
				walk(s, op->regions[g], op->loc);
			return;
		}
		break;
	case IR_OP_LOCAL_VIEW: /* the pipeline's ring slots (IR read back): as given */
	case IR_OP_LOCAL_LOAD: /* fragments fetched ahead (mma-prefetch), in their #dot_op layout */
		assign_as(s, &op->results[0], NULL, op->loc, true);
		return;
	case IR_OP_ASYNC_COPY:
	case IR_OP_ASYNC_COMMIT:
	case IR_OP_ASYNC_WAIT:
		return; /* operands as they are: their layouts say how the copy is split */
	case IR_OP_DOT_WAIT: /* the accumulator, in its layout */
		if (layout(t0, &l)) {
			assign(s, &op->results[0], &l, op->loc);
			return;
		}
		break;
	case IR_OP_LOAD:
	case IR_OP_STORE:
		/* an access whose operands share a blocked layout (access-layouts chose it for
		 * its 16-byte runs, or IR text gave it) happens there */
		if (t0->kind == IR_TILE && common_layout(op, &l) && l.kind == GPU_BLOCKED && !l.mma) {
			for (int r = 0; r < op->nresults; r++)
				assign(s, &op->results[r], &l, op->loc);
			return;
		}
		break;
	case IR_OP_FOR: case IR_OP_WHILE: case IR_OP_IF: case IR_OP_YIELD: case IR_OP_CONDITION:
		if (op->code == IR_OP_IF)
			need_canonical(s, op, 0); /* the condition is a scalar; nothing happens */
		assign_flow(s, op);
		return;
	case IR_OP_DOT: {
		/* A and B are staged in shared memory; the accumulator is converted first (to
		 * #mma on tensor cores, else canonical): nothing may use shared memory between
		 * the staging and the dot */
		gpu_mma p;
		bool mma = (s->wgmma && gpu_wgmma_plan(op, s->warp, s->warps, &p)) ||
			   gpu_mma_plan(op, s->cc, s->warp, s->warps, &p) ||
			   gpu_mfma_plan(op, s->mfma, s->nonk, s->warp, s->warps, &p);
		if (mma)
			need_type(s, op, 2, typed(s, op->operands[2]->type, &p.acc));
		else
			need_canonical(s, op, 2);
		/* wgmma and mma.sync read an A that is already in their fragments' layout
		 * (attention's P, from the first dot's accumulator: gpu_wgmma_a_regs,
		 * gpu_mma_a_regs) where it is, with no trip through shared memory */
		gpu_layout al;
		bool a_regs = mma && layout(op->operands[0]->type, &al) &&
			      (p.version == 3 ? gpu_wgmma_a_regs(&p, &al) : gpu_mma_a_regs(&p, &al));
		bool kmajor = mma && p.version == 3 && gpu_wgmma_kmajor(p.kind);
		if (!a_regs && mma && p.version == 2)
			a_regs = invariant_a_in_regs(s, op, &p);
		if (!a_regs)
			need_shared(s, op, 0, mma ? p.version : 0, kmajor);
		need_shared(s, op, 1, mma ? p.version : 0, kmajor);
		assign(s, &op->results[0], mma ? &p.acc : NULL, op->loc);
		return;
	}
	default:
		if ((ir_ops[op->code].traits & T_ELEMENTWISE) && common_layout(op, &l)) {
			for (int r = 0; r < op->nresults; r++)
				assign(s, &op->results[r], &l, op->loc);
			return;
		}
		/* operands in several layouts, one of them a dot's #mma (or its slice): the op
		 * runs in that layout and the others are converted to it (index and mask
		 * arithmetic is then computed there again: remove-layout-conversions), so
		 * a dot's result stays where the tensor cores left it */
		if ((ir_ops[op->code].traits & T_ELEMENTWISE) && mma_operand(op, &l)) {
			for (int i = 0; i < op->noperands; i++) {
				const ir_type *t = op->operands[i]->type;
				if (has_layout(t))
					need_type(s, op, i, typed(s, t, &l));
			}
			for (int r = 0; r < op->nresults; r++)
				assign(s, &op->results[r], &l, op->loc);
			return;
		}
		break;
	}
	for (int i = 0; i < op->noperands; i++)
		need_canonical(s, op, i);
	/* constants, splats and ranges can be built in any register layout */
	bool any = (op->code == IR_OP_CONSTANT || op->code == IR_OP_SPLAT || op->code == IR_OP_MAKE_RANGE) &&
		   !gpu_is_shared(op->results[0].type);
	for (int r = 0; r < op->nresults; r++)
		assign_as(s, &op->results[r], NULL, op->loc, any);
	for (int g = 0; g < op->nregions; g++)
		walk(s, op->regions[g], op->loc);
}

static void walk(assigner *s, ir_block *b, srcloc loc)
{
	for (int i = 0; i < b->nargs; i++)
		assign_as(s, b->args[i], NULL, loc, true);
	for (ir_op *op = b->first; op; op = op->next)
		assign_op(s, op);
}

int pass_assign_layouts(ir_module *m, diag_engine *d)
{
	assigner s = {.c = m->ctx, .d = d};
	for (ir_func *f = m->funcs; f; f = f->next) {
		if (!gpu_func_shape(f, &s.warp, &s.warps))
			continue;
		const ir_attr *cc = ir_func_attr(f, "nv_cc");
		s.cc = cc && cc->kind == IR_ATTR_INT ? (int)cc->i : 0;
		const ir_attr *as = ir_func_attr(f, "nv_arch_specific");
		s.wgmma = s.cc == 90 && as && as->kind == IR_ATTR_INT && as->i;
		const ir_attr *amd = ir_func_attr(f, "amd_arch");
		s.mfma = amd && amd->kind == IR_ATTR_STR ? gpu_amd_mfma_gen(amd->s) : 0;
		const ir_attr *nk = ir_func_attr(f, "matrix_instr_nonkdim");
		s.nonk = nk && nk->kind == IR_ATTR_INT ? (int)nk->i : 0;
		walk(&s, f->body, f->loc);
	}
	return s.errors != 0;
}
