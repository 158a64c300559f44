/* test_select.c: tilert_variant_select() over fake devices (no GPU needed), and
 * tilert_device_query() / tilert_set_force_cpu() on this machine. The variants' bytes are
 * never loaded here: the selection looks at their target and format only. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tilecc/tilert.h"
#include "test.h"

static const unsigned char junk[1] = {0};

#define V(t, f) {t, TILERT_FORMAT_##f, junk, sizeof junk}

/* A launcher built with --target=sm_80,sm_86,sm_90,sm_90a,gfx942,x86-64: each NVIDIA target
 * gives a cubin and its PTX. */
static const tilert_variant all[] = {
	V("sm_80", CUBIN), V("sm_80", PTX), V("sm_86", CUBIN), V("sm_86", PTX),
	V("sm_90", CUBIN), V("sm_90", PTX), V("sm_90a", CUBIN), V("sm_90a", PTX),
	V("gfx942", HSACO), V("x86-64", HOST), V("riscv64", HOST),
};
enum { N_ALL = sizeof all / sizeof all[0] };

static tilert_device_info cuda(int cc)
{
	tilert_device_info d = {.cuda_cc = cc, .cpu = "x86-64"};
	return d;
}

static tilert_device_info amd(const char *arch)
{
	tilert_device_info d = {.cpu = "x86-64"};
	snprintf(d.amd_arch, sizeof d.amd_arch, "%s", arch);
	return d;
}

/* The description of the variant chosen for dev among v[0..n), or the error's name. */
static const char *pick(const tilert_variant *v, size_t n, tilert_device_info dev)
{
	static char buf[64];
	size_t i = (size_t)-1;
	int rc = tilert_variant_select(v, n, &dev, &i);
	if (rc != TILERT_OK)
		return rc == TILERT_ERR_NOT_FOUND ? "NOT_FOUND" : "ERROR";
	if (i >= n)
		return "BAD INDEX";
	return tilert_variant_describe(&v[i], buf, sizeof buf);
}

#define EXPECT(got, want)                                                                          \
	do {                                                                                       \
		const char *g_ = (got);                                                            \
		if (strcmp(g_, want)) {                                                            \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__, g_, want); \
			test_failures++;                                                           \
		}                                                                                  \
	} while (0)

