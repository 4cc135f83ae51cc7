// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_summary.c - VXGBP_PARSE_SUMMARY against the full parse, on every
 * record of the captures named on the command line:
 *   - the summary parse, into a struct full of garbage, gives every field
 *     vxgbp.h says it fills as the full parse does (and the same result);
 *   - two trackers (VXGBP_TRACK_MATRIX, what gbpdump --stats uses), one fed
 *     the full parses and one the summary parses, end with the same
 *     summary, VNI, group and matrix tables.
 * Fails when no record took the summary's one-pass path (nothing tested).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

static unsigned long frames, fast, fails;

static void fail(const char *file, unsigned long rec, const char *what)
{
	if (++fails <= 20)
		fprintf(stderr, "%s: record %lu: %s differs\n", file, rec, what);
}

/* The fields VXGBP_PARSE_SUMMARY claims (vxgbp.h), p full, q summary. */
static void compare(const char *file, unsigned long rec, const struct vxgbp_pkt *p,
		    const struct vxgbp_pkt *q)
{
	const struct vxgbp_l2 *a2 = &p->inner.l2, *b2 = &q->inner.l2;
	const struct vxgbp_l3 *a3 = &p->inner.l3, *b3 = &q->inner.l3;

	if (q->caplen != p->caplen || q->wirelen != p->wirelen)
		fail(file, rec, "caplen/wirelen");
	if (q->have != p->have || q->err != p->err || q->err_layer != p->err_layer)
		fail(file, rec, "have/err/err_layer");
	if (q->vxlan_off != p->vxlan_off || q->vx_kind != p->vx_kind ||
	    q->vx.flags != p->vx.flags || q->vx.group != p->vx.group ||
	    q->vx.vni != p->vx.vni || q->vx.rsvd != p->vx.rsvd)
		fail(file, rec, "the VXLAN header");
	if (q->n_encap != p->n_encap || q->n_nested != p->n_nested ||
	    q->has_cooked != p->has_cooked)
		fail(file, rec, "n_encap/n_nested/has_cooked");
	if (b2->off != a2->off || b2->src != a2->src || b2->dst != a2->dst ||
	    b2->ethertype != a2->ethertype || b2->n_vlan != a2->n_vlan)
		fail(file, rec, "inner.l2");
	if (b3->off != a3->off || b3->version != a3->version || b3->src != a3->src ||
	    b3->dst != a3->dst || b3->arp_spa != a3->arp_spa || b3->arp_tpa != a3->arp_tpa)
		fail(file, rec, "inner.l3");
}

static void *zalloc(void *ctx, size_t size)
{
	(void)ctx;
	return calloc(1, size);
}

static void zfree(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	(void)size;
	free(ptr);
}

static struct vxgbp_track *tracker(void)
{
	struct vxgbp_track_opts to = { .size = sizeof(to), .what = VXGBP_TRACK_MATRIX,
				       .zalloc = zalloc, .free = zfree };
	struct vxgbp_track *t = malloc(vxgbp_track_size());

	if (!t || vxgbp_track_init(t, &to)) {
		fprintf(stderr, "unit_summary: cannot start a tracker\n");
		exit(2);
	}
	return t;
}

/* The two trackers' tables, element by element. */
static void same_tables(const char *file, const struct vxgbp_track *a,
			const struct vxgbp_track *b)
{
	struct vxgbp_track_summary sa = { .size = sizeof(sa) }, sb = { .size = sizeof(sb) };
	size_t n;

	vxgbp_track_summary(a, &sa);
	vxgbp_track_summary(b, &sb);
	if (memcmp(&sa, &sb, sizeof(sa))) {
		fail(file, 0, "the tracker's summary");
		return;
	}
	n = sa.vnis + sa.groups + sa.pairs + 1;
	{
		struct vxgbp_track_count *ca = calloc(n, sizeof(*ca)), *cb = calloc(n, sizeof(*cb));
		struct vxgbp_track_cell *ma = calloc(n, sizeof(*ma)), *mb = calloc(n, sizeof(*mb));
		int x, y;

		if (!ca || !cb || !ma || !mb)
			exit(2);
		x = vxgbp_track_vnis(a, ca, n);
		y = vxgbp_track_vnis(b, cb, n);
		if (x != y || (x > 0 && memcmp(ca, cb, (size_t)x * sizeof(*ca))))
			fail(file, 0, "the VNI table");
		x = vxgbp_track_groups(a, ca, n);
		y = vxgbp_track_groups(b, cb, n);
		if (x != y || (x > 0 && memcmp(ca, cb, (size_t)x * sizeof(*ca))))
			fail(file, 0, "the group table");
		x = vxgbp_track_matrix(a, ma, n);
		y = vxgbp_track_matrix(b, mb, n);
		if (x != y || (x > 0 && memcmp(ma, mb, (size_t)x * sizeof(*ma))))
			fail(file, 0, "the matrix");
		free(ca);
		free(cb);
		free(ma);
		free(mb);
	}
}

