/* test_parse.c: the parser and the AST printer: precedence, every statement form, the
 * dump format, and that each kind of bad input gives exactly one diagnostic, with the
 * right message at the right line and column. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ast.h"
#include "test.h"

static int ndiags;
static char last_msg[512];
static char last_rendered[1024];
static unsigned last_line, last_col;

static void handler(void *user, const tilecc_diagnostic *d)
{
	(void)user;
	ndiags++;
	snprintf(last_msg, sizeof last_msg, "%s", d->message);
	snprintf(last_rendered, sizeof last_rendered, "%s", d->rendered);
	last_line = d->line;
	last_col = d->col;
}

/* Parses src and returns its dump (malloc'd), or NULL when it had errors. */
static char *parse_dump(const char *src, uint32_t len)
{
	arena *a = arena_create();
	strtab *names = strtab_create(a);
	diag_engine *d = diag_create(a, handler, NULL);
	uint32_t file = diag_add_source(d, "t.py", src, len);
	ndiags = 0;
	ast_module *m = parse_module(a, names, d, file, src, len);
	char *out = NULL;
	if (m) {
		strbuf b = {0};
		ast_dump(&b, m);
		out = b.data ? strbuf_take(&b, NULL) : calloc(1, 1);
	}
	CHECK((m != NULL) == (ndiags == 0));
	strtab_destroy(names);
	arena_destroy(a);
	return out;
}

static int dumps_as(const char *src, const char *want)
{
	char *got = parse_dump(src, (uint32_t)strlen(src));
	int ok = got && !strcmp(got, want);
	if (!ok)
		fprintf(stderr, "  source:\n%s\n  got:\n%s\n  wanted:\n%s\n", src,
			got ? got : last_msg, want);
	free(got);
	return ok;
}

/* The dump of one expression statement, without the "expr " and newline. */
static int expr_dumps_as(const char *src, const char *want)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "expr %s\n", want);
	return dumps_as(src, buf);
}

static int fails_with(const char *src, uint32_t len, const char *msg, unsigned line, unsigned col)
{
	char *got = parse_dump(src, len);
	int ok = !got && ndiags == 1 && !strcmp(last_msg, msg) && last_line == line &&
		 last_col == col;
	if (!ok)
		fprintf(stderr, "  source: %s\n  got %d diagnostic(s), last %u:%u: %s\n  wanted %u:%u: %s\n",
			src, ndiags, last_line, last_col, last_msg, line, col, msg);
	free(got);
	return ok;
}

#define P(src, want) CHECK(expr_dumps_as((src), (want)))
#define S(src, want) CHECK(dumps_as((src), (want)))
#define ERR(src, msg, line, col) CHECK(fails_with((src), (uint32_t)strlen(src), (msg), (line), (col)))

static void test_atoms(void)
{
	P("x", "(name x)");
	P("42", "(int 42)");
	P("1.5", "(float 1.5)");
	P("1.0", "(float 1.0)");
	P("1e-5", "(float 1e-05)");
	P("1.44269504", "(float 1.44269504)");
	P("0.1", "(float 0.1)");
	P("'a' \"b\"\n", "(str \"ab\")");
	P("'q\"\\n'", "(str \"q\\\"\\n\")");
	P("True", "(bool True)");
	P("False", "(bool False)");
	P("None", "(none)");
	P("()", "(tuple)");
	P("(1,)", "(tuple (int 1))");
	P("(1, 2,)", "(tuple (int 1) (int 2))");
	P("(1)", "(int 1)");
	P("[]", "(list)");
	P("[1, [2]]", "(list (int 1) (list (int 2)))");
	P("{}", "(dict)");
	P("{'a': 1, 'b': x,}", "(dict ((str \"a\") (int 1)) ((str \"b\") (name x)))");
	P("lambda: 0", "(lambda () (int 0))");
	P("lambda a, b=2: a + b", "(lambda (a b=(int 2)) (+ (name a) (name b)))");
}

