/* select.c: which of a multi-target launcher's embedded artifacts runs on this machine
 * (tilert.h, "launchers for several targets"). The choice is a pure function of the list and
 * of a tilert_device_info, so that tests can feed it fake devices; tilert_device_query()
 * fills the real one from the drivers. Loading tries the candidates in order: a cubin the
 * driver refuses (CUDA_ERROR_NO_BINARY_FOR_GPU, _INVALID_IMAGE) gives way to the next one,
 * the PTX; tilert_variant_load_on takes the device and the loader, so that tests fake both. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

/* -1: not read yet; else 0 or 1. The environment is read once, an API call overrides it. */
static atomic_int force_cpu = -1;

int tilert_set_force_cpu(int on)
{
	atomic_store(&force_cpu, on != 0);
	return TILERT_OK;
}

static int forced(void)
{
	int f = atomic_load(&force_cpu);
	if (f < 0) {
		const char *e = getenv("TILERT_FORCE_CPU");
		int want = e && *e && strcmp(e, "0") != 0;
		int expected = -1;
		/* a concurrent tilert_set_force_cpu wins */
		atomic_compare_exchange_strong(&force_cpu, &expected, want);
		f = atomic_load(&force_cpu);
	}
	return f;
}

int tilert_device_query(tilert_device_info *out)
{
	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "NULL device info");
	memset(out, 0, sizeof *out);
	out->cpu = tilert_machine_name(tilert_host_machine());
	out->force_cpu = forced();
	if (out->force_cpu)
		return TILERT_OK; /* no driver is touched */
	out->cuda_cc = tilert_cuda_compute_capability();
	if (!out->cuda_cc)
		tilert_hip_arch(out->amd_arch, sizeof out->amd_arch);
	return TILERT_OK;
}

/* The compute capability of an NVIDIA target name: sm_90a gives 90 and *arch_specific 1;
 * 0 when the name is not sm_<digits>[a]. */
static int sm_of(const char *t, int *arch_specific)
{
	if (!t || strncmp(t, "sm_", 3) != 0)
		return 0;
	int cc = 0, digits = 0;
	const char *p = t + 3;
	for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
		cc = cc * 10 + (*p - '0');
	*arch_specific = *p == 'a';
	if (*p == 'a')
		p++;
	return digits >= 2 && !*p ? cc : 0;
}

/* How well an NVIDIA variant suits a device of compute capability cc: higher is better,
 * 0 unusable. Exact cubin (the "a" one first), then a same-major cubin by minor, then PTX
 * by SM (the "a" PTX only on its own SM). */
static int nv_rank(const tilert_variant *v, int cc)
{
	int a = 0, vcc = sm_of(v->target, &a);
	if (!vcc || vcc > cc)
		return 0;
	if (v->format == TILERT_FORMAT_CUBIN) {
		if (vcc == cc)
			return 3000 + a;
		if (a || vcc / 10 != cc / 10)
			return 0;
		return 2000 + vcc % 10;
	}
	if (v->format == TILERT_FORMAT_PTX) {
		if (a && vcc != cc)
			return 0;
		return 1000 + 2 * vcc + a;
	}
	return 0;
}

/* Does the gfx name t equal the device's (whose features after ':' are already gone)? */
static int amd_match(const tilert_variant *v, const char *arch)
{
	return v->format == TILERT_FORMAT_HSACO && arch[0] && v->target && !strcmp(v->target, arch);
}

/* The candidates for dev among v[0..n), best first, into order (n entries); their count. A
 * CUDA device: its NVIDIA artifacts by nv_rank (exact cubin, same-major cubin, PTX); an AMD
 * GPU: its HSACO; else (or when none of those is there) this CPU's artifact. */
