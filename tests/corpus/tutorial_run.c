/* tutorial_run.c: runs the kernels of Triton's tutorials, compiled by tilecc for this machine
 * (x86-64, or riscv64 under qemu), on the inputs that tests/gpu/tutorial_refs.py saved on a
 * GPU machine, and compares their outputs with Triton's for the same inputs. It compiles
 * nothing: tests/corpus/tutorials-cpu.sh compiles the rows of tutorials-cpu.tsv and calls
 *
 *     tutorial_run REFDIR/manifest.txt [--case SUBSTRING]... ROW.so...
 *
 * The manifest (its format is described in tests/gpu/tutorial_refs.py) lists each case's
 * kernel (the row of tutorials-cpu.tsv, found among the .so arguments by name, as the e2e
 * harnesses find theirs), grid and arguments in parameter order: input buffers read from
 * their files; outputs poisoned first (NaN for floats, 0xAB bytes for integers), then
 * compared with Triton's; in-out buffers starting from a file; scalars. Buffers come from
 * e2e_alloc(), so a store out of bounds fails the case through the red zones, and each case
 * runs in a child process (E2E_RUN), so a crash fails that case only.
 *
 * An output element passes when |got - want| <= atol + rtol * |want| (NaN only against NaN);
 * integers and "0 0" tolerances compare exactly; "zeros" also requires that exactly the same
 * elements be 0 (dropout's keep mask). Prints each output's largest errors, PASS or FAIL per
 * case, and "N passed, M failed"; exits non-zero when a case failed or none ran. */
#include "../e2e/e2e.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ARGS = 32, MAX_LINE = 1024, MAX_NAME = 256, MAX_ONLY = 16 };

typedef enum arg_kind { ARG_IN, ARG_OUT, ARG_INOUT, ARG_I32, ARG_FP32 } arg_kind;

typedef struct tut_arg {
	arg_kind kind;
	e2e_dtype dtype;           /* buffers */
	size_t count;              /* buffers: elements */
	char file[MAX_NAME];       /* in: the input; inout: the starting contents */
	char want[MAX_NAME];       /* out, inout: Triton's result */
	double atol, rtol;         /* out, inout */
	int zeros;                 /* out, inout: the zero elements must match exactly */
	int32_t i32;
	float f32;
} tut_arg;

typedef struct tut_case {
	char name[MAX_NAME];
	char row[MAX_NAME];        /* the variant: ROW.so among the artifacts */
	char kernel[MAX_NAME];     /* the function's name in it */
	unsigned grid[3];
	tut_arg args[MAX_ARGS];
	int nargs;
	int line;                  /* of its "case" line, for messages */
} tut_case;

static char refdir[4096];

static int parse_dtype(const char *s, e2e_dtype *out)
{
	for (int t = E2E_I8; t <= E2E_F64; t++)
		if (strcmp(s, e2e_dtype_name((e2e_dtype)t)) == 0) {
			*out = (e2e_dtype)t;
			return 0;
		}
	return 1;
}

/* Reads exactly bytes of REFDIR/file into p; records a failure otherwise. */
static int read_file(const char *file, void *p, size_t bytes)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", refdir, file);
	FILE *f = fopen(path, "rb");
	if (!f) {
		e2e_fail("cannot open %s: %s", path, strerror(errno));
		return 1;
	}
	size_t got = fread(p, 1, bytes, f);
	int extra = fgetc(f) != EOF;
	fclose(f);
	if (got != bytes || extra) {
		e2e_fail("%s: expected exactly %zu bytes, %s", path, bytes,
		         extra ? "found more" : "found fewer");
		return 1;
	}
	return 0;
}

static void poison(void *p, e2e_dtype t, size_t n)
{
	switch (t) {
	case E2E_F16: e2e_poison_f16(p, n); break;
	case E2E_BF16: e2e_poison_bf16(p, n); break;
	case E2E_F32: e2e_poison_f32(p, n); break;
	case E2E_F64: e2e_poison_f64(p, n); break;
	default: memset(p, 0xAB, n * (size_t)e2e_dtype_size(t)); break;
	}
}

/* Compares output i (got) with Triton's (want): prints its largest errors, records a
 * failure with the first mismatches. */
