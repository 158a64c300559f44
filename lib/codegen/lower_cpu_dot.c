/* lower_cpu_dot.c: tl.dot on CPUs, as a register-blocked micro-kernel.
 *
 * The product out = acc + A @ B of one program's tiles (buffers, row-major, in the compute
 * type: f32, f64 or i32) is computed one block of MR rows by NR columns at a time, with the
 * whole block in vector registers: MR x NV accumulators of VW lanes (NR = NV * VW). For each
 * k the block loads NV vectors of B's row k and broadcasts MR elements of A's column k, and
 * does MR * NV fused multiply-adds (vbroadcastss + vfmadd231ps on x86-64); the accumulators
 * are read from acc before the k loop and written to out after it, once per block.
 *
 * B is packed first, all of it, into column panels of NR columns: each panel's K rows of NR
 * elements contiguous in a scratch buffer (converted from fp16/bf16 to fp32 on the way), so
 * that the micro-kernel walks one sequential stream of B instead of rows N elements apart
 * (which fall into a few cache sets and evict each other). The packing reads B row after
 * row (a row of memory is one short stream; panel by panel, every 64-byte piece would be a
 * TLB lookup and a miss of its own), and the panels are a line more than 4 KiB apart when
 * K x NR is a multiple of it (a row's stores to every panel then do not share one set).
 *
 * Blocks of MR rows are outside, panels inside: a block's MR x K elements of A are read in
 * place, where they are in memory (no copy), and stay in L1 for all the panels; the packed
 * B streams from L2. In the bench matmul (128x128x64 blocks, rows 4 KiB apart) every copy
 * of A and every gather of addresses per iteration showed in the profile; what is left is
 * B's packing, about 8 % (docs/perf.md, 2026-12-07).
 *
 * Prefetches (a K loop that advances the operands by K elements, 'b_prefetch', 'a_next'):
 * B's rows K rows on, into L2, a share of them at the start of each block of rows (issued
 * all at once while packing, they cost more than they saved: 0.85x OpenBLAS against 0.89x
 * spread, docs/perf.md 2026-12-08); A's next block of rows while a block runs (the last
 * block: the first one's next K elements); the next panel's accumulators into L1.
 *
 * The block shape is chosen from the target's vectors (the backend's c->vec_bytes, from
 * -mcpu/-mattr) so that the accumulators, NV vectors of B and a broadcast fit the register
 * file without spilling:
 *
 *   target                 VW (f32)  registers  MR x NV   accumulators
 *   x86-64 AVX2 (and AVX)   8        16         6 x 2     12
 *   x86-64 AVX-512          16       32         8 x 2     16
 *   (NV = 1 when N fits one vector: MR doubles)
 *
 * Rows left over (M % MR) get a block of fewer rows; on x86-64, when they are fewer than
 * MR / 2 (the bench's 128 rows: 21 x 6 + 2), the last full block and they are two blocks of
 * about equal size instead (20 x 6 + 4 + 4), since a block of 2 rows has 4 accumulators,
 * too few to cover the FMA's latency. Columns left over (N % NR) get a panel of narrower
 * vectors (a last vector of any width: LLVM splits it into legal pieces).
 *
 * riscv64 (RVV) has the same plan with vectors whose length is known only at run time:
 * a panel is one register group of LMUL registers, VLMAX = VLEN / SEW * LMUL lanes
 * (<vscale x L x T>, vscale = VLEN / 64), so that the code is one for every VLEN and a
 * machine with wider registers runs fewer iterations. LMUL is the smallest group that
 * holds a row of the tile at the minimum VLEN (N * SEW <= VLEN * LMUL; 128 bits, the V
 * extension's, unless -mattr=+zvl256b or more promises more), at most 4; the 32 registers
 * make 32 / LMUL groups, of which the accumulators take MR and B's row one, with one group
 * spare for the next row's load:
 *
 *   LMUL   groups   MR   tile (N >= 16)           f32 lanes at VLEN 128 / 256
 *   m1     32       6    N * SEW <= VLEN            4 / 8
 *   m2     16       6    N * SEW <= 2 VLEN          8 / 16
 *   m4      8       6    wider                     16 / 32
 *
 * (MR is 6 where more groups would allow more rows: the row addresses are in integer
 * registers, and with 8 rows the k loop ran out of them)
 *
 * (at the V extension's 128 bits, Triton's tiles, N >= 16, always take m4; m2 and m1 come
 * with +zvl256b and +zvl512b)
 *
 * The width of a panel is vl = min(N, VLMAX): Triton's tiles are powers of two, and so is
 * VLMAX, so every panel is full (N / vl of them) and there are no narrower tails; the
 * vector-predicated intrinsics (llvm.vp.*) carry vl, so the loop runs under one vsetvli
 * and the multiply-adds are vfmacc.vf with A's element from a scalar register. RISC-V has
 * no register + register addressing: the k loop is unrolled by 4, so that the four loads of
 * an A row are one address plus immediate offsets. A shape that is not a power of two
 * takes the fixed-width plan (MR x NV = 4 x 2 of 8 lanes; LLVM gives <8 x float> two
 * registers at the minimum VLEN). */
