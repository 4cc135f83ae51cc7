// SPDX-License-Identifier: BSD-2-Clause
/*
 * print_json.c - one JSON object per frame, one per line (JSON Lines):
 *
 * {"frame":1,"time":"2023-11-14T22:13:20.000001Z","len":148,"caplen":148,
 *  "outer":{"src":"192.0.2.1","dst":"192.0.2.2","sport":49152,"dport":4789,...},
 *  "vxlan":{"flags":34880,"vni":100,"gbp":{"id":512,"dont_learn":true,
 *           "policy_applied":false,"name":"web"},"mark":4194816,...},
 *  "inner":{...},"findings":["gbp.reserved-flags"]}
 *
 * "vxlan" is null for a frame that is not VXLAN, "gbp" is null when G is
 * clear, "mark" is the skb->mark a Linux `gbp` VTEP would set; "findings"
 * the frame's own rule ids, then the cross-frame ones libvxgbp's tracker
 * found on it.  Times are UTC with microseconds.
 */
#include <string.h>
#include <time.h>

#include "labels.h"
#include "print.h"

/* "k": for a literal k, one copy of known length */
#define key(o, k) out_write((o), "\"" k "\":", sizeof("\"" k "\":") - 1)

static void json_time(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec)
{
	if (rec->sec != pp->utc_sec) {
		time_t t = (time_t)rec->sec;
		struct tm tm;

		if (!gmtime_r(&t, &tm) ||
		    !strftime(pp->utc_buf, sizeof(pp->utc_buf), "%Y-%m-%dT%H:%M:%S", &tm))
			strcpy(pp->utc_buf, "1970-01-01T00:00:00");
		pp->utc_sec = rec->sec;
	}
	out_putc(o, '"');
	out_str(o, pp->utc_buf);
	out_putc(o, '.');
	out_dec_pad(o, rec->nsec / 1000, 6);
	out_str(o, "Z\"");
}

static void json_addr(struct gd_out *o, const uint8_t *a, size_t len)
{
	out_putc(o, '"');
	out_addr(o, a, len);
	out_putc(o, '"');
}

static void json_mac(struct gd_out *o, const uint8_t *m)
{
	out_putc(o, '"');
	out_mac(o, m);
	out_putc(o, '"');
}

static const char *proto_name(uint8_t p)
{
	switch (p) {
	case 1:
		return "icmp";
	case 6:
		return "tcp";
	case 17:
		return "udp";
	case 58:
		return "icmp6";
	default:
		return NULL;
	}
}

/* "smac":..,"dmac":..[,"vlan":[..]],"ethertype":N */
static void json_l2(struct gd_out *o, const struct vxgbp_l2 *l2)
{
	if (l2->off >= 0 && l2->src) {
		key(o, "smac");
		json_mac(o, l2->src);
		out_putc(o, ',');
		key(o, "dmac");
		json_mac(o, l2->dst);
		if (l2->n_vlan) {
			out_putc(o, ',');
			key(o, "vlan");
			out_putc(o, '[');
			for (unsigned i = 0; i < l2->n_vlan; i++) {
				if (i)
					out_putc(o, ',');
				out_u64(o, l2->vlan_tci[i] & 0x0fff);
			}
			out_putc(o, ']');
		}
		out_putc(o, ',');
	}
	key(o, "ethertype");
	out_u64(o, l2->ethertype);
}

/* ,"ip":4,"src":..,"dst":..,"ttl":N,"proto":..[,fragment][,"label":..] */
static void json_ip(struct gd_out *o, const uint8_t *frame, const struct vxgbp_l3 *l3)
{
	size_t alen = l3->version == 6 ? 16 : 4;
	const char *pn;

	out_putc(o, ',');
	key(o, "ip");
	out_u64(o, l3->version);
	out_putc(o, ',');
	key(o, "src");
	json_addr(o, l3->src, alen);
	out_putc(o, ',');
	key(o, "dst");
	json_addr(o, l3->dst, alen);
	out_putc(o, ',');
	key(o, "ttl");
	out_u64(o, l3->ttl);
	out_putc(o, ',');
	key(o, "proto");
	if ((pn = proto_name(l3->proto)))
		out_json_str(o, pn);
	else
		out_u64(o, l3->proto);
	if (l3->more_frags || l3->frag_off) {
		out_putc(o, ',');
		key(o, "frag_off");
		out_u64(o, l3->frag_off);
		out_putc(o, ',');
		key(o, "more_frags");
		out_str(o, l3->more_frags ? "true" : "false");
	}
	labels_print_json(o, frame, l3);
}

/* ,"arp_op":N[,"src":..,"dst":..] */
static void json_arp(struct gd_out *o, const struct vxgbp_l3 *l3)
{
	out_putc(o, ',');
	key(o, "arp_op");
	out_u64(o, l3->arp_op);
	if (l3->arp_spa) {
		out_putc(o, ',');
		key(o, "src");
		json_addr(o, l3->arp_spa, 4);
		out_putc(o, ',');
		key(o, "dst");
		json_addr(o, l3->arp_tpa, 4);
	}
}

/* ,"sport":..,"dport":..,"tcp_flags":.. or ,"icmp_type":..,"icmp_code":.. */
static void json_l4(struct gd_out *o, const struct vxgbp_l4 *l4)
{
	if (l4->proto == 6 || l4->proto == 17) {
		out_putc(o, ',');
		key(o, "sport");
		out_u64(o, l4->sport);
		out_putc(o, ',');
		key(o, "dport");
		out_u64(o, l4->dport);
	}
	if (l4->proto == 6) {
		out_putc(o, ',');
		key(o, "tcp_flags");
		out_u64(o, l4->tcp_flags);
	} else if (l4->proto == 1 || l4->proto == 58) {
		out_putc(o, ',');
		key(o, "icmp_type");
		out_u64(o, l4->icmp_type);
		out_putc(o, ',');
		key(o, "icmp_code");
		out_u64(o, l4->icmp_code);
	}
}

