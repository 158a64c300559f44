/* tilecc.h: the public C API of the tilecc compiler library.
 *
 * One tilecc_compiler holds the options and the diagnostic handler; each call to
 * tilecc_compile() is one compilation with its own arena, freed before it returns.
 * The library never prints and never exits: every message goes to the handler, every
 * failure is a non-zero return. */
#ifndef TILECC_TILECC_H
#define TILECC_TILECC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TILECC_VERSION_MAJOR 0
#define TILECC_VERSION_MINOR 1
#define TILECC_VERSION_PATCH 0
#define TILECC_VERSION_STRING "0.1.0"

typedef enum tilecc_severity {
	TILECC_NOTE,
	TILECC_WARNING,
	TILECC_ERROR,
	TILECC_INTERNAL /* a bug in tilecc, not in the input; says where in tilecc */
} tilecc_severity;

/* One diagnostic as handed to the handler; valid only during the callback. */
typedef struct tilecc_diagnostic {
	tilecc_severity severity;
	const char *file;  /* input file name, or NULL when the message has no location */
	unsigned line;     /* 1-based; 0 when unknown */
	unsigned col;      /* 1-based; 0 when unknown */
	const char *message;  /* the bare message, no location, no newline */
	const char *rendered; /* "file:line:col: error: message\n<source line>\n<caret>\n" */
} tilecc_diagnostic;

typedef void (*tilecc_diag_handler)(void *user, const tilecc_diagnostic *d);

/* What tilecc_compile() produces. */
typedef enum tilecc_emit {
	TILECC_EMIT_DEFAULT, /* chosen from the output file's suffix */
	TILECC_EMIT_AST,     /* the parsed module, for debugging the frontend */
	TILECC_EMIT_TIR,     /* tile IR text */
	TILECC_EMIT_LLVM,    /* LLVM IR text (.ll) */
	TILECC_EMIT_ASM,     /* target assembly (.s, PTX, AMDGCN) */
	TILECC_EMIT_OBJ,     /* object file (.o) */
	TILECC_EMIT_SHARED,  /* shared object (.so) */
	TILECC_EMIT_PTX,
	TILECC_EMIT_CUBIN,
	TILECC_EMIT_HSACO,
	TILECC_EMIT_HEADER, /* C header + source with the artifact embedded */
	TILECC_EMIT_KERNELS, /* text: each @triton.jit function of the file with its parameters,
			      * signature template, autotune configs and heuristics */
	TILECC_EMIT_TTIR     /* TTIR: the tile IR of TILECC_EMIT_TIR as MLIR text in Triton's
			      * tt dialect with arith, math and scf (needs the MLIR bridge:
			      * tilecc_mlir_version() != NULL) */
} tilecc_emit;

/* A constexpr given by name on the command line (-D NAME=VALUE). */
typedef struct tilecc_define {
	const char *name;
	const char *value;
} tilecc_define;

/* Options of one compilation. Zero-initialise, then set what you need; strings are
 * borrowed for the duration of tilecc_compile(). */
