/* smem_alloc.c: plans a GPU kernel's shared memory. Every op that moves data between
 * threads through shared memory (broadcast, trans, join, split, reductions, scans, dot;
 * see gpu_smem_bytes) gets {smem = bytes}; they synchronize internally and never overlap
 * in time, so all start at offset 0 and the kernel needs the largest of them, recorded as
 * the function's {shared = bytes} (the launch's dynamic shared memory). Tiles converted to
 * a #shared layout for the op after them (a dot's operands) stay there until it reads
 * them: each gets {smem_offset} above the ones staged before it, and {smem} is the end of
 * what it writes. A loop the pipeline pass gave a ring of shared buffers ({ring},
 * {ring_bytes}) keeps it above what its body uses otherwise, for the whole loop and the
 * prologue before it; each local_view of the ring gets {smem_offset} = the ring's base +
 * its place in a slot ({within}), and {ring_end}, where the ring ends; so does a
 * conversion the pipeline staged once before the loop ({ring}, {within} past the slots). After the loop (its last copies waited for), the
 * memory is free again. */
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

enum { MAX_RINGS = 64 };

typedef struct planner {
	ir_context *c;
	diag_engine *d;
	int threads, warp, errors;
	int64_t ring_base[MAX_RINGS], ring_end[MAX_RINGS];
} planner;

static int64_t walk(planner *pl, ir_block *b)
{
	ir_context *c = pl->c;
	diag_engine *d = pl->d;
	int threads = pl->threads, warp = pl->warp;
	int *errors = &pl->errors;
	int64_t most = 0, top = 0; /* top: the end of the shared tiles waiting for their reader */
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++) {
			int64_t inner = walk(pl, op->regions[r]);
			int64_t ring = ir_op_int(op, "ring", -1), rb = ir_op_int(op, "ring_bytes", 0);
			if (op->code == IR_OP_FOR && ring >= 0 && ring < MAX_RINGS) {
				/* the ring sits above the body's other uses */
				pl->ring_base[ring] = (inner + 1023) / 1024 * 1024;
				inner = pl->ring_end[ring] = pl->ring_base[ring] + rb;
			}
			most = inner > most ? inner : most;
		}
		int64_t bytes = gpu_smem_bytes(op, threads, warp);
		if (op->code == IR_OP_CONVERT_LAYOUT && ir_op_attr(op, "ring")) {
			/* staged once before a pipelined loop, in its ring (place_views) */
		} else if (op->code == IR_OP_CONVERT_LAYOUT && gpu_is_shared(op->results[0].type)) {
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

/* Every local_view of a ring at the ring's base plus its place in a slot. */
static void place_views(planner *pl, ir_block *b)
{
	for (ir_op *op = b->first; op; op = op->next) {
		for (int r = 0; r < op->nregions; r++)
			place_views(pl, op->regions[r]);
		if (op->code != IR_OP_LOCAL_VIEW && !(op->code == IR_OP_CONVERT_LAYOUT && ir_op_attr(op, "ring")))
			continue;
		int64_t ring = ir_op_int(op, "ring", -1);
		if (ring < 0 || ring >= MAX_RINGS) {
			diag_internal(pl->d, "local_view of ring %lld, which no loop owns", (long long)ring);
			pl->errors++;
			continue;
		}
		ir_op_set_int(pl->c, op, "smem_offset", pl->ring_base[ring] + ir_op_int(op, "within", 0));
		ir_op_set_int(pl->c, op, "ring_end", pl->ring_end[ring]);
	}
}

int pass_smem_alloc(ir_module *m, diag_engine *d)
{
	int errors = 0;
	for (ir_func *f = m->funcs; f; f = f->next) {
		int warp, warps;
		if (!gpu_func_shape(f, &warp, &warps))
			continue;
		planner pl = {.c = m->ctx, .d = d, .threads = warp * warps, .warp = warp};
		for (int r = 0; r < MAX_RINGS; r++)
			pl.ring_base[r] = -1;
		ir_func_set_int(m->ctx, f, "shared", walk(&pl, f->body));
		place_views(&pl, f->body);
		errors += pl.errors;
	}
	return errors != 0;
}
