// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_pkt.c - libFuzzer harness for the whole-frame parser.
 *
 * Input: one option byte, then the frame.  Option byte: bits 0-2 pick the
 * link type, bit 3 skips checksums, bit 4 adds UDP port 4790 as VXLAN,
 * bit 5 drops the default ports, bit 6 makes the wire length larger than
 * the capture.  The frame is copied into a buffer of exactly its size so
 * AddressSanitizer sees any read past it.  Every offset the parser reports
 * must lie inside the frame, the fast path (pkt_fast.c) must give what
 * the layer-by-layer parse gives (VXGBP_PARSE_GENERIC), and a parse from
 * the VXLAN header (vxgbp_pkt_parse_vxlan) or from the inner frame
 * (vxgbp_pkt_parse_inner) what the whole-frame parse found there.  The
 * summary parse (VXGBP_PARSE_SUMMARY), into a struct full of garbage, must
 * give every field it claims as the full parse does.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int links[8] = {
	VXGBP_LINK_ETHERNET, VXGBP_LINK_NULL, VXGBP_LINK_RAW, VXGBP_LINK_LINUX_SLL,
	VXGBP_LINK_IPV4, VXGBP_LINK_IPV6, VXGBP_LINK_LINUX_SLL2, 147 /* unknown */
};

static void in_frame(const uint8_t *f, size_t n, const void *ptr, size_t len)
{
	const uint8_t *q = ptr;

	if (!q)
		return;
	if (q < f || q + len > f + n)
		abort();
}

static void check_off(int off, size_t n)
{
	if (off < -1 || (off >= 0 && (size_t)off > n))
		abort();
}

static void check_layers(const uint8_t *f, size_t n, const struct vxgbp_layers *ls)
{
	size_t alen = ls->l3.version == 6 ? 16 : 4;

	check_off(ls->l2.off, n);
	check_off(ls->l3.off, n);
	check_off(ls->l4.off, n);
	check_off(ls->l3.opt_off, n);
	check_off(ls->l3.cipso_off, n);
	check_off(ls->l3.calipso_off, n);
	in_frame(f, n, ls->l2.dst, 6);
	in_frame(f, n, ls->l2.src, 6);
	if (ls->l3.off >= 0 && ls->l3.version) {
		in_frame(f, n, ls->l3.src, alen);
		in_frame(f, n, ls->l3.dst, alen);
	}
	in_frame(f, n, ls->l3.arp_spa, 4);
	in_frame(f, n, ls->l3.arp_tpa, 4);
	if (ls->l3.cipso_off >= 0 && (size_t)ls->l3.cipso_off + ls->l3.cipso_len > n)
		abort();
	if (ls->l3.calipso_off >= 0 && (size_t)ls->l3.calipso_off + ls->l3.calipso_len > n)
		abort();
}

#define OUTER_RULES (VXGBP_RB(VXGBP_R_UDP_CSUM) | VXGBP_RB(VXGBP_R_UDP_ZERO_CSUM6) | \
		     VXGBP_RB(VXGBP_R_IP_CSUM) | VXGBP_RB(VXGBP_R_FRAGMENT) | \
		     VXGBP_RB(VXGBP_R_SPORT_RANGE) | VXGBP_RB(VXGBP_R_OUTER_TTL) | \
		     VXGBP_RB(VXGBP_R_CSUM_OFFLOAD) | VXGBP_RB(VXGBP_R_GSO_LENGTH))

/* b, parsed from byte off of what a was parsed from, has a's inner layers
 * (offsets off less), error, and findings (but the outer ones). */
static void same_from(const struct vxgbp_pkt *a, const struct vxgbp_pkt *b, int off,
		      int with_vx)
{
	struct vxgbp_layers in = a->inner;
	int *o[] = { &in.l2.off, &in.l3.off, &in.l3.opt_off, &in.l3.cipso_off,
		     &in.l3.calipso_off, &in.l4.off };
	uint64_t mask = ~OUTER_RULES;

	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++)
		if (*o[i] >= 0)
			*o[i] -= off;
	if (!with_vx) /* the header's own rules, as it was read */
		mask &= ~(a->vx_kind == VXGBP_VX_GPE ? vxgbp_gpe_check(&a->vx, 1)
						     : vxgbp_hdr_check(&a->vx));
	if (a->outer.l3.cipso_off >= 0 || a->outer.l3.calipso_off >= 0)
		return; /* outer label findings are mixed in: compared in the unit test */
	if (memcmp(&in, &b->inner, sizeof(in)) || ((a->findings ^ b->findings) & mask) ||
	    a->err != b->err || (a->err && b->err_off != a->err_off - off) ||
	    (with_vx && memcmp(&a->vx, &b->vx, sizeof(a->vx))))
		abort();
}

