/* main.c: the tilecc command line. A thin driver: it parses options, reads the input,
 * calls tilecc_compile() and writes the result atomically. Everything else lives in the
 * library. Exit codes: 0 success, 1 errors in the input, 2 usage errors, 3 internal. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "tilecc/tilecc.h"

static const char *prog = "tilecc";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s KERNEL.py [options]\n"
		"       %s MODULE.tir [options]\n"
		"       %s KERNEL.ttir [options]   (TTIR, MLIR text: with the MLIR bridge)\n"
		"\n"
		"Compiles one kernel written in the Triton language, ahead of time.\n"
		"\n"
		"options:\n"
		"  -o FILE               write the output to FILE ('-' for stdout); the suffix\n"
		"                        chooses what to emit unless --emit says otherwise\n"
		"  --emit=KIND           ast | tir | ttir | llvm | asm | obj | shared | ptx | cubin |\n"
		"                        amdgcn | hsaco | header\n"
		"  --target=T            x86-64 | riscv64 | sm_80 | sm_86 | sm_89 | sm_90 | sm_90a |\n"
		"                        gfx906 | gfx90a | gfx942 | dcu (= gfx906) | other gfx9 names\n"
		"                        the LLVM in use knows (default: the host); with -o FILE.h a\n"
		"                        comma-separated list (or repeated --target) makes one\n"
		"                        launcher that picks the artifact for the device at run time\n"
		"  --code-object-version N  AMD: HSA code object version, 4 or 5 (default 5)\n"
		"  --matrix-instr-nonkdim N AMD: tl.dot on 32x32 or 16x16 MFMA instructions (16 or\n"
		"                        32; default: Triton's choice)\n"
		"  -mcpu=CPU, -mattr=A   CPU name and features for CPU targets (like clang)\n"
		"  -k, --kernel NAME     the @triton.jit function to compile\n"
		"  -s, --signature SIG   parameter types and constexpr values in order, e.g.\n"
		"                        \"*fp32:16, *fp32:16, i32, 1024\"; with -o FILE.h an\n"
		"                        entry i32:? or *fp32:? compiles the :16 (and :1) and the\n"
		"                        unhinted variants, the launcher picks one per launch\n"
		"  -D NAME=VALUE         set a constexpr parameter by name\n"
		"  -I DIR                search DIR for imported modules (after the kernel file's\n"
		"                        directory and package root; before TILECC_PATH)\n"
		"  --list-kernels        list the file's @triton.jit functions: parameters,\n"
		"                        signature template, autotune configs, heuristics\n"
		"  --num-warps N         warps per program: 1, 2, 4, 8, 16 or 32 (default 4)\n"
		"  --num-stages N        software pipelining depth, 0 to 16\n"
		"  --mma-prefetch        NVIDIA mma.sync: fetch the first k-step of a pipelined\n"
		"                        dot's operands an iteration ahead (experimental, off by\n"
		"                        default until it has run on a GPU)\n"
		"  --max-tile-elems=N    largest tile, in elements (default 1048576)\n"
		"  --max-elems-per-thread=N  GPU targets: most elements of one tile for each\n"
		"                        thread of a program (default 2048)\n"
		"  -O0 .. -O3            optimization level (default -O3)\n"
		"  --passes=a,b,c        run these passes instead of the default pipeline\n"
		"  --print-after=PASS    print the IR after PASS ('all' for every pass) to stderr\n"
		"  --print-locations     print source locations on IR ops\n"
		"  -ftime-report         print the time spent in each phase to stderr\n"
		"  --verify-each         run the IR verifier after every pass\n"
		"  --print-metadata      print each kernel's launch metadata (block size, shared\n"
		"                        memory, parameters) to stderr\n"
		"autotuning (docs/abi.md, \"Autotuning\"):\n"
		"  --tune SPEC           write the tuner program (C, -o tuner.c): it times every\n"
		"                        config at SPEC's problems on the device and writes a\n"
		"                        tuning file; build it with libtilert alone\n"
		"  --configs FILE        the configs to tune, one a line (BLOCK_M=128 num_warps=4\n"
		"                        num_stages=3), instead of @triton.autotune's\n"
		"  --config \"CONFIG\"     one config to tune (repeatable), the same way\n"
		"  --tuning FILE         with -o FILE.h: a launcher that dispatches on the tuned\n"
		"                        configs of the tuning file (no device needed)\n"
		"  --heuristic NAME=V1,V2,...\n"
		"                        values to compile an integer @triton.heuristics entry\n"
		"                        for, besides those the problems reach (repeatable)\n"
		"  --help, --version\n",
		prog, prog, prog);
}

static void version(void)
{
	printf("tilecc version %s\n", TILECC_VERSION_STRING);
	printf("LLVM version %s\n", tilecc_llvm_version());
	if (tilecc_mlir_version())
		printf("MLIR bridge: MLIR %s (TTIR: --emit=ttir, .ttir inputs)\n", tilecc_mlir_version());
	else
		printf("MLIR bridge: not built (TILECC_WITH_MLIR=OFF or no MLIR 19): no TTIR\n");
	printf("registered targets:\n");
	for (size_t i = 0; i < tilecc_num_targets(); i++)
		printf("  %-9s - %s\n", tilecc_target_name(i), tilecc_target_description(i));
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: error: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s: try '%s --help'\n", prog, prog);
	return 2;
}

static void on_diag(void *user, const tilecc_diagnostic *d)
{
	(void)user;
	fputs(d->rendered, stderr);
}

/* Appends v and a newline to the NUL-terminated *buf of *len bytes; false when out of memory. */
static bool append_line(char **buf, size_t *len, const char *v)
{
	size_t n = strlen(v);
	char *nb = realloc(*buf, *len + n + 2);
	if (!nb)
		return false;
	memcpy(nb + *len, v, n);
	*len += n;
	nb[(*len)++] = '\n';
	nb[*len] = 0;
	*buf = nb;
	return true;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		char *nb = realloc(buf, cap *= 2);
		if (!nb) {
			free(buf);
			buf = NULL;
		}
		buf = nb;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		*len = n;
	return buf;
}

