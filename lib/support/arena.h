/* arena.h: bump allocation for everything that lives as long as one compilation.
 *
 * A compilation owns exactly one arena; tokens, AST nodes, IR records and strings are
 * carved out of it and released together by arena_destroy(). Nothing allocated here is
 * freed individually. Allocation failure is reported by a NULL return, never by exit(). */
#ifndef TILECC_SUPPORT_ARENA_H
#define TILECC_SUPPORT_ARENA_H

#include <stddef.h>

typedef struct arena arena;

/* Creates an empty arena; the caller frees it with arena_destroy(). NULL when out of memory. */
arena *arena_create(void);
/* Frees every block the arena handed out, then the arena itself. NULL is accepted. */
void arena_destroy(arena *a);
/* Returns n bytes aligned to 16, zero-filled; owned by the arena. NULL when out of memory. */
void *arena_alloc(arena *a, size_t n);
/* Copies n bytes of s and a terminating NUL into the arena. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Copies the NUL-terminated string s into the arena. */
char *arena_strdup(arena *a, const char *s);
/* printf into a fresh arena string. */
char *arena_printf(arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Bytes handed out so far (for -ftime-report style statistics). */
size_t arena_used(const arena *a);

/* Typed helpers. */
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_NEWN(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

#endif