#include <string.h>

#include "codegen/lower_cpu.h"

enum { MAX_MR = 16, MAX_NV = 4 };

/* The blocking plan: blocks of MR rows by NV vectors of VW lanes, the k loop unrolled KU
 * times; on RVV (lmul > 0) a vector is one register group of type vt, vl lanes. */
typedef struct plan {
	int64_t vw, mr;
	int nv, ku;
	int lmul;        /* RVV: the register group, 1, 2 or 4; 0: fixed-width vectors */
	LLVMTypeRef vt;  /* RVV: <vscale x (64 / SEW * LMUL) x T> */
	LLVMValueRef vl; /* RVV: the columns of a panel, min(N, VLMAX), i64 */
} plan;

/* A panel of columns: nv vectors of w[v] lanes each, nr columns in all; on RVV one vector
 * of evl lanes (i32, NULL on fixed-width targets), cols columns (i64: nr, or vl). */
typedef struct panel {
	int nv;
	int w[MAX_NV];
	int64_t nr;
	LLVMValueRef cols, evl;
} panel;

static bool is_riscv(cg *c)
{
	return strncmp(LLVMGetTarget(c->mod), "riscv", 5) == 0;
}

bool cpu_dot_packs_from(cg *c, const ir_type *e, const ir_type *ct)
{
	if (e == ct)
		return true;
	if (ct->kind != IR_F32)
		return false;
	return e->kind == IR_BF16 || (e->kind == IR_F16 && !c->soft_half);
}

static bool is_pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/* The plan for the dot's compute type and the target (the tables above). */
static plan choose_plan(cg *c, const cpu_dot *d)
{
	plan pl = {.ku = 1};
	int ebits = ir_type_bits(d->ct);
	if (is_riscv(c) && is_pow2(d->n) && is_pow2(d->b_run)) {
		/* c->vec_bytes: the minimum VLEN, 128 bits unless -mattr=+zvl256b (...) */
		pl.lmul = 1;
		while (pl.lmul < 4 && d->n * ebits > c->vec_bytes * 8 * pl.lmul)
			pl.lmul *= 2;
		/* 6 rows also where there are more groups: 8 row addresses, their sums with k
		 * and the loop's own registers left too few integer registers (a spill of vl,
		 * and a vsetvli, in the k loop) */
		pl.mr = 6;
		pl.nv = 1;
		pl.ku = 4;
		if (pl.mr > d->m)
			pl.mr = d->m;
		return pl;
	}
	/* riscv64: <8 x float>, two registers at the minimum VLEN */
	pl.vw = (is_riscv(c) ? 32 : c->vec_bytes) / (ebits / 8);
	if (pl.vw < 1)
		pl.vw = 1;
	if (pl.vw > d->n)
		pl.vw = d->n;
	pl.nv = d->n >= 2 * pl.vw ? 2 : 1;
	if (is_riscv(c))
		pl.mr = 4;
	else if (c->vec_bytes >= 64)
		pl.mr = 8;
	else
		pl.mr = 6;
	if (pl.nv == 1)
		pl.mr *= 2;
	if (pl.mr > d->m)
		pl.mr = d->m;
	return pl;
}

static LLVMValueRef at(cg *c, LLVMTypeRef st, LLVMValueRef buf, LLVMValueRef idx)
{
	return LLVMBuildGEP2(c->b, st, buf, &idx, 1, "");
}

static LLVMValueRef add(cg *c, LLVMValueRef x, LLVMValueRef y)
{
	return LLVMBuildAdd(c->b, x, y, "");
}

static LLVMValueRef mul(cg *c, LLVMValueRef x, int64_t y)
{
	return LLVMBuildMul(c->b, x, cg_i64(c, y), "");
}

/* A vector of vt's shape (fixed or scalable lanes) with elements of type et. */
static LLVMTypeRef vec_like(LLVMTypeRef vt, LLVMTypeRef et)
{
	unsigned n = LLVMGetVectorSize(vt);
	return LLVMGetTypeKind(vt) == LLVMScalableVectorTypeKind ? LLVMScalableVectorType(et, n) : LLVMVectorType(et, n);
}

