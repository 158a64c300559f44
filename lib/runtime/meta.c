/* meta.c: parsing of the NAME__meta text of a kernel (docs/abi.md, "Metadata").
 *
 * The text is one key=value per line. The kernel owns a copy of it, which is split in place:
 * every key and value below points into that copy, and so do the type strings of the
 * parameter table. Unknown keys are kept (tilert_kernel_meta) and otherwise ignored.
 * Parsing is linear in the text: the keys go into a hash set (open addressing, at least
 * twice as many slots as lines), which both the repeat check and lookups use. */
#include <stdlib.h>
#include <string.h>

#include "tilert_int.h"

enum { META_VERSION = 1 };

/* The scalar types of the signature syntax and the C type each is passed as. */
static const struct {
	const char *name;
	tilert_type kind;
	size_t size;
} scalar_types[] = {
	/* name    kind               size */
	{ "i1", TILERT_TYPE_I1, sizeof(_Bool) },
	{ "i8", TILERT_TYPE_I8, 1 },
	{ "i16", TILERT_TYPE_I16, 2 },
	{ "i32", TILERT_TYPE_I32, 4 },
	{ "i64", TILERT_TYPE_I64, 8 },
	{ "u8", TILERT_TYPE_U8, 1 },
	{ "u16", TILERT_TYPE_U16, 2 },
	{ "u32", TILERT_TYPE_U32, 4 },
	{ "u64", TILERT_TYPE_U64, 8 },
	{ "fp16", TILERT_TYPE_FP16, 2 },
	{ "bf16", TILERT_TYPE_BF16, 2 },
	{ "fp32", TILERT_TYPE_FP32, 4 },
	{ "fp64", TILERT_TYPE_FP64, 8 },
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

/* An element type after '*': letters and digits (fp8e4nv, i8, ...); the pointer is a void *
 * whatever the element, so unknown element names are accepted. */
static int is_element_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

/* param := type [':' digits], type := '*' element | scalar. Splits s in place. */
static int parse_param(tilert_kernel *k, size_t i, char *s, tilert_param_info *p)
{
	char *colon = strchr(s, ':');

	memset(p, 0, sizeof *p);
	if (colon) {
		char *hint = trim(colon + 1), *end;
		unsigned long v;

		*colon = 0;
		if (*hint < '0' || *hint > '9')
			return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': parameter %zu: bad hint ':%s'",
			                   k->name, i, hint);
		v = strtoul(hint, &end, 10);
		if (*end || v == 0 || v > 1u << 30)
			return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': parameter %zu: bad hint ':%s'",
			                   k->name, i, hint);
		p->divisibility = (unsigned)v;
	}
	s = trim(s);
	p->type = s;
	if (*s == '*') {
		if (!is_element_name(s + 1))
			return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': parameter %zu: bad type '%s'",
			                   k->name, i, s);
		p->kind = TILERT_TYPE_PTR;
		p->is_pointer = 1;
		p->size = sizeof(void *);
		return TILERT_OK;
	}
	for (size_t t = 0; t < sizeof scalar_types / sizeof scalar_types[0]; t++) {
		if (strcmp(s, scalar_types[t].name) == 0) {
			p->kind = scalar_types[t].kind;
			p->size = scalar_types[t].size;
			return TILERT_OK;
		}
	}
	return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': parameter %zu: unknown type '%s'",
	                   k->name, i, s);
}

/* params := "" | param {',' param}. */
static int parse_params(tilert_kernel *k, char *s)
{
	size_t n = 1;
	int rc;

	s = trim(s);
	if (!*s)
		return TILERT_OK;
	for (const char *c = s; *c; c++)
		n += *c == ',';
	k->params = calloc(n, sizeof *k->params);
	if (!k->params)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory reading kernel '%s'", k->name);
	for (size_t i = 0; i < n; i++) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		if ((rc = parse_param(k, i, s, &k->params[i])) != TILERT_OK)
			return rc;
		k->nparams++;
		s = comma ? comma + 1 : s + strlen(s);
	}
	return TILERT_OK;
}

