/* header.h: the C header and source that embed a compiled kernel (see header.c). */
#ifndef TILECC_DRIVER_HEADER_H
#define TILECC_DRIVER_HEADER_H

#include <stddef.h>

#include "ir/ir.h"
#include "support/strbuf.h"

/* Writes the header (into h) and the C source (into c) for kernel f whose artifact for
 * `target` is artifact[0..size); header_name is how the source includes the header. */
void header_write(strbuf *h, strbuf *c, const ir_func *f, const char *header_name,
		  const char *target, const char *artifact, size_t size);

#endif
