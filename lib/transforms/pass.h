/* pass.h: the pass table. One pass per file under lib/transforms, each exposing one entry
 * point; passes.c lists them with their textual names and the default pipeline. */
#ifndef TILECC_TRANSFORMS_PASS_H
#define TILECC_TRANSFORMS_PASS_H

#include "ir/ir.h"

/* A pass rewrites the module in place; it returns 0, or non-zero after reporting errors. */
typedef int (*pass_fn)(ir_module *m, diag_engine *d);

typedef struct pass_info {
	const char *name;
	const char *summary;
	pass_fn run;
} pass_info;

extern const pass_info pass_table[];
const pass_info *pass_lookup(const char *name);
/* The default tile-level pipeline, comma separated; and what GPU targets run after it:
 * NVIDIA the first (the second with --mma-prefetch), AMD the third (the first with
 * rebase-pointers and prefetch). */
extern const char pass_default_pipeline[];
extern const char pass_gpu_pipeline[];
extern const char pass_gpu_prefetch_pipeline[];
extern const char pass_amd_pipeline[];

int pass_canonicalize(ir_module *m, diag_engine *d);
int pass_cse(ir_module *m, diag_engine *d);
int pass_dce(ir_module *m, diag_engine *d);
int pass_assign_layouts(ir_module *m, diag_engine *d);
int pass_access_layouts(ir_module *m, diag_engine *d);
int pass_remove_layout_conversions(ir_module *m, diag_engine *d);
int pass_coalesce(ir_module *m, diag_engine *d);
int pass_rebase_pointers(ir_module *m, diag_engine *d);
int pass_stage_early(ir_module *m, diag_engine *d);
int pass_prefetch(ir_module *m, diag_engine *d);
int pass_pipeline(ir_module *m, diag_engine *d);
int pass_mma_prefetch(ir_module *m, diag_engine *d);
int pass_smem_alloc(ir_module *m, diag_engine *d);
int pass_insert_barriers(ir_module *m, diag_engine *d);
/* Analysis printers: report through d (as notes) and leave the IR alone. */
int pass_print_axis_info(ir_module *m, diag_engine *d);

#endif
