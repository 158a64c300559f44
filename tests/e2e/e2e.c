/* e2e.c: random numbers, fp16/bf16 conversion, guarded buffers, the case runner and the
 * comparisons shared by the end-to-end harnesses (see e2e.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "e2e.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- random numbers ----------------------------------------------------------------------- */

e2e_rng e2e_rng_new(uint64_t seed)
{
	e2e_rng r = {seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull};
	if (r.s == 0)
		r.s = 1;
	for (int i = 0; i < 4; i++)
		e2e_next(&r);
	return r;
}

uint64_t e2e_next(e2e_rng *r)
{
	uint64_t x = r->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dull;
}

double e2e_uniform(e2e_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * ((double)(e2e_next(r) >> 11) * (1.0 / 9007199254740992.0));
}

int64_t e2e_randint(e2e_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
	uint64_t v = e2e_next(r);
	return span == 0 ? (int64_t)v : (int64_t)((uint64_t)lo + v % span);
}

void e2e_fill_f32(e2e_rng *r, float *p, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (float)e2e_uniform(r, lo, hi);
}

void e2e_fill_f64(e2e_rng *r, double *p, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = e2e_uniform(r, lo, hi);
}

void e2e_fill_f16(e2e_rng *r, uint16_t *p, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = e2e_f2h((float)e2e_uniform(r, lo, hi));
}

void e2e_fill_bf16(e2e_rng *r, uint16_t *p, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = e2e_f2bf((float)e2e_uniform(r, lo, hi));
}

/* ---- fp16 and bf16 ------------------------------------------------------------------------ */

static uint32_t f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

float e2e_h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	if (exp == 0x1f)
		return u2f(sign | 0x7f800000u | (man << 13));
	if (exp == 0) /* zero or subnormal: man * 2^-24, exact in float */
		return u2f(sign) + (sign ? -1.0f : 1.0f) * (float)man * 0x1p-24f;
	return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

/* Round to nearest even, by hand: overflow to inf, subnormals, NaN kept quiet. */
uint16_t e2e_f2h(float f)
{
	uint32_t u = f2u(f), sign = (u >> 16) & 0x8000;
	uint32_t au = u & 0x7fffffffu;
	if (au >= 0x7f800000u) /* inf or NaN */
		return (uint16_t)(sign | 0x7c00 | (au > 0x7f800000u ? 0x200 | ((au >> 13) & 0x3ff) : 0));
	if (au >= 0x477ff000u) /* rounds to >= 65520: inf */
		return (uint16_t)(sign | 0x7c00);
	if (au < 0x38800000u) { /* below 2^-14: subnormal or zero */
		float a = u2f(au) * 0x1p24f; /* exact: a power-of-two scaling */
		/* nearbyint rounds to even in the default mode */
		return (uint16_t)(sign | (uint32_t)nearbyintf(a));
	}
	uint32_t exp = (au >> 23) - 112, man = au & 0x7fffff;
	uint32_t h = (exp << 10) | (man >> 13);
	uint32_t rest = man & 0x1fff;
	if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
		h++; /* may carry into the exponent, which is right */
	return (uint16_t)(sign | h);
}

float e2e_bf2f(uint16_t b)
{
	return u2f((uint32_t)b << 16);
}

