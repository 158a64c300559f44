/* test_ir.c: the tile IR core: hash-consed types, attributes, the builder, the printer and
 * parser (print -> parse -> print must be byte-identical), and the verifier's diagnostics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "test.h"

/* ---- fixture: one compilation with diagnostics collected into a buffer ----------------- */

typedef struct fixture {
	arena *a;
	strtab *names;
	diag_engine *d;
	ir_context *c;
	strbuf diags;
} fixture;

static void collect(void *user, const tilecc_diagnostic *dg)
{
	strbuf_puts((strbuf *)user, dg->rendered);
}

static void fx_init(fixture *f)
{
	memset(f, 0, sizeof *f);
	f->a = arena_create();
	f->names = strtab_create(f->a);
	f->d = diag_create(f->a, collect, &f->diags);
	f->c = ir_context_create(f->a, f->names);
	ir_context_set_diag(f->c, f->d);
}

static void fx_free(fixture *f)
{
	strbuf_free(&f->diags);
	strtab_destroy(f->names);
	arena_destroy(f->a);
}

static const char *diags(fixture *f)
{
	return f->diags.data ? f->diags.data : "";
}

static char *print(const ir_module *m, unsigned flags)
{
	strbuf b = {0};
	ir_print_module(&b, m, flags);
	return strbuf_take(&b, NULL);
}

static ir_module *parse(fixture *f, const char *name, const char *text)
{
	uint32_t file = diag_add_source(f->d, name, text, (uint32_t)strlen(text));
	return ir_parse_module(f->c, f->d, file, text, (uint32_t)strlen(text));
}

/* Prints m, parses the text back in a fresh context and prints again: the texts must be
 * equal and both modules must verify. */
static void check_roundtrip(const ir_module *m, unsigned flags)
{
	char *t1 = print(m, flags);
	fixture g;
	fx_init(&g);
	ir_module *m2 = parse(&g, "roundtrip.tir", t1);
	CHECK(m2);
	if (m2) {
		CHECK(ir_verify_module(m2, g.d) == 0);
		char *t2 = print(m2, flags);
		CHECK(strcmp(t1, t2) == 0);
		if (strcmp(t1, t2))
			fprintf(stderr, "--- first\n%s--- second\n%s", t1, t2);
		free(t2);
	}
	if (g.diags.data)
		fprintf(stderr, "%s", g.diags.data);
	fx_free(&g);
	free(t1);
}

/* ---- types -------------------------------------------------------------------------------- */

static void test_types(void)
{
	fixture f;
	fx_init(&f);
	const ir_type *f32 = ir_type_scalar(f.c, IR_F32), *i1 = ir_type_scalar(f.c, IR_I1);
	int64_t s1[2] = {64, 32}, s2[2] = {64, 32};
	const ir_type *t1 = ir_type_tile(f.c, f32, 2, s1), *t2 = ir_type_tile(f.c, f32, 2, s2);
	CHECK(t1 == t2);
	CHECK(t1->shape != s1); /* the context keeps its own copy */
	CHECK(ir_type_ptr(f.c, f32, 1) == ir_type_ptr(f.c, f32, 1));
	CHECK(ir_type_ptr(f.c, f32, 1) != ir_type_ptr(f.c, f32, 3));
	CHECK(ir_type_with_elem(f.c, t1, i1) == ir_type_tile(f.c, i1, 2, s1));
	CHECK(ir_type_with_elem(f.c, f32, i1) == i1);
	CHECK(ir_type_tile_layout(f.c, f32, 2, s1, "blocked<{a = [1, 2]}>") ==
	      ir_type_tile_layout(f.c, f32, 2, s1, "blocked<{a = [1, 2]}>"));
	CHECK(ir_type_tile_layout(f.c, f32, 2, s1, "mma") != t1);
	CHECK(ir_type_numel(t1) == 2048 && ir_type_numel(f32) == 1);
	CHECK(ir_type_is_int(i1) && !ir_type_is_signed(i1));
	CHECK(ir_type_is_signed(ir_type_scalar(f.c, IR_I8)));
	CHECK(!ir_type_is_signed(ir_type_scalar(f.c, IR_U32)));
	CHECK(ir_type_is_float(ir_type_scalar(f.c, IR_BF16)));
	CHECK(ir_type_bits(ir_type_scalar(f.c, IR_F8E5)) == 8);
	CHECK(ir_type_bits(ir_type_ptr(f.c, f32, 1)) == 64);
	CHECK(ir_type_elem(t1) == f32 && !ir_type_is_scalar(t1));
	/* many distinct types force the table to grow; each must still intern to itself */
	const ir_type *all[500];
	for (int i = 0; i < 500; i++) {
		int64_t s = i + 1;
		all[i] = ir_type_tile(f.c, f32, 1, &s);
	}
	for (int i = 0; i < 500; i++) {
		int64_t s = i + 1;
		CHECK(ir_type_tile(f.c, f32, 1, &s) == all[i]);
	}
	strbuf b = {0};
	ir_type_print(&b, ir_type_ptr(f.c, ir_type_tile(f.c, ir_type_scalar(f.c, IR_F16), 2, s1), 3));
	strbuf_putc(&b, ' ');
	ir_type_print(&b, ir_type_tile(f.c, ir_type_ptr(f.c, f32, 1), 2, s1));
	strbuf_putc(&b, ' ');
	ir_type_print(&b, ir_type_tile_layout(f.c, f32, 2, s1, "mma"));
	CHECK(!strcmp(b.data, "ptr<tile<64x32xf16>, 3> tile<64x32xptr<f32>> tile<64x32xf32, #mma>"));
	strbuf_free(&b);
	fx_free(&f);
}

