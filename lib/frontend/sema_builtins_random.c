/* sema_builtins_random.c: Triton's random numbers (python/triton/language/random.py), expanded
 * into tile IR at the call.
 *
 *   tl.philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=10)   the Philox rounds
 *   tl.philox(seed, c0, c1, c2, c3, n_rounds=10)          key from the seed, then the rounds
 *   tl.randint4x / randint(seed, offset, n_rounds=10)     counter (offset, 0, 0, 0)
 *   tl.rand / rand4x, tl.randn / randn4x                  uniform [0, 1) and normal floats
 *   tl.uint_to_uniform_float(x), tl.pair_uniform_to_normal(u1, u2)
 *
 * The point is the bits: a kernel compiled by tilecc draws the same numbers as the same kernel
 * under Triton 3.x, for the same seed and offsets. So the expansion follows Triton's helpers
 * op for op, in the same dtypes:
 *
 * - 32-bit counters (int32/uint32 offsets): Philox4x32 (Salmon et al., "Parallel random
 *   numbers: as easy as 1, 2, 3", SC'11) with the multipliers 0xD2511F53, 0xCD9E8D57 and the
 *   Weyl key increments 0x9E3779B9, 0xBB67AE85; the key is (seed & 0xffffffff, seed >> 32)
 *   after the seed is converted to uint64 (sign-extended from a signed seed). One round:
 *       c0' = hi(B * c2) ^ c1 ^ k0    c1' = lo(B * c2)
 *       c2' = hi(A * c0) ^ c3 ^ k1    c3' = lo(A * c0)     k0 += KA, k1 += KB
 * - 64-bit counters (int64/uint64 offsets): Philox4x64 with its 64-bit constants, the key
 *   (seed, 0), as Triton 3.x does.
 * - uint -> float: the bits as a signed integer x, x < 0 ? -x - 1 : x, converted to fp32 and
 *   multiplied (in fp32) by 4.6566127342e-10 (32-bit) or 1.0842020432385337e-19 (64-bit).
 * - randn: Box-Muller on the first two words, u1 = max(1e-7, u1), r = sqrt(-2 log u1),
 *   th = 2 pi u2, r cos th (and r sin th for randn4x), with tl.log/sqrt/cos/sin, so on
 *   NVIDIA the same approximate instructions Triton uses.
 *
 * tests/e2e/random.c checks the bits against an independent C Philox whose own correctness
 * is pinned by the Random123 known-answer vectors. */
#include <string.h>

#include "frontend/sema_int.h"

enum { N_ROUNDS_DEFAULT = 10 };

/* The constants of Philox4x32 and Philox4x64: round multipliers A and B, key increments. */
static const struct {
	uint64_t round_a, round_b, key_a, key_b;
} philox_k[2] = {
	/*  round_a                 round_b                 key_a                   key_b */
	{0xD2511F53u,            0xCD9E8D57u,            0x9E3779B9u,            0xBB67AE85u},
	{0xD2E7470EE14C6C93ull,  0xCA5A826395121157ull,  0x9E3779B97F4A7C15ull,  0xBB67AE8584CAA73Bull},
};

/* x OP y on one integer type, the scalar side broadcast to the tile. */
static ir_value *iop(sema *s, ir_opcode op, ir_value *x, ir_value *y, srcloc loc)
{
	sema_broadcast_pair(s, &x, &y, loc, "philox");
	sema_at(s, loc);
	return ir_build2(&s->b, op, x->type, x, y);
}

static ir_value *kconst(sema *s, const ir_type *et, uint64_t v, srcloc loc)
{
	sema_at(s, loc);
	return ir_const_int(&s->b, et, (int64_t)v);
}

static bool is_u32_or_u64(const ir_type *e) { return e->kind == IR_U32 || e->kind == IR_U64; }

/* n_rounds rounds on the counter c (uint32 or uint64, all four of one type) with the key
 * (k0, k1), in place. */