uint16_t e2e_f2bf(float f)
{
	uint32_t u = f2u(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

float e2e_round_f16(float f)
{
	return e2e_h2f(e2e_f2h(f));
}

float e2e_round_bf16(float f)
{
	return e2e_bf2f(e2e_f2bf(f));
}

/* ---- buffers ------------------------------------------------------------------------------ */

enum { RED = 64, POISON = 0xCD };

typedef struct buf {
	unsigned char *base; /* malloc'd: RED | bytes rounded up to 64 | RED */
	size_t bytes, total;
	void *map;     /* e2e_alloc_guarded: the mapping (base is in it), NULL otherwise */
	size_t maplen;
} buf;

static buf *bufs;
static size_t nbufs, capbufs;

void *e2e_alloc(size_t bytes)
{
	size_t total = RED + ((bytes + 63) & ~(size_t)63) + RED;
	unsigned char *base = aligned_alloc(64, total);
	if (!base) {
		fprintf(stderr, "e2e: out of memory (%zu bytes)\n", bytes);
		abort();
	}
	memset(base, POISON, total);
	if (nbufs == capbufs) {
		capbufs = capbufs ? 2 * capbufs : 16;
		bufs = realloc(bufs, capbufs * sizeof *bufs);
		if (!bufs)
			abort();
	}
	bufs[nbufs++] = (buf){base, bytes, total};
	return base + RED;
}

void *e2e_alloc_guarded(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (RED + bytes + page - 1) / page * page, len = body + page;
	unsigned char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + body, page, PROT_NONE) != 0) {
		fprintf(stderr, "e2e: cannot map a guarded buffer of %zu bytes\n", bytes);
		abort();
	}
	unsigned char *base = map + body - bytes - RED;
	memset(base, POISON, RED + bytes);
	if (nbufs == capbufs) {
		capbufs = capbufs ? 2 * capbufs : 16;
		bufs = realloc(bufs, capbufs * sizeof *bufs);
		if (!bufs)
			abort();
	}
	bufs[nbufs++] = (buf){base, bytes, RED + bytes, map, len};
	return base + RED;
}

void *e2e_dup(const void *src, size_t bytes)
{
	void *p = e2e_alloc(bytes);
	memcpy(p, src, bytes);
	return p;
}

void e2e_poison_f32(float *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
}

void e2e_poison_f64(double *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
}

void e2e_poison_f16(uint16_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = 0x7e00;
}

void e2e_poison_bf16(uint16_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = 0x7fc0;
}

void e2e_poison(void *p, size_t bytes)
{
	memset(p, POISON, bytes);
}

/* Checks the red zones (and the padding up to the next 64 bytes) of every buffer of the case,
 * then frees them. */
static void free_bufs(void)
{
	for (size_t i = 0; i < nbufs; i++) {
		unsigned char *b = bufs[i].base;
		size_t body = (bufs[i].bytes + 63) & ~(size_t)63;
		size_t bad = 0, first = 0;
		int before = 0;
		for (size_t j = 0; j < RED; j++)
			if (b[j] != POISON && !bad++) {
				first = j;
				before = 1;
			}
		for (size_t j = RED + bufs[i].bytes; !bufs[i].map && j < RED + body + RED; j++)
			if (b[j] != POISON && !bad++)
				first = j - RED - bufs[i].bytes;
		if (bad)
			e2e_fail("buffer %zu (%zu bytes): %zu bytes written outside it, the first %zu "
			         "bytes %s", i, bufs[i].bytes, bad, before ? RED - first : first,
			         before ? "before its start" : "after its end (0: the byte right after)");
		if (bufs[i].map)
			munmap(bufs[i].map, bufs[i].maplen);
		else
			free(b);
	}
	nbufs = 0;
}

/* ---- cases -------------------------------------------------------------------------------- */

static int nargs_paths;
static char **paths;
static char case_name[256];
static char *shared_name; /* MAP_SHARED: the name of the case a child runs */
static int case_failed, in_case;
static int npassed, nfailed;

typedef struct loaded {
	char *variant;
	tilert_module *mod;
} loaded;
static loaded mods[64];
static int nmods;

static void on_signal(int sig)
{
	/* async-signal-safe: write(2) only */
	const char *what = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" : "signal";
	ssize_t w = write(2, "CRASH (", 7);
	w = write(2, what, strlen(what));
	w = write(2, ") in case: ", 11);
	w = write(2, case_name, strlen(case_name));
	w = write(2, "\n", 1);
	(void)w;
	signal(sig, SIG_DFL);
	raise(sig);
}

