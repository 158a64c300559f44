/* tune_emit.c: expressions as C, and the tuner program that `tilecc --tune SPEC` writes.
 *
 * The tuner is one C file that needs only libtilert (cc tuner.c -ltilert): it embeds every
 * config's artifact for the target tuned on, and for each problem of the spec it sets the
 * scalars, allocates each pointer's buffer (device memory for GPU artifacts) filled with
 * random values, and times each config as Triton's do_bench does: an estimate from 5
 * launches, then warmup_ms of warmup and rep_ms of timed launches, each between two events
 * (tilert_event_*: GPU events on a GPU, the host clock on a CPU), a 256 MiB buffer cleared
 * before each on a GPU (flush_l2) so that no launch finds the last one's data in L2; the
 * median counts. It writes the tuning file (docs/abi.md, "Autotuning"). A config that did
 * not compile, or whose launches fail (e.g. too much shared memory), is skipped with a
 * comment saying why. So the tuning run needs no tilecc: the artifacts are compiled where
 * tilecc is, the timing runs where the device is. */
#include <string.h>

#include "driver/tune.h"
#include "tilecc/tilecc.h"

/* lib/driver/tuner_main.inc, embedded by cmake/embed.cmake */
extern const unsigned char tilecc_tuner_main[];
extern const unsigned long tilecc_tuner_main_len;

void tune_emit_helpers(strbuf *b)
{
	strbuf_puts(b,
		    "/* Python's integer semantics: // and %% round toward minus infinity. */\n"
		    "static inline int64_t tt_fdiv(int64_t a, int64_t b)\n{\n"
		    "\tif (b == 0)\n\t\treturn 0;\n"
		    "\tint64_t q = a / b;\n\treturn (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n"
		    "static inline int64_t tt_mod(int64_t a, int64_t b)\n{\n"
		    "\tif (b == 0)\n\t\treturn 0;\n"
		    "\tint64_t r = a % b;\n\treturn (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n"
		    "static inline int64_t tt_cdiv(int64_t a, int64_t b)\n{\n\treturn -tt_fdiv(-a, b);\n}\n"
		    "static inline int64_t tt_min(int64_t a, int64_t b)\n{\n\treturn a < b ? a : b;\n}\n"
		    "static inline int64_t tt_max(int64_t a, int64_t b)\n{\n\treturn a > b ? a : b;\n}\n"
		    "static inline int64_t tt_np2(int64_t a)\n{\n"
		    "\tint64_t p = 1;\n\twhile (p < a && p < ((int64_t)1 << 62))\n\t\tp <<= 1;\n\treturn p;\n}\n\n");
}

bool tune_emit_c(diag_engine *d, strbuf *b, const tune_expr *e, tune_name_fn name_c, void *user)
{
	static const char *const bin[] = {
	    [TX_ADD] = "+", [TX_SUB] = "-", [TX_MUL] = "*", [TX_LT] = "<", [TX_LE] = "<=",
	    [TX_GT] = ">",  [TX_GE] = ">=", [TX_EQ] = "==", [TX_NE] = "!=", [TX_AND] = "&&",
	    [TX_OR] = "||"};
	static const char *const call[] = {[TX_FDIV] = "tt_fdiv", [TX_MOD] = "tt_mod",
					   [TX_CDIV] = "tt_cdiv", [TX_MIN] = "tt_min",
					   [TX_MAX] = "tt_max",   [TX_NP2] = "tt_np2"};
	switch (e->op) {
	case TX_INT:
		strbuf_printf(b, "INT64_C(%lld)", (long long)e->ival);
		return true;
	case TX_NAME:
		if (!name_c(user, e->name, b)) {
			diag_error(d, e->loc, "'%s' is neither a runtime parameter of the kernel nor a "
				   "constexpr of the config here", e->name);
			return false;
		}
		return true;
	case TX_NEG:
	case TX_NOT:
		strbuf_puts(b, e->op == TX_NEG ? "(-" : "(!");
		if (!tune_emit_c(d, b, e->a, name_c, user))
			return false;
		strbuf_puts(b, ")");
		return true;
	case TX_FDIV:
	case TX_MOD:
	case TX_CDIV:
	case TX_MIN:
	case TX_MAX:
	case TX_NP2:
		strbuf_printf(b, "%s(", call[e->op]);
		if (!tune_emit_c(d, b, e->a, name_c, user))
			return false;
		if (e->b) {
			strbuf_puts(b, ", ");
			if (!tune_emit_c(d, b, e->b, name_c, user))
				return false;
		}
		strbuf_puts(b, ")");
		return true;
	default:
		strbuf_puts(b, "(");
		if (!tune_emit_c(d, b, e->a, name_c, user))
			return false;
		strbuf_printf(b, " %s ", bin[e->op]);
		if (!tune_emit_c(d, b, e->b, name_c, user))
			return false;
		strbuf_puts(b, ")");
		return true;
	}
}

