/* test_support.c: arena, interning, growable arrays, strbuf and the diagnostics engine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/arena.h"
#include "support/diag.h"
#include "support/intern.h"
#include "support/strbuf.h"
#include "support/vec.h"
#include "test.h"

static void test_arena(void)
{
	arena *a = arena_create();
	CHECK(a);
	char *prev = NULL;
	for (int i = 1; i < 5000; i++) {
		/* sizes of every residue mod 16, some larger than a block */
		size_t n = (size_t)(i * 37) % 300 + (i % 97 == 0 ? 100000 : 0);
		char *p = arena_alloc(a, n);
		CHECK(p && ((uintptr_t)p & 15) == 0);
		for (size_t j = 0; j < n; j++)
			CHECK(p[j] == 0);
		memset(p, 0xab, n);
		CHECK(p != prev);
		prev = p;
	}
	char *s = arena_printf(a, "%s-%d", "x", 42);
	CHECK(s && !strcmp(s, "x-42"));
	CHECK(!strcmp(arena_strndup(a, "abcdef", 3), "abc"));
	CHECK(arena_used(a) > 100000);
	arena_destroy(a);
	arena_destroy(NULL);
}

static void test_intern(void)
{
	arena *a = arena_create();
	strtab *t = strtab_create(a);
	const char *x = strtab_cstr(t, "BLOCK");
	char buf[16];
	strcpy(buf, "BLOCK");
	CHECK(strtab_cstr(t, buf) == x);
	CHECK(strtab_intern(t, "BLOCK_M", 5) == x);
	CHECK(strtab_cstr(t, "BLOCK_M") != x);
	/* many strings force rehashing; every one must still intern to itself */
	const char *all[3000];
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof buf, "n%d", i);
		all[i] = strtab_cstr(t, buf);
	}
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof buf, "n%d", i);
		CHECK(strtab_cstr(t, buf) == all[i]);
	}
	CHECK(strtab_intern(t, "", 0) == strtab_cstr(t, ""));
	strtab_destroy(t);
	arena_destroy(a);
}

static void test_vec_strbuf(void)
{
	VEC(int) v = {0};
	for (int i = 0; i < 1000; i++)
		vec_push(&v, i * 3);
	CHECK(v.len == 1000 && v.data[999] == 2997 && vec_last(&v) == 2997);
	CHECK(vec_pop(&v) == 2997 && v.len == 999);
	vec_free(&v);
	CHECK(v.data == NULL && v.len == 0);

	strbuf b = {0};
	for (int i = 0; i < 500; i++)
		strbuf_printf(&b, "%d,", i);
	strbuf_putc(&b, '!');
	CHECK(b.len == strlen(b.data) && b.data[b.len - 1] == '!');
	CHECK(!strncmp(b.data, "0,1,2,", 6));
	size_t n;
	char *p = strbuf_take(&b, &n);
	CHECK(p && n == strlen(p) && b.data == NULL);
	free(p);
}

typedef struct {
	int count;
	char last[512];
	tilecc_diagnostic d;
} sink;

static void on_diag(void *user, const tilecc_diagnostic *d)
{
	sink *s = user;
	s->count++;
	snprintf(s->last, sizeof s->last, "%s", d->rendered);
	s->d = *d;
}

static void test_diag(void)
{
	arena *a = arena_create();
	sink s = {0};
	diag_engine *d = diag_create(a, on_diag, &s);
	const char *src = "def k(x):\n\ty = x +* 2\n    return y\n";
	uint32_t f = diag_add_source(d, "k.py", src, (uint32_t)strlen(src));
	diag_error(d, (srcloc){f, 2, 9, 2}, "expected an expression after '%s'", "+");
	CHECK(s.count == 1);
	/* the caret line keeps the tab so that it lines up under the source */
	CHECK(!strcmp(s.last, "k.py:2:9: error: expected an expression after '+'\n"
			      "\ty = x +* 2\n"
			      "\t       ^~\n"));
	CHECK(s.d.line == 2 && s.d.col == 9 && !strcmp(s.d.file, "k.py"));
	CHECK(!strcmp(s.d.message, "expected an expression after '+'"));
	diag_warning(d, (srcloc){f, 3, 5, 0}, "unused");
	CHECK(!strcmp(s.last, "k.py:3:5: warning: unused\n    return y\n    ^\n"));
	diag_note(d, (srcloc){f, 1, 1, 3}, "here");
	CHECK(!strncmp(s.last, "k.py:1:1: note: here\ndef k(x):\n^~~\n", 40));
	CHECK(diag_error_count(d) == 1);
	diag_error(d, SRCLOC_NONE, "no location");
	CHECK(!strcmp(s.last, "tilecc: error: no location\n"));
	/* a column past the end of the line must not read out of bounds */
	diag_error(d, (srcloc){f, 3, 200, 9}, "far");
	CHECK(strstr(s.last, "k.py:3:200: error: far") == s.last);
	/* a line past the end of the file prints the location alone */
	diag_error(d, (srcloc){f, 99, 1, 1}, "gone");
	CHECK(!strcmp(s.last, "k.py:99:1: error: gone\n"));
	diag_internal(d, "broken invariant %d", 7);
	CHECK(s.d.severity == TILECC_INTERNAL && strstr(s.last, "test_support.c"));
	CHECK(diag_error_count(d) == 5);
	/* no handler: counted, not shown */
	diag_engine *q = diag_create(a, NULL, NULL);
	diag_error(q, SRCLOC_NONE, "x");
	CHECK(diag_error_count(q) == 1);
	arena_destroy(a);
}

int main(void)
{
	test_arena();
	test_intern();
	test_vec_strbuf();
	test_diag();
	return test_result("test_support");
}