static void test_precedence(void)
{
	P("-2**2", "(- (** (int 2) (int 2)))");
	P("2**-1", "(** (int 2) (- (int 1)))");
	P("2**3**2", "(** (int 2) (** (int 3) (int 2)))");
	P("a < b < c", "(compare (name a) < (name b) < (name c))");
	P("not a == b", "(not (compare (name a) == (name b)))");
	P("a if b else c if d else e", "(ifexp (name b) (name a) (ifexp (name d) (name c) (name e)))");
	P("x[:, None]", "(subscript (name x) (tuple (slice nil nil nil) (none)))");
	P("x[0]", "(subscript (name x) (int 0))");
	P("x[1:3]", "(subscript (name x) (slice (int 1) (int 3) nil))");
	P("x[::2, a:]", "(subscript (name x) (tuple (slice nil nil (int 2)) (slice (name a) nil nil)))");
	P("x[1,]", "(subscript (name x) (tuple (int 1)))");
	P("a + b * c - d", "(- (+ (name a) (* (name b) (name c))) (name d))");
	P("a - b - c", "(- (- (name a) (name b)) (name c))");
	P("a // b % c @ d", "(@ (% (// (name a) (name b)) (name c)) (name d))");
	P("a | b ^ c & d << e + f", "(| (name a) (^ (name b) (& (name c) (<< (name d) (+ (name e) (name f))))))");
	P("a >> 1 << 2", "(<< (>> (name a) (int 1)) (int 2))");
	P("~a + -b * +c", "(+ (~ (name a)) (* (- (name b)) (+ (name c))))");
	P("a or b and not c", "(or (name a) (and (name b) (not (name c))))");
	P("a or b or c", "(or (name a) (name b) (name c))");
	P("a and b and c or d", "(or (and (name a) (name b) (name c)) (name d))");
	P("a is not b", "(compare (name a) is not (name b))");
	P("a not in b in c", "(compare (name a) not in (name b) in (name c))");
	P("a != b >= c <= d > e == f", "(compare (name a) != (name b) >= (name c) <= (name d) > (name e) == (name f))");
	P("a & b < c", "(compare (& (name a) (name b)) < (name c))");
	P("(a + b) * c", "(* (+ (name a) (name b)) (name c))");
	P("-x.y[1](2)", "(- (call (subscript (attr (name x) y) (int 1)) (int 2)))");
	P("lambda x: x if x else y", "(lambda (x) (ifexp (name x) (name x) (name y)))");
}

static void test_calls(void)
{
	P("tl.arange(0, BLOCK, dtype=x)",
	  "(call (attr (name tl) arange) (int 0) (name BLOCK) (kw dtype (name x)))");
	P("f()", "(call (name f))");
	P("f(a,)", "(call (name f) (name a))");
	P("f(k=1, j=2,)", "(call (name f) (kw k (int 1)) (kw j (int 2)))");
	P("f(a == b)", "(call (name f) (compare (name a) == (name b)))");
	P("f(x)(y)[z].w", "(attr (subscript (call (call (name f) (name x)) (name y)) (name z)) w)");
	P("tl.store(p, x, mask=(a < b) & (c < d))",
	  "(call (attr (name tl) store) (name p) (name x) (kw mask (& (compare (name a) < (name b)) "
	  "(compare (name c) < (name d)))))");
}

