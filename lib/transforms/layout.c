/* layout.c: GPU layouts as values: the canonical blocked layout of a tile, parsing and
 * printing the text form tile types carry, and which elements a thread holds.
 *
 * A blocked layout over rank r: per dimension d, each thread holds spt[d] consecutive
 * elements, the lanes of a warp span tpw[d] such groups and the warps wpc[d] such spans;
 * the CTA thus covers C[d] = spt[d] * tpw[d] * wpc[d] elements along d, repeated to cover
 * a larger tile and wrapped (copies) over a smaller one. Lane and warp indices split over
 * the dimensions fastest first (order[0] is the fastest dimension). A thread's slots are
 * numbered with its spt elements fastest, then the repetitions, each fastest dimension
 * first. A slice layout is its parent blocked layout with one dimension removed: the
 * layout of a reduction's result along that dimension. */
#include <stdlib.h>
#include <string.h>

#include "transforms/gpu_layout.h"

/* Spreads n (a power of two) over dims from the last, each taking what its remaining
 * extent room[d] allows; what is left goes to the outermost dim (wrapping). */
static void spread(int rank, int64_t n, int64_t *room, int *out)
{
	for (int d = rank - 1; d >= 0; d--) {
		int64_t k = 1;
		while (k * 2 <= n && room[d] % (k * 2) == 0)
			k *= 2;
		out[d] = (int)k;
		room[d] /= k;
		n /= k;
	}
	out[0] *= (int)n;
}

gpu_layout gpu_layout_canonical(const ir_type *t, int warp, int warps)
{
	gpu_layout l = {.kind = GPU_BLOCKED, .rank = t->rank};
	if (t->rank > GPU_MAX_RANK) {
		l.rank = 0; /* deeper tiles have no layout: the flattened distribution only */
		return l;
	}
	int64_t n = ir_type_numel(t);
	int64_t room[GPU_MAX_RANK];
	for (int d = 0; d < t->rank; d++) {
		room[d] = t->shape[d];
		l.order[d] = t->rank - 1 - d;
	}
	spread(t->rank, n >= warp * warps ? gpu_group(n, warp * warps) : 1, room, l.spt);
	spread(t->rank, warp, room, l.tpw);
	spread(t->rank, warps, room, l.wpc);
	return l;
}

static void put_list(strbuf *s, const char *name, const int *v, int n)
{
	strbuf_printf(s, "%s [", name);
	for (int i = 0; i < n; i++)
		strbuf_printf(s, "%s%d", i ? ", " : "", v[i]);
	strbuf_printf(s, "]");
}

gpu_layout gpu_layout_shared_for(const ir_type *t, bool swizzle)
{
	gpu_layout l = {.kind = GPU_SHARED, .rank = 2, .order = {1, 0}};
	int64_t eb = t->elem->kind == IR_I1 ? 1 : ir_type_bits(t->elem) / 8;
	int64_t row = t->shape[1] * (eb > 0 ? eb : 1);
	l.vec = (int)(16 / (eb > 0 ? eb : 1));
	if (l.vec > t->shape[1])
		l.vec = (int)t->shape[1];
	l.per_phase = row >= 128 ? 1 : (int)(128 / row);
	int groups = (int)(t->shape[1] / l.vec);
	l.max_phase = 8 / l.per_phase;
	if (l.max_phase > groups)
		l.max_phase = groups;
	if (l.max_phase < 1 || !swizzle)
		l.max_phase = 1;
	if (!swizzle)
		l.per_phase = 1;
	return l;
}

gpu_layout gpu_layout_shared_for_transposed(const ir_type *t)
{
	int64_t shape[2] = {t->shape[1], t->shape[0]};
	ir_type tt = *t;
	tt.shape = shape;
	gpu_layout l = gpu_layout_shared_for(&tt, true);
	l.order[0] = 0, l.order[1] = 1;
	return l;
}

