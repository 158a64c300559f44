/* output.c: the tilecc command's outputs, written atomically where a file can be (output.h).
 *
 * Two phases. First every regular output gets a temporary file in its directory holding
 * all of its bytes; a failure there removes the temporaries and leaves every output as it
 * was. Then the in-place outputs (devices, FIFOs, stdout) are written, and last the
 * temporaries are renamed over their targets; should a rename fail, the files renamed
 * before it are removed too, so that a header never stays without its source. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct target {
	const output_file *o;
	char *dest;    /* the path renamed over: the output, or what its symbolic link names */
	char *tmp;     /* the temporary beside dest; NULL for an in-place output */
	bool in_place; /* a device, a FIFO, a socket or stdout: written where it is */
	bool renamed;
} target;

static int fail(const char *prog, const char *path, const char *what, int err)
{
	fprintf(stderr, "%s: error: cannot write '%s': %s%s%s\n", prog, path, what,
		err ? ": " : "", err ? strerror(err) : "");
	return -1;
}

/* The file path names, after symbolic links, as a malloc'd path: the link's target when it
 * exists, else path itself (a new file, or a link to nothing, written in place). */
static char *resolve(const char *path, struct stat *st, bool *exists)
{
	*exists = stat(path, st) == 0;
	struct stat lst;
	if (*exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		char *r = realpath(path, NULL);
		if (r)
			return r;
	}
	return strdup(path);
}

/* A key that is the same for two paths naming the same file: dev:ino when it exists,
 * else the real path of its directory and its base name. Malloc'd; NULL when unknown. */
static char *file_key(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		char *k = malloc(64);
		if (k)
			snprintf(k, 64, "@%llu:%llu", (unsigned long long)st.st_dev,
				 (unsigned long long)st.st_ino);
		return k;
	}
	char *d1 = strdup(path), *d2 = strdup(path);
	char *k = NULL;
	if (d1 && d2) {
		char *dir = realpath(dirname(d1), NULL);
		const char *base = basename(d2);
		if (dir) {
			size_t n = strlen(dir) + strlen(base) + 2;
			k = malloc(n);
			if (k)
				snprintf(k, n, "%s/%s", dir, base);
			free(dir);
		}
	}
	free(d1);
	free(d2);
	return k;
}

/* Whether outputs a and b are the same file (or both stdout). */
static bool same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	char *ka = file_key(a), *kb = file_key(b);
	bool same = ka && kb && !strcmp(ka, kb);
	free(ka);
	free(kb);
	return same;
}

/* Writes all of data to f; closes f. */
static bool put_all(FILE *f, const char *data, size_t n)
{
	bool ok = fwrite(data, 1, n, f) == n;
	if (f == stdout)
		return fflush(f) == 0 && ok;
	return fclose(f) == 0 && ok;
}

/* Phase one for one output: decides how it is written and, for a regular file, writes its
 * temporary. */
static int prepare(const char *prog, target *t)
{
	const char *path = t->o->path;
	if (!strcmp(path, "-")) {
		t->in_place = true;
		return 0;
	}
	struct stat st;
	bool exists;
	t->dest = resolve(path, &st, &exists);
	if (!t->dest)
		return fail(prog, path, "out of memory", 0);
	if (exists && S_ISDIR(st.st_mode))
		return fail(prog, path, "it is a directory", 0);
	if (exists && !S_ISREG(st.st_mode)) {
		t->in_place = true; /* a device or a FIFO is never replaced by a file */
		return 0;
	}
	size_t n = strlen(t->dest);
	t->tmp = malloc(n + 16);
	if (!t->tmp)
		return fail(prog, path, "out of memory", 0);
	snprintf(t->tmp, n + 16, "%s.tmpXXXXXX", t->dest);
	int fd = mkstemp(t->tmp);
	if (fd < 0) {
		int err = errno;
		free(t->tmp);
		t->tmp = NULL;
		return fail(prog, path, "cannot create a temporary file beside it", err);
	}
	/* mkstemp creates 0600: an existing output keeps its mode, a new one gets what a
	 * plain fopen would give it */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~um);
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		int err = errno;
		close(fd);
		return fail(prog, path, "", err);
	}
	if (!put_all(f, t->o->data, t->o->size))
		return fail(prog, path, "", errno);
	return 0;
}

static int write_in_place(const char *prog, target *t)
{
	const char *path = t->o->path;
	FILE *f = !strcmp(path, "-") ? stdout : fopen(t->dest, "wb");
	if (!f)
		return fail(prog, path, "", errno);
	if (!put_all(f, t->o->data, t->o->size))
		return fail(prog, path, "", errno);
	return 0;
}

int output_write_all(const char *prog, const output_file *outs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (same_file(outs[i].path, outs[j].path)) {
				if (!strcmp(outs[i].path, outs[j].path))
					fprintf(stderr, "%s: error: two outputs would both be '%s'\n", prog,
						outs[i].path);
				else
					fprintf(stderr, "%s: error: two outputs would both be one file ('%s' "
						"and '%s')\n", prog, outs[i].path, outs[j].path);
				return -1;
			}
	target *ts = calloc(n ? n : 1, sizeof *ts);
	if (!ts) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		ts[i].o = &outs[i];
		rc = prepare(prog, &ts[i]);
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (ts[i].in_place)
			rc = write_in_place(prog, &ts[i]);
	for (size_t i = 0; i < n && !rc; i++)
		if (ts[i].tmp) {
			if (rename(ts[i].tmp, ts[i].dest) != 0)
				rc = fail(prog, outs[i].path, "", errno);
			else
				ts[i].renamed = true;
		}
	for (size_t i = 0; i < n; i++) {
		if (rc && ts[i].renamed)
			unlink(ts[i].dest); /* all or nothing: its partner could not be written */
		else if (ts[i].tmp && !ts[i].renamed)
			unlink(ts[i].tmp);
		free(ts[i].tmp);
		free(ts[i].dest);
	}
	free(ts);
	return rc;
}
