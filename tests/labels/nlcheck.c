// SPDX-License-Identifier: BSD-2-Clause
/*
 * nlcheck - cross-check the CIPSO / CALIPSO options Linux's NetLabel put on
 * the wire against what libvxgbp builds for the same label.
 *
 *   usage: nlcheck FILE.pcap LEVEL CATS MAP...
 *     LEVEL  the sensitivity level the sender ran at (e.g. 1)
 *     CATS   its categories, comma-separated (e.g. 0,1; "-" for none)
 *     MAP    cipso:DOI:TAG (a netlabelctl cipsov4 DOI and its tag type) or
 *            calipso:DOI
 *
 * For every label found (outer and inner IP header, classic pcap, Ethernet)
 * prints one line
 *   FRAME outer|inner cipso|calipso doi D tag T lvl L cat C SRC > DST OK|MISMATCH ...
 * where OK means: the DOI is one of the MAPs, and the option's bytes equal
 * vxgbp_cipso_build / vxgbp_calipso_build for that DOI, tag, LEVEL and CATS
 * (which also checks every decoded field: DOI, tag type, level, categories,
 * CALIPSO checksum), and the option has no findings.  Then one summary line
 * per MAP: "MAP cipso:16:1 outer N inner M".  Exit 0 when every label was
 * OK, 1 otherwise, 2 on usage or I/O errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define MAXMAP 16

struct map {
	int calipso;
	uint32_t doi;
	uint8_t tag;
	unsigned seen[2]; /* outer, inner */
};

static uint16_t cats[1024];
static unsigned n_cats;
static uint8_t level;

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void addr(const uint8_t *a, int v)
{
	char s[64];

	if (vxgbp_addr_format(s, sizeof(s), a, v == 4 ? 4 : 16) > 0)
		fputs(s, stdout);
	else
		fputs("?", stdout);
}

static int one(unsigned fno, const uint8_t *frame, const struct vxgbp_l3 *l3, int inner,
	       struct map *maps, unsigned n_maps)
{
	uint8_t want[300];
	int wn = -1, ok = 0;
	struct map *m = NULL;
	char cs[8192];

	if (l3->cipso_off >= 0) {
		struct vxgbp_cipso c;
		const uint8_t *o = frame + l3->cipso_off;
		int r = vxgbp_cipso_parse(&c, o, l3->cipso_len);

		printf("%u %s cipso", fno, inner ? "inner" : "outer");
		if (r < 0) {
			printf(" %s ", vxgbp_strerror(r));
		} else {
			printf(" doi %u", c.doi);
			for (unsigned i = 0; i < c.n_tags; i++) {
				printf(" tag %u", c.tags[i].type);
				if (c.tags[i].has_level) {
					vxgbp_cipso_cats_format(cs, sizeof(cs), &c.tags[i]);
					printf(" lvl %u cat %s", c.tags[i].level, *cs ? cs : "-");
				}
			}
			for (unsigned i = 0; i < n_maps; i++)
				if (!maps[i].calipso && maps[i].doi == c.doi)
					m = &maps[i];
			if (m) {
				struct vxgbp_cipso_tag_spec ts = { .type = m->tag, .level = level,
								   .cats = cats, .n_cats = n_cats };

				wn = vxgbp_cipso_build(want, sizeof(want), m->doi, &ts, 1);
			}
			ok = m && wn == r && memcmp(want, o, (size_t)wn) == 0 && !c.findings;
		}
		printf(" ");
		addr(l3->src, 4);
		printf(" > ");
		addr(l3->dst, 4);
		printf(" %s opt ", ok ? "OK" : "MISMATCH");
		hex(o, l3->cipso_len);
		if (!ok && wn > 0) {
			printf(" want ");
			hex(want, (size_t)wn);
		}
		printf(" findings 0x%llx\n", r < 0 ? 0ULL : (unsigned long long)c.findings);
	} else if (l3->calipso_off >= 0) {
		struct vxgbp_calipso c;
		const uint8_t *o = frame + l3->calipso_off;
		int r = vxgbp_calipso_parse(&c, o, l3->calipso_len);

		printf("%u %s calipso", fno, inner ? "inner" : "outer");
		if (r < 0) {
			printf(" %s ", vxgbp_strerror(r));
		} else {
			vxgbp_calipso_cats_format(cs, sizeof(cs), &c);
			printf(" doi %u lvl %u cat %s csum 0x%04x %s", c.doi, c.level, *cs ? cs : "-",
			       c.csum, c.csum_ok ? "ok" : "bad");
			for (unsigned i = 0; i < n_maps; i++)
				if (maps[i].calipso && maps[i].doi == c.doi)
					m = &maps[i];
			if (m)
				wn = vxgbp_calipso_build(want, sizeof(want), m->doi, level, cats,
							 n_cats, 0);
			ok = m && wn == r && memcmp(want, o, (size_t)wn) == 0 && !c.findings;
		}
		printf(" ");
		addr(l3->src, 6);
		printf(" > ");
		addr(l3->dst, 6);
		printf(" %s opt ", ok ? "OK" : "MISMATCH");
		hex(o, l3->calipso_len);
		if (!ok && wn > 0) {
			printf(" want ");
			hex(want, (size_t)wn);
		}
		printf(" findings 0x%llx\n", r < 0 ? 0ULL : (unsigned long long)c.findings);
	} else {
		return 0;
	}
	if (ok)
		m->seen[inner]++;
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	static uint8_t frame[65536];
	struct map maps[MAXMAP];
	unsigned n_maps = 0, fno = 0, bad = 0;
	uint8_t gh[24], rh[16];
	char *s, *tok;
	FILE *f;