static LLVMValueRef splat(cg *c, LLVMTypeRef vt, LLVMValueRef x)
{
	LLVMValueRef v = LLVMBuildInsertElement(c->b, LLVMGetPoison(vt), x, cg_i32(c, 0), "");
	return LLVMBuildShuffleVector(c->b, v, LLVMGetPoison(vt), LLVMConstNull(vec_like(vt, c->t_i32)), "");
}

/* A call of the vector-predicated intrinsic name (overloaded on tys) with args, then the
 * all-true mask and evl: a constant mask, so that every block's instruction selection sees
 * it and the RVV instructions come out unmasked. */
static LLVMValueRef vp_call(cg *c, const char *name, LLVMTypeRef *tys, int ntys, LLVMTypeRef vt, LLVMValueRef *args,
			    int nargs, LLVMValueRef evl)
{
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, name, tys, ntys, &fty);
	LLVMValueRef all[6];
	for (int i = 0; i < nargs; i++)
		all[i] = args[i];
	all[nargs] = LLVMConstAllOnes(vec_like(vt, c->t_i1));
	all[nargs + 1] = evl;
	return LLVMBuildCall2(c->b, fty, f, all, (unsigned)nargs + 2, "");
}

static void set_align(cg *c, LLVMValueRef call, unsigned arg, unsigned align)
{
	unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
	LLVMAddCallSiteAttribute(call, arg + 1, LLVMCreateEnumAttribute(c->ctx, kind, align));
}

/* A vector of type vt at p: a plain load, or on RVV (evl) evl lanes. */
static LLVMValueRef load_vec(cg *c, LLVMTypeRef vt, LLVMValueRef p, unsigned align, LLVMValueRef evl)
{
	if (evl) {
		LLVMTypeRef tys[2] = {vt, c->t_ptr};
		LLVMValueRef v = vp_call(c, "llvm.vp.load", tys, 2, vt, &p, 1, evl);
		set_align(c, v, 0, align);
		return v;
	}
	LLVMValueRef v = LLVMBuildLoad2(c->b, vt, p, "");
	LLVMSetAlignment(v, align);
	return v;
}

static void store_vec(cg *c, LLVMValueRef v, LLVMValueRef p, unsigned align, LLVMValueRef evl)
{
	if (evl) {
		LLVMTypeRef tys[2] = {LLVMTypeOf(v), c->t_ptr};
		LLVMValueRef args[2] = {v, p};
		set_align(c, vp_call(c, "llvm.vp.store", tys, 2, LLVMTypeOf(v), args, 2, evl), 1, align);
		return;
	}
	LLVMSetAlignment(LLVMBuildStore(c->b, v, p), align);
}

/* acc + a * b, a a scalar broadcast to b's lanes (vfmadd231ps with a vbroadcastss on
 * x86-64, vfmacc.vf on RVV). */
static LLVMValueRef mul_add(cg *c, bool fl, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc, LLVMValueRef evl)
{
	LLVMTypeRef vt = LLVMTypeOf(b);
	LLVMValueRef av = splat(c, vt, a);
	if (evl && fl)
		return vp_call(c, "llvm.vp.fma", &vt, 1, vt, (LLVMValueRef[]){av, b, acc}, 3, evl);
	if (evl) {
		LLVMValueRef p = vp_call(c, "llvm.vp.mul", &vt, 1, vt, (LLVMValueRef[]){av, b}, 2, evl);
		return vp_call(c, "llvm.vp.add", &vt, 1, vt, (LLVMValueRef[]){acc, p}, 2, evl);
	}
	if (!fl)
		return add(c, acc, LLVMBuildMul(c->b, av, b, ""));
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, "llvm.fma", &vt, 1, &fty);
	return LLVMBuildCall2(c->b, fty, f, (LLVMValueRef[]){av, b, acc}, 3, "");
}

/* B's elements (type b_elem) at p as a vector of type vt (the compute type; fixed width,
 * or evl lanes on RVV). */
static LLVMValueRef load_b(cg *c, const cpu_dot *d, LLVMValueRef p, LLVMTypeRef vt, LLVMValueRef evl)
{
	if (d->b_elem == d->ct)
		return load_vec(c, vt, p, (unsigned)ir_type_bits(d->ct) / 8, evl);
	if (d->b_elem->kind == IR_BF16) {
		/* bf16 is the high half of an fp32: exact, and the same on every target */
		LLVMValueRef h = load_vec(c, vec_like(vt, c->t_i16), p, 2, evl);
		LLVMTypeRef i32v = vec_like(vt, c->t_i32);
		LLVMValueRef x = LLVMBuildShl(c->b, LLVMBuildZExt(c->b, h, i32v, ""), splat(c, i32v, cg_i32(c, 16)), "");
		return LLVMBuildBitCast(c->b, x, vt, "");
	}
	LLVMValueRef h = load_vec(c, vec_like(vt, c->t_f16), p, 2, evl);
	return LLVMBuildFPExt(c->b, h, vt, "");
}

