/* test_cuda_runtime.c: libtilert's CUDA path on a machine with an NVIDIA GPU (sm_90 or
 * newer for vadd_meta.ptx): loading PTX from a file and from memory, and a cubin; kernel
 * introspection; vadd and vswap_smem (64 KiB of dynamic shared memory, so the > 48 KiB
 * opt-in) launched over several sizes, on the default stream, on streams and from several
 * threads, each result compared with the same computation in C; device memory; and the
 * errors a caller can make or meet (arguments, hints, grids, bad PTX, bad metadata, a
 * kernel that faults). Built and run by tests/gpu/run.sh.
 *
 * usage: test_cuda_runtime PTX [CUBIN]       the tests
 *        test_cuda_runtime --fault PTX       a launch that faults: reported at synchronize
 *        test_cuda_runtime --assert PTX      tl.device_assert (check_below.ptx) passing, then failing
 *        test_cuda_runtime --no-device       run with TILERT_CUDA_DEVICE=99: no device */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilecc/tilert.h"

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n    last error: %s\n", __FILE__, \
			        __LINE__, #cond, tilert_last_error());                             \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static int contains(const char *s, const char *part)
{
	return s && strstr(s, part) != NULL;
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc((size_t)n ? (size_t)n : 1);
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return data;
}

/* Appends to p (of capacity cap, n used) the global NAME__meta holding meta. */
static size_t put_meta(char *p, size_t cap, size_t n, const char *name, const char *meta)
{
	size_t len = strlen(meta) + 1;

	n += (size_t)snprintf(p + n, cap - n, ".visible .global .align 1 .b8 %s__meta[%zu] = {",
	                      name, len);
	for (size_t i = 0; i < len; i++)
		n += (size_t)snprintf(p + n, cap - n, "%s%u", i ? ", " : "", (unsigned char)meta[i]);
	return n + (size_t)snprintf(p + n, cap - n, "};\n");
}

/* A PTX module: NAME__meta globals for meta_name (holding meta) and, when meta_name2 is
 * not NULL, meta_name2 (holding meta2), then entry and an empty body. Malloc'ed. */
static char *make_ptx2(const char *meta_name, const char *meta, const char *meta_name2,
                       const char *meta2, const char *entry)
{
	size_t cap = 4096 + 5 * strlen(meta) + (meta2 ? 5 * strlen(meta2) : 0) + strlen(entry);
	char *p = malloc(cap);
	size_t n;

	if (!p)
		return NULL;
	n = (size_t)snprintf(p, cap, ".version 7.0\n.target sm_50\n.address_size 64\n");
	n = put_meta(p, cap, n, meta_name, meta);
	if (meta_name2)
		n = put_meta(p, cap, n, meta_name2, meta2);
	snprintf(p + n, cap - n, "%s\n{\n\tret;\n}\n", entry);
	return p;
}

/* The same with one NAME__meta. */
static char *make_ptx(const char *meta_name, const char *meta, const char *entry)
{
	return make_ptx2(meta_name, meta, NULL, NULL, entry);
}

static int load_ptx_text(const char *text, tilert_module **mod)
{
	return tilert_module_load_data(text, strlen(text), mod);
}

/* ---- vadd and vswap_smem: runs and checks ---- */

typedef struct buffers {
	int32_t n;
	float *x, *y, *out;     /* host */
	void *dx, *dy, *dout;   /* device, n + PAD elements each */
} buffers;

enum { PAD = 64, THREADS = 128 };

static int buffers_make(buffers *b, int32_t n, unsigned seed)
{
	size_t bytes = ((size_t)n + PAD) * sizeof(float);

	memset(b, 0, sizeof *b);
	b->n = n;
	if (!(b->x = malloc(bytes)) || !(b->y = malloc(bytes)) || !(b->out = malloc(bytes)))
		return 0;
	for (int32_t i = 0; i < n + PAD; i++) {
		b->x[i] = (float)((i * 37u + seed) % 1000) * 0.25f - 100.0f;
		b->y[i] = 1.0f / (float)(i % 97 + 1) + (float)seed;
	}
	if (tilert_device_alloc(bytes, &b->dx) != TILERT_OK ||
	    tilert_device_alloc(bytes, &b->dy) != TILERT_OK ||
	    tilert_device_alloc(bytes, &b->dout) != TILERT_OK)
		return 0;
	return tilert_memcpy_htod(b->dx, b->x, bytes) == TILERT_OK &&
	       tilert_memcpy_htod(b->dy, b->y, bytes) == TILERT_OK &&
	       tilert_memset_d8(b->dout, 0xff, bytes) == TILERT_OK; /* NaNs: untouched marker */
}