void e2e_init(int argc, char **argv)
{
	nargs_paths = argc - 1;
	paths = argv + 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGILL, on_signal);
}

void e2e_begin(const char *fmt, ...)
{
	if (in_case)
		e2e_end();
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(case_name, sizeof case_name, fmt, ap);
	va_end(ap);
	if (shared_name) /* for the parent, should this child die */
		memcpy(shared_name, case_name, sizeof case_name);
	case_failed = 0;
	in_case = 1;
}

void e2e_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("    ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	case_failed = 1;
}

int e2e_failed(void)
{
	return case_failed;
}

int e2e_end(void)
{
	free_bufs();
	printf("%s %s\n", case_failed ? "FAIL" : "PASS", case_name);
	if (case_failed)
		nfailed++;
	else
		npassed++;
	in_case = 0;
	int r = case_failed;
	case_failed = 0;
	return r;
}

static int no_fork = -1, in_child;

int e2e_fork_case(void)
{
	if (no_fork < 0) {
		const char *e = getenv("E2E_NO_FORK");
		no_fork = e && *e && strcmp(e, "0") != 0;
	}
	if (no_fork)
		return 1;
	if (in_case)
		e2e_end();
	if (!shared_name) {
		void *p = mmap(NULL, sizeof case_name, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		               -1, 0);
		shared_name = p == MAP_FAILED ? NULL : p;
	}
	if (shared_name)
		strcpy(shared_name, "(unknown: before its e2e_begin)");
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("e2e: fork");
		return 1; /* run it here */
	}
	if (pid == 0) {
		in_child = 1;
		npassed = nfailed = 0;
		nmods = 0; /* the parent's modules stay the parent's */
		return 1;
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) < 250) {
		/* exit status: passed + 16 * failed, see e2e_exit_case() */
		npassed += WEXITSTATUS(status) % 16;
		nfailed += WEXITSTATUS(status) / 16;
	} else {
		const char *name = shared_name ? shared_name : "(unknown)";
		if (WIFSIGNALED(status))
			printf("    crashed: signal %d\nFAIL %s\n", WTERMSIG(status), name);
		else
			printf("    exited with status %d\nFAIL %s\n", WEXITSTATUS(status), name);
		nfailed++;
	}
	return 0;
}

void e2e_exit_case(void)
{
	if (in_case)
		e2e_end();
	if (!in_child)
		return;
	for (int i = 0; i < nmods; i++)
		tilert_module_unload(mods[i].mod);
	fflush(stdout);
	fflush(stderr);
	if (npassed > 15 || nfailed > 15)
		abort(); /* one test function runs a few cases only */
	_exit(npassed + 16 * nfailed);
}

static int nskipped;

void e2e_skip(const char *name, const char *why)
{
	printf("SKIP %s: %s\n", name, why);
	nskipped++;
}

int e2e_qemu_rtz_broken(void)
{
#if defined(__riscv)
	const char *q = getenv("E2E_QEMU");
	return q && *q == '1';
#else
	return 0;
#endif
}

int e2e_finish(void)
{
	if (in_case)
		e2e_end();
	for (int i = 0; i < nmods; i++) {
		tilert_module_unload(mods[i].mod);
		free(mods[i].variant);
	}
	nmods = 0;
	if (nskipped)
		printf("%d passed, %d failed, %d skipped\n", npassed, nfailed, nskipped);
	else
		printf("%d passed, %d failed\n", npassed, nfailed);
	return nfailed != 0 || npassed == 0;
}

/* The file name of path without its directory and without ".so", ".rv.so", ".cubin" or
 * ".ptx". */
static int variant_matches(const char *path, const char *variant)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(variant);
	if (strncmp(base, variant, n) != 0)
		return 0;
	return strcmp(base + n, ".so") == 0 || strcmp(base + n, ".rv.so") == 0 ||
	       strcmp(base + n, ".cubin") == 0 || strcmp(base + n, ".ptx") == 0;
}