/* FNV-1a. */
static uint64_t key_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The slot of key in k's set: the one holding it, or the empty one where it would go. */
static size_t meta_slot(const tilert_kernel *k, const char *key)
{
	size_t i = (size_t)key_hash(key) & k->meta_index_mask;

	while (k->meta_index[i] && strcmp(k->meta[k->meta_index[i] - 1].key, key) != 0)
		i = (i + 1) & k->meta_index_mask;
	return i;
}

static const char *meta_get(const tilert_kernel *k, const char *key)
{
	size_t i;

	if (!k->meta_index)
		return NULL;
	i = meta_slot(k, key);
	return k->meta_index[i] ? k->meta[k->meta_index[i] - 1].value : NULL;
}

/* Splits the text into lines, then each line at its first '='. */
static int split_lines(tilert_kernel *k)
{
	size_t n = 1, line = 0, slots = 4;
	char *s = k->text;

	for (const char *c = s; *c; c++)
		n += *c == '\n';
	if (n >= UINT32_MAX / 2)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': metadata of %zu lines", k->name, n);
	while (slots < 2 * n)
		slots *= 2;
	k->meta = calloc(n, sizeof *k->meta);
	k->meta_index = calloc(slots, sizeof *k->meta_index);
	if (!k->meta || !k->meta_index)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory reading kernel '%s'", k->name);
	k->meta_index_mask = slots - 1;
	while (*s) {
		char *nl = strchr(s, '\n'), *eq, *key;
		size_t slot;

		line++;
		if (nl)
			*nl = 0;
		key = trim(s);
		s = nl ? nl + 1 : key + strlen(key);
		if (!*key)
			continue;
		if (!(eq = strchr(key, '=')))
			return tilert_fail(TILERT_ERR_FORMAT,
			                   "kernel '%s': metadata line %zu has no '=': '%.40s'", k->name,
			                   line, key);
		*eq = 0;
		key = trim(key);
		slot = meta_slot(k, key);
		if (k->meta_index[slot])
			return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': metadata key '%.100s' given twice",
			                   k->name, key);
		k->meta[k->nmeta].key = key;
		k->meta[k->nmeta].value = trim(eq + 1);
		k->meta_index[slot] = (uint32_t)++k->nmeta;
	}
	return TILERT_OK;
}

int tilert_meta_parse(tilert_kernel *k, const char *want_target)
{
	static const char *const required[] = { "tilecc-kernel", "name", "target", "params" };
	const char *v;
	char *end;
	long version;
	int rc;

	if ((rc = split_lines(k)) != TILERT_OK)
		return rc;
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (!meta_get(k, required[i]))
			return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': metadata has no '%s' key",
			                   k->name, required[i]);
	v = meta_get(k, "tilecc-kernel");
	version = strtol(v, &end, 10);
	if (*end || end == v || version < 1)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': bad metadata version '%s'", k->name, v);
	if (version > META_VERSION)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s': metadata version %ld is newer than this runtime's (%d)",
		                   k->name, version, META_VERSION);
	if (strcmp(meta_get(k, "name"), k->name) != 0)
		return tilert_fail(TILERT_ERR_FORMAT, "kernel '%s': metadata names it '%s'", k->name,
		                   meta_get(k, "name"));
	if (want_target && strcmp(meta_get(k, "target"), want_target) != 0)
		return tilert_fail(TILERT_ERR_FORMAT,
		                   "kernel '%s' was compiled for target '%s', but the module is %s",
		                   k->name, meta_get(k, "target"), want_target);
	/* The parameter list is split in a copy of its own: tilert_kernel_meta(k, "params")
	 * still answers the whole list. */
	if (!(k->ptext = strdup(meta_get(k, "params"))))
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "out of memory reading kernel '%s'", k->name);
	return parse_params(k, k->ptext);
}

const char *tilert_kernel_meta(const tilert_kernel *k, const char *key)
{
	if (!k || !key)
		return NULL;
	return meta_get(k, key);
}
