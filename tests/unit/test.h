/* test.h: the unit tests' one assertion macro. A failing CHECK prints where and what, and
 * counts; a test's main returns test_result() so that ctest sees the failures. */
#ifndef TILECC_TESTS_TEST_H
#define TILECC_TESTS_TEST_H

#include <stdio.h>

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

#endif
