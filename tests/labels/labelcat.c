// SPDX-License-Identifier: BSD-2-Clause
/*
 * labelcat - print, per frame of a classic pcap (Ethernet), the labels
 * libvxgbp decodes in the outer and inner IP headers, in the shape of
 *   tshark -T fields -E separator='|' -e frame.number -e ip.cipso.doi
 *     -e ip.cipso.tag_type -e ip.cipso.sensitivity_level -e (categories)
 *     -e ip.cipso.tag_data -e ipv6.opt.calipso.doi
 *     -e ipv6.opt.calipso.sens_level -e ipv6.opt.calipso.checksum
 *     -e (calipso categories)
 * so that tshark_labels.py can compare the two frame by frame.  Categories
 * are expanded and listed one by one; checksum as Wireshark shows it (the
 * two bytes read big-endian).
 *
 *   usage: labelcat FILE.pcap
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

struct buf {
	char s[65536];
	size_t n;
};

/* Append v in decimal (hex_digits 0) or as hex_digits lower-case hex digits. */
static void add(struct buf *b, int hex_digits, unsigned v)
{
	if (b->n + 16 >= sizeof(b->s))
		return;
	if (hex_digits == 2)
		b->n += (size_t)snprintf(b->s + b->n, sizeof(b->s) - b->n, "%02x", v);
	else if (hex_digits == 4)
		b->n += (size_t)snprintf(b->s + b->n, sizeof(b->s) - b->n, "0x%04x", v);
	else
		b->n += (size_t)snprintf(b->s + b->n, sizeof(b->s) - b->n, "%u", v);
}

static void sep(struct buf *b)
{
	if (b->n && b->n + 1 < sizeof(b->s)) {
		b->s[b->n++] = ',';
		b->s[b->n] = '\0';
	}
}

static void label(const uint8_t *frame, const struct vxgbp_l3 *l3, struct buf *doi,
		  struct buf *types, struct buf *lvl, struct buf *cats, struct buf *data,
		  struct buf *ldoi, struct buf *llvl, struct buf *lcsum, struct buf *lcats)
{
	if (l3->cipso_off >= 0) {
		struct vxgbp_cipso c;

		if (vxgbp_cipso_parse(&c, frame + l3->cipso_off, l3->cipso_len) > 0) {
			sep(doi);
			add(doi, 0, c.doi);
			for (unsigned i = 0; i < c.n_tags; i++) {
				const struct vxgbp_cipso_tag *t = &c.tags[i];
				unsigned it = 0;
				uint16_t lo, hi;

				sep(types);
				add(types, 0, t->type);
				/* Wireshark decodes the level of tags 1, 2 and 5 */
				if (t->has_level && (t->type == 1 || t->type == 2 || t->type == 5)) {
					sep(lvl);
					add(lvl, 0, t->level);
					while (vxgbp_cipso_cat_next(t, &it, &lo, &hi))
						for (unsigned v = lo; v <= hi; v++) {
							sep(cats);
							add(cats, 0, v);
						}
				} else if (t->type == 6 || t->type == 7) {
					/* and shows 6 and 7 as raw data from the
					 * byte after the length */
					sep(data);
					if (t->type == 6) {
						add(data, 2, 0);
						add(data, 2, t->level);
					}
					for (unsigned k = 0; k < t->data_len; k++)
						add(data, 2, t->data[k]);
				}
			}
		}
	}
	if (l3->calipso_off >= 0) {
		struct vxgbp_calipso c;
		unsigned it = 0;
		uint16_t lo, hi;

		if (vxgbp_calipso_parse(&c, frame + l3->calipso_off, l3->calipso_len) > 0) {
			sep(ldoi);
			add(ldoi, 0, c.doi);
			sep(llvl);
			add(llvl, 0, c.level);
			sep(lcsum);
			add(lcsum, 4, (unsigned)((c.csum >> 8) | (c.csum & 0xff) << 8));
			while (vxgbp_calipso_cat_next(&c, &it, &lo, &hi))
				for (unsigned v = lo; v <= hi; v++) {
					sep(lcats);
					add(lcats, 0, v);
				}
		}
	}
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int main(int argc, char **argv)
{
	static uint8_t frame[65536];
	static struct buf b[10];
	uint8_t gh[24], rh[16];
	unsigned nr = 0;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: labelcat FILE.pcap\n");
		return 2;
	}
	if (!(f = fopen(argv[1], "rb")) || fread(gh, 1, 24, f) != 24 ||
	    le32(gh) != 0xa1b2c3d4u || le32(gh + 20) != 1) {
		fprintf(stderr, "labelcat: %s: not a little-endian Ethernet pcap\n", argv[1]);
		return 2;
	}
	while (fread(rh, 1, 16, f) == 16) {
		uint32_t incl = le32(rh + 8), orig = le32(rh + 12);
		struct vxgbp_pkt p = { .size = sizeof(p) };

		if (incl > sizeof(frame) || fread(frame, 1, incl, f) != incl) {
			fprintf(stderr, "labelcat: %s: bad record\n", argv[1]);
			return 1;
		}
		nr++;
		for (int i = 0; i < 10; i++)
			b[i].n = 0, b[i].s[0] = '\0';
		vxgbp_pkt_parse(&p, frame, incl, orig, NULL);
		if (p.have & VXGBP_HAVE_L3)
			label(frame, &p.outer.l3, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6],
			      &b[7], &b[8]);
		if (p.have & VXGBP_HAVE_INNER_L3)
			label(frame, &p.inner.l3, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6],
			      &b[7], &b[8]);
		printf("%u|%s|%s|%s|%s|%s|%s|%s|%s|%s\n", nr, b[0].s, b[1].s, b[2].s, b[3].s,
		       b[4].s, b[5].s, b[6].s, b[7].s, b[8].s);
	}
	fclose(f);
	return 0;
}
