// SPDX-License-Identifier: BSD-2-Clause
/*
 * print/text.c - one tcpdump-like line per frame:
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
	/* The time caches start as what formatting a second no date can hold
	 * leaves them: an empty prefix, and JSON's fallback date made by
	 * print/json.c itself (a frame at that very second, which an extreme
	 * pcapng time stamp gives, prints what it would anyway).  A key of -1
	 * with empty text printed second -1 (1969-12-31 23:59:59) as nothing
	 * when it was a thread's first frame: -j N differed. */
	pp->local_sec = INT64_MIN;
	print_json_init(pp);
}

/* The cached "HH:MM:SS" (or -tttt's date and time) of second sec: formatting
 * a date is slow, and consecutive frames mostly share their second. */
static void local_prefix(struct gd_print *pp, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (!localtime_r(&t, &tm))
		pp->local_len = 0;
	else if (pp->tmode == GD_TIME_DATE)
		pp->local_len = strftime(pp->local_buf, sizeof(pp->local_buf),
					 "%Y-%m-%d %H:%M:%S", &tm);
	else
		pp->local_len = strftime(pp->local_buf, sizeof(pp->local_buf), "%H:%M:%S", &tm);
	pp->local_sec = sec;
}

/* "22:13:20.000001 ": the cached prefix as one fixed-size copy (the whole
 * buffer; the cursor then moves by its length), the microseconds as three
 * two-digit pairs (lw_dec6). */
static inline char *lw_time(char *d, struct gd_print *pp, const struct gd_rec *rec)
{
	uint32_t us = rec->nsec / 1000;

	if (pp->tmode == GD_TIME_EPOCH) {
		if (rec->sec < 0)
			d = lw_u64(lw_c(d, '-'), (uint64_t)0 - (uint64_t)rec->sec);
		else
			d = lw_u64(d, (uint64_t)rec->sec);
	} else {
		if (rec->sec != pp->local_sec)
			local_prefix(pp, rec->sec);
		memcpy(d, pp->local_buf, sizeof(pp->local_buf));
		d += pp->local_len;
	}
	if (us >= 1000000)
		us %= 1000000; /* out_dec_pad's v mod 10^6 */
	d = lw_dec6(lw_c(d, '.'), us);
	return lw_c(d, ' ');
}

static void print_time(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec)
{
	if (pp->tmode == GD_TIME_NONE)
		return;
	/* the prefix (< 32), a sign and 20 digits, ".uuuuuu " */
	out_commit(o, lw_time(out_reserve(o, sizeof(pp->local_buf) + 32), pp, rec));
}

/* tcpdump's names (ethertype_values) of the ethertypes a frame here carries. */
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
		return "802.1Q-QinQ";
	case 0x9100:
		return "802.1Q-9100";
	case 0x8847:
		return "MPLS unicast";
	case 0x8848:
		return "MPLS multicast";
	default:
		return NULL;
	}
}

/* "ethertype IPv4 (0x0800)", tcpdump -e's words. */
static void print_ethertype_e(struct gd_out *o, uint16_t et)
{
	const char *n = ethertype_name(et);

	out_str(o, "ethertype ");
	out_str(o, n ? n : "Unknown");
	out_str(o, " (0x");
	out_hex(o, et, 4);
	out_putc(o, ')');
}

/* tcpdump -e: "smac > dmac, ethertype IPv4 (0x0800), length N: "; with VLAN
 * tags the first ethertype is the tag's TPID and each tag follows the
 * length: "..., ethertype 802.1Q (0x8100), length N: vlan 10, p 0,
 * ethertype IPv4 (0x0800), ".  A frame with no link header of its own
 * (a raw IP capture) gets tcpdump's "ip: ". */
static void print_l2(struct gd_out *o, const struct vxgbp_l2 *l2, uint32_t len)
{
	if (l2->off < 0 || !l2->src)
		return;
	out_mac(o, l2->src);
	out_str(o, " > ");
	out_mac(o, l2->dst);
	out_str(o, ", ");
	print_ethertype_e(o, l2->n_vlan ? l2->vlan_tpid[0] : l2->ethertype);
	out_str(o, ", length ");
	out_u64(o, len);
	out_str(o, ": ");
	for (unsigned i = 0; i < l2->n_vlan && i < VXGBP_MAX_VLAN; i++) {
		uint16_t tci = l2->vlan_tci[i];

		out_str(o, "vlan ");
		out_u64(o, tci & 0x0fff);
		out_str(o, ", p ");
		out_u64(o, tci >> 13);
		if (tci & 0x1000)
			out_str(o, ", DEI");
		out_str(o, ", ");
		print_ethertype_e(o, i + 1 < l2->n_vlan ? l2->vlan_tpid[i + 1] : l2->ethertype);
		out_str(o, ", ");
	}
}

