// SPDX-License-Identifier: BSD-2-Clause
/*
 * print_text.c - one tcpdump-like line per frame:
 *
 *   22:13:20.000001 IP 192.0.2.1.49152 > 192.0.2.2.4789: VXLAN-GBP vni 100
 *     flags [G,I,D] group 512 (0x0200) web: IP 198.51.100.1 > 198.51.100.2:
 *     ICMP echo request, id 1, seq 1
 *
 * (one line; wrapped here).  -e adds the link-level headers of the outer
 * and inner frames, -v adds IP details, the Linux mark and verdicts and
 * every finding, the cross-frame ones of libvxgbp's tracker after the
 * frame's own; without -v only the frame's MUST-level findings are shown.
 */
#include <string.h>
#include <time.h>

#include "labels.h"
#include "print.h"

void print_init(struct gd_print *pp)
{
	memset(pp, 0, sizeof(*pp));
	pp->local_sec = -1;
	pp->utc_sec = -1;
	pp->flags_word = -1;
}

static void print_time(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec)
{
	if (pp->tmode == GD_TIME_NONE)
		return;
	if (pp->tmode == GD_TIME_EPOCH) {
		out_i64(o, rec->sec);
	} else {
		if (rec->sec != pp->local_sec) {
			time_t t = (time_t)rec->sec;
			struct tm tm;
			if (!localtime_r(&t, &tm))
				pp->local_len = 0;
			else if (pp->tmode == GD_TIME_DATE)
				pp->local_len = strftime(pp->local_buf, sizeof(pp->local_buf),
							 "%Y-%m-%d %H:%M:%S", &tm);
			else
				pp->local_len = strftime(pp->local_buf, sizeof(pp->local_buf),
							 "%H:%M:%S", &tm);
			pp->local_sec = rec->sec;
		}
		out_write(o, pp->local_buf, pp->local_len);
	}
	out_putc(o, '.');
	out_dec_pad(o, rec->nsec / 1000, 6);
	out_putc(o, ' ');
}

static const char *ethertype_name(uint16_t et)
{
	switch (et) {
	case 0x0800:
		return "IPv4";
	case 0x86dd:
		return "IPv6";
	case 0x0806:
		return "ARP";
	case 0x8100:
		return "802.1Q";
	case 0x88a8:
		return "802.1ad";
	default:
		return NULL;
	}
}

/* tcpdump -e: "smac > dmac, [vlan 10, p 0, ]ethertype IPv4 (0x0800), length N: " */
static void print_l2(struct gd_out *o, const struct vxgbp_l2 *l2, uint32_t len)
{
	const char *n;

	if (l2->off < 0 || !l2->src)
		return;
	out_mac(o, l2->src);
	out_str(o, " > ");
	out_mac(o, l2->dst);
	out_str(o, ", ");
	for (unsigned i = 0; i < l2->n_vlan; i++) {
		out_str(o, l2->vlan_tpid[i] == 0x88a8 ? "802.1ad vlan " : "vlan ");
		out_u64(o, l2->vlan_tci[i] & 0x0fff);
		out_str(o, ", p ");
		out_u64(o, l2->vlan_tci[i] >> 13);
		out_str(o, ", ");
	}
	out_str(o, "ethertype ");
	if ((n = ethertype_name(l2->ethertype))) {
		out_str(o, n);
		out_str(o, " (0x");
	} else {
		out_str(o, "Unknown (0x");
	}
	out_hex(o, l2->ethertype, 4);
	out_str(o, "), length ");
	out_u64(o, len);
	out_str(o, ": ");
}

static void print_tcp_flags(struct gd_out *o, uint8_t f)
{
	static const struct {
		uint8_t bit;
		char c;
	} names[] = { { 0x01, 'F' }, { 0x02, 'S' }, { 0x04, 'R' }, { 0x08, 'P' },
		      { 0x10, '.' }, { 0x20, 'U' }, { 0x40, 'E' }, { 0x80, 'W' } };

	out_str(o, "Flags [");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f & names[i].bit)
			out_putc(o, names[i].c);
	if (!f)
		out_str(o, "none");
	out_putc(o, ']');
}

static void print_icmp(struct gd_out *o, const struct vxgbp_l4 *l4)
{
	int v6 = l4->proto == 58;
	uint8_t t = l4->icmp_type;

	out_str(o, v6 ? "ICMP6" : "ICMP");
	if ((!v6 && (t == 8 || t == 0)) || (v6 && (t == 128 || t == 129))) {
		out_str(o, (t == 8 || t == 128) ? " echo request" : " echo reply");
		out_str(o, ", id ");
		out_u64(o, l4->sport);
		out_str(o, ", seq ");
		out_u64(o, l4->dport);
		return;
	}
	out_str(o, " type ");
	out_u64(o, t);
	out_str(o, " code ");
	out_u64(o, l4->icmp_code);
}

