/* fuzz_util.c: the "#@" header line of frontend inputs and buffer copies (fuzz.h). */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

char *fuzz_exact_copy(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);
	if (p && size)
		memcpy(p, data, size);
	return p;
}

char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1);
	if (!p)
		return NULL;
	if (size)
		memcpy(p, data, size);
	p[size] = 0;
	return p;
}

/* The field from s up to the next '|' (or the end), blanks trimmed, NUL-terminated in
 * place; *next is past the '|', or NULL after the last field. */
static char *take_field(char *s, char **next)
{
	char *bar = strchr(s, '|');
	*next = bar ? bar + 1 : NULL;
	if (bar)
		*bar = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

void fuzz_header_parse(fuzz_header *h, const uint8_t *data, size_t size)
{
	memset(h, 0, sizeof *h);
	if (size < 2 || data[0] != '#' || data[1] != '@')
		return;
	const uint8_t *nl = memchr(data, '\n', size);
	size_t n = nl ? (size_t)(nl - data) : size;
	h->buf = fuzz_cstring(data + 2, n - 2);
	if (!h->buf)
		return;
	char *next = h->buf;
	char *f = take_field(next, &next);
	h->kernel = *f ? f : NULL;
	if (!next)
		return;
	f = take_field(next, &next);
	h->signature = *f ? f : NULL;
	if (!next)
		return;
	f = take_field(next, &next);
	/* NAME=VALUE words separated by blanks */
	while (*f && h->ndefines < FUZZ_MAX_DEFINES) {
		while (*f == ' ' || *f == '\t')
			f++;
		if (!*f)
			break;
		char *w = f;
		while (*f && *f != ' ' && *f != '\t')
			f++;
		if (*f)
			*f++ = 0;
		char *eq = strchr(w, '=');
		if (!eq || eq == w)
			continue;
		*eq = 0;
		h->define_names[h->ndefines] = w;
		h->define_values[h->ndefines] = eq + 1;
		h->ndefines++;
	}
	if (!next)
		return;
	f = take_field(next, &next);
	h->num_warps = (int)strtol(f, NULL, 10);
}

void fuzz_header_free(fuzz_header *h)
{
	free(h->buf);
	h->buf = NULL;
}
