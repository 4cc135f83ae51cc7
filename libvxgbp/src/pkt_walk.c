// SPDX-License-Identifier: BSD-2-Clause
/*
 * pkt_walk.c - where the parse goes, from the link header to the last
 * VXLAN header:
 *
 *   link  ->  outer layers  ->  [tunnel -> outer layers]*  ->  VXLAN | GPE
 *         ->  inner frame   ->  [UDP to a VXLAN port -> VXLAN -> frame]*
 *
 * Tunnels before the first VXLAN header (GRE, ERSPAN, Geneve, IP in IP,
 * MPLS: pkt_tunnel.c) are recorded in p->encap[], outermost first; each
 * time the walk enters one, p->outer starts again, so that in the end it
 * holds the layers that deliver the VXLAN packet (the outer rules judge
 * those, not a mirror's).  Inside the first VXLAN header's frame, a UDP
 * datagram to a VXLAN or GPE port is nested VXLAN: p->nested[].  Both
 * walks are bounded (VXGBP_MAX_ENCAP, VXGBP_MAX_NESTED; past the bound,
 * tunnel.depth).  Which UDP port means what is vxgbp_udp_kind(): one rule.
 */
#include <stddef.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "cursor.h"
#include "pkt.h"

#define ETH_P_NSH 0x894f
#define FRAME_RULES (VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED))

/* A new tunnel layer, delivered by what p->outer holds now; NULL (and
 * tunnel.depth) when the walk is as deep as it goes. */
static struct vxgbp_encap *encap_push(struct vxgbp_pkt *p, const struct level *lv)
{
	const struct vxgbp_layers *o = &p->outer;
	struct vxgbp_encap *e;

	if (p->n_encap >= VXGBP_MAX_ENCAP) {
		p->findings |= VXGBP_RB(VXGBP_R_DEPTH);
		return NULL;
	}
	e = &p->encap[p->n_encap++];
	memset(e, 0, sizeof(*e));
	e->off = (int)lv->c.pos;
	if (o->l2.off >= 0) {
		e->eth_dst = o->l2.dst;
		e->eth_src = o->l2.src;
	}
	if (o->l3.off >= 0 && o->l3.version) {
		e->ip_version = o->l3.version;
		e->ip_src = o->l3.src;
		e->ip_dst = o->l3.dst;
	}
	if (o->l4.off >= 0 && o->l4.proto == IPPROTO_UDP_) {
		e->sport = o->l4.sport;
		e->dport = o->l4.dport;
	}
	return e;
}

/* The walk enters a tunnel's payload: the outer layers start again. */
static void outer_restart(struct vxgbp_pkt *p)
{
	memset(&p->outer, 0, sizeof(p->outer));
	vxgbpi_layers_init(&p->outer);
	p->have &= ~(VXGBP_HAVE_L2 | VXGBP_HAVE_L3 | VXGBP_HAVE_L4);
	p->ip_csum_ok = -1;
	p->udp_csum_ok = -1;
}

/* What the delivery of a tunnel layer of kind breaks, judged before the
 * walk enters it and the outer layers start again: its IPv4 header
 * checksum, a Geneve layer's UDP checksum (a mirror's own headers). */
static uint64_t delivery_findings(const struct vxgbp_pkt *p, unsigned kind)
{
	uint64_t f = 0;

	if (p->ip_csum_ok == 0)
		f |= VXGBP_RB(VXGBP_R_IP_CSUM);
	if (kind == VXGBP_ENCAP_GENEVE && p->udp_csum_ok == 0)
		f |= VXGBP_RB(VXGBP_R_UDP_CSUM);
	return f;
}

/* A tunnel header of type kind (VXGBP_ENCAP_IP: none of its own) at the
 * cursor, delivered by p->outer.  1 to walk on with *et, 0 to stop, or
 * p->err. */
static int enter_tunnel(struct vxgbp_pkt *p, struct level *lv, unsigned kind, uint16_t *et)
{
	struct vxgbp_encap *e = encap_push(p, lv);
	int r = 0;

	if (!e)
		return 0;
	p->encap_findings[p->n_encap - 1] = delivery_findings(p, kind);
	e->kind = (uint8_t)kind; /* named even when its header is cut short */
	switch (kind) {
	case VXGBP_ENCAP_GRE:
		r = vxgbpi_parse_gre(p, lv, e, et);
		break;
	case VXGBP_ENCAP_GENEVE:
		r = vxgbpi_parse_geneve(p, lv, e, et);
		break;
	case VXGBP_ENCAP_MPLS:
		r = vxgbpi_parse_mpls(p, lv, e, et);
		break;
	default: /* IP in IP: *et is the inner IP version's */
		e->kind = VXGBP_ENCAP_IP;
		e->proto = *et;
		break;
	}
	if (r)
		return r;
	outer_restart(p);
	return *et != 0;
}

