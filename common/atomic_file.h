/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * atomic_file.h - an output file of the vxgbp tools written under a
 * temporary name and moved into place when complete: the generic part of
 * the capture writer (pcap_writer.h), for any file (gbpdump --junit,
 * --sarif, reports).  Internal: a static library, not installed.
 *
 * The file is written as NAME.tmp.XXXXXX in the directory of NAME (mode
 * 0666 less the umask), flushed to disk and moved into place by
 * afile_close(a, 1) only: a crash, a write error or afile_close(a, 0) never
 * leaves a partial file under NAME, and an existing NAME stays as it was
 * until the new one is complete.
 *
 * It refuses
 *  - an existing NAME unless AFILE_FORCE (and still when NAME appears
 *    between open and close: the final move does not replace it);
 *  - NAME when it is one of the input files it is told about, even with
 *    AFILE_FORCE: the same file (device and inode) under another path, a
 *    symbolic link or a hard link counts ("-" as an input is standard input);
 *  - NAME when it is something other than a regular file (a directory, a
 *    device, a FIFO; through a symbolic link too).
 * With AFILE_FORCE, a NAME that is a symbolic link to a regular file is
 * replaced by the new file (as rename(2) does); the file it pointed to is
 * left alone.
 *
 * Errors are one line in errbuf (AFILE_ERRBUF_SIZE bytes) that names the
 * file: "out.xml: file exists; use --force to overwrite it".
 */
#ifndef VXGBP_ATOMIC_FILE_H
#define VXGBP_ATOMIC_FILE_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

#define AFILE_ERRBUF_SIZE 512

#define AFILE_FORCE 0x1u  /* replace an existing regular file */
#define AFILE_STDOUT 0x2u /* the name "-" is standard output (no temporary
                             file, nothing to refuse) */

struct afile_opts {
	unsigned flags;              /* AFILE_* */
	const char *const *inputs;   /* files being read, never overwritten; NULL
	                                or NULL-terminated */
	const char *input_noun;      /* how errors call them: "the capture" (the
	                                default), "the spec file", ... */
	const char *const *input_nouns; /* or each its own (beside inputs; NULL:
	                                   input_noun for all) */
};

struct afile_id {
	dev_t dev;
	ino_t ino;
	const char *name, *noun;     /* the caller's strings, for messages */
};

struct afile {
	FILE *f;                     /* NULL when not open */
	unsigned flags;
	int failed;                  /* errno of the first failed write; 0 */
	size_t n_inputs;             /* as many as given: gbpdump -r DIR may read */
	struct afile_id *in;         /* thousands (allocated; freed at close) */
	char path[PATH_MAX];         /* NAME, or "standard output" */
	char tmp[PATH_MAX];          /* the temporary file; "" for stdout */
};

/* Check NAME and create the temporary file.  0, or -1 with errbuf set and
 * nothing created. */
int afile_open(struct afile *a, const char *name, const struct afile_opts *o,
	       char *errbuf);

/* Append n bytes / formatted text.  0, or -1 once a write has failed
 * (a->failed; afile_close() then reports it and removes the file). */
int afile_write(struct afile *a, const void *b, size_t n);
__attribute__((format(printf, 2, 3)))
int afile_printf(struct afile *a, const char *fmt, ...);

/* keep 1: flush, sync and move the file into place; keep 0: remove it.
 * 0, or -1 with errbuf (a write error: the partial file is removed).
 * Closing a file that is not open does nothing and returns 0. */
int afile_close(struct afile *a, int keep, char *errbuf);

#endif /* VXGBP_ATOMIC_FILE_H */
