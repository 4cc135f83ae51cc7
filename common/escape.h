/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * escape.h - every string gbpdump and gbpprobe write into JSON, XML
 * (JUnit, SVG), HTML or Graphviz DOT is escaped here, under one policy:
 * the output is valid UTF-8 whatever the input (a file name, a group
 * name, a rule's description), so a byte that does not begin a valid UTF-8 sequence
 * (overlongs, surrogates, code points past U+10FFFF, cut sequences, 0x80
 * to 0xBF alone, 0xC0, 0xC1, 0xF5 to 0xFF) becomes U+FFFD, one for each
 * such byte.  Valid sequences are copied as they are.
 */
#ifndef VXGBP_ESCAPE_H
#define VXGBP_ESCAPE_H

#include <stddef.h>

/* Where the escaped text goes: gbpdump's buffered output (out.h) or an
 * atomic file (common/atomic_file.h). */
struct esc_sink {
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
};

/* A JSON string literal, quotes included: " and \ escaped, C0 controls
 * and DEL as \u00XX, each bad byte as \ufffd. */
void esc_json(const struct esc_sink *w, const char *s);
/* The length of s's start that esc_json copies as it is (all of s: the
 * literal is s in quotes), for a writer's fast path. */
size_t esc_json_plain(const char *s);
/* XML 1.0 character data, or an attribute value (attr: tab, LF and CR as
 * character references, which attribute normalization would turn into
 * spaces): & < > " ' as entities; what XML cannot hold (C0 controls but
 * tab, LF and CR; U+FFFE, U+FFFF) becomes U+FFFD, as a bad byte does. */
void esc_xml(const struct esc_sink *w, const char *s, int attr);
/* HTML text or a double- or single-quoted attribute value (and SVG: it
 * is XML): & < > " as entities, ' as &#39;, and XML's replacements. */
void esc_html(const struct esc_sink *w, const char *s);
/* The inside of a DOT double-quoted string: " and \ escaped; bad bytes
 * become U+FFFD (Graphviz reads UTF-8). */
void esc_dot(const struct esc_sink *w, const char *s);

#endif /* VXGBP_ESCAPE_H */
