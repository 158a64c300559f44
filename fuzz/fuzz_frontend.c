/* fuzz_frontend.c: the Python frontend (lexer, parser, sema, the default pipeline) from
 * source bytes to tile IR, through the public tilecc_compile().
 *
 * Built twice: fuzz_frontend for x86-64 (--emit=tir), and with FUZZ_GPU for sm_90, where
 * the GPU passes (layouts, coalescing, pipelining, shared memory, barriers) run too, then
 * the lowering to LLVM IR at -O0 (FUZZ_GPU_EMIT, fuzz/CMakeLists.txt; the LLVM optimiser
 * is LLVM's to fuzz and would take most of the time). An optional "#@" first line
 * (fuzz.h) names the kernel, the signature, -D constexprs and num_warps; without it the
 * file's only kernel is compiled without a signature. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilecc/tilecc.h"
#include "transforms/pass.h"

#ifdef FUZZ_GPU
/* The default pipeline, then AMD's GPU one (NVIDIA's and rebase-pointers): what tilecc runs
 * for an AMD target. */
static const char *fuzz_full_pipeline(void)
{
	static char list[1024];
	if (!list[0])
		snprintf(list, sizeof list, "%s,%s", pass_default_pipeline, pass_amd_pipeline);
	return list;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tilecc_compiler *cc;
	if (!cc && !(cc = tilecc_compiler_create()))
		return 0;
	fuzz_header h;
	fuzz_header_parse(&h, data, size);
	char *src = fuzz_exact_copy(data, size);
	if (!src) {
		fuzz_header_free(&h);
		return 0;
	}
	tilecc_define defs[FUZZ_MAX_DEFINES];
	for (size_t i = 0; i < h.ndefines; i++)
		defs[i] = (tilecc_define){h.define_names[i], h.define_values[i]};
	tilecc_options o = {0};
	o.input_name = "fuzz.py";
	o.source = src;
	o.source_len = size;
	o.kernel = h.kernel;
	o.signature = h.signature;
	o.defines = defs;
	o.num_defines = h.ndefines;
	o.num_warps = h.num_warps;
	o.opt_level = -1;
	o.ignore_tilecc_path = 1;
#ifdef FUZZ_GPU
	/* the default pipeline and then the GPU one, as tilecc runs them; LLVM at -O0 */
	o.target = "sm_90";
	o.emit = FUZZ_GPU_EMIT;
	o.opt_level = 0;
	o.passes = fuzz_full_pipeline();
#else
	o.target = "x86-64";
	o.emit = TILECC_EMIT_TIR;
#endif
	tilecc_output out = {0};
	if (tilecc_compile(cc, &o, &out) == 0)
		tilecc_output_free(&out);
	free(src);
	fuzz_header_free(&h);
	return 0;
}
