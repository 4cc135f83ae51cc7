// SPDX-License-Identifier: BSD-2-Clause
/*
 * mklabels - writes the label fixtures (the .pcap files of fixtures/labels/, classic
 * pcap, Ethernet) from libvxgbp's builders: every CIPSO tag type, CALIPSO,
 * and one frame per label finding, on the underlay and inside a VXLAN-GBP
 * overlay.  Deterministic: same bytes on every run (ctest compares them with
 * the committed files).
 *
 *   usage: mklabels OUTDIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *prog = "mklabels";

/* ------------------------------------------------------------------------
 * Classic pcap writer (little-endian, microseconds).
 */
struct cap {
	FILE *f;
	char path[4096];
	unsigned n;
};

static void le32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

static void le16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void cap_open(struct cap *c, const char *dir, const char *name)
{
	uint8_t h[24];

	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	c->f = fopen(c->path, "wb");
	if (!c->f) {
		fprintf(stderr, "%s: %s: %s\n", prog, c->path, strerror(errno));
		exit(2);
	}
	le32(h, 0xa1b2c3d4u);
	le16(h + 4, 2);
	le16(h + 6, 4);
	le32(h + 8, 0);
	le32(h + 12, 0);
	le32(h + 16, 65535);
	le32(h + 20, 1); /* LINKTYPE_ETHERNET */
	fwrite(h, 1, sizeof(h), c->f);
	c->n = 0;
}

static void cap_add(struct cap *c, const uint8_t *frame, int len)
{
	uint8_t r[16];

	if (len <= 0) {
		fprintf(stderr, "%s: %s frame %u: build failed: %s\n", prog, c->path, c->n + 1,
			vxgbp_strerror(len));
		exit(1);
	}
	le32(r, 1700000000u + c->n);
	le32(r + 4, 0);
	le32(r + 8, (uint32_t)len);
	le32(r + 12, (uint32_t)len);
	fwrite(r, 1, sizeof(r), c->f);
	fwrite(frame, 1, (size_t)len, c->f);
	c->n++;
}

static void cap_close(struct cap *c)
{
	if (fclose(c->f)) {
		fprintf(stderr, "%s: %s: %s\n", prog, c->path, strerror(errno));
		exit(2);
	}
}

/* ------------------------------------------------------------------------
 * Frames
 */
static const struct vxgbp_eth_spec eth_outer = {
	.dst = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 },
	.src = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 },
};
static const struct vxgbp_eth_spec eth_inner = {
	.dst = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x02 },
	.src = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x01 },
};

/* A label: raw option bytes (CIPSO option or CALIPSO option), or none. */
struct opt {
	uint8_t b[256];
	size_t n;
};

static void ip_init(struct vxgbp_ip_spec *ip, int version, int inner, const struct opt *o)
{
	memset(ip, 0, sizeof(*ip));
	ip->version = (uint8_t)version;
	if (version == 4) {
		ip->src[0] = 10;
		ip->src[1] = (uint8_t)(inner ? 2 : 1);
		ip->src[3] = 1;
		memcpy(ip->dst, ip->src, 4);
		ip->dst[3] = 2;
	} else {
		ip->src[0] = 0xfd;
		ip->src[1] = (uint8_t)(inner ? 2 : 1);
		ip->src[15] = 1;
		memcpy(ip->dst, ip->src, 16);
		ip->dst[15] = 2;
	}
	if (o && o->n) {
		ip->options = o->b;
		ip->options_len = o->n;
	}
}

/* An ICMP(v6) echo request with the label (underlay or inner frame). */
static int echo(uint8_t *out, size_t outlen, int version, int inner, const struct opt *o,
		uint16_t seq)
{
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec l4 = { .proto = (uint8_t)(version == 4 ? 1 : 58),
				    .icmp_type = (uint8_t)(version == 4 ? 8 : 128),
				    .sport = 0x4c42, .dport = seq };
	static const char payload[] = "labelled";

	ip_init(&ip, version, inner, o);
	return vxgbp_frame_build(out, outlen, inner ? &eth_inner : &eth_outer, &ip, &l4,
				 payload, sizeof(payload) - 1);
}

