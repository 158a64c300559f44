/* matmul.c: tilecc's bench matmul (bench/kernels/matmul.py, fp32, the blocks run.sh compiles
 * it with, GROUP_M 8) against OpenBLAS's cblas_sgemm, in one process, on the same inputs, at n^3
 * for each n given (default 1024 and 2048). tilecc runs on libtilert's pool with 1 and 2
 * threads, OpenBLAS with 1 thread (the ratio's reference) and 2. Each result is checked
 * against OpenBLAS's before it is timed. Rounds interleave the contestants (tilecc 1t,
 * OpenBLAS 1t, tilecc 2t, OpenBLAS 2t, ...) so that the load of a shared machine falls on
 * all of them alike; every figure is the median over the rounds.
 *
 * OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, when set, make OpenBLAS choose its kernel from
 * them rather than from the CPU; OpenBLAS reads them when it is loaded, so the program
 * removes them and executes itself again before anything else, then prints the kernel
 * OpenBLAS chose (openblas_get_corename()).
 *
 *   BM=256 BN=256 matmul DIR [ROUNDS [N...]]   (DIR holds matmul.so from bench/cpu/run.sh, its
 *                                               blocks BM x BN; 128 x 128 when not given)
 *
 * ONE_THREAD=1 leaves the 2-thread rounds out (their columns print 0): on a loaded machine
 * they disturb the caches of the 1-thread rounds that follow them. */
#define _GNU_SOURCE
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tilecc/tilert.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU seconds of the whole process (every thread): with one thread, the time the work
 * itself took, whatever else the machine runs (libtilert's pool and OpenBLAS's threads
 * block rather than spin when idle). */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof t[0], cmp_d);
	return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}

typedef struct {
	tilert_kernel *k;
	float *a, *b, *c;
	int32_t n;
} mm;

/* the program's block, as matmul.so was compiled (BM=, BN=; run.sh exports them) */
static int BM = 128, BN = 128;

static void run_tilecc(mm *m)
{
	int32_t n = m->n, one = 1;
	void *args[12] = {&m->a, &m->b, &m->c, &n, &n, &n, &n, &one, &n, &one, &n, &one};
	uint32_t g = (uint32_t)(((n + BM - 1) / BM) * ((n + BN - 1) / BN));
	if (tilert_launch(m->k, NULL, (tilert_grid){g, 1, 1}, args, 12)) {
		fprintf(stderr, "matmul: launch: %s\n", tilert_last_error());
		exit(1);
	}
}

static void run_blas(mm *m)
{
	int n = m->n;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, m->a, n, m->b, n, 0.0f, m->c, n);
}

/* Seconds of one call (and its CPU seconds in *cpu). */
static double time1(mm *m, int tilecc, int threads, double *cpu)
{
	if (tilecc)
		tilert_set_num_threads((unsigned)threads);
	else
		openblas_set_num_threads(threads);
	double s = now(), cs = cpu_now();
	if (tilecc)
		run_tilecc(m);
	else
		run_blas(m);
	double e = now();
	*cpu = cpu_now() - cs;
	return e - s;
}