gpu_layout gpu_layout_shared_nvmma(const ir_type *t, bool transposed)
{
	gpu_layout l = {.kind = GPU_BLOCKED};
	if (t->rank != 2)
		return l;
	l = gpu_layout_nvmma(t->shape[transposed ? 0 : 1], ir_type_bits(t->elem) / 8);
	if (transposed && l.kind == GPU_SHARED)
		l.order[0] = 0, l.order[1] = 1;
	return l;
}

gpu_layout gpu_layout_nvmma(int64_t cols, int64_t eb)
{
	gpu_layout l = {.kind = GPU_BLOCKED};
	if (eb < 1 || eb > 4)
		return l;
	int64_t row = cols * eb;
	int bytes = row % 128 == 0 ? 128 : row % 64 == 0 ? 64 : row % 32 == 0 ? 32 : 0;
	if (!bytes)
		return l;
	l.kind = GPU_SHARED;
	l.rank = 2;
	l.order[0] = 1, l.order[1] = 0;
	l.vec = (int)(16 / eb);
	/* the hardware's swizzle: address bits 4.. (the 16-byte group) XOR bits 7.. (the
	 * 128-byte line) over 3, 2 or 1 bits; a line holds 128 / bytes rows */
	l.per_phase = 128 / bytes;
	l.max_phase = bytes / 16;
	l.panel = row > bytes ? (int)(bytes / eb) : 0;
	return l;
}

int gpu_layout_nvmma_bytes(const gpu_layout *l, int64_t eb)
{
	if (l->kind != GPU_SHARED || l->vec * eb != 16)
		return 0;
	int bytes = l->max_phase * 16;
	if ((bytes != 128 && bytes != 64 && bytes != 32) || l->per_phase != 128 / bytes)
		return 0;
	return bytes;
}

int64_t gpu_layout_shared_align(const gpu_layout *l, const ir_type *t)
{
	int bytes = gpu_layout_nvmma_bytes(l, ir_type_bits(t->elem) / 8);
	/* a row of the panel (or of the tile) as wide as the mode: 8 rows make the pattern */
	int64_t eb = ir_type_bits(t->elem) / 8;
	int64_t row = (l->panel ? l->panel : t->shape[l->order[0] == 0 ? 0 : 1]) * eb;
	return bytes && row == bytes ? 8 * bytes : 16;
}

int64_t gpu_layout_swizzle(const gpu_layout *l, const int64_t *shape, int64_t r, int64_t c)
{
	if (l->order[0] == 0) { /* stored transposed: rows of the tile's dim 0 */
		int64_t st[2] = {shape[1], shape[0]};
		gpu_layout t = *l;
		t.order[0] = 1, t.order[1] = 0;
		return gpu_layout_swizzle(&t, st, c, r);
	}
	int64_t w = l->panel ? l->panel : shape[1]; /* the row of one panel */
	int64_t phase = (r / l->per_phase) % l->max_phase, cc = c % w;
	return (c / w) * shape[0] * w + r * w + (((cc / l->vec) ^ phase) * l->vec) + cc % l->vec;
}

const ir_type *gpu_type_in_layout(ir_context *c, const ir_type *t, const gpu_layout *l)
{
	strbuf b = {0};
	gpu_layout_print(&b, l);
	const ir_type *r = b.data ? ir_type_tile_layout(c, t->elem, t->rank, t->shape, b.data) : NULL;
	strbuf_free(&b);
	return r;
}

