/* test_wgmma.c: the wgmma plan of transforms/wgmma_layout.c and the NVMMA shared layouts
 * of transforms/layout.c against a model of the hardware written from the PTX ISA:
 *
 * - the swizzle: a tile's element (r, c) must be where the tensor cores look for it. The
 *   model forms a byte address from a matrix descriptor (start >> 4 in bits 0-13, LBO >> 4
 *   in 16-29, SBO >> 4 in 32-45, mode in 62-63) and the canonical layout of the major-ness
 *   (K-major: 8 rows of the swizzle width, then SBO to the next 8; MN-major: the swizzle
 *   width of M/N elements contiguous, LBO to the next such panel, 8 k-rows of the width,
 *   SBO to the next 8), then XORs address bits 4.. with bits 7.. (3, 2, 1 bits for 128B,
 *   64B, 32B), as the swizzle atoms of the ISA's shared memory layouts are laid out;
 * - the fragments: for every plan of a range of shapes and warp counts, a whole dot is
 *   simulated warpgroup by warpgroup: each wgmma reads its 64 x 16 A and 16 x N B through
 *   the descriptors the plan's functions give (gpu_wgmma_start, gpu_wgmma_desc_bits, the
 *   rows and columns of gpu_wgmma_a_row / _b_col), multiplies, and hands thread T of the
 *   warpgroup the registers of the ISA's accumulator table (warp q = T / 32, lane l: d_r
 *   at row 16 q + l / 4 + 8 ((r / 2) % 2), column 8 (r / 4) + 2 (l % 4) + r % 2), added
 *   into the slots gpu_wgmma_c_slot names. The slots, mapped to elements by the #mma v3
 *   layout (gpu_layout_flat), must hold exactly A @ B, every element once; for each
 *   major-ness of A and B (stored row-major, or transposed: order [0, 1]) with fp16, and
 *   for tf32 (4-byte elements, k8) and int8 (1-byte, k32) with both K-major, the only
 *   form the ISA has for them (B stored transposed). */
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transforms/gpu_mma.h"

/* The byte the hardware reads for element (mn, k) of an operand whose descriptor is d. */
static int64_t hw_addr(uint64_t d, bool mn_major, int64_t mn, int64_t k, int eb)
{
	int64_t start = (int64_t)(d & 0x3fff) << 4, lbo = (int64_t)((d >> 16) & 0x3fff) << 4;
	int64_t sbo = (int64_t)((d >> 32) & 0x3fff) << 4;
	int mode = (int)(d >> 62);
	int S = mode == 1 ? 128 : mode == 2 ? 64 : 32, T = S / eb;
	int64_t a = mn_major ? start + (mn / T) * lbo + (k / 8) * sbo + (k % 8) * S + (mn % T) * eb
			     : start + (mn / 8) * sbo + (mn % 8) * S + k * eb;
	return a ^ (((a >> 7) & (S / 16 - 1)) << 4);
}

/* Every element of a rows x cols tile of eb-byte elements in its NVMMA layout, placed by
 * gpu_layout_swizzle at `base`, is where the hardware reads it: MN-major from the tile's
 * start, K-major from its panel's start (each k-step starts inside a panel). */
static int check_swizzle(int64_t rows, int64_t cols, int eb)
{
	gpu_layout l = gpu_layout_nvmma(cols, eb);
	int64_t shape[2] = {rows, cols}, base = 3 * 1024;
	if (l.kind != GPU_SHARED || !gpu_layout_fits(&l, shape, 2, 32, 4))
		return 0;
	int ok = 1;
	for (int mn_major = 0; mn_major < 2; mn_major++) {
		gpu_wgmma_operand o;
		if (!gpu_wgmma_operand_of(&l, shape, eb, mn_major, &o))
			return 0;
		uint64_t bits = gpu_wgmma_desc_bits(&o);
		char *seen = calloc((size_t)(rows * cols), 1);
		for (int64_t r = 0; r < rows && ok; r++)
			for (int64_t c = 0; c < cols && ok; c++) {
				int64_t want = base + gpu_layout_swizzle(&l, shape, r, c) * eb, got;
				int64_t e = gpu_layout_swizzle(&l, shape, r, c);
				if (e < 0 || e >= rows * cols || seen[e]) {
					ok = 0;
					break;
				}
				seen[e] = 1;
				if (mn_major) {
					got = hw_addr(bits | (uint64_t)(base >> 4), true, c, r, eb);
				} else {
					int64_t ps = base + gpu_wgmma_start(&o, 0, c / o.w * o.w);
					got = hw_addr(bits | (uint64_t)(ps >> 4), false, r, c % o.w, eb);
				}
				if (got != want) {
					fprintf(stderr, "swizzle %lldx%lld eb %d %s: (%lld, %lld) at %lld, hardware reads %lld\n",
						(long long)rows, (long long)cols, eb, mn_major ? "MN-major" : "K-major",
						(long long)r, (long long)c, (long long)want, (long long)got);
					ok = 0;
				}
			}
		free(seen);
	}
	return ok;
}

