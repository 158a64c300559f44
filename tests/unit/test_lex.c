/* test_lex.c: the tokenizer: token kinds, values and locations, indentation, line joining,
 * numbers, strings, operators, and the message and place of every lexical error. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "frontend/lex.h"
#include "test.h"

static arena *A;
static strtab *names;
static lex_token *toks;
static uint32_t ntoks;

static void lex(const char *src)
{
	toks = lex_tokenize(A, names, 1, src, (uint32_t)strlen(src), &ntoks);
	CHECK(toks && ntoks > 0);
}

static void lexn(const char *src, uint32_t len)
{
	toks = lex_tokenize(A, names, 1, src, len, &ntoks);
	CHECK(toks && ntoks > 0);
}

/* Whether the token kinds are exactly the list given, terminated by -1. */
static int kinds(const char *src, ...)
{
	lex(src);
	va_list ap;
	va_start(ap, src);
	int ok = 1;
	uint32_t i = 0;
	for (;; i++) {
		int k = va_arg(ap, int);
		if (k < 0)
			break;
		if (i >= ntoks || toks[i].kind != (lex_kind)k) {
			fprintf(stderr, "  %s: token %u is %s, wanted %s\n", src, i,
				i < ntoks ? lex_kind_str(toks[i].kind) : "(none)", lex_kind_str((lex_kind)k));
			ok = 0;
			break;
		}
	}
	va_end(ap);
	if (ok && i != ntoks) {
		fprintf(stderr, "  %s: %u tokens, wanted %u\n", src, ntoks, i);
		ok = 0;
	}
	return ok;
}

/* The lexer's error for src: the message and place of its final LEX_ERROR token. */
static int lex_error(const char *src, uint32_t len, const char *msg, uint32_t line, uint32_t col)
{
	lexn(src, len);
	const lex_token *t = &toks[ntoks - 1];
	if (t->kind != LEX_ERROR) {
		fprintf(stderr, "  no error for %s\n", src);
		return 0;
	}
	for (uint32_t i = 0; i + 1 < ntoks; i++)
		if (toks[i].kind == LEX_ERROR)
			return 0;
	if (strcmp(t->str.s, msg) || t->loc.line != line || t->loc.col != col) {
		fprintf(stderr, "  %s: got %u:%u: %s\n", src, t->loc.line, t->loc.col, t->str.s);
		return 0;
	}
	return 1;
}

#define E(src, msg, line, col) CHECK(lex_error((src), (uint32_t)strlen(src), (msg), (line), (col)))

static void test_basic(void)
{
	CHECK(kinds("", LEX_EOF, -1));
	CHECK(kinds("\n\n  \n# only a comment\n", LEX_EOF, -1));
	CHECK(kinds("x = 1\n", LEX_NAME, LEX_ASSIGN, LEX_INT, LEX_NEWLINE, LEX_EOF, -1));
	/* no trailing newline: one is supplied */
	CHECK(kinds("x", LEX_NAME, LEX_NEWLINE, LEX_EOF, -1));
	CHECK(kinds("x # c", LEX_NAME, LEX_NEWLINE, LEX_EOF, -1));
	CHECK(kinds("if x:\n    y\n", LEX_KW_IF, LEX_NAME, LEX_COLON, LEX_NEWLINE, LEX_INDENT,
		    LEX_NAME, LEX_NEWLINE, LEX_DEDENT, LEX_EOF, -1));
	CHECK(kinds("def f(a,\n      b):\n  return a\n", LEX_KW_DEF, LEX_NAME, LEX_LPAREN, LEX_NAME,
		    LEX_COMMA, LEX_NAME, LEX_RPAREN, LEX_COLON, LEX_NEWLINE, LEX_INDENT,
		    LEX_KW_RETURN, LEX_NAME, LEX_NEWLINE, LEX_DEDENT, LEX_EOF, -1));
	/* backslash continuation and CRLF */
	CHECK(kinds("x = 1 + \\\n    2\r\ny\r\n", LEX_NAME, LEX_ASSIGN, LEX_INT, LEX_PLUS, LEX_INT,
		    LEX_NEWLINE, LEX_NAME, LEX_NEWLINE, LEX_EOF, -1));
	/* keywords vs names; soft keywords are names */
	CHECK(kinds("match case type not_ None", LEX_NAME, LEX_NAME, LEX_NAME, LEX_NAME, LEX_KW_NONE,
		    LEX_NEWLINE, LEX_EOF, -1));
	lex("abc _x1 é");
	CHECK(toks[0].name == strtab_cstr(names, "abc"));
	CHECK(toks[1].name == strtab_cstr(names, "_x1"));
	CHECK(toks[2].kind == LEX_NAME);
}