static void test_statements(void)
{
	S("x = 1\n", "assign (name x) = (int 1)\n");
	S("a = b = 1\n", "assign (name a) = (name b) = (int 1)\n");
	S("a, b = b, a\n", "assign (tuple (name a) (name b)) = (tuple (name b) (name a))\n");
	S("(a, b), [c] = x\n",
	  "assign (tuple (tuple (name a) (name b)) (list (name c))) = (name x)\n");
	S("x.y[0] = 1,\n", "assign (subscript (attr (name x) y) (int 0)) = (tuple (int 1))\n");
	S("a += 1\na -= 1\na *= 1\na /= 1\na //= 1\na %= 1\na **= 1\na @= 1\na &= 1\na |= 1\n"
	  "a ^= 1\na <<= 1\na >>= 1\n",
	  "augassign (name a) += (int 1)\naugassign (name a) -= (int 1)\n"
	  "augassign (name a) *= (int 1)\naugassign (name a) /= (int 1)\n"
	  "augassign (name a) //= (int 1)\naugassign (name a) %= (int 1)\n"
	  "augassign (name a) **= (int 1)\naugassign (name a) @= (int 1)\n"
	  "augassign (name a) &= (int 1)\naugassign (name a) |= (int 1)\n"
	  "augassign (name a) ^= (int 1)\naugassign (name a) <<= (int 1)\n"
	  "augassign (name a) >>= (int 1)\n");
	S("X: tl.constexpr = 3\ny: int\n",
	  "annassign (name X) : (attr (name tl) constexpr) = (int 3)\nannassign (name y) : (name int)\n");
	S("if a:\n    pass\nelif b:\n    x\nelse:\n    y\n",
	  "if (name a)\n  pass\nelse\n  if (name b)\n    expr (name x)\n  else\n    expr (name y)\n");
	S("if a: x; y\n", "if (name a)\n  expr (name x)\n  expr (name y)\n");
	S("for i, j in a, b:\n  continue\nwhile x:\n  break\n",
	  "for (tuple (name i) (name j)) in (tuple (name a) (name b))\n  continue\n"
	  "while (name x)\n  break\n");
	S("for i in range(0, n, 2):\n  for j in x:\n    pass\n  y\n",
	  "for (name i) in (call (name range) (int 0) (name n) (int 2))\n  for (name j) in (name x)\n"
	  "    pass\n  expr (name y)\n");
	S("assert x\nassert x, 'msg'\n", "assert (name x)\nassert (name x) (str \"msg\")\n");
	S("import a.b as c, d\nimport triton.language as tl\n",
	  "import a.b as c, d\nimport triton.language as tl\n");
	S("from triton import language as tl\nfrom a.b import (c,\n  d as e,)\n",
	  "from triton import language as tl\nfrom a.b import c, d as e\n");
	S("def f(a, b: int, c=1, d: tl.constexpr = 2) -> None:\n  '''doc'''\n  return a, b\n"
	  "def g():\n  return\n",
	  "def f(a, b: (name int), c = (int 1), d: (attr (name tl) constexpr) = (int 2)) -> (none)\n"
	  "  expr (str \"doc\")\n  return (tuple (name a) (name b))\n"
	  "def g()\n  return\n");
	S("@triton.jit\n@triton.heuristics({'E': lambda args: args['n'] % 2 == 0})\n"
	  "def k(x):\n  pass\n",
	  "@(attr (name triton) jit)\n"
	  "@(call (attr (name triton) heuristics) (dict ((str \"E\") (lambda (args) (compare (% "
	  "(subscript (name args) (str \"n\")) (int 2)) == (int 0))))))\n"
	  "def k(x)\n  pass\n");
	S("if a:\n  if b:\n    def f(): pass\n", "if (name a)\n  if (name b)\n    def f()\n      pass\n");
	S("x = 1; y = 2;\n", "assign (name x) = (int 1)\nassign (name y) = (int 2)\n");
	S("match = 1\n", "assign (name match) = (int 1)\n");
	/* line joining, comments, CRLF, tabs, no final newline */
	S("x = (1 +  # c\n     2) \\\n  + 3\r\nif x:\r\n\ty\r\n\tz",
	  "assign (name x) = (+ (+ (int 1) (int 2)) (int 3))\nif (name x)\n  expr (name y)\n"
	  "  expr (name z)\n");
	S("", "");
	S("\n\n# c\n   \n", "");
}