static int one_file(const char *file)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(file, errbuf);
	struct pcap_pkthdr *h;
	const u_char *d;
	struct vxgbp_parse_opts of, os;
	struct vxgbp_pkt *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	struct vxgbp_track *ta = tracker(), *tb = tracker();
	unsigned long rec = 0;

	if (!pc || !p || !q) {
		fprintf(stderr, "unit_summary: %s: %s\n", file, pc ? "out of memory" : errbuf);
		return 2;
	}
	p->size = sizeof(*p);
	vxgbp_parse_opts_init(&of);
	of.linktype = pcap_datalink(pc);
	os = of;
	os.flags |= VXGBP_PARSE_SUMMARY;
	while (pcap_next_ex(pc, &h, &d) == 1) {
		int r, s;

		rec++;
		frames++;
		r = vxgbp_pkt_parse(p, d, h->caplen, h->len, &of);
		memset(q, 0xa5, sizeof(*q));
		q->size = sizeof(*q);
		s = vxgbp_pkt_parse(q, d, h->caplen, h->len, &os);
		if (r != s)
			fail(file, rec, "the result");
		compare(file, rec, p, q);
		/* the full parse always initialises err_off; the summary's
		 * one-pass path leaves it alone */
		fast += q->err_off == (int)0xa5a5a5a5;
		vxgbp_track_frame(ta, p, rec, NULL);
		vxgbp_track_frame(tb, q, rec, NULL);
	}
	same_tables(file, ta, tb);
	vxgbp_track_fini(ta);
	vxgbp_track_fini(tb);
	free(ta);
	free(tb);
	free(p);
	free(q);
	pcap_close(pc);
	return 0;
}

/*
 * --inner6: crafted VXLAN frames carrying inner IPv6, the summary's own
 * shape (pkt_fast.c sum_inner6()) and its edges, each parsed both ways
 * with several option sets and compared as above.  Untagged or tagged
 * outer Ethernet, outer IPv4 or IPv6, UDP to 4789, VXLAN-GBP, inner
 * Ethernet and IPv6 with next header TCP, UDP, ICMPv6, ICMP (1), an
 * extension header, or another protocol; a payload length of 0, short or
 * long by up to 9 bytes (up to past the outer UDP end, fuzz_pkt's crash),
 * a UDP length short or long likewise; inner UDP to VXLAN, GPE or Geneve
 * ports or with a bad length; TCP data offsets 4 to 15; a version that is
 * not 6; GPE's P flag; and every capture length of the common cases, with
 * the wire length the frame's or the capture's.
 */
struct c6 {
	int outer6, tagged, nh, bad_version, gpe, doff;
	int pd, ud;    /* the payload and UDP lengths' offsets from the true ones */
	int ild;       /* the inner UDP length's offset */
	uint16_t idport;
};

static unsigned long in6_cases, in6_fast, in6_full;

static void be16(uint8_t *d, unsigned v)
{
	d[0] = (uint8_t)(v >> 8);
	d[1] = (uint8_t)v;
}

/* The inner IPv6 payload at d (TCP, UDP or ICMP(v6) with 12 bytes of
 * data; after an extension header TCP): its length. */
static size_t c6_l4(uint8_t *d, const struct c6 *c)
{
	size_t n = 0;
	int nh = c->nh;

	if (nh == 0 || nh == 43 || nh == 60) { /* HBH, routing, dest: 8 bytes */
		memset(d, 0, 8);
		d[0] = 6;
		d[2] = 1; /* HBH: a PadN option over the other 6 bytes */
		d[3] = 4;
		n = 8;
		nh = 6;
	}
	memset(d + n, 0x5a, 32);
	if (nh == 6) {
		d[n + 12] = (uint8_t)(c->doff << 4);
		return n + 32;
	}
	if (nh == 17) {
		be16(d + n, 40000);
		be16(d + n + 2, c->idport);
		be16(d + n + 4, (unsigned)(20 + c->ild));
		return n + 20;
	}
	d[n] = 128; /* ICMPv6 echo request (as ICMP: type 128), other protocols */
	return n + 16;
}