/* The address in row-address array rows of row r, advanced by shift bytes (may be NULL). */
static LLVMValueRef row_at(cg *c, LLVMValueRef rows, LLVMValueRef shift, LLVMValueRef r)
{
	LLVMValueRef p = LLVMBuildLoad2(c->b, c->t_ptr, LLVMBuildGEP2(c->b, c->t_ptr, rows, &r, 1, ""), "");
	return shift ? LLVMBuildGEP2(c->b, c->t_i8, p, &shift, 1, "") : p;
}

static LLVMValueRef a_row(cg *c, const cpu_dot *d, LLVMValueRef r)
{
	return row_at(c, d->a_rows, d->a_shift, r);
}

static LLVMValueRef b_row(cg *c, const cpu_dot *d, LLVMValueRef r)
{
	return row_at(c, d->b_rows, d->b_shift, r);
}

/* Where the packing reads B: B's rows from brow0 on (the batch), and the distance in bytes
 * to the same row K rows further down (the next block of a K loop, which prefetch_b_next
 * fetches into L2; NULL: none). */
typedef struct bsrc {
	LLVMValueRef brow0, ahead;
} bsrc;

static bsrc b_source(cg *c, const cpu_dot *d, const plan *pl, LLVMValueRef brow0)
{
	bsrc s = {brow0, NULL};
	int64_t per_row = d->n / d->b_run;
	/* not on RVV: rv64gcv has no prefetch (Zicbop), llvm.prefetch is dropped there */
	if (d->b_prefetch && d->k > 1 && !pl->lmul) {
		/* at the stride of the first two rows */
		LLVMValueRef r0 = LLVMBuildPtrToInt(c->b, b_row(c, d, mul(c, brow0, per_row)), c->t_i64, "");
		LLVMValueRef r1 = LLVMBuildPtrToInt(c->b, b_row(c, d, mul(c, add(c, brow0, cg_i64(c, 1)), per_row)),
						    c->t_i64, "");
		s.ahead = mul(c, LLVMBuildSub(c->b, r1, r0, ""), d->k);
	}
	return s;
}

/* B's element (k, col) in memory (runs hold whole vectors: a vector from col on is in one). */
static LLVMValueRef b_elem_at(cg *c, const cpu_dot *d, const bsrc *s, LLVMValueRef k, LLVMValueRef col)
{
	int64_t per_row = d->n / d->b_run;
	LLVMValueRef seg = mul(c, add(c, s->brow0, k), per_row);
	LLVMValueRef run = LLVMBuildUDiv(c->b, col, cg_i64(c, d->b_run), "");
	return at(c, cg_mem_type(c, d->b_elem), b_row(c, d, add(c, seg, run)), LLVMBuildURem(c->b, col, cg_i64(c, d->b_run), ""));
}

/* Elements from one packed panel to the next: K * NR, and a line more when that is a
 * multiple of 4 KiB (so that a row's stores to every panel do not share one cache set). */
static LLVMValueRef panel_stride(cg *c, const cpu_dot *d, const panel *pf)
{
	if (pf->evl) /* RVV: the panels one after another */
		return LLVMBuildMul(c->b, pf->cols, cg_i64(c, d->k), "");
	int64_t eb = ir_type_bits(d->ct) / 8, s = d->k * pf->nr;
	if ((s * eb) % 4096 == 0)
		s += 64 / eb;
	return cg_i64(c, s);
}

/* Copies B's K x N block (read as bs says) into bp, panel after panel: the panels of pf
 * (full, nfull of them) at bp + j * panel_stride, then the panel pr of the columns left
 * (pr.nv == 0: none). B is read row after row, each row's runs one after another, so that
 * every row of memory is one short sequential stream (its K rows are usually a page or
 * more apart: read panel by panel, each 64-byte piece of a row would cost a TLB lookup
 * and a cache miss of its own). */