static void test_syntax_errors(void)
{
	ERR("if x\n  pass\n", "expected ':' after 'if' condition", 1, 5);
	ERR("while x\n  pass\n", "expected ':' after 'while' condition", 1, 8);
	ERR("x = 1 2\n", "invalid syntax", 1, 7);
	ERR("  x = 1\n", "unexpected indent", 1, 3);
	ERR("x = 1\n    y = 2\n", "unexpected indent", 2, 5);
	ERR("if x:\n    a\n  b\n", "unindent does not match any outer indentation level", 3, 3);
	ERR("x = 'abc\n", "unterminated string literal", 1, 5);
	ERR("x = '''abc\n", "unterminated triple-quoted string literal", 1, 5);
	ERR("x = \n", "expected an expression", 1, 5);
	ERR("x = (1,\n", "'(' was never closed", 1, 5);
	ERR("x = 1)\n", "unmatched ')'", 1, 6);
	ERR("if x:\npass\n", "expected an indented block after 'if' statement on line 1", 2, 1);
	ERR("def f():\n", "expected an indented block after function definition on line 1", 2, 1);
	ERR("x = a if b\n", "expected 'else' after 'if' expression", 1, 11);
	ERR("f(a=1, b)\n", "positional argument follows keyword argument", 1, 8);
	ERR("f(a=1, a=2)\n", "keyword argument repeated: a", 1, 8);
	ERR("f(a.b=1)\n", "expression cannot contain assignment, perhaps you meant \"==\"?", 1, 3);
	ERR("def f(a=1, b): pass\n", "parameter without a default follows parameter with a default", 1, 12);
	ERR("def f(a, a): pass\n", "duplicate argument 'a' in function definition", 1, 10);
	ERR("return 1\n", "'return' outside function", 1, 1);
	ERR("break\n", "'break' outside loop", 1, 1);
	ERR("for x in y:\n  def f():\n    continue\n", "'continue' not properly in loop", 3, 5);
	ERR("f() = 1\n", "cannot assign to function call", 1, 1);
	ERR("a = 1 = b\n", "cannot assign to literal", 1, 5);
	ERR("for f() in x: pass\n", "cannot assign to function call", 1, 5);
	ERR("a + 1 += 2\n", "illegal expression for augmented assignment", 1, 1);
	ERR("a, b: int\n", "only single target (not tuple) can be annotated", 1, 1);
	ERR("else: pass\n", "invalid syntax", 1, 1);
	ERR("x = a not b\n", "invalid syntax", 1, 7);
	ERR("x = $\n", "invalid character '$'", 1, 5);
	ERR("x.\n", "expected attribute name after '.'", 1, 3);
	ERR("for x y: pass\n", "expected 'in' after 'for' target", 1, 7);
	ERR("if x: if y: pass\n", "invalid syntax", 1, 7);
	/* the earlier of a lexer error and a parser error wins */
	ERR("x = = 1\ny = 'abc\n", "expected an expression", 1, 5);
	ERR("x = 1\ny = 'abc\nz = = 1\n", "unterminated string literal", 2, 5);
	CHECK(fails_with("x = 1\n\0", 7, "source code cannot contain null bytes", 2, 1));
	/* the rendered form: location, message, source line, caret */
	ERR("x = 1\nf() = 2\n", "cannot assign to function call", 2, 1);
	CHECK(!strcmp(last_rendered, "t.py:2:1: error: cannot assign to function call\n"
				     "f() = 2\n^~~\n"));
}

static void test_host_python(void)
{
	CHECK(dumps_as("class Foo:\n    pass\n", "class Foo\n  pass\n"));
	CHECK(dumps_as("try:\n  x\nexcept E:\n  pass\n", "try\n  expr (name x)\nexcept (name E)\n  pass\n"));
	CHECK(dumps_as("raise X\n", "raise (name X)\n"));
	CHECK(dumps_as("with a as b:\n  pass\n", "with (name a) as (name b)\n  pass\n"));
	CHECK(dumps_as("async def f(): pass\n", "async def f()\n  pass\n"));
	CHECK(dumps_as("def f():\n  x = yield\n", "def f()\n  assign (name x) = (yield)\n"));
	CHECK(dumps_as("def f():\n  global x\n", "def f()\n  global x\n"));
	CHECK(dumps_as("del x\n", "del (name x)\n"));
	CHECK(expr_dumps_as("[x for x in y]", "(listcomp (name x) (for (name x) (name y)))"));
	CHECK(expr_dumps_as("{k: v for k in y}", "(dictcomp (name k) (name v) (for (name k) (name y)))"));
	CHECK(expr_dumps_as("f(x for x in y)", "(call (name f) (genexp (name x) (for (name x) (name y))))"));
	CHECK(expr_dumps_as("{1, 2}", "(set (int 1) (int 2))"));
	CHECK(expr_dumps_as("f(*a, **k)", "(call (name f) (star (name a)) (dstar (name k)))"));
	CHECK(dumps_as("a, *b = c\n", "assign (tuple (name a) (star (name b))) = (name c)\n"));
	CHECK(dumps_as("if (n := 10) > 5: pass\n", "if (compare (named (name n) (int 10)) > (int 5))\n  pass\n"));
	CHECK(dumps_as("for x in y:\n  pass\nelse:\n  pass\n", "for (name x) in (name y)\n  pass\nelse\n  pass\n"));
	CHECK(dumps_as("def f():\n  def g(): pass\n", "def f()\n  def g()\n    pass\n"));
	CHECK(dumps_as("def f(a, /, b, *c, d, **e): pass\n", "def f(a, /, b, *c, d, **e)\n  pass\n"));
	CHECK(dumps_as("def f(a, *, b): pass\n", "def f(a, *, b)\n  pass\n"));
	CHECK(dumps_as("from . import x\n", "from . import x\n"));
	CHECK(dumps_as("from x import *\n", "from x import *\n"));
	CHECK(expr_dumps_as("...", "(ellipsis)"));
	CHECK(expr_dumps_as("{**a}", "(dict (dstar (name a)))"));
	CHECK(expr_dumps_as("2j", "(imag 2.0)"));
	CHECK(expr_dumps_as("99999999999999999999", "(int big)"));
	CHECK(expr_dumps_as("f'{x!r:>{w}}'", "(fstring (fvalue (name x) !r (fstring \">\" (fvalue (name w)))))"));
	/* what stays a syntax error in Python stays one here */
	ERR("@dec\nx = 1\n", "invalid syntax", 2, 1);
	ERR("def f(*, **k): pass\n", "named arguments must follow bare *", 1, 7);
	ERR("f(x for x in y, 1)\n", "Generator expression must be parenthesized", 1, 3);
	ERR("x = b'a' 'b'\n", "cannot mix bytes and nonbytes literals", 1, 10);
	ERR("x = f'{a!x}'\n", "f-string: invalid conversion character 'x': expected 's', 'r', or 'a'", 1, 10);
}

