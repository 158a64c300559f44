/* stage_early.c: on AMD GPUs, a tile loaded for a dot off the matrix cores is written to
 * its LDS staging buffer right after the load, before the next operand is loaded. The
 * loop body of a dot kernel reads
 *
 *   a = load(...); b = load(...); cvt_a = convert_layout a to #shared; cvt_b = ...; dot
 *
 * and each thread then holds both loaded tiles in registers at once beside the
 * accumulators: on gfx906's FMA path with 128 x 128 blocks of 4 waves (64 accumulators, 32
 * elements of A and 32 of B per thread, each masked element in its own VGPR until it is
 * packed) that passes the 256 VGPRs. Moving cvt_a up to its load,
 *
 *   a = load(...); cvt_a = ...; b = load(...); cvt_b = ...; dot
 *
 * keeps one operand tile in registers at a time. The ops it moves over are pure ops and
 * global loads (nothing that touches shared memory or synchronises), so only the order of
 * independent memory accesses changes; smem-alloc and insert-barriers, which run later,
 * place the buffers and the barriers for the new order.
 *
 * Only dots whose result is not in an MFMA layout, in functions compiled for AMD
 * ({amd_arch}): the matrix cores' operands are fetched differently, and NVIDIA's output
 * stays as it was. */
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"

#define MAX_CHAIN 8

/* Whether op may be moved over: pure and region-free, or a load from global memory. */
static bool movable_over(const ir_op *op)
{
	if (op->nregions)
		return false;
	if (op->code == IR_OP_LOAD)
		return op->operands[0]->type->kind == IR_TILE || op->operands[0]->type->kind == IR_PTR;
	if (op->code == IR_OP_CONVERT_LAYOUT)
		return !gpu_is_shared(op->results[0].type);
	return (ir_ops[op->code].traits & T_PURE) != 0;
}

/* Whether dot's result is on the FMA path (a blocked layout: not #mfma, mma 4). */
static bool fma_dot(const ir_op *dot)
{
	gpu_layout l;
	const char *lay = dot->results[0].type->layout;
	return lay && gpu_layout_parse(lay, &l) && !l.mma; /* 4: #mfma */
}

static void stage_block(ir_block *b)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			stage_block(op->regions[r]);
		if (op->code != IR_OP_DOT || !fma_dot(op))
			continue;
		for (int i = 0; i < 2; i++) {
			ir_op *cv = op->operands[i]->def;
			if (!cv || cv->code != IR_OP_CONVERT_LAYOUT || cv->parent != b || !gpu_is_shared(cv->results[0].type))
				continue;
			/* cv and the element-wise ops (bitcasts of fp8 bytes) between it and the load */
			ir_op *chain[MAX_CHAIN];
			int n = 0;
			chain[n++] = cv;
			ir_op *ld = cv->operands[0]->def;
			while (ld && ld->parent == b && ld->code != IR_OP_LOAD && n < MAX_CHAIN && ld->noperands == 1 &&
			       ld->nresults == 1 && !ld->nregions && (ir_ops[ld->code].traits & T_PURE) &&
			       ir_value_num_uses(&ld->results[0]) == 1) {
				chain[n++] = ld;
				ld = ld->operands[0]->def;
			}
			if (!ld || ld->code != IR_OP_LOAD || ld->parent != b || ir_value_num_uses(&ld->results[0]) != 1)
				continue;
			bool ok = true;
			for (ir_op *o = ld->next; o && o != cv && ok; o = o->next) {
				bool on_chain = false;
				for (int k = 0; k < n; k++)
					on_chain |= o == chain[k];
				ok = on_chain || movable_over(o);
			}
			if (!ok)
				continue;
			for (int k = n - 1; k >= 0; k--) {
				ir_op *at = k == n - 1 ? ld->next : chain[k + 1]->next;
				if (at == chain[k])
					continue;
				ir_op_remove(chain[k]);
				ir_block_insert_before(b, at, chain[k]);
			}
		}
	}
}

int pass_stage_early(ir_module *m, diag_engine *d)
{
	(void)d;
	for (ir_func *f = m->funcs; f; f = f->next)
		if (ir_func_attr(f, "amd_arch"))
			stage_block(f->body);
	return 0;
}