/* compile.cmake writes "TILECC-FAILED" and tilecc's diagnostics into the artifact when the
 * kernel did not compile; prints them as the failure of the case. */
static int print_compile_failure(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[512];
	int is_log = fgets(line, sizeof line, f) && strcmp(line, "TILECC-FAILED\n") == 0;
	if (is_log) {
		e2e_fail("the kernel did not compile (%s):", path);
		for (int n = 0; n < 40 && fgets(line, sizeof line, f); n++) {
			line[strcspn(line, "\n")] = 0;
			e2e_fail("  | %s", line);
		}
	}
	fclose(f);
	return is_log;
}

tilert_kernel *e2e_kernel(const char *variant, const char *name)
{
	tilert_module *mod = NULL;
	for (int i = 0; i < nmods; i++)
		if (strcmp(mods[i].variant, variant) == 0)
			mod = mods[i].mod;
	if (!mod) {
		const char *path = NULL;
		for (int i = 0; i < nargs_paths; i++)
			if (variant_matches(paths[i], variant))
				path = paths[i];
		if (!path) {
			e2e_fail("no artifact for variant %s on the command line", variant);
			return NULL;
		}
		int rc = tilert_module_load_file(path, &mod);
		if (rc != TILERT_OK) {
			if (!print_compile_failure(path))
				e2e_fail("loading %s: %s: %s", path, tilert_error_string(rc),
				         tilert_last_error());
			return NULL;
		}
		if (nmods == (int)E2E_ARRAY_SIZE(mods)) {
			fprintf(stderr, "e2e: too many modules\n");
			abort();
		}
		mods[nmods].variant = malloc(strlen(variant) + 1);
		strcpy(mods[nmods].variant, variant);
		mods[nmods++].mod = mod;
	}
	tilert_kernel *k = NULL;
	int rc = tilert_module_get_kernel(mod, name, &k);
	if (rc != TILERT_OK) {
		e2e_fail("kernel %s in %s: %s: %s", name, variant, tilert_error_string(rc),
		         tilert_last_error());
		return NULL;
	}
	return k;
}

/* ---- launches: CPU kernels in place, GPU kernels on staged copies -------------------------- */

static int is_gpu_kernel(const tilert_kernel *k)
{
	const char *t = tilert_kernel_meta(k, "target");
	return t && strcmp(t, "nvptx") == 0;
}

/* The index of the framework buffer whose memory (red zones included) holds p, or -1. */
static long find_buf(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	for (size_t i = 0; i < nbufs; i++) {
		uintptr_t b = (uintptr_t)bufs[i].base;
		if (a >= b && a - b < bufs[i].total)
			return (long)i;
	}
	return -1;
}

/* A GPU launch: every buffer that a pointer argument points into is copied whole (red zones
 * included) to device memory, the kernel runs on the copies, and after the synchronize each
 * copy comes back over its host buffer, so that the checks (red zones included) read what the
 * GPU wrote exactly as they read what a CPU kernel writes. Returns non-zero (after recording
 * the failure) when anything fails. */