static void test_limits(void)
{
	char *src = malloc(300000);
	/* 150 nested parentheses are fine; 250 are too deep */
	strcpy(src, "x = ");
	size_t n = strlen(src);
	for (int i = 0; i < 150; i++)
		src[n++] = '(';
	src[n++] = '1';
	for (int i = 0; i < 150; i++)
		src[n++] = ')';
	src[n] = 0;
	char *got = parse_dump(src, (uint32_t)n);
	CHECK(got != NULL);
	free(got);
	n = 4;
	for (int i = 0; i < 250; i++)
		src[n++] = '(';
	src[n] = 0;
	CHECK(fails_with(src, (uint32_t)n, "expression too deeply nested (more than 200 open brackets)", 1, 205));
	/* long unary chains and deep blocks fail cleanly instead of overflowing the stack */
	n = 4;
	for (int i = 0; i < 100000; i++)
		src[n++] = '-';
	src[n++] = '1';
	src[n] = 0;
	CHECK(fails_with(src, (uint32_t)n, "expression too deeply nested (more than 200 levels)", 1, 205));
	n = 0;
	for (int d = 0; d < 300 && n < 250000; d++) {
		for (int i = 0; i < d; i++)
			src[n++] = ' ';
		memcpy(src + n, "if x:\n", 6);
		n += 6;
	}
	src[n] = 0;
	CHECK(fails_with(src, (uint32_t)n, "expression too deeply nested (more than 200 levels)", 201, 204));
	/* long flat chains are not nesting */
	n = 0;
	memcpy(src, "x = a", 5);
	n = 5;
	for (int i = 0; i < 20000; i++) {
		memcpy(src + n, " + b.c[1](2)", 12);
		n += 12;
	}
	src[n] = 0;
	got = parse_dump(src, (uint32_t)n);
	CHECK(got != NULL);
	free(got);
	n = 0;
	memcpy(src, "if a: pass\n", 11);
	n = 11;
	for (int i = 0; i < 10000; i++) {
		memcpy(src + n, "elif b: pass\n", 13);
		n += 13;
	}
	src[n] = 0;
	got = parse_dump(src, (uint32_t)n);
	CHECK(got != NULL);
	free(got);
	free(src);
}

static void test_op_names(void)
{
	CHECK(!strcmp(ast_binop_str(AST_FLOORDIV), "//"));
	CHECK(!strcmp(ast_binop_str(AST_MATMUL), "@"));
	CHECK(!strcmp(ast_unop_str(AST_UNOT), "not"));
	CHECK(!strcmp(ast_unop_str(AST_UINVERT), "~"));
	CHECK(!strcmp(ast_cmpop_str(AST_NOTIN), "not in"));
	CHECK(!strcmp(ast_cmpop_str(AST_ISNOT), "is not"));
	CHECK(!strcmp(ast_cmpop_str(AST_LE), "<="));
}

int main(void)
{
	test_atoms();
	test_precedence();
	test_calls();
	test_statements();
	test_syntax_errors();
	test_host_python();
	test_limits();
	test_op_names();
	return test_result("test_parse");
}
