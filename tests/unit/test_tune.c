/* test_tune.c: the text formats of autotuning (lib/driver/tune_parse.c): expressions and
 * their C (precedence, Python's operators), configs, specs and tuning files read back, and
 * the C helpers' floor semantics, compiled into this test from the text tilecc emits. */
#include <stdint.h>

#include "driver/tune.h"
#include "test.h"

static int errors;
static char last[512];

static void handler(void *user, const tilecc_diagnostic *d)
{
	(void)user;
	if (d->severity >= TILECC_ERROR) {
		errors++;
		snprintf(last, sizeof last, "%u:%u: %s", d->line, d->col, d->message);
	}
}

static bool name_as_is(void *user, const char *name, strbuf *b)
{
	(void)user;
	if (!strcmp(name, "unknown"))
		return false;
	strbuf_puts(b, name);
	return true;
}

/* The C of expression text, or NULL (and the error in last). */
static char *c_of(arena *a, diag_engine *d, const char *text)
{
	tune_expr *e = tune_parse_expr(a, d, 1, 1, 1, text, strlen(text));
	if (!e)
		return NULL;
	strbuf b = {0};
	if (!tune_emit_c(d, &b, e, name_as_is, NULL)) {
		strbuf_free(&b);
		return NULL;
	}
	char *s = arena_strdup(a, b.data);
	strbuf_free(&b);
	return s;
}

