/* output.h: how the tilecc command writes its outputs (output.c). */
#ifndef TILECC_TOOLS_OUTPUT_H
#define TILECC_TOOLS_OUTPUT_H

#include <stddef.h>

/* One file to write: its path ("-" for stdout) and its bytes. */
typedef struct output_file {
	const char *path;
	const char *data;
	size_t size;
} output_file;

/* Writes every file of outs, all or none: a regular file (or a new one) through a temporary
 * file beside it and rename(), so that no reader sees it half-written; a file that is not
 * regular (a device, a FIFO, '-' for stdout) in place, never replaced. A symbolic link is
 * followed: what it names is written. When any file cannot be written, none of the new
 * regular files is left behind (and the old ones are kept when the failure comes before
 * the renames). Two outputs naming the same file are refused before anything is written.
 * Returns 0, or -1 after printing "PROG: error: ..." to stderr. */
int output_write_all(const char *prog, const output_file *outs, size_t n);

#endif
