// SPDX-License-Identifier: BSD-2-Clause
/* lines.c - see lines.h. */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "utf8.h"

/* The first byte of line (len bytes, NUL-terminated after them) that is a
 * NUL or does not begin valid UTF-8: its index, or len; *nul says which. */
static size_t first_bad(const char *line, size_t len, int *nul)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t i = 0, n;
	unsigned cp;

	while (i < len) {
		if (!s[i]) {
			*nul = 1;
			return i;
		}
		if (!(n = utf8_seq(s + i, &cp))) {
			*nul = 0;
			return i;
		}
		i += n;
	}
	return len;
}

/* The line in buf (len bytes): checked, then through fn. */
static int one_line(const char *who, const char *path, unsigned long lineno, char *buf,
		    size_t len, lines_fn *fn, void *ctx)
{
	int nul = 0;
	size_t bad = first_bad(buf, len, &nul);

	if (bad < len) {
		fprintf(stderr, "%s: %s:%lu:%zu: %s\n", who, path, lineno, bad + 1,
			nul ? "a NUL byte" : "not UTF-8");
		return -1;
	}
	return fn(ctx, lineno, buf, len);
}

int lines_read(FILE *f, const char *who, const char *path, size_t max_line, lines_fn *fn,
	       void *ctx)
{
	char *buf = malloc(max_line + 2);
	unsigned long lineno = 0;
	size_t len = 0, total = 0;
	int c, rc = 0;

	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", who);
		return -1;
	}
	while (!rc && (c = getc_unlocked(f)) != EOF) {
		if (++total > LINES_FILE_MAX) {
			fprintf(stderr, "%s: %s: larger than %zu bytes\n", who, path,
				(size_t)LINES_FILE_MAX);
			rc = -1;
			break;
		}
		buf[len++] = (char)c;
		if (c != '\n' && len <= max_line)
			continue;
		if (c != '\n') { /* a NUL before the limit is the first thing wrong */
			const char *z = memchr(buf, 0, len);

			if (z)
				fprintf(stderr, "%s: %s:%lu:%zu: a NUL byte\n", who, path, lineno + 1,
					(size_t)(z - buf) + 1);
			else
				fprintf(stderr, "%s: %s:%lu: line too long\n", who, path, lineno + 1);
			rc = -1;
			break;
		}
		buf[len] = '\0';
		rc = one_line(who, path, ++lineno, buf, len, fn, ctx);
		len = 0;
	}
	if (!rc && ferror(f)) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		rc = -1;
	} else if (!rc && len) {
		buf[len] = '\0';
		rc = one_line(who, path, ++lineno, buf, len, fn, ctx);
	}
	free(buf);
	return rc;
}
