/* smem_alloc.c: plans a GPU kernel's shared memory. Every op that moves data between
 * threads through shared memory (broadcast, trans, join, split, reductions, scans, dot;
 * see gpu_smem_bytes) gets {smem = bytes}; they synchronize internally and never overlap
 * in time, so all start at offset 0 and the kernel needs the largest of them, recorded as
 * the function's {shared = bytes} (the launch's dynamic shared memory). Tiles converted to
 * a #shared layout for the op after them (a dot's operands) stay there until it reads
 * them: each gets {smem_offset} above the ones staged before it, and {smem} is the end of
 * what it writes. */
#include "transforms/gpu_layout.h"
#include "transforms/pass.h"

/* Whether op reads a tile that lives in shared memory. */
static bool reads_shared(const ir_op *op)
{
	for (int i = 0; i < op->noperands; i++)
		if (gpu_is_shared(op->operands[i]->type))
			return true;
	return false;
}

static int64_t walk(ir_context *c, diag_engine *d, ir_block *b, int threads, int warp, int *errors)
{
	int64_t most = 0, top = 0; /* top: the end of the shared tiles waiting for their reader */
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++) {
			int64_t inner = walk(c, d, op->regions[r], threads, warp, errors);
			most = inner > most ? inner : most;
		}
		int64_t bytes = gpu_smem_bytes(op, threads, warp);
		if (op->code == IR_OP_CONVERT_LAYOUT && gpu_is_shared(op->results[0].type)) {
			/* a tile staged for the op after it: above the others staged for it, on
			 * its swizzle pattern's boundary (wgmma's NVMMA layouts: 1024 bytes) */
			const ir_type *st = op->results[0].type;
			gpu_layout sl;
			int64_t al = gpu_layout_parse(st->layout, &sl) ? gpu_layout_shared_align(&sl, st) : 16;
			top = (top + al - 1) / al * al;
			ir_op_set_int(c, op, "smem_offset", top);
			bytes += top;
			top = gpu_align16(bytes);
		} else if (reads_shared(op)) {
			top = 0;
		} else if (top > 0 && (bytes > 0 || op->nregions)) {
			/* it would overwrite the staged tiles before their reader */
			diag_internal(d, "%s between a staged #shared tile and its reader uses shared memory",
				      ir_ops[op->code].name);
			(*errors)++;
		}
		if (bytes > 0) {
			ir_op_set_int(c, op, "smem", bytes);
			most = bytes > most ? bytes : most;
		}
	}
	return most;
}

int pass_smem_alloc(ir_module *m, diag_engine *d)
{
	int errors = 0;
	for (ir_func *f = m->funcs; f; f = f->next) {
		int warp, warps;
		if (!gpu_func_shape(f, &warp, &warps))
			continue;
		int threads = warp * warps;
		ir_func_set_int(m->ctx, f, "shared", walk(m->ctx, d, f->body, threads, warp, &errors));
	}
	return errors != 0;
}
