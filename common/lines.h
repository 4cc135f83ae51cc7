/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.h - side files read a line at a time (gbpdump's --groups and
 * --policy, gbpgen -f), as strictly as captures: a NUL byte, bytes that
 * are not UTF-8 (utf8.h), a line longer than the caller's limit or a file
 * larger than LINES_FILE_MAX is a one-line error naming the file, the line
 * and, where it applies, the column (1-based).  Nothing is cut short or
 * skipped silently, and /dev/zero ends at its first byte.
 */
#ifndef VXGBP_COMMON_LINES_H
#define VXGBP_COMMON_LINES_H

#include <stddef.h>
#include <stdio.h>

/* A policy of a million rules is about 40 MB; a larger side file is a
 * mistake (a capture given as --groups), not a configuration. */
#define LINES_FILE_MAX ((size_t)256 << 20)

/* One line: its bytes with the '\n' if it had one, NUL-terminated (there
 * is no NUL inside), len bytes; lineno from 1.  0 to go on; anything else
 * stops lines_read, which returns it. */
typedef int lines_fn(void *ctx, unsigned long lineno, char *line, size_t len);

/* Every line of f through fn.  who prefixes the messages ("gbpdump"), path
 * names the file in them; a line may hold max_line bytes besides its '\n'.
 * Returns 0 at the end of f, fn's non-zero return, or -1 after one line on
 * standard error. */
int lines_read(FILE *f, const char *who, const char *path, size_t max_line, lines_fn *fn,
	       void *ctx);

#endif /* VXGBP_COMMON_LINES_H */