int main(void)
{
	/* the exact SM's cubin */
	EXPECT(pick(all, N_ALL, cuda(80)), "sm_80 cubin");
	EXPECT(pick(all, N_ALL, cuda(86)), "sm_86 cubin");
	/* sm_90a before sm_90 on a 9.0 device, whatever the order of the list */
	EXPECT(pick(all, N_ALL, cuda(90)), "sm_90a cubin");
	const tilert_variant rev[] = {V("sm_90a", CUBIN), V("sm_90", CUBIN), V("x86-64", HOST)};
	EXPECT(pick(rev, 3, cuda(90)), "sm_90a cubin");
	/* sm_89: no exact cubin; the same major's highest lower minor (sm_86), not sm_80 */
	EXPECT(pick(all, N_ALL, cuda(89)), "sm_86 cubin");
	const tilert_variant s80[] = {V("sm_80", CUBIN), V("sm_80", PTX), V("x86-64", HOST)};
	EXPECT(pick(s80, 3, cuda(89)), "sm_80 cubin");
	EXPECT(pick(s80, 3, cuda(86)), "sm_80 cubin");
	/* an sm_80 cubin does not run on 9.0 (another major): its PTX is JIT-compiled */
	EXPECT(pick(s80, 3, cuda(90)), "sm_80 ptx");
	/* sm_90a only: its cubin on a 9.0 device; never on another SM, not even its PTX */
	const tilert_variant a_only[] = {V("sm_90a", CUBIN), V("sm_90a", PTX), V("x86-64", HOST)};
	EXPECT(pick(a_only, 3, cuda(90)), "sm_90a cubin");
	EXPECT(pick(a_only, 3, cuda(100)), "x86-64");
	EXPECT(pick(a_only, 3, cuda(89)), "x86-64");
	const tilert_variant a_only_gpu[] = {V("sm_90a", CUBIN), V("sm_90a", PTX)};
	EXPECT(pick(a_only_gpu, 2, cuda(100)), "NOT_FOUND");
	CHECK(strstr(tilert_last_error(), "sm_100") != NULL);
	CHECK(strstr(tilert_last_error(), "sm_90a cubin, sm_90a ptx") != NULL);
	/* a newer SM than any cubin: the highest plain PTX (sm_90, not sm_90a's) */
	EXPECT(pick(all, N_ALL, cuda(100)), "sm_90 ptx");
	EXPECT(pick(all, N_ALL, cuda(120)), "sm_90 ptx");
	/* an older SM than every artifact: the CPU */
	EXPECT(pick(all, N_ALL, cuda(75)), "x86-64");
	/* a PTX alone is JIT-compiled on its SM and later ones */
	const tilert_variant ptx86[] = {V("sm_86", PTX)};
	EXPECT(pick(ptx86, 1, cuda(86)), "sm_86 ptx");
	EXPECT(pick(ptx86, 1, cuda(90)), "sm_86 ptx");
	EXPECT(pick(ptx86, 1, cuda(80)), "NOT_FOUND");
	/* the cubin before the PTX of the same SM, and an exact cubin before a newer PTX */
	const tilert_variant mix[] = {V("sm_90", PTX), V("sm_80", CUBIN), V("sm_90", CUBIN)};
	EXPECT(pick(mix, 3, cuda(90)), "sm_90 cubin");
	EXPECT(pick(mix, 3, cuda(80)), "sm_80 cubin");

	/* AMD: the HSACO of the GPU's gfx, else the CPU */
	EXPECT(pick(all, N_ALL, amd("gfx942")), "gfx942 hsaco");
	EXPECT(pick(all, N_ALL, amd("gfx90a")), "x86-64");
	const tilert_variant amd2[] = {V("gfx90a", HSACO), V("gfx942", HSACO)};
	EXPECT(pick(amd2, 2, amd("gfx90a")), "gfx90a hsaco");
	EXPECT(pick(amd2, 2, amd("gfx906")), "NOT_FOUND");
	CHECK(strstr(tilert_last_error(), "gfx906") != NULL);
	/* a CUDA device is never given an HSACO, nor an AMD GPU a cubin */
	const tilert_variant cross[] = {V("gfx942", HSACO), V("sm_90", CUBIN)};
	EXPECT(pick(cross, 2, cuda(80)), "NOT_FOUND");
	EXPECT(pick(cross, 2, amd("gfx90a")), "NOT_FOUND");

	/* no GPU: this machine's CPU artifact, not another CPU's */
	tilert_device_info none = {.cpu = "x86-64"};
	EXPECT(pick(all, N_ALL, none), "x86-64");
	none.cpu = "riscv64";
	EXPECT(pick(all, N_ALL, none), "riscv64");
	none.cpu = NULL;
	EXPECT(pick(all, N_ALL, none), "NOT_FOUND");
	const tilert_variant gpu_only[] = {V("sm_90a", CUBIN), V("gfx942", HSACO)};
	tilert_device_info plain = {.cpu = "x86-64"};
	EXPECT(pick(gpu_only, 2, plain), "NOT_FOUND");
	CHECK(strstr(tilert_last_error(), "no GPU") != NULL);

	/* forced CPU, on a GPU machine of either kind */
	tilert_device_info f = cuda(90);
	f.force_cpu = 1;
	EXPECT(pick(all, N_ALL, f), "x86-64");
	f = amd("gfx942");
	f.force_cpu = 1;
	EXPECT(pick(all, N_ALL, f), "x86-64");
	EXPECT(pick(gpu_only, 2, f), "NOT_FOUND");
	CHECK(strstr(tilert_last_error(), "forced") != NULL);

	/* malformed names are never chosen for a GPU */
	const tilert_variant odd[] = {V("sm_", CUBIN), V("sm_9", CUBIN), V("sm_90b", CUBIN),
	                              V("gfx", HSACO), {NULL, TILERT_FORMAT_CUBIN, junk, 1}};
	EXPECT(pick(odd, 5, cuda(90)), "NOT_FOUND");
	EXPECT(pick(odd, 0, cuda(90)), "NOT_FOUND");
	size_t i;
	CHECK(tilert_variant_select(NULL, 0, &f, &i) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_variant_select(all, N_ALL, NULL, &i) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_variant_select(all, N_ALL, &f, NULL) == TILERT_ERR_INVALID_ARGUMENT);

	/* this machine (no GPU in the test environment unless there is one) */
	tilert_device_info me;
	CHECK(tilert_device_query(NULL) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_device_query(&me) == TILERT_OK);
	CHECK(me.cpu != NULL);
	if (!tilert_has_cuda())
		CHECK(me.cuda_cc == 0);
	const char *env = getenv("TILERT_FORCE_CPU");
	if (env && !strcmp(env, "1"))
		CHECK(me.force_cpu == 1);
	CHECK(tilert_set_force_cpu(1) == TILERT_OK);
	CHECK(tilert_device_query(&me) == TILERT_OK);
	CHECK(me.force_cpu == 1 && me.cuda_cc == 0 && me.amd_arch[0] == 0);
	CHECK(tilert_set_force_cpu(0) == TILERT_OK);
	CHECK(tilert_device_query(&me) == TILERT_OK);
	CHECK(me.force_cpu == 0);
	/* a launcher's loading fails cleanly when nothing fits */
	tilert_module *m = NULL;
	tilert_kernel *k = NULL;
	CHECK(tilert_set_force_cpu(1) == TILERT_OK);
	CHECK(tilert_variant_load(gpu_only, 2, "k", &m, &k, &i) == TILERT_ERR_NOT_FOUND);
	CHECK(m == NULL && k == NULL);
	CHECK(tilert_variant_load(gpu_only, 2, NULL, &m, &k, &i) == TILERT_ERR_INVALID_ARGUMENT);

	/* specialization variants: the first entry whose conditions all hold */
	static const char *const conds[] = {"DD", "D1", "-D", "D-", "-1", "--"};
	const int64_t vals[][2] = {{64, 32}, {64, 1}, {4, 48}, {-16, 7}, {4, 1}, {4, 7},
	                           {0, 0}, {64, -1}, {INT64_MIN, 16}};
	const size_t want[] = {0, 1, 2, 3, 4, 5, 0, 3, 0};
	for (size_t t = 0; t < sizeof want / sizeof want[0]; t++)
		if (tilert_spec_choose(conds, 6, vals[t], 2) != want[t]) {
			fprintf(stderr, "tilert_spec_choose(%lld, %lld) = %zu, want %zu\n",
			        (long long)vals[t][0], (long long)vals[t][1],
			        tilert_spec_choose(conds, 6, vals[t], 2), want[t]);
			test_failures++;
		}
	CHECK(tilert_spec_choose(conds, 5, vals[5], 2) == 5); /* no unconditional entry */
	CHECK(tilert_spec_choose(conds, 0, vals[0], 2) == 0);
	CHECK(tilert_spec_choose(NULL, 3, vals[0], 2) == 3);

	/* integer heuristics: the index of the value among those compiled, else NOT_FOUND
	 * saying which kernel, heuristic and values */
	const int64_t hv[] = {128, 256, 1024, INT64_MIN};
	size_t hi = 99;
	CHECK(tilert_heuristic_index("k", "BLOCK_N", 1024, hv, 4, &hi) == TILERT_OK && hi == 2);
	CHECK(tilert_heuristic_index("k", "BLOCK_N", INT64_MIN, hv, 4, &hi) == TILERT_OK && hi == 3);
	hi = 99;
	CHECK(tilert_heuristic_index("k", "BLOCK_N", 2048, hv, 4, &hi) == TILERT_ERR_NOT_FOUND && hi == 99);
	CHECK(strstr(tilert_last_error(), "kernel 'k': heuristic BLOCK_N = 2048 was not compiled "
	                                  "(BLOCK_N = 128, 256, 1024, -9223372036854775808)") != NULL);
	CHECK(tilert_heuristic_index("k", "B", 1, NULL, 0, &hi) == TILERT_ERR_NOT_FOUND);
	CHECK(strstr(tilert_last_error(), "(B = none)") != NULL);
	CHECK(tilert_heuristic_index(NULL, NULL, 1, hv, 4, &hi) == TILERT_ERR_NOT_FOUND);
	CHECK(tilert_heuristic_index("k", "B", 1, hv, 4, NULL) == TILERT_ERR_INVALID_ARGUMENT);
	CHECK(tilert_heuristic_index("k", "B", 1, NULL, 4, &hi) == TILERT_ERR_INVALID_ARGUMENT);
	int64_t many[200];
	for (int j = 0; j < 200; j++)
		many[j] = 1000000000000LL + j;
	CHECK(tilert_heuristic_index("k", "B", 1, many, 200, &hi) == TILERT_ERR_NOT_FOUND);
	CHECK(strstr(tilert_last_error(), "...") != NULL);
	return test_result("test_select");
}
