/* intern.c: open-addressing hash set of strings (FNV-1a, linear probing). */
#include "intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *s;
	size_t n;
	uint32_t h;
} slot;

struct strtab {
	arena *a;
	slot *slots;
	size_t cap, len;
};

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

strtab *strtab_create(arena *a)
{
	strtab *t = ARENA_NEW(a, strtab);
	if (!t)
		return NULL;
	t->a = a;
	t->cap = 256;
	t->slots = calloc(t->cap, sizeof(slot));
	return t->slots ? t : NULL;
}

void strtab_destroy(strtab *t)
{
	if (t) {
		free(t->slots);
		t->slots = NULL;
	}
}

static int grow(strtab *t)
{
	size_t cap = t->cap * 2;
	slot *ns = calloc(cap, sizeof(slot));
	if (!ns)
		return 0;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].s)
			continue;
		size_t j = t->slots[i].h & (cap - 1);
		while (ns[j].s)
			j = (j + 1) & (cap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = cap;
	return 1;
}

const char *strtab_intern(strtab *t, const char *s, size_t n)
{
	if (2 * (t->len + 1) > t->cap && !grow(t))
		return NULL;
	uint32_t h = fnv1a(s, n);
	size_t j = h & (t->cap - 1);
	for (; t->slots[j].s; j = (j + 1) & (t->cap - 1)) {
		slot *sl = &t->slots[j];
		if (sl->h == h && sl->n == n && memcmp(sl->s, s, n) == 0)
			return sl->s;
	}
	char *p = arena_strndup(t->a, s, n);
	if (!p)
		return NULL;
	t->slots[j] = (slot){p, n, h};
	t->len++;
	return p;
}

const char *strtab_cstr(strtab *t, const char *s)
{
	return strtab_intern(t, s, strlen(s));
}