int tune_param_index(const ir_func *f, const char *name)
{
	for (int i = 0; i < f->body->nargs; i++)
		if (f->params[i].name && !strcmp(f->params[i].name, name))
			return i;
	return -1;
}

/* Names in the tuner and the launcher: runtime parameters are v[i] (int64_t values, a
 * pointer's address), a config's constexprs their value, the heuristics 0..nheur-1 (of p)
 * their expression (the grid may use any, a heuristic those before it, as in Triton);
 * known[] (when not NULL) says which parameters have a value at this point of the tuner. */
typedef struct names_ctx {
	const ir_func *f;
	const tune_config *config;
	const bool *known;
	const tune_program *p;
	int nheur;
	diag_engine *d;
} names_ctx;

static bool name_value(void *user, const char *name, strbuf *b)
{
	names_ctx *x = user;
	int i = tune_param_index(x->f, name);
	if (i >= 0 && (!x->known || x->known[i])) {
		strbuf_printf(b, "v[%d]", i);
		return true;
	}
	for (int k = 0; x->config && k < x->config->n; k++)
		if (!strcmp(x->config->names[k], name)) {
			const char *v = x->config->values[k];
			strbuf_puts(b, !strcmp(v, "True") ? "1" : !strcmp(v, "False") ? "0" : v);
			return true;
		}
	for (int k = 0; x->p && k < x->nheur; k++)
		if (!strcmp(x->p->heurs[k].name, name)) {
			names_ctx y = *x;
			y.nheur = k;
			strbuf_puts(b, "(");
			bool ok = tune_emit_c(x->d, b, x->p->heurs[k].e, name_value, &y);
			strbuf_puts(b, ")");
			return ok;
		}
	return false;
}

/* A C string literal. */
static void c_string(strbuf *b, const char *s)
{
	strbuf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_putc(b, '\\');
		strbuf_putc(b, *s);
	}
	strbuf_putc(b, '"');
}

/* The tuning file's header lines, as C string literals one a line. */
static void write_preamble(strbuf *c, const tune_program *p)
{
	strbuf_puts(c, "static const char *const preamble[] = {\n");
	strbuf_puts(c, "\t\"# tilecc tuning file, written by the tuner that tilecc --tune made "
		       "(docs/abi.md, \\\"Autotuning\\\").\",\n");
	strbuf_puts(c, "\t\"# tilecc --tuning FILE makes the launcher from it.\",\n");
	strbuf_printf(c, "\t\"format: %d\",\n", TUNE_FORMAT_VERSION);
	strbuf_puts(c, "\t\"compiler: tilecc " TILECC_VERSION_STRING "\",\n");
	const char *lines[][2] = {{"kernel: ", p->kernel},       {"target: ", p->target},
				  {"signature: ", p->signature}, {"source: ", p->source_hash}};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		strbuf b = {0};
		strbuf_printf(&b, "%s%s", lines[i][0], lines[i][1] ? lines[i][1] : "");
		strbuf_puts(c, "\t");
		c_string(c, b.data);
		strbuf_puts(c, ",\n");
		strbuf_free(&b);
	}
	for (int i = 0; i < p->ndefine; i++) {
		strbuf b = {0};
		strbuf_printf(&b, "define: %s", p->defines[i]);
		strbuf_puts(c, "\t");
		c_string(c, b.data);
		strbuf_puts(c, ",\n");
		strbuf_free(&b);
	}
	strbuf b = {0};
	strbuf_puts(&b, "key: ");
	for (int i = 0; i < p->nkey; i++)
		strbuf_printf(&b, "%s%s", i ? ", " : "", p->key[i]);
	strbuf_puts(c, "\t");
	c_string(c, b.data);
	strbuf_puts(c, ",\n");
	strbuf_free(&b);
	b = (strbuf){0};
	strbuf_printf(&b, "grid: %s", p->grid_text);
	strbuf_puts(c, "\t");
	c_string(c, b.data);
	strbuf_puts(c, ",\n");
	strbuf_free(&b);
	for (int i = 0; i < p->nheur; i++) {
		if (!p->heurs[i].integer)
			continue;
		b = (strbuf){0};
		strbuf_printf(&b, "heuristic: %s = ", p->heurs[i].name);
		for (int j = 0; j < p->heurs[i].nvalues; j++)
			strbuf_printf(&b, "%s%lld", j ? ", " : "", (long long)p->heurs[i].values[j]);
		strbuf_puts(c, "\t");
		c_string(c, b.data);
		strbuf_puts(c, ",\n");
		strbuf_free(&b);
	}
	for (int i = 0; i < p->nconfig; i++) {
		b = (strbuf){0};
		strbuf_printf(&b, "config: %s  # %d", p->configs[i].text, i);
		strbuf_puts(c, "\t");
		c_string(c, b.data);
		strbuf_puts(c, ",\n");
		strbuf_free(&b);
	}
	strbuf_puts(c, "};\n\n");
}

