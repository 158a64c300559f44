/* tune.h: ahead-of-time autotuning (docs/abi.md, "Autotuning"): the configs, the problem
 * spec a user writes, the tuning file the tuner writes, and the small integer expressions
 * all three share (grids, buffer sizes, heuristics).
 *
 *   tune_parse.c   the text formats: expressions, configs, spec files, tuning files; every
 *                  error located (file:line:col with a caret)
 *   tune_source.c  what the kernel's decorators say: @triton.autotune configs and key,
 *                  @triton.heuristics lambdas as expressions
 *   tune_emit.c    expressions as C; the tuner program (tilecc --tune)
 *   header_tune.c  the launcher that dispatches on the tuned configs (tilecc --tuning)
 *   compile_tune.c the two compilations behind --tune and --tuning
 * Everything lives in the compilation's arena. */
#ifndef TILECC_DRIVER_TUNE_H
#define TILECC_DRIVER_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "driver/header.h"
#include "frontend/ast.h"
#include "support/arena.h"
#include "support/diag.h"
#include "support/strbuf.h"

/* An integer expression: literals, names (runtime parameters of the kernel, constexprs of
 * the config), + - * // % (Python's floor semantics), comparisons, and/or/not, unary -,
 * and the calls cdiv(a, b), min(a, b), max(a, b), next_power_of_2(a). */
typedef enum tune_op {
	TX_INT, TX_NAME, TX_NEG, TX_NOT, TX_ADD, TX_SUB, TX_MUL, TX_FDIV, TX_MOD, TX_LT, TX_LE,
	TX_GT, TX_GE, TX_EQ, TX_NE, TX_AND, TX_OR, TX_CDIV, TX_MIN, TX_MAX, TX_NP2
} tune_op;

typedef struct tune_expr {
	tune_op op;
	int64_t ival;     /* TX_INT */
	const char *name; /* TX_NAME */
	srcloc loc;
	struct tune_expr *a, *b;
} tune_expr;

/* One config: constexpr values and launch options, as Triton's triton.Config holds them. */
typedef struct tune_config {
	srcloc loc;
	int n;
	const char **names;  /* constexpr parameters */
	const char **values; /* their values as -D takes them: "128", "True" */
	int num_warps, num_stages; /* 0: not given */
	const char *text;    /* canonical: "BLOCK_M=128 BLOCK_N=64 num_warps=4 num_stages=3" */
} tune_config;

/* One `NAME: expr` line of a spec: a scalar's value or a pointer's element count. */
typedef struct tune_binding {
	const char *name;
	srcloc loc;
	tune_expr *e;
} tune_binding;

/* One `problem:` line: NAME=VALUE pairs. */
typedef struct tune_problem {
	srcloc loc;
	int n;
	const char **names;
	int64_t *values;
	srcloc *locs;
} tune_problem;

/* The values to compile an integer-valued heuristic for: a `heuristic: NAME = 16, 32, 64`
 * line of a spec or a tuning file, or --heuristic NAME=16,32,64. */
typedef struct tune_values {
	const char *name;
	srcloc loc;   /* the name */
	int n;
	int64_t *values;
} tune_values;

/* A problem spec (tilecc --tune FILE). */
typedef struct tune_spec {
	uint32_t file;
	int nkey;
	const char **key; /* NULL when absent: the decorator's key */
	srcloc key_loc;
	int ngrid;        /* 1 to 3 */
	tune_expr *grid[3];
	srcloc grid_loc;
	int nbind;
	tune_binding *binds;
	int nprob;
	tune_problem *probs;
	int64_t warmup_ms, rep_ms; /* do_bench's budgets: 25 and 100 unless given */
	bool flush_l2;             /* GPUs: clear a 256 MiB buffer before each timed launch */
	const char *grid_text;     /* as written, for the tuning file */
	int nhval;
	tune_values *hvals;        /* heuristic: lines */
} tune_spec;

/* One `best:` line of a tuning file: the key's values and the winner. */
typedef struct tune_best {
	srcloc loc;
	int64_t *values; /* nkey */
	int config;      /* index into configs */
	double ms;
} tune_best;

/* A tuning file (tilecc --tuning FILE). */
typedef struct tune_file {
	uint32_t file;
	srcloc compiler_loc, kernel_loc, target_loc, signature_loc, source_loc, grid_loc;
	const char *compiler, *kernel, *target, *signature, *source_hash, *grid_text;
	int ndefine;
	const char **defines; /* "NAME=VALUE" lines, in order */
	srcloc define_loc;
	int nkey;
	const char **key;
	srcloc key_loc;
	int ngrid;
	tune_expr *grid[3];
	int nconfig;
	tune_config *configs;
	int nbest;
	tune_best *best;
	int default_config; /* -1: not given */
	srcloc default_loc;
	int nhval;
	tune_values *hvals; /* heuristic: lines */
} tune_file;

/* The version line of tuning files, and the compiler line they record. */
#define TUNE_FORMAT_VERSION 1

/* Parses an expression (all of text[0..len)), located in file at line, column col. NULL
 * after a located error. */
tune_expr *tune_parse_expr(arena *a, diag_engine *d, uint32_t file, uint32_t line, uint32_t col,
			   const char *text, size_t len);
/* Parses one config "NAME=VALUE ... num_warps=N num_stages=N" located at (file, line, col). */
bool tune_parse_config(arena *a, diag_engine *d, uint32_t file, uint32_t line, uint32_t col,
		       const char *text, size_t len, tune_config *out);
/* A config file (--configs FILE, or the --config options one a line): one config a line,
 * '#' comments, blank lines. Returns false after a located error. */
