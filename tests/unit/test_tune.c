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

static inline int64_t tt_min(int64_t a, int64_t b)
{
	return a < b ? a : b;
}
static inline int64_t tt_max(int64_t a, int64_t b)
{
	return a > b ? a : b;
}
static inline int64_t tt_np2(int64_t a)
{
	int64_t p = 1;
	while (p < a && p < ((int64_t)1 << 62))
		p <<= 1;
	return p;
}

/* The names of tune_eval's tests: a, b and c. */
static int64_t env[3];
static bool env_value(void *user, const char *name, int64_t *v)
{
	(void)user;
	if (strlen(name) != 1 || name[0] < 'a' || name[0] > 'c')
		return false;
	*v = env[name[0] - 'a'];
	return true;
}

static uint64_t rng = 88172645463325252ull;
static int64_t random_small(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	/* mostly small, of both signs, some zeros and powers of two */
	switch (rng % 4) {
	case 0: return (int64_t)(rng >> 40) % 5;
	case 1: return (int64_t)1 << (rng >> 59);
	default: return (int64_t)((rng >> 20) % 20001) - 10000;
	}
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

	/* tune_eval (the compiler's evaluation of heuristics at the problems) agrees with the C
	 * the launcher runs (the helpers above) on random values of both signs */
	static const char *const exprs[] = {"a // b", "a % b", "cdiv(a, b)", "min(a, b) * c",
					     "max(a, b) - c", "next_power_of_2(a)",
					     "max(1, min(4, 512 // next_power_of_2(a)))",
					     "a % b == 0 and not c < 0 or a > b", "-a + b * c // 3"};
	for (size_t x = 0; x < sizeof exprs / sizeof exprs[0]; x++) {
		tune_expr *e = tune_parse_expr(a, d, 1, 1, 1, exprs[x], strlen(exprs[x]));
		CHECK(e != NULL);
		for (int t = 0; e && t < 2000; t++) {
			int64_t va = random_small(), vb = random_small(), vc = random_small(), got = 0;
			env[0] = va, env[1] = vb, env[2] = vc;
			const tune_expr *unknown = NULL;
			CHECK(tune_eval(e, env_value, NULL, &got, &unknown));
			int64_t want;
			switch (x) {
			case 0: want = tt_fdiv(va, vb); break;
			case 1: want = tt_mod(va, vb); break;
			case 2: want = tt_cdiv(va, vb); break;
			case 3: want = tt_min(va, vb) * vc; break;
			case 4: want = tt_max(va, vb) - vc; break;
			case 5: want = tt_np2(va); break;
			case 6: want = tt_max(1, tt_min(4, tt_fdiv(512, tt_np2(va)))); break;
			case 7: want = (tt_mod(va, vb) == 0 && !(vc < 0)) || va > vb; break;
			default: want = -va + tt_fdiv(vb * vc, 3); break;
			}
			if (got != want) {
				fprintf(stderr, "tune_eval(%s) at a=%lld b=%lld c=%lld: %lld, want %lld\n",
					exprs[x], (long long)va, (long long)vb, (long long)vc,
					(long long)got, (long long)want);
				test_failures++;
				break;
			}
		}
	}
	{
		tune_expr *e = tune_parse_expr(a, d, 1, 1, 1, "a + zz * 2", 10);
		const tune_expr *unknown = NULL;
		int64_t v;
		CHECK(!tune_eval(e, env_value, NULL, &v, &unknown) && unknown &&
		      !strcmp(unknown->name, "zz") && unknown->loc.col == 5);
	}

	/* value lists: --heuristic NAME=V,... lines, and a spec's heuristic: lines */
	tune_values *hv;
	int nhv;
	const char *hl = "BLOCK_N=16,32, 64\n  ROWS = -1 ,2\n";
	CHECK(tune_parse_values(a, d, 1, hl, strlen(hl), &hv, &nhv) && nhv == 2);
	CHECK(!strcmp(hv[0].name, "BLOCK_N") && hv[0].n == 3 && hv[0].values[2] == 64);
	CHECK(!strcmp(hv[1].name, "ROWS") && hv[1].n == 2 && hv[1].values[0] == -1 &&
	      hv[1].loc.line == 2 && hv[1].loc.col == 3);
	const char *hbad[] = {"B=", "B=1,,2", "=1", "B 1", "B=1 2", "B=99999999999999999999"};
	const char *hwhy[] = {"1:3: expected an integer", "1:5: expected an integer",
			      "1:1: expected NAME = VALUE", "1:1: expected NAME = VALUE",
			      "1:5: expected ','", "1:3: expected an integer"};
	for (size_t x = 0; x < sizeof hbad / sizeof hbad[0]; x++) {
		last[0] = 0;
		CHECK(!tune_parse_values(a, d, 1, hbad[x], strlen(hbad[x]), &hv, &nhv) &&
		      strstr(last, hwhy[x]));
	}
	const char *hspec = "grid: n\nproblem: n=4\nheuristic: B = 8, 4\n";
	CHECK(tune_parse_spec(a, d, 1, hspec, strlen(hspec), &sp) && sp.nhval == 1 &&
	      sp.hvals[0].n == 2 && sp.hvals[0].values[1] == 4 && sp.hvals[0].loc.col == 12);

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
	const char *tf5 = "format: 1\ncompiler: x\nkernel: k\ntarget: t\nsignature: s\nkey: n\n"
			  "grid: n\nheuristic: B = 1, 2\nconfig: C=1\n";
	CHECK(tune_parse_file(a, d, 1, tf5, strlen(tf5), &t) && t.nhval == 1 && t.hvals[0].n == 2);

	arena_destroy(a);
	return test_result("test_tune");
}