/* Fills in a problem's values: the problem's own, then the spec's NAME: lines in order. */
static bool write_problem(diag_engine *d, strbuf *c, const tune_program *p, int pi)
{
	const tune_spec *s = p->spec;
	const tune_problem *pr = &s->probs[pi];
	const ir_func *f = p->f;
	int np = f->body->nargs;
	bool known[256] = {0};
	strbuf_printf(c, "\tcase %d:\n", pi);
	for (int k = 0; k < pr->n; k++) {
		int i = tune_param_index(f, pr->names[k]);
		if (i < 0 || f->body->args[i]->type->kind == IR_PTR) {
			diag_error(d, pr->locs[k], "'%s' is not a scalar runtime parameter of kernel '%s'",
				   pr->names[k], p->kernel);
			return false;
		}
		strbuf_printf(c, "\t\tv[%d] = INT64_C(%lld); /* %s */\n", i, (long long)pr->values[k],
			      pr->names[k]);
		known[i] = true;
	}
	for (int k = 0; k < s->nbind; k++) {
		const tune_binding *bd = &s->binds[k];
		int i = tune_param_index(f, bd->name);
		if (i < 0) {
			diag_error(d, bd->loc, "'%s' is not a runtime parameter of kernel '%s'", bd->name,
				   p->kernel);
			return false;
		}
		if (known[i] && f->body->args[i]->type->kind != IR_PTR)
			continue; /* the problem gives it */
		names_ctx x = {f, NULL, known};
		if (f->body->args[i]->type->kind == IR_PTR) {
			strbuf_printf(c, "\t\tcount[%d] = ", i);
		} else {
			strbuf_printf(c, "\t\tv[%d] = ", i);
		}
		if (!tune_emit_c(d, c, bd->e, name_value, &x)) {
			diag_note(d, pr->loc, "in this problem");
			return false;
		}
		strbuf_printf(c, "; /* %s */\n", bd->name);
		if (f->body->args[i]->type->kind != IR_PTR)
			known[i] = true;
	}
	for (int i = 0; i < np; i++) {
		bool ptr = f->body->args[i]->type->kind == IR_PTR;
		bool given = false;
		for (int k = 0; k < s->nbind; k++)
			given |= !strcmp(s->binds[k].name, f->params[i].name);
		if (ptr && !given) {
			diag_error(d, (srcloc){s->file, 1, 1, 1}, "the spec does not say how many elements "
				   "to allocate for pointer '%s': add a line '%s: EXPRESSION' (of the "
				   "problem's sizes)", f->params[i].name, f->params[i].name);
			return false;
		}
		if (!ptr && !known[i]) {
			diag_error(d, pr->loc, "this problem gives no value for '%s': add it here or a "
				   "line '%s: EXPRESSION' to the spec", f->params[i].name, f->params[i].name);
			return false;
		}
	}
	strbuf_puts(c, "\t\tbreak;\n");
	return true;
}

