/* test_uses.c: the tile IR's use lists. Random op graphs (flat and inside `if` regions)
 * are built and mutated through the IR's functions (set-operand, replace-all-uses,
 * replace-uses-in a region, erase, move, create); after every step each value's use list
 * is compared with a brute-force recount over the operands of every live op, and the
 * operands themselves with a model the test keeps on its own. Then the verifier's use
 * check must accept the result and must catch lists broken behind the IR's back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "test.h"

enum { MAX_OPS = 400, MAX_VALUES = 1200, MAX_OPERANDS = 3 };

typedef struct graph {
	arena *a;
	strtab *names;
	diag_engine *d;
	ir_context *c;
	ir_func *f;
	const ir_type *i32;
	ir_op *ops[MAX_OPS]; /* every op ever made; erased ones flagged */
	bool erased[MAX_OPS];
	ir_value *model[MAX_OPS][MAX_OPERANDS]; /* what each op's operands should be */
	int nops;
	ir_value *values[MAX_VALUES];
	int nvalues;
	ir_block *blocks[MAX_OPS + 1]; /* the body and every region */
	int nblocks;
	uint64_t rng;
	int errors_seen;
} graph;

static uint64_t next_rand(graph *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

static int pick(graph *g, int n)
{
	return (int)(next_rand(g) % (uint64_t)n);
}

static void count_errors(void *user, const tilecc_diagnostic *dg)
{
	(void)dg;
	((graph *)user)->errors_seen++;
}

static void g_init(graph *g, uint64_t seed)
{
	memset(g, 0, sizeof *g);
	g->rng = seed * 0x9E3779B97F4A7C15u + 1;
	g->a = arena_create();
	g->names = strtab_create(g->a);
	g->d = diag_create(g->a, count_errors, g);
	g->c = ir_context_create(g->a, g->names);
	g->i32 = ir_type_scalar(g->c, IR_I32);
	const ir_type *params[3] = {g->i32, g->i32, g->i32};
	ir_module *m = ir_module_create(g->c);
	g->f = ir_func_create(m, "k", 3, params, NULL, SRCLOC_NONE);
	for (int i = 0; i < 3; i++)
		g->values[g->nvalues++] = g->f->body->args[i];
	g->blocks[g->nblocks++] = g->f->body;
}

static void g_free(graph *g)
{
	strtab_destroy(g->names);
	arena_destroy(g->a);
}

static ir_value *any_value(graph *g)
{
	return g->values[pick(g, g->nvalues)];
}

static int live_op(graph *g)
{
	for (int tries = 0; tries < 64; tries++) {
		int k = pick(g, g->nops);
		if (!g->erased[k])
			return k;
	}
	return -1;
}

/* A new op in a random block: an addi, a select or (sometimes) an `if` whose two regions
 * become blocks for later ops. */
static void add_op(graph *g)
{
	if (g->nops == MAX_OPS || g->nvalues + 1 >= MAX_VALUES)
		return;
	ir_block *b = g->blocks[pick(g, g->nblocks)];
	int kind = pick(g, 8);
	ir_value *xs[MAX_OPERANDS] = {any_value(g), any_value(g), any_value(g)};
	ir_op *op;
	if (kind == 0 && g->nblocks + 2 <= MAX_OPS) {
		op = ir_op_create(g->c, IR_OP_IF, 1, xs, 0, NULL, SRCLOC_NONE);
		g->blocks[g->nblocks++] = op->regions[0];
		g->blocks[g->nblocks++] = op->regions[1];
	} else if (kind == 1) {
		op = ir_op_create(g->c, IR_OP_SELECT, 3, xs, 1, &g->i32, SRCLOC_NONE);
	} else {
		op = ir_op_create(g->c, IR_OP_ADDI, 2, xs, 1, &g->i32, SRCLOC_NONE);
	}
	CHECK(op != NULL);
	if (!op)
		return;
	/* before a random op of b, or at its end */
	ir_op *before = b->first;
	for (int steps = pick(g, 6); before && steps; steps--)
		before = before->next;
	ir_block_insert_before(b, before, op);
	for (int i = 0; i < op->noperands; i++)
		g->model[g->nops][i] = xs[i];
	for (int i = 0; i < op->nresults; i++)
		g->values[g->nvalues++] = &op->results[i];
	g->ops[g->nops++] = op;
}

static void model_replace(graph *g, ir_value *from, ir_value *to, const ir_block *in)
{
	for (int k = 0; k < g->nops; k++) {
		if (g->erased[k] || (in && !ir_op_is_inside(g->ops[k], in)))
			continue;
		for (int i = 0; i < g->ops[k]->noperands; i++)
			if (g->model[k][i] == from)
				g->model[k][i] = to;
	}
}

static bool op_in_region_of(const ir_op *op, const ir_op *outer)
{
	for (int r = 0; r < outer->nregions; r++)
		if (ir_op_is_inside(op, outer->regions[r]))
			return true;
	return false;
}

/* A value that op (erased next) neither defines nor holds in one of its regions. */
static ir_value *value_outside(graph *g, const ir_op *op)
{
	for (int tries = 0; tries < 64; tries++) {
		ir_value *v = any_value(g);
		if (v->def != op && (!v->def || !op_in_region_of(v->def, op)))
			return v;
	}
	return g->f->body->args[0];
}

static void erase_op(graph *g, int k)
{
	ir_op *op = g->ops[k];
	for (int i = 0; i < op->nresults; i++) {
		ir_value *to = value_outside(g, op);
		ir_replace_all_uses(&op->results[i], to);
		model_replace(g, &op->results[i], to, NULL);
	}
	/* the values defined inside it lose their users outside too */
	for (int j = 0; j < g->nops; j++)
		if (!g->erased[j] && j != k && op_in_region_of(g->ops[j], op))
			for (int i = 0; i < g->ops[j]->nresults; i++) {
				ir_value *to = value_outside(g, op);
				ir_replace_all_uses(&g->ops[j]->results[i], to);
				model_replace(g, &g->ops[j]->results[i], to, NULL);
			}
	ir_op_erase(op);
	for (int j = 0; j < g->nops; j++)
		if (j == k || op_in_region_of(g->ops[j], op))
			g->erased[j] = true;
	/* its values and blocks are gone from what later steps pick */
	int n = 0;
	for (int i = 0; i < g->nvalues; i++) {
		ir_value *v = g->values[i];
		const ir_op *d = v->def;
		if (d == op || (d && op_in_region_of(d, op)))
			continue;
		g->values[n++] = v;
	}
	g->nvalues = n;
	n = 0;
	for (int i = 0; i < g->nblocks; i++) {
		const ir_block *b = g->blocks[i];
		if (b->parent && (b->parent == op || op_in_region_of(b->parent, op)))
			continue;
		g->blocks[n++] = g->blocks[i];
	}
	g->nblocks = n;
}

static void mutate(graph *g)
{
	int what = pick(g, 10);
	int k = g->nops ? live_op(g) : -1;
	if (what <= 2 || k < 0) {
		add_op(g);
	} else if (what <= 4) {
		ir_op *op = g->ops[k];
		if (!op->noperands)
			return;
		int i = pick(g, op->noperands);
		ir_value *v = any_value(g);
		ir_op_set_operand(op, i, v);
		g->model[k][i] = v;
	} else if (what == 5) {
		ir_value *from = any_value(g), *to = any_value(g);
		ir_replace_all_uses(from, to);
		model_replace(g, from, to, NULL);
	} else if (what == 6) {
		ir_value *from = any_value(g), *to = any_value(g);
		ir_block *b = g->blocks[pick(g, g->nblocks)];
		ir_replace_uses_in(b, from, to);
		model_replace(g, from, to, b);
	} else if (what == 7) {
		erase_op(g, k);
	} else {
		/* moved: removed and put back at the end of its block, uses intact */
		ir_op *op = g->ops[k];
		ir_block *b = op->parent;
		ir_op_remove(op);
		ir_block_append(b, op);
	}
}

/* Each value's use list against a recount of the live ops' operands. */
static void check_lists(graph *g)
{
	for (int k = 0; k < g->nops; k++) {
		if (g->erased[k])
			continue;
		for (int i = 0; i < g->ops[k]->noperands; i++)
			CHECK(g->ops[k]->operands[i] == g->model[k][i]);
	}
	for (int j = 0; j < g->nvalues; j++) {
		ir_value *v = g->values[j];
		int expect = 0;
		for (int k = 0; k < g->nops; k++) {
			if (g->erased[k])
				continue;
			for (int i = 0; i < g->ops[k]->noperands; i++)
				expect += g->ops[k]->operands[i] == v;
		}
		int listed = 0, valid = 0;
		for (const ir_use *u = v->uses; u && listed <= expect; u = u->next) {
			listed++;
			valid += u->value == v && u->user->operands[u->index] == v &&
				 &u->user->uses[u->index] == u;
		}
		CHECK(listed == expect && valid == expect);
		CHECK(ir_value_num_uses(v) == expect);
		CHECK(ir_value_has_uses(v) == (expect > 0));
	}
}

static void random_graphs(void)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		graph *g = calloc(1, sizeof *g);
		if (!g)
			return;
		g_init(g, seed);
		for (int i = 0; i < 40; i++)
			add_op(g);
		for (int step = 0; step < 600; step++) {
			mutate(g);
			if (step % 10 == 0)
				check_lists(g);
		}
		check_lists(g);
		g->errors_seen = 0;
		CHECK(ir_verify_uses(g->f, g->d) == 0 && g->errors_seen == 0);
		g_free(g);
		free(g);
	}
}