/* "ethertype IPv4" for a level without L3. */
static void print_ethertype(struct gd_out *o, uint16_t et)
{
	const char *n = ethertype_name(et);

	out_str(o, "ethertype ");
	if (n) {
		out_str(o, n);
	} else {
		out_str(o, "0x");
		out_hex(o, et, 4);
	}
}

static void print_arp(struct gd_out *o, const struct vxgbp_l3 *l3)
{
	out_str(o, "ARP, ");
	if (l3->arp_op == 1 && l3->arp_tpa && l3->arp_spa) {
		out_str(o, "Request who-has ");
		out_addr(o, l3->arp_tpa, 4);
		out_str(o, " tell ");
		out_addr(o, l3->arp_spa, 4);
	} else if (l3->arp_op == 2 && l3->arp_spa) {
		out_str(o, "Reply ");
		out_addr(o, l3->arp_spa, 4);
	} else {
		out_str(o, "op ");
		out_u64(o, l3->arp_op);
	}
}

/* -v: "(ttl 64, id 0, DF, length 78) " */
static void print_ip_details(struct gd_out *o, const struct vxgbp_l3 *l3)
{
	out_str(o, "(ttl ");
	out_u64(o, l3->ttl);
	if (l3->version == 4) {
		out_str(o, ", id ");
		out_u64(o, l3->ip_id);
	} else if (l3->flow_label) {
		out_str(o, ", flowlabel 0x");
		out_hex(o, l3->flow_label, 5);
	}
	if (l3->tos) {
		out_str(o, ", tos 0x");
		out_hex(o, l3->tos, 1);
	}
	if (l3->dont_frag)
		out_str(o, ", DF");
	if (l3->more_frags || l3->frag_off) {
		out_str(o, ", frag ");
		out_u64(o, l3->frag_off);
		if (l3->more_frags)
			out_putc(o, '+');
	}
	out_str(o, ", length ");
	out_u64(o, l3->tot_len);
	out_str(o, ") ");
}

/* What follows "a > b: " in an inner frame: TCP flags, UDP length, ICMP,
 * a fragment or an unknown protocol. */
static void print_l4(struct gd_out *o, const struct vxgbp_l3 *l3, const struct vxgbp_l4 *l4,
		     int verbose)
{
	if (l4->off < 0) {
		if (l3->frag_off) {
			out_str(o, "fragment, offset ");
			out_u64(o, l3->frag_off);
		} else {
			out_str(o, "proto ");
			out_u64(o, l3->proto);
		}
		return;
	}
	switch (l4->proto) {
	case 6:
		print_tcp_flags(o, l4->tcp_flags);
		if (verbose) {
			out_str(o, ", seq ");
			out_u64(o, l4->tcp_seq);
			out_str(o, ", ack ");
			out_u64(o, l4->tcp_ack);
		}
		break;
	case 17:
		out_str(o, "UDP, length ");
		out_u64(o, l4->len >= 8 ? l4->len - 8u : 0);
		break;
	default:
		print_icmp(o, l4);
		break;
	}
}

/* "IP a.p > b.q: <l4>" for one level. */
static void print_l3_l4(struct gd_out *o, const uint8_t *frame, const struct vxgbp_layers *ls,
			int verbose, int is_outer)
{
	const struct vxgbp_l3 *l3 = &ls->l3;
	const struct vxgbp_l4 *l4 = &ls->l4;
	size_t alen = l3->version == 6 ? 16 : 4;
	int ports = l4->off >= 0 && (l4->proto == 6 || l4->proto == 17);

	if (l3->off < 0) {
		print_ethertype(o, ls->l2.ethertype);
		return;
	}
	if (l3->version == 0) {
		print_arp(o, l3);
		return;
	}
	out_str(o, l3->version == 6 ? "IP6 " : "IP ");
	if (verbose)
		print_ip_details(o, l3);
	out_addr(o, l3->src, alen);
	if (ports) {
		out_putc(o, '.');
		out_u64(o, l4->sport);
	}
	out_str(o, " > ");
	out_addr(o, l3->dst, alen);
	if (ports) {
		out_putc(o, '.');
		out_u64(o, l4->dport);
	}
	out_str(o, ":");
	labels_print_text(o, frame, l3, verbose);
	if (is_outer)
		return; /* the VXLAN part follows */
	out_putc(o, ' ');
	print_l4(o, l3, l4, verbose);
}

void print_flags(struct gd_out *o, struct gd_print *pp, uint16_t flags)
{
	if (pp->flags_word != flags) {
		int n = vxgbp_flags_format(pp->flags_buf, sizeof(pp->flags_buf), flags,
					   VXGBP_FLAGSET_DRAFT);

		pp->flags_len = n > 0 ? n : 0;
		pp->flags_word = flags;
	}
	out_putc(o, '[');
	out_write(o, pp->flags_buf, (size_t)pp->flags_len);
	out_putc(o, ']');
}

