/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * probe_ci.h - gbpprobe --junit FILE and --sarif FILE: the verdicts of a
 * probe run for CI systems, in the shapes of gbpdump --check's
 * (docs/check-ci.md; the shared pieces in common/ci_doc.h): JUnit XML with
 * one test case per probe, SARIF 2.1.0 with one rule and one result per
 * probe (docs/conformance.md says how they map).  Written through
 * common/atomic_file.h: under a temporary name, moved into place only when
 * complete; a run that fails (exit 2) publishes nothing.
 */
#ifndef VXGBP_PROBE_CI_H
#define VXGBP_PROBE_CI_H

#include "atomic_file.h"

enum verdict { V_NA = 0, V_PASS, V_FAIL, V_INFO };

/* "n/a", "pass", "fail", "info" */
const char *probe_verdict_name(enum verdict v);

/* A probe as gbpprobe's table and the CI files describe it. */
struct probe_info {
	const char *id;       /* "learn.dont-learn-honoured" */
	const char *sent;     /* what the probe sends */
	const char *source;   /* "draft-smith-vxlan-group-policy sec. 2.1" */
	const char *sentence; /* the sentence it tests, quoted where quoted */
};

struct probe_result {
	const struct probe_info *info;
	enum verdict v;
	const char *note;     /* what was observed, in words */
	unsigned sent, replies, flooded, reply_flags, reply_group;
};

struct probe_ci_run {
	const char *vtep, *target;
	unsigned vni, group;
	unsigned long long received;   /* datagrams received */
	int exit_code;                 /* 0, 4, or 1 (the VTEP never answered) */
	const struct probe_result *r;
	unsigned n;
};

/* Check FILE and create its temporary file.  inputs: names never to write
 * over (NULL-terminated: the run's other output files); force: replace an
 * existing FILE.  0, or -1 with errbuf (AFILE_ERRBUF_SIZE bytes). */
int probe_ci_open(struct afile *f, const char *path, const char *const *inputs, int force,
		  char *errbuf);
/* Write the document and move it into place.  0, or -1 with errbuf. */
int probe_junit_write(struct afile *f, const struct probe_ci_run *run, char *errbuf);
int probe_sarif_write(struct afile *f, const struct probe_ci_run *run, char *errbuf);

#endif /* VXGBP_PROBE_CI_H */
