/* intern.h: string interning. Equal strings intern to the same pointer, so names in the
 * AST and IR compare with ==. Interned strings live in the table's arena. */
#ifndef TILECC_SUPPORT_INTERN_H
#define TILECC_SUPPORT_INTERN_H

#include <stddef.h>

#include "arena.h"

typedef struct strtab strtab;

/* Creates a table whose strings and slots come from `a`; freed with the arena
 * (strtab_destroy frees only the slot array). */
strtab *strtab_create(arena *a);
void strtab_destroy(strtab *t);
/* Returns the unique copy of s[0..n). NULL only when out of memory. */
const char *strtab_intern(strtab *t, const char *s, size_t n);
/* Same for a NUL-terminated string. */
const char *strtab_cstr(strtab *t, const char *s);

#endif
