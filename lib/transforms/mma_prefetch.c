/* mma_prefetch.c: the first k-step of an mma.sync dot's operands fetched from the ring one
 * iteration ahead (NVIDIA sm_80 and later; after pipeline.c). In the loop the pipeline
 * makes
 *
 *   body i     wait until iteration i's copies have landed; barrier
 *              dot: for each k-step, ldmatrix A's and B's fragments from slot i % S, mma
 *              start the copies of iteration i + S - 1; commit
 *
 * every iteration opens with the wait, the barrier and then ldmatrix, whose latency the
 * first mma.sync waits out with nothing else to do. After the rewrite
 *
 *   before     wait for iteration 0's copies; barrier; f = ldmatrix k-step 0 of slot 0
 *   body i     dot: k-step 0 from f (carried), the others from slot i % S as before
 *              start the copies of iteration i + S - 1; commit
 *              wait for iteration i + 1's copies; barrier
 *              f = ldmatrix k-step 0 of slot (i + 1) % S
 *
 * so the next iteration's first mma.sync finds its fragments in registers, and the ldmatrix
 * of later k-steps overlap the mma.sync of earlier ones (Triton's prefetch on its mma.sync
 * path does the same). The wait moves from the top of iteration i + 1 to the end of
 * iteration i, with the same count (S - 2 groups may stay in flight: the ones started
 * after i + 1's); the barrier after it still comes after every thread's last read of the
 * slot the next copies overwrite, which is now the previous iteration's, and before any
 * read of slot (i + 1) % S. The fragments are local_load ops into #dot_op layouts
 * (gpu_layout.h), a dot's operands after its accumulator; the last iteration's fetch reads
 * a slot no dot uses, which is harmless.
 *
 * A dot qualifies when it runs on mma.sync (#mma version 2) with 16-bit operands, and an
 * operand read from the ring's current slot (local_view of the {ring_slot = 0} index) is
 * one ldmatrix can read (gpu_mma_staged_fits); A in registers (attention's P on mma.sync) is
 * left as it is, its B fetched ahead alone. The loop must open with the pipeline's wait and
 * barrier.
 *
 * Off by default (tilecc --mma-prefetch, tilecc_options.mma_prefetch; or named in --passes):
 * it has not yet run on a GPU, so neither its results nor its speed against the plain
 * pipeline are measured. It holds A's and B's first k-step (32 registers a thread on the
 * bench matmul at 4 warps) across the loop: ptxas gives that kernel 255 registers instead
 * of 246, and two of tutorial 03's sm_80 configs spill (128x128x128 w4 s4: 72 bytes,
 * 128x64x64 w4 s4: 4); with B's alone they do not (docs/perf.md, stage 13). */
#include <stdio.h>

#include "support/arena.h"
#include "transforms/gpu_mma.h"
#include "transforms/loop_stage.h"
#include "transforms/pass.h"

#define MAX_AHEAD 8

typedef struct ahead {
	ir_op *dot;
	int opidx;
	ir_op *view; /* the local_view of the current slot it reads */
	const ir_type *ft; /* the fragments' type: k-step 0 of the operand, #dot_op */
} ahead;

static const ir_type *i32(ir_context *c)
{
	return ir_type_scalar(c, IR_I32);
}

/* The top-level op of body computing the ring slot of iteration i + k ({ring_slot = k}). */
static ir_op *ring_slot(ir_block *body, int64_t k)
{
	for (ir_op *o = body->first; o; o = o->next)
		if (o->code == IR_OP_REMI && ir_op_int(o, "ring_slot", -1) == k)
			return o;
	return NULL;
}

/* Operand opidx of dot, in a qualifying dot of plan p: a local_view of slot `slot` in body
 * that ldmatrix can read as the 16-bit operand it is. */
static ir_op *slot_view(ir_block *body, const ir_op *dot, int opidx, const gpu_mma *p, const ir_value *slot)
{
	ir_op *v = dot->operands[opidx]->def;
	gpu_layout sl;
	if (!v || v->code != IR_OP_LOCAL_VIEW || v->parent != body || v->operands[0] != slot ||
	    !gpu_layout_parse(v->results[0].type->layout, &sl))
		return NULL;
	return gpu_mma_staged_fits(p, opidx == 0 ? &sl : NULL, opidx == 1 ? &sl : NULL, false) ? v : NULL;
}

/* The type of k-step 0 of operand opidx of dot (plan p): A's M x 16, B's 16 x N. */
static const ir_type *fragment_type(ir_context *c, const ir_op *dot, int opidx, const gpu_mma *p)
{
	const ir_type *t = dot->operands[opidx]->type;
	int64_t shape[2] = {t->shape[0], t->shape[1]};
	shape[1 - opidx] = 16;
	gpu_layout l;
	gpu_layout_dot_op_fill(&l, opidx, p->w0, p->w1);
	strbuf s = {0};
	gpu_layout_print(&s, &l);
	const ir_type *ft = s.data ? ir_type_tile_layout(c, t->elem, 2, shape, s.data) : NULL;
	strbuf_free(&s);
	return ft;
}

/* The local_view of the tile view reads, in slot `slot`, built at b; then its k-step 0. */
static ir_value *fetch(ir_context *c, ir_builder *b, const ahead *a, ir_value *slot)
{
	const ir_type *vt = a->view->results[0].type;
	ir_op *v = ir_build(b, IR_OP_LOCAL_VIEW, 1, &slot, 1, &vt);
	for (int i = 0; i < a->view->nattrs; i++)
		ir_op_set_attr(c, v, &a->view->attrs[i]);
	ir_value *vv = &v->results[0];
	ir_op *ld = ir_build(b, IR_OP_LOCAL_LOAD, 1, &vv, 1, &a->ft);
	return &ld->results[0];
}

