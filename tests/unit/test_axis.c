/* test_axis.c: the axis analysis's API: axis_vector_width on the access patterns the backends
 * meet (aligned and unaligned pointers, masks, element sizes, 2-D tiles, transposed loads),
 * and axis_lookup's conservative answers. The per-op rules are covered by the lit tests
 * tests/lit/transforms/axis-info-*.tir. */
#include <string.h>

#include "ir/ir.h"
#include "test.h"
#include "transforms/axis_info.h"

static const char *const text =
    "func @f(%p: ptr<f32> {divisibility = 16}, %h: ptr<f16> {divisibility = 16},\n"
    "        %b: ptr<i8> {divisibility = 16}, %u: ptr<f32>, %d: ptr<f64> {divisibility = 16},\n"
    "        %n: i32 {divisibility = 16}, %n2: i32 {divisibility = 2}, %k: i32,\n"
    "        %s: i32 {divisibility = 16}) {\n"
    "  %r = make_range {end = 1024, start = 0} : tile<1024xi32>\n"
    "  %ns = splat %n : tile<1024xi32>\n"
    "  %n2s = splat %n2 : tile<1024xi32>\n"
    "  %ks = splat %k : tile<1024xi32>\n"
    "  %mask = cmpi %r, %ns {pred = \"lt\"} : tile<1024xi1>\n"
    "  %mask2 = cmpi %r, %n2s {pred = \"lt\"} : tile<1024xi1>\n"
    "  %maskk = cmpi %r, %ks {pred = \"lt\"} : tile<1024xi1>\n"
    "  %t = constant {value = 1} : i1\n"
    "  %ps = splat %p : tile<1024xptr<f32>>\n"
    "  %pp = addptr %ps, %r : tile<1024xptr<f32>>\n"
    "  %c3 = constant {value = 3} : tile<1024xi32>\n"
    "  %pp3 = addptr %pp, %c3 : tile<1024xptr<f32>>\n"
    "  %c2 = constant {value = 2} : tile<1024xi32>\n"
    "  %pp2 = addptr %pp, %c2 : tile<1024xptr<f32>>\n"
    "  %r2 = remi %r, %c2 : tile<1024xi32>\n"
    "  %pr2 = addptr %ps, %r2 : tile<1024xptr<f32>>\n"
    "  %hs = splat %h : tile<1024xptr<f16>>\n"
    "  %hp = addptr %hs, %r : tile<1024xptr<f16>>\n"
    "  %bs = splat %b : tile<1024xptr<i8>>\n"
    "  %bp = addptr %bs, %r : tile<1024xptr<i8>>\n"
    "  %us = splat %u : tile<1024xptr<f32>>\n"
    "  %up = addptr %us, %r : tile<1024xptr<f32>>\n"
    "  %ds = splat %d : tile<1024xptr<f64>>\n"
    "  %dp = addptr %ds, %r : tile<1024xptr<f64>>\n"
    "  %rows = make_range {end = 64, start = 0} : tile<64xi32>\n"
    "  %cols = make_range {end = 32, start = 0} : tile<32xi32>\n"
    "  %re = expand_dims %rows {axis = 1} : tile<64x1xi32>\n"
    "  %ss = splat %s : tile<64x1xi32>\n"
    "  %ro = muli %re, %ss : tile<64x1xi32>\n"
    "  %rb = broadcast %ro : tile<64x32xi32>\n"
    "  %ce = expand_dims %cols {axis = 0} : tile<1x32xi32>\n"
    "  %cb = broadcast %ce : tile<64x32xi32>\n"
    "  %off2 = addi %rb, %cb : tile<64x32xi32>\n"
    "  %hs2 = splat %h : tile<64x32xptr<f16>>\n"
    "  %hp2 = addptr %hs2, %off2 : tile<64x32xptr<f16>>\n"
    "  %tp = trans %hp2 {order = [1, 0]} : tile<32x64xptr<f16>>\n"
    "  %x = load %pp, %mask : tile<1024xf32>\n"
    "  return\n"
    "}\n";

static const ir_value *find_in(const ir_block *b, const char *name)
{
	for (int i = 0; i < b->nargs; i++)
		if (b->args[i]->name && !strcmp(b->args[i]->name, name))
			return b->args[i];
	for (const ir_op *op = b->first; op; op = op->next) {
		for (int i = 0; i < op->nresults; i++)
			if (op->results[i].name && !strcmp(op->results[i].name, name))
				return &op->results[i];
		for (int r = 0; r < op->nregions; r++) {
			const ir_value *v = find_in(op->regions[r], name);
			if (v)
				return v;
		}
	}
	return NULL;
}

static const ir_func *fn;

static const ir_value *V(const char *name)
{
	const ir_value *v = find_in(fn->body, name);
	if (!v)
		fprintf(stderr, "no value %%%s\n", name);
	return v;
}

