/* prefetch.c: the loads of a dot loop issued one iteration ahead into registers (AMD's
 * matrix-core pipeline; NVIDIA's is pipeline.c, whose async copies go straight to shared
 * memory). In
 *
 *   for k in range(lo, hi, step):
 *       a = tl.load(a_ptrs, mask=..., other=...)    # staged in LDS for the dot below
 *       acc = tl.dot(a, b, acc)
 *       a_ptrs += ...
 *
 * each iteration waits for its global loads before its LDS writes and the matrix cores can
 * start. After the rewrite
 *
 *   a_next = tl.load(a_ptrs_0, mask=... & (lo < hi))              # before the loop
 *   for k in range(lo, hi, step):                                 # carries a_cur = a_next
 *       a_next = tl.load(a_ptrs_k+1, mask=... & (k + step < hi))  # issued first
 *       acc = tl.dot(a_cur, b, acc)                               # LDS write, barrier, MFMA
 *
 * the loads of iteration k + 1 are in flight while iteration k writes its operands to LDS
 * and runs its dot: a two-stage pipeline, the second stage in registers (as Triton's AMD
 * stream pipeliner at num_stages = 2), at the cost of holding the loaded tiles across the
 * dot. What the loads' pointers, masks and `other` need is stage 0 (loop_stage.h): cloned
 * for iteration 0 before the loop and for iteration k + 1 at the top of the body; the
 * carried pointer tiles then run one iteration ahead, so nothing else may read them.
 *
 * A load qualifies when its only use is a dot operand in the same body, directly (the
 * CPU's IR) or through its conversion to a #shared layout (a GPU's); on GPUs only for
 * dots on AMD's matrix cores (#mfma), in workgroups of at most 4 waves, and while the
 * prefetched tiles take at most PREFETCH_BYTES a thread: gfx906's FMA-path dots are short of registers already
 * (stage_early.c does the opposite there). The step must be a positive constant. Named in
 * --passes it rewrites any function, which is how e2e.x86rebase runs rewritten loops on
 * x86-64; the default pipelines run it for AMD only (pass_amd_pipeline). */
#include "support/arena.h"
#include "transforms/gpu_layout.h"
#include "transforms/loop_stage.h"
#include "transforms/pass.h"

#define MAX_PREFETCH 8
/* bytes of prefetched tiles a GPU thread may hold across the dot (32 VGPRs), in workgroups
 * of at most PREFETCH_WARPS waves: one wave a SIMD, with the whole register file (8 waves
 * halve it; the 128 x 128 int8 dot on 8 waves spilled 60-116 bytes on gfx90a and gfx942
 * with 64 bytes prefetched) */
#define PREFETCH_BYTES 128
#define PREFETCH_WARPS 4

/* The dot that reads load op's result in body, directly or through a convert_layout to
 * #shared; NULL when it has any other use. */
static ir_op *feeds_dot(const ir_func *f, ir_block *body, ir_op *op)
{
	ir_op *u = loop_only_user(f, body, &op->results[0]);
	if (u && u->code == IR_OP_CONVERT_LAYOUT && gpu_is_shared(u->results[0].type))
		u = loop_only_user(f, body, &u->results[0]);
	if (!u || u->code != IR_OP_DOT)
		return NULL;
	return u->operands[2] != &op->results[0] ? u : NULL;
}

/* Whether dot runs where prefetching pays: no layouts (a CPU), or AMD's matrix cores. */
static bool prefetch_dot(const ir_op *dot)
{
	const char *lay = dot->results[0].type->layout;
	gpu_layout l;
	if (!lay)
		return true;
	return gpu_layout_parse(lay, &l) && l.mma == 4;
}

static bool candidate(const ir_func *f, ir_block *body, ir_op *op)
{
	if (op->code != IR_OP_LOAD || op->parent != body)
		return false;
	const ir_type *pt = op->operands[0]->type;
	if (pt->kind != IR_TILE || pt->elem->kind != IR_PTR)
		return false;
	ir_op *dot = feeds_dot(f, body, op);
	return dot && prefetch_dot(dot);
}

/* A copy of load ld reading map's pointers, mask and other, its mask and-ed with `live`,
 * at b. */
static ir_value *load_ahead(ir_context *c, ir_builder *b, ir_op *ld, ir_ptrmap *map, ir_value *live)
{
	ir_value *ops[3] = {loop_mapped(map, ld->operands[0]), loop_ahead_mask(c, b, ld, map, live), NULL};
	int n = 2;
	if (ld->noperands > 2)
		ops[n++] = loop_mapped(map, ld->operands[2]);
	const ir_type *rt = ld->results[0].type;
	ir_op *cl = ir_build(b, IR_OP_LOAD, n, ops, 1, &rt);
	for (int i = 0; i < ld->nattrs; i++)
		ir_op_set_attr(c, cl, &ld->attrs[i]);
	return &cl->results[0];
}

