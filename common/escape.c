// SPDX-License-Identifier: BSD-2-Clause
/*
 * escape.c - the escapers of escape.h.  Each walks the string once and
 * writes runs of bytes that need no change in one call: the common case,
 * a plain ASCII name, is one write.
 */
#include <string.h>

#include "escape.h"
#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

/* What one format writes for the code point cp (a sequence of n bytes;
 * n 0: a bad byte), or NULL to copy the bytes.  buf: room for a numeric
 * escape. */
typedef const char *esc_fn(unsigned cp, size_t n, int opt, char buf[8]);

/* s through f: unchanged runs written whole. */
static void esc_walk(const struct esc_sink *w, const char *s, esc_fn *f, int opt)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	char buf[8];
	unsigned cp;

	while (*p) {
		size_t n = utf8_seq(p, &cp);
		const char *e = f(cp, n, opt, buf);

		if (!e) {
			p += n ? n : 1;
			continue;
		}
		if (p > run)
			w->write(w->ctx, (const char *)run, (size_t)(p - run));
		w->write(w->ctx, e, strlen(e));
		p += n ? n : 1;
		run = p;
	}
	if (p > run)
		w->write(w->ctx, (const char *)run, (size_t)(p - run));
}

static const char *json_one(unsigned cp, size_t n, int opt, char buf[8])
{
	static const char hx[] = "0123456789abcdef";

	(void)opt;
	if (!n)
		return "\\ufffd";
	if (cp == '"')
		return "\\\"";
	if (cp == '\\')
		return "\\\\";
	if (cp >= 0x20 && cp != 0x7f)
		return NULL;
	memcpy(buf, "\\u00", 4);
	buf[4] = hx[cp >> 4];
	buf[5] = hx[cp & 0xf];
	buf[6] = 0;
	return buf;
}

size_t esc_json_plain(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f)
			break;
	}
	return n;
}

void esc_json(const struct esc_sink *w, const char *s)
{
	w->write(w->ctx, "\"", 1);
	esc_walk(w, s, json_one, 0);
	w->write(w->ctx, "\"", 1);
}

enum { MK_ATTR = 1, MK_HTML = 2 };

/* XML and HTML: opt MK_ATTR (XML attribute), MK_HTML (' as &#39;). */
static const char *markup_one(unsigned cp, size_t n, int opt, char buf[8])
{
	(void)buf;
	if (!n || cp == 0xfffe || cp == 0xffff ||
	    (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r'))
		return REPLACEMENT;
	switch (cp) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return opt & MK_HTML ? "&#39;" : "&apos;";
	case '\r':
		return opt & MK_HTML ? NULL : "&#13;";
	case '\t':
		return opt & MK_ATTR ? "&#9;" : NULL;
	case '\n':
		return opt & MK_ATTR ? "&#10;" : NULL;
	}
	return NULL;
}

void esc_xml(const struct esc_sink *w, const char *s, int attr)
{
	esc_walk(w, s, markup_one, attr ? MK_ATTR : 0);
}

void esc_html(const struct esc_sink *w, const char *s)
{
	esc_walk(w, s, markup_one, MK_HTML);
}

static const char *dot_one(unsigned cp, size_t n, int opt, char buf[8])
{
	(void)opt;
	(void)buf;
	if (!n)
		return REPLACEMENT;
	return cp == '"' ? "\\\"" : cp == '\\' ? "\\\\" : NULL;
}

void esc_dot(const struct esc_sink *w, const char *s)
{
	esc_walk(w, s, dot_one, 0);
}