/* The members of one level (outer or inner), without braces. */
static void json_level(struct gd_out *o, const uint8_t *frame, const struct vxgbp_layers *ls)
{
	json_l2(o, &ls->l2);
	if (ls->l3.off >= 0 && ls->l3.version)
		json_ip(o, frame, &ls->l3);
	else if (ls->l3.off >= 0)
		json_arp(o, &ls->l3);
	if (ls->l4.off >= 0)
		json_l4(o, &ls->l4);
}

/* ,"dont_learn":true,"policy_applied":false: the flags that mean something
 * only with G, named by libvxgbp's flag table. */
static void json_gbp_flags(struct gd_out *o, uint16_t flags)
{
	const struct vxgbp_flag_info *fi;

	for (unsigned i = 0; (fi = vxgbp_flag_get(i)); i++) {
		if (fi->needs != VXGBP_F_G || !(fi->set & VXGBP_FLAGSET_DRAFT))
			continue;
		out_str(o, ",\"");
		out_str(o, fi->key);
		out_str(o, "\":");
		out_str(o, (flags & fi->mask) ? "true" : "false");
	}
}

static void json_verdict(struct gd_out *o, const struct vxgbp_hdr *h, unsigned dev)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, dev, &v);
	out_json_str(o, v.accept ? "accept" : vxgbp_drop_name(v.why));
}

/* The rule ids of f, lowest rule first; *first: no id written yet. */
static void json_findings(struct gd_out *o, uint64_t f, int *first)
{
	/* only the set bits (most frames have none) */
	for (; f; f &= f - 1) {
		unsigned r = (unsigned)__builtin_ctzll(f);
		const struct vxgbp_rule_info *ri;

		if (r >= VXGBP_R__COUNT || !(ri = vxgbp_rule_get(r)))
			continue;
		if (!*first)
			out_putc(o, ',');
		out_json_str(o, ri->id);
		*first = 0;
	}
}

/* The "vxlan" object: header fields, group, mark, Linux verdicts. */
static void json_vxlan(struct gd_out *o, const struct gd_print *pp, const struct vxgbp_hdr *h)
{
	const char *name;

	out_str(o, "{\"flags\":");
	out_u64(o, h->flags);
	out_str(o, ",\"vni\":");
	out_u64(o, h->vni);
	out_str(o, ",\"gbp\":");
	if (vxgbp_hdr_has_gbp(h)) {
		out_str(o, "{\"id\":");
		out_u64(o, h->group);
		json_gbp_flags(o, h->flags);
		if ((name = vxgbp_groups_name(pp->groups, h->group))) {
			out_str(o, ",\"name\":");
			out_json_str(o, name);
		}
		out_putc(o, '}');
	} else {
		out_str(o, "null");
	}
	out_str(o, ",\"mark\":");
	out_u64(o, vxgbp_mark_from_hdr(h));
	out_str(o, ",\"id_field\":");
	out_u64(o, h->group);
	out_str(o, ",\"reserved\":");
	out_u64(o, h->rsvd);
	out_str(o, ",\"linux\":{\"gbp\":");
	json_verdict(o, h, VXGBP_DEV_GBP);
	out_str(o, ",\"plain\":");
	json_verdict(o, h, 0);
	out_str(o, "}}");
}

/* ,"KEY":{level} or ,"KEY":null */
static void json_opt_level(struct gd_out *o, const char *k, int present, const uint8_t *frame,
			   const struct vxgbp_layers *ls)
{
	out_str(o, k);
	if (!present) {
		out_str(o, "null");
		return;
	}
	out_putc(o, '{');
	json_level(o, frame, ls);
	out_putc(o, '}');
}

void print_json(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t xf)
{
	int first = 1;

	out_str(o, "{\"frame\":");
	out_u64(o, rec->no);
	out_str(o, ",\"time\":");
	json_time(o, pp, rec);
	out_str(o, ",\"len\":");
	out_u64(o, rec->wirelen);
	out_str(o, ",\"caplen\":");
	out_u64(o, rec->caplen);
	json_opt_level(o, ",\"outer\":", (p->have & (VXGBP_HAVE_L2 | VXGBP_HAVE_L3)) != 0,
		       rec->data, &p->outer);
	out_str(o, ",\"vxlan\":");
	if (p->have & VXGBP_HAVE_VXLAN)
		json_vxlan(o, pp, &p->vx);
	else
		out_str(o, "null");
	json_opt_level(o, ",\"inner\":", (p->have & VXGBP_HAVE_INNER_L2) != 0, rec->data,
		       &p->inner);
	out_str(o, ",\"findings\":[");
	json_findings(o, p->findings, &first);
	json_findings(o, xf, &first); /* the tracker's, after the frame's own */
	out_putc(o, ']');
	if (p->err) {
		out_str(o, ",\"error\":{\"kind\":");
		out_json_str(o, p->err == VXGBP_E_TRUNCATED ? "truncated"
			     : p->err == VXGBP_E_MALFORMED ? "malformed" : "unsupported");
		out_str(o, ",\"layer\":");
		out_json_str(o, p->err_layer ? p->err_layer : "?");
		out_str(o, ",\"offset\":");
		out_i64(o, p->err_off);
		out_putc(o, '}');
	}
	out_str(o, "}\n");
}