/* ---- attributes and lists ------------------------------------------------------------------ */

static void test_attrs_and_lists(void)
{
	fixture f;
	fx_init(&f);
	const ir_type *i32 = ir_type_scalar(f.c, IR_I32);
	ir_op *op = ir_op_create(f.c, IR_OP_MAKE_RANGE, 0, NULL, 1, &i32, SRCLOC_NONE);
	ir_op_set_int(f.c, op, "start", 0);
	ir_op_set_int(f.c, op, "end", 8);
	ir_op_set_str(f.c, op, "b", "x");
	ir_op_set_int(f.c, op, "end", 16); /* replaces */
	CHECK(op->nattrs == 3);
	CHECK(!strcmp(op->attrs[0].name, "b") && !strcmp(op->attrs[1].name, "end") &&
	      !strcmp(op->attrs[2].name, "start"));
	CHECK(ir_op_int(op, "end", -1) == 16 && ir_op_int(op, "nope", -1) == -1);
	char name[8] = "start";
	CHECK(ir_op_attr(op, name) == &op->attrs[2]);
	int64_t v[3] = {2, 0, 1};
	ir_op_set_ints(f.c, op, "order", v, 3);
	v[0] = 9; /* the attribute holds a copy */
	CHECK(ir_op_attr(op, "order")->ints.v[0] == 2);

	/* insert, remove and replace uses */
	ir_module *m = ir_module_create(f.c);
	const ir_type *ps[2] = {i32, i32};
	const char *pn[2] = {"a", "b"};
	ir_func *fn = ir_func_create(m, "g", 2, ps, pn, SRCLOC_NONE);
	ir_builder b = {f.c, fn->body, NULL, SRCLOC_NONE};
	ir_value *a = fn->body->args[0], *bb = fn->body->args[1];
	ir_value *x = ir_build2(&b, IR_OP_ADDI, i32, a, bb);
	ir_value *y = ir_build2(&b, IR_OP_MULI, i32, x, x);
	ir_build(&b, IR_OP_RETURN, 0, NULL, 0, NULL);
	b.before = y->def;
	ir_value *z = ir_build2(&b, IR_OP_SUBI, i32, a, a);
	CHECK(fn->body->first == x->def && x->def->next == z->def && z->def->next == y->def);
	ir_replace_uses_in(fn->body, x, z);
	CHECK(y->def->operands[0] == z && y->def->operands[1] == z);
	ir_op_erase(x->def);
	CHECK(fn->body->first == z->def && !x->def->parent);
	ir_func_set_int(f.c, fn, "num_warps", 8);
	CHECK(ir_func_attr(fn, "num_warps")->i == 8);
	CHECK(ir_verify_module(m, f.d) == 0);
	char *t = print(m, 0);
	CHECK(!strcmp(t, "func @g(%a: i32, %b: i32) attributes {num_warps = 8} {\n"
			 "  %0 = subi %a, %a : i32\n"
			 "  %1 = muli %0, %0 : i32\n"
			 "  return\n"
			 "}\n"));
	free(t);
	strbuf ob = {0};
	ir_print_op(&ob, y->def, 0);
	CHECK(!strcmp(ob.data, "%1 = muli %0, %0 : i32\n"));
	strbuf_free(&ob);
	CHECK(ir_opcode_from_name("addi") == IR_OP_ADDI && ir_opcode_from_name("nope") == -1);
	fx_free(&f);
}