/* A VXLAN-GBP frame (vni 100, group 0x200) whose outer IP carries oo and
 * whose inner IP carries io. */
static int gbp(uint8_t *out, size_t outlen, int over, const struct opt *oo, int iver,
	       const struct opt *io, uint16_t seq)
{
	uint8_t inner[512];
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec udp = { .proto = 17, .sport = (uint16_t)(49152 + seq), .dport = 4789 };
	struct vxgbp_hdr h;
	int in = echo(inner, sizeof(inner), iver, 1, io, seq);

	if (in < 0)
		return in;
	vxgbp_hdr_init(&h, 100, VXGBP_F_G, 0x200);
	ip_init(&ip, over, 0, oo);
	return vxgbp_vxlan_build(out, outlen, &eth_outer, &ip, &udp, &h, inner, (size_t)in);
}

static void cipso(struct opt *o, uint32_t doi, const struct vxgbp_cipso_tag_spec *ts,
		  unsigned n)
{
	int r = vxgbp_cipso_build(o->b, sizeof(o->b), doi, ts, n);

	if (r < 0) {
		fprintf(stderr, "%s: cipso build: %s\n", prog, vxgbp_strerror(r));
		exit(1);
	}
	o->n = (size_t)r;
}

static void calipso(struct opt *o, uint32_t doi, uint8_t level, const uint16_t *cats,
		    unsigned n, unsigned flags)
{
	int r = vxgbp_calipso_build(o->b, sizeof(o->b), doi, level, cats, n, flags);

	if (r < 0) {
		fprintf(stderr, "%s: calipso build: %s\n", prog, vxgbp_strerror(r));
		exit(1);
	}
	o->n = (size_t)r;
}

/* Tag specs shared by the captures. */
static const uint16_t c01[] = { 0, 1 };
static const uint16_t c0159[] = { 0, 1, 5, 6, 7, 8, 9 };
static const uint16_t c_rng[] = { 0, 1, 5, 6, 7, 8, 9, 200, 201, 202, 203, 204, 205 };
static const uint16_t c_pbm[] = { 7, 100 };
static const uint8_t freeform[] = { 'T', 'O', 'P', '-', 'S', 'E', 'C', 'R', 'E', 'T' };
static const uint8_t secid[] = { 0x2a, 0x00, 0x00, 0x00 }; /* 42, little-endian host */

static const struct vxgbp_cipso_tag_spec t1 = { .type = 1, .level = 1, .cats = c01, .n_cats = 2 };
static const struct vxgbp_cipso_tag_spec t2 = { .type = 2, .level = 2, .cats = c0159, .n_cats = 7 };
static const struct vxgbp_cipso_tag_spec t5 = { .type = 5, .level = 3, .cats = c_rng, .n_cats = 13 };
static const struct vxgbp_cipso_tag_spec t6 = { .type = 6, .level = 4, .cats = c_pbm, .n_cats = 2 };
static const struct vxgbp_cipso_tag_spec t7 = { .type = 7, .raw = freeform, .raw_len = sizeof(freeform) };
static const struct vxgbp_cipso_tag_spec t128 = { .type = 128, .raw = secid, .raw_len = 4 };
static const struct vxgbp_cipso_tag_spec t1_nocat = { .type = 1, .level = 0 };

static void write_tags(const char *dir)
{
	const struct vxgbp_cipso_tag_spec *one[] = { &t1, &t2, &t5, &t6, &t7, &t128, &t1_nocat };
	const struct vxgbp_cipso_tag_spec multi[] = {
		{ .type = 7, .raw = freeform, .raw_len = 3 }, t2, t1,
	};
	uint8_t f[1024];
	struct opt o;
	struct cap c;
	uint16_t seq = 1;

	/* cipso-tags.pcap: the underlay, one tag type per frame, then all
	 * of them again in the inner frame of VXLAN-GBP, then the outer. */
	cap_open(&c, dir, "cipso-tags.pcap");
	for (size_t i = 0; i < N(one); i++) {
		cipso(&o, one[i] == &t128 ? 3 : 16, one[i], 1);
		cap_add(&c, f, echo(f, sizeof(f), 4, 0, &o, seq++));
	}
	cipso(&o, 16, multi, 3);
	cap_add(&c, f, echo(f, sizeof(f), 4, 0, &o, seq++));
	cap_close(&c);

	cap_open(&c, dir, "cipso-vxlan.pcap");
	for (size_t i = 0; i < N(one); i++) {
		cipso(&o, one[i] == &t128 ? 3 : 16, one[i], 1);
		cap_add(&c, f, gbp(f, sizeof(f), 4, NULL, 4, &o, seq++));
	}
	for (size_t i = 0; i < N(one); i++) {
		cipso(&o, one[i] == &t128 ? 3 : 16, one[i], 1);
		cap_add(&c, f, gbp(f, sizeof(f), 4, &o, 4, NULL, seq++));
	}
	{
		struct opt o2;

		cipso(&o, 16, &t5, 1);
		cipso(&o2, 16, &t1, 1);
		cap_add(&c, f, gbp(f, sizeof(f), 4, &o, 4, &o2, seq++));
	}
	cap_close(&c);
}

