// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_escape.c - common/escape.c, the one escaper of JSON, XML, HTML
 * and DOT: exact outputs for the invalid UTF-8 sequences that matter
 * (overlongs, surrogates, past U+10FFFF, cut sequences, lone continuation
 * bytes, 0xC0/0xC1/0xF5-0xFF), for control characters and the characters
 * each format escapes; then random byte strings, whose every output must
 * be valid UTF-8 (checked by a decoder written apart from the one under
 * test, after Unicode's table 3-7) and hold no character its format
 * forbids, and random valid text, which JSON must keep byte for byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

static unsigned long checks, fails;
static char got[1 << 16];
static size_t glen;

static void sink(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (glen + n < sizeof(got)) {
		memcpy(got + glen, s, n);
		glen += n;
	}
	got[glen] = 0;
}

static const struct esc_sink w = { sink, NULL };

enum fmt { F_JSON, F_XML, F_XATTR, F_HTML, F_DOT };
static const char *const fname[] = { "json", "xml", "xml-attr", "html", "dot" };

static void run(enum fmt f, const char *s)
{
	glen = 0;
	got[0] = 0;
	switch (f) {
	case F_JSON:
		esc_json(&w, s);
		break;
	case F_XML:
	case F_XATTR:
		esc_xml(&w, s, f == F_XATTR);
		break;
	case F_HTML:
		esc_html(&w, s);
		break;
	case F_DOT:
		esc_dot(&w, s);
		break;
	}
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (++fails > 20)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define R "\xef\xbf\xbd" /* U+FFFD */

/* ---- exact outputs ---- */

static const struct {
	const char *in, *json, *xml, *html; /* xml: character data */
} cases[] = {
	/* plain and the characters each format escapes */
	{ "web", "\"web\"", "web", "web" },
	{ "a\"b\\c", "\"a\\\"b\\\\c\"", "a&quot;b\\c", "a&quot;b\\c" },
	{ "<&>'", "\"<&>'\"", "&lt;&amp;&gt;&apos;", "&lt;&amp;&gt;&#39;" },
	/* control characters: JSON escapes them; XML/HTML keep tab, LF, CR
	 * (XML writes CR as a reference) and replace the rest */
	{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"", R R "\x7f", R R "\x7f" },
	{ "\t\n\r", "\"\\u0009\\u000a\\u000d\"", "\t\n&#13;", "\t\n\r" },
	/* NUL ends the string: nothing after it is read */
	{ "a\0b", "\"a\"", "a", "a" },
	/* valid sequences of every length, copied */
	{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
	  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" },
	/* the highest code point, U+10FFFF */
	{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"", "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf" },
	/* U+FFFE, U+FFFF: valid UTF-8, JSON keeps them, XML cannot hold them */
	{ "\xef\xbf\xbe\xef\xbf\xbf", "\"\xef\xbf\xbe\xef\xbf\xbf\"", R R, R R },
	/* 0xFF, 0xFE, 0xC0, 0xC1, 0xF5: never in UTF-8 */
	{ "\xff", "\"\\ufffd\"", R, R },
	{ "a\xfe\xc0\xc1\xf5z", "\"a\\ufffd\\ufffd\\ufffd\\ufffdz\"", "a" R R R R "z",
	  "a" R R R R "z" },
	/* overlongs: "/" in two, three and four bytes, NUL in two */
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"", R R, R R },
	{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"", R R R, R R R },
	{ "\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", R R R R, R R R R },
	{ "\xc0\x80", "\"\\ufffd\\ufffd\"", R R, R R },
	/* surrogates U+D800, U+DFFF (CESU-8) */
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", R R R, R R R },
	{ "\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"", R R R, R R R },
	/* past U+10FFFF */
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", R R R R, R R R R },
	/* lone continuation bytes */
	{ "\x80x\xbf", "\"\\ufffdx\\ufffd\"", R "x" R, R "x" R },
	/* cut sequences: at the end, and before an ASCII byte (kept) */
	{ "\xe2\x82", "\"\\ufffd\\ufffd\"", R R, R R },
	{ "\xf0\x9f\x98", "\"\\ufffd\\ufffd\\ufffd\"", R R R, R R R },
	{ "\xe2\x82<", "\"\\ufffd\\ufffd<\"", R R "&lt;", R R "&lt;" },
	{ "\xc3", "\"\\ufffd\"", R, R },
	/* a bad byte, then a valid sequence: the valid one survives */
	{ "\xff\xc3\xa9", "\"\\ufffd\xc3\xa9\"", R "\xc3\xa9", R "\xc3\xa9" },
};

static void expect(enum fmt f, const char *in, const char *want, size_t i)
{
	run(f, in);
	checks++;
	if (strcmp(got, want))
		fail("case %zu %s: got '%s', want '%s'", i, fname[f], got, want);
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		expect(F_JSON, cases[i].in, cases[i].json, i);
		expect(F_XML, cases[i].in, cases[i].xml, i);
		expect(F_HTML, cases[i].in, cases[i].html, i);
	}
	/* attribute values keep tab and LF as references */
	expect(F_XATTR, "a\tb\nc\rd", "a&#9;b&#10;c&#13;d", 0);
	expect(F_DOT, "a\"b\\c\xff\xc3\xa9<", "a\\\"b\\\\c" R "\xc3\xa9<", 0);
	checks++;
	if (esc_json_plain("abc") != 3 || esc_json_plain("ab\"c") != 2 ||
	    esc_json_plain("a\xc3\xa9") != 1 || esc_json_plain("\x1f") != 0)
		fail("esc_json_plain");
}

/* ---- random input ---- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Valid UTF-8 after Unicode 15 table 3-7 (well-formed byte sequences),
 * each sequence's code point to *cps (n of them).  1 or 0. */
static int well_formed(const unsigned char *s, size_t len, uint32_t *cps, size_t *n)
{
	static const struct {
		unsigned char lo0, hi0, lo1, hi1; /* first byte, second byte */
		int len;
	} t[] = {
		{ 0x00, 0x7f, 0, 0, 1 },       { 0xc2, 0xdf, 0x80, 0xbf, 2 },
		{ 0xe0, 0xe0, 0xa0, 0xbf, 3 }, { 0xe1, 0xec, 0x80, 0xbf, 3 },
		{ 0xed, 0xed, 0x80, 0x9f, 3 }, { 0xee, 0xef, 0x80, 0xbf, 3 },
		{ 0xf0, 0xf0, 0x90, 0xbf, 4 }, { 0xf1, 0xf3, 0x80, 0xbf, 4 },
		{ 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	size_t i = 0;

	*n = 0;
	while (i < len) {
		size_t k;
		uint32_t cp;

		for (k = 0; k < sizeof(t) / sizeof(t[0]); k++)
			if (s[i] >= t[k].lo0 && s[i] <= t[k].hi0)
				break;
		if (k == sizeof(t) / sizeof(t[0]) || i + (size_t)t[k].len > len)
			return 0;
		if (t[k].len > 1 && (s[i + 1] < t[k].lo1 || s[i + 1] > t[k].hi1))
			return 0;
		cp = t[k].len == 1 ? s[i] : s[i] & (0x7f >> t[k].len);
		for (int j = 1; j < t[k].len; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		cps[(*n)++] = cp;
		i += (size_t)t[k].len;
	}
	return 1;
}

/* What format f's output may not hold. */
static int forbidden(enum fmt f, uint32_t cp)
{
	if (f == F_DOT) /* a DOT string may hold any character */
		return 0;
	if (f == F_JSON)
		return cp < 0x20 || cp == 0x7f;
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xfffe ||
	       cp == 0xffff || cp == '<' || cp == '>' || (f == F_XATTR && (cp == '\t' || cp == '\n'));
}

static uint32_t cps[1 << 16];

static void test_random(uint64_t *seed)
{
	unsigned char in[64];

	for (int iter = 0; iter < 200000; iter++) {
		size_t len = rnd(seed) % 24;

		/* bias toward the bytes around the boundaries of UTF-8 */
		for (size_t i = 0; i < len; i++) {
			uint64_t r = rnd(seed);

			in[i] = r & 0x100 ? (unsigned char)(0x7f + (r >> 9) % 0x81) : (unsigned char)r;
			if (!in[i])
				in[i] = 0xed;
		}
		in[len] = 0;
		for (enum fmt f = F_JSON; f <= F_DOT; f++) {
			size_t n;

			run(f, (const char *)in);
			checks++;
			if (!well_formed((const unsigned char *)got, glen, cps, &n)) {
				fail("%s: output of %zu random bytes is not UTF-8", fname[f], len);
				continue;
			}
			for (size_t i = 0; i < n; i++)
				if (forbidden(f, cps[i]))
					fail("%s: U+%04X in the output", fname[f], cps[i]);
		}
	}
}

/* A random code point's UTF-8 (no surrogate, none to escape in JSON). */
static size_t put_cp(unsigned char *o, uint64_t *seed)
{
	uint32_t cp;

	do {
		uint64_t r = rnd(seed);
		static const uint32_t top[] = { 0x7f, 0x7ff, 0xffff, 0x10ffff };

		cp = (uint32_t)((r >> 8) % (top[r & 3] + 1));
	} while (cp < 0x20 || cp == '"' || cp == '\\' || cp == 0x7f ||
		 (cp >= 0xd800 && cp <= 0xdfff));
	if (cp < 0x80)
		return o[0] = (unsigned char)cp, 1;
	if (cp < 0x800)
		return o[0] = (unsigned char)(0xc0 | cp >> 6), o[1] = (unsigned char)(0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

static void test_valid_kept(uint64_t *seed)
{
	unsigned char in[128];

	for (int iter = 0; iter < 100000; iter++) {
		size_t len = 0, k = rnd(seed) % 20;

		for (size_t i = 0; i < k; i++)
			len += put_cp(in + len, seed);
		in[len] = 0;
		run(F_JSON, (const char *)in);
		checks++;
		if (glen != len + 2 || memcmp(got + 1, in, len))
			fail("json changed valid text of %zu bytes", len);
	}
}

int main(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	test_cases();
	test_random(&seed);
	test_valid_kept(&seed);
	printf("unit_escape: %lu checks, %lu failed\n", checks, fails);
	return fails ? 1 : 0;
}
