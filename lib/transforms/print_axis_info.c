/* print_axis_info.c: the print-axis-info pass. Runs the axis analysis on every function and
 * reports its facts as notes through the diagnostics engine (as LLVM reports optimization
 * remarks), one per op result, so that lit tests can check them:
 *   tilecc: note: // %offs: contiguity=[1024] divisibility=[1024] constancy=[1]
 * One note per line keeps each within the engine's message size. The IR is left alone. */
#include <string.h>

#include "transforms/axis_info.h"
#include "transforms/pass.h"

int pass_print_axis_info(ir_module *m, diag_engine *d)
{
	arena *a = ir_arena(m->ctx);
	for (ir_func *f = m->funcs; f; f = f->next) {
		axis_info *ai = axis_analyze(a, f);
		if (!ai) {
			diag_internal(d, "out of memory in the axis analysis");
			return 1;
		}
		strbuf s = {0};
		axis_print(&s, ai, f);
		diag_note(d, SRCLOC_NONE, "axis info of @%s", f->name);
		for (char *line = s.data, *nl; line && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				break;
			*nl = 0;
			diag_note(d, SRCLOC_NONE, "%s", line);
		}
		strbuf_free(&s);
	}
	return 0;
}