static int parse_vxlan(struct vxgbp_pkt *p, struct level *lv,
		       const struct vxgbp_parse_opts *o, int gpe_port);

/* After the outer L3/L4: VXLAN (-1 with *gpe set), a tunnel to enter (its
 * kind), or 0 for neither. */
static int next_hop(const struct vxgbp_pkt *p, const struct vxgbp_parse_opts *o, int *gpe)
{
	const struct vxgbp_layers *ls = &p->outer;
	int frag = ls->l3.more_frags || ls->l3.frag_off;

	if ((p->have & VXGBP_HAVE_L4) && ls->l4.proto == IPPROTO_UDP_) {
		switch (vxgbpi_udp_kind(o, ls->l4.dport)) {
		case VXGBP_UDP_VXLAN:
			*gpe = 0;
			return -1;
		case VXGBP_UDP_GPE:
			*gpe = 1;
			return -1;
		case VXGBP_UDP_GENEVE:
			return frag ? 0 : VXGBP_ENCAP_GENEVE;
		default:
			return 0;
		}
	}
	if (frag || !(p->have & VXGBP_HAVE_L3) || (o->flags & VXGBP_PARSE_NO_WALK))
		return 0;
	switch (ls->l3.proto) {
	case IPPROTO_GRE_:
		return VXGBP_ENCAP_GRE;
	case IPPROTO_IPIP_:
	case IPPROTO_IPV6_:
		return VXGBP_ENCAP_IP;
	}
	return 0;
}

/* VXLAN found in the outer UDP datagram.  A fragment carries only the
 * start of the inner frame: the rest is in later fragments, not an error
 * of this one. */
static int outer_vxlan(struct vxgbp_pkt *p, struct level *lv,
		       const struct vxgbp_parse_opts *o, int gpe)
{
	int r = parse_vxlan(p, lv, o, gpe);

	if (r && (p->have & VXGBP_HAVE_VXLAN) &&
	    (p->outer.l3.more_frags || p->outer.l3.frag_off)) {
		p->findings &= ~(VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED));
		p->err = 0;
		p->err_off = -1;
		p->err_layer = NULL;
		return 0;
	}
	return r;
}

/* From the network header of ethertype et to the first VXLAN header,
 * through any tunnels. */
static int walk_outer(struct vxgbp_pkt *p, struct level *lv,
		      const struct vxgbp_parse_opts *o, uint16_t et)
{
	int walk = !(o->flags & VXGBP_PARSE_NO_WALK);
	int r, hop, gpe = 0;

	for (;;) {
		if (et == ETH_P_TEB) { /* a tunnel's Ethernet payload */
			if ((r = vxgbpi_parse_eth(p, lv, &p->outer.l2)))
				return r;
			p->have |= VXGBP_HAVE_L2;
			et = p->outer.l2.ethertype;
		}
		if (walk && (et == ETH_P_MPLS_UC || et == ETH_P_MPLS_MC)) {
			if ((r = enter_tunnel(p, lv, VXGBP_ENCAP_MPLS, &et)) <= 0)
				return r;
			continue;
		}
		if ((r = vxgbpi_parse_l3_l4(p, lv, &p->outer, et)))
			return r;
		hop = next_hop(p, o, &gpe);
		if (hop < 0)
			return outer_vxlan(p, lv, o, gpe);
		if (hop == 0)
			return 0;
		et = p->outer.l3.proto == IPPROTO_IPIP_ ? ETH_P_IP : ETH_P_IPV6;
		if ((r = enter_tunnel(p, lv, (unsigned)hop, &et)) <= 0)
			return r;
	}
}

/* The frame a VXLAN header of this kind carries, into ls: Ethernet for
 * VXLAN; for GPE what the Next Protocol says (IPv4, IPv6 or Ethernet,
 * also behind NSH; MPLS and unknown protocols are not walked). */
static int parse_payload(struct vxgbp_pkt *p, struct level *lv, unsigned kind,
			 const struct vxgbp_hdr *h, struct vxgbp_layers *ls)
{
	uint16_t et = ETH_P_TEB;
	int r;

	lv->inner = 1;
	if (kind == VXGBP_VX_GPE) {
		if (!(h->flags & VXGBP_GPE_F_P))
			return 0;
		et = vxgbpi_gpe_np_ethertype(vxgbp_gpe_next_proto(h));
		if (et == ETH_P_NSH && (r = vxgbpi_parse_nsh(p, lv, &et)))
			return r;
	}
	if (et == ETH_P_TEB) {
		if ((r = vxgbpi_parse_eth(p, lv, &ls->l2)))
			return r;
		*lv->have |= VXGBP_HAVE_INNER_L2;
		if (ls->l2.n_vlan)
			p->findings |= VXGBP_RB(VXGBP_R_INNER_VLAN);
		et = ls->l2.ethertype;
	}
	return vxgbpi_parse_l3_l4(p, lv, ls, et); /* others: nothing to read */
}