static const struct {
	const char *name;
	tilecc_emit emit;
} emits[] = {
	{"ast", TILECC_EMIT_AST},     {"tir", TILECC_EMIT_TIR},     {"llvm", TILECC_EMIT_LLVM},
	{"asm", TILECC_EMIT_ASM},     {"obj", TILECC_EMIT_OBJ},     {"shared", TILECC_EMIT_SHARED},
	{"ptx", TILECC_EMIT_PTX},     {"cubin", TILECC_EMIT_CUBIN}, {"hsaco", TILECC_EMIT_HSACO},
	{"header", TILECC_EMIT_HEADER}, {"amdgcn", TILECC_EMIT_ASM},  {"ttir", TILECC_EMIT_TTIR},
};

/* Accepts "--opt=value", "--opt value" and, for short options, "-ovalue" / "-o value".
 * Returns the value or NULL (and leaves *i alone) when argv[*i] is not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, int *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(opt);
	if (strncmp(a, opt, n) != 0)
		return NULL;
	if (a[n] == '=' && opt[1] == '-')
		return a + n + 1;
	if (a[n] == 0) {
		if (*i + 1 >= argc) {
			*missing = 1;
			return ""; /* taken by the caller's branch; reported after the chain */
		}
		return argv[++*i];
	}
	if (opt[1] != '-' && n == 2)
		return a + 2; /* -ofile, -DNAME=V */
	return NULL;
}

static int parse_int(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *s == 0 || *end || v < 0 || v > 1 << 20)
		return 0;
	*out = (int)v;
	return 1;
}

/* A positive count up to 2^31, for the limits. */
static int parse_count(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *s == 0 || *end || v <= 0 || v > (1ll << 31))
		return 0;
	*out = (int64_t)v;
	return 1;
}

