/* test.h: the unit and runtime tests' one assertion macro. A failing CHECK prints where and
 * what, and counts; a test's main returns test_result() so that ctest sees the failures.
 * Also two helpers the runtime tests share: reading a file whole, and finding a substring
 * in a message that may be NULL. */
#ifndef TILECC_TESTS_TEST_H
#define TILECC_TESTS_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			test_failures++;                                                           \
		}                                                                                  \
	} while (0)

static inline int test_result(const char *name)
{
	if (test_failures)
		fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
	else
		printf("%s: all checks passed\n", name);
	return test_failures ? 1 : 0;
}

/* The bytes of path (NUL-terminated one past *size, for text), or NULL. Free with free(). */
static inline unsigned char *test_slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	if (data)
		data[n] = 0;
	*size = n >= 0 ? (size_t)n : 0;
	return data;
}

static inline int test_contains(const char *s, const char *part)
{
	return s && strstr(s, part) != NULL;
}

#endif