/* ---- a kernel built with the builder ------------------------------------------------------ */

/* vadd with a loop, an if, a reduce and a while: every region kind. */
static ir_module *build_kernel(fixture *f)
{
	ir_context *c = f->c;
	const ir_type *i32 = ir_type_scalar(c, IR_I32), *f32 = ir_type_scalar(c, IR_F32);
	const ir_type *i1 = ir_type_scalar(c, IR_I1), *pf32 = ir_type_ptr(c, f32, 1);
	int64_t n = 1024;
	const ir_type *ti = ir_type_tile(c, i32, 1, &n), *tf = ir_type_tile(c, f32, 1, &n);
	const ir_type *tp = ir_type_tile(c, pf32, 1, &n), *tb = ir_type_tile(c, i1, 1, &n);
	ir_module *m = ir_module_create(c);
	const ir_type *pt[3] = {pf32, pf32, i32};
	const char *pn[3] = {"x_ptr", "out", "n"};
	uint32_t file = diag_add_source(f->d, "vadd.py", NULL, 0);
	ir_func *fn = ir_func_create(m, "vadd", 3, pt, pn, (srcloc){file, 3, 1, 0});
	fn->params[0].divisibility = 16;
	fn->params[2].equal_to_1 = true;
	ir_func_set_int(c, fn, "num_warps", 4);
	ir_builder b = {c, fn->body, NULL, {file, 4, 5, 0}};
	ir_value *x = fn->body->args[0], *out = fn->body->args[1], *nn = fn->body->args[2];

	ir_value *pid = ir_build0(&b, IR_OP_PROGRAM_ID, i32);
	ir_op_set_int(c, pid->def, "axis", 0);
	pid->name = strtab_cstr(f->names, "pid");
	ir_value *r = ir_build0(&b, IR_OP_MAKE_RANGE, ti);
	ir_op_set_int(c, r->def, "start", 0);
	ir_op_set_int(c, r->def, "end", 1024);
	ir_value *offs = ir_build2(&b, IR_OP_ADDI, ti, ir_build1(&b, IR_OP_SPLAT, ti, pid), r);
	offs->name = strtab_cstr(f->names, "offs");
	ir_value *mask = ir_build2(&b, IR_OP_CMPI, tb, offs, ir_build1(&b, IR_OP_SPLAT, ti, nn));
	ir_op_set_str(c, mask->def, "pred", "lt");
	ir_value *ptrs = ir_build2(&b, IR_OP_ADDPTR, tp, ir_build1(&b, IR_OP_SPLAT, tp, x), offs);
	ir_value *v = ir_build2(&b, IR_OP_LOAD, tf, ptrs, mask);
	v->name = strtab_cstr(f->names, "x");

	/* for %i = 0 to n step 1 iter_args(%acc = v) */
	ir_value *lb = ir_const_int(&b, i32, 0), *step = ir_const_int(&b, i32, 1);
	ir_value *fops[4] = {lb, nn, step, v};
	ir_op *loop = ir_build(&b, IR_OP_FOR, 4, fops, 1, &tf);
	loop->results[0].name = strtab_cstr(f->names, "acc");
	ir_op_set_int(c, loop, "num_stages", 3);
	ir_block *body = loop->regions[0];
	ir_value *iv = ir_block_add_arg(c, body, i32, "i");
	ir_value *acc = ir_block_add_arg(c, body, tf, "acc");
	ir_builder lb2 = {c, body, NULL, b.loc};
	ir_value *two = ir_const_float(&lb2, tf, 2.5);
	ir_value *acc2 = ir_build2(&lb2, IR_OP_MULF, tf, acc, two);
	acc2->name = strtab_cstr(f->names, "x"); /* clashes with the load: prints %x_1 */
	(void)iv;
	ir_build(&lb2, IR_OP_YIELD, 1, &acc2, 0, NULL);

	/* sum = reduce(acc, axis 0) */
	ir_value *accr = &loop->results[0];
	ir_op *red = ir_build(&b, IR_OP_REDUCE, 1, &accr, 1, &f32);
	ir_op_set_int(c, red, "axis", 0);
	ir_value *l = ir_block_add_arg(c, red->regions[0], f32, "l");
	ir_value *rr = ir_block_add_arg(c, red->regions[0], f32, "r");
	ir_builder rb = {c, red->regions[0], NULL, b.loc};
	ir_value *s = ir_build2(&rb, IR_OP_ADDF, f32, l, rr);
	ir_build(&rb, IR_OP_YIELD, 1, &s, 0, NULL);

	/* if n > 0 { yield sum } else { yield -inf } */
	ir_value *cond = ir_build2(&b, IR_OP_CMPI, i1, nn, lb);
	ir_op_set_str(c, cond->def, "pred", "gt");
	ir_op *ifop = ir_build(&b, IR_OP_IF, 1, &cond, 1, &f32);
	ir_value *sum = &red->results[0];
	ir_builder tb1 = {c, ifop->regions[0], NULL, b.loc};
	ir_build(&tb1, IR_OP_YIELD, 1, &sum, 0, NULL);
	ir_builder tb2 = {c, ifop->regions[1], NULL, b.loc};
	ir_value *ninf = ir_const_float(&tb2, f32, -INFINITY);
	ir_build(&tb2, IR_OP_YIELD, 1, &ninf, 0, NULL);

	/* while (w < n) w = w + 1 */
	ir_op *wh = ir_build(&b, IR_OP_WHILE, 1, &lb, 1, &i32);
	ir_value *w0 = ir_block_add_arg(c, wh->regions[0], i32, "w");
	ir_builder wb = {c, wh->regions[0], NULL, b.loc};
	ir_value *wc = ir_build2(&wb, IR_OP_CMPI, i1, w0, nn);
	ir_op_set_str(c, wc->def, "pred", "lt");
	ir_value *cops[2] = {wc, w0};
	ir_build(&wb, IR_OP_CONDITION, 2, cops, 0, NULL);
	ir_value *w1 = ir_block_add_arg(c, wh->regions[1], i32, "w");
	ir_builder ab = {c, wh->regions[1], NULL, b.loc};
	ir_value *w2 = ir_build2(&ab, IR_OP_ADDI, i32, w1, step);
	ir_build(&ab, IR_OP_YIELD, 1, &w2, 0, NULL);

	ir_value *res = ir_build1(&b, IR_OP_SPLAT, tf, &ifop->results[0]);
	ir_value *optrs = ir_build2(&b, IR_OP_ADDPTR, tp, ir_build1(&b, IR_OP_SPLAT, tp, out), offs);
	ir_value *sops[3] = {optrs, res, mask};
	ir_build(&b, IR_OP_STORE, 3, sops, 0, NULL);
	ir_op *as = ir_build(&b, IR_OP_ASSERT, 1, &cond, 0, NULL);
	ir_op_set_str(c, as, "msg", "n \"must\" be\tpositive\n");
	ir_build(&b, IR_OP_RETURN, 0, NULL, 0, NULL);
	return m;
}