static void buffers_free(buffers *b)
{
	free(b->x);
	free(b->y);
	free(b->out);
	tilert_device_free(b->dx);
	tilert_device_free(b->dy);
	tilert_device_free(b->dout);
}

static tilert_grid grid_for(int32_t n)
{
	tilert_grid g = { (uint32_t)((n + THREADS - 1) / THREADS), 1, 1 };

	return g;
}

static int launch_vadd(tilert_kernel *k, tilert_stream *s, buffers *b)
{
	void *args[] = { &b->dx, &b->dy, &b->dout, &b->n };

	return tilert_launch(k, s, grid_for(b->n), args, 4);
}

static int launch_vswap(tilert_kernel *k, tilert_stream *s, buffers *b)
{
	void *args[] = { &b->dx, &b->dout, &b->n };

	return tilert_launch(k, s, grid_for(b->n), args, 3);
}

/* Reads dout back; out[i] must be want(i) for i < n, and the padding untouched. */
static int check_out(buffers *b, int swap)
{
	uint32_t untouched = 0xffffffffu, bits;
	int bad = 0;

	if (tilert_memcpy_dtoh(b->out, b->dout, ((size_t)b->n + PAD) * sizeof(float)) != TILERT_OK)
		return 0;
	for (int32_t i = 0; i < b->n && bad < 5; i++) {
		float want = swap ? ((i ^ 1) < b->n ? b->x[i ^ 1] : 0.0f) : b->x[i] + b->y[i];

		if (memcmp(&b->out[i], &want, sizeof want) != 0) {
			fprintf(stderr, "  %s n=%d: out[%d] = %g, want %g\n", swap ? "vswap_smem" : "vadd",
			        (int)b->n, (int)i, (double)b->out[i], (double)want);
			bad++;
		}
	}
	for (int32_t i = b->n; i < b->n + PAD; i++) {
		memcpy(&bits, &b->out[i], sizeof bits);
		bad += bits != untouched;
	}
	return bad == 0;
}

static void run_both(tilert_kernel *vadd, tilert_kernel *vswap, tilert_stream *s, int32_t n)
{
	buffers b;

	CHECK(buffers_make(&b, n, (unsigned)n));
	CHECK(launch_vadd(vadd, s, &b) == TILERT_OK);
	CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	CHECK(check_out(&b, 0));
	CHECK(tilert_memset_d8(b.dout, 0xff, ((size_t)n + PAD) * sizeof(float)) == TILERT_OK);
	CHECK(launch_vswap(vswap, s, &b) == TILERT_OK);
	CHECK(tilert_stream_synchronize(s) == TILERT_OK);
	CHECK(check_out(&b, 1));
	buffers_free(&b);
}

/* ---- the tests ---- */