static char *lw_tcp_flags(char *d, uint8_t f)
{
	static const char names[8] = { 'F', 'S', 'R', 'P', '.', 'U', 'E', 'W' };

	d = LW_LIT(d, "Flags [");
	if (!f)
		d = LW_LIT(d, "none");
	for (unsigned i = 0; f; i++, f >>= 1)
		if (f & 1)
			*d++ = names[i];
	return lw_c(d, ']');
}

/* The bytes after the IP header(s): what tcpdump calls an ICMP or an
 * unknown protocol's length. */
static uint32_t ip_payload_len(const struct vxgbp_l3 *l3)
{
	return l3->tot_len > l3->hdr_len ? l3->tot_len - l3->hdr_len : 0;
}

/* tcpdump: "ICMP echo request, id 1, seq 1, length 8";
 * "ICMP6, echo request, id 1, seq 1, length 8" (ICMP6: no length with -v).
 * At most 60 bytes. */
static char *lw_icmp(char *d, const struct vxgbp_l3 *l3, const struct vxgbp_l4 *l4, int verbose)
{
	int v6 = l4->proto == 58;
	uint8_t t = l4->icmp_type;

	d = v6 ? LW_LIT(d, "ICMP6,") : LW_LIT(d, "ICMP");
	if ((!v6 && (t == 8 || t == 0)) || (v6 && (t == 128 || t == 129))) {
		if (t == 8 || t == 128)
			d = LW_LIT(d, " echo request, id ");
		else
			d = LW_LIT(d, " echo reply, id ");
		d = lw_u32(d, l4->sport);
		d = lw_u32(LW_LIT(d, ", seq "), l4->dport);
	} else {
		d = lw_u32(LW_LIT(d, " type "), t);
		d = lw_u32(LW_LIT(d, " code "), l4->icmp_code);
	}
	if (!v6 || !verbose)
		d = lw_u32(LW_LIT(d, ", length "), ip_payload_len(l3));
	return d;
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

/* tcpdump: "ARP, Request who-has A tell B, length 28", "ARP, Reply A
 * is-at MAC, length 28" (no "ARP, " after a -e link header; -v names the
 * hardware and protocol types first); a request that names the target's
 * hardware address gives it: "who-has A (MAC) tell B".  len: the bytes
 * from the ARP header to the frame's end. */
static void print_arp(struct gd_out *o, const struct vxgbp_l3 *l3, uint32_t len,
		      const struct gd_print *pp)
{
	static const uint8_t zero[6];

	if (!pp->eflag)
		out_str(o, "ARP, ");
	if (pp->verbose) {
		const char *pro = ethertype_name(l3->arp_pro);

		if (l3->arp_hrd == 1) {
			out_str(o, "Ethernet");
		} else {
			out_str(o, "Unknown Hardware (");
			out_u64(o, l3->arp_hrd);
			out_putc(o, ')');
		}
		out_str(o, " (len ");
		out_u64(o, l3->arp_hln);
		out_str(o, "), ");
		if (pro) {
			out_str(o, pro);
		} else {
			out_str(o, "Unknown Protocol (0x");
			out_hex(o, l3->arp_pro, 4);
			out_putc(o, ')');
		}
		out_str(o, " (len ");
		out_u64(o, l3->arp_pln);
		out_str(o, "), ");
	}
	if (l3->arp_op == 1 && l3->arp_tpa && l3->arp_spa) {
		out_str(o, "Request who-has ");
		out_addr(o, l3->arp_tpa, 4);
		if (l3->arp_tha && memcmp(l3->arp_tha, zero, 6)) {
			out_str(o, " (");
			out_mac(o, l3->arp_tha);
			out_putc(o, ')');
		}
		out_str(o, " tell ");
		out_addr(o, l3->arp_spa, 4);
	} else if (l3->arp_op == 2 && l3->arp_spa && l3->arp_sha) {
		out_str(o, "Reply ");
		out_addr(o, l3->arp_spa, 4);
		out_str(o, " is-at ");
		out_mac(o, l3->arp_sha);
	} else {
		out_str(o, "op ");
		out_u64(o, l3->arp_op);
	}
	out_str(o, ", length ");
	out_u64(o, len);
}

/* tcpdump's names of IP protocols (ipproto_values, libvxgbp's
 * vxgbp_ipproto_get()), "unknown" otherwise.  At most 8 bytes. */
static char *lw_ipproto(char *d, uint8_t proto)
{
	const struct vxgbp_ipproto_info *pi = vxgbp_ipproto_get(proto);
	size_t n = pi ? strlen(pi->name) : 0;

	if (!pi || n > 8)
		return LW_LIT(d, "unknown");
	memcpy(d, pi->name, n);
	return d + n;
}

/* lower-case hex of at least min digits: out_hex(v, min) */
static char *lw_hexmin(char *d, uint32_t v, unsigned min)
{
	char *e = lw_hex(d, v);

	if ((unsigned)(e - d) >= min)
		return e;
	return lw_hexw(d, v, min);
}

/* -v, as tcpdump: "(tos 0x0, ttl 64, id 0, offset 0, flags [DF], proto UDP
 * (17), length 78) ".  At most 140 bytes. */
static char *lw_ip4_details(char *d, const struct vxgbp_l3 *l3)
{
	static const struct {
		char s[8];
		uint8_t len;
	} ecn[4] = { { "", 0 }, { ",ECT(1)", 7 }, { ",ECT(0)", 7 }, { ",CE", 3 } };

	d = lw_hex(LW_LIT(d, "(tos 0x"), l3->tos);
	memcpy(d, ecn[l3->tos & 3].s, 8);
	d += ecn[l3->tos & 3].len;
	if (l3->ttl)
		d = lw_u32(LW_LIT(d, ", ttl "), l3->ttl);
	d = lw_u32(LW_LIT(d, ", id "), l3->ip_id);
	d = lw_u32(LW_LIT(d, ", offset "), l3->frag_off);
	d = LW_LIT(d, ", flags [");
	if (l3->more_frags)
		*d++ = '+';
	if (l3->dont_frag)
		d = LW_LIT(d, "DF");
	if (!l3->more_frags && !l3->dont_frag)
		d = LW_LIT(d, "none");
	d = lw_ipproto(LW_LIT(d, "], proto "), l3->proto);
	d = lw_u32(LW_LIT(d, " ("), l3->proto);
	d = lw_u32(LW_LIT(d, "), length "), l3->tot_len);
	return LW_LIT(d, ") ");
}

/* -v, as tcpdump: "(class 0x10, flowlabel 0x12345, hlim 64, next-header UDP
 * (17) payload length: 58) ".  The next header is the first one: Options
 * (0) when a hop-by-hop header follows the fixed header.  At most 110
 * bytes. */
static char *lw_ip6_details(char *d, const struct vxgbp_l3 *l3)
{
	uint8_t nh = l3->opt_off >= 0 ? 0 : l3->proto;

	*d++ = '(';
	if (l3->tos)
		d = LW_LIT(lw_hexmin(LW_LIT(d, "class 0x"), l3->tos, 2), ", ");
	if (l3->flow_label)
		d = LW_LIT(lw_hexmin(LW_LIT(d, "flowlabel 0x"), l3->flow_label, 5), ", ");
	d = lw_u32(LW_LIT(d, "hlim "), l3->ttl);
	d = lw_ipproto(LW_LIT(d, ", next-header "), nh);
	d = lw_u32(LW_LIT(d, " ("), nh);
	d = lw_u32(LW_LIT(d, ") payload length: "), l3->tot_len >= 40 ? l3->tot_len - 40u : 0);
	return LW_LIT(d, ") ");
}

/* tcpdump -S: "Flags [P.], seq 1:101, ack 2, win 512, length 100": the
 * sequence number when there is a payload (then where it ends) or SYN,
 * FIN or RST is set, the acknowledgment number with ACK, the urgent
 * pointer with URG.  The options are not decoded (not printed).  At most
 * 110 bytes. */
static char *lw_tcp(char *d, const struct vxgbp_l4 *l4)
{
	d = lw_tcp_flags(d, l4->tcp_flags);
	if (l4->payload_len || (l4->tcp_flags & 0x07)) {
		d = lw_u32(LW_LIT(d, ", seq "), l4->tcp_seq);
		if (l4->payload_len)
			d = lw_u32(lw_c(d, ':'), (uint32_t)(l4->tcp_seq + l4->payload_len));
	}
	if (l4->tcp_flags & 0x10)
		d = lw_u32(LW_LIT(d, ", ack "), l4->tcp_ack);
	d = lw_u32(LW_LIT(d, ", win "), l4->tcp_win);
	if (l4->tcp_flags & 0x20)
		d = lw_u32(LW_LIT(d, ", urg "), l4->tcp_urg);
	return lw_u32(LW_LIT(d, ", length "), l4->payload_len);
}

/* What follows "a > b: " in an inner frame: TCP flags, UDP length, ICMP,
 * a fragment, a header cut short ("proto 17", the error follows) or a
 * protocol the library does not decode ("ip-proto-47 62", tcpdump's
 * words).  At most 110 bytes. */
static inline char *lw_l4(char *d, const struct vxgbp_l3 *l3, const struct vxgbp_l4 *l4, int verbose)
{
	if (l4->off < 0) {
		if (l3->frag_off)
			return lw_u32(LW_LIT(d, "fragment, offset "), l3->frag_off);
		if (l3->proto == 6 || l3->proto == 17 || l3->proto == 1 || l3->proto == 58)
			return lw_u32(LW_LIT(d, "proto "), l3->proto); /* the error follows */
		d = lw_u32(LW_LIT(d, "ip-proto-"), l3->proto);
		return lw_u32(lw_c(d, ' '), ip_payload_len(l3));
	}
	switch (l4->proto) {
	case 6:
		return lw_tcp(d, l4);
	case 17:
		return lw_u32(LW_LIT(d, "UDP, length "), l4->payload_len);
	default:
		return lw_icmp(d, l3, l4, verbose);
	}
}

/* "a.b.c.d.port" or "addr" without ports: at most GD_ADDR_MAX + 6 bytes */
static char *lw_endpoint(char *d, const uint8_t *a, size_t alen, int ports, uint16_t port)
{
	d = lw_addr(d, a, alen);
	if (ports)
		d = lw_u32(lw_c(d, '.'), port);
	return d;
}

/* "IP a.p > b.q:" for one level (tcpdump leaves out "IP " after a -e link
 * header, which names the ethertype): at most L3_MAX bytes, "IP6 ", the -v
 * details, two endpoints, " > ", ":". */
#define L3_MAX (4 + 140 + 2 * (GD_ADDR_MAX + 6) + 4)
static inline char *lw_l3(char *d, const struct vxgbp_layers *ls, int verbose, int eflag)
{
	const struct vxgbp_l3 *l3 = &ls->l3;
	const struct vxgbp_l4 *l4 = &ls->l4;
	size_t alen = l3->version == 6 ? 16 : 4;
	int ports = l4->off >= 0 && (l4->proto == 6 || l4->proto == 17);

	if (!eflag)
		d = l3->version == 6 ? LW_LIT(d, "IP6 ") : LW_LIT(d, "IP ");
	if (verbose && l3->version == 6)
		d = lw_ip6_details(d, l3);
	else if (verbose)
		d = lw_ip4_details(d, l3);
	d = lw_endpoint(d, l3->src, alen, ports, l4->sport);
	d = lw_endpoint(LW_LIT(d, " > "), l3->dst, alen, ports, l4->dport);
	return lw_c(d, ':');
}

static int has_labels(const struct vxgbp_l3 *l3)
{
	return l3->cipso_off >= 0 || l3->calipso_off >= 0;
}

/* lw_l3's text, then the labels (out of the line writer: unbounded). */
static void print_l3(struct gd_out *o, const uint8_t *frame, const struct vxgbp_layers *ls,
		     int verbose, int eflag)
{
	out_commit(o, lw_l3(out_reserve(o, L3_MAX), ls, verbose, eflag));
	if (has_labels(&ls->l3))
		labels_print_text(o, frame, &ls->l3, verbose);
}

/* One level: "IP a.p > b.q: <l4>", or "ARP, ...", or "ethertype X" for a
 * level without L3; is_outer stops after the addresses (the VXLAN part
 * follows).  end: the offset where this level's frame ends. */
static void print_l3_l4(struct gd_out *o, const uint8_t *frame, const struct vxgbp_layers *ls,
			const struct gd_print *pp, int is_outer, uint32_t end)
{
	const struct vxgbp_l3 *l3 = &ls->l3;

	if (l3->off < 0) {
		print_ethertype(o, ls->l2.ethertype);
		return;
	}
	if (l3->version == 0) {
		print_arp(o, l3, end > (uint32_t)l3->off ? end - (uint32_t)l3->off : 0, pp);
		return;
	}
	print_l3(o, frame, ls, pp->verbose, pp->eflag);
	if (is_outer)
		return;
	out_commit(o, lw_l4(lw_c(out_reserve(o, 128), ' '), l3, &ls->l4, pp->verbose));
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

/* "accept" or "drop <why>" (the reason's name out of the line writer) */
static void print_verdict(struct gd_out *o, const struct vxgbp_verdict *v)
{
	if (v->accept) {
		out_write(o, "accept", 6);
	} else {
		out_write(o, "drop ", 5);
		out_str(o, vxgbp_drop_name(v->why));
	}
}

/* -v: what a Linux 6.12 VTEP does with a VXLAN(-GBP) header. */
static void print_verdicts(struct gd_out *o, const struct vxgbp_hdr *h)
{
	struct vxgbp_verdict vg, vp;
	char *d = out_reserve(o, 32);

	vxgbp_verdict_linux(h, VXGBP_DEV_GBP, &vg);
	vxgbp_verdict_linux(h, 0, &vp);
	d = lw_hex(LW_LIT(d, " (mark 0x"), vxgbp_mark_from_hdr(h));
	out_commit(o, LW_LIT(d, ", linux gbp: "));
	print_verdict(o, &vg);
	out_write(o, ", plain: ", 9);
	print_verdict(o, &vp);
	out_putc(o, ')');
}

/* " VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200) web": libvxgbp's
 * summary of the header (vxgbp_hdr_summary), the cursor moved by its
 * length.  At most SUMMARY_MAX bytes: a group name is shorter than
 * struct vxgbp_group_name's. */
#define SUMMARY_MAX (1 + VXGBP_HDR_SUMMARY_LEN + sizeof(((struct vxgbp_group_name *)0)->name))
static char *lw_summary(char *d, const struct vxgbp_hdr *h, unsigned kind, const char *name)
{
	int n = vxgbp_hdr_summary(d + 1, SUMMARY_MAX - 1, h, (enum vxgbp_vx_kind)kind,
				  VXGBP_FLAGSET_DRAFT, name);

	*d = ' ';
	return d + 1 + (n < 0 ? 0 : n < (int)SUMMARY_MAX - 1 ? n : (int)SUMMARY_MAX - 2);
}

/* The group name of a GBP header, NULL when none. */
static const char *group_name(const struct gd_print *pp, const struct vxgbp_hdr *h,
			      unsigned kind)
{
	return kind != VXGBP_VX_GPE && vxgbp_hdr_has_gbp(h) ? vxgbp_groups_name(pp->groups, h->group)
							      : NULL;
}

/* One VXLAN header: " VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200)
 * web:", " VXLAN vni 10 flags [I]:" or " VXLAN-GPE vni 10 flags [I,P]
 * next-proto Ethernet:", with -v the Linux verdicts before the colon. */
static void print_vxlan(struct gd_out *o, struct gd_print *pp, const struct vxgbp_hdr *h,
			unsigned kind)
{
	out_commit(o, lw_summary(out_reserve(o, SUMMARY_MAX), h, kind, group_name(pp, h, kind)));
	if (pp->verbose && kind != VXGBP_VX_GPE)
		print_verdicts(o, h);
	out_putc(o, ':');
}

/* tcpdump's names of what a GRE or Geneve header carries (-e). */
static const char *tunnel_proto_name(uint16_t proto)
{
	if (proto == 0x6558)
		return "TEB";
	return ethertype_name(proto);
}

/* -e: ", proto TEB (0x6558)" */
static void print_tunnel_proto(struct gd_out *o, uint16_t proto)
{
	const char *n = tunnel_proto_name(proto);

	out_str(o, ", proto ");
	out_str(o, n ? n : "unknown");
	out_str(o, " (0x");
	out_hex(o, proto, 4);
	out_putc(o, ')');
}

/* tcpdump's GRE: "GREv0, key=0x5, seq 7, length 62" (-v: the flags by
 * name first and the checksum; -e: what it carries before the length).
 * ERSPAN: the GRE header that carries it, then " ERSPAN-II session 5,
 * vlan 10". */
static void print_gre(struct gd_out *o, const struct gd_print *pp, const struct vxgbp_encap *e,
		      uint32_t len)
{
	static const char *const names[4] = { "checksum present", "routing present",
					      "key present", "sequence# present" };

	out_str(o, "GREv");
	out_u64(o, e->ver);
	if (pp->verbose) {
		const char *sep = "";

		out_str(o, ", Flags [");
		for (unsigned i = 0; i < 4; i++)
			if (e->flags & (0x8000u >> i)) {
				out_str(o, sep);
				out_str(o, names[i]);
				sep = ", ";
			}
		out_str(o, *sep ? "]" : "none]");
	}
	if (e->flags & 0xc000) { /* C or R: checksum and offset */
		if (pp->verbose) {
			out_str(o, ", sum 0x");
			out_hex(o, e->gre_csum, 1);
		}
		out_str(o, ", off 0x");
		out_hex(o, e->gre_off, 1);
	}
	if (e->has_id) {
		out_str(o, ", key=0x");
		out_hex(o, e->id, 1);
	}
	if (e->has_seq) {
		out_str(o, ", seq ");
		out_u64(o, e->seq);
	}
	if (pp->eflag)
		print_tunnel_proto(o, e->proto);
	out_str(o, ", length ");
	out_u64(o, len);
	if (e->kind == VXGBP_ENCAP_GRE)
		return;
	out_str(o, ": ");
	out_str(o, vxgbp_encap_get(e->kind) ? vxgbp_encap_get(e->kind)->name : "ERSPAN");
	if (e->kind != VXGBP_ENCAP_ERSPAN1) {
		out_str(o, " session ");
		out_u64(o, e->erspan_session);
		out_str(o, ", vlan ");
		out_u64(o, e->erspan_vlan);
	}
}

/* tcpdump's Geneve: "Geneve, Flags [C], vni 0x1388, options [12 bytes]" */
static void print_geneve(struct gd_out *o, const struct gd_print *pp, const struct vxgbp_encap *e)
{
	out_str(o, "Geneve, Flags [");
	if (e->flags & 0x0080)
		out_putc(o, 'O');
	if (e->flags & 0x0040)
		out_putc(o, 'C');
	if (!(e->flags & 0x00c0))
		out_str(o, "none");
	out_str(o, "], vni 0x");
	out_hex(o, e->id, 1);
	if (pp->eflag)
		print_tunnel_proto(o, e->proto);
	if (e->opt_len) {
		out_str(o, ", options [");
		out_u64(o, e->opt_len);
		out_str(o, " bytes]");
	}
}

/* The delivery of a tunnel layer: "IP a > b: " or "IP6 a.p > b.q: ". */
static void print_delivery(struct gd_out *o, const struct gd_print *pp, const uint8_t *src,
			   const uint8_t *dst, unsigned version, int ports, uint16_t sport,
			   uint16_t dport)
{
	size_t alen = version == 6 ? 16 : 4;

	if (!src || !dst)
		return;
	if (!pp->eflag)
		out_str(o, version == 6 ? "IP6 " : "IP ");
	out_addr(o, src, alen);
	if (ports) {
		out_putc(o, '.');
		out_u64(o, sport);
	}
	out_str(o, " > ");
	out_addr(o, dst, alen);
	if (ports) {
		out_putc(o, '.');
		out_u64(o, dport);
	}
	out_str(o, ": ");
}

/* -e: the Ethernet header before a tunnel layer's IP (or MPLS) header. */
static void print_encap_l2(struct gd_out *o, const struct vxgbp_encap *e, uint32_t len)
{
	uint16_t et = e->kind == VXGBP_ENCAP_MPLS ? 0x8847 : e->ip_version == 6 ? 0x86dd : 0x0800;

	if (!e->eth_src || !e->eth_dst)
		return;
	out_mac(o, e->eth_src);
	out_str(o, " > ");
	out_mac(o, e->eth_dst);
	out_str(o, ", ");
	print_ethertype_e(o, et);
	out_str(o, ", length ");
	out_u64(o, len);
	out_str(o, ": ");
}

/* The layers around the first VXLAN header, outermost first, each as
 * tcpdump prints it, ending in ": " or " " before what it carries. */
static void print_encaps(struct gd_out *o, const struct gd_print *pp, const struct gd_rec *rec,
			 const struct vxgbp_pkt *p)
{
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++) {
		const struct vxgbp_encap *e = &p->encap[i];
		uint32_t len = rec->wirelen > (uint32_t)e->off ? rec->wirelen - (uint32_t)e->off : 0;

		if (pp->eflag && e->eth_dst && e->eth_dst >= rec->data &&
		    e->eth_dst < rec->data + rec->caplen)
			print_encap_l2(o, e, rec->wirelen - (uint32_t)(e->eth_dst - rec->data));
		print_delivery(o, pp, e->ip_src, e->ip_dst, e->ip_version,
			       e->kind == VXGBP_ENCAP_GENEVE, e->sport, e->dport);
		switch (e->kind) {
		case VXGBP_ENCAP_GENEVE:
			print_geneve(o, pp, e);
			out_str(o, ": ");
			break;
		case VXGBP_ENCAP_IP:
			break;
		case VXGBP_ENCAP_MPLS:
			out_str(o, "MPLS (label ");
			out_u64(o, e->id);
			if (e->ver > 1) {
				out_str(o, ", ");
				out_u64(o, e->ver);
				out_str(o, " labels");
			}
			out_str(o, ") ");
			break;
		default:
			print_gre(o, pp, e, len);
			out_str(o, ": ");
			break;
		}
	}
}

/* " [|layer]" or " [malformed layer at offset N]" where the parse stopped. */
static void print_err(struct gd_out *o, const struct vxgbp_pkt *p)
{
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
}

/* A frame that carries a VXLAN header (a nested one, to[i]): its link
 * header (-e), "IP a.p > b.q:" and the header. */
static void print_carrier(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
			  const struct vxgbp_layers *ls, const struct vxgbp_hdr *h, unsigned kind)
{
	out_putc(o, ' ');
	if (pp->eflag && ls->l2.off >= 0)
		print_l2(o, &ls->l2, rec->wirelen - (uint32_t)ls->l2.off);
	if (ls->l3.off < 0)
		return;
	print_l3(o, rec->data, ls, pp->verbose, pp->eflag);
	print_vxlan(o, pp, h, kind);
}

/* The VXLAN header, the nested ones inside its frame, and the innermost
 * frame. */
static void print_vxlan_frame(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
			      const struct vxgbp_pkt *p)
{
	const struct vxgbp_layers *in = &p->inner;
	uint32_t end = rec->wirelen;

	print_vxlan(o, pp, &p->vx, p->vx_kind);
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++) {
		print_carrier(o, pp, rec, in, &p->nested[i].vx, p->nested[i].kind);
		in = &p->nested[i].inner;
	}
	if (p->nsh_off >= 0)
		out_str(o, " NSH:");
	if (in->l2.off < 0 && in->l3.off < 0)
		return;
	out_putc(o, ' ');
	/* the inner frame's length: what the UDP length gives it (tcpdump's),
	 * the rest of the capture when the UDP header is not there */
	if (!p->n_nested && p->outer.l4.off >= 0 && p->outer.l4.len >= 16)
		end = (uint32_t)p->vxlan_off + p->outer.l4.len - 8u;
	if (pp->eflag && in->l2.off >= 0)
		print_l2(o, &in->l2, end - (uint32_t)in->l2.off);
	print_l3_l4(o, rec->data, in, pp, 0, end);
}