typedef struct tilecc_options {
	const char *input_name;  /* name used in diagnostics; a ".tir" suffix means tile IR input,
				  * ".ttir" TTIR (MLIR text; needs the MLIR bridge) */
	const char *output_name; /* -o, or NULL: its suffix chooses the emit kind; with a header,
				  * its base name is what the C source includes */
	const char *source;      /* the kernel file's text */
	size_t source_len;
	const char *kernel;      /* -k: which @triton.jit function; NULL: the only one */
	const char *signature;   /* -s: "*fp32:16, i32, 1024" */
	const tilecc_define *defines; /* -D */
	size_t num_defines;
	const char *target;      /* --target; NULL: host. With TILECC_EMIT_HEADER also a
				  * comma-separated list ("sm_80,sm_90a,gfx942,x86-64"): one
				  * launcher over every target's artifact (docs/abi.md) */
	const char *mcpu, *mattr;
	tilecc_emit emit;
	int num_warps;           /* 0: default (4) */
	int num_stages;          /* 0: default */
	int mma_prefetch;        /* --mma-prefetch: NVIDIA mma.sync dots in pipelined loops get
				  * the first k-step of their operands fetched an iteration
				  * ahead (the mma-prefetch pass); experimental, off by default */
	int opt_level;           /* -O0..-O3; -1: default */
	const char *print_after; /* --print-after=PASS or "all" */
	const char *passes;      /* --passes=a,b,c: replace the default pipeline */
	int print_locations;     /* print loc(...) on IR ops */
	int time_report;         /* -ftime-report */
	int verify_each;         /* run the IR verifier after every pass */
	int print_metadata;      /* put each kernel's launch metadata (NAME__meta) in the report */
	int code_object_version; /* AMD: HSA code object version, 4 or 5; 0: default (5) */
	int matrix_instr_nonkdim; /* AMD: the M and N of the MFMA instructions of tl.dot, 16
				   * or 32 (Triton's option); 0: Triton's choice */
	/* imports: searched after the kernel file's directory and package root, in order
	 * (-I DIR); then the directories of the TILECC_PATH environment variable
	 * (colon-separated) unless ignore_tilecc_path is set */
	const char *const *include_dirs;
	size_t num_include_dirs;
	int ignore_tilecc_path;
	/* Autotuning (docs/abi.md, "Autotuning"); each text is borrowed, its name is what
	 * diagnostics call it. tune_spec (--tune SPEC): the output is the C source of the
	 * tuner program, which times every config at the spec's problems and writes a tuning
	 * file. tuning (--tuning FILE): the output is a header (and source) whose launcher
	 * dispatches on the tuned configs. configs (--configs FILE, --config): one config a
	 * line, instead of the @triton.autotune decorator's. */
	const char *tune_spec_name, *tune_spec;
	size_t tune_spec_len;
	const char *tuning_name, *tuning;
	size_t tuning_len;
	const char *configs_name, *configs;
	size_t configs_len;
	/* heuristics (--heuristic NAME=V1,V2,...): one a line, the values to compile an
	 * integer-valued @triton.heuristics entry for, besides those the problems reach */
	const char *heuristics_name, *heuristics;
	size_t heuristics_len;
	/* resource limits; 0: the default. A kernel over one is an error at the op that makes
	 * the tile, naming the option (--max-tile-elems, --max-elems-per-thread). */
	int64_t max_tile_elems;       /* elements of one tile (default 2^20, as Triton) */
	int64_t max_elems_per_thread; /* GPU targets: a tile's elements over the program's
				       * threads (num_warps x warp size), rounded up (default 2048) */
} tilecc_options;

/* The result of a compilation: bytes owned by the caller, freed with tilecc_output_free(). */
typedef struct tilecc_output {
	char *data;
	size_t size;
	char *report; /* -ftime-report / --print-after text, or NULL */
	size_t report_size;
	char *source; /* with TILECC_EMIT_HEADER: the C source that goes with the header */
	size_t source_size;
} tilecc_output;

typedef struct tilecc_compiler tilecc_compiler;

/* Creates a compiler; freed with tilecc_compiler_destroy(). NULL when out of memory. */
tilecc_compiler *tilecc_compiler_create(void);
void tilecc_compiler_destroy(tilecc_compiler *c);
/* Every diagnostic of later compilations goes to h (with user); NULL drops them. */
void tilecc_set_diag_handler(tilecc_compiler *c, tilecc_diag_handler h, void *user);

/* Compiles one kernel. Returns 0 on success and fills *out (caller frees it with
 * tilecc_output_free), 1 when the input has errors (reported through the handler),
 * 2 on a usage error in *opts, 3 on an internal failure. */
int tilecc_compile(tilecc_compiler *c, const tilecc_options *opts, tilecc_output *out);
void tilecc_output_free(tilecc_output *out);

/* Target families compiled into this build, e.g. "nvptx", "amdgcn", "riscv64", "x86-64". */
size_t tilecc_num_targets(void);
const char *tilecc_target_name(size_t i);
const char *tilecc_target_description(size_t i);
/* "19.1.7": the LLVM this build links. */
const char *tilecc_llvm_version(void);
/* "19.1.7": the MLIR the bridge (TTIR in and out) links; NULL when this build has none
 * (TILECC_WITH_MLIR=OFF, or no MLIR 19 found). A static string. */
const char *tilecc_mlir_version(void);

#ifdef __cplusplus
}
#endif
#endif