static void test_builder_roundtrip(void)
{
	fixture f;
	fx_init(&f);
	ir_module *m = build_kernel(&f);
	CHECK(ir_verify_module(m, f.d) == 0);
	CHECK(!f.diags.len);
	if (f.diags.len)
		fprintf(stderr, "%s", diags(&f));
	char *t = print(m, 0);
	CHECK(strstr(t, "func @vadd(%x_ptr: ptr<f32> {divisibility = 16}, %out: ptr<f32>, "
			"%n: i32 {equal_to_1}) attributes {num_warps = 4} {\n"));
	CHECK(strstr(t, "  %pid = program_id {axis = 0} : i32\n"));
	CHECK(strstr(t, "  %0 = make_range {end = 1024, start = 0} : tile<1024xi32>\n"));
	CHECK(strstr(t, "  %acc = for %6, %n, %7, %x {num_stages = 3} : tile<1024xf32> {\n"
			"  ^(%i: i32, %acc_1: tile<1024xf32>):\n"
			"    %8 = constant {value = 2.5} : tile<1024xf32>\n"
			"    %x_1 = mulf %acc_1, %8 : tile<1024xf32>\n"
			"    yield %x_1\n"
			"  }\n"));
	CHECK(strstr(t, "} {\n    %13 = constant {value = -inf} : f32\n"));
	CHECK(strstr(t, "assert %11 {msg = \"n \\\"must\\\" be\\tpositive\\n\"}\n"));
	free(t);
	check_roundtrip(m, 0);
	char *tl = print(m, IR_PRINT_LOCS);
	CHECK(strstr(tl, "  %pid = program_id {axis = 0} : i32 loc(\"vadd.py\":4:5)\n"));
	CHECK(strstr(tl, "} loc(\"vadd.py\":3:1)\n"));
	free(tl);
	check_roundtrip(m, IR_PRINT_LOCS);
	fx_free(&f);
}

