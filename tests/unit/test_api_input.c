/* test_api_input.c: tilecc_compile() on truncated inputs, each handed over in a buffer of
 * exactly its size (malloc'd, no NUL after it), so that ASan reports any read past the end.
 * Every input is malformed: the compilation must fail with return 1 and at least one error
 * diagnostic, never crash or read outside the buffer; each is also tried cut at every
 * shorter length (a prefix may be a whole module, else it must fail with an error). */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/test.h"
#include "tilecc/tilecc.h"

static int errors;

static void count_errors(void *user, const tilecc_diagnostic *d)
{
	(void)user;
	if (d->severity == TILECC_ERROR)
		errors++;
}

/* Compiles text (len bytes, copied into an exact-size buffer) as input_name; returns the
 * return code of tilecc_compile(). */
static int compile_exact(tilecc_compiler *c, const char *input_name, const char *text,
			 size_t len, int num_warps)
{
	char *buf = malloc(len ? len : 1);
	if (!buf)
		return -1;
	memcpy(buf, text, len);
	tilecc_options o = {0};
	o.input_name = input_name;
	o.source = buf;
	o.source_len = len;
	o.kernel = "k";
	o.signature = "*fp32, i32";
	o.emit = TILECC_EMIT_TIR;
	o.opt_level = -1;
	o.num_warps = num_warps;
	tilecc_output out;
	errors = 0;
	int rc = tilecc_compile(c, &o, &out);
	tilecc_output_free(&out);
	free(buf);
	return rc;
}

/* Tile IR texts cut short. */
static const char *const tir_inputs[] = {
	"func @",
	"%",
	"func @k(%",
	"func @k(%a",
	"func @k(%a : i32) {\n  %",
	"func @k(%a : i32) {\n  %0 = ",
	"func @k(%a : i32) {\n  %0 = arith.addi %a, %",
	"func @k(%a : i32) {\n  %0 = arith.addi %a, %a : tile<16x",
	"func @k(%a : i32) {\n  return {x = \"ab",
	"func @k(%a : i32) {\n  return {x = \"\\",
	"func @k(%a : i32) {\n  return {x = [1, 2",
	"func @k(%a : tile<16xf32, #blocked<",
	"func @k(%a : i32) {\n  return loc(\"f.py\":1:",
	"func @k(%a : i32) attributes {num_warps = 4",
	"func @k(%a : i32) {\n  return\n} loc(",
	"func @k(%a : i32) {\n  return // comment",
	"func @k(%a : i32) {\n  %0 = arith.constant {value = 1.5e",
	"func @k(%a : i32) {\n  %0 = arith.constant {value = -in",
	"@",
};

/* Python sources cut short (the kernel is k). */
static const char *const py_inputs[] = {
	"import triton.language as tl\n@triton.jit\ndef k(x, n):\n    tl.store(x, n",
	"@triton.jit\ndef k(x, n):\n    s = \"abc",
	"@triton.jit\ndef k(x, n):\n    s = '''abc",
	"@triton.jit\ndef k(x, n):\n    s = f\"{n",
	"@triton.jit\ndef k(x, n):\n    y = 0x",
	"@triton.jit\ndef k(x, n):\n    y = 1e",
	"@triton.jit\ndef k(x, n):\n    y = n \\",
	"@triton.jit\ndef k(x, n):\n    # comment",
	"@triton.jit\ndef k(x, n):\n    y = (n +",
	"@triton.jit\ndef k(x, n):\n    y = b'\\",
	"@triton.jit\ndef k(x, n):\n    y = n.",
	"@triton.jit\ndef k(",
	"@",
	"d",
};

int main(void)
{
	tilecc_compiler *c = tilecc_compiler_create();
	CHECK(c != NULL);
	if (!c)
		return test_result("test_api_input");
	tilecc_set_diag_handler(c, count_errors, NULL);

	for (size_t i = 0; i < sizeof tir_inputs / sizeof tir_inputs[0]; i++) {
		size_t n = strlen(tir_inputs[i]);
		for (size_t len = 1; len <= n; len++) {
			int rc = compile_exact(c, "t.tir", tir_inputs[i], len, 0);
			if (len == n && (rc != 1 || errors < 1))
				fprintf(stderr, "tir input %zu cut at %zu: rc %d, %d errors\n", i, len, rc,
					errors);
			/* a prefix may happen to be a whole module; the input itself is not */
			CHECK(len < n ? (rc == 0 || errors >= 1) : (rc == 1 && errors >= 1));
		}
	}
	for (size_t i = 0; i < sizeof py_inputs / sizeof py_inputs[0]; i++) {
		size_t n = strlen(py_inputs[i]);
		for (size_t len = 1; len <= n; len++) {
			int rc = compile_exact(c, "t.py", py_inputs[i], len, 0);
			if (len == n && (rc != 1 || errors < 1))
				fprintf(stderr, "python input %zu cut at %zu: rc %d, %d errors\n", i, len, rc,
					errors);
			/* a prefix may happen to be a whole module; the input itself is not */
			CHECK(len < n ? (rc == 0 || errors >= 1) : (rc == 1 && errors >= 1));
		}
	}
	/* tilecc_options.num_warps: 0 is the default, else a power of two from 1 to 32; a bad
	 * value is a usage error (2), with a message, before anything is compiled */
	static const char vadd_tir[] = "func @k(%a : i32) attributes {num_warps = 4} {\n"
				       "  return\n"
				       "}\n";
	static const int bad_warps[] = {-4, -1, 3, 33, 64, 1 << 30};
	for (size_t i = 0; i < sizeof bad_warps / sizeof bad_warps[0]; i++) {
		CHECK(compile_exact(c, "t.tir", vadd_tir, strlen(vadd_tir), bad_warps[i]) == 2);
		CHECK(errors == 1);
	}
	CHECK(compile_exact(c, "t.tir", vadd_tir, strlen(vadd_tir), 0) == 0);
	CHECK(errors == 0);
	CHECK(compile_exact(c, "t.tir", vadd_tir, strlen(vadd_tir), 32) == 0);
	CHECK(errors == 0);
	/* and in the IR text, at the attribute */
	static const char warps0_tir[] = "func @k(%a : i32) attributes {num_warps = 0} {\n"
					 "  return\n"
					 "}\n";
	CHECK(compile_exact(c, "t.tir", warps0_tir, strlen(warps0_tir), 0) == 1);
	CHECK(errors == 1);
	tilecc_compiler_destroy(c);
	return test_result("test_api_input");
}