/* tcpdump's names of a Linux cooked header's packet types. */
static const char *pkttype_name(uint16_t t)
{
	static const char *const names[] = { "In", "B", "M", "P", "Out" };

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* A Linux cooked header as tcpdump 4.99 prints it: SLL2 always gives the
 * direction ("In  "; tcpdump names the interface before it, from the
 * reading host: gbpdump does not); -e: SLL " In 02:00:00:00:00:01
 * ethertype IPv4 (0x0800), length 94: ", SLL2 "ifindex 1 ..." likewise.
 * A VLAN tag after it: "vlan 10, p 0, ethertype IPv4, " (-e), "ethertype
 * IPv4, " without. */
static void print_cooked(struct gd_out *o, const struct gd_print *pp, const struct gd_rec *rec,
			 const struct vxgbp_pkt *p)
{
	const struct vxgbp_cooked *k = &p->cooked;
	const struct vxgbp_l2 *l2 = &p->outer.l2;
	const char *pt = pkttype_name(k->pkttype);

	if (k->version == 2) {
		out_str(o, pt);
		out_write(o, "    ", 4 - (strlen(pt) < 3 ? strlen(pt) : 3)); /* "%-3s " */
	}
	if (pp->eflag) {
		if (k->version == 2) {
			out_str(o, "ifindex ");
			out_u64(o, k->ifindex);
			out_putc(o, ' ');
		} else {
			out_write(o, "   ", 3 - (strlen(pt) < 3 ? strlen(pt) : 3)); /* "%3s " */
			out_str(o, pt);
			out_putc(o, ' ');
		}
		if (k->addr_len == 6 && k->addr) {
			out_mac(o, k->addr);
			out_putc(o, ' ');
		}
		if (k->proto == 1 || k->proto == 4) {
			out_str(o, k->proto == 1 ? "802.3" : "802.2");
		} else if (k->proto <= 1500) {
			out_str(o, "ethertype Unknown (0x");
			out_hex(o, k->proto, 4);
			out_putc(o, ')');
		} else {
			print_ethertype_e(o, k->proto);
		}
		out_str(o, ", length ");
		out_u64(o, rec->wirelen);
		out_str(o, ": ");
	}
	if (p->n_encap) /* the tags were in p->outer before the tunnel */
		return;
	for (unsigned i = 0; i < l2->n_vlan && i < VXGBP_MAX_VLAN; i++) {
		uint16_t et = i + 1 < l2->n_vlan ? l2->vlan_tpid[i + 1] : l2->ethertype;
		const char *n = ethertype_name(et);

		if (pp->eflag) {
			out_str(o, "vlan ");
			out_u64(o, l2->vlan_tci[i] & 0x0fff);
			out_str(o, ", p ");
			out_u64(o, l2->vlan_tci[i] >> 13);
			if (l2->vlan_tci[i] & 0x1000)
				out_str(o, ", DEI");
			out_str(o, ", ");
		}
		out_str(o, "ethertype ");
		out_str(o, n ? n : "Unknown");
		out_str(o, ", ");
	}
}

/* -e: the link header of the frame, or of the first tunnel layer. */
static void print_link(struct gd_out *o, const struct gd_print *pp, const struct gd_rec *rec,
		       const struct vxgbp_pkt *p)
{
	if (p->has_cooked)
		print_cooked(o, pp, rec, p);
	if (p->n_encap) {
		print_encaps(o, pp, rec, p);
		if (pp->eflag && p->outer.l2.off > p->encap[p->n_encap - 1].off)
			print_l2(o, &p->outer.l2, rec->wirelen - (uint32_t)p->outer.l2.off);
	} else if (pp->eflag && (p->have & VXGBP_HAVE_L2)) {
		print_l2(o, &p->outer.l2, rec->wirelen);
	} else if (pp->eflag && p->outer.l3.off == 0) {
		out_str(o, "ip: "); /* no link header: tcpdump's raw IP */
	}
}

/* The frames most captures are made of, whole and plain, no -e nor -v, no
 * tunnel layer before them, no cooked header, no labels, no error: an IP
 * (v4 or v6) frame carrying one VXLAN(-GBP) header carrying an IP frame
 * (FAST_VXLAN, print_text_common), or an IP frame without VXLAN
 * (FAST_IP, print_text_ip).  Any other frame takes the general path.
 * Both write the same text (tests/golden): this is the general path's
 * walk, unrolled for those frames. */
enum { FAST_NONE, FAST_VXLAN, FAST_IP };

static int fast_shape(const struct gd_print *pp, const struct vxgbp_pkt *p)
{
	const struct vxgbp_l3 *out = &p->outer.l3, *in = &p->inner.l3;

	if (pp->eflag || pp->verbose || p->has_cooked || p->n_encap || p->err ||
	    !(p->have & VXGBP_HAVE_L3) || out->off < 0 || !out->version || has_labels(out))
		return FAST_NONE;
	if (!(p->have & VXGBP_HAVE_VXLAN))
		return FAST_IP;
	if (p->vx_kind != VXGBP_VX_GPE && !p->n_nested && p->nsh_off < 0 && in->off >= 0 &&
	    in->version && !has_labels(in))
		return FAST_VXLAN;
	return FAST_NONE;
}

/* The most the common line takes: the time stamp, the two levels'
 * addresses, the VXLAN header and the inner level's transport. */
#define COMMON_MAX (sizeof(((struct gd_print *)0)->local_buf) + 32 + 2 * L3_MAX + SUMMARY_MAX + 2 + 128)
_Static_assert(COMMON_MAX <= GD_RESERVE_MAX && L3_MAX <= GD_RESERVE_MAX,
	       "a reservation larger than out.h promises -j's blocks");

static inline void print_text_common(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
			      const struct vxgbp_pkt *p)
{
	char *d = out_reserve(o, COMMON_MAX);

	if (pp->tmode != GD_TIME_NONE)
		d = lw_time(d, pp, rec);
	d = lw_l3(d, &p->outer, 0, 0);
	d = lw_summary(d, &p->vx, VXGBP_VX_VXLAN, group_name(pp, &p->vx, VXGBP_VX_VXLAN));
	d = lw_l3(LW_LIT(d, ": "), &p->inner, 0, 0);
	out_commit(o, lw_l4(lw_c(d, ' '), &p->inner.l3, &p->inner.l4, 0));
	if (p->findings) /* most frames have none: no call */
		print_findings(o, p->findings, 0);
	out_putc(o, '\n');
}

/* "IP a.p > b.q: <l4>" of a frame without VXLAN: the general path's
 * print_l3_l4 for it, in one reservation with the time and the newline */
static void print_text_ip(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
			  const struct vxgbp_pkt *p)
{
	char *d = out_reserve(o, COMMON_MAX);

	if (pp->tmode != GD_TIME_NONE)
		d = lw_time(d, pp, rec);
	d = lw_l3(d, &p->outer, 0, 0);
	d = lw_l4(lw_c(d, ' '), &p->outer.l3, &p->outer.l4, 0);
	out_commit(o, lw_c(d, '\n'));
}

/* Any frame, level by level. */
static void print_text_general(struct gd_out *o, struct gd_print *pp,
							 const struct gd_rec *rec,
							 const struct vxgbp_pkt *p, uint64_t cross)
{
	int vxlan = (p->have & VXGBP_HAVE_VXLAN) != 0;

	print_time(o, pp, rec);
	print_link(o, pp, rec, p);
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
	print_l3_l4(o, rec->data, &p->outer, pp, vxlan, rec->wirelen);
	if (vxlan)
		print_vxlan_frame(o, pp, rec, p);
	print_err(o, p);
	if (vxlan) {
		uint64_t f = p->findings;

		/* the tunnel layers' own (a mirror's checksums) with the frame's */
		for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++)
			f |= p->encap_findings[i];
		print_findings(o, f, pp->verbose > 0);
		if (pp->verbose)
			print_findings(o, cross, 1); /* the tracker's, after the frame's own */
	}
	/* The frame length where the line has none of its own: a frame cut
	 * short or contradicting itself, a level without IP (-e prints it
	 * with the link header). */
	if (!pp->eflag && (p->err || p->outer.l3.off < 0)) {
		out_str(o, ", length ");
		out_u64(o, rec->wirelen);
	}
	out_putc(o, '\n');
}

/* The fast shapes first, then the general path. */
void print_text(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t cross)
{
	switch (fast_shape(pp, p)) {
	case FAST_VXLAN:
		print_text_common(o, pp, rec, p);
		return;
	case FAST_IP:
		print_text_ip(o, pp, rec, p);
		return;
	default:
		print_text_general(o, pp, rec, p, cross);
		return;
	}
}