int main(int argc, char **argv)
{
	if (getenv("OPENBLAS_CORETYPE") || getenv("OPENBLAS_L2_SIZE")) {
		unsetenv("OPENBLAS_CORETYPE");
		unsetenv("OPENBLAS_L2_SIZE");
		execv("/proc/self/exe", argv);
		perror("matmul: execv");
		return 1;
	}
	if (getenv("BM"))
		BM = atoi(getenv("BM"));
	if (getenv("BN"))
		BN = atoi(getenv("BN"));
	if (BM < 1 || BN < 1)
		return fprintf(stderr, "matmul: BM and BN must be positive\n"), 1;
	const char *dir = argc > 1 ? argv[1] : ".";
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	if (rounds < 1 || rounds > 64)
		rounds = 7;
	int sizes[16] = {1024, 2048}, nsizes = 2;
	if (argc > 3) {
		nsizes = 0;
		for (int i = 3; i < argc && nsizes < 16; i++)
			sizes[nsizes++] = atoi(argv[i]);
	}
	char path[512];
	snprintf(path, sizeof path, "%s/matmul.so", dir);
	tilert_module *mod;
	tilert_kernel *k;
	if (tilert_module_load_file(path, &mod) || tilert_module_get_kernel(mod, "matmul", &k)) {
		fprintf(stderr, "matmul: %s: %s\n", path, tilert_last_error());
		return 1;
	}
	printf("OpenBLAS: %s, core %s\n", openblas_get_config(), openblas_get_corename());
	printf("tilecc: %s, blocks %d x %d\n", path, BM, BN);
	printf("median of %d interleaved rounds after a warm-up; GFLOP/s of wall time, and for one\n"
	       "thread also of the process's CPU time (cpu: immune to time the scheduler gives others)\n\n",
	       rounds);
	printf("| size        | tilecc 1t | OpenBLAS 1t | ratio 1t | cpu: tilecc 1t | OpenBLAS 1t | ratio 1t |"
	       " tilecc 2t | OpenBLAS 2t | tilecc 2t/1t |\n");
	printf("|-------------|-----------|-------------|----------|----------------|-------------|----------|"
	       "-----------|-------------|--------------|\n");
	double best[16][2]; /* per size: tilecc 1t and OpenBLAS 1t, GFLOP/s of the best round's CPU time */
	for (int s = 0; s < nsizes; s++) {
		mm m = {k, NULL, NULL, NULL, sizes[s]};
		size_t n = (size_t)m.n * m.n;
		m.a = malloc(n * 4), m.b = malloc(n * 4), m.c = malloc(n * 4);
		float *ref = malloc(n * 4);
		if (!m.a || !m.b || !m.c || !ref)
			return 1;
		for (size_t i = 0; i < n; i++)
			m.a[i] = frand(), m.b[i] = frand();
		openblas_set_num_threads(1);
		run_blas(&m);
		memcpy(ref, m.c, n * 4);
		for (int th = 1; th <= 2; th++) {
			memset(m.c, 0xff, n * 4);
			tilert_set_num_threads((unsigned)th);
			run_tilecc(&m);
			for (size_t i = 0; i < n; i++)
				if (!(fabsf(m.c[i] - ref[i]) <= 1e-3f * (1.0f + fabsf(ref[i])))) {
					fprintf(stderr, "matmul: n=%d, %d thread(s): mismatch at %zu: %g vs %g\n", m.n, th, i,
						m.c[i], ref[i]);
					return 1;
				}
		}
		/* columns: tilecc 1t, OpenBLAS 1t, tilecc 2t, OpenBLAS 2t */
		double t[4][64], ct[4][64], junk;
		int ncol = getenv("ONE_THREAD") && atoi(getenv("ONE_THREAD")) ? 2 : 4;
		for (int c = 0; c < ncol; c++)
			time1(&m, c % 2 == 0, 1 + c / 2, &junk); /* warm-up */
		for (int r = 0; r < rounds; r++)
			for (int c = 0; c < ncol; c++)
				t[c][r] = time1(&m, c % 2 == 0, 1 + c / 2, &ct[c][r]);
		double flops = 2.0 * m.n * m.n * m.n, g[4] = {0, 0, 0, 0}, gc[2];
		for (int c = 0; c < ncol; c++)
			g[c] = flops / median(t[c], rounds) / 1e9;
		for (int c = 0; c < 2; c++) {
			gc[c] = flops / median(ct[c], rounds) / 1e9;
			best[s][c] = flops / ct[c][0] / 1e9; /* median() sorted them */
		}
		char label[32];
		snprintf(label, sizeof label, "%d^3 fp32", m.n);
		printf("| %-11s | %9.1f | %11.1f | %7.2fx | %14.1f | %11.1f | %7.2fx | %9.1f | %11.1f | %11.2fx |\n",
		       label, g[0], g[1], g[0] / g[1], gc[0], gc[1], gc[0] / gc[1], g[2], g[3], g[2] / g[0]);
		fflush(stdout);
		free(m.a), free(m.b), free(m.c), free(ref);
	}
	printf("\nbest round, one thread, GFLOP/s of CPU time:\n\n| size        | tilecc 1t | OpenBLAS 1t | ratio 1t |\n"
	       "|-------------|-----------|-------------|----------|\n");
	for (int s = 0; s < nsizes; s++)
		printf("| %4d^3 fp32 | %9.1f | %11.1f | %7.2fx |\n", sizes[s], best[s][0], best[s][1], best[s][0] / best[s][1]);
	return 0;
}