/* The verifier's use check must catch what the IR's functions cannot produce. */
static void verifier_catches(void)
{
	graph g;
	g_init(&g, 7);
	for (int i = 0; i < 30; i++)
		add_op(&g);
	CHECK(ir_verify_uses(g.f, g.d) == 0);

	/* an operand written behind the IR's back */
	ir_op *op = NULL;
	for (int k = 0; k < g.nops && !op; k++)
		if (g.ops[k]->code == IR_OP_ADDI)
			op = g.ops[k];
	CHECK(op != NULL);
	if (!op) {
		g_free(&g);
		return;
	}
	ir_value *old = op->operands[0], *other = old == g.values[1] ? g.values[2] : g.values[1];
	op->operands[0] = other;
	g.errors_seen = 0;
	CHECK(ir_verify_uses(g.f, g.d) > 0 && g.errors_seen > 0);
	op->operands[0] = old;
	CHECK(ir_verify_uses(g.f, g.d) == 0);

	/* an op dropped with ir_op_remove keeps its uses: reported */
	ir_block *b = op->parent;
	ir_op *next = op->next;
	bool had_uses = ir_op_has_uses(op);
	if (had_uses)
		ir_replace_all_uses(&op->results[0], g.values[0]);
	ir_op_remove(op);
	g.errors_seen = 0;
	CHECK(ir_verify_uses(g.f, g.d) > 0 && g.errors_seen > 0);
	/* put back it is fine again; erased it is fine too */
	ir_block_insert_before(b, next, op);
	CHECK(ir_verify_uses(g.f, g.d) == 0);
	ir_op_erase(op);
	CHECK(ir_verify_uses(g.f, g.d) == 0);
	CHECK(!op->parent);

	/* a use list whose head was lost */
	ir_value *v = g.f->body->args[0];
	if (v->uses) {
		ir_use *head = v->uses;
		v->uses = head->next;
		g.errors_seen = 0;
		CHECK(ir_verify_uses(g.f, g.d) > 0 && g.errors_seen > 0);
		v->uses = head;
		CHECK(ir_verify_uses(g.f, g.d) == 0);
	}
	g_free(&g);
}

