/* passes.c: the table of passes by name, and the default pipeline. */
#include <string.h>

#include "transforms/pass.h"

/*  name               summary                                                   entry */
const pass_info pass_table[] = {
    {"canonicalize",    "fold constants and simplify algebraic identities",       pass_canonicalize},
    {"cse",             "merge identical pure ops",                                pass_cse},
    {"dce",             "remove pure ops whose results are unused",                pass_dce},
    {"print-axis-info", "report contiguity/divisibility/constancy as notes",       pass_print_axis_info},
    {"assign-layouts",  "GPU: a blocked layout in the type of every tile",          pass_assign_layouts},
    {"access-layouts",  "GPU: 16-byte runs per thread for 2-D global loads/stores", pass_access_layouts},
    {"remove-layout-conversions", "GPU: drop convert_layout ops that are not needed", pass_remove_layout_conversions},
    {"coalesce",        "GPU: widest aligned global access per load/store ({vec})", pass_coalesce},
    {"rebase-pointers", "loop-carried pointer tiles as a carried scalar base (AMD pipeline)", pass_rebase_pointers},
    {"stage-early",     "AMD: FMA-path dot operands written to LDS right after their load", pass_stage_early},
    {"prefetch",        "dot loops' loads one iteration ahead into registers (AMD pipeline)", pass_prefetch},
    {"pipeline",        "GPU: async copies of a dot loop's loads, num_stages ahead", pass_pipeline},
    {"mma-prefetch",    "NVIDIA: mma.sync dots' first k-step fetched an iteration ahead (--mma-prefetch)", pass_mma_prefetch},
    {"smem-alloc",      "GPU: shared memory of each data movement, kernel total",  pass_smem_alloc},
    {"insert-barriers", "GPU: barriers before shared-memory reuse",                pass_insert_barriers},
    {NULL, NULL, NULL},
};

const char pass_default_pipeline[] = "canonicalize,cse,dce";
#define GPU_LAYOUTS "assign-layouts,access-layouts,remove-layout-conversions,coalesce,stage-early,pipeline,"
#define GPU_SHARED "smem-alloc,insert-barriers"
const char pass_gpu_pipeline[] = GPU_LAYOUTS GPU_SHARED;
/* with --mma-prefetch (experimental: not yet measured or run on a GPU) */
const char pass_gpu_prefetch_pipeline[] = GPU_LAYOUTS "mma-prefetch," GPU_SHARED;
/* AMD's: rebase-pointers and prefetch too (passes that rewrite any function they are run on;
 * NVIDIA's cp.async pipeliner reads the carried pointer tiles as they are and does its own
 * staging, so they are AMD's alone) */
const char pass_amd_pipeline[] =
    "assign-layouts,access-layouts,remove-layout-conversions,coalesce,rebase-pointers,stage-early,prefetch,pipeline,smem-alloc,insert-barriers";

const pass_info *pass_lookup(const char *name)
{
	for (const pass_info *p = pass_table; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}
