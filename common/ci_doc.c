// SPDX-License-Identifier: BSD-2-Clause
/*
 * ci_doc.c - the pieces of ci_doc.h: escape.h's escapers writing into an
 * afile, and the JUnit property line both tools write.
 */
#include <string.h>

#include "ci_doc.h"
#include "escape.h"

static void afile_sink(void *ctx, const char *s, size_t n)
{
	afile_write(ctx, s, n);
}

void ci_xml(struct afile *f, const char *s, int attr)
{
	esc_xml(&(struct esc_sink){ afile_sink, f }, s, attr);
}

void ci_json(struct afile *f, const char *s)
{
	esc_json(&(struct esc_sink){ afile_sink, f }, s);
}

void ci_uri_path(struct afile *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			afile_write(f, p, 1);
		else
			afile_printf(f, "%%%02X", *p);
	}
}

void ci_junit_prop(struct afile *f, const char *name, const char *value)
{
	afile_printf(f, "      <property name=\"%s\" value=\"", name);
	ci_xml(f, value, 1);
	afile_printf(f, "\"/>\n");
}

void ci_junit_prop_u64(struct afile *f, const char *name, uint64_t v)
{
	afile_printf(f, "      <property name=\"%s\" value=\"%llu\"/>\n", name,
		     (unsigned long long)v);
}
