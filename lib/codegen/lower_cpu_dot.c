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
 *   riscv64 RVV (256-bit)   8        16 groups  4 x 2      8
 *   (NV = 1 when N fits one vector: MR doubles)
 *
 * Rows left over (M % MR) get a block of fewer rows; on x86-64, when they are fewer than
 * MR / 2 (the bench's 128 rows: 21 x 6 + 2), the last full block and they are two blocks of
 * about equal size instead (20 x 6 + 4 + 4), since a block of 2 rows has 4 accumulators,
 * too few to cover the FMA's latency. Columns left over (N % NR) get a panel of narrower
 * vectors (a last vector of any width: LLVM splits it into legal pieces). */
#include <string.h>

#include "codegen/lower_cpu.h"

enum { MAX_MR = 16, MAX_NV = 4 };

/* A panel of columns: nv vectors of w[v] lanes each, nr columns in all. */
typedef struct panel {
	int nv;
	int w[MAX_NV];
	int64_t nr;
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

/* VW, MR and NV for the dot's compute type and the target (the table above). */
static void choose_block(cg *c, const cpu_dot *d, int64_t *vw, int64_t *mr, int *nv)
{
	int ebytes = ir_type_bits(d->ct) / 8;
	*vw = c->vec_bytes / ebytes;
	if (*vw < 1)
		*vw = 1;
	if (*vw > d->n)
		*vw = d->n;
	*nv = d->n >= 2 * *vw ? 2 : 1;
	if (is_riscv(c))
		*mr = 4;
	else if (c->vec_bytes >= 64)
		*mr = 8;
	else
		*mr = 6;
	if (*nv == 1)
		*mr *= 2;
	if (*mr > d->m)
		*mr = d->m;
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

static LLVMValueRef load_vec(cg *c, LLVMTypeRef vt, LLVMValueRef p, unsigned align)
{
	LLVMValueRef v = LLVMBuildLoad2(c->b, vt, p, "");
	LLVMSetAlignment(v, align);
	return v;
}

static void store_vec(cg *c, LLVMValueRef v, LLVMValueRef p, unsigned align)
{
	LLVMSetAlignment(LLVMBuildStore(c->b, v, p), align);
}

/* w elements of B (type b_elem) at p as a vector of the compute type. */
static LLVMValueRef load_b(cg *c, const cpu_dot *d, LLVMValueRef p, int w)
{
	LLVMTypeRef ct = cg_scalar_type(c, d->ct);
	if (d->b_elem == d->ct)
		return load_vec(c, LLVMVectorType(ct, (unsigned)w), p, (unsigned)ir_type_bits(d->ct) / 8);
	if (d->b_elem->kind == IR_BF16) {
		/* bf16 is the high half of an fp32: exact, and the same on every target */
		LLVMValueRef h = load_vec(c, LLVMVectorType(c->t_i16, (unsigned)w), p, 2);
		LLVMTypeRef i32v = LLVMVectorType(c->t_i32, (unsigned)w);
		LLVMValueRef sh[64];
		for (int i = 0; i < w; i++)
			sh[i] = cg_i32(c, 16);
		LLVMValueRef x = LLVMBuildShl(c->b, LLVMBuildZExt(c->b, h, i32v, ""), LLVMConstVector(sh, (unsigned)w), "");
		return LLVMBuildBitCast(c->b, x, LLVMVectorType(ct, (unsigned)w), "");
	}
	LLVMValueRef h = load_vec(c, LLVMVectorType(c->t_f16, (unsigned)w), p, 2);
	return LLVMBuildFPExt(c->b, h, LLVMVectorType(ct, (unsigned)w), "");
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

static bsrc b_source(cg *c, const cpu_dot *d, LLVMValueRef brow0)
{
	bsrc s = {brow0, NULL};
	int64_t per_row = d->n / d->b_run;
	if (d->b_prefetch && d->k > 1) {
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
static int64_t panel_stride(const cpu_dot *d, const panel *pf)
{
	int64_t eb = ir_type_bits(d->ct) / 8, s = d->k * pf->nr;
	if ((s * eb) % 4096 == 0)
		s += 64 / eb;
	return s;
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
		LLVMValueRef dst = add(c, mul(c, j, panel_stride(d, pf)), mul(c, k, p->nr));
		int64_t off = 0;
		for (int v = 0; v < p->nv; v++) {
			LLVMValueRef src = b_elem_at(c, d, bs, k, add(c, n0, cg_i64(c, off)));
			LLVMValueRef x = load_b(c, d, src, p->w[v]);
			if ((off * align) % 64 == 0) /* the line 4 rows of the panel on: prefetchw */
				cpu_prefetch(c, at(c, st, bp, add(c, dst, cg_i64(c, off + 4 * p->nr))), true, 3);
			store_vec(c, x, at(c, st, bp, add(c, dst, cg_i64(c, off))), align);
			off += p->w[v];
		}
		if (part == 0)
			loop_close(c, &lj);
	}
	loop_close(c, &lk);
}

/* The block of rows m0 .. m0+mr-1 and the panel's columns at n0: accumulators from acc (or
 * zeros), then for each k one vector of B per column vector (bp: the packed panel, K rows of
 * p->nr elements) and one broadcast of A per row (arow: the addresses of the block's rows),
 * then the block stored to out. The accumulators start at element coff (the batch). */
static void micro_kernel(cg *c, const cpu_dot *d, LLVMValueRef *arow, LLVMValueRef coff, LLVMValueRef m0,
			 LLVMValueRef n0, int64_t mr, const panel *p, LLVMValueRef bp)
{
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	unsigned eb = (unsigned)ir_type_bits(d->ct) / 8;
	bool fl = ir_type_is_float(d->ct);
	LLVMTypeRef vt[MAX_NV], fmaty[MAX_NV];
	LLVMValueRef fma[MAX_NV];
	int64_t voff[MAX_NV], off = 0;
	for (int v = 0; v < p->nv; v++) {
		vt[v] = LLVMVectorType(st, (unsigned)p->w[v]);
		fma[v] = fl ? cg_intrinsic(c, "llvm.fma", &vt[v], 1, &fmaty[v]) : NULL;
		voff[v] = off;
		off += p->w[v];
	}
	LLVMValueRef accp[MAX_MR][MAX_NV], acc0[MAX_MR][MAX_NV];
	for (int64_t r = 0; r < mr; r++) {
		LLVMValueRef row = add(c, coff, add(c, mul(c, add(c, m0, cg_i64(c, r)), d->n), n0));
		for (int v = 0; v < p->nv; v++) {
			LLVMValueRef idx = add(c, row, cg_i64(c, voff[v]));
			accp[r][v] = at(c, st, d->out, idx);
			acc0[r][v] = d->acc ? load_vec(c, vt[v], at(c, st, d->acc, idx), eb) : LLVMConstNull(vt[v]);
		}
	}
	/* the next panel's accumulators of these rows, into L1 while this block runs */
		for (int64_t r = 0; r < mr; r++)
			for (int64_t o = 0; o < p->nr * eb; o += 64)
				cpu_prefetch(c, LLVMBuildGEP2(c->b, c->t_i8, accp[r][0], (LLVMValueRef[]){cg_i64(c, p->nr * eb + o)}, 1, ""), false, 3);
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(c->b);
	cgloop lk;
	LLVMValueRef k = loop_open(c, &lk, d->k);
	LLVMBasicBlockRef body = LLVMGetInsertBlock(c->b);
	LLVMValueRef phi[MAX_MR][MAX_NV];
	LLVMPositionBuilderBefore(c->b, LLVMGetNextInstruction(lk.iv));
	for (int64_t r = 0; r < mr; r++)
		for (int v = 0; v < p->nv; v++) {
			phi[r][v] = LLVMBuildPhi(c->b, vt[v], "acc");
			LLVMAddIncoming(phi[r][v], &acc0[r][v], &pre, 1);
		}
	LLVMPositionBuilderAtEnd(c->b, body);
	LLVMValueRef bv[MAX_NV];
	LLVMValueRef brow = mul(c, k, p->nr);
	for (int v = 0; v < p->nv; v++)
		bv[v] = load_vec(c, vt[v], at(c, st, bp, add(c, brow, cg_i64(c, voff[v]))), eb);
	LLVMValueRef nacc[MAX_MR][MAX_NV];
	for (int64_t r = 0; r < mr; r++) {
		LLVMValueRef a = LLVMBuildLoad2(c->b, st, at(c, st, arow[r], k), "");
		for (int v = 0; v < p->nv; v++) {
			LLVMTypeRef mt = LLVMVectorType(c->t_i32, (unsigned)p->w[v]);
			LLVMValueRef av = LLVMBuildInsertElement(c->b, LLVMGetPoison(vt[v]), a, cg_i32(c, 0), "");
			av = LLVMBuildShuffleVector(c->b, av, LLVMGetPoison(vt[v]), LLVMConstNull(mt), "");
			if (fl) {
				LLVMValueRef args[3] = {av, bv[v], phi[r][v]};
				nacc[r][v] = LLVMBuildCall2(c->b, fmaty[v], fma[v], args, 3, "");
			} else {
				nacc[r][v] = add(c, phi[r][v], LLVMBuildMul(c->b, av, bv[v], ""));
			}
		}
	}
	LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->b);
	for (int64_t r = 0; r < mr; r++)
		for (int v = 0; v < p->nv; v++)
			LLVMAddIncoming(phi[r][v], &nacc[r][v], &latch, 1);
	loop_close(c, &lk);
	for (int64_t r = 0; r < mr; r++)
		for (int v = 0; v < p->nv; v++)
			store_vec(c, phi[r][v], accp[r][v], eb);
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

/* One block of rows (m0, mr of them) against every panel: nfull panels pf, then pr. A's
 * rows are read where they are: the block's MR x K elements stay in L1 for all the panels
 * (a copy first cost more than it saved). */
static void block_panels(cg *c, const cpu_dot *d, LLVMValueRef arow0, LLVMValueRef coff, LLVMValueRef m0,
			 int64_t mr, const panel *pf, int64_t nfull, const panel *pr, LLVMValueRef bp, const bsrc *bs,
			 LLVMValueRef blk, int64_t nblk)
{
	prefetch_b_next(c, d, bs, blk, nblk);
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	LLVMValueRef arow[MAX_MR];
	for (int64_t r = 0; r < mr; r++)
		arow[r] = a_row(c, d, add(c, arow0, add(c, m0, cg_i64(c, r))));
	if (d->m > mr) {
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
	if (nfull > 0) {
		cgloop ln;
		LLVMValueRef j = loop_open(c, &ln, nfull);
		micro_kernel(c, d, arow, coff, m0, mul(c, j, pf->nr), mr, pf, at(c, st, bp, mul(c, j, panel_stride(d, pf))));
		loop_close(c, &ln);
	}
	if (pr->nv > 0)
		micro_kernel(c, d, arow, coff, m0, cg_i64(c, nfull * pf->nr), mr, pr,
			     at(c, st, bp, cg_i64(c, nfull * panel_stride(d, pf))));
}

/* A panel of nr columns in vectors of vw lanes (the last one narrower when nr is not a
 * multiple of vw). */
static panel make_panel(int64_t nr, int64_t vw)
{
	panel p = {0};
	p.nr = nr;
	for (int64_t left = nr; left > 0; left -= vw)
		p.w[p.nv++] = (int)(left < vw ? left : vw);
	return p;
}

void cpu_dot_lower(cg *c, const cpu_dot *d)
{
	if (d->m <= 0 || d->n <= 0)
		return;
	int64_t vw, mr;
	int nv;
	choose_block(c, d, &vw, &mr, &nv);
	int64_t nr = vw * nv, full = d->n / nr, rest = d->n % nr;
	if (c->vec_bytes >= 64 && !is_riscv(c)) {
		/* keep the 512-bit vectors whole on CPUs that prefer 256 (skylake-avx512) */
		LLVMAttributeRef at = LLVMCreateStringAttribute(c->ctx, "min-legal-vector-width", 22, "512", 3);
		LLVMAddAttributeAtIndex(c->fn, LLVMAttributeFunctionIndex, at);
	}
	panel pf = make_panel(nr, vw), pr = make_panel(rest, vw);
	LLVMTypeRef st = cg_scalar_type(c, d->ct);
	LLVMValueRef bp = cpu_alloca(c, LLVMArrayType2(st, (uint64_t)((full + 1) * panel_stride(d, &pf))), "bpack");
	cgloop lb;
	LLVMValueRef bi = loop_open(c, &lb, d->batch);
	LLVMValueRef arow0 = mul(c, bi, d->m), coff = mul(c, bi, d->m * d->n);
	bsrc pk = b_source(c, d, mul(c, bi, d->k));
	pack_b(c, d, bp, &pk, &pf, full, &pr);
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
		block_panels(c, d, arow0, coff, m0, mr, &pf, full, &pr, bp, &pk, lm.iv, nblk);
		loop_close(c, &lm);
	}
	for (int i = 0; i < 2; i++)
		if (mlast[i] > 0)
			block_panels(c, d, arow0, coff, cg_i64(c, mfull * mr + (i ? mlast[0] : 0)), mlast[i], &pf, full, &pr,
				     bp, &pk, cg_i64(c, mfull + i), nblk);
	loop_close(c, &lb);
}
