/* replay.c: a plain main for a fuzz target, without libFuzzer. Runs the target once on
 * each file named on the command line (a directory: each regular file in it), so that a
 * normal or ASan build replays the reproducers of fuzz/regress/ under ctest. A crash,
 * a sanitizer report or a leak ends the process with a non-zero status, as it does in
 * the fuzzer. */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "replay: out of memory reading %s\n", path);
		return 1;
	}
	/* the target sees exactly n bytes, as under libFuzzer */
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	memcpy(exact, buf, n);
	free(buf);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of the directory, in name order (so that a failure names the same
 * file on every machine). */
static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: cannot open %s\n", dir);
		return 1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, sizeof *names * (cap = cap ? cap * 2 : 16));
			if (!nn) {
				rc = 1;
				break;
			}
			names = nn;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			rc = 1;
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!rc && !stat(names[i], &st) && S_ISREG(st.st_mode))
			rc = replay_file(names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc && !rc; i++) {
		struct stat st;
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			rc = replay_dir(argv[i]);
		else
			rc = replay_file(argv[i]);
	}
	return rc;
}