static void test_indent(void)
{
	/* nested blocks close with one DEDENT per level */
	CHECK(kinds("if a:\n  if b:\n    c\nd\n", LEX_KW_IF, LEX_NAME, LEX_COLON, LEX_NEWLINE,
		    LEX_INDENT, LEX_KW_IF, LEX_NAME, LEX_COLON, LEX_NEWLINE, LEX_INDENT, LEX_NAME,
		    LEX_NEWLINE, LEX_DEDENT, LEX_DEDENT, LEX_NAME, LEX_NEWLINE, LEX_EOF, -1));
	/* blank and comment lines inside a block do not count */
	CHECK(kinds("if a:\n  b\n\n# c\n      # d\n  e\n", LEX_KW_IF, LEX_NAME, LEX_COLON,
		    LEX_NEWLINE, LEX_INDENT, LEX_NAME, LEX_NEWLINE, LEX_NAME, LEX_NEWLINE,
		    LEX_DEDENT, LEX_EOF, -1));
	/* a tab goes to the next multiple of 8 */
	CHECK(kinds("if a:\n\tb\n        c\n", LEX_KW_IF, LEX_NAME, LEX_COLON, LEX_NEWLINE,
		    LEX_INDENT, LEX_NAME, LEX_NEWLINE, LEX_NAME, LEX_NEWLINE, LEX_DEDENT, LEX_EOF,
		    -1));
	/* inside brackets, indentation means nothing */
	CHECK(kinds("x = [1,\n        2,\n 3]\n", LEX_NAME, LEX_ASSIGN, LEX_LBRACKET, LEX_INT,
		    LEX_COMMA, LEX_INT, LEX_COMMA, LEX_INT, LEX_RBRACKET, LEX_NEWLINE, LEX_EOF, -1));
	/* the parser, not the lexer, rejects an unexpected indent */
	CHECK(kinds("  x\n", LEX_INDENT, LEX_NAME, LEX_NEWLINE, LEX_DEDENT, LEX_EOF, -1));
	E("if a:\n    b\n  c\n", "unindent does not match any outer indentation level", 3, 3);
}