bool tune_parse_configs(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
			tune_config **out, int *n);
bool tune_parse_spec(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		     tune_spec *out);
bool tune_parse_file(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		     tune_file *out);
/* --heuristic NAME=V1,V2,... options, one a line. Returns false after a located error. */
bool tune_parse_values(arena *a, diag_engine *d, uint32_t file, const char *text, size_t len,
		       tune_values **out, int *n);
/* The value of e (Python's integer semantics, as the generated C computes it; // and % by 0
 * give 0, as there); look(user, name, &v) gives a name's value or false. False when a name
 * has none: *unknown is its node. */
typedef bool (*tune_lookup_fn)(void *user, const char *name, int64_t *v);
bool tune_eval(const tune_expr *e, tune_lookup_fn look, void *user, int64_t *out,
	       const tune_expr **unknown);
/* The canonical text of a config (tune_config.text). */
const char *tune_config_text(arena *a, const tune_config *c);
/* FNV-1a 64 of the bytes, as 16 hex digits: the tuning file's record of the kernel source. */
const char *tune_source_hash(arena *a, const char *text, size_t len);
/* The names an expression uses, each once, into names (cap entries); returns the count. */
int tune_expr_names(const tune_expr *e, const char **names, int n, int cap);

/* tune_source.c: the @triton.autotune and @triton.heuristics decorators of kernel fn. */
typedef struct tune_heuristic {
	const char *name; /* the constexpr it sets */
	srcloc loc;
	tune_expr *e;     /* an expression of args['...'] */
	bool integer;     /* integer-valued; else boolean (a comparison, and/or/not) */
	int nvalues;      /* the values it is compiled for: 2 for a boolean (False, True); */
	int64_t *values;  /* an integer one's, ascending (compile_tune.c) */
} tune_heuristic;

typedef struct tune_decorators {
	const ast_expr *autotune, *heuristics;
	int nconfig;          /* -1: configs= is not a literal list (configs_loc says where) */
	tune_config *configs;
	srcloc configs_loc;
	int nkey;
	const char **key;
	int nheur;
	tune_heuristic *heurs;
} tune_decorators;

/* The kernel's decorators; false after a located error (a heuristic that is not a simple
 * expression of the arguments, a config or key that is not literal, when needed:
 * need_configs). */
bool tune_read_decorators(arena *a, diag_engine *d, const ast_func *fn, bool need_configs,
			  tune_decorators *out);

/* tune_emit.c: C for an expression; name_c(user, name, b) writes a name (returns false for
 * a name it does not know, which is then reported at its location). The C uses the helpers
 * tune_emit_helpers writes. */
typedef bool (*tune_name_fn)(void *user, const char *name, strbuf *b);
bool tune_emit_c(diag_engine *d, strbuf *b, const tune_expr *e, tune_name_fn name_c, void *user);
void tune_emit_helpers(strbuf *b);

/* ---- what the tuner and the tuned launcher are made from (compile_tune.c fills it) ---- */

/* One compiled variant: a config and the values of the heuristics (combo: heuristic i's
 * value is values[combo / stride_i % nvalues_i], stride_i the product of the nvalues of
 * the heuristics before it), with its artifacts (the tuner: one, for the tuned target; the
 * launcher: one set per target, as header_write_multi takes them). */
typedef struct tune_variant {
	int config;
	int combo;
	const char *label; /* "BLOCK=64 num_warps=4 num_stages=1 EVEN=True" */
	const header_artifact *arts;
	size_t n;
} tune_variant;

typedef struct tune_program {
	const ir_func *f;        /* the first compiled variant: the parameters' names and types */
	const char *kernel, *target, *targets, *signature, *source_hash;
	int ndefine;
	const char **defines;    /* the user's -D NAME=VALUE, in order */
	int nkey;
	const char **key;
	int *key_param;          /* the runtime parameter index of each key */
	int ngrid;
	tune_expr *const *grid;
	const char *grid_text;
	int nconfig;
	const tune_config *configs;
	const char **config_error; /* why config i was not compiled (NULL: it was), tuner only */
	int nheur;
	tune_heuristic *heurs;   /* compile_tune.c fills in the values */
	int ncombo;              /* the product of the heuristics' nvalues */
	int nvariant;
	const tune_variant *variants;
	int *variant_of;         /* [config * ncombo + combo]: the variant, -1 when it failed */
	const tune_spec *spec;   /* the tuner's problems */
	/* the launcher's dispatch table (from the tuning file) */
	int nbest;
	const tune_best *best;   /* the configs are indices into configs */
	int default_config;
} tune_program;

/* The index of runtime parameter name of f, or -1. */
int tune_param_index(const ir_func *f, const char *name);
/* tune_emit.c: the tuner program (tilecc --tune): C that links with libtilert only. False
 * after a located error (a spec that does not give every runtime parameter). */
bool tune_write_tuner(diag_engine *d, strbuf *c, const tune_program *p);
/* variant_for(k, v) and grid_for(k, v, &grid) in C, for the tuner and the launcher: the
 * variant of config k whose heuristic values hold for the parameters' values v (int64_t,
 * pointers as addresses; -2 when an integer heuristic's value was not compiled, with
 * tilert_last_error() saying so), and config k's grid. Uses variant_of[] and the helpers. */
bool tune_write_dispatch(diag_engine *d, strbuf *c, const tune_program *p);
/* header_tune.c: the tuned launcher (tilecc --tuning). */
bool tune_write_header(diag_engine *d, strbuf *h, strbuf *c, const char *header_name,
		       const tune_program *p);

#endif