/* The frame of case c into f (room for 256 bytes): its length. */
static size_t c6_frame(uint8_t *f, const struct c6 *c)
{
	size_t e = c->tagged ? 18 : 14, u = e + (c->outer6 ? 40 : 20), vx = u + 8;
	size_t ip = vx + 22, body = c6_l4(f + ip + 40, c), len = ip + 40 + body + 16;
	size_t ulen = 70 + body + (size_t)(long)c->ud, plen = (size_t)((long)body + c->pd);

	memset(f, 0, ip + 40);
	memset(f + ip + 40 + body, 0xee, 16); /* past the inner datagram: padding */
	f[0] = 2;
	f[6] = 2;
	if (c->tagged)
		f[12] = 0x81, f[15] = 7;
	be16(f + e - 2, c->outer6 ? 0x86dd : 0x0800);
	if (c->outer6) {
		f[e] = 0x60;
		be16(f + e + 4, (unsigned)(len - e - 40));
		f[e + 6] = 17;
		f[e + 23] = 1;
		f[e + 39] = 2;
	} else {
		f[e] = 0x45;
		be16(f + e + 2, (unsigned)(len - e));
		f[e + 8] = 64;
		f[e + 9] = 17;
		f[e + 12] = 10, f[e + 15] = 1, f[e + 16] = 10, f[e + 19] = 2;
	}
	be16(f + u, 50000);
	be16(f + u + 2, VXGBP_PORT_IANA);
	be16(f + u + 4, (unsigned)ulen);
	be16(f + vx, c->gpe ? VXGBP_F_I | VXGBP_GPE_F_P : VXGBP_F_G | VXGBP_F_I);
	be16(f + vx + 2, 1000);
	f[vx + 6] = 100; /* VNI 100 */
	f[vx + 8] = 2, f[vx + 14] = 2, f[vx + 19] = 1;
	be16(f + vx + 20, 0x86dd);
	f[ip] = c->bad_version ? 0x40 : 0x60;
	be16(f + ip + 4, (unsigned)plen);
	f[ip + 6] = (uint8_t)c->nh;
	f[ip + 7] = 64;
	f[ip + 8] = 0x20, f[ip + 23] = 1, f[ip + 24] = 0x20, f[ip + 39] = 2;
	return len;
}

/* One parse of f both ways; counts where the summary's one-pass path took
 * inner IPv6 and where the full parse did it. */
static void c6_parse(const uint8_t *f, size_t caplen, size_t wirelen,
		     const struct vxgbp_parse_opts *of, struct vxgbp_pkt *p, struct vxgbp_pkt *q)
{
	struct vxgbp_parse_opts os = *of;
	uint8_t *b = malloc(caplen ? caplen : 1); /* exactly its size: ASan sees a read past it */
	int r, s;

	if (!b)
		exit(2);
	memcpy(b, f, caplen);
	os.flags |= VXGBP_PARSE_SUMMARY;
	r = vxgbp_pkt_parse(p, b, caplen, wirelen, of);
	memset(q, 0xa5, sizeof(*q));
	q->size = sizeof(*q);
	s = vxgbp_pkt_parse(q, b, caplen, wirelen, &os);
	in6_cases++;
	if (r != s)
		fail("inner6", in6_cases, "the result");
	compare("inner6", in6_cases, p, q);
	if (q->err_off == (int)0xa5a5a5a5 && q->inner.l3.version == 6)
		in6_fast++;
	else if (p->inner.l2.ethertype == 0x86dd)
		in6_full++;
	free(b);
}

/* Case c with each option set, whole; with every capture length too
 * (cut: the common cases). */