static void philox_rounds(sema *s, ir_value *c[4], ir_value *k0, ir_value *k1, int64_t n, srcloc loc)
{
	const ir_type *et = sema_velem(c[0]);
	int w = et->kind == IR_U64;
	ir_value *a = kconst(s, et, philox_k[w].round_a, loc), *b = kconst(s, et, philox_k[w].round_b, loc);
	ir_value *ka = kconst(s, et, philox_k[w].key_a, loc), *kb = kconst(s, et, philox_k[w].key_b, loc);
	for (int64_t r = 0; r < n; r++) {
		ir_value *c0 = c[0], *c2 = c[2];
		c[0] = iop(s, IR_OP_XORI, iop(s, IR_OP_XORI, iop(s, IR_OP_MULHI, b, c2, loc), c[1], loc), k0, loc);
		c[2] = iop(s, IR_OP_XORI, iop(s, IR_OP_XORI, iop(s, IR_OP_MULHI, a, c0, loc), c[3], loc), k1, loc);
		c[1] = iop(s, IR_OP_MULI, b, c2, loc);
		c[3] = iop(s, IR_OP_MULI, a, c0, loc);
		if (r + 1 < n) {
			k0 = iop(s, IR_OP_ADDI, k0, ka, loc);
			k1 = iop(s, IR_OP_ADDI, k1, kb, loc);
		}
	}
}

static int64_t n_rounds_arg(sema *s, const sval *v, srcloc loc)
{
	if (sv_absent(v))
		return N_ROUNDS_DEFAULT;
	int64_t n = sema_cint(s, v, loc, "n_rounds");
	if (n < 0 || n > 64)
		sema_fail(s, loc, "n_rounds must be between 0 and 64, got %lld", (long long)n);
	return n;
}

static sval tuple4(sema *s, ir_value *v[4])
{
	sval items[4] = {sv_ir(v[0]), sv_ir(v[1]), sv_ir(v[2]), sv_ir(v[3])};
	return sv_tuple(s, 4, items);
}

/* philox(seed, c0..c3): the counter words as uint32 (32-bit c0) or uint64 (64-bit c0). */
static void philox(sema *s, const sval *seedv, srcloc seed_loc, ir_value *c[4], const srcloc cl[4],
		   int64_t n, srcloc loc)
{
	ir_value *seed = sema_to_tensor(s, seedv, seed_loc);
	if (!ir_type_is_int(sema_velem(seed)))
		sema_fail(s, seed_loc, "the seed of philox must be an integer, got %s",
			  sema_type_name(s, sema_velem(seed)));
	seed = sema_cast(s, seed, ir_type_scalar(s->ctx, IR_U64), false, seed_loc);
	int bits = ir_type_bits(sema_velem(c[0]));
	const ir_type *et;
	ir_value *k0, *k1;
	if (bits == 32) {
		et = ir_type_scalar(s->ctx, IR_U32);
		ir_value *hi = iop(s, IR_OP_SHRI, seed, kconst(s, sema_velem(seed), 32, loc), loc);
		k1 = sema_cast(s, hi, et, false, loc);
		k0 = sema_cast(s, seed, et, false, loc);
	} else if (bits == 64) {
		et = ir_type_scalar(s->ctx, IR_U64);
		k0 = seed;
		k1 = kconst(s, et, 0, loc);
	} else {
		sema_fail(s, cl[0], "bitwidth not supported in philox: the counter is %s (32- or 64-bit "
				    "integers only)", sema_type_name(s, sema_velem(c[0])));
	}
	for (int i = 0; i < 4; i++)
		c[i] = sema_cast(s, c[i], et, true, cl[i]);
	philox_rounds(s, c, k0, k1, n, loc);
}