static void write_calipso(const char *dir)
{
	uint16_t sparse[40];
	uint8_t f[1024];
	struct opt o, o2;
	struct cap c;
	uint16_t seq = 1;

	for (unsigned i = 0; i < N(sparse); i++)
		sparse[i] = (uint16_t)(i < 20 ? 100 + i : 7 * i + 200);
	cap_open(&c, dir, "calipso.pcap");
	calipso(&o, 16, 1, c01, 2, 0);
	cap_add(&c, f, echo(f, sizeof(f), 6, 0, &o, seq++));             /* underlay */
	calipso(&o2, 16, 2, NULL, 0, 0);
	cap_add(&c, f, echo(f, sizeof(f), 6, 0, &o2, seq++));            /* no categories */
	cap_add(&c, f, gbp(f, sizeof(f), 6, &o, 4, NULL, seq++));         /* outer */
	calipso(&o2, 16, 3, sparse, N(sparse), 0);
	cap_add(&c, f, gbp(f, sizeof(f), 4, NULL, 6, &o2, seq++));        /* inner */
	cipso(&o2, 16, &t1, 1);
	cap_add(&c, f, gbp(f, sizeof(f), 6, &o, 4, &o2, seq++));          /* both kinds */
	cap_close(&c);
}

/* One CIPSO option per finding. */
static void cipso_finding(struct opt *o, int which)
{
	static const uint16_t desc[] = { 5, 3 };
	static const uint8_t rbm_short[] = { 0 };            /* tag 1 of 3 bytes */
	static const uint8_t reversed[] = { 0, 1, 0, 3, 0, 9 };/* top 3 < bottom 9 */
	static const uint8_t two[] = { 0, 1 };
	static const uint8_t align1[] = { 1, 1, 0xc0 };      /* alignment octet 1 */
	static const uint8_t cat65535[] = { 0, 1, 0xff, 0xff };
	static const uint8_t padded[] = { 0, 1, 0xc0, 0 };
	const struct vxgbp_cipso_tag_spec tdesc = { .type = 2, .level = 1, .cats = desc, .n_cats = 2 };
	const struct vxgbp_cipso_tag_spec trev = { .type = 5, .raw = reversed, .raw_len = sizeof(reversed) };
	const struct vxgbp_cipso_tag_spec tshort = { .type = 1, .raw = rbm_short, .raw_len = 1 };
	const struct vxgbp_cipso_tag_spec tunk = { .type = 3, .raw = two, .raw_len = 2 };
	const struct vxgbp_cipso_tag_spec talign = { .type = 1, .raw = align1, .raw_len = 3 };
	const struct vxgbp_cipso_tag_spec tinv = { .type = 2, .raw = cat65535, .raw_len = 4 };
	const struct vxgbp_cipso_tag_spec tpad = { .type = 1, .raw = padded, .raw_len = 4 };
	const struct vxgbp_cipso_tag_spec twice[] = { t1, t1 };

	switch (which) {
	case VXGBP_R_CIPSO_LEN: /* a 6-byte option, its length byte cut to 4 */
		cipso(o, 16, NULL, 0);
		o->b[1] = 4;
		o->n = 4;
		return;
	case VXGBP_R_CIPSO_TAG_LEN:
		cipso(o, 16, &tshort, 1);
		return;
	case VXGBP_R_CIPSO_TAG_ORDER:
		cipso(o, 16, twice, 2);
		return;
	case VXGBP_R_CIPSO_CAT_ORDER:
		cipso(o, 16, &tdesc, 1);
		return;
	case VXGBP_R_CIPSO_RANGE:
		cipso(o, 16, &trev, 1);
		return;
	case VXGBP_R_CIPSO_TAG_UNKNOWN:
		cipso(o, 16, &tunk, 1);
		return;
	case VXGBP_R_CIPSO_DOI:
		cipso(o, 0, &t1, 1);
		return;
	case VXGBP_R_CIPSO_ALIGN:
		cipso(o, 16, &talign, 1);
		return;
	case VXGBP_R_CIPSO_CAT_INVALID:
		cipso(o, 16, &tinv, 1);
		return;
	case VXGBP_R_CIPSO_BITMAP_PAD:
		cipso(o, 16, &tpad, 1);
		return;
	case VXGBP_R_CIPSO_LOCAL:
		cipso(o, 3, &t128, 1);
		return;
	default:
		fprintf(stderr, "%s: no CIPSO fixture for rule %d\n", prog, which);
		exit(1);
	}
}