void gpu_layout_print(strbuf *s, const gpu_layout *l)
{
	if (l->kind == GPU_SHARED) {
		strbuf_printf(s, "shared<vec = %d, per_phase = %d, max_phase = %d, ", l->vec, l->per_phase,
			      l->max_phase);
		put_list(s, "order =", l->order, l->rank);
		if (l->panel)
			strbuf_printf(s, ", panel = %d", l->panel);
		strbuf_printf(s, ">");
		return;
	}
	if (l->kind == GPU_DOT_OP) {
		strbuf_printf(s, "dot_op<opIdx = %d, parent = #mma<version = 2, ", l->opidx);
		put_list(s, "warps", l->wpc, 2);
		strbuf_printf(s, ">, kWidth = %d>", l->kwidth);
		return;
	}
	if (l->kind == GPU_SLICE)
		strbuf_printf(s, "slice<dim = %d, parent = #", l->dim);
	if (l->mma == 4) {
		strbuf_printf(s, "mfma<");
		put_list(s, "warps", l->wpc, l->rank);
		strbuf_printf(s, ", instr [%d, %d]%s", l->instr_n, l->instr_n, l->kind == GPU_SLICE ? ">>" : ">");
		return;
	}
	if (l->mma) {
		strbuf_printf(s, "mma<version = %d, ", l->mma);
		put_list(s, "warps", l->wpc, l->rank);
		if (l->mma == 3)
			strbuf_printf(s, ", instr [64, %d, 16]", l->instr_n);
		strbuf_printf(s, l->kind == GPU_SLICE ? ">>" : ">");
		return;
	}
	strbuf_printf(s, "blocked<");
	put_list(s, "per_thread", l->spt, l->rank);
	strbuf_printf(s, ", ");
	put_list(s, "lanes", l->tpw, l->rank);
	strbuf_printf(s, ", ");
	put_list(s, "warps", l->wpc, l->rank);
	strbuf_printf(s, ", ");
	put_list(s, "order", l->order, l->rank);
	strbuf_printf(s, ">");
	if (l->kind == GPU_SLICE)
		strbuf_printf(s, ">");
}

/* ---- parsing ------------------------------------------------------------------------------ */

static bool lit(const char **p, const char *s)
{
	while (**p == ' ')
		(*p)++;
	size_t n = strlen(s);
	if (strncmp(*p, s, n))
		return false;
	*p += n;
	return true;
}

static bool num(const char **p, int *v)
{
	while (**p == ' ')
		(*p)++;
	char *end;
	long x = strtol(*p, &end, 10);
	if (end == *p || x < 0 || x > 1 << 20)
		return false;
	*v = (int)x;
	*p = end;
	return true;
}

static bool list(const char **p, const char *name, int *v, int *n)
{
	if (!lit(p, name) || !lit(p, "["))
		return false;
	*n = 0;
	do {
		if (*n == GPU_MAX_RANK || !num(p, &v[(*n)++]))
			return false;
	} while (lit(p, ","));
	return lit(p, "]");
}

