/* fuzz_signature.c: the signature parser (-s strings) and what sema does with a
 * signature: the bytes are the signature of a fixed kernel whose parameters are a pointer,
 * integers, a float and two constexprs, compiled to tile IR for x86-64. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "tilecc/tilecc.h"

static const char kernel_source[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def scale(x_ptr, out_ptr, n, stride, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs * stride, mask=mask)\n"
    "    if EVEN:\n"
    "        x = x * alpha\n"
    "    tl.store(out_ptr + offs, x, mask=mask)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tilecc_compiler *cc;
	if (!cc && !(cc = tilecc_compiler_create()))
		return 0;
	char *sig = fuzz_cstring(data, size);
	if (!sig)
		return 0;
	tilecc_options o = {0};
	o.input_name = "scale.py";
	o.source = kernel_source;
	o.source_len = sizeof kernel_source - 1;
	o.signature = sig;
	o.target = "x86-64";
	o.emit = TILECC_EMIT_TIR;
	o.opt_level = -1;
	o.ignore_tilecc_path = 1;
	tilecc_output out = {0};
	if (tilecc_compile(cc, &o, &out) == 0)
		tilecc_output_free(&out);
	free(sig);
	return 0;
}