static uint64_t rng = 88172645463325252ull;

static double small(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(rng >> 60) - 7;
}

/* The NVMMA layout of a rows x cols tile of eb-byte elements, stored transposed (order
 * [0, 1]) when t. */
static gpu_layout nvmma(int64_t rows, int64_t cols, int eb, bool t)
{
	gpu_layout l = gpu_layout_nvmma(t ? rows : cols, eb);
	if (t)
		l.order[0] = 0, l.order[1] = 1;
	return l;
}

/* ta: A stored M-major (transposed), tb: B stored K-major (transposed). Elements of the
 * plan's kind: eb bytes, k-steps of ks = 32 / eb (16 fp16, 8 tf32, 32 int8). */
static int simulate(const gpu_mma *p, bool ta, bool tb)
{
	int64_t M = p->M, N = p->N, K = p->K, N1 = p->instr_n;
	int eb = gpu_mma_elem_bytes(p->kind), ks = gpu_mma_kstep(p->kind);
	int warps = p->w0 * p->w1, threads = 32 * warps;
	int64_t shape[2] = {M, N}, ash[2] = {M, K}, bsh[2] = {K, N};
	gpu_layout la = nvmma(M, K, eb, ta), lb = nvmma(K, N, eb, tb);
	gpu_wgmma_operand oa, ob;
	if (!gpu_wgmma_operand_for(&la, M, K, eb, false, &oa) || !gpu_wgmma_operand_for(&lb, K, N, eb, true, &ob) ||
	    oa.mn_major != ta || ob.mn_major == tb)
		return 0;
	int slots = gpu_layout_slots(&p->acc, shape, 2);
	if (slots != p->mreps * p->nreps * (int)N1 / 2)
		return 0;
	double *A = malloc(sizeof(double) * M * K), *B = malloc(sizeof(double) * K * N);
	double *C = calloc((size_t)(M * N), sizeof(double));
	for (int64_t i = 0; i < M * K; i++)
		A[i] = small();
	for (int64_t i = 0; i < K * N; i++)
		B[i] = small();
	for (int64_t i = 0; i < M; i++)
		for (int64_t k = 0; k < K; k++)
			for (int64_t j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
	/* shared memory: element ids (+1) at eb-byte granularity; A at 1024, B after it on a
	 * 1024-byte boundary */
	int64_t abase = 1024, bbase = abase + (M * K * eb + 1023) / 1024 * 1024, size = bbase + K * N * eb;
	int32_t *sm = calloc((size_t)(size / eb), sizeof *sm);
	for (int64_t r = 0; r < M; r++)
		for (int64_t c = 0; c < K; c++)
			sm[(abase + gpu_layout_swizzle(&la, ash, r, c) * eb) / eb] = (int32_t)(r * K + c + 1);
	for (int64_t r = 0; r < K; r++)
		for (int64_t c = 0; c < N; c++)
			sm[(bbase + gpu_layout_swizzle(&lb, bsh, r, c) * eb) / eb] = -(int32_t)(r * N + c + 1);
	double *acc = calloc((size_t)threads * slots, sizeof *acc);
	double *a = malloc(sizeof(double) * 64 * ks), *b = malloc(sizeof(double) * ks * N1);
	int ok = 1;
	for (int wg = 0; wg < warps / 4 && ok; wg++) {
		int w0 = (wg * 4) % p->w0, w1 = (wg * 4) / p->w0, g = w0 / 4;
		for (int m = 0; m < p->mreps && ok; m++)
			for (int n = 0; n < p->nreps && ok; n++)
				for (int kk = 0; kk < p->ksteps && ok; kk++) {
					int64_t r0 = gpu_wgmma_a_row(p, m, g), c0 = gpu_wgmma_b_col(p, n, w1);
					uint64_t da = gpu_wgmma_desc_bits(&oa) |
						      (uint64_t)((abase + gpu_wgmma_at(&oa, r0, ks * kk)) >> 4);
					uint64_t db = gpu_wgmma_desc_bits(&ob) |
						      (uint64_t)((bbase + gpu_wgmma_at(&ob, ks * kk, c0)) >> 4);
					for (int i = 0; i < 64 && ok; i++)
						for (int k = 0; k < ks; k++) {
							int64_t x = hw_addr(da, oa.mn_major, i, k, eb);
							int32_t id = x >= 0 && x < size && x % eb == 0 ? sm[x / eb] : 0;
							if (id <= 0 || id - 1 != (r0 + i) * K + ks * kk + k) {
								fprintf(stderr, "A (%d, %d) of instruction (%d, %d, %d): id %d\n",
									i, k, m, n, kk, id);
								ok = 0;
								break;
							}
							a[i * ks + k] = A[id - 1];
						}
					for (int k = 0; k < ks && ok; k++)
						for (int j = 0; j < N1; j++) {
							int64_t x = hw_addr(db, ob.mn_major, j, k, eb);
							int32_t id = x >= 0 && x < size && x % eb == 0 ? -sm[x / eb] : 0;
							if (id <= 0 || id - 1 != (ks * kk + k) * N + c0 + j) {
								fprintf(stderr, "B (%d, %d) of instruction (%d, %d, %d): id %d\n",
									k, j, m, n, kk, id);
								ok = 0;
								break;
							}
							b[k * N1 + j] = B[id - 1];
						}
					for (int T = 0; T < 128 && ok; T++) {
						int q = T / 32, l = T % 32;
						int t = (wg * 4 + q) % warps * 32 + l;
						for (int r = 0; r < N1 / 2; r++) {
							int row = 16 * q + l / 4 + 8 * ((r / 2) % 2), col = 8 * (r / 4) + 2 * (l % 4) + r % 2;
							double s = 0;
							for (int k = 0; k < ks; k++)
								s += a[row * ks + k] * b[k * N1 + col];
							acc[(size_t)t * slots + gpu_wgmma_c_slot(p, m, n, r)] += s;
						}
					}
				}
	}
	char *seen = calloc((size_t)(M * N), 1);
	for (int t = 0; t < threads && ok; t++)
		for (int e = 0; e < slots && ok; e++) {
			int64_t f = gpu_layout_flat(&p->acc, shape, 2, 32, t, e);
			if (f < 0 || f >= M * N || seen[f] || acc[(size_t)t * slots + e] != C[f]) {
				fprintf(stderr, "M=%lld N=%lld K=%lld warps %dx%d n%lld%s%s: thread %d slot %d (element %lld)\n",
					(long long)M, (long long)N, (long long)K, p->w0, p->w1, (long long)N1,
					ta ? " A M-major" : "", tb ? " B K-major" : "", t, e, (long long)f);
				ok = 0;
			} else {
				seen[f] = 1;
			}
		}
	free(seen);
	free(acc);
	free(a);
	free(b);
	free(sm);
	free(A);
	free(B);
	free(C);
	return ok;
}

/* wgmma's RS form (A in registers): for a plan with W1 = 1, A (M x K) in the #mma v3
 * layout with warps [W0, 1] and instruction N n_a (any that tiles K). Element r of thread
 * T's A fragment of instruction m at k-step kk must be, by the ISA's register table for A
 * (the accumulator's pattern over 16 k: warp q of warpgroup g, lane l), row
 * a_row(m, g) + 16 q + l / 4 + 8 ((r / 2) % 2), column 16 kk + 8 (r / 4) + 2 (l % 4) + r % 2;
 * gpu_wgmma_a_slot must name the slot holding it, and the fragments must cover every slot
 * of the thread once. */
static int check_a_regs(const gpu_mma *p, int n_a)
{
	gpu_layout al = {.kind = GPU_BLOCKED};
	gpu_layout_wgmma_fill(&al, p->w0, 1, n_a);
	int64_t ash[2] = {p->M, p->K};
	if (!gpu_wgmma_a_regs(p, &al) || !gpu_layout_fits(&al, ash, 2, 32, p->w0))
		return 0;
	int slots = gpu_layout_slots(&al, ash, 2);
	if (slots != p->mreps * p->ksteps * 8)
		return 0;
	char *used = malloc((size_t)slots);
	for (int t = 0; t < 32 * p->w0; t++) {
		int w = t / 32, l = t % 32, g = w / 4, q = w % 4;
		memset(used, 0, (size_t)slots);
		for (int m = 0; m < p->mreps; m++)
			for (int kk = 0; kk < p->ksteps; kk++)
				for (int r = 0; r < 8; r++) {
					int e = gpu_wgmma_a_slot(p, &al, m, kk, r);
					int64_t row = gpu_wgmma_a_row(p, m, g) + 16 * q + l / 4 + 8 * ((r / 2) % 2);
					int64_t col = 16 * (int64_t)kk + 8 * (r / 4) + 2 * (l % 4) + r % 2;
					if (e < 0 || e >= slots || used[e] ||
					    gpu_layout_flat(&al, ash, 2, 32, t, e) != row * p->K + col) {
						fprintf(stderr, "RS A: M=%lld K=%lld W0 %d n_a %d: thread %d (%d, %d, %d) slot %d\n",
							(long long)p->M, (long long)p->K, p->w0, n_a, t, m, kk, r, e);
						free(used);
						return 0;
					}
					used[e] = 1;
				}
	}
	free(used);
	return 1;
}

static void round_trip(const char *text)
{
	gpu_layout l, back;
	strbuf s = {0};
	CHECK(gpu_layout_parse(text, &l));
	gpu_layout_print(&s, &l);
	CHECK(s.data && !strcmp(s.data, text));
	CHECK(s.data && gpu_layout_parse(s.data, &back) && gpu_layout_equal(&l, &back));
	strbuf_free(&s);
}

int main(void)
{
	/* the swizzle atoms: fp16 rows of 32, 64, 128 bytes and paneled wider ones; fp32 */
	int64_t cols16[] = {16, 32, 48, 64, 80, 96, 128, 192, 256};
	for (size_t i = 0; i < sizeof cols16 / sizeof *cols16; i++)
		for (int64_t rows = 8; rows <= 128; rows *= 4)
			CHECK(check_swizzle(rows, cols16[i], 2));
	CHECK(check_swizzle(64, 32, 4) && check_swizzle(16, 64, 4));
	/* tf32's and int8's rows (8 .. 64 fp32, 32 .. 256 int8: 32B to 256B, paneled past 128B) */
	for (int64_t w = 8; w <= 64; w *= 2)
		CHECK(check_swizzle(64, w, 4) && check_swizzle(128, w, 4));
	for (int64_t w = 32; w <= 256; w *= 2)
		CHECK(check_swizzle(64, w, 1) && check_swizzle(32, w, 1));
	CHECK(gpu_layout_nvmma(8, 2).kind != GPU_SHARED); /* 16-byte rows: no swizzle mode */

	int plans = 0;
	for (int M = 64; M <= 256; M *= 2)
		for (int N = 16; N <= 256; N += 16)
			for (int K = 16; K <= 128; K *= 2)
				for (int warps = 4; warps <= 8; warps *= 2) {
					gpu_mma p = {.kind = GPU_MMA_F16, .M = M, .N = N, .K = K};
					if (!gpu_wgmma_plan_shape(&p, warps))
						continue;
					CHECK(p.version == 3 && p.w0 * p.w1 == warps && p.w0 % 4 == 0);
					CHECK(p.mreps * 16 * p.w0 == M && p.nreps * p.instr_n * p.w1 == N);
					for (int t = 0; t < 4; t++)
						CHECK(simulate(&p, t & 1, t >> 1));
					plans++;
				}
	CHECK(plans > 100);
	/* tf32 (k8), int8 and fp8 (k32): both operands K-major (A row-major, B stored
	 * transposed), 4- and 1-byte elements, paneled along K when K's bytes pass 128 */
	int kplans = 0;
	for (int kind = GPU_MMA_TF32; kind <= GPU_MMA_E5M2; kind++)
		for (int M = 64; M <= 256; M *= 2)
			for (int N = 16; N <= 256; N += 16)
				for (int K = 8; K <= 256; K *= 2)
					for (int warps = 4; warps <= 8; warps *= 2) {
						gpu_mma p = {.kind = (gpu_mma_kind)kind, .M = M, .N = N, .K = K};
						/* operands within sm_90's 227 KB of shared memory (the
						 * descriptors address 256 KB); M N K up to 128^3 (the
						 * test's time; int8's K of 256 still at M N 8192) */
						if ((M * K + K * N) * gpu_mma_elem_bytes(p.kind) + 2048 > 227 * 1024 ||
						    (int64_t)M * N * K > 128 * 128 * 128 || !gpu_wgmma_plan_shape(&p, warps))
							continue;
						CHECK(p.version == 3 && p.w0 * p.w1 == warps && p.w0 % 4 == 0);
						CHECK(p.ksteps * gpu_mma_kstep(p.kind) == K && p.nreps * p.instr_n * p.w1 == N);
						/* int8's instruction N: 8, 16, 24, 32, then multiples of 16 */
						CHECK(kind != GPU_MMA_S8 || p.instr_n <= 32 || p.instr_n % 16 == 0);
						CHECK(simulate(&p, false, true));
						kplans++;
					}
	CHECK(kplans > 150);
	{ /* int8 N = 48 per warp column: m64n48 (not 40); tf32 K = 8 (one k-step); int8 K
	   * of 16, less than its k-step */
		gpu_mma q = {.kind = GPU_MMA_S8, .M = 64, .N = 48, .K = 64};
		CHECK(gpu_wgmma_plan_shape(&q, 4) && q.instr_n == 48 && q.ksteps == 2);
		CHECK(!gpu_wgmma_finish(&q, 40));
		q = (gpu_mma){.kind = GPU_MMA_TF32, .M = 64, .N = 40, .K = 8};
		CHECK(!gpu_wgmma_plan_shape(&q, 4)); /* N % 16 */
		q = (gpu_mma){.kind = GPU_MMA_TF32, .M = 64, .N = 80, .K = 8};
		CHECK(gpu_wgmma_plan_shape(&q, 4) && q.instr_n == 80 && q.ksteps == 1);
		q = (gpu_mma){.kind = GPU_MMA_S8, .M = 64, .N = 64, .K = 16};
		CHECK(!gpu_wgmma_plan_shape(&q, 4));
		/* fp8's instruction N is any multiple of 8 (m64n40k32), int8's is not */
		q = (gpu_mma){.kind = GPU_MMA_E4M3, .M = 64, .N = 40, .K = 64, .w0 = 4, .w1 = 1};
		CHECK(gpu_wgmma_finish(&q, 40) && q.ksteps == 2 && gpu_wgmma_kmajor(q.kind));
		q = (gpu_mma){.kind = GPU_MMA_S8, .M = 64, .N = 40, .K = 64, .w0 = 4, .w1 = 1};
		CHECK(!gpu_wgmma_finish(&q, 40));
		/* the RS form is fp16/bf16's only */
		q = (gpu_mma){.kind = GPU_MMA_TF32, .M = 64, .N = 64, .K = 64};
		gpu_layout al = {.kind = GPU_BLOCKED};
		gpu_layout_wgmma_fill(&al, 4, 1, 64);
		CHECK(gpu_wgmma_plan_shape(&q, 4) && !gpu_wgmma_a_regs(&q, &al));
	}
	/* A in registers, for every plan of one warp column: in an #mma v3 layout of any
	 * instruction N that tiles K (attention's P: the first dot's accumulator) */
	int rs = 0;
	for (int64_t M = 64; M <= 256; M *= 2)
		for (int64_t K = 16; K <= 256; K += 16)
			for (int warps = 4; warps <= 8; warps *= 2) {
				gpu_mma p = {.kind = GPU_MMA_F16, .M = M, .N = 64, .K = K};
				if (!gpu_wgmma_plan_shape(&p, warps) || p.w1 != 1)
					continue;
				for (int n_a = 8; n_a <= 256 && n_a <= K && rs >= 0; n_a += 8)
					if (K % n_a == 0) {
						int ok = check_a_regs(&p, n_a);
						CHECK(ok);
						rs = ok ? rs + 1 : -1000; /* one failure is enough to read */
					}
			}
	CHECK(rs > 50);
	{ /* not for a layout whose warps differ from the plan's, or split K */
		gpu_mma p = {.kind = GPU_MMA_F16, .M = 128, .N = 64, .K = 64};
		gpu_layout al = {.kind = GPU_BLOCKED};
		CHECK(gpu_wgmma_plan_shape(&p, 8) && p.w0 == 8);
		gpu_layout_wgmma_fill(&al, 4, 2, 32);
		CHECK(!gpu_wgmma_a_regs(&p, &al));
		gpu_layout_wgmma_fill(&al, 8, 1, 64);
		CHECK(gpu_wgmma_a_regs(&p, &al));
	}
	/* the bench matmul's block (128 x 128 x 64, 4 warps): Triton's m64n128k16, two along M */
	gpu_mma bench = {.kind = GPU_MMA_F16, .M = 128, .N = 128, .K = 64};
	CHECK(gpu_wgmma_plan_shape(&bench, 4) && bench.w0 == 4 && bench.w1 == 1 && bench.instr_n == 128 &&
	      bench.mreps == 2 && bench.nreps == 1 && bench.ksteps == 4);
	gpu_mma b8 = {.kind = GPU_MMA_F16, .M = 128, .N = 128, .K = 64};
	CHECK(gpu_wgmma_plan_shape(&b8, 8) && b8.w0 == 8 && b8.w1 == 1 && b8.mreps == 1);
	gpu_mma m64 = {.kind = GPU_MMA_F16, .M = 64, .N = 128, .K = 32};
	CHECK(gpu_wgmma_plan_shape(&m64, 8) && m64.w0 == 4 && m64.w1 == 2 && m64.instr_n == 64);
	/* what does not fit: fewer than 4 warps, M below a warpgroup's 64, N rows of 16 bytes */
	/* tf32x3 and an fp16 accumulator stay on mma.sync */
	gpu_mma other = {.kind = GPU_MMA_TF32, .x3 = true, .M = 128, .N = 128, .K = 64};
	CHECK(!gpu_wgmma_plan_shape(&other, 4) && !gpu_wgmma_finish(&other, 128));
	other = (gpu_mma){.kind = GPU_MMA_F16, .acc16 = true, .M = 128, .N = 128, .K = 64};
	CHECK(!gpu_wgmma_plan_shape(&other, 4));
	gpu_mma no = {.kind = GPU_MMA_F16, .M = 128, .N = 128, .K = 64};
	CHECK(!gpu_wgmma_plan_shape(&no, 2));
	no = (gpu_mma){.kind = GPU_MMA_F16, .M = 32, .N = 128, .K = 64};
	CHECK(!gpu_wgmma_plan_shape(&no, 4));
	no = (gpu_mma){.kind = GPU_MMA_F16, .M = 64, .N = 8, .K = 64};
	CHECK(!gpu_wgmma_plan_shape(&no, 4));

	/* the descriptor of the bench's B (64 x 128 fp16, N-major): 128B mode, two panels of
	 * 64 rows x 128 bytes (LBO 8192), 8-row groups 1024 bytes apart (SBO) */
	gpu_layout lb = gpu_layout_nvmma(128, 2);
	int64_t bsh[2] = {64, 128};
	gpu_wgmma_operand ob;
	CHECK(lb.panel == 64 && lb.per_phase == 1 && lb.max_phase == 8 && lb.vec == 8);
	CHECK(gpu_wgmma_operand_of(&lb, bsh, 2, true, &ob) && ob.lbo == 8192 && ob.sbo == 1024);
	CHECK(gpu_wgmma_desc_bits(&ob) == ((uint64_t)(8192 >> 4) << 16 | (uint64_t)(1024 >> 4) << 32 | 1ull << 62));

	/* text forms */
	round_trip("mma<version = 3, warps [4, 1], instr [64, 128, 16]>");
	round_trip("mma<version = 3, warps [8, 2], instr [64, 24, 16]>");
	round_trip("slice<dim = 0, parent = #mma<version = 3, warps [4, 2], instr [64, 64, 16]>>");
	round_trip("shared<vec = 8, per_phase = 1, max_phase = 8, order = [1, 0], panel = 64>");
	round_trip("shared<vec = 8, per_phase = 2, max_phase = 4, order = [1, 0]>");
	gpu_layout x, y;
	/* with one warpgroup column the instruction's N does not move elements (the columns are
	 * version 2's): such layouts are one distribution; side by side along N they differ */
	CHECK(gpu_layout_parse("mma<version = 3, warps [4, 1], instr [64, 128, 16]>", &x) &&
	      gpu_layout_parse("mma<version = 3, warps [4, 1], instr [64, 64, 16]>", &y) && gpu_layout_equal(&x, &y));
	int64_t sh[2] = {128, 128};
	for (int t = 0; t < 128; t++)
		for (int e = 0; e < gpu_layout_slots(&x, sh, 2); e++)
			CHECK(gpu_layout_flat(&x, sh, 2, 32, t, e) == gpu_layout_flat(&y, sh, 2, 32, t, e));
	CHECK(gpu_layout_parse("mma<version = 3, warps [4, 2], instr [64, 64, 16]>", &x) &&
	      gpu_layout_parse("mma<version = 3, warps [4, 2], instr [64, 32, 16]>", &y) && !gpu_layout_equal(&x, &y));
	CHECK(gpu_layout_parse("mma<version = 2, warps [4, 1]>", &y) && !gpu_layout_equal(&x, &y));
	CHECK(!gpu_layout_parse("mma<version = 3, warps [2, 2], instr [64, 128, 16]>", &x)); /* no warpgroup */
	CHECK(!gpu_layout_parse("mma<version = 3, warps [4, 1], instr [64, 12, 16]>", &x));
	CHECK(!gpu_layout_parse("mma<version = 3, warps [4, 1], instr [32, 128, 16]>", &x));
	CHECK(!gpu_layout_parse("mma<version = 3, warps [4, 1], instr [64, 264, 16]>", &x));
	CHECK(!gpu_layout_parse("mma<version = 3, warps [4, 1]>", &x));
	CHECK(!gpu_layout_parse("mma<version = 4, warps [4, 1], instr [64, 128, 16]>", &x));
	CHECK(!gpu_layout_parse("shared<vec = 8, per_phase = 1, max_phase = 8, order = [1, 0], panel = 48>", &x));
	CHECK(!gpu_layout_parse("shared<vec = 8, per_phase = 1, max_phase = 8, order = [1, 0], panel = 32>", &x));
	/* a v3 tile's extents: 1 or multiples of the permuted blocks */
	CHECK(gpu_layout_parse("mma<version = 3, warps [4, 1], instr [64, 128, 16]>", &x));
	int64_t ok1[2] = {128, 128}, ok2[2] = {1, 128}, ok3[2] = {128, 64}, bad[2] = {32, 128};
	CHECK(gpu_layout_fits(&x, ok1, 2, 32, 4) && gpu_layout_fits(&x, ok2, 2, 32, 4) && gpu_layout_fits(&x, ok3, 2, 32, 4) &&
	      !gpu_layout_fits(&x, bad, 2, 32, 4));
	CHECK(gpu_layout_parse("mma<version = 3, warps [4, 2], instr [64, 64, 16]>", &x));
	int64_t ok4[2] = {64, 128}, bad2[2] = {64, 64};
	CHECK(gpu_layout_fits(&x, ok4, 2, 32, 8) && !gpu_layout_fits(&x, bad2, 2, 32, 8));
	printf("test_wgmma: %d plans, %d tf32/int8 plans\n", plans, kplans);
	return test_result("test_wgmma");
}