static void entry_points_agree(const uint8_t *f, size_t n, size_t wire,
			       const struct vxgbp_parse_opts *o)
{
	struct vxgbp_parse_opts og = *o;
	struct vxgbp_pkt a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	size_t off, wend, uend;

	og.flags |= VXGBP_PARSE_GENERIC;
	vxgbp_pkt_parse(&a, f, n, wire, &og);
	if (!(a.have & VXGBP_HAVE_VXLAN) || a.outer.l3.more_frags || a.outer.l3.frag_off)
		return;
	off = (size_t)a.vxlan_off;
	wend = (size_t)a.outer.l4.off + a.outer.l4.len;
	uend = n < wend ? n : wend;
	og = *o;
	if (vxgbp_udp_kind(o, a.outer.l4.dport) == VXGBP_UDP_GPE)
		og.flags |= VXGBP_PARSE_GPE; /* it came to the GPE port */
	vxgbp_pkt_parse_vxlan(&b, f + off, uend - off, wend - off, &og);
	same_from(&a, &b, (int)off, 1);
	if (a.have & VXGBP_HAVE_INNER_L2) {
		off = (size_t)a.inner.l2.off;
		vxgbp_pkt_parse_inner(&b, f + off, uend - off, wend - off, o);
		same_from(&a, &b, (int)off, 0);
	}
}

/* The tunnel layers and nested headers point into the frame, in order. */
static void check_walk(const uint8_t *f, size_t n, const struct vxgbp_pkt *p)
{
	int last = -1;

	if (p->n_encap > VXGBP_MAX_ENCAP || p->n_nested > VXGBP_MAX_NESTED)
		abort();
	for (unsigned i = 0; i < p->n_encap; i++) {
		const struct vxgbp_encap *e = &p->encap[i];

		check_off(e->off, n);
		if (e->off <= last || !vxgbp_encap_get(e->kind) ||
		    (size_t)e->off + e->hdr_len > n)
			abort();
		last = e->off;
	}
	if (p->n_encap && p->vxlan_off >= 0 && p->vxlan_off <= last)
		abort();
	for (unsigned i = 0; i < p->n_nested; i++) {
		const struct vxgbp_nested *x = &p->nested[i];

		check_off(x->off, n);
		if (x->off < p->vxlan_off + VXGBP_HDR_LEN || (size_t)x->off + VXGBP_HDR_LEN > n)
			abort();
		check_layers(f, n, &x->inner);
	}
}

