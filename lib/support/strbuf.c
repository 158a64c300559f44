/* strbuf.c: growable text buffer. */
#include "strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(strbuf *b, size_t extra)
{
	if (b->oom)
		return 0;
	if (b->len + extra + 1 <= b->cap)
		return 1;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p) {
		b->oom = 1;
		return 0;
	}
	b->data = p;
	b->cap = cap;
	return 1;
}

void strbuf_putn(strbuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void strbuf_putc(strbuf *b, char c)
{
	strbuf_putn(b, &c, 1);
}

void strbuf_puts(strbuf *b, const char *s)
{
	strbuf_putn(b, s, strlen(s));
}

void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void strbuf_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *strbuf_take(strbuf *b, size_t *len)
{
	char *p = b->data;
	if (!p)
		p = calloc(1, 1);
	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void strbuf_free(strbuf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* The shortest decimal form that reads back as the same double, always with a '.', an
 * exponent, or inf/nan so that it cannot be mistaken for an integer. */
void strbuf_put_double(strbuf *out, double v)
{
	char buf[64];
	if (isnan(v)) {
		strbuf_puts(out, "nan");
		return;
	}
	if (isinf(v)) {
		strbuf_puts(out, v < 0 ? "-inf" : "inf");
		return;
	}
	int prec = 1;
	for (; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* Like Python's repr: positional notation between 1e-4 and 1e16 (2000.0, not 2e+03). */
	double mag = fabs(v);
	if (strchr(buf, 'e') && mag >= 1e-4 && mag < 1e16) {
		char alt[64];
		int decimals = prec - 1 - (int)floor(log10(mag));
		snprintf(alt, sizeof alt, "%.*f", decimals > 0 ? decimals : 0, v);
		if (strtod(alt, NULL) == v)
			memcpy(buf, alt, sizeof alt);
	}
	strbuf_puts(out, buf);
	if (!strpbrk(buf, ".eE"))
		strbuf_puts(out, ".0");
}