static void pack_b(cg *c, const cpu_dot *d, LLVMValueRef bp, const bsrc *bs, const panel *pf, int64_t nfull,
		   const panel *pr)
{
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	unsigned align = (unsigned)ir_type_bits(d->ct) / 8;
	cgloop lk;
	LLVMValueRef k = loop_open(c, &lk, d->k);
	/* one panel's row k: its vectors, from the run that holds each (runs are whole vectors) */
	for (int part = 0; part < 2; part++) {
		const panel *p = part == 0 ? pf : pr;
		if (p->nv == 0 || (part == 0 && nfull == 0))
			continue;
		cgloop lj;
		LLVMValueRef j = part == 0 ? loop_open(c, &lj, nfull) : cg_i64(c, nfull);
		LLVMValueRef n0 = mul(c, j, pf->nr);
		LLVMValueRef dst = add(c, LLVMBuildMul(c->b, j, panel_stride(c, d, pf), ""), mul(c, k, p->nr));
		int64_t off = 0;
		for (int v = 0; v < p->nv; v++) {
			LLVMValueRef src = b_elem_at(c, d, bs, k, add(c, n0, cg_i64(c, off)));
			LLVMValueRef x = load_b(c, d, src, LLVMVectorType(st, (unsigned)p->w[v]), NULL);
			if ((off * align) % 64 == 0) /* the line 4 rows of the panel on: prefetchw */
				cpu_prefetch(c, at(c, st, bp, add(c, dst, cg_i64(c, off + 4 * p->nr))), true, 3);
			store_vec(c, x, at(c, st, bp, add(c, dst, cg_i64(c, off))), align, NULL);
			off += p->w[v];
		}
		if (part == 0)
			loop_close(c, &lj);
	}
	loop_close(c, &lk);
}

/* pack_b on RVV: the panels of p (N / vl of them, vl columns each) one after another. Row k
 * of B is copied in pieces of min(vl, b_run) elements, each within one run and one panel
 * (both powers of two), row after row as on the other targets. */
static void pack_b_rvv(cg *c, const cpu_dot *d, const plan *pl, LLVMValueRef bp, const bsrc *bs, const panel *p,
		       LLVMValueRef npanels)
{
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	unsigned align = (unsigned)ir_type_bits(d->ct) / 8;
	LLVMValueRef run = cg_i64(c, d->b_run);
	LLVMValueRef piece = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntULT, p->cols, run, ""), p->cols, run, "");
	LLVMValueRef evl = LLVMBuildTrunc(c->b, piece, c->t_i32, "");
	LLVMValueRef npieces = LLVMBuildUDiv(c->b, p->cols, piece, "");
	LLVMValueRef stride = panel_stride(c, d, p);
	cgloop lk, lj, li;
	LLVMValueRef k = loop_open(c, &lk, d->k);
	LLVMValueRef j = loop_open_range(c, &lj, cg_i64(c, 0), npanels);
	LLVMValueRef dst = add(c, LLVMBuildMul(c->b, j, stride, ""), LLVMBuildMul(c->b, k, p->cols, ""));
	LLVMValueRef n0 = LLVMBuildMul(c->b, j, p->cols, "");
	LLVMValueRef i = loop_open_range(c, &li, cg_i64(c, 0), npieces);
	LLVMValueRef off = LLVMBuildMul(c->b, i, piece, "");
	LLVMValueRef x = load_b(c, d, b_elem_at(c, d, bs, k, add(c, n0, off)), pl->vt, evl);
	store_vec(c, x, at(c, st, bp, add(c, dst, off)), align, evl);
	loop_close(c, &li);
	loop_close(c, &lj);
	loop_close(c, &lk);
}

/* One k of the micro-kernel: the panel's vectors of B's row k (bp: the packed panel) and
 * one element of A per row (arow: the addresses of the block's rows), mr * nv multiply-adds
 * into accs. */
static void k_step(cg *c, const cpu_dot *d, LLVMValueRef *arow, LLVMValueRef k, int64_t mr, const panel *p,
		   LLVMTypeRef *vt, const int64_t *voff, LLVMValueRef bp, LLVMValueRef accs[][MAX_NV])
{
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	unsigned eb = (unsigned)ir_type_bits(d->ct) / 8;
	bool fl = ir_type_is_float(d->ct);
	LLVMValueRef bv[MAX_NV];
	LLVMValueRef brow = LLVMBuildMul(c->b, k, p->cols, "");
	for (int v = 0; v < p->nv; v++)
		bv[v] = load_vec(c, vt[v], at(c, st, bp, add(c, brow, cg_i64(c, voff[v]))), eb, p->evl);
	for (int64_t r = 0; r < mr; r++) {
		LLVMValueRef a = LLVMBuildLoad2(c->b, st, at(c, st, arow[r], k), "");
		for (int v = 0; v < p->nv; v++)
			accs[r][v] = mul_add(c, fl, a, bv[v], accs[r][v], p->evl);
	}
}