static void print_findings(struct gd_out *o, uint64_t f, int all)
{
	/* only the set bits, lowest rule first (most frames have none) */
	for (; f; f &= f - 1) {
		unsigned r = (unsigned)__builtin_ctzll(f);
		const struct vxgbp_rule_info *ri;

		if (r >= VXGBP_R__COUNT || !(ri = vxgbp_rule_get(r)))
			continue;
		if (!all && ri->level != VXGBP_LEVEL_MUST)
			continue;
		if (r == VXGBP_R_TRUNCATED || r == VXGBP_R_MALFORMED)
			continue; /* shown as [|layer] / [malformed ...] */
		out_str(o, " [!");
		out_str(o, ri->id);
		out_putc(o, ']');
	}
}

static void print_vxlan(struct gd_out *o, struct gd_print *pp, const struct vxgbp_pkt *p)
{
	const struct vxgbp_hdr *h = &p->vx;

	out_str(o, vxgbp_hdr_has_gbp(h) ? " VXLAN-GBP vni " : " VXLAN vni ");
	out_u64(o, h->vni);
	out_str(o, " flags ");
	print_flags(o, pp, h->flags);
	if (vxgbp_hdr_has_gbp(h)) {
		const char *name = vxgbp_groups_name(pp->groups, h->group);

		out_str(o, " group ");
		out_u64(o, h->group);
		out_str(o, " (0x");
		out_hex(o, h->group, 4);
		out_putc(o, ')');
		if (name) {
			out_putc(o, ' ');
			out_str(o, name);
		}
	} else if (h->group) {
		out_str(o, " id-field 0x");
		out_hex(o, h->group, 4);
	}
	if (h->rsvd) {
		out_str(o, " rsvd 0x");
		out_hex(o, h->rsvd, 2);
	}
	if (pp->verbose) {
		struct vxgbp_verdict vg, vp;

		vxgbp_verdict_linux(h, VXGBP_DEV_GBP, &vg);
		vxgbp_verdict_linux(h, 0, &vp);
		out_str(o, " (mark 0x");
		out_hex(o, vxgbp_mark_from_hdr(h), 1);
		out_str(o, ", linux gbp: ");
		out_str(o, vg.accept ? "accept" : "drop ");
		if (!vg.accept)
			out_str(o, vxgbp_drop_name(vg.why));
		out_str(o, ", plain: ");
		out_str(o, vp.accept ? "accept" : "drop ");
		if (!vp.accept)
			out_str(o, vxgbp_drop_name(vp.why));
		out_putc(o, ')');
	}
	out_putc(o, ':');
}

void print_text(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t xf)
{
	const uint8_t *frame = rec->data;

	print_time(o, pp, rec);
	if (pp->eflag && (p->have & VXGBP_HAVE_L2))
		print_l2(o, &p->outer.l2, rec->wirelen);

	if (!(p->have & VXGBP_HAVE_L3) && !(p->have & VXGBP_HAVE_L2)) {
		if (p->err == VXGBP_E_UNSUPPORTED)
			out_str(o, "unsupported link type");
		else
			out_str(o, "[|link]");
		out_str(o, ", length ");
		out_u64(o, rec->wirelen);
		out_putc(o, '\n');
		return;
	}
	print_l3_l4(o, frame, &p->outer, pp->verbose, (p->have & VXGBP_HAVE_VXLAN) != 0);
	if (p->have & VXGBP_HAVE_VXLAN) {
		print_vxlan(o, pp, p);
		if (p->have & VXGBP_HAVE_INNER_L2) {
			out_putc(o, ' ');
			if (pp->eflag)
				print_l2(o, &p->inner.l2,
					 (uint32_t)(rec->wirelen - (uint32_t)p->inner.l2.off));
			print_l3_l4(o, frame, &p->inner, pp->verbose, 0);
		}
	}
	if (p->err == VXGBP_E_TRUNCATED) {
		out_str(o, " [|");
		out_str(o, p->err_layer ? p->err_layer : "?");
		out_putc(o, ']');
	} else if (p->err) {
		out_str(o, " [malformed ");
		out_str(o, p->err_layer ? p->err_layer : "?");
		out_str(o, " at offset ");
		out_u64(o, (uint64_t)(p->err_off < 0 ? 0 : p->err_off));
		out_putc(o, ']');
	}
	if (p->have & VXGBP_HAVE_VXLAN) {
		print_findings(o, p->findings, pp->verbose > 0);
		if (pp->verbose)
			print_findings(o, xf, 1); /* the tracker's, after the frame's own */
	}
	/* The frame length, where nothing on the line gave a length (-e
	 * prints it with the link header). */
	if (!pp->eflag && (p->err || (!(p->have & VXGBP_HAVE_VXLAN) &&
				      !(p->outer.l4.off >= 0 && p->outer.l4.proto == 17)))) {
		out_str(o, ", length ");
		out_u64(o, rec->wirelen);
	}
	out_putc(o, '\n');
}