/* The wait for the copies of the next iteration to use and the barrier after it, at b. */
static void wait_barrier(ir_context *c, ir_builder *b, int64_t pending)
{
	ir_op *w = ir_build(b, IR_OP_ASYNC_WAIT, 0, NULL, 0, NULL);
	ir_op_set_int(c, w, "pending", pending);
	ir_build(b, IR_OP_BARRIER, 0, NULL, 0, NULL);
}

static void prefetch_loop(ir_context *c, ir_op *fo)
{
	ir_block *body = fo->regions[0];
	int64_t S = ir_op_int(fo, "pipelined_stages", 0);
	ir_op *w = body->first, *bar = w ? w->next : NULL, *rs = ring_slot(body, 0);
	if (S < 2 || ir_op_attr(fo, "async_result") || !w || w->code != IR_OP_ASYNC_WAIT || !bar ||
	    bar->code != IR_OP_BARRIER || !rs || body->last->code != IR_OP_YIELD)
		return;
	int64_t pending = ir_op_int(w, "pending", -1);
	ahead ah[MAX_AHEAD];
	int n = 0;
	for (ir_op *d = body->first; d && n + 2 <= MAX_AHEAD; d = d->next) {
		gpu_layout l;
		gpu_mma p;
		if (d->code != IR_OP_DOT || d->noperands != 3 || !d->results[0].type->layout ||
		    !gpu_layout_parse(d->results[0].type->layout, &l) || l.kind != GPU_BLOCKED || l.mma != 2 ||
		    !gpu_mma_plan_layout(d, &l, &p) || (p.kind != GPU_MMA_F16 && p.kind != GPU_MMA_BF16) || p.x3)
			continue;
		for (int k = 0; k < 2; k++) {
			ir_op *v = slot_view(body, d, k, &p, &rs->results[0]);
			if (!v)
				continue;
			ah[n] = (ahead){d, k, v, fragment_type(c, d, k, &p)};
			if (ah[n].ft)
				n++;
		}
	}
	if (n == 0 || pending < 0)
		return;

	/* before the loop: iteration 0's copies landed, k-step 0 of slot 0 */
	ir_builder b = {c, fo->parent, fo, fo->loc};
	wait_barrier(c, &b, pending);
	ir_value *zero = ir_const_int(&b, i32(c), 0), *first[MAX_AHEAD], *cur[MAX_AHEAD];
	for (int q = 0; q < n; q++)
		first[q] = fetch(c, &b, &ah[q], zero);
	fo = loop_add_carried(c, fo, n, first, cur);

	/* the end of the body: iteration i + 1's copies landed, k-step 0 of its slot */
	ir_op *y = body->last;
	ir_builder eb = {c, body, y, y->loc};
	wait_barrier(c, &eb, pending);
	ir_value *one = ir_const_int(&eb, i32(c), 1);
	ir_value *nx = ir_build2(&eb, IR_OP_ADDI, i32(c), rs->operands[0], one);
	ir_value *nslot = ir_build2(&eb, IR_OP_REMI, i32(c), nx, ir_const_int(&eb, i32(c), S));
	ir_op_set_int(c, nslot->def, "ring_slot", 1);
	ir_value **yv = ARENA_NEWN(ir_arena(c), ir_value *, (size_t)(y->noperands + n));
	for (int a = 0; a < y->noperands; a++)
		yv[a] = y->operands[a];
	for (int q = 0; q < n; q++)
		yv[y->noperands + q] = fetch(c, &eb, &ah[q], nslot);
	ir_build(&eb, IR_OP_YIELD, y->noperands + n, yv, 0, NULL);
	ir_op_erase(y);

	/* each dot takes its fragments after the accumulator */
	for (int q = 0; q < n; q++) {
		if (q > 0 && ah[q - 1].dot == ah[q].dot)
			continue;
		ir_op *d = ah[q].dot;
		ir_value *ops[5] = {d->operands[0], d->operands[1], d->operands[2], NULL, NULL};
		int no = 3;
		for (int r = q; r < n && ah[r].dot == d; r++)
			ops[no++] = cur[r];
		const ir_type *rt = d->results[0].type;
		ir_builder db = {c, body, d, d->loc};
		ir_op *nd = ir_build(&db, IR_OP_DOT, no, ops, 1, &rt);
		for (int i = 0; i < d->nattrs; i++)
			ir_op_set_attr(c, nd, &d->attrs[i]);
		nd->results[0].name = d->results[0].name;
		ir_replace_all_uses(&d->results[0], &nd->results[0]);
		for (int r = q; r < n && ah[r].dot == d; r++)
			ah[r].dot = nd;
		ir_op_erase(d);
	}
	/* the wait and barrier at the top are the previous iteration's end now */
	ir_op_erase(bar);
	ir_op_erase(w);
	ir_op_set_int(c, fo, "mma_prefetched", n);
}

static void walk(ir_context *c, ir_block *b)
{
	for (ir_op *op = b->first, *next; op; op = next) {
		next = op->next; /* prefetch_loop replaces op */
		for (int r = 0; r < op->nregions; r++)
			walk(c, op->regions[r]);
		if (op->code == IR_OP_FOR && ir_op_attr(op, "ring") && !ir_op_attr(op, "mma_prefetched"))
			prefetch_loop(c, op);
	}
}

int pass_mma_prefetch(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next) {
		const ir_attr *cc = ir_func_attr(f, "nv_cc");
		if (cc && cc->kind == IR_ATTR_INT && cc->i >= 80)
			walk(m->ctx, f->body);
	}
	return 0;
}