int main(void)
{
	arena *a = arena_create();
	strtab *names = strtab_create(a);
	diag_engine *d = diag_create(a, NULL, NULL);
	ir_context *c = ir_context_create(a, names);
	uint32_t file = diag_add_source(d, "axis.tir", text, (uint32_t)strlen(text));
	ir_module *m = ir_parse_module(c, d, file, text, (uint32_t)strlen(text));
	CHECK(m && ir_verify_module(m, d) == 0);
	if (!m)
		return test_result("test_axis");
	fn = m->funcs;
	axis_info *ai = axis_analyze(a, fn);
	CHECK(ai != NULL);

	/* vadd: 1024 contiguous floats at a 16-byte aligned address */
	CHECK(axis_vector_width(ai, V("pp"), NULL, 16) == 4);
	CHECK(axis_vector_width(ai, V("pp"), V("mask"), 16) == 4);
	/* wider vectors than the 16-byte alignment are not allowed */
	CHECK(axis_vector_width(ai, V("pp"), NULL, 32) == 4);
	CHECK(axis_vector_width(ai, V("pp"), NULL, 8) == 2);
	CHECK(axis_vector_width(ai, V("pp"), NULL, 4) == 1);
	CHECK(axis_vector_width(ai, V("pp"), NULL, 2) == 1); /* smaller than one element */
	/* a mask constant only over pairs (n % 2 == 0), or unknown (any n) */
	CHECK(axis_vector_width(ai, V("pp"), V("mask2"), 16) == 2);
	CHECK(axis_vector_width(ai, V("pp"), V("maskk"), 16) == 1);
	/* a scalar mask covers everything */
	CHECK(axis_vector_width(ai, V("pp"), V("t"), 16) == 4);
	/* misaligned starts: 3 floats (4-byte aligned), 2 floats (8-byte aligned) */
	CHECK(axis_vector_width(ai, V("pp3"), NULL, 16) == 1);
	CHECK(axis_vector_width(ai, V("pp2"), NULL, 16) == 2);
	/* runs of 2 (r % 2) */
	CHECK(axis_vector_width(ai, V("pr2"), NULL, 16) == 2);
	/* element sizes */
	CHECK(axis_vector_width(ai, V("hp"), NULL, 16) == 8);
	CHECK(axis_vector_width(ai, V("bp"), NULL, 16) == 16);
	CHECK(axis_vector_width(ai, V("bp"), V("mask"), 64) == 16);
	CHECK(axis_vector_width(ai, V("dp"), NULL, 16) == 2);
	/* a pointer parameter without :16 */
	CHECK(axis_vector_width(ai, V("up"), NULL, 16) == 1);
	/* 2-D: rows of 32 contiguous halves, rows 16 elements apart (s % 16 == 0) */
	CHECK(axis_vector_width(ai, V("hp2"), NULL, 16) == 8);
	CHECK(axis_vector_width_dim(ai, V("hp2"), NULL, 1, 16) == 8);
	CHECK(axis_vector_width_dim(ai, V("hp2"), NULL, 0, 16) == 1);
	/* transposed: contiguous along the first dimension */
	CHECK(axis_vector_width(ai, V("tp"), NULL, 16) == 1);
	CHECK(axis_vector_width_dim(ai, V("tp"), NULL, 0, 16) == 8);
	CHECK(axis_vector_width_dim(ai, V("tp"), NULL, 2, 16) == 1);
	/* not a tile of pointers, no analysis */
	CHECK(axis_vector_width(ai, V("p"), NULL, 16) == 1);
	CHECK(axis_vector_width(ai, V("r"), NULL, 16) == 1);
	CHECK(axis_vector_width(NULL, V("pp"), NULL, 16) == 1);

	/* lookups */
	const axis_val *r = axis_lookup(ai, V("r"));
	CHECK(r->rank == 1 && r->contiguity[0] == 1024 && r->constancy[0] == 1 &&
	      r->divisibility[0] == AXIS_MAX_DIVISIBILITY);
	const axis_val *pp = axis_lookup(ai, V("pp"));
	CHECK(pp->contiguity[0] == 1024 && pp->divisibility[0] == 16 && pp->run_step == 4);
	const axis_val *n = axis_lookup(ai, V("n"));
	CHECK(n->rank == 0 && n->divisibility[0] == 16 && !n->is_const);
	const axis_val *c3 = axis_lookup(ai, V("c3"));
	CHECK(c3->is_const && c3->value == 3 && c3->constancy[0] == 1024);
	const axis_val *hp2 = axis_lookup(ai, V("hp2"));
	CHECK(hp2->rank == 2 && hp2->contiguity[0] == 1 && hp2->contiguity[1] == 32 &&
	      hp2->divisibility[0] == 2 && hp2->divisibility[1] == 16);
	/* no analysis, or a value it never saw: all 1s, of the value's rank */
	const axis_val *u = axis_lookup(NULL, V("hp2"));
	CHECK(u->rank == 2 && u->contiguity[1] == 1 && u->divisibility[1] == 1 &&
	      u->constancy[1] == 1 && !u->is_const);
	ir_builder bld = {.ctx = c, .block = fn->body, .before = fn->body->last};
	const ir_value *fresh = ir_const_int(&bld, V("r")->type, 8);
	const axis_val *fv = axis_lookup(ai, fresh);
	CHECK(fv->rank == 1 && fv->constancy[0] == 1 && !fv->is_const);

	/* the printer names values as the IR printer does */
	strbuf out = {0};
	axis_print(&out, ai, fn);
	CHECK(out.data && strstr(out.data, "// %pp: contiguity=[1024] divisibility=[16] "
					   "constancy=[1]\n"));
	CHECK(out.data && strstr(out.data, "// %hp2: contiguity=[1, 32] divisibility=[2, 16] "
					   "constancy=[1, 1]\n"));
	strbuf_free(&out);

	strtab_destroy(names);
	arena_destroy(a);
	return test_result("test_axis");
}