static void test_numbers(void)
{
	lex("0 42 1_000 0x_fF 0o17 0b101 9223372036854775807 00");
	CHECK(toks[0].kind == LEX_INT && toks[0].ival == 0);
	CHECK(toks[1].ival == 42);
	CHECK(toks[2].ival == 1000);
	CHECK(toks[3].ival == 255);
	CHECK(toks[4].ival == 15);
	CHECK(toks[5].ival == 5);
	CHECK(toks[6].ival == INT64_MAX);
	CHECK(toks[7].kind == LEX_INT && toks[7].ival == 0);
	lex("1.0 .5 5. 1e-5 1.44269504 1_0.2_5 2E3 1e400");
	CHECK(toks[0].kind == LEX_FLOAT && toks[0].fval == 1.0);
	CHECK(toks[1].fval == 0.5);
	CHECK(toks[2].fval == 5.0);
	CHECK(toks[3].fval == 1e-5);
	CHECK(toks[4].fval == 1.44269504);
	CHECK(toks[5].fval == 10.25);
	CHECK(toks[6].kind == LEX_FLOAT && toks[6].fval == 2000.0);
	CHECK(isinf(toks[7].fval));
	/* x.5 is a name and a float, x . y an attribute */
	CHECK(kinds("a.b", LEX_NAME, LEX_DOT, LEX_NAME, LEX_NEWLINE, LEX_EOF, -1));
	/* Python's integers are unbounded: big literals are marked, not refused */
	lex("9223372036854775807 9223372036854775808 0xffffffffffffffffff");
	CHECK(toks[0].kind == LEX_INT && !toks[0].int_big);
	CHECK(toks[1].kind == LEX_INT && toks[1].int_big);
	CHECK(toks[2].kind == LEX_INT && toks[2].int_big);
	lex("1j 1.5J 1e3j");
	CHECK(toks[0].kind == LEX_IMAG && toks[0].fval == 1.0);
	CHECK(toks[1].kind == LEX_IMAG && toks[1].fval == 1.5);
	CHECK(toks[2].kind == LEX_IMAG && toks[2].fval == 1000.0);
	E("x = 1abc\n", "invalid decimal literal", 1, 5);
	E("x = 1__0\n", "invalid decimal literal", 1, 5);
	E("x = 0x\n", "invalid hexadecimal literal", 1, 5);
	E("x = 0b12\n", "invalid binary literal", 1, 5);
	E("x = 012\n",
	  "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
	  "octal integers",
	  1, 5);
}

static void test_strings(void)
{
	lex("'a' \"b\" '''c\nd''' \"\"\"e\"\"\" r'\\n' b'x' u'z' Rb'\\t'");
	const char *want[] = {"a", "b", "c\nd", "e", "\\n", "x", "z", "\\t"};
	for (int i = 0; i < 8; i++)
		CHECK(toks[i].kind == LEX_STR && !strcmp(toks[i].str.s, want[i]));
	CHECK(toks[5].is_bytes && toks[7].is_bytes && !toks[6].is_bytes);
	/* f-strings as Python 3.12 tokenizes them, same quotes inside a field included */
	CHECK(kinds("f'a{x!r:>{w}}b{d[\"k\"]}'", LEX_FSTRING_START, LEX_FSTRING_MIDDLE, LEX_LBRACE,
		    LEX_NAME, LEX_EXCLAIM, LEX_NAME, LEX_COLON, LEX_FSTRING_MIDDLE, LEX_LBRACE,
		    LEX_NAME, LEX_RBRACE, LEX_RBRACE, LEX_FSTRING_MIDDLE, LEX_LBRACE, LEX_NAME,
		    LEX_LBRACKET, LEX_STR, LEX_RBRACKET, LEX_RBRACE, LEX_FSTRING_END, LEX_NEWLINE,
		    LEX_EOF, -1));
	CHECK(kinds("f\"{f\"{1}\"}\"", LEX_FSTRING_START, LEX_LBRACE, LEX_FSTRING_START, LEX_LBRACE,
		    LEX_INT, LEX_RBRACE, LEX_FSTRING_END, LEX_RBRACE, LEX_FSTRING_END, LEX_NEWLINE,
		    LEX_EOF, -1));
	E("x = f'{a\n", "unterminated f-string literal", 1, 5);
	lex("'\\n\\t\\\\\\'\\\"\\x41\\101\\u00e9\\U0001F600\\q\\0'");
	CHECK(toks[0].kind == LEX_STR);
	CHECK(toks[0].str.len == 16);
	CHECK(!memcmp(toks[0].str.s, "\n\t\\'\"AA\xc3\xa9\xf0\x9f\x98\x80\\q\0", 16));
	/* a backslash-newline inside a string joins lines */
	lex("'a\\\nb'\nc");
	CHECK(!strcmp(toks[0].str.s, "ab") && toks[2].loc.line == 3);
	/* lines after a triple-quoted string are counted */
	lex("'''a\nb\nc''' x");
	CHECK(toks[1].kind == LEX_NAME && toks[1].loc.line == 3 && toks[1].loc.col == 6);
	E("x = 'abc\n", "unterminated string literal", 1, 5);
	E("x = '''abc\n\n", "unterminated triple-quoted string literal", 1, 5);
	E("x = 'ab\\x4'\n", "truncated \\x escape in string literal", 1, 8);
	E("x = 'a' + '\\N{DASH}'\n", "unsupported escape '\\N{...}' in string literal", 1, 12);
}

