// SPDX-License-Identifier: BSD-2-Clause
/*
 * print_json.c - one JSON object per frame, one per line (JSON Lines):
 *
 * {"frame":1,"time":"2023-11-14T22:13:20.000001Z","len":148,"caplen":148,
 *  "outer":{"src":"192.0.2.1","dst":"192.0.2.2","proto":17,"proto_name":"udp",...},
 *  "vxlan":{"kind":"vxlan","flags":34880,"vni":100,"gbp":{"id":512,
 *           "dont_learn":true,"policy_applied":false,"name":"web"},"mark":4194816,...},
 *  "inner":{...},"findings":["gbp.reserved-flags"],
 *  "finding_layers":[{"id":"gbp.reserved-flags","layer":"vxlan"}]}
 *
 * "encap" (the tunnel layers around the first VXLAN header, outermost
 * first) and "nested" (VXLAN headers inside its frame) appear when the
 * frame has them.  Every key has one JSON type; docs/json.md describes each
 * object and docs/gbpdump.schema.json is the schema tests/json checks every
 * line against.  Times are UTC with microseconds.
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

/* A string of our own or libvxgbp's tables (protocol, verdict and rule
 * names: letters, digits, '-', '.', '_'): quoted, nothing to escape, so
 * no scan for it. */
static void json_word(struct gd_out *o, const char *s)
{
	out_putc(o, '"');
	out_str(o, s);
	out_putc(o, '"');
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

/* The names of the IP protocols gbpdump meets (IANA keywords, lower case;
 * 58 keeps the "icmp6" it always had): printed as "proto_name" beside the
 * number, never instead of it. */
static const char *proto_name(uint8_t p)
{
	switch (p) {
	case 1:
		return "icmp";
	case 2:
		return "igmp";
	case 4:
		return "ipip";
	case 6:
		return "tcp";
	case 17:
		return "udp";
	case 41:
		return "ipv6";
	case 47:
		return "gre";
	case 50:
		return "esp";
	case 51:
		return "ah";
	case 58:
		return "icmp6";
	case 132:
		return "sctp";
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

/* ,"ip":4,"src":..,"dst":..,"ttl":N,"proto":N[,"proto_name":..][,fragment][,"label":..] */
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
	out_u64(o, l3->proto);
	if ((pn = proto_name(l3->proto))) {
		out_putc(o, ',');
		key(o, "proto_name");
		json_word(o, pn);
	}
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
	json_word(o, v.accept ? "accept" : vxgbp_drop_name(v.why));
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

/* The "vxlan" object of a VXLAN(-GBP) header: fields, group, mark, Linux
 * verdicts. */
static void json_vxlan(struct gd_out *o, const struct gd_print *pp, const struct vxgbp_hdr *h)
{
	const char *name;

	out_str(o, "{\"kind\":\"vxlan\",\"flags\":");
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

static void json_bool(struct gd_out *o, const char *k, int v)
{
	out_str(o, k);
	out_str(o, v ? "true" : "false");
}

/* The "vxlan" object of a VXLAN-GPE header: its own fields, none of GBP's
 * (its Next Protocol sits where GBP has the group).  nsh_off: where the
 * NSH header it carries starts, -1 for none. */
static void json_gpe(struct gd_out *o, const struct vxgbp_hdr *h, int nsh_off)
{
	uint8_t np = vxgbp_gpe_next_proto(h);
	const char *name = vxgbp_gpe_np_name(np);

	out_str(o, "{\"kind\":\"gpe\",\"flags\":");
	out_u64(o, h->flags);
	out_str(o, ",\"vni\":");
	out_u64(o, h->vni);
	out_str(o, ",\"version\":");
	out_u64(o, (h->flags & VXGBP_GPE_F_VER) >> __builtin_ctz(VXGBP_GPE_F_VER));
	json_bool(o, ",\"next_proto_present\":", h->flags & VXGBP_GPE_F_P);
	json_bool(o, ",\"bum\":", h->flags & VXGBP_GPE_F_B);
	json_bool(o, ",\"oam\":", h->flags & VXGBP_GPE_F_O);
	out_str(o, ",\"next_proto\":");
	out_u64(o, np);
	if (name) {
		out_str(o, ",\"next_proto_name\":");
		out_json_str(o, name);
	}
	if (nsh_off >= 0) {
		out_str(o, ",\"nsh_offset\":");
		out_u64(o, (unsigned)nsh_off);
	}
	out_str(o, ",\"reserved_byte2\":");
	out_u64(o, h->group >> 8);
	out_str(o, ",\"reserved\":");
	out_u64(o, h->rsvd);
	out_putc(o, '}');
}

static void json_hdr(struct gd_out *o, const struct gd_print *pp, const struct vxgbp_hdr *h,
		     unsigned kind, int nsh_off)
{
	if (kind == VXGBP_VX_GPE)
		json_gpe(o, h, nsh_off);
	else
		json_vxlan(o, pp, h);
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

/* "ip":4,"src":..,"dst":.., : the IP header that delivers a tunnel layer
 * (nothing when there is none) */
static void json_delivery(struct gd_out *o, uint8_t ver, const uint8_t *src, const uint8_t *dst)
{
	size_t alen = ver == 6 ? 16 : 4;

	if (!ver || !src || !dst)
		return;
	key(o, "ip");
	out_u64(o, ver);
	out_putc(o, ',');
	key(o, "src");
	json_addr(o, src, alen);
	out_putc(o, ',');
	key(o, "dst");
	json_addr(o, dst, alen);
	out_putc(o, ',');
}

/* ,"k":v */
static void json_num(struct gd_out *o, const char *k, uint64_t v)
{
	out_putc(o, ',');
	out_json_str(o, k);
	out_putc(o, ':');
	out_u64(o, v);
}

/* The fields of one tunnel layer that its kind has. */
static void json_encap_fields(struct gd_out *o, const struct vxgbp_encap *e)
{
	switch (e->kind) {
	case VXGBP_ENCAP_GRE:
	case VXGBP_ENCAP_ERSPAN1:
	case VXGBP_ENCAP_ERSPAN2:
	case VXGBP_ENCAP_ERSPAN3:
		json_num(o, "flags", e->flags); /* the GRE header's, ERSPAN's too */
		if (e->has_id)
			json_num(o, "key", e->id);
		if (e->kind == VXGBP_ENCAP_GRE || e->kind == VXGBP_ENCAP_ERSPAN1)
			break;
		json_num(o, "version", e->erspan_ver);
		json_num(o, "session", e->erspan_session);
		json_num(o, "vlan", e->erspan_vlan);
		break;
	case VXGBP_ENCAP_GENEVE:
		json_num(o, "sport", e->sport);
		json_num(o, "dport", e->dport);
		json_num(o, "flags", e->flags);
		json_num(o, "vni", e->id);
		json_num(o, "opt_len", e->opt_len);
		break;
	case VXGBP_ENCAP_MPLS:
		json_num(o, "label", e->id);
		json_num(o, "label_count", e->ver);
		break;
	default: /* IP in IP: the delivery and what it carries */
		break;
	}
	if (e->has_seq)
		json_num(o, "seq", e->seq);
}

/* ,"encap":[{"type":"gre",...},...]: the layers around the first VXLAN
 * header, outermost first (only when there are any). */
static void json_encap(struct gd_out *o, const struct vxgbp_pkt *p)
{
	const struct vxgbp_encap_info *ei;

	if (!p->n_encap)
		return;
	out_str(o, ",\"encap\":[");
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++) {
		const struct vxgbp_encap *e = &p->encap[i];

		out_str(o, i ? ",{" : "{");
		key(o, "type");
		ei = vxgbp_encap_get(e->kind);
		out_json_str(o, ei && ei->key ? ei->key : "unknown");
		out_putc(o, ',');
		if (e->eth_src && e->eth_dst) {
			key(o, "smac");
			json_mac(o, e->eth_src);
			out_putc(o, ',');
			key(o, "dmac");
			json_mac(o, e->eth_dst);
			out_putc(o, ',');
		}
		json_delivery(o, e->ip_version, e->ip_src, e->ip_dst);
		key(o, "ethertype");
		out_u64(o, e->proto);
		json_encap_fields(o, e);
		out_putc(o, '}');
	}
	out_putc(o, ']');
}

/* One further VXLAN header: its delivery, the header, its frame, its own
 * findings. */
static void json_nested_one(struct gd_out *o, const struct gd_print *pp, const uint8_t *frame,
			    const struct vxgbp_nested *n)
{
	int first = 1;

	out_putc(o, '{');
	json_delivery(o, n->ip_version, n->ip_src, n->ip_dst);
	key(o, "sport");
	out_u64(o, n->sport);
	out_putc(o, ',');
	key(o, "dport");
	out_u64(o, n->dport);
	out_putc(o, ',');
	key(o, "vxlan");
	json_hdr(o, pp, &n->vx, n->kind, -1);
	json_opt_level(o, ",\"inner\":",
		       (n->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3)) != 0, frame,
		       &n->inner);
	out_str(o, ",\"findings\":[");
	json_findings(o, n->findings, &first);
	out_str(o, "]}");
}

/* ,"nested":[...] (only when there are any) */
static void json_nested(struct gd_out *o, const struct gd_print *pp, const uint8_t *frame,
			const struct vxgbp_pkt *p)
{
	if (!p->n_nested)
		return;
	out_str(o, ",\"nested\":[");
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++) {
		if (i)
			out_putc(o, ',');
		json_nested_one(o, pp, frame, &p->nested[i]);
	}
	out_putc(o, ']');
}

/* ---- where each finding belongs ---- */

enum layer {
	LAYER_FRAME,  /* the frame as a whole */
	LAYER_OUTER,  /* what delivers the first VXLAN header (the whole frame
	                 when there is none) */
	LAYER_VXLAN,  /* the first VXLAN header */
	LAYER_INNER,  /* the frame it carries */
	LAYER_LABEL,  /* a CIPSO/CALIPSO option: the level that carries it */
	LAYER_ERROR,  /* where the parse stopped */
};

/* where the parse stopped: the frame's, also when a nested frame stopped it */
#define PARSE_RULES (VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED))

static const char *const layer_names[] = {
	[LAYER_FRAME] = "frame", [LAYER_OUTER] = "outer",
	[LAYER_VXLAN] = "vxlan", [LAYER_INNER] = "inner",
};

/* The layer of a rule among the frame's own findings: its scope in
 * libvxgbp's rule table. */
static enum layer rule_layer(unsigned r)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

	switch (ri ? ri->scope : VXGBP_SCOPE_FRAME) {
	case VXGBP_SCOPE_HEADER:
		return LAYER_VXLAN;
	case VXGBP_SCOPE_OUTER:
		return LAYER_OUTER;
	case VXGBP_SCOPE_INNER:
		return LAYER_INNER;
	case VXGBP_SCOPE_LABEL:
		return LAYER_LABEL;
	case VXGBP_SCOPE_PARSE:
		return LAYER_ERROR;
	default:
		return LAYER_FRAME;
	}
}

/* The label rules libvxgbp finds in the CIPSO/CALIPSO option of one level. */
static uint64_t label_rules(const uint8_t *frame, const struct vxgbp_l3 *l3)
{
	if (l3->off < 0)
		return 0;
	if (l3->cipso_off >= 0) {
		struct vxgbp_cipso c = { .findings = 0 };

		vxgbp_cipso_parse(&c, frame + l3->cipso_off, l3->cipso_len);
		return c.findings;
	}
	if (l3->calipso_off >= 0) {
		struct vxgbp_calipso c = { .findings = 0 };

		vxgbp_calipso_parse(&c, frame + l3->calipso_off, l3->calipso_len);
		return c.findings;
	}
	return 0;
}

/* Where the parse stopped: "nested[i]" (*nested = i), the first VXLAN
 * header, its frame, or what delivers it. */
static enum layer error_layer(const struct vxgbp_pkt *p, int *nested)
{
	const char *l = p->err_layer ? p->err_layer : "";

	for (unsigned i = p->n_nested; i-- > 0;)
		if (i < VXGBP_MAX_NESTED && p->nested[i].off >= 0 && p->err_off >= p->nested[i].off) {
			*nested = (int)i;
			return LAYER_FRAME;
		}
	if (!strcmp(l, "vxlan"))
		return LAYER_VXLAN;
	if (!strncmp(l, "inner", 5) ||
	    (p->vxlan_off >= 0 && p->err_off >= p->vxlan_off + VXGBP_HDR_LEN))
		return LAYER_INNER;
	return LAYER_OUTER;
}

/* {"id":..,"layer":..}; nested >= 0 names "nested[N]" */
static void json_located(struct gd_out *o, unsigned r, enum layer l, int nested, int *first)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

	if (!ri)
		return;
	out_str(o, *first ? "{\"id\":" : ",{\"id\":");
	*first = 0;
	out_json_str(o, ri->id);
	out_str(o, ",\"layer\":\"");
	if (nested >= 0) {
		out_str(o, "nested[");
		out_u64(o, (unsigned)nested);
		out_putc(o, ']');
	} else {
		out_str(o, layer_names[l]);
	}
	out_str(o, "\"}");
}