/* The frame (in ls, have) carries VXLAN: the UDP datagram's kind, or 0. */
static enum vxgbp_udp_kind carries_vxlan(const struct vxgbp_layers *ls, unsigned have,
					 const struct vxgbp_parse_opts *o)
{
	enum vxgbp_udp_kind k;

	if (!(have & VXGBP_HAVE_INNER_L4) || ls->l4.proto != IPPROTO_UDP_ ||
	    ls->l3.more_frags || ls->l3.frag_off)
		return VXGBP_UDP_OTHER;
	k = vxgbpi_udp_kind(o, ls->l4.dport);
	return k == VXGBP_UDP_VXLAN || k == VXGBP_UDP_GPE ? k : VXGBP_UDP_OTHER;
}

/* One nested VXLAN header at the cursor, carried by the frame in from. */
static int parse_nested(struct vxgbp_pkt *p, struct level *lv,
			const struct vxgbp_layers *from, enum vxgbp_udp_kind k)
{
	struct vxgbp_nested *n;
	uint64_t before = p->findings, hf;
	int r;

	/* a header that is not there is no nested header: only the error */
	if ((r = vxgbpi_need(p, lv, VXGBP_HDR_LEN, "nested-vxlan")))
		return r;
	n = &p->nested[p->n_nested++];
	memset(n, 0, sizeof(*n));
	vxgbpi_layers_init(&n->inner);
	n->ip_version = from->l3.version;
	n->ip_src = from->l3.src;
	n->ip_dst = from->l3.dst;
	n->sport = from->l4.sport;
	n->dport = from->l4.dport;
	n->off = (int)lv->c.pos;
	vxgbp_hdr_decode(&n->vx, vxc_ptr_at(&lv->c, 0, VXGBP_HDR_LEN), VXGBP_HDR_LEN);
	vxc_skip(&lv->c, VXGBP_HDR_LEN);
	n->kind = k == VXGBP_UDP_GPE ? VXGBP_VX_GPE : vxgbp_vx_kind(&n->vx, 0);
	hf = n->kind == VXGBP_VX_GPE ? vxgbp_gpe_check(&n->vx, k != VXGBP_UDP_GPE)
				     : vxgbp_hdr_check(&n->vx);
	lv->have = &n->have;
	r = parse_payload(p, lv, n->kind, &n->vx, &n->inner);
	lv->have = &p->have;
	/* its own findings are its own; where the parse stopped is the
	 * frame's too (p->err) */
	n->findings = hf | (p->findings & ~before);
	p->findings = before | (p->findings & FRAME_RULES);
	return r;
}

/* VXLAN inside the first header's frame, and inside that, ... */
static int walk_nested(struct vxgbp_pkt *p, struct level *lv,
		       const struct vxgbp_parse_opts *o)
{
	const struct vxgbp_layers *from = &p->inner;
	unsigned have = p->have;
	enum vxgbp_udp_kind k;
	int r;

	if (o->flags & VXGBP_PARSE_NO_WALK)
		return 0;
	while ((k = carries_vxlan(from, have, o)) != VXGBP_UDP_OTHER) {
		if (p->n_nested >= VXGBP_MAX_NESTED) {
			p->findings |= VXGBP_RB(VXGBP_R_DEPTH);
			return 0;
		}
		if ((r = parse_nested(p, lv, from, k)))
			return r;
		from = &p->nested[p->n_nested - 1].inner;
		have = p->nested[p->n_nested - 1].have;
	}
	return 0;
}

/* The VXLAN header at the cursor, the frame it carries and VXLAN nested
 * in it.  gpe_port: it came to the GPE port. */
static int parse_vxlan(struct vxgbp_pkt *p, struct level *lv,
		       const struct vxgbp_parse_opts *o, int gpe_port)
{
	int r;

	if ((r = vxgbpi_need(p, lv, VXGBP_HDR_LEN, "vxlan")))
		return r;
	p->vxlan_off = (int)lv->c.pos;
	vxgbp_hdr_decode(&p->vx, vxc_ptr_at(&lv->c, 0, VXGBP_HDR_LEN), VXGBP_HDR_LEN);
	vxc_skip(&lv->c, VXGBP_HDR_LEN);
	p->have |= VXGBP_HAVE_VXLAN;
	p->vx_kind = gpe_port ? VXGBP_VX_GPE : vxgbp_vx_kind(&p->vx, 0);
	vxgbpi_vxlan_findings(p, gpe_port);
	if ((r = parse_payload(p, lv, p->vx_kind, &p->vx, &p->inner)))
		return r;
	return walk_nested(p, lv, o);
}