static int launch_gpu(tilert_kernel *k, tilert_grid g, void **args, size_t nargs)
{
	const char *name = tilert_kernel_name(k);
	if (tilert_kernel_num_params(k) != nargs) {
		e2e_fail("launch of %s: %zu arguments for its %zu parameters", name, nargs,
		         tilert_kernel_num_params(k));
		return 1;
	}
	void **dargs = calloc(nargs ? nargs : 1, sizeof *dargs);
	void **dvals = calloc(nargs ? nargs : 1, sizeof *dvals);
	void **dev = calloc(nbufs ? nbufs : 1, sizeof *dev); /* per buffer; NULL: not staged */
	if (!dargs || !dvals || !dev) {
		fprintf(stderr, "e2e: out of memory\n");
		abort();
	}
	int failed = 0, rc;
	for (size_t i = 0; i < nargs && !failed; i++) {
		tilert_param_info info;
		if ((rc = tilert_kernel_param(k, i, &info)) != TILERT_OK) {
			e2e_fail("launch of %s: parameter %zu: %s: %s", name, i, tilert_error_string(rc),
			         tilert_last_error());
			failed = 1;
			break;
		}
		if (!info.is_pointer) {
			dargs[i] = args[i];
			continue;
		}
		void *host;
		memcpy(&host, args[i], sizeof host);
		long b = find_buf(host);
		if (b < 0) {
			e2e_fail("launch of %s on the GPU: pointer argument %zu (%s, %p) is not in a buffer "
			         "of e2e_alloc(), so it cannot be staged in device memory", name, i,
			         info.type, host);
			failed = 1;
			break;
		}
		if (!dev[b]) {
			if ((rc = tilert_device_alloc(bufs[b].total, &dev[b])) != TILERT_OK) {
				e2e_fail("launch of %s: device memory for buffer %ld (%zu bytes): %s: %s", name,
				         b, bufs[b].total, tilert_error_string(rc), tilert_last_error());
				dev[b] = NULL;
				failed = 1;
				break;
			}
			if ((rc = tilert_memcpy_htod(dev[b], bufs[b].base, bufs[b].total)) != TILERT_OK) {
				e2e_fail("launch of %s: copying buffer %ld to the device: %s: %s", name, b,
				         tilert_error_string(rc), tilert_last_error());
				failed = 1;
				break;
			}
		}
		dvals[i] = (unsigned char *)dev[b] + ((uintptr_t)host - (uintptr_t)bufs[b].base);
		dargs[i] = &dvals[i];
	}
	if (!failed && (rc = tilert_launch(k, NULL, g, dargs, nargs)) != TILERT_OK) {
		e2e_fail("launch of %s on (%u, %u, %u): %s: %s", name, g.x, g.y, g.z,
		         tilert_error_string(rc), tilert_last_error());
		failed = 1;
	}
	if (!failed && (rc = tilert_stream_synchronize(NULL)) != TILERT_OK) {
		e2e_fail("%s on (%u, %u, %u), at the synchronize: %s: %s", name, g.x, g.y, g.z,
		         tilert_error_string(rc), tilert_last_error());
		failed = 1;
	}
	for (size_t b = 0; b < nbufs && !failed; b++)
		if (dev[b] &&
		    (rc = tilert_memcpy_dtoh(bufs[b].base, dev[b], bufs[b].total)) != TILERT_OK) {
			e2e_fail("%s: copying buffer %zu back from the device: %s: %s", name, b,
			         tilert_error_string(rc), tilert_last_error());
			failed = 1;
		}
	for (size_t b = 0; b < nbufs; b++)
		if (dev[b])
			tilert_device_free(dev[b]); /* after a fault it may fail too: nothing to add */
	free(dev);
	free(dvals);
	free(dargs);
	return failed;
}

int e2e_launch(tilert_kernel *k, unsigned gx, unsigned gy, unsigned gz, void **args,
               size_t nargs)
{
	if (!k) {
		if (!case_failed) /* otherwise the load failure has been reported */
			e2e_fail("no kernel to launch");
		return 1;
	}
	tilert_grid g = {gx, gy, gz};
	if (is_gpu_kernel(k))
		return launch_gpu(k, g, args, nargs);
	int rc = tilert_launch(k, NULL, g, args, nargs);
	if (rc != TILERT_OK) {
		e2e_fail("launch of %s on (%u, %u, %u): %s: %s", tilert_kernel_name(k), gx, gy, gz,
		         tilert_error_string(rc), tilert_last_error());
		return 1;
	}
	return 0;
}

/* ---- comparisons -------------------------------------------------------------------------- */

enum { SHOW = 6 };

