/* vec.c: the one out-of-line piece of vec.h, geometric growth. */
#include "vec.h"

#include <stdlib.h>

int vec_reserve_(void **data, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 1;
	size_t n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	void *p = realloc(*data, n * elem);
	if (!p)
		return 0;
	*data = p;
	*cap = n;
	return 1;
}