static void compare(int i, const tut_arg *a, const void *got, const void *want)
{
	size_t bad = 0, badzero = 0, shown = 0;
	double maxabs = 0, maxerr = 0, used = 0; /* |d|, |d| / (1 + |want|), |d| / tolerance */
	int isf = e2e_dtype_is_float(a->dtype);
	int exact = !isf || (a->atol == 0 && a->rtol == 0);
	for (size_t j = 0; j < a->count; j++) {
		int ok;
		double g = 0, w = 0;
		if (!isf) {
			int64_t gi = e2e_geti(got, j, a->dtype), wi = e2e_geti(want, j, a->dtype);
			ok = gi == wi;
			g = (double)gi;
			w = (double)wi;
			if (fabs(g - w) > maxabs)
				maxabs = fabs(g - w);
		} else {
			g = e2e_getf(got, j, a->dtype);
			w = e2e_getf(want, j, a->dtype);
			if (isnan(w) || isnan(g)) {
				ok = isnan(w) && isnan(g);
				if (!ok)
					maxabs = maxerr = used = INFINITY;
			} else if (isinf(w) || isinf(g)) {
				ok = g == w;
				if (!ok)
					maxabs = maxerr = used = INFINITY;
			} else {
				double d = fabs(g - w);
				if (d > maxabs)
					maxabs = d;
				if (d / (1 + fabs(w)) > maxerr)
					maxerr = d / (1 + fabs(w));
				double t = a->atol + a->rtol * fabs(w);
				if (!exact && d / t > used)
					used = d / t;
				ok = exact ? g == w : d <= t;
			}
			if (a->zeros && ((g == 0) != (w == 0))) {
				badzero++;
				ok = 0;
			}
		}
		if (!ok) {
			if (shown++ < 6)
				e2e_fail("arg %d [%zu]: got %.9g, expected %.9g", i, j, g, w);
			bad++;
		}
	}
	char tol[128];
	if (exact)
		snprintf(tol, sizeof tol, "exact");
	else
		snprintf(tol, sizeof tol, "tol %.3g + %.3g|x|, at most %.2f of it", a->atol, a->rtol,
		         used);
	printf("    arg %d %s[%zu]: max |d| %.3g, max |d|/(1+|x|) %.3g (%s%s)%s\n", i,
	       e2e_dtype_name(a->dtype), a->count, maxabs, maxerr, tol,
	       a->zeros ? ", same zeros" : "", bad ? "" : ": ok");
	if (bad)
		e2e_fail("arg %d: %zu of %zu elements differ from the reference", i, bad, a->count);
	if (badzero)
		e2e_fail("arg %d: %zu elements are zero on one side only (a different keep mask)", i,
		         badzero);
}

static int param_matches(const tilert_param_info *p, const tut_arg *a)
{
	switch (a->kind) {
	case ARG_I32: return p->kind == TILERT_TYPE_I32;
	case ARG_FP32: return p->kind == TILERT_TYPE_FP32;
	default: return p->is_pointer;
	}
}