/* A long function with deep nesting and many clashing name hints. */
static void test_large_roundtrip(void)
{
	fixture f;
	fx_init(&f);
	ir_context *c = f.c;
	const ir_type *i32 = ir_type_scalar(c, IR_I32), *f64 = ir_type_scalar(c, IR_F64);
	ir_module *m = ir_module_create(c);
	const char *pn[2] = {"a", "x_1"};
	const ir_type *pt[2] = {i32, i32};
	ir_func *fn = ir_func_create(m, "big", 2, pt, pn, SRCLOC_NONE);
	ir_builder b = {c, fn->body, NULL, SRCLOC_NONE};
	ir_value *cur = fn->body->args[0];
	static const char *hints[] = {"x", "x_1", NULL, "x", "0", "a b", "x_2", NULL};
	for (int i = 0; i < 3000; i++) {
		cur = ir_build2(&b, i % 3 ? IR_OP_ADDI : IR_OP_MULI, i32, cur, fn->body->args[1]);
		const char *h = hints[i % 8];
		cur->name = h ? strtab_cstr(f.names, h) : NULL;
		if (i % 500 == 0) {
			ir_value *ops[4] = {cur, cur, cur, cur};
			ir_op *lp = ir_build(&b, IR_OP_FOR, 4, ops, 1, &i32);
			ir_value *iv = ir_block_add_arg(c, lp->regions[0], i32, "x");
			ir_value *it = ir_block_add_arg(c, lp->regions[0], i32, NULL);
			ir_builder ib = {c, lp->regions[0], NULL, SRCLOC_NONE};
			ir_value *y = ir_build2(&ib, IR_OP_ADDI, i32, iv, it);
			ir_value *d = ir_const_float(&ib, f64, 1.0 / (i + 3));
			d->name = strtab_cstr(f.names, "x");
			ir_build(&ib, IR_OP_YIELD, 1, &y, 0, NULL);
			cur = &lp->results[0];
		}
	}
	ir_build(&b, IR_OP_RETURN, 0, NULL, 0, NULL);
	CHECK(ir_verify_module(m, f.d) == 0);
	char *t = print(m, 0);
	CHECK(strstr(t, "%a_b = "));
	CHECK(strstr(t, "%x_1_1 = ")); /* hint x_1 clashes with the parameter */
	free(t);
	check_roundtrip(m, 0);
	fx_free(&f);
}

/* Doubles print in the shortest text that reads back to the same bits. */
static void test_floats(void)
{
	static const double vals[] = {0.1, 1.0 / 3, -0.0, 0.0, 1e-300, 5e-324, 1e16, 1.5e300,
				      123456789012345678.0, -2.5, 3.0, 1e21, INFINITY, -INFINITY};
	fixture f;
	fx_init(&f);
	ir_context *c = f.c;
	const ir_type *f64 = ir_type_scalar(c, IR_F64);
	ir_module *m = ir_module_create(c);
	ir_func *fn = ir_func_create(m, "fl", 0, NULL, NULL, SRCLOC_NONE);
	ir_builder b = {c, fn->body, NULL, SRCLOC_NONE};
	int n = (int)(sizeof vals / sizeof vals[0]);
	for (int i = 0; i < n; i++)
		ir_const_float(&b, f64, vals[i]);
	ir_value *nan = ir_const_float(&b, f64, NAN);
	ir_op_set_float(c, nan->def, "other", 0.25);
	ir_build(&b, IR_OP_RETURN, 0, NULL, 0, NULL);
	char *t = print(m, 0);
	CHECK(strstr(t, "{value = 0.1}") && strstr(t, "{value = -0.0}") &&
	      strstr(t, "{value = 3.0}") && strstr(t, "{value = 1e+21}") &&
	      strstr(t, "{value = 5e-324}") && strstr(t, "{other = 0.25, value = nan}"));
	fixture g;
	fx_init(&g);
	ir_module *m2 = parse(&g, "fl.tir", t);
	CHECK(m2);
	int i = 0;
	for (ir_op *op = m2 ? m2->funcs->body->first : NULL; op && i < n; op = op->next, i++) {
		double d = ir_op_attr(op, "value")->f;
		CHECK(memcmp(&d, &vals[i], sizeof d) == 0);
	}
	CHECK(i == n);
	fx_free(&g);
	free(t);
	fx_free(&f);
}

/* ---- parser ------------------------------------------------------------------------------- */