/* What vxgbp_parse_opts_init() gives (Ethernet, the default ports): the
 * options of a caller that passes none.  Constant. */
static const struct vxgbp_parse_opts default_opts = {
	.size = sizeof(struct vxgbp_parse_opts), .linktype = VXGBP_LINK_ETHERNET,
};

/* Start a parse: p cleared, lengths recorded (wirelen never below caplen).
 * VXGBP_E_INVAL for a buffer the parser cannot take. */
static int start(struct vxgbp_pkt *p, struct level *lv, const void *buf, size_t caplen,
		 size_t *wirelen, const struct vxgbp_parse_opts *opts)
{
	vxgbpi_pkt_init(p);
	if (caplen > UINT32_MAX || (buf == NULL && caplen))
		return vxgbpi_fail(p, VXGBP_E_INVAL, 0, "frame");
	if (*wirelen < caplen)
		*wirelen = caplen;
	p->caplen = (uint32_t)caplen;
	p->wirelen = *wirelen > UINT32_MAX ? UINT32_MAX : (uint32_t)*wirelen;
	vxc_init(&lv->c, buf, caplen);
	lv->wire_end = *wirelen;
	lv->inner = 0;
	lv->no_csum = (opts->flags & (VXGBP_PARSE_NO_CSUM | VXGBP_PARSE_SUMMARY)) != 0;
	lv->have = &p->have;
	return 0;
}

/* The summary's path goes on to the full parse itself (a tail call both
 * ways): a dispatch that called the summary and then decided would keep
 * the full parse's registers and frame.  The summary checks the buffer
 * itself (a NULL frame, caplen over UINT32_MAX and wirelen below caplen:
 * pkt_fast.c), with the checks it makes anyway, not again here. */
int vxgbp_pkt_parse(struct vxgbp_pkt *p, const void *frame, size_t caplen,
		    size_t wirelen, const struct vxgbp_parse_opts *opts)
{
	int r;

	if ((r = vxgbpi_pkt_size(p)))
		return r;
	if (!opts)
		opts = &default_opts;
	else if ((r = vxgbpi_opts_size(opts)))
		return r;
	if ((opts->flags & (VXGBP_PARSE_SUMMARY | VXGBP_PARSE_GENERIC)) == VXGBP_PARSE_SUMMARY &&
	    opts->linktype == VXGBP_LINK_ETHERNET)
		return vxgbpi_parse_summary(p, frame, caplen, wirelen, opts);
	return vxgbpi_parse_walk(p, frame, caplen, wirelen, opts, 1);
}

int vxgbpi_parse_walk(struct vxgbp_pkt *p, const void *frame, size_t caplen, size_t wirelen,
		      const struct vxgbp_parse_opts *opts, int fast)
{
	struct level lv;
	uint16_t et = 0;
	int r;

	if ((r = start(p, &lv, frame, caplen, &wirelen, opts)))
		return r;
	if (fast && opts->linktype == VXGBP_LINK_ETHERNET && !(opts->flags & VXGBP_PARSE_GENERIC) &&
	    vxgbpi_parse_fast(p, frame, caplen, wirelen, opts))
		return 0; /* the common shape, in one pass (pkt_fast.c) */
	if ((r = vxgbpi_parse_link(p, &lv, opts->linktype, &et)))
		return r;
	return walk_outer(p, &lv, opts, et);
}

int vxgbp_pkt_parse_vxlan(struct vxgbp_pkt *p, const void *buf, size_t caplen,
			  size_t wirelen, const struct vxgbp_parse_opts *opts)
{
	struct level lv;
	int r;

	if ((r = vxgbpi_pkt_size(p)))
		return r;
	if (!opts)
		opts = &default_opts;
	else if ((r = vxgbpi_opts_size(opts)))
		return r;
	if ((r = start(p, &lv, buf, caplen, &wirelen, opts)))
		return r;
	return parse_vxlan(p, &lv, opts, (opts->flags & VXGBP_PARSE_GPE) != 0);
}

int vxgbp_pkt_parse_inner(struct vxgbp_pkt *p, const void *buf, size_t caplen,
			  size_t wirelen, const struct vxgbp_parse_opts *opts)
{
	struct level lv;
	int r;

	if ((r = vxgbpi_pkt_size(p)))
		return r;
	if (!opts)
		opts = &default_opts;
	else if ((r = vxgbpi_opts_size(opts)))
		return r;
	if ((r = start(p, &lv, buf, caplen, &wirelen, opts)))
		return r;
	if ((r = parse_payload(p, &lv, VXGBP_VX_VXLAN, NULL, &p->inner)))
		return r;
	return walk_nested(p, &lv, opts);
}