/* philox_impl(c0, c1, c2, c3, k0, k1, n_rounds) */
SEMA_HANDLER(sema_bi_philox_impl)
{
	ir_value *c[4];
	for (int i = 0; i < 4; i++)
		c[i] = sema_to_tensor(s, &sl[i], sl_loc[i]);
	const ir_type *et = sema_velem(c[0]);
	if (!is_u32_or_u64(et))
		sema_fail(s, sl_loc[0], "dtype not supported in philox_impl: %s (uint32 or uint64)",
			  sema_type_name(s, et));
	for (int i = 1; i < 4; i++)
		if (sema_velem(c[i]) != et)
			sema_fail(s, sl_loc[i], "philox_impl: c%d is %s, c0 is %s", i,
				  sema_type_name(s, sema_velem(c[i])), sema_type_name(s, et));
	ir_value *k0 = sema_cast(s, sema_to_ir(s, &sl[4], et, sl_loc[4]), et, false, sl_loc[4]);
	ir_value *k1 = sema_cast(s, sema_to_ir(s, &sl[5], et, sl_loc[5]), et, false, sl_loc[5]);
	philox_rounds(s, c, k0, k1, n_rounds_arg(s, &sl[6], sl_loc[6]), a->loc);
	return tuple4(s, c);
}

/* philox(seed, c0, c1, c2, c3, n_rounds) */
SEMA_HANDLER(sema_bi_philox)
{
	ir_value *c[4];
	for (int i = 0; i < 4; i++)
		c[i] = sema_to_tensor(s, &sl[1 + i], sl_loc[1 + i]);
	philox(s, &sl[0], sl_loc[0], c, sl_loc + 1, n_rounds_arg(s, &sl[5], sl_loc[5]), a->loc);
	return tuple4(s, c);
}

/* randint4x(seed, offset): the counter (offset, 0, 0, 0), zeros of the offset's type */
static void randint4x(sema *s, const sval *seed, srcloc seed_loc, const sval *offset,
		      srcloc off_loc, int64_t n, srcloc loc, ir_value *c[4])
{
	ir_value *off = sema_to_tensor(s, offset, off_loc);
	sema_at(s, loc);
	ir_value *zero = sema_const(s, off->type, &(sval){.kind = SV_INT, .i = 0});
	c[0] = off;
	c[1] = c[2] = c[3] = zero;
	srcloc cl[4] = {off_loc, off_loc, off_loc, off_loc};
	philox(s, seed, seed_loc, c, cl, n, loc);
}

/* uint_to_uniform_float(x): 32- or 64-bit integers to fp32 in [0, 1) */
static ir_value *uniform(sema *s, ir_value *x, srcloc xloc, srcloc loc)
{
	const ir_type *e = sema_velem(x);
	double scale;
	if (e->kind == IR_I32 || e->kind == IR_U32) {
		x = sema_cast(s, x, ir_type_scalar(s->ctx, IR_I32), true, xloc);
		scale = 4.6566127342e-10;
	} else if (e->kind == IR_I64 || e->kind == IR_U64) {
		x = sema_cast(s, x, ir_type_scalar(s->ctx, IR_I64), true, xloc);
		scale = 1.0842020432385337e-19;
	} else {
		sema_fail(s, xloc, "uint_to_uniform_float expects int32, uint32, int64 or uint64, got %s",
			  sema_type_name(s, e));
	}
	sval neg = sema_compare(s, AST_LT, sv_ir(x), sv_int(0), loc);
	sval alt = sema_binary(s, AST_SUB, sema_unary(s, AST_UNEG, sv_ir(x), loc), sv_int(1), loc);
	sema_at(s, loc);
	ir_value *m = ir_build3(&s->b, IR_OP_SELECT, x->type, neg.ir, alt.ir, x);
	return sema_binary(s, AST_MUL, sv_ir(m), sv_float(scale), loc).ir;
}

