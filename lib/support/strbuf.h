/* strbuf.h: a growable, NUL-terminated byte buffer for printers and renderers.
 * The owner frees it with strbuf_free(); strbuf_take() hands the bytes over instead. */
#ifndef TILECC_SUPPORT_STRBUF_H
#define TILECC_SUPPORT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
	char *data; /* always NUL-terminated once anything was written */
	size_t len, cap;
	int oom;    /* set when an allocation failed; later writes are dropped */
} strbuf;

void strbuf_putc(strbuf *b, char c);
void strbuf_puts(strbuf *b, const char *s);
void strbuf_putn(strbuf *b, const char *s, size_t n);
void strbuf_printf(strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap);
/* The shortest decimal text that reads back as the same double, never mistaken for an
 * integer: it has a '.', an exponent, or is inf, -inf or nan (Python's repr style). */
void strbuf_put_double(strbuf *b, double v);
/* Returns the malloc'd bytes (caller frees) and resets the buffer. */
char *strbuf_take(strbuf *b, size_t *len);
void strbuf_free(strbuf *b);

#endif