/* The block of rows m0 .. m0+mr-1 and the panel's columns at n0: accumulators from acc (or
 * zeros), then for each k one vector of B per column vector (bp: the packed panel, K rows of
 * p->cols elements) and one broadcast of A per row (arow: the addresses of the block's
 * rows), then the block stored to out. The accumulators start at element coff (the batch).
 * The k loop does pl->ku steps an iteration, the K % ku left after it. */
static void micro_kernel(cg *c, const cpu_dot *d, const plan *pl, LLVMValueRef *arow, LLVMValueRef coff,
			 LLVMValueRef m0, LLVMValueRef n0, int64_t mr, const panel *p, LLVMValueRef bp)
{
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	unsigned eb = (unsigned)ir_type_bits(d->ct) / 8;
	LLVMTypeRef vt[MAX_NV];
	int64_t voff[MAX_NV], off = 0;
	for (int v = 0; v < p->nv; v++) {
		vt[v] = p->evl ? pl->vt : LLVMVectorType(st, (unsigned)p->w[v]);
		voff[v] = off;
		off += p->w[v];
	}
	LLVMValueRef accp[MAX_MR][MAX_NV], acc[MAX_MR][MAX_NV];
	for (int64_t r = 0; r < mr; r++) {
		LLVMValueRef row = add(c, coff, add(c, mul(c, add(c, m0, cg_i64(c, r)), d->n), n0));
		for (int v = 0; v < p->nv; v++) {
			LLVMValueRef idx = add(c, row, cg_i64(c, voff[v]));
			accp[r][v] = at(c, st, d->out, idx);
			acc[r][v] = d->acc ? load_vec(c, vt[v], at(c, st, d->acc, idx), eb, p->evl) : LLVMConstNull(vt[v]);
		}
	}
	/* the next panel's accumulators of these rows, into L1 while this block runs */
		for (int64_t r = 0; r < mr; r++)
			for (int64_t o = 0; o < p->nr * eb; o += 64)
				cpu_prefetch(c, LLVMBuildGEP2(c->b, c->t_i8, accp[r][0], (LLVMValueRef[]){cg_i64(c, p->nr * eb + o)}, 1, ""), false, 3);
	int64_t iters = d->k / pl->ku;
	if (iters > 0) {
		LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
		cgloop lk;
		LLVMValueRef k = loop_open(c, &lk, iters);
		LLVMBasicBlockRef body = LLVMGetInsertBlock(c->b);
		LLVMValueRef phi[MAX_MR][MAX_NV];
		LLVMPositionBuilderBefore(c->b, LLVMGetNextInstruction(lk.iv));
		for (int64_t r = 0; r < mr; r++)
			for (int v = 0; v < p->nv; v++) {
				phi[r][v] = LLVMBuildPhi(c->b, vt[v], "acc");
				LLVMAddIncoming(phi[r][v], &acc[r][v], &pre, 1);
				acc[r][v] = phi[r][v];
			}
		LLVMPositionBuilderAtEnd(c->b, body);
		for (int u = 0; u < pl->ku; u++)
			k_step(c, d, arow, pl->ku == 1 ? k : add(c, mul(c, k, pl->ku), cg_i64(c, u)), mr, p, vt, voff, bp, acc);
		LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
		for (int64_t r = 0; r < mr; r++)
			for (int v = 0; v < p->nv; v++) {
				LLVMAddIncoming(phi[r][v], &acc[r][v], &latch, 1);
				acc[r][v] = phi[r][v];
			}
		loop_close(c, &lk);
	}
	for (int64_t k = iters * pl->ku; k < d->k; k++)
		k_step(c, d, arow, cg_i64(c, k), mr, p, vt, voff, bp, acc);
	for (int64_t r = 0; r < mr; r++)
		for (int v = 0; v < p->nv; v++)
			store_vec(c, acc[r][v], accp[r][v], eb, p->evl);
}

/* Block of rows blk's share (of nblk blocks) of the prefetches of B's rows K rows on (the
 * next block of a K loop), into L2: the rows spread evenly over the blocks, so that the
 * misses overlap the micro-kernels rather than come in one burst. */