/* The element kind of a pointer parameter, for the random fill: 'h' fp16, 'b' bf16, 'f'
 * fp32, 'd' fp64, else 'i' (integers, fp8: zeros); and its size. */
static char elem_kind(const ir_type *t, int *size)
{
	const ir_type *e = t->elem;
	*size = (ir_type_bits(e) + 7) / 8;
	if (*size == 0)
		*size = 1;
	switch (e->kind) {
	case IR_F16: return 'h';
	case IR_BF16: return 'b';
	case IR_F32: return 'f';
	case IR_F64: return 'd';
	default: return 'i';
	}
}

/* The member of the tuner's `slot` union a scalar parameter is passed in. */
static const char *slot_member(const ir_type *t)
{
	switch (t->kind) {
	case IR_I1: return "b";
	case IR_I8: case IR_U8: return "i8";
	case IR_I16: case IR_U16: return "i16";
	case IR_I32: case IR_U32: return "i32";
	case IR_F16: case IR_BF16: return "i16";
	case IR_F32: return "f32";
	case IR_F64: return "f64";
	default: return "i64";
	}
}

bool tune_write_dispatch(diag_engine *d, strbuf *c, const tune_program *p)
{
	const ir_func *f = p->f;
	/* the values each integer heuristic was compiled for */
	for (int i = 0; i < p->nheur; i++) {
		if (!p->heurs[i].integer)
			continue;
		strbuf_printf(c, "static const int64_t h%d_values[%d] = {", i, p->heurs[i].nvalues);
		for (int j = 0; j < p->heurs[i].nvalues; j++)
			strbuf_printf(c, "%sINT64_C(%lld)", j ? ", " : "", (long long)p->heurs[i].values[j]);
		strbuf_printf(c, "}; /* %s */\n", p->heurs[i].name);
	}
	/* the variant of config k for the values: the heuristics evaluated, each value a digit
	 * of the combination (heuristic i's weighs the product of the counts before it) */
	strbuf_puts(c, "/* The variant of config k for the values v (its heuristics evaluated); -1: none,\n"
		       " * -2: an integer heuristic's value was not compiled (tilert_last_error()). */\n"
		       "static int variant_for(int k, const int64_t *v)\n{\n\tint combo = 0;\n"
		       "\tsize_t i = 0;\n\t(void)v;\n\t(void)i;\n\tswitch (k) {\n");
	for (int k = 0; k < p->nconfig; k++) {
		if (!p->nheur)
			break;
		strbuf_printf(c, "\tcase %d:\n", k);
		int stride = 1;
		for (int i = 0; i < p->nheur; i++) {
			names_ctx x = {f, &p->configs[k], NULL, p, i, d};
			if (p->heurs[i].integer) {
				strbuf_printf(c, "\t\tif (tilert_heuristic_index(\"%s\", \"%s\", ", p->kernel,
					      p->heurs[i].name);
				if (!tune_emit_c(d, c, p->heurs[i].e, name_value, &x))
					return false;
				strbuf_printf(c, ",\n\t\t\t\t\t   h%d_values, %d, &i) != TILERT_OK)\n"
						 "\t\t\treturn -2;\n\t\tcombo += (int)i * %d; /* %s */\n", i,
					      p->heurs[i].nvalues, stride, p->heurs[i].name);
			} else {
				strbuf_puts(c, "\t\tcombo += ");
				if (!tune_emit_c(d, c, p->heurs[i].e, name_value, &x))
					return false;
				strbuf_printf(c, " ? %d : 0; /* %s */\n", stride, p->heurs[i].name);
			}
			stride *= p->heurs[i].nvalues;
		}
		strbuf_puts(c, "\t\tbreak;\n");
	}
	strbuf_printf(c, "\tdefault:\n\t\tbreak;\n\t}\n\treturn variant_of[k * %d + combo];\n}\n\n",
		      p->ncombo);
	strbuf_puts(c, "/* The grid of config k for the values v; 0 when it is empty or too large. */\n"
		       "static int grid_for(int k, const int64_t *v, tilert_grid *g)\n{\n"
		       "\tint64_t x = 1, y = 1, z = 1;\n\t(void)v;\n\tswitch (k) {\n");
	for (int k = 0; k < p->nconfig; k++) {
		strbuf_printf(c, "\tcase %d:\n", k);
		names_ctx x = {f, &p->configs[k], NULL, p, p->nheur, d};
		for (int i = 0; i < p->ngrid; i++) {
			strbuf_printf(c, "\t\t%c = ", "xyz"[i]);
			if (!tune_emit_c(d, c, p->grid[i], name_value, &x))
				return false;
			strbuf_puts(c, ";\n");
		}
		strbuf_puts(c, "\t\tbreak;\n");
	}
	strbuf_puts(c, "\t}\n"
		       "\tif (x < 1 || y < 1 || z < 1 || x > INT32_MAX || y > INT32_MAX || z > INT32_MAX)\n"
		       "\t\treturn 0;\n"
		       "\tg->x = (uint32_t)x;\n\tg->y = (uint32_t)y;\n\tg->z = (uint32_t)z;\n\treturn 1;\n}\n\n");
	return true;
}