/* VXGBP_PARSE_SUMMARY's fields (vxgbp.h) equal the full parse's (p, r). */
static void summary_agrees(const uint8_t *f, size_t n, size_t wire,
			   const struct vxgbp_parse_opts *o, const struct vxgbp_pkt *p, int r)
{
	struct vxgbp_parse_opts os = *o;
	const struct vxgbp_l2 *a2 = &p->inner.l2, *b2;
	const struct vxgbp_l3 *a3 = &p->inner.l3, *b3;
	struct vxgbp_pkt *q = malloc(sizeof(*q));

	if (!q)
		return;
	memset(q, 0xa5, sizeof(*q)); /* what it leaves alone stays garbage (and
				      the padding: compare members) */
	q->size = sizeof(*q);
	os.flags |= VXGBP_PARSE_SUMMARY;
	b2 = &q->inner.l2;
	b3 = &q->inner.l3;
	if (vxgbp_pkt_parse(q, f, n, wire, &os) != r || q->caplen != p->caplen ||
	    q->wirelen != p->wirelen || q->have != p->have || q->err != p->err ||
	    q->err_layer != p->err_layer || q->vxlan_off != p->vxlan_off ||
	    q->vx.flags != p->vx.flags || q->vx.group != p->vx.group ||
	    q->vx.vni != p->vx.vni || q->vx.rsvd != p->vx.rsvd || q->vx_kind != p->vx_kind ||
	    q->n_encap != p->n_encap || q->n_nested != p->n_nested ||
	    q->has_cooked != p->has_cooked)
		abort();
	if (b2->off != a2->off || b2->src != a2->src || b2->dst != a2->dst ||
	    b2->ethertype != a2->ethertype || b2->n_vlan != a2->n_vlan ||
	    b3->off != a3->off || b3->version != a3->version || b3->src != a3->src ||
	    b3->dst != a3->dst || b3->arp_spa != a3->arp_spa || b3->arp_tpa != a3->arp_tpa)
		abort();
	free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vxgbp_parse_opts o;
	struct vxgbp_pkt p = { .size = sizeof(p) };
	uint8_t *f;
	size_t n, wire;
	int r;

	if (size < 1)
		return 0;
	n = size - 1;
	vxgbp_parse_opts_init(&o);
	o.linktype = links[data[0] & 7];
	if (data[0] & 0x20)
		o.flags |= VXGBP_PARSE_NO_DEFAULT_PORTS;
	if (data[0] & 0x08)
		o.flags |= VXGBP_PARSE_NO_CSUM;
	if (data[0] & 0x10)
		vxgbp_parse_opts_add_port(&o, 4790);
	wire = data[0] & 0x40 ? n + 100 : n;
	if (!(f = malloc(n ? n : 1)))
		return 0;
	memcpy(f, data + 1, n);
	r = vxgbp_pkt_parse(&p, f, n, wire, &o);
	if (r != p.err || (r && (!p.err_layer || p.err_off < 0 || (size_t)p.err_off > n)))
		abort();
	if (r != 0 && r != VXGBP_E_TRUNCATED && r != VXGBP_E_MALFORMED &&
	    r != VXGBP_E_UNSUPPORTED)
		abort();
	/* the one-pass parser of the common shape (pkt_fast.c) and the
	 * layer-by-layer one give the same struct */
	{
		struct vxgbp_parse_opts og = o;
		struct vxgbp_pkt q = { .size = sizeof(q) };

		og.flags |= VXGBP_PARSE_GENERIC;
		if (vxgbp_pkt_parse(&q, f, n, wire, &og) != r ||
		    memcmp(&p, &q, offsetof(struct vxgbp_pkt, encap)) ||
		    memcmp(p.encap, q.encap, p.n_encap * sizeof(p.encap[0])) ||
		    memcmp(p.nested, q.nested, p.n_nested * sizeof(p.nested[0])))
			abort();
	}
	check_walk(f, n, &p);
	summary_agrees(f, n, wire, &o, &p, r);
	entry_points_agree(f, n, wire, &o);
	check_layers(f, n, &p.outer);
	check_layers(f, n, &p.inner);
	check_off(p.vxlan_off, n);
	if (p.have & VXGBP_HAVE_VXLAN) {
		struct vxgbp_hdr h;

		if (p.vxlan_off < 0 || (size_t)p.vxlan_off + VXGBP_HDR_LEN > n)
			abort();
		/* the decoded header is the one at vxlan_off */
		vxgbp_hdr_decode(&h, f + p.vxlan_off, VXGBP_HDR_LEN);
		if (memcmp(&h, &p.vx, sizeof(h)) && (h.flags != p.vx.flags || h.group != p.vx.group ||
						      h.vni != p.vx.vni || h.rsvd != p.vx.rsvd))
			abort();
	}
	/* the parser's fast checksums agree with the plain RFC 1071 helper */
	if (p.udp_csum_ok >= 0) {
		const struct vxgbp_l3 *l3 = &p.outer.l3;
		size_t alen = l3->version == 6 ? 16 : 4;
		uint8_t ph[8] = { 0, 0, 0, 0, (uint8_t)(p.outer.l4.len >> 8),
				  (uint8_t)p.outer.l4.len, 0, 17 };
		uint32_t sum;

		if (p.outer.l4.off < 0 || (size_t)p.outer.l4.off + p.outer.l4.len > n)
			abort();
		sum = vxgbp_csum_add(0, l3->src, alen);
		sum = vxgbp_csum_add(sum, l3->dst, alen);
		sum = vxgbp_csum_add(sum, ph, 8);
		sum = vxgbp_csum_add(sum, f + p.outer.l4.off, p.outer.l4.len);
		if ((vxgbp_csum_fold(sum) == 0) != p.udp_csum_ok)
			abort();
	}
	if (p.ip_csum_ok >= 0 && p.outer.l3.version == 4 &&
	    (vxgbp_csum_fold(vxgbp_csum_add(0, f + p.outer.l3.off, p.outer.l3.hdr_len)) == 0) !=
		    p.ip_csum_ok)
		abort();
	/* the label parsers on what the frame parser located */
	for (int lvl = 0; lvl < 2; lvl++) {
		const struct vxgbp_l3 *l3 = lvl ? &p.inner.l3 : &p.outer.l3;

		if (l3->cipso_off >= 0) {
			struct vxgbp_cipso c;

			vxgbp_cipso_parse(&c, f + l3->cipso_off, n - (size_t)l3->cipso_off);
		}
		if (l3->calipso_off >= 0) {
			struct vxgbp_calipso c;

			vxgbp_calipso_parse(&c, f + l3->calipso_off, n - (size_t)l3->calipso_off);
		}
	}
	free(f);
	return 0;
}