/* replace-all-uses and erase on a chain: every use moves, counts follow. */
static void replace_chain(void)
{
	graph *g = calloc(1, sizeof *g);
	if (!g)
		return;
	g_init(g, 3);
	ir_builder b = {g->c, g->f->body, NULL, SRCLOC_NONE};
	ir_value *a = g->f->body->args[0], *x = a;
	ir_value *chain[200];
	for (int i = 0; i < 200; i++)
		chain[i] = x = ir_build2(&b, IR_OP_ADDI, g->i32, x, a);
	CHECK(ir_value_num_uses(a) == 201);
	ir_replace_all_uses(a, g->f->body->args[1]);
	CHECK(ir_value_num_uses(a) == 0 && ir_value_num_uses(g->f->body->args[1]) == 201);
	CHECK(chain[0]->def->operands[0] == g->f->body->args[1] &&
	      chain[0]->def->operands[1] == g->f->body->args[1]);
	for (int i = 1; i < 200; i++)
		CHECK(chain[i]->def->operands[0] == chain[i - 1] &&
		      chain[i]->def->operands[1] == g->f->body->args[1]);
	/* erasing drops the op's own uses only */
	ir_replace_all_uses(chain[199], chain[0]);
	ir_op_erase(chain[199]->def);
	CHECK(ir_value_num_uses(chain[198]) == 0 && ir_value_num_uses(g->f->body->args[1]) == 200);
	CHECK(ir_verify_uses(g->f, g->d) == 0);
	g_free(g);
	free(g);
}

int main(void)
{
	random_graphs();
	verifier_catches();
	replace_chain();
	return test_result("test_uses");
}