static void write_findings(const char *dir)
{
	static const int rules[] = {
		VXGBP_R_CIPSO_LEN, VXGBP_R_CIPSO_TAG_LEN, VXGBP_R_CIPSO_TAG_ORDER,
		VXGBP_R_CIPSO_CAT_ORDER, VXGBP_R_CIPSO_RANGE, VXGBP_R_CIPSO_TAG_UNKNOWN,
		VXGBP_R_CIPSO_DOI, VXGBP_R_CIPSO_ALIGN, VXGBP_R_CIPSO_CAT_INVALID,
		VXGBP_R_CIPSO_BITMAP_PAD, VXGBP_R_CIPSO_LOCAL,
	};
	uint8_t f[1024];
	struct opt o;
	struct cap c;
	uint16_t seq = 1;

	/* each finding twice: in the outer header, then in the inner one -
	 * except cipso.length, inner only: Wireshark 4.0 gives up on an IPv4
	 * header whose CIPSO option is shorter than 6 bytes (Malformed
	 * Packet) and would not see the VXLAN frame at all, which the
	 * project's tshark cross-checks would count as a disagreement; the
	 * outer case is in the unit tests. */
	cap_open(&c, dir, "cipso-findings.pcap");
	for (size_t i = 0; i < N(rules); i++) {
		cipso_finding(&o, rules[i]);
		if (rules[i] != VXGBP_R_CIPSO_LEN)
			cap_add(&c, f, gbp(f, sizeof(f), 4, &o, 4, NULL, seq));
		seq++;
		cap_add(&c, f, gbp(f, sizeof(f), 4, NULL, 4, &o, seq++));
	}
	cap_close(&c);

	cap_open(&c, dir, "calipso-findings.pcap");
	for (int k = 0; k < 3; k++) {
		switch (k) {
		case 0: /* calipso.bad-checksum */
			calipso(&o, 16, 1, c01, 2, VXGBP_CALIPSO_BAD_CSUM);
			break;
		case 1: /* calipso.doi-reserved */
			calipso(&o, 0, 1, c01, 2, 0);
			break;
		default: { /* calipso.length: 2 words sent, 1 declared, valid checksum */
			static const uint16_t c40[] = { 0, 40 };
			uint16_t crc;

			calipso(&o, 16, 1, c40, 2, 0);
			o.b[6] = 1;
			crc = vxgbp_calipso_csum(o.b, o.n);
			o.b[8] = (uint8_t)crc;
			o.b[9] = (uint8_t)(crc >> 8);
			break;
		}
		}
		cap_add(&c, f, gbp(f, sizeof(f), 6, &o, 4, NULL, seq++));
		cap_add(&c, f, gbp(f, sizeof(f), 4, NULL, 6, &o, seq++));
	}
	cap_close(&c);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", prog);
		return 2;
	}
	write_tags(argv[1]);
	write_calipso(argv[1]);
	write_findings(argv[1]);
	return 0;
}