static void prefetch_loop(ir_context *c, const ir_func *f, ir_op *fo)
{
	ir_block *body = fo->regions[0];
	ir_op *y = body->last;
	int64_t step;
	if (!loop_pipelinable(fo, &step))
		return;
	ir_value *iv = body->args[0];
	ir_op *loads[MAX_PREFETCH];
	int n = 0;
	int64_t bytes = 0;
	for (ir_op *op = body->first; op && n < MAX_PREFETCH; op = op->next)
		if (candidate(f, body, op)) {
			const ir_type *t = op->results[0].type;
			bytes += ir_type_numel(t) * gpu_elem_bytes(t->elem);
			loads[n++] = op;
		}
	int warp, warps;
	if (n && gpu_func_shape(f, &warp, &warps) &&
	    (warps > PREFETCH_WARPS || bytes > (int64_t)PREFETCH_BYTES * warp * warps))
		return;
	if (n == 0)
		return;
	int nc = body->nargs - 1;
	bool *carried = ARENA_NEWN(ir_arena(c), bool, nc > 0 ? (size_t)nc : 1);
	valset ops = {0};
	if (!loop_stage0(body, loads, n, 3, &ops, carried) ||
	    !loop_ahead_private(f, fo, loads, n, &ops, carried)) {
		valset_free(&ops);
		return;
	}
	const ir_type *it = iv->type, *i1 = ir_type_scalar(c, IR_I1);
	ir_value *lo = fo->operands[0], *hi = fo->operands[1];

	/* before the loop: iteration 0's loads */
	ir_builder b = {c, fo->parent, fo, fo->loc};
	ir_ptrmap map = {0};
	ir_ptrmap_put(&map, iv, lo);
	for (int a = 0; a < nc; a++)
		if (carried[a])
			ir_ptrmap_put(&map, body->args[1 + a], fo->operands[3 + a]);
	loop_clone_stage0(c, body, &ops, &map, fo->parent, fo);
	ir_value *live = ir_build2(&b, IR_OP_CMPI, i1, lo, hi);
	ir_op_set_str(c, live->def, "pred", "lt");
	ir_value *first[MAX_PREFETCH];
	for (int q = 0; q < n; q++)
		first[q] = load_ahead(c, &b, loads[q], &map, live);
	for (int a = 0; a < nc; a++)
		if (carried[a])
			ir_op_set_operand(fo, 3 + a, loop_mapped(&map, y->operands[a]));
	ir_ptrmap_free(&map);

	ir_value *cur[MAX_PREFETCH];
	fo = loop_add_carried(c, fo, n, first, cur);

	/* the body: iteration k + 1's loads first */
	ir_builder bb = {c, body, body->first, fo->loc};
	ir_value *next_iv = ir_build2(&bb, IR_OP_ADDI, it, iv, ir_const_int(&bb, it, step));
	ir_ptrmap_put(&map, iv, next_iv);
	loop_clone_stage0(c, body, &ops, &map, body, bb.before);
	live = ir_build2(&bb, IR_OP_CMPI, i1, next_iv, hi);
	ir_op_set_str(c, live->def, "pred", "lt");
	ir_value *next[MAX_PREFETCH];
	for (int q = 0; q < n; q++)
		next[q] = load_ahead(c, &bb, loads[q], &map, live);
	/* the yield: the carried values stage 0 advances, then the loads' */
	ir_value **yv = ARENA_NEWN(ir_arena(c), ir_value *, (size_t)(y->noperands + n));
	for (int a = 0; a < y->noperands; a++)
		yv[a] = a < nc && carried[a] ? loop_mapped(&map, y->operands[a]) : y->operands[a];
	for (int q = 0; q < n; q++)
		yv[y->noperands + q] = next[q];
	ir_builder yb = {c, body, y, y->loc};
	ir_build(&yb, IR_OP_YIELD, y->noperands + n, yv, 0, NULL);
	ir_op_erase(y);
	ir_ptrmap_free(&map);
	/* the dot reads the carried tile; iteration k's own stage 0 is left to dce */
	for (int q = 0; q < n; q++) {
		ir_replace_uses_in(body, &loads[q]->results[0], cur[q]);
		ir_op_erase(loads[q]);
	}
	for (bool again = true; again;) {
		again = false;
		for (ir_op *op = body->last, *prev; op; op = prev) {
			prev = op->prev;
			if (valset_has(&ops, op) && !ir_op_has_uses(op)) {
				ir_op_erase(op);
				again = true;
			}
		}
	}
	ir_op_set_int(c, fo, "prefetched", n);
	valset_free(&ops);
}

static void walk(ir_context *c, const ir_func *f, ir_block *b)
{
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next; /* prefetch_loop replaces op */
		for (int r = 0; r < op->nregions; r++)
			walk(c, f, op->regions[r]);
		if (op->code == IR_OP_FOR && !ir_op_attr(op, "ring") && !ir_op_attr(op, "prefetched"))
			prefetch_loop(c, f, op);
	}
}

int pass_prefetch(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next)
		walk(m->ctx, f, f->body);
	return 0;
}