/* pair_uniform_to_normal(u1, u2): Box-Muller, as Triton writes it */
static void box_muller(sema *s, ir_value *u1, srcloc l1, ir_value *u2, srcloc l2, srcloc loc,
		       ir_value **n1, ir_value **n2)
{
	for (int i = 0; i < 2; i++) {
		ir_type_kind k = sema_velem(i ? u2 : u1)->kind;
		if (k != IR_F32 && k != IR_F64)
			sema_fail(s, i ? l2 : l1, "Expected dtype ['fp32', 'fp64'] but got %s",
				  sema_type_name(s, sema_velem(i ? u2 : u1)));
	}
	sema_at(s, loc);
	ir_value *lo = sema_const(s, ir_type_elem(u1->type), &(sval){.kind = SV_FLOAT, .f = 1.0e-7});
	sema_broadcast_pair(s, &lo, &u1, loc, "tl.maximum");
	sema_at(s, loc);
	u1 = sema_max(s, lo, u1, true, false);
	ir_value *th = sema_binary(s, AST_MUL, sv_float(6.283185307179586), sv_ir(u2), loc).ir;
	sema_at(s, loc);
	ir_value *lg = ir_build1(&s->b, IR_OP_LOG, u1->type, u1);
	ir_value *t = sema_binary(s, AST_MUL, sv_float(-2.0), sv_ir(lg), loc).ir;
	sema_at(s, loc);
	ir_value *r = ir_build1(&s->b, IR_OP_SQRT, t->type, t);
	ir_value *co = ir_build1(&s->b, IR_OP_COS, th->type, th);
	*n1 = sema_binary(s, AST_MUL, sv_ir(r), sv_ir(co), loc).ir;
	if (n2) {
		sema_at(s, loc);
		ir_value *si = ir_build1(&s->b, IR_OP_SIN, th->type, th);
		*n2 = sema_binary(s, AST_MUL, sv_ir(r), sv_ir(si), loc).ir;
	}
}

/* randint, randint4x, rand, rand4x, randn, randn4x (seed, offset, n_rounds) */
SEMA_HANDLER(sema_bi_random)
{
	const char *name = sema_builtin_name(id);
	ir_value *c[4];
	randint4x(s, &sl[0], sl_loc[0], &sl[1], sl_loc[1], n_rounds_arg(s, &sl[2], sl_loc[2]), a->loc, c);
	if (!strcmp(name, "randint"))
		return sv_ir(c[0]);
	if (!strcmp(name, "randint4x"))
		return tuple4(s, c);
	ir_value *u[4];
	int nu = !strcmp(name, "rand") ? 1 : !strcmp(name, "randn") ? 2 : 4;
	for (int i = 0; i < nu; i++)
		u[i] = uniform(s, c[i], a->loc, a->loc);
	if (!strcmp(name, "rand"))
		return sv_ir(u[0]);
	if (!strcmp(name, "rand4x"))
		return tuple4(s, u);
	ir_value *nv[4];
	if (!strcmp(name, "randn")) {
		box_muller(s, u[0], a->loc, u[1], a->loc, a->loc, &nv[0], NULL);
		return sv_ir(nv[0]);
	}
	box_muller(s, u[0], a->loc, u[1], a->loc, a->loc, &nv[0], &nv[1]);
	box_muller(s, u[2], a->loc, u[3], a->loc, a->loc, &nv[2], &nv[3]);
	return tuple4(s, nv);
}

/* uint_to_uniform_float(x) */
SEMA_HANDLER(sema_bi_uint_to_uniform_float)
{
	return sv_ir(uniform(s, sema_to_tensor(s, &sl[0], sl_loc[0]), sl_loc[0], a->loc));
}

/* pair_uniform_to_normal(u1, u2) */
SEMA_HANDLER(sema_bi_pair_uniform_to_normal)
{
	ir_value *u1 = sema_to_tensor(s, &sl[0], sl_loc[0]), *u2 = sema_to_tensor(s, &sl[1], sl_loc[1]);
	ir_value *n[2];
	box_muller(s, u1, sl_loc[0], u2, sl_loc[1], a->loc, &n[0], &n[1]);
	sval items[2] = {sv_ir(n[0]), sv_ir(n[1])};
	return sv_tuple(s, 2, items);
}