int main(int argc, char **argv)
{
	tilecc_options o = {.opt_level = -1};
	const char *input = NULL, *output = NULL;
	tilecc_define *defs = calloc((size_t)argc, sizeof *defs);
	size_t ndefs = 0;
	const char **incs = calloc((size_t)argc, sizeof *incs);
	size_t nincs = 0;
	char *target_list = NULL; /* the joined list of repeated --target options */
	const char *spec_path = NULL, *tuning_path = NULL, *configs_path = NULL;
	char *spec_text = NULL, *tuning_text = NULL, *configs_text = NULL;
	size_t spec_len = 0, tuning_len = 0, configs_len = 0;
	char *config_lines = NULL; /* the --config options, one a line */
	size_t config_lines_len = 0;
	char *heuristic_lines = NULL; /* the --heuristic options, one a line */
	size_t heuristic_lines_len = 0;
	int rc = 2;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int missing = 0;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (!strcmp(a, "--version")) {
			version();
			rc = 0;
			goto out;
		} else if ((v = opt_value(argc, argv, &i, "-o", &missing))) {
			output = v;
		} else if ((v = opt_value(argc, argv, &i, "--emit", &missing))) {
			size_t k;
			for (k = 0; k < sizeof emits / sizeof emits[0]; k++)
				if (!strcmp(v, emits[k].name))
					break;
			if (k == sizeof emits / sizeof emits[0]) {
				rc = bad_usage("unknown --emit kind '%s'", v);
				goto out;
			}
			o.emit = emits[k].emit;
		} else if ((v = opt_value(argc, argv, &i, "--target", &missing))) {
			/* a repeated --target adds to the list: --target=sm_90a --target=x86-64 */
			if (o.target) {
				size_t n = strlen(o.target) + strlen(v) + 2;
				char *joined = malloc(n);
				if (!joined) {
					rc = 3;
					goto out;
				}
				snprintf(joined, n, "%s,%s", o.target, v);
				free(target_list);
				o.target = target_list = joined;
			} else {
				o.target = v;
			}
		} else if (!strncmp(a, "-mcpu=", 6)) {
			o.mcpu = a + 6;
		} else if (!strncmp(a, "-mattr=", 7)) {
			o.mattr = a + 7;
		} else if ((v = opt_value(argc, argv, &i, "--kernel", &missing)) ||
			   (v = opt_value(argc, argv, &i, "-k", &missing))) {
			o.kernel = v;
		} else if ((v = opt_value(argc, argv, &i, "--signature", &missing)) ||
			   (v = opt_value(argc, argv, &i, "-s", &missing))) {
			o.signature = v;
		} else if ((v = opt_value(argc, argv, &i, "-D", &missing))) {
			const char *eq = strchr(v, '=');
			if (!eq || eq == v) {
				rc = bad_usage("-D expects NAME=VALUE, got '%s'", v);
				goto out;
			}
			defs[ndefs].name = strndup(v, (size_t)(eq - v));
			defs[ndefs++].value = eq + 1;
		} else if ((v = opt_value(argc, argv, &i, "-I", &missing))) {
			incs[nincs++] = v;
		} else if (!strcmp(a, "--list-kernels")) {
			o.emit = TILECC_EMIT_KERNELS;
		} else if ((v = opt_value(argc, argv, &i, "--num-warps", &missing))) {
			/* the limits of the library's (tilecc_compile checks them too) */
			if (!parse_int(v, &o.num_warps) || o.num_warps == 0 || o.num_warps > 32 ||
			    (o.num_warps & (o.num_warps - 1))) {
				rc = bad_usage("--num-warps expects a power of two from 1 to 32, got '%s'", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--max-tile-elems", &missing))) {
			if (!parse_count(v, &o.max_tile_elems)) {
				rc = bad_usage("--max-tile-elems expects a positive count, got '%s'", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--max-elems-per-thread", &missing))) {
			if (!parse_count(v, &o.max_elems_per_thread)) {
				rc = bad_usage("--max-elems-per-thread expects a positive count, got '%s'", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--num-stages", &missing))) {
			if (!parse_int(v, &o.num_stages) || o.num_stages > 16) {
				rc = bad_usage("--num-stages expects a number from 0 to 16, got '%s'", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--matrix-instr-nonkdim", &missing))) {
			if (!parse_int(v, &o.matrix_instr_nonkdim) ||
			    (o.matrix_instr_nonkdim != 16 && o.matrix_instr_nonkdim != 32 && o.matrix_instr_nonkdim != 0)) {
				rc = bad_usage("--matrix-instr-nonkdim expects 16 or 32, got '%s'", v);
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--code-object-version", &missing))) {
			if (!parse_int(v, &o.code_object_version) ||
			    (o.code_object_version != 4 && o.code_object_version != 5)) {
				rc = bad_usage("--code-object-version expects 4 or 5, got '%s'", v);
				goto out;
			}
		} else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
			o.opt_level = a[2] - '0';
		} else if ((v = opt_value(argc, argv, &i, "--print-after", &missing))) {
			o.print_after = v;
		} else if ((v = opt_value(argc, argv, &i, "--passes", &missing))) {
			o.passes = v;
		} else if ((v = opt_value(argc, argv, &i, "--tune", &missing))) {
			spec_path = v;
		} else if ((v = opt_value(argc, argv, &i, "--tuning", &missing))) {
			tuning_path = v;
		} else if ((v = opt_value(argc, argv, &i, "--configs", &missing))) {
			configs_path = v;
		} else if ((v = opt_value(argc, argv, &i, "--config", &missing))) {
			if (!append_line(&config_lines, &config_lines_len, v)) {
				rc = 3;
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--heuristic", &missing))) {
			if (!append_line(&heuristic_lines, &heuristic_lines_len, v)) {
				rc = 3;
				goto out;
			}
		} else if (!strcmp(a, "--print-locations")) {
			o.print_locations = 1;
		} else if (!strcmp(a, "-ftime-report")) {
			o.time_report = 1;
		} else if (!strcmp(a, "--verify-each")) {
			o.verify_each = 1;
		} else if (!strcmp(a, "--print-metadata")) {
			o.print_metadata = 1;
		} else if (!strcmp(a, "--mma-prefetch")) {
			o.mma_prefetch = 1;
		} else if (a[0] == '-' && a[1] != 0) {
			rc = bad_usage("unknown option '%s'", a);
			goto out;
		} else if (input) {
			rc = bad_usage("more than one input file ('%s')", a);
			goto out;
		} else {
			input = a;
		}
		if (missing) {
			rc = bad_usage("option '%s' needs a value", a);
			goto out;
		}
	}
	if (!input) {
		rc = bad_usage("%s", "no input file");
		goto out;
	}
	if (o.emit == TILECC_EMIT_HEADER && (!output || !strcmp(output, "-"))) {
		rc = bad_usage("%s", "a header needs -o FILE.h (the C source is written beside it)");
		goto out;
	}

	if (configs_path && config_lines) {
		rc = bad_usage("%s", "give the configs with --configs FILE or with --config, not both");
		goto out;
	}
	if (heuristic_lines && !spec_path && !tuning_path) {
		rc = bad_usage("%s", "--heuristic lists values for --tune or --tuning");
		goto out;
	}
	if (tuning_path && (!output || !strcmp(output, "-"))) {
		rc = bad_usage("%s", "--tuning makes a header: give -o FILE.h");
		goto out;
	}
	{
		const char *paths[] = {spec_path, tuning_path, configs_path};
		char **texts[] = {&spec_text, &tuning_text, &configs_text};
		size_t *lens[] = {&spec_len, &tuning_len, &configs_len};
		for (int k = 0; k < 3; k++) {
			if (!paths[k])
				continue;
			*texts[k] = read_file(paths[k], lens[k]);
			if (!*texts[k]) {
				fprintf(stderr, "%s: error: cannot read '%s': %s\n", prog, paths[k],
					strerror(errno));
				rc = 2;
				goto out;
			}
		}
	}
	o.tune_spec_name = spec_path;
	o.tune_spec = spec_text;
	o.tune_spec_len = spec_len;
	o.tuning_name = tuning_path;
	o.tuning = tuning_text;
	o.tuning_len = tuning_len;
	if (configs_path) {
		o.configs_name = configs_path;
		o.configs = configs_text;
		o.configs_len = configs_len;
	} else if (config_lines) {
		o.configs_name = "<--config>";
		o.configs = config_lines;
		o.configs_len = config_lines_len;
	}
	if (heuristic_lines) {
		o.heuristics_name = "<--heuristic>";
		o.heuristics = heuristic_lines;
		o.heuristics_len = heuristic_lines_len;
	}

	size_t len = 0;
	char *src = read_file(input, &len);
	if (!src) {
		fprintf(stderr, "%s: error: cannot read '%s': %s\n", prog, input, strerror(errno));
		rc = 2;
		goto out;
	}
	o.input_name = strcmp(input, "-") ? input : "<stdin>";
	o.source = src;
	o.source_len = len;
	o.defines = defs;
	o.num_defines = ndefs;
	o.include_dirs = incs;
	o.num_include_dirs = nincs;
	o.output_name = output;

	tilecc_compiler *c = tilecc_compiler_create();
	if (!c) {
		free(src);
		rc = 3;
		goto out;
	}
	tilecc_set_diag_handler(c, on_diag, NULL);
	tilecc_output res = {0};
	rc = tilecc_compile(c, &o, &res);
	if (res.report)
		fwrite(res.report, 1, res.report_size, stderr);
	if (rc == 0 && res.source) {
		/* a header comes with its C source: k.h and k.c side by side, both or neither */
		if (!output || !strcmp(output, "-")) {
			fprintf(stderr, "%s: error: a header needs -o FILE.h (the C source is written "
					"beside it)\n", prog);
			rc = 2;
		} else {
			size_t n = strlen(output);
			char *cpath = malloc(n + 3);
			if (!cpath) {
				rc = 3;
			} else {
				memcpy(cpath, output, n + 1);
				char *dot = strrchr(cpath, '.');
				if (dot && !strchr(dot, '/'))
					strcpy(dot, ".c");
				else
					strcat(cpath, ".c");
				output_file outs[2] = {{cpath, res.source, res.source_size},
						       {output, res.data, res.size}};
				if (output_write_all(prog, outs, 2) != 0)
					rc = 2;
				free(cpath);
			}
		}
	} else if (rc == 0) {
		output_file out1 = {output ? output : "-", res.data, res.size};
		if (output_write_all(prog, &out1, 1) != 0)
			rc = 2;
	}
	tilecc_output_free(&res);
	tilecc_compiler_destroy(c);
	free(src);
out:
	for (size_t i = 0; i < ndefs; i++)
		free((char *)defs[i].name);
	free(defs);
	free(incs);
	free(target_list);
	free(spec_text);
	free(tuning_text);
	free(configs_text);
	free(config_lines);
	free(heuristic_lines);
	return rc;
}