static void test_parse_forms(void)
{
	const char *text =
	    "// a comment\n"
	    "func @k(%p: ptr<f16, 3>, %q: ptr<tile<64x64xf16>>, %t: tile<4x8xf32, #blocked<{s = [1, 4]}>>) {\n"
	    "  %0 = load %q {boundary_check = [0, 1], padding = \"zero\"} : tile<64x64xf16>\n"
	    "  %c = constant {flag, ty = tile<2xi8>, value = 7} : i32 // trailing\n"
	    "  %r = reduce %t {axis = 1} : tile<4xf32, #blocked<{s = [1, 4]}>> {\n"
	    "  ^(%a: f32, %b: f32):\n"
	    "    %s = maxnumf %a, %b : f32\n"
	    "    yield %s\n"
	    "  }\n"
	    "  return\n"
	    "}\n";
	fixture f;
	fx_init(&f);
	ir_module *m = parse(&f, "forms.tir", text);
	CHECK(m);
	if (!m) {
		fprintf(stderr, "%s", diags(&f));
		fx_free(&f);
		return;
	}
	ir_func *fn = m->funcs;
	CHECK(fn->body->args[0]->type->addrspace == 3);
	CHECK(fn->body->args[1]->type->elem->kind == IR_TILE);
	CHECK(!strcmp(fn->body->args[2]->type->layout, "blocked<{s = [1, 4]}>"));
	ir_op *c = fn->body->first->next;
	CHECK(ir_op_attr(c, "flag")->kind == IR_ATTR_BOOL && ir_op_attr(c, "flag")->i == 1);
	CHECK(ir_op_attr(c, "ty")->type->kind == IR_TILE);
	/* the layout of an explicit type does not matter to the reduce rule's shape check, but
	 * a layout-free result type is what the rule expects */
	ir_verify_module(m, f.d);
	char *t = print(m, 0);
	CHECK(strstr(t, "%c = constant {flag, ty = tile<2xi8>, value = 7} : i32\n"));
	CHECK(strstr(t, "%0 = load %q {boundary_check = [0, 1], padding = \"zero\"}"));
	free(t);
	fx_free(&f);
}

/* Parses text that must fail and checks the first diagnostic's start. */
static void expect_parse_error(const char *text, const char *want)
{
	fixture f;
	fx_init(&f);
	ir_module *m = parse(&f, "bad.tir", text);
	CHECK(!m);
	CHECK(strncmp(diags(&f), want, strlen(want)) == 0);
	if (strncmp(diags(&f), want, strlen(want)))
		fprintf(stderr, "want: %s\ngot: %s\n", want, diags(&f));
	fx_free(&f);
}

static void test_parse_errors(void)
{
	expect_parse_error("func @f(%a: i32) {\n  %x = addi %a, %b : i32\n  return\n}\n",
			   "bad.tir:2:17: error: use of undefined value '%b'");
	expect_parse_error("func @f(%a: i32) {\n  %x = foo %a : i32\n}\n",
			   "bad.tir:2:8: error: unknown op 'foo'");
	expect_parse_error("func @f(%a: i32) {\n  %x = addi %a, %a i32\n}\n",
			   "bad.tir:2:20: error: expected ':'");
	expect_parse_error("func @f(%a: i32) {\n  %x, %y = addi %a, %a : i32\n}\n",
			   "bad.tir:2:3: error: expected 2 results, op 'addi' has 1");
	expect_parse_error("func @f(%a: i32) {\n  %a = addi %a, %a : i32\n}\n",
			   "bad.tir:2:3: error: redefinition of '%a'");
	expect_parse_error("func @f(%a: i32) {\n  %x = addi %a, %a : tile<4xi33>\n}\n",
			   "bad.tir:2:29: error: unknown type 'i33'");
	expect_parse_error("func @f(%a: i32) {\n  %x = addi %a, %a : i32, i32\n}\n",
			   "bad.tir:2:20: error: expected 1 result type, got 2");
	/* a value defined in a region is not visible after it */
	expect_parse_error("func @f(%a: i32) {\n  %r = if %a : i32 {\n    %x = addi %a, %a : i32\n"
			   "    yield %x\n  } {\n    yield %a\n  }\n  %y = addi %x, %a : i32\n}\n",
			   "bad.tir:8:13: error: use of undefined value '%x'");
	expect_parse_error("func @f() {\n  %x = constant {value = 99999999999999999999} : i64\n}\n",
			   "bad.tir:2:26: error: integer out of range");
	expect_parse_error("func @f() {\n  return\n", "bad.tir:3:1: error: expected '}'");
	expect_parse_error("func @f() {\n  %r = if %q {\n", "bad.tir:2:11: error: use of undefined");
	expect_parse_error("fun @f() {\n}\n", "bad.tir:1:1: error: expected 'func'");
	expect_parse_error("func @f() {\n  return $\n}\n",
			   "bad.tir:2:10: error: unexpected character '$'");
}