static void run_case(const tut_case *c)
{
	e2e_begin("%s (%s, grid %u,%u,%u)", c->name, c->row, c->grid[0], c->grid[1], c->grid[2]);
	tilert_kernel *k = e2e_kernel(c->row, c->kernel);
	if (!k)
		return;
	if (tilert_kernel_num_params(k) != (size_t)c->nargs) {
		e2e_fail("the kernel takes %zu runtime arguments, the manifest gives %d",
		         tilert_kernel_num_params(k), c->nargs);
		return;
	}
	void *bufs[MAX_ARGS] = {0}, *want[MAX_ARGS] = {0}, *argv[MAX_ARGS];
	for (int i = 0; i < c->nargs; i++) {
		const tut_arg *a = &c->args[i];
		tilert_param_info info = {0};
		if (tilert_kernel_param(k, (size_t)i, &info) != TILERT_OK || !param_matches(&info, a)) {
			e2e_fail("argument %d: the kernel's parameter is %s, the manifest's is not", i,
			         info.type ? info.type : "?");
			return;
		}
		switch (a->kind) {
		case ARG_I32: argv[i] = (void *)&a->i32; continue;
		case ARG_FP32: argv[i] = (void *)&a->f32; continue;
		default: break;
		}
		size_t bytes = a->count * (size_t)e2e_dtype_size(a->dtype);
		bufs[i] = e2e_alloc(bytes);
		argv[i] = &bufs[i];
		if (a->kind == ARG_OUT)
			poison(bufs[i], a->dtype, a->count);
		else if (read_file(a->file, bufs[i], bytes))
			return;
		if (a->kind != ARG_IN) {
			want[i] = e2e_alloc(bytes);
			if (read_file(a->want, want[i], bytes))
				return;
		}
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (e2e_launch(k, c->grid[0], c->grid[1], c->grid[2], argv, (size_t)c->nargs))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("    ran in %.3f s\n",
	       (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	for (int i = 0; i < c->nargs; i++)
		if (want[i])
			compare(i, &c->args[i], bufs[i], want[i]);
}

/* ---- the manifest ------------------------------------------------------------------------- */

static int bad_line(const char *path, int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s\n", path, line, what);
	return 1;
}

/* One argument line: "in DTYPE COUNT FILE", "out DTYPE COUNT FILE ATOL RTOL [zeros]",
 * "inout DTYPE COUNT FILE_IN FILE_OUT ATOL RTOL [zeros]", "scalar i32 V", "scalar fp32 V". */
static int parse_arg(const char *s, tut_arg *a)
{
	char kind[16], dt[16], f1[MAX_NAME], f2[MAX_NAME], z[16];
	unsigned long long n;
	memset(a, 0, sizeof *a);
	z[0] = 0;
	if (sscanf(s, "scalar %15s %255s", dt, f1) == 2) {
		char *end;
		errno = 0;
		if (strcmp(dt, "i32") == 0) {
			long long v = strtoll(f1, &end, 10);
			if (*end || errno || v < INT32_MIN || v > INT32_MAX)
				return 1;
			a->kind = ARG_I32;
			a->i32 = (int32_t)v;
			return 0;
		}
		if (strcmp(dt, "fp32") == 0) {
			double v = strtod(f1, &end); /* the double, rounded to fp32 as Triton does */
			if (*end || errno)
				return 1;
			a->kind = ARG_FP32;
			a->f32 = (float)v;
			return 0;
		}
		return 1;
	}
	if (sscanf(s, "%15s %15s %llu", kind, dt, &n) != 3 || parse_dtype(dt, &a->dtype) || n == 0)
		return 1;
	a->count = (size_t)n;
	if (strcmp(kind, "in") == 0) {
		a->kind = ARG_IN;
		return sscanf(s, "%*s %*s %*s %255s", a->file) != 1;
	}
	if (strcmp(kind, "out") == 0) {
		a->kind = ARG_OUT;
		int got = sscanf(s, "%*s %*s %*s %255s %lf %lf %15s", a->want, &a->atol, &a->rtol, z);
		if (got < 3)
			return 1;
	} else if (strcmp(kind, "inout") == 0) {
		a->kind = ARG_INOUT;
		int got = sscanf(s, "%*s %*s %*s %255s %255s %lf %lf %15s", f1, f2, &a->atol, &a->rtol, z);
		if (got < 4)
			return 1;
		strcpy(a->file, f1);
		strcpy(a->want, f2);
	} else {
		return 1;
	}
	if (z[0] && strcmp(z, "zeros") != 0)
		return 1;
	a->zeros = z[0] != 0;
	return !(a->atol >= 0 && a->rtol >= 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s REFDIR/manifest.txt [--case SUBSTRING]... ROW.so...\n",
		        argv[0]);
		return 2;
	}
	const char *manifest = argv[1];
	const char *only[MAX_ONLY];
	int nonly = 0;
	char **paths = malloc(sizeof(char *) * (size_t)(argc + 1));
	int npaths = 1;
	paths[0] = argv[0];
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--case") == 0 && i + 1 < argc && nonly < MAX_ONLY)
			only[nonly++] = argv[++i];
		else
			paths[npaths++] = argv[i];
	}
	paths[npaths] = NULL;
	snprintf(refdir, sizeof refdir, "%s", manifest);
	char *slash = strrchr(refdir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(refdir, ".");
	FILE *f = fopen(manifest, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", manifest, strerror(errno));
		return 2;
	}
	e2e_init(npaths, paths);
	static tut_case c;
	char line[MAX_LINE];
	int lineno = 0, in_case = 0, ncases = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		const char *s = line + strspn(line, " \t");
		if (!*s || *s == '#')
			continue;
		if (strncmp(s, "case ", 5) == 0) {
			if (in_case)
				return bad_line(manifest, lineno, "'case' before the previous case's 'end'");
			memset(&c, 0, sizeof c);
			if (sscanf(s, "case %255s", c.name) != 1)
				return bad_line(manifest, lineno, "expected 'case NAME'");
			c.line = lineno;
			in_case = 1;
		} else if (!in_case) {
			return bad_line(manifest, lineno, "expected 'case NAME'");
		} else if (strncmp(s, "kernel ", 7) == 0) {
			if (sscanf(s, "kernel %255s %255s", c.row, c.kernel) != 2)
				return bad_line(manifest, lineno, "expected 'kernel ROW FUNCTION'");
		} else if (strncmp(s, "grid ", 5) == 0) {
			if (sscanf(s, "grid %u %u %u", &c.grid[0], &c.grid[1], &c.grid[2]) != 3 ||
			    !c.grid[0] || !c.grid[1] || !c.grid[2])
				return bad_line(manifest, lineno, "expected 'grid X Y Z' (each at least 1)");
		} else if (strcmp(s, "end") == 0) {
			in_case = 0;
			if (!c.row[0] || !c.grid[0])
				return bad_line(manifest, lineno, "a case without its 'kernel' or 'grid' line");
			int want = nonly == 0;
			for (int i = 0; i < nonly; i++)
				want |= strstr(c.name, only[i]) != NULL;
			if (!want)
				continue;
			ncases++;
			E2E_RUN(run_case(&c));
		} else {
			if (c.nargs == MAX_ARGS)
				return bad_line(manifest, lineno, "too many arguments");
			if (parse_arg(s, &c.args[c.nargs]))
				return bad_line(manifest, lineno, "bad argument line");
			c.nargs++;
		}
	}
	fclose(f);
	if (in_case)
		return bad_line(manifest, lineno, "the last case has no 'end'");
	if (!ncases)
		fprintf(stderr, "%s: no case selected\n", manifest);
	int rc = e2e_finish();
	free(paths);
	return rc;
}
