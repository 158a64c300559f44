/* fuzz_ir.c: the tile IR text parser, the verifier (after every pass) and the pass
 * pipeline: the default one (canonicalize, cse, dce), then the GPU passes, which act on
 * the functions whose text carries a threads_per_warp attribute (IR printed after the GPU
 * passes, as the seeds are) and leave the others alone. The bytes are given as a ".tir"
 * input in a buffer of exactly their size. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "tilecc/tilecc.h"
#include "transforms/pass.h"

/* The default pipeline, then AMD's GPU one (NVIDIA's and rebase-pointers): what tilecc runs
 * for an AMD target. */
static const char *fuzz_full_pipeline(void)
{
	static char list[1024];
	if (!list[0])
		snprintf(list, sizeof list, "%s,%s", pass_default_pipeline, pass_amd_pipeline);
	return list;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tilecc_compiler *cc;
	if (!cc && !(cc = tilecc_compiler_create()))
		return 0;
	char *src = fuzz_exact_copy(data, size);
	if (!src)
		return 0;
	tilecc_options o = {0};
	o.input_name = "fuzz.tir";
	o.source = src;
	o.source_len = size;
	o.target = "sm_90";
	o.emit = TILECC_EMIT_TIR;
	o.opt_level = -1;
	o.verify_each = 1;
	o.passes = fuzz_full_pipeline();
	tilecc_output out = {0};
	if (tilecc_compile(cc, &o, &out) == 0)
		tilecc_output_free(&out);
	free(src);
	return 0;
}