static void test_introspection(tilert_module *mod, tilert_format format)
{
	tilert_kernel *k = NULL, *k2 = NULL;
	tilert_param_info info;

	CHECK(tilert_module_format(mod) == format);
	CHECK(tilert_module_num_kernels(mod) == 2);
	CHECK(contains(tilert_module_kernel_name(mod, 0), "vadd"));
	CHECK(contains(tilert_module_kernel_name(mod, 1), "vswap_smem"));
	CHECK(tilert_module_kernel_name(mod, 2) == NULL);
	CHECK(tilert_module_get_kernel(mod, "vadd", &k) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "vadd", &k2) == TILERT_OK && k == k2);
	if (!k)
		return;
	CHECK(strcmp(tilert_kernel_name(k), "vadd") == 0);
	CHECK(tilert_kernel_num_params(k) == 4);
	CHECK(strcmp(tilert_kernel_meta(k, "target"), "nvptx") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "block"), "128,1,1") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "shared"), "0") == 0);
	CHECK(strcmp(tilert_kernel_meta(k, "num_warps"), "4") == 0);
	CHECK(tilert_kernel_param(k, 0, &info) == TILERT_OK);
	CHECK(info.is_pointer && info.kind == TILERT_TYPE_PTR && info.divisibility == 16 &&
	      strcmp(info.type, "*fp32") == 0 && info.size == sizeof(void *));
	CHECK(tilert_kernel_param(k, 3, &info) == TILERT_OK);
	CHECK(!info.is_pointer && info.kind == TILERT_TYPE_I32 && info.divisibility == 0 &&
	      info.size == 4);
	CHECK(tilert_kernel_param(k, 4, &info) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_module_get_kernel(mod, "vswap_smem", &k) == TILERT_OK);
	CHECK(k && strcmp(tilert_kernel_meta(k, "shared"), "65536") == 0);
	CHECK(k && tilert_kernel_num_params(k) == 3);
	CHECK(tilert_module_get_kernel(mod, "nope", &k) == TILERT_ERR_NOT_FOUND);
	CHECK(contains(tilert_last_error(), "kernel 'nope' not found in module (it has: vadd, "
	                                    "vswap_smem)"));
	CHECK(tilert_module_get_kernel(mod, "vadd__meta", &k) == TILERT_ERR_NOT_FOUND);
	CHECK(tilert_module_get_kernel(mod, "bad name!", &k) == TILERT_ERR_NOT_FOUND);
}

static void test_sizes(tilert_module *mod)
{
	static const int32_t sizes[] = { 1, 2, 127, 128, 129, 4096, 1000003 };
	tilert_kernel *vadd = NULL, *vswap = NULL;

	CHECK(tilert_module_get_kernel(mod, "vadd", &vadd) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "vswap_smem", &vswap) == TILERT_OK);
	if (!vadd || !vswap)
		return;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		run_both(vadd, vswap, NULL, sizes[i]);
}

static void test_streams(tilert_module *mod)
{
	tilert_kernel *vadd = NULL;
	tilert_stream *s[2] = { NULL, NULL };
	buffers b[2];

	CHECK(tilert_module_get_kernel(mod, "vadd", &vadd) == TILERT_OK);
	CHECK(tilert_stream_create(&s[0]) == TILERT_OK);
	CHECK(tilert_stream_create(&s[1]) == TILERT_OK);
	if (!vadd || !s[0] || !s[1])
		return;
	/* Two streams at once; then a copy with no synchronize in between, which the default
	 * stream orders after the launches of the (blocking) streams. */
	for (int i = 0; i < 2; i++)
		CHECK(buffers_make(&b[i], 1000003 - i * 1000, 11u * (unsigned)i));
	for (int i = 0; i < 2; i++)
		CHECK(launch_vadd(vadd, s[i], &b[i]) == TILERT_OK);
	CHECK(check_out(&b[0], 0));
	CHECK(tilert_stream_synchronize(s[1]) == TILERT_OK);
	CHECK(check_out(&b[1], 0));
	/* Many launches queued on one stream, then one synchronize. */
	for (int rep = 0; rep < 50; rep++)
		CHECK(launch_vadd(vadd, s[0], &b[0]) == TILERT_OK);
	CHECK(tilert_stream_synchronize(s[0]) == TILERT_OK);
	CHECK(check_out(&b[0], 0));
	/* Destroying a stream with work queued waits for it. */
	CHECK(tilert_memset_d8(b[1].dout, 0xff, ((size_t)b[1].n + PAD) * sizeof(float)) == TILERT_OK);
	CHECK(launch_vadd(vadd, s[1], &b[1]) == TILERT_OK);
	CHECK(tilert_stream_destroy(s[1]) == TILERT_OK);
	CHECK(check_out(&b[1], 0));
	CHECK(tilert_stream_destroy(s[0]) == TILERT_OK);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	for (int i = 0; i < 2; i++)
		buffers_free(&b[i]);
}

typedef struct thread_arg {
	tilert_module *mod;
	int32_t n;
	int ok;
} thread_arg;