/* One rule of the frame's own findings, with the layer (or layers: a label
 * rule may hold in the outer and the inner option) it belongs to. */
static void json_locate(struct gd_out *o, const struct gd_rec *rec, const struct vxgbp_pkt *p,
			unsigned r, int *first)
{
	enum layer l = rule_layer(r);
	int nested = -1;

	if (l == LAYER_LABEL) {
		int n = 0;

		if (label_rules(rec->data, &p->outer.l3) & VXGBP_RB(r)) {
			json_located(o, r, LAYER_OUTER, -1, first);
			n++;
		}
		if ((p->have & VXGBP_HAVE_INNER_L3) &&
		    (label_rules(rec->data, &p->inner.l3) & VXGBP_RB(r))) {
			json_located(o, r, LAYER_INNER, -1, first);
			n++;
		}
		if (!n)
			json_located(o, r, LAYER_FRAME, -1, first);
		return;
	}
	if (l == LAYER_ERROR)
		l = error_layer(p, &nested);
	json_located(o, r, l, nested, first);
}

/* ,"finding_layers":[{"id":..,"layer":..},...]: every finding of the frame
 * with the layer it belongs to: the frame's own, the nested headers', then
 * the tracker's (which judges the first VXLAN header).  Only when there is
 * a finding. */
