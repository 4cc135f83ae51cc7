/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ci_doc.h - what the JUnit XML and SARIF 2.1.0 writers of gbpdump
 * (--check --junit/--sarif, gbpdump/report/check_ci.c) and gbpprobe
 * (--junit/--sarif) share: strings escaped by escape.h straight into an
 * atomic file (atomic_file.h), JUnit properties, the SARIF schema.  Each
 * tool maps its own results (docs/check-ci.md, docs/conformance.md).
 */
#ifndef VXGBP_CI_DOC_H
#define VXGBP_CI_DOC_H

#include <stdint.h>

#include "atomic_file.h"

#define CI_SARIF_SCHEMA \
	"https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"

/* s as XML character data, or as an attribute value (attr). */
void ci_xml(struct afile *f, const char *s, int attr);
/* s as a JSON string literal, quotes included. */
void ci_json(struct afile *f, const char *s);
/* A path as a URI reference (RFC 3986): unreserved characters and '/' as
 * they are, every other byte %XX. */
void ci_uri_path(struct afile *f, const char *s);
/* <property name="NAME" value="VALUE"/> on a line of its own, inside a
 * testsuite's <properties>; name is written as it is. */
void ci_junit_prop(struct afile *f, const char *name, const char *value);
void ci_junit_prop_u64(struct afile *f, const char *name, uint64_t v);

#endif /* VXGBP_CI_DOC_H */
