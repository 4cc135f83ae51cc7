// SPDX-License-Identifier: BSD-2-Clause
/*
 * vxgbp-man - write vxgbp(7) from its template, with the parts that must
 * never go stale printed from libvxgbp's own tables: the rule ids
 * (vxgbp_rule_get), the flag bits (vxgbp_flag_get), the profiles
 * (vxgbp_profile_get) and what a Linux 6.12 VTEP does with a few headers
 * (vxgbp_verdict_linux, vxgbp_mark_from_hdr).
 *
 *   vxgbp-man vxgbp.7.in vxgbp.7
 *
 * A template line that is exactly @RULES@, @FLAGS@, @LINUX@ or @PROFILES@
 * is replaced by those rows (roff); every other line is copied, @VERSION@
 * in it replaced by the library's version.  Run by CMake at build
 * time, so a rule added to the library is in the page of the same build.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

static const char *prog = "vxgbp-man";

/* s as roff text: backslashes escaped, every '-' a minus sign when minus
 * (ids, options: they must read and copy as typed), a leading '.' or '\''
 * neutralised. */
static void roff(FILE *f, const char *s, int minus)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-' && minus)
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* The scopes in the order the page lists them, with their headings.  A
 * scope the library has and this table does not fails the build. */
static const struct {
	enum vxgbp_scope scope;
	const char *title;
} scopes[] = {
	{ VXGBP_SCOPE_HEADER, "Rules on a VXLAN header" },
	{ VXGBP_SCOPE_OUTER, "Rules on the layers that deliver a VXLAN header" },
	{ VXGBP_SCOPE_INNER, "Rules on the frame a VXLAN header carries" },
	{ VXGBP_SCOPE_LABEL, "Rules on CIPSO and CALIPSO labels" },
	{ VXGBP_SCOPE_FRAME, "Rules on the frame as a whole" },
	{ VXGBP_SCOPE_PARSE, "Rules on where the parse stopped" },
};
#define N_SCOPES (sizeof(scopes) / sizeof(scopes[0]))

static int scope_known(enum vxgbp_scope sc)
{
	for (size_t i = 0; i < N_SCOPES; i++)
		if (scopes[i].scope == sc)
			return 1;
	return 0;
}

static void rule_row(FILE *f, const struct vxgbp_rule_info *r)
{
	fputs(".TP\n.B ", f);
	roff(f, r->id, 1);
	fprintf(f, "\n%s; ", vxgbp_level_name(r->level));
	roff(f, r->source, 0);
	fputs(".\n.br\n", f);
	roff(f, r->text, 0);
	fputs(".\n", f);
}

/* @RULES@: every rule, grouped by scope, in the library's order. */
static int print_rules(FILE *f)
{
	for (unsigned i = 0; i < VXGBP_R__COUNT; i++) {
		const struct vxgbp_rule_info *r = vxgbp_rule_get(i);

		if (!r || !scope_known(r->scope)) {
			fprintf(stderr, "%s: rule %u: %s\n", prog, i,
				r ? "a scope this page has no heading for" : "no entry in the table");
			return -1;
		}
	}
	for (size_t s = 0; s < N_SCOPES; s++) {
		int head = 0;

		for (unsigned i = 0; i < VXGBP_R__COUNT; i++) {
			const struct vxgbp_rule_info *r = vxgbp_rule_get(i);

			if (r->scope != scopes[s].scope)
				continue;
			if (!head++)
				fprintf(f, ".SS %s\n", scopes[s].title);
			rule_row(f, r);
		}
	}
	return 0;
}

/* The bit number of mask in the draft's diagram (0 = the first bit sent). */
static int bit_number(uint16_t mask)
{
	for (int b = 0; b < 16; b++)
		if (mask & (0x8000u >> b))
			return b;
	return -1;
}

/* @FLAGS@: every flag bit with a name. */
static int print_flags(FILE *f)
{
	const struct vxgbp_flag_info *fl;

	for (unsigned i = 0; (fl = vxgbp_flag_get(i)); i++) {
		fprintf(f, ".TP\n.BR %s \" (bit %d, 0x%04x)\"\n", fl->name, bit_number(fl->mask),
			(unsigned)fl->mask);
		roff(f, fl->text, 0);
		fputs(".\n", f);
		if (fl->needs)
			fputs("Only with G: without it, a reserved bit.\n", f);
		if (!(fl->set & VXGBP_FLAGSET_DRAFT))
			fputs("Not in the draft: named only under\n.BR \"gbpdump \\-\\-check "
			      "\\-\\-profile vpp\" .\n", f);
	}
	return 0;
}

/* Headers whose fate on a Linux 6.12 VTEP the page shows. */
static const struct {
	uint16_t flags, group;
	uint8_t rsvd;
} examples[] = {
	{ 0x8800, 0x0200, 0 },    /* G,I: a group */
	{ 0x8848, 0x0200, 0 },    /* G,I,D,A */
	{ 0x0800, 0, 0 },         /* plain RFC 7348 */
	{ 0x8000, 0x0200, 0 },    /* I clear */
	{ 0x0840, 0, 0 },         /* D without G */
	{ 0x0800, 0x0200, 0 },    /* an ID without G */
	{ 0x8900, 0x0200, 0 },    /* a reserved bit of the first byte */
	{ 0x8800, 0x0200, 0xff }, /* the reserved byte */
};