static void json_finding_layers(struct gd_out *o, const struct gd_rec *rec,
				const struct vxgbp_pkt *p, uint64_t xf)
{
	int first = 1;

	out_str(o, ",\"finding_layers\":[");
	for (uint64_t f = p->findings; f; f &= f - 1)
		json_locate(o, rec, p, (unsigned)__builtin_ctzll(f), &first);
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++)
		/* where the parse stopped is the frame's, located above */
		for (uint64_t f = p->nested[i].findings & ~(p->findings & PARSE_RULES); f;
		     f &= f - 1)
			json_located(o, (unsigned)__builtin_ctzll(f), LAYER_FRAME, (int)i, &first);
	for (; xf; xf &= xf - 1)
		json_located(o, (unsigned)__builtin_ctzll(xf), LAYER_VXLAN, -1, &first);
	out_putc(o, ']');
}

/* ,"findings":[ids][,"finding_layers":[..]][,"error":{..}] */
static void json_verdicts(struct gd_out *o, const struct gd_rec *rec, const struct vxgbp_pkt *p,
			  uint64_t xf)
{
	uint64_t own = p->findings;
	int first = 1;

	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++)
		own |= p->nested[i].findings;
	out_str(o, ",\"findings\":[");
	json_findings(o, own, &first);
	json_findings(o, xf, &first); /* the tracker's, after the frame's own */
	out_putc(o, ']');
	if (own | xf)
		json_finding_layers(o, rec, p, xf);
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
}

void print_json(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t xf)
{
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
	json_encap(o, p);
	out_str(o, ",\"vxlan\":");
	if (p->have & VXGBP_HAVE_VXLAN)
		json_hdr(o, pp, &p->vx, p->vx_kind, p->nsh_off);
	else
		out_str(o, "null");
	json_opt_level(o, ",\"inner\":",
		       (p->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3)) != 0, rec->data,
		       &p->inner);
	json_nested(o, pp, rec->data, p);
	json_verdicts(o, rec, p, xf);
	out_str(o, "}\n");
}