static size_t variant_order(const tilert_variant *v, size_t n, const tilert_device_info *dev,
                            size_t *order)
{
	size_t count = 0;
	if (!dev->force_cpu && dev->cuda_cc > 0) {
		/* insertion by rank, the earlier of equals first */
		for (size_t i = 0; i < n; i++) {
			int r = nv_rank(&v[i], dev->cuda_cc);
			if (!r)
				continue;
			size_t j = count++;
			for (; j > 0 && nv_rank(&v[order[j - 1]], dev->cuda_cc) < r; j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
	} else if (!dev->force_cpu && dev->amd_arch[0]) {
		for (size_t i = 0; i < n; i++)
			if (amd_match(&v[i], dev->amd_arch))
				order[count++] = i;
	}
	for (size_t i = 0; i < n && count == 0; i++)
		if (v[i].format == TILERT_FORMAT_HOST && dev->cpu && v[i].target &&
		    !strcmp(v[i].target, dev->cpu))
			order[count++] = i;
	return count;
}

/* The error for a device that none of v[0..n) fits: what the device is and what there was. */
static int none_fits(const tilert_variant *v, size_t n, const tilert_device_info *dev)
{
	char have[400] = "", b[48];
	size_t len = 0;
	for (size_t i = 0; i < n && len < sizeof have; i++)
		len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", i ? ", " : "",
		                        tilert_variant_describe(&v[i], b, sizeof b));
	char what[96];
	if (dev->force_cpu)
		snprintf(what, sizeof what, "the CPU (%s) was forced", dev->cpu ? dev->cpu : "unknown");
	else if (dev->cuda_cc > 0)
		snprintf(what, sizeof what, "a CUDA device sm_%d, and no %s CPU artifact", dev->cuda_cc,
		         dev->cpu ? dev->cpu : "usable");
	else if (dev->amd_arch[0])
		snprintf(what, sizeof what, "an AMD GPU %.31s, and no %s CPU artifact", dev->amd_arch,
		         dev->cpu ? dev->cpu : "usable");
	else
		snprintf(what, sizeof what, "no GPU, and the CPU is %s", dev->cpu ? dev->cpu : "unknown");
	return tilert_fail(TILERT_ERR_NOT_FOUND, "no embedded artifact for this machine: %s; the "
	                   "launcher has %s", what, n ? have : "none");
}

int tilert_variant_select(const tilert_variant *v, size_t n, const tilert_device_info *dev,
                          size_t *out)
{
	if (!v || !dev || !out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_variant_select: NULL argument");
	size_t small[16], *order = n <= 16 ? small : malloc(sizeof *order * n);
	if (!order)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "tilert_variant_select: out of memory");
	size_t count = variant_order(v, n, dev, order), best = count ? order[0] : n;
	if (order != small)
		free(order);
	if (!count)
		return none_fits(v, n, dev);
	*out = best;
	return TILERT_OK;
}

const char *tilert_variant_describe(const tilert_variant *v, char *buf, size_t size)
{
	if (!v || !v->target)
		return "unknown";
	if (v->format == TILERT_FORMAT_HOST)
		return v->target;
	if (!buf || !size)
		return tilert_format_name(v->format);
	snprintf(buf, size, "%s %s", v->target, tilert_format_name(v->format));
	return buf;
}

int tilert_variant_load_on(const tilert_variant *v, size_t n, const char *name,
                           const tilert_device_info *dev, tilert_load_fn load_data,
                           tilert_module **mod, tilert_kernel **k, size_t *chosen)
{
	if (!v || !name || !dev || !load_data || !mod || !k || !chosen)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_variant_load: NULL argument");
	size_t small[16], *order = n <= 16 ? small : malloc(sizeof *order * n);
	if (!order)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "tilert_variant_load: out of memory");
	size_t count = variant_order(v, n, dev, order);
	int rc = count ? TILERT_OK : none_fits(v, n, dev);
	/* each refusal, "sm_90a cubin: ...; sm_90a ptx: ...", for the error when none loads */
	char tried[1024] = "", b[48];
	size_t len = 0;
	for (size_t c = 0; c < count; c++) {
		size_t i = order[c];
		tilert_module *m = NULL;
		tilert_kernel *kk = NULL;
		rc = load_data(v[i].data, v[i].size, &m);
		if (rc == TILERT_OK && (rc = tilert_module_get_kernel(m, name, &kk)) != TILERT_OK)
			tilert_module_unload(m);
		if (rc == TILERT_OK) {
			*mod = m;
			*k = kk;
			*chosen = i;
			break;
		}
		if (len < sizeof tried)
			len += (size_t)snprintf(tried + len, sizeof tried - len, "%s%s: %s", len ? "; " : "",
			                        tilert_variant_describe(&v[i], b, sizeof b),
			                        tilert_last_error());
		/* the driver refused this image (no binary for this GPU, a bad image, a PTX
		 * version it cannot compile): the next candidate may load; anything else (no
		 * driver, out of memory, no such kernel) is the answer */
		if (rc != TILERT_ERR_FORMAT)
			break;
		if (c + 1 == count && c > 0)
			rc = tilert_fail(rc, "no embedded artifact loads on this device: %s", tried);
	}
	if (order != small)
		free(order);
	return rc;
}

int tilert_variant_load(const tilert_variant *v, size_t n, const char *name, tilert_module **mod,
                        tilert_kernel **k, size_t *chosen)
{
	tilert_device_info dev;
	int rc;

	if (!name || !mod || !k || !chosen)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_variant_load: NULL argument");
	if ((rc = tilert_device_query(&dev)) != TILERT_OK)
		return rc;
	return tilert_variant_load_on(v, n, name, &dev, tilert_module_load_data, mod, k, chosen);
}

/* ---- specialization variants ---------------------------------------------------------------- */

size_t tilert_spec_choose(const char *const *conds, size_t nspec, const int64_t *vals, size_t nvals)
{
	for (size_t s = 0; conds && s < nspec; s++) {
		const char *c = conds[s];
		size_t j = 0;
		for (; c && j < nvals && c[j]; j++) {
			int64_t v = vals ? vals[j] : 0;
			if ((c[j] == 'D' && v % 16 != 0) || (c[j] == '1' && v != 1))
				break;
		}
		if (c && (j == nvals || !c[j]))
			return s;
	}
	return nspec;
}

/* ---- integer heuristics of tuned launchers ------------------------------------------------- */

int tilert_heuristic_index(const char *kernel, const char *heuristic, int64_t value,
                           const int64_t *values, size_t n, size_t *index)
{
	if (!index || (n && !values))
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_heuristic_index: NULL argument");
	for (size_t i = 0; i < n; i++)
		if (values[i] == value) {
			*index = i;
			return TILERT_OK;
		}
	const char *h = heuristic ? heuristic : "?";
	char have[300] = "";
	size_t len = 0;
	for (size_t i = 0; i < n && len < sizeof have; i++)
		len += (size_t)snprintf(have + len, sizeof have - len, "%s%lld", i ? ", " : "",
		                        (long long)values[i]);
	if (len >= sizeof have)
		memcpy(have + sizeof have - 4, "...", 4);
	return tilert_fail(TILERT_ERR_NOT_FOUND, "kernel '%s': heuristic %s = %lld was not compiled "
	                   "(%s = %s): list the values launches need with tilecc --heuristic "
	                   "%s=V1,V2,... or a 'heuristic:' line (docs/abi.md, \"Heuristics\")",
	                   kernel ? kernel : "?", h, (long long)value, h, n ? have : "none", h);
}