/* Random mutations of a valid module must never crash the parser or the verifier. */
static void test_fuzz(void)
{
	fixture f0;
	fx_init(&f0);
	char *base = print(build_kernel(&f0), IR_PRINT_LOCS);
	fx_free(&f0);
	size_t n = strlen(base);
	static const char pool[] = "%@{}()[]<>,:=^#\"\\x0123456789-. \nabcdefiptrlnu";
	unsigned seed = 12345;
	for (int iter = 0; iter < 3000; iter++) {
		char *t = malloc(n + 1);
		memcpy(t, base, n + 1);
		int edits = 1 + iter % 4;
		for (int e = 0; e < edits; e++) {
			seed = seed * 1103515245u + 12345u;
			size_t pos = (seed >> 8) % n;
			seed = seed * 1103515245u + 12345u;
			t[pos] = pool[(seed >> 8) % (sizeof pool - 1)];
		}
		size_t len = iter % 7 == 0 ? (seed >> 4) % n : n; /* also truncate */
		fixture f;
		fx_init(&f);
		uint32_t file = diag_add_source(f.d, "fuzz.tir", t, (uint32_t)len);
		ir_module *m = ir_parse_module(f.c, f.d, file, t, (uint32_t)len);
		if (m && ir_verify_module(m, f.d) == 0)
			check_roundtrip(m, IR_PRINT_LOCS);
		else if (m) {
			char *p = print(m, 0); /* invalid IR must still print */
			free(p);
		}
		fx_free(&f);
		free(t);
	}
	free(base);
}

/* ---- verifier ----------------------------------------------------------------------------- */

static void expect_verify_error(const char *text, const char *want)
{
	fixture f;
	fx_init(&f);
	ir_module *m = parse(&f, "v.tir", text);
	CHECK(m);
	if (m)
		CHECK(ir_verify_module(m, f.d) > 0);
	CHECK(strstr(diags(&f), want) != NULL);
	if (!strstr(diags(&f), want))
		fprintf(stderr, "want: %s\ngot: %s\n", want, diags(&f));
	fx_free(&f);
}

static void test_verify_text(void)
{
	expect_verify_error("func @f(%a: i32, %b: i64) {\n  %x = addi %a, %b : i32\n  return\n}\n",
			    "v.tir:2:8: error: 'addi' op operands have different types: 'i32' and 'i64'");
	expect_verify_error("func @f(%a: f32) {\n  %x = addi %a, %a : f32\n  return\n}\n",
			    "v.tir:2:8: error: 'addi' op expects integer operands, got 'f32'");
	expect_verify_error("func @f(%a: i32) {\n  %x = cmpi %a, %a {pred = \"slt\"} : i1\n  return\n}\n",
			    "'cmpi' op invalid predicate \"slt\"");
	expect_verify_error("func @f(%a: i32) {\n  %x = cmpi %a, %a {pred = \"lt\"} : i32\n  return\n}\n",
			    "'cmpi' op result must be i1 of the operands' shape");
	expect_verify_error("func @f() {\n  %x = make_range {end = 12, start = 0} : tile<12xi32>\n  return\n}\n",
			    "'make_range' op extent 12 is not a power of two");
	expect_verify_error("func @f(%a: i32) {\n  %x = addi %a, %a : i32\n}\n",
			    "v.tir:2:8: error: function '@f' must end with 'return'");
	expect_verify_error("func @f(%a: i32) {\n  return\n  %x = addi %a, %a : i32\n  return\n}\n",
			    "'return' op must be the last op in its block");
	expect_verify_error("func @f(%a: i32) {\n  %x = for %a, %a, %a, %a : i32 {\n  ^(%i: i32, %v: i32):\n"
			    "    %y = addi %v, %i : i32\n  }\n  return\n}\n",
			    "'for' op region 1 must end with 'yield'");
	expect_verify_error("func @f(%a: i32, %b: f32) {\n  %x = for %a, %a, %a, %a : i32 {\n  ^(%i: i32, %v: i32):\n"
			    "    yield %b\n  }\n  return\n}\n",
			    "'for' op region 1 yields value 0 of type 'f32', expected 'i32'");
	expect_verify_error("func @f(%a: i1, %b: f32) {\n  %x = if %a : f32 {\n    yield %b\n  } {\n    yield\n  }\n  return\n}\n",
			    "'if' op region 2 yields 0 values, expected 1");
	expect_verify_error("func @f(%t: tile<4x8xf32>) {\n  %x = reduce %t {axis = 1} : tile<8xf32> {\n"
			    "  ^(%a: f32, %b: f32):\n    %s = addf %a, %b : f32\n    yield %s\n  }\n  return\n}\n",
			    "'reduce' op result 0 has type 'tile<8xf32>', expected 'tile<4xf32>'");
	expect_verify_error("func @f(%a: tile<16x32xf16>, %b: tile<16x32xf16>, %c: tile<16x32xf32>) {\n"
			    "  %x = dot %a, %b, %c : tile<16x32xf32>\n  return\n}\n",
			    "'dot' op shapes do not fit");
	expect_verify_error("func @f(%p: ptr<f32>, %m: tile<4xi1>) {\n  %x = load %p, %m : f32\n  return\n}\n",
			    "'load' op mask 'tile<4xi1>' must be i1 of the shape of 'ptr<f32>'");
	expect_verify_error("func @f(%a: tile<4x8xf32>) {\n  %x = trans %a {order = [0, 0]} : tile<8x4xf32>\n  return\n}\n",
			    "'trans' op order is not a permutation");
	expect_verify_error("func @f(%a: i32) {\n  %x = exti %a : i16\n  return\n}\n",
			    "'exti' op cannot convert 'i32' to 'i16'");
	expect_verify_error("func @f(%w: i32, %n: i32) {\n  %r = while %w : i32 {\n  ^(%a: i32):\n    yield %a\n"
			    "  } {\n  ^(%b: i32):\n    yield %b\n  }\n  return\n}\n",
			    "'while' op region 1 must end with 'condition'");
	expect_verify_error("func @f(%p: ptr<f32>, %a: i32, %b: i64) {\n"
			    "  %x = make_block_ptr %p, %a, %a, %b, %b, %a, %b {order = [1, 0]} : ptr<tile<16x16xf32>>\n"
			    "  return\n}\n",
			    "'make_block_ptr' op offset 1 must be i32, got 'i64'");
}