/* The helpers, as tune_emit_helpers writes them (the same text, checked below). */
static inline int64_t tt_fdiv(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t tt_mod(int64_t a, int64_t b)
{
	if (b == 0)
		return 0;
	int64_t r = a % b;
	return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
static inline int64_t tt_cdiv(int64_t a, int64_t b)
{
	return -tt_fdiv(-a, b);
}

int main(void)
{
	arena *a = arena_create();
	diag_engine *d = diag_create(a, handler, NULL);
	const char *src = "x";
	diag_add_source(d, "t", src, 1);

	CHECK(!strcmp(c_of(a, d, "cdiv(M, BM) * cdiv(N, BN)"), "(tt_cdiv(M, BM) * tt_cdiv(N, BN))"));
	CHECK(!strcmp(c_of(a, d, "a + b * c // 2 - -d"),
		      "((a + tt_fdiv((b * c), INT64_C(2))) - (-d))"));
	CHECK(!strcmp(c_of(a, d, "not a < b and c or d"), "(((!(a < b)) && c) || d)"));
	CHECK(!strcmp(c_of(a, d, "K % BK == 0"), "(tt_mod(K, BK) == INT64_C(0))"));
	CHECK(!strcmp(c_of(a, d, "min(a, max(b, 3)) / 2 >= next_power_of_2(n)"),
		      "(tt_fdiv(tt_min(a, tt_max(b, INT64_C(3))), INT64_C(2)) >= tt_np2(n))"));
	CHECK(!strcmp(c_of(a, d, "True || False"), "(INT64_C(1) || INT64_C(0))"));
	CHECK(!strcmp(c_of(a, d, "(a)"), "a"));

	/* errors, located */
	CHECK(c_of(a, d, "a +") == NULL && strstr(last, "1:4: expected an expression"));
	CHECK(c_of(a, d, "cdiv(a)") == NULL && strstr(last, "1:7: expected ','"));
	CHECK(c_of(a, d, "foo(a)") == NULL && strstr(last, "1:1: unknown function"));
	CHECK(c_of(a, d, "a b") == NULL && strstr(last, "1:3: unexpected text"));
	CHECK(c_of(a, d, "2 * unknown") == NULL && strstr(last, "1:5: 'unknown' is neither"));
	CHECK(c_of(a, d, "99999999999999999999") == NULL && strstr(last, "integer too large"));
	CHECK(c_of(a, d, "12abc") == NULL && strstr(last, "expected an integer"));

	/* Python's // and %, and cdiv */
	CHECK(tt_fdiv(7, 2) == 3 && tt_fdiv(-7, 2) == -4 && tt_fdiv(7, -2) == -4 && tt_fdiv(-8, 2) == -4);
	CHECK(tt_mod(7, 3) == 1 && tt_mod(-7, 3) == 2 && tt_mod(7, -3) == -2 && tt_mod(-6, 3) == 0);
	CHECK(tt_cdiv(7, 2) == 4 && tt_cdiv(8, 2) == 4 && tt_cdiv(0, 16) == 0 && tt_cdiv(1, 16) == 1);
	strbuf h = {0};
	tune_emit_helpers(&h);
	CHECK(strstr(h.data, "return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;") != NULL);
	CHECK(strstr(h.data, "return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;") != NULL);
	CHECK(strstr(h.data, "return -tt_fdiv(-a, b);") != NULL);
	strbuf_free(&h);

	/* a config */
	tune_config cf;
	const char *ct = "BLOCK_M=128, BLOCK_N=64 num_warps=8 num_stages=3 EVEN=True";
	CHECK(tune_parse_config(a, d, 1, 1, 1, ct, strlen(ct), &cf));
	CHECK(cf.n == 3 && cf.num_warps == 8 && cf.num_stages == 3);
	CHECK(!strcmp(cf.text, "BLOCK_M=128 BLOCK_N=64 EVEN=True num_warps=8 num_stages=3"));
	const char *dup = "B=1 B=2";
	CHECK(!tune_parse_config(a, d, 1, 1, 1, dup, strlen(dup), &cf) && strstr(last, "1:5: 'B' is given twice"));

	/* a spec */
	const char *spec = "# c\nkey: M, N\ngrid: (cdiv(M, B), N)\na: M * N\nproblem: M=5 N=6\n"
			   "problem: M=7, N=8\nrep_ms: 7\nflush_l2: False\n";
	tune_spec sp;
	errors = 0;
	CHECK(tune_parse_spec(a, d, 1, spec, strlen(spec), &sp));
	CHECK(errors == 0 && sp.nkey == 2 && !strcmp(sp.key[1], "N") && sp.ngrid == 2);
	CHECK(sp.nbind == 1 && !strcmp(sp.binds[0].name, "a") && sp.nprob == 2);
	CHECK(sp.probs[1].n == 2 && sp.probs[1].values[1] == 8 && sp.rep_ms == 7 && sp.warmup_ms == 25);
	CHECK(!sp.flush_l2 && !strcmp(sp.grid_text, "(cdiv(M, B), N)"));
	const char *bad = "grid: M\nproblem: M=5\nproblem: M=x\n";
	CHECK(!tune_parse_spec(a, d, 1, bad, strlen(bad), &sp) && strstr(last, "3:12: a problem gives integer values"));
	const char *bad2 = "grid: a, b, c, d\nproblem: M=5\n";
	CHECK(!tune_parse_spec(a, d, 1, bad2, strlen(bad2), &sp) && strstr(last, "1:16: a grid has at most three"));

	/* a tuning file */
	const char *tf = "format: 1\ncompiler: tilecc 0.1.0\nkernel: k\ntarget: x86-64\n"
			 "signature: *fp32, i32\nkey: n\ngrid: cdiv(n, B)\nconfig: B=16  # 0\n"
			 "config: B=64 num_warps=2\nbest: n=100 -> 1 0.5\nbest: n=7 -> 0 0.25\ndefault: 1\n";
	tune_file t;
	CHECK(tune_parse_file(a, d, 1, tf, strlen(tf), &t));
	CHECK(t.nconfig == 2 && t.nbest == 2 && t.best[0].config == 1 && t.best[1].values[0] == 7);
	CHECK(t.best[0].ms == 0.5 && t.default_config == 1 && !strcmp(t.signature, "*fp32, i32"));
	const char *tf2 = "format: 1\ncompiler: x\nkernel: k\ntarget: t\nsignature: s\nkey: n\n"
			  "grid: n\nconfig: B=1\nbest: n=1 -> 0 abc\n";
	CHECK(!tune_parse_file(a, d, 1, tf2, strlen(tf2), &t) && strstr(last, "9:16: expected the winner's time"));
	const char *tf3 = "format: 1\nkernel: k\n";
	CHECK(!tune_parse_file(a, d, 1, tf3, strlen(tf3), &t) && strstr(last, "has no 'compiler:' line"));
	const char *tf4 = "format: 2\n";
	CHECK(!tune_parse_file(a, d, 1, tf4, strlen(tf4), &t) && strstr(last, "1:9: unknown tuning file format"));
	CHECK(!strcmp(tune_source_hash(a, "", 0), "cbf29ce484222325"));

	arena_destroy(a);
	return test_result("test_tune");
}