static void test_operators(void)
{
	CHECK(kinds("a //= b ** c -> d := e @ f", LEX_NAME, LEX_DSLASHEQ, LEX_NAME, LEX_DSTAR, LEX_NAME,
		    LEX_ARROW, LEX_NAME, LEX_WALRUS, LEX_NAME, LEX_AT, LEX_NAME, LEX_NEWLINE, LEX_EOF,
		    -1));
	CHECK(kinds("<<= >>= **= <= >= == != << >> // ...", LEX_LSHIFTEQ, LEX_RSHIFTEQ, LEX_DSTAREQ,
		    LEX_LE, LEX_GE, LEX_EQ, LEX_NE, LEX_LSHIFT, LEX_RSHIFT, LEX_DSLASH, LEX_ELLIPSIS,
		    LEX_NEWLINE, LEX_EOF, -1));
	CHECK(kinds("+= -= *= /= %= @= &= |= ^= ~", LEX_PLUSEQ, LEX_MINUSEQ, LEX_STAREQ,
		    LEX_SLASHEQ, LEX_PERCENTEQ, LEX_ATEQ, LEX_AMPEQ, LEX_PIPEEQ, LEX_CARETEQ,
		    LEX_TILDE, LEX_NEWLINE, LEX_EOF, -1));
	E("x = $\n", "invalid character '$'", 1, 5);
	E("x = (1]\n", "closing parenthesis ']' does not match opening parenthesis '('", 1, 7);
	E("x = 1)\n", "unmatched ')'", 1, 6);
	E("x = f(1,\n  2\n", "'(' was never closed", 1, 6);
	E("x = \\ y\n", "unexpected character after line continuation character", 1, 5);
}

static void test_locations(void)
{
	lex("ab = foo(1.5, 'xy')\n  \n\tq");
	CHECK(toks[0].loc.line == 1 && toks[0].loc.col == 1 && toks[0].loc.len == 2);
	CHECK(toks[2].loc.col == 6 && toks[2].loc.len == 3);   /* foo */
	CHECK(toks[4].loc.col == 10 && toks[4].loc.len == 3);  /* 1.5 */
	CHECK(toks[6].loc.col == 15 && toks[6].loc.len == 4);  /* 'xy' */
	CHECK(toks[6].end_line == 1 && toks[6].end_col == 19);
	CHECK(toks[8].kind == LEX_NEWLINE && toks[8].loc.col == 20);
	CHECK(toks[9].kind == LEX_INDENT && toks[9].loc.line == 3);
	CHECK(toks[10].kind == LEX_NAME && toks[10].loc.line == 3 && toks[10].loc.col == 2);
	for (uint32_t i = 0; i < ntoks; i++)
		CHECK(toks[i].loc.file == 1);
}

static void test_nul_and_nesting(void)
{
	CHECK(lex_error("x = 1\n\0y\n", 9, "source code cannot contain null bytes", 2, 1));
	CHECK(lex_error("x = 'a\0b'\n", 10, "source code cannot contain null bytes", 1, 7));
	char deep[512];
	memset(deep, '(', 300);
	deep[300] = 0;
	E(deep, "expression too deeply nested (more than 200 open brackets)", 1, 201);
}

int main(void)
{
	A = arena_create();
	names = strtab_create(A);
	test_basic();
	test_indent();
	test_numbers();
	test_strings();
	test_operators();
	test_locations();
	test_nul_and_nesting();
	strtab_destroy(names);
	arena_destroy(A);
	return test_result("test_lex");
}