static void verdict_text(FILE *f, const struct vxgbp_hdr *h, unsigned dev)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, dev, &v);
	if (!v.accept)
		fprintf(f, "drops it\n.RB ( %s )", vxgbp_drop_name(v.why));
	else if (v.mark_set)
		fprintf(f, "accepts it, skb\\->mark 0x%08x", (unsigned)v.mark);
	else
		fputs("accepts it, skb\\->mark untouched", f);
}

/* @LINUX@: each example header, the verdict with and without gbp. */
static int print_linux(FILE *f)
{
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
		struct vxgbp_hdr h;
		char names[VXGBP_FLAGS_STRLEN];

		if (vxgbp_hdr_decode(&h, (const uint8_t[8]){
			(uint8_t)(examples[i].flags >> 8), (uint8_t)examples[i].flags,
			(uint8_t)(examples[i].group >> 8), (uint8_t)examples[i].group,
			0, 0, 100, examples[i].rsvd }, 8) < 0 ||
		    vxgbp_flags_format(names, sizeof(names), h.flags, 0) < 0) {
			fprintf(stderr, "%s: example %zu does not decode\n", prog, i);
			return -1;
		}
		fprintf(f, ".TP\nflags 0x%04x [%s], ID 0x%04x, byte 7 0x%02x\n",
			(unsigned)h.flags, names, (unsigned)h.group, (unsigned)h.rsvd);
		fputs("A gbp device ", f);
		verdict_text(f, &h, VXGBP_DEV_GBP);
		fputs(";\none without gbp ", f);
		verdict_text(f, &h, 0);
		fputs(".\n", f);
	}
	return 0;
}

/* The rules whose level under profile p differs from the table's:
 * ", udp.zero-checksum-ipv6 MUST". */
static void profile_levels(FILE *f, unsigned p)
{
	const char *sep = "Levels of its own:\n";
	unsigned n = 0;

	for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);
		int lv = vxgbp_profile_level(p, r, NULL);

		if (!ri || lv < 0 || lv == (int)ri->level ||
		    (lv == VXGBP_LEVEL_OFF && (vxgbp_rule_cats(r) & VXGBP_CAT_NIC_CSUM)))
			continue;
		fputs(sep, f);
		fputs(".B ", f);
		roff(f, ri->id, 1);
		fprintf(f, "\n%s", lv == VXGBP_LEVEL_OFF ? "not judged" : vxgbp_level_name(lv));
		sep = ",\n";
		n++;
	}
	if (n)
		fputs(".\n", f);
}

/* @PROFILES@: every profile, with what it changes. */
static int print_profiles(FILE *f)
{
	const struct vxgbp_profile_info *pi;

	for (unsigned i = 0; (pi = vxgbp_profile_get(i)); i++) {
		fputs(".TP\n.B ", f);
		roff(f, pi->name, 1);
		fputc('\n', f);
		roff(f, pi->text, 0);
		fputs(".\n", f);
		if (pi->flagsets & VXGBP_FLAGSET_VPP)
			fputs("VPP's flag bits are named, not reserved.\n", f);
		if (pi->flags & VXGBP_PROFILE_LINUX)
			fputs(".B gbp.reserved\\-flags\nis MUST for the bits a Linux gbp device "
			      "drops a header for, SHOULD for those it ignores.\n", f);
		if (pi->flags & VXGBP_PROFILE_NO_CSUM)
			fputs("No IP or UDP checksum is verified, no rule on them judged.\n", f);
		profile_levels(f, i);
	}
	return 0;
}

/* A template line, "@VERSION@" replaced by the library's version. */
static void copy_line(FILE *out, const char *line)
{
	static const char tok[] = "@VERSION@";
	const char *at;

	while ((at = strstr(line, tok))) {
		fprintf(out, "%.*s%s", (int)(at - line), line, vxgbp_version());
		line = at + sizeof(tok) - 1;
	}
	fprintf(out, "%s\n", line);
}

/* Copy the template, expanding the markers.  0, or -1 with a message. */
static int expand(FILE *in, FILE *out, const char *tname)
{
	static const struct {
		const char *marker;
		int (*print)(FILE *);
	} parts[] = { { "@RULES@", print_rules }, { "@FLAGS@", print_flags },
		      { "@LINUX@", print_linux }, { "@PROFILES@", print_profiles } };
	unsigned used = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	while (!rc && (n = getline(&line, &cap, in)) >= 0) {
		size_t k, np = sizeof(parts) / sizeof(parts[0]);

		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		for (k = 0; k < np && strcmp(line, parts[k].marker); k++)
			;
		if (k == np)
			copy_line(out, line);
		else if (!(rc = parts[k].print(out)))
			used |= 1u << k;
	}
	free(line);
	if (!rc && ferror(in)) {
		fprintf(stderr, "%s: %s: %s\n", prog, tname, strerror(errno));
		rc = -1;
	}
	if (!rc && used != (1u << (sizeof(parts) / sizeof(parts[0]))) - 1) {
		fprintf(stderr, "%s: %s: @RULES@, @FLAGS@, @LINUX@ and @PROFILES@ must each be "
			"on a line of their own\n", prog, tname);
		rc = -1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	FILE *in, *out;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s TEMPLATE OUTPUT\n", prog);
		return 2;
	}
	if (!(in = fopen(argv[1], "r"))) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[1], strerror(errno));
		return 2;
	}
	if (!(out = fopen(argv[2], "w"))) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], strerror(errno));
		fclose(in);
		return 2;
	}
	rc = expand(in, out, argv[1]);
	fclose(in);
	if (fclose(out) && !rc) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], strerror(errno));
		rc = -1;
	}
	if (rc)
		remove(argv[2]); /* no half page for the build to install */
	return rc ? 1 : 0;
}