static void prefetch_b_next(cg *c, const cpu_dot *d, const bsrc *s, LLVMValueRef blk, int64_t nblk)
{
	if (!s->ahead)
		return;
	int64_t per_row = d->n / d->b_run, q = (d->k + nblk - 1) / nblk;
	int64_t bytes = d->b_run * ir_type_bits(d->b_elem) / 8;
	LLVMValueRef lo = mul(c, blk, q), hi = add(c, lo, cg_i64(c, q));
	hi = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, hi, cg_i64(c, d->k), ""), cg_i64(c, d->k), hi, "");
	cgloop l;
	LLVMValueRef k = loop_open_range(c, &l, lo, hi);
	LLVMValueRef seg = mul(c, add(c, s->brow0, k), per_row);
	/* a line per 64 bytes of each run, from its first byte, and the last byte of the row's
	 * last run (runs need not start on a line; those of a row are usually one after
	 * another, so that this is every line of the row once) */
	for (int64_t j = 0; j < per_row; j++) {
		LLVMValueRef p = b_row(c, d, add(c, seg, cg_i64(c, j)));
		for (int64_t o = 0; o < bytes + (j == per_row - 1 ? 63 : 0); o += 64)
			cpu_prefetch(c, LLVMBuildGEP2(c->b, c->t_i8, p, (LLVMValueRef[]){add(c, s->ahead, cg_i64(c, o < bytes ? o : bytes - 1))}, 1, ""),
				     false, 2);
	}
	loop_close(c, &l);
}

/* One block of rows (m0, mr of them; block blk of nblk) against every panel: nfull panels
 * pf (NULL: none), then pr. A's rows are read where they are: the block's MR x K elements
 * stay in L1 for all the panels (a copy first cost more than it saved). */
static void block_panels(cg *c, const cpu_dot *d, const plan *pl, LLVMValueRef arow0, LLVMValueRef coff,
			 LLVMValueRef m0, int64_t mr, const panel *pf, LLVMValueRef nfull, const panel *pr,
			 LLVMValueRef bp, const bsrc *bs, LLVMValueRef blk, int64_t nblk)
{
	prefetch_b_next(c, d, bs, blk, nblk);
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	LLVMValueRef arow[MAX_MR];
	for (int64_t r = 0; r < mr; r++)
		arow[r] = a_row(c, d, add(c, arow0, add(c, m0, cg_i64(c, r))));
	if (d->m > mr && !pl->lmul) {
		/* the next block of rows, into L2 a short way ahead (a block's rows of A stay
		 * live only while it runs, so that they are few in the cache sets they share);
		 * the last block fetches the first one's for the next block of a K loop */
		int64_t bytes = d->k * ir_type_bits(d->ct) / 8;
		for (int64_t r = 0; r < mr; r++) {
			/* rows past the last are the first ones' next K elements */
			LLVMValueRef row = add(c, m0, cg_i64(c, mr + r));
			LLVMValueRef wrap = LLVMBuildICmp(c->b, LLVMIntSGE, row, cg_i64(c, d->m), "");
			row = LLVMBuildSelect(c->b, wrap, LLVMBuildSub(c->b, row, cg_i64(c, d->m), ""), row, "");
			row = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntSGE, row, cg_i64(c, d->m), ""), cg_i64(c, d->m - 1), row, "");
			LLVMValueRef ahead = LLVMBuildSelect(c->b, wrap, cg_i64(c, d->a_next ? bytes : 0), cg_i64(c, 0), "");
			LLVMValueRef ra = a_row(c, d, add(c, arow0, row));
			/* the last byte's line too: rows need not start on a line */
			for (int64_t o = 0; o < bytes + 63; o += 64)
				cpu_prefetch(c, LLVMBuildGEP2(c->b, c->t_i8, ra,
								  (LLVMValueRef[]){add(c, ahead, cg_i64(c, o < bytes ? o : bytes - 1))}, 1, ""), false, 1);
		}
	}
	if (nfull) {
		cgloop ln;
		LLVMValueRef j = loop_open_range(c, &ln, cg_i64(c, 0), nfull);
		micro_kernel(c, d, pl, arow, coff, m0, LLVMBuildMul(c->b, j, pf->cols, ""), mr, pf,
			     at(c, st, bp, LLVMBuildMul(c->b, j, panel_stride(c, d, pf), "")));
		loop_close(c, &ln);
	}
	if (pr->nv > 0) {
		LLVMValueRef n = nfull ? nfull : cg_i64(c, 0);
		micro_kernel(c, d, pl, arow, coff, m0, LLVMBuildMul(c->b, n, pf->cols, ""), mr, pr,
			     at(c, st, bp, LLVMBuildMul(c->b, n, panel_stride(c, d, pf), "")));
	}
}

/* A panel of nr columns in vectors of vw lanes (the last one narrower when nr is not a
 * multiple of vw). */
static panel make_panel(cg *c, int64_t nr, int64_t vw)
{
	panel p = {0};
	p.nr = nr;
	p.cols = cg_i64(c, nr);
	for (int64_t left = nr; left > 0; left -= vw)
		p.w[p.nv++] = (int)(left < vw ? left : vw);
	return p;
}

