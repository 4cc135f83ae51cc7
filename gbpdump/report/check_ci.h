/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_ci.h - gbpdump --junit FILE and --sarif FILE: the --check results
 * for CI systems, as JUnit XML (one test case per rule) and SARIF 2.1.0
 * (one result per occurrence kept), written beside the text or JSON report
 * (docs/check-ci.md says how they map).
 *
 * Both are written through common/atomic_file.h: under a temporary name,
 * moved into place when complete, never over an input, nor over an
 * existing file without --force.  Every string that comes from the input
 * (file names, descriptions) is escaped; bytes that are not UTF-8 become
 * U+FFFD in text, %XX in a URI.
 */
#ifndef GBPDUMP_CHECK_CI_H
#define GBPDUMP_CHECK_CI_H

#include "atomic_file.h"
#include "check.h"

/* What the checker does not know about the run. */
struct check_ci_run {
	const char *capture;   /* -r FILE as given ("-": standard input), or NULL */
	const char *iface;     /* -i IFACE, or NULL */
	const struct vxgbp_track_summary *s; /* the tracker's summary */
	int exit_code;         /* the exit status as known now (0/3/4, 1, 2) */
	const char *error;     /* what stopped the capture early (exit 1), or NULL */
	int compressed;        /* the capture is compressed: record offsets are
	                          the decompressed stream's, not the file's */
};

/* One output file, opened before the capture is read (so that a name that
 * cannot be written is refused at once) and written at the end. */
struct check_ci_file {
	struct afile f;
};

/* Check FILE and create its temporary file.  inputs: the files never to
 * write over (NULL-terminated), nouns: how a message calls each; force:
 * replace an existing FILE.  0, or -1 with errbuf (GD_ERRBUF bytes) naming
 * the file. */
int check_ci_open(struct check_ci_file *cf, const char *path, const char *const *inputs,
		  const char *const *nouns, int force, char *errbuf);
/* Write the document and move it into place.  0, or -1 with errbuf. */
int check_junit_write(struct check_ci_file *cf, const struct gd_check *c,
		      const struct check_ci_run *run, char *errbuf);
int check_sarif_write(struct check_ci_file *cf, const struct gd_check *c,
		      const struct check_ci_run *run, char *errbuf);
/* Remove the temporary file of a file not written (nothing when none). */
void check_ci_discard(struct check_ci_file *cf);

#endif /* GBPDUMP_CHECK_CI_H */
