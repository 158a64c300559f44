/* arena.c: a chain of large blocks, bump-allocated, freed all at once. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA_ALIGN = 16, ARENA_BLOCK = 64 * 1024 };

typedef struct block {
	struct block *next;
	size_t cap, used;
	_Alignas(16) unsigned char data[];
} block;

struct arena {
	block *head;
	size_t total;
};

arena *arena_create(void)
{
	return calloc(1, sizeof(arena));
}

void arena_destroy(arena *a)
{
	if (!a)
		return;
	for (block *b = a->head, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(a);
}

void *arena_alloc(arena *a, size_t n)
{
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (n == 0)
		n = ARENA_ALIGN;
	block *b = a->head;
	if (!b || b->cap - b->used < n) {
		/* Oversized requests get a block of their own, linked behind the current one
		 * so that the current block keeps serving small requests. */
		size_t cap = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
		block *nb = malloc(sizeof(block) + cap);
		if (!nb)
			return NULL;
		nb->cap = cap;
		nb->used = 0;
		if (b && cap != ARENA_BLOCK) {
			nb->next = b->next;
			b->next = nb;
		} else {
			nb->next = b;
			a->head = nb;
		}
		b = nb;
	}
	void *p = b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = n < 0 ? NULL : arena_alloc(a, (size_t)n + 1);
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

size_t arena_used(const arena *a)
{
	return a->total;
}