/* Each thread: its own stream, its own buffers; the context must be made current on it. */
static void *thread_main(void *p)
{
	thread_arg *a = p;
	tilert_kernel *vadd = NULL;
	tilert_stream *s = NULL;
	buffers b = { 0 };

	a->ok = tilert_module_get_kernel(a->mod, "vadd", &vadd) == TILERT_OK &&
	        tilert_stream_create(&s) == TILERT_OK && buffers_make(&b, a->n, (unsigned)a->n);
	for (int rep = 0; a->ok && rep < 20; rep++)
		a->ok = launch_vadd(vadd, s, &b) == TILERT_OK;
	a->ok = a->ok && tilert_stream_synchronize(s) == TILERT_OK && check_out(&b, 0);
	a->ok = tilert_stream_destroy(s) == TILERT_OK && a->ok;
	buffers_free(&b);
	return NULL;
}

static void test_threads(tilert_module *mod)
{
	pthread_t t[4];
	thread_arg a[4];

	for (int i = 0; i < 4; i++) {
		a[i].mod = mod;
		a[i].n = 100000 + 1013 * i;
		a[i].ok = 0;
		CHECK(pthread_create(&t[i], NULL, thread_main, &a[i]) == 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		CHECK(a[i].ok);
	}
}

static void test_launch_errors(tilert_module *mod)
{
	tilert_kernel *vadd = NULL;
	buffers b;
	void *misaligned;
	int32_t n = 1000;

	CHECK(tilert_module_get_kernel(mod, "vadd", &vadd) == TILERT_OK);
	if (!vadd || !buffers_make(&b, n, 3))
		return;
	misaligned = (char *)b.dx + 4;
	{
		void *args[] = { &b.dx, &b.dy, &b.dout, &n };
		void *bad_ptr[] = { &misaligned, &b.dy, &b.dout, &n };
		void *null_arg[] = { &b.dx, NULL, &b.dout, &n };
		tilert_grid g = grid_for(n), zero = { 0, 1, 1 }, tall = { 1, 70000, 1 };

		CHECK(tilert_launch(vadd, NULL, g, args, 3) == TILERT_ERR_ARGUMENTS);
		CHECK(contains(tilert_last_error(), "kernel 'vadd' takes 4 argument(s); got 3"));
		CHECK(tilert_launch(vadd, NULL, g, args, 5) == TILERT_ERR_ARGUMENTS);
		CHECK(tilert_launch(vadd, NULL, g, bad_ptr, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(contains(tilert_last_error(), "argument 0 (*fp32:16) is not divisible by 16"));
		CHECK(tilert_launch(vadd, NULL, g, null_arg, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(tilert_launch(vadd, NULL, g, NULL, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(tilert_launch(vadd, NULL, zero, args, 4) == TILERT_ERR_INVALID_ARGUMENT);
		CHECK(tilert_launch(vadd, NULL, tall, args, 4) == TILERT_ERR_LAUNCH);
		CHECK(contains(tilert_last_error(), "at most 65535"));
		CHECK(tilert_launch_ffi(vadd, NULL, g, args, 4) == TILERT_ERR_UNSUPPORTED);
		/* nothing above was launched: the output is untouched */
		CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
		CHECK(tilert_memcpy_dtoh(b.out, b.dout, sizeof(float)) == TILERT_OK);
		CHECK(b.out[0] != b.out[0]); /* still the 0xff NaN */
		/* a 3-D grid: the extra programs on y and z write the same values again */
		{
			tilert_grid g3 = { g.x, 3, 2 };

			CHECK(tilert_launch(vadd, NULL, g3, args, 4) == TILERT_OK);
			CHECK(check_out(&b, 0));
		}
	}
	buffers_free(&b);
}

static void test_module_errors(void)
{
	static const char bad_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
	                              ".visible .entry broken(.param .u64 p)\n{\n\tfrobnicate.u32 "
	                              "%r1;\n}\n";
	static const char good_meta[] = "tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=*fp32\n"
	                                "block=64,1,1\nshared=0\n";
	tilert_module *mod = NULL;
	tilert_kernel *k = NULL;
	char *ptx;
	int rc;

	/* a JIT error, with the JIT's log */
	rc = load_ptx_text(bad_ptx, &mod);
	CHECK(rc == TILERT_ERR_FORMAT);
	CHECK(contains(tilert_last_error(),
	               "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed"));
	CHECK(contains(tilert_last_error(), "\n"));
	CHECK(contains(tilert_last_error(), "frobnicate"));
	printf("  bad PTX: %s\n", tilert_last_error());
	CHECK(mod == NULL);

	/* PTX with a function but no metadata */
	CHECK(load_ptx_text(".version 7.0\n.target sm_50\n.address_size 64\n"
	                    ".visible .entry plain(.param .u64 p)\n{\n\tret;\n}\n", &mod) ==
	      TILERT_ERR_FORMAT);
	CHECK(contains(tilert_last_error(), "no tilecc kernels in this PTX module"));

	/* metadata that is wrong in each way the loader checks */
	static const struct {
		const char *meta, *message;
	} bad[] = {
		{ "tilecc-kernel=1\nname=k\ntarget=x86-64\nparams=\n",
		  "kernel 'k' was compiled for target 'x86-64', but the module is nvptx" },
		{ "tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=*fp32\nblock=64,64,1\n",
		  "is more threads than device" },
		{ "tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=*fp32\nblock=64,x\n", "bad block=64,x" },
		{ "tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=*fp32\nshared=100000000\n",
		  "needs 100000000 bytes of shared memory" },
		{ "tilecc-kernel=1\nname=other\ntarget=nvptx\nparams=\n", "metadata names it 'other'" },
		{ "tilecc-kernel=2\nname=k\ntarget=nvptx\nparams=\n", "newer than this runtime" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ptx = make_ptx("k", bad[i].meta, ".visible .entry k(.param .u64 p)");
		CHECK(ptx && load_ptx_text(ptx, &mod) == TILERT_ERR_FORMAT);
		if (!contains(tilert_last_error(), bad[i].message)) {
			fprintf(stderr, "  bad metadata %zu: got '%s'\n", i, tilert_last_error());
			CHECK(0);
		}
		free(ptx);
	}

	/* block= absent: 32 * num_warps threads */
	ptx = make_ptx("k", "tilecc-kernel=1\nname=k\ntarget=nvptx\nparams=*fp32\nnum_warps=8\n",
	               ".visible .entry k(.param .u64 p)");
	CHECK(ptx && load_ptx_text(ptx, &mod) == TILERT_OK);
	tilert_module_unload(mod);
	mod = NULL;
	free(ptx);

	/* An entry the scan cannot see (a comment for the blank after .entry) is still found by
	 * name, through the driver, and is not listed; a NAME__meta without its entry is an
	 * error when asked for. */
	ptx = make_ptx("k", good_meta, ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n"
	                               ".visible .global .align 1 .b8 ghost__meta[1] = { 0 };\n"
	                               ".visible .entry/**/hidden(.param .u64 p)");
	CHECK(ptx && load_ptx_text(ptx, &mod) == TILERT_OK);
	free(ptx);
	if (!mod)
		return;
	CHECK(tilert_module_num_kernels(mod) == 1);
	CHECK(tilert_module_get_kernel(mod, "hidden", &k) == TILERT_ERR_NOT_FOUND); /* no meta */
	CHECK(tilert_module_get_kernel(mod, "ghost", &k) == TILERT_ERR_FORMAT);
	CHECK(contains(tilert_last_error(), "ghost__meta is not a NUL-terminated string") ||
	      contains(tilert_last_error(), "metadata has no"));
	tilert_module_unload(mod);
	mod = NULL;

	ptx = make_ptx("hidden", "tilecc-kernel=1\nname=hidden\ntarget=nvptx\nparams=*fp32\n",
	               ".visible .entry/**/hidden(.param .u64 p)\n{\n\tret;\n}\n"
	               ".visible .global .align 1 .b8 k__meta[80] = { 0 };\n"
	               ".visible .entry k(.param .u64 p)");
	CHECK(ptx && load_ptx_text(ptx, &mod) == TILERT_ERR_FORMAT); /* k__meta is empty text */
	free(ptx);
	ptx = make_ptx("hidden", "tilecc-kernel=1\nname=hidden\ntarget=nvptx\nparams=*fp32\n",
	               ".visible .entry/**/hidden(.param .u64 p)\n{\n\tret;\n}\n"
	               ".visible .entry k(.param .u64 p)");
	rc = ptx ? load_ptx_text(ptx, &mod) : -1;
	free(ptx);
	/* no listed kernel: the module is refused, as one without kernels */
	CHECK(rc == TILERT_ERR_FORMAT);

	/* a listed kernel and one found by name only */
	ptx = make_ptx2("k", good_meta, "hidden",
	                "tilecc-kernel=1\nname=hidden\ntarget=nvptx\nparams=*fp32,i32\nblock=32\n",
	                ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n"
	                ".visible .entry/**/hidden(.param .u64 p, .param .u32 q)");
	CHECK(ptx && load_ptx_text(ptx, &mod) == TILERT_OK);
	free(ptx);
	if (!mod)
		return;
	CHECK(tilert_module_num_kernels(mod) == 1);
	CHECK(tilert_module_get_kernel(mod, "hidden", &k) == TILERT_OK);
	if (k) {
		tilert_kernel *k2 = NULL;
		void *p = NULL;
		int32_t q = 5;
		void *args[] = { &p, &q };
		tilert_grid g = { 2, 1, 1 };

		CHECK(tilert_module_get_kernel(mod, "hidden", &k2) == TILERT_OK && k2 == k);
		CHECK(tilert_kernel_num_params(k) == 2);
		CHECK(tilert_launch(k, NULL, g, args, 2) == TILERT_OK);
		CHECK(tilert_stream_synchronize(NULL) == TILERT_OK);
	}
	CHECK(tilert_module_num_kernels(mod) == 1);
	tilert_module_unload(mod);
}

static void test_device_memory(void)
{
	void *p = NULL, *q = NULL;
	unsigned char host[256], back[256];

	CHECK(tilert_has_cuda() == 1);
	CHECK(tilert_device_alloc(0, &p) == TILERT_OK && p == NULL);
	CHECK(tilert_device_alloc(sizeof host, &p) == TILERT_OK && p != NULL);
	CHECK(((uintptr_t)p & 255) == 0);
	for (unsigned i = 0; i < sizeof host; i++)
		host[i] = (unsigned char)(i * 7);
	CHECK(tilert_memcpy_htod(p, host, sizeof host) == TILERT_OK);
	CHECK(tilert_memcpy_dtoh(back, p, sizeof back) == TILERT_OK);
	CHECK(memcmp(host, back, sizeof host) == 0);
	CHECK(tilert_memset_d8((char *)p + 16, 0x33, 32) == TILERT_OK);
	CHECK(tilert_memcpy_dtoh(back, p, sizeof back) == TILERT_OK);
	CHECK(back[15] == host[15] && back[16] == 0x33 && back[47] == 0x33 && back[48] == host[48]);
	CHECK(tilert_memcpy_htod(NULL, host, 4) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_memcpy_dtoh(back, NULL, 4) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_memcpy_htod(p, host, 0) == TILERT_OK);
	CHECK(tilert_device_alloc((size_t)1 << 50, &q) == TILERT_ERR_OUT_OF_MEMORY);
	CHECK(contains(tilert_last_error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY"));
	CHECK(q == NULL);
	CHECK(tilert_device_free(p) == TILERT_OK);
	CHECK(tilert_device_free(NULL) == TILERT_OK);
}

static void test_module(tilert_module *mod, tilert_format format, const char *what)
{
	printf("%s:\n", what);
	test_introspection(mod, format);
	test_sizes(mod);
}

static int run_fault(const char *ptx_path)
{
	tilert_module *mod = NULL;
	tilert_kernel *vadd = NULL;
	void *bogus = (void *)(uintptr_t)0x100; /* divisible by 16, mapped nowhere */
	int32_t n = 1000;
	void *args[] = { &bogus, &bogus, &bogus, &n };
	tilert_grid g = grid_for(n);
	int rc;

	CHECK(tilert_module_load_file(ptx_path, &mod) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "vadd", &vadd) == TILERT_OK);
	if (!vadd)
		return 1;
	CHECK(tilert_launch(vadd, NULL, g, args, 4) == TILERT_OK); /* asynchronous: no fault yet */
	rc = tilert_stream_synchronize(NULL);
	printf("  fault: %s\n", tilert_last_error());
	CHECK(rc == TILERT_ERR_LAUNCH);
	CHECK(contains(tilert_last_error(), "cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS"));
	return failures ? 1 : 0;
}

/* tl.device_assert compiled by tilecc (check_below.ptx, from tests/gpu/assert_kernel.py):
 * a launch whose data pass goes through; one whose data fail stops with the driver's
 * assert error at the synchronize, after which the context is unusable (so it comes last,
 * in a process of its own). */
static int run_assert(const char *ptx_path)
{
	tilert_module *mod = NULL;
	tilert_kernel *k = NULL;
	int32_t n = 1000, host[1000], limit = 1000;
	void *dx = NULL;
	void *args[] = { &dx, &n, &limit };
	tilert_grid g = { (uint32_t)((n + 255) / 256), 1, 1 };
	int rc;

	for (int i = 0; i < n; i++)
		host[i] = i;
	CHECK(tilert_module_load_file(ptx_path, &mod) == TILERT_OK);
	CHECK(tilert_module_get_kernel(mod, "check_below", &k) == TILERT_OK);
	CHECK(tilert_device_alloc(sizeof host, &dx) == TILERT_OK);
	if (!k || !dx)
		return 1;
	CHECK(tilert_memcpy_htod(dx, host, sizeof host) == TILERT_OK);
	CHECK(tilert_launch(k, NULL, g, args, 3) == TILERT_OK);
	CHECK(tilert_stream_synchronize(NULL) == TILERT_OK); /* every x < 1000 */
	limit = 500;
	CHECK(tilert_launch(k, NULL, g, args, 3) == TILERT_OK);
	rc = tilert_stream_synchronize(NULL);
	printf("  assert: %s\n", tilert_last_error());
	CHECK(rc == TILERT_ERR_LAUNCH);
	CHECK(contains(tilert_last_error(), "CUDA_ERROR_ASSERT"));
	return failures ? 1 : 0;
}

static int run_no_device(void)
{
	void *p = NULL;

	CHECK(tilert_has_cuda() == 0);
	CHECK(tilert_device_alloc(16, &p) == TILERT_ERR_NO_DRIVER);
	printf("  no device: %s\n", tilert_last_error());
	CHECK(contains(tilert_last_error(), "no usable CUDA device 99") ||
	      contains(tilert_last_error(), "TILERT_CUDA_DEVICE"));
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	tilert_module *mod = NULL;
	unsigned char *data;
	size_t size = 0;

	if (argc == 3 && strcmp(argv[1], "--fault") == 0)
		return run_fault(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--assert") == 0)
		return run_assert(argv[2]);
	if (argc == 2 && strcmp(argv[1], "--no-device") == 0)
		return run_no_device();
	if (argc < 2) {
		fprintf(stderr, "usage: test_cuda_runtime PTX [CUBIN]\n");
		return 2;
	}
	if (!tilert_has_cuda()) {
		void *p;

		tilert_device_alloc(1, &p);
		fprintf(stderr, "test_cuda_runtime: no usable CUDA device: %s\n", tilert_last_error());
		return 1;
	}
	test_device_memory();

	CHECK(tilert_module_load_file(argv[1], &mod) == TILERT_OK);
	if (mod) {
		test_module(mod, TILERT_FORMAT_PTX, "PTX from a file");
		test_streams(mod);
		test_threads(mod);
		test_launch_errors(mod);
		CHECK(tilert_module_unload(mod) == TILERT_OK);
	}
	/* from memory: an exact-size copy without a terminating NUL */
	if ((data = slurp(argv[1], &size)) != NULL) {
		mod = NULL;
		CHECK(tilert_module_load_data(data, size, &mod) == TILERT_OK);
		free(data);
		if (mod)
			test_module(mod, TILERT_FORMAT_PTX, "PTX from memory");
		tilert_module_unload(mod);
	}
	if (argc > 2) {
		mod = NULL;
		CHECK(tilert_module_load_file(argv[2], &mod) == TILERT_OK);
		if (mod)
			test_module(mod, TILERT_FORMAT_CUBIN, "cubin from a file");
		tilert_module_unload(mod);
	}
	printf("errors:\n");
	test_module_errors();
	if (failures)
		fprintf(stderr, "test_cuda_runtime: %d check(s) failed\n", failures);
	else
		printf("test_cuda_runtime: all checks passed\n");
	return failures ? 1 : 0;
}
