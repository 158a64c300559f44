/* limits.c: the kernel resource limits of limits.h, checked over every op result. */
#include "driver/limits.h"

#include <inttypes.h>

typedef struct limit_walk {
	diag_engine *d;
	const kernel_limits *l;
	int64_t threads; /* num_warps x warp size; 0 off a GPU */
	bool tile_reported, thread_reported;
	int errors;
} limit_walk;

static void check_op(limit_walk *w, const ir_op *op)
{
	for (int i = 0; i < op->nresults; i++) {
		const ir_type *t = op->results[i].type;
		if (!t || t->kind != IR_TILE)
			continue;
		int64_t n = ir_type_numel(t);
		if (!w->tile_reported && n > w->l->max_tile_elems) {
			strbuf b = {0};
			ir_type_print(&b, t);
			diag_error(w->d, op->loc,
				   "'%s' makes a %s of %" PRId64 " elements, more than the limit of %" PRId64
				   " (raise it with --max-tile-elems=N)",
				   ir_ops[op->code].name, b.data ? b.data : "tile", n, w->l->max_tile_elems);
			strbuf_free(&b);
			w->tile_reported = true;
			w->errors++;
		}
		int64_t each = w->threads ? (n + w->threads - 1) / w->threads : 0;
		if (!w->thread_reported && w->threads && each > w->l->max_elems_per_thread) {
			strbuf b = {0};
			ir_type_print(&b, t);
			diag_error(w->d, op->loc,
				   "'%s' makes a %s: %" PRId64 " elements for each of the program's %" PRId64
				   " threads, more than the limit of %" PRId64
				   " (use smaller blocks or more warps, or raise it with "
				   "--max-elems-per-thread=N)",
				   ir_ops[op->code].name, b.data ? b.data : "tile", each, w->threads,
				   w->l->max_elems_per_thread);
			strbuf_free(&b);
			w->thread_reported = true;
			w->errors++;
		}
	}
}

static void check_block(limit_walk *w, const ir_block *b)
{
	for (const ir_op *op = b->first; op && !(w->tile_reported && w->thread_reported); op = op->next) {
		check_op(w, op);
		for (int r = 0; r < op->nregions; r++)
			check_block(w, op->regions[r]);
	}
}

int check_kernel_limits(const ir_module *m, diag_engine *d, const kernel_limits *l)
{
	int errors = 0;
	for (const ir_func *f = m->funcs; f; f = f->next) {
		limit_walk w = {.d = d, .l = l};
		if (l->warp_size > 0) {
			const ir_attr *nw = ir_func_attr(f, "num_warps");
			int64_t warps = nw && nw->kind == IR_ATTR_INT && nw->i > 0 ? nw->i : 4;
			w.threads = warps * l->warp_size;
		}
		w.thread_reported = !w.threads;
		check_block(&w, f->body);
		errors += w.errors;
	}
	return errors;
}