static void c6_case(const struct c6 *c, int cut, struct vxgbp_pkt *p, struct vxgbp_pkt *q)
{
	/* the flags, and a port added as VXLAN's (0: none) */
	static const struct {
		unsigned flags;
		uint16_t port;
	} opts[] = { { 0, 0 },
		     { VXGBP_PARSE_NO_CSUM, 0 },
		     { VXGBP_PARSE_NO_WALK, 0 },
		     { VXGBP_PARSE_NO_DEFAULT_PORTS, 0 },
		     { 0, VXGBP_PORT_GPE },
		     { 0, VXGBP_PORT_GENEVE },
		     { VXGBP_PARSE_NO_WALK, VXGBP_PORT_GENEVE } };
	uint8_t f[256];
	size_t len = c6_frame(f, c);
	struct vxgbp_parse_opts o;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		vxgbp_parse_opts_init(&o);
		o.flags = opts[i].flags;
		if (opts[i].port)
			vxgbp_parse_opts_add_port(&o, opts[i].port);
		c6_parse(f, len, len, &o, p, q);
		c6_parse(f, len, len + 100, &o, p, q);
	}
	vxgbp_parse_opts_init(&o);
	for (size_t n = 0; cut && n < len; n++) {
		c6_parse(f, n, len, &o, p, q);
		c6_parse(f, n, n, &o, p, q);
	}
}

/* The common cases cut at every length, then the lengths' edges. */
static void c6_lengths(struct c6 *c, struct vxgbp_pkt *p, struct vxgbp_pkt *q)
{
	uint8_t t[64];

	c6_case(c, 1, p, q);
	for (c->pd = -9; c->pd <= 9; c->pd++)
		for (c->ud = -9; c->ud <= 9; c->ud++)
			c6_case(c, 0, p, q);
	c->ud = 0;
	c->pd = -(int)c6_l4(t, c); /* a payload length of 0 */
	c6_case(c, 1, p, q);
	c->pd = c->ud = 0;
}

/* Every next header with the length edges; a version that is not 6 and
 * GPE's P flag; TCP data offsets; inner UDP ports and lengths. */
static void c6_shapes(struct c6 *c, struct vxgbp_pkt *p, struct vxgbp_pkt *q)
{
	static const int nhs[] = { 6, 17, 58, 1, 0, 43, 44, 60, 51, 59, 2 };
	static const uint16_t idports[] = { 53, VXGBP_PORT_IANA, VXGBP_PORT_LINUX, VXGBP_PORT_GPE,
					    VXGBP_PORT_GENEVE };

	for (size_t i = 0; i < sizeof(nhs) / sizeof(nhs[0]); i++) {
		c->nh = nhs[i];
		c6_lengths(c, p, q);
		c->bad_version = 1;
		c6_case(c, 0, p, q);
		c->bad_version = 0;
		c->gpe = 1;
		c6_case(c, 0, p, q);
		c->gpe = 0;
	}
	c->nh = 6;
	for (c->doff = 0; c->doff < 16; c->doff++)
		c6_case(c, c->doff < 7, p, q);
	c->doff = 5;
	c->nh = 17;
	for (size_t i = 0; i < sizeof(idports) / sizeof(idports[0]); i++)
		for (c->idport = idports[i], c->ild = -13; c->ild <= 13; c->ild++)
			c6_case(c, c->ild == 0, p, q);
	c->idport = 53;
	c->ild = 0;
}

static int inner6(void)
{
	struct vxgbp_pkt *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));

	if (!p || !q)
		return 2;
	p->size = sizeof(*p);
	for (int v = 0; v < 4; v++) {
		struct c6 c = { .outer6 = v & 1, .tagged = v >> 1, .doff = 5, .idport = 53 };

		c6_shapes(&c, p, q);
	}
	free(p);
	free(q);
	printf("unit_summary --inner6: %lu parses, %lu by the summary's inner-IPv6 path, "
	       "%lu inner IPv6 by the full parse, %lu differences\n", in6_cases, in6_fast, in6_full,
	       fails);
	if (!in6_fast || !in6_full) {
		fprintf(stderr, "unit_summary --inner6: a path not taken (nothing tested)\n");
		return 1;
	}
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--inner6"))
		return inner6();
	for (int i = 1; i < argc; i++)
		if (one_file(argv[i]))
			return 2;
	printf("unit_summary: %d captures, %lu records, %lu by the summary's one-pass path, "
	       "%lu differences\n", argc - 1, frames, fast, fails);
	if (!fast) {
		fprintf(stderr, "unit_summary: no record took the summary's one-pass path\n");
		return 1;
	}
	return fails ? 1 : 0;
}