/* Bad IR made with the builder: dominance, missing operands, counts. */
static void test_verify_built(void)
{
	fixture f;
	fx_init(&f);
	ir_context *c = f.c;
	const ir_type *i32 = ir_type_scalar(c, IR_I32);
	uint32_t file = diag_add_source(f.d, "k.py", NULL, 0);
	ir_module *m = ir_module_create(c);
	ir_func *fn = ir_func_create(m, "bad", 1, &i32, NULL, (srcloc){file, 1, 1, 0});
	ir_builder b = {c, fn->body, NULL, {file, 2, 3, 0}};
	ir_value *a = fn->body->args[0];
	ir_value *x = ir_build2(&b, IR_OP_ADDI, i32, a, a);
	b.loc.line = 3;
	ir_value *y = ir_build2(&b, IR_OP_ADDI, i32, a, a);
	ir_op_set_operand(x->def, 1, y); /* used before its definition */
	b.loc.line = 4;
	ir_build(&b, IR_OP_ADDI, 1, &a, 1, &i32); /* one operand short */
	b.loc.line = 5;
	ir_build(&b, IR_OP_MULI, 2, NULL, 1, &i32); /* operands never set */
	b.loc.line = 6;
	ir_build(&b, IR_OP_RETURN, 0, NULL, 0, NULL);
	CHECK(ir_verify_module(m, f.d) == 4);
	const char *d = diags(&f);
	CHECK(strstr(d, "k.py:2:3: error: 'addi' op operand 1 is not defined before this use"));
	CHECK(strstr(d, "k.py:4:3: error: 'addi' op expects 2 operands, got 1"));
	CHECK(strstr(d, "k.py:5:3: error: 'muli' op operand 0 is missing"));
	CHECK(strstr(d, "k.py:5:3: error: 'muli' op operand 1 is missing"));
	char *t = print(m, 0); /* invalid IR still prints */
	CHECK(strstr(t, "%0 = addi %arg0") == NULL && strstr(t, "%1 = addi %0, %2"));
	free(t);
	fx_free(&f);
}

int main(void)
{
	test_types();
	test_attrs_and_lists();
	test_builder_roundtrip();
	test_large_roundtrip();
	test_floats();
	test_parse_forms();
	test_parse_errors();
	test_verify_text();
	test_verify_built();
	test_fuzz();
	return test_result("test_ir");
}