	if (argc < 5) {
		fprintf(stderr, "usage: nlcheck FILE.pcap LEVEL CATS MAP...\n");
		return 2;
	}
	level = (uint8_t)strtoul(argv[2], NULL, 10);
	s = argv[3];
	if (strcmp(s, "-"))
		for (tok = strtok(s, ","); tok && n_cats < 1024; tok = strtok(NULL, ","))
			cats[n_cats++] = (uint16_t)strtoul(tok, NULL, 10);
	for (int i = 4; i < argc && n_maps < MAXMAP; i++) {
		struct map *m = &maps[n_maps];
		unsigned doi, tag;

		memset(m, 0, sizeof(*m));
		if (sscanf(argv[i], "cipso:%u:%u", &doi, &tag) == 2) {
			m->doi = doi;
			m->tag = (uint8_t)tag;
		} else if (sscanf(argv[i], "calipso:%u", &doi) == 1) {
			m->calipso = 1;
			m->doi = doi;
		} else {
			fprintf(stderr, "nlcheck: bad MAP %s\n", argv[i]);
			return 2;
		}
		n_maps++;
	}
	if (!(f = fopen(argv[1], "rb")) || fread(gh, 1, 24, f) != 24 ||
	    le32(gh) != 0xa1b2c3d4u || le32(gh + 20) != 1) {
		fprintf(stderr, "nlcheck: %s: not a little-endian Ethernet pcap\n", argv[1]);
		return 2;
	}
	while (fread(rh, 1, 16, f) == 16) {
		uint32_t incl = le32(rh + 8), orig = le32(rh + 12);
		struct vxgbp_pkt p = { .size = sizeof(p) };

		if (incl > sizeof(frame) || fread(frame, 1, incl, f) != incl)
			break;
		fno++;
		vxgbp_pkt_parse(&p, frame, incl, orig, NULL);
		if (p.have & VXGBP_HAVE_L3)
			bad += (unsigned)one(fno, frame, &p.outer.l3, 0, maps, n_maps);
		if (p.have & VXGBP_HAVE_INNER_L3)
			bad += (unsigned)one(fno, frame, &p.inner.l3, 1, maps, n_maps);
	}
	fclose(f);
	for (unsigned i = 0; i < n_maps; i++) {
		if (maps[i].calipso)
			printf("MAP calipso:%u", maps[i].doi);
		else
			printf("MAP cipso:%u:%u", maps[i].doi, maps[i].tag);
		printf(" outer %u inner %u\n", maps[i].seen[0], maps[i].seen[1]);
	}
	printf("TOTAL frames %u mismatches %u\n", fno, bad);
	return bad ? 1 : 0;
}