/* The RVV plan's vectors: pl->vt, and pl->vl = min(N, VLMAX) from llvm.vscale; the panel
 * of vl columns, one vector. */
static panel rvv_panel(cg *c, const cpu_dot *d, plan *pl)
{
	unsigned lanes = (unsigned)(64 / ir_type_bits(d->ct) * pl->lmul);
	pl->vt = LLVMScalableVectorType(cg_scalar_type(c, d->ct), lanes);
	LLVMTypeRef fty;
	LLVMValueRef f = cg_intrinsic(c, "llvm.vscale", &c->t_i64, 1, &fty);
	LLVMValueRef vlmax = mul(c, LLVMBuildCall2(c->b, fty, f, NULL, 0, "vscale"), lanes);
	LLVMValueRef n = cg_i64(c, d->n);
	pl->vl = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntULT, n, vlmax, ""), n, vlmax, "vl");
	panel p = {.nv = 1, .cols = pl->vl, .evl = LLVMBuildTrunc(c->b, pl->vl, c->t_i32, "")};
	return p;
}

void cpu_dot_lower(cg *c, const cpu_dot *d)
{
	if (d->m <= 0 || d->n <= 0)
		return;
	plan pl = choose_plan(c, d);
	int64_t mr = pl.mr;
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	panel pf, pr = {0};
	LLVMValueRef bp, nfull = NULL;
	if (pl.lmul) {
		/* the vectors' length is read outside every loop (llvm.vscale), so that one
		 * vsetvli serves them all */
		pf = rvv_panel(c, d, &pl);
		nfull = LLVMBuildUDiv(c->b, cg_i64(c, d->n), pl.vl, "npanels");
		bp = cpu_alloca(c, LLVMArrayType2(st, (uint64_t)(d->k * d->n)), "bpack");
	} else {
		int64_t nr = pl.vw * pl.nv, full = d->n / nr, rest = d->n % nr;
		if (c->vec_bytes >= 64 && !is_riscv(c)) {
			/* keep the 512-bit vectors whole on CPUs that prefer 256 (skylake-avx512) */
			LLVMAttributeRef at = LLVMCreateStringAttribute(c->ctx, "min-legal-vector-width", 22, "512", 3);
			LLVMAddAttributeAtIndex(c->fn, LLVMAttributeFunctionIndex, at);
		}
		pf = make_panel(c, nr, pl.vw);
		pr = make_panel(c, rest, pl.vw);
		nfull = full > 0 ? cg_i64(c, full) : NULL;
		int64_t stride = LLVMConstIntGetSExtValue(panel_stride(c, d, &pf));
		bp = cpu_alloca(c, LLVMArrayType2(st, (uint64_t)((full + 1) * stride)), "bpack");
	}
	cgloop lb;
	LLVMValueRef bi = loop_open(c, &lb, d->batch);
	LLVMValueRef arow0 = mul(c, bi, d->m), coff = mul(c, bi, d->m * d->n);
	bsrc pk = b_source(c, d, &pl, mul(c, bi, d->k));
	if (pl.lmul)
		pack_b_rvv(c, d, &pl, bp, &pk, &pf, nfull);
	else
		pack_b(c, d, bp, &pk, &pf, nfull ? d->n / pf.nr : 0, &pr);
	/* blocks of rows outside, panels inside: a block of A (MR x K) stays in L1 for all
	 * the panels, and the packed B (K x N) streams from L2 */
	int64_t mfull = d->m / mr, mrest = d->m % mr, mlast[2] = {mrest, 0};
	if (!is_riscv(c) && mrest > 0 && mrest < mr / 2 && mfull > 0) {
		/* a last block of a few rows has too few accumulators to hide the FMAs' latency:
		 * the last full block and the rest as two blocks of about equal size instead */
		mfull--;
		mlast[0] = (mr + mrest + 1) / 2;
		mlast[1] = mr + mrest - mlast[0];
	}
	int64_t nblk = mfull + (mlast[0] > 0) + (mlast[1] > 0);
	if (mfull > 0) {
		cgloop lm;
		LLVMValueRef m0 = mul(c, loop_open(c, &lm, mfull), mr);
		block_panels(c, d, &pl, arow0, coff, m0, mr, &pf, nfull, &pr, bp, &pk, lm.iv, nblk);
		loop_close(c, &lm);
	}
	for (int i = 0; i < 2; i++)
		if (mlast[i] > 0)
			block_panels(c, d, &pl, arow0, coff, cg_i64(c, mfull * mr + (i ? mlast[0] : 0)), mlast[i], &pf,
				     nfull, &pr, bp, &pk, cg_i64(c, mfull + i), nblk);
	loop_close(c, &lb);
}
