/* fuzz.h: what the libFuzzer targets under fuzz/ share.
 *
 * Each target defines LLVMFuzzerTestOneInput(). Built with TILECC_FUZZ=ON it links
 * libFuzzer's main (-fsanitize=fuzzer); in every build it is also linked with replay.c,
 * a plain main that runs the function once on each file named on its command line, which
 * is how ctest replays the reproducers in fuzz/regress/ against the normal library.
 *
 * A frontend input may start with a header line that says how to compile it (a Python
 * comment, so the file is still a kernel file the CLI can read):
 *     #@ KERNEL | SIGNATURE | NAME=VALUE NAME=VALUE | NUM_WARPS
 * Every field may be empty; missing ones are left to tilecc's defaults. */
#ifndef TILECC_FUZZ_FUZZ_H
#define TILECC_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_DEFINES = 16 };

/* The header line's fields, each a NUL-terminated string in buf (NULL when absent). */
typedef struct fuzz_header {
	char *buf;
	const char *kernel;
	const char *signature;
	const char *define_names[FUZZ_MAX_DEFINES];
	const char *define_values[FUZZ_MAX_DEFINES];
	size_t ndefines;
	int num_warps;
} fuzz_header;

/* Reads the "#@" header of data, if any, into *h; fuzz_header_free() frees it. */
void fuzz_header_parse(fuzz_header *h, const uint8_t *data, size_t size);
void fuzz_header_free(fuzz_header *h);

/* A copy of size bytes in a buffer of exactly that size (no terminating NUL), so that
 * AddressSanitizer sees a read past the end; free() it. */
char *fuzz_exact_copy(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the bytes; free() it. */
char *fuzz_cstring(const uint8_t *data, size_t size);

#endif