static int close_enough(double got, double want, e2e_tol t)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	if (isnan(got) || isinf(got))
		return 0;
	return fabs(got - want) <= t.atol + t.rtol * fabs(want);
}

typedef double (*get_fn)(const void *p, size_t i);

static double get_f32(const void *p, size_t i) { return ((const float *)p)[i]; }
static double get_f64(const void *p, size_t i) { return ((const double *)p)[i]; }
static double get_f16(const void *p, size_t i) { return e2e_h2f(((const uint16_t *)p)[i]); }
static double get_bf16(const void *p, size_t i) { return e2e_bf2f(((const uint16_t *)p)[i]); }

static size_t cmp_float(const char *what, const void *got, get_fn get, const double *want,
                        size_t n, e2e_tol t)
{
	size_t bad = 0;
	double worst = 0;
	for (size_t i = 0; i < n; i++) {
		double g = get(got, i);
		if (close_enough(g, want[i], t))
			continue;
		if (bad < SHOW)
			e2e_fail("%s[%zu]: got %.9g, expected %.9g (|diff| %.3g)", what, i, g, want[i],
			         fabs(g - want[i]));
		double d = fabs(g - want[i]);
		if (!(d <= worst))
			worst = d;
		bad++;
	}
	if (bad)
		e2e_fail("%s: %zu of %zu elements differ (atol %g, rtol %g, worst |diff| %.3g)", what, bad,
		         n, t.atol, t.rtol, worst);
	return bad;
}

size_t e2e_cmp_f32(const char *what, const float *got, const double *want, size_t n, e2e_tol t)
{
	return cmp_float(what, got, get_f32, want, n, t);
}

size_t e2e_cmp_f64(const char *what, const double *got, const double *want, size_t n, e2e_tol t)
{
	return cmp_float(what, got, get_f64, want, n, t);
}

size_t e2e_cmp_f16(const char *what, const uint16_t *got, const double *want, size_t n,
                   e2e_tol t)
{
	return cmp_float(what, got, get_f16, want, n, t);
}

size_t e2e_cmp_bf16(const char *what, const uint16_t *got, const double *want, size_t n,
                    e2e_tol t)
{
	return cmp_float(what, got, get_bf16, want, n, t);
}

int64_t e2e_get_int(const void *p, size_t i, int elem, int is_signed)
{
	switch (elem) {
	case 1:
		return is_signed ? ((const int8_t *)p)[i] : ((const uint8_t *)p)[i];
	case 2:
		return is_signed ? ((const int16_t *)p)[i] : ((const uint16_t *)p)[i];
	case 4:
		return is_signed ? (int64_t)((const int32_t *)p)[i] : (int64_t)((const uint32_t *)p)[i];
	default:
		return ((const int64_t *)p)[i];
	}
}

void e2e_set_int(void *p, size_t i, int elem, int64_t v)
{
	switch (elem) {
	case 1:
		((uint8_t *)p)[i] = (uint8_t)v;
		break;
	case 2:
		((uint16_t *)p)[i] = (uint16_t)v;
		break;
	case 4:
		((uint32_t *)p)[i] = (uint32_t)v;
		break;
	default:
		((uint64_t *)p)[i] = (uint64_t)v;
		break;
	}
}

size_t e2e_cmp_int(const char *what, const void *got, const int64_t *want, size_t n, int elem,
                   int is_signed)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t g = e2e_get_int(got, i, elem, is_signed);
		/* want is compared in the element's own width */
		int64_t w = want[i];
		uint64_t mask = elem == 8 ? ~0ull : (1ull << (8 * elem)) - 1;
		if (((uint64_t)g & mask) == ((uint64_t)w & mask))
			continue;
		if (bad < SHOW) {
			if (is_signed || elem < 8)
				e2e_fail("%s[%zu]: got %lld, expected %lld", what, i, (long long)g,
				         (long long)(is_signed ? w : (int64_t)((uint64_t)w & mask)));
			else
				e2e_fail("%s[%zu]: got %llu, expected %llu", what, i, (unsigned long long)g,
				         (unsigned long long)w);
		}
		bad++;
	}
	if (bad)
		e2e_fail("%s: %zu of %zu elements differ", what, bad, n);
	return bad;
}