static bool pow2(int x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

static bool blocked(const char **p, gpu_layout *l)
{
	int n[4];
	if (!lit(p, "blocked<") || !list(p, "per_thread", l->spt, &n[0]) || !lit(p, ",") ||
	    !list(p, "lanes", l->tpw, &n[1]) || !lit(p, ",") || !list(p, "warps", l->wpc, &n[2]) ||
	    !lit(p, ",") || !list(p, "order", l->order, &n[3]) || !lit(p, ">"))
		return false;
	if (n[1] != n[0] || n[2] != n[0] || n[3] != n[0])
		return false;
	l->rank = n[0];
	unsigned seen = 0;
	for (int d = 0; d < l->rank; d++) {
		if (!pow2(l->spt[d]) || !pow2(l->tpw[d]) || !pow2(l->wpc[d]) || l->order[d] >= l->rank ||
		    (seen & 1u << l->order[d]))
			return false;
		seen |= 1u << l->order[d];
	}
	return true;
}

/* mma<version = 2, warps [W0, W1]> | mma<version = 3, warps [W0, W1], instr [64, N, 16]>:
 * the blocked distribution it stands for (gpu_layout.h); version 3 needs whole warpgroups
 * along M (W0 a multiple of 4) and N a multiple of 8 up to 256 */
static bool mma(const char **p, gpu_layout *l)
{
	int n = 0, v = 0, in[GPU_MAX_RANK], ni = 0;
	if (!lit(p, "mma<") || !lit(p, "version") || !lit(p, "=") || !num(p, &v) || (v != 2 && v != 3) ||
	    !lit(p, ",") || !list(p, "warps", l->wpc, &n) || n != 2 || !pow2(l->wpc[0]) || !pow2(l->wpc[1]))
		return false;
	if (v == 3 && (!lit(p, ",") || !list(p, "instr", in, &ni) || ni != 3 || in[0] != 64 || in[2] != 16 ||
		       in[1] < 8 || in[1] > 256 || in[1] % 8 || l->wpc[0] % 4))
		return false;
	if (!lit(p, ">"))
		return false;
	if (v == 3)
		gpu_layout_wgmma_fill(l, l->wpc[0], l->wpc[1], in[1]);
	else
		gpu_layout_mma_fill(l, l->wpc[0], l->wpc[1]);
	return true;
}

/* mfma<warps [W0, W1], instr [S, S]>, S = 32 or 16 */
static bool mfma(const char **p, gpu_layout *l)
{
	int n = 0, in[GPU_MAX_RANK], ni = 0;
	if (!lit(p, "mfma<") || !list(p, "warps", l->wpc, &n) || n != 2 || !pow2(l->wpc[0]) || !pow2(l->wpc[1]) ||
	    !lit(p, ",") || !list(p, "instr", in, &ni) || ni != 2 || in[0] != in[1] || (in[0] != 32 && in[0] != 16) ||
	    !lit(p, ">"))
		return false;
	gpu_layout_mfma_fill(l, l->wpc[0], l->wpc[1], in[0]);
	return true;
}

static bool parent(const char **p, gpu_layout *l)
{
	const char *q = *p, *r = *p;
	if (lit(&r, "mfma<"))
		return mfma(p, l);
	return lit(&q, "mma<") ? mma(p, l) : blocked(p, l);
}

void gpu_layout_mma_fill(gpu_layout *l, int w0, int w1)
{
	l->rank = 2;
	l->mma = 2;
	l->instr_n = 0;
	l->spt[0] = 1, l->spt[1] = 2;
	l->tpw[0] = 8, l->tpw[1] = 4;
	l->wpc[0] = w0, l->wpc[1] = w1;
	l->order[0] = 1, l->order[1] = 0;
}

void gpu_layout_wgmma_fill(gpu_layout *l, int w0, int w1, int instr_n)
{
	gpu_layout_mma_fill(l, w0, w1);
	l->mma = 3;
	l->instr_n = instr_n;
}

void gpu_layout_mfma_fill(gpu_layout *l, int w0, int w1, int nonk)
{
	l->rank = 2;
	l->mma = 4;
	l->instr_n = nonk;
	l->spt[0] = 4, l->spt[1] = 1;
	l->tpw[0] = 64 / nonk, l->tpw[1] = nonk;
	l->wpc[0] = w0, l->wpc[1] = w1;
	l->order[0] = 1, l->order[1] = 0;
}

void gpu_layout_dot_op_fill(gpu_layout *l, int opidx, int w0, int w1)
{
	memset(l, 0, sizeof *l);
	gpu_layout_mma_fill(l, w0, w1);
	l->kind = GPU_DOT_OP;
	l->mma = 0; /* not an accumulator: nothing that asks for one may take it */
	l->opidx = opidx;
	l->kwidth = 2;
}

void gpu_dot_op_coord(const gpu_layout *l, const int64_t *shape, int lane, int w0, int w1, int e, int64_t *row,
		      int64_t *col)
{
	int g = lane / 4, t = lane % 4, h = e % 2;
	int64_t W0 = l->wpc[0], W1 = l->wpc[1];
	if (l->opidx == 0) {
		int64_t ks = shape[1] / 16, q = (e / 2) % 4, kk = (e / 8) % ks, i = e / 8 / ks;
		*row = (2 * i + q % 2) * 8 * W0 + 8 * w0 + g;
		*col = 16 * kk + 8 * (q / 2) + 2 * t + h;
	} else {
		int64_t ks = shape[0] / 16, q = (e / 2) % 2, kk = (e / 4) % ks, j = e / 4 / ks;
		*row = 16 * kk + 8 * q + 2 * t + h;
		*col = (j * W1 + w1) * 8 + g;
	}
}

/* dot_op<opIdx = N, parent = #mma<version = 2, warps [W0, W1]>, kWidth = 2> */
static bool dot_op(const char **p, gpu_layout *l)
{
	int idx = 0, kw = 0;
	gpu_layout par;
	memset(&par, 0, sizeof par);
	if (!lit(p, "opIdx") || !lit(p, "=") || !num(p, &idx) || idx > 1 || !lit(p, ",") || !lit(p, "parent") ||
	    !lit(p, "=") || !lit(p, "#") || !mma(p, &par) || par.mma != 2 || !lit(p, ",") || !lit(p, "kWidth") ||
	    !lit(p, "=") || !num(p, &kw) || kw != 2 || !lit(p, ">"))
		return false;
	gpu_layout_dot_op_fill(l, idx, par.wpc[0], par.wpc[1]);
	return true;
}

bool gpu_layout_parse(const char *text, gpu_layout *l)
{
	memset(l, 0, sizeof *l);
	const char *p = text;
	if (lit(&p, "dot_op<")) {
		if (!dot_op(&p, l))
			return false;
	} else if (lit(&p, "shared<")) {
		int n = 0;
		l->kind = GPU_SHARED;
		if (!lit(&p, "vec") || !lit(&p, "=") || !num(&p, &l->vec) || !lit(&p, ",") ||
		    !lit(&p, "per_phase") || !lit(&p, "=") || !num(&p, &l->per_phase) || !lit(&p, ",") ||
		    !lit(&p, "max_phase") || !lit(&p, "=") || !num(&p, &l->max_phase) || !lit(&p, ",") ||
		    !list(&p, "order =", l->order, &n) || n != 2 || l->order[0] == l->order[1] || l->order[0] > 1 ||
		    l->order[1] > 1 || !pow2(l->vec) || !pow2(l->per_phase) || !pow2(l->max_phase))
			return false;
		if (lit(&p, ",") && (!lit(&p, "panel") || !lit(&p, "=") || !num(&p, &l->panel) || !pow2(l->panel) ||
				     l->panel < l->vec * l->max_phase))
			return false;
		if (!lit(&p, ">"))
			return false;
		l->rank = 2;
	} else if (lit(&p, "slice<")) {
		l->kind = GPU_SLICE;
		if (!lit(&p, "dim") || !lit(&p, "=") || !num(&p, &l->dim) || !lit(&p, ",") ||
		    !lit(&p, "parent") || !lit(&p, "=") || !lit(&p, "#") || !parent(&p, l) ||
		    !lit(&p, ">") || l->dim >= l->rank || l->rank < 2)
			return false;
	} else if (!parent(&p, l)) {
		return false;
	}
	while (*p == ' ')
		p++;
	return *p == 0;
}

bool gpu_layout_equal(const gpu_layout *a, const gpu_layout *b)
{
	if (a->kind != b->kind || a->rank != b->rank || (a->kind == GPU_SLICE && a->dim != b->dim) ||
	    a->mma != b->mma)
		return false;
	/* the instruction's N places columns only when warpgroups sit side by side along N
	 * (W1 > 1); with W1 = 1 every N gives the same distribution, and only the dot that
	 * produces the tile reads it */
	if (a->mma == 3 && a->instr_n != b->instr_n && (a->wpc[1] != 1 || b->wpc[1] != 1))
		return false;
	if (a->kind == GPU_SHARED)
		return a->vec == b->vec && a->per_phase == b->per_phase && a->max_phase == b->max_phase &&
		       a->panel == b->panel && a->order[0] == b->order[0];
	if (a->kind == GPU_DOT_OP)
		return a->opidx == b->opidx && a->kwidth == b->kwidth && a->wpc[0] == b->wpc[0] &&
		       a->wpc[1] == b->wpc[1];
	for (int d = 0; d < a->rank; d++)
		if (a->spt[d] != b->spt[d] || a->tpw[d] != b->tpw[d] || a->wpc[d] != b->wpc[d] ||
		    a->order[d] != b->order[d])
			return false;
	return true;
}

/* ---- which elements a thread holds ---------------------------------------------------------- */

/* The extent along parent dim d of a tile of `shape` in layout l (a slice has 1 along its
 * removed dim), or -1 when the ranks do not fit. */
static int64_t extent(const gpu_layout *l, const int64_t *shape, int rank, int d)
{
	if (l->kind == GPU_SLICE) {
		if (rank != l->rank - 1)
			return -1;
		return d == l->dim ? 1 : shape[d < l->dim ? d : d - 1];
	}
	return rank == l->rank ? shape[d] : -1;
}

static int64_t reps(const gpu_layout *l, int64_t ext, int d)
{
	int64_t cover = (int64_t)l->spt[d] * l->tpw[d] * l->wpc[d];
	return ext > cover ? ext / cover : 1;
}

/* Whether parent dim d counts for the slots (a slice's removed dim does not). */
static bool counts(const gpu_layout *l, int d)
{
	return l->kind != GPU_SLICE || d != l->dim;
}

int gpu_layout_slots(const gpu_layout *l, const int64_t *shape, int rank)
{
	if (l->kind == GPU_SHARED)
		return 0; /* in shared memory, not in registers */
	if (l->kind == GPU_DOT_OP) { /* whole fragments: 16 k a step, 16 W0 rows or 8 W1 columns a tile */
		if (rank != 2 || shape[l->opidx == 0] % 16 || shape[l->opidx] % (l->opidx == 0 ? 16 * l->wpc[0] : 8 * l->wpc[1]))
			return -1;
		int64_t tiles = shape[l->opidx] / (l->opidx == 0 ? 16 * l->wpc[0] : 8 * l->wpc[1]);
		int64_t n = tiles * (shape[l->opidx == 0] / 16) * (l->opidx == 0 ? 8 : 4);
		return n < 1 || n > 1 << 20 ? -1 : (int)n;
	}
	int64_t n = 1;
	for (int d = 0; d < l->rank; d++) {
		int64_t ext = extent(l, shape, rank, d);
		if (ext < 0)
			return -1;
		if (counts(l, d))
			n *= reps(l, ext, d) * l->spt[d];
	}
	return n > 1 << 20 ? -1 : (int)n;
}

void gpu_layout_slot(const gpu_layout *l, const int64_t *shape, int rank, int e, int *rep, int *in)
{
	int within = 1;
	for (int d = 0; d < l->rank; d++)
		if (counts(l, d))
			within *= l->spt[d];
	int w = e % within, r = e / within;
	for (int i = 0; i < l->rank; i++) {
		int d = l->order[i];
		rep[d] = in[d] = 0;
		if (!counts(l, d))
			continue;
		in[d] = w % l->spt[d];
		w /= l->spt[d];
		int64_t n = reps(l, extent(l, shape, rank, d), d);
		rep[d] = (int)(r % n);
		r /= (int)n;
	}
}

int gpu_layout_slot_index(const gpu_layout *l, const int64_t *shape, int rank, const int *rep,
			  const int *in)
{
	int within = 1;
	for (int d = 0; d < l->rank; d++)
		if (counts(l, d))
			within *= l->spt[d];
	int w = 0, r = 0, wm = 1, rm = 1;
	for (int i = 0; i < l->rank; i++) {
		int d = l->order[i];
		if (!counts(l, d))
			continue;
		w += in[d] * wm;
		wm *= l->spt[d];
		int n = (int)reps(l, extent(l, shape, rank, d), d);
		r += (rep[d] % n) * rm;
		rm *= n;
	}
	return r * within + w;
}

void gpu_layout_thread(const gpu_layout *l, int warp, int t, int *lane, int *wid)
{
	int ln = t % warp, wp = t / warp;
	for (int i = 0; i < l->rank; i++) {
		int d = l->order[i], dw = gpu_layout_warp_dim(l, i);
		lane[d] = ln % l->tpw[d];
		ln /= l->tpw[d];
		wid[dw] = wp % l->wpc[dw];
		wp /= l->wpc[dw];
	}
}

int64_t gpu_layout_coord(const gpu_layout *l, const int64_t *shape, int rank, int d, int rep, int in,
			 int lane, int wid)
{
	int64_t ext = extent(l, shape, rank, d);
	if (l->mma == 3)
		return gpu_layout_wgmma_coord(l, d, rep, in, lane, wid) % ext;
	int64_t cover = (int64_t)l->spt[d] * l->tpw[d] * l->wpc[d];
	int64_t x = rep * cover + ((int64_t)wid * l->tpw[d] + lane) * l->spt[d] + in;
	return x % ext;
}

int64_t gpu_layout_flat(const gpu_layout *l, const int64_t *shape, int rank, int warp, int t, int e)
{
	int rep[GPU_MAX_RANK], in[GPU_MAX_RANK], lane[GPU_MAX_RANK], wid[GPU_MAX_RANK];
	if (l->kind == GPU_DOT_OP) {
		int w = t / warp;
		int64_t r, c;
		gpu_dot_op_coord(l, shape, t % warp, (w / l->wpc[1]) % l->wpc[0], w % l->wpc[1], e, &r, &c);
		return r * shape[1] + c;
	}
	gpu_layout_slot(l, shape, rank, e, rep, in);
	gpu_layout_thread(l, warp, t, lane, wid);
	int64_t flat = 0;
	for (int d = 0; d < l->rank; d++) {
		if (!counts(l, d))
			continue;
		flat = flat * extent(l, shape, rank, d) +
		       gpu_layout_coord(l, shape, rank, d, rep[d], in[d], lane[d], wid[d]);
	}
	return flat;
}

bool gpu_layout_fits(const gpu_layout *l, const int64_t *shape, int rank, int warp, int warps)
{
	if (l->kind == GPU_DOT_OP)
		return warp == 32 && l->wpc[0] * l->wpc[1] == warps && gpu_layout_slots(l, shape, rank) >= 1;
	if (l->kind == GPU_SHARED) { /* its groups and phases must stay within a row (of a panel) */
		if (rank != 2)
			return false;
		int64_t cols = shape[l->order[0] == 0 ? 0 : 1], w = l->panel ? l->panel : cols;
		return cols % w == 0 && l->vec <= w && (int64_t)l->vec * l->max_phase <= w;
	}
	/* the wgmma accumulator's rows are permuted within 16 W0 rows, its column blocks
	 * within N W1 columns when W1 > 1 (with W1 = 1 the columns are version 2's): an
	 * extent of 1 or a multiple of those */
	for (int d = 0; l->mma == 3 && d < l->rank; d++) {
		int64_t ext = extent(l, shape, rank, d), unit = d == 0 ? 16 * l->wpc[0] : (int64_t)l->instr_n * l->wpc[1];
		if (d == 1 && l->wpc[1] == 1)
			continue;
		if (ext != 1 && (ext < 0 || ext % unit))
			return false;
	}
	int64_t lanes = 1, ws = 1;
	for (int d = 0; d < l->rank; d++) {
		lanes *= l->tpw[d];
		ws *= l->wpc[d];
	}
	return lanes == warp && ws == warps && gpu_layout_slots(l, shape, rank) >= 1;
}

int64_t gpu_exchange_pitch(const ir_type *t)
{
	int64_t n = t->rank ? t->shape[t->rank - 1] : 1, eb = gpu_elem_bytes(t->elem);
	gpu_layout l;
	if (t->rank < 2 || !t->layout || !gpu_layout_parse(t->layout, &l) || !l.mma || l.mma == 4 || (n * eb) % 128 || eb > 16 ||
	    16 % eb)
		return n;
	return n + 16 / eb;
}

int64_t gpu_exchange_bytes(const ir_type *t)
{
	int64_t n = t->rank ? t->shape[t->rank - 1] : 1;
	return ir_type_numel(t) / (n ? n : 1) * gpu_exchange_pitch(t) * gpu_elem_bytes(t->elem);
}