bool tune_write_tuner(diag_engine *d, strbuf *c, const tune_program *p)
{
	const ir_func *f = p->f;
	const tune_spec *s = p->spec;
	int np = f->body->nargs;
	if (np > 256) {
		diag_error(d, SRCLOC_NONE, "kernel '%s' has more than 256 parameters", p->kernel);
		return false;
	}
	strbuf_printf(c, "/* Generated by tilecc " TILECC_VERSION_STRING " (tilecc --tune): the tuner of "
			 "kernel '%s' for %s,\n * %d configs at %d problems. Build it with libtilert "
			 "alone and run it:\n *   cc -O2 tuner.c -ltilert -o tuner && ./tuner -o "
			 "tuning.txt\n * Do not edit. */\n", p->kernel, p->target, p->nconfig, s->nprob);
	strbuf_puts(c, "#include <stdbool.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
		       "#include <string.h>\n\n#include <tilecc/tilert.h>\n\n");
	for (int i = 0; i < p->nvariant; i++) {
		const tune_variant *v = &p->variants[i];
		strbuf_printf(c, "/* variant %d: %s, %s, %zu bytes */\n", i, v->label, v->arts[0].label,
			      v->arts[0].size);
		strbuf_printf(c, "static const unsigned char v%d[] __attribute__((aligned(64))) = {", i);
		header_put_bytes(c, v->arts[0].bytes, v->arts[0].size);
		strbuf_puts(c, "\n};\n");
	}
	strbuf_printf(c, "\nstatic const struct {\n\tconst unsigned char *data;\n\tsize_t size;\n"
			 "\tconst char *label;\n} variants[%d] = {\n", p->nvariant ? p->nvariant : 1);
	for (int i = 0; i < p->nvariant; i++) {
		strbuf_printf(c, "\t{v%d, sizeof v%d, ", i, i);
		c_string(c, p->variants[i].label);
		strbuf_puts(c, "},\n");
	}
	if (!p->nvariant)
		strbuf_puts(c, "\t{NULL, 0, NULL},\n");
	strbuf_puts(c, "};\n");
	int nvo = p->nconfig * p->ncombo;
	strbuf_printf(c, "/* [config * %d + heuristics' combination]: the variant, -1 when it did not "
			 "compile */\nstatic const int variant_of[%d] = {", p->ncombo, nvo);
	for (int i = 0; i < nvo; i++)
		strbuf_printf(c, "%s%d", i ? ", " : "", p->variant_of[i]);
	strbuf_puts(c, "};\n");
	strbuf_printf(c, "enum { NCONFIG = %d, NPARAM = %d, NPROBLEM = %d, NKEY = %d };\n"
			 "static const long WARMUP_MS = %lld, REP_MS = %lld;\nstatic const int FLUSH_L2 = %d;\n",
		      p->nconfig, np, s->nprob, p->nkey, (long long)s->warmup_ms, (long long)s->rep_ms,
		      s->flush_l2);
	strbuf_puts(c, "static const char *const config_error[NCONFIG] = {\n");
	for (int i = 0; i < p->nconfig; i++) {
		strbuf_puts(c, "\t");
		if (p->config_error[i])
			c_string(c, p->config_error[i]);
		else
			strbuf_puts(c, "NULL");
		strbuf_puts(c, ",\n");
	}
	strbuf_puts(c, "};\n");
	strbuf_puts(c, "static const char *const param_names[NPARAM] = {");
	for (int i = 0; i < np; i++)
		strbuf_printf(c, "%s\"%s\"", i ? ", " : "", f->params[i].name ? f->params[i].name : "?");
	strbuf_puts(c, "};\n");
	strbuf_puts(c, "/* per parameter: 0 scalar, else the element kind of a pointer ('h' fp16, 'b' bf16,\n"
		       " * 'f' fp32, 'd' fp64, 'i' other: zeros) */\nstatic const char param_kind[NPARAM] = {");
	for (int i = 0; i < np; i++) {
		int sz;
		const ir_type *t = f->body->args[i]->type;
		if (t->kind == IR_PTR)
			strbuf_printf(c, "%s'%c'", i ? ", " : "", elem_kind(t, &sz));
		else
			strbuf_printf(c, "%s0", i ? ", " : "");
	}
	strbuf_puts(c, "};\nstatic const size_t elem_size[NPARAM] = {");
	for (int i = 0; i < np; i++) {
		int sz = 0;
		const ir_type *t = f->body->args[i]->type;
		if (t->kind == IR_PTR)
			elem_kind(t, &sz);
		strbuf_printf(c, "%s%d", i ? ", " : "", sz);
	}
	strbuf_puts(c, "};\nstatic const int key_param[NKEY] = {");
	for (int i = 0; i < p->nkey; i++)
		strbuf_printf(c, "%s%d", i ? ", " : "", p->key_param[i]);
	strbuf_puts(c, "};\n\n");
	write_preamble(c, p);
	tune_emit_helpers(c);
	if (!tune_write_dispatch(d, c, p))
		return false;
	strbuf_puts(c, "/* Problem pi's values (v) and buffer sizes in elements (count). */\n"
		       "static void problem(int pi, int64_t *v, int64_t *count)\n{\n\tswitch (pi) {\n");
	for (int pi = 0; pi < s->nprob; pi++)
		if (!write_problem(d, c, p, pi))
			return false;
	strbuf_puts(c, "\t}\n}\n\n");
	/* the scalar slots */
	strbuf_puts(c, "typedef union slot {\n\tbool b;\n\tint8_t i8;\n\tint16_t i16;\n\tint32_t i32;\n"
		       "\tint64_t i64;\n\tfloat f32;\n\tdouble f64;\n\tvoid *p;\n} slot;\n\n"
		       "/* The launch arguments for values v and buffers buf. */\n"
		       "static void set_args(const int64_t *v, void **buf, slot *s, void **args)\n{\n");
	for (int i = 0; i < np; i++) {
		const ir_type *t = f->body->args[i]->type;
		if (t->kind == IR_PTR)
			strbuf_printf(c, "\ts[%d].p = buf[%d];\n", i, i);
		else if (t->kind == IR_F32 || t->kind == IR_F64)
			strbuf_printf(c, "\ts[%d].%s = (%s)v[%d];\n", i, slot_member(t),
				      t->kind == IR_F32 ? "float" : "double", i);
		else
			strbuf_printf(c, "\ts[%d].%s = (%s)v[%d];\n", i, slot_member(t),
				      t->kind == IR_I1 ? "bool" : !strcmp(slot_member(t), "i8") ? "int8_t"
								  : !strcmp(slot_member(t), "i16") ? "int16_t"
								  : !strcmp(slot_member(t), "i32") ? "int32_t"
												   : "int64_t", i);
		strbuf_printf(c, "\targs[%d] = &s[%d];\n", i, i);
	}
	strbuf_puts(c, "}\n\n");
	strbuf_printf(c, "#define KERNEL_NAME \"%s\"\n\n", p->kernel);
	strbuf_putn(c, (const char *)tilecc_tuner_main, tilecc_tuner_main_len);
	return !c->oom;
}