size_t e2e_cmp_bytes(const char *what, const void *got, const void *want, size_t bytes)
{
	const unsigned char *g = got, *w = want;
	size_t bad = 0;
	for (size_t i = 0; i < bytes; i++) {
		if (g[i] == w[i])
			continue;
		if (bad < SHOW)
			e2e_fail("%s: byte %zu: got 0x%02x, expected 0x%02x", what, i, g[i], w[i]);
		bad++;
	}
	if (bad)
		e2e_fail("%s: %zu of %zu bytes differ", what, bad, bytes);
	return bad;
}

/* ---- dtypes ------------------------------------------------------------------------------- */

const char *e2e_dtype_name(e2e_dtype t)
{
	static const char *const names[] = {"i8",  "i16", "i32",  "i64",  "u8",   "u16",
	                                    "u32", "u64", "fp16", "bf16", "fp32", "fp64"};
	return names[t];
}

int e2e_dtype_size(e2e_dtype t)
{
	static const int sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};
	return sizes[t];
}

int e2e_dtype_is_float(e2e_dtype t)
{
	return t >= E2E_F16;
}

int e2e_dtype_is_signed(e2e_dtype t)
{
	return t <= E2E_I64 || t >= E2E_F16;
}

double e2e_getf(const void *p, size_t i, e2e_dtype t)
{
	switch (t) {
	case E2E_F16: return e2e_h2f(((const uint16_t *)p)[i]);
	case E2E_BF16: return e2e_bf2f(((const uint16_t *)p)[i]);
	case E2E_F32: return ((const float *)p)[i];
	case E2E_F64: return ((const double *)p)[i];
	case E2E_U64: return (double)((const uint64_t *)p)[i];
	default: return (double)e2e_geti(p, i, t);
	}
}

int64_t e2e_geti(const void *p, size_t i, e2e_dtype t)
{
	return e2e_get_int(p, i, e2e_dtype_size(t), e2e_dtype_is_signed(t));
}

void e2e_setf(void *p, size_t i, e2e_dtype t, double v)
{
	switch (t) {
	case E2E_F16: ((uint16_t *)p)[i] = e2e_f2h((float)v); break;
	case E2E_BF16: ((uint16_t *)p)[i] = e2e_f2bf((float)v); break;
	case E2E_F32: ((float *)p)[i] = (float)v; break;
	case E2E_F64: ((double *)p)[i] = v; break;
	default: e2e_seti(p, i, t, (int64_t)v); break;
	}
}

void e2e_seti(void *p, size_t i, e2e_dtype t, int64_t v)
{
	e2e_set_int(p, i, e2e_dtype_size(t), v);
}

double e2e_round(e2e_dtype t, double v)
{
	switch (t) {
	case E2E_F16: return e2e_round_f16((float)v);
	case E2E_BF16: return e2e_round_bf16((float)v);
	case E2E_F32: return (float)v;
	default: return v;
	}
}

size_t e2e_cmp(const char *what, const void *got, e2e_dtype t, const double *wantf,
               const int64_t *wanti, size_t n, e2e_tol tol)
{
	switch (t) {
	case E2E_F16: return e2e_cmp_f16(what, got, wantf, n, tol);
	case E2E_BF16: return e2e_cmp_bf16(what, got, wantf, n, tol);
	case E2E_F32: return e2e_cmp_f32(what, got, wantf, n, tol);
	case E2E_F64: return e2e_cmp_f64(what, got, wantf, n, tol);
	default: return e2e_cmp_int(what, got, wanti, n, e2e_dtype_size(t), e2e_dtype_is_signed(t));
	}
}
